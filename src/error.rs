//! The library's one error type: what went wrong, typed, and no process exit code.
//!
//! Invariant: each variant is either the caller's input at fault ([`Error::Puzzle`],
//! [`Error::Model`], [`Error::Usage`], [`Error::Read`]), a failure while running on good
//! input ([`Error::Failed`], [`Error::Write`], [`Error::Io`]), or a stop asked for from
//! outside ([`Error::Interrupted`]): [`Error::class`] says which, and each front end maps
//! the three classes to its own terms (the `polycover` binary to the exit codes 2, 1 and
//! 128 + the signal; the Python module to `PuzzleError`, `PolycoverError` and
//! `KeyboardInterrupt`).
//!
//! A message that names a setting of the caller's names it as a [`Setting`], which each
//! front end words ([`Error::render`]); `Display` words it plainly.

use std::fmt;
use std::path::PathBuf;

use crate::setting::Setting;

/// Everything that can go wrong in the library; its `Display` is the message for a person,
/// in the library's words ([`Error::render`] in a front end's).
#[derive(Debug)]
pub enum Error {
    /// A puzzle file, or a catalog name, that cannot be used. `location` is
    /// `file[:line[:column]]`.
    Puzzle {
        /// `file[:line[:column]]`, or the catalog name.
        location: String,
        /// What is wrong there.
        reason: String,
    },

    /// A model or solver answer that does not decode into a valid solution.
    Model {
        /// Where the model came from (`file[:line]`).
        location: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A command-line request that cannot be honoured (e.g. reflections on a chiral set).
    Usage(String),

    /// Something went wrong while running on good input: engines that disagree, a count
    /// that differs from the published one, a solver that failed.
    Failed(String),

    /// An input that cannot be read (a missing puzzle file, a model file).
    Read {
        /// The file that could not be read.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },

    /// An output that cannot be written (a full disk, a directory in the way).
    Write {
        /// The file that could not be written.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },

    /// Any other input or output failure while running (a closed pipe included).
    Io(std::io::Error),

    /// A stop asked for from outside (a raised `Stop`: Ctrl-C, SIGTERM or
    /// SIGHUP in the binary) ended a run that keeps nothing of a stopped one; the text says
    /// how far it got.
    Interrupted(String),
}

/// Whose the fault is: what a front end needs to choose its exit code or exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// The caller's input: a puzzle file, a model, a request, a file that cannot be read.
    Input,
    /// A failure while running on good input.
    Failure,
    /// A stop raised from outside ended the work.
    Interrupted,
}

/// The library's `Result`, with [`Error`] by default.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Whose fault the error is (see [`ErrorClass`]).
    ///
    /// ```
    /// use polycover::{Error, ErrorClass};
    /// assert_eq!(Error::Usage("no such engine".into()).class(), ErrorClass::Input);
    /// assert_eq!(Error::Failed("counts differ".into()).class(), ErrorClass::Failure);
    /// ```
    pub fn class(&self) -> ErrorClass {
        match self {
            Error::Puzzle { .. } | Error::Model { .. } | Error::Usage(_) | Error::Read { .. } => {
                ErrorClass::Input
            }
            Error::Failed(_) | Error::Write { .. } | Error::Io(_) => ErrorClass::Failure,
            Error::Interrupted(_) => ErrorClass::Interrupted,
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

    /// The message, each setting it names worded by `words` (given the setting and the
    /// value the message names with it, if any): the command line's flags, the Python
    /// module's keyword arguments. `Display` is this in the library's words.
    ///
    /// ```
    /// use polycover::{Problem, Setting, SymmetryMode};
    /// let Err(err) = Problem::load("soma", Some(SymmetryMode::Stack)) else { panic!() };
    /// let flag = |s: Setting, v: Option<&str>| match v {
    ///     Some(v) => format!("--{} {v}", s.name()),
    ///     None => format!("--{}", s.name()),
    /// };
    /// assert!(err.render(&flag).contains("counts with --symmetry rotations, reflections, none"));
    /// assert!(err.to_string().contains("counts with symmetry rotations, reflections, none"));
    /// ```
    pub fn render(&self, words: &dyn Fn(Setting, Option<&str>) -> String) -> String {
        let said = |text: &str| Setting::render(text, words);
        match self {
            Error::Puzzle { location, reason } | Error::Model { location, reason } => {
                format!("{location}: {}", said(reason))
            }
            Error::Usage(message) | Error::Failed(message) => said(message),
            Error::Read { path, source } => format!("cannot read {}: {source}", path.display()),
            Error::Write { path, source } => {
                format!("cannot write {}: {source}", path.display())
            }
            Error::Io(e) => e.to_string(),
            Error::Interrupted(how_far) => format!("interrupted: {}", said(how_far)),
        }
    }

    /// An [`Error::Puzzle`] at `location` (`file[:line[:column]]`) saying `reason`.
    pub fn puzzle(location: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::Puzzle {
            location: location.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&Setting::plainly))
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Read { source, .. } | Error::Write { source, .. } => Some(source),
            // Transparent: the I/O error is the message, as its own source's.
            Error::Io(e) => e.source(),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Io(e)
    }
}
