//! The searching commands' part and checkpoint runs (`--part K/N`, `--checkpoint FILE`).
//! The split itself is `polycover::Split`; the checkpoint file `crate::checkpoint`; `merge`
//! adds the parts up.
//!
//! Invariants:
//! - A part run ends with one `c part` line when, and only when, every subproblem of the
//!   part is done; `s mc` only when the part is the whole search (N = 1).
//! - With a checkpoint, an enumeration writes its output in place (not all or nothing:
//!   the checkpoint says how much of it is finished), and a resumed run first cuts the
//!   file back to the end of the last finished subproblem.
//! - Without a checkpoint, a part's file is all or nothing: a stopped part writes none,
//!   since `merge` would take it.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::args::{is_stdio, CountArgs, EnumerateArgs};
use super::context::Context;
use super::outcome::Outcome;
use super::records::Records;
use super::report::{self, Counted};
use crate::checkpoint::{Checkpoint, RunId};
use crate::engine::{Lists, Prepared};
use polycover::Count;
use polycover::Engine;
use polycover::Problem;
use polycover::Report;
use polycover::RunOptions;
use polycover::Scope;

use super::engines;
use crate::engine::Goal;
use crate::output;
use crate::part_result::PartSpec;
use crate::part_result::{Checksum, PartResult};
use polycover::Split;
use polycover::{Error, Result};

fn run_id(p: &Problem, split: &Split, part: PartSpec, output: Option<(String, PathBuf)>) -> RunId {
    RunId {
        puzzle: p.puzzle().name().to_string(),
        mode: p.mode().as_str().to_string(),
        part,
        fingerprint: split.fingerprint(),
        subproblems: split.len(),
        output,
    }
}

/// Recovers the value behind a mutex that a panicking thread poisoned: what it guards
/// (a checkpoint, a first failure) stays usable.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A part of a count (`count --part K/N`, `count --checkpoint FILE`): its subproblems,
/// and the checkpoint that records each one as it ends.
pub(super) struct CountPart {
    spec: PartSpec,
    /// `--part` was given: the run ends with a `c part` line.
    given: bool,
    split: Split,
    mine: Vec<usize>,
    /// The part's subproblems that the checkpoint does not hold yet.
    remaining: Vec<usize>,
    /// Solutions of the subproblems the checkpoint held before this run.
    before: Count,
    checkpoint: Mutex<Option<Checkpoint>>,
    /// The first failure to record a subproblem.
    failure: Mutex<Option<Error>>,
}

impl CountPart {
    pub(super) fn open(a: &CountArgs, p: &Problem) -> Result<CountPart> {
        let spec = a.parts.part.unwrap_or(PartSpec::WHOLE);
        let split = p.split(spec.n);
        let mine = split.part(spec.k);
        let checkpoint = match &a.parts.checkpoint {
            Some(path) => {
                output::check_writable(path, &[&a.search.puzzle.puzzle])?;
                Some(Checkpoint::open(path, run_id(p, &split, spec, None))?)
            }
            None => None,
        };
        let before = checkpoint.as_ref().map_or(Count::zero(), |c| c.solutions());
        let remaining = mine
            .iter()
            .copied()
            .filter(|&j| checkpoint.as_ref().is_none_or(|c| !c.is_done(j)))
            .collect();
        Ok(CountPart {
            spec,
            given: a.parts.part.is_some(),
            split,
            mine,
            remaining,
            before,
            checkpoint: Mutex::new(checkpoint),
            failure: Mutex::new(None),
        })
    }

    /// The part's `c split` line, and the checkpoint's.
    pub(super) fn header(&self, out: &mut dyn Write) -> Result<()> {
        report::part_header(
            out,
            self.spec,
            &self.split,
            &self.mine,
            lock(&self.checkpoint).as_ref(),
        )
    }

    /// Whether the count must be told apart by subproblem: a part of several, or a
    /// checkpoint that holds some of them. Otherwise the part is the whole search and an
    /// engine may count it at once (the memo by Burnside's lemma, which does not split
    /// into subproblems), as a plain count would.
    pub(super) fn by_subproblem(&self) -> bool {
        self.spec.n > 1
            || lock(&self.checkpoint)
                .as_ref()
                .is_some_and(|c| c.is_started())
    }

    pub(super) fn before(&self) -> &Count {
        &self.before
    }

    /// What is left to count.
    pub(super) fn scope(&self) -> Scope<'_> {
        Scope {
            split: &self.split,
            subproblems: &self.remaining,
        }
    }

    /// Records subproblem `j` with its count (called on any thread).
    pub(super) fn finished(&self, j: usize, solutions: Count) {
        if let Some(cp) = lock(&self.checkpoint).as_mut() {
            if let Err(e) = cp.record(j, solutions, None) {
                lock(&self.failure).get_or_insert(e);
            }
        }
    }

    /// After the run: the checkpoint written out, and what the count covered.
    pub(super) fn close(self, report: &Report) -> Result<Counted> {
        if let Some(e) = self.failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let mut checkpoint = self
            .checkpoint
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        let mut total = self.before + &report.solutions;
        if let Some(cp) = checkpoint.as_mut() {
            // A stopped engine that reports no partial count (the memo counts by
            // Burnside's lemma at the end) has still recorded what it finished.
            if !report.complete {
                total = total.max(cp.solutions_in(&self.mine));
            }
            if report.complete && !self.mine.iter().all(|&j| cp.is_done(j)) {
                // An engine that counted the part at once, reporting no subproblem (the
                // memo by Burnside's lemma): the part's total is what it records.
                cp.finish(total.clone())?;
            } else {
                cp.flush()?;
            }
        }
        let resume = checkpoint.map(|cp| {
            format!(
                "c checkpoint {} holds {} of {} subproblems: run the same command to continue",
                cp.path().display(),
                self.mine.iter().filter(|&&j| cp.is_done(j)).count(),
                self.mine.len()
            )
        });
        let result = self.given.then(|| {
            PartResult::new(
                self.spec,
                self.split.fingerprint(),
                total.clone(),
                None,
                Checksum::new(),
            )
        });
        Ok(Counted::Part {
            spec: self.spec,
            total,
            resume,
            result,
        })
    }
}

/// `enumerate --part K/N -o FILE` and `enumerate -o FILE --checkpoint CP`.
pub(super) fn enumerate(
    a: &EnumerateArgs,
    engine: &Engine,
    ctx: &Context,
    out: &mut dyn Write,
) -> Result<Outcome> {
    let target = enumerate_target(a)?;
    let p = a.search.load(ctx)?;
    let prepared = engines::prepare(&p, engine)?;
    let lists = prepared.lister()?;
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
    check_part_output(a, &target, &inputs)?;
    let format = a.records.format.name().to_string();
    let opts = super::engines::run_options(ctx);
    let mut records = Records {
        format: a.records.format,
        puzzle: p.puzzle(),
        written: 0,
        flush_each: false,
        limit: None,
        pictures: None,
        pages: None,
        path: None,
        stop: ctx.stop().clone(),
    };
    let run = PartFile {
        problem: &p,
        lists,
        opts: &opts,
        spec,
        split: &split,
        mine: &mine,
        target: &target,
    };
    // The checksum of the file on the part's line: of what is written to it, or, for a
    // file a checkpoint resumed, of the whole file once it is done.
    let mut content = Checksum::new();
    let report = match &a.parts.checkpoint {
        None => run.whole(&mut records, &inputs, &mut content)?,
        Some(cp_path) => {
            let Some(report) = run.checkpointed(&mut records, &*prepared, cp_path, &format)? else {
                return Ok(Outcome::Stopped);
            };
            if a.parts.part.is_some() {
                checksum_file(&target, &mut content)?;
            }
            report
        }
    };
    let written = records.written;
    eprintln!(
        "c wrote {} to {} ({:.3} s)",
        polycover::Count::solutions(written),
        target.display(),
        report.seconds
    );
    if a.parts.part.is_some() {
        let result = PartResult::new(
            spec,
            split.fingerprint(),
            written.into(),
            Some((format, target.clone())),
            content,
        );
        writeln!(out, "{result}")?;
    }
    Ok(Outcome::Done)
}

/// The file a part's or checkpointed enumeration writes (`-o FILE`), refusing what
/// cannot go with it: no file, `--limit`, and gzip with a checkpoint.
fn enumerate_target(a: &EnumerateArgs) -> Result<PathBuf> {
    let Some(target) = a.records.output.clone().filter(|o| !is_stdio(o)) else {
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
    Ok(target)
}

/// Refuses, before any work, an output that would overwrite an input or, with a
/// checkpoint, one that is the checkpoint or cannot be cut back.
fn check_part_output(a: &EnumerateArgs, target: &Path, inputs: &[&Path]) -> Result<()> {
    output::check_writable(target, inputs)?;
    if let Some(cp) = &a.parts.checkpoint {
        output::check_not_same(cp, target, "--checkpoint", "-o")?;
        output::check_writable(cp, &[&a.search.puzzle.puzzle])?;
        // Resumed in place: the output must be a file that can be cut back.
        if !matches!(
            output::destination(target)?,
            output::Destination::File { .. }
        ) {
            return Err(Error::Usage(format!(
                "{}: a checkpointed enumeration writes a regular file (it is cut back on \
                 resume), not a device or FIFO",
                target.display()
            )));
        }
    }
    Ok(())
}

/// Adds a finished file to its part's checksum: a resumed file was written by more than
/// one run, so its checksum is of the whole file.
fn checksum_file(target: &Path, content: &mut Checksum) -> Result<()> {
    let mut file = File::open(target).map_err(|e| Error::Read {
        path: target.to_path_buf(),
        source: e,
    })?;
    std::io::copy(&mut file, content).map_err(|e| Error::Read {
        path: target.to_path_buf(),
        source: e,
    })?;
    Ok(())
}

/// One part's enumeration to its file, as `enumerate` set it up.
struct PartFile<'a> {
    problem: &'a Problem,
    lists: &'a dyn Lists,
    opts: &'a RunOptions<'a>,
    spec: PartSpec,
    split: &'a Split,
    /// The part's subproblems, in the order enumerated.
    mine: &'a [usize],
    target: &'a Path,
}

impl PartFile<'_> {
    /// Writes the whole part at once, all or nothing as without parts, feeding what is
    /// written to `content`.
    fn whole(
        &self,
        records: &mut Records,
        inputs: &[&Path],
        content: &mut Checksum,
    ) -> Result<Report> {
        let target = self.target;
        let mut report = None;
        let scope = Scope {
            split: self.split,
            subproblems: self.mine,
        };
        output::write(
            &self.opts.stop,
            target,
            &mut std::io::sink(),
            inputs,
            &mut |sink| {
                *content = Checksum::new();
                let mut sink = Tee {
                    inner: sink,
                    check: &mut *content,
                };
                let r = records.write(
                    self.lists,
                    self.opts,
                    Some(scope),
                    &mut sink,
                    &mut |_, _, _| Ok(()),
                )?;
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
            },
        )?;
        Ok(report.expect("a finished part has a report"))
    }

    /// Writes the part in place, continuing the checkpoint at `cp_path` and recording in
    /// it where the file ends after each subproblem. `None`: stopped (by the timeout)
    /// before the part was done, the checkpoint holding what is finished.
    fn checkpointed(
        &self,
        records: &mut Records,
        prepared: &dyn Prepared,
        cp_path: &Path,
        format: &str,
    ) -> Result<Option<Report>> {
        let (target, mine, split) = (self.target, self.mine, self.split);
        let absolute = std::path::absolute(target).map_err(|e| Error::Write {
            path: target.to_path_buf(),
            source: e,
        })?;
        let mut cp = Checkpoint::open(
            cp_path,
            run_id(
                self.problem,
                split,
                self.spec,
                Some((format.to_string(), absolute)),
            ),
        )?;
        let done = mine.iter().take_while(|&&j| cp.is_done(j)).count();
        let offset = cp.offset(mine);
        records.written = cp.solutions_in(&mine[..done]).to_u64().ok_or_else(|| {
            Error::Usage(format!(
                "{}: more solutions than an enumeration can have written",
                cp_path.display()
            ))
        })?;
        records.path = Some(target.to_path_buf());
        report::header(&mut std::io::stderr(), self.problem, prepared, Goal::All)?;
        report::part_header(&mut std::io::stderr(), self.spec, split, mine, Some(&cp))?;
        let werr = |e: std::io::Error| Error::Write {
            path: target.to_path_buf(),
            source: e,
        };
        let mut file = BufWriter::new(resumed_file(target, cp_path, done > 0, offset)?);
        let report = records.write(
            self.lists,
            self.opts,
            Some(Scope {
                split,
                subproblems: &mine[done..],
            }),
            &mut file,
            &mut |file, subproblem, solutions| {
                // The checkpoint records where the file ends after the subproblem.
                let end = file
                    .flush()
                    .and_then(|_| file.get_mut().stream_position())
                    .map_err(werr)?;
                cp.record(subproblem, solutions.into(), Some(end))
            },
        );
        file.flush().map_err(werr)?;
        let report = report?;
        cp.flush()?;
        if !report.complete {
            let finished = mine.iter().filter(|&&j| cp.is_done(j)).count();
            let why = report::stopped_by(&report);
            eprintln!(
                "c stopped{why}: {} in {}; the checkpoint {} holds {finished} \
                 of {} subproblems: run the same command to continue",
                polycover::Count::solutions(records.written),
                target.display(),
                cp_path.display(),
                mine.len()
            );
            if report.interrupted {
                return Err(Error::Interrupted(format!(
                    "{} written",
                    polycover::Count::solutions(records.written)
                )));
            }
            return Ok(None);
        }
        Ok(Some(report))
    }
}

/// A writer that feeds what it writes to a part's checksum too.
struct Tee<'a> {
    inner: &'a mut dyn Write,
    check: &'a mut Checksum,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.check.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The checkpointed enumeration's file, positioned at its end: created anew, or, when
/// the checkpoint continues it, cut back to `offset`, the end of the last subproblem it
/// finished (whatever came after is written again).
fn resumed_file(target: &Path, cp_path: &Path, resumed: bool, offset: u64) -> Result<File> {
    let werr = |e: std::io::Error| Error::Write {
        path: target.to_path_buf(),
        source: e,
    };
    let mut file = if resumed {
        let f = OpenOptions::new().write(true).open(target).map_err(|e| {
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
        f.set_len(offset).map_err(werr)?;
        f
    } else {
        File::create(target).map_err(werr)?
    };
    file.seek(SeekFrom::End(0)).map_err(werr)?;
    Ok(file)
}
