//! Embedded SAT enumeration: the models of a [`Formula`], one solution each, found with
//! an incremental solver and blocking clauses.
//!
//! Invariants:
//! - A reported solution has been checked against the matrix (an exact cover) first.
//! - Every model is reported once: after a model, a clause forbidding its set of true
//!   primary variables is added. The blocking clause lists only the true primary
//!   variables (13 literals for Bedlam): any other model differs from this one in some
//!   placement that this one uses, because both are exact covers.
//!
//! # Strategies
//!
//! - [`Strategy::Plain`]: solve, block, repeat.
//! - [`Strategy::Cubes`] (default): split the search into disjoint cubes with the native
//!   engine's first branching levels (cube and conquer), and enumerate each cube under
//!   assumptions in the same incremental solver. A cube's blocking clauses carry a fresh
//!   activation literal and are retired (the literal is set false) once the cube is
//!   exhausted, so the solver never drags more than one cube's blocking clauses along.

use std::ops::ControlFlow;

use crate::cnf::Formula;
use crate::error::{Error, Result};
use crate::matrix::Matrix;
use crate::symmetry::Reduction;

/// How many cubes to aim for. Measured on the 8x8 pentomino square (65 models, varisat):
/// 16 cubes 60 s, 64 cubes 48 s, 256 cubes 43 s, 4096 cubes 108 s (each solver call costs
/// milliseconds even when the cube is empty), and one plain enumeration 119 s.
const CUBES: usize = 256;

/// How models are enumerated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// One solver call per model, blocking each model.
    Plain,
    /// Cube and conquer: disjoint cubes from the native search, solved under assumptions.
    Cubes,
}

/// The SAT solvers that can be embedded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// varisat, pure Rust (the default).
    Varisat,
    /// CaDiCaL through rustsat-cadical (built with `--features cadical`).
    Cadical,
}

/// An incremental SAT solver, in DIMACS numbering.
trait Incremental {
    fn add_clause(&mut self, lits: &[i32]);
    /// Solves under assumptions; `Some(true primary variables)` for a model.
    fn solve(&mut self, assumptions: &[i32], num_primary: u32) -> Result<Option<Vec<u32>>>;
    fn new_var(&mut self) -> i32;
}

struct Varisat {
    solver: varisat::Solver<'static>,
    next_var: i32,
}

impl Incremental for Varisat {
    fn add_clause(&mut self, lits: &[i32]) {
        use varisat::ExtendFormula;
        let lits: Vec<varisat::Lit> = lits
            .iter()
            .map(|&l| varisat::Lit::from_dimacs(l as isize))
            .collect();
        self.solver.add_clause(&lits);
    }

    fn solve(&mut self, assumptions: &[i32], num_primary: u32) -> Result<Option<Vec<u32>>> {
        let lits: Vec<varisat::Lit> = assumptions
            .iter()
            .map(|&l| varisat::Lit::from_dimacs(l as isize))
            .collect();
        self.solver.assume(&lits);
        let sat = self
            .solver
            .solve()
            .map_err(|e| Error::Usage(format!("varisat failed: {e}")))?;
        if !sat {
            return Ok(None);
        }
        let model = self.solver.model().expect("a model after SAT");
        Ok(Some(
            model
                .iter()
                .filter(|l| l.is_positive() && (l.var().index() as u32) < num_primary)
                .map(|l| l.var().index() as u32)
                .collect(),
        ))
    }

    fn new_var(&mut self) -> i32 {
        self.next_var += 1;
        self.next_var
    }
}

#[cfg(feature = "cadical")]
struct Cadical {
    solver: rustsat_cadical::CaDiCaL<'static, 'static>,
    next_var: i32,
}

#[cfg(feature = "cadical")]
fn lit(l: i32) -> rustsat::types::Lit {
    rustsat::types::Lit::from_ipasir(l).expect("a nonzero literal")
}

#[cfg(feature = "cadical")]
impl Incremental for Cadical {
    fn add_clause(&mut self, lits: &[i32]) {
        use rustsat::solvers::Solve;
        self.solver
            .add_clause(lits.iter().map(|&l| lit(l)).collect())
            .expect("CaDiCaL takes the clause");
    }

    fn solve(&mut self, assumptions: &[i32], num_primary: u32) -> Result<Option<Vec<u32>>> {
        use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
        let assumps: Vec<_> = assumptions.iter().map(|&l| lit(l)).collect();
        match self
            .solver
            .solve_assumps(&assumps)
            .map_err(|e| Error::Usage(format!("CaDiCaL failed: {e}")))?
        {
            SolverResult::Sat => Ok(Some(
                (0..num_primary)
                    .filter(|&o| {
                        self.solver.lit_val(rustsat::types::Lit::positive(o)).ok()
                            == Some(rustsat::types::TernaryVal::True)
                    })
                    .collect(),
            )),
            SolverResult::Unsat => Ok(None),
            SolverResult::Interrupted => Err(Error::Usage("CaDiCaL was interrupted".into())),
        }
    }

    fn new_var(&mut self) -> i32 {
        self.next_var += 1;
        self.next_var
    }
}

fn backend(backend: Backend, formula: &Formula) -> Result<Box<dyn Incremental>> {
    Ok(match backend {
        Backend::Varisat => {
            let mut s = Varisat {
                solver: varisat::Solver::new(),
                next_var: formula.num_vars as i32,
            };
            for c in formula.clauses() {
                s.add_clause(&c);
            }
            Box::new(s)
        }
        #[cfg(feature = "cadical")]
        Backend::Cadical => {
            let mut s = Cadical { solver: rustsat_cadical::CaDiCaL::default(), next_var: formula.num_vars as i32 };
            for c in formula.clauses() {
                s.add_clause(&c);
            }
            Box::new(s)
        }
        #[cfg(not(feature = "cadical"))]
        Backend::Cadical => {
            return Err(Error::Usage(
                "this polycover was built without CaDiCaL: rebuild with `cargo build --release --features cadical` \
                 (needs Debian's libclang-dev)"
                    .into(),
            ))
        }
    })
}

/// What an enumeration did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SatStats {
    pub models: u64,
    pub solver_calls: u64,
    pub cubes: u64,
    /// The deadline passed before the enumeration was complete.
    pub stopped: bool,
}

/// Calls `f` with each model's solution (sorted options of `matrix`); `Break` stops.
pub fn for_each_model(
    matrix: &Matrix,
    reduction: &Reduction,
    formula: &Formula,
    which: Backend,
    strategy: Strategy,
    f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
) -> Result<SatStats> {
    for_each_model_with_progress(matrix, reduction, formula, which, strategy, f, None, None)
}

/// [`for_each_model`], calling `progress(finished cubes, all cubes)` after each cube, and
/// stopping (with `stopped` set) at the first solver call after `deadline`: one call can
/// overrun it, since the solvers cannot be interrupted from outside.
#[allow(clippy::too_many_arguments)]
pub fn for_each_model_with_progress(
    matrix: &Matrix,
    reduction: &Reduction,
    formula: &Formula,
    which: Backend,
    strategy: Strategy,
    f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    progress: Option<&dyn Fn(usize, usize)>,
    deadline: Option<std::time::Instant>,
) -> Result<SatStats> {
    let mut solver = backend(which, formula)?;
    let mut stats = SatStats::default();
    let cubes = match strategy {
        Strategy::Plain => vec![Vec::new()],
        Strategy::Cubes => crate::solver::cubes(reduction, CUBES),
    };
    let total = cubes.len();
    for cube in cubes {
        if let Some(p) = progress {
            p(stats.cubes as usize, total);
        }
        stats.cubes += 1;
        let activation = solver.new_var();
        let mut assumptions: Vec<i32> = cube.iter().map(|&o| o as i32 + 1).collect();
        assumptions.push(activation);
        loop {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                stats.stopped = true;
                return Ok(stats);
            }
            stats.solver_calls += 1;
            let Some(mut solution) = solver.solve(&assumptions, formula.num_primary)? else {
                break;
            };
            solution.sort_unstable();
            matrix.check_solution(&solution).map_err(|e| {
                Error::Usage(format!(
                    "internal error: the SAT model is not a solution: {e}"
                ))
            })?;
            stats.models += 1;
            if f(&solution).is_break() {
                return Ok(stats);
            }
            let mut block: Vec<i32> = vec![-activation];
            block.extend(
                solution
                    .iter()
                    .filter(|o| !cube.contains(o))
                    .map(|&o| -(o as i32 + 1)),
            );
            solver.add_clause(&block);
        }
        solver.add_clause(&[-activation]);
    }
    Ok(stats)
}
