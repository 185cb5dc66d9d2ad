//! The prepared problem: a compiled puzzle, its symmetry reduction (computed once), and
//! what several engines share, the CNF per encoding, compiled the first time an engine
//! asks for it: counted first, refused past the size limit unless forced.
//!
//! Invariant: the reduction and each encoding's CNF are built at most once per problem;
//! every run reads them. The run methods only hand the problem to the engine's [`Search`].

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

use super::{Engine, Report, RunOptions, Scope, Within};
use crate::count::Count;
use crate::error::{Error, Result};
use crate::parts::Split;
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};
use crate::sat::{self, Amo, Formula, Size, Strategy};
use crate::subproblems::Step;
use crate::symmetry::Reduction;

/// A compiled puzzle, its symmetry reduction, and its CNF per encoding once asked for.
pub struct Problem {
    pub compiled: Compiled,
    pub reduction: Reduction,
    formulas: Mutex<Vec<Arc<Formula>>>,
    /// A native engine built to describe it, kept for the run that follows (by engine
    /// name): see [`Problem::park`].
    parked: Mutex<Option<(&'static str, Box<dyn crate::solver::Engine>)>>,
}

impl Problem {
    pub fn new(compiled: Compiled) -> Problem {
        let reduction = Reduction::new(&compiled.matrix, compiled.group.clone());
        Problem {
            compiled,
            reduction,
            formulas: Mutex::new(Vec::new()),
            parked: Mutex::new(None),
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
    pub(super) fn formula_until(&self, amo: Amo, stop: &dyn Fn() -> bool) -> Option<Arc<Formula>> {
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

    pub(super) fn has_formula(&self, amo: Amo) -> bool {
        let formulas = self.formulas.lock().unwrap_or_else(|e| e.into_inner());
        formulas.iter().any(|f| f.amo == amo)
    }

    /// The CNF in encoding `amo` for a command that writes or checks it: refused past the
    /// size limit unless `force`, and stopped by Ctrl-C (exit 130) while it is built.
    pub fn formula_checked(&self, amo: Amo, force: bool) -> Result<Arc<Formula>> {
        if !amo.is_eager() {
            return Err(Error::Usage(Amo::LAZY_NEEDS_PROPAGATOR.into()));
        }
        self.check_cnf_size(amo, force)?;
        let _listening = crate::interrupt::Listening::start();
        self.formula_until(amo, &crate::interrupt::requested)
            .ok_or_else(|| Error::Interrupted("the CNF was not finished".into()))
    }

    /// Keeps `engine` (built for the reduced matrix by the engine named `name`) for the
    /// next run of that engine, so that describing a native engine does not cost a
    /// second build.
    pub(super) fn park(&self, name: &'static str, engine: Box<dyn crate::solver::Engine>) {
        *self.parked.lock().unwrap_or_else(|e| e.into_inner()) = Some((name, engine));
    }

    /// The engine [`Problem::park`] kept for `name`, once.
    pub(super) fn take_parked(&self, name: &str) -> Option<Box<dyn crate::solver::Engine>> {
        let mut parked = self.parked.lock().unwrap_or_else(|e| e.into_inner());
        match parked.take() {
            Some((n, engine)) if n == name => Some(engine),
            other => {
                *parked = other;
                None
            }
        }
    }

    /// Says what will run, as `c` line texts without the `c `, building nothing: for a
    /// SAT engine the CNF's size is counted, not compiled (the run compiles it, within
    /// its deadline).
    pub fn describe(&self, engine: &Engine, strategy: Strategy) -> Vec<String> {
        engine.search().describe(self, strategy)
    }

    /// Builds what `engine` needs ahead of the run (the CNF, unless it is past the size
    /// limit and not forced: the run then refuses) and says what will run, as
    /// [`Problem::describe`].
    pub fn prepare(&self, engine: &Engine, strategy: Strategy) -> Vec<String> {
        engine.search().prepare(self);
        self.describe(engine, strategy)
    }

    /// Counts the distinct solutions.
    pub fn count(&self, engine: &Engine, opts: &RunOptions) -> Result<Report> {
        engine.check_finds_all()?;
        engine.search().count(self, opts, None)
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
        finished: &(dyn Fn(usize, Count) + Sync),
    ) -> Result<Report> {
        engine.check_finds_all()?;
        engine
            .search()
            .count(self, opts, Some(Within { scope, finished }))
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
        engine.check_finds_all()?;
        engine
            .search()
            .for_each(self, opts, Strategy::Cubes, Some(scope), f)
    }

    /// Calls `f` with each distinct solution (sorted options of the original matrix);
    /// `f` returns `Break` to stop. Native engines run on this thread; SAT engines on
    /// `threads` workers over cubes (one search without cubes on one thread), with `f`
    /// still called here.
    pub fn for_each_solution(
        &self,
        engine: &Engine,
        opts: &RunOptions,
        f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Report> {
        // On one thread, one SAT search over everything beats cubes searched one after the
        // other: Bedlam's first model in 0.1 s against 0.9 s, and 400 models in 33-37 s
        // against 43-49 s. Cubes pay only when solvers run side by side.
        engine.check_finds_all()?;
        let strategy = if opts.threads > 1 {
            Strategy::Cubes
        } else {
            Strategy::Plain
        };
        self.each(engine, opts, strategy, f)
    }

    /// One solve of the CNF in encoding `amo` that writes a DRAT proof to `proof` (see
    /// [`crate::sat::proof`]): a checked solution, or no solution and a proof ending in
    /// the empty clause. The CNF is the one `polycover dimacs` writes for this problem.
    pub fn refute(
        &self,
        amo: Amo,
        force: bool,
        proof: &mut dyn std::io::Write,
    ) -> Result<crate::sat::proof::Refutation> {
        if !amo.is_eager() {
            return Err(Error::Usage(Amo::LAZY_NEEDS_PROPAGATOR.into()));
        }
        self.check_cnf_size(amo, force)?;
        crate::sat::proof::refute(&self.formula(amo), &self.compiled.matrix, proof)
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
        if !engine.lists_solutions() {
            return Err(super::counts_only(engine.name()));
        }
        engine
            .search()
            .for_each(self, opts, strategy, None, &mut |step| match step {
                Step::Solution(solution) => f(solution),
                Step::Finished { .. } => ControlFlow::Continue(()),
            })
    }
}
