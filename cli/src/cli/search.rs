//! `count`, `solve` and `enumerate`: the searching commands.
//!
//! A plain `count` and a `--part`/`--checkpoint` one are the same body (the part only
//! narrows the search to its subproblems and adds its lines); a plain `enumerate`
//! streams to its output, and a split or checkpointed one is `parts::enumerate`, both
//! writing through the one loop in `records`.
//!
//! Invariants:
//! - The options are checked first, the outputs next: a wrong one fails before any work.
//! - A stopped enumeration keeps the whole solutions it wrote: they are valid.

use super::context::Context;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::args::{CountArgs, EnumerateArgs, SearchArgs, SolveArgs};
use super::engines;
use super::outcome::Outcome;
use super::parts::{self, CountPart};
use super::records::written_to;
use super::report::{self, Bar, Counted};
use crate::engine::Goal;
use crate::engine::Progress;
use crate::output;
use polycover::Count;
use polycover::RunOptions;
use polycover::{Error, Result};

pub(super) fn count(a: CountArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    // With --certify, `--force` also lets it write into a directory that holds files,
    // which needs no --solver sat.
    let certifying = a.certify.is_some();
    let mut sat = a.search.sat.clone();
    sat.force &=
        !certifying || engines::declares(a.search.solver.as_deref(), polycover::Setting::Force);
    let choose = engines::for_count(a.search.solver.as_deref(), &sat.given())?;
    if let (Some(_), Some(named)) = (&a.parts.checkpoint, choose.named()) {
        if let Some(instead) = named.algorithm().instead_for_checkpoint() {
            return Err(Error::Usage(format!(
                "--checkpoint does not go with --solver {}: its count is not made of \
                 subproblems that a checkpoint records as they end; count with --solver {} \
                 (the default with --checkpoint), whose subproblems it records",
                named.name(),
                instead.name()
            )));
        }
    }
    let p = match load(&a.search, ctx, out)? {
        Ok(p) => p,
        Err(stopped) => return Ok(stopped),
    };
    let part = if a.parts.given() {
        Some(CountPart::open(&a, &p)?)
    } else {
        None
    };
    let split = part.as_ref().is_some_and(|part| part.by_subproblem());
    let memory = a.memory.unwrap_or_else(|| RunOptions::default().memory);
    let (engine, why) = count_engine(&a, choose, &p, split, ctx, out);
    if let Some(dir) = &a.certify {
        super::certify::check_dir(dir, a.parts.given(), a.search.sat.force)?;
        polycover::certify::Certificate::check_engine(&engine)?;
    }
    let prepared = engines::prepare(&p, &engine)?;
    // An engine that finds only the first solution is refused before the header.
    let counter = prepared.counter()?;
    let threads = a
        .threads
        .unwrap_or_else(polycover::RunOptions::default_threads)
        .max(1);
    report::header_why(out, &p, &*prepared, Goal::All, why.as_deref())?;
    if a.memory.is_some() && !prepared.keeps_table() {
        writeln!(
            out,
            "c --memory does not apply to solver {}, which keeps no table: it is ignored",
            prepared.name()
        )?;
    }
    if let Some(part) = &part {
        part.header(out)?;
    }
    let bar = Bar::new();
    let progress = |q: &Progress| {
        bar.show(q, |q| match &part {
            Some(part) => format!("{} solutions", part.before().clone() + q.solutions),
            None => {
                let rate = q.solutions as f64 / q.elapsed.max(1e-9);
                format!("{} solutions, {rate:.1}/s", q.solutions)
            }
        })
    };
    let opts = RunOptions {
        threads,
        stop: ctx.stop().clone(),
        // No bar, no progress: nothing estimates the subproblems' sizes for it.
        progress: bar.draws().then_some(&progress as _),
        memory,
    };
    let finished = |j: usize, solutions: Count| {
        if let Some(part) = &part {
            part.finished(j, solutions);
        }
    };
    let scope = part.as_ref().map(|part| part.scope());
    let report = engines::count(
        counter,
        &opts,
        scope.map(|s| (s, &finished as engines::Finished)),
    )?;
    bar.finish();
    if let (Some(dir), true) = (&a.certify, report.complete) {
        match super::certify::count(&p, &engine, &report, dir, memory, ctx, out) {
            // The count is known but its certificate is not: no `s mc` without it.
            Err(Error::Interrupted(why)) => {
                writeln!(out, "c no certificate is kept: {why}")?;
                writeln!(out, "s UNKNOWN")?;
                return Ok(if ctx.stop().raised() {
                    Outcome::Interrupted
                } else {
                    Outcome::Stopped
                });
            }
            done => done?,
        }
    }
    let counted = match part {
        Some(part) => part.close(&report)?,
        None => Counted::Whole,
    };
    report::count_end(out, &p, &report, threads, &counted)
}

pub(super) fn solve(a: SolveArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    if a.proof.is_some() {
        return solve_with_proof(a, ctx, out);
    }
    let engine = engines::chosen(a.search.solver.as_deref(), &a.search.sat.given())?;
    let p = match load(&a.search, ctx, out)? {
        Ok(p) => p,
        Err(stopped) => return Ok(stopped),
    };
    let prepared = engines::prepare(&p, &engine)?;
    // An engine that only counts is refused before anything is printed.
    let finder = prepared.finder()?;
    if let Some(svg) = &a.svg {
        output::check_writable(svg, &[&a.search.puzzle.puzzle])?;
        // A puzzle too large to draw is refused now, not after the search.
        p.puzzle().check_drawable()?;
    }
    check_page(&a, &p)?;
    report::header(out, &p, &*prepared, Goal::First)?;
    let (first, report) = engines::first(finder, &engines::run_options(ctx))?;
    writeln!(
        out,
        "c time {:.3} s, {}{}",
        report.seconds,
        report.statistics,
        report::peak_memory()
    )?;
    match first {
        // A stop by the deadline or a signal is no answer: `s UNKNOWN`, as a stopped
        // count says (the SAT convention), with exit 1 or 128 + the signal.
        None if report.timed_out || report.interrupted => {
            writeln!(
                out,
                "c stopped{} before a solution",
                report::stopped_by(&report)
            )?;
            writeln!(out, "s UNKNOWN")?;
            Ok(Outcome::unfinished(&report))
        }
        Some(solution) => satisfiable(out, &p, &solution, &a, &a.search.puzzle.puzzle, ctx),
        None => {
            writeln!(out, "s UNSATISFIABLE")?;
            Ok(Outcome::Unsatisfiable)
        }
    }
}

/// `count`'s engine for `p`, and why where it is a default: the one named; else under
/// `--certify` the one whose certificate is smallest; else the default counter (`split`:
/// a part or a checkpoint runs), but never the frontier with a checkpoint, which records
/// subproblems as they end (the frontier's layers are none: the memo instead).
fn count_engine(
    a: &CountArgs,
    choose: engines::ForCount,
    p: &polycover::Problem,
    split: bool,
    ctx: &Context,
    out: &mut dyn Write,
) -> (polycover::Engine, Option<String>) {
    let (engine, why) = match &a.certify {
        Some(_) if a.search.solver.is_none() => {
            let (engine, why) = polycover::certify::Certificate::engine_for(p);
            (engine, Some(why))
        }
        _ => choose.pick(p, split, ctx.stop(), out),
    };
    let instead = engine.algorithm().instead_for_checkpoint();
    if let (Some(_), Some(instead)) = (&a.parts.checkpoint, instead) {
        let why = format!(
            "the default with --checkpoint for a sweep: {}, whose subproblems the checkpoint \
             records as they end ({}'s count is not made of subproblems)",
            instead.name(),
            engine.name()
        );
        return (instead, Some(why));
    }
    (engine, why)
}

/// The puzzle of `count` or `solve`, loaded within `--timeout`; or, when the deadline
/// passed first (while the puzzle was waited for, read or placed), how the command ends
/// then: as a search the timeout stopped, on `c stopped by the timeout ...` and
/// `s UNKNOWN` (exit 1), so that a script reading the last `s` line finds one.
fn load(
    a: &SearchArgs,
    ctx: &Context,
    out: &mut dyn Write,
) -> Result<std::result::Result<polycover::Problem, Outcome>> {
    match a.load(ctx) {
        Ok(p) => Ok(Ok(p)),
        Err(Error::Failed(why)) if a.deadline().is_some_and(|d| Instant::now() >= d) => {
            let why = why.strip_prefix("stopped by the timeout").unwrap_or(&why);
            writeln!(out, "c stopped by the timeout{why}")?;
            writeln!(out, "s UNKNOWN")?;
            Ok(Err(Outcome::Stopped))
        }
        Err(e) => Err(e),
    }
}

/// `solve --html`, checked before the search: a file that can be written, not the
/// `--svg` file, and a puzzle whose kind has a 3-D view.
fn check_page(a: &SolveArgs, p: &polycover::Problem) -> Result<()> {
    if let Some(html) = &a.html {
        output::check_writable(html, &[&a.search.puzzle.puzzle])?;
        if let Some(svg) = &a.svg {
            output::check_not_same(svg, html, "--svg", "--html")?;
        }
        p.puzzle().check_html()?;
    }
    Ok(())
}

/// A solution found: its picture and 3-D view when asked for, then the answer.
fn satisfiable(
    out: &mut dyn Write,
    p: &polycover::Problem,
    solution: &[u32],
    a: &SolveArgs,
    input: &Path,
    ctx: &Context,
) -> Result<Outcome> {
    // A picture that the deadline stopped (a FIFO with no reader) ends the run as any
    // stop by the deadline does: `c stopped by the timeout`, `s UNKNOWN`, exit 1.
    let stopped = super::outcome::unknown_at_deadline;
    if let Some(path) = &a.svg {
        let picture = p.puzzle().svg(solution)?;
        if let Err(e) = output::write(ctx.stop(), path, out, &[input], &mut |w| {
            Ok(w.write_all(picture.as_bytes())?)
        }) {
            return stopped(out, e);
        }
        writeln!(out, "c picture {}", path.display())?;
    }
    if let Some(path) = &a.html {
        let page = p.puzzle().html(solution)?;
        if let Err(e) = output::write(ctx.stop(), path, out, &[input], &mut |w| {
            Ok(w.write_all(page.as_bytes())?)
        }) {
            return stopped(out, e);
        }
        writeln!(out, "c 3-D view {}", path.display())?;
    }
    writeln!(out, "s SATISFIABLE")?;
    write!(out, "{}", p.puzzle().text(solution))?;
    Ok(Outcome::Satisfiable)
}

/// `solve --proof`: one solve by varisat that writes a DRAT proof. The proof file is
/// written whole when the answer is UNSATISFIABLE, and not at all when a solution exists
/// (it would prove nothing).
fn solve_with_proof(a: SolveArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    let proof = a.proof.clone().expect("called with --proof");
    let engine = engines::for_proof(a.search.solver.as_deref(), &a.search.sat.given())?;
    let input = a.search.puzzle.puzzle.clone();
    output::check_writable(&proof, &[&input])?;
    let p = match load(&a.search, ctx, out)? {
        Ok(p) => p,
        Err(stopped) => return Ok(stopped),
    };
    if let Some(svg) = &a.svg {
        output::check_writable(svg, &[&input])?;
        output::check_distinct(svg, &[&proof])?;
        p.puzzle().check_drawable()?;
    }
    if let Some(html) = &a.html {
        output::check_distinct(html, &[&proof])?;
    }
    check_page(&a, &p)?;
    let prepared = engines::prepare(&p, &engine)?;
    // A backend that writes no proof is refused before the header.
    let refuter = prepared.refuter()?;
    report::header(out, &p, &*prepared, Goal::First)?;
    let start = std::time::Instant::now();
    let mut found: Option<Vec<u32>> = None;
    // The solve runs inside the proof's writer, so the proof streams to its file; a
    // solution abandons the file (the body fails on purpose, and `found` says why).
    let written = output::write(
        ctx.stop(),
        &proof,
        out,
        &[&input],
        &mut |w| match engines::refute(refuter, w, ctx)? {
            crate::sat::Refutation::Unsatisfiable => Ok(()),
            crate::sat::Refutation::Satisfiable(solution) => {
                found = Some(solution);
                Err(Error::Failed("a solution: no proof to keep".into()))
            }
        },
    );
    let seconds = start.elapsed().as_secs_f64();
    match (written, found) {
        (_, Some(solution)) => {
            writeln!(
                out,
                "c time {seconds:.3} s, one varisat solve{}",
                report::peak_memory()
            )?;
            writeln!(out, "c no proof written: the CNF has a solution")?;
            satisfiable(out, &p, &solution, &a, &input, ctx)
        }
        (Ok(()), None) => {
            writeln!(
                out,
                "c time {seconds:.3} s, one varisat solve{}",
                report::peak_memory()
            )?;
            writeln!(out, "c proof {} (DRAT, by varisat)", proof.display())?;
            writeln!(out, "s UNSATISFIABLE")?;
            Ok(Outcome::Unsatisfiable)
        }
        (Err(e), None) => Err(e),
    }
}

pub(super) fn enumerate(a: EnumerateArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    // With --svg or --html, `--force` also lets them write into a directory that holds
    // files, which needs no --solver sat.
    let drawing = a.records.drawing();
    let force = drawing && a.search.sat.force;
    let mut sat = a.search.sat.clone();
    sat.force &=
        !drawing || engines::declares(a.search.solver.as_deref(), polycover::Setting::Force);
    let engine = engines::chosen(a.search.solver.as_deref(), &sat.given())?;
    if a.parts.given() {
        if let Some(flag) = [("--svg", &a.records.svg), ("--html", &a.records.html)]
            .into_iter()
            .find_map(|(flag, dir)| dir.as_ref().map(|_| flag))
        {
            return Err(Error::Usage(format!(
                "{flag} does not go with {}: a split or resumable enumeration writes only \
                 its solution file; run `enumerate` without it to draw the solutions",
                if a.parts.part.is_some() {
                    "--part"
                } else {
                    "--checkpoint"
                }
            )));
        }
        return parts::enumerate(&a, &engine, ctx, out);
    }
    let target = a.records.target();
    output::check_writable(&target, &[&a.search.puzzle.puzzle])?;
    let p = a.search.load(ctx)?;
    let prepared = engines::prepare(&p, &engine)?;
    let lists = prepared.lister()?;
    // A puzzle too large to draw is refused before the first solution.
    a.records.check_puzzle(p.puzzle())?;
    let mut records = a.records.records(p.puzzle(), a.limit, force, ctx.stop())?;
    let mut report = None;
    let kept = output::write_records(
        ctx.stop(),
        &target,
        out,
        &[&a.search.puzzle.puzzle],
        &mut |sink| {
            let r = records.write(
                lists,
                &engines::run_options(ctx),
                None,
                sink,
                &mut |_, _, _| Ok(()),
            )?;
            let ended = if r.interrupted || r.timed_out {
                output::Ended::Stopped
            } else {
                output::Ended::Finished
            };
            report = Some(r);
            Ok(ended)
        },
    )?;
    let written = records.written;
    let to = written_to(a.records.output.as_deref(), kept);
    let solutions = polycover::Count::solutions(written);
    match report {
        Some(r) if r.interrupted => {
            eprintln!(
                "c stopped by {}: {solutions} written{to}",
                crate::signals::cause()
            );
            Err(Error::Interrupted(format!("{solutions} written{to}")))
        }
        Some(r) if r.timed_out => {
            eprintln!("c stopped by the timeout: {solutions} written{to}");
            Ok(Outcome::Stopped)
        }
        _ => {
            if !to.is_empty() {
                eprintln!("c wrote {solutions}{to}");
            }
            Ok(Outcome::Done)
        }
    }
}
