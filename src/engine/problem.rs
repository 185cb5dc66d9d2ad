//! Running engines on a [`Problem`] (defined on the ground floor, `src/problem.rs`): the
//! one-shot conveniences that prepare an engine and run it once.
//!
//! Invariant: a caller that describes and then runs prepares once itself
//! ([`Engine::prepare`]); nothing here keeps state between runs.

use std::ops::ControlFlow;

use super::{Engine, Goal, Report, RunOptions};
use crate::error::Result;
use crate::problem::Problem;
use crate::solution::Solution;

/// The runs: each prepares `engine` on the problem and runs it once.
impl Problem {
    /// Says what `engine` will run, as `c` line texts without the `c ` (preparing it:
    /// a caller that runs it next prepares it once itself, [`Engine::prepare`]). An
    /// engine this build cannot run says why on its one line.
    pub fn describe(&self, engine: &Engine, goal: Goal) -> Vec<String> {
        match engine.prepare(self) {
            Ok(prepared) => prepared.describe(goal),
            Err(e) => vec![format!("solver {}: {e}", engine.name())],
        }
    }

    /// Counts the distinct solutions with `engine` (prepared for this one run).
    ///
    /// # Errors
    ///
    /// [`crate::error::Error::Usage`] when the engine finds only the first solution, or this build
    /// lacks it; a failure while running.
    pub fn count(&self, engine: &Engine, opts: &RunOptions) -> Result<Report> {
        engine.prepare(self)?.counter()?.count(opts, None)
    }

    /// Calls `f` with each distinct solution, a [`Solution`] (its sorted options of the
    /// original matrix, and what they mean); `f` returns `Break` to stop. Native engines
    /// run on this thread; SAT engines on `threads` workers over cubes (one search
    /// without cubes on one thread), with `f` still called here.
    ///
    /// # Errors
    ///
    /// [`crate::error::Error::Usage`] when the engine does not list solutions; a failure while running.
    pub fn for_each_solution(
        &self,
        engine: &Engine,
        opts: &RunOptions,
        f: &mut dyn FnMut(Solution<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let prepared = engine.prepare(self)?;
        let puzzle = self.puzzle();
        prepared.lister()?.for_each(opts, None, &mut |step| {
            step.solution_to(&mut |options| f(Solution::new(puzzle, options)))
        })
    }

    /// The solutions `engine` lists, counted up to `at_most` (the search stops at the
    /// `at_most`-th), with the run's report: a count below `at_most` is the whole count
    /// only where the report is complete. Enough to tell none, one and several apart.
    ///
    /// # Errors
    ///
    /// As [`Problem::for_each_solution`].
    pub fn count_up_to(
        &self,
        engine: &Engine,
        opts: &RunOptions,
        at_most: u64,
    ) -> Result<(u64, Report)> {
        let mut found = 0;
        let report = self.for_each_solution(engine, opts, &mut |_| {
            found += 1;
            if found >= at_most {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        Ok((found, report))
    }

    /// The first distinct solution, if there is one; `None` too when the deadline or
    /// Ctrl-C stopped the search first (then `Report::complete` is false).
    ///
    /// # Errors
    ///
    /// [`crate::error::Error::Usage`] when the engine only counts; a failure while running.
    pub fn first(&self, engine: &Engine, opts: &RunOptions) -> Result<(Option<Vec<u32>>, Report)> {
        engine.prepare(self)?.finder()?.first(opts)
    }
}
