//! The depth-first search the two bitset engines share: choose the item with the fewest
//! options, try each of its options, report the covers. An engine supplies the levels
//! (how a node is built from its parent, which item it branches on, which options cover
//! that item) through [`Levels`]; this module supplies the walk, prefixes, and node
//! counting, so that both engines walk the same tree the same way, as the DLX does.
//!
//! Invariants:
//! - `Path::chosen` holds the keys of the options chosen on the way to the current node,
//!   one per level; every [`Levels::descend`] is followed by one [`Levels::ascend`] with
//!   the same key, whether or not the child was viable.
//! - A dead child counts as a node, as in the DLX, so the engines report equal counts.
//! - `Path::tries[d][..Path::next[d]]` are the options of level `d` tried or being tried;
//!   the rest are still to try, unless given away: [`give_away`] cuts them off the
//!   shallowest level below the subproblem's own prefix (`Path::base`) that has any, and
//!   the loop of that level, which reads its list's length at each step, then ends.

use std::ops::ControlFlow;

use super::backtrack::{Backtrack, Branch, Share, Visit};
use crate::stop::Stop;

/// The per-engine half of the search. A `Key` is the engine's handle for an option (its
/// mask, or its piece and mask); option numbers are looked up only for reported solutions.
pub(super) trait Levels {
    type Key: Copy;

    /// The search path this engine keeps.
    fn path(&mut self) -> &mut Path<Self::Key>;
    /// Search nodes visited so far (`Path::nodes`).
    fn nodes(&self) -> u64;
    /// The engine's key for option `o` of its matrix.
    fn key(&self, o: u32) -> Self::Key;
    /// The option number of `key`.
    fn option(&self, key: &Self::Key) -> u32;
    /// Level 0: every option viable, nothing covered.
    fn reset(&mut self);
    /// Builds level `d + 1` from level `d` with `key` chosen; false when the child is
    /// dead (its level is then incomplete and must not be searched).
    fn descend(&mut self, d: usize, key: Self::Key) -> bool;
    /// Undoes what `descend` changed outside the levels.
    fn ascend(&mut self, _key: Self::Key) {}
    /// What level `d` branches on.
    fn choose(&self, d: usize) -> Branch<u32>;
    /// The viable options of level `d` that cover `item`, in list order.
    fn collect(&self, d: usize, item: u32, into: &mut Vec<Self::Key>);
    /// Which engine this is and how it runs ([`Backtrack::describe`]).
    fn describe(&self) -> String;
}

/// Every `Levels` engine is an [`Backtrack`], with this module's walk.
impl<L: Levels + Send> Backtrack for L {
    fn branch(&mut self, prefix: &[u32]) -> Branch<Vec<u32>> {
        branch(self, prefix)
    }

    fn run_shared(
        &mut self,
        prefix: &[u32],
        visit: &mut Visit<'_>,
        share: &dyn Share,
        stop: &Stop,
    ) -> ControlFlow<()> {
        self.path().stop = stop.clone();
        run(self, prefix, visit, share)
    }

    fn nodes(&self) -> u64 {
        Levels::nodes(self)
    }

    fn describe(&self) -> String {
        Levels::describe(self)
    }

    fn walk(&mut self, prefix: &[u32], pick: &mut dyn FnMut(usize) -> Option<usize>) {
        walk(self, prefix, pick)
    }
}

/// The chosen options, a reusable buffer per level for the options being tried with the
/// position of the next one, and the node count.
///
/// `solution[..known]` are the option numbers of `chosen[..known]`: consecutive solutions
/// share most of their path, so a solution looks up only the options chosen since the last
/// one. Looking up all of them each time made the lookup most of the run on puzzles with
/// millions of solutions (8x8 dominoes: 13 M solutions of 32 options each).
pub(super) struct Path<K> {
    chosen: Vec<K>,
    tries: Vec<Vec<K>>,
    next: Vec<usize>,
    /// The depth of the running subproblem's prefix: levels above it are not the search's
    /// to give away.
    base: usize,
    solution: Vec<u32>,
    known: usize,
    pub(super) nodes: u64,
    /// The stop of the running subproblem's run, polled every few thousand nodes.
    stop: Stop,
}

impl<K> Default for Path<K> {
    fn default() -> Self {
        Path {
            chosen: Vec::new(),
            tries: Vec::new(),
            next: Vec::new(),
            base: 0,
            solution: Vec::new(),
            known: 0,
            nodes: 0,
            stop: Stop::new(),
        }
    }
}

fn search<L: Levels>(
    l: &mut L,
    d: usize,
    visit: &mut Visit<'_>,
    share: &dyn Share,
) -> ControlFlow<()> {
    l.path().nodes += 1;
    if l.path().nodes % 4096 == 0 {
        if l.path().stop.should_stop() {
            return ControlFlow::Break(());
        }
        if share.wanted() {
            give_away(l, d, share);
        }
    }
    let item = match l.choose(d) {
        Branch::Solution => {
            let path = l.path();
            let known = path.known;
            let mut solution = std::mem::take(&mut path.solution);
            let chosen = std::mem::take(&mut path.chosen);
            solution.truncate(known);
            solution.extend(chosen[known..].iter().map(|k| l.option(k)));
            let path = l.path();
            path.known = chosen.len();
            path.chosen = chosen;
            let flow = visit(&solution);
            path.solution = solution;
            return flow;
        }
        Branch::Dead => return ControlFlow::Continue(()),
        Branch::On(i) => i,
    };
    // The options to try are copied out into this level's buffer first: the child levels
    // are rebuilt while we iterate. The buffer stays in the path, where `give_away` can
    // shorten it.
    let path = l.path();
    if path.tries.len() <= d {
        path.tries.resize_with(d + 1, Vec::new);
        path.next.resize(d + 1, 0);
    }
    let mut tries = std::mem::take(&mut path.tries[d]);
    tries.clear();
    l.collect(d, item, &mut tries);
    l.path().tries[d] = tries;
    let mut flow = ControlFlow::Continue(());
    let mut k = 0;
    loop {
        let path = l.path();
        let Some(&key) = path.tries[d].get(k) else {
            break;
        };
        k += 1;
        path.next[d] = k;
        path.chosen.push(key);
        flow = if l.descend(d, key) {
            search(l, d + 1, visit, share)
        } else {
            l.path().nodes += 1;
            ControlFlow::Continue(())
        };
        let path = l.path();
        path.chosen.pop();
        path.known = path.known.min(path.chosen.len());
        l.ascend(key);
        if flow.is_break() {
            break;
        }
    }
    flow
}

/// Gives the untried options of the shallowest open level (between the subproblem's
/// prefix and the node at depth `d` being entered) to `share`, each as the path to that
/// level plus the option, and cuts them off the level, which then ends after its current
/// option. Gives nothing when every level is on its last option.
fn give_away<L: Levels>(l: &mut L, d: usize, share: &dyn Share) {
    let path = l.path();
    let Some(level) = (path.base..d).find(|&e| path.next[e] < path.tries[e].len()) else {
        return;
    };
    let untried = path.tries[level].split_off(path.next[level]);
    let stem: Vec<L::Key> = path.chosen[..level].to_vec();
    let stem: Vec<u32> = stem.iter().map(|k| l.option(k)).collect();
    let prefixes = untried
        .iter()
        .map(|k| {
            let mut prefix = stem.clone();
            prefix.push(l.option(k));
            prefix
        })
        .collect();
    share.give(prefixes);
}

/// Resets and applies `prefix` from level 0; the level reached, or `None` when the
/// prefix leads to a dead node. The caller must [`unwind`] afterwards.
fn apply<L: Levels>(l: &mut L, prefix: &[u32]) -> Option<usize> {
    l.reset();
    l.path().known = 0;
    for (d, &o) in prefix.iter().enumerate() {
        let key = l.key(o);
        l.path().chosen.push(key);
        if !l.descend(d, key) {
            return None;
        }
    }
    Some(prefix.len())
}

/// Undoes an [`apply`]: ascends over every chosen key, last first.
fn unwind<L: Levels>(l: &mut L) {
    while let Some(key) = l.path().chosen.pop() {
        l.ascend(key);
    }
    l.path().known = 0;
}

/// [`Backtrack::branch`] for a [`Levels`] engine.
fn branch<L: Levels>(l: &mut L, prefix: &[u32]) -> Branch<Vec<u32>> {
    let result = match apply(l, prefix) {
        None => Branch::Dead,
        Some(d) => match l.choose(d) {
            Branch::On(item) => {
                let mut keys = Vec::new();
                l.collect(d, item, &mut keys);
                Branch::On(keys.iter().map(|k| l.option(k)).collect())
            }
            Branch::Solution => Branch::Solution,
            Branch::Dead => Branch::Dead,
        },
    };
    unwind(l);
    result
}

/// [`Backtrack::walk`] for a [`Levels`] engine: each step builds one level from the last.
fn walk<L: Levels>(l: &mut L, prefix: &[u32], pick: &mut dyn FnMut(usize) -> Option<usize>) {
    let mut keys = Vec::new();
    if let Some(mut d) = apply(l, prefix) {
        while let Branch::On(item) = l.choose(d) {
            keys.clear();
            l.collect(d, item, &mut keys);
            let Some(k) = (!keys.is_empty()).then(|| pick(keys.len())).flatten() else {
                break;
            };
            l.path().chosen.push(keys[k]);
            if !l.descend(d, keys[k]) {
                break;
            }
            d += 1;
        }
    }
    unwind(l);
}

/// [`Backtrack::run_shared`] for a [`Levels`] engine.
fn run<L: Levels>(
    l: &mut L,
    prefix: &[u32],
    visit: &mut Visit<'_>,
    share: &dyn Share,
) -> ControlFlow<()> {
    let flow = match apply(l, prefix) {
        Some(d) => {
            l.path().base = d;
            search(l, d, visit, share)
        }
        None => {
            l.path().nodes += 1;
            ControlFlow::Continue(())
        }
    };
    unwind(l);
    flow
}
