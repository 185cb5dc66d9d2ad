//! The binary's signals: Ctrl-C (SIGINT), SIGTERM (`kill`, `timeout(1)`, Slurm's cancel
//! and time limit) and SIGHUP, and a reader that closes the pipe on standard output. They
//! raise the [`Stop`] that [`install`] returns and its handler thread holds a clone of:
//! the command's context carries a copy with the command's deadline, and hands it to
//! the library in its run options. This module is the only one that installs handlers,
//! and the library installs none; no static holds a stop.
//!
//! Invariants:
//! - A signal raises the run's stop only while some search or writer has said, with a
//!   [`Listening`](polycover::Listening) guard, that it polls it; otherwise, and at
//!   a second signal, the process ends at once with `128 + signal` (130, 143, 129).
//! - One command runs per process, with the stop of its context (`cli/context.rs`): a
//!   copy of the one [`install`] made, so a signal raises it.
//! - Ending at once never leaves a temporary output behind: writers [`register`] their
//!   temporary files, and the immediate exit removes every registered one first.
//! - The immediate exit is `_exit`: no destructors or exit handlers run while other
//!   threads (a SAT solver's C++ code) are still working. Standard output is line
//!   buffered, so the `c` lines printed so far have already reached it.
//! - A command whose answer is an `s` line (`count`, `solve`) says so with
//!   [`answer_expected`] until it returns; an immediate exit by a signal meanwhile prints
//!   `c stopped by SIGNAL ...` and `s UNKNOWN` first, so that a script reading the last
//!   `s` line always finds one, whether the signal came before the search listened (while
//!   the puzzle was read or its CNF built) or past the watchdog's grace.
//! - A first SIGTERM or SIGHUP (sent by programs that wait little: `timeout(1)`, Slurm,
//!   a closing terminal) ends the process within [`GRACE`] even when the listening run
//!   is inside a step that polls late (a memo table doubling, a SAT solver's call): a
//!   watchdog then ends it at once, as a second signal would. Ctrl-C has no watchdog: a
//!   person at the terminal presses it again.
//! - When the command's product goes to standard output and that is a pipe, a watcher
//!   notices the reader closing it (`enumerate ... | head -1`) while the search is still
//!   inside a long step (a SAT call), and ends the process quietly with exit code 0, as a
//!   broken pipe does.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, Once};

use polycover::Stop;

/// The first signal that asked for a stop (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Temporary files to remove before an immediate exit.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Directories whose `*.partial` files an immediate exit removes: the library writes a
/// certificate's files under names it chooses as it goes.
static PARTIALS_IN: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Whether the running command answers on an `s` line (see [`answer_expected`]).
static ANSWER_EXPECTED: AtomicBool = AtomicBool::new(false);

const SIGINT: i32 = 2;
const SIGHUP: i32 = 1;
const SIGTERM: i32 = 15;

/// The exit code of a run stopped by Ctrl-C (128 + SIGINT).
pub const EXIT_CODE: i32 = 128 + SIGINT;

/// The exit code of a run stopped by the signal that stopped it: 130 (Ctrl-C), 143
/// (SIGTERM) or 129 (SIGHUP).
pub fn exit_code() -> i32 {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => EXIT_CODE,
        s => 128 + s,
    }
}

/// Whether a signal has asked for a stop (not the deadline).
pub fn signalled() -> bool {
    SIGNAL.load(Ordering::SeqCst) != 0
}

/// What stopped the run, for the `c stopped by ...` lines.
pub fn cause() -> &'static str {
    match SIGNAL.load(Ordering::SeqCst) {
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "Ctrl-C",
    }
}

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP, and returns the stop they
/// raise: the process's one stop, of which each command's is a copy with its deadline
/// ([`Stop::until`] shares the flag and its listeners). Called once, by `main`, before
/// anything that can take time. A process that cannot install them keeps the default
/// behaviour.
pub fn install() -> Stop {
    let stop = Stop::new();
    let heard = stop.clone();
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            let _ = std::thread::Builder::new()
                .name("signals".into())
                .spawn(move || {
                    for signal in signals.forever() {
                        stop_by(signal, &heard);
                    }
                });
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrlc::set_handler(move || stop_by(SIGINT, &heard));
    }
    stop
}

/// How long a listening run has to end cleanly after a first SIGTERM or SIGHUP before
/// the watchdog ends it at once: under the second that those who send it allow.
pub const GRACE: std::time::Duration = std::time::Duration::from_millis(900);

/// The stop request of `signal`: the flag for a listening run, else (or the second time)
/// the immediate exit.
fn stop_by(signal: i32, stop: &Stop) {
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    if !stop.listening() || stop.raise() {
        exit_now(128 + signal);
    }
    if signal != SIGINT {
        let code = 128 + SIGNAL.load(Ordering::SeqCst);
        let spawned = std::thread::Builder::new()
            .name("stop-watchdog".into())
            .spawn(move || {
                std::thread::sleep(GRACE);
                exit_now(code);
            });
        if spawned.is_err() {
            exit_now(code);
        }
    }
}

/// Says whether the running command's answer is an `s` line, which an immediate exit
/// by a signal then replaces with `s UNKNOWN` (module doc). Set when such a command
/// starts, cleared when it returns.
pub fn answer_expected(expected: bool) {
    ANSWER_EXPECTED.store(expected, Ordering::SeqCst);
}

/// Removes the registered temporary files and ends the process with `code`; a signal's
/// exit first prints the `s UNKNOWN` of a command that answers on an `s` line.
fn exit_now(code: i32) -> ! {
    if let Ok(files) = TEMPORARY.lock() {
        for f in files.iter() {
            let _ = std::fs::remove_file(f);
        }
    }
    if let Ok(dirs) = PARTIALS_IN.lock() {
        for entry in dirs
            .iter()
            .filter_map(|d| std::fs::read_dir(d).ok())
            .flatten()
        {
            let Ok(entry) = entry else { continue };
            if entry.file_name().to_string_lossy().ends_with(".partial") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    if code > 128 && ANSWER_EXPECTED.load(Ordering::SeqCst) {
        let words = format!(
            "c stopped by {} and ended at once: nothing found so far is reported\ns UNKNOWN\n",
            cause()
        );
        // One raw write past the line-buffered `Stdout`, whose lock a stopped thread may
        // hold: every line printed before has been flushed already.
        #[cfg(unix)]
        // Safety: a valid buffer and its length; a failed write is ignored.
        unsafe {
            libc::write(1, words.as_ptr().cast(), words.len());
        }
        #[cfg(not(unix))]
        {
            use std::io::Write;
            let _ = std::io::stdout().write_all(words.as_bytes());
        }
    }
    #[cfg(unix)]
    // Safety: _exit takes a plain integer and never returns; it runs no destructors, so
    // threads still inside a solver are not torn down under their feet.
    unsafe {
        libc::_exit(code)
    }
    #[cfg(not(unix))]
    std::process::exit(code)
}

/// A temporary file that an immediate exit removes, while the guard lives.
pub struct Registered(PathBuf);

/// Registers `path` for removal at an immediate exit, until the guard is dropped.
pub fn register(path: &Path) -> Registered {
    if let Ok(mut files) = TEMPORARY.lock() {
        files.push(path.to_path_buf());
    }
    Registered(path.to_path_buf())
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut files) = TEMPORARY.lock() {
            if let Some(i) = files.iter().rposition(|f| *f == self.0) {
                files.swap_remove(i);
            }
        }
    }
}

/// A directory whose `*.partial` files an immediate exit removes, while the guard lives.
pub struct PartialsIn(PathBuf);

/// Registers `dir`, which the command alone writes `*.partial` files into (a certificate
/// directory, checked empty before the work), until the guard is dropped.
pub fn register_partials_in(dir: &Path) -> PartialsIn {
    if let Ok(mut dirs) = PARTIALS_IN.lock() {
        dirs.push(dir.to_path_buf());
    }
    PartialsIn(dir.to_path_buf())
}

impl Drop for PartialsIn {
    fn drop(&mut self) {
        if let Ok(mut dirs) = PARTIALS_IN.lock() {
            if let Some(i) = dirs.iter().rposition(|d| *d == self.0) {
                dirs.swap_remove(i);
            }
        }
    }
}

/// Watches standard output when it is a pipe: once its reader is gone, nothing the
/// command still does can reach anyone, so the process ends (exit 0, quietly, as for a
/// broken pipe) instead of finishing a search whose results would be thrown away. Call it
/// only when standard output carries the command's product, not when that goes to a file.
pub fn watch_stdout() {
    #[cfg(target_os = "linux")]
    {
        static WATCH: Once = Once::new();
        WATCH.call_once(|| {
            use std::os::unix::fs::FileTypeExt;
            let is_pipe =
                std::fs::metadata("/proc/self/fd/1").is_ok_and(|m| m.file_type().is_fifo());
            if !is_pipe {
                return;
            }
            let _ = std::thread::Builder::new()
                .name("stdout-watch".into())
                .spawn(|| loop {
                    let mut fd = libc::pollfd {
                        fd: 1,
                        events: 0,
                        revents: 0,
                    };
                    // Safety: one valid pollfd; POLLERR and POLLHUP are reported without
                    // being asked for, and a pipe's write end gets POLLERR once no reader is
                    // left.
                    let n = unsafe { libc::poll(&mut fd, 1, -1) };
                    if n > 0 && fd.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0 {
                        exit_now(0);
                    }
                    if n < 0
                        && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
                    {
                        return;
                    }
                });
        });
    }
}
