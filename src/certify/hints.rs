//! The hints that deny or imply options inside one added clause of the certifying search:
//! through the clause "not both" of two options that meet, the chain `x_o -> x_g(o)` of an
//! orbit (forward to make its members true, backward to make them false), and a piece's
//! "at most" clauses.
//!
//! Invariant: each hint listed turns one unassigned literal false or true (or conflicts),
//! as the checker requires; callers deny each option at most once per clause.

use std::io::Write;

use super::formula::Formula;
use super::search::{has, Certifier};
use crate::error::Result;

impl<W: Write> Certifier<'_, W> {
    /// Hints that make every member of `t` false, given every member of `j` true.
    pub(super) fn deny(&self, t: u32, j: u32, hints: &mut Vec<u32>) {
        deny(
            self.f,
            &self.members[t as usize],
            &self.members[j as usize],
            &self.preimage,
            hints,
        );
    }
    /// Hints that make every member of `j` true, given member `m`.
    pub(super) fn follow(&self, m: u32, hints: &mut Vec<u32>) {
        follow(self.f, m, hints);
    }
    /// The at-most clause that denies `o` once the options `used` of its piece are chosen.
    pub(super) fn at_most(&self, used: &[u32], o: u32) -> u32 {
        let mut s: Vec<u32> = used.to_vec();
        s.push(o);
        s.sort_unstable();
        self.f.at_most[&s]
    }
    pub(super) fn used_of_kind(&self, r: &[u32], k: u32) -> Vec<u32> {
        r.iter()
            .copied()
            .filter(|&o| self.f.kinds_of[o as usize].contains(&k))
            .collect()
    }
    /// Adds `NOT x_o` for every option of an orbit that overlaps itself.
    pub fn deny_bad(&mut self) -> Result<()> {
        for k in 0..self.bad.len() {
            let o = self.bad[k];
            self.bad_lemma[o as usize] = self.out.lemma(&[-Self::lit(o)], &bad_hints(self.f, o))?;
        }
        Ok(())
    }
    /// Hints that deny option `o`, which meets a covered item, from the path's choices.
    pub(super) fn deny_by_path(&self, o: u32, u: &[u64], hints: &mut Vec<u32>) {
        let s = self.sup_of[o as usize];
        let (m, a) = self.members[s as usize]
            .iter()
            .find_map(|&m| {
                self.f.cells[m as usize]
                    .iter()
                    .find(|&&c| !has(u, c) && self.covered_by[c as usize] != u32::MAX)
                    .map(|&c| (m, self.covered_by[c as usize]))
            })
            .expect("an option meeting the covered items meets a chosen one");
        hints.push(self.f.amo_clause(a, m));
        let mut cur = m;
        while cur != o {
            let p = self.preimage[cur as usize];
            hints.push(self.f.follows[p as usize].expect("a moved option has its clause"));
            cur = p;
        }
    }
}

/// Hints that make every option of `t` false, given every option of `j` true: a "not
/// both" clause of a pair that meets, then back along `t`'s orbit (`preimage`: the option
/// `g` maps onto each), so that each hint turns one literal false.
pub(super) fn deny(f: &Formula, t: &[u32], j: &[u32], preimage: &[u32], hints: &mut Vec<u32>) {
    let (a, b) = t
        .iter()
        .flat_map(|&a| j.iter().map(move |&b| (a, b)))
        .find(|&(a, b)| f.conflict(a, b))
        .expect("options that meet share an item");
    hints.push(f.amo_clause(a, b));
    let mut cur = a;
    loop {
        let p = preimage[cur as usize];
        if p == a {
            break;
        }
        hints.push(f.follows[p as usize].expect("a moved option has its clause"));
        cur = p;
    }
}

/// Hints that make every option of `m`'s orbit true, given `m`: forward along `x_o ->
/// x_g(o)`.
pub(super) fn follow(f: &Formula, m: u32, hints: &mut Vec<u32>) {
    let mut cur = m;
    loop {
        let next = f.image[cur as usize];
        if next == m {
            break;
        }
        hints.push(f.follows[cur as usize].expect("a moved option has its clause"));
        cur = next;
    }
}

/// The hints of `NOT x_o` for an option whose orbit overlaps itself: along the orbit
/// until two of its options meet.
pub(super) fn bad_hints(f: &Formula, o: u32) -> Vec<u32> {
    let mut hints = Vec::new();
    let mut chain = vec![o];
    let mut cur = o;
    loop {
        hints.push(f.follows[cur as usize].expect("a bad option moves"));
        cur = f.image[cur as usize];
        for &earlier in &chain {
            if f.conflict(earlier, cur) {
                hints.push(f.amo_clause(earlier, cur));
                return hints;
            }
        }
        chain.push(cur);
    }
}
