//! varisat, the pure-Rust reference backend: one solver call per model, each model
//! blocked by a clause before the next call (the loop of `incremental.rs`).
//!
//! Invariant: as every backend of that loop, a cube's blocking clauses carry a fresh
//! activation literal and are retired once the cube is exhausted. varisat cannot be
//! interrupted inside a call, so a stop takes effect between calls.

use varisat::ExtendFormula;

use super::cnf::Formula;
use super::incremental::{Assume, Call, Enumerator};
use super::search::{ModelSink, Stop, LOAD_STOP_EVERY};
use crate::error::{Error, Result};

fn lits(dimacs: &[i32]) -> Vec<varisat::Lit> {
    dimacs.iter().map(|&l| Varisat::lit(l)).collect()
}

/// The varisat solver, as the enumeration loop calls it.
pub(crate) struct Varisat(varisat::Solver<'static>);

impl Assume for Varisat {
    type Lit = varisat::Lit;

    fn lit(dimacs: i32) -> varisat::Lit {
        varisat::Lit::from_dimacs(dimacs as isize)
    }

    fn solve(&mut self, assumptions: &[varisat::Lit]) -> Result<Call> {
        self.0.assume(assumptions);
        let sat = self
            .0
            .solve()
            .map_err(|e| Error::Failed(format!("varisat failed: {e}")))?;
        Ok(if sat { Call::Sat } else { Call::Unsat })
    }

    fn model(&mut self, num_primary: u32, solution: &mut Vec<u32>) -> Result<()> {
        let model = self.0.model().expect("a model after SAT");
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
        self.0.add_clause(&lits(dimacs));
        Ok(())
    }
}

/// A varisat worker.
pub(crate) type Solver = Enumerator<Varisat>;

impl Enumerator<Varisat> {
    /// The formula loaded; `None` when the stop came while loading.
    pub(crate) fn new(formula: &Formula, sink: ModelSink, stop: Stop) -> Option<Solver> {
        let mut solver = varisat::Solver::new();
        for (k, c) in formula.clauses().enumerate() {
            if k % LOAD_STOP_EVERY == 0 && stop.now() {
                return None;
            }
            solver.add_clause(&lits(&c));
        }
        Some(Enumerator::with(Varisat(solver), formula, sink, stop))
    }
}
