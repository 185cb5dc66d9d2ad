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
//! for an enumeration, the output file held OFFSET bytes when it was. `total C`: the
//! part is done, with C distinct solutions in all, written by an engine that counts it
//! at once and reports no subproblem (the memo by Burnside's lemma).
//!
//! Invariants:
//! - The file on disk is always whole: it is rewritten to a temporary file beside it and
//!   renamed over it, so `kill -9` or a crash at any moment leaves the previous or the
//!   next version, never a mix; a failure to write names the checkpoint, never the
//!   temporary file. It is rewritten after a finished subproblem when the last
//!   rewrite is [`Checkpoint::EVERY`] old, and when the run ends or stops: a split has
//!   thousands of subproblems (Bedlam without symmetry: 16,752, about 5 ms each), and
//!   rewriting after every one cost 15% of the run. A kill loses at most that much work.
//! - A checkpoint is only continued by the run that made it: same program version, same
//!   split fingerprint (puzzle, mode, reduction, number of parts), same part, same
//!   output. Anything else is refused, naming what differs.
//! - For an enumeration the finished subproblems are those that come first in the
//!   part's order, so the output is cut back to the last OFFSET on resume.
//! - An existing file is continued only when it is a checkpoint, and is otherwise refused,
//!   never overwritten; an empty file (made by `mktemp`) holds nothing to lose and
//!   starts a new checkpoint.
//! - A damaged file is refused, naming the line, never half believed: a cut last line,
//!   a key or a subproblem given twice, a subproblem outside the part, an OFFSET on a
//!   count's line or missing from an enumeration's, a `total` that is not the sum of
//!   its part's `done` lines. Each would otherwise change the count silently.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::part_result::PartSpec;
use polycover::Count;
use polycover::{Error, Result};

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
    /// The regular file written: `path` with its symlinks followed, so that the rename
    /// replaces the file a link names, never the link.
    target: PathBuf,
    id: RunId,
    /// Subproblem -> (distinct solutions, output offset).
    done: BTreeMap<usize, (Count, Option<u64>)>,
    /// The part's count, when it is finished (`total C`).
    total: Option<Count>,
    saved: std::time::Instant,
    /// Finished subproblems not yet on disk.
    unsaved: bool,
}

impl Checkpoint {
    /// Opens the checkpoint at `path` for the run `id`: continues the one there, or
    /// starts a new one (and writes it at once, so that a bad path fails before any
    /// work).
    pub fn open(path: &Path, id: RunId) -> Result<Checkpoint> {
        // A checkpoint is a regular file, replaced by a rename as it grows: a device, a
        // FIFO or standard output would be replaced by a file, or wait for a reader.
        let target = match crate::output::destination(path)? {
            crate::output::Destination::File { target, .. } => target,
            _ => {
                return Err(Error::Usage(format!(
                    "--checkpoint {}: not a regular file; a checkpoint is a file that is \
                     replaced as the run goes (give a file name)",
                    path.display()
                )))
            }
        };
        let mut cp = Checkpoint {
            target,
            path: path.to_path_buf(),
            id,
            done: BTreeMap::new(),
            total: None,
            saved: std::time::Instant::now(),
            unsaved: false,
        };
        match std::fs::read_to_string(&cp.target) {
            // An empty file holds nothing to lose (`mktemp` makes one): a new checkpoint.
            Ok(text) if text.is_empty() => cp.save()?,
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
        let bad = |n: usize, why: String| Error::Usage(format!("{path}:{}: {why}", n + 1));
        let damaged = |n: usize, why: String| {
            bad(
                n,
                format!("{why}: the checkpoint is damaged; remove it to start over"),
            )
        };
        let lines = CheckpointLines::parse(text, &bad, &damaged)?;
        self.check_header(&path, &lines)?;
        self.read_done(lines.dones, lines.total, &damaged)
    }

    /// Refuses a checkpoint whose header is not this run's (another version, puzzle,
    /// mode, part, fingerprint, output or split), naming what differs.
    fn check_header(&self, path: &str, lines: &CheckpointLines) -> Result<()> {
        let (seen, version) = (&lines.seen, &lines.version);
        let this = env!("CARGO_PKG_VERSION");
        if version.as_str() != this {
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
        if seen.subproblems != id.subproblems {
            return Err(refuse(format!(
                "the checkpoint's split has {} subproblems, this run's {}",
                seen.subproblems, id.subproblems
            )));
        }
        Ok(())
    }

    /// Takes the `done` and `total` lines of a checkpoint whose header matched this run,
    /// refusing any that contradicts the header or another line.
    fn read_done(
        &mut self,
        dones: Vec<(usize, usize, Count, Option<u64>)>,
        total: Option<(usize, Count)>,
        damaged: &dyn Fn(usize, String) -> Error,
    ) -> Result<()> {
        let part = self.id.part;
        let enumeration = self.id.output.is_some();
        let mut lines: BTreeMap<usize, usize> = BTreeMap::new();
        for (n, j, count, offset) in dones {
            if j >= self.id.subproblems {
                return Err(damaged(n, format!("subproblem {j} does not exist")));
            }
            // Part K of N holds the subproblems K - 1 modulo N (`Split::part`).
            if j % part.n != part.k - 1 {
                return Err(damaged(n, format!("subproblem {j} is not in part {part}")));
            }
            match (enumeration, offset) {
                (true, None) => {
                    return Err(damaged(
                        n,
                        format!("subproblem {j} has no output offset, and this is an enumeration"),
                    ))
                }
                (false, Some(_)) => {
                    return Err(damaged(
                        n,
                        format!("subproblem {j} has an output offset, and this is a count"),
                    ))
                }
                _ => {}
            }
            if let Some(first) = lines.insert(j, n) {
                return Err(damaged(
                    n,
                    format!(
                        "subproblem {j} is recorded twice (line {} has it already): its \
                         solutions would count twice",
                        first + 1
                    ),
                ));
            }
            self.done.insert(j, (count, offset));
        }
        if let Some((n, total)) = total {
            if enumeration {
                return Err(damaged(
                    n,
                    "a `total` line in an enumeration's checkpoint".into(),
                ));
            }
            let all = (part.k - 1..self.id.subproblems).step_by(part.n).count();
            let sum: Count = self.done.values().map(|d| &d.0).sum();
            if self.done.len() == all && sum != total {
                return Err(damaged(
                    n,
                    format!("a total of {total}, but the part's subproblems add up to {sum}"),
                ));
            }
            if self.done.len() < all && sum > total {
                return Err(damaged(
                    n,
                    format!("a total of {total}, less than the {sum} of the finished subproblems"),
                ));
            }
            self.total = Some(total);
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
        if let Some(total) = &self.total {
            text += &format!("total {total}\n");
        }
        let werr = |e: std::io::Error| self.write_error(e);
        let dir = crate::output::directory_of(&self.target);
        let mut tmp = tempfile::Builder::new()
            .prefix(".checkpoint.")
            .suffix(".partial")
            .tempfile_in(dir)
            .map_err(werr)?;
        tmp.write_all(text.as_bytes()).map_err(werr)?;
        tmp.persist(&self.target).map_err(|e| werr(e.error))?;
        Ok(())
    }

    /// A failed write, named after the checkpoint the user gave (`cannot write checkpoint
    /// /dir/cp: Permission denied`), never after the temporary file beside it, whose name
    /// the `tempfile` crate adds to its errors.
    fn write_error(&self, e: std::io::Error) -> Error {
        // `tempfile` wraps the system's error in one that prints `ERROR at path "TMP"`
        // and keeps the system's error to itself: its text is cut before the path.
        let text = e.to_string();
        let source = match (e.raw_os_error(), text.split_once(" at path \"")) {
            (None, Some((system, _))) => std::io::Error::new(e.kind(), system.to_string()),
            _ => e,
        };
        Error::Write {
            path: PathBuf::from(format!("checkpoint {}", self.path.display())),
            source,
        }
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

    /// Records the part as finished with `total` distinct solutions, and saves: what an
    /// engine that counts the part at once records.
    pub fn finish(&mut self, total: Count) -> Result<()> {
        self.total = Some(total);
        self.save()
    }

    /// Whether subproblem `j` is finished (every one is, in a finished part).
    pub fn is_done(&self, j: usize) -> bool {
        self.total.is_some() || self.done.contains_key(&j)
    }

    /// Whether the checkpoint records any work: a subproblem or the part finished.
    pub fn is_started(&self) -> bool {
        self.total.is_some() || !self.done.is_empty()
    }

    /// Distinct solutions in the finished subproblems (the total of a finished part).
    pub fn solutions(&self) -> Count {
        match &self.total {
            Some(total) => total.clone(),
            None => self.done.values().map(|d| &d.0).sum(),
        }
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

/// What a checkpoint's lines say, before they are checked against this run.
struct CheckpointLines {
    /// The run the header describes.
    seen: RunId,
    version: String,
    /// `done` lines: (line, subproblem, count, offset), checked against the header
    /// once it is all read.
    dones: Vec<(usize, usize, Count, Option<u64>)>,
    /// The `total` line: (line, count).
    total: Option<(usize, Count)>,
}

impl CheckpointLines {
    /// Reads a checkpoint's lines, refusing a file that is not a checkpoint, a cut last
    /// line, a header key given twice and any line that does not parse.
    fn parse(
        text: &str,
        bad: &dyn Fn(usize, String) -> Error,
        damaged: &dyn Fn(usize, String) -> Error,
    ) -> Result<CheckpointLines> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, l)) if l.starts_with("c polycover checkpoint") => {}
            _ => {
                return Err(bad(
                    0,
                    "not a polycover checkpoint (refusing to overwrite it)".into(),
                ))
            }
        }
        // Every line was written whole, with its newline: a last line without one was
        // cut (`done 7 1204` cut to `done 7 12` would still read as a number).
        if !text.ends_with('\n') {
            let last = text.lines().count().saturating_sub(1);
            return Err(damaged(last, "the last line is cut (no newline)".into()));
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
        // Where each header key was read, for a key given twice.
        let mut keys: BTreeMap<&str, usize> = BTreeMap::new();
        // `done` lines: (line, subproblem, count, offset), checked against the header
        // once it is all read.
        let mut dones: Vec<(usize, usize, Count, Option<u64>)> = Vec::new();
        let mut total: Option<(usize, Count)> = None;
        for (n, line) in lines {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            if !matches!(key, "done" | "" | "c") {
                if let Some(first) = keys.insert(key, n) {
                    return Err(damaged(
                        n,
                        format!("`{key}` again (line {} has it already)", first + 1),
                    ));
                }
            }
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
                "done" => dones.push(parse_done(n, line, value, bad)?),
                "total" => {
                    let count: Count = value
                        .parse()
                        .map_err(|_| bad(n, format!("a bad `total` line: `{line}`")))?;
                    total = Some((n, count));
                }
                "" | "c" => {}
                other => return Err(bad(n, format!("unknown key `{other}`"))),
            }
        }
        Ok(CheckpointLines {
            seen,
            version,
            dones,
            total,
        })
    }
}

/// Reads a `done J C [OFFSET]` line (line `n`, `value` after the key) as
/// (line, subproblem, count, offset).
fn parse_done(
    n: usize,
    line: &str,
    value: &str,
    bad: &dyn Fn(usize, String) -> Error,
) -> Result<(usize, usize, Count, Option<u64>)> {
    let fields: Vec<&str> = value.split(' ').collect();
    let malformed = || bad(n, format!("a bad `done` line: `{line}`"));
    if !(2..=3).contains(&fields.len()) {
        return Err(malformed());
    }
    let j: usize = fields[0].parse().map_err(|_| malformed())?;
    let count: Count = fields[1].parse().map_err(|_| malformed())?;
    let offset = match fields.get(2) {
        Some(f) => Some(f.parse::<u64>().map_err(|_| malformed())?),
        None => None,
    };
    Ok((n, j, count, offset))
}
