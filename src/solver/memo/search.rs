//! The memoizing search: dancing links that also keep the subproblem's key.
//!
//! # The data structure
//!
//! The links are those of the DLX (`solver/dlx.rs`; Knuth's Algorithm X with the
//! `remaining`/`slack` bookkeeping for items that are not unit items), written again here
//! because this search returns counts instead of visiting solutions:
//!
//! - node 0 is the root, node `k + 1` the header of item `k`, then one node per entry of
//!   each option; `top`, `up`, `down`, `row`, `span` and `len` as in the DLX;
//! - `left`/`right` link the uncovered *unit* items only: the search branches on them;
//! - `remaining[h]`: how many more times item `h` may be covered; a non-unit item is
//!   covered (its options hidden) when it reaches 0; `slack[h] = max - min`.
//!
//! Beside them, `key` is the subproblem's key, kept up to date as items are covered: a
//! bit field per item, in item order, packed into words (a field never straddles two
//! words). A unit item's field is one bit, set while it is uncovered; any other item's
//! field is `remaining[h]`, as wide as its `max` needs. Secondary items (0..1) are one
//! bit too, so on a box of cells the key is a bitset of the free cells plus a small
//! counter per piece with copies or a range.
//!
//! Invariant: between calls, every link, `remaining` and `key` are as after [`Search::new`]
//! (each call undoes its own changes in reverse order, even when stopped).

use num_bigint::BigUint;

use crate::solver::engine::Branch;

use super::input::Input;
use super::table::{hash, Count, Memo};

/// The caller asked the search to stop: the count is incomplete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Incomplete;

/// The stop callback is polled every this many nodes (a few microseconds apart).
const POLL: u64 = 4096;

pub(crate) struct Search<'s> {
    left: Vec<u32>,
    right: Vec<u32>,
    len: Vec<u32>,
    top: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    row: Vec<u32>,
    span: Vec<(u32, u32)>,
    unit: Vec<bool>,
    remaining: Vec<u32>,
    slack: Vec<u32>,
    /// The non-unit items, as headers.
    bounded: Vec<u32>,
    /// How many times each node's option covers its item (1 but in Burnside's quotients).
    weight: Vec<u32>,
    /// Some weight is above 1: an option may then still be linked in a column whose
    /// `remaining` it exceeds, and is skipped where it would be taken.
    weighted: bool,
    /// Per header: the word and shift of its key field.
    field: Vec<(u32, u32)>,
    key: Vec<u64>,
    /// Every item is exact, so a node with no unit item left is one solution.
    exact: bool,
    pub(crate) nodes: u64,
    stop: &'s (dyn Fn() -> bool + Sync),
}

impl<'s> Search<'s> {
    pub(crate) fn new(matrix: &Input, stop: &'s (dyn Fn() -> bool + Sync)) -> Search<'s> {
        let n = matrix.num_items();
        let total = 1 + n + matrix.num_entries();
        let mut s = Search {
            left: vec![0; n + 1],
            right: vec![0; n + 1],
            len: vec![0; n + 1],
            top: vec![0; total],
            up: (0..total as u32).collect(),
            down: (0..total as u32).collect(),
            row: vec![u32::MAX; total],
            span: Vec::with_capacity(matrix.num_options()),
            unit: vec![true; n + 1],
            remaining: vec![0; n + 1],
            slack: vec![0; n + 1],
            bounded: Vec::new(),
            weight: vec![1; total],
            weighted: matrix.is_weighted(),
            field: vec![(0, 0); n + 1],
            key: vec![0],
            exact: matrix.is_exact(),
            nodes: 0,
            stop,
        };
        let mut prev = 0u32;
        let mut shift = 0u32;
        for (k, &(min, max)) in matrix.items.iter().enumerate() {
            let h = k as u32 + 1;
            s.remaining[h as usize] = max;
            s.slack[h as usize] = max - min;
            if matrix.is_unit(k as u32) {
                s.right[prev as usize] = h;
                s.left[h as usize] = prev;
                prev = h;
            } else {
                s.unit[h as usize] = false;
                s.bounded.push(h);
                s.left[h as usize] = h;
                s.right[h as usize] = h;
            }
            let width = 32 - max.leading_zeros();
            if shift + width > 64 {
                s.key.push(0);
                shift = 0;
            }
            let word = s.key.len() - 1;
            s.field[h as usize] = (word as u32, shift);
            s.key[word] |= (max as u64) << shift;
            shift += width;
        }
        s.right[prev as usize] = 0;
        s.left[0] = prev;
        let mut x = n as u32 + 1;
        for o in 0..matrix.num_options() as u32 {
            let items = &matrix.options[o as usize];
            // A unit item first: choosing the option covers it and hides the option from
            // its other columns before they are touched (as in the DLX).
            let first = items
                .iter()
                .position(|&(i, _)| matrix.is_unit(i))
                .unwrap_or(0);
            let start = x;
            for &(i, w) in std::iter::once(&items[first])
                .chain(&items[..first])
                .chain(&items[first + 1..])
            {
                let h = i + 1;
                s.weight[x as usize] = w;
                s.top[x as usize] = h;
                s.row[x as usize] = o;
                let last = s.up[h as usize];
                s.up[x as usize] = last;
                s.down[x as usize] = h;
                s.down[last as usize] = x;
                s.up[h as usize] = x;
                s.len[h as usize] += 1;
                x += 1;
            }
            s.span.push((start, x));
        }
        s
    }

    /// Words in a key.
    pub(crate) fn key_words(&self) -> usize {
        self.key.len()
    }

    /// The key of the current subproblem.
    pub(crate) fn key(&self) -> &[u64] {
        &self.key
    }

    #[inline]
    fn key_sub(&mut self, h: u32, n: u32) {
        let (w, s) = self.field[h as usize];
        self.key[w as usize] -= (n as u64) << s;
    }

    #[inline]
    fn key_add(&mut self, h: u32, n: u32) {
        let (w, s) = self.field[h as usize];
        self.key[w as usize] += (n as u64) << s;
    }

    #[inline]
    fn hide(&mut self, p: u32) {
        let (start, end) = self.span[self.row[p as usize] as usize];
        for q in start..end {
            if q != p {
                let (u, d) = (self.up[q as usize], self.down[q as usize]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.len[self.top[q as usize] as usize] -= 1;
            }
        }
    }

    #[inline]
    fn unhide(&mut self, p: u32) {
        let (start, end) = self.span[self.row[p as usize] as usize];
        for q in (start..end).rev() {
            if q != p {
                let (u, d) = (self.up[q as usize], self.down[q as usize]);
                self.down[u as usize] = q;
                self.up[d as usize] = q;
                self.len[self.top[q as usize] as usize] += 1;
            }
        }
    }

    fn cover(&mut self, h: u32) {
        let mut p = self.down[h as usize];
        while p != h {
            self.hide(p);
            p = self.down[p as usize];
        }
        if self.unit[h as usize] {
            let (l, r) = (self.left[h as usize], self.right[h as usize]);
            self.right[l as usize] = r;
            self.left[r as usize] = l;
            self.key_sub(h, 1);
        }
    }

    fn uncover(&mut self, h: u32) {
        if self.unit[h as usize] {
            self.key_add(h, 1);
            let (l, r) = (self.left[h as usize], self.right[h as usize]);
            self.right[l as usize] = h;
            self.left[r as usize] = h;
        }
        let mut p = self.up[h as usize];
        while p != h {
            self.unhide(p);
            p = self.up[p as usize];
        }
    }

    /// Takes the option of node `r`, whose item is already covered: covers its other
    /// items (a non-unit item once it may be covered no more).
    fn commit(&mut self, r: u32) {
        let (start, end) = self.span[self.row[r as usize] as usize];
        for q in start..end {
            if q == r {
                continue;
            }
            let h = self.top[q as usize];
            if self.unit[h as usize] {
                self.cover(h);
            } else {
                let w = self.weight[q as usize];
                self.remaining[h as usize] -= w;
                self.key_sub(h, w);
                if self.remaining[h as usize] == 0 {
                    self.cover(h);
                }
            }
        }
    }

    fn uncommit(&mut self, r: u32) {
        let (start, end) = self.span[self.row[r as usize] as usize];
        for q in (start..end).rev() {
            if q == r {
                continue;
            }
            let h = self.top[q as usize];
            if self.unit[h as usize] {
                self.uncover(h);
            } else {
                if self.remaining[h as usize] == 0 {
                    self.uncover(h);
                }
                let w = self.weight[q as usize];
                self.remaining[h as usize] += w;
                self.key_add(h, w);
            }
        }
    }

    /// Takes option `o` (from [`Search::options`]) outside the search.
    pub(crate) fn push(&mut self, o: u32) {
        let start = self.span[o as usize].0;
        self.cover(self.top[start as usize]);
        self.commit(start);
    }

    /// Undoes [`Search::push`] of the same option, latest first.
    pub(crate) fn pop(&mut self, o: u32) {
        let start = self.span[o as usize].0;
        self.uncommit(start);
        self.uncover(self.top[start as usize]);
    }

    fn need(&self, h: u32) -> u32 {
        self.remaining[h as usize].saturating_sub(self.slack[h as usize])
    }

    /// The unit item to branch on: the fewest live options, ties to the item listed last
    /// (the native engines' rule, see the `solver` module).
    fn choose(&self) -> Branch<u32> {
        // Each live option covers an item once: an item needing more covers than it has
        // live options is beyond reach. (With weights the bound is not this one: the test
        // is left to the end, when every unit item is covered.)
        if !self.weighted
            && self
                .bounded
                .iter()
                .any(|&h| self.len[h as usize] < self.need(h))
        {
            return Branch::Dead;
        }
        if self.right[0] == 0 {
            if self.weighted && self.exact && self.bounded.iter().any(|&h| self.need(h) > 0) {
                return Branch::Dead;
            }
            return Branch::Solution;
        }
        let mut best = self.right[0];
        let mut best_len = self.len[best as usize];
        let mut p = self.right[best as usize];
        while p != 0 && best_len > 0 {
            let l = self.len[p as usize];
            if l <= best_len {
                best = p;
                best_len = l;
            }
            p = self.right[p as usize];
        }
        if best_len == 0 {
            Branch::Dead
        } else {
            Branch::On(best)
        }
    }

    /// The options the search would branch over here, or why there are none.
    pub(crate) fn options(&self) -> Branch<Vec<u32>> {
        match self.choose() {
            Branch::On(h) => {
                let mut opts = Vec::with_capacity(self.len[h as usize] as usize);
                let mut r = self.down[h as usize];
                while r != h {
                    if !self.weighted || self.fits(r) {
                        opts.push(self.row[r as usize]);
                    }
                    r = self.down[r as usize];
                }
                Branch::On(opts)
            }
            Branch::Solution => Branch::Solution,
            Branch::Dead => Branch::Dead,
        }
    }

    fn tick(&mut self) -> Result<(), Incomplete> {
        self.nodes += 1;
        if self.nodes % POLL == 0 && (self.stop)() {
            return Err(Incomplete);
        }
        Ok(())
    }

    /// The number of solutions of the current subproblem, read from `memo` or computed
    /// and stored there.
    pub(crate) fn count(&mut self, memo: &mut dyn Memo) -> Result<Count, Incomplete> {
        self.tick()?;
        let branch = match self.choose() {
            Branch::Dead => return Ok(Count::ZERO),
            Branch::Solution if self.exact => return Ok(Count::ONE),
            b => b,
        };
        let hash = hash(&self.key);
        if let Some(c) = memo.get(&self.key, hash) {
            return Ok(c);
        }
        let before = self.nodes;
        let total = match branch {
            Branch::On(h) => self.branch(h, memo)?,
            _ => self.complete()?,
        };
        // Every change made below is undone: `key` is this node's again.
        memo.insert(&self.key, hash, &total, self.nodes - before);
        Ok(total)
    }

    fn branch(&mut self, h: u32, memo: &mut dyn Memo) -> Result<Count, Incomplete> {
        self.cover(h);
        let mut total = Count::ZERO;
        let mut result = Ok(());
        let mut r = self.down[h as usize];
        while r != h {
            if self.weighted && !self.fits(r) {
                r = self.down[r as usize];
                continue;
            }
            self.commit(r);
            let sub = self.count(memo);
            self.uncommit(r);
            match sub {
                Ok(c) => total.add(&c),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            r = self.down[r as usize];
        }
        self.uncover(h);
        result.map(|()| total)
    }

    /// Whether the option of node `r` may be taken: each of its items may still be
    /// covered as many times as it covers it.
    fn fits(&self, r: u32) -> bool {
        let (start, end) = self.span[self.row[r as usize] as usize];
        (start..end).all(|q| {
            let h = self.top[q as usize];
            self.unit[h as usize] || self.weight[q as usize] <= self.remaining[h as usize]
        })
    }

    /// Every unit item is covered in a matrix that is not exact: counts the sets of the
    /// still-linked options (none has a unit item) that keep every item within its `max`
    /// and bring it to its `min`, as the DLX lists them.
    fn complete(&mut self) -> Result<Count, Incomplete> {
        let linked = self.linked();
        self.extend(&linked, 0)
    }

    /// The options still linked in a column of a non-unit item that may be covered
    /// again, in increasing order: when every unit item is covered, the options left.
    fn linked(&self) -> Vec<u32> {
        let mut linked = Vec::new();
        for &h in &self.bounded {
            if self.remaining[h as usize] > 0 {
                let mut q = self.down[h as usize];
                while q != h {
                    linked.push(self.row[q as usize]);
                    q = self.down[q as usize];
                }
            }
        }
        linked.sort_unstable();
        linked.dedup();
        linked
    }

    /// Completion number `rank` of the current subproblem (every unit item covered, in a
    /// matrix that is not exact), in the order [`Search::complete`] counts them: its
    /// options are appended to `out`. The search is left as it was.
    pub(crate) fn nth_completion(
        &mut self,
        rank: &mut BigUint,
        out: &mut Vec<u32>,
    ) -> Result<(), Incomplete> {
        let linked = self.linked();
        self.nth_extension(&linked, 0, rank, out)
    }

    fn nth_extension(
        &mut self,
        linked: &[u32],
        from: usize,
        rank: &mut BigUint,
        out: &mut Vec<u32>,
    ) -> Result<(), Incomplete> {
        // "No more options" is the first completion, where it is one.
        if self.bounded.iter().all(|&h| self.need(h) == 0) {
            if *rank == BigUint::ZERO {
                return Ok(());
            }
            *rank -= 1u32;
        }
        for k in from..linked.len() {
            let (start, end) = self.span[linked[k] as usize];
            if (start..end)
                .any(|q| self.remaining[self.top[q as usize] as usize] < self.weight[q as usize])
            {
                continue;
            }
            for q in start..end {
                self.remaining[self.top[q as usize] as usize] -= self.weight[q as usize];
            }
            let below = self.extend(linked, k + 1).map(Count::into_big);
            let found = match below {
                Ok(below) if *rank < below => {
                    out.push(linked[k]);
                    Some(self.nth_extension(linked, k + 1, rank, out))
                }
                Ok(below) => {
                    *rank -= below;
                    None
                }
                Err(e) => Some(Err(e)),
            };
            for q in start..end {
                self.remaining[self.top[q as usize] as usize] += self.weight[q as usize];
            }
            if let Some(result) = found {
                return result;
            }
        }
        unreachable!("the completions' counts add up to the subproblem's")
    }

    /// The completions that take options from `linked[from..]` only, in increasing order
    /// (so each set once); `remaining` counts down as options are taken.
    fn extend(&mut self, linked: &[u32], from: usize) -> Result<Count, Incomplete> {
        let mut total = if self.bounded.iter().all(|&h| self.need(h) == 0) {
            Count::ONE
        } else {
            Count::ZERO
        };
        for k in from..linked.len() {
            let (start, end) = self.span[linked[k] as usize];
            if (start..end)
                .any(|q| self.remaining[self.top[q as usize] as usize] < self.weight[q as usize])
            {
                continue;
            }
            self.tick()?;
            for q in start..end {
                self.remaining[self.top[q as usize] as usize] -= self.weight[q as usize];
            }
            let sub = self.extend(linked, k + 1);
            for q in start..end {
                self.remaining[self.top[q as usize] as usize] += self.weight[q as usize];
            }
            total.add(&sub?);
        }
        Ok(total)
    }
}
