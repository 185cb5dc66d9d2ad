//! The command line's arguments: the clap types, the only ones in the crate.
//!
//! Invariants:
//! - The core types (`Amo`, `Projection`, `SymmetryMode`, the export `Format`) know
//!   nothing of clap: each has a mirror here, with the same variants and the same doc
//!   comments (they are the help texts), converted both ways by exhaustive matches, so
//!   that a variant added to a core type fails to compile here until the command line
//!   offers it too. The SAT engine's other settings (`--backend`, `--decide`,
//!   `--strategy`) take the values, and their help, that the engine declares.
//! - A default is written once: the SAT options' defaults are the engine's own (its
//!   declared defaults), read by clap where it shows one and by the code that applies
//!   the options; the help texts that name a default in prose are checked against it by
//!   a test.
//! - Parsing only: what a command does with its arguments is in its own file.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::context::Context;
use crate::part_result::PartSpec;
use crate::sat::Amo;
use polycover::Problem;
use polycover::Puzzle;
use polycover::Result;
use polycover::Setting;

mod design;
mod files;
mod info;
mod values;

pub(super) use design::{DesignArgs, DesignStrategyArg, CAP};
pub(super) use files::{
    DecodeArgs, DimacsArgs, ExportArgs, GenerateArgs, GenerateKind, ImportArgs, MergeArgs,
    SuiteArgs,
};
pub(super) use info::InfoArgs;

use values::{
    parse_limit, parse_memory, parse_repeat, parse_samples, parse_seconds, parse_seed,
    parse_thread_list, parse_threads, ThreadList,
};
pub(super) use values::{AmoArg, ExportFormatArg, ProjectionArg, SuiteStatusArg, SymmetryArg};

/// The file name that means standard input or output.
pub(super) const STDIO: &str = "-";

/// Whether `path` means standard input or output (`-`).
pub(super) fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == STDIO
}

#[derive(Parser, Debug)]
#[command(
    name = "polycover",
    version,
    about = "Every solution of a packing puzzle: Dancing Links, bitsets, CNF and DIMACS"
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

/// The subcommands, each built only when it runs (`defer`): building every one for a
/// `--version` or a count of milliseconds took a seventh of `--version`'s CPU.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub(super) enum Command {
    /// Count the distinct solutions; the last line is `s mc N`.
    Count(CountArgs),
    /// Print one solution as z-layers (exit 10), or `s UNSATISFIABLE` (exit 20).
    Solve(SolveArgs),
    /// Stream the distinct solutions.
    Enumerate(EnumerateArgs),
    /// Print solutions drawn uniformly at random (up to symmetry: uniform over the
    /// distinct solutions), from the memo's counts.
    ///
    /// Exits 0 when the solutions are drawn, and 20 (as `solve` does for
    /// UNSATISFIABLE), after `c no solution to draw`, when the puzzle has no solution.
    Sample(SampleArgs),
    /// Show the pieces, their orientations and placements, and the symmetry group; with
    /// --difficulty, also how hard the puzzle is (solutions, DLX nodes, dead ends,
    /// first-move branching).
    Info(InfoArgs),
    /// List the puzzles shipped in the catalog.
    List,
    /// Write the puzzle as DIMACS CNF for external solvers and model counters.
    Dimacs(DimacsArgs),
    /// Read a SAT solver's answer (s/v lines, plain or gzip), check it and print it.
    Decode(DecodeArgs),
    /// Count with the DLX and with SAT in every encoding; fail if any two disagree.
    Check(CheckArgs),
    /// Measure engines and encodings against the DLX: a table, and optionally CSV and SVG.
    Bench(BenchArgs),
    /// Check a certificate directory that `count --certify` wrote: run the CPOG checker
    /// on every term, redo the Burnside arithmetic from the checked counts, print
    /// `s mc N`. Exits 0 when every term checks, 1 naming the first that fails.
    Verify(VerifyArgs),
    /// Write a random puzzle file.
    Generate(GenerateArgs),
    /// Cut a box into pieces and reshape them until the puzzle has exactly one solution
    /// up to rotations; write it with `[expect]`. Exits 0 when unique, 1 when --timeout
    /// stops it first, 130 at Ctrl-C (the best puzzle so far is written in each case).
    Design(DesignArgs),
    /// Write a benchmark family into a directory: generated polycube puzzles, each as its
    /// puzzle file and as gzipped DIMACS in every at-most-one encoding, with instances.csv
    /// (sizes, status, native counts, GBD hash) and a README.md describing the family.
    Suite(SuiteArgs),
    /// Add up the `c part` lines of `count --part` or `enumerate --part` runs (refusing a
    /// missing, duplicated or foreign part); join enumerations' files with `-o`.
    Merge(MergeArgs),
    /// Turn one problem of a BurrTools .xmpuzzle file into a polycover puzzle file.
    Import(ImportArgs),
    /// Write the puzzle for another program: `dlx` (Knuth's DLX input), `burrtools`,
    /// `mzn` (MiniZinc), `opb` (pseudo-Boolean).
    Export(ExportArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell), made from
    /// these very argument definitions. For bash:
    /// `polycover completions bash > ~/.local/share/bash-completion/completions/polycover`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), made from these argument definitions:
    /// `polycover man > polycover.1; man ./polycover.1`. With --dir, write every page:
    /// polycover.1 and one page per command with its options (polycover-count.1, ...),
    /// e.g. `polycover man --dir ~/.local/share/man/man1`.
    Man {
        /// Write polycover.1 and polycover-COMMAND.1 for every command into this
        /// directory (created if missing; pages of the same names are replaced).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

// Splitting a run into parts, and resuming it. (Plain comments on the flattened option
// sets: clap would take a doc comment for the `about` of every command that flattens
// one, and the subcommands are built late, `defer`, so it would win.)
#[derive(Args, Debug, Clone)]
pub(super) struct PartArgs {
    /// Run part K of N only: the search is cut into subproblems near the root, dealt
    /// round-robin into N parts. Ends with a `c part` line for `merge`.
    #[arg(long, value_name = "K/N")]
    pub(super) part: Option<PartSpec>,
    /// Record each finished subproblem in FILE; when FILE exists, continue the run it
    /// records (run the same command again after Ctrl-C, a kill or a crash). Not with
    /// `--solver frontier`, whose layers are not subproblems (the default is then the
    /// memo).
    #[arg(long, value_name = "FILE")]
    pub(super) checkpoint: Option<PathBuf>,
}

impl PartArgs {
    pub(super) fn given(&self) -> bool {
        self.part.is_some() || self.checkpoint.is_some()
    }
}

#[derive(Args, Debug)]
pub(super) struct BenchArgs {
    /// Puzzle files or catalog names (default: soma).
    pub(super) puzzles: Vec<PathBuf>,
    /// At-most-one encodings for the CNF engines: `all`, or a comma-separated list.
    /// Default: each engine's own (lazy for sat-cadical, product for the other backends
    /// and for the programs that read the CNF file).
    #[arg(long)]
    pub(super) amo: Option<String>,
    /// Engines, comma-separated: dlx, bits, memo (counts only: no first-solution time),
    /// frontier (the memo layer by layer where every piece has copies; counts only),
    /// sat (what `count --solver sat` runs: the
    /// build's default backend, sat-cadical, or sat-varisat without the cadical
    /// feature), sat-cadical (MRV decisions), sat-cadical-solver (CaDiCaL's own
    /// decisions), sat-varisat, sat-minisat, sat-glucose, sat-kissat (Kissat is not
    /// incremental: its rows time the first solution only), and the programs cadical
    /// and ganak (on the DIMACS),
    /// minizinc (Gecode, on the MiniZinc model) and cpsat (OR-Tools CP-SAT on the OPB
    /// model, run by python3 or $POLYCOVER_PYTHON). The DLX is always measured, as the
    /// reference for the ratios.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "dlx,bits,sat-cadical",
        value_parser = crate::bench::Entrant::parse
    )]
    pub(super) solvers: Vec<crate::bench::Entrant>,
    /// Also run a SAT solver on each encoding's DIMACS: NAME=COMMAND (repeatable), e.g.
    /// `cms='cryptominisat5 --verb 0'`. The path replaces `{}` or is appended; a wrong
    /// model or a wrong UNSAT in its answer fails the bench (exit 1).
    #[arg(long, value_name = "NAME=COMMAND", value_parser = crate::bench::DimacsSolver::parse_arg)]
    pub(super) external: Vec<crate::bench::DimacsSolver>,
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    pub(super) symmetry: Option<SymmetryArg>,
    /// Threads for every count, the DLX's included (the first solution: one thread); 0:
    /// every core. A comma-separated list (`1,2,4,8`) measures each engine's count at each
    /// of them, with its speed-up against the smallest, its CPU time and cores busy; the
    /// DLX then runs only when `--solvers` names it.
    #[arg(long, default_value = "1", value_name = "N[,N...]", allow_negative_numbers = true,
          value_parser = parse_thread_list)]
    pub(super) threads: ThreadList,
    /// Runs of each measurement; the table shows medians with min and max.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = parse_repeat)]
    pub(super) repeat: u32,
    /// Seconds after which a count stops (it then reports solutions per second).
    #[arg(long, default_value = "60", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(super) timeout: Duration,
    /// Write the rows as CSV.
    #[arg(long)]
    pub(super) csv: Option<PathBuf>,
    /// Draw the times as an SVG chart (log scale).
    #[arg(long)]
    pub(super) svg: Option<PathBuf>,
    /// Internal: measure one run of the one engine on the one puzzle in this process and
    /// print it as JSON (how `bench` measures each run in a fresh process).
    #[arg(long, hide = true)]
    pub(super) measure_once: bool,
}

#[derive(Args, Debug, Clone)]
pub(super) struct SatArgs {
    /// At-most-one encoding for the CNF (with --solver sat). Default: lazy with cadical
    /// (its propagator enforces it), product with the other backends.
    #[arg(long, value_enum)]
    pub(super) amo: Option<AmoArg>,
    /// Embedded SAT solver (with --solver sat). Default: cadical (varisat in builds
    /// without default features).
    #[arg(long, value_parser = values::declared_values(Setting::Backend))]
    pub(super) backend: Option<String>,
    /// Who picks CaDiCaL's decisions: `mrv`, a placement of the most constrained cell or
    /// piece, or `solver`, CaDiCaL's own heuristics. Default: mrv.
    #[arg(long, value_parser = values::declared_values(Setting::Decide))]
    pub(super) decide: Option<String>,
    /// How the SAT solver enumerates (with --solver sat). Default: `plain` for `solve`
    /// and `enumerate` (one solver: the first model comes fastest without cubes), `cubes`
    /// for `count` and split or resumed runs.
    #[arg(long, value_parser = values::declared_values(Setting::Strategy))]
    pub(super) strategy: Option<String>,
    /// The order the layers of --solver frontier take the cells in. Default: narrowest.
    #[arg(long, value_parser = values::declared_values(Setting::Sweep))]
    pub(super) sweep: Option<String>,
    /// A CaDiCaL option, NAME=VALUE (repeatable), set after polycover's defaults
    /// (inprocessing=0 restart=0 chrono=2 bump=0 walk=0 lucky=0 shrinkreap=0).
    #[arg(long = "sat-option", value_name = "NAME=VALUE")]
    pub(super) sat_options: Vec<String>,
    /// Build the CNF (with --solver sat) even when its size passes the limit (10 M
    /// clauses or 50 M literals). With `enumerate --svg/--html DIR`, also write into a
    /// directory that holds files, removing the pictures an earlier run left there; with
    /// `count --certify DIR`, removing an earlier certificate's files.
    #[arg(long)]
    pub(super) force: bool,
}

impl SatArgs {
    /// The SAT options given, as the engine's settings take them (setting, value), in the
    /// order of `--help`: what `cli/engines.rs` configures an engine with.
    pub(super) fn given(&self) -> Vec<(Setting, String)> {
        let named = [
            (Setting::Amo, self.amo.map(|x| Amo::from(x).name())),
            (Setting::Backend, self.backend.as_deref()),
            (Setting::Decide, self.decide.as_deref()),
            (Setting::Strategy, self.strategy.as_deref()),
            (Setting::Sweep, self.sweep.as_deref()),
        ];
        let mut given: Vec<(Setting, String)> = named
            .into_iter()
            .filter_map(|(setting, value)| Some((setting, value?.to_string())))
            .collect();
        given.extend(
            self.sat_options
                .iter()
                .map(|option| (Setting::SatOption, option.clone())),
        );
        if self.force {
            given.push((Setting::Force, "true".into()));
        }
        given
    }
}

#[derive(Args, Debug)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    pub(super) puzzle: PuzzleArg,
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    pub(super) symmetry: Option<SymmetryArg>,
    /// Default: cadical (varisat in builds without default features).
    #[arg(long, value_parser = values::declared_values(Setting::Backend))]
    pub(super) backend: Option<String>,
    /// Build the CNFs even when their size passes the limit (10 M clauses or 50 M
    /// literals).
    #[arg(long)]
    pub(super) force: bool,
    /// Stop after this many seconds, counting from the start: the counts made so far
    /// stay printed, then `c stopped by the timeout` and `s UNKNOWN`, exit 1.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
    #[arg(skip = Instant::now())]
    pub(super) started: Instant,
}

#[derive(Args, Debug)]
pub(super) struct PuzzleArg {
    /// A puzzle file (polycover's TOML, or a BurrTools .xmpuzzle), the name of a catalog
    /// puzzle (see `polycover list`), or `-` for standard input.
    pub(super) puzzle: PathBuf,
    /// Which problem of a BurrTools file (its name, or its number from 1) when it holds
    /// several; `info` lists them.
    #[arg(long, value_name = "NAME|N")]
    pub(super) problem: Option<String>,
}

impl PuzzleArg {
    /// The puzzle, read within the command's stop (`ctx`).
    pub(super) fn load(&self, ctx: &Context) -> Result<Puzzle> {
        Puzzle::load_with(&self.puzzle, self.problem.as_deref(), ctx.stop())
    }

    /// The puzzle compiled in `mode` (its default when `None`), with its reduction.
    pub(super) fn problem(&self, mode: Option<SymmetryArg>, ctx: &Context) -> Result<Problem> {
        let puzzle = self.load(ctx)?;
        let mode = mode.map_or(puzzle.default_symmetry(), Into::into);
        puzzle.compile(mode)
    }
}

#[derive(Args, Debug)]
pub(super) struct SearchArgs {
    #[command(flatten)]
    pub(super) puzzle: PuzzleArg,
    /// Which solutions count as the same.
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    pub(super) symmetry: Option<SymmetryArg>,
    /// The engine (`sat` takes the SAT options below). Default: bits; `count` takes
    /// frontier (memo where no sweep's layers apply) when pieces with copies make most of
    /// a solution and the search is large.
    #[arg(long, value_parser = values::solver_values())]
    pub(super) solver: Option<String>,
    #[command(flatten)]
    pub(super) sat: SatArgs,
    /// Stop after this many seconds: the run reports what it found on `c` lines (a count
    /// then ends with `s UNKNOWN`) and exits 1.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
    /// When the command line was read: `--timeout` counts from here, so reading the
    /// puzzle and choosing the engine come out of its seconds.
    #[arg(skip = Instant::now())]
    pub(super) started: Instant,
}

#[derive(Args, Debug)]
pub(super) struct CountArgs {
    #[command(flatten)]
    pub(super) search: SearchArgs,
    /// Worker threads, 1 to 1024, at most one per core at a time (default, and 0: the
    /// number of cores this process may use).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_threads)]
    pub(super) threads: Option<usize>,
    /// The most memory a counter's table of subproblem counts (`--solver memo`) or layers
    /// (`--solver frontier`) may take, like 4G or 512M; past it, the memo forgets the
    /// cheapest entries and goes on, and the frontier refuses. Default: a quarter of the
    /// machine's memory, at most 4G.
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = parse_memory)]
    pub(super) memory: Option<usize>,
    #[command(flatten)]
    pub(super) parts: PartArgs,
    /// Also write a certificate of the count into DIR (made if missing): the CNF whose
    /// models are the solutions, its CPOG certificate for an independent checker, a
    /// MANIFEST and a README; up to symmetry, one pair per Burnside term. With the memo
    /// the graph is its table of subproblems; with dlx or bits the search tree; with sat
    /// the models found. Check it with `polycover verify DIR`.
    #[arg(long, value_name = "DIR")]
    pub(super) certify: Option<PathBuf>,
}

// `polycover verify`.
#[derive(Args, Debug)]
pub(super) struct VerifyArgs {
    /// The directory `count --certify` wrote.
    #[arg(value_name = "DIR")]
    pub(super) dir: PathBuf,
    /// The CPOG checker to run (default: `cpog-check` on PATH).
    #[arg(long, value_name = "PATH")]
    pub(super) checker: Option<PathBuf>,
    /// Also check that the certificate is of this puzzle (a file or a catalog name): its
    /// identity CNF is rebuilt from the puzzle and compared clause by clause, and the
    /// terms' group with the puzzle's in the certificate's symmetry mode. Without it, the
    /// CNF is trusted to say what the puzzle says.
    #[arg(long, value_name = "FILE")]
    pub(super) puzzle: Option<PathBuf>,
    /// Stop after this many seconds (the checker is stopped too): `c stopped by the
    /// timeout`, `s UNKNOWN`, exit 1 (a signal: exit 128 + the signal).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
    #[arg(skip = Instant::now())]
    pub(super) started: Instant,
}

#[derive(Args, Debug)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    pub(super) search: SearchArgs,
    /// Also draw the solution as an SVG picture in this file.
    #[arg(long, value_name = "FILE")]
    pub(super) svg: Option<PathBuf>,
    /// Also write the solution as a 3-D view in this file: one self-contained HTML page
    /// (WebGL, nothing fetched) to turn, zoom, take apart and step through (polycubes).
    #[arg(long, value_name = "FILE")]
    pub(super) html: Option<PathBuf>,
    /// With --solver sat: when the answer is UNSATISFIABLE, write a DRAT proof of it to
    /// this file, for a checker such as `rate` or `drat-trim` with the CNF that
    /// `polycover dimacs` writes (same puzzle, --symmetry and --amo). The proof covers
    /// the symmetry clauses as part of the formula. Made by varisat, in one solve without
    /// the MRV propagator; no file is written when a solution exists.
    #[arg(long, value_name = "FILE")]
    pub(super) proof: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum RecordFormat {
    Text,
    Jsonl,
}

impl RecordFormat {
    /// The name a `c part` line and a checkpoint record.
    pub(super) fn name(self) -> &'static str {
        match self {
            RecordFormat::Text => "text",
            RecordFormat::Jsonl => "jsonl",
        }
    }
}

// Where the solutions of `enumerate` and `sample` go: one set of options, flattened
// into both commands.
#[derive(Args, Debug)]
pub(super) struct RecordArgs {
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
    /// `text`: each solution as `solution N` and its z-layers; `jsonl`: one JSON object
    /// per line.
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: RecordFormat,
    /// Also draw each solution as an SVG picture in this directory (created if needed;
    /// one that holds files needs --force): solution-000001.svg, ...
    #[arg(long, value_name = "DIR")]
    pub(super) svg: Option<PathBuf>,
    /// Also write each solution as a 3-D view in this directory (created if needed; one
    /// that holds files needs --force): solution-000001.html, ... (self-contained HTML
    /// with WebGL; polycubes).
    #[arg(long, value_name = "DIR")]
    pub(super) html: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(super) struct EnumerateArgs {
    #[command(flatten)]
    pub(super) search: SearchArgs,
    /// Stop after this many solutions (at least 1).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_limit)]
    pub(super) limit: Option<u64>,
    #[command(flatten)]
    pub(super) records: RecordArgs,
    #[command(flatten)]
    pub(super) parts: PartArgs,
}

#[derive(Args, Debug)]
pub(super) struct SampleArgs {
    #[command(flatten)]
    pub(super) puzzle: PuzzleArg,
    /// Which solutions count as the same: each distinct solution is as likely as any
    /// other (`none`: each solution). Default: rotations (polycubes), stack (coloured
    /// cubes).
    #[arg(long, value_enum)]
    pub(super) symmetry: Option<SymmetryArg>,
    /// How many solutions to draw (independently: one may come out twice).
    #[arg(short = 'n', long = "count", value_name = "N", default_value = "1",
          allow_negative_numbers = true, value_parser = parse_samples)]
    pub(super) draws: u64,
    /// Seed of the random draws: the same seed gives the same solutions. Default: a new
    /// seed each run, printed on standard error.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
    pub(super) seed: Option<u64>,
    /// The most memory the table of subproblem counts may take, like 4G or 512M.
    /// Default: a quarter of the machine's memory, at most 4G.
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = parse_memory)]
    pub(super) memory: Option<usize>,
    /// Stop after this many seconds: the solutions drawn so far stay written, and the run
    /// exits 1.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
    /// When the command line was read: `--timeout` counts from here.
    #[arg(skip = Instant::now())]
    pub(super) started: Instant,
    #[command(flatten)]
    pub(super) records: RecordArgs,
    /// Let --svg and --html write into a directory that holds files, removing the
    /// pictures an earlier run left there (solution-NNNNNN.svg/.html; nothing else).
    #[arg(long)]
    pub(super) force: bool,
}

impl Command {
    /// Whether what the command makes goes to standard output, so that a reader closing
    /// it makes the rest of the run pointless.
    pub(super) fn product_on_stdout(&self) -> bool {
        let to_stdout = is_stdio;
        match self {
            Command::Enumerate(a) => a.records.output.as_deref().is_none_or(to_stdout),
            Command::Sample(a) => a.records.output.as_deref().is_none_or(to_stdout),
            Command::Dimacs(a) => to_stdout(&a.output),
            Command::Export(a) => to_stdout(&a.output),
            Command::Import(a) => to_stdout(&a.output),
            Command::Generate(a) => to_stdout(&a.output),
            Command::Design(a) => to_stdout(&a.output),
            Command::Suite(_) => false,
            Command::Merge(a) => a.output.is_none(),
            Command::Bench(a) => a.csv.is_none() && a.svg.is_none(),
            Command::Solve(a) => a.svg.is_none() && a.html.is_none(),
            Command::Man { dir } => dir.is_none(),
            // Listed one by one, no `_` arm: a new command says here whether its product
            // goes to standard output (and so gets the watcher), or it does not compile.
            Command::Count(_)
            | Command::Info(_)
            | Command::List
            | Command::Decode(_)
            | Command::Check(_)
            | Command::Verify(_)
            | Command::Completions { .. } => true,
        }
    }
}

impl Command {
    /// When the command's `--timeout` ends, for everything it does on the main thread
    /// that waits without a deadline of its own (a FIFO's other end, the option table):
    /// the command's stop has it as its deadline (`cli/context.rs`).
    pub(super) fn deadline(&self) -> Option<Instant> {
        match self {
            Command::Count(a) => a.search.deadline(),
            Command::Solve(a) => a.search.deadline(),
            Command::Enumerate(a) => a.search.deadline(),
            Command::Sample(a) => deadline(a.started, a.timeout),
            Command::Info(a) => deadline(a.started, a.timeout),
            Command::Verify(a) => deadline(a.started, a.timeout),
            Command::Check(a) => deadline(a.started, a.timeout),
            Command::Dimacs(a) => deadline(a.started, a.timeout),
            Command::Export(a) => deadline(a.started, a.timeout),
            Command::Generate(a) => deadline(a.started, a.timeout),
            _ => None,
        }
    }
}

/// When a `--timeout` read at `started` ends: `None` without one, or past what the clock
/// counts (`inf`).
pub(in crate::cli) fn deadline(started: Instant, timeout: Option<Duration>) -> Option<Instant> {
    timeout.and_then(|t| started.checked_add(t))
}

impl SearchArgs {
    /// The puzzle compiled, its option table made within `--timeout` (the command's
    /// stop has [`Command::deadline`]).
    pub(super) fn load(&self, ctx: &Context) -> Result<Problem> {
        self.puzzle.problem(self.symmetry, ctx)
    }

    pub(super) fn deadline(&self) -> Option<Instant> {
        deadline(self.started, self.timeout)
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// The long help of `polycover count --NAME`.
    fn help(name: &str) -> String {
        // Built: the subcommands' arguments are added only then (`defer`).
        let mut command = Cli::command();
        command.build();
        let count = command.find_subcommand("count").expect("count");
        let arg = count
            .get_arguments()
            .find(|a| a.get_id() == name)
            .unwrap_or_else(|| panic!("--{name}"));
        arg.get_help().expect("a help text").to_string()
    }

    /// The defaults the help texts name in prose are the engine's.
    #[test]
    fn help_texts_name_the_engines_defaults() {
        let default = |s| crate::cli::engines::declared_default(s).unwrap();
        // The at-most-one encoding follows the backend: the help names both.
        let amo = help("amo");
        assert!(amo.contains(&format!("Default: {} with cadical", default(Setting::Amo))));
        let other = polycover::sat::Amo::CNF_DEFAULT.name();
        assert!(
            amo.contains(&format!("{other} with the other backends")),
            "{amo}"
        );
        assert!(help("decide").ends_with(&format!("Default: {}", default(Setting::Decide))));
    }
}
