//! `merge`: adds up the `c part` lines of `count --part` or `enumerate --part` runs, and
//! joins enumerations' files.
//!
//! Invariants:
//! - A missing, duplicated or foreign part (another split's fingerprint) is refused.
//! - Everything is checked, and the joined file written, before the total is printed: a
//!   merge that fails prints no total.
//! - A part is checked whole, and a damaged one refused naming its file and line (exit
//!   2), never joined: its `c part` line ends with a newline (a cut one could still read
//!   as a smaller count), every record of its file is whole (text: `solution N`, at
//!   least one line, then the empty line that ends a record; JSON lines: one object
//!   per line, newline included), numbered 1, 2, ... as written, and as many as the
//!   `c part` line says. A cut file is caught wherever the cut falls: a record without
//!   its end, or fewer records than reported.
//! - Nothing is written from a damaged part: a regular file is written atomically
//!   (nothing on failure); a stream (`-`, a FIFO) only after every part was read through
//!   once and found whole.
//! - A part is refused (exit 2, naming its file) unless it matches the checksum on its
//!   `c part` line (`crate::part_result::Checksum`): a count's line, of its fields; an
//!   enumeration's, of its fields and of every byte of its file, so that an edited figure
//!   or an edited record, even one that still reads as a record, is caught. A line
//!   without a checksum (of an older polycover) is refused too: a part is merged by the
//!   version that made it.
//! - A part's file is streamed, never held whole; only its lines are bounded.

use super::context::Context;
use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

use itertools::Itertools;

use super::args::MergeArgs;
use super::outcome::Outcome;
use crate::output;
use crate::part_result::{Checksum, PartResult};
use polycover::Count;
use polycover::{Error, Result};

/// `merge RESULTS... [-o FILE]`.
pub(super) fn merge(a: MergeArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    // The joined file must not replace one of the result files it is made from.
    if let Some(target) = &a.output {
        let results: Vec<&Path> = a.results.iter().map(|p| p.as_path()).collect();
        output::check_writable(target, &results)?;
    }
    let results = read_results(&a.results)?;
    let parts = parts_of_one_split(&a.results, results)?;
    let (first, _) = parts.values().next().expect("a split has a part");
    let n = first.part.n;
    let files: Vec<&(String, PathBuf)> = parts
        .values()
        .filter_map(|(r, _)| r.file.as_ref())
        .collect();
    if !files.is_empty() && files.len() != n {
        return Err(Error::Usage(
            "some parts are enumerations (with a file) and some are counts".into(),
        ));
    }
    let total: Count = parts.values().map(|(r, _)| &r.solutions).sum();
    // Everything is checked, and the joined file written, before the result is printed:
    // a merge that fails prints no total.
    if let Some(target) = &a.output {
        if files.is_empty() {
            return Err(Error::Usage(
                "-o joins enumerations' files, and these parts are counts".into(),
            ));
        }
        join(target, &parts, ctx, out)?;
    } else if !files.is_empty() {
        // No joined file, but the total is still only that of whole files.
        check_files(&parts)?;
    }
    writeln!(
        out,
        "c merged {}, fingerprint {}",
        polycover::Count::plural(n, "part", "parts"),
        first.fingerprint
    )?;
    if let Some(target) = &a.output {
        writeln!(
            out,
            "c wrote {} to {}",
            polycover::Count::solutions(&total),
            target.display()
        )?;
    }
    writeln!(out, "s mc {total}")?;
    Ok(Outcome::Done)
}

/// Every `c part` line of the result files, with where it was read (`PATH:LINE`),
/// refusing a line cut short or a count's line that does not match its checksum.
fn read_results(paths: &[PathBuf]) -> Result<Vec<(PartResult, String)>> {
    // Every `c part` line, with where it was read.
    let mut results: Vec<(PartResult, String)> = Vec::new();
    for path in paths {
        let mut lines = Lines::new(path, open_input(path, crate::sat::Answer::MAX_INFLATED)?);
        while let Some((line, number, whole)) = lines.next_line()? {
            let at = format!("{}:{number}", path.display());
            match PartResult::parse(line) {
                Some(Ok(_)) if !whole => {
                    return Err(Error::Usage(format!(
                        "{at}: a `c part` line cut short (no newline): the file is damaged; \
                         run the part again"
                    )))
                }
                // A count's checksum is of its line alone; an enumeration's is checked
                // with its file ([`part_records`]).
                Some(Ok(r)) if r.file.is_none() && !r.matches(Checksum::new()) => {
                    return Err(Error::Usage(format!(
                        "{at}: part {} does not match its checksum: its count or another \
                         field of its `c part` line was edited or damaged; run the part again",
                        r.part
                    )))
                }
                Some(Ok(r)) => results.push((r, at)),
                Some(Err(why)) => return Err(Error::Usage(format!("{at}: {why}"))),
                None => {}
            }
        }
    }
    Ok(results)
}

/// The results by part number, refusing results of different splits, a part given
/// twice and missing parts: what is summed is one whole split.
fn parts_of_one_split(
    paths: &[PathBuf],
    results: Vec<(PartResult, String)>,
) -> Result<BTreeMap<usize, (PartResult, String)>> {
    let Some((first, first_at)) = results.first().cloned() else {
        return Err(Error::Usage(format!(
            "no `c part` lines in {}: give the output of `count --part` or `enumerate --part`",
            paths.iter().map(|p| p.display()).join(", ")
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
    Ok(parts)
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
    polycover::open_capped(path, limit, "a file merge reads").map_err(|e| match e {
        Error::Read { source, .. } => read_error(path, source),
        other => other,
    })
}

/// Joins the parts' solution files into `target`, in part order, numbering the
/// solutions anew and checking that each file holds whole records, as many as its part
/// reported. A stream is written only after a first reading found every part whole.
fn join(
    target: &Path,
    parts: &BTreeMap<usize, (PartResult, String)>,
    ctx: &Context,
    stdout: &mut dyn Write,
) -> Result<()> {
    let inputs: Vec<&Path> = parts
        .values()
        .filter_map(|(r, _)| r.file.as_ref().map(|f| f.1.as_path()))
        .collect();
    // One file of one format: a text part and a JSON-lines part do not join.
    let mut formats = parts
        .iter()
        .filter_map(|(k, (r, _))| r.file.as_ref().map(|f| (k, &f.0, &f.1)));
    if let Some((k0, first, path0)) = formats.next() {
        if let Some((k, other, path)) = formats.find(|(_, f, _)| f != &first) {
            return Err(Error::Usage(format!(
                "part {k0}'s file {} is {first} and part {k}'s file {} is {other}: merge \
                 joins parts of one format; run the parts again with one --format",
                path0.display(),
                path.display()
            )));
        }
    }
    if !matches!(
        output::destination(target)?,
        output::Destination::File { .. }
    ) {
        check_files(parts)?;
    }
    output::write(ctx.stop(), target, stdout, &inputs, &mut |w| {
        copy_records(parts, w)
    })
}

/// Reads every part's file through, checking it whole, writing nothing.
fn check_files(parts: &BTreeMap<usize, (PartResult, String)>) -> Result<()> {
    copy_records(parts, &mut std::io::sink())
}

/// Copies every part's records to `w` in part order, numbered anew.
fn copy_records(parts: &BTreeMap<usize, (PartResult, String)>, w: &mut dyn Write) -> Result<()> {
    let mut index = 0u64;
    for (r, at) in parts.values() {
        index = part_records(r, at, index, w)?;
    }
    Ok(())
}

/// Copies the records of part `r`'s file to `w`, numbered from `index + 1`, checking
/// each whole ([`Records`]) and their number against the part's `c part` line (read at
/// `at`); returns the last number given.
fn part_records(r: &PartResult, at: &str, index: u64, w: &mut dyn Write) -> Result<u64> {
    let (format, path) = r.file.as_ref().expect("every part has a file");
    // A part's file is streamed, never held whole: no limit on its size, only on a
    // line's.
    let mut lines = Lines::new(path, open_input(path, u64::MAX)?);
    let mut records = Records::new(format, path)?;
    while let Some((line, number, whole)) = lines.next_line()? {
        if !whole {
            return Err(records.damaged(
                number,
                "the last line is cut (no newline): the file ends inside a record",
            ));
        }
        records.line(line, number, index, w)?;
    }
    records.end(lines.number)?;
    if r.solutions != records.count {
        return Err(Error::Usage(format!(
            "{}: {} whole solutions, but part {} ({at}) reported {}: the file is \
             damaged or not that part's; run the part again",
            path.display(),
            records.count,
            r.part,
            r.solutions
        )));
    }
    if !r.matches(lines.check) {
        return Err(Error::Usage(format!(
            "{}: the file does not match the checksum of part {} ({at}): a record or its \
             `c part` line was edited or damaged, or the file is not that part's; run the \
             part again",
            path.display(),
            r.part
        )));
    }
    Ok(index + records.count)
}

/// The records of one part's file, read line by line: what a record must be, and
/// where the reading stands.
struct Records<'a> {
    path: &'a Path,
    jsonl: bool,
    /// Whole records so far.
    count: u64,
    /// Text: inside a record, with this many lines after its `solution N`.
    open: Option<usize>,
}

impl<'a> Records<'a> {
    fn new(format: &str, path: &'a Path) -> Result<Records<'a>> {
        let jsonl = match format {
            "jsonl" => true,
            "text" => false,
            other => {
                return Err(Error::Usage(format!(
                    "{}: a part's file of format `{other}`; merge joins text and jsonl",
                    path.display()
                )))
            }
        };
        Ok(Records {
            path,
            jsonl,
            count: 0,
            open: None,
        })
    }

    fn damaged(&self, line: u64, why: &str) -> Error {
        Error::Usage(format!(
            "{}:{line}: {why}; the part's file is damaged: run the part again",
            self.path.display()
        ))
    }

    /// Takes line `n` of the file, writing it (renumbered) to `w`; records before this
    /// file's have numbers up to `before`.
    fn line(&mut self, line: &str, n: u64, before: u64, w: &mut dyn Write) -> Result<()> {
        let next = self.count + 1;
        if self.jsonl {
            let mut record: serde_json::Value = serde_json::from_str(line)
                .map_err(|e| self.damaged(n, &format!("not a JSON record ({e})")))?;
            if record.get("index").and_then(|i| i.as_u64()) != Some(next) {
                return Err(self.damaged(n, &format!("expected the record with index {next}")));
            }
            record["index"] = (before + next).into();
            self.count = next;
            writeln!(w, "{record}")?;
            return Ok(());
        }
        match self.open {
            None => {
                if line != format!("solution {next}") {
                    return Err(self.damaged(n, &format!("expected `solution {next}`")));
                }
                self.open = Some(0);
                writeln!(w, "solution {}", before + next)?;
            }
            Some(0) if line.is_empty() => {
                return Err(self.damaged(n, &format!("solution {next} is empty")));
            }
            Some(_) if line.is_empty() => {
                self.open = None;
                self.count = next;
                writeln!(w)?;
            }
            Some(k) => {
                self.open = Some(k + 1);
                writeln!(w, "{line}")?;
            }
        }
        Ok(())
    }

    /// The end of the file, after `lines` lines: no record may be open.
    fn end(&self, lines: u64) -> Result<()> {
        match self.open {
            Some(0) => Err(self.damaged(
                lines,
                &format!("solution {} is cut after its first line", self.count + 1),
            )),
            Some(_) => Err(self.damaged(
                lines,
                &format!("solution {} is cut (no empty line ends it)", self.count + 1),
            )),
            None => Ok(()),
        }
    }
}

/// A file's lines, each bounded ([`MAX_LINE`]) and checked as UTF-8, with their
/// numbers and whether each ended with its newline.
struct Lines<'a> {
    path: &'a Path,
    reader: Box<dyn BufRead>,
    bytes: Vec<u8>,
    /// The number of the line last read, from 1.
    number: u64,
    /// The checksum of the bytes read, as they are in the file (a part's file is checked
    /// against its `c part` line with it).
    check: Checksum,
}

impl<'a> Lines<'a> {
    fn new(path: &'a Path, reader: Box<dyn BufRead>) -> Lines<'a> {
        Lines {
            path,
            reader,
            bytes: Vec::new(),
            number: 0,
            check: Checksum::new(),
        }
    }

    /// The next line without its newline (or `\r\n`), its number (from 1) and whether
    /// it ended with a newline; `None` at the end.
    fn next_line(&mut self) -> Result<Option<(&str, u64, bool)>> {
        self.bytes.clear();
        let path = self.path;
        let n = (&mut self.reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut self.bytes)
            .map_err(|e| read_error(path, e))?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        self.check.update(&self.bytes);
        if self.bytes.len() as u64 > MAX_LINE {
            return Err(Error::Usage(format!(
                "{}:{}: a line longer than {}: not a file merge reads",
                path.display(),
                self.number,
                Error::size_name(MAX_LINE)
            )));
        }
        let whole = self.bytes.ends_with(b"\n");
        if whole {
            self.bytes.pop();
            if self.bytes.ends_with(b"\r") {
                self.bytes.pop();
            }
        }
        let line = std::str::from_utf8(&self.bytes).map_err(|_| {
            read_error(
                path,
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "stream did not contain valid UTF-8",
                ),
            )
        })?;
        Ok(Some((line, self.number, whole)))
    }
}

/// `1, 3-5, 9`: runs of consecutive numbers as ranges.
fn ranges(ks: &[usize]) -> String {
    ks.iter()
        .enumerate()
        // Consecutive numbers share their difference to their position.
        .chunk_by(|&(i, &k)| k - i)
        .into_iter()
        .map(|(_, run)| {
            let run: Vec<usize> = run.map(|(_, &k)| k).collect();
            match run[..] {
                [one] => one.to_string(),
                [first, .., last] => format!("{first}-{last}"),
                [] => unreachable!("a group has a member"),
            }
        })
        .join(", ")
}

#[cfg(test)]
mod tests {
    use crate::part_result::{Checksum, PartResult};

    /// Counts past 2^64 add up exactly in `merge`: the lines of Soma's two parts are
    /// written anew with counts of 2^64 - 1 and 2^70 (and their checksums), the way a far
    /// larger count (a memo count of a big box of dominoes reaches 10^31) writes them.
    #[test]
    fn counts_past_u64_add_up_in_merge() {
        let run = crate::cli::run_in_process;
        let mut lines = String::new();
        for part in ["1/2", "2/2"] {
            let (code, out) = run(&[
                "polycover",
                "count",
                "soma",
                "--part",
                part,
                "--threads",
                "1",
            ]);
            assert_eq!(code, 0, "{out}");
            lines += &out;
        }
        let big: String = lines
            .lines()
            .map(|l| match PartResult::parse(l) {
                Some(r) => {
                    let r = r.unwrap();
                    let n: u128 = if r.part.k == 1 {
                        18446744073709551615 // 2^64 - 1
                    } else {
                        1180591620717411303424 // 2^70
                    };
                    let line =
                        PartResult::new(r.part, r.fingerprint, n.into(), None, Checksum::new());
                    format!("{line}\n")
                }
                None => format!("{l}\n"),
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("r.txt");
        std::fs::write(&results, big).unwrap();
        let (code, out) = run(&["polycover", "merge", results.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}");
        assert!(out.ends_with("s mc 1199038364791120855039\n"), "{out}");
    }
}
