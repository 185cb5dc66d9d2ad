//! The symmetry-breaking clauses: what the CNF adds so that each orbit of solutions under
//! the puzzle's [`Group`] has exactly one model.
//!
//! Invariants:
//! - Only primary variables (`o + 1` for option `o`) and fresh auxiliary variables appear;
//!   every auxiliary variable is a function of the primary ones, so model counts projected
//!   on the primary variables equal the counts over all variables.
//! - The clauses keep exactly the solutions the native engines keep
//!   ([`Reduction::is_canonical`]); `docs/symmetry.md` has the argument.
//!
//! # The clauses
//!
//! - A unit clause `-x` for every
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

use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};

use crate::symmetry::{Group, Reduction, Symmetry};

use super::cnf::option_lit;

/// Adds a unit clause `-x` for each option the reduction removed (`kept[o]` false).
pub(super) fn add_removed(kept: &[bool], cnf: &mut Cnf) {
    for (o, &k) in kept.iter().enumerate() {
        if !k {
            cnf.add_clause(Clause::from([!option_lit(o as u32)]));
        }
    }
}

/// Adds the lex-leader constraints of the stabilisers the reduction left to check; `n` is
/// the number of options.
pub(super) fn add_lex_leaders(
    reduction: &Reduction,
    n: u32,
    cnf: &mut Cnf,
    vars: &mut BasicVarManager,
) {
    let group: &Group = reduction.group();
    if reduction.needs_check() {
        for r in 0..n {
            for &k in reduction.stabiliser_checks(r) {
                lex_leader(
                    &group.elements()[k as usize],
                    Some(option_lit(r)),
                    n,
                    cnf,
                    vars,
                );
            }
        }
        if reduction.pinned_item().is_none() {
            for g in &group.elements()[1..] {
                lex_leader(g, None, n, cnf, vars);
            }
        }
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
