//! The interface every native search implements, and what the driver in [`super`] asks
//! of it. Engines depend on this module, never on the driver, so no module of
//! `solver/` imports another in a circle.
//!
//! Invariant: an engine reports each exact cover of its matrix exactly once, and a
//! `prefix` given to it always comes from its own [`Engine::branch`] calls.

use std::ops::ControlFlow;

/// Called with each solution, as option indices; `Break` stops the search.
pub type Visit<'a> = dyn FnMut(&[u32]) -> ControlFlow<()> + 'a;

/// What a search node does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Branch<T> {
    /// Branch on this (an item, or the options that cover it).
    On(T),
    /// Every unit item is covered: in an exact matrix the partial solution is a
    /// solution; otherwise [`Engine::run`] completes it over the other items.
    Solution,
    /// No solution extends this node.
    Dead,
}

/// A native search over one exact-cover matrix: the DLX, and the two bitset searches
/// (plain masks, and pieces as list segments) behind `Engine::Bits`.
pub trait Engine: Send {
    /// With the options of `prefix` chosen: the options the search would branch over.
    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>>;
    /// Searches every completion of `prefix`.
    fn run(&mut self, prefix: &[u32], visit: &mut Visit<'_>) -> ControlFlow<()>;
    /// Search nodes visited so far.
    fn nodes(&self) -> u64;
    /// Which engine this is and how it runs, for the `c solver` line.
    fn describe(&self) -> String;
}

/// Whether a search that has visited `nodes` nodes should stop now: Ctrl-C was pressed
/// while the run listens for it. Polled every 4096 nodes, a few microseconds apart, so
/// that a search between solutions still stops at once and the check costs nothing.
#[inline]
pub(super) fn should_stop(nodes: u64) -> bool {
    nodes % 4096 == 0 && crate::interrupt::requested()
}
