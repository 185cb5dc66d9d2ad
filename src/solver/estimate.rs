//! How big each subproblem's search tree is, roughly: for a progress bar whose ETA follows
//! the work done rather than the number of subproblems done. Subproblems of one split differ
//! in size by orders of magnitude, so an ETA by count is wrong by minutes (issue 22, item 23).
//!
//! Knuth's estimator walks one random path down from the subproblem's root. At depth `d` the
//! node branches `b_d` ways; the path stands for `b_0 · … · b_d` nodes at depth `d + 1`, so
//! `1 + b_0 + b_0·b_1 + …` is an unbiased estimate of the tree's node count. Averaging a few
//! probes tames its variance; summed over many subproblems the errors shrink further.
//!
//! Invariant: an estimate is at least 1 (the subproblem's own node) and finite; the walk
//! uses only [`Engine::branch`], so the engine's node count and state are as before.
//!
//! # References
//!
//! D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of
//! Computation 29 (1975), 121-136.

use super::engine::{Branch, Engine};

/// Random probes per subproblem: enough to rank subproblems by size, cheap beside the search
/// (each probe is one path of `branch` calls).
const PROBES: usize = 8;

/// The estimated search-tree size of each subproblem in `jobs` (prefixes for `engine`).
pub(super) fn tree_sizes(engine: &mut dyn Engine, jobs: &[Vec<u32>]) -> Vec<f64> {
    // A fixed seed: the same split gets the same estimates from run to run.
    let mut state = SEED;
    jobs.iter()
        .map(|prefix| tree_size(engine, prefix, PROBES, &mut state))
        .collect()
}

/// The estimated size of the whole search tree, from `probes` random paths.
pub(super) fn whole_tree(engine: &mut dyn Engine, probes: usize) -> f64 {
    tree_size(engine, &[], probes, &mut SEED.clone())
}

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The mean of `probes` estimates of the tree below `prefix`.
fn tree_size(engine: &mut dyn Engine, prefix: &[u32], probes: usize, state: &mut u64) -> f64 {
    let mut path = Vec::new();
    let mut sum = 0.0;
    for _ in 0..probes {
        path.clear();
        path.extend_from_slice(prefix);
        let mut weight = 1.0f64;
        let mut nodes = 1.0f64;
        while let Branch::On(options) = engine.branch(&path) {
            if options.is_empty() {
                break;
            }
            weight *= options.len() as f64;
            nodes += weight;
            let pick = (splitmix(state) % options.len() as u64) as usize;
            path.push(options[pick]);
        }
        sum += nodes;
    }
    (sum / probes.max(1) as f64).clamp(1.0, f64::MAX)
}

/// SplitMix64: a tiny generator is all a probe needs, and it keeps estimates reproducible.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{Item, Matrix};

    fn matrix(items: u32, options: &[&[u32]]) -> Matrix {
        let mut m = Matrix::new(
            (0..items)
                .map(|i| Item::exact(format!("i{i}"), 1))
                .collect(),
        );
        for o in options {
            m.push_option(o);
        }
        m
    }

    /// Every option covers one item of its own: the tree is a path of single branches
    /// until the last item, so the estimate is exact.
    #[test]
    fn a_forced_search_is_estimated_exactly() {
        let matrix = matrix(3, &[&[0], &[1], &[2]]);
        let mut engine = crate::solver::dlx(&matrix);
        let sizes = tree_sizes(engine.as_mut(), &[Vec::new()]);
        assert_eq!(sizes, vec![4.0]);
    }

    /// A subproblem deeper in the tree is smaller than the whole search.
    #[test]
    fn a_subproblem_is_smaller_than_the_root() {
        // Two items, each covered by either of two options: 2 x 2 solutions.
        let matrix = matrix(2, &[&[0], &[0], &[1], &[1]]);
        let mut engine = crate::solver::dlx(&matrix);
        let sizes = tree_sizes(engine.as_mut(), &[Vec::new(), vec![0]]);
        assert_eq!(sizes, vec![7.0, 3.0]);
    }
}
