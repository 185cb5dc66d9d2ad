//! Subproblems: how every search is cut near its root, for threads, SAT cubes, parts and
//! checkpoints.
//!
//! A subproblem is a prefix of chosen options. The search is cut breadth first by a native
//! engine's own branching, so that every solution of the reduced matrix extends exactly
//! one prefix, and the subproblems' counts add up to the whole count.
//!
//! Invariants: the cut depends only on the matrix, the reduction and the number wanted
//! (never on the engine that later runs it, the threads or the machine: it is always made
//! by the bitset engine, which is deterministic); this module depends on the native
//! engines' trait and the bitset engine, never on the driver in `solver/mod.rs`.

use super::backtrack::{Backtrack, Branch};
use crate::symmetry::Reduction;

/// Splits the search into subproblems (prefixes of chosen options), breadth first, until
/// there are at least `want` of them (or the search is eight levels deep).
pub(crate) fn split(engine: &mut dyn Backtrack, want: usize) -> Vec<Vec<u32>> {
    let mut frontier: Vec<Vec<u32>> = vec![Vec::new()];
    let mut leaves = Vec::new();
    for _depth in 0..8 {
        if frontier.len() >= want {
            break;
        }
        let mut next = Vec::new();
        for prefix in frontier {
            match engine.branch(&prefix) {
                Branch::On(options) => next.extend(options.into_iter().map(|o| {
                    let mut p = prefix.clone();
                    p.push(o);
                    p
                })),
                Branch::Solution => leaves.push(prefix),
                Branch::Dead => {}
            }
        }
        frontier = next;
    }
    leaves.extend(frontier);
    leaves
}

/// Splits the reduced problem into at least `want` disjoint subproblems where it can:
/// every solution of the reduced matrix extends exactly one returned prefix. Prefixes are
/// options of the *original* matrix: SAT cubes, and the subproblems of
/// `parts::Split`. Always made by the bitset engine, so that the split does not
/// depend on the engine that later runs it.
pub fn subproblems(reduction: &Reduction, want: usize) -> Vec<Vec<u32>> {
    let mut engine = super::bits::build(reduction.matrix());
    split(engine.as_mut(), want)
        .into_iter()
        .map(|p| p.into_iter().map(|o| reduction.original(o)).collect())
        .collect()
}

/// A prefix of original options as options of the reduced matrix. Every option of a
/// prefix from [`subproblems`] is kept by the reduction.
pub fn reduced_prefix(reduction: &Reduction, prefix: &[u32]) -> Vec<u32> {
    prefix
        .iter()
        .map(|o| {
            reduction
                .kept()
                .binary_search(o)
                .expect("a subproblem's options are kept by the reduction") as u32
        })
        .collect()
}
