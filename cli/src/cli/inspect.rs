//! The commands that look at puzzles: `info`, `list` and `check`.
//!
//! Invariants:
//! - `info` reads its input once: standard input cannot be read twice; `--difficulty`
//!   measures the puzzle so read (`engine::difficulty`), after its other rows; a
//!   measure stopped by `--timeout` prints no figure, only `c stopped by the timeout`,
//!   and exits 1.
//! - `check` refuses every encoding's oversized CNF before the reference count, and
//!   fails (exit 1, after `s DISAGREE`) when any engine's count differs; one stopped by
//!   `--timeout` keeps the rows it finished, then `c stopped by the timeout: ...` and
//!   `s UNKNOWN`, exit 1 (a partial count is never a row).

use super::context::Context;
use std::io::Write;
use std::time::Instant;

use super::args::{CheckArgs, InfoArgs};
use super::engines;
use super::outcome::Outcome;
use crate::sat::{Amo, Formula};
use polycover::kinds::BurrTools;
use polycover::Report;
use polycover::{Error, Result};
use polycover::{Puzzle, SymmetryMode};

pub(super) fn info(args: InfoArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    let a = &args.puzzle;
    // A file or standard input is read once: `-` cannot be read twice.
    let stop = ctx.stop().clone();
    let puzzle = match Puzzle::read_input(&a.puzzle, &stop)? {
        // A BurrTools file: its problems first; with several and none picked, only those.
        Some((source, bytes)) if BurrTools::is_burrtools(&bytes) => {
            let problems = BurrTools::list(&source, &bytes)?;
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
                return Ok(Outcome::Done);
            }
            writeln!(out)?;
            let file = BurrTools::read(&source, &bytes, a.problem.as_deref())?;
            Puzzle::from_burrtools(&file, &stop)?
        }
        Some((source, bytes)) => Puzzle::from_bytes(&source, bytes, a.problem.as_deref(), &stop)?,
        None => a.load(ctx)?,
    };
    puzzle.info(out)?;
    if args.difficulty {
        let mode = args.symmetry.map_or(puzzle.default_symmetry(), Into::into);
        // Within --timeout: the command's stop has its deadline.
        let problem = puzzle.compile(mode)?;
        let Some(d) = engines::difficulty(&problem, &stop)? else {
            // Only the deadline ends the walk early without an error (Ctrl-C is one):
            // figures of part of the tree would pass for the puzzle's, so none are shown.
            writeln!(
                out,
                "c stopped by the timeout after {:.1} s: the difficulty was not measured",
                args.started.elapsed().as_secs_f64()
            )?;
            return Ok(Outcome::Stopped);
        };
        writeln!(out)?;
        for (name, value) in d.rows() {
            writeln!(out, "{name:<11} {value}")?;
        }
    }
    Ok(Outcome::Done)
}

pub(super) fn list(out: &mut dyn Write) -> Result<Outcome> {
    // The name column fits the longest name, so the columns stay aligned; a count too
    // long for its column is shown to 3 digits (`count` prints it whole).
    let rows: Vec<_> = polycover::CatalogEntry::all()
        .iter()
        .map(|e| (e.name, Puzzle::parse(&format!("{}.toml", e.name), e.text)))
        .collect();
    let w = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0).max(22);
    let r = 12;
    // The published count in the puzzle's default mode, named when it is not the
    // column's (`1 (stack)`).
    let expected = |p: &Puzzle| {
        let mode = p.default_symmetry();
        let n = match p.expected(mode) {
            Some(n) if mode == SymmetryMode::Rotations => n.to_string(),
            Some(n) => format!("{n} ({})", mode.as_str()),
            None => "?".into(),
        };
        match n.parse::<f64>() {
            Ok(x) if n.len() > r => format!("{x:.2e}"),
            _ => n,
        }
    };
    writeln!(
        out,
        "{:<w$} {:>6} {:>6}  {:<r$} name",
        "catalog", "pieces", "cells", "rotations"
    )?;
    for (name, parsed) in rows {
        match parsed {
            Ok(p) => {
                writeln!(
                    out,
                    "{:<w$} {:>6} {:>6}  {:<r$} {}",
                    name,
                    p.pieces(),
                    p.cells().map_or("-".into(), |n| n.to_string()),
                    expected(&p),
                    p.name()
                )?;
            }
            Err(err) => writeln!(
                out,
                "{:<w$} error: {}",
                name,
                err.render(&super::wording::flag)
            )?,
        }
    }
    Ok(Outcome::Done)
}

pub(super) fn check(a: CheckArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    // Stopped by the deadline (while the puzzle is read, a CNF built or an engine
    // counts): the rows so far stay, then the stop, as a count's.
    match check_rows(a, ctx, out) {
        Err(Error::Interrupted(why)) => {
            writeln!(out, "c stopped by {}: {why}", crate::signals::cause())?;
            writeln!(out, "s UNKNOWN")?;
            Ok(Outcome::Interrupted)
        }
        Err(e) => super::outcome::unknown_at_deadline(out, e),
        ok => ok,
    }
}

/// A count the deadline or a signal stopped is no row: its partial count would read as a
/// disagreement. Either ends `check` on `s UNKNOWN`, naming the engine and how far it got.
fn finished(name: &str, report: Report) -> Result<Report> {
    if report.interrupted {
        return Err(Error::Interrupted(format!(
            "{name} had counted {} so far",
            polycover::Count::solutions(&report.solutions)
        )));
    }
    if !report.complete {
        return Err(Error::Failed(format!(
            "stopped by the timeout: {name} had counted {} so far",
            polycover::Count::solutions(&report.solutions)
        )));
    }
    Ok(report)
}

fn check_rows(a: CheckArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    // `check` counts with the SAT backend: one that finds only the first solution is
    // refused before anything is printed.
    let p = a.puzzle.problem(a.symmetry, ctx)?;
    let (sat, _) = engines::check_sat(a.backend.as_deref(), Amo::Product, a.force)?;
    engines::prepare(&p, &sat)?.counter()?;
    writeln!(
        out,
        "c puzzle {}, symmetry {}",
        p.puzzle().name(),
        p.mode().as_str()
    )?;
    writeln!(
        out,
        "c {:<22} {:>10} {:>10} {:>10} {:>12}",
        "engine", "count", "seconds", "variables", "clauses"
    )?;
    // Every encoding's size first: a refusal comes before the reference count.
    for amo in Amo::ALL {
        Formula::size(&p, amo).check(amo, a.force)?;
    }
    let reference_engine = engines::reference();
    let reference = engines::prepare(&p, &reference_engine)?;
    let reference = engines::count(reference.counter()?, &engines::run_options(ctx), None)?;
    // A stopped reference count is no row: its partial count would pass for the count.
    let reference = finished(reference_engine.name(), reference)?;
    let row = |out: &mut dyn Write,
               name: &str,
               report: &Report,
               seconds: f64,
               size: Option<(usize, usize)>| {
        let differs = report.solutions != reference.solutions;
        let (variables, clauses) = size.map_or(("-".into(), "-".into()), |(v, c)| {
            (v.to_string(), c.to_string())
        });
        writeln!(
            out,
            "c {name:<22} {:>10} {seconds:>10.3} {variables:>10} {clauses:>12}{}",
            report.solutions,
            if differs { "  DIFFERS" } else { "" }
        )?;
        Ok::<bool, Error>(differs)
    };
    row(
        out,
        reference_engine.name(),
        &reference,
        reference.seconds,
        None,
    )?;
    let mut disagree = false;
    for engine in engines::check_native() {
        let prepared = engines::prepare(&p, &engine)?;
        let report = engines::count(prepared.counter()?, &engines::run_options(ctx), None)?;
        let report = finished(engine.name(), report)?;
        disagree |= row(out, engine.name(), &report, report.seconds, None)?;
    }
    for amo in Amo::ALL {
        let (engine, name) = engines::check_sat(a.backend.as_deref(), amo, a.force)?;
        // The SAT rows' seconds include compiling the CNF.
        let t = Instant::now();
        let prepared = engines::prepare(&p, &engine)?;
        let report = engines::count(prepared.counter()?, &engines::run_options(ctx), None)?;
        let report = finished(&name, report)?;
        let size = Formula::size(&p, amo);
        let size = Some((size.variables as usize, size.clauses as usize));
        disagree |= row(out, &name, &report, t.elapsed().as_secs_f64(), size)?;
    }
    if disagree {
        writeln!(out, "s DISAGREE")?;
        return Err(Error::Failed(format!(
            "{}: the engines disagree on the count",
            p.puzzle().name()
        )));
    }
    writeln!(out, "s mc {}", reference.solutions)?;
    Ok(Outcome::Done)
}
