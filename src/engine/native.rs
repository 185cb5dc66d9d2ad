//! The native engines behind [`Algorithm`]: the DLX and the bitset engine, both run by the
//! driver in [`crate::solver`] over the problem's reduced matrix.
//!
//! Invariant: a native search is deterministic: the same problem and jobs give the same
//! solutions in the same order on one thread, and the same node counts.

use std::ops::ControlFlow;
use std::time::Instant;

use std::sync::Mutex;

use super::{
    Algorithm, Counts, FindsOne, Goal, Lists, MeasuresTree, Problem, Report, RunOptions, Scope,
    Within,
};
use crate::error::Result;
use crate::matrix::Matrix;
use crate::parts::Step;
use crate::solver;
use crate::symmetry::Reduction;

/// A native engine: its name, how the driver builds it for a matrix, and whether its
/// search tree is the one the difficulty measures are of.
#[derive(Clone, Copy)]
pub(crate) struct Native {
    name: &'static str,
    build: solver::Build,
    /// Its tree is the dancing links' (`difficulty.rs`): it measures.
    measures: bool,
}

impl Native {
    pub(super) const DLX: Native = Native {
        name: super::names::DLX,
        build: solver::dlx,
        measures: true,
    };
    pub(super) const BITS: Native = Native {
        name: super::names::BITS,
        build: solver::bits,
        measures: false,
    };
}

/// A native engine prepared for one problem: the engine `describe` read, kept for the
/// first worker thread of the first run (a run on several threads builds one more per
/// further thread; a later run builds its own).
pub(super) struct PreparedNative<'p> {
    native: Native,
    problem: &'p Problem,
    line: String,
    /// The engine built for `describe`, until a run takes it. Behind a mutex because the
    /// driver asks for engines from its worker threads; it is locked once per thread.
    built: Mutex<Option<Box<dyn solver::Backtrack>>>,
}

impl<'p> PreparedNative<'p> {
    pub(super) fn new(native: Native, problem: &'p Problem) -> PreparedNative<'p> {
        let engine = built(native.build, problem.reduction.matrix());
        PreparedNative {
            native,
            problem,
            line: match engine.describe() {
                how if how.is_empty() => format!("solver {}", native.name),
                how => format!("solver {}: {how}", native.name),
            },
            built: Mutex::new(Some(engine)),
        }
    }

    /// Builds the engine for each worker thread, the first from the one built to
    /// describe it.
    fn builder(&self) -> impl Fn(&Matrix) -> Box<dyn solver::Backtrack> + Sync + '_ {
        move |matrix| {
            let kept = self.built.lock().unwrap_or_else(|e| e.into_inner()).take();
            kept.unwrap_or_else(|| built(self.native.build, matrix))
        }
    }
}

fn built(build: solver::Build, matrix: &Matrix) -> Box<dyn solver::Backtrack> {
    #[cfg(test)]
    BUILDS.with(|n| n.set(n.get() + 1));
    build(matrix)
}

#[cfg(test)]
thread_local! {
    /// Engines built on this thread, for the test that a run builds one per thread.
    static BUILDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl std::fmt::Debug for Native {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name)
    }
}

impl Algorithm for Native {
    fn name(&self) -> &'static str {
        self.name
    }

    fn certifies(&self) -> Option<super::Certifies> {
        Some(super::Certifies::SearchTree)
    }

    /// The description needs the built engine (the bitset engine picks its layout and
    /// kernel as it is built), so preparing builds it.
    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn super::Prepared + 'p>> {
        Ok(Box::new(PreparedNative::new(*self, problem)))
    }
}

impl super::Prepared for PreparedNative<'_> {
    fn name(&self) -> &'static str {
        self.native.name
    }

    fn describe(&self, _goal: Goal) -> Vec<String> {
        vec![self.line.clone()]
    }

    fn counts(&self) -> Option<&dyn Counts> {
        Some(self)
    }

    fn lists(&self) -> Option<&dyn Lists> {
        Some(self)
    }

    fn measures(&self) -> Option<&dyn MeasuresTree> {
        // The measures are the dancing links' tree (`difficulty.rs`).
        self.native.measures.then_some(self as _)
    }
}

impl MeasuresTree for PreparedNative<'_> {
    fn measure(&self, stop: &crate::stop::Stop) -> Result<Option<super::Difficulty>> {
        super::difficulty::measure(self.problem, stop)
    }
}

impl Counts for PreparedNative<'_> {
    fn count(&self, opts: &RunOptions, within: Option<Within<'_>>) -> Result<Report> {
        let problem = self.problem;
        let start = Instant::now();
        let jobs = within.map(|w| jobs(&w.scope, &problem.reduction));
        let done =
            within.map(|w| move |k: usize, n: u64| (w.finished)(w.scope.subproblems[k], n.into()));
        let stats = solver::count(
            &problem.reduction,
            &self.builder(),
            jobs.as_deref(),
            opts.threads,
            &opts.stop,
            opts.progress,
            done.as_ref().map(|d| d as solver::Finished<'_>),
        );
        let mut report = report(stats, start);
        report.parts = jobs.map_or(0, |j| j.len() as u64);
        report.threads = crate::schedule::workers(opts.threads);
        Ok(report)
    }
}

impl Lists for PreparedNative<'_> {
    fn for_each(
        &self,
        opts: &RunOptions,
        scope: Option<Scope<'_>>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let problem = self.problem;
        let start = Instant::now();
        let (stats, parts) = match scope {
            None => (
                solver::for_each(&problem.reduction, &self.builder(), &opts.stop, &mut |s| {
                    f(Step::Solution(s))
                }),
                0,
            ),
            Some(scope) => {
                let jobs = jobs(&scope, &problem.reduction);
                let stats = solver::for_each_in(
                    &problem.reduction,
                    &self.builder(),
                    &jobs,
                    &opts.stop,
                    &mut |step| f(scope.in_split(step)),
                );
                (stats, jobs.len() as u64)
            }
        };
        let mut report = report(stats, start);
        report.parts = parts;
        Ok(report)
    }
}

impl FindsOne for PreparedNative<'_> {
    fn first(&self, opts: &RunOptions) -> Result<(Option<Vec<u32>>, Report)> {
        super::first_listed(self, opts)
    }
}

/// The subproblems of `scope` as the native search's jobs: their prefixes in the reduced
/// matrix's option numbers.
fn jobs(scope: &Scope, reduction: &Reduction) -> Vec<Vec<u32>> {
    scope
        .subproblems
        .iter()
        .map(|&j| crate::solver::split::reduced_prefix(reduction, scope.split.prefix(j)))
        .collect()
}

fn report(stats: solver::Stats, start: Instant) -> Report {
    Report {
        solutions: stats.solutions.into(),
        complete: !stats.stopped,
        interrupted: stats.interrupted,
        timed_out: stats.timed_out,
        seconds: start.elapsed().as_secs_f64(),
        statistics: format!("nodes {}, raw solutions {}", stats.nodes, stats.found),
        parts_done: 0,
        parts: 0,
        threads: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, RunOptions};
    use crate::puzzle::SymmetryMode;

    /// `describe` and `count` on one prepared engine (what the command line does) build
    /// the engine once on one thread; so do `describe` and `enumerate`.
    #[test]
    fn a_run_builds_its_engine_once() {
        let problem = Problem::load("soma", Some(SymmetryMode::Rotations)).unwrap();
        for engine in [Engine::bits(), Engine::dlx()] {
            let before = BUILDS.with(|n| n.get());
            let prepared = engine.prepare(&problem).unwrap();
            prepared.describe(Goal::First);
            let report = prepared
                .counter()
                .unwrap()
                .count(&RunOptions::default(), None)
                .unwrap();
            assert_eq!(report.solutions, 480);
            assert_eq!(BUILDS.with(|n| n.get()) - before, 1, "{engine:?}");
            let prepared = engine.prepare(&problem).unwrap();
            prepared.describe(Goal::First);
            let mut n = 0;
            prepared
                .lister()
                .unwrap()
                .for_each(&RunOptions::default(), None, &mut |_| {
                    n += 1;
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(n, 480);
            assert_eq!(BUILDS.with(|n| n.get()) - before, 2, "{engine:?}");
        }
    }
}
