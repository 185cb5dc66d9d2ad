//! One engine choice and one prepared problem: the library's single entry to every search.
//!
//! An [`Engine`] names what searches: a native engine (the DLX, the bitset engine) or the
//! SAT path with its backend, at-most-one encoding, strategy and decision mode. A
//! [`Problem`] is a compiled puzzle with its symmetry reduction, computed once; the CNF
//! is compiled the first time a SAT engine asks for it, once per encoding: counted first,
//! refused past the size limit unless forced, and built under the run's deadline and
//! Ctrl-C (a stop while building is a stopped run, with no solution). The command
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

use crate::error::{Error, Result};
use crate::parts::{Split, Step};
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};
pub use crate::sat::SatEngine;
use crate::sat::{self, Amo, Backend, Decide, Formula, SatOptions, Size, Strategy};
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
    /// The estimated share of the search done, from 0 to 1: by estimated subproblem size
    /// for the native engines, by cubes done for SAT.
    pub work: f64,
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
    /// Worker threads the search ran on: those asked for a native count; for SAT the
    /// solvers that ran (one for a plain search, at most one per cube).
    pub threads: usize,
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

    /// The CNF in encoding `amo`, compiled on first use, whatever its size and however
    /// long it takes (see [`Problem::formula_checked`] for the command line's way).
    pub fn formula(&self, amo: Amo) -> Arc<Formula> {
        self.formula_until(amo, &|| false)
            .expect("nothing stops this compilation")
    }

    /// The CNF in encoding `amo`, compiled on first use with `stop` asked every few
    /// thousand clauses; `None` when it said stop.
    fn formula_until(&self, amo: Amo, stop: &dyn Fn() -> bool) -> Option<Arc<Formula>> {
        let mut formulas = self.formulas.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = formulas.iter().find(|f| f.amo == amo) {
            return Some(Arc::clone(f));
        }
        let f =
            Arc::new(sat::compile_until(&self.compiled.matrix, &self.reduction, amo, stop).ok()?);
        formulas.push(Arc::clone(&f));
        Some(f)
    }

    /// The size of the CNF in encoding `amo`: counted exactly without building it, or
    /// read off the formula once built.
    pub fn cnf_size(&self, amo: Amo) -> Size {
        let formulas = self.formulas.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = formulas.iter().find(|f| f.amo == amo) {
            return Size {
                variables: f.num_vars as u64,
                clauses: f.num_clauses() as u64,
                literals: f.num_literals() as u64,
            };
        }
        drop(formulas);
        sat::cnf::size(&self.compiled.matrix, &self.reduction, amo)
    }

    /// Refuses (exit 2) a CNF past the size limit that is not built yet, unless `force`.
    pub fn check_cnf_size(&self, amo: Amo, force: bool) -> Result<()> {
        if force || self.has_formula(amo) {
            return Ok(());
        }
        let size = self.cnf_size(amo);
        if size.over_limit() {
            return Err(Error::Usage(format!(
                "the CNF ({} encoding) would have {} clauses and {} literals, past the limit \
                 of {} clauses or {} literals (gigabytes once a solver holds it): use --force \
                 to build it anyway, or another --amo encoding or engine",
                amo.name(),
                size.clauses,
                size.literals,
                sat::cnf::MAX_CLAUSES,
                sat::cnf::MAX_LITERALS
            )));
        }
        Ok(())
    }

    fn has_formula(&self, amo: Amo) -> bool {
        let formulas = self.formulas.lock().unwrap_or_else(|e| e.into_inner());
        formulas.iter().any(|f| f.amo == amo)
    }

    /// The CNF in encoding `amo` for a command that writes or checks it: refused past the
    /// size limit unless `force`, and stopped by Ctrl-C (exit 130) while it is built.
    pub fn formula_checked(&self, amo: Amo, force: bool) -> Result<Arc<Formula>> {
        self.check_cnf_size(amo, force)?;
        let _listening = crate::interrupt::Listening::start();
        self.formula_until(amo, &crate::interrupt::requested)
            .ok_or_else(|| Error::Interrupted("the CNF was not finished".into()))
    }

    /// Says what will run, as `c` line texts without the `c `, building nothing: for a
    /// SAT engine the CNF's size is counted, not compiled (the run compiles it, within
    /// its deadline).
    pub fn describe(&self, engine: &Engine, strategy: Strategy) -> Vec<String> {
        match engine {
            Engine::Sat(s) => {
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
                let size = self.cnf_size(s.amo);
                vec![
                    line,
                    format!(
                        "cnf {} variables ({} primary), {} clauses, {} literals{}",
                        size.variables,
                        self.compiled.matrix.num_options(),
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
            native => {
                let build = native.native().expect("a native engine");
                vec![format!(
                    "solver {}",
                    build(self.reduction.matrix()).describe()
                )]
            }
        }
    }

    /// Builds what `engine` needs (the CNF, unless it is past the size limit and not
    /// forced: the run then refuses) and says what will run, as [`Problem::describe`].
    pub fn prepare(&self, engine: &Engine, strategy: Strategy) -> Vec<String> {
        if let Engine::Sat(s) = engine {
            if s.force || !self.cnf_size(s.amo).over_limit() {
                self.formula(s.amo);
            }
        }
        self.describe(engine, strategy)
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
                    move |done: usize, total: usize, solutions: u64, work: f64| {
                        p(&Progress {
                            unit: "subproblems",
                            parts_done: done,
                            parts: total,
                            solutions,
                            work,
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
                let mut report = native_report(stats, start);
                report.threads = opts.threads;
                Ok(report)
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
                    move |done: usize, total: usize, solutions: u64, work: f64| {
                        p(&Progress {
                            unit: "subproblems",
                            parts_done: done,
                            parts: total,
                            solutions,
                            work,
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
                report.threads = opts.threads;
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
        let start = Instant::now();
        self.check_cnf_size(s.amo, s.force)?;
        let compiled_here = !self.has_formula(s.amo);
        let formula = {
            // The deadline and Ctrl-C hold while the CNF is built, as during the search.
            let _listening = crate::interrupt::Listening::start();
            let stop = || {
                crate::interrupt::requested() || opts.deadline.is_some_and(|d| Instant::now() >= d)
            };
            match self.formula_until(s.amo, &stop) {
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
        let progress = opts.progress.map(|p| {
            move |q: &sat::Progress| {
                p(&Progress {
                    unit: "cubes",
                    parts_done: q.cubes_done,
                    parts: q.cubes,
                    solutions: q.models,
                    work: q.cubes_done as f64 / q.cubes.max(1) as f64,
                    elapsed: q.elapsed,
                })
            }
        });
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
        threads: 1,
    }
}
