//! The solver-independent half of the MRV propagator: what the search knows about each
//! exactly-one group (a cell, a one-copy piece), kept in step with a CDCL solver's trail,
//! and the decision the native engines would make next.
//!
//! A CDCL solver left to itself picks single literals by activity. The native engines
//! branch on the most constrained item instead (minimum remaining values), and that is
//! what makes them fast on exact cover. This module lets the solver branch the same way:
//! it watches the primary (placement) variables and answers "which literal next?".
//!
//! # Data
//!
//! - [`Groups`] (`groups.rs`; shared, read-only): for each option the groups it belongs
//!   to; for each group its options that survived the symmetry reduction, least
//!   constraining first.
//! - [`Mrv`] (one per solver): the value of each option (true, false, unassigned); for
//!   each group `live` (options not false) and `covered` (options true), and its options
//!   in a list with the live ones first, as the DLX keeps its columns: setting an option
//!   false swaps it behind the live part of each of its groups, and a backtrack, which
//!   undoes assignments in the reverse order, finds it there and only counts it back in;
//!   a trail of the options assigned, where each decision level starts on it and which
//!   option MRV decided there; and the overlap table of forward checking, filled an
//!   option at a time. An assignment costs a few operations per group of its option,
//!   and nothing in a callback scans the matrix.
//!
//! Invariants (checked by [`Mrv::sanity`], after every callback in debug builds):
//! - `live[g]` and `covered[g]` equal the counts recomputed from the values;
//! - the first `live[g]` entries of group `g`'s list are exactly its options that are
//!   not false, and each option's recorded position in each of its groups is where it
//!   stands;
//! - every assigned option that the reduction kept is on the trail exactly once; the
//!   options it removed are false for good and never on the trail;
//! - the level starts are non-decreasing and within the trail.
//!
//! # Forward checking
//!
//! Before the solver decides, [`Mrv::forward_check`] looks one step ahead: an option of
//! the group MRV will branch on that would leave another group with no live option is
//! set false at once, with a short reason clause (see [`Mrv::reason`]). The native
//! engines visit such an option as a dead-end node; a CDCL solver pays a whole conflict
//! for it. On Bedlam this cuts the decisions per model from about 1,400 to about 420 and
//! the time per model by a third; an overlap table (`o` takes away this many options of
//! group `h`), filled the first time `o` is checked, rules most groups out without
//! counting, and only the live options of the others are looked at.
//!
//! # Dead ends
//!
//! When forward checking rules out every live option of the MRV group, or a rival of
//! the lazy at-most-one is true or the last live option of an uncovered group, the node
//! is a dead end, and the propagator says so itself ([`Mrv::dead_end`]): it hands the
//! solver the decision of the level, already true, as propagated false, with the reason
//! `-d | -d1 | ... | -dk` over the decisions below. A falsified clause with one literal
//! of the top level is what CaDiCaL takes as a chronological backtrack: back one level,
//! `d` false, no conflict analysis, no learned clause, as the native engines backtrack.
//! Left to the solver, each such node cost a conflict: analysis, shrinking, the
//! explanation of every forward-checking reason met, and a learned clause (on the
//! 6x10 pentominoes, 86,000 of the 148,000 conflicts; the search visits as many nodes
//! as before, so the clauses learned there pruned next to nothing).
//!
//! A cube's assumptions are decisions too ([`Mrv::assume`]): the solver opens a level
//! for each, so a dead end on an assumption's level hands back the assumption, and the
//! solve call ends with it false, as a cube's search ends in the native engines. An
//! assumption already true when its level opens (the clauses of earlier cubes can imply
//! it) opens a level with no decision, whose dead end is the level's below. Left to
//! conflict analysis, the end of each cube had CaDiCaL explain and keep reasons, which
//! then propagated on their own in the cubes after it, and each conflict they caused
//! kept more: 53,800 conflicts on the 6x10 count, where a plain search has none.
//!
//! # The lazy at-most-one
//!
//! With `--amo lazy` the CNF has no at-most-one clauses for the groups, and the
//! propagator supplies them as the search needs them: when an option becomes true, each
//! of its groups is queued, and the other live options of the group are handed to the
//! solver false one by one ([`Mrv::next_rival`]), each with the binary reason `¬q ∨ ¬o`.
//! A rival that is already true ends the node (see "Dead ends"; handed over as a
//! conflict where no dead end applies), so two true options of one group never outlive
//! the next propagation. The queue is drained before forward checking and before any
//! decision; entries whose option was undone by a backtrack are dropped (the solver
//! notifies again the assignments it keeps, which queues their groups again). The model
//! check refuses a model with a group covered twice, with the same binary clause, as a
//! last guard. With CaDiCaL this is the default: the propagator sees every placement
//! set false before the clauses do, so it finds the dead ends that the eager encodings
//! leave to conflicts.
//!
//! Items not covered exactly once (k copies of a piece, optional cells, count ranges)
//! are not groups: their at-most-one and totalizer clauses handle them, and the cells
//! force their options. The decisions stay exact for them because a decision only ever
//! sets a placement true, which the clauses then judge; forward checking only counts
//! conflicts through groups, which no two true placements share. Once every group is
//! covered the propagator has no decision and CaDiCaL decides the rest.

use std::sync::Arc;

mod groups;

pub(crate) use groups::Groups;

/// An option's value.
const UNASSIGNED: i8 = 0;
const TRUE: i8 = 1;
const FALSE: i8 = -1;

/// No MRV decision opened this level.
const NO_DECISION: u32 = u32::MAX;

/// The level of an assumption that was already true: the solver opens it with no
/// decision, so everything on it follows from the levels below.
const NO_DECISION_NEEDED: u32 = u32::MAX - 1;

/// The live-option counts of one solver's search.
#[derive(Debug)]
pub(crate) struct Mrv {
    groups: Arc<Groups>,
    value: Vec<i8>,
    live: Vec<u32>,
    /// Each group's kept options as slots (its part of [`Groups::flat`]), the live ones
    /// first: `live[g]` of them. An option set false is swapped to the end of the live
    /// part; backtracking undoes assignments in the reverse order, so it finds each
    /// option where it left it and only counts it back in.
    live_options: Vec<u32>,
    /// Where each slot stands in its group's list.
    position: Vec<u32>,
    covered: Vec<u32>,
    /// The true option of each covered group (check its value: a group covered twice,
    /// in a conflict, keeps the later one).
    cover_of: Vec<u32>,
    trail: Vec<u32>,
    level_start: Vec<usize>,
    /// For each decision level, the option decided there: MRV's, or the solver's
    /// assumption of that level (`NO_DECISION_NEEDED` for an assumption that was
    /// already true, `NO_DECISION` for a level the solver opened on something else).
    level_decision: Vec<u32>,
    /// The placements the solve call assumes (a cube), in order: the solver decides
    /// `assumptions[i]` to open level `i + 1`, before asking for any decision.
    assumptions: Vec<u32>,
    /// The decision MRV handed the solver, until its level opens.
    decided: Option<u32>,
    /// For each option, a true option that overlapped it when a reason last needed one
    /// (`NO_DECISION`: none yet); valid again whenever that option is true.
    cause: Vec<u32>,
    /// Run [`Mrv::sanity`] after every callback (debug builds, and the tests).
    paranoid: bool,
    /// Something changed since forward checking last found nothing.
    dirty: bool,
    /// Scratch for the reasons and the overlap rows: per option the last stamp that
    /// marked it.
    seen: Vec<u32>,
    stamp: u32,
    /// The overlap table, a row per option (`[o * num_items + h]`), each filled the first
    /// time forward checking meets `o`: most options are never met, and building it all
    /// would cost Bedlam's first model half its time. Empty when it would not fit.
    overlaps: Vec<u16>,
    overlap_ready: Vec<bool>,
    /// Per option, a bit per option that shares a group with it, filled with the
    /// option's overlap row: forward checking asks "do `o` and `p` overlap?" most of the
    /// time it runs (a merge of two group lists was 7% of a lazy Bedlam count). Empty
    /// when it would not fit.
    overlap_bits: Vec<u64>,
    words: usize,
    /// Options forward checking ruled out, not yet handed over, each with the group it
    /// would empty.
    pruning: Vec<(u32, u32)>,
    /// The lazy at-most-one is on: rivals of true options are queued.
    lazy: bool,
    /// `(g, o)`: option `o` became true, and the other live options of group `g` are to
    /// be set false; an entry stays until none is left.
    rivals: Vec<(u32, u32)>,
    /// Decisions made by MRV, and notifications the solver sent that the invariants did
    /// not expect (there should be none).
    pub(crate) decisions: u64,
    pub(crate) anomalies: u64,
}

impl Mrv {
    pub(crate) fn new(groups: Arc<Groups>, paranoid: bool) -> Mrv {
        let value = groups
            .kept
            .iter()
            .map(|&k| if k { UNASSIGNED } else { FALSE })
            .collect();
        let live = groups
            .group_options
            .iter()
            .map(|c| c.len() as u32)
            .collect();
        let covered = vec![0; groups.group_options.len()];
        let num_options = groups.kept.len();
        let num_groups = groups.group_options.len();
        let fits = groups.overlaps_fit();
        let bits_fit = fits && groups.overlap_bits_fit();
        Mrv {
            live_options: groups.flat.clone(),
            position: groups.flat_position.clone(),
            groups,
            value,
            live,
            covered,
            cover_of: vec![0; num_groups],
            trail: Vec::new(),
            level_start: Vec::new(),
            level_decision: Vec::new(),
            assumptions: Vec::new(),
            decided: None,
            cause: vec![NO_DECISION; num_options],
            paranoid: paranoid || cfg!(debug_assertions),
            dirty: true,
            seen: vec![0; num_options],
            stamp: 0,
            overlaps: if fits {
                vec![0; num_options * num_groups]
            } else {
                Vec::new()
            },
            overlap_ready: vec![false; num_options],
            overlap_bits: if bits_fit {
                vec![0; num_options * num_options.div_ceil(64)]
            } else {
                Vec::new()
            },
            words: num_options.div_ceil(64),
            pruning: Vec::new(),
            lazy: false,
            rivals: Vec::new(),
            decisions: 0,
            anomalies: 0,
        }
    }

    /// The solver assigned a literal, in DIMACS numbering (variable `o + 1` is option
    /// `o`). Literals of other variables are ignored.
    pub(crate) fn assign(&mut self, lit: i32) {
        let o = (lit.unsigned_abs() - 1) as usize;
        if o >= self.value.len() {
            return;
        }
        let want = if lit > 0 { TRUE } else { FALSE };
        match self.value[o] {
            UNASSIGNED => {}
            // A removed option arrives as a root-level unit: expected.
            v if v == want && !self.groups.kept[o] => return,
            _ => {
                self.anomalies += 1;
                return;
            }
        }
        self.value[o] = want;
        self.dirty = true;
        let groups = &*self.groups;
        for slot in groups.slots(o) {
            let g = groups.option_groups[slot] as usize;
            if want == TRUE {
                self.covered[g] += 1;
                self.cover_of[g] = o as u32;

                if self.lazy {
                    self.rivals.push((g as u32, o as u32));
                }
            } else {
                // Swap `o` to the end of the group's live part.
                self.live[g] -= 1;
                let start = groups.group_start[g] as usize;
                let last = self.live[g];
                let at = self.position[slot];
                if at != last {
                    let other = self.live_options[start + last as usize];
                    self.live_options[start + at as usize] = other;
                    self.live_options[start + last as usize] = slot as u32;
                    self.position[slot] = last;
                    self.position[other as usize] = at;
                }
            }
        }
        self.trail.push(o as u32);
    }

    /// Turns the lazy at-most-one on (see the module doc); before the first assignment.
    pub(crate) fn enforce_at_most_one(&mut self) {
        self.lazy = true;
    }

    /// The next rival to set false, and the true option that rules it out: `(q, o)`,
    /// with `o` true and `q` not false (unassigned, or true: a conflict).
    /// It stays the answer until the solver sets it false (or backtracks).
    pub(crate) fn next_rival(&mut self) -> Option<(u32, u32)> {
        while let Some(&(g, o)) = self.rivals.last() {
            if self.value[o as usize] == TRUE {
                // `o` is live in `g`: any other live option is a rival.
                let start = self.groups.group_start[g as usize] as usize;
                let live = &self.live_options[start..start + self.live[g as usize] as usize];
                let rival = live
                    .iter()
                    .rev()
                    .map(|&slot| self.groups.slot_option[slot as usize])
                    .find(|&q| q != o);
                if let Some(q) = rival {
                    return Some((q, o));
                }
            }
            self.rivals.pop();
        }
        None
    }

    /// Two true options of one group, if a model has them (only possible with the lazy
    /// at-most-one, before its queue is drained).
    pub(crate) fn doubly_covered(&self) -> Option<(u32, u32)> {
        let g = (0..self.covered.len()).find(|&g| self.covered[g] > 1)?;
        let mut trues = self.groups.group_options[g]
            .iter()
            .copied()
            .filter(|&o| self.value[o as usize] == TRUE);
        Some((trues.next()?, trues.next()?))
    }

    /// A batch of assignments; checks the invariants afterwards when paranoid.
    pub(crate) fn assign_all(&mut self, lits: impl IntoIterator<Item = i32>) {
        for l in lits {
            self.assign(l);
        }
        self.check();
    }

    /// The solver opened a decision level: on MRV's decision if it just made one, else
    /// on the assumption of that level, if any.
    pub(crate) fn new_level(&mut self) {
        let level = self.level_start.len();
        self.level_start.push(self.trail.len());
        let decision = match (self.decided.take(), self.assumptions.get(level)) {
            (Some(o), _) => o,
            // The solver propagated fully before it opened the level, so the value is
            // current.
            (None, Some(&a)) if self.value[a as usize] == TRUE => NO_DECISION_NEEDED,
            (None, Some(&a)) => a,
            (None, None) => NO_DECISION,
        };
        self.level_decision.push(decision);
    }

    /// The placements the next solve call assumes, in the solver's order: each opens
    /// its level as a decision would (one already true opens a level with no
    /// decision). An empty cube: a plain search.
    pub(crate) fn assume(&mut self, cube: &[u32]) {
        self.assumptions.clear();
        self.assumptions.extend_from_slice(cube);
    }

    /// Undoes every assignment made at decision levels above `level`. The solver
    /// notifies again those it keeps (chronological backtracking keeps lower-level
    /// literals that sit above the cut on its trail).
    pub(crate) fn backtrack(&mut self, level: usize) {
        if level >= self.level_start.len() {
            self.anomalies += 1;
            return;
        }
        let keep = self.level_start[level];
        self.level_start.truncate(level);
        self.level_decision.truncate(level);
        self.decided = None;
        self.dirty = true;
        self.pruning.clear();
        while self.trail.len() > keep {
            let o = self.trail.pop().expect("above keep") as usize;
            // Undone in reverse: a false option is where its removal left it, just past
            // the live part.
            for &g in self.groups.groups_of(o) {
                if self.value[o] == TRUE {
                    self.covered[g as usize] -= 1;
                } else {
                    self.live[g as usize] += 1;
                }
            }
            self.value[o] = UNASSIGNED;
        }
        let value = &self.value;
        self.rivals.retain(|&(_, o)| value[o as usize] == TRUE);
        self.check();
    }

    /// The option to set true next: the first unassigned option (least constraining
    /// first) of the uncovered group with the fewest live options, ties going to the
    /// group listed last (a piece before a cell, as in the native engines). `None` when every group is covered: the solver
    /// then decides the auxiliary variables itself.
    pub(crate) fn decide(&mut self) -> Option<u32> {
        let g = self.mrv_group()?;
        let o = self.groups.group_options[g]
            .iter()
            .copied()
            .find(|&o| self.value[o as usize] == UNASSIGNED);
        match o {
            Some(o) => {
                self.decisions += 1;
                self.decided = Some(o);
            }
            // The solver propagates the group's clauses before it asks, so an uncovered
            // group always has an unassigned option here.
            None => self.anomalies += 1,
        }
        o
    }

    /// The uncovered group with the fewest live options (ties: the last), if any.
    fn mrv_group(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        let mut best_live = u32::MAX;
        for g in 0..self.live.len() {
            if self.groups.is_group[g] && self.covered[g] == 0 && self.live[g] <= best_live {
                best = Some(g);
                best_live = self.live[g];
            }
        }
        best
    }

    /// Forward checking, one step ahead of the next decision: an option of the MRV group
    /// that, set true, would leave some other uncovered group without a live option. The
    /// native engines would visit it as a dead-end node; the solver would pay a conflict
    /// for it. Returns the option to set false, its reason clause written to `reason`
    /// (see [`Mrv::reason`]).
    ///
    /// When every live option of the MRV group fails, the node is a dead end, and what
    /// comes back is the decision of the current level, already true, with the reason
    /// [`Mrv::dead_end`]: a falsified clause with one literal of the current level, which
    /// the solver takes as a chronological backtrack without conflict analysis.
    pub(crate) fn forward_check(&mut self, reason: &mut Vec<i32>) -> Option<u32> {
        // One pass finds every failing option of the group against the same state; each
        // reason is written when its option is handed over, from the state then (which
        // only has more false options, so the option still empties its group).
        while let Some((o, h)) = self.pruning.pop() {
            if self.value[o as usize] == UNASSIGNED {
                self.reason(o, h as usize, reason);
                return Some(o);
            }
        }
        if !self.dirty || self.overlaps.is_empty() {
            return None;
        }
        self.dirty = false;
        let g = self.mrv_group()?;
        let start = self.groups.group_start[g] as usize;
        let mut failing = 0;
        for k in (0..self.live[g] as usize).rev() {
            let o = self.groups.slot_option[self.live_options[start + k] as usize];
            if let Some(h) = self.empties(o as usize) {
                self.pruning.push((o, h as u32));
                failing += 1;
            }
        }
        if failing > 0 && failing == self.live[g] {
            if let Some(d) = self.dead_end(reason) {
                self.pruning.clear();
                return Some(d);
            }
        }
        self.forward_check(reason)
    }

    /// Why the current node is a dead end: `-d | -d1 | ... | -dj`, with `d` the decision
    /// (MRV's or an assumption) of level `k`, the highest level that has one (above it
    /// there can only be levels of assumptions already true, which have none), and the
    /// `di` the decisions of the levels below (for a level the solver opened on
    /// something else, every true placement on it). Everything
    /// on the trail follows from the decisions (the propagator's own reasons included),
    /// and below an MRV decision every decision is a true placement, so the clause
    /// removes no model. It has one literal of level `k`, which makes the solver
    /// backtrack to level `k - 1` and set `d` false, with no conflict analysis: the
    /// native engines' backtrack. A model of an exact matrix is blocked with the same
    /// clause (the decisions name it). `None` when that level was opened on something
    /// else (a decision of the solver's own).
    ///
    /// It never needs to go further down: `d` false cannot empty the group it was
    /// chosen from, since a group with no other live option below level `k` would have
    /// had `d` forced by its at-least-one clause, not decided.
    pub(crate) fn dead_end(&self, reason: &mut Vec<i32>) -> Option<u32> {
        // Levels opened with no decision follow from the ones below: the dead end is
        // the highest level's that has one.
        let k = self
            .level_decision
            .iter()
            .rposition(|&d| d != NO_DECISION_NEEDED)?
            + 1;
        let d = self.level_decision[k - 1];
        if d == NO_DECISION {
            return None;
        }
        let top = self.level_start[k - 1];
        if self.trail.get(top) != Some(&d) || self.value[d as usize] != TRUE {
            return None;
        }
        reason.clear();
        reason.push(-(d as i32 + 1));
        // A level opened by a decision (MRV's, an assumption) is summed up by it, one
        // opened with none by nothing (it follows from the levels below), and one the
        // solver opened on something else by all its true placements.
        for (i, &decision) in self.level_decision[..k - 1].iter().enumerate() {
            let start = self.level_start[i];
            if decision == NO_DECISION_NEEDED {
                continue;
            }
            if decision != NO_DECISION && self.trail.get(start) == Some(&decision) {
                reason.push(-(decision as i32 + 1));
            } else {
                let end = self.level_start[i + 1];
                reason.extend(
                    self.trail[start..end]
                        .iter()
                        .filter(|&&t| self.value[t as usize] == TRUE)
                        .map(|&t| -(t as i32 + 1)),
                );
            }
        }
        // Root-level trues need no mention.
        Some(d)
    }

    /// Whether setting the rival `q` false (the lazy at-most-one) ends the node: it is
    /// true (two true options in a group), or the last live option of an uncovered
    /// group.
    pub(crate) fn rival_ends_node(&self, q: u32) -> bool {
        self.value[q as usize] == TRUE
            || self
                .groups
                .groups_of(q as usize)
                .iter()
                .any(|&h| self.covered[h as usize] == 0 && self.live[h as usize] == 1)
    }

    /// Why `o` must be false, group `h` being emptied by it: `-o | p1 | ... | pk` over
    /// the false options `p` of `h`. Every other option of `h` shares a cell or piece
    /// with `o`, so the clause follows from the group's at-least-one clause and the
    /// at-most-one constraints, and removes no model. It is then shortened by
    /// resolution: a false `p` that shares a cell or piece with a true placement `t` is
    /// replaced by `-t` (the clause `-t | -p` follows from the at-most-one constraints).
    /// On Bedlam that turns about 80 literals into at most 14, and short reasons keep
    /// CaDiCaL's learned clauses short.
    fn reason(&mut self, o: u32, h: usize, reason: &mut Vec<i32>) {
        let stamp = self.next_stamp();
        reason.clear();
        reason.push(-(o as i32 + 1));
        let start = self.groups.group_start[h] as usize;
        let end = self.groups.group_start[h + 1] as usize;
        // The false options of `h`: past its live part.
        for &p in &self.live_options[start + self.live[h] as usize..end] {
            let p = self.groups.slot_option[p as usize];
            // The true option that last explained `p` still does while it is true (the
            // options a placement overlaps never change); a search of `p`'s groups
            // otherwise.
            let cached = self.cause[p as usize];
            let cause = if cached != NO_DECISION && self.value[cached as usize] == TRUE {
                Some(cached)
            } else {
                let found = self.groups.groups_of(p as usize).iter().find_map(|&g| {
                    let t = self.cover_of[g as usize];
                    (self.covered[g as usize] > 0 && self.value[t as usize] == TRUE).then_some(t)
                });
                if let Some(t) = found {
                    self.cause[p as usize] = t;
                }
                found
            };
            match cause {
                Some(t) if self.seen[t as usize] == stamp => {}
                Some(t) => {
                    self.seen[t as usize] = stamp;
                    reason.push(-(t as i32 + 1));
                }
                None => reason.push(p as i32 + 1),
            }
        }
    }

    /// A fresh stamp for `seen`: options stamped with it are marked, all others not.
    /// The reasons and the overlap rows share it.
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// A group that option `o`, set true, would leave uncovered with no live option.
    /// A group keeps a live option for sure when it has more than `o` can take away
    /// (the overlap table); only the others are looked at, through their live options.
    fn empties(&mut self, o: usize) -> Option<usize> {
        let m = self.groups.is_group.len();
        if !self.overlap_ready[o] {
            let stamp = self.next_stamp();
            let row = &mut self.overlaps[o * m..(o + 1) * m];
            let words = self.words;
            let bits = self
                .overlap_bits
                .get_mut(o * words..(o + 1) * words)
                .unwrap_or_default();
            self.groups.overlap_row(o, &mut self.seen, stamp, row, bits);
            self.overlap_ready[o] = true;
        }
        let g = &self.groups;
        let row = &self.overlaps[o * m..(o + 1) * m];
        let bits = self
            .overlap_bits
            .get(o * self.words..(o + 1) * self.words)
            .unwrap_or_default();
        let overlap = |p: usize| match bits.get(p / 64) {
            Some(w) => w >> (p % 64) & 1 == 1,
            None => g.overlap(o, p),
        };
        for (h, &overlapping) in row.iter().enumerate() {
            // `o`'s own groups have 0 in the row: skipped here.
            if self.covered[h] != 0 || !g.is_group[h] || self.live[h] > overlapping as u32 {
                continue;
            }
            let start = g.group_start[h] as usize;
            let live = &self.live_options[start..start + self.live[h] as usize];
            if live
                .iter()
                .all(|&p| overlap(g.slot_option[p as usize] as usize))
            {
                return Some(h);
            }
        }
        None
    }

    fn check(&self) {
        if self.paranoid {
            if let Err(e) = self.sanity() {
                panic!("MRV propagator out of step with the solver: {e}");
            }
        }
    }

    /// Recomputes every count from the values and checks the trail (see the module doc).
    pub(crate) fn sanity(&self) -> Result<(), String> {
        let g = &self.groups;
        let mut on_trail = vec![false; self.value.len()];
        for &o in &self.trail {
            let o = o as usize;
            if on_trail[o] {
                return Err(format!("option {o} is on the trail twice"));
            }
            if !g.kept[o] {
                return Err(format!("removed option {o} is on the trail"));
            }
            on_trail[o] = true;
        }
        for (o, &value) in self.value.iter().enumerate() {
            if g.kept[o] && (value != UNASSIGNED) != on_trail[o] {
                return Err(format!(
                    "option {o}: value {value} but on trail {}",
                    on_trail[o]
                ));
            }
            if !g.kept[o] && value != FALSE {
                return Err(format!("removed option {o} is not false"));
            }
        }
        for (k, options) in g.group_options.iter().enumerate() {
            let live = options
                .iter()
                .filter(|&&o| self.value[o as usize] != FALSE)
                .count();
            let covered = options
                .iter()
                .filter(|&&o| self.value[o as usize] == TRUE)
                .count();
            if live as u32 != self.live[k] || covered as u32 != self.covered[k] {
                return Err(format!(
                    "group {k}: live {} covered {}, recomputed {live} and {covered}",
                    self.live[k], self.covered[k]
                ));
            }
        }
        for (k, &live) in self.live.iter().enumerate() {
            let start = g.group_start[k] as usize;
            let end = g.group_start[k + 1] as usize;
            for (i, &slot) in self.live_options[start..end].iter().enumerate() {
                let o = g.slot_option[slot as usize] as usize;
                if g.option_groups[slot as usize] as usize != k {
                    return Err(format!("group {k}: slot {slot} is another group's"));
                }
                if (self.value[o] != FALSE) != (i < live as usize) {
                    return Err(format!(
                        "group {k}: option {o} on the wrong side of the live part"
                    ));
                }
                if self.position[slot as usize] as usize != i {
                    return Err(format!(
                        "group {k}: option {o} is not where its position says"
                    ));
                }
            }
        }
        if self.level_start.windows(2).any(|w| w[0] > w[1])
            || self
                .level_start
                .last()
                .is_some_and(|&s| s > self.trail.len())
        {
            return Err(format!("level starts {:?} out of order", self.level_start));
        }
        Ok(())
    }

    #[cfg(test)]
    fn corrupt_live(&mut self, g: usize) {
        self.live[g] += 1;
    }
}

#[cfg(test)]
mod tests;
