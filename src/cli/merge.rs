//! `merge`: adds up the `c part` lines of `count --part` or `enumerate --part` runs, and
//! joins enumerations' files.
//!
//! Invariants:
//! - A missing, duplicated or foreign part (another split's fingerprint) is refused.
//! - Everything is checked, and the joined file written, before the total is printed: a
//!   merge that fails prints no total.
//! - A part's file is streamed, never held whole; only its lines are bounded.

use std::collections::BTreeMap;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

use itertools::Itertools;

use super::args::MergeArgs;
use super::outcome::Outcome;
use crate::count::Count;
use crate::error::{Error, Result};
use crate::output;
use crate::parts::PartResult;

/// `merge RESULTS... [-o FILE]`.
pub(super) fn merge(a: MergeArgs, out: &mut dyn Write) -> Result<Outcome> {
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
            a.results.iter().map(|p| p.display()).join(", ")
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
    let total: Count = parts.values().map(|(r, _)| &r.solutions).sum();
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
        writeln!(
            out,
            "c wrote {} to {}",
            crate::count::solutions(&total),
            target.display()
        )?;
    }
    writeln!(out, "s mc {total}")?;
    Ok(Outcome::Done)
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
    crate::input::open_capped(path, limit, "a file merge reads").map_err(|e| match e {
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
                        crate::input::size_name(MAX_LINE)
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
            if r.solutions != index - before {
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
