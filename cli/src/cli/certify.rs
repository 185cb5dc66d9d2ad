//! `count --certify DIR` and `verify DIR`: writing a certificate of a count, and checking
//! one with an outside checker.
//!
//! Invariants: the directory is checked before the count runs; the certificate's count
//! must equal the engine's, or the command fails (exit 1) and keeps no file; `verify`
//! prints only what the checker computed.

use super::context::Context;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::args::VerifyArgs;
use super::outcome::Outcome;
use polycover::Engine;
use polycover::Problem;
use polycover::Report;
use polycover::{Error, Result};

/// Refuses a certificate directory that cannot be one, before any work: a file, or,
/// unless `force`, a directory that holds anything (an earlier certificate's terms would
/// stay beside the new one's, and its `MANIFEST` would be replaced). With `force`, an
/// earlier certificate's files are removed first.
pub(super) fn check_dir(dir: &Path, parts: bool, force: bool) -> Result<()> {
    if parts {
        return Err(Error::Usage(
            "--certify certifies a whole count: it cannot be combined with --part or \
             --checkpoint"
                .into(),
        ));
    }
    let owns = |name: &str| {
        matches!(name, "MANIFEST" | "README")
            || [".cnf", ".cpog", ".partial"]
                .iter()
                .any(|e| name.ends_with(e))
    };
    if !dir.exists() {
        // Made by the writer, where the library's rule allows (asked here, before the
        // count): a count refused later (its certificate too large) leaves nothing behind.
        return polycover::certify::Certificate::check_dir(dir);
    }
    let removed = crate::output::check_directory(
        dir,
        force,
        "--certify writes a certificate's CNFs, CPOG files, MANIFEST and README",
        &owns,
    )?;
    if removed > 0 {
        eprintln!(
            "c {}: removed {removed} file{} of an earlier certificate (--force)",
            dir.display(),
            if removed == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// Free bytes on the file system of `dir` (or of its nearest existing ancestor).
fn free_bytes(dir: &Path) -> Option<u64> {
    let mut at = dir;
    while !at.exists() {
        at = at
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
    }
    let c = std::ffi::CString::new(at.as_os_str().as_encoded_bytes()).ok()?;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a zeroed struct the call fills.
    (unsafe { libc::statvfs(c.as_ptr(), &mut st) } == 0)
        .then(|| st.f_bavail as u64 * st.f_frsize as u64)
}

/// On a terminal, what the certificate's files weigh so far, as the writer tells it
/// (`Certificate::write`'s `written`): a large one takes minutes (the 16x16 dominoes'
/// 15 GB, seven). Stops when dropped.
struct Written {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// The bytes written so far, as the writer last told.
    bytes: std::sync::Arc<std::sync::atomic::AtomicU64>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Written {
    /// The line, on a terminal; its byte count either way, for the writer to tell.
    fn watch() -> Written {
        use std::io::IsTerminal;
        use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let bytes = std::sync::Arc::new(AtomicU64::new(0));
        let thread = std::io::stderr().is_terminal().then(|| {
            let (stopped, told) = (stop.clone(), bytes.clone());
            std::thread::spawn(move || {
                let bar = indicatif::ProgressBar::new_spinner();
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "c certificate: {msg}, {elapsed} elapsed",
                    )
                    .expect("a valid template"),
                );
                while !stopped.load(Ordering::Relaxed) {
                    let mb = told.load(Ordering::Relaxed) as f64 / 1e6;
                    bar.set_message(format!("{mb:.1} MB written"));
                    bar.tick();
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
                bar.finish_and_clear();
            })
        });
        Written {
            stop,
            bytes,
            thread,
        }
    }

    /// What the writer calls with the bytes written so far.
    fn tell(&self, bytes: u64) {
        self.bytes
            .store(bytes, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Drop for Written {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Writes the certificate after the engine's count, and compares the two.
pub(super) fn count(
    p: &Problem,
    engine: &Engine,
    report: &Report,
    dir: &Path,
    memory: usize,
    ctx: &Context,
    out: &mut dyn Write,
) -> Result<()> {
    let free = free_bytes(dir);
    polycover::certify::Certificate::check_room(p, engine, &report.solutions, memory as u64, free)?;
    let watch = Written::watch();
    let _partials = crate::signals::register_partials_in(dir);
    let c = polycover::certify::Certificate::write(
        p,
        engine,
        ctx.stop(),
        Some(&report.solutions),
        dir,
        &|bytes| watch.tell(bytes),
    );
    drop(watch);
    let c = c?;
    let (mut cnf, mut cpog, mut nodes, mut secs) = (0, 0, 0, 0.0);
    for t in &c.terms {
        writeln!(
            out,
            "c certificate term {} ({}): {} x {} fixed solutions, {} nodes, {} and {} ({:.2} s)",
            t.name,
            t.symmetry.as_deref().unwrap_or_default(),
            t.multiplicity,
            t.count,
            t.nodes.unwrap_or_default(),
            t.cnf,
            t.cpog,
            t.seconds
        )?;
        cnf += t.cnf_bytes;
        cpog += t.cpog_bytes;
        nodes += t.nodes.unwrap_or_default();
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
pub(super) fn verify(a: VerifyArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    let checker = a.checker.unwrap_or_else(|| PathBuf::from("cpog-check"));
    let mut progress = |name: &str| {
        eprintln!("c checking term {name}");
    };
    let puzzle = a.puzzle.as_ref().map(polycover::Puzzle::load).transpose()?;
    let v = match polycover::certify::Certificate::verify(
        &a.dir,
        &checker,
        puzzle.as_ref(),
        ctx.stop(),
        &mut progress,
    ) {
        Ok(v) => v,
        // A stopped check is no answer, as a stopped count: `c stopped`, `s UNKNOWN`,
        // exit 1 for the timeout and 128 + the signal for a signal.
        Err(Error::Interrupted(why)) => {
            let signalled = crate::signals::signalled();
            let by = if signalled {
                crate::signals::cause()
            } else {
                "the timeout"
            };
            writeln!(out, "c stopped by {by}: {why}")?;
            writeln!(out, "s UNKNOWN")?;
            return Ok(if signalled {
                Outcome::Interrupted
            } else {
                Outcome::Stopped
            });
        }
        Err(e) => return Err(e),
    };
    writeln!(
        out,
        "c puzzle {} ({} symmetry): the terms are the {} classes of a group of {} symmetries \
         of its CNF, derived from the CNFs{}",
        v.puzzle.as_deref().unwrap_or("unnamed"),
        v.mode.map_or("unstated", |m| m.as_str()),
        v.terms.len(),
        v.order,
        match &puzzle {
            Some(p) => format!("; the CNF and the group are those of {}", p.name()),
            None => String::new(),
        }
    )?;
    for t in &v.terms {
        if let Some(theirs) = &t.checker_count {
            writeln!(
                out,
                "c term {}: the checker verified the graph but printed the count {theirs}; the \
                 graph it verified evaluates exactly to {} (the checker's own arithmetic is \
                 wrong here)",
                t.name, t.count
            )?;
        }
        writeln!(
            out,
            "c term {} ({}): {} x {} (FULL-PROOF SUCCESS, {:.2} s)",
            t.name,
            t.symmetry.as_deref().unwrap_or_default(),
            t.multiplicity,
            t.count,
            t.seconds
        )?;
    }
    let sum: Vec<String> = v
        .terms
        .iter()
        .map(|t| format!("{} x {}", t.multiplicity, t.count))
        .collect();
    writeln!(out, "c ({}) / {} = {}", sum.join(" + "), v.order, v.count)?;
    writeln!(out, "s mc {}", v.count)?;
    Ok(Outcome::Done)
}
