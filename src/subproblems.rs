//! What a run over subproblems reports, for every engine: the one step type ([`Step`]: a
//! solution, or the end of a subproblem) and the one progress report ([`Progress`]).
//! The cut itself is the native layer's (`solver/split.rs`).
//!
//! Invariant: this module is data only and imports no other module of the crate, so that
//! every engine, the native layer at the bottom included, may import it.

use std::ops::ControlFlow;

/// One step of a run over subproblems: a distinct solution (sorted options of the
/// original matrix), or the end of a subproblem with the distinct solutions it had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'s> {
    /// A distinct solution: sorted options of the original matrix.
    Solution(&'s [u32]),
    /// The end of a subproblem of the split.
    Finished {
        /// Its index in the split.
        subproblem: usize,
        /// The distinct solutions it had.
        solutions: u64,
    },
}

impl Step<'_> {
    /// Passes a solution on to `f`; the end of a subproblem is no news to it.
    pub fn solution_to(self, f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>) -> ControlFlow<()> {
        match self {
            Step::Solution(s) => f(s),
            Step::Finished { .. } => ControlFlow::Continue(()),
        }
    }
}

/// Where a run over subproblems (or SAT cubes) stands: the one progress report of every
/// engine.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// What the parts are: `subproblems` (native) or `cubes` (SAT).
    pub unit: &'static str,
    /// The parts finished.
    pub parts_done: usize,
    /// All the parts.
    pub parts: usize,
    /// Distinct solutions so far.
    pub solutions: u64,
    /// The estimated share of the search done, from 0 to 1: by estimated subproblem size
    /// for the native engines, by cubes done for SAT.
    pub work: f64,
    /// Seconds since the run started.
    pub elapsed: f64,
}
