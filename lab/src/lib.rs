//! polycover's laboratory: benchmarks of its engines and encodings against the native
//! DLX and against external solvers and model counters (`bench`), benchmark families of
//! generated puzzles as SAT Competition submissions describe them (`suite`), their GBD
//! hashes (`gbd`), and the peak memory each run took (`memory`). The command line serves
//! it as `polycover bench` and `polycover suite`.
//!
//! Invariants:
//! - The lab reaches the library through its public API only, and never the command
//!   line: what it needs from the program that runs it (its stop, how `suite` writes
//!   files) it is given ([`bench::Plan::stop`], [`suite::Env`]).
//! - It installs no signal handler and chooses no exit code.

// The library's modules at this crate's root, so that `crate::sat` in the lab's files
// is the library's `sat`.
use polycover::{export, sat, Stop};

pub mod bench;

pub mod gbd;
pub mod memory;
pub mod suite;
