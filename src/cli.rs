//! The command line: argument parsing (clap) and the commands, writing to any `Write`.
//!
//! Output follows the SAT conventions: diagnostics on `c ` lines, answers on `s ` lines,
//! exit codes 10 (a solution) and 20 (none) for `solve`. Errors go to standard error with
//! the exit code [`Error::exit_code`] gives.

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::catalog;
use crate::engine::{
    deadline_after, Engine, Problem, Progress, Report, RunOptions, SatEngine, MAX_THREADS,
};
use crate::error::{Error, Result};
use crate::output;
use crate::parts::PartSpec;
use crate::puzzle::burrtools;
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};
use crate::sat::dimacs::{self, Answer, Projection};
use crate::sat::{Amo, Backend, Decide, Strategy};
use crate::solver;

mod parts;

#[derive(Parser, Debug)]
#[command(
    name = "polycover",
    version,
    about = "Every solution of a packing puzzle: Dancing Links, bitsets, CNF and DIMACS"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the distinct solutions; the last line is `s mc N`.
    Count(CountArgs),
    /// Print one solution as z-layers (exit 10), or `s UNSATISFIABLE` (exit 20).
    Solve(SolveArgs),
    /// Stream the distinct solutions.
    Enumerate(EnumerateArgs),
    /// Show the pieces, their orientations and placements, and the symmetry group.
    Info(PuzzleArg),
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
    /// Write a random puzzle file.
    Generate(GenerateArgs),
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
    /// `polycover man > polycover.1; man ./polycover.1`.
    Man,
}

#[derive(Args, Debug)]
struct ExportArgs {
    #[command(flatten)]
    puzzle: PuzzleArg,
    #[arg(long, value_enum)]
    format: crate::export::Format,
    /// Which solutions count as the same: the options the mode's reduction keeps are
    /// written, and `mzn` and `opb` add its canonical-form check as lex-leader
    /// constraints (`dlx` refuses a mode that needs one); `none` writes the whole matrix.
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    symmetry: Option<SymmetryMode>,
    /// Output file (`.gz` compresses), or `-` for standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

#[derive(Args, Debug)]
struct ImportArgs {
    /// The BurrTools file (gzipped or plain XML).
    file: PathBuf,
    /// Which problem (its name, or its number from 1) when the file holds several.
    #[arg(long, value_name = "NAME|N")]
    problem: Option<String>,
    /// The puzzle file to write, or `-` for standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// Files holding the parts' `c part` lines (their standard output, plain or gzip).
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// Enumerations: join the parts' solution files into this file, in part order,
    /// numbered anew.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Splitting a run into parts, and resuming it.
#[derive(Args, Debug, Clone)]
struct PartArgs {
    /// Run part K of N only: the search is cut into subproblems near the root, dealt
    /// round-robin into N parts. Ends with a `c part` line for `merge`.
    #[arg(long, value_name = "K/N")]
    part: Option<PartSpec>,
    /// Record each finished subproblem in FILE; when FILE exists, continue the run it
    /// records (run the same command again after Ctrl-C, a kill or a crash).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
}

impl PartArgs {
    fn given(&self) -> bool {
        self.part.is_some() || self.checkpoint.is_some()
    }
}

/// Puzzle kinds `generate` can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GenerateKind {
    /// H coloured cubes with H colours (Instant Insanity).
    ColoredCubes,
}

#[derive(Args, Debug)]
struct GenerateArgs {
    kind: GenerateKind,
    /// Number of cubes (and colours), 1 to 26.
    #[arg(long)]
    cubes: usize,
    /// Seed of the random choices: the same seed gives the same puzzle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plant a solution, so the instance is solvable.
    #[arg(long)]
    solvable: bool,
    /// Output file, or `-` for standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Puzzle files or catalog names (default: soma).
    puzzles: Vec<PathBuf>,
    /// At-most-one encodings for the CNF engines: `all`, or a comma-separated list.
    #[arg(long, default_value = "product")]
    amo: String,
    /// Engines, comma-separated: dlx, bits, sat (what `count --solver sat` runs: the
    /// build's default backend, sat-cadical, or sat-varisat without the cadical
    /// feature), sat-cadical (MRV decisions), sat-cadical-solver (CaDiCaL's own
    /// decisions), sat-varisat, and the programs cadical and ganak (on the DIMACS),
    /// minizinc (Gecode, on the MiniZinc model) and cpsat (OR-Tools CP-SAT on the OPB
    /// model, run by python3 or $POLYCOVER_PYTHON). The DLX is always measured, as the
    /// reference for the ratios.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "dlx,bits,sat-cadical",
        value_parser = crate::bench::Entrant::parse
    )]
    solvers: Vec<crate::bench::Entrant>,
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    symmetry: Option<SymmetryMode>,
    /// Threads for every count, the DLX's included (the first solution: one thread).
    #[arg(long, default_value = "1", value_parser = parse_threads)]
    threads: usize,
    /// Runs of each measurement; the table shows medians with min and max.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Seconds after which a count stops (it then reports solutions per second).
    #[arg(long, default_value = "60", value_parser = parse_seconds)]
    timeout: Duration,
    /// Write the rows as CSV.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Draw the times as an SVG chart (log scale).
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Internal: measure one run of the one engine on the one puzzle in this process and
    /// print it as JSON (how `bench` measures each run in a fresh process).
    #[arg(long, hide = true)]
    measure_once: bool,
}

#[derive(Args, Debug, Clone)]
struct SatArgs {
    /// At-most-one encoding for the CNF (with --solver sat). Default: product.
    #[arg(long, value_enum)]
    amo: Option<Amo>,
    /// Embedded SAT solver (with --solver sat). Default: cadical (varisat in builds
    /// without default features).
    #[arg(long, value_enum)]
    backend: Option<Backend>,
    /// Who picks CaDiCaL's decisions: `mrv`, a placement of the most constrained cell or
    /// piece, or `solver`, CaDiCaL's own heuristics. Default: mrv.
    #[arg(long, value_enum)]
    decide: Option<Decide>,
    /// How the SAT solver enumerates (with --solver sat). Default: `plain` for `solve`
    /// (the first model comes fastest without cubes), `cubes` otherwise.
    #[arg(long, value_enum)]
    strategy: Option<Strategy>,
    /// A CaDiCaL option, NAME=VALUE (repeatable), set after polycover's defaults
    /// (inprocessing=0 restart=0 chrono=2 bump=0 walk=0 lucky=0 shrinkreap=0).
    #[arg(long = "sat-option", value_name = "NAME=VALUE", value_parser = parse_sat_option)]
    sat_options: Vec<(String, i32)>,
    /// Build the CNF (with --solver sat) even when its size passes the limit (10 M
    /// clauses or 50 M literals).
    #[arg(long)]
    force: bool,
}

fn parse_sat_option(s: &str) -> std::result::Result<(String, i32), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let value = value
        .trim()
        .parse::<i32>()
        .map_err(|_| format!("`{value}` is not an integer (in `{s}`)"))?;
    Ok((name.trim().to_string(), value))
}

impl SatArgs {
    /// The SAT engine these options describe, refusing options that would be ignored.
    fn engine(&self) -> Result<SatEngine> {
        let backend = self.backend.unwrap_or(Backend::default_for_build());
        if backend != Backend::Cadical {
            let cadical_only = [
                ("--decide", self.decide.is_some()),
                ("--sat-option", !self.sat_options.is_empty()),
            ];
            if let Some((flag, _)) = cadical_only.iter().find(|(_, given)| *given) {
                return Err(Error::Usage(format!(
                    "{flag} applies to the cadical backend only, not {}",
                    backend.name()
                )));
            }
        }
        Ok(SatEngine {
            backend,
            amo: self.amo.unwrap_or(Amo::Product),
            decide: self.decide.unwrap_or(Decide::Mrv),
            strategy: self.strategy,
            cadical_options: self.sat_options.clone(),
            force: self.force,
            paranoid: false,
        })
    }

    /// The first SAT option given, for the message when the solver is not SAT.
    fn first_given(&self) -> Option<&'static str> {
        [
            ("--amo", self.amo.is_some()),
            ("--backend", self.backend.is_some()),
            ("--decide", self.decide.is_some()),
            ("--strategy", self.strategy.is_some()),
            ("--sat-option", !self.sat_options.is_empty()),
            ("--force", self.force),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
    }
}

#[derive(Args, Debug)]
struct DimacsArgs {
    #[command(flatten)]
    puzzle: PuzzleArg,
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    symmetry: Option<SymmetryMode>,
    #[arg(long, value_enum, default_value = "product")]
    amo: Amo,
    /// Projection line for model counters.
    #[arg(long, value_enum, default_value = "show")]
    projection: Projection,
    /// Output file (`.gz` compresses), or `-` for standard output (the default).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// Only part K of N (as `count --part`): the part's subproblems become clauses, so
    /// that any solver or model counter can do one part.
    #[arg(long, value_name = "K/N")]
    part: Option<PartSpec>,
    /// Write the CNF even when its size passes the limit (10 M clauses or 50 M literals).
    #[arg(long)]
    force: bool,
}

#[derive(Args, Debug)]
struct DecodeArgs {
    #[command(flatten)]
    puzzle: PuzzleArg,
    /// The solver's output: `s SATISFIABLE` and `v ... 0` lines, plain or gzip.
    #[arg(long)]
    model: PathBuf,
    /// The answer is to `dimacs --part K/N`: also accept the variable count of that
    /// part's formula (its selector variables come after the others).
    #[arg(long, value_name = "K/N")]
    part: Option<PartSpec>,
}

#[derive(Args, Debug)]
struct CheckArgs {
    #[command(flatten)]
    puzzle: PuzzleArg,
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    symmetry: Option<SymmetryMode>,
    /// Default: cadical (varisat in builds without default features).
    #[arg(long, value_enum)]
    backend: Option<Backend>,
    /// Build the CNFs even when their size passes the limit (10 M clauses or 50 M
    /// literals).
    #[arg(long)]
    force: bool,
}

#[derive(Args, Debug)]
struct PuzzleArg {
    /// A puzzle file (polycover's TOML, or a BurrTools .xmpuzzle), the name of a catalog
    /// puzzle (see `polycover list`), or `-` for standard input.
    puzzle: PathBuf,
    /// Which problem of a BurrTools file (its name, or its number from 1) when it holds
    /// several; `info` lists them.
    #[arg(long, value_name = "NAME|N")]
    problem: Option<String>,
}

impl PuzzleArg {
    fn load(&self) -> Result<Puzzle> {
        Puzzle::load_problem(&self.puzzle, self.problem.as_deref())
    }

    /// The puzzle compiled in `mode` (its default when `None`), with its reduction.
    fn problem(&self, mode: Option<SymmetryMode>) -> Result<Problem> {
        let puzzle = self.load()?;
        let mode = mode.unwrap_or(puzzle.default_symmetry());
        Ok(Problem::new(puzzle.compile(mode)?))
    }
}

#[derive(Args, Debug)]
struct SearchArgs {
    #[command(flatten)]
    puzzle: PuzzleArg,
    /// Which solutions count as the same.
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    symmetry: Option<SymmetryMode>,
    /// The engine: `bits` (fast), `dlx` (dancing links, the reference) or `sat`.
    #[arg(long, default_value = "bits", value_parser = clap::builder::PossibleValuesParser::new(Engine::solver_names()))]
    solver: String,
    #[command(flatten)]
    sat: SatArgs,
    /// Stop after this many seconds: the run reports what it found on `c` lines (a count
    /// then ends with `s UNKNOWN`) and exits 1.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
}

/// A thread count from 1 to [`MAX_THREADS`].
fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{s}`: the thread count must be a whole number from 1 to {MAX_THREADS}"
        )),
    }
}

/// A positive number of seconds that a clock can count.
fn parse_seconds(s: &str) -> std::result::Result<Duration, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    // `x > 0.0` is false for NaN too, which must be refused as well.
    if x.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return Err(format!("`{s}`: the time must be positive"));
    }
    Duration::try_from_secs_f64(x).map_err(|_| format!("`{s}` seconds is too long a time"))
}

#[derive(Args, Debug)]
struct CountArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// Worker threads, 1 to 1024 (default: the number of cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    #[command(flatten)]
    parts: PartArgs,
}

#[derive(Args, Debug)]
struct SolveArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// Also draw the solution as an SVG picture in this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Jsonl,
}

#[derive(Args, Debug)]
struct EnumerateArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// Stop after this many solutions (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// `text`: each solution as `solution N` and its z-layers; `jsonl`: one JSON object
    /// per line.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Also draw each solution as an SVG picture in this directory (created if needed):
    /// solution-000001.svg, ...
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    parts: PartArgs,
}

/// Parses the arguments and runs; returns the exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    crate::interrupt::install();
    if cli.command.product_on_stdout() {
        crate::interrupt::watch_stdout();
    }
    // Line buffered: each `c` line reaches a pipe or file when it is printed (a run
    // killed later keeps it), and so does each solution record, written with one write.
    let mut out = io::stdout().lock();
    let result = run(cli, &mut out).and_then(|code| out.flush().map(|_| code).map_err(Error::from));
    match result {
        Ok(code) => code,
        Err(e) if e.is_broken_pipe() => 0,
        Err(e) => {
            eprintln!("polycover: error: {e}");
            e.exit_code()
        }
    }
}

impl Command {
    /// Whether what the command makes goes to standard output, so that a reader closing
    /// it makes the rest of the run pointless.
    fn product_on_stdout(&self) -> bool {
        let to_stdout = |o: &std::path::Path| o.as_os_str() == "-";
        match self {
            Command::Enumerate(a) => a.output.as_deref().is_none_or(to_stdout),
            Command::Dimacs(a) => to_stdout(&a.output),
            Command::Export(a) => to_stdout(&a.output),
            Command::Import(a) => to_stdout(&a.output),
            Command::Generate(a) => to_stdout(&a.output),
            Command::Merge(a) => a.output.is_none(),
            Command::Bench(a) => a.csv.is_none() && a.svg.is_none(),
            Command::Solve(a) => a.svg.is_none(),
            _ => true,
        }
    }
}

/// Runs a parsed command line, writing standard output to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<i32> {
    if let Command::Count(_) | Command::Solve(_) | Command::Enumerate(_) = cli.command {
        crate::memory::advise_engine_options();
    }
    match cli.command {
        Command::Count(a) => count(a, out),
        Command::Solve(a) => solve(a, out),
        Command::Enumerate(a) => enumerate(a, out),
        Command::Info(a) => info(a, out),
        Command::List => list(out),
        Command::Dimacs(a) => write_dimacs(a, out),
        Command::Decode(a) => decode(a, out),
        Command::Check(a) => check(a, out),
        Command::Bench(a) => bench(a, out),
        Command::Generate(a) => generate(a, out),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "polycover", out);
            Ok(0)
        }
        Command::Man => {
            let command = <Cli as clap::CommandFactory>::command();
            clap_mangen::Man::new(command).render(out)?;
            Ok(0)
        }
        Command::Merge(a) => parts::merge(a, out),
        Command::Import(a) => import(a, out),
        Command::Export(a) => export(a, out),
    }
}

impl SearchArgs {
    fn load(&self) -> Result<Problem> {
        self.puzzle.problem(self.symmetry)
    }

    fn deadline(&self) -> Option<Instant> {
        self.timeout.and_then(deadline_after)
    }

    /// One thread (the first solution, an enumeration in order) and the deadline.
    fn run_options(&self) -> RunOptions<'static> {
        RunOptions {
            deadline: self.deadline(),
            ..RunOptions::default()
        }
    }

    /// The `--solver` engine; `sat` takes the SAT options, which no other engine does.
    fn engine(&self) -> Result<Engine> {
        match Engine::from_name(&self.solver) {
            Some(e) if e.sat_settings().is_some() => Ok(Engine::sat(self.sat.engine()?)),
            Some(native) => match self.sat.first_given() {
                Some(flag) => Err(Error::Usage(format!(
                    "{flag} applies to --solver sat only, not --solver {}",
                    self.solver
                ))),
                None => Ok(native),
            },
            None => unreachable!("clap accepts only Engine::solver_names()"),
        }
    }
}

/// The `c` lines that say what runs on what.
fn header(out: &mut dyn Write, p: &Problem, engine: &Engine, strategy: Strategy) -> Result<()> {
    let c = &p.compiled;
    writeln!(out, "c polycover {}", env!("CARGO_PKG_VERSION"))?;
    // Which file was read: a local file may share its name with a catalog entry.
    writeln!(
        out,
        "c puzzle {} (from {})",
        c.puzzle.name(),
        c.puzzle.source()
    )?;
    writeln!(
        out,
        "c matrix {} items, {} options; searching {} options",
        c.matrix.num_items(),
        c.matrix.num_options(),
        p.reduction.matrix().num_options()
    )?;
    let pinned = match (c.group.order(), p.reduction.pinned_item()) {
        (1, _) => "none".to_string(),
        (_, None) => "none (canonical check over the whole group)".to_string(),
        (_, Some(i)) => c.matrix.items()[i as usize].name.clone(),
    };
    writeln!(
        out,
        "c symmetry {} (group order {}), pinned item {pinned}",
        c.mode.as_str(),
        c.group.order()
    )?;
    // Said before the run, and flushed: a long run should say what it is doing.
    for line in p.describe(engine, strategy) {
        writeln!(out, "c {line}")?;
    }
    out.flush()?;
    Ok(())
}

/// `, peak memory N MiB` where the system says (Linux), else nothing.
fn peak_memory() -> String {
    crate::memory::peak_mib(None).map_or(String::new(), |m| format!(", peak memory {m:.1} MiB"))
}

/// Why a run that did not finish stopped, for its `c stopped...` line.
fn stopped_by(report: &Report) -> String {
    if report.interrupted {
        format!(" by {}", crate::interrupt::cause())
    } else if report.timed_out {
        " by the timeout".into()
    } else {
        String::new()
    }
}

/// Ctrl-C during a search that listens for it is an error with exit code 130.
fn interrupted(report: &Report) -> Result<()> {
    if report.interrupted {
        return Err(Error::Interrupted(format!(
            "{} solutions so far",
            report.solutions
        )));
    }
    Ok(())
}

/// A progress bar on a terminal's standard error. It stays hidden until the first report
/// gives it a length: an empty total would draw as a full bar ("0/0").
fn progress_bar() -> Option<indicatif::ProgressBar> {
    io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::hidden();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "c {bar:30} {prefix}, {msg}, {elapsed} elapsed, eta {eta}",
            )
            .expect("a valid template"),
        );
        bar
    })
}

/// Steps of the bar: it moves by the estimated work done, so that its ETA follows the work
/// and not the count of subproblems, whose sizes differ by orders of magnitude.
const BAR_STEPS: u64 = 10_000;

/// Moves `bar` to where `q` says the run stands, with `message` after the part counts. The
/// bar stays hidden until a report says how many parts there are: no empty first frame.
fn show_progress(bar: &indicatif::ProgressBar, q: &Progress, message: String) {
    if q.parts == 0 {
        return;
    }
    bar.set_length(BAR_STEPS);
    bar.set_position((q.work.clamp(0.0, 1.0) * BAR_STEPS as f64) as u64);
    bar.set_prefix(format!("{}/{} {}", q.parts_done, q.parts, q.unit));
    bar.set_message(message);
    if bar.is_hidden() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    }
}

fn count(a: CountArgs, out: &mut dyn Write) -> Result<i32> {
    // The options first: a wrong one fails before any work.
    let engine = a.search.engine()?;
    let p = a.search.load()?;
    let threads = a.threads.unwrap_or_else(solver::default_threads).max(1);
    if a.parts.given() {
        return parts::count(&a, &p, &engine, threads, out);
    }
    header(out, &p, &engine, Strategy::Cubes)?;
    let bar = progress_bar();
    let progress = |q: &Progress| {
        if let Some(b) = &bar {
            let rate = q.solutions as f64 / q.elapsed.max(1e-9);
            show_progress(b, q, format!("{} solutions, {rate:.1}/s", q.solutions));
        }
    };
    let report = p.count(
        &engine,
        &RunOptions {
            threads,
            deadline: a.search.deadline(),
            progress: Some(&progress),
        },
    )?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let parts = if report.parts > 0 {
        format!("cubes {} of {}, ", report.parts_done, report.parts)
    } else {
        String::new()
    };
    writeln!(
        out,
        "c threads {}, time {:.3} s, {parts}{}{}",
        threads_used(report.threads, threads),
        report.seconds,
        report.statistics,
        peak_memory()
    )?;
    if !report.complete {
        // A partial count is no answer: `c` lines and `s UNKNOWN`, never `s mc`.
        writeln!(
            out,
            "c stopped{}: {} solutions so far{}",
            stopped_by(&report),
            report.solutions,
            if report.parts > 0 {
                format!(", in {} of {} cubes", report.parts_done, report.parts)
            } else {
                String::new()
            }
        )?;
        writeln!(out, "s UNKNOWN")?;
        return Ok(if report.interrupted {
            crate::interrupt::exit_code()
        } else {
            1
        });
    }
    whole_count(out, &p, report.solutions)
}

/// The end of a whole count: the `[expect]` verdict and `s mc N`.
fn whole_count(out: &mut dyn Write, p: &Problem, solutions: u64) -> Result<i32> {
    let expected = p.puzzle().expect().get(p.compiled.mode);
    if let Some(expected) = expected {
        let verdict = if expected == solutions {
            "matches"
        } else {
            "DIFFERS"
        };
        writeln!(out, "c expected {expected} ({verdict})")?;
    }
    writeln!(out, "s mc {solutions}")?;
    match expected {
        Some(e) if e != solutions => Err(Error::Failed(format!(
            "{}: counted {solutions} solutions, but the puzzle file's [expect] says {e} ({})",
            p.puzzle().name(),
            p.compiled.mode.as_str()
        ))),
        _ => Ok(0),
    }
}

fn solve(a: SolveArgs, out: &mut dyn Write) -> Result<i32> {
    // The options first: a wrong one fails before any work.
    let engine = a.search.engine()?;
    let p = a.search.load()?;
    if let Some(svg) = &a.svg {
        output::check_writable(svg, &[&a.search.puzzle.puzzle])?;
        // A puzzle too large to draw is refused now, not after the search.
        p.puzzle().check_drawable()?;
    }
    header(out, &p, &engine, Strategy::Plain)?;
    let (first, report) = p.first(&engine, &a.search.run_options())?;
    interrupted(&report)?;
    writeln!(
        out,
        "c time {:.3} s, {}{}",
        report.seconds,
        report.statistics,
        peak_memory()
    )?;
    match first {
        None if report.timed_out => {
            writeln!(out, "c stopped{} before a solution", stopped_by(&report))?;
            writeln!(out, "s UNKNOWN")?;
            Ok(1)
        }
        Some(solution) => {
            if let Some(path) = &a.svg {
                let picture = p.puzzle().svg(&solution)?;
                output::write(path, out, &[&a.search.puzzle.puzzle], &mut |w| {
                    Ok(w.write_all(picture.as_bytes())?)
                })?;
                writeln!(out, "c picture {}", path.display())?;
            }
            writeln!(out, "s SATISFIABLE")?;
            write!(out, "{}", p.puzzle().text(&solution))?;
            Ok(10)
        }
        None => {
            writeln!(out, "s UNSATISFIABLE")?;
            Ok(20)
        }
    }
}

fn enumerate(a: EnumerateArgs, out: &mut dyn Write) -> Result<i32> {
    // The options first: a wrong one fails before any work.
    let engine = a.search.engine()?;
    if a.parts.given() {
        if a.svg.is_some() {
            return Err(Error::Usage(format!(
                "--svg does not go with {}: a split or resumable enumeration writes only \
                 its solution file; run `enumerate` without it to draw the solutions",
                if a.parts.part.is_some() {
                    "--part"
                } else {
                    "--checkpoint"
                }
            )));
        }
        return parts::enumerate(&a, &engine, out);
    }
    let target = a.output.clone().unwrap_or_else(|| PathBuf::from("-"));
    // Every output is checked before the search, not after it.
    output::check_writable(&target, &[&a.search.puzzle.puzzle])?;
    let p = a.search.load()?;
    if a.svg.is_some() {
        // A puzzle too large to draw is refused before the first solution.
        p.puzzle().check_drawable()?;
    }
    let pictures = a.svg.as_deref().map(picture_directory).transpose()?;
    let mut written = 0u64;
    let mut report = None;
    output::write_records(&target, out, &[&a.search.puzzle.puzzle], &mut |sink| {
        let mut failure = None;
        let r = p.for_each_solution(&engine, &a.search.run_options(), &mut |solution| {
            // One write per record, so that a stop never cuts one in half, and a flush,
            // so that a reader (a pipe, `tail -f`) has each solution when it is found.
            let record = format_solution(a.format, p.puzzle(), solution, written + 1);
            if let Err(e) = sink.write_all(record.as_bytes()).and_then(|_| sink.flush()) {
                failure = Some(e.into());
                return ControlFlow::Break(());
            }
            if let Some(dir) = &pictures {
                let path = dir.join(format!("solution-{:06}.svg", written + 1));
                let drawn = p.puzzle().svg(solution).and_then(|picture| {
                    output::write_records(&path, &mut io::sink(), &[], &mut |w| {
                        Ok(w.write_all(picture.as_bytes())?)
                    })
                });
                if let Err(e) = drawn {
                    failure = Some(e);
                    return ControlFlow::Break(());
                }
            }
            written += 1;
            // Stop at the N-th solution, not when the (N+1)-th turns up: that one may
            // take far longer to find (or not exist).
            if a.limit.is_some_and(|l| written >= l) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
        // A stopped enumeration keeps the whole solutions it wrote: they are valid.
        report = Some(r);
        Ok(())
    })?;
    let to = match &a.output {
        Some(path) if path.as_os_str() != "-" => format!(" to {}", path.display()),
        _ => String::new(),
    };
    match report {
        Some(r) if r.interrupted => {
            eprintln!(
                "c stopped by {}: {written} solutions written{to}",
                crate::interrupt::cause()
            );
            Err(Error::Interrupted(format!(
                "{written} solutions written{to}"
            )))
        }
        Some(r) if r.timed_out => {
            eprintln!("c stopped by the timeout: {written} solutions written{to}");
            Ok(1)
        }
        _ => {
            if !to.is_empty() {
                eprintln!("c wrote {written} solutions{to}");
            }
            Ok(0)
        }
    }
}

/// The threads that ran, for the `c threads` line: a plain SAT search runs one solver,
/// whatever was asked, and the line must not claim more.
fn threads_used(ran: usize, asked: usize) -> String {
    if ran == asked {
        format!("{ran}")
    } else {
        format!("{ran} (of {asked} asked)")
    }
}

/// The directory for `enumerate --svg`: created if missing, refused if it is a file.
fn picture_directory(dir: &std::path::Path) -> Result<PathBuf> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "--svg {}: not a directory (enumerate writes one picture per solution into it)",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|source| Error::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    Ok(dir.to_path_buf())
}

fn write_dimacs(a: DimacsArgs, out: &mut dyn Write) -> Result<i32> {
    output::check_writable(&a.output, &[&a.puzzle.puzzle])?;
    let p = a.puzzle.problem(a.symmetry)?;
    let mut formula = p.formula_checked(a.amo, a.force)?;
    let mut notes = Vec::new();
    if let Some(spec) = a.part {
        let split = p.split(spec.n);
        let mine = split.part(spec.k);
        let prefixes: Vec<&[u32]> = mine.iter().map(|&j| split.prefix(j)).collect();
        formula = std::sync::Arc::new(formula.restricted_to(&prefixes));
        notes.push(format!(
            "part {spec}: {} of {} subproblems, fingerprint {}",
            mine.len(),
            split.len(),
            split.fingerprint()
        ));
        notes.push(
            "the part's subproblems are clauses at the end (units for one subproblem, \
             else one selector variable per subproblem, after the others): \
             the parts' model counts add up to the whole count"
                .into(),
        );
    }
    output::write(&a.output, out, &[&a.puzzle.puzzle], &mut |w| {
        Ok(dimacs::write_with_notes(
            w,
            &p.compiled,
            &p.reduction,
            &formula,
            a.projection,
            &notes,
        )?)
    })?;
    if a.output.as_os_str() != "-" {
        eprintln!(
            "c wrote {}: {} variables ({} primary), {} clauses",
            a.output.display(),
            formula.num_vars,
            formula.num_primary,
            formula.num_clauses()
        );
    }
    Ok(0)
}

fn decode(a: DecodeArgs, out: &mut dyn Write) -> Result<i32> {
    let puzzle = a.puzzle.load()?;
    // The variable map is the same in every mode: variable `o + 1` is option `o`.
    let c = puzzle.compile(SymmetryMode::None)?;
    // MiniZinc and pseudo-Boolean output first (their answers use the same variable
    // map); anything else is SAT-competition output. The file is read once (gzip by its
    // magic bytes, as `dimacs::open` does); should that fail part way, the streaming
    // DIMACS reader reports where.
    let name = a.model.display().to_string();
    let mut bytes = Vec::new();
    let answers = match dimacs::open(&a.model)?.read_to_end(&mut bytes) {
        Ok(_) => match std::str::from_utf8(&bytes)
            .ok()
            .and_then(|t| crate::export::answers::parse(t, &name))
        {
            Some(answers) => answers?,
            None => dimacs::parse_answers(&bytes[..], &name)?,
        },
        // A gzip bomb is refused at once, not read a second time.
        Err(e) if e.kind() == io::ErrorKind::FileTooLarge => {
            return Err(Error::Read {
                path: a.model.clone(),
                source: e,
            })
        }
        Err(_) => dimacs::read_answers(&a.model)?,
    };
    let location = a.model.display().to_string();
    let mut solutions = Vec::new();
    for (k, answer) in answers.iter().enumerate() {
        if let Answer::Satisfiable(lits) = answer {
            let at = if answers.len() > 1 {
                format!("{location} (answer {})", k + 1)
            } else {
                location.clone()
            };
            check_model_size(&puzzle, &c, lits, &at, a.part)?;
            solutions.push(dimacs::decode_model(&c.matrix, lits, &at)?);
        }
    }
    if let [solution] = &solutions[..] {
        writeln!(out, "c the model is a valid solution of {}", puzzle.name())?;
        writeln!(out, "s SATISFIABLE")?;
        write!(out, "{}", puzzle.text(solution))?;
        return Ok(10);
    }
    if !solutions.is_empty() {
        for (k, solution) in solutions.iter().enumerate() {
            write!(out, "solution {}\n{}\n", k + 1, puzzle.text(solution))?;
        }
        writeln!(
            out,
            "c {} models, each a valid solution of {}",
            solutions.len(),
            puzzle.name()
        )?;
        writeln!(out, "s SATISFIABLE")?;
        return Ok(10);
    }
    if answers.contains(&Answer::Unsatisfiable) {
        writeln!(out, "s UNSATISFIABLE")?;
        return Ok(20);
    }
    // The solver stopped without an answer (a time or memory limit): no answer is a
    // failure while running, exit 1, as for polycover's own stopped runs.
    writeln!(out, "c the solver stopped without an answer")?;
    writeln!(out, "s UNKNOWN")?;
    Ok(1)
}

/// A model must have as many variables as the puzzle has primary ones (MiniZinc, a
/// projected model), or as one of its CNFs (some encoding, some symmetry mode; with
/// `--part`, also that part's formula) or OPB models: otherwise it answers another
/// formula, which is the thing to say, before any complaint about its cover. A model
/// with fewer variables may also be cut short; the message says both.
fn check_model_size(
    puzzle: &Puzzle,
    c: &Compiled,
    lits: &[i64],
    at: &str,
    part: Option<PartSpec>,
) -> Result<()> {
    let primary = c.matrix.num_options() as u64;
    let most = lits.iter().map(|l| l.unsigned_abs()).max().unwrap_or(0);
    if most == primary {
        return Ok(());
    }
    let mut sizes = Vec::new();
    if most > primary {
        for &mode in puzzle.symmetry_modes() {
            let p = Problem::new(puzzle.compile(mode)?);
            // What `Formula::restricted_to` adds for the part `dimacs --part` writes:
            // nothing for units or the whole search, a selector per subproblem for
            // several, one variable for an empty part.
            let added = part.map_or(0, |spec| {
                let split = p.split(spec.n);
                let mine = split.part(spec.k);
                match mine.len() {
                    _ if mine.iter().any(|&j| split.prefix(j).is_empty()) => 0,
                    0 => 1,
                    1 => 0,
                    k => k as u64,
                }
            });
            let opb = crate::export::linear::opb_num_vars(&p) as u64;
            for vars in Amo::ALL
                .iter()
                .map(|&amo| p.formula(amo).num_vars as u64 + added)
                .chain([opb])
            {
                if vars == most {
                    return Ok(());
                }
                sizes.push(vars);
            }
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    let formulas = match part {
        Some(spec) => format!("the DIMACS of {} part {spec}", puzzle.name()),
        None => format!("the DIMACS of {}", puzzle.name()),
    };
    let reason = if most < primary {
        format!(
            "the model has {most} variables, but {formulas} has {primary} primary \
             variables: it is a model of another formula (another puzzle?), or a partial \
             model (cut short)"
        )
    } else {
        format!(
            "the model has {most} variables, but {formulas} has {primary} primary \
             variables and {} to {} in all (by encoding, symmetry mode and format): \
             it is a model of another formula ({})",
            sizes[0],
            sizes[sizes.len() - 1],
            if part.is_none() {
                "another puzzle, or a part: an answer to `dimacs --part K/N` decodes \
                 with `decode --part K/N`"
            } else {
                "another puzzle, or another part?"
            }
        )
    };
    Err(Error::Model {
        location: at.to_string(),
        reason,
    })
}

fn check(a: CheckArgs, out: &mut dyn Write) -> Result<i32> {
    let p = a.puzzle.problem(a.symmetry)?;
    writeln!(
        out,
        "c puzzle {}, symmetry {}",
        p.puzzle().name(),
        p.compiled.mode.as_str()
    )?;
    writeln!(
        out,
        "c {:<22} {:>10} {:>10} {:>10} {:>12}",
        "engine", "count", "seconds", "variables", "clauses"
    )?;
    // Every encoding's size first: a refusal comes before the reference count.
    for amo in Amo::ALL {
        p.check_cnf_size(amo, a.force)?;
    }
    let reference = p.count(&Engine::dlx(), &RunOptions::default())?;
    writeln!(
        out,
        "c {:<22} {:>10} {:>10.3} {:>10} {:>12}",
        "dlx", reference.solutions, reference.seconds, "-", "-"
    )?;
    let mut disagree = false;
    // Every other engine of the registry that does not run on the CNF, then the SAT
    // backend in every encoding.
    for entry in crate::engine::ENGINES {
        let engine = (entry.make)();
        if engine.name() == "dlx" || engine.amo().is_some() || engine.available().is_err() {
            continue;
        }
        let report = p.count(&engine, &RunOptions::default())?;
        interrupted(&report)?;
        let differs = report.solutions != reference.solutions;
        disagree |= differs;
        writeln!(
            out,
            "c {:<22} {:>10} {:>10.3} {:>10} {:>12}{}",
            engine.name(),
            report.solutions,
            report.seconds,
            "-",
            "-",
            if differs { "  DIFFERS" } else { "" }
        )?;
    }
    let backend = a.backend.unwrap_or(Backend::default_for_build());
    for amo in Amo::ALL {
        let engine = Engine::sat(SatEngine {
            backend,
            amo,
            force: a.force,
            ..SatEngine::default()
        });
        let t = Instant::now();
        let formula = p.formula_checked(amo, a.force)?;
        let report = p.count(&engine, &RunOptions::default())?;
        interrupted(&report)?;
        let differs = report.solutions != reference.solutions;
        disagree |= differs;
        writeln!(
            out,
            "c {:<22} {:>10} {:>10.3} {:>10} {:>12}{}",
            format!("sat {} {}", backend.name(), amo.name()),
            report.solutions,
            t.elapsed().as_secs_f64(),
            formula.num_vars,
            formula.num_clauses(),
            if differs { "  DIFFERS" } else { "" }
        )?;
    }
    if disagree {
        writeln!(out, "s DISAGREE")?;
        return Err(Error::Failed(format!(
            "{}: the engines disagree on the count",
            p.puzzle().name()
        )));
    }
    writeln!(out, "s mc {}", reference.solutions)?;
    Ok(0)
}

/// One solution as a record: `solution N` and the text rendering, or one JSON line.
fn format_solution(format: Format, puzzle: &Puzzle, solution: &[u32], index: u64) -> String {
    match format {
        Format::Text => format!("solution {index}\n{}\n", puzzle.text(solution)),
        Format::Jsonl => format!("{}\n", puzzle.json(solution, index)),
    }
}

fn info(a: PuzzleArg, out: &mut dyn Write) -> Result<i32> {
    // A file or standard input is read once: `-` cannot be read twice.
    let input = Puzzle::read_input(&a.puzzle)?;
    // A BurrTools file: its problems first; with several and none picked, only those.
    if let Some((source, bytes)) = input.as_ref().filter(|(_, b)| burrtools::is_burrtools(b)) {
        let problems = burrtools::problems(source, bytes)?;
        for p in &problems {
            let count = p
                .assemblies
                .map_or("not solved in BurrTools".to_string(), |n| {
                    format!("BurrTools counted {n} assemblies")
                });
            writeln!(out, "problem     {} \"{}\" ({count})", p.number, p.name)?;
        }
        if problems.len() > 1 && a.problem.is_none() {
            writeln!(out, "c pick a problem with --problem NAME or NUMBER")?;
            return Ok(0);
        }
        writeln!(out)?;
    }
    let puzzle = match input {
        Some((source, bytes)) => Puzzle::from_bytes(&source, bytes, a.problem.as_deref())?,
        None => a.load()?,
    };
    puzzle.info(out)?;
    Ok(0)
}

fn export(a: ExportArgs, out: &mut dyn Write) -> Result<i32> {
    output::check_writable(&a.output, &[&a.puzzle.puzzle])?;
    let p = a.puzzle.problem(a.symmetry)?;
    match a.format {
        crate::export::Format::Dlx => {
            crate::export::dlx::check(&p)?;
            output::write(&a.output, out, &[&a.puzzle.puzzle], &mut |w| {
                Ok(crate::export::dlx::write(w, &p)?)
            })?;
        }
        crate::export::Format::Mzn | crate::export::Format::Opb => {
            let write = if a.format == crate::export::Format::Mzn {
                crate::export::linear::write_mzn
            } else {
                crate::export::linear::write_opb
            };
            output::write(&a.output, out, &[&a.puzzle.puzzle], &mut |w| {
                Ok(write(w, &p)?)
            })?;
        }
        crate::export::Format::Burrtools => {
            if a.symmetry.is_some_and(|m| m != SymmetryMode::None) {
                return Err(Error::Usage(
                    "--symmetry: a BurrTools file holds the puzzle, not a reduced matrix; \
                     BurrTools removes symmetric assemblies itself"
                        .into(),
                ));
            }
            let polycube = crate::export::burrtools::check(p.puzzle())?;
            output::write(&a.output, out, &[&a.puzzle.puzzle], &mut |w| {
                Ok(crate::export::burrtools::write(w, polycube)?)
            })?;
        }
    }
    if a.output.as_os_str() != "-" {
        eprintln!(
            "c wrote {}: {} items, {} options",
            a.output.display(),
            p.compiled.matrix.num_items(),
            p.reduction.kept().len()
        );
    }
    Ok(0)
}

fn import(a: ImportArgs, out: &mut dyn Write) -> Result<i32> {
    // `-` reads standard input, as every command's puzzle does.
    let Some((source, bytes)) = Puzzle::read_input(&a.file)? else {
        let why = if a.file.exists() {
            io::Error::other("not a file")
        } else {
            io::Error::new(io::ErrorKind::NotFound, "no such file")
        };
        return Err(Error::Read {
            path: a.file.clone(),
            source: why,
        });
    };
    if !burrtools::is_burrtools(&bytes) {
        return Err(Error::puzzle(
            source,
            "not a BurrTools file (neither gzip nor XML with a <puzzle> root)",
        ));
    }
    let converted = burrtools::convert(&source, &bytes, a.problem.as_deref())?;
    // What is written must read back: the same checks as any puzzle file.
    let puzzle = Puzzle::parse(&source, &converted.toml)?;
    output::write(&a.output, out, &[&a.file], &mut |w| {
        Ok(w.write_all(converted.toml.as_bytes())?)
    })?;
    if a.output.as_os_str() != "-" {
        eprintln!(
            "c wrote {}: problem {} \"{}\", {} pieces",
            a.output.display(),
            converted.problem.number,
            converted.problem.name,
            puzzle.summary().pieces
        );
    }
    Ok(0)
}

fn list(out: &mut dyn Write) -> Result<i32> {
    writeln!(
        out,
        "{:<22} {:>6} {:>6}  {:<12} name",
        "catalog", "pieces", "cells", "rotations"
    )?;
    for e in catalog::entries() {
        match Puzzle::parse(&format!("{}.toml", e.name), e.text) {
            Ok(p) => {
                let s = p.summary();
                writeln!(
                    out,
                    "{:<22} {:>6} {:>6}  {:<12} {}",
                    e.name,
                    s.pieces,
                    s.cells.map_or("-".into(), |n| n.to_string()),
                    s.expected.as_deref().unwrap_or("?"),
                    p.name()
                )?;
            }
            Err(err) => writeln!(out, "{:<22} error: {err}", e.name)?,
        }
    }
    Ok(0)
}

fn parse_amos(spec: &str) -> Result<Vec<Amo>> {
    if spec == "all" {
        return Ok(Amo::ALL.to_vec());
    }
    spec.split(',')
        .map(|name| {
            Amo::ALL
                .into_iter()
                .find(|a| a.name() == name.trim())
                .ok_or_else(|| {
                    let names: Vec<_> = Amo::ALL.iter().map(|a| a.name()).collect();
                    Error::Usage(format!(
                        "unknown at-most-one encoding `{name}`: use `all` or some of {}",
                        names.join(", ")
                    ))
                })
        })
        .collect()
}

fn bench(a: BenchArgs, out: &mut dyn Write) -> Result<i32> {
    let puzzles = if a.puzzles.is_empty() {
        vec![PathBuf::from("soma")]
    } else {
        a.puzzles.clone()
    };
    let inputs: Vec<&std::path::Path> = puzzles.iter().map(|p| p.as_path()).collect();
    // Every output is checked before the first run, not after an hour of them.
    for path in a.csv.iter().chain(a.svg.iter()) {
        output::check_writable(path, &inputs)?;
    }
    let plan = crate::bench::Plan {
        puzzles: puzzles.clone(),
        amos: parse_amos(&a.amo)?,
        entrants: a.solvers,
        symmetry: a.symmetry,
        repeat: a.repeat as usize,
        timeout: a.timeout,
        threads: a.threads,
        isolate: None,
    };
    if a.measure_once {
        crate::bench::measure_child(&plan, out)?;
        return Ok(0);
    }
    // Each run in a fresh process, so that a row's peak memory owes nothing to the rows
    // before it.
    let plan = crate::bench::Plan {
        isolate: crate::bench::polycover_executable(),
        ..plan
    };
    writeln!(
        out,
        "c polycover {} bench: {} run(s) each, timeout {} s, symmetry {}, {} thread(s) per count",
        env!("CARGO_PKG_VERSION"),
        plan.repeat,
        a.timeout.as_secs_f64(),
        plan.symmetry.map_or("default", |m| m.as_str()),
        plan.threads
    )?;
    if plan.isolate.is_none() {
        writeln!(
            out,
            "c peak memory measured in this process: a row's may include memory kept from earlier rows"
        )?;
    }
    out.flush()?;
    let mut failure = None;
    let rows = crate::bench::run(&plan, &mut |row| {
        if failure.is_none() {
            failure = writeln!(out, "{}", crate::bench::table_line(row))
                .and_then(|_| out.flush())
                .err();
        }
    })?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    if let Some(path) = &a.csv {
        output::write(path, out, &inputs, &mut |w| {
            Ok(crate::bench::write_csv(w, &rows)?)
        })?;
        writeln!(out, "c wrote {}", path.display())?;
    }
    if let Some(path) = &a.svg {
        let svg = crate::bench::svg(&rows)?;
        output::write(
            path,
            out,
            &inputs,
            &mut |w| Ok(w.write_all(svg.as_bytes())?),
        )?;
        writeln!(out, "c wrote {}", path.display())?;
    }
    Ok(0)
}

fn generate(a: GenerateArgs, out: &mut dyn Write) -> Result<i32> {
    output::check_writable(&a.output, &[])?;
    let text = match a.kind {
        GenerateKind::ColoredCubes => {
            crate::puzzle::colored::generate(a.cubes, a.seed, a.solvable)?
        }
    };
    output::write(&a.output, out, &[], &mut |w| {
        Ok(w.write_all(text.as_bytes())?)
    })?;
    Ok(0)
}
