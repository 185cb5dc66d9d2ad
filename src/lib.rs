//! polycover: packing puzzles as exact cover.
//!
//! Data flows one way:
//!
//! ```text
//! puzzle file (TOML) --parse--> Puzzle (a Kind: polycubes | coloured cubes)
//!                                   --compile--> Compiled { Matrix, Group }
//!                                                        |
//!                  Problem: + Reduction (symmetry, computed once)
//!                                                        |
//!          Engine: DLX (reference) | bitset | SAT over the CNF; DIMACS, bench
//! ```
//!
//! A puzzle kind plugs in by implementing [`puzzle::Kind`] (its matrix, its symmetry
//! group, its renderings) and registering in [`puzzle::KINDS`]; an engine plugs in by
//! reading a [`Matrix`] and joining [`Engine`]. Neither knows about the other.
//! `docs/architecture.md` lists the files each change touches.
//!
//! ```
//! use polycover::{Engine, Problem, RunOptions};
//! let soma = Problem::load("soma", None).unwrap(); // rotations, the default
//! let report = soma.count(&Engine::bits(), &RunOptions::default()).unwrap();
//! assert_eq!(report.solutions, 480);
//! ```

#![deny(missing_docs)]

pub(crate) mod burnside;
pub mod catalog;
pub mod certify;
// The sampler's tests (memo and sample) share the integration tests' chi-square test.
#[cfg(test)]
#[path = "../tests/chi_square.rs"]
mod chi_square;
pub mod count;
pub mod design;
pub mod engine;
pub mod error;
pub mod export;
pub mod geometry;
// Reading inputs as the library does: capped, gzip known by its magic bytes, a FIFO
// waited for within a stop. Public for the programs on the library that read inputs of
// their own (the command line's `merge`), in the same words.
pub mod input;
pub mod limits;
pub mod matrix;
// The default budget of a table of counts (`RunOptions::default().memory`).
pub(crate) mod memory;
pub mod parts;
pub(crate) mod picture;
pub mod puzzle;
pub mod sample;
pub mod sat;
pub(crate) mod schedule;
// The native searches: a library user goes through `Engine`.
pub(crate) mod solver;
pub mod stop;
pub(crate) mod subproblems;
// "Did you mean ...?" for the names the library resolves itself, and for those a program
// on it resolves (the lab's engine names), in the same words.
pub mod suggest;
pub mod symmetry;
pub(crate) mod xml;

pub use count::Count;
pub use engine::{Engine, Problem, Report, RunOptions, SatEngine, Scope};
pub use error::{Error, ErrorClass, Result};
pub use matrix::{Item, Matrix};
pub use parts::{PartSpec, Split, Step};
pub use puzzle::{Compiled, Puzzle, SymmetryMode};
pub use stop::Stop;
pub use symmetry::{Group, Reduction, Symmetry};
