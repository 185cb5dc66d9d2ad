//! The arguments of `design` (parsing only, as in `mod.rs`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::values::{self, parse_seconds};
use super::STDIO;

/// How the design search moves (`polycover::design::Strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum DesignStrategyArg {
    /// Hill climbing that accepts equal counts, kicked back from the best after a while.
    Climb,
    /// Simulated annealing.
    Anneal,
}

/// What the design search makes as large as it can once the puzzle is unique.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum MaximizeArg {
    /// Nothing: stop at the first unique puzzle.
    None,
    /// The DLX's search-tree nodes: climb over unique puzzles until --timeout and keep
    /// the hardest.
    Nodes,
    /// The DLX's dead ends (leaves without a solution, the wrong placements a solver
    /// backs out of): climb as for nodes.
    DeadEnds,
    /// The options of the first move (of the most constrained cell or piece): climb as
    /// for nodes, to a puzzle that forces no piece at the start.
    FirstMove,
}

impl MaximizeArg {
    /// The measure to climb on; `None` for no climb.
    pub(in crate::cli) fn measure(self) -> Option<crate::design::Measure> {
        match self {
            MaximizeArg::None => None,
            MaximizeArg::Nodes => Some(crate::design::Measure::Nodes),
            MaximizeArg::DeadEnds => Some(crate::design::Measure::DeadEnds),
            MaximizeArg::FirstMove => Some(crate::design::Measure::FirstMove),
        }
    }
}

#[derive(Args, Debug)]
pub(in crate::cli) struct DesignArgs {
    /// The box to cut, X,Y,Z (or take the box of --from).
    #[arg(long = "box", value_name = "X,Y,Z", value_parser = values::parse_box)]
    pub(in crate::cli) box_size: Option<[usize; 3]>,
    /// How many pieces to cut the box into.
    #[arg(long, allow_negative_numbers = true)]
    pub(in crate::cli) pieces: Option<usize>,
    /// Each piece's size in cells, A-B (or A..B). Default: one below to one above the
    /// mean size.
    #[arg(long, value_name = "A-B", value_parser = parse_sizes)]
    pub(in crate::cli) sizes: Option<(usize, usize)>,
    /// Seed of the first cut and of the moves.
    #[arg(long, default_value = "1", allow_negative_numbers = true, value_parser = values::parse_seed)]
    pub(in crate::cli) seed: u64,
    /// Start from this polycube puzzle of a box (its first solution is the first cut)
    /// instead of a random cut.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["box_size", "pieces"])]
    pub(in crate::cli) from: Option<PathBuf>,
    /// Let two pieces have the same shape (by default every piece is a shape of its own).
    #[arg(long)]
    pub(in crate::cli) allow_duplicates: bool,
    /// No piece may be its own mirror image.
    #[arg(long)]
    pub(in crate::cli) chiral: bool,
    /// Never change the pieces of --from whose shapes this puzzle file has.
    #[arg(long, value_name = "FILE", requires = "from")]
    pub(in crate::cli) keep: Option<PathBuf>,
    /// Every piece lies in one plane.
    #[arg(long)]
    pub(in crate::cli) flat_pieces: bool,
    /// Stop after this many seconds and write the best puzzle so far (exit 1 unless it
    /// is unique).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(in crate::cli) timeout: Option<Duration>,
    /// How the search moves.
    #[arg(long, value_enum, default_value = "climb")]
    pub(in crate::cli) strategy: DesignStrategyArg,
    /// Count the first cut, and candidates that fix a shape rule, up to this many
    /// solutions; more stands for "at least this many". At least 2.
    #[arg(long, value_name = "N", default_value_t = CAP, value_parser = parse_cap, allow_negative_numbers = true)]
    pub(in crate::cli) cap: u64,
    /// Once unique, keep reshaping the pieces until --timeout (required), through unique
    /// puzzles only, and write the one with the most of this: `nodes`, the DLX's
    /// search-tree nodes (the hardest for it).
    #[arg(long, value_enum, default_value = "none")]
    pub(in crate::cli) maximize: MaximizeArg,
    /// Measure the result's difficulty (solutions, DLX nodes, dead ends, first-move
    /// branching): `c difficulty` lines, and a comment in the puzzle file.
    #[arg(long)]
    pub(in crate::cli) report: bool,
    /// Walks side by side, one per worker thread, 1 to 1024, at most one per core at a
    /// time (default, and 0: the number of cores this process may use). With 1 the
    /// design is reproducible: the same seed gives the same puzzle.
    #[arg(long, allow_negative_numbers = true, value_parser = values::parse_threads)]
    pub(in crate::cli) threads: Option<usize>,
    /// Draw moves uniformly by cell, not by how many ways each piece fits the box.
    #[arg(long, hide = true)]
    pub(in crate::cli) uniform_moves: bool,
    /// Write the curve of the best score over time into this CSV file: one line per
    /// improvement, `seconds,faults,solutions,kind` (kind: `exact`, `at-least` for a
    /// count stopped at its cap, `about` for an estimate).
    #[arg(long, value_name = "FILE")]
    pub(in crate::cli) curve: Option<PathBuf>,
    /// Draw the best puzzle's first solution (its pieces in place) into this SVG file.
    #[arg(long, value_name = "FILE")]
    pub(in crate::cli) svg: Option<PathBuf>,
    /// Output file, or `-` for standard output.
    #[arg(short, long, default_value = STDIO)]
    pub(in crate::cli) output: PathBuf,
    /// When the command line was read: `--timeout` counts from here.
    #[arg(skip = Instant::now())]
    pub(in crate::cli) started: Instant,
}

/// `--cap`'s default.
pub(in crate::cli) const CAP: u64 = 10_000;

/// `--cap`: at least 2. A count stopped at 0 or 1 solutions cannot tell a unique puzzle
/// from one with more; the search counts to 2 whatever it is given, and a cap asked for
/// does not silently become another.
fn parse_cap(s: &str) -> Result<u64, String> {
    let range = || {
        format!(
            "`{s}`: the cap must be a whole number from 2 to {}",
            u64::MAX
        )
    };
    let n: u64 = s.trim().parse().map_err(|_| range())?;
    if n < 2 {
        return Err(format!(
            "`{s}`: the cap must be at least 2 (a count stopped below 2 solutions cannot \
             tell a unique puzzle from one with more)"
        ));
    }
    Ok(n)
}

/// `--sizes`: A-B as `generate` takes it, or A..B.
fn parse_sizes(s: &str) -> Result<(usize, usize), String> {
    values::parse_size_range(&s.replacen("..", "-", 1))
}
