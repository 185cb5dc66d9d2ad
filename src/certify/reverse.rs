//! The end of a certificate: every clause but the root's unit is deleted, each with the
//! hints that prove it from what remains, so that the checker knows the graph implies the
//! CNF (and, with the clauses added before, that the two are equivalent).
//!
//! Added clauses go first, last added first, each with the hints it was added with (they
//! are all still there). Then each input clause `C`: with `C` false, a product with a
//! false child is false and a sum with two false children is false; going up from the
//! literals of `C`, in node order (children first), this reaches the root exactly when
//! the graph implies `C` (unit propagation is complete on a decomposable, deterministic
//! graph). The hints are those defining clauses, then the root's unit clause.
//!
//! A count of zero has no graph: the root is a false node made for the purpose,
//! `Z = AND(NOT (A + B))` with `A = AND(x1)` and `B = AND(NOT x1)`, whose unit clause
//! follows from the empty clause the search derived; each input clause is deleted through
//! it.

use std::io::{self, Write};

use super::formula::Formula;
use super::out::Out;
use crate::error::{Error, Result};

/// The four nodes of a certificate of zero.
pub(crate) struct Zero {
    a: i32,
    b: i32,
    t: i32,
    pub z: i32,
}

impl Zero {
    /// Makes the false root after the search's empty clause `empty`; returns it and the
    /// root's unit clause.
    pub fn make<W: Write>(out: &mut Out<W>, empty: u32) -> io::Result<(Zero, u32)> {
        let a = out.product(&[1])?;
        let b = out.product(&[-1])?;
        let (ca, cb) = (out.node(a).cid, out.node(b).cid);
        let t = out.sum(a, b, &[ca + 1, cb + 1])?;
        let z = out.product(&[-t])?;
        let unit = out.lemma(&[z], &[empty])?;
        Ok((Zero { a, b, t, z }, unit))
    }

    fn hints<W: Write>(&self, out: &Out<W>, clause: &[i32], unit: u32) -> Vec<u32> {
        let (ca, cb, ct, cz) = (
            out.node(self.a).cid,
            out.node(self.b).cid,
            out.node(self.t).cid,
            out.node(self.z).cid,
        );
        // With the clause false: x1 is true if it holds -1, false if it holds 1.
        let mut hints = vec![unit, cz + 1];
        if clause.contains(&-1) {
            hints.extend([ct + 1, ca]);
        } else if clause.contains(&1) {
            hints.extend([ct + 2, cb]);
        } else {
            hints.extend([ct + 1, ca, ct + 2, cb]);
        }
        hints
    }
}

/// Deletes every clause but `keep` (the root's unit clause).
pub(crate) fn delete_all<W: Write>(
    out: &mut Out<W>,
    f: &Formula,
    root: i32,
    keep: u32,
    zero: Option<&Zero>,
    run: &crate::stop::Stop,
) -> Result<()> {
    delete_added(out, keep, run)?;
    if let Some(zero) = zero {
        for (k, clause) in f.clauses.iter().enumerate() {
            let h = zero.hints(out, clause, keep);
            out.delete(k as u32 + 1, &h)?;
        }
        return Ok(());
    }
    let up = Upward::new(out, f.num_vars);
    let mut marks = Marks::new(out.nodes.len());
    let mut falsified = Vec::new();
    let mut rising: Vec<u32> = Vec::new();
    let mut h = Vec::new();
    let root_index = up.index(root);
    for (k, clause) in f.clauses.iter().enumerate() {
        if k % 256 == 0 {
            stopped(run)?;
        }
        marks.gen += 1;
        falsified.clear();
        marks.falsify(out, &up, clause, &mut rising);
        if !marks.is_false(root_index) {
            return Err(Error::Failed(format!(
                "cannot certify: input clause {} is not implied by the graph (a bug in the \
                 certifying search)",
                k + 1
            )));
        }
        marks.charge(out, &up, root_index, &mut falsified);
        falsified.sort_unstable();
        h.clear();
        h.extend(falsified.iter().map(|&node| {
            let n = node as usize;
            out.nodes[n].cid + if out.nodes[n].sum { 0 } else { marks.reason[n] }
        }));
        h.push(keep);
        out.delete(k as u32 + 1, &h)?;
    }
    Ok(())
}

/// An error when `run` asks the deletions to stop.
fn stopped(run: &crate::stop::Stop) -> Result<()> {
    if run.should_stop() {
        return Err(Error::Interrupted(
            "the certificate was not finished (deleting clauses)".into(),
        ));
    }
    Ok(())
}

/// Deletes the added clauses but `keep`, last added first, each with the hints it was
/// added with; the lemmas' list and hints are let go.
fn delete_added<W: Write>(out: &mut Out<W>, keep: u32, run: &crate::stop::Stop) -> Result<()> {
    let lemmas = std::mem::take(&mut out.lemmas);
    let hints = std::mem::take(&mut out.hints);
    for (k, &(cid, start, len)) in lemmas.iter().rev().enumerate() {
        if k % 4096 == 0 {
            stopped(run)?;
        }
        if cid != keep {
            out.delete(cid, &hints[start as usize..(start + len) as usize])?;
        }
    }
    Ok(())
}

/// Per node, the marks of one input clause's propagation, stamped with the clause's
/// generation `gen` so that nothing is cleared between clauses.
struct Marks {
    /// `u32::MAX` for a node known false; for a sum not yet false, its false children.
    state: Vec<u32>,
    /// The generation of the node's `state` and `reason`.
    seen: Vec<u32>,
    /// For a false product, 1 + the position of the child that makes it false; 0 for a
    /// false sum (both children do).
    reason: Vec<u32>,
    /// The generation in which the root's falsity was charged to the node.
    used: Vec<u32>,
    gen: u32,
}

impl Marks {
    /// Marks for a graph of `nodes` nodes, none touched.
    fn new(nodes: usize) -> Marks {
        Marks {
            state: vec![0u32; nodes],
            seen: vec![0u32; nodes],
            reason: vec![0u32; nodes],
            used: vec![0u32; nodes],
            gen: 0,
        }
    }

    /// Whether node `n` is false under the current clause.
    fn is_false(&self, n: usize) -> bool {
        self.seen[n] == self.gen && self.state[n] == u32::MAX
    }

    /// With `clause` false: marks the products that hold one of its literals false, then
    /// goes up, a product false by one false child and a sum by two (`rising` is scratch).
    fn falsify<W: Write>(
        &mut self,
        out: &Out<W>,
        up: &Upward,
        clause: &[i32],
        rising: &mut Vec<u32>,
    ) {
        let Marks {
            state,
            seen,
            reason,
            gen,
            ..
        } = self;
        let gen = *gen;
        // The false literals are the clause's own: a product holding one is false. Those
        // are marked first, so that a product false by a literal is never charged to a
        // child node.
        rising.clear();
        for &l in clause {
            for &(node, pos) in up.with_literal(l) {
                let n = node as usize;
                if seen[n] != gen {
                    seen[n] = gen;
                    state[n] = u32::MAX;
                    reason[n] = pos + 1;
                    rising.push(node);
                }
            }
        }
        while let Some(node) = rising.pop() {
            for &(parent, ppos) in up.parents(node) {
                let p = parent as usize;
                if seen[p] == gen && state[p] == u32::MAX {
                    continue;
                }
                if out.nodes[p].sum {
                    if seen[p] != gen {
                        seen[p] = gen;
                        state[p] = 0;
                    }
                    state[p] += 1;
                    if state[p] < 2 {
                        continue;
                    }
                    reason[p] = 0;
                } else {
                    seen[p] = gen;
                    reason[p] = ppos + 1;
                }
                state[p] = u32::MAX;
                rising.push(parent);
            }
        }
    }

    /// Collects into `falsified` only the nodes the root's falsity rests on: a false sum
    /// needs both children, a false product the one child it is charged to.
    fn charge<W: Write>(
        &mut self,
        out: &Out<W>,
        up: &Upward,
        root_index: usize,
        falsified: &mut Vec<u32>,
    ) {
        let (reason, used, gen) = (&self.reason, &mut self.used, self.gen);
        let mut todo = vec![root_index as u32];
        used[root_index] = gen;
        while let Some(node) = todo.pop() {
            let n = node as usize;
            falsified.push(node);
            let rec = &out.nodes[n];
            let kids = &out.kids[rec.start as usize..(rec.start + rec.len) as usize];
            let charged: &[i32] = if rec.sum {
                kids
            } else {
                &kids[reason[n] as usize - 1..reason[n] as usize]
            };
            for &c in charged {
                if c.unsigned_abs() > up.num_vars {
                    let child = up.index(c);
                    if used[child] != gen {
                        used[child] = gen;
                        todo.push(child as u32);
                    }
                }
            }
        }
    }
}

/// The graph read upwards: each node's parents, and the products holding each literal.
struct Upward {
    num_vars: u32,
    parent_start: Vec<u32>,
    parent: Vec<(u32, u32)>,
    lit_start: Vec<u32>,
    lit: Vec<(u32, u32)>,
}

impl Upward {
    fn new<W: Write>(out: &Out<W>, num_vars: u32) -> Upward {
        let nodes = out.nodes.len();
        let lit_slot = |l: i32| (2 * (l.unsigned_abs() - 1) + u32::from(l < 0)) as usize;
        let mut parent_count = vec![0u32; nodes + 1];
        let mut lit_count = vec![0u32; 2 * num_vars as usize + 1];
        for node in &out.nodes {
            for &c in &out.kids[node.start as usize..(node.start + node.len) as usize] {
                if c.unsigned_abs() > num_vars {
                    parent_count[(c.unsigned_abs() - num_vars - 1) as usize] += 1;
                } else if !node.sum {
                    lit_count[lit_slot(c)] += 1;
                }
            }
        }
        let prefix = |counts: Vec<u32>| {
            let mut start = Vec::with_capacity(counts.len() + 1);
            let mut acc = 0;
            start.push(0);
            for c in counts {
                acc += c;
                start.push(acc);
            }
            start
        };
        let parent_start = prefix(parent_count);
        let lit_start = prefix(lit_count);
        let mut parent = vec![(0, 0); *parent_start.last().unwrap() as usize];
        let mut lit = vec![(0, 0); *lit_start.last().unwrap() as usize];
        let mut pfill = parent_start.clone();
        let mut lfill = lit_start.clone();
        for (k, node) in out.nodes.iter().enumerate() {
            let kids = &out.kids[node.start as usize..(node.start + node.len) as usize];
            for (pos, &c) in kids.iter().enumerate() {
                if c.unsigned_abs() > num_vars {
                    let child = (c.unsigned_abs() - num_vars - 1) as usize;
                    parent[pfill[child] as usize] = (k as u32, pos as u32);
                    pfill[child] += 1;
                } else if !node.sum {
                    let slot = lit_slot(c);
                    lit[lfill[slot] as usize] = (k as u32, pos as u32);
                    lfill[slot] += 1;
                }
            }
        }
        Upward {
            num_vars,
            parent_start,
            parent,
            lit_start,
            lit,
        }
    }

    fn index(&self, node: i32) -> usize {
        (node as u32 - self.num_vars - 1) as usize
    }

    fn parents(&self, node: u32) -> &[(u32, u32)] {
        &self.parent[self.parent_start[node as usize] as usize
            ..self.parent_start[node as usize + 1] as usize]
    }

    /// The products holding literal `l` as a child.
    fn with_literal(&self, l: i32) -> &[(u32, u32)] {
        let slot = (2 * (l.unsigned_abs() - 1) + u32::from(l < 0)) as usize;
        &self.lit[self.lit_start[slot] as usize..self.lit_start[slot + 1] as usize]
    }
}
