//! The command line: argument parsing (clap) and the commands, writing to any `Write`.
//!
//! Output follows the SAT conventions: diagnostics on `c ` lines, answers on `s ` lines,
//! exit codes 10 (a solution) and 20 (none) for `solve`. Errors go to standard error with
//! the exit code [`Error::exit_code`] gives.

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::catalog;
use crate::error::{Error, Result};
use crate::matrix::Matrix;
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};
use crate::render;
use crate::sat::dimacs::{self, Answer, Projection};
use crate::sat::{self, cnf, Amo, Backend, Decide, SatOptions, Strategy};
use crate::solver::{self, RunOptions, Solver};
use crate::symmetry::Reduction;

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
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plant a solution, so the instance is solvable.
    #[arg(long)]
    solvable: bool,
    /// Output file, or `-` for standard output.
    #[arg(short, long, default_value = "-")]
    output: String,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Puzzle files or catalog names (default: soma).
    puzzles: Vec<String>,
    /// At-most-one encodings for the CNF engines: `all`, or a comma-separated list.
    #[arg(long, default_value = "product")]
    amo: String,
    /// Engines, comma-separated: dlx, bits, sat-cadical (MRV decisions),
    /// sat-cadical-solver (CaDiCaL's own decisions), sat-varisat, and the programs cadical
    /// and ganak. The DLX is always measured, as the reference for the ratios.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "dlx,bits,sat-cadical"
    )]
    solvers: Vec<crate::bench::EngineKind>,
    /// Default: rotations (polycubes), stack (coloured cubes).
    #[arg(long, value_enum)]
    symmetry: Option<SymmetryMode>,
    /// Threads for every count, the DLX's included (the first solution: one thread).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Runs of each measurement; the table shows medians with min and max.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Seconds after which a count stops (it then reports solutions per second).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Write the rows as CSV.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Draw the times as an SVG chart (log scale).
    #[arg(long)]
    svg: Option<PathBuf>,
}

/// The engines `count`, `solve` and `enumerate` can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Engine {
    /// Bitset Algorithm X (fast, native).
    Bits,
    /// Dancing links (the native reference).
    Dlx,
    /// The embedded incremental SAT solver on the CNF encoding.
    Sat,
}

#[derive(Args, Debug, Clone)]
struct SatArgs {
    /// At-most-one encoding for the CNF.
    #[arg(long, value_enum, default_value = "product")]
    amo: Amo,
    /// Embedded SAT solver (with --solver sat). Default: cadical (varisat in builds
    /// without default features).
    #[arg(long, value_enum)]
    backend: Option<Backend>,
    /// Who picks CaDiCaL's decisions: `mrv`, a placement of the most constrained cell or
    /// piece, or `solver`, CaDiCaL's own heuristics.
    #[arg(long, value_enum, default_value = "mrv")]
    decide: Decide,
    /// How the SAT solver enumerates (with --solver sat). Default: `plain` for `solve`
    /// (the first model comes fastest without cubes), `cubes` otherwise.
    #[arg(long, value_enum)]
    strategy: Option<Strategy>,
    /// A CaDiCaL option, NAME=VALUE (repeatable), set after polycover's defaults
    /// (inprocessing=0 restart=0 chrono=2 bump=0 walk=0 lucky=0 shrinkreap=0).
    #[arg(long = "sat-option", value_name = "NAME=VALUE", value_parser = parse_sat_option)]
    sat_options: Vec<(String, i32)>,
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
    /// The enumeration options, `strategy` unless told otherwise.
    fn options(&self, threads: usize, strategy: Strategy) -> SatOptions {
        SatOptions {
            backend: self.backend.unwrap_or(Backend::default_for_build()),
            decide: self.decide,
            strategy: self.strategy.unwrap_or(strategy),
            threads,
            deadline: None,
            cadical_options: self.sat_options.clone(),
            paranoid: false,
        }
    }

    /// The header line that says how the SAT side runs.
    fn describe(&self, threads: usize, strategy: Strategy) -> String {
        let o = self.options(threads, strategy);
        let mut s = format!(
            "c solver sat: backend {}, at-most-one {}, strategy {:?}",
            o.backend.name(),
            self.amo.name(),
            o.strategy
        )
        .to_lowercase();
        if o.backend == Backend::Cadical {
            s += &format!(", decide {}", o.decide.name());
            for (k, v) in &o.cadical_options {
                s += &format!(", {k}={v}");
            }
        }
        s
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
    /// Output file (`.gz` compresses), or `-` for standard output.
    #[arg(short, long)]
    output: String,
}

#[derive(Args, Debug)]
struct DecodeArgs {
    #[command(flatten)]
    puzzle: PuzzleArg,
    /// The solver's output: `s SATISFIABLE` and `v ... 0` lines, plain or gzip.
    #[arg(long)]
    model: PathBuf,
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
}

#[derive(Args, Debug)]
struct PuzzleArg {
    /// A puzzle file, or the name of a catalog puzzle (see `polycover list`).
    puzzle: String,
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
    #[arg(long, value_enum, default_value = "bits")]
    solver: Engine,
    #[command(flatten)]
    sat: SatArgs,
}

#[derive(Args, Debug)]
struct CountArgs {
    #[command(flatten)]
    search: SearchArgs,
    /// Worker threads (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Args, Debug)]
struct SolveArgs {
    #[command(flatten)]
    search: SearchArgs,
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
    /// Stop after this many solutions.
    #[arg(long)]
    limit: Option<u64>,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Parses the arguments and runs; returns the exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    crate::interrupt::install();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
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

/// Runs a parsed command line, writing standard output to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<i32> {
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
    }
}

/// Loads and compiles a puzzle, in its kind's default symmetry mode unless told.
fn compile(spec: &str, mode: Option<SymmetryMode>) -> Result<Compiled> {
    let puzzle = Puzzle::load(spec)?;
    let mode = mode.unwrap_or(puzzle.default_symmetry());
    puzzle.compile(mode)
}

fn load(args: &SearchArgs) -> Result<Compiled> {
    compile(&args.puzzle.puzzle, args.symmetry)
}

fn header(
    out: &mut dyn Write,
    c: &Compiled,
    reduction: &Reduction,
    args: &SearchArgs,
    threads: usize,
    strategy: Strategy,
) -> Result<()> {
    writeln!(out, "c polycover {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "c puzzle {}", c.puzzle.name())?;
    writeln!(
        out,
        "c matrix {} items, {} options; searching {} options",
        c.matrix.num_items(),
        c.matrix.num_options(),
        reduction.matrix().num_options()
    )?;
    let pinned = match (c.group.order(), reduction.pinned_item()) {
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
    match args.solver {
        Engine::Sat => writeln!(out, "{}", args.sat.describe(threads, strategy))?,
        e => match native(e) {
            Solver::Bits => writeln!(
                out,
                "c solver bits, list compaction {}",
                crate::solver::Kernel::detect().name()
            )?,
            solver => writeln!(out, "c solver {}", solver.name())?,
        },
    }
    Ok(())
}

fn native(e: Engine) -> Solver {
    match e {
        Engine::Dlx => Solver::Dlx,
        _ => Solver::Bits,
    }
}

/// Streams the distinct solutions with whichever engine the arguments choose.
fn each_solution(
    c: &Compiled,
    reduction: &Reduction,
    args: &SearchArgs,
    strategy: Strategy,
    f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
) -> Result<()> {
    match args.solver {
        Engine::Sat => {
            let formula = cnf::compile(&c.matrix, reduction, args.sat.amo);
            let stats = sat::for_each_model(
                &c.matrix,
                reduction,
                &formula,
                &args.sat.options(1, strategy),
                None,
                f,
            )?;
            if stats.interrupted {
                return Err(Error::Interrupted(format!(
                    "{} solutions so far",
                    stats.models
                )));
            }
        }
        e => {
            solver::for_each(reduction, native(e), f);
        }
    }
    Ok(())
}

fn count(a: CountArgs, out: &mut dyn Write) -> Result<i32> {
    let c = load(&a.search)?;
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    let threads = a.threads.unwrap_or_else(solver::default_threads).max(1);
    header(out, &c, &reduction, &a.search, threads, Strategy::Cubes)?;
    // The header now, not when the count ends: a long count should say what it is doing.
    out.flush()?;
    let bar = io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        let template = if a.search.solver == Engine::Sat {
            "c {bar:30} {pos}/{len} cubes, {msg}, {elapsed} elapsed, eta {eta}"
        } else {
            "c {bar:40} {pos}/{len} subproblems, {elapsed} elapsed, eta {eta}"
        };
        bar.set_style(indicatif::ProgressStyle::with_template(template).unwrap());
        bar
    });
    let progress = |done: usize, total: usize| {
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
    };
    let start = Instant::now();
    let solutions = if a.search.solver == Engine::Sat {
        let t = Instant::now();
        let formula = cnf::compile(&c.matrix, &reduction, a.search.sat.amo);
        writeln!(
            out,
            "c cnf {} variables ({} primary), {} clauses, compiled in {:.3} s",
            formula.num_vars,
            formula.num_primary,
            formula.num_clauses(),
            t.elapsed().as_secs_f64()
        )?;
        out.flush()?;
        let sat_progress = |p: &sat::Progress| {
            if let Some(b) = &bar {
                b.set_length(p.cubes as u64);
                b.set_position(p.cubes_done as u64);
                b.set_message(format!(
                    "{} models, {:.1}/s",
                    p.models,
                    p.models as f64 / p.elapsed.max(1e-9)
                ));
            }
        };
        let stats = sat::for_each_model(
            &c.matrix,
            &reduction,
            &formula,
            &a.search.sat.options(threads, Strategy::Cubes),
            Some(&sat_progress),
            &mut |_| ControlFlow::Continue(()),
        )?;
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        let secs = start.elapsed().as_secs_f64();
        writeln!(
            out,
            "c threads {threads}, time {secs:.3} s, cubes {} of {}, solver calls {}, mrv decisions {}",
            stats.cubes_done, stats.cubes, stats.solver_calls, stats.decisions
        )?;
        if stats.stopped {
            // A partial count is no answer: `c` lines and `s UNKNOWN`, never `s mc`.
            writeln!(
                out,
                "c stopped{}: {} solutions in {} of {} cubes",
                if stats.interrupted { " by Ctrl-C" } else { "" },
                stats.models,
                stats.cubes_done,
                stats.cubes
            )?;
            writeln!(out, "s UNKNOWN")?;
            return Ok(if stats.interrupted {
                crate::interrupt::EXIT_CODE
            } else {
                1
            });
        }
        stats.models
    } else {
        let stats = solver::count(
            &reduction,
            RunOptions {
                solver: native(a.search.solver),
                threads,
                progress: Some(&progress),
            },
        );
        let secs = start.elapsed().as_secs_f64();
        writeln!(
            out,
            "c threads {threads}, time {secs:.3} s, nodes {}, raw solutions {}",
            stats.nodes, stats.found
        )?;
        stats.solutions
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(expected) = c.puzzle.expect().get(c.mode) {
        let verdict = if expected == solutions {
            "matches"
        } else {
            "DIFFERS"
        };
        writeln!(out, "c expected {expected} ({verdict})")?;
    }
    writeln!(out, "s mc {solutions}")?;
    Ok(0)
}

fn solve(a: SolveArgs, out: &mut dyn Write) -> Result<i32> {
    let c = load(&a.search)?;
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    // The first model comes fastest from one search, without cubes.
    header(out, &c, &reduction, &a.search, 1, Strategy::Plain)?;
    let mut first = None;
    each_solution(&c, &reduction, &a.search, Strategy::Plain, &mut |s| {
        first = Some(s.to_vec());
        ControlFlow::Break(())
    })?;
    match first {
        Some(solution) => {
            writeln!(out, "s SATISFIABLE")?;
            write!(out, "{}", render::text(&c.puzzle, &c.matrix, &solution))?;
            Ok(10)
        }
        None => {
            writeln!(out, "s UNSATISFIABLE")?;
            Ok(20)
        }
    }
}

fn enumerate(a: EnumerateArgs, out: &mut dyn Write) -> Result<i32> {
    let c = load(&a.search)?;
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    let mut file;
    let sink: &mut dyn Write = match &a.output {
        Some(path) => {
            file = io::BufWriter::new(std::fs::File::create(path).map_err(|e| Error::Write {
                path: path.clone(),
                source: e,
            })?);
            &mut file
        }
        None => out,
    };
    let mut written = 0u64;
    let mut failure = None;
    each_solution(
        &c,
        &reduction,
        &a.search,
        Strategy::Cubes,
        &mut |solution| {
            if a.limit == Some(0) {
                return ControlFlow::Break(());
            }
            written += 1;
            match write_solution(sink, a.format, &c.puzzle, &c.matrix, solution, written) {
                // Stop at the N-th solution, not when the (N+1)-th turns up: that one may
                // take far longer to find (or not exist).
                Ok(()) if a.limit.is_some_and(|l| written >= l) => ControlFlow::Break(()),
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failure = Some(e);
                    ControlFlow::Break(())
                }
            }
        },
    )?;
    if let Some(e) = failure {
        return Err(match &a.output {
            Some(path) => Error::Write {
                path: path.clone(),
                source: e,
            },
            None => Error::Io(e),
        });
    }
    sink.flush()?;
    if a.output.is_some() {
        eprintln!("c wrote {written} solutions");
    }
    Ok(0)
}

fn write_dimacs(a: DimacsArgs, out: &mut dyn Write) -> Result<i32> {
    let c = compile(&a.puzzle.puzzle, a.symmetry)?;
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    let formula = cnf::compile(&c.matrix, &reduction, a.amo);
    dimacs::create(&a.output, out, &mut |w| {
        dimacs::write(w, &c, &reduction, &formula, a.projection)
    })?;
    if a.output != "-" {
        eprintln!(
            "c wrote {}: {} variables ({} primary), {} clauses",
            a.output,
            formula.num_vars,
            formula.num_primary,
            formula.num_clauses()
        );
    }
    Ok(0)
}

fn decode(a: DecodeArgs, out: &mut dyn Write) -> Result<i32> {
    let puzzle = Puzzle::load(&a.puzzle.puzzle)?;
    let c = puzzle.compile(SymmetryMode::None)?;
    match dimacs::read_answer(&a.model)? {
        Answer::Satisfiable(lits) => {
            let solution = dimacs::decode_model(&c.matrix, &lits, &a.model.display().to_string())?;
            writeln!(
                out,
                "c the model is a valid solution of {}",
                c.puzzle.name()
            )?;
            writeln!(out, "s SATISFIABLE")?;
            write!(out, "{}", render::text(&c.puzzle, &c.matrix, &solution))?;
            Ok(10)
        }
        Answer::Unsatisfiable => {
            writeln!(out, "s UNSATISFIABLE")?;
            Ok(20)
        }
        Answer::Unknown => {
            writeln!(out, "s UNKNOWN")?;
            Ok(0)
        }
    }
}

fn check(a: CheckArgs, out: &mut dyn Write) -> Result<i32> {
    let c = compile(&a.puzzle.puzzle, a.symmetry)?;
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    writeln!(
        out,
        "c puzzle {}, symmetry {}",
        c.puzzle.name(),
        c.mode.as_str()
    )?;
    writeln!(
        out,
        "c {:<22} {:>10} {:>10} {:>10} {:>12}",
        "engine", "count", "seconds", "variables", "clauses"
    )?;
    let t = Instant::now();
    let reference = solver::count(
        &reduction,
        RunOptions {
            solver: Solver::Dlx,
            threads: 1,
            progress: None,
        },
    )
    .solutions;
    writeln!(
        out,
        "c {:<22} {:>10} {:>10.3} {:>10} {:>12}",
        "dlx",
        reference,
        t.elapsed().as_secs_f64(),
        "-",
        "-"
    )?;
    let mut disagree = false;
    for amo in Amo::ALL {
        let t = Instant::now();
        let formula = cnf::compile(&c.matrix, &reduction, amo);
        let backend = a.backend.unwrap_or(Backend::default_for_build());
        let opts = SatOptions {
            backend,
            ..SatOptions::default()
        };
        let stats = sat::for_each_model(&c.matrix, &reduction, &formula, &opts, None, &mut |_| {
            ControlFlow::Continue(())
        })?;
        if stats.interrupted {
            return Err(Error::Interrupted(format!("at {}", amo.name())));
        }
        let models = stats.models;
        let mark = if models == reference { "" } else { "  DIFFERS" };
        disagree |= models != reference;
        writeln!(
            out,
            "c {:<22} {:>10} {:>10.3} {:>10} {:>12}{mark}",
            format!("sat {} {}", backend.name(), amo.name()),
            models,
            t.elapsed().as_secs_f64(),
            formula.num_vars,
            formula.num_clauses()
        )?;
    }
    if disagree {
        writeln!(out, "s DISAGREE")?;
        return Err(Error::Usage(format!(
            "{}: the engines disagree on the count",
            c.puzzle.name()
        )));
    }
    writeln!(out, "s mc {reference}")?;
    Ok(0)
}

fn write_solution(
    w: &mut dyn Write,
    format: Format,
    puzzle: &Puzzle,
    matrix: &Matrix,
    solution: &[u32],
    index: u64,
) -> io::Result<()> {
    match format {
        Format::Text => {
            writeln!(w, "solution {index}")?;
            writeln!(w, "{}", render::text(puzzle, matrix, solution))
        }
        Format::Jsonl => writeln!(w, "{}", render::json(puzzle, matrix, solution, index)),
    }
}

fn info(a: PuzzleArg, out: &mut dyn Write) -> Result<i32> {
    let puzzle = Puzzle::load(&a.puzzle)?;
    let p = match &puzzle {
        Puzzle::Polycube(p) => p,
        Puzzle::ColoredCubes(p) => return colored_info(p, out),
    };
    let matrix = p.matrix();
    let lo = crate::geometry::min_corner(&p.target).unwrap();
    let hi = crate::geometry::max_corner(&p.target).unwrap();
    writeln!(out, "name        {}", p.name)?;
    writeln!(out, "file        {}", p.source)?;
    writeln!(
        out,
        "target      {} cells in a {}x{}x{} bounding box",
        p.target.len(),
        hi[0] - lo[0] + 1,
        hi[1] - lo[1] + 1,
        hi[2] - lo[2] + 1
    )?;
    writeln!(out, "mirror      {}", p.mirror)?;
    writeln!(out, "placements  {}", matrix.num_options())?;
    for mode in [SymmetryMode::Rotations, SymmetryMode::Reflections] {
        match p.group(&matrix, mode) {
            Ok(g) => writeln!(
                out,
                "group       {} ({} elements)",
                mode.as_str(),
                g.order()
            )?,
            Err(_) => writeln!(
                out,
                "group       {} (not available: the piece set is chiral)",
                mode.as_str()
            )?,
        }
    }
    for (mode, n) in [
        ("none", p.expect.none),
        ("rotations", p.expect.rotations),
        ("reflections", p.expect.reflections),
    ] {
        if let Some(n) = n {
            writeln!(out, "expect      {mode} {n}")?;
        }
    }
    writeln!(out)?;
    writeln!(out, "piece  cells  count  orientations  placements  label")?;
    let per_piece = matrix.columns();
    for (k, piece) in p.pieces.iter().enumerate() {
        writeln!(
            out,
            "{:<5}  {:>5}  {:>5}  {:>12}  {:>10}  {}",
            piece.name,
            piece.shape.len(),
            piece.count,
            p.orientations[k].len(),
            per_piece[p.target.len() + k].len(),
            piece.label.as_deref().unwrap_or("")
        )?;
    }
    Ok(0)
}

fn colored_info(p: &crate::puzzle::ColoredCubes, out: &mut dyn Write) -> Result<i32> {
    let matrix = p.matrix();
    writeln!(out, "name        {}", p.name)?;
    writeln!(out, "file        {}", p.source)?;
    writeln!(
        out,
        "kind        colored-cubes: {} cubes, colours {}",
        p.height(),
        p.letters.iter().collect::<String>()
    )?;
    writeln!(
        out,
        "options     {} (cube, turn) pairs",
        matrix.num_options()
    )?;
    for mode in [SymmetryMode::Stack, SymmetryMode::None] {
        let g = p.group(&matrix, mode)?;
        writeln!(
            out,
            "group       {} ({} elements)",
            mode.as_str(),
            g.order()
        )?;
    }
    for (mode, n) in [("none", p.expect.none), ("stack", p.expect.stack)] {
        if let Some(n) = n {
            writeln!(out, "expect      {mode} {n}")?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "cube  faces (left front right back top bottom)  distinct turns"
    )?;
    for j in 0..p.height() {
        let faces: String = p.cubes[j].iter().map(|&c| p.letter(c)).collect();
        writeln!(out, "{:<4}  {:<44}  {}", j + 1, faces, p.turns_of(j).len())?;
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
            Ok(Puzzle::Polycube(p)) => {
                let pieces: u32 = p.pieces.iter().map(|q| q.count).sum();
                let expected = p.expect.rotations.map_or("?".into(), |n| n.to_string());
                writeln!(
                    out,
                    "{:<22} {:>6} {:>6}  {:<12} {}",
                    e.name,
                    pieces,
                    p.target.len(),
                    expected,
                    p.name
                )?;
            }
            Ok(Puzzle::ColoredCubes(p)) => {
                let expected = p
                    .expect
                    .stack
                    .map_or("?".into(), |n| format!("{n} (stack)"));
                writeln!(
                    out,
                    "{:<22} {:>6} {:>6}  {:<12} {}",
                    e.name,
                    p.height(),
                    "-",
                    expected,
                    p.name
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
    if !(a.timeout > 0.0 && a.timeout.is_finite()) {
        return Err(Error::Usage(format!(
            "--timeout must be a positive number of seconds, not {}",
            a.timeout
        )));
    }
    let plan = crate::bench::Plan {
        puzzles: if a.puzzles.is_empty() {
            vec!["soma".into()]
        } else {
            a.puzzles
        },
        amos: parse_amos(&a.amo)?,
        engines: a.solvers,
        symmetry: a.symmetry,
        repeat: a.repeat as usize,
        timeout: std::time::Duration::from_secs_f64(a.timeout),
        threads: a.threads as usize,
    };
    writeln!(
        out,
        "c polycover {} bench: {} run(s) each, timeout {} s, symmetry {}, {} thread(s) per count",
        env!("CARGO_PKG_VERSION"),
        plan.repeat,
        a.timeout,
        plan.symmetry.map_or("default", |m| m.as_str()),
        plan.threads
    )?;
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
        let werr = |e: io::Error| Error::Write {
            path: path.clone(),
            source: e,
        };
        let mut f = io::BufWriter::new(std::fs::File::create(path).map_err(werr)?);
        crate::bench::write_csv(&mut f, &rows).map_err(werr)?;
        f.flush().map_err(werr)?;
        writeln!(out, "c wrote {}", path.display())?;
    }
    if let Some(path) = &a.svg {
        crate::bench::write_svg(path, &rows)?;
        writeln!(out, "c wrote {}", path.display())?;
    }
    Ok(0)
}

fn generate(a: GenerateArgs, out: &mut dyn Write) -> Result<i32> {
    let text = match a.kind {
        GenerateKind::ColoredCubes => {
            crate::puzzle::colored::generate(a.cubes, a.seed, a.solvable)?
        }
    };
    crate::sat::dimacs::create(&a.output, out, &mut |w| w.write_all(text.as_bytes()))?;
    Ok(0)
}
