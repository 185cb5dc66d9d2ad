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
//!   count range): rustsat's totalizer over its options with both bounds enforced.
//! - Symmetry: the clauses of `sat::symmetry`.
//!
//! # References
//!
//! - Totalizer: O. Bailleux, Y. Boufkhad, *Efficient CNF Encoding of Boolean Cardinality
//!   Constraints*, CP 2003.

use rustsat::encodings::card::{BoundBoth, BoundLower, BoundUpper, Totalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit, Var};

use crate::matrix::Matrix;
use crate::symmetry::Reduction;

use super::amo::Amo;
use super::symmetry;

/// A compiled formula.
#[derive(Clone, Debug)]
pub struct Formula {
    pub cnf: Cnf,
    /// Variables `1..=num_primary` are the options of the matrix.
    pub num_primary: u32,
    /// All variables, primary and auxiliary.
    pub num_vars: u32,
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
    pub fn clause(&self, solution: &[u32], assumed: &[u32]) -> Vec<i32> {
        let mut clause: Vec<i32> = solution
            .iter()
            .filter(|o| !assumed.contains(o))
            .map(|&o| -(o as i32 + 1))
            .collect();
        if !self.exact {
            clause.extend(
                (0..self.num_primary)
                    .filter(|o| solution.binary_search(o).is_err())
                    .map(|o| o as i32 + 1),
            );
        }
        clause
    }
}

/// The primary literal of option `o`.
pub fn option_lit(o: u32) -> Lit {
    Lit::positive(o)
}

impl Formula {
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
    pub fn blocking(&self) -> Blocking {
        Blocking {
            num_primary: self.num_primary,
            exact: self.exact,
        }
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
    let kept = reduction.kept_mask();
    symmetry::add_removed(&kept, &mut cnf);
    for (i, column) in matrix.columns().iter().enumerate() {
        let lits: Vec<Lit> = column
            .iter()
            .filter(|&&o| kept[o as usize])
            .map(|&o| option_lit(o))
            .collect();
        let item = &matrix.items()[i];
        let (min, max) = (item.min as usize, item.max as usize);
        if lits.len() < min {
            cnf.add_clause(Clause::new()); // cannot be covered min times: unsatisfiable
        } else if max == 1 {
            // A cell, a one-copy piece, an optional cell (or a piece used at most once).
            if min == 1 {
                cnf.add_clause(lits.iter().copied().collect());
            }
            amo.encode(lits, &mut cnf, &mut vars);
        } else if min == 0 && max >= lits.len() {
            // Any number of its options will do.
        } else {
            let n_lits = lits.len();
            let mut totalizer: Totalizer = lits.into_iter().collect();
            totalizer
                .encode_both(min..=max, &mut cnf, &mut vars)
                .expect("out of memory while encoding a totalizer");
            let mut units = Vec::new();
            if min > 0 {
                units.extend(totalizer.enforce_lb(min).expect("encoded for min"));
            }
            if max < n_lits {
                units.extend(totalizer.enforce_ub(max).expect("encoded for max"));
            }
            for unit in units {
                cnf.add_clause(Clause::from([unit]));
            }
        }
    }
    symmetry::add_lex_leaders(reduction, &mut cnf, &mut vars);
    Formula {
        cnf,
        num_primary: n,
        num_vars: vars.n_used(),
        amo,
        exact: matrix.is_exact(),
    }
}
