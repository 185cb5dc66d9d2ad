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
//!   each group `live` (options not false) and `covered` (options true); a trail of the
//!   options assigned, and where each decision level starts on it; and the overlap
//!   table of forward checking, filled an option at a time.
//!
//! Invariants (checked by [`Mrv::sanity`], after every callback in debug builds):
//! - `live[g]` and `covered[g]` equal the counts recomputed from the values;
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
//! counting.
//!
//! # The lazy at-most-one
//!
//! With `--amo lazy` the CNF has no at-most-one clauses for the groups, and the
//! propagator supplies them as the search needs them: when an option becomes true, every
//! other option of its groups that is not false yet is queued ([`Mrv::next_rival`]) and
//! handed to the solver false with the binary reason `¬q ∨ ¬o`. A rival that is already
//! true is handed over too, as a conflict, so two true options of one group never
//! outlive the next propagation. The queue is drained before forward checking and before
//! any decision; entries whose option was undone by a backtrack are dropped (the solver
//! notifies again the assignments it keeps, which queues their rivals again). The model
//! check refuses a model with a group covered twice, with the same binary clause, as a
//! last guard.
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

/// The live-option counts of one solver's search.
#[derive(Debug)]
pub(crate) struct Mrv {
    groups: Arc<Groups>,
    value: Vec<i8>,
    live: Vec<u32>,
    covered: Vec<u32>,
    /// The true option of each covered group (check its value: a group covered twice,
    /// in a conflict, keeps the later one).
    cover_of: Vec<u32>,
    trail: Vec<u32>,
    level_start: Vec<usize>,
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
    /// Options forward checking ruled out, with their reasons, not yet handed over.
    pruning: Vec<(u32, Vec<i32>)>,
    /// The lazy at-most-one is on: rivals of true options are queued.
    lazy: bool,
    /// `(q, o)`: option `q` is to be set false because `o`, in a group with it, is true.
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
            groups,
            value,
            live,
            covered,
            cover_of: vec![0; num_groups],
            trail: Vec::new(),
            level_start: Vec::new(),
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
        for &g in self.groups.groups_of(o) {
            if want == TRUE {
                self.covered[g as usize] += 1;
                self.cover_of[g as usize] = o as u32;
                if self.lazy {
                    for &q in &self.groups.group_options[g as usize] {
                        if q as usize != o && self.value[q as usize] != FALSE {
                            self.rivals.push((q, o as u32));
                        }
                    }
                }
            } else {
                self.live[g as usize] -= 1;
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
    pub(crate) fn next_rival(&mut self) -> Option<(u32, u32)> {
        while let Some((q, o)) = self.rivals.pop() {
            if self.value[o as usize] == TRUE && self.value[q as usize] != FALSE {
                return Some((q, o));
            }
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

    pub(crate) fn new_level(&mut self) {
        self.level_start.push(self.trail.len());
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
        self.dirty = true;
        self.pruning.clear();
        while self.trail.len() > keep {
            let o = self.trail.pop().expect("above keep") as usize;
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
            Some(_) => self.decisions += 1,
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
    /// for it. Returns the option and its reason clause (see [`Mrv::reason`]).
    pub(crate) fn forward_check(&mut self) -> Option<(u32, Vec<i32>)> {
        // One pass finds every failing option of the group against the same state; their
        // reasons stay valid while the solver takes them one by one.
        while let Some((o, reason)) = self.pruning.pop() {
            if self.value[o as usize] == UNASSIGNED {
                return Some((o, reason));
            }
        }
        if !self.dirty || self.overlaps.is_empty() {
            return None;
        }
        self.dirty = false;
        let g = self.mrv_group()?;
        let groups = Arc::clone(&self.groups);
        for &o in groups.group_options[g].iter().rev() {
            if self.value[o as usize] != UNASSIGNED {
                continue;
            }
            if let Some(h) = self.empties(o as usize) {
                let reason = self.reason(o, h);
                self.pruning.push((o, reason));
            }
        }
        self.pruning.pop()
    }

    /// Why `o` must be false, group `h` being emptied by it: `-o | p1 | ... | pk` over
    /// the false options `p` of `h`. Every other option of `h` shares a cell or piece
    /// with `o`, so the clause follows from the group's at-least-one clause and the
    /// at-most-one constraints, and removes no model. It is then shortened by
    /// resolution: a false `p` that shares a cell or piece with a true placement `t` is
    /// replaced by `-t` (the clause `-t | -p` follows from the at-most-one constraints). On Bedlam that turns about
    /// 80 literals into at most 14, and short reasons keep CaDiCaL's learned clauses
    /// short.
    fn reason(&mut self, o: u32, h: usize) -> Vec<i32> {
        let stamp = self.next_stamp();
        let mut reason = vec![-(o as i32 + 1)];
        for &p in &self.groups.group_options[h] {
            if self.value[p as usize] != FALSE {
                continue;
            }
            let cause = self.groups.groups_of(p as usize).iter().find_map(|&g| {
                let t = self.cover_of[g as usize];
                (self.covered[g as usize] > 0 && self.value[t as usize] == TRUE).then_some(t)
            });
            match cause {
                Some(t) if self.seen[t as usize] == stamp => {}
                Some(t) => {
                    self.seen[t as usize] = stamp;
                    reason.push(-(t as i32 + 1));
                }
                None => reason.push(p as i32 + 1),
            }
        }
        reason
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
    /// (the overlap table); only the others are counted.
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
            let survives = g.group_options[h]
                .iter()
                .any(|&p| self.value[p as usize] != FALSE && !overlap(p as usize));
            if !survives {
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
