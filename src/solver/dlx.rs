//! Algorithm X with dancing links: the reference engine every other engine is checked
//! against.
//!
//! The links are [`Links`] (`links.rs`), shared with the memo's search, with the hook
//! `()`: every option covers each of its items once, and nothing is kept beside them.
//! This file is the search over them: it visits the solutions, and completes the
//! matrices that are not exact.
//!
//! # Completion (matrices that are not exact)
//!
//! Once every unit item is covered, the options still linked have no unit item: they
//! lie in optional cells and pieces with count ranges. Every set of them that respects
//! the `max` bounds and reaches the `min` bounds completes a solution. [`Dlx::complete`]
//! lists those sets by increasing option number, so each is reported once; in an exact
//! matrix nothing is linked then and it reports the one solution at once.
//!
//! # The search
//!
//! The search is Knuth's loop, not a recursion: per level below the subproblem's prefix,
//! `item[l]` is the item branched on and `choice[l]` the node of the option being tried
//! (both array indices into the links). Entering a level chooses an item, covers it and
//! commits its first option; backing up uncommits the option and commits the one below
//! it in the column, or uncovers the item when the column's header comes round.
//!
//! Work given away ([`Share`]): every 4096 nodes the search asks whether a worker waits
//! and, if so, gives the options after `choice[l]` in the column of `item[l]`, for the
//! shallowest level `l` that has any, each as the path to that level plus the option;
//! then levels `l` and above end after their current option (`open` becomes `l + 1`).
//! The column of a covered item does not change while deeper levels run (covering it hid
//! each of its options from every other column), so the options given are exactly those
//! the level had still to try. The completion below never gives: its choices are not
//! levels of the search.
//!
//! [`Links::sanity`] walks every list and runs in debug builds at the start and end of
//! each search.
//!
//! # References
//!
//! Donald E. Knuth, "Dancing links", in *Millennial Perspectives in Computer Science*
//! (2000); and *The Art of Computer Programming*, Vol. 4B, §7.2.2.1, Algorithm X.

use std::ops::ControlFlow;

use super::backtrack::{Backtrack, Branch, Share, Visit};
use super::links::Links;
use crate::matrix::Matrix;
use crate::stop::Stop;

/// How often (in nodes) the search checks for a stop and for workers waiting.
const POLL: u64 = 4096;

pub struct Dlx {
    links: Links<()>,
    /// Scratch for [`Dlx::complete`]: the options still linked.
    linked: Vec<u32>,
    /// The options of the running subproblem's prefix.
    prefix: Vec<u32>,
    /// Per level below the prefix: the item branched on, and the node of the option tried.
    item: Vec<u32>,
    choice: Vec<u32>,
    /// The options of a solution being reported: the prefix, the levels' options, and
    /// those a completion adds.
    chosen: Vec<u32>,
    nodes: u64,
    /// Nodes where an item had no option left (`Branch::Dead`), for
    /// `design::difficulty`: one add at a leaf (pentomino 6x10 +0.9% CPU, within noise;
    /// Bedlam +3% to +8% by medians of 3, within its 92-102 s run-to-run spread).
    dead_ends: u64,
    /// The stop of the running subproblem's run, polled every few thousand nodes.
    stop: Stop,
}

impl Dlx {
    pub fn new(matrix: &Matrix) -> Dlx {
        let bounds: Vec<(u32, u32)> = matrix.items().iter().map(|i| (i.min, i.max)).collect();
        let options = (0..matrix.num_options() as u32).map(|o| matrix.option_items(o));
        Dlx {
            links: Links::new(&bounds, matrix.num_entries(), options, ()),
            linked: Vec::new(),
            prefix: Vec::new(),
            item: Vec::new(),
            choice: Vec::new(),
            chosen: Vec::new(),
            nodes: 0,
            dead_ends: 0,
            stop: Stop::new(),
        }
    }

    /// The dead ends visited so far: nodes of the search (not of a completion) where an
    /// item that must be covered had no option left.
    pub(crate) fn dead_ends(&self) -> u64 {
        self.dead_ends
    }

    /// Checks every link. Returns the first inconsistency found.
    pub fn sanity(&self) -> Result<(), String> {
        self.links.sanity()
    }

    /// Searches every completion of the prefix already pushed, less what it gives away.
    fn search(&mut self, visit: &mut Visit<'_>, share: &dyn Share) -> ControlFlow<()> {
        // The level being entered; levels below `open` end after their current option.
        let mut level = 0;
        let mut open = 0;
        let flow = 'node: loop {
            self.nodes += 1;
            if self.nodes % POLL == 0 {
                if self.stop.should_stop() {
                    break 'node ControlFlow::Break(());
                }
                if share.wanted() {
                    open = self.give_away(level, open, share);
                }
            }
            match self.links.choose() {
                Branch::On(h) => {
                    // `choose` never branches on an empty column: `down(h)` is an option.
                    self.links.cover(h);
                    let r = self.links.down(h);
                    self.links.commit(r);
                    if self.item.len() == level {
                        self.item.push(h);
                        self.choice.push(r);
                    } else {
                        self.item[level] = h;
                        self.choice[level] = r;
                    }
                    level += 1;
                    continue 'node;
                }
                Branch::Solution => {
                    if self.complete(level, visit).is_break() {
                        break 'node ControlFlow::Break(());
                    }
                }
                Branch::Dead => self.dead_ends += 1,
            }
            // Back up to the deepest level with an option left to try.
            while level > 0 {
                level -= 1;
                let (h, r) = (self.item[level], self.choice[level]);
                self.links.uncommit(r);
                let next = self.links.down(r);
                if next != h && level >= open {
                    self.links.commit(next);
                    self.choice[level] = next;
                    level += 1;
                    continue 'node;
                }
                self.links.uncover(h);
            }
            break ControlFlow::Continue(());
        };
        // A stop leaves levels open: undo them, last first.
        for l in (0..level).rev() {
            self.links.uncommit(self.choice[l]);
            self.links.uncover(self.item[l]);
        }
        flow
    }

    /// Gives the options still to try at the shallowest level in `open..level` that has
    /// any (see the module docs); returns the new `open`.
    fn give_away(&mut self, level: usize, open: usize, share: &dyn Share) -> usize {
        let Some(l) = (open..level).find(|&l| self.links.down(self.choice[l]) != self.item[l])
        else {
            return open;
        };
        let mut stem = self.prefix.clone();
        stem.extend(self.choice[..l].iter().map(|&r| self.links.row(r)));
        let mut prefixes = Vec::new();
        let mut r = self.links.down(self.choice[l]);
        while r != self.item[l] {
            let mut prefix = stem.clone();
            prefix.push(self.links.row(r));
            prefixes.push(prefix);
            r = self.links.down(r);
        }
        share.give(prefixes);
        l + 1
    }

    /// Every unit item is covered at `level`: reports each set of the still-linked
    /// options that completes the partial solution (see the module docs), by increasing
    /// option number.
    fn complete(&mut self, level: usize, visit: &mut Visit<'_>) -> ControlFlow<()> {
        self.chosen.clear();
        self.chosen.extend_from_slice(&self.prefix);
        for &r in &self.choice[..level] {
            self.chosen.push(self.links.row(r));
        }
        let mut linked = std::mem::take(&mut self.linked);
        self.links.linked(&mut linked);
        let flow = self.extend(&linked, 0, visit);
        self.linked = linked;
        flow
    }

    /// [`Dlx::complete`] from `linked[from..]`: `remaining` counts down as options are
    /// taken (a plain count here; the links are not touched).
    fn extend(&mut self, linked: &[u32], from: usize, visit: &mut Visit<'_>) -> ControlFlow<()> {
        if self.links.satisfied() {
            visit(&self.chosen)?;
        }
        for (k, &o) in linked.iter().enumerate().skip(from) {
            if !self.links.can_take(o) {
                continue;
            }
            self.nodes += 1;
            if super::backtrack::should_stop(self.nodes, &self.stop) {
                return ControlFlow::Break(());
            }
            self.links.take(o);
            self.chosen.push(o);
            let flow = self.extend(linked, k + 1, visit);
            self.chosen.pop();
            self.links.untake(o);
            flow?;
        }
        ControlFlow::Continue(())
    }
}

impl Backtrack for Dlx {
    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>> {
        for &o in prefix {
            self.links.push(o);
        }
        let result = match self.links.choose() {
            Branch::On(h) => Branch::On(self.links.options(h)),
            Branch::Solution => Branch::Solution,
            Branch::Dead => Branch::Dead,
        };
        for &o in prefix.iter().rev() {
            self.links.pop(o);
        }
        result
    }

    fn run_shared(
        &mut self,
        prefix: &[u32],
        visit: &mut Visit<'_>,
        share: &dyn Share,
        stop: &Stop,
    ) -> ControlFlow<()> {
        debug_assert_eq!(self.sanity(), Ok(()));
        self.stop = stop.clone();
        self.prefix.clear();
        self.prefix.extend_from_slice(prefix);
        for &o in prefix {
            self.links.push(o);
        }
        let flow = self.search(visit, share);
        for &o in prefix.iter().rev() {
            self.links.pop(o);
        }
        debug_assert_eq!(self.sanity(), Ok(()));
        flow
    }
    fn describe(&self) -> String {
        String::new()
    }

    /// Steps down in place, as the search does (cover the item, commit the row), and
    /// undoes the steps last first.
    fn walk(&mut self, prefix: &[u32], pick: &mut dyn FnMut(usize) -> Option<usize>) {
        for &o in prefix {
            self.links.push(o);
        }
        let mut steps: Vec<(u32, u32)> = Vec::new();
        while let Branch::On(h) = self.links.choose() {
            let Some(k) = pick(self.links.len(h) as usize) else {
                break;
            };
            let mut r = self.links.down(h);
            for _ in 0..k {
                r = self.links.down(r);
            }
            self.links.cover(h);
            self.links.commit(r);
            steps.push((h, r));
        }
        for &(h, r) in steps.iter().rev() {
            self.links.uncommit(r);
            self.links.uncover(h);
        }
        for &o in prefix.iter().rev() {
            self.links.pop(o);
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
