//! The memoizing search: dancing links that also keep the subproblem's key.
//!
//! # The data structure
//!
//! The links are the DLX's, [`Links`] (`solver/links.rs`: Knuth's Algorithm X with the
//! `remaining`/`slack` bookkeeping for items that are not unit items), with the hook
//! [`Key`]: this search returns counts instead of visiting solutions, and keeps beside
//! the links the weight of each node and the subproblem's key.
//!
//! `key` is the subproblem's key, kept up to date as items are covered: a bit field per
//! item, in item order, packed into words (a field never straddles two words). A unit
//! item's field is one bit, set while it is uncovered; any other item's field is
//! `remaining[h]`, as wide as its `max` needs. Secondary items (0..1) are one bit too, so
//! on a box of cells the key is a bitset of the free cells plus a small counter per piece
//! with copies or a range.
//!
//! Under a sweep the table is keyed instead on the frontier (`frontier`: the first
//! uncovered cell, the cells an option may reach past it, and the other fields), a
//! function of this key that determines it, when that is shorter. The search keeps the
//! full key up to date as above and builds the frontier key from it at each node.
//!
//! # Giving work away
//!
//! A search run by a worker of the scheduler ([`crate::schedule`]) asks its [`Share`]
//! every [`ASK`] nodes whether a worker waits. If one does, it cuts off the untried
//! options of its shallowest branching level that has any and gives each, as the prefix
//! that leads to it (the options pushed before the count, the options chosen on the
//! levels above, then the option), to the waiting workers, which count it from their own
//! search. That level's loop then ends after the option it is trying. The counts of the
//! nodes at that level and above (the path's ancestors of the cut) are now partial: they
//! are returned (summed by the pool with the given pieces') but never stored in the
//! memo. The nodes below stay whole and stay memoized. With weights (Burnside's
//! quotients), whether an option fits depends on the state of its own level, which the
//! giving node, deeper, no longer has: the option is given unchecked, and the taker, whose
//! state after the prefix before it is that level's, checks it ([`Search::fits`]) and
//! counts 0 for an option that does not fit, as the level's own loop would have.
//!
//! # Claims
//!
//! Workers that share a table would otherwise compute the same subproblem side by side:
//! under a sweep every job walks the same columns at the same time, and a subproblem
//! missing from the table is missing for all of them until the first one stores it. So
//! a search claims each subproblem it starts computing ([`Memo::claim`]), and a level
//! that meets a subproblem another worker has claimed (busy) puts that option off and
//! tries its other options first. When its loop ends it tries the put-off options again:
//! most are stored by then; one still busy is computed here too (never waited for, so no
//! worker ever blocks on another). Below such a duplicate, the two workers part: each
//! puts off what the other has claimed and takes what it has not. A claim ends when the
//! count is stored, or is given back when the count was cut short or partial. Claims
//! change only the order in which a level tries its options, never which it tries, so
//! counts are the same; a table of one thread has no claims.
//!
//! Invariant: between calls, every link, `remaining` and `key` are as after [`Search::new`]
//! (each call undoes its own changes in reverse order, even when stopped); the key is
//! always the one [`Search::sanity`] computes again from the links. The memo only ever
//! holds whole counts: a count cut by a gift is not stored.

use num_bigint::BigUint;

use crate::solver::backtrack::{Alone, Branch, Share};
use crate::solver::links::{Hook, Links};

use super::input::Input;
use super::key::Frontier;
use super::order::{self, Branching};
use super::table::{hash, Count, Found, Memo};

/// The caller asked the search to stop: the count is incomplete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Incomplete;

/// The stop callback is polled every this many nodes (a few microseconds apart).
const POLL: u64 = 4096;
/// The share is asked whether a worker waits every this many nodes: a memo node costs
/// a hash and a table probe, so one relaxed load in 64 nodes is lost in the noise.
const ASK: u64 = 64;

/// The memo's hook on the links: each node's weight, and the key of the subproblem.
pub(crate) struct Key {
    /// How many times each node's option covers its item (1 but in Burnside's quotients).
    weight: Vec<u32>,
    /// Some weight is above 1.
    weighted: bool,
    /// Per header: the word and shift of its key field.
    field: Vec<(u32, u32)>,
    key: Vec<u64>,
    /// The frontier key's layout, when the table keys on it (module docs).
    frontier: Option<Frontier>,
}

impl Key {
    /// The key of the root (every unit item uncovered, every other at its `max`), and
    /// weights of 1 until the links set them.
    fn new(matrix: &Input) -> Key {
        let n = matrix.num_items();
        let mut k = Key {
            weight: vec![1; 1 + n + matrix.num_entries()],
            weighted: matrix.is_weighted(),
            field: vec![(0, 0); n + 1],
            key: vec![0],
            frontier: None,
        };
        let mut shift = 0u32;
        for (i, &(_, max)) in matrix.items.iter().enumerate() {
            let width = 32 - max.leading_zeros();
            if shift + width > 64 {
                k.key.push(0);
                shift = 0;
            }
            let word = k.key.len() - 1;
            k.field[i + 1] = (word as u32, shift);
            k.key[word] |= (max as u64) << shift;
            shift += width;
        }
        if let Some(reach) = matrix.frontier {
            // The sweep numbers the unit items first: they are the key's first bits.
            let units = matrix.items.iter().take_while(|&&b| b == (1, 1)).count() as u32;
            debug_assert!(matrix.items[units as usize..].iter().all(|&b| b != (1, 1)));
            let tail_end = 64 * (k.key.len() as u32 - 1) + shift;
            k.frontier = Frontier::new(units, reach, tail_end, k.key.len());
        }
        k
    }

    /// The table's key of the node whose first uncovered unit item is header `h` (0:
    /// none): the frontier key where there is one, else the full key.
    #[inline]
    fn current(&mut self, h: u32) -> &[u64] {
        match &mut self.frontier {
            Some(f) => f.build(&self.key, h),
            None => &self.key,
        }
    }
}

impl Hook for Key {
    #[inline]
    fn node(&mut self, x: u32, w: u32) {
        self.weight[x as usize] = w;
    }

    #[inline]
    fn weight(&self, x: u32) -> u32 {
        self.weight[x as usize]
    }

    #[inline]
    fn weighted(&self) -> bool {
        self.weighted
    }

    #[inline]
    fn lower(&mut self, h: u32, n: u32) {
        let (w, s) = self.field[h as usize];
        self.key[w as usize] -= (n as u64) << s;
    }

    #[inline]
    fn raise(&mut self, h: u32, n: u32) {
        let (w, s) = self.field[h as usize];
        self.key[w as usize] += (n as u64) << s;
    }
}

/// A branching level of the running count: the node of the option being tried, and the
/// node its loop stops at (its item's header, or the next option once the rest was given
/// away).
#[derive(Clone, Copy)]
struct Level {
    node: u32,
    end: u32,
}

pub(crate) struct Search<'s> {
    links: Links<Key>,
    /// Scratch for [`Search::complete`]: the options still linked.
    linked: Vec<u32>,
    pub(crate) nodes: u64,
    stop: &'s (dyn Fn() -> bool + Sync),
    /// Where waiting workers are asked for and given untried options.
    share: &'s dyn Share,
    /// The options pushed from outside the search, in order.
    stem: Vec<u32>,
    /// The branching levels open in the running count, shallowest first.
    levels: Vec<Level>,
    /// Nodes at a depth (open levels above them) below this one had options given away:
    /// their counts are partial and not stored.
    partial: usize,
    /// How the item to branch on is chosen (`order`).
    branching: Branching,
    /// The highest unit item (a header) each option of the stem covers, with those
    /// before it: the frontier key holds only when it is within the reach.
    stem_top: Vec<u32>,
    /// The options whose subproblems were busy when their level tried them, a stack of
    /// each open level's, to be tried again when its loop ends.
    deferred: Vec<u32>,
    /// How many times a level put off an option whose subproblem was busy.
    pub(crate) deferrals: u64,
}

impl<'s> Search<'s> {
    pub(crate) fn new(matrix: &Input, stop: &'s (dyn Fn() -> bool + Sync)) -> Search<'s> {
        let options = matrix.options.iter().map(Vec::as_slice);
        let links = Links::new(
            &matrix.items,
            matrix.num_entries(),
            options,
            Key::new(matrix),
        );
        let s = Search {
            links,
            linked: Vec::new(),
            nodes: 0,
            stop,
            share: &Alone,
            stem: Vec::new(),
            levels: Vec::new(),
            partial: 0,
            branching: matrix.branching,
            stem_top: Vec::new(),
            deferred: Vec::new(),
            deferrals: 0,
        };
        debug_assert_eq!(s.sanity(), Ok(()));
        s
    }

    /// Checks every link, and that the key is the one the links describe: a unit item's
    /// bit set while it is on the header list, any other item's field its `remaining`.
    pub(crate) fn sanity(&self) -> Result<(), String> {
        self.links.sanity()?;
        let k = &self.links.hook;
        let mut key = vec![0u64; k.key.len()];
        for h in 1..k.field.len() as u32 {
            let value = if self.links.unit[h as usize] {
                u64::from(self.links.listed(h))
            } else {
                u64::from(self.links.remaining[h as usize])
            };
            let (w, s) = k.field[h as usize];
            key[w as usize] |= value << s;
        }
        if key != k.key {
            return Err(format!("key {:x?} but the links say {key:x?}", k.key));
        }
        if let Some(f) = &k.frontier {
            let h = self.links.right[0];
            let top = (1..k.field.len() as u32)
                .filter(|&i| self.links.unit[i as usize] && !self.links.listed(i))
                .max()
                .unwrap_or(0);
            if !f.holds(h, top) {
                return Err(format!("cell {top} is covered past the reach of {h}"));
            }
            let mut f = f.clone();
            let built = f.build(&key, h).to_vec();
            let decoded = f.decode(&built);
            if decoded != key {
                return Err(format!("frontier key of {key:x?} decodes to {decoded:x?}"));
            }
        }
        Ok(())
    }

    /// Words in a key.
    pub(crate) fn key_words(&self) -> usize {
        match &self.links.hook.frontier {
            Some(f) => f.words(),
            None => self.links.hook.key.len(),
        }
    }

    /// Whether the table keys on the frontier.
    #[cfg(test)]
    pub(crate) fn keys_on_frontier(&self) -> bool {
        self.links.hook.frontier.is_some()
    }

    /// The key of the current subproblem.
    pub(crate) fn key(&mut self) -> &[u64] {
        let h = self.links.right[0];
        self.links.hook.current(h)
    }

    /// Gives untried options to `share` when it wants work (by default nobody does).
    pub(crate) fn sharing(&mut self, share: &'s dyn Share) {
        self.share = share;
    }

    /// Takes option `o` (from [`Search::options`]) outside the search.
    pub(crate) fn push(&mut self, o: u32) {
        let links = &self.links;
        let (start, end) = links.span[o as usize];
        let top = (start..end)
            .map(|q| links.top(q))
            .filter(|&h| links.unit[h as usize])
            .chain(self.stem_top.last().copied())
            .max()
            .unwrap_or(0);
        self.stem_top.push(top);
        self.links.push(o);
        self.stem.push(o);
    }

    /// Whether option `o` may be pushed here: always so without weights; with weights,
    /// whether each item it covers may still be covered that many times.
    pub(crate) fn fits(&self, o: u32) -> bool {
        self.links.option_fits(o)
    }

    /// Undoes [`Search::push`] of the same option, latest first.
    pub(crate) fn pop(&mut self, o: u32) {
        self.links.pop(o);
        self.stem.pop();
        self.stem_top.pop();
    }

    /// The options the search would branch over here, or why there are none.
    pub(crate) fn options(&self) -> Branch<Vec<u32>> {
        match self.choose() {
            Branch::On(h) => Branch::On(self.links.options(h)),
            Branch::Solution => Branch::Solution,
            Branch::Dead => Branch::Dead,
        }
    }

    /// The unit item to branch on, by the input's [`Branching`], or why there is none.
    #[inline]
    fn choose(&self) -> Branch<u32> {
        match self.branching {
            Branching::Fewest => self.links.choose(),
            Branching::Sweep => order::first(&self.links),
        }
    }

    fn tick(&mut self) -> Result<(), Incomplete> {
        self.nodes += 1;
        if self.nodes % POLL == 0 && (self.stop)() {
            return Err(Incomplete);
        }
        if self.nodes % ASK == 0 && self.share.wanted() {
            self.give_away();
        }
        Ok(())
    }

    /// Gives the untried options of the shallowest open level that has any to the share,
    /// and marks that level and those above it partial (see the module docs).
    fn give_away(&mut self) {
        let links = &self.links;
        let Some(d) = self.levels.iter().position(|l| links.down(l.node) != l.end) else {
            return;
        };
        let mut stem = self.stem.clone();
        stem.extend(self.levels[..d].iter().map(|l| links.row(l.node)));
        let Level { node, end } = self.levels[d];
        let mut prefixes = Vec::new();
        let mut q = links.down(node);
        while q != end {
            let mut prefix = stem.clone();
            prefix.push(links.row(q));
            prefixes.push(prefix);
            q = links.down(q);
        }
        self.levels[d].end = links.down(node);
        self.partial = self.partial.max(d + 1);
        self.share.give(prefixes);
    }

    /// The number of solutions of the current subproblem, read from `memo` or computed
    /// and stored there. With a share, part of it may have been given away: the number
    /// is then that of the part not given.
    ///
    /// # Panics
    ///
    /// When the table keys on the frontier and the options pushed cover a cell past the
    /// reach of the first uncovered one (see `frontier`): the input should have keyed on
    /// every item ([`Input::for_prefixes`]).
    pub(crate) fn count(&mut self, memo: &mut dyn Memo) -> Result<Count, Incomplete> {
        if let Some(f) = &self.links.hook.frontier {
            let top = self.stem_top.last().copied().unwrap_or(0);
            assert!(
                f.holds(self.links.right[0], top),
                "a prefix outside the sweep under the frontier key"
            );
        }
        self.partial = 0;
        let count = self.node(memo, false);
        debug_assert!(self.levels.is_empty() && self.deferred.is_empty());
        count.map(|c| c.expect("not deferred"))
    }

    /// The count of the current subproblem, as [`Search::count`]; `None` when `defer`
    /// and another worker is computing it (see "Claims" in the module docs).
    fn node(&mut self, memo: &mut dyn Memo, defer: bool) -> Result<Option<Count>, Incomplete> {
        self.tick()?;
        let branch = match self.choose() {
            Branch::Dead => return Ok(Some(Count::ZERO)),
            Branch::Solution if self.links.exact => return Ok(Some(Count::ONE)),
            b => b,
        };
        let key = self.key();
        let hash = hash(key);
        let claimed = match memo.claim(key, hash) {
            Found::Count(c) => return Ok(Some(c)),
            Found::Busy if defer => return Ok(None),
            Found::Busy => false,
            Found::Claimed => true,
        };
        let before = self.nodes;
        let depth = self.levels.len();
        let total = match branch {
            Branch::On(h) => self.branch(h, memo),
            _ => self.complete(),
        };
        // Every change made below is undone: `key` is this node's again. A node whose
        // level or an ancestor's gave options away has a partial count: not stored.
        match &total {
            Ok(total) if depth >= self.partial => {
                let cost = self.nodes - before;
                memo.insert(self.key(), hash, total, cost);
            }
            _ if claimed => memo.release(self.key(), hash),
            _ => {}
        }
        total.map(Some)
    }

    fn branch(&mut self, h: u32, memo: &mut dyn Memo) -> Result<Count, Incomplete> {
        self.links.cover(h);
        let mut total = Count::ZERO;
        let mut result = Ok(());
        let d = self.levels.len();
        self.levels.push(Level { node: h, end: h });
        let first_deferred = self.deferred.len();
        let mut r = self.links.down(h);
        // The end is read again at each step: a gift moves it.
        while r != self.levels[d].end {
            if self.links.fits(r) {
                self.levels[d].node = r;
                self.links.commit(r);
                let sub = self.node(memo, true);
                self.links.uncommit(r);
                match sub {
                    Ok(Some(c)) => total.add(&c),
                    Ok(None) => {
                        self.deferrals += 1;
                        self.deferred.push(r);
                    }
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            r = self.links.down(r);
        }
        // The options whose subproblem was busy, now: most were stored meanwhile. None
        // is given away (the level's end stays just past the one tried), and a busy one
        // is computed here too.
        let last_deferred = self.deferred.len();
        for i in first_deferred..last_deferred {
            if result.is_err() {
                break;
            }
            let r = self.deferred[i];
            self.levels[d] = Level {
                node: r,
                end: self.links.down(r),
            };
            self.links.commit(r);
            let sub = self.node(memo, false);
            self.links.uncommit(r);
            match sub {
                Ok(c) => total.add(&c.expect("not deferred")),
                Err(e) => result = Err(e),
            }
        }
        self.deferred.truncate(first_deferred);
        self.levels.pop();
        self.links.uncover(h);
        result.map(|()| total)
    }

    /// Every unit item is covered in a matrix that is not exact: counts the sets of the
    /// still-linked options (none has a unit item) that keep every item within its `max`
    /// and bring it to its `min`, as the DLX lists them.
    fn complete(&mut self) -> Result<Count, Incomplete> {
        let mut linked = std::mem::take(&mut self.linked);
        self.links.linked(&mut linked);
        let count = self.extend(&linked, 0);
        self.linked = linked;
        count
    }

    /// Completion number `rank` of the current subproblem (every unit item covered, in a
    /// matrix that is not exact), in the order [`Search::complete`] counts them: its
    /// options are appended to `out`. The search is left as it was.
    pub(crate) fn nth_completion(
        &mut self,
        rank: &mut BigUint,
        out: &mut Vec<u32>,
    ) -> Result<(), Incomplete> {
        let mut linked = Vec::new();
        self.links.linked(&mut linked);
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
        if self.links.satisfied() {
            if *rank == BigUint::ZERO {
                return Ok(());
            }
            *rank -= 1u32;
        }
        for (k, &o) in linked.iter().enumerate().skip(from) {
            if !self.links.can_take(o) {
                continue;
            }
            self.links.take(o);
            let below = self.extend(linked, k + 1).map(Count::into_big);
            let found = match below {
                Ok(below) if *rank < below => {
                    out.push(o);
                    Some(self.nth_extension(linked, k + 1, rank, out))
                }
                Ok(below) => {
                    *rank -= below;
                    None
                }
                Err(e) => Some(Err(e)),
            };
            self.links.untake(o);
            if let Some(result) = found {
                return result;
            }
        }
        unreachable!("the completions' counts add up to the subproblem's")
    }

    /// The completions that take options from `linked[from..]` only, in increasing order
    /// (so each set once); `remaining` counts down as options are taken.
    fn extend(&mut self, linked: &[u32], from: usize) -> Result<Count, Incomplete> {
        let mut total = if self.links.satisfied() {
            Count::ONE
        } else {
            Count::ZERO
        };
        for (k, &o) in linked.iter().enumerate().skip(from) {
            if !self.links.can_take(o) {
                continue;
            }
            self.tick()?;
            self.links.take(o);
            let sub = self.extend(linked, k + 1);
            self.links.untake(o);
            total.add(&sub?);
        }
        Ok(total)
    }
}
