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
    #[arg(long, value_enum, default_value = "rotations")]
    symmetry: SymmetryMode,
    /// The engine: `bits` (fast) or `dlx` (dancing links, the reference).
    #[arg(long, value_enum, default_value = "bits")]
    solver: Solver,
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
    }
}

fn load(args: &SearchArgs) -> Result<Compiled> {
    Puzzle::load(&args.puzzle.puzzle)?.compile(args.symmetry)
}

fn header(out: &mut dyn Write, c: &Compiled, reduction: &Reduction, solver: Solver) -> Result<()> {
    writeln!(out, "c polycover {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "c puzzle {}", c.puzzle.name())?;
    writeln!(
        out,
        "c matrix {} items, {} options; searching {} options",
        c.matrix.num_items(),
        c.matrix.num_options(),
        reduction.matrix().num_options()
    )?;
    let pinned = reduction.pinned_item().map_or(
        "none (canonical check over the whole group)".to_string(),
        |i| c.matrix.items()[i as usize].name.clone(),
    );
    writeln!(
        out,
        "c symmetry {} (group order {}), pinned item {}",
        c.mode.as_str(),
        c.group.order(),
        if c.group.order() == 1 {
            "none".to_string()
        } else {
            pinned
        }
    )?;
    writeln!(out, "c solver {}", solver.name())?;
    Ok(())
}

fn count(a: CountArgs, out: &mut dyn Write) -> Result<i32> {
    let c = load(&a.search)?;
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    header(out, &c, &reduction, a.search.solver)?;
    let threads = a.threads.unwrap_or_else(solver::default_threads).max(1);
    let bar = io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "c {bar:40} {pos}/{len} subproblems, {elapsed} elapsed, eta {eta}",
            )
            .unwrap(),
        );
        bar
    });
    let progress = |done: usize, total: usize| {
        if let Some(b) = &bar {
            b.set_length(total as u64);
            b.set_position(done as u64);
        }
    };
    let start = Instant::now();
    let stats = solver::count(
        &reduction,
        RunOptions {
            solver: a.search.solver,
            threads,
            progress: Some(&progress),
        },
    );
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "c threads {threads}, time {secs:.3} s, nodes {}, raw solutions {}",
        stats.nodes, stats.found
    )?;
    if let Some(expected) = c.puzzle.expect().get(c.mode) {
        let verdict = if expected == stats.solutions {
            "matches"
        } else {
            "DIFFERS"
        };
        writeln!(out, "c expected {expected} ({verdict})")?;
    }
    writeln!(out, "s mc {}", stats.solutions)?;
    Ok(0)
}

fn solve(a: SolveArgs, out: &mut dyn Write) -> Result<i32> {
    let c = load(&a.search)?;
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    header(out, &c, &reduction, a.search.solver)?;
    match solver::first(&reduction, a.search.solver) {
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
    solver::for_each(&reduction, a.search.solver, &mut |solution| {
        if a.limit.is_some_and(|l| written >= l) {
            return ControlFlow::Break(());
        }
        written += 1;
        let r = write_solution(sink, a.format, &c.puzzle, &c.matrix, solution, written);
        match r {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failure = Some(e);
                ControlFlow::Break(())
            }
        }
    });
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
    let Puzzle::Polycube(p) = &puzzle;
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
            Err(err) => writeln!(out, "{:<22} error: {err}", e.name)?,
        }
    }
    Ok(0)
}
