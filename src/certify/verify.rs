//! Checking a certificate directory with an outside checker, trusting nothing polycover
//! counted: the terms' counts are the checker's, and the Burnside arithmetic is redone
//! from them.
//!
//! `MANIFEST` is the directory's machine-readable list: a first line
//! `polycover-certificate 1`, then `puzzle NAME`, `symmetry MODE`, `order N`, and one
//! `term NAME MULTIPLICITY CNF CPOG` per term. It holds no count.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use super::{audit, Certificate, Term};
use crate::burnside;
use crate::count::Count;
use crate::error::{Error, Result};
use crate::puzzle::Puzzle;

pub(super) fn manifest(c: &Certificate, compiled: &crate::puzzle::Compiled) -> String {
    let mut t = String::from("polycover-certificate 1\n");
    t.push_str(&format!(
        "puzzle {}\n",
        compiled.puzzle.name().replace('\n', " ")
    ));
    t.push_str(&format!("symmetry {}\n", compiled.mode.as_str()));
    t.push_str(&format!("order {}\n", c.order));
    for term in &c.terms {
        t.push_str(&format!(
            "term {} {} {} {}\n",
            term.name, term.multiplicity, term.cnf, term.cpog
        ));
    }
    t
}

fn file_bytes(path: &Path) -> Result<u64> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })
}

fn bad(dir: &Path, line: usize, what: &str) -> Error {
    Error::Puzzle {
        location: format!("{}:{line}", dir.join("MANIFEST").display()),
        reason: what.to_string(),
    }
}

fn plain_name(name: &str) -> bool {
    !name.is_empty() && !name.contains('/') && !name.contains('\\') && name != ".." && name != "."
}

/// Derives what the certificate in `dir` sums from its CNFs ([`audit`]), compares it with
/// `puzzle` where one is given, then runs `checker` on every term; `progress` hears each
/// term before it is checked.
///
/// # Errors
///
/// A missing or malformed `MANIFEST` ([`Error::Puzzle`], naming the line); terms that do
/// not hold together, or are not of `puzzle` ([`Error::Failed`], naming what differs); a
/// checker that cannot be run ([`Error::Usage`]); a term that fails ([`Error::Failed`],
/// naming the term and the checker's own error line); a stop by `stop` (the checker is
/// then killed).
pub fn verify(
    dir: &Path,
    checker: &Path,
    puzzle: Option<&Puzzle>,
    stop: &crate::stop::Stop,
    mut progress: impl FnMut(&str),
) -> Result<Certificate> {
    let manifest = read_manifest(dir)?;
    let derived = audit::derive(
        dir,
        &manifest.terms,
        manifest.order,
        manifest.symmetry.as_deref(),
        manifest.puzzle.as_deref(),
        puzzle,
    )?;
    let mut checked = Vec::new();
    let mut sum = BigUint::default();
    for (k, listed) in manifest.terms.into_iter().enumerate() {
        let audit::Listed {
            name, cnf, cpog, ..
        } = listed;
        let mult = derived.multiplicity[k];
        progress(&name);
        let started = Instant::now();
        let count =
            run_checker(checker, &dir.join(&cnf), &dir.join(&cpog), stop).map_err(|e| match e {
                Error::Failed(why) => Error::Failed(format!("term {name} ({cpog}): {why}")),
                e => e,
            })?;
        let exact = graph_count(&dir.join(&cnf), &dir.join(&cpog))?;
        let disagreement = (&exact != count.as_biguint()).then(|| Count::from(exact.clone()));
        sum += &exact * BigUint::from(mult);
        checked.push(Term {
            name,
            multiplicity: mult,
            count: Count::from(exact),
            cnf_bytes: file_bytes(&dir.join(&cnf))?,
            cpog_bytes: file_bytes(&dir.join(&cpog))?,
            cnf,
            cpog,
            seconds: started.elapsed().as_secs_f64(),
            symmetry: Some(derived.map[k].clone()),
            nodes: None,
            states: None,
            checker_count: disagreement.map(|_| count),
        });
    }
    let count = burnside::divide(Count::from(sum), derived.order).map_err(|_| {
        Error::Failed(
            "the certificate is damaged: the checked terms' Burnside sum is not a multiple of \
             the group's order"
                .into(),
        )
    })?;
    Ok(Certificate {
        terms: checked,
        order: derived.order,
        count,
        puzzle: derived.puzzle,
        mode: derived.mode,
    })
}

/// `MANIFEST`, read: nothing in it is trusted but the file names, which must be plain
/// names in the directory.
struct Manifest {
    puzzle: Option<String>,
    symmetry: Option<String>,
    order: usize,
    terms: Vec<audit::Listed>,
}

fn read_manifest(dir: &Path) -> Result<Manifest> {
    let path = dir.join("MANIFEST");
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
        path: path.clone(),
        source,
    })?;
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, "polycover-certificate 1")) => {}
        _ => {
            return Err(bad(
                dir,
                1,
                "not a polycover certificate (expected `polycover-certificate 1`)",
            ))
        }
    }
    let mut m = Manifest {
        puzzle: None,
        symmetry: None,
        order: 0,
        terms: Vec::new(),
    };
    for (k, line) in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["order", n] => {
                m.order =
                    n.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                        bad(dir, k + 1, "the order is not a positive whole number")
                    })?
            }
            ["term", name, mult, cnf, cpog] => {
                let multiplicity: usize =
                    mult.parse().ok().filter(|&m| m > 0).ok_or_else(|| {
                        bad(
                            dir,
                            k + 1,
                            "the multiplicity is not a positive whole number",
                        )
                    })?;
                if !plain_name(cnf) || !plain_name(cpog) {
                    return Err(bad(
                        dir,
                        k + 1,
                        "a term's files must be plain names in the directory",
                    ));
                }
                m.terms.push(audit::Listed {
                    name: name.to_string(),
                    multiplicity,
                    cnf: cnf.to_string(),
                    cpog: cpog.to_string(),
                });
            }
            ["puzzle", ..] => m.puzzle = line.strip_prefix("puzzle ").map(str::to_string),
            ["symmetry", mode] => m.symmetry = Some(mode.to_string()),
            [] => {}
            _ => return Err(bad(dir, k + 1, &format!("unknown line `{line}`"))),
        }
    }
    if m.order == 0 {
        return Err(bad(dir, 1, "no `order` line"));
    }
    if m.terms.is_empty() {
        return Err(bad(dir, 1, "no `term` line"));
    }
    Ok(m)
}

/// What the checker said of one term: its count, or why it failed.
fn run_checker(checker: &Path, cnf: &Path, cpog: &Path, stop: &crate::stop::Stop) -> Result<Count> {
    for f in [cnf, cpog] {
        if !f.is_file() {
            return Err(Error::Failed(format!("{} is missing", f.display())));
        }
    }
    let mut child = Command::new(checker)
        .arg(cnf)
        .arg(cpog)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| {
            Error::Usage(format!(
                "cannot run the CPOG checker {}: {e}; build it with `cc -O2 -o cpog-check \
                 cpog-check.c q25.c` from github.com/rebryant/cpog and put it on PATH, or \
                 name it with {}",
                checker.display(),
                crate::setting::Setting::Checker.mark()
            ))
        })?;
    // The prototype checker prints a line per clause it looks up: keep only its verdicts.
    let stdout = child.stdout.take().expect("piped");
    widen(&stdout);
    let reader = std::thread::spawn(move || verdicts(stdout));
    // Polled every 20 ms while the checker runs: a signal stops it here, as the deadline
    // does (the checker killed, the stop reported), instead of ending the process.
    let _listening = stop.listen();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if stop.should_stop() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Error::Interrupted("the checker was stopped".into()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let lines = reader.join().unwrap_or_default();
    let success = lines.iter().any(|l| l.contains("FULL-PROOF SUCCESS"));
    let count = lines.iter().find_map(|l| {
        l.split_once("Regular model count = ")
            .map(|(_, n)| n.trim().to_string())
    });
    if !status.success() || !success {
        let why = lines
            .iter()
            .find(|l| l.starts_with("ERROR") || l.starts_with("FAILURE"))
            .map(String::as_str)
            .unwrap_or("no FULL-PROOF SUCCESS line");
        return Err(Error::Failed(format!("the checker rejected it: {why}")));
    }
    let count = count
        .and_then(|n| n.parse::<BigUint>().ok())
        .ok_or_else(|| Error::Failed("the checker printed no whole model count".into()))?;
    Ok(Count::from(count))
}

/// Asks for a pipe of 4 MiB from the checker (Linux; elsewhere, or where refused, the
/// pipe stays as it is): its gigabytes of debug lines then wake this reader a sixty-fourth
/// as often.
fn widen(pipe: &std::process::ChildStdout) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // Safety: a valid descriptor and a plain integer argument; failure is ignored.
        unsafe {
            libc::fcntl(pipe.as_raw_fd(), libc::F_SETPIPE_SZ, 4 << 20);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pipe;
}

/// The checker's verdict lines (`CHECK:`, `ERROR`, `FAILURE`, at most 64), read as they
/// come from `output` and the rest let go in the same pass: the prototype prints a debug
/// line for every clause it looks up (840 MB for the 4x4x4 dominoes' 51 MB certificate),
/// so lines are found with `memchr` in a buffer of a megabyte, never held.
fn verdicts(mut output: impl std::io::Read) -> Vec<String> {
    const KEPT: [&[u8]; 3] = [b"CHECK:", b"ERROR", b"FAILURE"];
    let mut kept = Vec::new();
    let mut buf = vec![0u8; 1 << 20];
    // The line being read, while it may be a verdict (its first byte is one's).
    let mut line: Vec<u8> = Vec::new();
    let mut collecting = false;
    let mut at_start = true;
    loop {
        let n = match output.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let mut i = 0;
        while i < n {
            if at_start {
                at_start = false;
                collecting = matches!(buf[i], b'C' | b'E' | b'F');
                line.clear();
            }
            let end = memchr::memchr(b'\n', &buf[i..n]).map(|k| i + k);
            if collecting && line.len() < 4096 {
                line.extend_from_slice(&buf[i..end.unwrap_or(n)]);
            }
            match end {
                Some(e) => {
                    if collecting && kept.len() < 64 && KEPT.iter().any(|k| line.starts_with(k)) {
                        kept.push(String::from_utf8_lossy(&line).into_owned());
                    }
                    at_start = true;
                    i = e + 1;
                }
                None => i = n,
            }
        }
    }
    if collecting && kept.len() < 64 && KEPT.iter().any(|k| line.starts_with(k)) {
        kept.push(String::from_utf8_lossy(&line).into_owned());
    }
    kept
}

/// The model count of the graph in a certificate the checker accepted, evaluated exactly:
/// each node's share of all assignments is a fraction `m / 2^e`; a variable is 1/2, a
/// product multiplies, a sum adds, a negation is one minus. Reads only the two files.
pub(super) fn graph_count(cnf: &Path, cpog: &Path) -> Result<BigUint> {
    use std::io::BufRead;
    let open = |p: &Path| {
        std::fs::File::open(p)
            .map(std::io::BufReader::new)
            .map_err(|source| Error::Read {
                path: p.into(),
                source,
            })
    };
    let mut vars: Option<u32> = None;
    for line in open(cnf)?.lines() {
        let line = line?;
        if let Some(rest) = line.strip_prefix("p cnf ") {
            vars = rest.split_whitespace().next().and_then(|v| v.parse().ok());
            break;
        }
    }
    let n = vars.ok_or_else(|| Error::Failed(format!("{}: no `p cnf` line", cnf.display())))?;
    let mut values: Vec<(BigUint, u32)> = Vec::new();
    let mut root = None;
    let bad = || {
        Error::Failed(format!(
            "{}: an operation the checker accepted cannot be read",
            cpog.display()
        ))
    };
    for line in open(cpog)?.lines() {
        let line = line?;
        let mut words = line.split_ascii_whitespace();
        let (Some(first), Some(second)) = (words.next(), words.next()) else {
            continue;
        };
        if first == "r" {
            root = second.parse::<u32>().ok();
            continue;
        }
        if second != "p" && second != "s" {
            continue;
        }
        let node: u32 = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
        if node as usize != n as usize + 1 + values.len() {
            return Err(bad());
        }
        let take = if second == "s" { 2 } else { usize::MAX };
        let mut acc: (BigUint, u32) = if second == "p" {
            (BigUint::from(1u32), 0)
        } else {
            (BigUint::default(), 0)
        };
        for w in words.take(take) {
            let l: i64 = w.parse().map_err(|_| bad())?;
            if l == 0 {
                break;
            }
            let v = l.unsigned_abs() as u32;
            let (mut m, e) = if v <= n {
                (BigUint::from(1u32), 1)
            } else {
                values.get((v - n - 1) as usize).cloned().ok_or_else(bad)?
            };
            if l < 0 {
                m = (BigUint::from(1u32) << e) - m;
            }
            acc = if second == "p" {
                (acc.0 * m, acc.1 + e)
            } else {
                let e2 = acc.1.max(e);
                ((acc.0 << (e2 - acc.1)) + (m << (e2 - e)), e2)
            };
        }
        values.push(acc);
    }
    let root = root.ok_or_else(|| Error::Failed(format!("{}: no root", cpog.display())))?;
    let (m, e) = values
        .get((root.checked_sub(n + 1).ok_or_else(bad)?) as usize)
        .cloned()
        .ok_or_else(bad)?;
    Ok((m << n) >> e)
}

#[cfg(test)]
mod tests {
    #[test]
    fn verdicts_are_found_across_reads_and_the_rest_let_go() {
        // A reader that hands out three bytes at a time splits every line.
        struct Trickle<'a>(&'a [u8]);
        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(3).min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let text = b"Looking for clause 1.\nCHECK: FULL-PROOF SUCCESS\nCount 3\nLooking\n\
                     ERROR. Line 3\nFAILURE at the end";
        let kept = super::verdicts(Trickle(text));
        assert_eq!(
            kept,
            [
                "CHECK: FULL-PROOF SUCCESS",
                "ERROR. Line 3",
                "FAILURE at the end"
            ]
        );
    }
}
