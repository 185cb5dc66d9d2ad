//! The memo's first cut: its search, breadth first from the root, into the subproblems
//! its workers start from (`count_on`, `count_sum` in the module above).
//!
//! Invariant: every solution extends exactly one prefix returned, and a prefix's number
//! is how many prefixes of the search with the same key it stands for; the search is
//! left as it was.

use std::collections::HashMap;

use crate::solver::backtrack::Branch;

use super::search::Search;

/// Cuts the search breadth first into at least `want` subproblems where it can (at most
/// eight levels deep), merging those with the same key: each comes with how many
/// prefixes reached it. Every solution extends exactly one of the prefixes merged.
pub(super) fn split(search: &mut Search<'_>, want: usize) -> Vec<(Vec<u32>, u64)> {
    let mut frontier: Vec<(Vec<u32>, u64)> = vec![(Vec::new(), 1)];
    let mut leaves = Vec::new();
    for _depth in 0..8 {
        if frontier.len() >= want {
            break;
        }
        let mut next: Vec<(Vec<u32>, u64)> = Vec::new();
        let mut seen: HashMap<Vec<u64>, usize> = HashMap::new();
        for (prefix, times) in frontier {
            for &o in &prefix {
                search.push(o);
            }
            match search.options() {
                Branch::On(options) => {
                    for o in options {
                        search.push(o);
                        match seen.get(search.key()) {
                            Some(&k) => next[k].1 += times,
                            None => {
                                seen.insert(search.key().to_vec(), next.len());
                                let mut p = prefix.clone();
                                p.push(o);
                                next.push((p, times));
                            }
                        }
                        search.pop(o);
                    }
                }
                // Completed (or completed by the options without unit items): counted
                // as a subproblem of its own.
                Branch::Solution => leaves.push((prefix.clone(), times)),
                Branch::Dead => {}
            }
            for &o in prefix.iter().rev() {
                search.pop(o);
            }
        }
        frontier = next;
    }
    leaves.extend(frontier);
    leaves
}
