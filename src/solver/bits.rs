//! A bitset Algorithm X: the fast native engine.
//!
//! Same search as the DLX (branch on the unit item with the fewest remaining options),
//! but instead of unlinking and relinking nodes it *copies*: each level of the search
//! holds the list of options still viable and the count of viable options per item.
//! Choosing an option ORs its items into the covered mask and filters the parent's list
//! down to the options disjoint from that mask. Backtracking is free: the parent's list
//! and counts are untouched.
//!
//! The counts are *bit-sliced*: plane `k` holds bit `k` of every item's count. They are
//! computed with a carry-save (Harley-Seal) adder tree over blocks of eight options, a
//! few dozen word operations per block for all items at once; the item with the fewest
//! options then falls out of one scan of the planes from the top.
//!
//! Invariants:
//! - `mask[o]` holds option `o`'s items as bits; `covered` holds the unit items already
//!   covered and the multiplicity items whose copies are all placed.
//! - The list at a level holds exactly the options (with their masks inline, so the scan
//!   reads memory front to back) whose masks are disjoint from that level's `covered`,
//!   and its planes hold, bit-sliced, how many of them contain each item.
//!
//! Items live in a fixed array of `W` words, chosen at run time from the matrix size, so
//! the inner loops are a handful of word operations the compiler unrolls.

// The word loops index `0..W` on purpose: each reads as the bit operation it does on
// word w of several masks at once, and W is a constant the compiler unrolls.
#![allow(clippy::needless_range_loop)]

use super::backtrack::{Backtrack, Branch, Share, Visit};
use super::compact::{keep_disjoint, Kernel};
use super::descent::{Levels, Path};
use super::dlx::Dlx;
use super::mask::{has, set, uncoverable, Counts, Mask, OptionMap};
use super::segments::{partition, Segmented};
use crate::matrix::Matrix;

/// The bitset engine sized for the matrix: pieces as list segments (with any number of
/// copies) when the cells fit in two words, otherwise plain masks of the narrowest width
/// that holds every item. The DLX takes over for matrices that are not exact (optional
/// cells, count ranges), with more than 4096 items, with
/// two options that cover the same items, or whose copied lists could outgrow
/// [`LIST_BUDGET`] (a long search over wide masks: 1,800 dominoes in a 60x60 box would
/// want gigabytes, where the DLX needs megabytes).
pub fn build(matrix: &Matrix) -> Box<dyn Backtrack> {
    let fallback = |why: String| -> Box<dyn Backtrack> {
        Box::new(Fallback {
            dlx: Dlx::new(matrix),
            why,
        })
    };
    // The bitset search has no completion step for options without a unit item.
    if !matrix.is_exact() {
        return fallback("the bitset engine does not handle optional cells or count ranges".into());
    }
    let too_big = |words: usize| {
        let bytes = list_bytes(matrix, words);
        (bytes > LIST_BUDGET).then(|| {
            format!(
                "the bitset lists could take {} MiB",
                bytes.div_ceil(1 << 20)
            )
        })
    };
    let segmented = match partition(matrix) {
        Some(cells) if cells <= 128 => {
            let words = cells.div_ceil(64);
            if let Some(why) = too_big(words) {
                return fallback(why);
            }
            match words {
                1 => Segmented::<1>::new(matrix, cells).map(|e| Box::new(e) as Box<dyn Backtrack>),
                _ => Segmented::<2>::new(matrix, cells).map(|e| Box::new(e) as Box<dyn Backtrack>),
            }
        }
        _ => None,
    };
    if let Some(engine) = segmented {
        return engine;
    }
    fn boxed<const W: usize>(matrix: &Matrix) -> Option<Box<dyn Backtrack>> {
        Masks::<W>::new(matrix).map(|e| Box::new(e) as _)
    }
    let words = matrix.num_items().div_ceil(64);
    if words > 64 {
        return fallback(format!("{} items are more than 4096", matrix.num_items()));
    }
    let width = match words {
        0..=1 => 1,
        2 => 2,
        3..=4 => 4,
        5..=8 => 8,
        9..=16 => 16,
        _ => 64,
    };
    if let Some(why) = too_big(width) {
        return fallback(why);
    }
    match width {
        1 => boxed::<1>(matrix),
        2 => boxed::<2>(matrix),
        4 => boxed::<4>(matrix),
        8 => boxed::<8>(matrix),
        16 => boxed::<16>(matrix),
        _ => boxed::<64>(matrix),
    }
    .unwrap_or_else(|| fallback("two options cover the same items".into()))
}

/// The most memory the bitset engine's per-level lists may take.
pub const LIST_BUDGET: u64 = 256 << 20;

/// An upper bound on the bytes of the per-level lists: as many levels as a solution can
/// have options (unit items over the fewest unit items an option covers), each with at
/// most every option as a mask of `words` words.
fn list_bytes(matrix: &Matrix, words: usize) -> u64 {
    let units = (0..matrix.num_items() as u32)
        .filter(|&i| matrix.is_unit(i))
        .count() as u64;
    let fewest = (0..matrix.num_options() as u32)
        .map(|o| {
            matrix
                .option_items(o)
                .iter()
                .filter(|&&i| matrix.is_unit(i))
                .count() as u64
        })
        .min()
        .unwrap_or(1)
        .max(1);
    let levels = units / fewest + 1;
    levels * matrix.num_options() as u64 * words as u64 * 8
}

/// The DLX standing in for the bitset engine, saying why.
struct Fallback {
    dlx: Dlx,
    why: String,
}

impl Backtrack for Fallback {
    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>> {
        self.dlx.branch(prefix)
    }

    fn run_shared(
        &mut self,
        prefix: &[u32],
        visit: &mut Visit<'_>,
        share: &dyn Share,
        stop: &crate::stop::Stop,
    ) -> std::ops::ControlFlow<()> {
        self.dlx.run_shared(prefix, visit, share, stop)
    }

    fn nodes(&self) -> u64 {
        self.dlx.nodes()
    }

    fn describe(&self) -> String {
        format!("the dlx instead ({})", self.why)
    }
}

/// A viable option, as its item mask: the lists are read front to back with nothing
/// gathered from per-option tables. Distinct options have distinct masks (checked when the
/// engine is built), so the option number is looked up only for reported solutions.
type Entry<const W: usize> = Mask<W>;

/// One level of the search.
struct Level<const W: usize> {
    list: Vec<Entry<W>>,
    counts: Counts<W>,
    covered: Mask<W>,
}

/// The bitset search with cell masks of `W` words (each option its mask of cells).
pub struct Masks<const W: usize> {
    mask: Vec<Mask<W>>,
    option_of: OptionMap<Mask<W>>,
    unit_mask: Mask<W>,
    multiplicity: Vec<u32>,
    multiplicity_items: Vec<u32>,
    remaining: Vec<u32>,
    levels: Vec<Level<W>>,
    path: Path<Mask<W>>,
    kernel: Kernel,
}

impl<const W: usize> Masks<W> {
    /// `None` when two options have the same items (the engine tells options apart by
    /// their masks).
    pub fn new(matrix: &Matrix) -> Option<Self> {
        let n = matrix.num_items();
        assert!(n <= W * 64);
        let mut mask = Vec::with_capacity(matrix.num_options());
        let mut option_of =
            OptionMap::with_capacity_and_hasher(matrix.num_options(), Default::default());
        for o in 0..matrix.num_options() as u32 {
            let mut m = [0u64; W];
            for &i in matrix.option_items(o) {
                set(&mut m, i);
            }
            if option_of.insert(m, o).is_some() {
                return None;
            }
            mask.push(m);
        }
        let multiplicity: Vec<u32> = matrix.items().iter().map(|i| i.max).collect();
        let mut unit_mask = [0u64; W];
        for i in 0..n as u32 {
            if multiplicity[i as usize] == 1 {
                set(&mut unit_mask, i);
            }
        }
        Some(Masks {
            unit_mask,
            mask,
            option_of,
            multiplicity_items: (0..n as u32)
                .filter(|&i| multiplicity[i as usize] > 1)
                .collect(),
            remaining: multiplicity.clone(),
            multiplicity,
            levels: Vec::new(),
            path: Path::default(),
            kernel: Kernel::detect(),
        })
    }

    fn level(&mut self, d: usize) -> &mut Level<W> {
        while self.levels.len() <= d {
            self.levels.push(Level {
                list: Vec::new(),
                counts: Counts::new(),
                covered: [0; W],
            });
        }
        &mut self.levels[d]
    }
}

impl<const W: usize> Levels for Masks<W> {
    type Key = Mask<W>;

    fn path(&mut self) -> &mut Path<Mask<W>> {
        &mut self.path
    }

    fn nodes(&self) -> u64 {
        self.path.nodes
    }

    fn describe(&self) -> String {
        format!(
            "item masks of {W} word(s), {} list compaction",
            self.kernel.effective::<W>().name()
        )
    }

    fn key(&self, o: u32) -> Mask<W> {
        self.mask[o as usize]
    }

    fn option(&self, key: &Mask<W>) -> u32 {
        self.option_of[key]
    }

    fn reset(&mut self) {
        self.remaining.clone_from(&self.multiplicity);
        let n_options = self.mask.len() as u32;
        self.level(0);
        let level = &mut self.levels[0];
        level.list.clear();
        level
            .list
            .extend((0..n_options).map(|o| self.mask[o as usize]));
        level.counts.count(&level.list);
        level.covered = [0; W];
    }

    fn descend(&mut self, d: usize, chosen: Mask<W>) -> bool {
        debug_assert!(
            self.levels[d].list.contains(&chosen),
            "the option is not viable at this level"
        );
        let mut covered = self.levels[d].covered;
        for w in 0..W {
            covered[w] |= chosen[w] & self.unit_mask[w];
        }
        for w in 0..W {
            let mut bits = chosen[w] & !self.unit_mask[w];
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.remaining[i] -= 1;
                if self.remaining[i] == 0 {
                    set(&mut covered, i as u32);
                }
            }
        }
        self.level(d + 1);
        let (lower, upper) = self.levels.split_at_mut(d + 1);
        let (parent, child) = (&lower[d], &mut upper[0]);
        child.covered = covered;
        child.list.resize(parent.list.len(), [0; W]);
        let mut union = [0u64; W];
        let len = keep_disjoint(
            self.kernel,
            &parent.list,
            &mut child.list,
            &covered,
            &mut union,
        );
        child.list.truncate(len);
        // An uncovered unit item that no surviving option contains: the child is dead, and
        // counting would only confirm it. (Its planes are left stale; it is never read.)
        if uncoverable(&self.unit_mask, &covered, &union) {
            return false;
        }
        child.counts.count(&child.list);
        true
    }

    fn ascend(&mut self, chosen: Mask<W>) {
        for w in 0..W {
            let mut bits = chosen[w] & !self.unit_mask[w];
            while bits != 0 {
                self.remaining[w * 64 + bits.trailing_zeros() as usize] += 1;
                bits &= bits - 1;
            }
        }
    }

    fn choose(&self, d: usize) -> Branch<u32> {
        let level = &self.levels[d];
        // Fewest options; ties go to the item listed last, as in the DLX, so that both
        // engines walk the same tree.
        let mut candidates = [0u64; W];
        let mut open = 0;
        for w in 0..W {
            candidates[w] = !level.covered[w] & self.unit_mask[w];
            open |= candidates[w];
        }
        if open == 0 {
            return if self
                .multiplicity_items
                .iter()
                .all(|&j| self.remaining[j as usize] == 0)
            {
                Branch::Solution
            } else {
                Branch::Dead
            };
        }
        let (best, count) = level.counts.least(candidates);
        if count == 0 {
            return Branch::Dead;
        }
        for &j in &self.multiplicity_items {
            if level.counts.count_of(j) < self.remaining[j as usize] {
                return Branch::Dead;
            }
        }
        Branch::On(best)
    }

    fn collect(&self, d: usize, item: u32, into: &mut Vec<Mask<W>>) {
        into.extend(self.levels[d].list.iter().filter(|m| has(m, item)));
    }
}
