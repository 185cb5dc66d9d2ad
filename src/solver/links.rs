//! The dancing links that the DLX (`dlx.rs`) and the memo's search (`memo/search.rs`)
//! both walk: one structure, with a [`Hook`] for what the memo keeps beside it.
//!
//! # The data structure
//!
//! All links are indices into arrays (no pointers). Node 0 is the root; nodes `1..=n` are
//! the item headers, item `k` at node `k + 1`. After them each option takes a contiguous
//! run of nodes, one per item it contains, in the option's item order but with a unit
//! item first (see [`Links::new`]), with a *spacer* node before each option and after the
//! last (Knuth's layout): a spacer's `up` is the first node of the option before it, its
//! `down` the last node of the option after it, so that a walk round an option from any
//! of its nodes steps to the neighbouring node and, at a spacer, jumps to the option's
//! other end, without looking up where the option starts and ends.
//!
//! A node is one 16-byte [`Node`], as in Knuth's programs: the fields the hot loops read
//! together (`up`, `down`, `top`, and the option's `row`) share one cache line, so hiding
//! an option touches one line per node and one per neighbour, not one per field. (Parallel
//! arrays, one per field, made the DLX about a third slower than Knuth's `dlx1` on Bedlam.)
//!
//! - `top`: for an option node, its item header; 0 (the root) for a spacer. A header's
//!   `top` holds its `len` instead, the number of nodes in its column (a header would
//!   only point to itself).
//! - `up`, `down`: the circular list of a column. A header's list holds the nodes of
//!   the options still available that contain the item.
//! - `row`: the option a node belongs to; `span[o]`: the node range of option `o`.
//! - `left[h]`, `right[h]`: the circular list of the *unit* items not yet covered, through
//!   the root. The other items (k copies of a piece, optional cells, count ranges) are
//!   never on it: the searches branch only on unit items (see the `matrix` module for
//!   why that is complete).
//! - `remaining[h]`: how many more times non-unit item `h` may be covered (its `max`
//!   less the covers of the chosen options). It is covered (its other options hidden)
//!   when that reaches zero. `slack[h]` is `max - min`: the item still *needs* covering
//!   while `remaining[h] > slack[h]`.
//!
//! `cover(h)` removes item `h` from the header list and *hides* every option in its
//! column: unlinks the option's other nodes from their columns. `uncover` undoes it in
//! exactly the reverse order, which restores every link (Knuth's dancing links).
//!
//! # The hook
//!
//! An option covers each of its items once in an exact-cover matrix; in Burnside's
//! quotients (the memo's weighted input) a node may cover its item several times, its
//! *weight*. The memo also keeps the key of the uncovered items up to date as items are
//! covered. Both are a [`Hook`]: a type parameter, so the DLX's hook `()` (weight 1,
//! nothing kept) compiles to the plain dancing links, with no test or call left.
//!
//! Invariant: every operation is undone by its pair (`cover`/`uncover`,
//! `commit`/`uncommit`, `push`/`pop`, `take`/`untake`) in reverse order, which restores
//! every link, `len`, `remaining` and what the hook keeps. [`Links::sanity`] walks every
//! list; the engines run it in debug builds where the search starts and ends.
//!
//! # References
//!
//! Donald E. Knuth, "Dancing links", in *Millennial Perspectives in Computer Science*
//! (2000); and *The Art of Computer Programming*, Vol. 4B, §7.2.2.1, Algorithm X.

use super::backtrack::Branch;

mod sanity;

/// What a search keeps beside the links, told of every change to an item's coverage.
pub(crate) trait Hook {
    /// Entry `x` of weight `w` was made (while building, in order). Entries are numbered
    /// from `1 + n` (`n` items) in option order: a node's number less the spacers before
    /// it ([`Links::entry`]).
    fn node(&mut self, x: u32, w: u32);
    /// How many times the option of entry `x` covers its item.
    fn weight(&self, x: u32) -> u32;
    /// Some weight is above 1 (then an option may still be linked in a column whose
    /// `remaining` it exceeds, and is skipped where it would be taken).
    fn weighted(&self) -> bool;
    /// Item `h` lost `n` covers: a unit item covered (`n = 1`), or `n` more covers of
    /// another item taken by a chosen option.
    fn lower(&mut self, h: u32, n: u32);
    /// Undoes [`Hook::lower`].
    fn raise(&mut self, h: u32, n: u32);
}

/// The DLX's hook: every weight 1, nothing kept.
impl Hook for () {
    #[inline(always)]
    fn node(&mut self, _x: u32, w: u32) {
        debug_assert_eq!(w, 1, "an exact-cover matrix has weights of 1");
    }
    #[inline(always)]
    fn weight(&self, _x: u32) -> u32 {
        1
    }
    #[inline(always)]
    fn weighted(&self) -> bool {
        false
    }
    #[inline(always)]
    fn lower(&mut self, _h: u32, _n: u32) {}
    #[inline(always)]
    fn raise(&mut self, _h: u32, _n: u32) {}
}

/// An entry of an option as its builder gives it: an item, and how many times the option
/// covers it.
pub(crate) trait Entry {
    fn item(&self) -> u32;
    fn weight(&self) -> u32;
}

impl Entry for u32 {
    fn item(&self) -> u32 {
        *self
    }
    fn weight(&self) -> u32 {
        1
    }
}

impl Entry for (u32, u32) {
    fn item(&self) -> u32 {
        self.0
    }
    fn weight(&self) -> u32 {
        self.1
    }
}

/// One node: an item's header, or an option's entry for one item (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct Node {
    up: u32,
    down: u32,
    /// The item header of an option node; a header's `len`.
    top: u32,
    /// The option of an option node; `u32::MAX` for the root, headers and spacers.
    row: u32,
}

impl Node {
    fn new(up: u32, down: u32, top: u32, row: u32) -> Node {
        Node { up, down, top, row }
    }
    /// Header `h` (or the root), its column empty.
    fn header(h: u32) -> Node {
        Node::new(h, h, 0, u32::MAX)
    }
    /// A spacer after the option that starts at `up` (see the module docs).
    fn spacer(up: u32, down: u32) -> Node {
        Node::new(up, down, 0, u32::MAX)
    }
}

pub(crate) struct Links<H> {
    pub(super) left: Vec<u32>,
    pub(super) right: Vec<u32>,
    nodes: Vec<Node>,
    pub(super) span: Vec<(u32, u32)>,
    pub(super) unit: Vec<bool>,
    pub(super) remaining: Vec<u32>,
    pub(super) slack: Vec<u32>,
    /// The non-unit items, as headers.
    pub(super) bounded: Vec<u32>,
    /// Every item is exact (`min == max`), so a node with no unit item left is one
    /// solution.
    pub(super) exact: bool,
    pub(super) hook: H,
}

impl<H: Hook> Links<H> {
    /// The links of items with bounds `(min, max)` (a unit item is `(1, 1)`) and of
    /// `options`, `entries` entries in all, each listing distinct items.
    pub(crate) fn new<'a, E: Entry + 'a>(
        bounds: &[(u32, u32)],
        entries: usize,
        options: impl Iterator<Item = &'a [E]>,
        hook: H,
    ) -> Links<H> {
        let n = bounds.len();
        let heads = 1 + n as u32;
        let mut d = Links {
            left: vec![0; n + 1],
            right: vec![0; n + 1],
            nodes: (0..heads).map(Node::header).collect(),
            span: Vec::new(),
            unit: vec![true; n + 1],
            remaining: vec![0; n + 1],
            slack: vec![0; n + 1],
            bounded: Vec::new(),
            exact: bounds.iter().all(|&(min, max)| min == max),
            hook,
        };
        // Header list: root, then unit items in order.
        let mut prev = 0u32;
        for (k, &(min, max)) in bounds.iter().enumerate() {
            let h = k as u32 + 1;
            d.remaining[h as usize] = max;
            d.slack[h as usize] = max - min;
            if (min, max) == (1, 1) {
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
        d.nodes.reserve(entries + 1);
        // The spacer before the option being built: its `down` is set once that is known.
        let mut spacer = heads;
        d.nodes.push(Node::spacer(spacer, spacer));
        let mut entry = heads;
        for (o, items) in options.enumerate() {
            // The first node is a unit item, so choosing the option covers it first and
            // hides the option from its other columns before they are touched. (Options
            // without one are only ever taken by a completion, which does not use links.)
            let first = items
                .iter()
                .position(|e| d.unit[e.item() as usize + 1])
                .unwrap_or(0);
            let start = d.nodes.len() as u32;
            for e in std::iter::once(&items[first])
                .chain(&items[..first])
                .chain(&items[first + 1..])
            {
                let h = e.item() + 1;
                let x = d.nodes.len() as u32;
                d.hook.node(entry, e.weight());
                entry += 1;
                let last = d.nodes[h as usize].up;
                d.nodes.push(Node::new(last, h, h, o as u32));
                d.nodes[last as usize].down = x;
                d.nodes[h as usize].up = x;
                d.nodes[h as usize].top += 1;
            }
            let end = d.nodes.len() as u32;
            d.span.push((start, end));
            d.nodes[spacer as usize].down = end - 1;
            spacer = end;
            d.nodes.push(Node::spacer(start, spacer));
        }
        debug_assert_eq!(
            entry as usize,
            heads as usize + entries,
            "the entries counted are the entries given"
        );
        debug_assert_eq!(d.sanity(), Ok(()));
        d
    }

    /// Node `x`, which must be a node: a link read from a node (`up`, `down`, the `top` of
    /// an option node, a spacer's), a header, or a node of a `span`.
    #[inline(always)]
    fn node(&self, x: u32) -> &Node {
        debug_assert!((x as usize) < self.nodes.len(), "node {x} out of range");
        // SAFETY: `new` makes every link the index of a node, and the operations only
        // copy links between nodes, so every index reached this way is in range
        // (`sanity` walks every list in debug builds, where the assertion above also
        // checks each access). The DLX spends nearly all its time in these loops: the
        // bounds checks were a measurable share of it.
        unsafe { self.nodes.get_unchecked(x as usize) }
    }

    /// [`Links::node`], to change.
    #[inline(always)]
    fn node_mut(&mut self, x: u32) -> &mut Node {
        debug_assert!((x as usize) < self.nodes.len(), "node {x} out of range");
        // SAFETY: as in `node`.
        unsafe { self.nodes.get_unchecked_mut(x as usize) }
    }

    /// The node below `x` in its column (a header's first node; the header after the last).
    #[inline(always)]
    pub(crate) fn down(&self, x: u32) -> u32 {
        self.node(x).down
    }

    /// The node above `x` in its column.
    #[inline(always)]
    pub(crate) fn up(&self, x: u32) -> u32 {
        self.node(x).up
    }

    /// The item header of option node `x`.
    #[inline(always)]
    pub(crate) fn top(&self, x: u32) -> u32 {
        self.node(x).top
    }

    /// The option of node `x`.
    #[inline(always)]
    pub(crate) fn row(&self, x: u32) -> u32 {
        self.node(x).row
    }

    /// How many options are linked in the column of header `h`.
    #[inline(always)]
    pub(crate) fn len(&self, h: u32) -> u32 {
        self.node(h).top
    }

    /// The number the hook knows option node `x` by (see [`Hook::node`]): less the
    /// spacers before it, one per option up to its own.
    #[inline(always)]
    fn entry(&self, x: u32) -> u32 {
        x - 1 - self.row(x)
    }

    /// Unlinks the option of node `p` from every column but `p`'s: round the option from
    /// the node after `p` (a spacer sends the walk back to the option's first node).
    #[inline]
    fn hide(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let Node { up, down, top, .. } = *self.node(q);
            if top == 0 {
                q = up;
                continue;
            }
            self.node_mut(up).down = down;
            self.node_mut(down).up = up;
            self.node_mut(top).top -= 1;
            q += 1;
        }
    }

    /// Exactly undoes [`Links::hide`], in reverse order.
    #[inline]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { up, down, top, .. } = *self.node(q);
            if top == 0 {
                q = down;
                continue;
            }
            self.node_mut(up).down = q;
            self.node_mut(down).up = q;
            self.node_mut(top).top += 1;
            q -= 1;
        }
    }

    /// Hides every option of item `h`'s column, and takes a unit item off the header
    /// list.
    pub(crate) fn cover(&mut self, h: u32) {
        let mut p = self.down(h);
        while p != h {
            self.hide(p);
            p = self.down(p);
        }
        if self.unit[h as usize] {
            let (l, r) = (self.left[h as usize], self.right[h as usize]);
            self.right[l as usize] = r;
            self.left[r as usize] = l;
            self.hook.lower(h, 1);
        }
    }

    /// Exactly undoes [`Links::cover`], in reverse order.
    pub(crate) fn uncover(&mut self, h: u32) {
        if self.unit[h as usize] {
            self.hook.raise(h, 1);
            let (l, r) = (self.left[h as usize], self.right[h as usize]);
            self.right[l as usize] = h;
            self.left[r as usize] = h;
        }
        let mut p = self.up(h);
        while p != h {
            self.unhide(p);
            p = self.up(p);
        }
    }

    /// Takes the option of node `r` into the solution. The item of `r` is already
    /// covered, which hid the option from every other column; covers the option's other
    /// items round the option from the node after `r` (a non-unit item only once it may
    /// be covered no more).
    #[inline]
    pub(crate) fn commit(&mut self, r: u32) {
        let mut q = r + 1;
        while q != r {
            let h = self.top(q);
            if h == 0 {
                q = self.up(q);
                continue;
            }
            if self.unit[h as usize] {
                self.cover(h);
            } else {
                let w = self.hook.weight(self.entry(q));
                self.remaining[h as usize] -= w;
                self.hook.lower(h, w);
                if self.remaining[h as usize] == 0 {
                    self.cover(h);
                }
            }
            q += 1;
        }
    }

    /// Exactly undoes [`Links::commit`], in reverse order.
    #[inline]
    pub(crate) fn uncommit(&mut self, r: u32) {
        let mut q = r - 1;
        while q != r {
            let h = self.top(q);
            if h == 0 {
                q = self.down(q);
                continue;
            }
            if self.unit[h as usize] {
                self.uncover(h);
            } else {
                if self.remaining[h as usize] == 0 {
                    self.uncover(h);
                }
                let w = self.hook.weight(self.entry(q));
                self.remaining[h as usize] += w;
                self.hook.raise(h, w);
            }
            q -= 1;
        }
    }

    /// Takes option `o` chosen outside the search (a split prefix, which comes from the
    /// search's own branching and so is still available). Its first node is a unit item;
    /// covering it hides the option from its other columns first.
    pub(crate) fn push(&mut self, o: u32) {
        let start = self.span[o as usize].0;
        self.cover(self.top(start));
        self.commit(start);
    }

    /// Undoes [`Links::push`] of the same option, latest first.
    pub(crate) fn pop(&mut self, o: u32) {
        let start = self.span[o as usize].0;
        self.uncommit(start);
        self.uncover(self.top(start));
    }

    /// How many more times non-unit item `h` must be covered.
    #[inline]
    pub(crate) fn need(&self, h: u32) -> u32 {
        self.remaining[h as usize].saturating_sub(self.slack[h as usize])
    }

    /// The unit item to branch on (fewest options), or why there is none.
    #[inline]
    pub(crate) fn choose(&self) -> Branch<u32> {
        // Each linked option covers an item once, so an item that needs more covers than
        // it has options left cannot be satisfied. (With weights the bound is not this
        // one: the test is left to the end, when every unit item is covered.)
        if !self.hook.weighted() && self.bounded.iter().any(|&h| self.len(h) < self.need(h)) {
            return Branch::Dead;
        }
        if self.right[0] == 0 {
            if self.hook.weighted() && self.exact && self.bounded.iter().any(|&h| self.need(h) > 0)
            {
                return Branch::Dead;
            }
            return Branch::Solution;
        }
        // Fewest options; ties go to the item listed last (see `solver` module docs).
        let mut best = self.right[0];
        let mut best_len = self.len(best);
        let mut p = self.right[best as usize];
        while p != 0 && best_len > 0 {
            let l = self.len(p);
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

    /// Whether the option of node `r` may be taken: each of its items may still be
    /// covered as many times as it covers it (always so without weights).
    #[inline]
    pub(crate) fn fits(&self, r: u32) -> bool {
        if !self.hook.weighted() {
            return true;
        }
        let (start, end) = self.span[self.row(r) as usize];
        (start..end).all(|q| {
            let h = self.top(q);
            self.unit[h as usize] || self.hook.weight(self.entry(q)) <= self.remaining[h as usize]
        })
    }

    /// Whether option `o` may be taken now (see [`Links::fits`]).
    #[inline]
    pub(crate) fn option_fits(&self, o: u32) -> bool {
        self.fits(self.span[o as usize].0)
    }

    /// The options a search branches over on unit item `h`, in column order.
    pub(crate) fn options(&self, h: u32) -> Vec<u32> {
        let mut opts = Vec::with_capacity(self.len(h) as usize);
        let mut r = self.down(h);
        while r != h {
            if self.fits(r) {
                opts.push(self.row(r));
            }
            r = self.down(r);
        }
        opts
    }

    // The completion (every unit item covered, in a matrix that is not exact): the
    // options left have no unit item, and are taken by counting `remaining` down alone,
    // without touching the links.

    /// Fills `linked` with the options still linked in a column of a non-unit item that
    /// may be covered again, in increasing order: when every unit item is covered, the
    /// options left.
    pub(crate) fn linked(&self, linked: &mut Vec<u32>) {
        linked.clear();
        for &h in &self.bounded {
            if self.remaining[h as usize] > 0 {
                let mut q = self.down(h);
                while q != h {
                    linked.push(self.row(q));
                    q = self.down(q);
                }
            }
        }
        linked.sort_unstable();
        linked.dedup();
    }

    /// Every non-unit item has reached its `min`.
    pub(crate) fn satisfied(&self) -> bool {
        self.bounded.iter().all(|&h| self.need(h) == 0)
    }

    /// Whether option `o` may be taken in a completion: each item may still be covered
    /// as many times as `o` covers it.
    pub(crate) fn can_take(&self, o: u32) -> bool {
        let (start, end) = self.span[o as usize];
        (start..end)
            .all(|q| self.remaining[self.top(q) as usize] >= self.hook.weight(self.entry(q)))
    }

    /// Takes option `o` in a completion (after [`Links::can_take`]).
    pub(crate) fn take(&mut self, o: u32) {
        let (start, end) = self.span[o as usize];
        for q in start..end {
            let (h, w) = (self.top(q), self.hook.weight(self.entry(q)));
            self.remaining[h as usize] -= w;
        }
    }

    /// Undoes [`Links::take`].
    pub(crate) fn untake(&mut self, o: u32) {
        let (start, end) = self.span[o as usize];
        for q in start..end {
            let (h, w) = (self.top(q), self.hook.weight(self.entry(q)));
            self.remaining[h as usize] += w;
        }
    }
}
