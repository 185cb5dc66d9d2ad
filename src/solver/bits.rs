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

use std::ops::ControlFlow;

use super::compact::{keep_disjoint, Kernel};
use super::{Branch, Engine, Visit};
use crate::matrix::Matrix;

/// The bitset engine, sized for the matrix.
pub enum Bits {
    /// Puzzles with one copy of each piece: pieces as list segments, cells as masks.
    S1(super::segments::Segmented<1>),
    S2(super::segments::Segmented<2>),
    W1(Search<1>),
    W2(Search<2>),
    W4(Search<4>),
    W8(Search<8>),
    W16(Search<16>),
    W64(Search<64>),
    /// Matrices with more than 4096 items, or with two options covering the same items,
    /// use the DLX.
    Large(super::dlx::Dlx),
}

macro_rules! each {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            Bits::S1($s) => $e,
            Bits::S2($s) => $e,
            Bits::W1($s) => $e,
            Bits::W2($s) => $e,
            Bits::W4($s) => $e,
            Bits::W8($s) => $e,
            Bits::W16($s) => $e,
            Bits::W64($s) => $e,
            Bits::Large($s) => $e,
        }
    };
}

impl Engine for Bits {
    fn from_matrix(matrix: &Matrix) -> Self {
        use super::segments::{partition, Segmented};
        let segmented = match partition(matrix) {
            Some(cells) if cells <= 64 => Segmented::new(matrix, cells).map(Bits::S1),
            Some(cells) if cells <= 128 => Segmented::new(matrix, cells).map(Bits::S2),
            _ => None,
        };
        if let Some(engine) = segmented {
            return engine;
        }
        match matrix.num_items().div_ceil(64) {
            0..=1 => Search::new(matrix).map(Bits::W1),
            2 => Search::new(matrix).map(Bits::W2),
            3..=4 => Search::new(matrix).map(Bits::W4),
            5..=8 => Search::new(matrix).map(Bits::W8),
            9..=16 => Search::new(matrix).map(Bits::W16),
            17..=64 => Search::new(matrix).map(Bits::W64),
            _ => None,
        }
        .unwrap_or_else(|| Bits::Large(super::dlx::Dlx::new(matrix)))
    }

    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>> {
        each!(self, s => s.branch(prefix))
    }

    fn run(&mut self, prefix: &[u32], visit: &mut Visit<'_>) -> ControlFlow<()> {
        each!(self, s => s.run(prefix, visit))
    }

    fn nodes(&self) -> u64 {
        each!(self, s => s.nodes())
    }
}

pub(super) type Mask<const W: usize> = [u64; W];

#[inline]
pub(super) fn disjoint<const W: usize>(a: &Mask<W>, b: &Mask<W>) -> bool {
    let mut acc = 0;
    for k in 0..W {
        acc |= a[k] & b[k];
    }
    acc == 0
}

#[inline]
pub(super) fn has<const W: usize>(m: &Mask<W>, i: u32) -> bool {
    m[(i / 64) as usize] >> (i % 64) & 1 == 1
}

#[inline]
pub(super) fn set<const W: usize>(m: &mut Mask<W>, i: u32) {
    m[(i / 64) as usize] |= 1 << (i % 64);
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

/// Whether some item of `items` is neither covered nor in any surviving option (`union`):
/// then no solution extends the node.
#[inline(always)]
pub(super) fn uncoverable<const W: usize>(
    items: &Mask<W>,
    covered: &Mask<W>,
    union: &Mask<W>,
) -> bool {
    (0..W).any(|w| items[w] & !covered[w] & !union[w] != 0)
}

/// Bit-sliced counts of a list of masks: bit `k` of `planes[k]` at item `i` is bit `k`
/// of the number of masks containing item `i`. Planes from `used` on are zero.
pub(super) struct Counts<const W: usize> {
    planes: [Mask<W>; PLANES],
    used: usize,
}

/// Enough planes for any list a `u32` can index.
const PLANES: usize = 34;

/// A carry-save adder over whole words: the sum bits and the carry bits of `a + b + c`,
/// for 64 items at once.
#[inline(always)]
fn csa(a: u64, b: u64, c: u64) -> (u64, u64) {
    let u = a ^ b;
    (u ^ c, (a & b) | (u & c))
}

/// Adds eight item masks to the bit-sliced counts in `planes[..used]`.
#[inline(always)]
fn add_block<const W: usize>(planes: &mut [Mask<W>; PLANES], used: usize, m: [&Mask<W>; 8]) {
    for w in 0..W {
        let (ones, ta) = csa(planes[0][w], m[0][w], m[1][w]);
        let (ones, tb) = csa(ones, m[2][w], m[3][w]);
        let (twos, fa) = csa(planes[1][w], ta, tb);
        let (ones, ta) = csa(ones, m[4][w], m[5][w]);
        let (ones, tb) = csa(ones, m[6][w], m[7][w]);
        let (twos, fb) = csa(twos, ta, tb);
        let (fours, mut carry) = csa(planes[2][w], fa, fb);
        planes[0][w] = ones;
        planes[1][w] = twos;
        planes[2][w] = fours;
        for plane in &mut planes[3..used] {
            let c = plane[w] & carry;
            plane[w] ^= carry;
            carry = c;
        }
    }
}

impl<const W: usize> Counts<W> {
    pub(super) fn new() -> Self {
        Counts {
            planes: [[0; W]; PLANES],
            used: 0,
        }
    }

    /// Sets the planes to the per-item counts of `list`, with a Harley-Seal carry-save
    /// tree over blocks of eight options: each block costs a few dozen word operations
    /// for every item at once, and no counter in memory is touched, so nothing waits on
    /// a store.
    pub(super) fn count(&mut self, list: &[Mask<W>]) {
        let n = list.len();
        // Planes 0..3 take the ones, twos and fours; the eights ripple into the rest.
        let high = (usize::BITS - (n / 8).leading_zeros()) as usize;
        let used = (3 + high + 1).min(PLANES);
        for p in &mut self.planes[..self.used.max(used)] {
            *p = [0; W];
        }
        self.used = used;
        let mut blocks = list.chunks_exact(8);
        for b in &mut blocks {
            let masks: [&Mask<W>; 8] = std::array::from_fn(|k| &b[k]);
            add_block(&mut self.planes, used, masks);
        }
        // The last partial block, padded with empty masks: one more tree is cheaper than
        // rippling up to seven masks through every plane.
        let rest = blocks.remainder();
        if !rest.is_empty() {
            let empty = [0u64; W];
            let masks: [&Mask<W>; 8] = std::array::from_fn(|k| rest.get(k).unwrap_or(&empty));
            add_block(&mut self.planes, used, masks);
        }
    }

    /// The count of item `i`, read back from the planes.
    pub(super) fn count_of(&self, i: u32) -> u32 {
        (0..self.used)
            .map(|k| (has(&self.planes[k], i) as u32) << k)
            .sum()
    }

    /// Among the items in `candidates` (not empty), the one with the fewest options,
    /// ties going to the highest item, and its count. The least count is the
    /// lexicographically least bit string: walk the planes from the top, keeping the
    /// candidates whose bit is 0 whenever some are.
    pub(super) fn least(&self, mut candidates: Mask<W>) -> (u32, u32) {
        for plane in self.planes[..self.used].iter().rev() {
            let mut t = [0u64; W];
            let mut any = 0;
            for w in 0..W {
                t[w] = candidates[w] & !plane[w];
                any |= t[w];
            }
            if any != 0 {
                candidates = t;
            }
        }
        let w = W
            - 1
            - candidates
                .iter()
                .rev()
                .position(|&x| x != 0)
                .expect("a candidate");
        let best = w as u32 * 64 + 63 - candidates[w].leading_zeros();
        (best, self.count_of(best))
    }
}

pub struct Search<const W: usize> {
    mask: Vec<Mask<W>>,
    option_of: std::collections::HashMap<Mask<W>, u32>,
    unit_mask: Mask<W>,
    multiplicity: Vec<u32>,
    multiplicity_items: Vec<u32>,
    remaining: Vec<u32>,
    levels: Vec<Level<W>>,
    chosen: Vec<Mask<W>>,
    solution: Vec<u32>,
    nodes: u64,
    kernel: Kernel,
}

impl<const W: usize> Search<W> {
    /// `None` when two options have the same items (the engine tells options apart by
    /// their masks).
    pub fn new(matrix: &Matrix) -> Option<Self> {
        let n = matrix.num_items();
        assert!(n <= W * 64);
        let mut mask = Vec::with_capacity(matrix.num_options());
        let mut option_of = std::collections::HashMap::with_capacity(matrix.num_options());
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
        let multiplicity: Vec<u32> = matrix.items().iter().map(|i| i.multiplicity).collect();
        let mut unit_mask = [0u64; W];
        for i in 0..n as u32 {
            if multiplicity[i as usize] == 1 {
                set(&mut unit_mask, i);
            }
        }
        Some(Search {
            unit_mask,
            mask,
            option_of,
            multiplicity_items: (0..n as u32)
                .filter(|&i| multiplicity[i as usize] > 1)
                .collect(),
            remaining: multiplicity.clone(),
            multiplicity,
            levels: Vec::new(),
            chosen: Vec::new(),
            solution: Vec::new(),
            nodes: 0,
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

    /// Level 0: every option, nothing covered.
    fn reset(&mut self) {
        self.remaining.clone_from(&self.multiplicity);
        self.chosen.clear();
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

    /// Fills level `d + 1` from level `d` after choosing option `o`.
    /// Returns false when the child is dead for lack of options for some item; its
    /// level is then incomplete and must not be searched.
    fn descend(&mut self, d: usize, chosen: Mask<W>) -> bool {
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
        self.chosen.push(chosen);
        // An uncovered unit item that no surviving option contains: the child is dead, and
        // counting would only confirm it. (Its planes are left stale; it is never read.)
        if uncoverable(&self.unit_mask, &covered, &union) {
            return false;
        }
        child.counts.count(&child.list);
        true
    }

    fn ascend(&mut self) {
        let chosen = self.chosen.pop().expect("a chosen option");
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

    fn search(&mut self, d: usize, visit: &mut Visit<'_>) -> ControlFlow<()> {
        self.nodes += 1;
        let item = match self.choose(d) {
            Branch::Solution => {
                self.solution.clear();
                self.solution
                    .extend(self.chosen.iter().map(|m| self.option_of[m]));
                return visit(&self.solution);
            }
            Branch::Dead => return ControlFlow::Continue(()),
            Branch::On(i) => i,
        };
        // The child levels are overwritten while we iterate, so walk by index.
        let mut k = 0;
        while k < self.levels[d].list.len() {
            let mask = self.levels[d].list[k];
            k += 1;
            if !has(&mask, item) {
                continue;
            }
            let flow = if self.descend(d, mask) {
                self.search(d + 1, visit)
            } else {
                self.nodes += 1; // the dead child is a node, as in the DLX
                ControlFlow::Continue(())
            };
            self.ascend();
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Applies a prefix from level 0; returns the level reached, or `None` when the
    /// prefix leads to a dead node.
    fn apply(&mut self, prefix: &[u32]) -> Option<usize> {
        self.reset();
        for (d, &o) in prefix.iter().enumerate() {
            debug_assert!(
                self.levels[d].list.contains(&self.mask[o as usize]),
                "prefix option not available"
            );
            if !self.descend(d, self.mask[o as usize]) {
                return None;
            }
        }
        Some(prefix.len())
    }

    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>> {
        let Some(d) = self.apply(prefix) else {
            return Branch::Dead;
        };
        match self.choose(d) {
            Branch::On(i) => Branch::On(
                self.levels[d]
                    .list
                    .iter()
                    .filter(|e| has(e, i))
                    .map(|e| self.option_of[e])
                    .collect(),
            ),
            Branch::Solution => Branch::Solution,
            Branch::Dead => Branch::Dead,
        }
    }

    fn run(&mut self, prefix: &[u32], visit: &mut Visit<'_>) -> ControlFlow<()> {
        let Some(d) = self.apply(prefix) else {
            self.nodes += 1;
            return ControlFlow::Continue(());
        };
        self.search(d, visit)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
