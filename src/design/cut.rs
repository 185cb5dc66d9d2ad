//! A cut of a box into pieces, and the moves of the design search that keep it a cut.
//!
//! Invariants of a [`Cut`] (checked by [`Cut::check`], kept by every [`Cut::moved`]):
//! - every cell of the box belongs to exactly one piece (`owner[cell]`), and every piece
//!   owns at least one cell;
//! - every piece is face-connected;
//! - every piece's size is within the request's bounds, except a piece that was already
//!   out of them (a `--from` file's), which a move never takes further out;
//! - a frozen piece (`--keep`) never gains or loses a cell.
//!
//! A move either passes one boundary cell to a face-neighbouring piece, swaps two
//! face-neighbouring cells of two pieces, or chains two passes (a cell to a neighbouring
//! piece, and a cell of that piece on to a third piece or back to the first). A passed
//! cell touches its new piece, so that piece stays connected; the piece it leaves, both
//! pieces of a swap and the three of a chain are checked.
//!
//! Why chains: with tight sizes (4x4x2 in 8 pieces of 3 to 5 cells, mean 4) and no two
//! pieces of one shape, most single passes either push a piece out of the sizes or give
//! it the shape of another piece, and a swap of touching cells seldom keeps both pieces
//! connected; the search then walked a small plateau and stalled at 2 or 3 solutions for
//! minutes. A chain passes through a piece at its size bound, and with its last cell back
//! to the first piece it reshapes two pieces while keeping both sizes.

use rand_pcg::rand_core::Rng;
use rand_pcg::Pcg64Mcg;

use crate::geometry::{max_corner, Cell, Isometry, Shape};

/// A cut of the box `size` into `pieces` pieces (see the module invariants).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cut {
    /// The box, in cells along x, y and z.
    pub(crate) size: [usize; 3],
    /// The piece of each cell, cells numbered x fastest, then y, then z.
    pub(crate) owner: Vec<usize>,
    /// How many pieces.
    pub(crate) pieces: usize,
}

/// A change of a cut: see the module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Move {
    /// The cell passes to the piece.
    Pass { cell: usize, to: usize },
    /// The two face-neighbouring cells of two pieces trade owners.
    Swap { a: usize, b: usize },
    /// Cell `a` passes to piece `via` (which it touches), then cell `b` of `via` passes
    /// on to piece `to` (which it touches once `a` has passed): both at once, so that
    /// `via`'s size never changes, and no size changes when `to` is `a`'s first piece.
    Chain {
        a: usize,
        via: usize,
        b: usize,
        to: usize,
    },
}

impl Cut {
    /// The cut whose piece `k` is `pieces[k]` (cells in box coordinates); `None` unless
    /// they cover the box once.
    pub(crate) fn new(size: [usize; 3], pieces: &[Vec<Cell>]) -> Option<Cut> {
        let volume = size.iter().product();
        let mut owner = vec![usize::MAX; volume];
        for (k, cells) in pieces.iter().enumerate() {
            for &c in cells {
                let inside = (0..3).all(|a| c[a] >= 0 && (c[a] as usize) < size[a]);
                if !inside {
                    return None;
                }
                let i = c[0] as usize + size[0] * (c[1] as usize + size[1] * c[2] as usize);
                if owner[i] != usize::MAX {
                    return None;
                }
                owner[i] = k;
            }
        }
        owner.iter().all(|&o| o != usize::MAX).then_some(Cut {
            size,
            owner,
            pieces: pieces.len(),
        })
    }

    /// The coordinates of cell `i`.
    pub(crate) fn cell(&self, i: usize) -> Cell {
        let [x, y, _] = self.size;
        [(i % x) as i32, ((i / x) % y) as i32, (i / (x * y)) as i32]
    }

    /// The face-neighbours of cell `i` inside the box.
    pub(crate) fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let size = self.size;
        let c = self.cell(i);
        let stride = [1, size[0], size[0] * size[1]];
        (0..6).filter_map(move |d| {
            let a = d / 2;
            if d % 2 == 0 {
                (c[a] > 0).then(|| i - stride[a])
            } else {
                ((c[a] as usize) + 1 < size[a]).then(|| i + stride[a])
            }
        })
    }

    /// The cells of every piece, in box coordinates, piece by piece.
    pub(crate) fn pieces(&self) -> Vec<Vec<Cell>> {
        let mut out = vec![Vec::new(); self.pieces];
        for (i, &k) in self.owner.iter().enumerate() {
            out[k].push(self.cell(i));
        }
        out
    }

    /// The size of every piece.
    pub(crate) fn sizes(&self) -> Vec<usize> {
        let mut out = vec![0; self.pieces];
        for &k in &self.owner {
            out[k] += 1;
        }
        out
    }

    /// Whether piece `k`'s cells are face-connected.
    fn connected(&self, k: usize) -> bool {
        let Some(first) = self.owner.iter().position(|&o| o == k) else {
            return false;
        };
        let mut seen = vec![false; self.owner.len()];
        seen[first] = true;
        let mut stack = vec![first];
        let mut reached = 1;
        while let Some(i) = stack.pop() {
            for n in self.neighbours(i) {
                if self.owner[n] == k && !seen[n] {
                    seen[n] = true;
                    reached += 1;
                    stack.push(n);
                }
            }
        }
        reached == self.owner.iter().filter(|&&o| o == k).count()
    }

    /// The invariants of the module doc for sizes `lo..=hi` (frozen pieces aside): the
    /// first one broken, in words. For the tests: the search keeps them by construction.
    #[cfg(test)]
    pub(crate) fn check(&self, sizes: (usize, usize)) -> Result<(), String> {
        if self.owner.len() != self.size.iter().product::<usize>() {
            return Err("the cut does not cover the box".into());
        }
        if let Some(i) = self.owner.iter().position(|&k| k >= self.pieces) {
            return Err(format!("cell {i} has no piece"));
        }
        for (k, &n) in self.sizes().iter().enumerate() {
            if n < sizes.0 || n > sizes.1 {
                return Err(format!("piece {k} has {n} cells"));
            }
            if !self.connected(k) {
                return Err(format!("piece {k} is not connected"));
            }
        }
        Ok(())
    }

    /// How many ways each piece fits in the box: its distinct orientations under the
    /// rotations, times the positions of each. A piece that fits many ways is the likely
    /// cause of many solutions, so moves prefer it.
    pub(crate) fn placements(&self) -> Vec<usize> {
        self.pieces()
            .into_iter()
            .map(|cells| {
                Shape::new(cells)
                    .orientations(Isometry::rotations())
                    .iter()
                    .map(|o| {
                        let hi = max_corner(o.cells()).unwrap_or([0, 0, 0]);
                        (0..3)
                            .map(|a| self.size[a].saturating_sub(hi[a] as usize))
                            .product::<usize>()
                    })
                    .sum()
            })
            .collect()
    }

    /// A random move whose cells lie on a contact of two pieces, neither frozen: its
    /// first cell's piece drawn with probability proportional to `weight` (every piece
    /// alike where the weights are 0); `None` when no two unfrozen pieces touch.
    pub(crate) fn random_move(
        &self,
        rng: &mut Pcg64Mcg,
        frozen: &[bool],
        weight: &[usize],
    ) -> Option<Move> {
        let total: usize = (0..self.pieces)
            .filter(|&k| !frozen[k])
            .map(|k| weight[k])
            .sum();
        for _ in 0..1000 {
            let a = if total == 0 {
                below(rng, self.owner.len())
            } else {
                // A piece by weight, then one of its cells.
                let mut r = below(rng, total);
                let k = (0..self.pieces)
                    .filter(|&k| !frozen[k])
                    .find(|&k| {
                        let hit = r < weight[k];
                        r = r.saturating_sub(weight[k]);
                        hit
                    })
                    .unwrap_or(0);
                let cells: Vec<usize> = (0..self.owner.len())
                    .filter(|&i| self.owner[i] == k)
                    .collect();
                cells[below(rng, cells.len())]
            };
            if frozen[self.owner[a]] {
                continue;
            }
            let around: Vec<usize> = self
                .neighbours(a)
                .filter(|&n| self.owner[n] != self.owner[a] && !frozen[self.owner[n]])
                .collect();
            if around.is_empty() {
                continue;
            }
            let b = around[below(rng, around.len())];
            return Some(match rng.next_u64() % 3 {
                0 => Move::Pass {
                    cell: a,
                    to: self.owner[b],
                },
                1 => Move::Swap { a, b },
                _ => match self.onward(rng, frozen, a, self.owner[b]) {
                    Some((c, to)) => Move::Chain {
                        a,
                        via: self.owner[b],
                        b: c,
                        to,
                    },
                    None => Move::Swap { a, b },
                },
            });
        }
        None
    }

    /// The second pass of a chain whose first passes cell `a` to piece `via`: a cell of
    /// `via` (not `a`) and an unfrozen piece it then touches; half the time, where there
    /// is one, a pair back to `a`'s piece (no size changes: 4x4x2 in 8 pieces of 3 to 5
    /// cells, seeds 1 to 5, went from 15-53 s to 10-52 s, seeds 1 to 3 all under 20 s),
    /// else drawn among all pairs; `None` when there is none.
    fn onward(
        &self,
        rng: &mut Pcg64Mcg,
        frozen: &[bool],
        a: usize,
        via: usize,
    ) -> Option<(usize, usize)> {
        let owner = |i: usize| if i == a { via } else { self.owner[i] };
        let pairs: Vec<(usize, usize)> = (0..self.owner.len())
            .filter(|&i| i != a && self.owner[i] == via)
            .flat_map(|i| self.neighbours(i).map(move |n| (i, n)))
            .filter(|&(_, n)| owner(n) != via && !frozen[owner(n)])
            .map(|(i, n)| (i, owner(n)))
            .collect();
        let back: Vec<(usize, usize)> = pairs
            .iter()
            .copied()
            .filter(|&(_, to)| to == self.owner[a])
            .collect();
        if !back.is_empty() && rng.next_u64() % 2 == 0 {
            return Some(back[below(rng, back.len())]);
        }
        (!pairs.is_empty()).then(|| pairs[below(rng, pairs.len())])
    }

    /// The cut after `m`, or `None` when `m` would break an invariant: a piece out of
    /// `lo..=hi` cells (further out than it was), disconnected or emptied, a frozen piece
    /// changed, a pass to a piece the cell does not touch.
    pub(crate) fn moved(&self, m: Move, sizes: (usize, usize), frozen: &[bool]) -> Option<Cut> {
        let mut next = self.clone();
        let touched = match m {
            Move::Pass { cell, to } => {
                let from = self.owner[cell];
                if from == to
                    || frozen[from]
                    || frozen[to]
                    || !self.neighbours(cell).any(|n| self.owner[n] == to)
                {
                    return None;
                }
                let size = self.sizes();
                // A piece may not leave the bounds, nor go further out of them.
                if size[from] <= sizes.0 || size[to] >= sizes.1 {
                    return None;
                }
                next.owner[cell] = to;
                [from, to, to]
            }
            Move::Swap { a, b } => {
                let (p, q) = (self.owner[a], self.owner[b]);
                if p == q || frozen[p] || frozen[q] || !self.neighbours(a).any(|n| n == b) {
                    return None;
                }
                next.owner.swap(a, b);
                [p, q, q]
            }
            Move::Chain { a, via, b, to } => {
                let from = self.owner[a];
                let fits = from != via
                    && b != a
                    && self.owner[b] == via
                    && to != via
                    && ![from, via, to].iter().any(|&k| frozen[k])
                    && self.neighbours(a).any(|n| self.owner[n] == via);
                if !fits {
                    return None;
                }
                next.owner[a] = via;
                if !self.neighbours(b).any(|n| next.owner[n] == to) {
                    return None;
                }
                let size = self.sizes();
                // As a pass from `from` to `to`, unless they are one piece.
                if from != to && (size[from] <= sizes.0 || size[to] >= sizes.1) {
                    return None;
                }
                next.owner[b] = to;
                [from, via, to]
            }
        };
        touched.iter().all(|&k| next.connected(k)).then_some(next)
    }
}

/// A number below `n`, for `n` at least 1.
pub(crate) fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    // The modulo's bias is below 2^-40 for n under 2^24: immaterial here.
    (rng.next_u64() % n as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand_pcg::rand_core::SeedableRng;

    /// A cut of 4x4x2 into 8 rows of 4 cells: piece k owns the row y = k % 4, z = k / 4.
    fn rows() -> Cut {
        let size = [4, 4, 2];
        let pieces: Vec<Vec<Cell>> = (0..8)
            .map(|k| (0..4).map(|x| [x, k % 4, k / 4]).collect())
            .collect();
        Cut::new(size, &pieces).unwrap()
    }

    #[test]
    fn a_new_cut_checks_its_cells() {
        let cut = rows();
        assert_eq!(cut.check((4, 4)), Ok(()));
        assert_eq!(cut.sizes(), vec![4; 8]);
        // A cell twice, a cell outside, a cell missing.
        let mut pieces = cut.pieces();
        pieces[0].push([0, 1, 0]);
        assert!(Cut::new([4, 4, 2], &pieces).is_none());
        let mut pieces = cut.pieces();
        pieces[0][0] = [4, 0, 0];
        assert!(Cut::new([4, 4, 2], &pieces).is_none());
        let mut pieces = cut.pieces();
        pieces[0].pop();
        assert!(Cut::new([4, 4, 2], &pieces).is_none());
    }

    /// Each kind of refusal: sizes, connection, frozen pieces, cells that do not touch.
    #[test]
    fn moves_that_break_the_cut_are_refused() {
        let cut = rows();
        let free = vec![false; 8];
        // Row 0's end cell (3,0,0) to row 1: sizes 3 and 5.
        let pass = Move::Pass { cell: 3, to: 1 };
        assert!(cut.moved(pass, (4, 4), &free).is_none());
        let next = cut.moved(pass, (3, 5), &free).unwrap();
        assert_eq!(next.sizes()[..2], [3, 5]);
        assert_eq!(next.check((3, 5)), Ok(()));
        // Row 0's middle cell (1,0,0) would split row 0.
        assert!(cut
            .moved(Move::Pass { cell: 1, to: 1 }, (3, 5), &free)
            .is_none());
        // Not touching: row 0 to row 2.
        assert!(cut
            .moved(Move::Pass { cell: 3, to: 2 }, (3, 5), &free)
            .is_none());
        // A swap between two rows splits both; in an L and a cell beside it, it does not.
        assert!(cut
            .moved(Move::Swap { a: 0, b: 4 }, (4, 4), &free)
            .is_none());
        let l = Cut::new(
            [2, 2, 1],
            &[vec![[0, 0, 0], [1, 0, 0], [0, 1, 0]], vec![[1, 1, 0]]],
        );
        let l = l.unwrap();
        let swap = l
            .moved(Move::Swap { a: 1, b: 3 }, (1, 3), &[false; 2])
            .unwrap();
        assert_eq!(swap.owner, vec![0, 1, 0, 0]);
        assert_eq!(swap.check((1, 3)), Ok(()));
        // A chain: row 0's end cell to row 1, row 1's first cell (0,1,0) back to row 0
        // keeps both sizes, so the tightest bounds allow it; on to row 2 it is a pass
        // from row 0 to row 2 with row 1 in between at its bound.
        let chain = |a, via, b, to| Move::Chain { a, via, b, to };
        let back = chain(3, 1, 4, 0);
        let next = cut.moved(back, (4, 4), &free).unwrap();
        assert_eq!(next.owner[..8], [0, 0, 0, 1, 0, 1, 1, 1]);
        assert_eq!(next.check((4, 4)), Ok(()));
        assert!(cut.moved(chain(3, 1, 4, 2), (4, 4), &free).is_none());
        let next = cut.moved(chain(3, 1, 4, 2), (3, 5), &free).unwrap();
        assert_eq!(next.sizes()[..3], [3, 4, 5]);
        assert_eq!(next.check((3, 5)), Ok(()));
        // The same cell twice, a chain that ends in the piece it passes through, a cell
        // that does not touch its new piece (row 1's (1,1,0) and row 6, at y = 2, z = 1).
        for refused in [chain(3, 1, 3, 0), chain(3, 1, 4, 1), chain(3, 1, 5, 6)] {
            assert!(cut.moved(refused, (3, 5), &free).is_none(), "{refused:?}");
        }
        let mut frozen = free.clone();
        frozen[1] = true;
        assert!(cut.moved(back, (4, 4), &frozen).is_none());
        assert!(cut.moved(pass, (3, 5), &frozen).is_none());
        assert!(cut
            .moved(Move::Swap { a: 0, b: 4 }, (4, 4), &frozen)
            .is_none());
    }

    proptest! {
        /// Any sequence of random moves, each applied when the cut accepts it, leaves a
        /// valid cut: the box covered once, pieces connected and within the sizes, frozen
        /// pieces unchanged.
        #[test]
        #[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
        fn random_moves_keep_a_valid_cut(seed in any::<u64>(), steps in 1usize..300) {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut cut = rows();
            let mut frozen = vec![false; 8];
            frozen[(seed % 8) as usize] = seed % 3 == 0;
            let sizes = (2, 6);
            let kept: Vec<Vec<Cell>> = cut.pieces();
            for _ in 0..steps {
                let weight = if seed % 2 == 0 { cut.placements() } else { vec![0; 8] };
                let m = cut.random_move(&mut rng, &frozen, &weight).unwrap();
                if let Some(next) = cut.moved(m, sizes, &frozen) {
                    cut = next;
                    prop_assert_eq!(cut.check(sizes), Ok(()));
                }
            }
            let now = cut.pieces();
            for k in (0..8).filter(|&k| frozen[k]) {
                prop_assert_eq!(&now[k], &kept[k]);
            }
        }
    }
}
