//! What every command is handed once, before it starts: its stop.
//!
//! Invariants:
//! - One context per command, made by `cli/mod.rs::run` from the process's stop (the one
//!   the signal handlers raise, `signals::install`) and the command's `--timeout`; no
//!   part of a command fetches a stop from anywhere else.
//! - A step with a deadline of its own (the design search's `--timeout` after its draws)
//!   runs on a narrowed copy ([`Context::narrowed`]): the same flag, so a signal still
//!   stops it.

use std::time::Instant;

use polycover::Stop;

/// The command's context.
#[derive(Clone, Debug)]
pub(crate) struct Context {
    stop: Stop,
}

impl Context {
    /// The context of a command whose stop is `stop` (the signals' stop, with the
    /// command's deadline).
    pub(crate) fn new(stop: Stop) -> Context {
        Context { stop }
    }

    /// The command's stop: its deadline (`--timeout`, counted from the start), raised by
    /// a signal. The library's run options, the output writers and every wait poll it.
    pub(crate) fn stop(&self) -> &Stop {
        &self.stop
    }

    /// This context with the earlier of its deadline and `deadline`.
    pub(crate) fn narrowed(&self, deadline: Option<Instant>) -> Context {
        Context {
            stop: self.stop.until(deadline),
        }
    }
}
