//! Algorithm X with dancing links: the reference engine every other engine is checked
//! against.
//!
//! # The data structure
//!
//! All links are indices into parallel arrays (no pointers). Node 0 is the root; nodes
//! `1..=n` are the item headers, item `k` at node `k + 1`. After them each option takes
//! a contiguous run of nodes, one per item it contains, in the option's item order.
//!
//! - `top[x]`: for an option node, its item header; unused for headers.
//! - `up[x]`, `down[x]`: the circular list of a column. A header's list holds the nodes of
//!   the options still available that contain the item; `len[h]` counts them.
//! - `left[h]`, `right[h]`: the circular list of the *unit* items not yet covered, through
//!   the root. The other items (k copies of a piece, optional cells, count ranges) are
//!   never on it: the search branches only on unit items (see the `matrix` module for why
//!   that is complete).
//! - `row[x]`: the option a node belongs to; `span[o]`: the node range of option `o`.
//! - `remaining[j]`: how many more times non-unit item `j` may be covered (its `max`
//!   less the chosen options that contain it). It is covered (its other options hidden)
//!   when that reaches zero. `slack[j]` is `max - min`: the item still *needs* covering
//!   while `remaining[j] > slack[j]`.
//!
//! # Completion (matrices that are not exact)
//!
//! Once every unit item is covered, the options still linked have no unit item: they
//! lie in optional cells and pieces with count ranges. Every set of them that respects
//! the `max` bounds and reaches the `min` bounds completes a solution. [`Dlx::complete`]
//! lists those sets by increasing option number, so each is reported once; in an exact
//! matrix nothing is linked then and it reports the one solution at once.
//!
//! `cover(i)` removes item `i` from the header list and *hides* every option in its
//! column: unlinks the option's other nodes from their columns. `uncover` undoes it in
//! exactly the reverse order, which restores every link (Knuth's dancing links). The
//! [`Dlx::sanity`] check walks every list and runs in debug builds at the start and end
//! of each search.
//!
//! # References
//!
//! Donald E. Knuth, "Dancing links", in *Millennial Perspectives in Computer Science*
//! (2000); and *The Art of Computer Programming*, Vol. 4B, §7.2.2.1, Algorithm X.

use std::ops::ControlFlow;

use super::engine::{Branch, Engine, Visit};
use crate::matrix::Matrix;

pub struct Dlx {
    n_items: usize,
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
    /// Scratch for [`Dlx::complete`]: the options still linked.
    linked: Vec<u32>,
    chosen: Vec<u32>,
    nodes: u64,
}

impl Dlx {
    pub fn new(matrix: &Matrix) -> Dlx {
        let n = matrix.num_items();
        let total = 1 + n + matrix.num_entries();
        let mut d = Dlx {
            n_items: n,
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
            linked: Vec::new(),
            chosen: Vec::new(),
            nodes: 0,
        };
        // Header list: root, then unit items in order.
        let mut prev = 0u32;
        for (k, item) in matrix.items().iter().enumerate() {
            let h = k as u32 + 1;
            d.remaining[h as usize] = item.max;
            d.slack[h as usize] = item.max - item.min;
            if matrix.is_unit(k as u32) {
                d.right[prev as usize] = h;
                d.left[h as usize] = prev;
                prev = h;
            } else {
                d.unit[h as usize] = false;
                d.bounded.push(h);
                d.left[h as usize] = h;
                d.right[h as usize] = h;
            }
        }
        d.right[prev as usize] = 0;
        d.left[0] = prev;
        let mut x = n as u32 + 1;
        for o in 0..matrix.num_options() as u32 {
            let items = matrix.option_items(o);
            // The first node is a unit item, so choosing the option covers it first and
            // hides the option from its other columns before they are touched. (Options
            // without one are only ever taken by `complete`, which does not use links.)
            let first_unit = items.iter().position(|&i| matrix.is_unit(i)).unwrap_or(0);
            let start = x;
            for &i in std::iter::once(&items[first_unit])
                .chain(items[..first_unit].iter())
                .chain(items[first_unit + 1..].iter())
            {
                let h = i + 1;
                d.top[x as usize] = h;
                d.row[x as usize] = o;
                let last = d.up[h as usize];
                d.up[x as usize] = last;
                d.down[x as usize] = h;
                d.down[last as usize] = x;
                d.up[h as usize] = x;
                d.len[h as usize] += 1;
                x += 1;
            }
            d.span.push((start, x));
        }
        debug_assert_eq!(d.sanity(), Ok(()));
        d
    }

    /// Checks every link. Returns the first inconsistency found.
    pub fn sanity(&self) -> Result<(), String> {
        let mut p = self.right[0];
        let mut steps = 0;
        while p != 0 {
            if self.left[self.right[p as usize] as usize] != p {
                return Err(format!("header list broken at {p}"));
            }
            if !self.unit[p as usize] {
                return Err(format!("non-unit item {p} on the header list"));
            }
            p = self.right[p as usize];
            steps += 1;
            if steps > self.n_items {
                return Err("header list does not return to the root".into());
            }
        }
        for h in 1..=self.n_items as u32 {
            let mut count = 0;
            let mut q = self.down[h as usize];
            while q != h {
                if self.up[self.down[q as usize] as usize] != q {
                    return Err(format!("column {h} broken at node {q}"));
                }
                if self.top[q as usize] != h {
                    return Err(format!(
                        "node {q} in column {h} has top {}",
                        self.top[q as usize]
                    ));
                }
                count += 1;
                q = self.down[q as usize];
                if count > self.top.len() {
                    return Err(format!("column {h} does not return to its header"));
                }
            }
            if count != self.len[h as usize] as usize {
                return Err(format!(
                    "column {h} has {count} nodes but len {}",
                    self.len[h as usize]
                ));
            }
        }
        Ok(())
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
        }
    }

    fn uncover(&mut self, h: u32) {
        if self.unit[h as usize] {
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

    /// Takes the option of node `r` into the solution. The item of `r` is already
    /// covered, which hid the option from every other column; cover the option's other
    /// items in node order (a non-unit item only once it may be covered no more).
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
                self.remaining[h as usize] -= 1;
                if self.remaining[h as usize] == 0 {
                    self.cover(h);
                }
            }
        }
        self.chosen.push(self.row[r as usize]);
    }

    /// Exactly undoes [`Dlx::commit`], in reverse order.
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
                self.remaining[h as usize] += 1;
            }
        }
        self.chosen.pop();
    }

    /// How many more times non-unit item `h` must be covered.
    fn need(&self, h: u32) -> u32 {
        self.remaining[h as usize].saturating_sub(self.slack[h as usize])
    }

    /// The unit item to branch on (fewest options), or why there is none.
    fn choose(&self) -> Branch<u32> {
        // Each linked option covers an item once, so an item that needs more covers than
        // it has options left cannot be satisfied.
        for &h in &self.bounded {
            if self.len[h as usize] < self.need(h) {
                return Branch::Dead;
            }
        }
        if self.right[0] == 0 {
            return Branch::Solution;
        }
        // Fewest options; ties go to the item listed last (see `solver` module docs).
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

    fn search(&mut self, visit: &mut Visit<'_>) -> ControlFlow<()> {
        self.nodes += 1;
        if super::engine::should_stop(self.nodes) {
            return ControlFlow::Break(());
        }
        let h = match self.choose() {
            Branch::Solution => return self.complete(visit),
            Branch::Dead => return ControlFlow::Continue(()),
            Branch::On(h) => h,
        };
        self.cover(h);
        let mut r = self.down[h as usize];
        let mut flow = ControlFlow::Continue(());
        while r != h {
            self.commit(r);
            flow = self.search(visit);
            self.uncommit(r);
            if flow.is_break() {
                break;
            }
            r = self.down[r as usize];
        }
        self.uncover(h);
        flow
    }

    /// Every unit item is covered: reports each set of the still-linked options that
    /// completes the partial solution (see the module docs), by increasing option number.
    fn complete(&mut self, visit: &mut Visit<'_>) -> ControlFlow<()> {
        let mut linked = std::mem::take(&mut self.linked);
        linked.clear();
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
        let flow = self.extend(&linked, 0, visit);
        self.linked = linked;
        flow
    }

    /// [`Dlx::complete`] from `linked[from..]`: `remaining` counts down as options are
    /// taken (a plain count here; the links are not touched).
    fn extend(&mut self, linked: &[u32], from: usize, visit: &mut Visit<'_>) -> ControlFlow<()> {
        if self.bounded.iter().all(|&h| self.need(h) == 0) {
            visit(&self.chosen)?;
        }
        for k in from..linked.len() {
            let (start, end) = self.span[linked[k] as usize];
            if (start..end).any(|q| self.remaining[self.top[q as usize] as usize] == 0) {
                continue;
            }
            self.nodes += 1;
            if super::engine::should_stop(self.nodes) {
                return ControlFlow::Break(());
            }
            for q in start..end {
                self.remaining[self.top[q as usize] as usize] -= 1;
            }
            self.chosen.push(linked[k]);
            let flow = self.extend(linked, k + 1, visit);
            self.chosen.pop();
            for q in start..end {
                self.remaining[self.top[q as usize] as usize] += 1;
            }
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Commits a whole option chosen outside the search (a split prefix, which always
    /// comes from [`Engine::branch`] and so is still available). Its first node is a unit
    /// item; covering it hides the option from its other columns first.
    fn commit_prefix(&mut self, o: u32) {
        let start = self.span[o as usize].0;
        self.cover(self.top[start as usize]);
        self.commit(start);
    }

    fn uncommit_prefix(&mut self, o: u32) {
        let start = self.span[o as usize].0;
        self.uncommit(start);
        self.uncover(self.top[start as usize]);
    }
}

impl Engine for Dlx {
    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>> {
        for &o in prefix {
            self.commit_prefix(o);
        }
        let result = match self.choose() {
            Branch::On(h) => {
                let mut opts = Vec::with_capacity(self.len[h as usize] as usize);
                let mut r = self.down[h as usize];
                while r != h {
                    opts.push(self.row[r as usize]);
                    r = self.down[r as usize];
                }
                Branch::On(opts)
            }
            Branch::Solution => Branch::Solution,
            Branch::Dead => Branch::Dead,
        };
        for &o in prefix.iter().rev() {
            self.uncommit_prefix(o);
        }
        result
    }

    fn run(&mut self, prefix: &[u32], visit: &mut Visit<'_>) -> ControlFlow<()> {
        debug_assert_eq!(self.sanity(), Ok(()));
        for &o in prefix {
            self.commit_prefix(o);
        }
        let flow = self.search(visit);
        for &o in prefix.iter().rev() {
            self.uncommit_prefix(o);
        }
        debug_assert_eq!(self.sanity(), Ok(()));
        flow
    }

    fn describe(&self) -> String {
        "dlx".into()
    }

    /// Steps down in place, as the search does (cover the item, commit the row), and
    /// undoes the steps last first.
    fn walk(&mut self, prefix: &[u32], pick: &mut dyn FnMut(usize) -> Option<usize>) {
        for &o in prefix {
            self.commit_prefix(o);
        }
        let mut steps: Vec<(u32, u32)> = Vec::new();
        while let Branch::On(h) = self.choose() {
            let Some(k) = pick(self.len[h as usize] as usize) else {
                break;
            };
            let mut r = self.down[h as usize];
            for _ in 0..k {
                r = self.down[r as usize];
            }
            self.cover(h);
            self.commit(r);
            steps.push((h, r));
        }
        for &(h, r) in steps.iter().rev() {
            self.uncommit(r);
            self.uncover(h);
        }
        for &o in prefix.iter().rev() {
            self.uncommit_prefix(o);
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
