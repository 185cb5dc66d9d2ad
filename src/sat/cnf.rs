//! The CNF compiler: an exact-cover matrix and its symmetry reduction, as clauses.
//!
//! Invariants:
//! - Variable `o + 1` (DIMACS numbering) is option `o` of the matrix: one *primary*
//!   variable per placement, numbered in matrix order, the same in every encoding and
//!   symmetry mode. Auxiliary variables (of the at-most-one and cardinality encodings and
//!   of the symmetry-breaking chains) come after them.
//! - The models, projected onto the primary variables, are exactly the solutions the
//!   native engines count: one per symmetry class.
//!
//! # The clauses
//!
//! - Each unit item (a cell, a one-copy piece): at least one of its options (one clause),
//!   and at most one (the selected [`Amo`] encoding).
//! - Each optional cell (a secondary item): at most one, and no at-least-one clause.
//! - Each item covered k times (k copies of a piece), or between min and max times (a
//!   count range): a cardinality constraint over its options ([`super::card`]: a
//!   totalizer for small counts, a binary adder, linear in the options, for larger
//!   ones).
//! - Symmetry: a unit clause `-x` for every option the [`Reduction`] removed (the pinned
//!   item's non-representative options), and the lex-leader chains of `lex.rs`.
//!
//! # Size and stops
//!
//! [`Formula::size`] counts what [`compile`] would build, exactly and cheaply, so that callers can
//! refuse a formula past [`MAX_CLAUSES`] or [`MAX_LITERALS`] before building it.
//! [`compile_until`] asks its stop every few thousand clauses, inside every encoding, so
//! a deadline or Ctrl-C ends even the compilation of one huge constraint.

use std::collections::HashMap;

use rustsat::encodings::CollectClauses;
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit, Var};
use rustsat::OutOfMemory;

use crate::matrix::Matrix;
use crate::symmetry::Reduction;

use super::amo::Amo;
use super::card;
use super::lex;
pub use super::vars::option_lit;

/// A compiled formula.
#[derive(Clone, Debug)]
pub struct Formula {
    /// The clauses, over variables `1..=num_vars`.
    pub cnf: Cnf,
    /// Variables `1..=num_primary` are the options of the matrix.
    pub num_primary: u32,
    /// All variables, primary and auxiliary.
    pub num_vars: u32,
    /// The at-most-one encoding the formula was compiled with; with [`Amo::Lazy`] the
    /// exactly-one groups have no at-most-one clauses and the CNF alone is not the problem.
    pub amo: Amo,
    /// The matrix is exact (no optional cells, no count ranges): no solution contains
    /// another, so a blocking clause needs only the solution's own placements.
    pub exact: bool,
}

/// Blocking clauses for a formula's models (see [`Blocking::clause`]).
#[derive(Clone, Copy, Debug)]
pub struct Blocking {
    num_primary: u32,
    exact: bool,
}

impl Blocking {
    /// The clause that forbids the model whose true primary options are `solution`
    /// (sorted) and no other, as DIMACS literals, leaving out the options in `assumed`
    /// (true by assumption). In an exact matrix any other solution differs in a
    /// placement this one uses, so the negated placements suffice (13 literals for
    /// Bedlam); otherwise a solution may add placements to this one, and every other
    /// primary variable joins the clause positively.
    #[cfg_attr(not(feature = "c-solvers"), allow(dead_code))]
    pub fn clause(&self, solution: &[u32], assumed: &[u32]) -> Vec<i32> {
        self.literals(solution, assumed).collect()
    }

    /// Whether the matrix is exact (every item covered exactly once), so that a
    /// solution is told apart by the placements it uses.
    #[cfg_attr(not(feature = "cadical"), allow(dead_code))]
    pub(crate) fn is_exact(&self) -> bool {
        self.exact
    }

    /// The literals of [`Blocking::clause`], for a caller that keeps its own buffer
    /// (the backends block a model per solver callback: no allocation per model).
    pub(crate) fn literals<'a>(
        &self,
        solution: &'a [u32],
        assumed: &'a [u32],
    ) -> impl Iterator<Item = i32> + 'a {
        let negated = solution
            .iter()
            .filter(|o| !assumed.contains(o))
            .map(|&o| -(o as i32 + 1));
        let others = (0..if self.exact { 0 } else { self.num_primary })
            .filter(|o| solution.binary_search(o).is_err())
            .map(|o| o as i32 + 1);
        negated.chain(others)
    }
}

impl Formula {
    /// The CNF of the reduced problem: the options of the full matrix are the primary
    /// variables, the reduction says which are removed and which stabilisers remain, and
    /// `amo` encodes each cell's at most one.
    ///
    /// # Panics
    ///
    /// If memory for the clauses cannot be reserved.
    pub fn of(problem: &crate::problem::Problem, amo: Amo) -> Formula {
        compile(&problem.compiled.matrix, &problem.reduction, amo)
    }

    /// How many clauses the formula has.
    pub fn num_clauses(&self) -> usize {
        self.cnf.len()
    }

    /// This formula with its models restricted to those that extend one of `prefixes`
    /// (disjoint sets of options, as from a split): a part, for an outside solver.
    ///
    /// One prefix becomes unit clauses. Several get one selector variable each, after
    /// the others, with `s_j <-> (all options of prefix j)` and "some s_j": the selectors
    /// are determined by the primary variables, so that model counts, projected or not,
    /// are those of the part. No prefix (an empty part) gives `s` and `-s`
    /// for a new `s`: unsatisfiable without an empty clause, which d4 rejects.
    pub fn restricted_to(&self, prefixes: &[&[u32]]) -> Formula {
        let mut f = self.clone();
        if prefixes.iter().any(|p| p.is_empty()) {
            return f; // one subproblem is the whole search
        }
        match prefixes {
            [] => {
                // Unsatisfiable without an empty clause, which some parsers (d4) reject.
                let s = Lit::positive(f.num_vars);
                f.num_vars += 1;
                f.cnf.add_clause(Clause::from([s]));
                f.cnf.add_clause(Clause::from([!s]));
            }
            [only] => {
                for &o in *only {
                    f.cnf.add_clause(Clause::from([option_lit(o)]));
                }
            }
            _ => {
                let mut some = Clause::new();
                for prefix in prefixes {
                    let s = Lit::positive(f.num_vars);
                    f.num_vars += 1;
                    some.add(s);
                    let mut back = Clause::from([s]);
                    for &o in *prefix {
                        f.cnf.add_clause(Clause::from([!s, option_lit(o)]));
                        back.add(!option_lit(o));
                    }
                    f.cnf.add_clause(back);
                }
                f.cnf.add_clause(some);
            }
        }
        f
    }

    /// How this formula's models are blocked.
    pub(crate) fn blocking(&self) -> Blocking {
        Blocking {
            num_primary: self.num_primary,
            exact: self.exact,
        }
    }

    /// How many literals its clauses hold in all.
    pub fn num_literals(&self) -> usize {
        self.cnf.iter().map(|c| c.len()).sum()
    }

    /// Clauses as DIMACS integers.
    pub fn clauses(&self) -> impl Iterator<Item = Vec<i32>> + '_ {
        self.cnf
            .iter()
            .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
    }
}

/// What one item of the matrix becomes.
enum ItemClauses {
    /// Fewer options than it must be covered: the empty clause.
    Unsatisfiable,
    /// At most one option (an at-most-one), and at least one when `required`.
    AtMostOne { required: bool },
    /// Any number of its options will do: no clause.
    Free,
    /// Between `min` and `max` options: [`card::encode`].
    Count { min: usize, max: usize },
}

impl ItemClauses {
    fn of(options: usize, min: usize, max: usize) -> ItemClauses {
        if options < min {
            ItemClauses::Unsatisfiable
        } else if max == 1 {
            // A cell, a one-copy piece, an optional cell (or a piece used at most once).
            ItemClauses::AtMostOne { required: min == 1 }
        } else if min == 0 && max >= options {
            ItemClauses::Free
        } else {
            ItemClauses::Count { min, max }
        }
    }
}

/// Where compiled clauses go: into a CNF, or only counted (for [`Formula::size`]). Either way
/// `stop` is asked every [`STOP_EVERY`] clauses; once it says yes, the sink refuses
/// further clauses and the encoding in progress gives up (with rustsat's only error).
struct Sink<'a> {
    cnf: Option<Cnf>,
    clauses: usize,
    literals: usize,
    stop: &'a dyn Fn() -> bool,
    next_check: usize,
    stopped: bool,
}

/// Clauses between two looks at the stop: a few milliseconds of work.
const STOP_EVERY: usize = 1 << 14;

impl<'a> Sink<'a> {
    fn new(keep: bool, stop: &'a dyn Fn() -> bool) -> Sink<'a> {
        Sink {
            cnf: keep.then(Cnf::new),
            clauses: 0,
            literals: 0,
            stop,
            next_check: 0,
            stopped: false,
        }
    }

    fn add(&mut self, clause: Clause) -> Result<(), Stopped> {
        self.add_clause(clause).map_err(|_| Stopped)
    }
}

impl CollectClauses for Sink<'_> {
    fn n_clauses(&self) -> usize {
        self.clauses
    }

    fn extend_clauses<T>(&mut self, clauses: T) -> Result<(), OutOfMemory>
    where
        T: IntoIterator<Item = Clause>,
    {
        for clause in clauses {
            if self.stopped {
                return Err(OutOfMemory::ExternalApi);
            }
            if self.clauses >= self.next_check {
                self.next_check = self.clauses + STOP_EVERY;
                if (self.stop)() {
                    self.stopped = true;
                    return Err(OutOfMemory::ExternalApi);
                }
            }
            self.clauses += 1;
            self.literals += clause.len();
            if let Some(cnf) = &mut self.cnf {
                cnf.add_clause(clause);
            }
        }
        Ok(())
    }
}

/// A compilation stopped part way (the deadline, Ctrl-C).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Maps an encoder's failure: the sink's refusal is a stop; anything else is rustsat
/// failing to reserve memory, which the binary never sees (its allocator exits first,
/// see `memory.rs`), and a library user gets as a clear panic.
fn stopped(sink: &Sink, result: Result<(), OutOfMemory>) -> Result<(), Stopped> {
    match result {
        Ok(()) => Ok(()),
        Err(_) if sink.stopped => Err(Stopped),
        Err(e) => panic!("out of memory while encoding a constraint: {e}"),
    }
}

/// The size of a formula: what [`Formula::of`] would build, counted without building it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Variables, primary (one per option of the original matrix) and auxiliary.
    pub variables: u64,
    /// Clauses, unit clauses for removed options included.
    pub clauses: u64,
    /// Literals over all clauses.
    pub literals: u64,
}

/// The most clauses a formula may have before the commands that build one refuse it
/// (without `--force`). A clause of the compiled formula and of one loaded solver take
/// about 150 bytes together (measured: 40.7 M clauses, 6 GB for `solve`), so this is
/// about 1.5 GB, and as much again per further SAT thread.
pub const MAX_CLAUSES: u64 = 10_000_000;
/// The most literals, likewise (long clauses take about 8 bytes per literal in all).
pub const MAX_LITERALS: u64 = 50_000_000;

impl Size {
    /// Whether the formula is too large to build without `force`.
    pub fn over_limit(&self) -> bool {
        self.clauses > MAX_CLAUSES || self.literals > MAX_LITERALS
    }

    /// Refuses a formula (in encoding `amo`) of this size past the limit, unless `force`.
    ///
    /// # Errors
    ///
    /// [`crate::error::Error::Usage`] past the limit, naming the settings that lift it.
    pub fn check(&self, amo: Amo, force: bool) -> crate::error::Result<()> {
        if force || !self.over_limit() {
            return Ok(());
        }
        Err(crate::error::Error::Usage(format!(
            "the CNF ({} encoding) would have {} clauses and {} literals, past the limit of \
             {MAX_CLAUSES} clauses or {MAX_LITERALS} literals (gigabytes once a solver holds \
             it): use {} to build it anyway, or another {} encoding or engine",
            amo.name(),
            self.clauses,
            self.literals,
            crate::setting::Setting::Force.mark(),
            crate::setting::Setting::Amo.mark(),
        )))
    }
}

impl Formula {
    /// The size of the formula [`Formula::of`] builds for the reduced problem, counted
    /// exactly without building it, in time and memory linear in the matrix (plus the
    /// lex-leader chains): each item's encoding depends only on its number of options and
    /// bounds, so each shape is encoded once into a counting sink; the pairwise at-most-one
    /// is counted by formula.
    pub fn size(problem: &crate::problem::Problem, amo: Amo) -> Size {
        let (matrix, reduction) = (&problem.compiled.matrix, &problem.reduction);
        let n = matrix.num_options() as u64;
        let kept = reduction.kept_mask();
        let mut shapes: HashMap<(usize, usize, usize), (u64, u64, u64)> = HashMap::new();
        // The variables, clauses and literals of one item's encoding.
        let mut shape = |options: usize, min: usize, max: usize| -> (u64, u64, u64) {
            let m = options as u64;
            match ItemClauses::of(options, min, max) {
                ItemClauses::Unsatisfiable => (0, 1, 0),
                ItemClauses::Free => (0, 0, 0),
                ItemClauses::AtMostOne { required } => {
                    let least = if required { (0, 1, m) } else { (0, 0, 0) };
                    let most = if options <= 1 || (required && amo == Amo::Lazy) {
                        (0, 0, 0)
                    } else if amo == Amo::Pairwise {
                        (0, m * (m - 1) / 2, m * (m - 1))
                    } else {
                        *shapes.entry((options, 0, 1)).or_insert_with(|| {
                            dry_run(options, |lits, sink, vars| amo.encode(lits, sink, vars))
                        })
                    };
                    (least.0 + most.0, least.1 + most.1, least.2 + most.2)
                }
                ItemClauses::Count { min, max } => {
                    *shapes.entry((options, min, max)).or_insert_with(|| {
                        dry_run(options, |lits, sink, vars| {
                            card::encode(lits, min, max, sink, vars)
                        })
                    })
                }
            }
        };
        let mut size = Size {
            variables: n,
            clauses: kept.iter().filter(|&&k| !k).count() as u64,
            literals: kept.iter().filter(|&&k| !k).count() as u64,
        };
        for (i, column) in matrix.columns().iter().enumerate() {
            let options = column.iter().filter(|&&o| kept[o as usize]).count();
            let item = &matrix.items()[i];
            let (v, c, l) = shape(options, item.min as usize, item.max as usize);
            size.variables += v;
            size.clauses += c;
            size.literals += l;
        }
        for leader in reduction.lex_leaders() {
            let (v, c, l) = lex::chain_size(leader.lesser.len(), leader.condition.is_some());
            size.variables += v;
            size.clauses += c;
            size.literals += l;
        }
        size
    }

    /// The CNF for a caller that writes or checks it: refused for the lazy encoding (no
    /// CNF on its own) and past the size limit unless `force` ([`Size::check`]), and
    /// stopped by `stop` while it is built.
    ///
    /// # Errors
    ///
    /// [`crate::error::Error::Usage`] for the lazy encoding or a CNF past the limit;
    /// [`crate::error::Error::Interrupted`] when `stop` is raised; [`crate::error::Error::Failed`],
    /// `stopped by the timeout: ...`, when its deadline passes first.
    pub fn checked(
        problem: &crate::problem::Problem,
        amo: Amo,
        force: bool,
        stop: &crate::stop::Stop,
    ) -> crate::error::Result<Formula> {
        super::config::lazy_rule(amo, None).map_err(crate::error::Error::Usage)?;
        Formula::size(problem, amo).check(amo, force)?;
        let _listening = stop.listen();
        let (matrix, reduction) = (&problem.compiled.matrix, &problem.reduction);
        compile_until(matrix, reduction, amo, &|| stop.should_stop()).map_err(|Stopped| {
            if stop.raised() {
                crate::error::Error::Interrupted("the CNF was not finished".into())
            } else {
                crate::error::Error::Failed(
                    "stopped by the timeout: the CNF was not finished".into(),
                )
            }
        })
    }
}

/// Encodes one item of `options` options over fresh literals into a counting sink.
fn dry_run(
    options: usize,
    encode: impl FnOnce(Vec<Lit>, &mut Sink, &mut BasicVarManager) -> Result<(), OutOfMemory>,
) -> (u64, u64, u64) {
    let never = || false;
    let mut sink = Sink::new(false, &never);
    let mut vars = BasicVarManager::from_next_free(Var::new(options as u32));
    let lits = (0..options as u32).map(option_lit).collect();
    encode(lits, &mut sink, &mut vars).expect("a counting sink never refuses");
    (
        (vars.n_used() - options as u32) as u64,
        sink.clauses as u64,
        sink.literals as u64,
    )
}

/// Compiles the reduced problem ([`Formula::of`]).
///
/// # Panics
///
/// If memory for the clauses cannot be reserved.
pub(crate) fn compile(matrix: &Matrix, reduction: &Reduction, amo: Amo) -> Formula {
    compile_until(matrix, reduction, amo, &|| false).expect("nothing stops this compilation")
}

/// [`compile`], asking `stop` every few thousand clauses; `Err(Stopped)` once it says
/// yes (the deadline passed, Ctrl-C), with what was built so far dropped.
///
/// # Errors
///
/// [`Stopped`] once `stop` returns true.
///
/// # Panics
///
/// If memory for the clauses cannot be reserved.
pub(crate) fn compile_until(
    matrix: &Matrix,
    reduction: &Reduction,
    amo: Amo,
    stop: &dyn Fn() -> bool,
) -> Result<Formula, Stopped> {
    let n = matrix.num_options() as u32;
    let mut vars = BasicVarManager::from_next_free(Var::new(n));
    let mut sink = Sink::new(true, stop);
    let kept = reduction.kept_mask();
    for (o, &k) in kept.iter().enumerate() {
        if !k {
            sink.add(Clause::from([!option_lit(o as u32)]))?;
        }
    }
    for (i, column) in matrix.columns().iter().enumerate() {
        let lits: Vec<Lit> = column
            .iter()
            .filter(|&&o| kept[o as usize])
            .map(|&o| option_lit(o))
            .collect();
        let item = &matrix.items()[i];
        match ItemClauses::of(lits.len(), item.min as usize, item.max as usize) {
            // Cannot be covered min times: unsatisfiable.
            ItemClauses::Unsatisfiable => sink.add(Clause::new())?,
            ItemClauses::Free => {}
            ItemClauses::AtMostOne { required } => {
                if required {
                    sink.add(lits.iter().copied().collect())?;
                }
                // A required at-most-one is an exactly-one group, which the lazy
                // propagator enforces (the same items: `Matrix::is_unit`).
                if !(required && amo == Amo::Lazy) {
                    let result = amo.encode(lits, &mut sink, &mut vars);
                    stopped(&sink, result)?;
                }
            }
            ItemClauses::Count { min, max } => {
                let result = card::encode(lits, min, max, &mut sink, &mut vars);
                stopped(&sink, result)?;
            }
        }
    }
    for leader in reduction.lex_leaders() {
        let result = lex::lex_chain(&leader, &mut sink, &mut vars);
        stopped(&sink, result)?;
    }
    Ok(Formula {
        cnf: sink.cnf.take().expect("a keeping sink"),
        num_primary: n,
        num_vars: vars.n_used(),
        amo,
        exact: matrix.is_exact(),
    })
}
