//! One engine choice and one prepared problem: the library's single entry to every search.
//!
//! An [`Engine`] names what searches: a native engine (the DLX, the bitset engine) or the
//! SAT path with its backend, at-most-one encoding, strategy and decision mode. A
//! [`Problem`] is a compiled puzzle with its symmetry reduction, computed once; the CNF
//! is compiled the first time a SAT engine asks for it, once per encoding. The command
//! line, `check` and `bench` choose an engine and call [`Problem::count`],
//! [`Problem::first`] or [`Problem::for_each_solution`]; the dispatch lives here only.
//!
//! Invariants:
//! - Every engine reports each distinct solution (one per orbit of the symmetry group)
//!   exactly once, as sorted options of the original matrix, and the SAT engines check
//!   each one as an exact cover before reporting it.
//! - A [`Report`] with `complete == false` holds a lower bound: a deadline, Ctrl-C, or the
//!   caller's `Break` stopped the run. Callers never present it as a count.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::Result;
use crate::parts::{Split, Step};
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};
pub use crate::sat::SatEngine;
use crate::sat::{self, Amo, Backend, Decide, Formula, SatOptions, Strategy};
use crate::solver;
use crate::symmetry::Reduction;

/// What searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Dancing links: the reference.
    Dlx,
    /// Bitset Algorithm X: the fast native engine.
    Bits,
    /// The CNF encoding, enumerated by an embedded SAT solver.
    Sat(SatEngine),
}

impl Engine {
    /// The values of `--solver` (count, solve, enumerate): `sat` with the SAT options.
    pub const SOLVER_NAMES: [&'static str; 3] = ["bits", "dlx", "sat"];

    /// The names [`Engine::from_name`] knows, as `bench --solvers` takes them.
    pub const NAMES: [&'static str; 5] = [
        "dlx",
        "bits",
        "sat-cadical",
        "sat-cadical-solver",
        "sat-varisat",
    ];

    /// An engine by name, SAT engines with their defaults. `sat` is the build's default
    /// backend.
    pub fn from_name(name: &str) -> Option<Engine> {
        let sat = |backend, decide| {
            Engine::Sat(SatEngine {
                backend,
                decide,
                ..SatEngine::default()
            })
        };
        Some(match name {
            "dlx" => Engine::Dlx,
            "bits" => Engine::Bits,
            "sat" => Engine::Sat(SatEngine::default()),
            "sat-cadical" => sat(Backend::Cadical, Decide::Mrv),
            "sat-cadical-solver" => sat(Backend::Cadical, Decide::Solver),
            "sat-varisat" => sat(Backend::Varisat, Decide::Mrv),
            _ => return None,
        })
    }

    /// The short name, without the encoding: `dlx`, `sat-cadical`.
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Dlx => "dlx",
            Engine::Bits => "bits",
            Engine::Sat(s) => match (s.backend, s.decide) {
                (Backend::Varisat, _) => "sat-varisat",
                (Backend::Cadical, Decide::Mrv) => "sat-cadical",
                (Backend::Cadical, Decide::Solver) => "sat-cadical-solver",
            },
        }
    }

    /// The at-most-one encoding of a SAT engine.
    pub fn amo(&self) -> Option<Amo> {
        match self {
            Engine::Sat(s) => Some(s.amo),
            _ => None,
        }
    }

    /// The same engine with another encoding (native engines have none).
    pub fn with_amo(mut self, amo: Amo) -> Engine {
        if let Engine::Sat(s) = &mut self {
            s.amo = amo;
        }
        self
    }

    /// Whether this build can run the engine; the reason when it cannot.
    pub fn available(&self) -> std::result::Result<(), &'static str> {
        match self {
            Engine::Sat(s) if s.backend == Backend::Cadical && !cfg!(feature = "cadical") => {
                Err("built without the cadical feature")
            }
            _ => Ok(()),
        }
    }

    fn native(&self) -> Option<solver::Build> {
        match self {
            Engine::Dlx => Some(solver::dlx),
            Engine::Bits => Some(solver::bits),
            Engine::Sat(_) => None,
        }
    }
}

/// The instant `after` from now; `None` (no deadline) when that lies beyond what the
/// clock can represent.
pub fn deadline_after(after: Duration) -> Option<Instant> {
    Instant::now().checked_add(after)
}

/// The most worker threads a run takes: more only costs memory and start-up time.
pub const MAX_THREADS: usize = 1024;

/// How a run runs.
#[derive(Clone, Copy)]
pub struct RunOptions<'a> {
    /// Worker threads for counts and SAT enumerations; a native enumeration runs on the
    /// caller's thread.
    pub threads: usize,
    /// Stop when this instant passes; the report is then incomplete.
    pub deadline: Option<Instant>,
    /// Called as parts of the search finish.
    pub progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            threads: 1,
            deadline: None,
            progress: None,
        }
    }
}

/// Where a run stands.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// What the parts are: `subproblems` (native) or `cubes` (SAT).
    pub unit: &'static str,
    pub parts_done: usize,
    pub parts: usize,
    /// Distinct solutions so far.
    pub solutions: u64,
    pub elapsed: f64,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Distinct solutions found (all of them when `complete`).
    pub solutions: u64,
    /// The search ran to the end.
    pub complete: bool,
    /// Ctrl-C stopped it.
    pub interrupted: bool,
    /// The deadline stopped it.
    pub timed_out: bool,
    pub seconds: f64,
    /// The engine's own statistics, one line: nodes, or cubes, solver calls, decisions.
    pub statistics: String,
    /// Parts of the search finished, of all (subproblems or cubes; 0 of 0 when the
    /// engine does not split).
    pub parts_done: u64,
    pub parts: u64,
}

/// Some subproblems of a split, to run instead of the whole search: a part, or what a
/// checkpoint has left of one.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    pub split: &'a Split,
    /// Indices of the split's subproblems, in the order to run them.
    pub subproblems: &'a [usize],
}

impl Scope<'_> {
    /// The subproblems as the native search's jobs: their prefixes in `reduction`'s
    /// option numbers.
    fn native_jobs(&self, reduction: &Reduction) -> Vec<Vec<u32>> {
        self.subproblems
            .iter()
            .map(|&j| solver::reduced_prefix(reduction, self.split.prefix(j)))
            .collect()
    }
}

/// A compiled puzzle, its symmetry reduction, and its CNF per encoding once asked for.
pub struct Problem {
    pub compiled: Compiled,
    pub reduction: Reduction,
    formulas: Mutex<Vec<Arc<Formula>>>,
}

impl Problem {
    pub fn new(compiled: Compiled) -> Problem {
        let reduction = Reduction::new(&compiled.matrix, compiled.group.clone());
        Problem {
            compiled,
            reduction,
            formulas: Mutex::new(Vec::new()),
        }
    }

    /// Loads (a file or a catalog name) and compiles, in the kind's default symmetry
    /// mode unless told.
    pub fn load(spec: impl AsRef<std::path::Path>, mode: Option<SymmetryMode>) -> Result<Problem> {
        let puzzle = Puzzle::load(spec)?;
        let mode = mode.unwrap_or(puzzle.default_symmetry());
        Ok(Problem::new(puzzle.compile(mode)?))
    }

    pub fn puzzle(&self) -> &Puzzle {
        &self.compiled.puzzle
    }

    /// The CNF in encoding `amo`, compiled on first use.
    pub fn formula(&self, amo: Amo) -> Arc<Formula> {
        let mut formulas = self.formulas.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = formulas.iter().find(|f| f.amo == amo) {
            return Arc::clone(f);
        }
        let f = Arc::new(sat::compile(&self.compiled.matrix, &self.reduction, amo));
        formulas.push(Arc::clone(&f));
        f
    }

    /// Builds what `engine` needs (the CNF) and says what will run, as `c` line texts
    /// without the `c `.
    pub fn prepare(&self, engine: &Engine, strategy: Strategy) -> Vec<String> {
        match engine {
            Engine::Sat(s) => {
                let t = Instant::now();
                let f = self.formula(s.amo);
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
                vec![
                    line,
                    format!(
                        "cnf {} variables ({} primary), {} clauses, compiled in {:.3} s",
                        f.num_vars,
                        f.num_primary,
                        f.num_clauses(),
                        t.elapsed().as_secs_f64()
                    ),
                ]
            }
            native => {
                let build = native.native().expect("a native engine");
                vec![format!(
                    "solver {}",
                    build(self.reduction.matrix()).describe()
                )]
            }
        }
    }

    /// Counts the distinct solutions.
    pub fn count(&self, engine: &Engine, opts: &RunOptions) -> Result<Report> {
        let start = Instant::now();
        match engine {
            Engine::Sat(s) => {
                self.run_sat(s, opts, Strategy::Cubes, &mut |_| ControlFlow::Continue(()))
            }
            native => {
                let build = native.native().expect("a native engine");
                let progress = opts.progress.map(|p| {
                    move |done: usize, total: usize, solutions: u64| {
                        p(&Progress {
                            unit: "subproblems",
                            parts_done: done,
                            parts: total,
                            solutions,
                            elapsed: start.elapsed().as_secs_f64(),
                        })
                    }
                });
                let progress = progress.as_ref().map(|p| p as solver::Progress<'_>);
                let stats = solver::count(
                    &self.reduction,
                    build,
                    None,
                    opts.threads,
                    opts.deadline,
                    progress,
                    None,
                );
                Ok(native_report(stats, start))
            }
        }
    }

    /// The split of this problem's search into `parts` parts.
    pub fn split(&self, parts: usize) -> Split {
        Split::new(
            &self.compiled.matrix,
            &self.reduction,
            self.compiled.mode.as_str(),
            parts,
        )
    }

    /// Counts the distinct solutions in the subproblems of `scope` only; `finished` is
    /// called (on any thread) with each subproblem's index in the split and its count as
    /// it ends. Subproblems that a stop cut short are not reported.
    pub fn count_in(
        &self,
        engine: &Engine,
        opts: &RunOptions,
        scope: Scope,
        finished: &(dyn Fn(usize, u64) + Sync),
    ) -> Result<Report> {
        match engine {
            Engine::Sat(_) => {
                let mut f = |step: Step| {
                    if let Step::Finished {
                        subproblem,
                        solutions,
                    } = step
                    {
                        finished(subproblem, solutions);
                    }
                    ControlFlow::Continue(())
                };
                self.for_each_in(engine, opts, scope, &mut f)
            }
            native => {
                let start = Instant::now();
                let build = native.native().expect("a native engine");
                let jobs = scope.native_jobs(&self.reduction);
                let progress = opts.progress.map(|p| {
                    move |done: usize, total: usize, solutions: u64| {
                        p(&Progress {
                            unit: "subproblems",
                            parts_done: done,
                            parts: total,
                            solutions,
                            elapsed: start.elapsed().as_secs_f64(),
                        })
                    }
                });
                let progress = progress.as_ref().map(|p| p as solver::Progress<'_>);
                let done = |k: usize, n: u64| finished(scope.subproblems[k], n);
                let stats = solver::count(
                    &self.reduction,
                    build,
                    Some(&jobs),
                    opts.threads,
                    opts.deadline,
                    progress,
                    Some(&done),
                );
                let mut report = native_report(stats, start);
                report.parts = jobs.len() as u64;
                Ok(report)
            }
        }
    }

    /// Calls `f` with each distinct solution in the subproblems of `scope`, and with the
    /// end of each subproblem ([`Step::Finished`], with its index in the split), in the
    /// order of `scope` (SAT: in that order when on one thread).
    pub fn for_each_in(
        &self,
        engine: &Engine,
        opts: &RunOptions,
        scope: Scope,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let start = Instant::now();
        let mut to_split = |step: Step| match step {
            Step::Finished {
                subproblem,
                solutions,
            } => f(Step::Finished {
                subproblem: scope.subproblems[subproblem],
                solutions,
            }),
            solution => f(solution),
        };
        match engine {
            Engine::Sat(s) => {
                let cubes: Vec<Vec<u32>> = scope
                    .subproblems
                    .iter()
                    .map(|&j| scope.split.prefix(j).to_vec())
                    .collect();
                self.run_sat_steps(s, opts, Strategy::Cubes, Some(&cubes), &mut to_split)
            }
            native => {
                let build = native.native().expect("a native engine");
                let jobs = scope.native_jobs(&self.reduction);
                let stats = solver::for_each_in(
                    &self.reduction,
                    build,
                    &jobs,
                    opts.deadline,
                    &mut to_split,
                );
                let mut report = native_report(stats, start);
                report.parts = jobs.len() as u64;
                Ok(report)
            }
        }
    }

    /// Calls `f` with each distinct solution (sorted options of the original matrix);
    /// `f` returns `Break` to stop. Native engines run on this thread; SAT engines on
    /// `threads` workers, with `f` still called here.
    pub fn for_each_solution(
        &self,
        engine: &Engine,
        opts: &RunOptions,
        f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Report> {
        self.each(engine, opts, Strategy::Cubes, f)
    }

    /// The first distinct solution, if there is one; `None` too when the deadline or
    /// Ctrl-C stopped the search first (then `Report::complete` is false).
    pub fn first(&self, engine: &Engine, opts: &RunOptions) -> Result<(Option<Vec<u32>>, Report)> {
        let mut first = None;
        // The first model comes fastest from one search, without cubes.
        let report = self.each(engine, opts, Strategy::Plain, &mut |s| {
            first = Some(s.to_vec());
            ControlFlow::Break(())
        })?;
        Ok((first, report))
    }

    fn each(
        &self,
        engine: &Engine,
        opts: &RunOptions,
        strategy: Strategy,
        f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Report> {
        let start = Instant::now();
        match engine {
            Engine::Sat(s) => self.run_sat(s, opts, strategy, f),
            native => {
                let build = native.native().expect("a native engine");
                let stats = solver::for_each(&self.reduction, build, opts.deadline, f);
                Ok(native_report(stats, start))
            }
        }
    }

    fn run_sat(
        &self,
        s: &SatEngine,
        opts: &RunOptions,
        strategy: Strategy,
        f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Report> {
        self.run_sat_steps(s, opts, strategy, None, &mut |step| match step {
            Step::Solution(solution) => f(solution),
            Step::Finished { .. } => ControlFlow::Continue(()),
        })
    }

    fn run_sat_steps(
        &self,
        s: &SatEngine,
        opts: &RunOptions,
        strategy: Strategy,
        cubes: Option<&[Vec<u32>]>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let formula = self.formula(s.amo);
        let sat_opts = SatOptions {
            engine: s,
            strategy: s.strategy.unwrap_or(strategy),
            threads: opts.threads.max(1),
            deadline: opts.deadline,
            cubes,
        };
        let progress = opts.progress.map(|p| {
            move |q: &sat::Progress| {
                p(&Progress {
                    unit: "cubes",
                    parts_done: q.cubes_done,
                    parts: q.cubes,
                    solutions: q.models,
                    elapsed: q.elapsed,
                })
            }
        });
        let start = Instant::now();
        let stats = sat::for_each_model(
            &self.compiled.matrix,
            &self.reduction,
            &formula,
            &sat_opts,
            progress.as_ref().map(|p| p as &dyn Fn(&sat::Progress)),
            f,
        )?;
        Ok(Report {
            solutions: stats.models,
            complete: stats.cubes_done == stats.cubes,
            interrupted: stats.interrupted,
            timed_out: stats.stopped && !stats.interrupted,
            seconds: start.elapsed().as_secs_f64(),
            statistics: format!(
                "solver calls {}, mrv decisions {}",
                stats.solver_calls, stats.decisions
            ),
            parts_done: stats.cubes_done,
            parts: stats.cubes,
        })
    }
}

fn native_report(stats: solver::Stats, start: Instant) -> Report {
    Report {
        solutions: stats.solutions,
        complete: !stats.stopped,
        interrupted: stats.interrupted,
        timed_out: stats.timed_out,
        seconds: start.elapsed().as_secs_f64(),
        statistics: format!("nodes {}, raw solutions {}", stats.nodes, stats.found),
        parts_done: 0,
        parts: 0,
    }
}
