//! The SAT engines behind [`Search`]: the problem's CNF (compiled once per encoding by the
//! [`Problem`]) enumerated by an embedded solver, each model blocked and checked.
//!
//! Invariants: the CNF is refused past the size limit unless forced, before any work; the
//! deadline and Ctrl-C hold while it is compiled, as during the search (a stop while
//! compiling is a stopped run with no solution).

use std::ops::ControlFlow;
use std::time::Instant;

use super::{Declines, Engine, Problem, Progress, Report, RunOptions, Scope, Search, Within};
use crate::error::Result;
use crate::sat::{self, Amo, Backend, Decide, SatEngine, SatOptions, Strategy};
use crate::subproblems::Step;

/// The SAT path with its settings.
#[derive(Debug)]
pub(super) struct Sat(pub(super) SatEngine);

/// Default settings with this backend, and MRV decisions or the solver's own.
pub(super) fn settings(backend: Backend, mrv: bool) -> SatEngine {
    SatEngine {
        backend,
        decide: if mrv { Decide::Mrv } else { Decide::Solver },
        ..SatEngine::default()
    }
}

impl Search for Sat {
    fn name(&self) -> &'static str {
        match (self.0.backend, self.0.decide) {
            (Backend::Varisat, _) => "sat-varisat",
            (Backend::Minisat, _) => "sat-minisat",
            (Backend::Glucose, _) => "sat-glucose",
            (Backend::Kissat, _) => "sat-kissat",
            (Backend::Cadical, Decide::Mrv) => "sat-cadical",
            (Backend::Cadical, Decide::Solver) => "sat-cadical-solver",
        }
    }

    fn describe(&self, problem: &Problem, strategy: Strategy) -> Vec<String> {
        let s = &self.0;
        let mut line = format!(
            "solver sat: backend {}, at-most-one {}, strategy {}",
            s.backend.name(),
            s.amo.name(),
            s.strategy.unwrap_or(strategy).name()
        );
        if s.backend == Backend::Cadical {
            line += &format!(", decide {}", s.decide.name());
            for (k, v) in &s.cadical_options {
                line += &format!(", {k}={v}");
            }
        }
        let size = problem.cnf_size(s.amo);
        vec![
            line,
            format!(
                "cnf {} variables ({} primary), {} clauses, {} literals{}",
                size.variables,
                problem.compiled.matrix.num_options(),
                size.clauses,
                size.literals,
                if size.over_limit() {
                    " (past the limit)"
                } else {
                    ""
                }
            ),
        ]
    }

    fn prepare(&self, problem: &Problem) {
        // Past the size limit and not forced, the run refuses: nothing to build.
        if self.0.force || !problem.cnf_size(self.0.amo).over_limit() {
            problem.formula(self.0.amo);
        }
    }

    fn count(
        &self,
        problem: &Problem,
        opts: &RunOptions,
        within: Option<Within<'_>>,
    ) -> Result<Report> {
        match within {
            None => self.run(problem, opts, Strategy::Cubes, None, &mut |_| {
                ControlFlow::Continue(())
            }),
            Some(w) => self.for_each(problem, opts, Strategy::Cubes, Some(w.scope), &mut |step| {
                if let Step::Finished {
                    subproblem,
                    solutions,
                } = step
                {
                    (w.finished)(subproblem, solutions.into());
                }
                ControlFlow::Continue(())
            }),
        }
    }

    fn for_each(
        &self,
        problem: &Problem,
        opts: &RunOptions,
        strategy: Strategy,
        scope: Option<Scope<'_>>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let Some(scope) = scope else {
            return self.run(problem, opts, strategy, None, f);
        };
        // A scope's subproblems are the cubes, and `f` hears each by its index in the
        // split.
        let cubes: Vec<Vec<u32>> = scope
            .subproblems
            .iter()
            .map(|&j| scope.split.prefix(j).to_vec())
            .collect();
        self.run(problem, opts, Strategy::Cubes, Some(&cubes), &mut |step| {
            f(scope.in_split(step))
        })
    }

    fn declines(&self) -> Option<Declines> {
        let backend = self.0.backend;
        if let Err(feature) = backend.built() {
            return Some(Declines {
                everything: true,
                solutions: false,
                all: false,
                why: if feature == "cadical" {
                    "built without the cadical feature"
                } else {
                    "built without the c-solvers feature"
                },
            });
        }
        if !self.0.amo.is_eager() && backend != Backend::Cadical {
            return Some(Declines {
                everything: true,
                solutions: false,
                all: false,
                why: "the lazy at-most-one needs the propagator of the cadical backend",
            });
        }
        (!backend.incremental()).then_some(Declines {
            everything: false,
            solutions: false,
            all: true,
            why: "Kissat is not incremental (no assumptions, one solve per instance), so \
                  each further solution would be a new solve from scratch; count with \
                  --backend minisat, glucose or cadical",
        })
    }

    fn sat(&self) -> Option<&SatEngine> {
        Some(&self.0)
    }

    fn with_amo(&self, amo: Amo) -> Option<Engine> {
        Some(Engine::sat(SatEngine {
            amo,
            ..self.0.clone()
        }))
    }
}

impl Sat {
    /// Compiles the CNF (under the deadline and Ctrl-C) and enumerates its models, whole
    /// or over `cubes`.
    fn run(
        &self,
        problem: &Problem,
        opts: &RunOptions,
        strategy: Strategy,
        cubes: Option<&[Vec<u32>]>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let s = &self.0;
        if let Some(d) = self.declines().filter(|d| d.everything) {
            return Err(crate::error::Error::Usage(format!(
                "{} with --amo {}: {}",
                self.name(),
                s.amo.name(),
                d.why
            )));
        }
        let start = Instant::now();
        problem.check_cnf_size(s.amo, s.force)?;
        let compiled_here = !problem.has_formula(s.amo);
        let formula = {
            let _listening = crate::interrupt::Listening::start();
            let stop = || {
                crate::interrupt::requested() || opts.deadline.is_some_and(|d| Instant::now() >= d)
            };
            match problem.formula_until(s.amo, &stop) {
                Some(f) => f,
                None => {
                    let interrupted = crate::interrupt::requested();
                    return Ok(Report {
                        complete: false,
                        interrupted,
                        timed_out: !interrupted,
                        seconds: start.elapsed().as_secs_f64(),
                        statistics: format!(
                            "stopped while compiling the CNF, after {:.3} s",
                            start.elapsed().as_secs_f64()
                        ),
                        ..Report::default()
                    });
                }
            }
        };
        let compile_seconds = start.elapsed().as_secs_f64();
        let sat_opts = SatOptions {
            engine: s,
            strategy: s.strategy.unwrap_or(strategy),
            threads: opts.threads.max(1),
            deadline: opts.deadline,
            cubes,
        };
        let stats = sat::for_each_model(
            &problem.compiled.matrix,
            &problem.reduction,
            &formula,
            &sat_opts,
            opts.progress.map(|p| p as &dyn Fn(&Progress)),
            f,
        )?;
        Ok(Report {
            solutions: stats.models.into(),
            complete: stats.cubes_done == stats.cubes,
            interrupted: stats.interrupted,
            timed_out: stats.stopped && !stats.interrupted,
            seconds: start.elapsed().as_secs_f64(),
            statistics: format!(
                "solver calls {}, mrv decisions {}{}",
                stats.solver_calls,
                stats.decisions,
                if compiled_here {
                    format!(", cnf compiled in {compile_seconds:.3} s")
                } else {
                    String::new()
                }
            ),
            parts_done: stats.cubes_done,
            parts: stats.cubes,
            threads: stats.threads as usize,
        })
    }
}
