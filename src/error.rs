//! The crate's one error type and its mapping to process exit codes.
//!
//! Exit codes follow the SAT conventions where they apply, and each means one thing:
//!
//! | code | meaning |
//! |------|---------|
//! | 0    | done (a count, a listing, a file written) |
//! | 10, 20 | answers, not errors: satisfiable, unsatisfiable |
//! | 2    | bad input or usage: a bad puzzle file, model or option, a missing file |
//! | 1    | a failure while running: a count that differs from the file's `[expect]` or from another engine, a solver that failed, an output that cannot be written, a run stopped by its deadline |
//! | 130, 143, 129 | interrupted: by Ctrl-C (SIGINT), SIGTERM or SIGHUP (128 + the signal) |

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A puzzle file, or a catalog name, that cannot be used. `location` is
    /// `file[:line[:column]]`.
    #[error("{location}: {reason}")]
    Puzzle { location: String, reason: String },

    /// A model or solver answer that does not decode into a valid solution.
    #[error("{location}: {reason}")]
    Model { location: String, reason: String },

    /// A command-line request that cannot be honoured (e.g. reflections on a chiral set).
    #[error("{0}")]
    Usage(String),

    /// Something went wrong while running on good input: engines that disagree, a count
    /// that differs from the published one, a solver that failed.
    #[error("{0}")]
    Failed(String),

    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },

    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },

    #[error(transparent)]
    Io(#[from] std::io::Error),

    /// Ctrl-C, SIGTERM or SIGHUP stopped a run; the text says how far it got.
    #[error("interrupted: {0}")]
    Interrupted(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Puzzle { .. } | Error::Model { .. } | Error::Usage(_) | Error::Read { .. } => 2,
            Error::Failed(_) | Error::Write { .. } | Error::Io(_) => 1,
            Error::Interrupted(_) => crate::interrupt::exit_code(),
        }
    }

    /// A closed pipe on standard output (`polycover enumerate bedlam | head`) is a normal
    /// way to stop reading, not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            Error::Io(e) | Error::Write { source: e, .. } => {
                e.kind() == std::io::ErrorKind::BrokenPipe
            }
            _ => false,
        }
    }

    pub(crate) fn puzzle(location: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::Puzzle {
            location: location.into(),
            reason: reason.into(),
        }
    }
}
