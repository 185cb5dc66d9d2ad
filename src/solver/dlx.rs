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
//! [`Links::sanity`] walks every list and runs in debug builds at the start and end of
//! each search.
//!
//! # References
//!
//! Donald E. Knuth, "Dancing links", in *Millennial Perspectives in Computer Science*
//! (2000); and *The Art of Computer Programming*, Vol. 4B, §7.2.2.1, Algorithm X.

use std::ops::ControlFlow;

use super::engine::{Branch, Engine, Share, Visit};
use super::links::Links;
use crate::matrix::Matrix;

pub struct Dlx {
    links: Links<()>,
    /// Scratch for [`Dlx::complete`]: the options still linked.
    linked: Vec<u32>,
    chosen: Vec<u32>,
    nodes: u64,
}

impl Dlx {
    pub fn new(matrix: &Matrix) -> Dlx {
        let bounds: Vec<(u32, u32)> = matrix.items().iter().map(|i| (i.min, i.max)).collect();
        let options = (0..matrix.num_options() as u32).map(|o| matrix.option_items(o));
        Dlx {
            links: Links::new(&bounds, matrix.num_entries(), options, ()),
            linked: Vec::new(),
            chosen: Vec::new(),
            nodes: 0,
        }
    }

    /// Checks every link. Returns the first inconsistency found.
    pub fn sanity(&self) -> Result<(), String> {
        self.links.sanity()
    }

    /// Takes the option of node `r` into the solution (see [`Links::commit`]).
    #[inline]
    fn commit(&mut self, r: u32) {
        self.links.commit(r);
        self.chosen.push(self.links.row[r as usize]);
    }

    /// Exactly undoes [`Dlx::commit`].
    #[inline]
    fn uncommit(&mut self, r: u32) {
        self.links.uncommit(r);
        self.chosen.pop();
    }

    fn search(&mut self, visit: &mut Visit<'_>) -> ControlFlow<()> {
        self.nodes += 1;
        if super::engine::should_stop(self.nodes) {
            return ControlFlow::Break(());
        }
        let h = match self.links.choose() {
            Branch::Solution => return self.complete(visit),
            Branch::Dead => return ControlFlow::Continue(()),
            Branch::On(h) => h,
        };
        self.links.cover(h);
        let mut r = self.links.down[h as usize];
        let mut flow = ControlFlow::Continue(());
        while r != h {
            self.commit(r);
            flow = self.search(visit);
            self.uncommit(r);
            if flow.is_break() {
                break;
            }
            r = self.links.down[r as usize];
        }
        self.links.uncover(h);
        flow
    }

    /// Every unit item is covered: reports each set of the still-linked options that
    /// completes the partial solution (see the module docs), by increasing option number.
    fn complete(&mut self, visit: &mut Visit<'_>) -> ControlFlow<()> {
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
            if super::engine::should_stop(self.nodes) {
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

impl Engine for Dlx {
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

    /// Gives nothing away yet: the DLX runs each subproblem whole.
    fn run_shared(
        &mut self,
        prefix: &[u32],
        visit: &mut Visit<'_>,
        _share: &dyn Share,
    ) -> ControlFlow<()> {
        debug_assert_eq!(self.sanity(), Ok(()));
        self.chosen.extend_from_slice(prefix);
        for &o in prefix {
            self.links.push(o);
        }
        let flow = self.search(visit);
        for &o in prefix.iter().rev() {
            self.links.pop(o);
        }
        self.chosen.clear();
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
            self.links.push(o);
        }
        let mut steps: Vec<(u32, u32)> = Vec::new();
        while let Branch::On(h) = self.links.choose() {
            let Some(k) = pick(self.links.len[h as usize] as usize) else {
                break;
            };
            let mut r = self.links.down[h as usize];
            for _ in 0..k {
                r = self.links.down[r as usize];
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
