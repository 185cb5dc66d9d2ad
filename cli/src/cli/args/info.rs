//! The arguments of `info` (parsing only, as in `mod.rs`).

use std::time::{Duration, Instant};

use clap::Args;

use super::values::parse_seconds;
use super::{PuzzleArg, SymmetryArg};

#[derive(Args, Debug)]
pub(in crate::cli) struct InfoArgs {
    #[command(flatten)]
    pub(in crate::cli) puzzle: PuzzleArg,
    /// Also measure how hard the puzzle is: its solutions, the nodes and dead ends of the
    /// DLX's search tree, and the branching of its first levels (walks the whole tree:
    /// as long as `count --solver dlx --threads 1`).
    #[arg(long)]
    pub(in crate::cli) difficulty: bool,
    /// The symmetry the difficulty is measured up to. Default: rotations (polycubes),
    /// stack (coloured cubes).
    #[arg(long, value_enum, requires = "difficulty")]
    pub(in crate::cli) symmetry: Option<SymmetryArg>,
    /// Stop the difficulty measures after this many seconds (counted, as `count
    /// --timeout`, from the start): `c stopped by the timeout` instead of the figures,
    /// and exit 1.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds,
          requires = "difficulty")]
    pub(in crate::cli) timeout: Option<Duration>,
    /// When the command line was read: `--timeout` counts from here.
    #[arg(skip = Instant::now())]
    pub(in crate::cli) started: Instant,
}
