//! Each run of an in-process engine in a fresh polycover process, so that the row's peak
//! memory is that run's alone. In one process the high-water mark can be reset
//! (`/proc/self/clear_refs`), but only down to what is resident at that moment: the heap
//! the allocator keeps after Bedlam's rows made Soma's rows read 25-103 MiB instead of
//! 6 MiB. A fresh process starts from the same few MiB whatever ran before, as the
//! external programs' rows do.
//!
//! The child is `polycover bench SPEC --solvers ENGINE --amo AMO ... --measure-once`,
//! which runs [`measure_child`] and prints one [`Sample`] as a JSON line.
//!
//! Invariants: the child gets the parent's puzzle, symmetry mode, threads and timeout,
//! and measures one run exactly as the in-process path does ([`super::sample`]); its
//! standard error passes through, so its own error message is the one shown. Ctrl-C
//! stops the child and then the bench (exit 130); a child left behind by a killed bench
//! is killed with it (Linux).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::{Entrant, Plan, Sample};
use polycover::{Engine, Setting};
use polycover::{Error, Result};
use polycover::{Puzzle, SymmetryMode};

/// The exit code of a polycover child that a Ctrl-C stopped (128 + SIGINT): the bench
/// then stops too, as if it had been stopped itself.
const INTERRUPTED_EXIT: i32 = 130;

/// This process's executable, when it is a polycover binary of this version that takes
/// `bench --measure-once` (it answers `--version` as this library would); `None`
/// otherwise, e.g. in a program that uses the library, and rows are then measured in
/// this process.
pub fn polycover_executable() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let out = Command::new(&exe)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let want = format!("polycover {}", env!("CARGO_PKG_VERSION"));
    (out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == want).then_some(exe)
}

/// The child's side: one run of the plan's one engine (in its one encoding) on its one
/// puzzle, written to `out` as a JSON line.
pub fn measure_child(plan: &Plan, out: &mut dyn Write) -> Result<()> {
    let usage = || {
        Error::Usage(
            "--measure-once takes one puzzle, one in-process engine and one encoding".into(),
        )
    };
    let ([spec], [Entrant::Engine(engine)], [amo]) = (
        plan.puzzles.as_slice(),
        plan.entrants.as_slice(),
        plan.amos.as_slice(),
    ) else {
        return Err(usage());
    };
    let puzzle = Puzzle::load(spec)?;
    let mode = plan.symmetry.unwrap_or(puzzle.default_symmetry());
    let engine = if engine.declares(Setting::Amo) {
        engine.configure([(Setting::Amo, amo.name())])?
    } else {
        engine.clone()
    };
    let sample = super::sample(
        &puzzle,
        &engine,
        mode,
        plan.threads,
        plan.timeout,
        &plan.stop,
    )?;
    let line = serde_json::to_string(&sample)
        .map_err(|e| Error::Failed(format!("writing the sample: {e}")))?;
    writeln!(out, "{line}")?;
    Ok(())
}

/// The parent's side: runs one measurement of `engine` on the puzzle `spec` in a fresh
/// process of `exe`, and reads its sample.
pub(super) fn sample(
    exe: &Path,
    spec: &Path,
    label: &str,
    engine: &Engine,
    mode: SymmetryMode,
    plan: &Plan,
) -> Result<Sample> {
    // Seconds as a decimal the child parses back; a limit beyond any run is no limit.
    let timeout = format!("{}", plan.timeout.as_secs_f64().min(1e15));
    let amo = super::amo_of(engine).unwrap_or(crate::sat::Amo::Product);
    let mut command = Command::new(exe);
    command
        .arg("bench")
        .arg(spec)
        .args(["--solvers", engine.name()])
        .args(["--amo", amo.name()])
        .args(["--symmetry", mode.as_str()])
        .args(["--threads", &plan.threads.to_string()])
        .args(["--timeout", &timeout])
        .arg("--measure-once")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(target_os = "linux")]
    // Safety: the closure runs in the child between fork and exec and only calls
    // prctl(2), which is async-signal-safe.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            // A bench killed by a signal takes its measuring child with it.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let mut child = command.spawn()?;
    let mut stdout = child.stdout.take().expect("piped");
    // The child prints one short line, at its end: reading after the wait cannot fill
    // the pipe. Ctrl-C reaches the child with the terminal's signal; one sent to the
    // bench alone is passed on.
    let listening = plan.stop.listen();
    let mut passed_on = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if plan.stop.raised() && !passed_on {
            passed_on = true;
            #[cfg(unix)]
            // Safety: kill(2) signals our own child by its pid; no memory is involved.
            unsafe {
                libc::kill(child.id() as libc::pid_t, libc::SIGINT);
            }
            #[cfg(not(unix))]
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    drop(listening);
    let mut text = String::new();
    stdout.read_to_string(&mut text)?;
    if plan.stop.raised() || status.code() == Some(INTERRUPTED_EXIT) {
        return Err(Error::Interrupted("bench stopped".into()));
    }
    if !status.success() {
        return Err(Error::Failed(format!(
            "{label}: measuring {} in a fresh process failed ({status})",
            engine.name()
        )));
    }
    let line = text.lines().last().unwrap_or_default();
    serde_json::from_str(line).map_err(|e| {
        Error::Failed(format!(
            "{label}: the measuring process of {} printed no sample ({e}): {line:?}",
            engine.name()
        ))
    })
}
