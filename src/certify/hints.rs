//! The hints that deny or imply options inside one added clause of the certifying search:
//! through the clause "not both" of two options that meet, the chain `x_o -> x_g(o)` of an
//! orbit (forward to make its members true, backward to make them false), and a piece's
//! "at most" clauses.
//!
//! Invariant: each hint listed turns one unassigned literal false or true (or conflicts),
//! as the checker requires; callers deny each option at most once per clause.

use std::io::Write;

use super::search::{has, Certifier};
use crate::error::Result;

impl<W: Write> Certifier<'_, W> {
    /// Hints that make every member of `t` false, given every member of `j` true.
    pub(super) fn deny(&self, t: u32, j: u32, hints: &mut Vec<u32>) {
        let (a, b) = self.members[t as usize]
            .iter()
            .flat_map(|&a| self.members[j as usize].iter().map(move |&b| (a, b)))
            .find(|&(a, b)| self.f.conflict(a, b))
            .expect("options that meet share an item");
        hints.push(self.f.amo_clause(a, b));
        let mut cur = a;
        loop {
            let p = self.preimage[cur as usize];
            if p == a {
                break;
            }
            hints.push(self.f.follows[p as usize].expect("a moved option has its clause"));
            cur = p;
        }
    }
    /// Hints that make every member of `j` true, given member `m`.
    pub(super) fn follow(&self, m: u32, hints: &mut Vec<u32>) {
        let mut cur = m;
        loop {
            let next = self.f.image[cur as usize];
            if next == m {
                break;
            }
            hints.push(self.f.follows[cur as usize].expect("a moved option has its clause"));
            cur = next;
        }
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
            let mut hints = Vec::new();
            let mut chain = vec![o];
            let mut cur = o;
            'walk: loop {
                hints.push(self.f.follows[cur as usize].expect("a bad option moves"));
                cur = self.f.image[cur as usize];
                for &earlier in &chain {
                    if self.f.conflict(earlier, cur) {
                        hints.push(self.f.amo_clause(earlier, cur));
                        break 'walk;
                    }
                }
                chain.push(cur);
            }
            self.bad_lemma[o as usize] = self.out.lemma(&[-Self::lit(o)], &hints)?;
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
