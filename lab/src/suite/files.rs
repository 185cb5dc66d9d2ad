//! What a suite needs from the program that runs it: how its files are written
//! ([`Files`]) and when it stops, together its [`Env`].
//!
//! Invariant: the suite writes nothing but through its `Files`, and polls nothing but its
//! `Env`'s stop: the lab reaches no process-level service of its own.

use std::path::Path;

use crate::Stop;
use polycover::Result;

/// How the program that runs a suite writes its files (the command line's `output`:
/// each file all or nothing, never over an input).
pub trait Files {
    /// Makes `dir` ready before any work: created when missing; one that holds anything
    /// is refused unless `force`, which removes the entries `owns` (a file name) says are
    /// of the kinds written there (the number removed is returned). `writes` says what
    /// the command writes, for the refusal.
    fn check_directory(
        &self,
        dir: &Path,
        force: bool,
        writes: &str,
        owns: &dyn Fn(&str) -> bool,
    ) -> Result<usize>;
    /// Refuses a file that could not be written, before any work.
    fn check_writable(&self, path: &Path) -> Result<()>;
    /// Writes `bytes` as the file `path`.
    fn write(&self, path: &Path, bytes: &[u8]) -> Result<()>;
}

/// What a suite needs from the program that runs it.
pub struct Env<'a> {
    /// Where its files go.
    pub files: &'a dyn Files,
    /// Its stop: raised, the suite ends (with an error); each count adds the count
    /// timeout to it.
    pub stop: Stop,
}
