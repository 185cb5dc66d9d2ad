//! The SAT side: the exact-cover matrix as CNF, and its models counted, enumerated or
//! written out.
//!
//! - `cnf`: the compiler (one primary variable per option, exactly-one per item);
//! - `amo` ([`Amo`]): the selectable at-most-one encodings;
//! - `card`: the cardinality constraints of items covered more than once;
//! - `lex`: the lex-leader chains that keep one model per orbit of solutions (shared
//!   with the OPB export);
//! - `vars`: the primary variables' numbering, which every clause builder shares;
//! - `dimacs` ([`Formula::write`], [`Answer`]): DIMACS out, SAT-competition answers in;
//! - `proof` ([`Refutation`]): a refutation with a DRAT proof, for an independent checker;
//! - enumeration (`for_each_model`, reached through [`crate::problem::Problem`]): models found by an embedded solver and blocked one by
//!   one, over cubes from the native search, on any number of threads;
//! - the backends: CaDiCaL steered by the MRV propagator (`propagator`, `cadical`),
//!   varisat (`varisat`), the pure-Rust reference, and MiniSat, Glucose and Kissat
//!   through rustsat's solver crates (`bundled`).
//!
//! Invariants, for every backend, encoding and symmetry mode:
//! - a reported model has been checked against the matrix as an exact cover first;
//! - each solution the native engines count is reported exactly once.

pub(crate) mod amo;
pub(crate) mod card;
pub(crate) mod cnf;
mod config;
pub(crate) mod dimacs;
mod enumerate;
mod incremental;
pub(crate) mod lex;
pub(crate) mod proof;
mod search;
mod varisat;
mod vars;

#[cfg(feature = "c-solvers")]
mod bundled;
#[cfg(feature = "cadical")]
mod cadical;
#[cfg(feature = "cadical")]
mod propagator;

pub use amo::Amo;
pub(crate) use cnf::compile_until;
pub use cnf::{Formula, Size};
pub(crate) use config::{lazy_rule, Backend, Decide, SatEngine, Strategy};
pub use dimacs::{Answer, Projection};
pub use proof::Refutation;
// The enumeration itself is reached through `crate::problem::Problem`.
pub(crate) use enumerate::{for_each_model, SatOptions};
