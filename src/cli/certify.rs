//! `count --certify DIR` and `verify DIR`: writing a certificate of a count, and checking
//! one with an outside checker.
//!
//! Invariants: the directory is checked before the count runs; the certificate's count
//! must equal the engine's, or the command fails (exit 1) and keeps no file; `verify`
//! prints only what the checker computed.

use std::collections::HashSet;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::args::VerifyArgs;
use super::outcome::Outcome;
use crate::certify::{self, Request, Shape};
use crate::engine::{Engine, Problem, Report, RunOptions};
use crate::error::{Error, Result};

/// Refuses a certificate directory that cannot be one, before any work.
pub(super) fn check_dir(dir: &Path, parts: bool) -> Result<()> {
    if parts {
        return Err(Error::Usage(
            "--certify certifies a whole count: it cannot be combined with --part or \
             --checkpoint"
                .into(),
        ));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "--certify {}: not a directory",
            dir.display()
        )));
    }
    Ok(())
}

/// The graph's shape for an engine, or the refusal of one that cannot certify.
pub(super) fn shape(engine: &Engine) -> Result<Shape> {
    match engine.name() {
        "memo" => Ok(Shape::Shared),
        "dlx" | "bits" => Ok(Shape::Tree),
        n if n.starts_with("sat") => Ok(Shape::Tree),
        other => Err(Error::Usage(format!(
            "--certify works with --solver memo, dlx, bits or sat, not {other}"
        ))),
    }
}

/// Writes the certificate after the engine's count, and compares the two.
pub(super) fn count(
    p: &Problem,
    engine: &Engine,
    report: &Report,
    dir: &Path,
    deadline: Option<std::time::Instant>,
    out: &mut dyn Write,
) -> Result<()> {
    let shape = shape(engine)?;
    let models = if engine.name().starts_with("sat") {
        let mut models = HashSet::new();
        let opts = RunOptions { threads: 1, deadline, progress: None, memory: 0 };
        let listed = p.for_each_solution(engine, &opts, &mut |s| {
            models.insert(s.to_vec());
            ControlFlow::Continue(())
        })?;
        if !listed.complete {
            return Err(Error::Interrupted("SAT enumeration for the certificate was stopped".into()));
        }
        Some(models)
    } else {
        None
    };
    let request = Request { problem: p, shape, engine: engine.name(), models };
    let c = certify::certify(request, dir)?;
    if &c.count != &report.solutions {
        for t in &c.terms {
            let _ = std::fs::remove_file(dir.join(&t.cnf));
            let _ = std::fs::remove_file(dir.join(&t.cpog));
        }
        let _ = std::fs::remove_file(dir.join("MANIFEST"));
        let _ = std::fs::remove_file(dir.join("README"));
        return Err(Error::Failed(format!(
            "the certificate counts {} but the {} engine counted {}: no certificate is kept",
            c.count,
            engine.name(),
            report.solutions
        )));
    }
    let (mut cnf, mut cpog, mut nodes, mut secs) = (0, 0, 0, 0.0);
    for t in &c.terms {
        writeln!(
            out,
            "c certificate term {} ({}): {} x {} fixed solutions, {} nodes, {} and {} ({:.2} s)",
            t.name, t.symmetry, t.multiplicity, t.count, t.nodes, t.cnf, t.cpog, t.seconds
        )?;
        cnf += t.cnf_bytes;
        cpog += t.cpog_bytes;
        nodes += t.nodes;
        secs += t.seconds;
    }
    writeln!(
        out,
        "c certificate {}: {} terms, CNF {} bytes, CPOG {} bytes, {} nodes, {:.2} s; check \
         it with `polycover verify {}`",
        dir.display(),
        c.terms.len(),
        cnf,
        cpog,
        nodes,
        secs,
        dir.display()
    )?;
    Ok(())
}

/// `polycover verify DIR`.
pub(super) fn verify(a: VerifyArgs, out: &mut dyn Write) -> Result<Outcome> {
    let checker = a.checker.unwrap_or_else(|| PathBuf::from("cpog-check"));
    let mut progress = |name: &str| {
        eprintln!("c checking term {name}");
    };
    let v = certify::verify(&a.dir, &checker, &mut progress)?;
    for t in &v.terms {
        writeln!(
            out,
            "c term {}: {} x {} (FULL-PROOF SUCCESS, {:.2} s)",
            t.name, t.multiplicity, t.count, t.seconds
        )?;
    }
    let sum: Vec<String> = v.terms.iter().map(|t| format!("{} x {}", t.multiplicity, t.count)).collect();
    writeln!(out, "c ({}) / {} = {}", sum.join(" + "), v.order, v.count)?;
    writeln!(out, "s mc {}", v.count)?;
    Ok(Outcome::Done)
}
