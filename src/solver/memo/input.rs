//! What the memo counts: items with bounds, and options that cover items, each some number
//! of times (its *weight*).
//!
//! An exact-cover [`Matrix`] is the case where every weight is 1. Weights above 1 come
//! from Burnside's quotients ([`crate::burnside::Quotient`]): an orbit of placements under
//! a symmetry uses several copies of a piece at once.
//!
//! Invariants: an option lists distinct items in increasing order, each with a weight of
//! at least 1; an item with `max == 1` has weight 1 wherever it appears; `min <= max`.

use super::order::{self, Branching};
use crate::burnside::Quotient;
use crate::matrix::Matrix;

/// Items with bounds, and options as (item, weight) lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// Each item's bounds: how often, in all, a solution covers it.
    pub(super) items: Vec<(u32, u32)>,
    pub(super) options: Vec<Vec<(u32, u32)>>,
    /// How the search picks the item to branch on; with [`Branching::Sweep`] the items
    /// are numbered in the sweep's order ([`order::arrange`]).
    pub(super) branching: Branching,
}

impl Input {
    pub(super) fn num_items(&self) -> usize {
        self.items.len()
    }

    pub(super) fn num_entries(&self) -> usize {
        self.options.iter().map(Vec::len).sum()
    }

    /// Every item is covered an exact number of times.
    pub(super) fn is_exact(&self) -> bool {
        self.items.iter().all(|&(min, max)| min == max)
    }

    /// Some option covers an item more than once.
    pub(super) fn is_weighted(&self) -> bool {
        self.options.iter().flatten().any(|&(_, w)| w > 1)
    }
}

impl Input {
    /// The input of these items and options, its branching chosen by [`order::rule`]
    /// (and its items renumbered for a sweep).
    pub(super) fn new(mut items: Vec<(u32, u32)>, mut options: Vec<Vec<(u32, u32)>>) -> Input {
        let branching = order::rule(&items, &options);
        if branching == Branching::Sweep {
            order::arrange(&mut items, &mut options);
        }
        Input {
            items,
            options,
            branching,
        }
    }

    /// How the search branches, and why, for the `c solver` line.
    pub fn branching(&self) -> (Branching, &'static str) {
        (self.branching, order::reason(self.branching))
    }
}

impl From<&Matrix> for Input {
    fn from(matrix: &Matrix) -> Input {
        Input::new(
            matrix.items().iter().map(|i| (i.min, i.max)).collect(),
            (0..matrix.num_options() as u32)
                .map(|o| matrix.option_items(o).iter().map(|&i| (i, 1)).collect())
                .collect(),
        )
    }
}

impl From<&Quotient> for Input {
    fn from(q: &Quotient) -> Input {
        Input::new(q.items.clone(), q.options.clone())
    }
}
