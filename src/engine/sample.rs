//! Solutions drawn uniformly at random (`polycover sample`).
//!
//! # Uniform over the solutions
//!
//! The memo counts the exact covers of the matrix and numbers them
//! (`src/solver/memo/unrank.rs`): a rank drawn uniformly from `0..N` is a solution
//! drawn uniformly. With no symmetry (`--symmetry none`) that is the whole sampler.
//!
//! # Uniform over the orbits, by rejection
//!
//! Up to symmetry each orbit of solutions must come out equally often, whatever its size.
//! The reduction's matrix ([`crate::symmetry::Reduction`]) holds `m(C) >= 1` members of
//! each orbit `C`: exactly one when the reduction needs no canonical-form check, more
//! where a pinned placement has symmetries of its own, the whole orbit where nothing was
//! pinned. So a try draws a solution `S` of the reduced matrix uniformly (each with
//! probability `1/N'`), finds `m(C)` as the number of distinct images `g(S)`, `g` in the
//! group, that use only options the reduction keeps (those are exactly the members of
//! `S`'s orbit in the reduced matrix), and keeps `S` with probability `1/m(C)`; else it
//! tries again. A try then yields orbit `C` with probability `m(C)/N' * 1/m(C) = 1/N'`,
//! the same for every orbit, so a kept draw is uniform over the orbits. Tries per draw
//! average `N'/orbits`, at most the group's order (and 1 when no check is needed).
//!
//! The solution printed is the member drawn, not a canonical one.
//!
//! # Reproducible
//!
//! The random numbers come from a PCG generator (`rand_pcg::Pcg64Mcg`) seeded by a `u64`:
//! its stream is fixed by its definition, so a seed gives the same solutions on every
//! machine and every version of polycover that numbers the solutions the same way.
//!
//! Invariants: a draw is a solution of the original matrix (sorted options), uniform
//! over the orbits of the problem's symmetry mode; a stopped count or walk is
//! [`crate::error::Error::Interrupted`], never a partial solution.

use num_bigint::{BigRng010, BigUint};
use rand_pcg::rand_core::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::Problem;
use crate::error::{Error, Result};
use crate::solver::memo::{Incomplete, Unranker};

/// Draws solutions of one problem, uniformly over its orbits.
pub struct Sampler<'p> {
    problem: &'p Problem,
    unranker: Unranker<'p>,
    /// Per original option: whether the reduced matrix keeps it.
    kept: Vec<bool>,
    rng: Pcg64Mcg,
    tries: u64,
}

impl<'p> Sampler<'p> {
    /// Counts the problem's reduced matrix with the memo (a table of at most `memory`
    /// bytes), ready to draw with the generator seeded by `seed`. `stop` is polled
    /// during the count and every walk.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] when `stop` ended the count.
    pub(crate) fn new(
        problem: &'p Problem,
        seed: u64,
        memory: usize,
        stop: &'p (dyn Fn() -> bool + Sync),
    ) -> Result<Sampler<'p>> {
        let unranker = Unranker::new(problem.reduction.matrix(), memory, stop)
            .map_err(|Incomplete| Error::Interrupted("while counting the solutions".into()))?;
        Ok(Sampler {
            problem,
            unranker,
            kept: problem.reduction.kept_mask(),
            rng: Pcg64Mcg::seed_from_u64(seed),
            tries: 0,
        })
    }

    /// Refuses (a usage error, as `count` does) a problem whose memo table's widest
    /// sweep step alone may hold more than `memory` bytes: [`Sampler::new`] would count
    /// the same subproblems again and again, for hours. Call it before `new`.
    pub(crate) fn fits(problem: &Problem, memory: usize) -> Result<()> {
        let estimate =
            crate::solver::memo::Input::from(problem.reduction.matrix()).table_estimate();
        crate::engine::refuse_past_budget(estimate, memory, crate::engine::Instead::Sample)
    }

    /// The number of solutions of the reduced matrix (each orbit at least once): zero
    /// when the puzzle has none.
    pub fn solutions(&self) -> &BigUint {
        self.unranker.total()
    }

    /// Tries so far, kept and rejected.
    pub fn tries(&self) -> u64 {
        self.tries
    }

    /// The memo's statistics for the counts behind the draws, for a person: nodes, table
    /// entries and the table's peak size.
    pub fn statistics(&self) -> String {
        let s = self.unranker.stats();
        format!(
            "nodes {}, table entries {}, {:.1} MiB",
            s.nodes,
            s.table.peak_entries,
            s.table.peak_bytes as f64 / (1 << 20) as f64
        )
    }

    /// One solution (sorted options of the original matrix), uniform over the orbits;
    /// `None` when there is none.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] when `stop` ended the walk.
    pub fn draw(&mut self) -> Result<Option<Vec<u32>>> {
        if *self.solutions() == BigUint::ZERO {
            return Ok(None);
        }
        loop {
            let solution = self
                .try_one()
                .map_err(|Incomplete| Error::Interrupted("while drawing a solution".into()))?;
            let members = self.members_kept(&solution);
            if members == 1
                || self.rng.random_biguint_below(&BigUint::from(members)) == BigUint::ZERO
            {
                return Ok(Some(solution));
            }
        }
    }

    /// A solution of the reduced matrix, uniform, as sorted original options.
    fn try_one(&mut self) -> std::result::Result<Vec<u32>, Incomplete> {
        self.tries += 1;
        let rank = self.rng.random_biguint_below(self.unranker.total());
        let reduced = self.unranker.unrank(&rank)?;
        let mut solution: Vec<u32> = reduced
            .iter()
            .map(|&o| self.problem.reduction.original(o))
            .collect();
        solution.sort_unstable();
        Ok(solution)
    }

    /// How many members of `solution`'s orbit the reduced matrix holds: the distinct
    /// images under the group that use kept options only.
    fn members_kept(&self, solution: &[u32]) -> u64 {
        let group = self.problem.reduction.group();
        if group.order() == 1 {
            return 1;
        }
        let mut images: Vec<Vec<u32>> = Vec::new();
        let mut image = Vec::with_capacity(solution.len());
        for g in group.elements() {
            g.apply_sorted(solution, &mut image);
            if image.iter().all(|&o| self.kept[o as usize]) && !images.contains(&image) {
                images.push(image.clone());
            }
        }
        images.len() as u64
    }
}

#[cfg(test)]
mod tests;
