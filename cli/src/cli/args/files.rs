//! The arguments of the commands that write and read files: `dimacs`, `decode`,
//! `export`, `import`, `generate`, `suite` and `merge` (parsing only, as in `mod.rs`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::values::{self, parse_seconds};
use super::{
    AmoArg, ExportFormatArg, ProjectionArg, PuzzleArg, SuiteStatusArg, SymmetryArg, STDIO,
};
use crate::part_result::PartSpec;

#[derive(Args, Debug)]
pub(in crate::cli) struct ExportArgs {
    #[command(flatten)]
    pub(in crate::cli) puzzle: PuzzleArg,
    #[arg(long, value_enum)]
    pub(in crate::cli) format: ExportFormatArg,
    /// Which solutions count as the same: the options the mode's reduction keeps are
    /// written, and `mzn` and `opb` add its canonical-form check as lex-leader
    /// constraints (`dlx` refuses a mode that needs one); `none` writes the whole matrix.
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    pub(in crate::cli) symmetry: Option<SymmetryArg>,
    /// Output file (`.gz` compresses), or `-` for standard output. `stl`: a directory
    /// (created if missing), one file per piece copy, or one `.stl` file holding them all.
    #[arg(short, long, default_value = STDIO)]
    pub(in crate::cli) output: PathBuf,
    /// `stl`, `3mf`: the cube size in mm. Default: 10.
    #[arg(long, value_name = "MM", allow_negative_numbers = true)]
    pub(in crate::cli) unit: Option<f64>,
    /// `stl`, `3mf`: the clearance in mm between two facing pieces; each face moves in by
    /// half of it, so printed pieces slide together. Default: 0.2.
    #[arg(long, value_name = "MM", allow_negative_numbers = true)]
    pub(in crate::cli) gap: Option<f64>,
    /// `stl`, `3mf`: place the pieces as assembled in solution N (from 1, in the order
    /// `enumerate --solver dlx` lists them) instead of laid out for printing.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(in crate::cli) solution: Option<u64>,
    /// `stl` into a directory: write into one that holds files already, removing the STL
    /// files there first (other files stay).
    #[arg(long)]
    pub(in crate::cli) force: bool,
    /// Stop after this many seconds, counting from the start (reading the puzzle, its
    /// placements, writing): nothing is written, exit 1.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(in crate::cli) timeout: Option<Duration>,
    #[arg(skip = Instant::now())]
    pub(in crate::cli) started: Instant,
}

#[derive(Args, Debug)]
pub(in crate::cli) struct ImportArgs {
    /// The BurrTools file (gzipped or plain XML).
    pub(in crate::cli) file: PathBuf,
    /// Which problem (its name, or its number from 1) when the file holds several.
    #[arg(long, value_name = "NAME|N")]
    pub(in crate::cli) problem: Option<String>,
    /// The puzzle file to write, or `-` for standard output.
    #[arg(short, long, default_value = STDIO)]
    pub(in crate::cli) output: PathBuf,
}

#[derive(Args, Debug)]
pub(in crate::cli) struct MergeArgs {
    /// Files holding the parts' `c part` lines (their standard output, plain or gzip).
    #[arg(required = true)]
    pub(in crate::cli) results: Vec<PathBuf>,
    /// Enumerations: join the parts' solution files into this file, in part order,
    /// numbered anew.
    #[arg(short, long)]
    pub(in crate::cli) output: Option<PathBuf>,
}

/// Puzzle kinds `generate` can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum GenerateKind {
    /// H coloured cubes with H colours (Instant Insanity): --cubes H.
    ColoredCubes,
    /// A box cut into random face-connected pieces, which plants a solution: --box X,Y,Z
    /// --pieces N.
    Polycubes,
}

#[derive(Args, Debug)]
pub(in crate::cli) struct GenerateArgs {
    pub(in crate::cli) kind: GenerateKind,
    /// Number of cubes (and colours), 1 to 26 (colored-cubes).
    #[arg(long, allow_negative_numbers = true)]
    pub(in crate::cli) cubes: Option<usize>,
    /// The box to cut, X,Y,Z (polycubes).
    #[arg(long = "box", value_name = "X,Y,Z", value_parser = values::parse_box)]
    pub(in crate::cli) box_size: Option<[usize; 3]>,
    /// How many pieces to cut the box into (polycubes).
    #[arg(long, allow_negative_numbers = true)]
    pub(in crate::cli) pieces: Option<usize>,
    /// Each piece's size in cells, A-B (polycubes). Default: one below to one above the
    /// mean size.
    #[arg(long, value_name = "A-B", value_parser = values::parse_size_range)]
    pub(in crate::cli) sizes: Option<(usize, usize)>,
    /// Draw again until the puzzle has exactly one solution up to rotations, and after
    /// --draws draws design one (as `polycover design`, no two pieces of one shape); say
    /// which did it (polycubes).
    #[arg(long)]
    pub(in crate::cli) unique: bool,
    /// An instance with no solution that is not trivially so: a puzzle with one solution
    /// (drawn, or designed after --draws draws) with a chiral piece mirrored, kept when
    /// the native engine finds no solution (polycubes).
    #[arg(long, conflicts_with = "unique")]
    pub(in crate::cli) unsat: bool,
    /// With --unique or --unsat: random cuts to draw before the design search (the one
    /// `polycover design` runs) takes over; 0 designs at once. Default: 1000. A number,
    /// not a time, so that a seed gives one puzzle on any machine.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = super::values::parse_draws)]
    pub(in crate::cli) draws: Option<u64>,
    /// Seed of the random choices: the same seed gives the same puzzle.
    #[arg(long, default_value = "1", allow_negative_numbers = true,
          value_parser = values::parse_seed)]
    pub(in crate::cli) seed: u64,
    /// Plant a solution, so the instance is solvable (colored-cubes).
    #[arg(long)]
    pub(in crate::cli) solvable: bool,
    /// Output file, or `-` for standard output.
    #[arg(short, long, default_value = STDIO)]
    pub(in crate::cli) output: PathBuf,
    /// Stop after this many seconds, counting from the start (a search with --unique or
    /// --unsat can take minutes): no file is written, exit 1, the draws and moves made
    /// named in the message.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(in crate::cli) timeout: Option<Duration>,
    #[arg(skip = Instant::now())]
    pub(in crate::cli) started: Instant,
}

#[derive(Args, Debug)]
pub(in crate::cli) struct SuiteArgs {
    /// The directory to write into: created if missing; one that holds anything is
    /// refused unless --force.
    pub(in crate::cli) dir: PathBuf,
    /// The family's name, which begins every file name (NAME-SEED.toml,
    /// NAME-SEED-ENC.cnf.gz): letters, digits, `_`, `-`, `.`.
    #[arg(long)]
    pub(in crate::cli) family: String,
    /// The box every instance packs, X,Y,Z.
    #[arg(long = "box", value_name = "X,Y,Z", default_value = "3,3,3",
          value_parser = values::parse_box)]
    pub(in crate::cli) box_size: [usize; 3],
    /// Pieces per instance, A-B (or N): seed S takes A + S mod (B - A + 1) pieces.
    #[arg(long, value_name = "A-B", default_value = "5-6",
          value_parser = values::parse_size_range)]
    pub(in crate::cli) pieces: (usize, usize),
    /// Each piece's size in cells, A-B. Default: one below to one above the mean size,
    /// for each instance's number of pieces.
    #[arg(long, value_name = "A-B", value_parser = values::parse_size_range)]
    pub(in crate::cli) sizes: Option<(usize, usize)>,
    /// Seeds, A-B (or N), both included: one instance each.
    #[arg(long, value_name = "A-B", default_value = "1-20",
          value_parser = values::parse_seed_range)]
    pub(in crate::cli) seeds: (u64, u64),
    /// Which instances are unsatisfiable (made by `generate polycubes --unsat`); the
    /// others are planted cuts, satisfiable.
    #[arg(long, value_enum, default_value = "mixed")]
    pub(in crate::cli) status: SuiteStatusArg,
    /// Seconds each native count (up to rotations, and of every solution) may run; a
    /// count stopped by it is left empty in the CSV, with a note.
    #[arg(long, value_name = "SECONDS", default_value = "10", allow_hyphen_values = true,
          value_parser = parse_seconds)]
    pub(in crate::cli) count_timeout: Duration,
    /// Write into a directory that holds files already, removing first every file of the
    /// kinds a suite writes (NAME-SEED.toml, NAME-SEED-ENC.cnf.gz of any family,
    /// instances.csv, README.md); others are left, and counted on a `c` line.
    #[arg(long)]
    pub(in crate::cli) force: bool,
    /// Also certify each instance's count of every solution (`--symmetry none`, the
    /// model count of its certified CNF): a directory certificates/NAME-SEED per instance
    /// that `polycover verify` checks (see `count --certify`), written by the memo within
    /// the count timeout; one it stops is left out, with a note.
    #[arg(long)]
    pub(in crate::cli) certify: bool,
}

#[derive(Args, Debug)]
pub(in crate::cli) struct DimacsArgs {
    #[command(flatten)]
    pub(in crate::cli) puzzle: PuzzleArg,
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    pub(in crate::cli) symmetry: Option<SymmetryArg>,
    /// At-most-one encoding of the CNF. Default: product (the lazy one is no CNF on its
    /// own).
    #[arg(long, value_enum, default_value_t = polycover::sat::Amo::CNF_DEFAULT.into())]
    pub(in crate::cli) amo: AmoArg,
    /// Projection line for model counters.
    #[arg(long, value_enum, default_value = "show")]
    pub(in crate::cli) projection: ProjectionArg,
    /// Output file (`.gz` compresses), or `-` for standard output (the default).
    #[arg(short, long, default_value = STDIO)]
    pub(in crate::cli) output: PathBuf,
    /// Only part K of N (as `count --part`): the part's subproblems become clauses, so
    /// that any solver or model counter can do one part.
    #[arg(long, value_name = "K/N")]
    pub(in crate::cli) part: Option<PartSpec>,
    /// Write the CNF even when its size passes the limit (10 M clauses or 50 M literals).
    #[arg(long)]
    pub(in crate::cli) force: bool,
    /// Write the CNF that `count --certify` certifies instead: a variable per placement,
    /// per cell at least one, per pair of placements on a cell not both, piece counts as
    /// plain clauses, no symmetry breaking, no auxiliary variables. Its model count is
    /// the count with `--symmetry none`; exact model counters (d4, Ganak) count it far
    /// faster than the SAT encodings.
    #[arg(long, conflicts_with_all = ["part", "projection", "amo"])]
    pub(in crate::cli) certified: bool,
    /// Stop after this many seconds, counting from the start (reading the puzzle,
    /// building the CNF, writing it): nothing is written, exit 1.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(in crate::cli) timeout: Option<Duration>,
    #[arg(skip = Instant::now())]
    pub(in crate::cli) started: Instant,
}

#[derive(Args, Debug)]
pub(in crate::cli) struct DecodeArgs {
    #[command(flatten)]
    pub(in crate::cli) puzzle: PuzzleArg,
    /// The solver's output: `s SATISFIABLE` and `v ... 0` lines, plain or gzip (`-`:
    /// standard input).
    #[arg(long)]
    pub(in crate::cli) model: PathBuf,
    /// The answer is to `dimacs --part K/N`: also accept the variable count of that
    /// part's formula (its selector variables come after the others).
    #[arg(long, value_name = "K/N")]
    pub(in crate::cli) part: Option<PartSpec>,
}
