//! The commands' part and checkpoint runs (`--part K/N`, `--checkpoint FILE`), and
//! `merge`. The split itself is `crate::parts`; the checkpoint file `crate::checkpoint`.
//!
//! Invariants:
//! - A part run ends with one `c part` line when, and only when, every subproblem of the
//!   part is done; `s mc` only when the part is the whole search (N = 1).
//! - With a checkpoint, an enumeration writes its output in place (not all or nothing:
//!   the checkpoint says how much of it is finished), and a resumed run first cuts the
//!   file back to the end of the last finished subproblem.

use std::collections::BTreeMap;
use std::io::{BufRead, Read, Seek, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{
    format_solution, header, peak_memory, progress_bar, stopped_by, whole_count, CountArgs,
    EnumerateArgs, Format, MergeArgs,
};
use crate::checkpoint::{Checkpoint, RunId};
use crate::engine::{Engine, Problem, Progress, RunOptions, Scope};
use crate::error::{Error, Result};
use crate::output;
use crate::parts::{PartResult, PartSpec, Split, Step};
use crate::sat::Strategy;

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Text => "text",
        Format::Jsonl => "jsonl",
    }
}

fn run_id(p: &Problem, split: &Split, part: PartSpec, output: Option<(String, PathBuf)>) -> RunId {
    RunId {
        puzzle: p.puzzle().name().to_string(),
        mode: p.compiled.mode.as_str().to_string(),
        part,
        fingerprint: split.fingerprint(),
        subproblems: split.len(),
        output,
    }
}

/// `c part K/N: ...` and, when a checkpoint continues, what it had.
fn part_header(
    out: &mut dyn Write,
    spec: PartSpec,
    split: &Split,
    mine: &[usize],
    checkpoint: Option<&Checkpoint>,
) -> Result<()> {
    writeln!(
        out,
        "c split {spec}: {} of {} subproblems, fingerprint {}",
        mine.len(),
        split.len(),
        split.fingerprint()
    )?;
    if let Some(cp) = checkpoint {
        let done = mine.iter().filter(|&&j| cp.is_done(j)).count();
        writeln!(
            out,
            "c checkpoint {}: {done} of {} subproblems done before, {} solutions",
            cp.path().display(),
            mine.len(),
            cp.solutions()
        )?;
    }
    out.flush()?;
    Ok(())
}

/// `count --part K/N` and `count --checkpoint FILE`.
pub(super) fn count(
    a: &CountArgs,
    p: &Problem,
    engine: &Engine,
    threads: usize,
    out: &mut dyn Write,
) -> Result<i32> {
    let spec = a.parts.part.unwrap_or(PartSpec::WHOLE);
    let split = p.split(spec.n);
    let mine = split.part(spec.k);
    let checkpoint = match &a.parts.checkpoint {
        Some(path) => {
            output::check_distinct(path, &[&a.search.puzzle.puzzle])?;
            Some(Checkpoint::open(path, run_id(p, &split, spec, None))?)
        }
        None => None,
    };
    header(out, p, engine, Strategy::Cubes)?;
    part_header(out, spec, &split, &mine, checkpoint.as_ref())?;
    let before = checkpoint.as_ref().map_or(0, |c| c.solutions());
    let remaining: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&j| checkpoint.as_ref().is_none_or(|c| !c.is_done(j)))
        .collect();
    let checkpoint = Mutex::new(checkpoint);
    let failure = Mutex::new(None);
    let finished = |j: usize, solutions: u64| {
        let mut cp = checkpoint.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(cp) = cp.as_mut() {
            if let Err(e) = cp.record(j, solutions, None) {
                failure
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
            }
        }
    };
    let bar = progress_bar();
    let progress = |q: &Progress| {
        if let Some(b) = &bar {
            super::show_progress(b, q, format!("{} solutions", before + q.solutions));
        }
    };
    let report = p.count_in(
        engine,
        &RunOptions {
            threads,
            deadline: a.search.deadline(),
            progress: Some(&progress),
        },
        Scope {
            split: &split,
            subproblems: &remaining,
        },
        &finished,
    )?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut checkpoint = checkpoint.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(cp) = checkpoint.as_mut() {
        cp.flush()?;
    }
    let total = before + report.solutions;
    writeln!(
        out,
        "c threads {}, time {:.3} s, {}{}",
        super::threads_used(report.threads, threads),
        report.seconds,
        report.statistics,
        peak_memory()
    )?;
    if !report.complete {
        writeln!(
            out,
            "c stopped{}: {total} solutions so far in part {spec}",
            stopped_by(&report)
        )?;
        if let Some(cp) = checkpoint {
            writeln!(
                out,
                "c checkpoint {} holds {} of {} subproblems: run the same command to continue",
                cp.path().display(),
                mine.iter().filter(|&&j| cp.is_done(j)).count(),
                mine.len()
            )?;
        }
        writeln!(out, "s UNKNOWN")?;
        return Ok(if report.interrupted {
            crate::interrupt::exit_code()
        } else {
            1
        });
    }
    if a.parts.part.is_some() {
        let result = PartResult {
            part: spec,
            fingerprint: split.fingerprint(),
            solutions: total,
            file: None,
        };
        writeln!(out, "{result}")?;
    }
    if spec.n == 1 {
        return whole_count(out, p, total);
    }
    Ok(0)
}

/// `enumerate --part K/N -o FILE` and `enumerate -o FILE --checkpoint CP`.
pub(super) fn enumerate(a: &EnumerateArgs, engine: &Engine, out: &mut dyn Write) -> Result<i32> {
    let Some(target) = a.output.clone().filter(|o| o.as_os_str() != "-") else {
        return Err(Error::Usage(
            "--part and --checkpoint with enumerate need -o FILE: `merge` joins the \
             parts' files, and a checkpoint records how much of its file is done"
                .into(),
        ));
    };
    if a.limit.is_some() {
        return Err(Error::Usage(
            "--limit does not go with --part or --checkpoint: a part is enumerated whole".into(),
        ));
    }
    let gz = target.extension().is_some_and(|e| e == "gz");
    if gz && a.parts.checkpoint.is_some() {
        return Err(Error::Usage(format!(
            "{}: a checkpointed enumeration cannot be gzip (it is cut back on resume); \
             compress it when it is done",
            target.display()
        )));
    }
    let p = a.search.load()?;
    let spec = a.parts.part.unwrap_or(PartSpec::WHOLE);
    let split = p.split(spec.n);
    let mine = split.part(spec.k);
    let inputs: Vec<&Path> = [
        Some(a.search.puzzle.puzzle.as_path()),
        a.parts.checkpoint.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    output::check_writable(&target, &inputs)?;
    if let Some(cp) = &a.parts.checkpoint {
        output::check_not_same(cp, &target, "--checkpoint", "-o")?;
        // Resumed in place: the output must be a file that can be cut back.
        if !matches!(
            output::destination(&target)?,
            output::Destination::File { .. }
        ) {
            return Err(Error::Usage(format!(
                "{}: a checkpointed enumeration writes a regular file (it is cut back on \
                 resume), not a device or FIFO",
                target.display()
            )));
        }
    }
    let format = format_name(a.format).to_string();
    let opts = a.search.run_options();
    let (written, report) = match &a.parts.checkpoint {
        None => {
            // All or nothing, as without parts.
            let mut written = 0u64;
            let mut report = None;
            output::write(&target, &mut std::io::sink(), &inputs, &mut |sink| {
                let mut failure = None;
                let r = p.for_each_in(
                    engine,
                    &opts,
                    Scope {
                        split: &split,
                        subproblems: &mine,
                    },
                    &mut |step| match step {
                        Step::Solution(s) => {
                            let record = format_solution(a.format, p.puzzle(), s, written + 1);
                            if let Err(e) = sink.write_all(record.as_bytes()) {
                                failure = Some(e);
                                return ControlFlow::Break(());
                            }
                            written += 1;
                            ControlFlow::Continue(())
                        }
                        Step::Finished { .. } => ControlFlow::Continue(()),
                    },
                )?;
                if let Some(e) = failure {
                    return Err(e.into());
                }
                if !r.complete {
                    // A part that is not whole is not written: `merge` would take it.
                    return Err(if r.interrupted {
                        Error::Interrupted(format!("{} not written", target.display()))
                    } else {
                        Error::Failed(format!(
                            "stopped by the timeout: {} not written",
                            target.display()
                        ))
                    });
                }
                report = Some(r);
                Ok(())
            })?;
            (written, report.expect("a finished part has a report"))
        }
        Some(cp_path) => {
            let absolute = std::path::absolute(&target).map_err(|e| Error::Write {
                path: target.clone(),
                source: e,
            })?;
            let mut cp = Checkpoint::open(
                cp_path,
                run_id(&p, &split, spec, Some((format.clone(), absolute))),
            )?;
            let done = mine.iter().take_while(|&&j| cp.is_done(j)).count();
            let offset = cp.offset(&mine);
            let before: u64 = cp.solutions_in(&mine[..done]);
            header(&mut std::io::stderr(), &p, engine, Strategy::Cubes)?;
            part_header(&mut std::io::stderr(), spec, &split, &mine, Some(&cp))?;
            let werr = |e: std::io::Error| Error::Write {
                path: target.clone(),
                source: e,
            };
            let mut file = if done > 0 {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(|e| {
                        Error::Usage(format!(
                            "{}: the checkpoint {} continues this file, but it cannot be \
                             opened ({e}); remove the checkpoint to start over",
                            target.display(),
                            cp_path.display()
                        ))
                    })?;
                let len = f.metadata().map_err(werr)?.len();
                if len < offset {
                    return Err(Error::Usage(format!(
                        "{}: {len} bytes, shorter than the {offset} the checkpoint {} \
                         recorded; remove the checkpoint to start over",
                        target.display(),
                        cp_path.display()
                    )));
                }
                // Whatever came after the last finished subproblem is written again.
                f.set_len(offset).map_err(werr)?;
                f
            } else {
                std::fs::File::create(&target).map_err(werr)?
            };
            file.seek(std::io::SeekFrom::End(0)).map_err(werr)?;
            let mut file = std::io::BufWriter::new(file);
            let mut written = before;
            let mut failure: Option<Error> = None;
            let report = p.for_each_in(
                engine,
                &opts,
                Scope {
                    split: &split,
                    subproblems: &mine[done..],
                },
                &mut |step| {
                    let result = match step {
                        Step::Solution(s) => {
                            let record = format_solution(a.format, p.puzzle(), s, written + 1);
                            written += 1;
                            file.write_all(record.as_bytes()).map_err(werr)
                        }
                        Step::Finished {
                            subproblem,
                            solutions,
                        } => file
                            .flush()
                            .and_then(|_| file.get_mut().stream_position())
                            .map_err(werr)
                            .and_then(|end| cp.record(subproblem, solutions, Some(end))),
                    };
                    match result {
                        Ok(()) => ControlFlow::Continue(()),
                        Err(e) => {
                            failure = Some(e);
                            ControlFlow::Break(())
                        }
                    }
                },
            )?;
            file.flush().map_err(werr)?;
            if let Some(e) = failure {
                return Err(e);
            }
            cp.flush()?;
            if !report.complete {
                let finished = mine.iter().filter(|&&j| cp.is_done(j)).count();
                let why = stopped_by(&report);
                eprintln!(
                    "c stopped{why}: {written} solutions in {}; the checkpoint {} holds {finished} \
                     of {} subproblems: run the same command to continue",
                    target.display(),
                    cp_path.display(),
                    mine.len()
                );
                if report.interrupted {
                    return Err(Error::Interrupted(format!("{written} solutions written")));
                }
                return Ok(1);
            }
            (written, report)
        }
    };
    eprintln!(
        "c wrote {written} solutions to {} ({:.3} s)",
        target.display(),
        report.seconds
    );
    if a.parts.part.is_some() {
        let result = PartResult {
            part: spec,
            fingerprint: split.fingerprint(),
            solutions: written,
            file: Some((format, target.clone())),
        };
        writeln!(out, "{result}")?;
    }
    Ok(0)
}

/// `merge RESULTS... [-o FILE]`.
pub(super) fn merge(a: MergeArgs, out: &mut dyn Write) -> Result<i32> {
    // The joined file must not replace one of the result files it is made from.
    if let Some(target) = &a.output {
        let results: Vec<&Path> = a.results.iter().map(|p| p.as_path()).collect();
        output::check_writable(target, &results)?;
    }
    // Every `c part` line, with where it was read.
    let mut results: Vec<(PartResult, String)> = Vec::new();
    for path in &a.results {
        let reader = open_input(path, crate::sat::dimacs::MAX_INFLATED_ANSWER)?;
        for (n, line) in reader.lines().enumerate() {
            let line = line.map_err(|e| read_error(path, e))?;
            let at = format!("{}:{}", path.display(), n + 1);
            match PartResult::parse(&line) {
                Some(Ok(r)) => results.push((r, at)),
                Some(Err(why)) => return Err(Error::Usage(format!("{at}: {why}"))),
                None => {}
            }
        }
    }
    let Some((first, first_at)) = results.first().cloned() else {
        return Err(Error::Usage(format!(
            "no `c part` lines in {}: give the output of `count --part` or `enumerate --part`",
            list(a.results.iter().map(|p| p.display().to_string()))
        )));
    };
    let mut parts: BTreeMap<usize, (PartResult, String)> = BTreeMap::new();
    for (r, at) in results {
        if r.fingerprint != first.fingerprint || r.part.n != first.part.n {
            return Err(Error::Usage(format!(
                "{at}: part {} has fingerprint {}, but {first_at} has part {} with \
                 fingerprint {}: they are parts of different splits (another puzzle, \
                 symmetry mode, part count or version)",
                r.part, r.fingerprint, first.part, first.fingerprint
            )));
        }
        if let Some((_, earlier)) = parts.get(&r.part.k) {
            return Err(Error::Usage(format!(
                "part {} appears twice: {earlier} and {at}",
                r.part
            )));
        }
        parts.insert(r.part.k, (r, at));
    }
    let n = first.part.n;
    let missing: Vec<usize> = (1..=n).filter(|k| !parts.contains_key(k)).collect();
    if !missing.is_empty() {
        return Err(Error::Usage(format!(
            "{} of {n} parts missing: {} (fingerprint {})",
            missing.len(),
            ranges(&missing),
            first.fingerprint
        )));
    }
    let files: Vec<&(String, PathBuf)> = parts
        .values()
        .filter_map(|(r, _)| r.file.as_ref())
        .collect();
    if !files.is_empty() && files.len() != n {
        return Err(Error::Usage(
            "some parts are enumerations (with a file) and some are counts".into(),
        ));
    }
    let total: u64 = parts.values().map(|(r, _)| r.solutions).sum();
    // Everything is checked, and the joined file written, before the result is printed:
    // a merge that fails prints no total.
    if let Some(target) = &a.output {
        if files.is_empty() {
            return Err(Error::Usage(
                "-o joins enumerations' files, and these parts are counts".into(),
            ));
        }
        join(target, &parts, out)?;
    }
    writeln!(out, "c merged {n} parts, fingerprint {}", first.fingerprint)?;
    if let Some(target) = &a.output {
        writeln!(out, "c wrote {total} solutions to {}", target.display())?;
    }
    writeln!(out, "s mc {total}")?;
    Ok(0)
}

/// The longest line `merge` reads from a part's solution file: a record is a few kB, so
/// a longer line is no record (and a gzip bomb of one endless line does not fill memory).
const MAX_LINE: u64 = 64 << 20;

/// `cannot read PATH`: a relative path also names the directory it was read in, since
/// `merge` reads the parts' files from where it runs, not from where they were written.
fn read_error(path: &Path, source: std::io::Error) -> Error {
    let path = match std::env::current_dir() {
        Ok(dir) if path.is_relative() => {
            PathBuf::from(format!("{} (in {})", path.display(), dir.display()))
        }
        _ => path.to_path_buf(),
    };
    Error::Read { path, source }
}

/// Opens one of `merge`'s inputs (plain or gzip, inflating to at most `limit` bytes),
/// naming the directory of a relative path when it cannot be read.
fn open_input(path: &Path, limit: u64) -> Result<Box<dyn BufRead>> {
    crate::sat::dimacs::open_capped(path, limit, "a file merge reads").map_err(|e| match e {
        Error::Read { source, .. } => read_error(path, source),
        other => other,
    })
}

/// Joins the parts' solution files into `target`, in part order, numbering the
/// solutions anew and checking that each file holds the count its part reported.
fn join(
    target: &Path,
    parts: &BTreeMap<usize, (PartResult, String)>,
    stdout: &mut dyn Write,
) -> Result<()> {
    let inputs: Vec<&Path> = parts
        .values()
        .filter_map(|(r, _)| r.file.as_ref().map(|f| f.1.as_path()))
        .collect();
    output::write(target, stdout, &inputs, &mut |w| {
        let mut index = 0u64;
        for (r, at) in parts.values() {
            let (format, path) = r.file.as_ref().expect("every part has a file");
            // A part's file is streamed, never held whole: no limit on its size, only
            // on a line's.
            let mut reader = open_input(path, u64::MAX)?;
            let before = index;
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                let n = (&mut reader)
                    .take(MAX_LINE + 1)
                    .read_until(b'\n', &mut bytes)
                    .map_err(|e| read_error(path, e))?;
                if n == 0 {
                    break;
                }
                if bytes.len() as u64 > MAX_LINE {
                    return Err(Error::Usage(format!(
                        "{}: a line longer than {}: not a solution file",
                        path.display(),
                        crate::sat::dimacs::size_name(MAX_LINE)
                    )));
                }
                if bytes.ends_with(b"\n") {
                    bytes.pop();
                    if bytes.ends_with(b"\r") {
                        bytes.pop();
                    }
                }
                let line = std::str::from_utf8(&bytes).map_err(|_| {
                    read_error(
                        path,
                        std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            "stream did not contain valid UTF-8",
                        ),
                    )
                })?;
                let renumbered = match format.as_str() {
                    "jsonl" if !line.trim().is_empty() => {
                        index += 1;
                        let mut record: serde_json::Value = serde_json::from_str(line)
                            .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?;
                        record["index"] = index.into();
                        record.to_string()
                    }
                    "text" => match line.strip_prefix("solution ") {
                        Some(number) if number.parse::<u64>().is_ok() => {
                            index += 1;
                            format!("solution {index}")
                        }
                        _ => line.to_string(),
                    },
                    _ => line.to_string(),
                };
                writeln!(w, "{renumbered}")?;
            }
            if index - before != r.solutions {
                return Err(Error::Usage(format!(
                    "{}: {} solutions, but part {} ({at}) reported {}",
                    path.display(),
                    index - before,
                    r.part,
                    r.solutions
                )));
            }
        }
        Ok(())
    })
}

/// `1, 3-5, 9`.
fn ranges(ks: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ks.len() {
        let mut j = i;
        while j + 1 < ks.len() && ks[j + 1] == ks[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            ks[i].to_string()
        } else {
            format!("{}-{}", ks[i], ks[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

fn list(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}
