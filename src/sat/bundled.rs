//! MiniSat, Glucose and Kissat, the C and C++ solvers that rustsat's solver crates bundle
//! (feature `c-solvers`), as enumeration backends.
//!
//! - MiniSat and Glucose are incremental: one solver per worker, one call per model
//!   under assumptions (the cube's options and an activation literal), each model
//!   blocked by a clause before the next call: varisat's loop, `incremental.rs`.
//! - Kissat is not incremental (no assumptions, one `solve` per instance). Each call
//!   builds a fresh Kissat from the formula, the cube's options as units and the
//!   blocking clauses found so far in this cube. Its prepared engine neither counts
//!   nor lists (`engine::FindsOne` alone): its use is the first solution, or the proof
//!   that there is none. The fresh solver per model keeps it right if a caller asks
//!   for more.
//!
//! Invariants:
//! - A cube's blocking clauses carry that cube's activation literal and are retired
//!   (the literal set false) once the cube is exhausted (incremental solvers), so a
//!   solver never drags more than one cube's blocking clauses along.
//! - A stop (the caller's `Break`, the deadline, Ctrl-C) reaches a solver inside a call:
//!   a watcher thread per worker polls [`Halt`] and calls the solver's thread-safe
//!   interrupter, and an interrupted call ends the cube as stopped, never as exhausted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use rustsat::solvers::{Interrupt, InterruptSolver, Solve, SolveIncremental, SolverResult};
use rustsat::types::{Clause, Lit, TernaryVal, Var};

use super::cnf::{Blocking, Formula};
use super::config::Backend;
use super::incremental::{Assume, Call, Enumerator};
use super::search::{Cube, Halt, ModelSink, Outcome, LOAD_STOP_EVERY};
use crate::error::{Error, Result};

/// How often the watcher looks at the stop.
const WATCH_EVERY: Duration = Duration::from_millis(10);

fn lit(l: i32) -> Lit {
    Lit::from_ipasir(l).expect("DIMACS literals are nonzero and in range")
}

fn clause(dimacs: &[i32]) -> Clause {
    dimacs.iter().map(|&l| lit(l)).collect()
}

fn failed(backend: Backend, e: impl std::fmt::Display) -> Error {
    Error::Failed(format!("{} failed: {e}", backend.name()))
}

/// A thread that interrupts a solver when the stop is set, until it is dropped.
struct Watcher {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watcher {
    fn new(stop: Halt, interrupter: impl InterruptSolver + Send + 'static) -> Watcher {
        let done = Arc::new(AtomicBool::new(false));
        let thread = {
            let done = Arc::clone(&done);
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if stop.now() {
                        interrupter.interrupt();
                        return;
                    }
                    std::thread::sleep(WATCH_EVERY);
                }
            })
        };
        Watcher {
            done,
            thread: Some(thread),
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The true primary options of the solver's model, sorted, into `solution` (cleared
/// first).
fn model(
    solver: &impl Solve,
    num_primary: u32,
    backend: Backend,
    solution: &mut Vec<u32>,
) -> Result<()> {
    solution.clear();
    for v in 0..num_primary {
        if solver
            .lit_val(Var::new(v).pos_lit())
            .map_err(|e| failed(backend, e))?
            == TernaryVal::True
        {
            solution.push(v);
        }
    }
    Ok(())
}

/// Loads the formula; `false` when the stop came while loading.
fn load(solver: &mut impl Solve, formula: &Formula, stop: &Halt, backend: Backend) -> Result<bool> {
    for (k, c) in formula.cnf.iter().enumerate() {
        if k % LOAD_STOP_EVERY == 0 && stop.now() {
            return Ok(false);
        }
        solver.add_clause_ref(c).map_err(|e| failed(backend, e))?;
    }
    Ok(true)
}

/// MiniSat or Glucose, as the enumeration loop of `incremental.rs` calls it.
pub(crate) struct Rustsat<S> {
    backend: Backend,
    solver: S,
    _watcher: Watcher,
}

impl<S: SolveIncremental> Assume for Rustsat<S> {
    type Lit = Lit;

    fn lit(dimacs: i32) -> Lit {
        lit(dimacs)
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Call> {
        match self
            .solver
            .solve_assumps(assumptions)
            .map_err(|e| failed(self.backend, e))?
        {
            SolverResult::Sat => Ok(Call::Sat),
            SolverResult::Unsat => Ok(Call::Unsat),
            SolverResult::Interrupted => Ok(Call::Interrupted),
        }
    }

    fn model(&mut self, num_primary: u32, solution: &mut Vec<u32>) -> Result<()> {
        model(&self.solver, num_primary, self.backend, solution)
    }

    fn add_clause(&mut self, dimacs: &[i32]) -> Result<()> {
        self.solver
            .add_clause(clause(dimacs))
            .map_err(|e| failed(self.backend, e))
    }
}

/// An incremental solver (MiniSat, Glucose) that enumerates cube after cube.
pub(crate) type Incremental<S> = Enumerator<Rustsat<S>>;

impl<S> Enumerator<Rustsat<S>>
where
    S: SolveIncremental + Interrupt + Default,
{
    /// The formula loaded; `None` when the stop came while loading.
    pub(crate) fn new(
        backend: Backend,
        formula: &Formula,
        sink: ModelSink,
        stop: Halt,
    ) -> Result<Option<Incremental<S>>> {
        let mut solver = S::default();
        let watcher = Watcher::new(stop.clone(), solver.interrupter());
        if !load(&mut solver, formula, &stop, backend)? {
            return Ok(None);
        }
        let solver = Rustsat {
            backend,
            solver,
            _watcher: watcher,
        };
        Ok(Some(Enumerator::with(solver, formula, sink, stop)))
    }
}

/// Kissat: a fresh solver for every call.
pub(crate) struct Kissat {
    formula: Formula,
    blocking: Blocking,
    sink: ModelSink,
    stop: Halt,
    pub(crate) calls: u64,
}

impl Kissat {
    pub(crate) fn new(formula: &Formula, sink: ModelSink, stop: Halt) -> Kissat {
        Kissat {
            formula: formula.clone(),
            blocking: formula.blocking(),
            sink,
            stop,
            calls: 0,
        }
    }

    /// Enumerates every model that extends `cube` (options set true as units), one
    /// fresh solver per model.
    pub(crate) fn run(&mut self, cube: &Cube) -> Result<Outcome> {
        let backend = Backend::Kissat;
        let mut blocked: Vec<Vec<i32>> = Vec::new();
        let mut solution = Vec::new();
        loop {
            if self.stop.now() {
                return Ok(Outcome::Stopped);
            }
            let mut solver = rustsat_kissat::Kissat::default();
            let _watcher = Watcher::new(self.stop.clone(), solver.interrupter());
            if !load(&mut solver, &self.formula, &self.stop, backend)? {
                return Ok(Outcome::Stopped);
            }
            for &o in cube {
                solver
                    .add_clause(clause(&[o as i32 + 1]))
                    .map_err(|e| failed(backend, e))?;
            }
            for b in &blocked {
                solver
                    .add_clause(clause(b))
                    .map_err(|e| failed(backend, e))?;
            }
            self.calls += 1;
            match solver.solve().map_err(|e| failed(backend, e))? {
                SolverResult::Unsat => return Ok(Outcome::Exhausted),
                SolverResult::Interrupted => return Ok(Outcome::Stopped),
                SolverResult::Sat => {}
            }
            model(&solver, self.formula.num_primary, backend, &mut solution)?;
            let go_on = self.sink.model(&solution);
            blocked.push(self.blocking.clause(&solution, cube));
            if !go_on {
                return Ok(Outcome::Stopped);
            }
        }
    }
}
