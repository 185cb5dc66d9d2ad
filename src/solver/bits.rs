//! A bitset Algorithm X: the fast native engine.
//!
//! Same search as the DLX (branch on the unit item with the fewest remaining options),
//! but instead of unlinking and relinking nodes it *copies*: each level of the search
//! holds the list of options still viable and the count of viable options per item.
//! Choosing an option ORs its items into the covered mask and filters the parent's list
//! down to the options disjoint from that mask, counting items as it goes. Backtracking
//! is free: the parent's list and counts are untouched.
//!
//! Invariants:
//! - `mask[o]` holds option `o`'s items as bits; `covered` holds the unit items already
//!   covered and the multiplicity items whose copies are all placed.
//! - The list at a level holds exactly the options (with their masks inline, so the scan
//!   reads memory front to back) whose masks are disjoint from that
//!   level's `covered`, and `counts[i]` is the number of them containing item `i`.
//!
//! Items live in a fixed array of `W` words, chosen at run time from the matrix size, so
//! the inner loop is a handful of word ANDs the compiler unrolls.

use std::ops::ControlFlow;

use super::{Branch, Engine, Visit};
use crate::matrix::Matrix;

/// The bitset engine, sized for the matrix.
pub enum Bits {
    W1(Search<1>),
    W2(Search<2>),
    W4(Search<4>),
    W8(Search<8>),
    W16(Search<16>),
    W64(Search<64>),
    /// Matrices with more than 4096 items use the DLX.
    Large(super::dlx::Dlx),
}

macro_rules! each {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
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
        match matrix.num_items().div_ceil(64) {
            0..=1 => Bits::W1(Search::new(matrix)),
            2 => Bits::W2(Search::new(matrix)),
            3..=4 => Bits::W4(Search::new(matrix)),
            5..=8 => Bits::W8(Search::new(matrix)),
            9..=16 => Bits::W16(Search::new(matrix)),
            17..=64 => Bits::W64(Search::new(matrix)),
            _ => Bits::Large(super::dlx::Dlx::new(matrix)),
        }
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

type Mask<const W: usize> = [u64; W];

#[inline]
fn disjoint<const W: usize>(a: &Mask<W>, b: &Mask<W>) -> bool {
    let mut acc = 0;
    for k in 0..W {
        acc |= a[k] & b[k];
    }
    acc == 0
}

#[inline]
fn has<const W: usize>(m: &Mask<W>, i: u32) -> bool {
    m[(i / 64) as usize] >> (i % 64) & 1 == 1
}

#[inline]
fn set<const W: usize>(m: &mut Mask<W>, i: u32) {
    m[(i / 64) as usize] |= 1 << (i % 64);
}

/// A viable option with its item mask inline, so that filtering and counting read the
/// list front to back instead of gathering from per-option tables.
#[derive(Clone, Copy)]
struct Entry<const W: usize> {
    mask: Mask<W>,
    option: u32,
}

/// One level of the search.
struct Level<const W: usize> {
    list: Vec<Entry<W>>,
    counts: Vec<u32>,
    covered: Mask<W>,
}

pub struct Search<const W: usize> {
    n_items: usize,
    mask: Vec<Mask<W>>,
    /// Option items, compressed rows.
    start: Vec<u32>,
    items: Vec<u32>,
    unit: Vec<bool>,
    multiplicity: Vec<u32>,
    multiplicity_items: Vec<u32>,
    remaining: Vec<u32>,
    levels: Vec<Level<W>>,
    chosen: Vec<u32>,
    nodes: u64,
}

impl<const W: usize> Search<W> {
    pub fn new(matrix: &Matrix) -> Self {
        let n = matrix.num_items();
        assert!(n <= W * 64);
        let mut mask = Vec::with_capacity(matrix.num_options());
        let mut start = vec![0u32];
        let mut items = Vec::with_capacity(matrix.num_entries());
        for o in 0..matrix.num_options() as u32 {
            let mut m = [0u64; W];
            for &i in matrix.option_items(o) {
                set(&mut m, i);
                items.push(i);
            }
            start.push(items.len() as u32);
            mask.push(m);
        }
        let multiplicity: Vec<u32> = matrix.items().iter().map(|i| i.multiplicity).collect();
        Search {
            n_items: n,
            mask,
            start,
            items,
            unit: multiplicity.iter().map(|&m| m == 1).collect(),
            multiplicity_items: (0..n as u32)
                .filter(|&i| multiplicity[i as usize] > 1)
                .collect(),
            remaining: multiplicity.clone(),
            multiplicity,
            levels: Vec::new(),
            chosen: Vec::new(),
            nodes: 0,
        }
    }

    fn level(&mut self, d: usize) -> &mut Level<W> {
        while self.levels.len() <= d {
            self.levels.push(Level {
                list: Vec::new(),
                counts: vec![0; self.n_items],
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
        let mut counts = vec![0u32; self.n_items];
        for &i in &self.items {
            counts[i as usize] += 1;
        }
        self.level(0);
        let level = &mut self.levels[0];
        level.list.clear();
        level.list.extend((0..n_options).map(|o| Entry {
            mask: self.mask[o as usize],
            option: o,
        }));
        level.counts = counts;
        level.covered = [0; W];
    }

    /// Fills level `d + 1` from level `d` after choosing option `o`.
    fn descend(&mut self, d: usize, o: u32) {
        let mut covered = self.levels[d].covered;
        let (s, e) = (
            self.start[o as usize] as usize,
            self.start[o as usize + 1] as usize,
        );
        for k in s..e {
            let i = self.items[k];
            if self.unit[i as usize] {
                set(&mut covered, i);
            } else {
                self.remaining[i as usize] -= 1;
                if self.remaining[i as usize] == 0 {
                    set(&mut covered, i);
                }
            }
        }
        self.level(d + 1);
        let (lower, upper) = self.levels.split_at_mut(d + 1);
        let (parent, child) = (&lower[d], &mut upper[0]);
        child.covered = covered;
        child.counts.iter_mut().for_each(|c| *c = 0);
        // Two passes: a branch-free compaction (whether an option survives is close to a
        // coin toss, so a branch would mispredict), then counting the survivors.
        child.list.resize(
            parent.list.len(),
            Entry {
                mask: [0; W],
                option: 0,
            },
        );
        let mut len = 0;
        for e in &parent.list {
            child.list[len] = *e;
            len += disjoint(&e.mask, &covered) as usize;
        }
        child.list.truncate(len);
        for e in &child.list {
            for w in 0..W {
                let mut bits = e.mask[w];
                while bits != 0 {
                    child.counts[w * 64 + bits.trailing_zeros() as usize] += 1;
                    bits &= bits - 1;
                }
            }
        }
        self.chosen.push(o);
    }

    fn ascend(&mut self, o: u32) {
        for k in self.start[o as usize] as usize..self.start[o as usize + 1] as usize {
            let i = self.items[k] as usize;
            if !self.unit[i] {
                self.remaining[i] += 1;
            }
        }
        self.chosen.pop();
    }

    fn choose(&self, d: usize) -> Branch<u32> {
        let level = &self.levels[d];
        // Fewest options; ties go to the item listed last, as in the DLX, so that both
        // engines walk the same tree.
        let mut best = u32::MAX;
        let mut best_count = u32::MAX;
        'words: for w in 0..W {
            let mut open = !level.covered[w];
            if w == W - 1 && self.n_items % 64 != 0 {
                open &= (1u64 << (self.n_items % 64)) - 1;
            }
            while open != 0 {
                let i = w as u32 * 64 + open.trailing_zeros();
                open &= open - 1;
                if !self.unit[i as usize] {
                    continue;
                }
                let c = level.counts[i as usize];
                if c <= best_count {
                    best_count = c;
                    best = i;
                    if c == 0 {
                        break 'words;
                    }
                }
            }
        }
        if best == u32::MAX {
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
        if best_count == 0 {
            return Branch::Dead;
        }
        for &j in &self.multiplicity_items {
            if level.counts[j as usize] < self.remaining[j as usize] {
                return Branch::Dead;
            }
        }
        Branch::On(best)
    }

    fn search(&mut self, d: usize, visit: &mut Visit<'_>) -> ControlFlow<()> {
        self.nodes += 1;
        let item = match self.choose(d) {
            Branch::Solution => return visit(&self.chosen),
            Branch::Dead => return ControlFlow::Continue(()),
            Branch::On(i) => i,
        };
        // The child levels are overwritten while we iterate, so walk by index.
        let mut k = 0;
        while k < self.levels[d].list.len() {
            let Entry { mask, option: o } = self.levels[d].list[k];
            k += 1;
            if !has(&mask, item) {
                continue;
            }
            self.descend(d, o);
            let flow = self.search(d + 1, visit);
            self.ascend(o);
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Applies a prefix from level 0; returns the level reached.
    fn apply(&mut self, prefix: &[u32]) -> usize {
        self.reset();
        for (d, &o) in prefix.iter().enumerate() {
            debug_assert!(
                self.levels[d].list.iter().any(|e| e.option == o),
                "prefix option not available"
            );
            self.descend(d, o);
        }
        prefix.len()
    }

    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>> {
        let d = self.apply(prefix);
        match self.choose(d) {
            Branch::On(i) => Branch::On(
                self.levels[d]
                    .list
                    .iter()
                    .filter(|e| has(&e.mask, i))
                    .map(|e| e.option)
                    .collect(),
            ),
            Branch::Solution => Branch::Solution,
            Branch::Dead => Branch::Dead,
        }
    }

    fn run(&mut self, prefix: &[u32], visit: &mut Visit<'_>) -> ControlFlow<()> {
        let d = self.apply(prefix);
        self.search(d, visit)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
