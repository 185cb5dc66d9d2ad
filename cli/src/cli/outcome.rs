//! How a command ended, and the one mapping from that to the process exit code.
//!
//! Invariants:
//! - Command bodies return `Result<Outcome>`, never a bare exit code; [`exit_code`] is the
//!   only place a code is chosen (an error's in [`error_code`], by the class of the
//!   library's typed [`Error`], which carries no code of its own).
//! - A run stopped by its deadline exits 1 on every path: as [`Outcome::Stopped`] where
//!   the command reports the stop on `c`/`s` lines, as [`Error::Failed`] where it refuses
//!   to keep what it made (a part's file that is not whole).

use polycover::Report;
use polycover::{Error, ErrorClass, Result};

/// How a command that did not fail ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A count, a listing, a file written: exit 0.
    Done,
    /// A solution (`s SATISFIABLE`): exit 10.
    Satisfiable,
    /// None (`s UNSATISFIABLE`): exit 20.
    Unsatisfiable,
    /// The deadline stopped the run, or a solver stopped without an answer, and what it
    /// found is reported (`s UNKNOWN`): exit 1, a failure while running.
    Stopped,
    /// A signal stopped the run and what it found is reported: 128 + the signal.
    Interrupted,
}

impl Outcome {
    /// How a run that did not finish ended: by a signal, else by its deadline.
    pub(super) fn unfinished(report: &Report) -> Outcome {
        if report.interrupted {
            Outcome::Interrupted
        } else {
            Outcome::Stopped
        }
    }
}

/// The process exit code for a command's result.
pub(super) fn exit_code(result: &Result<Outcome>) -> i32 {
    match result {
        Ok(Outcome::Done) => 0,
        Ok(Outcome::Satisfiable) => 10,
        Ok(Outcome::Unsatisfiable) => 20,
        Ok(Outcome::Stopped) => 1,
        Ok(Outcome::Interrupted) => crate::signals::exit_code(),
        // A closed pipe on standard output (`polycover enumerate bedlam | head`) is a
        // normal way to stop reading, not a failure.
        Err(e) if e.is_broken_pipe() => 0,
        Err(e) => error_code(e),
    }
}

/// The exit code of an error, following the SAT conventions where they apply: 2 for bad
/// input or usage (a bad puzzle file, model or option, a missing file), 1 for a failure
/// while running (a count that differs from the file's `[expect]` or from another
/// engine, a solver that failed, an output that cannot be written, a run stopped by its
/// deadline), 128 + the signal for a run a signal stopped (130, 143, 129). 0, 10 and 20
/// are not errors: done, satisfiable, unsatisfiable.
fn error_code(e: &Error) -> i32 {
    match e.class() {
        ErrorClass::Input => 2,
        ErrorClass::Failure => 1,
        ErrorClass::Interrupted => crate::signals::exit_code(),
    }
}

/// How a command whose answer is an `s` line ends on an error that says its deadline
/// stopped it (`stopped by the timeout ...`, an [`Error::Failed`]): as every stop by the
/// deadline, `c` and those words, `s UNKNOWN`, exit 1. Any other error stays the error.
pub(super) fn unknown_at_deadline(out: &mut dyn std::io::Write, e: Error) -> Result<Outcome> {
    match e {
        Error::Failed(why) if why.starts_with("stopped by the timeout") => {
            writeln!(out, "c {why}")?;
            writeln!(out, "s UNKNOWN")?;
            Ok(Outcome::Stopped)
        }
        e => Err(e),
    }
}
