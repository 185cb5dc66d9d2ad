//! polycover: packing puzzles as exact cover.
//!
//! Data flows one way:
//!
//! ```text
//! puzzle file (TOML) --parse--> Puzzle (polycubes | coloured cubes)
//!                                   --compile--> Compiled { Matrix, Group }
//!                                                        |
//!                       Reduction (symmetry, computed once)
//!                                                        |
//!          engines: DLX (reference), bitset, CNF -> SAT / DIMACS, bench
//! ```
//!
//! A puzzle kind plugs in by compiling to a [`Matrix`] with its symmetry [`Group`]; an
//! engine plugs in by reading a [`Matrix`]. Neither knows about the other.
//!
//! ```
//! use polycover::{Puzzle, Reduction, SymmetryMode, solver};
//! let soma = Puzzle::load("soma").unwrap().compile(SymmetryMode::Rotations).unwrap();
//! let reduction = Reduction::new(&soma.matrix, soma.group.clone());
//! let stats = solver::count(&reduction, solver::RunOptions::default());
//! assert_eq!(stats.solutions, 480);
//! ```

pub mod bench;
pub mod catalog;
pub mod cli;
pub mod engine;
pub mod error;
pub mod geometry;
pub mod interrupt;
pub mod matrix;
pub mod puzzle;
pub mod sat;
pub mod solver;
pub mod symmetry;

pub use engine::{Engine, Problem, Report, RunOptions, SatEngine};
pub use error::{Error, Result};
pub use matrix::{Item, Matrix};
pub use puzzle::{Compiled, Puzzle, SymmetryMode};
pub use symmetry::{Group, Reduction, Symmetry};
