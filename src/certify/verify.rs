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

use super::Certificate;
use crate::burnside;
use crate::count::Count;
use crate::error::{Error, Result};

/// One term as the checker saw it.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The term's name in the manifest.
    pub name: String,
    /// Its multiplicity.
    pub multiplicity: usize,
    /// The model count the checker printed.
    pub count: Count,
    /// The checker's seconds.
    pub seconds: f64,
}

/// A directory whose every term the checker verified.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The terms, in the manifest's order.
    pub terms: Vec<Checked>,
    /// The group's order.
    pub order: usize,
    /// The sum of the checked terms, each times its multiplicity, over the order.
    pub count: Count,
}

pub(super) fn manifest(c: &Certificate, compiled: &crate::puzzle::Compiled) -> String {
    let mut t = String::from("polycover-certificate 1\n");
    t.push_str(&format!("puzzle {}\n", compiled.puzzle.name().replace('\n', " ")));
    t.push_str(&format!("symmetry {}\n", compiled.mode.as_str()));
    t.push_str(&format!("order {}\n", c.order));
    for term in &c.terms {
        t.push_str(&format!("term {} {} {} {}\n", term.name, term.multiplicity, term.cnf, term.cpog));
    }
    t
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

/// Runs `checker` on every term of the certificate in `dir`; `progress` hears each term
/// before it is checked.
///
/// # Errors
///
/// A missing or malformed `MANIFEST` ([`Error::Puzzle`], naming the line); a checker that
/// cannot be run ([`Error::Usage`]); a term that fails ([`Error::Failed`], naming the term
/// and the checker's own error line); a sum the order does not divide; a stop.
pub fn verify(dir: &Path, checker: &Path, mut progress: impl FnMut(&str)) -> Result<Verified> {
    let path = dir.join("MANIFEST");
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Read { path: path.clone(), source })?;
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, "polycover-certificate 1")) => {}
        _ => return Err(bad(dir, 1, "not a polycover certificate (expected `polycover-certificate 1`)")),
    }
    let mut order = None;
    let mut terms = Vec::new();
    for (k, line) in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["order", n] => {
                order = Some(n.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| bad(dir, k + 1, "the order is not a positive whole number"))?)
            }
            ["term", name, mult, cnf, cpog] => {
                let mult: usize = mult.parse().ok().filter(|&m| m > 0).ok_or_else(|| bad(dir, k + 1, "the multiplicity is not a positive whole number"))?;
                if !plain_name(cnf) || !plain_name(cpog) {
                    return Err(bad(dir, k + 1, "a term's files must be plain names in the directory"));
                }
                terms.push((name.to_string(), mult, cnf.to_string(), cpog.to_string()));
            }
            ["puzzle", ..] | ["symmetry", ..] | [] => {}
            _ => return Err(bad(dir, k + 1, &format!("unknown line `{line}`"))),
        }
    }
    let order = order.ok_or_else(|| bad(dir, 1, "no `order` line"))?;
    if terms.is_empty() {
        return Err(bad(dir, 1, "no `term` line"));
    }
    let total: usize = terms.iter().map(|t| t.1).sum();
    if total != order {
        return Err(bad(dir, 1, &format!("the multiplicities add up to {total}, not the order {order}")));
    }
    let mut checked = Vec::new();
    let mut sum = BigUint::default();
    for (name, mult, cnf, cpog) in terms {
        progress(&name);
        let started = Instant::now();
        let count = run_checker(checker, &dir.join(&cnf), &dir.join(&cpog))
            .map_err(|e| match e {
                Error::Failed(why) => Error::Failed(format!("term {name} ({cpog}): {why}")),
                e => e,
            })?;
        sum += count.as_biguint() * BigUint::from(mult);
        checked.push(Checked { name, multiplicity: mult, count, seconds: started.elapsed().as_secs_f64() });
    }
    let count = burnside::divide(Count::from(sum), order)?;
    Ok(Verified { terms: checked, order, count })
}

fn run_checker(checker: &Path, cnf: &Path, cpog: &Path) -> Result<Count> {
    for f in [cnf, cpog] {
        if !f.is_file() {
            return Err(Error::Failed(format!("{} is missing", f.display())));
        }
    }
    let out_file = tempfile::tempfile()?;
    let mut child = Command::new(checker)
        .arg(cnf)
        .arg(cpog)
        .stdin(Stdio::null())
        .stdout(out_file.try_clone()?)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| {
            Error::Usage(format!(
                "cannot run the CPOG checker {}: {e}; build it with `cc -O2 -o cpog-check \
                 cpog-check.c q25.c` from github.com/rebryant/cpog and put it on PATH, or \
                 name it with --checker",
                checker.display()
            ))
        })?;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if crate::interrupt::requested() || crate::interrupt::past_deadline() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Error::Interrupted("the checker was stopped".into()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    use std::io::{Read, Seek};
    let mut out = out_file;
    out.rewind()?;
    let mut text = String::new();
    out.read_to_string(&mut text)?;
    let success = text.lines().any(|l| l.contains("FULL-PROOF SUCCESS"));
    let count = text
        .lines()
        .find_map(|l| l.split_once("Regular model count = ").map(|(_, n)| n.trim().to_string()));
    if !status.success() || !success {
        let why = text
            .lines()
            .find(|l| l.starts_with("ERROR") || l.starts_with("FAILURE"))
            .unwrap_or("no FULL-PROOF SUCCESS line")
            .to_string();
        return Err(Error::Failed(format!("the checker rejected it: {why}")));
    }
    let count = count
        .and_then(|n| n.parse::<BigUint>().ok())
        .ok_or_else(|| Error::Failed("the checker printed no whole model count".into()))?;
    Ok(Count::from(count))
}
