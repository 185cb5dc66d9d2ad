//! The interface every native search implements, and what the driver in [`super`] asks
//! of it. Engines depend on this module, never on the driver, so no module of
//! `solver/` imports another in a circle.
//!
//! Invariant: an engine reports each exact cover of its matrix exactly once, and a
//! `prefix` given to it always comes from its own [`Backtrack::branch`] calls.

use std::ops::ControlFlow;

use crate::stop::Stop;

/// Called with each solution, as option indices; `Break` stops the search.
pub type Visit<'a> = dyn FnMut(&[u32]) -> ControlFlow<()> + 'a;

pub use crate::schedule::{Alone, Share};

/// What a search node does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Branch<T> {
    /// Branch on this (an item, or the options that cover it).
    On(T),
    /// Every unit item is covered: in an exact matrix the partial solution is a
    /// solution; otherwise [`Backtrack::run`] completes it over the other items.
    Solution,
    /// No solution extends this node.
    Dead,
}

/// A native search over one exact-cover matrix: the DLX, and the two bitset searches
/// (plain masks, and pieces as list segments) behind `Backtrack::Bits`.
pub trait Backtrack: Send {
    /// With the options of `prefix` chosen: the options the search would branch over.
    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>>;
    /// Searches every completion of `prefix`, until `stop` says stop (then `Break`).
    fn run(&mut self, prefix: &[u32], visit: &mut Visit<'_>, stop: &Stop) -> ControlFlow<()> {
        self.run_shared(prefix, visit, &Alone, stop)
    }
    /// Searches the completions of `prefix`, except those it gives to `share` when asked
    /// (each completion is either visited here or extends exactly one given prefix).
    /// `stop` is polled every few thousand nodes (`should_stop`); when it says stop,
    /// the search ends with `Break`.
    fn run_shared(
        &mut self,
        prefix: &[u32],
        visit: &mut Visit<'_>,
        share: &dyn Share,
        stop: &Stop,
    ) -> ControlFlow<()>;
    /// Search nodes visited so far.
    fn nodes(&self) -> u64;
    /// How it runs, for the `c solver` line after the engine's name (empty: nothing to
    /// add).
    fn describe(&self) -> String;

    /// Walks one path down from `prefix`, as [`Backtrack::branch`] would step by step: at each
    /// node `pick` hears how many options the search branches over (never 0) and names
    /// the one to follow, or `None` to end the walk there; the walk also ends at a
    /// solution or a dead node. The engine is left as it was. This default replays the
    /// path at every step; an engine that can step down in place overrides it, so that a
    /// walk costs its length and not its length squared (Knuth's estimate walks
    /// thousands of levels on a box of dominoes).
    fn walk(&mut self, prefix: &[u32], pick: &mut dyn FnMut(usize) -> Option<usize>) {
        let mut path = prefix.to_vec();
        while let Branch::On(options) = self.branch(&path) {
            if options.is_empty() {
                return;
            }
            match pick(options.len()) {
                Some(k) => path.push(options[k]),
                None => return,
            }
        }
    }
}

/// Whether a search that has visited `nodes` nodes should stop now: its run's [`Stop`]
/// was raised or its deadline passed. Polled every 4096 nodes, a few microseconds apart,
/// so that a search between solutions (a puzzle with none) still stops at once and the
/// check costs nothing.
#[inline]
pub(super) fn should_stop(nodes: u64, stop: &Stop) -> bool {
    nodes % 4096 == 0 && stop.should_stop()
}
