//! `bench`'s arguments: what to measure, checked before the first run. The measuring is
//! `crate::bench`.
//!
//! Invariants:
//! - Every output (CSV, SVG) is checked before the first run, not after an hour of them.
//! - Each run happens in a fresh process where the executable can be found, so that a
//!   row's peak memory owes nothing to the rows before it.

use std::io::Write;
use std::path::{Path, PathBuf};

use itertools::Itertools;

use super::args::BenchArgs;
use super::outcome::Outcome;
use crate::error::{Error, Result};
use crate::output;
use crate::sat::Amo;

/// `--amo`: `all`, or a comma-separated list of encodings.
fn parse_amos(spec: &str) -> Result<Vec<Amo>> {
    if spec == "all" {
        return Ok(Amo::EVERY.to_vec());
    }
    spec.split(',')
        .map(|name| {
            Amo::EVERY
                .into_iter()
                .find(|a| a.name() == name.trim())
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "unknown at-most-one encoding `{name}`: use `all` or some of {}{}",
                        Amo::EVERY.iter().map(|a| a.name()).join(", "),
                        crate::suggest::did_you_mean(
                            name.trim(),
                            Amo::EVERY.iter().map(|a| a.name()).chain(["all"])
                        )
                    ))
                })
        })
        .collect()
}

pub(super) fn bench(a: BenchArgs, out: &mut dyn Write) -> Result<Outcome> {
    let puzzles = if a.puzzles.is_empty() {
        vec![PathBuf::from("soma")]
    } else {
        a.puzzles.clone()
    };
    let inputs: Vec<&Path> = puzzles.iter().map(|p| p.as_path()).collect();
    // Every output is checked before the first run, not after an hour of them.
    for path in a.csv.iter().chain(a.svg.iter()) {
        output::check_writable(path, &inputs)?;
    }
    let mut entrants = a.solvers;
    for (k, solver) in a.external.iter().enumerate() {
        if a.external[..k].iter().any(|s| s.name == solver.name) {
            return Err(Error::Usage(format!(
                "--external {}: that name is given twice",
                solver.name
            )));
        }
        entrants.push(crate::bench::Entrant::Solver(solver.clone()));
    }
    let plan = crate::bench::Plan {
        puzzles: puzzles.clone(),
        amos: parse_amos(&a.amo)?,
        entrants,
        symmetry: a.symmetry.map(Into::into),
        repeat: a.repeat as usize,
        timeout: a.timeout,
        threads: a.threads,
        isolate: None,
    };
    if a.measure_once {
        crate::bench::measure_child(&plan, out)?;
        return Ok(Outcome::Done);
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
    Ok(Outcome::Done)
}
