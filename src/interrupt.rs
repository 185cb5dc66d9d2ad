//! Ctrl-C: a clean stop for the searches that can stop cleanly, and the usual immediate
//! exit (code 130) for everything else.
//!
//! Invariant: the handler sets the flag only while some search has said, with a
//! [`Listening`] guard, that it polls [`requested`]; otherwise the process exits at once,
//! as it would without a handler.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Once;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static LISTENERS: AtomicUsize = AtomicUsize::new(0);
static INSTALL: Once = Once::new();

/// The exit code of a run stopped by Ctrl-C (128 + SIGINT).
pub const EXIT_CODE: i32 = 130;

/// Installs the handler (once per process; later calls do nothing). A process that cannot
/// install it keeps the default behaviour.
pub fn install() {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if LISTENERS.load(Ordering::SeqCst) == 0 || REQUESTED.swap(true, Ordering::SeqCst) {
                // Nobody polls, or this is the second Ctrl-C: stop now.
                std::process::exit(EXIT_CODE);
            }
        });
    });
}

/// Whether Ctrl-C was pressed while a search was listening.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Held by a search that polls [`requested`] and stops cleanly.
pub struct Listening(());

impl Listening {
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
