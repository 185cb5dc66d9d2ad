//! Checkpoints: what a long `count` or `enumerate` has finished, so that running the same
//! command again continues instead of starting over.
//!
//! A checkpoint is a small text file:
//!
//! ```text
//! c polycover checkpoint: run the same command again to continue
//! version 0.1.0
//! puzzle Bedlam cube
//! mode none
//! part 1/1
//! fingerprint 3f2a...
//! subproblems 1100
//! output text /home/me/all.txt
//! done 0 17 1204
//! done 1 0 1204
//! ```
//!
//! `done J C [OFFSET]`: subproblem J of the split is finished with C distinct solutions;
//! for an enumeration, the output file held OFFSET bytes when it was.
//!
//! Invariants:
//! - The file on disk is always whole: it is rewritten to a temporary file beside it and
//!   renamed over it, so `kill -9` or a crash at any moment leaves the previous or the
//!   next version, never a mix. It is rewritten after a finished subproblem when the last
//!   rewrite is [`Checkpoint::EVERY`] old, and when the run ends or stops: a split has
//!   thousands of subproblems (Bedlam without symmetry: 16,752, about 5 ms each), and
//!   rewriting after every one cost 15% of the run. A kill loses at most that much work.
//! - A checkpoint is only continued by the run that made it: same program version, same
//!   split fingerprint (puzzle, mode, reduction, number of parts), same part, same
//!   output. Anything else is refused, naming what differs.
//! - For an enumeration the finished subproblems are those that come first in the
//!   part's order, so the output is cut back to the last OFFSET on resume.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::count::Count;
use crate::error::{Error, Result};
use crate::parts::PartSpec;

/// Which run a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunId {
    pub puzzle: String,
    pub mode: String,
    pub part: PartSpec,
    pub fingerprint: String,
    pub subproblems: usize,
    /// An enumeration's format and output file (absolute).
    pub output: Option<(String, PathBuf)>,
}

/// A checkpoint file and what it records.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    id: RunId,
    /// Subproblem -> (distinct solutions, output offset).
    done: BTreeMap<usize, (Count, Option<u64>)>,
    saved: std::time::Instant,
    /// Finished subproblems not yet on disk.
    unsaved: bool,
}

impl Checkpoint {
    /// Opens the checkpoint at `path` for the run `id`: continues the one there, or
    /// starts a new one (and writes it at once, so that a bad path fails before any
    /// work).
    pub fn open(path: &Path, id: RunId) -> Result<Checkpoint> {
        let mut cp = Checkpoint {
            path: path.to_path_buf(),
            id,
            done: BTreeMap::new(),
            saved: std::time::Instant::now(),
            unsaved: false,
        };
        match std::fs::read_to_string(path) {
            Ok(text) => cp.read(&text)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => cp.save()?,
            Err(e) => {
                return Err(Error::Read {
                    path: path.to_path_buf(),
                    source: e,
                })
            }
        }
        Ok(cp)
    }

    fn read(&mut self, text: &str) -> Result<()> {
        let path = self.path.display().to_string();
        let mut lines = text.lines().enumerate();
        let bad = |n: usize, why: String| Error::Usage(format!("{path}:{}: {why}", n + 1));
        match lines.next() {
            Some((_, l)) if l.starts_with("c polycover checkpoint") => {}
            _ => {
                return Err(bad(
                    0,
                    "not a polycover checkpoint (refusing to overwrite it)".into(),
                ))
            }
        }
        let mut seen = RunId {
            puzzle: String::new(),
            mode: String::new(),
            part: PartSpec::WHOLE,
            fingerprint: String::new(),
            subproblems: 0,
            output: None,
        };
        let mut version = String::new();
        for (n, line) in lines {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "version" => version = value.to_string(),
                "puzzle" => seen.puzzle = value.to_string(),
                "mode" => seen.mode = value.to_string(),
                "part" => seen.part = value.parse().map_err(|e| bad(n, e))?,
                "fingerprint" => seen.fingerprint = value.to_string(),
                "subproblems" => {
                    seen.subproblems = value.parse().map_err(|_| bad(n, "a bad count".into()))?
                }
                "output" => {
                    let (format, file) = value
                        .split_once(' ')
                        .ok_or_else(|| bad(n, "`output FORMAT PATH` expected".into()))?;
                    seen.output = Some((format.to_string(), PathBuf::from(file)));
                }
                "done" => {
                    let fields: Vec<&str> = value.split(' ').collect();
                    let number = |k: usize| -> Result<u64> {
                        fields
                            .get(k)
                            .and_then(|f| f.parse().ok())
                            .ok_or_else(|| bad(n, format!("a bad `done` line: `{line}`")))
                    };
                    let j = number(0)? as usize;
                    let count: Count = fields
                        .get(1)
                        .and_then(|f| f.parse().ok())
                        .ok_or_else(|| bad(n, format!("a bad `done` line: `{line}`")))?;
                    let offset = if fields.len() > 2 {
                        Some(number(2)?)
                    } else {
                        None
                    };
                    if j >= self.id.subproblems.max(seen.subproblems) {
                        return Err(bad(n, format!("subproblem {j} does not exist")));
                    }
                    self.done.insert(j, (count, offset));
                }
                "" | "c" => {}
                other => return Err(bad(n, format!("unknown key `{other}`"))),
            }
        }
        let this = env!("CARGO_PKG_VERSION");
        if version != this {
            return Err(Error::Usage(format!(
                "{path}: a checkpoint of polycover {version}, not of this polycover {this}: \
                 its split may differ; remove it to start over"
            )));
        }
        let id = &self.id;
        let refuse = |what: String| {
            Error::Usage(format!(
                "{path}: {what}; use another checkpoint file, or remove this one to start over"
            ))
        };
        let differs = [
            ("puzzle", &seen.puzzle, &id.puzzle),
            ("symmetry mode", &seen.mode, &id.mode),
        ];
        for (what, theirs, ours) in differs {
            if theirs != ours {
                return Err(refuse(format!(
                    "the checkpoint is for {what} `{theirs}`, this run has `{ours}`"
                )));
            }
        }
        // The part before the fingerprint: the fingerprint depends on the number of
        // parts, and "another part" says more than "another fingerprint".
        if seen.part != id.part {
            let show = |p: PartSpec| {
                if p == PartSpec::WHOLE {
                    "the whole search (no --part)".to_string()
                } else {
                    format!("part {p}")
                }
            };
            return Err(refuse(format!(
                "the checkpoint records {}, this run is {} (one checkpoint per part)",
                show(seen.part),
                show(id.part)
            )));
        }
        if seen.fingerprint != id.fingerprint {
            return Err(refuse(format!(
                "the checkpoint is for fingerprint `{}`, this run has `{}` (another split: \
                 another puzzle file, reduction or program)",
                seen.fingerprint, id.fingerprint
            )));
        }
        if seen.output != id.output {
            let show = |o: &Option<(String, PathBuf)>| match o {
                Some((f, p)) => format!("{f} output {}", p.display()),
                None => "a count".to_string(),
            };
            return Err(Error::Usage(format!(
                "{path}: the checkpoint is for {}, this run is {}",
                show(&seen.output),
                show(&id.output)
            )));
        }
        Ok(())
    }

    /// How old the file may get while subproblems finish.
    pub const EVERY: std::time::Duration = std::time::Duration::from_secs(1);

    /// Writes the checkpoint: a temporary file beside it, then a rename.
    fn save(&mut self) -> Result<()> {
        self.saved = std::time::Instant::now();
        self.unsaved = false;
        let id = &self.id;
        let mut text = String::new();
        text += "c polycover checkpoint: run the same command again to continue\n";
        text += &format!("version {}\n", env!("CARGO_PKG_VERSION"));
        text += &format!("puzzle {}\n", id.puzzle);
        text += &format!("mode {}\n", id.mode);
        text += &format!("part {}\n", id.part);
        text += &format!("fingerprint {}\n", id.fingerprint);
        text += &format!("subproblems {}\n", id.subproblems);
        if let Some((format, file)) = &id.output {
            text += &format!("output {format} {}\n", file.display());
        }
        for (j, (solutions, offset)) in &self.done {
            text += &format!("done {j} {solutions}");
            if let Some(o) = offset {
                text += &format!(" {o}");
            }
            text += "\n";
        }
        let werr = |e: std::io::Error| Error::Write {
            path: self.path.clone(),
            source: e,
        };
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut tmp = tempfile::Builder::new()
            .prefix(".checkpoint.")
            .suffix(".partial")
            .tempfile_in(dir)
            .map_err(werr)?;
        tmp.write_all(text.as_bytes()).map_err(werr)?;
        tmp.persist(&self.path).map_err(|e| werr(e.error))?;
        Ok(())
    }

    /// Records subproblem `j` as finished, and saves when the file is [`Self::EVERY`]
    /// old. For an enumeration, `offset` is the output's length with every solution
    /// up to this subproblem flushed.
    pub fn record(&mut self, j: usize, solutions: Count, offset: Option<u64>) -> Result<()> {
        self.done.insert(j, (solutions, offset));
        self.unsaved = true;
        if self.saved.elapsed() >= Self::EVERY {
            self.save()?;
        }
        Ok(())
    }

    /// Saves what is not on disk yet: at the end of a run, or when it stops.
    pub fn flush(&mut self) -> Result<()> {
        if self.unsaved {
            self.save()?;
        }
        Ok(())
    }

    pub fn is_done(&self, j: usize) -> bool {
        self.done.contains_key(&j)
    }

    pub fn finished(&self) -> usize {
        self.done.len()
    }

    /// Distinct solutions in the finished subproblems.
    pub fn solutions(&self) -> Count {
        self.done.values().map(|d| &d.0).sum()
    }

    /// Distinct solutions in those of `subproblems` that are finished.
    pub fn solutions_in(&self, subproblems: &[usize]) -> Count {
        subproblems
            .iter()
            .filter_map(|j| self.done.get(j))
            .map(|d| &d.0)
            .sum()
    }

    /// For an enumeration: the output's length after the last finished subproblem of
    /// `order` (those finished come first), 0 when none is.
    pub fn offset(&self, order: &[usize]) -> u64 {
        order
            .iter()
            .take_while(|j| self.is_done(**j))
            .last()
            .and_then(|j| self.done[j].1)
            .unwrap_or(0)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}
