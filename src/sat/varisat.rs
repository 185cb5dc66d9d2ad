//! varisat, the pure-Rust reference backend: one solver call per model, each model
//! blocked by a clause before the next call (the loop of `incremental.rs`).
//!
//! varisat 0.2 has no interrupt, but it stops a call at once when writing its proof
//! fails. So every solver gets a proof it writes nowhere: a [`StopWriter`] that drops the
//! bytes and fails as soon as the [`Halt`] says so. varisat buffers its proof and flushes
//! the buffer whenever it fills (every few hundred conflicts) and at the end of every
//! call, so a stop (the deadline, Ctrl-C, a `Break`) ends a running call within
//! milliseconds. The binary DRAT it formats costs little beside the search (measured in
//! `docs/guide/sat-research.md`).
//!
//! Invariants:
//! - As every backend of that loop, a cube's blocking clauses carry a fresh activation
//!   literal and are retired once the cube is exhausted.
//! - A call that the stop ended leaves the solver unusable (varisat marks a failed proof
//!   write as unrecoverable): it answers [`Call::Interrupted`], after which the loop ends
//!   and the worker drops the solver; it is never called again.
//! - A failed proof write is a stop only when the stop was asked for: the writer fails
//!   for no other reason, so any other varisat error is reported as a failure.

use std::io;

use varisat::ExtendFormula;

use super::cnf::Formula;
use super::incremental::{Assume, Call, Enumerator};
use super::search::{Halt, ModelSink, LOAD_STOP_EVERY};
use crate::error::{Error, Result};

fn lits(dimacs: &[i32]) -> Vec<varisat::Lit> {
    dimacs.iter().map(|&l| Varisat::lit(l)).collect()
}

/// The proof target of every enumerating varisat solver: writes nothing, and fails once
/// the stop is asked for, which ends varisat's running call.
pub(super) struct StopWriter<F: Fn() -> bool>(pub(super) F);

impl<F: Fn() -> bool> io::Write for StopWriter<F> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if (self.0)() {
            // Not `ErrorKind::Interrupted`, which `write_all` retries for ever.
            return Err(io::Error::other("stopped"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The varisat solver, as the enumeration loop calls it.
pub(crate) struct Varisat {
    solver: varisat::Solver<'static>,
    stop: Halt,
}

impl Assume for Varisat {
    type Lit = varisat::Lit;

    fn lit(dimacs: i32) -> varisat::Lit {
        varisat::Lit::from_dimacs(dimacs as isize)
    }

    fn solve(&mut self, assumptions: &[varisat::Lit]) -> Result<Call> {
        self.solver.assume(assumptions);
        match self.solver.solve() {
            Ok(true) => Ok(Call::Sat),
            Ok(false) => Ok(Call::Unsat),
            Err(varisat::solver::SolverError::ProofIoError { .. }) if self.stop.now() => {
                Ok(Call::Interrupted)
            }
            Err(e) => Err(Error::Failed(format!("varisat failed: {e}"))),
        }
    }

    fn model(&mut self, num_primary: u32, solution: &mut Vec<u32>) -> Result<()> {
        let model = self.solver.model().expect("a model after SAT");
        solution.clear();
        solution.extend(
            model
                .iter()
                .filter(|l| l.is_positive() && (l.var().index() as u32) < num_primary)
                .map(|l| l.var().index() as u32),
        );
        solution.sort_unstable();
        Ok(())
    }

    fn add_clause(&mut self, dimacs: &[i32]) -> Result<()> {
        self.solver.add_clause(&lits(dimacs));
        Ok(())
    }
}

/// A varisat worker.
pub(crate) type Solver = Enumerator<Varisat>;

impl Enumerator<Varisat> {
    /// The formula loaded; `None` when the stop came while loading.
    pub(crate) fn new(formula: &Formula, sink: ModelSink, stop: Halt) -> Option<Solver> {
        let mut solver = varisat::Solver::new();
        // Before any clause: varisat takes a proof target only on an empty formula.
        let polled = stop.clone();
        solver.write_proof(
            StopWriter(move || polled.now()),
            varisat::ProofFormat::Varisat,
        );
        for (k, c) in formula.clauses().enumerate() {
            if k % LOAD_STOP_EVERY == 0 && stop.now() {
                return None;
            }
            solver.add_clause(&lits(&c));
        }
        let stop_of_loop = stop.clone();
        Some(Enumerator::with(
            Varisat { solver, stop },
            formula,
            sink,
            stop_of_loop,
        ))
    }
}
