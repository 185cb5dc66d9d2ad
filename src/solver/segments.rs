//! The bitset engine for matrices with a *partition*: a suffix of items (the pieces) such
//! that every option contains exactly one of them. Used for polycube puzzles, whose pieces
//! may have copies (a piece item covered exactly `count` times); the same walk
//! (`descent.rs`) and the same tree as the plain-mask search (`bits.rs`) and the DLX.
//!
//! The partition items are taken out of the masks: the options of piece `p` form one
//! segment of each level's list, and a piece's count of options is its segment's length.
//! Bedlam's masks shrink from 77 bits (two words) to its 64 cells (one word), and the
//! segment of a placed piece is skipped without a look. 32 dominoes in an 8x8 box have
//! 65 items (two words) but 64 cells (one word, the vector kernel).
//!
//! A piece with copies keeps its segment until its last copy is placed. As in the other
//! engines, only unit items are branched on (cells, and pieces with one copy), and a node
//! is dead when a piece has fewer viable options than copies still to place.
//!
//! Invariants:
//! - Items `0..cells` are the non-partition items, all unit items; `cells..cells + parts`
//!   the partition items, each covered exactly `copies` times (`min == max`).
//! - A level's list holds, segment after segment, the viable options of each piece with
//!   copies still to place, as cell masks; `segments` names exactly those pieces, in piece
//!   order, with their ranges and the copies left; `counts` holds the bit-sliced cell
//!   counts of the whole list.
//! - An option is identified by (segment, mask): only for reported solutions.

// The word loops index `0..W` on purpose: each reads as the bit operation it does on
// word w of several masks at once, and W is a constant the compiler unrolls.
#![allow(clippy::needless_range_loop)]

use super::backtrack::Branch;
use super::compact::{keep_disjoint_segments, Kernel, Segment};
use super::descent::{Levels, Path};
use super::mask::{has, set, uncoverable, Counts, Mask, OptionMap};
use crate::matrix::Matrix;

struct Level<const W: usize> {
    /// `list[..len]` is the level's list; the vector only grows, so that filling it never
    /// writes zeros first.
    list: Vec<Mask<W>>,
    len: usize,
    segments: Vec<Segment>,
    counts: Counts<W>,
    covered: Mask<W>,
}

pub struct Segmented<const W: usize> {
    cells: usize,
    parts: usize,
    cell_mask: Mask<W>,
    /// Every option as (segment, cell mask), in segment order.
    initial: Vec<(u32, Mask<W>)>,
    /// How many times each piece is placed.
    copies: Vec<u32>,
    /// Some piece is placed more than once.
    with_copies: bool,
    /// The options by anchor (piece, lowest cell): those of anchor `a` are
    /// `anchored[anchors[a]..anchors[a + 1]]`, as (cell mask, option). An anchor holds at
    /// most the piece's orientations, so a lookup scans a handful of masks; a hash lookup
    /// per reported option was a tenth of the 8x8 dominoes' run.
    anchors: Vec<u32>,
    anchored: Vec<(Mask<W>, u32)>,
    key_of: Vec<(u32, Mask<W>)>,
    levels: Vec<Level<W>>,
    path: Path<(u32, Mask<W>)>,
    kernel: Kernel,
}

/// The number of non-partition items, when the matrix has a partition suffix as the
/// module docs describe: every item is covered an exact number of times, and only
/// partition items (pieces) more than once.
pub fn partition(matrix: &Matrix) -> Option<usize> {
    let n = matrix.num_items();
    if n == 0
        || matrix.num_options() == 0
        || matrix.items().iter().any(|i| i.min != i.max || i.max == 0)
    {
        return None;
    }
    // Every option's last item is a partition item and its second-to-last is not.
    let mut cells = 0;
    let mut lowest_part = n;
    for o in 0..matrix.num_options() as u32 {
        let items = matrix.option_items(o);
        let last = *items.last()? as usize;
        lowest_part = lowest_part.min(last);
        if items.len() >= 2 {
            cells = cells.max(items[items.len() - 2] as usize + 1);
        }
    }
    let cells_unit = matrix.items()[..cells.min(n)].iter().all(|i| i.max == 1);
    (cells <= lowest_part && cells < n && cells > 0 && cells_unit).then_some(cells)
}

/// The anchor of an option of `piece` with cell mask `m`: (piece, lowest cell), with
/// `cells` standing for an option that covers no cell.
#[inline]
fn anchor<const W: usize>(cells: usize, piece: u32, m: &Mask<W>) -> usize {
    let lowest = (0..W)
        .find(|&w| m[w] != 0)
        .map_or(cells, |w| w * 64 + m[w].trailing_zeros() as usize);
    piece as usize * (cells + 1) + lowest
}

impl<const W: usize> Segmented<W> {
    /// `None` when two options of one piece cover the same cells.
    pub fn new(matrix: &Matrix, cells: usize) -> Option<Self> {
        let parts = matrix.num_items() - cells;
        assert!(cells <= W * 64);
        let mut initial = Vec::with_capacity(matrix.num_options());
        let mut option_of =
            OptionMap::with_capacity_and_hasher(matrix.num_options(), Default::default());
        // (Only to refuse two options with the same key.)
        for o in 0..matrix.num_options() as u32 {
            let items = matrix.option_items(o);
            let mut m = [0u64; W];
            for &i in &items[..items.len() - 1] {
                set(&mut m, i);
            }
            let segment = items[items.len() - 1] - cells as u32;
            if option_of.insert((segment, m), o).is_some() {
                return None;
            }
            initial.push((segment, m));
        }
        let key_of = initial.clone();
        let anchor = |&(piece, m): &(u32, Mask<W>)| anchor::<W>(cells, piece, &m);
        let mut anchors = vec![0u32; parts * (cells + 1) + 1];
        for key in &key_of {
            anchors[anchor(key) + 1] += 1;
        }
        for a in 1..anchors.len() {
            anchors[a] += anchors[a - 1];
        }
        let mut anchored = vec![([0u64; W], 0); key_of.len()];
        let mut next = anchors.clone();
        for (o, key) in key_of.iter().enumerate() {
            let a = anchor(key);
            anchored[next[a] as usize] = (key.1, o as u32);
            next[a] += 1;
        }
        initial.sort_by_key(|&(s, _)| s); // stable: keeps option order within a segment
        let mut cell_mask = [0u64; W];
        for i in 0..cells as u32 {
            set(&mut cell_mask, i);
        }
        Some(Segmented {
            cells,
            parts,
            cell_mask,
            initial,
            copies: matrix.items()[cells..].iter().map(|i| i.max).collect(),
            with_copies: matrix.items()[cells..].iter().any(|i| i.max > 1),
            anchors,
            anchored,
            key_of,
            levels: Vec::new(),
            path: Path::default(),
            kernel: Kernel::detect(),
        })
    }

    /// Makes sure level `d` exists: a check per node, the growth out of line.
    #[inline]
    fn level(&mut self, d: usize) {
        if self.levels.len() <= d {
            self.grow(d);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, d: usize) {
        while self.levels.len() <= d {
            self.levels.push(Level {
                list: Vec::new(),
                len: 0,
                segments: Vec::with_capacity(self.parts),
                counts: Counts::new(),
                covered: [0; W],
            });
        }
    }
}

impl<const W: usize> Levels for Segmented<W> {
    type Key = (u32, Mask<W>);

    fn path(&mut self) -> &mut Path<(u32, Mask<W>)> {
        &mut self.path
    }

    fn nodes(&self) -> u64 {
        self.path.nodes
    }

    fn describe(&self) -> String {
        format!(
            "piece segments, cell masks of {W} word(s), {} list compaction",
            self.kernel.effective::<W>().name()
        )
    }

    fn key(&self, o: u32) -> (u32, Mask<W>) {
        self.key_of[o as usize]
    }

    fn option(&self, key: &(u32, Mask<W>)) -> u32 {
        let a = anchor::<W>(self.cells, key.0, &key.1);
        let range = self.anchors[a] as usize..self.anchors[a + 1] as usize;
        self.anchored[range]
            .iter()
            .find(|(m, _)| *m == key.1)
            .expect("a key of this matrix")
            .1
    }

    fn reset(&mut self) {
        self.level(0);
        let level = &mut self.levels[0];
        level.list.clear();
        level.segments.clear();
        level
            .segments
            .extend((0..self.parts as u32).map(|piece| Segment {
                piece,
                start: 0,
                end: 0,
                copies: self.copies[piece as usize],
            }));
        for (k, &(s, m)) in self.initial.iter().enumerate() {
            level.list.push(m);
            level.segments[s as usize].end = k as u32 + 1;
        }
        // Pieces with no option at all keep an empty segment at the right place.
        for s in 1..self.parts {
            let end = level.segments[s].end.max(level.segments[s - 1].end);
            level.segments[s].end = end;
            level.segments[s].start = level.segments[s - 1].end;
        }
        level.len = level.list.len();
        level.covered = [0; W];
        level.counts.count(&level.list[..level.len]);
    }

    /// Fills level `d + 1` after choosing the option (`segment`, `chosen`); false when
    /// the child is dead because a cell has no option left or a piece fewer options than
    /// copies to place.
    fn descend(&mut self, d: usize, (segment, chosen): (u32, Mask<W>)) -> bool {
        self.level(d + 1);
        let (lower, upper) = self.levels.split_at_mut(d + 1);
        let (parent, child) = (&lower[d], &mut upper[0]);
        for w in 0..W {
            child.covered[w] = parent.covered[w] | chosen[w];
        }
        child.segments.clear();
        if self.with_copies {
            for s in &parent.segments {
                if s.piece != segment {
                    child.segments.push(*s);
                } else if s.copies > 1 {
                    child.segments.push(Segment {
                        copies: s.copies - 1,
                        ..*s
                    });
                }
            }
        } else {
            child
                .segments
                .extend(parent.segments.iter().filter(|s| s.piece != segment));
        }
        let covered = child.covered;
        if child.list.len() < parent.len {
            child.list.resize(parent.len, [0; W]);
        }
        let mut union = [0u64; W];
        let (len, short_piece) = keep_disjoint_segments(
            self.kernel,
            &parent.list[..parent.len],
            &mut child.list,
            &mut child.segments,
            &covered,
            &mut union,
        );
        child.len = len;
        if short_piece || uncoverable(&self.cell_mask, &covered, &union) {
            return false;
        }
        child.counts.count(&child.list[..len]);
        true
    }

    /// The item to branch on, in the matrix's numbering: fewest options, ties to the
    /// item listed last (pieces come after cells), as in the other engines. Pieces with
    /// copies are not branched on; they only make a node dead (too few options), and a
    /// node with every cell covered is a solution only when no copies are left.
    fn choose(&self, d: usize) -> Branch<u32> {
        let level = &self.levels[d];
        let mut piece: Option<(u32, u32)> = None;
        let mut copies_left = false;
        for s in &level.segments {
            let n = s.end - s.start;
            // (A test of a constant per engine: puzzles without copies, such as Bedlam,
            // skip it.)
            if self.with_copies {
                if n < s.copies {
                    return Branch::Dead;
                }
                // A piece placed more than once is never branched on, even at its last
                // copy: its item is not a unit item, and the DLX does not branch on it.
                if self.copies[s.piece as usize] > 1 {
                    copies_left = true;
                    continue;
                }
            }
            if piece.is_none_or(|(_, best)| n <= best) {
                piece = Some((s.piece, n));
            }
        }
        let mut open = [0u64; W];
        let mut any = 0;
        for w in 0..W {
            open[w] = self.cell_mask[w] & !level.covered[w];
            any |= open[w];
        }
        let cell = (any != 0).then(|| level.counts.least(open));
        let (item, count) = match (cell, piece) {
            (None, None) if copies_left => return Branch::Dead,
            (None, None) => return Branch::Solution,
            (Some(c), None) => c,
            (None, Some((s, n))) => (self.cells as u32 + s, n),
            (Some((c, cn)), Some((s, n))) => {
                if n <= cn {
                    (self.cells as u32 + s, n)
                } else {
                    (c, cn)
                }
            }
        };
        if count == 0 {
            Branch::Dead
        } else {
            Branch::On(item)
        }
    }

    fn collect(&self, d: usize, item: u32, into: &mut Vec<(u32, Mask<W>)>) {
        let cells = self.cells;
        let level = &self.levels[d];
        if item as usize >= cells {
            let piece = (item as usize - cells) as u32;
            let s = level.segments.iter().find(|s| s.piece == piece);
            let s = s.expect("the branch piece is not placed");
            let (a, b) = (s.start as usize, s.end as usize);
            into.extend(level.list[a..b].iter().map(|&m| (piece, m)));
            return;
        }
        for s in &level.segments {
            for &m in &level.list[s.start as usize..s.end as usize] {
                if has(&m, item) {
                    into.push((s.piece, m));
                }
            }
        }
    }
}
