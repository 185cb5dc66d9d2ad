//! Stopping a search early, from another thread: a process-wide stop flag that the
//! searches poll, and a deadline per thread for work that takes none of its own.
//!
//! The library installs no signal handler. A program that wants Ctrl-C to stop a count
//! calls [`request`] from its own handler (the `polycover` binary does, for SIGINT,
//! SIGTERM and SIGHUP); a search then returns what it found so far, with
//! [`Report::interrupted`](crate::Report::interrupted) set.
//!
//! Invariants:
//! - The stop flag is set once and never cleared by the library itself: a stopped process
//!   does not start searching again. Only an embedder that turns a stop into an error of
//!   its own and goes on (the Python module's `KeyboardInterrupt`) clears it, with
//!   [`clear`], once the searches it stopped have returned.
//! - Every search and writer that polls [`requested`] holds a [`Listening`] guard while it
//!   does, so a handler can tell with [`listening`] whether a request would be heard at
//!   all (and end the process itself when it would not).
//! - The deadline of [`within`] belongs to the calling thread and is restored when `f`
//!   returns, so nested calls and other threads never see each other's.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static LISTENERS: AtomicUsize = AtomicUsize::new(0);

/// Asks every running search to stop at its next poll, and returns whether a stop had
/// already been asked for (a second Ctrl-C).
pub fn request() -> bool {
    REQUESTED.swap(true, Ordering::SeqCst)
}

/// Withdraws a stop asked for with [`request`], so that later searches run. For an
/// embedder that goes on after a stop (an interpreter whose Ctrl-C raises an exception):
/// call it once the searches that the stop was for have returned, since a search still
/// running would no longer stop.
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}

/// Whether a stop has been asked for ([`request`]).
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Whether some search or writer is polling [`requested`] now (holds a [`Listening`]).
pub fn listening() -> bool {
    LISTENERS.load(Ordering::SeqCst) > 0
}

/// Held by a search or writer that polls [`requested`] and stops cleanly.
#[must_use = "the guard says the caller is listening only while it lives"]
pub struct Listening(());

impl Listening {
    /// Says that the caller polls [`requested`] until the guard is dropped.
    pub fn start() -> Listening {
        LISTENERS.fetch_add(1, Ordering::SeqCst);
        Listening(())
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        LISTENERS.fetch_sub(1, Ordering::SeqCst);
    }
}

thread_local! {
    /// The deadline of the work on this thread that takes none of its own: reading a
    /// puzzle and making its option table (see [`within`]).
    static DEADLINE: std::cell::Cell<Option<std::time::Instant>> =
        const { std::cell::Cell::new(None) };
}

/// Runs `f` with `deadline` as this thread's deadline for work that takes none of its
/// own ([`past_deadline`]), then restores the one before.
///
/// ```
/// use polycover::interrupt::{past_deadline, within};
/// let now = std::time::Instant::now();
/// assert!(within(Some(now), past_deadline));
/// assert!(!past_deadline());
/// ```
pub fn within<T>(deadline: Option<std::time::Instant>, f: impl FnOnce() -> T) -> T {
    let before = DEADLINE.with(|d| d.replace(deadline));
    let result = f();
    DEADLINE.with(|d| d.set(before));
    result
}

/// Whether the deadline set by [`within`] on this thread has passed.
pub fn past_deadline() -> bool {
    DEADLINE.with(|d| d.get().is_some_and(|d| std::time::Instant::now() >= d))
}
