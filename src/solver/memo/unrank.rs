//! The memo's counts as a map from numbers to solutions: solution number `r` of `N`.
//!
//! # Why the counts make a DAG of all solutions
//!
//! Once the root is counted, the table holds the count of every subproblem the search
//! met (the key of a node, and how many completions it has; see the parent module).
//! Those subproblems with a non-zero count are the nodes of a DAG whose paths from the
//! root to an empty subproblem are the solutions, each once: a node branches on one unit
//! item, and each live option covering it leads to the subproblem with that option taken.
//!
//! Number the solutions in the order the search meets them: at a node whose branches
//! have counts `c_1, c_2, ...`, the solutions below branch 1 come first (numbers `0` to
//! `c_1 - 1`), then those below branch 2, and so on. Solution `r` is then found in one
//! walk down: take the first branch `j` with `r < c_1 + ... + c_j`, subtract the counts
//! before it, and go on from there. That is *unranking*. A rank drawn uniformly from
//! `0..N` gives a solution drawn uniformly: the map is one to one onto the solutions.
//!
//! A count evicted from the table since (the table has a byte budget) is counted again
//! on the way down, and stored again: a walk never needs more than the budget.
//!
//! Where every unit item is covered and the matrix is not exact (optional cells, pieces
//! with a range), the rest of a solution is a set of the options with no unit item, in
//! the order the search counts them (increasing option numbers): ranked the same way,
//! "no more options" first.
//!
//! Invariants: `unrank(r)` for `r` in `0..total()` gives `total()` distinct solutions,
//! each a set of options of the matrix that is an exact cover; between calls the search
//! is at its root.

use num_bigint::BigUint;

use crate::matrix::Matrix;
use crate::solver::backtrack::Branch;

use super::input::Input;
use super::search::{Incomplete, Search};
use super::table::Table;
use super::MemoStats;

/// The solutions of one matrix, numbered from 0, found by number.
pub struct Unranker<'s> {
    search: Search<'s>,
    table: Table,
    total: BigUint,
    exact: bool,
}

impl<'s> Unranker<'s> {
    /// Counts the exact covers of `matrix` with a table of `memory` bytes at most;
    /// `stop` is polled as in a count.
    pub fn new(
        matrix: &Matrix,
        memory: usize,
        stop: &'s (dyn Fn() -> bool + Sync),
    ) -> Result<Unranker<'s>, Incomplete> {
        let input = Input::from(matrix);
        let mut search = Search::new(&input, stop);
        let mut table = Table::new(search.key_words(), memory);
        let total = search.count(&mut table)?.into_big();
        Ok(Unranker {
            search,
            table,
            total,
            exact: input.is_exact(),
        })
    }

    /// How many solutions there are.
    pub fn total(&self) -> &BigUint {
        &self.total
    }

    /// The count's statistics, and those of the walks since.
    pub fn stats(&self) -> MemoStats {
        MemoStats {
            nodes: self.search.nodes,
            subproblems: 1,
            workers: 1,
            table: self.table.stats(),
            layers: super::LayerStats::default(),
        }
    }

    /// Solution number `rank` (below [`Unranker::total`]), as its options in the order
    /// the walk took them.
    ///
    /// # Panics
    ///
    /// When `rank` is not below the total.
    pub fn unrank(&mut self, rank: &BigUint) -> Result<Vec<u32>, Incomplete> {
        assert!(
            rank < &self.total,
            "rank {rank} of {} solutions",
            self.total
        );
        let mut rank = rank.clone();
        let mut taken = Vec::new();
        let walked = self.walk(&mut rank, &mut taken);
        // Back to the root, whether the walk ended or stopped; the completion's options
        // (after `pushed`) were never pushed.
        let pushed = match &walked {
            Ok(pushed) => *pushed,
            Err(_) => taken.len(),
        };
        for &o in taken[..pushed].iter().rev() {
            self.search.pop(o);
        }
        walked.map(|_| taken)
    }

    /// Walks down to solution `rank`, pushing each option taken on the search and onto
    /// `taken`; returns how many were pushed (a completion's options are not).
    fn walk(&mut self, rank: &mut BigUint, taken: &mut Vec<u32>) -> Result<usize, Incomplete> {
        loop {
            match self.search.options() {
                Branch::On(options) => {
                    let mut chosen = None;
                    for o in options {
                        self.search.push(o);
                        let count = match self.search.count(&mut self.table) {
                            Ok(c) => c.into_big(),
                            Err(e) => {
                                self.search.pop(o);
                                return Err(e);
                            }
                        };
                        if *rank < count {
                            chosen = Some(o);
                            break;
                        }
                        *rank -= count;
                        self.search.pop(o);
                    }
                    // The branches' counts add up to the node's, which is above `rank`.
                    taken.push(chosen.expect("a branch holds the rank"));
                }
                Branch::Solution if self.exact => {
                    debug_assert_eq!(*rank, BigUint::ZERO);
                    return Ok(taken.len());
                }
                Branch::Solution => {
                    let pushed = taken.len();
                    self.search.nth_completion(rank, taken)?;
                    return Ok(pushed);
                }
                Branch::Dead => unreachable!("a walk only enters subproblems with solutions"),
            }
        }
    }
}
