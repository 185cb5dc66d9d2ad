//! Solution records, and the one loop that writes a run's solutions: plain enumerations,
//! parts and checkpointed runs all write through [`Records::write`].
//!
//! Invariants:
//! - A record is `solution N` and the text rendering, or one JSON line, and it goes out
//!   in one write, so that a stop never cuts one in half.
//! - Records are numbered from 1 in the order written, a resumed run continuing the
//!   numbers of the records it keeps.

use polycover::Stop;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::args::RecordFormat;
use super::engines;
use crate::engine::Lists;
use crate::output;
use polycover::Puzzle;
use polycover::Report;
use polycover::RunOptions;
use polycover::Scope;
use polycover::Step;
use polycover::{Error, Result};

/// How a run's solutions are written.
pub(super) struct Records<'a> {
    pub(super) format: RecordFormat,
    pub(super) puzzle: &'a Puzzle,
    /// Records written so far, those a resumed run keeps included: the next one is
    /// numbered one more.
    pub(super) written: u64,
    /// Flush after each record, so that a reader (a pipe, `tail -f`) has each solution
    /// when it is found.
    pub(super) flush_each: bool,
    /// Stop at the N-th record, not when the (N+1)-th turns up: that one may take far
    /// longer to find (or not exist).
    pub(super) limit: Option<u64>,
    /// Also draw each solution as `solution-NNNNNN.svg` in this directory.
    pub(super) pictures: Option<PathBuf>,
    /// Also write each solution's 3-D view as `solution-NNNNNN.html` in this directory.
    pub(super) pages: Option<PathBuf>,
    /// The file written, named by the error when a write fails.
    pub(super) path: Option<PathBuf>,
    /// The command's stop, which the pictures' and pages' writers hear.
    pub(super) stop: Stop,
}

/// One solution as a record: `solution N` and the text rendering, or one JSON line.
fn format(format: RecordFormat, puzzle: &Puzzle, solution: &[u32], index: u64) -> String {
    match format {
        RecordFormat::Text => format!("solution {index}\n{}\n", puzzle.text(solution)),
        RecordFormat::Jsonl => format!("{}\n", puzzle.json(solution, index)),
    }
}

impl Records<'_> {
    /// Runs `lists` over the whole search or the subproblems of `scope`, writing each
    /// solution to `sink`, and calling `finished` with the sink, the subproblem's index in
    /// the split and its count at the end of each subproblem. A failed write or
    /// `finished` stops the run and is the result.
    pub(super) fn write<W: Write + ?Sized>(
        &mut self,
        lists: &dyn Lists,
        opts: &RunOptions,
        scope: Option<Scope>,
        sink: &mut W,
        finished: &mut dyn FnMut(&mut W, usize, u64) -> Result<()>,
    ) -> Result<Report> {
        let mut failure = None;
        let report = engines::solutions(lists, opts, scope, &mut |step| {
            let result = match step {
                Step::Solution(s) => self.solution(sink, s),
                Step::Finished {
                    subproblem,
                    solutions,
                } => finished(sink, subproblem, solutions).map(ControlFlow::Continue),
            };
            result.unwrap_or_else(|e| {
                failure = Some(e);
                ControlFlow::Break(())
            })
        })?;
        match failure {
            Some(e) => Err(e),
            None => Ok(report),
        }
    }

    /// Writes one record (and its picture and 3-D view); `Break` at the limit.
    pub(super) fn solution<W: Write + ?Sized>(
        &mut self,
        sink: &mut W,
        solution: &[u32],
    ) -> Result<ControlFlow<()>> {
        let index = self.written + 1;
        let record = format(self.format, self.puzzle, solution, index);
        let mut written = sink.write_all(record.as_bytes());
        if self.flush_each {
            written = written.and_then(|_| sink.flush());
        }
        written.map_err(|e| self.write_error(e))?;
        if let Some(dir) = &self.pictures {
            let path = dir.join(format!("solution-{index:06}.svg"));
            let picture = self.puzzle.svg(solution)?;
            output::write_records(&self.stop, &path, &mut io::sink(), &[], &mut |w| {
                w.write_all(picture.as_bytes())?;
                Ok(output::Ended::Finished)
            })?;
        }
        if let Some(dir) = &self.pages {
            let path = dir.join(format!("solution-{index:06}.html"));
            let page = self.puzzle.html(solution)?;
            output::write_records(&self.stop, &path, &mut io::sink(), &[], &mut |w| {
                w.write_all(page.as_bytes())?;
                Ok(output::Ended::Finished)
            })?;
        }
        self.written = index;
        Ok(if self.limit.is_some_and(|l| self.written >= l) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    }

    fn write_error(&self, source: io::Error) -> Error {
        match &self.path {
            Some(path) => Error::Write {
                path: path.clone(),
                source,
            },
            None => source.into(),
        }
    }
}

/// ` to FILE` for the closing `c` line of a run whose records went to `output` (nothing
/// for standard output), and, when a stop came before the first record (`kept` false),
/// that the file was left as it was.
pub(super) fn written_to(output: Option<&Path>, kept: bool) -> String {
    match output {
        Some(path) if !super::args::is_stdio(path) => {
            let path = path.display();
            if kept {
                format!(" to {path}")
            } else {
                format!("; {path} left as it was")
            }
        }
        _ => String::new(),
    }
}

impl super::args::RecordArgs {
    /// Where the records go: the `-o` file, or standard output.
    pub(super) fn target(&self) -> PathBuf {
        self.output
            .clone()
            .unwrap_or_else(|| PathBuf::from(super::args::STDIO))
    }

    /// Whether the solutions are also drawn (`--svg` or `--html`).
    pub(super) fn drawing(&self) -> bool {
        self.svg.is_some() || self.html.is_some()
    }

    /// Refuses, before the first solution, a puzzle the asked-for pictures cannot show.
    pub(super) fn check_puzzle(&self, puzzle: &Puzzle) -> Result<()> {
        if self.svg.is_some() {
            puzzle.check_drawable()?;
        }
        if self.html.is_some() {
            puzzle.check_html()?;
        }
        Ok(())
    }

    /// The records' writer of `format` for `puzzle`, with the picture and page
    /// directories checked (`force`: they may hold files, the old pictures removed).
    pub(super) fn records<'a>(
        &self,
        puzzle: &'a Puzzle,
        limit: Option<u64>,
        force: bool,
        stop: &Stop,
    ) -> Result<Records<'a>> {
        Ok(Records {
            format: self.format,
            puzzle,
            written: 0,
            flush_each: true,
            limit,
            pictures: self
                .svg
                .as_deref()
                .map(|d| picture_directory(d, force))
                .transpose()?,
            pages: self
                .html
                .as_deref()
                .map(|d| page_directory(d, force))
                .transpose()?,
            path: None,
            stop: stop.clone(),
        })
    }
}

/// The directory for `enumerate --svg` (and `sample --svg`): created if missing, refused
/// if it is a file, or if it holds anything and `force` is not given; with `force`, the
/// pictures an earlier run left there are removed.
fn picture_directory(dir: &Path, force: bool) -> Result<PathBuf> {
    directory(dir, force, "--svg", "picture", "svg")
}

/// The directory for `enumerate --html` (and `sample --html`), as [`picture_directory`].
fn page_directory(dir: &Path, force: bool) -> Result<PathBuf> {
    directory(dir, force, "--html", "3-D view", "html")
}

fn directory(dir: &Path, force: bool, flag: &str, what: &str, ext: &str) -> Result<PathBuf> {
    let writes = format!("{flag}: one {what} per solution, solution-000001.{ext}, ...");
    // What the records write there: `solution-` and a number, as `Records::solution`
    // names them.
    let owns = |name: &str| {
        name.strip_prefix("solution-")
            .and_then(|n| n.strip_suffix(ext)?.strip_suffix('.'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let removed = output::check_directory(dir, force, &writes, &owns)?;
    if removed > 0 {
        eprintln!(
            "c {}: removed {removed} {what}{} of an earlier run (--force)",
            dir.display(),
            if removed == 1 { "" } else { "s" }
        );
    }
    Ok(dir.to_path_buf())
}
