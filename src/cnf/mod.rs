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
//! - Each item of multiplicity k (k copies of a piece): exactly k of its options, by
//!   rustsat's totalizer.
//! - Symmetry (see `docs/symmetry.md` for the argument): a unit clause `-x` for every
//!   option the [`Reduction`] removed (the pinned item's non-representative options), and
//!   for each representative `r` and each `h` in its stabiliser, the lex-leader constraint
//!   `x_r -> x <=lex h(x)`, where `x` is the vector of primary variables in matrix order
//!   and `h(x)` its permutation (Crawford et al. 1996; the linear chain of Aloul et al.
//!   2006). Among the solutions that use `r`, one `Stab(r)`-orbit is one orbit of solutions,
//!   and exactly one member of it is lexicographically least, so exactly one survives.
//!   When nothing could be pinned the constraint is unconditional, for every element of
//!   the group.
//!
//! # References
//!
//! - J. Crawford, M. Ginsberg, E. Luks, A. Roy: *Symmetry-Breaking Predicates for Search
//!   Problems*, KR 1996.
//! - F. Aloul, I. Markov, K. Sakallah: *Efficient Symmetry Breaking for Boolean
//!   Satisfiability*, IEEE Trans. Computers 55(5), 2006.

pub mod amo;

use rustsat::encodings::card::{BoundBoth, Totalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit, Var};

use crate::matrix::Matrix;
use crate::symmetry::{Reduction, Symmetry};

pub use amo::Amo;

/// A compiled formula.
#[derive(Clone, Debug)]
pub struct Formula {
    pub cnf: Cnf,
    /// Variables `1..=num_primary` are the options of the matrix.
    pub num_primary: u32,
    /// All variables, primary and auxiliary.
    pub num_vars: u32,
    pub amo: Amo,
}

/// The primary literal of option `o`.
pub fn option_lit(o: u32) -> Lit {
    Lit::positive(o)
}

impl Formula {
    pub fn num_clauses(&self) -> usize {
        self.cnf.len()
    }

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

/// Compiles the reduced problem: `matrix` is the original matrix (its options are the
/// primary variables) and `reduction` says which options are removed and which
/// stabilisers remain.
pub fn compile(matrix: &Matrix, reduction: &Reduction, amo: Amo) -> Formula {
    let n = matrix.num_options() as u32;
    let mut vars = BasicVarManager::from_next_free(Var::new(n));
    let mut cnf = Cnf::new();
    let mut kept = vec![false; n as usize];
    for &o in reduction.kept() {
        kept[o as usize] = true;
    }
    for o in 0..n {
        if !kept[o as usize] {
            cnf.add_clause(Clause::from([!option_lit(o)]));
        }
    }
    for (i, column) in matrix.columns().iter().enumerate() {
        let lits: Vec<Lit> = column
            .iter()
            .filter(|&&o| kept[o as usize])
            .map(|&o| option_lit(o))
            .collect();
        let k = matrix.items()[i].multiplicity as usize;
        if k == 1 {
            cnf.add_clause(lits.iter().copied().collect());
            amo.encode(lits, &mut cnf, &mut vars);
        } else if lits.len() < k {
            cnf.add_clause(Clause::new()); // cannot be covered k times: unsatisfiable
        } else {
            let mut totalizer: Totalizer = lits.into_iter().collect();
            totalizer
                .encode_both(k..=k, &mut cnf, &mut vars)
                .expect("memory");
            for unit in totalizer.enforce_eq(k).expect("encoded for k") {
                cnf.add_clause(Clause::from([unit]));
            }
        }
    }
    let group = reduction.group();
    if reduction.needs_check() {
        for r in 0..n {
            for &k in reduction.stabiliser_checks(r) {
                lex_leader(
                    &group.elements()[k as usize],
                    Some(option_lit(r)),
                    n,
                    &mut cnf,
                    &mut vars,
                );
            }
        }
        if reduction.pinned_item().is_none() {
            for g in &group.elements()[1..] {
                lex_leader(g, None, n, &mut cnf, &mut vars);
            }
        }
    }
    Formula {
        cnf,
        num_primary: n,
        num_vars: vars.n_used(),
        amo,
    }
}

/// Adds `condition -> x <=lex g(x)`, where `g(x)_j = x_{g^-1(j)}` and `1 > 0`: at the
/// first position where `x` and `g(x)` differ, `x` has the 0. Positions that `g` fixes are
/// equal on both sides and skipped. `e_k` is defined as "equal up to and including the
/// k-th compared position", in both directions, so every auxiliary variable is a function
/// of the primary ones and the model count is not inflated.
fn lex_leader(
    g: &Symmetry,
    condition: Option<Lit>,
    n: u32,
    cnf: &mut Cnf,
    vars: &mut BasicVarManager,
) {
    let mut inverse = vec![0u32; n as usize];
    for (o, &image) in g.options.iter().enumerate() {
        inverse[image as usize] = o as u32;
    }
    let positions: Vec<u32> = (0..n).filter(|&j| inverse[j as usize] != j).collect();
    let guard: Vec<Lit> = condition.map(|c| !c).into_iter().collect();
    let mut prefix_equal: Option<Lit> = None; // None: the empty prefix, always equal
    for (k, &j) in positions.iter().enumerate() {
        let x = option_lit(j);
        let y = option_lit(inverse[j as usize]);
        // If the prefix is equal, not (x = 1 and y = 0).
        let mut c: Vec<Lit> = guard.clone();
        c.extend(prefix_equal.map(|e| !e));
        c.extend([!x, y]);
        cnf.add_clause(c.into_iter().collect());
        if k + 1 == positions.len() {
            break;
        }
        let e = vars.new_var().pos_lit();
        // e <-> prefix_equal and (x <-> y)
        if let Some(p) = prefix_equal {
            cnf.add_clause(Clause::from([!e, p]));
        }
        cnf.add_clause(Clause::from([!e, !x, y]));
        cnf.add_clause(Clause::from([!e, x, !y]));
        let mut both_true: Vec<Lit> = prefix_equal.map(|p| !p).into_iter().collect();
        both_true.extend([!x, !y, e]);
        cnf.add_clause(both_true.into_iter().collect());
        let mut both_false: Vec<Lit> = prefix_equal.map(|p| !p).into_iter().collect();
        both_false.extend([x, y, e]);
        cnf.add_clause(both_false.into_iter().collect());
        prefix_equal = Some(e);
    }
}
