//! The certifying search: the exact-cover search whose record is the graph (POG) and the
//! proof that the CNF implies it.
//!
//! A *state* is the set `U` of covered items (cells, optional cells) still free, and the
//! counted options chosen so far (`R`, only where pieces have count ranges). Its node
//! `N(U, R)` is a function of the options *alive* in it (those inside `U` whose pieces are
//! not used up): the ways to finish the cover. The search branches on one cell `i` of `U`:
//!
//! ```text
//! N = P_1 + P_2 + ... + P_k        (a chain of binary sums)
//! P_j = x_j AND (NOT x_o for each alive o that meets option j) AND N(U - j, R + j)
//! ```
//!
//! The products are decomposable (the alive options of `U` split into option `j`, the
//! ones it meets, and the ones alive after it) and the sums deterministic (each `P_j`
//! denies every other option on cell `i`). Options whose state has no cover are not in
//! the sum. `Shared` keys the states, so a state met twice is one node (the memo's
//! table as a graph); `Tree` does not (the DLX's search tree).
//!
//! The proof that the CNF implies the root is one added clause per state and branch, in
//! the order the search finishes them: with the *context* of `U` (no option that crosses
//! the edge of `U` is chosen; where counts matter, exactly the options `R` of each
//! counted piece lie outside `U`), `K_j`: context and `x_j` imply `P_j` (or are
//! impossible, for a branch with no cover), and `L`: the context implies `N` (or is
//! impossible). At the root the context is empty: `L` is the unit clause of the root.
//!
//! That context (the edge of `U`) is the memo's when it sweeps a piece with copies: it is
//! short there, and a state's lemmas serve every path to it. Elsewhere the edge of `U`
//! holds most options (hundreds of literals per clause for Soma), so the context is the
//! options chosen on the path instead: short, but one set of lemmas per path; the graph's
//! nodes are still shared.
//!
//! Invariant: every hint listed turns its clause unit or conflicting when the checker
//! reaches it: the context's literals are all false, and each option is derived false at
//! most once per clause.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use num_bigint::BigUint;

use super::formula::Formula;
use super::orbits::Orbits;
use super::out::Out;
use crate::error::{Error, Result};
use crate::stop::Stop;

/// How states are kept: shared (the memo) or one node per visit (a search tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One node per state: the memo's table of subproblems, as a graph.
    Shared,
    /// One node per visit: the DLX's or the bitset engine's search tree.
    Tree,
}

/// A state searched: its count, its node and its lemma `L`.
#[derive(Clone)]
pub(super) struct Done {
    pub(super) count: BigUint,
    /// `None` with a positive count: nothing left to cover (true).
    pub(super) node: Option<i32>,
    /// The clause `L` (absent for a state with nothing left).
    pub(super) lemma: Option<u32>,
    /// The state's operations, for a later visit with another path: each live branch's
    /// product, then the sums.
    pub(super) products: Vec<i32>,
    pub(super) sums: Vec<i32>,
}

type Key = (Box<[u64]>, Box<[u32]>);

pub(crate) struct Certifier<'a, W: Write> {
    pub(super) f: &'a Formula,
    /// Polled every few thousand states: a stop ends the search with an error.
    stop: &'a Stop,
    pub out: Out<W>,
    pub(super) shape: Shape,
    pub(super) sweep: bool,
    pub(super) members: Vec<Vec<u32>>,
    pub(super) sup_cells: Vec<Vec<u32>>,
    pub(super) sup_of: Vec<u32>,
    pub(super) sup_by_cell: Vec<Vec<u32>>,
    pub bad: Vec<u32>,
    pub(super) bad_lemma: Vec<u32>,
    pub(super) preimage: Vec<u32>,
    memo: HashMap<Key, Done>,
    /// Contexts are the paths' chosen options (lemmas per visit), not the edge of `U`.
    pub(super) paths: bool,
    /// Per covered item: the chosen option on it, along the current path.
    pub(super) covered_by: Vec<u32>,
    pub(super) stamp: Vec<u32>,
    pub(super) gen: u32,
    pub states: u64,
    /// With SAT's models: the leaves must be exactly these.
    pub(super) models: Option<HashSet<Vec<u32>>>,
    pub(super) found: u64,
    pub(super) path: Vec<u32>,
}

pub(super) fn has(u: &[u64], c: u32) -> bool {
    u[(c / 64) as usize] >> (c % 64) & 1 == 1
}

impl<'a, W: Write> Certifier<'a, W> {
    pub fn new(
        f: &'a Formula,
        out: Out<W>,
        shape: Shape,
        models: Option<HashSet<Vec<u32>>>,
        stop: &'a Stop,
    ) -> Certifier<'a, W> {
        let n = f.num_vars as usize;
        let Orbits {
            members,
            sup_cells,
            sup_of,
            sup_by_cell,
            bad,
            preimage,
        } = Orbits::new(f);
        // Sweep (branch on the first free cell) when a piece with copies is the only
        // piece, as the memo does; otherwise the cell with the fewest alive options.
        let sweep = shape == Shape::Shared && !f.implied.is_empty();
        let sups = members.len();
        Certifier {
            f,
            stop,
            out,
            shape,
            sweep,
            members,
            sup_cells,
            sup_of,
            sup_by_cell,
            bad,
            bad_lemma: vec![0; n],
            preimage,
            memo: HashMap::new(),
            paths: !sweep,
            covered_by: vec![u32::MAX; f.cover_items.len()],
            stamp: vec![0; sups],
            gen: 0,
            states: 0,
            models,
            found: 0,
            path: Vec::new(),
        }
    }

    pub(super) fn lit(o: u32) -> i32 {
        o as i32 + 1
    }

    pub(super) fn inside(&self, s: u32, u: &[u64]) -> bool {
        self.sup_cells[s as usize].iter().all(|&c| has(u, c))
    }

    fn meets(&self, s: u32, u: &[u64]) -> bool {
        self.sup_cells[s as usize].iter().any(|&c| has(u, c))
    }

    pub(super) fn counts(&self, r: &[u32]) -> Vec<u32> {
        let mut counts = vec![0u32; self.f.kinds.len()];
        for &o in r {
            for &k in &self.f.kinds_of[o as usize] {
                counts[k as usize] += 1;
            }
        }
        counts
    }

    pub(super) fn kind_ok(&self, s: u32, counts: &[u32]) -> bool {
        // Counted pieces exist only without symmetry, where super-option `s` is option `s`.
        self.f.kinds.is_empty()
            || self.f.kinds_of[s as usize]
                .iter()
                .all(|&k| counts[k as usize] < self.f.kinds[k as usize].max)
    }

    fn next_gen(&mut self) -> u32 {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.gen = 1;
        }
        self.gen
    }

    /// The context of `(U, R)` as the literals a lemma's clause holds (all false in it).
    pub(super) fn context(&mut self, u: &[u64], r: &[u32]) -> Vec<i32> {
        let mut clause = Vec::new();
        if self.paths {
            for &s in &self.path {
                clause.extend(self.members[s as usize].iter().map(|&m| -Self::lit(m)));
            }
            return clause;
        }
        let gen = self.next_gen();
        for c in 0..self.f.cover_items.len() as u32 {
            if has(u, c) {
                continue;
            }
            for k in 0..self.sup_by_cell[c as usize].len() {
                let s = self.sup_by_cell[c as usize][k];
                if self.stamp[s as usize] == gen {
                    continue;
                }
                self.stamp[s as usize] = gen;
                if self.meets(s, u) {
                    clause.extend(self.members[s as usize].iter().map(|&m| Self::lit(m)));
                }
            }
        }
        for &o in r {
            clause.push(-Self::lit(o));
        }
        for kind in &self.f.kinds {
            for &o in &kind.options {
                if !self.meets(o, u) && r.binary_search(&o).is_err() {
                    clause.push(Self::lit(o));
                }
            }
        }
        clause
    }

    /// The options meeting super-option `j` and inside `U`.
    pub(super) fn meeting_inside(&mut self, j: u32, u: &[u64]) -> Vec<u32> {
        let gen = self.next_gen();
        self.stamp[j as usize] = gen;
        let mut out = Vec::new();
        for &c in &self.sup_cells[j as usize] {
            for &t in &self.sup_by_cell[c as usize] {
                if self.stamp[t as usize] != gen {
                    self.stamp[t as usize] = gen;
                    if self.inside(t, u) {
                        out.push(t);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The root state: every covered item free.
    pub fn run(&mut self) -> Result<(BigUint, Option<i32>, u32)> {
        let cells = self.f.cover_items.len();
        let mut u = vec![0u64; cells.div_ceil(64).max(1)];
        for c in 0..cells {
            u[c / 64] |= 1 << (c % 64);
        }
        let done = self.visit(&u, &[])?;
        if let Some(models) = &self.models {
            if self.found != models.len() as u64 {
                return Err(Error::Failed(format!(
                    "SAT enumeration found {} solutions, but the certifying search found {} \
                     of them and {} in all: the certificate is not written",
                    models.len(),
                    self.found,
                    done.count
                )));
            }
        }
        let lemma = done.lemma.ok_or_else(|| {
            Error::Failed("a puzzle with no cell to fill has no certificate".into())
        })?;
        Ok((done.count, done.node, lemma))
    }

    fn visit(&mut self, u: &[u64], r: &[u32]) -> Result<Done> {
        let key: Option<Key> = (self.shape == Shape::Shared).then(|| (u.into(), r.into()));
        let cached = key.as_ref().and_then(|k| self.memo.get(k)).cloned();
        if let (Some(done), false) = (&cached, self.paths) {
            return Ok(done.clone());
        }
        self.states += 1;
        if self.states % 4096 == 0 && self.stop.should_stop() {
            return Err(Error::Interrupted(format!(
                "the certificate was not finished ({} states searched)",
                self.states
            )));
        }
        let done = self.expand(u, r, cached.as_ref())?;
        if let (Some(k), None) = (key, cached) {
            self.memo.insert(k, done.clone());
        }
        Ok(done)
    }

    fn expand(&mut self, u: &[u64], r: &[u32], cached: Option<&Done>) -> Result<Done> {
        let counts = self.counts(r);
        let cells = self.f.cover_items.len() as u32;
        let free_cells: Vec<u32> = (0..cells)
            .filter(|&c| has(u, c) && self.f.cover_items[c as usize].1.is_some())
            .collect();
        if free_cells.is_empty() {
            let short = (0..self.f.kinds.len()).find(|&k| counts[k] < self.f.kinds[k].min);
            return match short {
                Some(k) => self.too_few(k, u, r),
                None => self.covered(),
            };
        }
        let alive = |s: &Self, t: u32| s.inside(t, u) && s.kind_ok(t, &counts);
        let item = if self.sweep {
            free_cells[0]
        } else {
            let mut best = (usize::MAX, free_cells[0]);
            for &c in &free_cells {
                let n = self.sup_by_cell[c as usize]
                    .iter()
                    .filter(|&&t| alive(self, t))
                    .count();
                if n < best.0 {
                    best = (n, c);
                }
            }
            best.1
        };
        let branches: Vec<u32> = self.sup_by_cell[item as usize]
            .iter()
            .copied()
            .filter(|&t| alive(self, t))
            .collect();
        let mut children = Vec::with_capacity(branches.len());
        for &j in &branches {
            let mut u2 = u.to_vec();
            for &c in &self.sup_cells[j as usize] {
                u2[(c / 64) as usize] &= !(1u64 << (c % 64));
            }
            let mut r2 = r.to_vec();
            if !self.f.kinds.is_empty() && !self.f.kinds_of[j as usize].is_empty() {
                let at = r2.binary_search(&j).unwrap_err();
                r2.insert(at, j);
            }
            self.path.push(j);
            for &m in &self.members[j as usize] {
                for &c in &self.f.cells[m as usize] {
                    self.covered_by[c as usize] = m;
                }
            }
            let child = self.visit(&u2, &r2);
            for &c in &self.sup_cells[j as usize] {
                self.covered_by[c as usize] = u32::MAX;
            }
            self.path.pop();
            children.push(child?);
        }
        self.emit(u, r, item, &branches, &children, cached)
    }

    /// A cover found: a leaf of count one, checked against SAT's models where given.
    fn covered(&mut self) -> Result<Done> {
        if self.models.is_some() {
            let mut chosen: Vec<u32> = self
                .path
                .iter()
                .flat_map(|&s| self.members[s as usize].clone())
                .collect();
            chosen.sort_unstable();
            if !self.models.as_ref().is_some_and(|m| m.contains(&chosen)) {
                return Err(Error::Failed(format!(
                    "SAT enumeration missed a solution (options {chosen:?}): the \
                     certificate is not written"
                )));
            }
            self.found += 1;
        }
        Ok(Done {
            count: BigUint::from(1u32),
            node: None,
            lemma: None,
            products: Vec::new(),
            sums: Vec::new(),
        })
    }

    /// Every cell covered with too few of piece `k`: no cover, and the lemma that says
    /// so. Its other options, all outside and denied by the context, leave one of its
    /// at-least clauses empty.
    fn too_few(&mut self, k: usize, u: &[u64], r: &[u32]) -> Result<Done> {
        let kind = &self.f.kinds[k];
        let others: Vec<u32> = kind
            .options
            .iter()
            .copied()
            .filter(|o| r.binary_search(o).is_err())
            .collect();
        let subset = others[..kind.options.len() - kind.min as usize + 1].to_vec();
        let mut hints = Vec::new();
        if self.paths {
            for &o in &subset {
                self.deny_by_path(o, u, &mut hints);
            }
        }
        hints.push(self.f.at_least[&subset]);
        let clause = self.context(u, r);
        let lemma = self.out.lemma(&clause, &hints)?;
        Ok(Done {
            count: BigUint::default(),
            node: None,
            lemma: Some(lemma),
            products: Vec::new(),
            sums: Vec::new(),
        })
    }
}
