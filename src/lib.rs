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
//!          Engine: DLX (reference) | bitset | memo | frontier | SAT over the CNF
//!                  |                       |                    |
//!          solutions, counts      certificates (certify)   DIMACS, OPB, ... (export)
//! ```
//!
//! A puzzle kind plugs in by implementing the crate's `Kind` trait (its matrix, its
//! symmetry group, its renderings) and registering in its list of kinds (`puzzle::KINDS`);
//! an engine plugs in by reading a [`Matrix`] and joining [`Engine`]. Neither knows about the other.
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
mod catalog;
pub mod certify;
// The sampler's tests (memo and sample) share the integration tests' chi-square test.
#[cfg(test)]
#[path = "../tests/chi_square.rs"]
mod chi_square;
mod count;
pub mod design;
pub mod engine;
mod error;
pub mod export;
mod geometry;
// Reading inputs as the library does: capped, gzip known by its magic bytes, a FIFO
// waited for within a stop. A program on the library that reads inputs of its own (the
// command line's `merge`) reads them in the same words: `open_capped` at the root, and
// `Error::size_name` for the limits its messages name.
mod input;
mod limits;
mod matrix;
// The default budget of a table of counts (`RunOptions::default().memory`).
pub(crate) mod memory;
mod parts;
pub(crate) mod picture;
mod problem;
mod puzzle;
pub mod sat;
pub(crate) mod schedule;
mod setting;
mod solution;

pub mod kinds {
    //! What the puzzle kinds tell beyond a [`Puzzle`](crate::Puzzle): BurrTools files
    //! read and random puzzles generated. The
    //! kinds' own types are private: a kind is registered in the crate (its file and one
    //! line of the registry), and a [`Puzzle`](crate::Puzzle) answers for every kind.
    pub use crate::puzzle::burrtools::{BurrTools, BurrToolsProblem};
    pub use crate::puzzle::polycube::generate::{Generated, Generator};
}
// The native searches: a library user goes through `Engine`.
pub(crate) mod solver;
mod stop;
pub(crate) mod subproblems;
// "Did you mean ...?" for the names the library resolves itself, and for those a program
// on it resolves (the lab's engine names), in the same words.
mod suggest;
mod symmetry;
pub(crate) mod xml;

// The library guide's Rust examples run as doctests, so that the guide stays true.
#[cfg(doctest)]
#[doc = include_str!("../docs/guide/library.md")]
struct LibraryGuide;

pub use catalog::CatalogEntry;
pub use count::Count;
pub use engine::handle::Engine;
pub use engine::run::{Report, RunOptions, Scope};
pub use error::{Error, ErrorClass, Result};
pub use input::open_capped;
pub use matrix::{Item, Matrix};
pub use parts::{Split, Step};
pub use problem::Problem;
pub use puzzle::{Puzzle, SymmetryMode};
pub use setting::Setting;
pub use solution::Solution;
pub use stop::{Listening, Stop};
