//! `bench`'s arguments: what to measure, checked before the first run. The measuring is
//! `crate::bench`.
//!
//! Invariants:
//! - Every output (CSV, SVG) is checked before the first run, not after an hour of them.
//! - Each run happens in a fresh process where the executable can be found, so that a
//!   row's peak memory owes nothing to the rows before it.
//! - An `--external` solver that cannot be started is refused before the first run.
//! - A stop (SIGTERM, Ctrl-C) ends the bench with 128 + the signal, after writing the
//!   CSV (and the SVG) of the rows measured so far, atomically: an hour of rows is not
//!   lost to a scheduler's time limit.

use super::context::Context;
use std::io::Write;
use std::path::{Path, PathBuf};

use itertools::Itertools;

use super::args::BenchArgs;
use super::outcome::Outcome;
use crate::output;
use crate::sat::Amo;
use polycover::{Error, Result};

/// `--amo`: `all`, or a comma-separated list of encodings: the values the SAT engine
/// declares for its `amo` setting.
fn parse_amos(spec: &str) -> Result<Vec<Amo>> {
    let declared = super::engines::declared_values(polycover::Setting::Amo);
    let names: Vec<&str> = if spec == "all" {
        declared.clone()
    } else {
        spec.split(',').map(str::trim).collect()
    };
    names
        .into_iter()
        .map(
            |name| match Amo::from_name(name).filter(|_| declared.contains(&name)) {
                Some(amo) => Ok(amo),
                None => Err(Error::Usage(format!(
                    "unknown at-most-one encoding `{name}`: use `all` or some of {}{}",
                    declared.iter().join(", "),
                    polycover::Error::did_you_mean(name, declared.iter().copied().chain(["all"]))
                ))),
            },
        )
        .collect()
}

pub(super) fn bench(a: BenchArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
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
    if let (Some(csv), Some(svg)) = (&a.csv, &a.svg) {
        output::check_not_same(csv, svg, "--csv", "--svg")?;
    }
    let entrants = entrants(&a)?;
    // Sorted and distinct: the first is the speed-ups' reference.
    let threads = a.threads.0.clone();
    let plan = crate::bench::Plan {
        puzzles: puzzles.clone(),
        amos: a
            .amo
            .as_deref()
            .map(parse_amos)
            .transpose()?
            .unwrap_or_default(),
        entrants,
        stop: ctx.stop().clone(),
        symmetry: a.symmetry.map(Into::into),
        repeat: a.repeat as usize,
        timeout: a.timeout,
        threads: threads[0],
        isolate: None,
        words: super::wording::flag,
    };
    if a.measure_once {
        if threads.len() != 1 {
            return Err(Error::Usage("--measure-once takes one thread count".into()));
        }
        crate::bench::measure_child(&plan, out)?;
        return Ok(Outcome::Done);
    }
    // Each run in a fresh process, so that a row's peak memory owes nothing to the rows
    // before it.
    let plan = crate::bench::Plan {
        isolate: crate::bench::polycover_executable(),
        ..plan
    };
    write_header(&a, &plan, &threads, out)?;
    out.flush()?;
    let mut failure = None;
    // The rows as they are logged, so that a stop keeps them. A signal sets the stop
    // flag for the whole bench instead of ending it at once.
    let mut rows = Vec::new();
    let listening = ctx.stop().listen();
    let mut log = |row: &crate::bench::Row| {
        rows.push(row.clone());
        if failure.is_none() {
            failure = writeln!(out, "{}", crate::bench::table_line(row))
                .and_then(|_| out.flush())
                .err();
        }
    };
    let ran = match threads.as_slice() {
        [_] => crate::bench::run(&plan, &mut log),
        many => crate::bench::run_scaling(&plan, many, &mut log),
    };
    match ran {
        Ok(_) => {}
        Err(Error::Interrupted(why)) => {
            // Written after the stop too: a second signal still ends it at once.
            writeln!(
                out,
                "c stopped by {}: {} row(s) measured",
                crate::signals::cause(),
                rows.len()
            )?;
            if !rows.is_empty() {
                write_outputs(&a, &inputs, &rows, true, ctx, out)?;
            }
            return Err(Error::Interrupted(why));
        }
        Err(e) => return Err(e),
    }
    drop(listening);
    if let Some(e) = failure {
        return Err(e.into());
    }
    write_outputs(&a, &inputs, &rows, false, ctx, out)?;
    Ok(Outcome::Done)
}

/// The engines and the `--external` solvers to run, checking each solver (once per
/// bench, not in each measuring child) and refusing a name given twice.
fn entrants(a: &BenchArgs) -> Result<Vec<crate::bench::Entrant>> {
    let mut entrants = a.solvers.clone();
    for (k, solver) in a.external.iter().enumerate() {
        if a.external[..k].iter().any(|s| s.name == solver.name) {
            return Err(Error::Usage(format!(
                "--external {}: that name is given twice",
                solver.name
            )));
        }
        if !a.measure_once {
            solver.check()?;
        }
        entrants.push(crate::bench::Entrant::Solver(solver.clone()));
    }
    Ok(entrants)
}

/// The bench's `c` lines: how it runs each count, and what its time and memory columns
/// measure.
fn write_header(
    a: &BenchArgs,
    plan: &crate::bench::Plan,
    threads: &[usize],
    out: &mut dyn Write,
) -> Result<()> {
    let per_count = match threads {
        [one] => format!("{one} thread(s) per count"),
        many => format!(
            "threads {} per count, each engine against its own on {}",
            many.iter().join(","),
            many[0]
        ),
    };
    writeln!(
        out,
        "c polycover {} bench: {} run(s) each, timeout {} s, symmetry {}, {per_count}",
        env!("CARGO_PKG_VERSION"),
        plan.repeat,
        a.timeout.as_secs_f64(),
        plan.symmetry.map_or("default", |m| m.as_str()),
    )?;
    if threads.len() > 1 {
        writeln!(
            out,
            "c cpu: user+sys time of the process that ran the count ({}); busy = cpu / wall; \
             speed-up = wall on {}t / wall (per solution after a timeout); efficiency = speed-up / (threads / {})",
            if plan.isolate.is_some() {
                "a fresh process per count"
            } else {
                "this process"
            },
            threads[0],
            threads[0]
        )?;
    }
    if plan.isolate.is_none() {
        writeln!(
            out,
            "c peak memory measured in this process: a row's may include memory kept from earlier rows"
        )?;
    }
    Ok(())
}

/// Writes the CSV and the SVG of `rows` where `--csv` and `--svg` say, each atomically;
/// `stopped`: after a stop, which would otherwise abandon the writes.
fn write_outputs(
    a: &BenchArgs,
    inputs: &[&Path],
    rows: &[crate::bench::Row],
    stopped: bool,
    ctx: &Context,
    out: &mut dyn Write,
) -> Result<()> {
    // After a stop the rows so far are written whole: as records, which a stop does not
    // abandon.
    let write =
        |path: &Path, out: &mut dyn Write, body: &mut dyn FnMut(&mut dyn Write) -> Result<()>| {
            if stopped {
                output::write_records(ctx.stop(), path, out, inputs, &mut |w| {
                    body(w).map(|()| output::Ended::Finished)
                })
                .map(drop)
            } else {
                output::write(ctx.stop(), path, out, inputs, body)
            }
        };
    if let Some(path) = &a.csv {
        let scaling = a.threads.0.len() > 1;
        write(path, out, &mut |w| {
            Ok(crate::bench::write_csv(w, rows, scaling)?)
        })?;
        writeln!(out, "c wrote {}", path.display())?;
    }
    if let Some(path) = &a.svg {
        let svg = crate::bench::svg(rows)?;
        write(path, out, &mut |w| Ok(w.write_all(svg.as_bytes())?))?;
        writeln!(out, "c wrote {}", path.display())?;
    }
    Ok(())
}
