//! MiniSat, Glucose and Kissat, the C and C++ solvers that rustsat's solver crates bundle
//! (feature `c-solvers`), as enumeration backends.
//!
//! - MiniSat and Glucose are incremental: one solver per worker, one call per model
//!   under assumptions (the cube's options and an activation literal), each model
//!   blocked by a clause before the next call, as with varisat.
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
//!   a watcher thread per worker polls [`Stop`] and calls the solver's thread-safe
//!   interrupter, and an interrupted call ends the cube as stopped, never as exhausted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use rustsat::solvers::{Interrupt, InterruptSolver, Solve, SolveIncremental, SolverResult};
use rustsat::types::{Clause, Lit, TernaryVal, Var};

use super::cnf::{Blocking, Formula};
use super::config::Backend;
use super::search::{Cube, ModelSink, Outcome, Stop, LOAD_STOP_EVERY};
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
    fn new(stop: Stop, interrupter: impl InterruptSolver + Send + 'static) -> Watcher {
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

/// The true primary options of the solver's model, sorted.
fn model(solver: &impl Solve, num_primary: u32, backend: Backend) -> Result<Vec<u32>> {
    let mut solution = Vec::new();
    for v in 0..num_primary {
        if solver
            .lit_val(Var::new(v).pos_lit())
            .map_err(|e| failed(backend, e))?
            == TernaryVal::True
        {
            solution.push(v);
        }
    }
    Ok(solution)
}

/// Loads the formula; `false` when the stop came while loading.
fn load(solver: &mut impl Solve, formula: &Formula, stop: &Stop, backend: Backend) -> Result<bool> {
    for (k, c) in formula.cnf.iter().enumerate() {
        if k % LOAD_STOP_EVERY == 0 && stop.now() {
            return Ok(false);
        }
        solver.add_clause_ref(c).map_err(|e| failed(backend, e))?;
    }
    Ok(true)
}

/// An incremental solver (MiniSat, Glucose) that enumerates cube after cube.
pub(crate) struct Incremental<S> {
    backend: Backend,
    solver: S,
    next_var: i32,
    num_primary: u32,
    blocking: Blocking,
    sink: ModelSink,
    stop: Stop,
    pub(crate) calls: u64,
    _watcher: Watcher,
}

impl<S> Incremental<S>
where
    S: SolveIncremental + Interrupt + Default,
{
    /// The formula loaded; `None` when the stop came while loading.
    pub(crate) fn new(
        backend: Backend,
        formula: &Formula,
        sink: ModelSink,
        stop: Stop,
    ) -> Result<Option<Incremental<S>>> {
        let mut solver = S::default();
        let watcher = Watcher::new(stop.clone(), solver.interrupter());
        if !load(&mut solver, formula, &stop, backend)? {
            return Ok(None);
        }
        Ok(Some(Incremental {
            backend,
            solver,
            next_var: formula.num_vars as i32,
            num_primary: formula.num_primary,
            blocking: formula.blocking(),
            sink,
            stop,
            calls: 0,
            _watcher: watcher,
        }))
    }

    /// Enumerates every model that extends `cube` (options set true as assumptions).
    pub(crate) fn run(&mut self, cube: &Cube) -> Result<Outcome> {
        self.next_var += 1;
        let activation = self.next_var;
        let mut assumptions: Vec<Lit> = cube.iter().map(|&o| lit(o as i32 + 1)).collect();
        assumptions.push(lit(activation));
        loop {
            if self.stop.now() {
                return Ok(Outcome::Stopped);
            }
            self.calls += 1;
            match self
                .solver
                .solve_assumps(&assumptions)
                .map_err(|e| failed(self.backend, e))?
            {
                SolverResult::Unsat => break,
                SolverResult::Interrupted => return Ok(Outcome::Stopped),
                SolverResult::Sat => {}
            }
            let solution = model(&self.solver, self.num_primary, self.backend)?;
            let go_on = self.sink.model(&solution);
            // The cube's options are assumptions: the rest of the model is what to block.
            let mut block = vec![-activation];
            block.extend(self.blocking.clause(&solution, cube));
            self.solver
                .add_clause(clause(&block))
                .map_err(|e| failed(self.backend, e))?;
            if !go_on {
                return Ok(Outcome::Stopped);
            }
        }
        self.solver
            .add_clause(clause(&[-activation]))
            .map_err(|e| failed(self.backend, e))?;
        Ok(Outcome::Exhausted)
    }
}

/// Kissat: a fresh solver for every call.
pub(crate) struct Kissat {
    formula: Formula,
    blocking: Blocking,
    sink: ModelSink,
    stop: Stop,
    pub(crate) calls: u64,
}

impl Kissat {
    pub(crate) fn new(formula: &Formula, sink: ModelSink, stop: Stop) -> Kissat {
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
            let solution = model(&solver, self.formula.num_primary, backend)?;
            let go_on = self.sink.model(&solution);
            blocked.push(self.blocking.clause(&solution, cube));
            if !go_on {
                return Ok(Outcome::Stopped);
            }
        }
    }
}
