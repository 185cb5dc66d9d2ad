//! The problem engines read: a compiled puzzle and its symmetry reduction, computed once.
//! Everything an engine compiles from it (a built native engine, a CNF, Burnside
//! classes) belongs to that engine's [`super::Prepared`] value, not here.
//!
//! Invariant: the reduction is built once per problem; every engine prepared on it reads
//! it. The run methods here are conveniences that prepare the engine and run it once;
//! a caller that describes and then runs prepares once itself ([`Engine::prepare`]).

use std::ops::ControlFlow;
use std::sync::Arc;

use super::{Engine, Goal, Report, RunOptions};
use crate::error::{Error, Result};
use crate::parts::Split;
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};
use crate::sat::{self, Amo, Formula, Size};
use crate::stop::Stop;
use crate::symmetry::Reduction;

/// A compiled puzzle and its symmetry reduction.
pub struct Problem {
    /// The compiled puzzle: its matrix and symmetry group.
    pub compiled: Compiled,
    /// The symmetry reduction of the matrix, which every engine searches.
    pub reduction: Reduction,
}

impl Problem {
    /// The problem of a compiled puzzle, with its reduction.
    pub fn new(compiled: Compiled) -> Problem {
        let reduction = Reduction::new(&compiled.matrix, compiled.group.clone());
        Problem {
            compiled,
            reduction,
        }
    }

    /// Loads (a file or a catalog name) and compiles, in the kind's default symmetry
    /// mode unless told.
    ///
    /// # Errors
    ///
    /// A puzzle that cannot be read, parsed or compiled in that mode.
    pub fn load(spec: impl AsRef<std::path::Path>, mode: Option<SymmetryMode>) -> Result<Problem> {
        let puzzle = Puzzle::load(spec)?;
        let mode = mode.unwrap_or(puzzle.default_symmetry());
        Ok(Problem::new(puzzle.compile(mode)?))
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.compiled.puzzle
    }

    /// The CNF in encoding `amo`, compiled now, whatever its size and however long it
    /// takes (see [`Problem::formula_checked`] for the command line's way).
    ///
    /// # Panics
    ///
    /// If memory for the clauses cannot be reserved.
    pub fn formula(&self, amo: Amo) -> Arc<Formula> {
        self.formula_until(amo, &|| false)
            .expect("nothing stops this compilation")
    }

    /// The CNF in encoding `amo`, with `stop` asked every few thousand clauses; `None`
    /// when it said stop.
    pub(crate) fn formula_until(&self, amo: Amo, stop: &dyn Fn() -> bool) -> Option<Arc<Formula>> {
        sat::compile_until(&self.compiled.matrix, &self.reduction, amo, stop)
            .ok()
            .map(Arc::new)
    }

    /// The size of the CNF in encoding `amo`, counted exactly without building it.
    pub fn cnf_size(&self, amo: Amo) -> Size {
        sat::cnf::size(&self.compiled.matrix, &self.reduction, amo)
    }

    /// Refuses (exit 2) a CNF past the size limit, unless `force`.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] past the limit.
    pub fn check_cnf_size(&self, amo: Amo, force: bool) -> Result<()> {
        if force {
            return Ok(());
        }
        let size = self.cnf_size(amo);
        if size.over_limit() {
            return Err(Error::Usage(format!(
                "the CNF ({} encoding) would have {} clauses and {} literals, past the limit \
                 of {} clauses or {} literals (gigabytes once a solver holds it): use {} to \
                 build it anyway, or another {} encoding or engine",
                amo.name(),
                size.clauses,
                size.literals,
                sat::cnf::MAX_CLAUSES,
                sat::cnf::MAX_LITERALS,
                crate::Setting::Force.mark(),
                crate::Setting::Amo.mark(),
            )));
        }
        Ok(())
    }

    /// The CNF in encoding `amo` for a command that writes or checks it: refused past the
    /// size limit unless `force`, and stopped by `stop` while it is built.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for the lazy encoding or a CNF past the limit;
    /// [`Error::Interrupted`] when `stop` is raised.
    pub fn formula_checked(&self, amo: Amo, force: bool, stop: &Stop) -> Result<Arc<Formula>> {
        super::sat::cnf_alone(amo)?;
        self.check_cnf_size(amo, force)?;
        let _listening = stop.listen();
        self.formula_until(amo, &|| stop.raised())
            .ok_or_else(|| Error::Interrupted("the CNF was not finished".into()))
    }

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
    /// [`Error::Usage`] when the engine finds only the first solution, or this build
    /// lacks it; a failure while running.
    pub fn count(&self, engine: &Engine, opts: &RunOptions) -> Result<Report> {
        engine.prepare(self)?.counter()?.count(opts, None)
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

    /// Calls `f` with each distinct solution (sorted options of the original matrix);
    /// `f` returns `Break` to stop. Native engines run on this thread; SAT engines on
    /// `threads` workers over cubes (one search without cubes on one thread), with `f`
    /// still called here.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] when the engine does not list solutions; a failure while running.
    pub fn for_each_solution(
        &self,
        engine: &Engine,
        opts: &RunOptions,
        f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Report> {
        let prepared = engine.prepare(self)?;
        prepared
            .lister()?
            .for_each(opts, None, &mut |step| step.solution_to(f))
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

    /// One solve of the CNF in encoding `amo` that writes a DRAT proof to `proof` (see
    /// [`crate::sat::Refutation`]): a checked solution, or no solution and a proof ending in
    /// the empty clause. The CNF is the one `polycover dimacs` writes for this problem.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for the lazy encoding or a CNF past the limit; a failed write.
    pub fn refute(
        &self,
        amo: Amo,
        force: bool,
        proof: &mut dyn std::io::Write,
    ) -> Result<crate::sat::proof::Refutation> {
        super::sat::cnf_alone(amo)?;
        self.check_cnf_size(amo, force)?;
        crate::sat::proof::refute(&self.formula(amo), &self.compiled.matrix, proof)
    }

    /// The first distinct solution, if there is one; `None` too when the deadline or
    /// Ctrl-C stopped the search first (then `Report::complete` is false).
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] when the engine only counts; a failure while running.
    pub fn first(&self, engine: &Engine, opts: &RunOptions) -> Result<(Option<Vec<u32>>, Report)> {
        engine.prepare(self)?.finder()?.first(opts)
    }
}

/// How a listing runs, told by the options it runs with.
impl sat::Strategy {
    /// How a listing of every solution runs: on one thread, one SAT search over
    /// everything beats cubes searched one after the other (Bedlam's first model in 0.1 s
    /// against 0.9 s, and 400 models in 33-37 s against 43-49 s); cubes pay only when
    /// solvers run side by side.
    pub(crate) fn for_listing(opts: &RunOptions) -> sat::Strategy {
        if opts.threads > 1 {
            sat::Strategy::Cubes
        } else {
            sat::Strategy::Plain
        }
    }
}
