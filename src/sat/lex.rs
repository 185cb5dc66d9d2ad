//! The lex-leader chains: the one clausal construction of "this solution is the least of
//! its class", shared by the CNF compiler (`cnf.rs`) and the OPB export
//! (`export/linear.rs`), so that both keep exactly the same solutions. It depends on
//! nothing in `sat` but the variable numbering, and the compiler and the export depend on
//! it, never the other way.
//!
//! Invariants:
//! - Only primary variables (`o + 1` for option `o`, [`super::vars`]) and fresh
//!   auxiliary variables appear; every auxiliary variable is a function of the primary
//!   ones, so model counts projected on the primary variables equal the counts over all
//!   variables.
//! - With the unit clauses `-x` for the options the [`Reduction`] removed (the pinned
//!   item's non-representative options, added by the compiler), the chains keep exactly
//!   the solutions the native engines keep ([`Reduction::is_canonical`]), not merely as
//!   many: `docs/symmetry.md` has the argument, and a test compares the enumerations.
//! - [`chain_size`] counts exactly what [`lex_chain`] adds, so that the compiler can size
//!   a formula without building it.
//!
//! # The clauses
//!
//! For each [`LexLeader`] of the reduction (one per representative `r` and element `h`
//! of its stabiliser; one per group element when nothing was pinned), the chain
//! `x_r -> h(x) <=lex x` (Crawford et al. 1996; the linear chain of Aloul et al. 2006),
//! where `x` is the vector of primary variables and `1 > 0`. Among the solutions that
//! use `r`, one `Stab(r)`-orbit is one orbit of solutions, and exactly one member of
//! it, the one with the least sorted option list, satisfies every chain.
//!
//! # References
//!
//! - J. Crawford, M. Ginsberg, E. Luks, A. Roy: *Symmetry-Breaking Predicates for Search
//!   Problems*, KR 1996.
//! - F. Aloul, I. Markov, K. Sakallah: *Efficient Symmetry Breaking for Boolean
//!   Satisfiability*, IEEE Trans. Computers 55(5), 2006.

use rustsat::encodings::CollectClauses;
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};
use rustsat::OutOfMemory;

use crate::symmetry::{LexLeader, Reduction};

use super::vars::option_lit;

/// Adds the lex-leader chains of the stabilisers the reduction left to check, and says
/// how many: the OPB export's entry. Fresh variables come from `vars`, numbered after the
/// placements as in the CNF.
pub(crate) fn add_lex_leaders(
    reduction: &Reduction,
    cnf: &mut Cnf,
    vars: &mut BasicVarManager,
) -> usize {
    let leaders = reduction.lex_leaders();
    for leader in &leaders {
        lex_chain(leader, cnf, vars).expect("a CNF takes every clause");
    }
    leaders.len()
}

/// The variables, clauses and literals [`lex_chain`] adds for a leader of `len`
/// positions, with a condition or not: per position its clause (the guard, the previous
/// `e`, two literals), and before every position but the last the four or five clauses
/// that define its `e`.
pub(super) fn chain_size(len: usize, guarded: bool) -> (u64, u64, u64) {
    if len == 0 {
        return (0, 0, 0);
    }
    let (len, g) = (len as u64, guarded as u64);
    let links = len - 1; // the positions followed by another, each with its `e`
    let later = len.saturating_sub(2); // those that also have a previous `e`
    let clauses = len + 4 * links + later;
    let literals = len * (g + 2) + (len - 1) + 12 * links + 4 * later;
    (links, clauses, literals)
}

/// Adds `condition -> lesser <=lex greater` (`1 > 0`): at the first position where the
/// two sequences differ, `lesser` has the 0. `e_k` is defined as "equal up to and
/// including the k-th position", in both directions, so every auxiliary variable is a
/// function of the primary ones and the model count is not inflated.
pub(super) fn lex_chain<C: CollectClauses>(
    leader: &LexLeader,
    cnf: &mut C,
    vars: &mut BasicVarManager,
) -> Result<(), OutOfMemory> {
    let guard: Vec<Lit> = leader
        .condition
        .map(|c| !option_lit(c))
        .into_iter()
        .collect();
    let mut prefix_equal: Option<Lit> = None; // None: the empty prefix, always equal
    let last = leader.lesser.len();
    for (k, (&a, &b)) in leader.lesser.iter().zip(&leader.greater).enumerate() {
        let (low, high) = (option_lit(a), option_lit(b));
        // If the prefix is equal, not (low = 1 and high = 0).
        let mut c: Vec<Lit> = guard.clone();
        c.extend(prefix_equal.map(|e| !e));
        c.extend([!low, high]);
        cnf.add_clause(c.into_iter().collect())?;
        if k + 1 == last {
            break;
        }
        let e = vars.new_var().pos_lit();
        // e <-> prefix_equal and (low <-> high)
        if let Some(p) = prefix_equal {
            cnf.add_clause(Clause::from([!e, p]))?;
        }
        cnf.add_clause(Clause::from([!e, !low, high]))?;
        cnf.add_clause(Clause::from([!e, low, !high]))?;
        let mut both_true: Vec<Lit> = prefix_equal.map(|p| !p).into_iter().collect();
        both_true.extend([!low, !high, e]);
        cnf.add_clause(both_true.into_iter().collect())?;
        let mut both_false: Vec<Lit> = prefix_equal.map(|p| !p).into_iter().collect();
        both_false.extend([low, high, e]);
        cnf.add_clause(both_false.into_iter().collect())?;
        prefix_equal = Some(e);
    }
    Ok(())
}
