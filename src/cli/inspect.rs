//! The commands that look at puzzles: `info`, `list` and `check`.
//!
//! Invariants:
//! - `info` reads its input once: standard input cannot be read twice.
//! - `check` refuses every encoding's oversized CNF before the reference count, and
//!   fails (exit 1, after `s DISAGREE`) when any engine's count differs.

use std::io::Write;
use std::time::Instant;

use super::args::{CheckArgs, PuzzleArg};
use super::engines;
use super::outcome::{refuse_interrupted, Outcome};
use crate::catalog;
use crate::engine::RunOptions;
use crate::error::{Error, Result};
use crate::puzzle::burrtools;
use crate::puzzle::Puzzle;
use crate::sat::Amo;

pub(super) fn info(a: PuzzleArg, out: &mut dyn Write) -> Result<Outcome> {
    // A file or standard input is read once: `-` cannot be read twice.
    let puzzle = match Puzzle::read_input(&a.puzzle)? {
        // A BurrTools file: its problems first; with several and none picked, only those.
        Some((source, bytes)) if burrtools::is_burrtools(&bytes) => {
            let file = burrtools::read(&source, &bytes, a.problem.as_deref())?;
            for p in &file.problems {
                let count = p
                    .assemblies
                    .map_or("not solved in BurrTools".to_string(), |n| {
                        format!("BurrTools counted {n} assemblies")
                    });
                writeln!(out, "problem     {} \"{}\" ({count})", p.number, p.name)?;
            }
            if file.problems.len() > 1 && a.problem.is_none() {
                writeln!(out, "c pick a problem with --problem NAME or NUMBER")?;
                return Ok(Outcome::Done);
            }
            writeln!(out)?;
            Puzzle::from_burrtools(&file.chosen?)?
        }
        Some((source, bytes)) => Puzzle::from_bytes(&source, bytes, a.problem.as_deref())?,
        None => a.load()?,
    };
    puzzle.info(out)?;
    Ok(Outcome::Done)
}

pub(super) fn list(out: &mut dyn Write) -> Result<Outcome> {
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
    Ok(Outcome::Done)
}

pub(super) fn check(a: CheckArgs, out: &mut dyn Write) -> Result<Outcome> {
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
    let reference = engines::count(&p, &engines::reference(), &RunOptions::default(), None)?;
    writeln!(
        out,
        "c {:<22} {:>10} {:>10.3} {:>10} {:>12}",
        "dlx", reference.solutions, reference.seconds, "-", "-"
    )?;
    let mut disagree = false;
    for engine in engines::check_native() {
        let report = engines::count(&p, &engine, &RunOptions::default(), None)?;
        refuse_interrupted(&report)?;
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
    for amo in Amo::ALL {
        let (engine, name) = engines::check_sat(a.backend, amo, a.force);
        let t = Instant::now();
        let formula = p.formula_checked(amo, a.force)?;
        let report = engines::count(&p, &engine, &RunOptions::default(), None)?;
        refuse_interrupted(&report)?;
        let differs = report.solutions != reference.solutions;
        disagree |= differs;
        writeln!(
            out,
            "c {:<22} {:>10} {:>10.3} {:>10} {:>12}{}",
            name,
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
    Ok(Outcome::Done)
}
