//! Writing one state of the certifying search once its branches are searched: each live
//! branch's product `P_j` with its lemma `K_j`, the chain of sums, and the state's lemma
//! `L` (`search.rs` says what they claim).
//!
//! Invariant: the same as the search's: every hint listed turns its clause unit or
//! conflicting when the checker reaches it. A state written before (`cached`) reuses its
//! products and sums and writes only its lemmas, for the context of this visit.

use std::io::Write;

use num_bigint::BigUint;

use super::orbits::BAD;
use super::search::{Certifier, Done};
use crate::error::Result;

/// The state being written, as each of its lemmas sees it.
struct At<'s> {
    /// The free covered items.
    u: &'s [u64],
    /// The counted options chosen, increasing.
    r: &'s [u32],
    /// Per counted kind: how many of its options `r` holds.
    counts: &'s [u32],
    /// The cell branched on.
    item: u32,
    /// The literals of the state's context, all false in it.
    context: &'s [i32],
}

impl<W: Write> Certifier<'_, W> {
    /// Writes the state `(u, r)` that branched on `item` into `branches`, whose states
    /// gave `children`: its count, node and lemma `L`.
    pub(super) fn emit(
        &mut self,
        u: &[u64],
        r: &[u32],
        item: u32,
        branches: &[u32],
        children: &[Done],
        cached: Option<&Done>,
    ) -> Result<Done> {
        let counts = &self.counts(r)[..];
        let context = self.context(u, r);
        let at = At {
            u,
            r,
            counts,
            item,
            context: &context,
        };
        let mut products: Vec<(usize, i32)> = Vec::new();
        let mut k_lemmas = Vec::with_capacity(branches.len());
        let mut total = BigUint::default();
        for (b, (&j, child)) in branches.iter().zip(children).enumerate() {
            let (product, lemma) = self.branch(&at, j, child, cached, products.len())?;
            if let Some(p) = product {
                products.push((b, p));
                total += &child.count;
            }
            k_lemmas.push(lemma);
        }
        let sums = match cached {
            Some(c) => c.sums.clone(),
            None => self.sums(&products, branches, item)?,
        };
        let top = sums.last().copied().or(products.first().map(|p| p.1));
        // L: the context implies the top (or is impossible).
        let hints = self.state_hints(&at, branches, &sums, &k_lemmas);
        let mut clause = context;
        clause.extend(top);
        let lemma = self.out.lemma(&clause, &hints)?;
        Ok(Done {
            count: total,
            node: top,
            lemma: Some(lemma),
            products: products.iter().map(|p| p.1).collect(),
            sums,
        })
    }

    /// Branch `j`, whose state gave `child`: its product `P_j` where it has covers (the
    /// `index`th of `cached`'s for a state written before), and its lemma `K_j`.
    fn branch(
        &mut self,
        at: &At<'_>,
        j: u32,
        child: &Done,
        cached: Option<&Done>,
        index: usize,
    ) -> Result<(Option<i32>, u32)> {
        let meeting = self.meeting_inside(j, at.u);
        let used_up = self.used_up(at, j, &meeting);
        let m = self.member_on(j, at.item);
        let live = child.count > BigUint::default();
        let mut hints = Vec::new();
        self.follow(m, &mut hints);
        // With the edge of U as context, the child's context must be derived: every
        // option meeting `j` inside U is denied. With paths, only `P_j`'s own.
        for &t in &meeting {
            if !self.paths || (live && self.kind_ok(t, at.counts)) {
                self.deny(t, j, &mut hints);
            }
        }
        if !self.paths || live {
            hints.extend(used_up.iter().map(|&(_, h)| h));
        }
        if let Some(l) = child.lemma {
            hints.push(l);
        }
        let mut clause = at.context.to_vec();
        clause.push(-Self::lit(m));
        let mut product = None;
        if live {
            let p = match cached {
                Some(c) => c.products[index],
                None => self.product(at, j, child, &meeting, &used_up)?,
            };
            hints.push(self.out.node(p).cid);
            clause.push(p);
            product = Some(p);
        }
        Ok((product, self.out.lemma(&clause, &hints)?))
    }

    /// The options of pieces that `j` uses up, alive in the state and not meeting `j`
    /// (`P_j` denies them), each with the "at most" clause that denies it.
    fn used_up(&self, at: &At<'_>, j: u32, meeting: &[u32]) -> Vec<(u32, u32)> {
        let mut used_up = Vec::new();
        for &k in self
            .f
            .kinds_of
            .get(j as usize)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
        {
            if at.counts[k as usize] + 1 == self.f.kinds[k as usize].max {
                let used = self.used_of_kind(at.r, k);
                for &o in &self.f.kinds[k as usize].options {
                    if o != j
                        && self.inside(o, at.u)
                        && self.kind_ok(o, at.counts)
                        && meeting.binary_search(&o).is_err()
                    {
                        let mut with_j = used.clone();
                        with_j.push(j);
                        used_up.push((o, self.at_most(&with_j, o)));
                    }
                }
            }
        }
        used_up
    }

    /// Writes the product `P_j`: `j`'s members, the alive options `meeting` it and
    /// `used_up` by it denied, and the child's node.
    fn product(
        &mut self,
        at: &At<'_>,
        j: u32,
        child: &Done,
        meeting: &[u32],
        used_up: &[(u32, u32)],
    ) -> Result<i32> {
        let mut kids: Vec<i32> = self.members[j as usize]
            .iter()
            .map(|&o| Self::lit(o))
            .collect();
        for &t in meeting {
            if self.kind_ok(t, at.counts) {
                kids.extend(self.members[t as usize].iter().map(|&o| -Self::lit(o)));
            }
        }
        kids.extend(used_up.iter().map(|&(o, _)| -Self::lit(o)));
        kids.extend(child.node);
        Ok(self.out.product(&kids)?)
    }

    /// Writes the chain of sums over `products` (branch, product), innermost first: none
    /// for fewer than two.
    fn sums(&mut self, products: &[(usize, i32)], branches: &[u32], item: u32) -> Result<Vec<i32>> {
        let chain: Vec<(i32, i32)> = products
            .iter()
            .map(|&(b, p)| (p, Self::lit(self.member_on(branches[b], item))))
            .collect();
        Ok(self.out.sum_chain(&chain)?)
    }

    /// The hints of `L`: the sums' clauses, the branches' lemmas, then every option on
    /// the cell that is not a branch denied, and the cell's at-least-one clause.
    fn state_hints(
        &self,
        at: &At<'_>,
        branches: &[u32],
        sums: &[i32],
        k_lemmas: &[u32],
    ) -> Vec<u32> {
        let mut hints = Vec::new();
        for &s in sums.iter().rev() {
            let cid = self.out.node(s).cid;
            hints.push(cid + 1);
            hints.push(cid + 2);
        }
        hints.extend(k_lemmas);
        for &o in &self.f.by_cell[at.item as usize] {
            let s = self.sup_of[o as usize];
            if s == BAD {
                hints.push(self.bad_lemma[o as usize]);
            } else if branches.contains(&s) {
                continue;
            } else if !self.inside(s, at.u) {
                if self.paths {
                    self.deny_by_path(o, at.u, &mut hints);
                }
            } else {
                let k = *self.f.kinds_of[o as usize]
                    .iter()
                    .find(|&&k| at.counts[k as usize] >= self.f.kinds[k as usize].max)
                    .expect("an option inside U and not alive has a used-up piece");
                let used = self.used_of_kind(at.r, k);
                hints.push(self.at_most(&used, o));
            }
        }
        hints.push(
            self.f.cover_items[at.item as usize]
                .1
                .expect("a cell has its clause"),
        );
        hints
    }

    /// The member of super-option `j` on cell `item`.
    fn member_on(&self, j: u32, item: u32) -> u32 {
        *self.members[j as usize]
            .iter()
            .find(|&&m| self.f.cells[m as usize].contains(&item))
            .expect("an option on the cell")
    }
}
