//! A position's context as two chains of products, so that a layer's context is one
//! literal per position instead of one per option.
//!
//! Where many options pass through one position (the pieces of a puzzle without copies,
//! each an item that every one of its placements holds; the cells of Soma, about a
//! hundred placements each), listing the options a state's context denies costs hundreds
//! of literals in every lemma. Instead, for each position `p` with the starts
//! `s_0 < s_1 < ... < s_{k-1}` of the super-options through it:
//!
//! ```text
//! early[i] = AND(early[i-1], NOT x_m for every member m of a super-option through p starting at s_i)
//! late[i]  = AND(NOT x_m for ... starting at s_i, late[i+1])
//! ```
//!
//! `early[i]` says that nothing through `p` that starts at `s_i` or before is chosen, and
//! `late[i]` the same of `s_i` and after. A state at layer `l` that leaves `p` free needs
//! the first (the last `early` before `l`), one that covers it the second (the first
//! `late` at or after `l`). The products are decomposable (each option once), defined
//! before the search and never part of the root's graph; passing from layer `l` to
//! `l + 1` takes one hint per chain that has a start at `l`.
//!
//! Invariant: `early` and `late` have one node per start; node numbers are written
//! children first.

use std::io::{self, Write};

use super::out::Out;

/// The two chains of one position.
pub(super) struct Chain {
    /// The starts of the super-options through the position, increasing.
    pub starts: Vec<u32>,
    /// Per start: the super-options through the position that start there.
    pub sups: Vec<Vec<u32>>,
    pub early: Vec<i32>,
    pub late: Vec<i32>,
}

impl Chain {
    /// Writes the chains of a position: `through` its super-options, `first` each one's
    /// start, `members` each one's options (variable `o + 1` is option `o`).
    pub fn write<W: Write>(
        out: &mut Out<W>,
        through: &[u32],
        first: impl Fn(u32) -> u32,
        members: impl Fn(u32) -> Vec<u32>,
    ) -> io::Result<Chain> {
        let mut by_start: Vec<(u32, u32)> = through.iter().map(|&s| (first(s), s)).collect();
        by_start.sort_unstable();
        let mut starts: Vec<u32> = Vec::new();
        let mut sups: Vec<Vec<u32>> = Vec::new();
        for (start, s) in by_start {
            if starts.last() != Some(&start) {
                starts.push(start);
                sups.push(Vec::new());
            }
            sups.last_mut().expect("a start").push(s);
        }
        let denied = |i: usize| -> Vec<i32> {
            sups[i]
                .iter()
                .flat_map(|&s| members(s))
                .map(|m| -(m as i32 + 1))
                .collect()
        };
        let k = starts.len();
        let mut early = Vec::with_capacity(k);
        for i in 0..k {
            let mut kids: Vec<i32> = early.last().copied().into_iter().collect();
            kids.extend(denied(i));
            early.push(out.product(&kids)?);
        }
        let mut late = vec![0; k];
        for i in (0..k).rev() {
            let mut kids = denied(i);
            if i + 1 < k {
                kids.push(late[i + 1]);
            }
            late[i] = out.product(&kids)?;
        }
        Ok(Chain {
            starts,
            sups,
            early,
            late,
        })
    }

    /// The index of the last `early` node before layer `l` (none before the first start).
    pub fn early_at(&self, l: u32) -> Option<usize> {
        self.starts.partition_point(|&s| s < l).checked_sub(1)
    }

    /// The index of the first `late` node at or after layer `l` (none past the last start).
    pub fn late_at(&self, l: u32) -> Option<usize> {
        let i = self.starts.partition_point(|&s| s < l);
        (i < self.starts.len()).then_some(i)
    }
}
