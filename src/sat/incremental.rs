//! The enumeration of an incremental solver under assumptions, written once for every
//! backend that has them (varisat, MiniSat, Glucose): one solver call per model, each
//! model blocked by a clause before the next call.
//!
//! A cube's options and a fresh *activation literal* are the assumptions of every call
//! in the cube; each blocking clause holds the activation literal's negation, so it binds
//! only while the literal is assumed.
//!
//! Invariants:
//! - A cube's blocking clauses are retired (the activation literal set false) once the
//!   cube is exhausted, so the solver never drags more than one cube's blocking clauses
//!   along.
//! - A model is reported to the [`ModelSink`] before it is blocked; the loop ends as
//!   stopped (never as exhausted) when the sink, the [`Halt`] or an interrupted call says
//!   so.

use super::cnf::{Blocking, Formula};
use super::search::{Cube, Halt, ModelSink, Outcome};
use crate::error::Result;

/// How a solver call ended.
pub(crate) enum Call {
    Sat,
    Unsat,
    /// Interrupted inside the call by the stop.
    Interrupted,
}

/// What the loop needs of a backend: calls under assumptions, the model, and clauses
/// added between calls. Literals are DIMACS (`i32`) where the loop makes them; the
/// assumptions of a cube are converted once, to the backend's own [`Assume::Lit`].
pub(crate) trait Assume {
    type Lit;
    /// The backend's literal for a DIMACS literal.
    fn lit(dimacs: i32) -> Self::Lit;
    /// One call under `assumptions`.
    fn solve(&mut self, assumptions: &[Self::Lit]) -> Result<Call>;
    /// After [`Call::Sat`]: the true primary variables of the model (options
    /// `0..num_primary`), sorted, into `solution` (cleared first).
    fn model(&mut self, num_primary: u32, solution: &mut Vec<u32>) -> Result<()>;
    fn add_clause(&mut self, dimacs: &[i32]) -> Result<()>;
}

/// A loaded backend enumerating cube after cube.
pub(crate) struct Enumerator<S> {
    solver: S,
    next_var: i32,
    num_primary: u32,
    blocking: Blocking,
    sink: ModelSink,
    stop: Halt,
    /// Solver calls made.
    pub(crate) calls: u64,
}

impl<S: Assume> Enumerator<S> {
    /// `solver` with `formula` loaded.
    pub(crate) fn with(solver: S, formula: &Formula, sink: ModelSink, stop: Halt) -> Self {
        Enumerator {
            solver,
            next_var: formula.num_vars as i32,
            num_primary: formula.num_primary,
            blocking: formula.blocking(),
            sink,
            stop,
            calls: 0,
        }
    }

    /// Enumerates every model that extends `cube` (options set true as assumptions).
    pub(crate) fn run(&mut self, cube: &Cube) -> Result<Outcome> {
        self.next_var += 1;
        let activation = self.next_var;
        let assumptions: Vec<S::Lit> = cube
            .iter()
            .map(|&o| o as i32 + 1)
            .chain([activation])
            .map(S::lit)
            .collect();
        let mut solution = Vec::new();
        let mut block = Vec::new();
        loop {
            if self.stop.now() {
                return Ok(Outcome::Stopped);
            }
            self.calls += 1;
            match self.solver.solve(&assumptions)? {
                Call::Unsat => break,
                Call::Interrupted => return Ok(Outcome::Stopped),
                Call::Sat => {}
            }
            self.solver.model(self.num_primary, &mut solution)?;
            let go_on = self.sink.model(&solution);
            // The cube's options are assumptions: the rest of the model is what to block.
            block.clear();
            block.push(-activation);
            block.extend(self.blocking.literals(&solution, cube));
            self.solver.add_clause(&block)?;
            if !go_on {
                return Ok(Outcome::Stopped);
            }
        }
        self.solver.add_clause(&[-activation])?;
        Ok(Outcome::Exhausted)
    }
}
