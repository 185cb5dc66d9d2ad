//! Stopping a run early, as a value: a [`Stop`] is a flag that anyone holding a clone of
//! it may raise, and a deadline.
//!
//! A run takes its `Stop` in `RunOptions` (and puzzle reading in
//! `Puzzle::load_with`); every search and reader polls it and,
//! once it says stop, returns what it found so far with
//! `Report::interrupted` or
//! `Report::timed_out` set. Two runs with two `Stop`s stop
//! one at a time; one `Stop` shared by several runs stops them all.
//!
//! The library installs no signal handler and keeps no stop of its own: a program that
//! wants Ctrl-C to stop a count raises the `Stop` of the run in flight from its handler
//! (the `polycover` binary does, for SIGINT, SIGTERM and SIGHUP).
//!
//! ```
//! use polycover::{Engine, Problem, RunOptions, Stop};
//!
//! let bedlam = Problem::load("bedlam", None)?;
//! let stop = Stop::new();
//! let opts = RunOptions { stop: stop.clone(), ..RunOptions::default() };
//! let raiser = std::thread::spawn(move || {
//!     std::thread::sleep(std::time::Duration::from_millis(200));
//!     stop.raise();
//! });
//! let report = bedlam.count(&Engine::bits(), &opts)?;
//! raiser.join().unwrap();
//! assert!(!report.complete && report.interrupted);
//! # Ok::<(), polycover::Error>(())
//! ```
//!
//! Invariants:
//! - The flag is raised once and never lowered: a stopped `Stop` stays stopped. A caller
//!   that goes on after a stop makes a new `Stop` for its next run.
//! - Clones share the flag, the count of listeners, and the deadline; [`Stop::until`]
//!   makes one that shares the flag and listeners with an earlier (never later) deadline.
//! - Every search and writer that polls a `Stop` holds a [`Listening`] guard from
//!   [`Stop::listen`] while it does, so that a signal handler can tell with
//!   [`Stop::listening`] whether raising the flag would be heard at all (and end the
//!   process itself when it would not).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A stop flag and a deadline, shared by clones.
///
/// ```
/// use polycover::Stop;
/// let stop = Stop::new();
/// let heard = stop.clone();
/// assert!(!heard.should_stop());
/// assert!(!stop.raise()); // not raised before
/// assert!(heard.should_stop() && heard.raised() && !heard.timed_out());
///
/// let soon = Stop::after(std::time::Duration::ZERO);
/// assert!(soon.should_stop() && soon.timed_out() && !soon.raised());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Stop {
    shared: Arc<Shared>,
    deadline: Option<Instant>,
}

#[derive(Debug, Default)]
struct Shared {
    raised: AtomicBool,
    listeners: AtomicUsize,
}

impl Stop {
    /// A stop with no deadline, not raised.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// A stop whose deadline is `after` from now (none when that lies beyond what the
    /// clock can say).
    ///
    /// The clock starts when the `Stop` is made, not when a run starts: everything done
    /// between (loading the puzzle, `Engine`'s preparation, a second run with
    /// the same options) spends the same deadline. For a timeout of the run alone, make
    /// the `Stop` (and its `RunOptions`) just before the run.
    pub fn after(after: Duration) -> Stop {
        Stop::new().within(after)
    }

    /// A stop sharing this one's flag, with a deadline `after` from now at most (the earlier
    /// of that and its own): a step of a run with a time limit of its own.
    pub fn within(&self, after: Duration) -> Stop {
        self.until(Instant::now().checked_add(after))
    }

    /// A stop sharing this one's flag, with the earlier of its deadline and `deadline`.
    pub fn until(&self, deadline: Option<Instant>) -> Stop {
        let deadline = match (self.deadline, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Stop {
            shared: Arc::clone(&self.shared),
            deadline,
        }
    }

    /// Raises the flag: every run polling this stop (or a clone) stops at its next poll.
    /// Returns whether it was raised before (a second Ctrl-C).
    pub fn raise(&self) -> bool {
        self.shared.raised.swap(true, Ordering::SeqCst)
    }

    /// Whether the flag was raised ([`Stop::raise`]).
    pub fn raised(&self) -> bool {
        self.shared.raised.load(Ordering::Relaxed)
    }

    /// The deadline, if there is one.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the deadline has passed.
    pub fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether to stop now: the flag is raised or the deadline has passed.
    pub fn should_stop(&self) -> bool {
        self.raised() || self.timed_out()
    }

    /// Says that the caller polls this stop until the guard is dropped.
    pub fn listen(&self) -> Listening {
        self.shared.listeners.fetch_add(1, Ordering::SeqCst);
        Listening(Arc::clone(&self.shared))
    }

    /// Whether some search or writer polls this stop now (holds a [`Listening`]).
    pub fn listening(&self) -> bool {
        self.shared.listeners.load(Ordering::SeqCst) > 0
    }
}

/// Held by a search or writer that polls a [`Stop`] and stops cleanly ([`Stop::listen`]).
#[must_use = "the guard says the caller is listening only while it lives"]
#[derive(Debug)]
pub struct Listening(Arc<Shared>);

impl Drop for Listening {
    fn drop(&mut self) {
        self.0.listeners.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag_and_until_keeps_the_earlier_deadline() {
        let stop = Stop::new();
        let later = Instant::now() + Duration::from_secs(3600);
        let child = stop.until(Some(later));
        assert_eq!(child.deadline(), Some(later));
        let sooner = child.until(Some(Instant::now()));
        assert!(sooner.timed_out());
        assert_eq!(sooner.until(Some(later)).deadline(), sooner.deadline());
        assert!(!stop.should_stop());
        child.raise();
        assert!(stop.raised() && sooner.raised());
        let other = Stop::new();
        assert!(!other.should_stop(), "a new stop is its own");
        let step = other.within(Duration::ZERO);
        assert!(step.timed_out() && !other.timed_out());
        step.raise();
        assert!(other.raised(), "a step's stop shares its run's flag");
    }

    #[test]
    fn listening_lasts_as_long_as_the_guard() {
        let stop = Stop::new();
        assert!(!stop.listening());
        let guard = stop.clone().listen();
        assert!(stop.listening());
        drop(guard);
        assert!(!stop.listening());
    }
}
