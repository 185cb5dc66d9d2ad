//! varisat, the pure-Rust reference backend: one solver call per model, each model
//! blocked by a clause before the next call.
//!
//! Invariant: a cube's blocking clauses carry a fresh activation literal and are retired
//! (the literal set false) once the cube is exhausted, so the solver never drags more than
//! one cube's blocking clauses along. varisat cannot be interrupted inside a call, so a
//! stop takes effect between calls.

use varisat::ExtendFormula;

use super::cnf::{Blocking, Formula};
use super::search::{Cube, ModelSink, Outcome, Stop, LOAD_STOP_EVERY};
use crate::error::{Error, Result};

fn lits(dimacs: &[i32]) -> Vec<varisat::Lit> {
    dimacs
        .iter()
        .map(|&l| varisat::Lit::from_dimacs(l as isize))
        .collect()
}

pub(crate) struct Solver {
    solver: varisat::Solver<'static>,
    next_var: i32,
    num_primary: u32,
    blocking: Blocking,
    sink: ModelSink,
    stop: Stop,
    pub(crate) calls: u64,
}

impl Solver {
    /// The formula loaded; `None` when the stop came while loading.
    pub(crate) fn new(formula: &Formula, sink: ModelSink, stop: Stop) -> Option<Solver> {
        let mut solver = varisat::Solver::new();
        for (k, c) in formula.clauses().enumerate() {
            if k % LOAD_STOP_EVERY == 0 && stop.now() {
                return None;
            }
            solver.add_clause(&lits(&c));
        }
        Some(Solver {
            solver,
            next_var: formula.num_vars as i32,
            num_primary: formula.num_primary,
            blocking: formula.blocking(),
            sink,
            stop,
            calls: 0,
        })
    }

    /// Enumerates every model that extends `cube` (options set true as assumptions).
    pub(crate) fn run(&mut self, cube: &Cube) -> Result<Outcome> {
        self.next_var += 1;
        let activation = self.next_var;
        let mut assumptions: Vec<i32> = cube.iter().map(|&o| o as i32 + 1).collect();
        assumptions.push(activation);
        let assumptions = lits(&assumptions);
        let mut solution = Vec::new();
        loop {
            if self.stop.now() {
                return Ok(Outcome::Stopped);
            }
            self.calls += 1;
            self.solver.assume(&assumptions);
            let sat = self
                .solver
                .solve()
                .map_err(|e| Error::Failed(format!("varisat failed: {e}")))?;
            if !sat {
                break;
            }
            let model = self.solver.model().expect("a model after SAT");
            solution.clear();
            solution.extend(
                model
                    .iter()
                    .filter(|l| l.is_positive() && (l.var().index() as u32) < self.num_primary)
                    .map(|l| l.var().index() as u32),
            );
            solution.sort_unstable();
            let go_on = self.sink.model(&solution);
            // The cube's options are assumptions: the rest of the model is what to block.
            let mut block = vec![-activation];
            block.extend(self.blocking.clause(&solution, cube));
            self.solver.add_clause(&lits(&block));
            if !go_on {
                return Ok(Outcome::Stopped);
            }
        }
        self.solver.add_clause(&lits(&[-activation]));
        Ok(Outcome::Exhausted)
    }
}
