//! The certificate of a sweep: the frontier's layers as the graph, and a proof whose size
//! follows the layers, not the solutions or the clauses times the graph.
//!
//! # The graph
//!
//! The covered items are swept in a fixed order; position `l` is the `l`th. A
//! super-option (an orbit of options, [`Orbits`]) *starts* at the first position it
//! covers. The state at layer `l` is the set `S` of positions at or past `l` that options
//! started earlier already cover (every position before `l` is covered). Its node
//! `N(l, S)` is a function of the super-options starting at `l` or later: the ways they
//! cover the rest exactly.
//!
//! ```text
//! l in S:      N(l, S) = AND(NOT x_o for o starting at l) AND N(l + 1, S - l)
//! l not in S:  N(l, S) = P_1 + ... + P_k, one P_j per option j starting at l that fits:
//!              P_j = x_j AND (NOT x_o for the other o starting at l) AND N(l + 1, S + j - l)
//! ```
//!
//! Each variable is mentioned at its option's start, on every path, once: the products
//! are decomposable and the sums deterministic (each `P_j` denies the other options on
//! position `l`). A state is one node however often it is reached, as the frontier keeps
//! one count per state. With nothing starting at a covered position the state is its
//! successor's node (no node is written).
//!
//! # Forward: the CNF implies the root
//!
//! Per state, as its branches finish: `K_j` (context and `x_j` imply `P_j`, or are
//! impossible). The state's refutation (with the context false and `N` false, the sums
//! deny each branch, each `K_j` its option, and the cell's "at least one" conflicts) is
//! copied into its parents' `K_j`; past [`INLINE_USES`] parents it becomes a lemma `L`
//! (the context implies `N`), as at the root. A covered position adds no lemma: its
//! product's definition leads to its successor's refutation. The context of `(l, S)` is
//! a clause of options that must be false there: those starting at `l` or later that meet
//! `S`, and those started before `l` that meet a free position at or past `l`.
//!
//! # Backward: the root implies every clause
//!
//! The root's unit and the nodes' definitions must prove each input clause before it is
//! deleted. Instead of one walk up the whole graph per clause, lemmas shared by all
//! clauses cut the graph:
//!
//! - a down-lemma per node with two branches or more, `NOT N OR child_1 OR ...`, so that
//!   a cut passes a node in one hint;
//! - `T_l`: the disjunction of layer `l`'s nodes (every path crosses layer `l` once),
//!   from `T_{l-1}`;
//! - `R_a`: `NOT x_a`, or one of the products that choose `a`'s super-option at its
//!   start (every other product there denies it), from `T` there;
//! - `V_{l,a}`: `NOT x_a`, or a node of layer `l` whose state covers what remains of
//!   `a`'s super-option, at each later start of an option it meets, from `R_a` and then
//!   the previous `V`, through every node between;
//! - `W_c`: an option through item `c` that started before its position, or a node
//!   there that leaves `c` free, from `T` where the first option through `c` starts.
//!
//! Then each input clause goes with few hints: "not both `a` and `b`" with `R_a` where
//! both start at one position (the products choosing `a` deny `b`), else with the earlier
//! one's `V` at the later one's start (its state covers their common item, so the later
//! one fits nowhere there); "at least one through `c`" with `W_c`; `x_o -> x_g(o)` with
//! `R_o` (the products choosing the orbit hold `x_g(o)`). The forward lemmas are deleted
//! before the input clauses, the cut lemmas after them, each in the reverse of its order.
//!
//! # Pieces without copies
//!
//! Where each piece is placed once (Soma, the pentominoes, Bedlam), the pieces are
//! positions after the cells ([`covers_all`]): a state's set then says which pieces are
//! used, and an option starts at its first cell. Hundreds of options pass through a
//! piece's position, so contexts are written as chains of products, one literal per
//! position ([`super::chains`]), and every state's proof is its lemma (nothing copied,
//! which would derive again what a parent's proof holds). Between layers a branch passes
//! its context on through lemmas made once per option: `Y` (a position it covers: the
//! options starting there later are denied) and `X` (a position it leaves free where
//! others start with it), and a state that leaves a cell no option can still cover is
//! refuted at once through that cell's clause (a dead cell), not searched.
//!
//! Invariants: every hint turns its clause unit or conflicting when the checker reaches
//! it; each added lemma is deleted after everything that rests on it and before what it
//! rests on; node numbers are written children first.

use std::collections::HashMap;
use std::io::Write;

use num_bigint::BigUint;

use super::chains::Chain;
use super::formula::Formula;
use super::hints;
use super::orbits::{Orbits, BAD};
use super::out::Out;
use crate::error::{Error, Result};
use crate::stop::Stop;

/// Whether the layers certify `f` in the frontier's sweep: one piece in copies whose
/// count the cells decide, so that every covered item is a cell to fill and no count is
/// left to clauses (as the memo sweeps; [`Formula::is_sweep`] tells it from the matrix).
pub(super) fn applies(f: &Formula) -> bool {
    // A piece is implied only where it is the one counted piece and no cell is optional.
    !f.implied.is_empty()
}

/// Whether the layers certify `f` with the pieces as positions after the cells: pieces
/// without copies (each an item to cover once) and every cell to fill, so that a state's
/// set holds the pieces used; its contexts are chains ([`super::chains`]).
pub(super) fn covers_all(f: &Formula) -> bool {
    f.kinds.is_empty() && f.cover_items.iter().all(|&(_, alo)| alo.is_some())
}

/// How many parents copy a state's proof into their `K_j` before it becomes a lemma `L`
/// (a lemma costs its context, its hints twice and a hint per parent; a copy its hints).
const INLINE_USES: u32 = 4;

/// Past this many options through one position, contexts are written as chains
/// ([`super::chains`]) rather than as the options they deny.
const CHAIN_MIN: usize = 16;

/// One state of the sweep.
struct State {
    layer: u32,
    set: Box<[u64]>,
    count: BigUint,
    /// `None` with a positive count: nothing is left (true).
    node: Option<i32>,
    /// The hints that, with the context false and the node false, conflict (for a state
    /// with no cover, with the context false alone): for a free position the sums'
    /// clauses, the branches' `K_j`, the cell's clause; for a covered one its product's
    /// definition, then its successor's. Empty for a state that is true. A parent's `K_j`
    /// copies them (see [`Layers::proof_of`]).
    inline: Vec<u32>,
    /// The lemma `L` (the context or the node), once the state's proof has been asked for
    /// more than [`INLINE_USES`] times, or at the root.
    lemma: Option<u32>,
    /// How often its proof has been asked for.
    uses: u32,
    /// Whether `node` was written for this state (not its successor's).
    own: bool,
    /// A node of its own: its products as (super-option, product, child node); the
    /// super-option is `BAD` for a covered position's product.
    products: Vec<(u32, i32, Option<i32>)>,
    /// Its sums, innermost first.
    sums: Vec<i32>,
}

pub(super) struct Layers<'a, W: Write> {
    f: &'a Formula,
    stop: &'a Stop,
    pub out: Out<W>,
    orbits: Orbits,
    pub bad_lemma: Vec<u32>,
    /// Per position: the covered item there; and per covered item its position.
    item_at: Vec<u32>,
    pos: Vec<u32>,
    /// Per super-option: its positions, increasing.
    cells: Vec<Vec<u32>>,
    /// Per position: the super-options starting there, and those through it.
    starts: Vec<Vec<u32>>,
    through: Vec<Vec<u32>>,
    /// Per layer `l`: the last position of any super-option starting before `l`.
    reach: Vec<u32>,
    layers: Vec<HashMap<Box<[u64]>, u32>>,
    states: Vec<State>,
    /// Per node written for a state: that state.
    state_of: HashMap<i32, u32>,
    /// Per node of a free position with two live branches or more, its down-lemma
    /// `NOT N OR child_1 OR ... OR child_k`: one hint that makes the node false once its
    /// children are, in every cut that passes it (made when the cuts start).
    down: HashMap<i32, u32>,
    stamp: Vec<u32>,
    gen: u32,
    pub visited: u64,
    /// Whether contexts are chains (past [`CHAIN_MIN`] options through a position): then
    /// every position through which an option passes has its [`Chain`].
    chained: bool,
    /// [`INLINE_USES`], or none where contexts are chains (a lemma there is short,
    /// and the smallest certificate copies nothing: Soma 838 MB, against 891 MB with 4).
    inline_uses: u32,
    chains: Vec<Option<Chain>>,
    /// Per position `l` with options started before it: `NOT early OR` the options
    /// starting at `l` (its cell's "at least one", the earlier ones taken out once).
    z_lemma: Vec<Option<u32>>,
    /// Per super-option `j` and later position `p` of it: `NOT x_j OR late`, the node
    /// that denies what starts through `p` after `j` (made when first needed).
    y_lemma: HashMap<(u32, u32), u32>,
    /// Per super-option `j` and position `p` it leaves free: its lemma `X`.
    x_lemmas: HashMap<(u32, u32), u32>,
}

fn has(set: &[u64], p: u32) -> bool {
    set[(p / 64) as usize] >> (p % 64) & 1 == 1
}

fn lit(o: u32) -> i32 {
    o as i32 + 1
}

impl<'a, W: Write> Layers<'a, W> {
    /// The layers of `f` in the frontier's `sweep` (the matrix's items in the order it
    /// takes them; the covered items in their own order without one).
    pub fn new(
        f: &'a Formula,
        out: Out<W>,
        sweep: Option<&[u32]>,
        stop: &'a Stop,
    ) -> Layers<'a, W> {
        let orbits = Orbits::new(f);
        let n = f.cover_items.len();
        let mut cover_of = HashMap::new();
        for (c, &(item, _)) in f.cover_items.iter().enumerate() {
            cover_of.insert(item, c as u32);
        }
        let mut item_at: Vec<u32> = sweep
            .unwrap_or(&[])
            .iter()
            .filter_map(|i| cover_of.get(i).copied())
            .collect();
        if !item_at.is_empty() && item_at.len() < n {
            let mut seen = vec![false; n];
            item_at.iter().for_each(|&c| seen[c as usize] = true);
            item_at.extend((0..n as u32).filter(|&c| !seen[c as usize]));
        }
        if item_at.len() != n {
            item_at = (0..n as u32).collect();
        }
        let mut pos = vec![0u32; n];
        for (p, &c) in item_at.iter().enumerate() {
            pos[c as usize] = p as u32;
        }
        let cells: Vec<Vec<u32>> = orbits
            .sup_cells
            .iter()
            .map(|cs| {
                let mut ps: Vec<u32> = cs.iter().map(|&c| pos[c as usize]).collect();
                ps.sort_unstable();
                ps
            })
            .collect();
        let mut starts = vec![Vec::new(); n];
        let mut through = vec![Vec::new(); n];
        for (s, ps) in cells.iter().enumerate() {
            starts[ps[0] as usize].push(s as u32);
            for &p in ps {
                through[p as usize].push(s as u32);
            }
        }
        let mut reach = vec![0u32; n + 1];
        let mut most = 0;
        for l in 0..n {
            reach[l] = most;
            for &s in &starts[l] {
                most = most.max(*cells[s as usize].last().expect("cells"));
            }
        }
        reach[n] = most;
        let sups = cells.len();
        let chained = through.iter().any(|t: &Vec<u32>| {
            t.iter()
                .map(|&s| orbits.members[s as usize].len())
                .sum::<usize>()
                > CHAIN_MIN
        });
        Layers {
            f,
            stop,
            out,
            bad_lemma: vec![0; f.num_vars as usize],
            orbits,
            item_at,
            pos,
            cells,
            starts,
            through,
            reach,
            layers: vec![HashMap::new(); n + 1],
            states: Vec::new(),
            state_of: HashMap::new(),
            down: HashMap::new(),
            stamp: vec![0; sups],
            gen: 0,
            visited: 0,
            chained,
            inline_uses: if chained { 0 } else { INLINE_USES },
            chains: Vec::new(),
            z_lemma: Vec::new(),
            y_lemma: HashMap::new(),
            x_lemmas: HashMap::new(),
        }
    }

    /// Writes every position's chains and its lemma `Z` (chained contexts only; after
    /// [`Layers::deny_bad`]).
    fn make_chains(&mut self) -> Result<()> {
        let n = self.item_at.len();
        self.z_lemma = vec![None; n];
        if !self.chained {
            return Ok(());
        }
        let mut chains = Vec::with_capacity(n);
        for p in 0..n {
            if self.through[p].is_empty() {
                chains.push(None);
                continue;
            }
            let cells = &self.cells;
            let members = &self.orbits.members;
            chains.push(Some(Chain::write(
                &mut self.out,
                &self.through[p],
                |s| cells[s as usize][0],
                |s| members[s as usize].clone(),
            )?));
        }
        self.chains = chains;
        for l in 0..n as u32 {
            let Some(ch) = self.chains[l as usize].as_ref() else {
                continue;
            };
            let Some(top) = ch.early_at(l) else { continue };
            let mut clause = vec![-ch.early[top]];
            for &s in &self.starts[l as usize] {
                clause.push(lit(self.member_on(s, l)));
            }
            // The earlier options through `l`, last start first, then the cell's clause.
            let mut hints = Vec::new();
            self.early_denied(ch, top, l, &mut hints);
            self.cell_clause(self.item_at[l as usize], &mut hints);
            self.z_lemma[l as usize] = Some(self.out.lemma(&clause, &hints)?);
        }
        Ok(())
    }

    /// Hints that make false, given `ch.early[top]`, the member on position `p` of every
    /// super-option in that chain: last start first, down the chain's links.
    fn early_denied(&self, ch: &Chain, top: usize, p: u32, hints: &mut Vec<u32>) {
        for i in (0..=top).rev() {
            for &s in &ch.sups[i] {
                hints.push(
                    self.out
                        .child_clause(ch.early[i], -lit(self.member_on(s, p))),
                );
            }
            if i > 0 {
                hints.push(self.out.child_clause(ch.early[i], ch.early[i - 1]));
            }
        }
    }

    /// A free position at or past `l` that no option starting at `l` or later can cover
    /// (chained contexts only, where the pieces are positions: their use shows in `set`).
    fn dead_cell(&self, l: u32, set: &[u64]) -> Option<u32> {
        if !self.chained {
            return None;
        }
        (l..self.item_at.len() as u32).find(|&c| {
            !has(set, c)
                && !self.through[c as usize]
                    .iter()
                    .any(|&s| self.first(s) >= l && self.fits(s, set))
        })
    }

    /// The refutation of `(l, set)` by its dead cell `c`: each option through `c` false
    /// (from `c`'s early chain, or a covered position's late chain), then `c`'s clause.
    fn dead_proof(&self, l: u32, set: &[u64], c: u32) -> Vec<u32> {
        let mut hints = Vec::new();
        if let Some(ch) = self.chains[c as usize].as_ref() {
            if let Some(top) = ch.early_at(l) {
                self.early_denied(ch, top, c, &mut hints);
            }
        }
        // Per covered position, how far down its late chain is derived.
        let mut reached: HashMap<u32, usize> = HashMap::new();
        for &s in &self.through[c as usize] {
            if self.first(s) < l {
                continue;
            }
            let q = *self.cells[s as usize]
                .iter()
                .find(|&&q| has(set, q))
                .expect("a covered position");
            let ch = self.chains[q as usize].as_ref().expect("a chain");
            let want = ch.starts.binary_search(&self.first(s)).expect("a start");
            let at = reached
                .entry(q)
                .or_insert_with(|| ch.late_at(l).expect("a start at or past l"));
            while *at < want {
                hints.push(self.out.child_clause(ch.late[*at], ch.late[*at + 1]));
                *at += 1;
            }
            hints.push(
                self.out
                    .child_clause(ch.late[want], -lit(self.member_on(s, c))),
            );
        }
        self.cell_clause(self.item_at[c as usize], &mut hints);
        hints
    }

    /// Hints that make every member of `s` (which starts at `l` and meets `set`) false,
    /// from the chain of a covered position it passes.
    fn extract(&self, s: u32, l: u32, set: &[u64], hints: &mut Vec<u32>) {
        let q = *self.cells[s as usize]
            .iter()
            .find(|&&q| has(set, q))
            .expect("a covered position");
        let ch = self.chains[q as usize].as_ref().expect("a chain");
        let i = ch.late_at(l).expect("a start at l");
        debug_assert_eq!(ch.starts[i], l);
        for &m in self.members(s) {
            hints.push(self.out.child_clause(ch.late[i], -lit(m)));
        }
    }

    /// Hints that make the context of `(l + 1, next)` hold, given that of `(l, set)` and
    /// every option starting at `l` false but the one that covers `next - set` (or, with
    /// `by`, given that option: through its lemmas `X`).
    fn pass_on(
        &mut self,
        l: u32,
        set: &[u64],
        next: &[u64],
        by: Option<u32>,
        hints: &mut Vec<u32>,
    ) -> Result<()> {
        let last = self.item_at.len() as u32 - 1;
        let end = self.reach[l as usize + 1].max(l + 1).min(last);
        for p in l + 1..=end {
            let Some(ch) = self.chains[p as usize].as_ref() else {
                continue;
            };
            if !has(next, p) {
                if let Some(b) = ch.early_at(l + 1) {
                    if ch.early_at(l) != Some(b) {
                        match by {
                            None => hints.push(self.out.node(ch.early[b]).cid),
                            Some(j) => {
                                let x = self.x_lemma(j, l, p, b)?;
                                hints.push(x);
                            }
                        }
                    }
                }
            } else if has(set, p) {
                if let (Some(a), Some(b)) = (ch.late_at(l), ch.late_at(l + 1)) {
                    if a != b {
                        hints.push(self.out.child_clause(ch.late[a], ch.late[b]));
                    }
                }
            }
            // A position the branch covers: its lemma `Y` (the caller's).
        }
        Ok(())
    }

    /// The lemma `X` of super-option `j` (starting at `l`) and a position `p` it leaves
    /// free where options start at `l` (`early[b]`): `NOT early[b - 1] OR NOT x_j OR
    /// early[b]`.
    fn x_lemma(&mut self, j: u32, l: u32, p: u32, b: usize) -> Result<u32> {
        if let Some(&x) = self.x_lemmas.get(&(j, p)) {
            return Ok(x);
        }
        let ch = self.chains[p as usize].as_ref().expect("a chain");
        let m = self.member_on(j, l);
        let mut clause = Vec::with_capacity(3);
        if b > 0 {
            clause.push(-ch.early[b - 1]);
        }
        clause.extend([-lit(m), ch.early[b]]);
        let early = ch.early[b];
        let mut proof = Vec::new();
        self.follow(m, &mut proof);
        for &o in &ch.sups[b] {
            self.deny(o, j, &mut proof);
        }
        proof.push(self.out.node(early).cid);
        let x = self.out.lemma(&clause, &proof)?;
        self.x_lemmas.insert((j, p), x);
        Ok(x)
    }

    /// The lemmas `Y` of super-option `j` (starting at `l`): its later positions' chains
    /// from layer `l + 1` on.
    fn y_lemmas(&mut self, j: u32, l: u32, hints: &mut Vec<u32>) -> Result<()> {
        for k in 0..self.cells[j as usize].len() {
            let p = self.cells[j as usize][k];
            if p <= l {
                continue;
            }
            if let Some(&y) = self.y_lemma.get(&(j, p)) {
                hints.push(y);
                continue;
            }
            let ch = self.chains[p as usize].as_ref().expect("a chain");
            let Some(b) = ch.late_at(l + 1) else { continue };
            let m = self.member_on(j, l);
            let mut proof = Vec::new();
            self.follow(m, &mut proof);
            for i in b..ch.late.len() {
                for &o in &ch.sups[i] {
                    self.deny(o, j, &mut proof);
                }
            }
            for i in (b..ch.late.len()).rev() {
                proof.push(self.out.node(ch.late[i]).cid);
            }
            let y = self.out.lemma(&[-lit(m), ch.late[b]], &proof)?;
            self.y_lemma.insert((j, p), y);
            hints.push(y);
        }
        Ok(())
    }

    /// The options no solution of the term holds (an orbit that overlaps itself).
    pub fn bad(&self) -> &[u32] {
        &self.orbits.bad
    }

    fn next_gen(&mut self) -> u32 {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.gen = 1;
        }
        self.gen
    }

    fn first(&self, s: u32) -> u32 {
        self.cells[s as usize][0]
    }

    fn fits(&self, s: u32, set: &[u64]) -> bool {
        !self.cells[s as usize].iter().any(|&p| has(set, p))
    }

    fn members(&self, s: u32) -> &[u32] {
        &self.orbits.members[s as usize]
    }

    /// The member of super-option `s` on position `p`.
    fn member_on(&self, s: u32, p: u32) -> u32 {
        let item = self.item_at[p as usize];
        *self
            .members(s)
            .iter()
            .find(|&&m| self.f.cells[m as usize].contains(&item))
            .expect("a member on the position")
    }

    /// Denies every option that overlaps itself under the term's symmetry (a unit lemma
    /// each): they are in no model.
    pub fn deny_bad(&mut self) -> Result<()> {
        for k in 0..self.orbits.bad.len() {
            let o = self.orbits.bad[k];
            self.bad_lemma[o as usize] =
                self.out.lemma(&[-lit(o)], &hints::bad_hints(self.f, o))?;
        }
        Ok(())
    }

    /// The context of `(l, set)`: the options that must be false there (module doc).
    fn context(&mut self, l: u32, set: &[u64]) -> Vec<i32> {
        let gen = self.next_gen();
        let mut clause = Vec::new();
        let end = self.reach[l as usize].max(l);
        if self.chained {
            for p in l..=end.min(self.item_at.len() as u32 - 1) {
                let Some(ch) = self.chains[p as usize].as_ref() else {
                    continue;
                };
                let node = if has(set, p) {
                    ch.late_at(l).map(|i| ch.late[i])
                } else {
                    ch.early_at(l).map(|i| ch.early[i])
                };
                clause.extend(node.map(|n| -n));
            }
            return clause;
        }
        for p in l..=end.min(self.item_at.len() as u32 - 1) {
            let covered = has(set, p);
            for k in 0..self.through[p as usize].len() {
                let s = self.through[p as usize][k];
                let early = self.first(s) < l;
                if early == covered || self.stamp[s as usize] == gen {
                    continue;
                }
                self.stamp[s as usize] = gen;
                clause.extend(self.members(s).iter().map(|&m| lit(m)));
            }
        }
        clause
    }

    /// Hints that make every member of `t` false, given every member of `j` true.
    fn deny(&self, t: u32, j: u32, hints: &mut Vec<u32>) {
        hints::deny(
            self.f,
            self.members(t),
            self.members(j),
            &self.orbits.preimage,
            hints,
        );
    }

    /// Hints that make every member of `j` true, given member `m`.
    fn follow(&self, m: u32, hints: &mut Vec<u32>) {
        hints::follow(self.f, m, hints);
    }

    /// Searches and writes the whole sweep: the root's count, node and lemma.
    pub fn run(&mut self) -> Result<(BigUint, Option<i32>, u32)> {
        self.make_chains()?;
        let words = self.item_at.len().div_ceil(64).max(1);
        let root = self.visit(0, &vec![0u64; words])?;
        if self.states[root as usize].inline.is_empty() {
            return Err(Error::Failed(
                "a puzzle with no cell to fill has no certificate".into(),
            ));
        }
        let lemma = self.lemma_of(root)?;
        let s = &self.states[root as usize];
        Ok((s.count.clone(), s.node, lemma))
    }

    fn visit(&mut self, l: u32, set: &[u64]) -> Result<u32> {
        if let Some(&k) = self.layers[l as usize].get(set) {
            return Ok(k);
        }
        self.visited += 1;
        if self.visited % 4096 == 0 && self.stop.should_stop() {
            return Err(Error::Interrupted(format!(
                "the certificate was not finished ({} states searched)",
                self.visited
            )));
        }
        let state = if l as usize == self.item_at.len() {
            State {
                layer: l,
                set: set.into(),
                count: BigUint::from(1u32),
                node: None,
                inline: Vec::new(),
                lemma: None,
                uses: 0,
                own: false,
                products: Vec::new(),
                sums: Vec::new(),
            }
        } else if let Some(c) = self.dead_cell(l, set) {
            State {
                layer: l,
                set: set.into(),
                count: BigUint::default(),
                node: None,
                inline: self.dead_proof(l, set, c),
                lemma: None,
                // Its proof takes literals out of chains that a parent's may have
                // denied already: always its lemma.
                uses: self.inline_uses + 1,
                own: false,
                products: Vec::new(),
                sums: Vec::new(),
            }
        } else if has(set, l) {
            self.covered(l, set)?
        } else {
            self.free(l, set)?
        };
        let k = self.states.len() as u32;
        if state.own {
            if let Some(node) = state.node {
                self.state_of.insert(node, k);
            }
        }
        self.states.push(state);
        self.layers[l as usize].insert(set.into(), k);
        Ok(k)
    }

    /// A covered position: everything starting there denied, then the next layer.
    fn covered(&mut self, l: u32, set: &[u64]) -> Result<State> {
        let mut next = set.to_vec();
        next[(l / 64) as usize] &= !(1u64 << (l % 64));
        let child = self.visit(l + 1, &next)?;
        let (c_count, c_node) = {
            let c = &self.states[child as usize];
            (c.count.clone(), c.node)
        };
        let starting = self.starts[l as usize].clone();
        let own = !starting.is_empty() && c_count > BigUint::default();
        let c_proof = self.proof_of(child, own)?;
        let mut state = State {
            layer: l,
            set: set.into(),
            count: c_count,
            node: c_node,
            inline: c_proof,
            lemma: None,
            uses: 0,
            own: false,
            products: Vec::new(),
            sums: Vec::new(),
        };
        // Chained, what starts here is denied by this position's chain, and the
        // successor's context follows.
        let mut denied = Vec::new();
        let mut passed = Vec::new();
        if self.chained && !starting.is_empty() {
            // Each starts at `l`, which `set` covers: its first covered position.
            for &s in &starting {
                self.extract(s, l, set, &mut denied);
            }
            if !state.inline.is_empty() {
                let mut next = set.to_vec();
                next[(l / 64) as usize] &= !(1u64 << (l % 64));
                self.pass_on(l, set, &next, None, &mut passed)?;
            }
        }
        // With nothing starting here, or no cover, the successor's node and proof serve:
        // its context is part of this one's.
        if !own {
            if !denied.is_empty() {
                denied.extend(passed);
                denied.append(&mut state.inline);
                state.inline = denied;
            }
            return Ok(state);
        }
        let mut kids: Vec<i32> = starting
            .iter()
            .flat_map(|&s| self.members(s).iter().map(|&m| -lit(m)))
            .collect();
        kids.extend(c_node);
        let p = self.out.product(&kids)?;
        // With the node false and the denied options false, the successor is false.
        let mut hints = denied;
        hints.push(self.out.node(p).cid);
        hints.extend(passed);
        hints.append(&mut state.inline);
        state.inline = hints;
        state.node = Some(p);
        state.own = true;
        state.products = vec![(BAD, p, c_node)];
        Ok(state)
    }

    /// A free position: one branch per option starting there that fits.
    fn free(&mut self, l: u32, set: &[u64]) -> Result<State> {
        let starting = self.starts[l as usize].clone();
        let branches: Vec<u32> = starting
            .iter()
            .copied()
            .filter(|&s| self.fits(s, set))
            .collect();
        let mut children = Vec::with_capacity(branches.len());
        let mut nexts = Vec::with_capacity(branches.len());
        for &j in &branches {
            let mut next = set.to_vec();
            for &p in &self.cells[j as usize] {
                next[(p / 64) as usize] |= 1u64 << (p % 64);
            }
            next[(l / 64) as usize] &= !(1u64 << (l % 64));
            children.push(self.visit(l + 1, &next)?);
            nexts.push(next);
        }
        let context = self.context(l, set);
        let mut products: Vec<(u32, i32, Option<i32>)> = Vec::new();
        // (The state's own lemma `L`, where one is made, takes its context again then.)
        let mut k_lemmas = Vec::with_capacity(branches.len());
        let mut total = BigUint::default();
        for ((&j, &child), next) in branches.iter().zip(&children).zip(&nexts) {
            let (count, c_node) = {
                let c = &self.states[child as usize];
                (c.count.clone(), c.node)
            };
            let c_proof = self.proof_of(child, true)?;
            let live = count > BigUint::default();
            let product = if live {
                let mut kids: Vec<i32> = self.members(j).iter().map(|&m| lit(m)).collect();
                for &o in &starting {
                    if o != j {
                        kids.extend(self.members(o).iter().map(|&m| -lit(m)));
                    }
                }
                kids.extend(c_node);
                let p = self.out.product(&kids)?;
                products.push((j, p, c_node));
                total += &count;
                Some(p)
            } else {
                None
            };
            let hints = self.branch_hints(l, set, next, j, &starting, &c_proof, product)?;
            let mut clause = context.clone();
            clause.push(-lit(self.member_on(j, l)));
            clause.extend(product);
            k_lemmas.push(self.out.lemma(&clause, &hints)?);
        }
        let sums = self.sums(l, &products)?;
        let top = sums.last().copied().or(products.first().map(|p| p.1));
        let mut hints = Vec::new();
        for &s in sums.iter().rev() {
            let cid = self.out.node(s).cid;
            hints.extend([cid + 1, cid + 2]);
        }
        hints.extend(&k_lemmas);
        let item = self.item_at[l as usize];
        if self.chained {
            for &o in &starting {
                if !self.fits(o, set) {
                    self.extract(o, l, set, &mut hints);
                }
            }
        }
        // The cell's clause, or chained, its lemma `Z` where options started before `l`.
        if let Some(z) = self.z_lemma.get(l as usize).copied().flatten() {
            hints.push(z);
        } else {
            self.cell_clause(item, &mut hints);
        }
        Ok(State {
            layer: l,
            set: set.into(),
            count: total,
            node: top,
            inline: hints,
            lemma: None,
            uses: 0,
            own: top.is_some(),
            products,
            sums,
        })
    }

    /// Hints of the "at least one" clause of covered item `item`, after its options that
    /// overlap themselves are denied.
    fn cell_clause(&self, item: u32, hints: &mut Vec<u32>) {
        for &o in &self.f.by_cell[item as usize] {
            if self.orbits.sup_of[o as usize] == BAD {
                hints.push(self.bad_lemma[o as usize]);
            }
        }
        hints.push(
            self.f.cover_items[item as usize]
                .1
                .expect("a cell has its clause"),
        );
    }

    /// The hints of `K_j`: `j`'s members true, the options it meets false (the others
    /// starting at `l`, and those starting later that meet it outside `set`), the
    /// child's lemma, and the product's definition.
    #[allow(clippy::too_many_arguments)]
    fn branch_hints(
        &mut self,
        l: u32,
        set: &[u64],
        next: &[u64],
        j: u32,
        starting: &[u32],
        child_proof: &[u32],
        product: Option<i32>,
    ) -> Result<Vec<u32>> {
        let mut hints = Vec::new();
        self.follow(self.member_on(j, l), &mut hints);
        if self.chained {
            // Every option starting at `l` meets `j` there. A product lists them; a
            // branch without one takes its next context from lemmas `X` and `Y` instead.
            if product.is_some() {
                for &o in starting {
                    if o != j {
                        self.deny(o, j, &mut hints);
                    }
                }
            }
            if !child_proof.is_empty() {
                self.y_lemmas(j, l, &mut hints)?;
                let by = product.is_none().then_some(j);
                self.pass_on(l, set, next, by, &mut hints)?;
            }
            if let Some(p) = product {
                hints.push(self.out.node(p).cid);
            }
            hints.extend_from_slice(child_proof);
            return Ok(hints);
        }
        for &o in starting {
            if o != j && self.fits(o, set) {
                self.deny(o, j, &mut hints);
            }
        }
        let gen = self.next_gen();
        for &s in starting {
            self.stamp[s as usize] = gen;
        }
        for k in 0..self.cells[j as usize].len() {
            let p = self.cells[j as usize][k];
            for t in 0..self.through[p as usize].len() {
                let o = self.through[p as usize][t];
                if self.stamp[o as usize] == gen || self.first(o) <= l {
                    continue;
                }
                self.stamp[o as usize] = gen;
                if self.fits(o, set) {
                    self.deny(o, j, &mut hints);
                }
            }
        }
        // With the product false and its literals true, the child is false; its proof
        // conflicts.
        if let Some(p) = product {
            hints.push(self.out.node(p).cid);
        }
        hints.extend_from_slice(child_proof);
        Ok(hints)
    }

    /// The hints a parent copies to refute state `k` (with its context false, and its node
    /// false where it has one): its inline proof, or, once asked for more than
    /// [`INLINE_USES`] times, its lemma `L`. `counted`: whether this use counts.
    fn proof_of(&mut self, k: u32, counted: bool) -> Result<Vec<u32>> {
        let s = &mut self.states[k as usize];
        if counted {
            s.uses += 1;
        }
        if let Some(lemma) = s.lemma {
            return Ok(vec![lemma]);
        }
        if s.uses <= self.inline_uses || s.inline.is_empty() {
            return Ok(s.inline.clone());
        }
        Ok(vec![self.lemma_of(k)?])
    }

    /// State `k`'s lemma `L`: its context, or its node (made now if it has none yet).
    fn lemma_of(&mut self, k: u32) -> Result<u32> {
        if let Some(lemma) = self.states[k as usize].lemma {
            return Ok(lemma);
        }
        let (l, set) = {
            let s = &self.states[k as usize];
            (s.layer, s.set.clone())
        };
        let mut clause = self.context(l, &set);
        let s = &self.states[k as usize];
        clause.extend(s.node);
        let hints = s.inline.clone();
        let lemma = self.out.lemma(&clause, &hints)?;
        self.states[k as usize].lemma = Some(lemma);
        Ok(lemma)
    }

    /// The chain of sums over `products`, innermost first (none for fewer than two): each
    /// product holds its option's member on position `l`, which the others deny.
    fn sums(&mut self, l: u32, products: &[(u32, i32, Option<i32>)]) -> Result<Vec<i32>> {
        let chain: Vec<(i32, i32)> = products
            .iter()
            .map(|&(s, p, _)| (p, lit(self.member_on(s, l))))
            .collect();
        Ok(self.out.sum_chain(&chain)?)
    }

    /// The defining clause `-P child` of product `p`.
    fn child_clause(&self, p: i32, child: i32) -> u32 {
        self.out.child_clause(p, child)
    }
}

/// Which literal of each product makes it false, in one use of the cut lemmas: for a
/// covered position's product `None`, else the product's super-option.
type Pick<'p> = &'p dyn Fn(Option<u32>, Option<i32>) -> i32;

/// [`Pick`] for a node of a given layer, in a cone of several layers.
type Cone<'p> = &'p dyn Fn(u32, Option<u32>, Option<i32>) -> i32;

/// Per option, its cut lemma `R`: the products that choose it, and the lemma.
type ChoiceCuts = HashMap<u32, (Vec<i32>, u32)>;

/// Per option, its cut lemmas `V`: (layer, node list, lemma), in layer order.
type OptionCuts = HashMap<u32, Vec<(u32, Vec<i32>, u32)>>;

impl<W: Write> Layers<'_, W> {
    /// The nodes of the live states at layer `l` that `keep` accepts, once each.
    fn cut(&self, l: u32, keep: &dyn Fn(&[u64]) -> bool) -> Vec<i32> {
        let mut nodes: Vec<i32> = self.layers[l as usize]
            .values()
            .map(|&k| &self.states[k as usize])
            .filter(|s| s.count > BigUint::default() && keep(&s.set))
            .map(|s| {
                s.node
                    .expect("a live state before the last start has a node")
            })
            .collect();
        nodes.sort_unstable();
        nodes.dedup();
        nodes
    }

    /// Hints that make `node` (written for a state of layer `l`) false: for each product
    /// the definition clause of the literal `pick` names, then the sums, innermost first.
    fn falsify(&self, node: i32, pick: Pick<'_>, hints: &mut Vec<u32>) {
        let s = &self.states[self.state_of[&node] as usize];
        let picks: Vec<i32> = s
            .products
            .iter()
            .map(|&(j, _, child)| pick((j != BAD).then_some(j), child))
            .collect();
        self.falsify_by(node, &picks, hints);
    }

    /// Hints that make `node` false, each product by the literal in `picks`: its
    /// down-lemma alone where every product goes false with its child.
    fn falsify_by(&self, node: i32, picks: &[i32], hints: &mut Vec<u32>) {
        let s = &self.states[self.state_of[&node] as usize];
        if let Some(&down) = self.down.get(&node) {
            if s.products.iter().zip(picks).all(|(p, &l)| p.2 == Some(l)) {
                hints.push(down);
                return;
            }
        }
        for (&(_, p, _), &l) in s.products.iter().zip(picks) {
            hints.push(self.child_clause(p, l));
        }
        for &sum in &s.sums {
            hints.push(self.out.node(sum).cid);
        }
    }

    /// Adds the down-lemma of every node with two live branches or more (see `down`).
    fn down_lemmas(&mut self) -> Result<()> {
        let mut nodes: Vec<(i32, u32)> = self
            .state_of
            .iter()
            .filter(|&(_, &k)| {
                let products = &self.states[k as usize].products;
                products.len() >= 2 && products.iter().all(|p| p.2.is_some())
            })
            .map(|(&n, &k)| (n, k))
            .collect();
        nodes.sort_unstable();
        for (n, k) in nodes {
            let s = &self.states[k as usize];
            let mut clause = vec![-n];
            let mut hints = Vec::with_capacity(2 * s.products.len());
            for &(_, p, child) in &s.products {
                let child = child.expect("chosen for its children");
                clause.push(child);
                hints.push(self.child_clause(p, child));
            }
            for &sum in &s.sums {
                hints.push(self.out.node(sum).cid);
            }
            let down = self.out.lemma(&clause, &hints)?;
            self.down.insert(n, down);
        }
        Ok(())
    }

    /// The hints of a cut lemma over the nodes `next`: each node of `from` that is not
    /// in `next` made false (`pick`), then the conflict with `base`.
    fn step(&self, from: &[i32], next: &[i32], pick: Pick<'_>, base: u32) -> Vec<u32> {
        let mut hints = Vec::new();
        for &n in from {
            if next.binary_search(&n).is_err() {
                self.falsify(n, pick, &mut hints);
            }
        }
        hints.push(base);
        hints
    }

    /// Adds the cut lemma: the `extra` literals and the nodes `next`.
    fn cut_lemma(&mut self, extra: &[i32], next: &[i32], hints: &[u32]) -> Result<u32> {
        let mut clause = extra.to_vec();
        clause.extend_from_slice(next);
        Ok(self.out.lemma(&clause, hints)?)
    }

    /// The last layer where a super-option starts.
    fn last_start(&self) -> u32 {
        (0..self.starts.len() as u32)
            .rev()
            .find(|&l| !self.starts[l as usize].is_empty())
            .unwrap_or(0)
    }

    /// After the root (`root`, its unit `keep`, over the top node `top`): the cut
    /// lemmas, the deletion of the forward lemmas, of every input clause, and of the cut
    /// lemmas.
    pub fn finish(&mut self, root: i32, top: i32, keep: u32) -> Result<()> {
        let forward = std::mem::take(&mut self.out.lemmas);
        let forward_hints = std::mem::take(&mut self.out.hints);
        let last = self.last_start();
        self.down_lemmas()?;
        // T_l: the layer cuts.
        let all = |_: &[u64]| true;
        let mut cuts: Vec<Vec<i32>> = Vec::with_capacity(last as usize + 1);
        let mut t_lemma: Vec<u32> = Vec::with_capacity(last as usize + 1);
        cuts.push(self.cut(0, &all));
        let first_t = if root == top {
            keep
        } else {
            let h = [self.child_clause(root, top), keep];
            self.out.lemma(&[top], &h)?
        };
        t_lemma.push(first_t);
        let through_child = |_: Option<u32>, child: Option<i32>| child.expect("a child node");
        for l in 1..=last {
            self.poll()?;
            let next = self.cut(l, &all);
            let hints = self.step(
                &cuts[l as usize - 1],
                &next,
                &through_child,
                t_lemma[l as usize - 1],
            );
            let t = self.cut_lemma(&[], &next, &hints)?;
            cuts.push(next);
            t_lemma.push(t);
        }
        let r = self.choice_cuts(&cuts, &t_lemma)?;
        let v = self.option_cuts(&r)?;
        let w = self.cell_cuts(&cuts, &t_lemma)?;
        // The forward lemmas, last first, each with the hints it was added with.
        for &(cid, start, len) in forward.iter().rev() {
            if cid != keep {
                self.out
                    .delete(cid, &forward_hints[start as usize..(start + len) as usize])?;
            }
        }
        drop(forward_hints);
        self.delete_inputs(root, keep, &r, &v, &w)?;
        let backward = std::mem::take(&mut self.out.lemmas);
        let hints = std::mem::take(&mut self.out.hints);
        for (k, &(cid, start, len)) in backward.iter().enumerate().rev() {
            if k % 4096 == 0 {
                self.poll()?;
            }
            if cid != keep {
                self.out
                    .delete(cid, &hints[start as usize..(start + len) as usize])?;
            }
        }
        Ok(())
    }

    fn poll(&self) -> Result<()> {
        if self.stop.should_stop() {
            return Err(Error::Interrupted(
                "the certificate was not finished (deleting clauses)".into(),
            ));
        }
        Ok(())
    }

    /// Whether `set` covers every position of super-option `s` at or past `l`.
    fn covers_rest(&self, set: &[u64], s: u32, l: u32) -> bool {
        self.cells[s as usize]
            .iter()
            .filter(|&&p| p >= l)
            .all(|&p| has(set, p))
    }

    /// Hints that make false every node of `from` that is not in `target` (sorted),
    /// going down through the nodes it rests on: each node's products by the literal
    /// `pick` names for the node's layer, children first.
    fn cone(&self, from: &[i32], target: &[i32], pick: Cone<'_>, hints: &mut Vec<u32>) {
        let mut done: HashMap<i32, ()> = HashMap::new();
        for &n in from {
            self.cone_node(n, target, pick, &mut done, hints);
        }
    }

    fn cone_node(
        &self,
        n: i32,
        target: &[i32],
        pick: Cone<'_>,
        done: &mut HashMap<i32, ()>,
        hints: &mut Vec<u32>,
    ) {
        if target.binary_search(&n).is_ok() || done.insert(n, ()).is_some() {
            return;
        }
        let s = &self.states[self.state_of[&n] as usize];
        let num_vars = self.f.num_vars as i32;
        let mut picks = Vec::with_capacity(s.products.len());
        for &(j, _, child) in &s.products {
            let l = pick(s.layer, (j != BAD).then_some(j), child);
            if l.abs() > num_vars {
                self.cone_node(l, target, pick, done, hints);
            }
            picks.push(l);
        }
        self.falsify_by(n, &picks, hints);
    }

    /// `R_a` for each good option `a` that a deletion or a `V` starts from: `NOT x_a`, or
    /// one of the products that choose it (at its start, every other product denies it),
    /// from `T` there: per option, the products and the lemma.
    fn choice_cuts(&mut self, cuts: &[Vec<i32>], t_lemma: &[u32]) -> Result<ChoiceCuts> {
        let f = self.f;
        let good = |o: u32| self.orbits.sup_of[o as usize] != BAD;
        let mut wanted: Vec<u32> = Vec::new();
        for &(a, b) in f.amo.keys() {
            if good(a) && good(b) {
                wanted.extend([a, b]);
            }
        }
        wanted.extend((0..f.num_vars).filter(|&o| f.follows[o as usize].is_some() && good(o)));
        wanted.sort_unstable();
        wanted.dedup();
        let mut out = HashMap::new();
        for a in wanted {
            self.poll()?;
            let sa = self.orbits.sup_of[a as usize];
            let l = self.first(sa) as usize;
            let mut chosen = Vec::new();
            let mut hints = Vec::new();
            for &n in &cuts[l] {
                let s = &self.states[self.state_of[&n] as usize];
                for &(j, p, _) in &s.products {
                    if j == sa {
                        chosen.push(p);
                    } else {
                        hints.push(self.child_clause(p, -lit(a)));
                    }
                }
                for &sum in &s.sums {
                    hints.push(self.out.node(sum).cid);
                }
            }
            hints.push(t_lemma[l]);
            chosen.sort_unstable();
            let lemma = self.cut_lemma(&[-lit(a)], &chosen, &hints)?;
            out.insert(a, (chosen, lemma));
        }
        Ok(out)
    }

    /// `V_{l,a}` for each good option `a`, at each layer where an option it conflicts
    /// with starts later: per option, (layer, node list, lemma) in layer order.
    fn option_cuts(&mut self, r: &ChoiceCuts) -> Result<OptionCuts> {
        let f = self.f;
        let mut need: HashMap<u32, Vec<u32>> = HashMap::new();
        for &(a, b) in f.amo.keys() {
            let (sa, sb) = (
                self.orbits.sup_of[a as usize],
                self.orbits.sup_of[b as usize],
            );
            if sa == BAD || sb == BAD {
                continue;
            }
            let (fa, fb) = (self.first(sa), self.first(sb));
            if fa < fb {
                need.entry(a).or_default().push(fb);
            } else if fb < fa {
                need.entry(b).or_default().push(fa);
            }
        }
        let mut chains = HashMap::new();
        let mut wanted: Vec<(u32, Vec<u32>)> = need.into_iter().collect();
        wanted.sort_unstable();
        for (a, mut layers) in wanted {
            self.poll()?;
            layers.sort_unstable();
            layers.dedup();
            let sa = self.orbits.sup_of[a as usize];
            let mut chain: Vec<(u32, Vec<i32>, u32)> = Vec::new();
            for l in layers {
                let next = self.cut(l, &|set| self.covers_rest(set, sa, l));
                let mut hints = Vec::new();
                let through_child =
                    |_: u32, _: Option<u32>, child: Option<i32>| child.expect("a child node");
                match chain.last() {
                    Some((_, nodes, lemma)) => {
                        self.cone(nodes, &next, &through_child, &mut hints);
                        hints.push(*lemma);
                    }
                    None => {
                        // From the products that choose it: each false with its child.
                        let (products, lemma) = &r[&a];
                        let mut done = HashMap::new();
                        for &p in products {
                            let child = *self.out.children(p).last().expect("a child");
                            self.cone_node(child, &next, &through_child, &mut done, &mut hints);
                            hints.push(self.child_clause(p, child));
                        }
                        hints.push(*lemma);
                    }
                }
                let lemma = self.cut_lemma(&[-lit(a)], &next, &hints)?;
                chain.push((l, next, lemma));
            }
            chains.insert(a, chain);
        }
        Ok(chains)
    }

    /// `W_{c}` for each covered item `c` at its own position: an option through it that
    /// started before, or a node there that leaves it free (from `T` where the first
    /// option through it starts); per item, the node list and the lemma.
    fn cell_cuts(&mut self, cuts: &[Vec<i32>], t_lemma: &[u32]) -> Result<Vec<(Vec<i32>, u32)>> {
        let mut out = Vec::with_capacity(self.item_at.len());
        for c in 0..self.item_at.len() as u32 {
            self.poll()?;
            let pc = self.pos[c as usize];
            let through: Vec<u32> = self.through[pc as usize].clone();
            let start = through.iter().map(|&s| self.first(s)).min().unwrap_or(pc);
            if start == pc {
                out.push((cuts[pc as usize].clone(), t_lemma[pc as usize]));
                continue;
            }
            let next = self.cut(pc, &|set| !has(set, pc));
            let early: Vec<i32> = through
                .iter()
                .filter(|&&s| self.first(s) < pc)
                .map(|&s| lit(self.member_on(s, pc)))
                .collect();
            let pick = |_: u32, j: Option<u32>, child: Option<i32>| match j {
                Some(j) if self.cells[j as usize].contains(&pc) => lit(self.member_on(j, pc)),
                _ => child.expect("a child node"),
            };
            let mut hints = Vec::new();
            self.cone(&cuts[start as usize], &next, &pick, &mut hints);
            hints.push(t_lemma[start as usize]);
            let lemma = self.cut_lemma(&early, &next, &hints)?;
            out.push((next, lemma));
        }
        Ok(out)
    }

    /// Deletes every input clause with the cut lemmas (module doc).
    fn delete_inputs(
        &mut self,
        root: i32,
        keep: u32,
        r: &ChoiceCuts,
        v: &OptionCuts,
        w: &[(Vec<i32>, u32)],
    ) -> Result<()> {
        let f = self.f;
        let mut order: Vec<(u32, Deletion)> = Vec::new();
        for (c, &(_, alo)) in f.cover_items.iter().enumerate() {
            order.push((
                alo.expect("a cell's clause"),
                Deletion::AtLeastOne(c as u32),
            ));
        }
        for (&(a, b), &cid) in &f.amo {
            order.push((cid, Deletion::NotBoth(a, b)));
        }
        for (o, cid) in f.follows.iter().enumerate() {
            if let Some(cid) = *cid {
                order.push((cid, Deletion::Follows(o as u32)));
            }
        }
        order.sort_unstable_by_key(|d| d.0);
        if order.len() != f.clauses.len() {
            return Err(Error::Failed(
                "cannot certify: an input clause has no deletion (a bug)".into(),
            ));
        }
        let mut hints = Vec::new();
        for (k, &(cid, d)) in order.iter().enumerate() {
            if k % 256 == 0 {
                self.poll()?;
            }
            hints.clear();
            match d {
                Deletion::AtLeastOne(c) => {
                    let pc = self.pos[c as usize];
                    let (nodes, lemma) = &w[c as usize];
                    let pick = |j: Option<u32>, _: Option<i32>| {
                        lit(self.member_on(j.expect("a branch"), pc))
                    };
                    for &n in nodes {
                        self.falsify(n, &pick, &mut hints);
                    }
                    hints.push(*lemma);
                }
                Deletion::NotBoth(a, b) => self.not_both(a, b, root, keep, r, v, &mut hints),
                Deletion::Follows(o) => {
                    let to = f.image[o as usize];
                    let so = self.orbits.sup_of[o as usize];
                    if so == BAD {
                        hints.extend([self.child_clause(root, -lit(o)), keep]);
                    } else {
                        // The products that choose the orbit hold `x_g(o)`.
                        let (products, lemma) = &r[&o];
                        for &p in products {
                            hints.push(self.child_clause(p, lit(to)));
                        }
                        hints.push(*lemma);
                    }
                }
            }
            self.out.delete(cid, &hints)?;
        }
        Ok(())
    }

    /// The hints that delete "not both `a` and `b`".
    #[allow(clippy::too_many_arguments)]
    fn not_both(
        &self,
        a: u32,
        b: u32,
        root: i32,
        keep: u32,
        r: &ChoiceCuts,
        v: &OptionCuts,
        hints: &mut Vec<u32>,
    ) {
        let (sa, sb) = (
            self.orbits.sup_of[a as usize],
            self.orbits.sup_of[b as usize],
        );
        if let Some(bad) = [a, b]
            .into_iter()
            .find(|&o| self.orbits.sup_of[o as usize] == BAD)
        {
            hints.extend([self.child_clause(root, -lit(bad)), keep]);
            return;
        }
        let (fa, fb) = (self.first(sa), self.first(sb));
        if fa == fb {
            // Both start here: the products that choose `a` deny `b`.
            let (products, lemma) = &r[&a];
            for &p in products {
                hints.push(self.child_clause(p, -lit(b)));
            }
            hints.push(*lemma);
            return;
        }
        // The earlier one's cut at the later one's start: its state covers their common
        // item, so the later one fits nowhere there.
        let (early, late, fl) = if fa < fb { (a, b, fb) } else { (b, a, fa) };
        let (_, nodes, lemma) = v[&early]
            .iter()
            .find(|(l, _, _)| *l == fl)
            .expect("a cut at the later one's start");
        let pick = |_: Option<u32>, _: Option<i32>| -lit(late);
        for &n in nodes {
            self.falsify(n, &pick, hints);
        }
        hints.push(*lemma);
    }
}

/// An input clause and how it is deleted.
#[derive(Clone, Copy)]
enum Deletion {
    AtLeastOne(u32),
    NotBoth(u32, u32),
    Follows(u32),
}
