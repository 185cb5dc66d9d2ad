//! The arguments of `info` (parsing only, as in `mod.rs`).

use clap::Args;

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
}
