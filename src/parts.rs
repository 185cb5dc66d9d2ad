//! Parts: one deterministic split of a search into numbered pieces, so that a run can
//! be resumed (a checkpoint lists the finished subproblems) or spread over machines
//! (the command line's `--part K/N`, added up by `merge`).
//!
//! The split: the native search near the root, breadth first, is cut into
//! *subproblems*, prefixes of chosen options, until there are at least
//! [`Split::wanted`] of them. Every distinct solution extends exactly one prefix, so the
//! subproblems' counts add up to the whole count. Part `K` of `N` is every subproblem
//! whose index is `K - 1` modulo `N`: dealt round-robin over many more subproblems than
//! parts, so that parts take about as long as each other.
//!
//! Invariants:
//! - The split depends only on the compiled matrix, the symmetry reduction and `N`, never
//!   on the engine, the thread count or the machine: it is always made by the same
//!   native search (`solver::split::subproblems`), which is deterministic.
//! - The fingerprint is a hash of everything the split depends on, and of the split
//!   itself: two runs with the same fingerprint count the same subproblems. It is a
//!   fixed 64-bit FNV-1a over a byte encoding that does not depend on the platform.

use crate::matrix::Matrix;
pub use crate::subproblems::Step;
use crate::symmetry::Reduction;

/// A search cut into subproblems and dealt into `parts` parts.
#[derive(Clone, Debug)]
pub struct Split {
    /// Prefixes, as options of the original matrix (what SAT assumptions and DIMACS unit
    /// clauses name).
    subproblems: Vec<Vec<u32>>,
    parts: usize,
    fingerprint: u64,
}

impl Split {
    /// The most parts a split has: more would leave parts without a subproblem.
    pub const MOST_PARTS: usize = 1 << 16;

    /// How many subproblems a split into `parts` parts aims for: many per part, so that
    /// the round-robin deal evens out the parts' times, and at least 1,024 so that a
    /// checkpoint of a whole run is written often.
    pub fn wanted(parts: usize) -> usize {
        (64 * parts).max(1024)
    }

    /// Splits the reduced search of `matrix` (`mode` names the symmetry mode) into
    /// subproblems dealt into `parts` parts.
    ///
    /// # Panics
    ///
    /// If `parts` is 0 or above 65,536.
    pub(crate) fn new(matrix: &Matrix, reduction: &Reduction, mode: &str, parts: usize) -> Split {
        assert!((1..=Split::MOST_PARTS).contains(&parts));
        let subproblems = crate::solver::split::subproblems(reduction, Split::wanted(parts));
        let mut h = Fnv::new();
        h.bytes(b"polycover split 1");
        h.bytes(mode.as_bytes());
        h.number(parts as u64);
        h.number(matrix.items().len() as u64);
        for item in matrix.items() {
            h.number(item.min as u64);
            h.number(item.max as u64);
        }
        h.number(matrix.num_options() as u64);
        for o in 0..matrix.num_options() {
            let items = matrix.option_items(o as u32);
            h.number(items.len() as u64);
            for &i in items {
                h.number(i as u64);
            }
        }
        h.number(reduction.kept().len() as u64);
        for &o in reduction.kept() {
            h.number(o as u64);
        }
        h.number(reduction.group().order() as u64);
        h.number(subproblems.len() as u64);
        for p in &subproblems {
            h.number(p.len() as u64);
            for &o in p {
                h.number(o as u64);
            }
        }
        Split {
            subproblems,
            parts,
            fingerprint: h.finish(),
        }
    }

    /// The fingerprint as it is printed: 16 hexadecimal digits.
    pub fn fingerprint(&self) -> String {
        format!("{:016x}", self.fingerprint)
    }

    /// How many parts the subproblems are dealt into (`N` of `--part K/N`).
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// How many subproblems the search was cut into, over all parts.
    pub fn len(&self) -> usize {
        self.subproblems.len()
    }

    /// Whether there are no subproblems, which means the reduced matrix has no solution.
    pub fn is_empty(&self) -> bool {
        self.subproblems.is_empty()
    }

    /// Subproblem `j`'s prefix, as options of the original matrix.
    pub fn prefix(&self, j: usize) -> &[u32] {
        &self.subproblems[j]
    }

    /// The subproblems of part `k` (from 1), in search order.
    ///
    /// # Panics
    ///
    /// If `k` is 0 or above [`Split::parts`].
    pub fn part(&self, k: usize) -> Vec<usize> {
        assert!((1..=self.parts).contains(&k));
        (k - 1..self.subproblems.len())
            .step_by(self.parts)
            .collect()
    }
}

/// 64-bit FNV-1a: small, fixed, and the same on every platform (std's hashers are not
/// guaranteed to stay the same between Rust versions).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }

    fn number(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fnv_hash_is_the_published_one() {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c; ours adds a separator byte after it.
        let mut h = Fnv::new();
        for &b in b"a" {
            h.0 ^= b as u64;
            h.0 = h.0.wrapping_mul(0x0100_0000_01b3);
        }
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    }
}
