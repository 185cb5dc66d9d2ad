//! Polycube packing: pieces made of unit cubes, packed into a target set of cells.
//!
//! Invariants of a parsed [`Polycube`]:
//! - the target is a non-empty set of distinct cells, sorted; a cell's index in that list
//!   is its item number in the matrix;
//! - every piece is face-connected, has distinct cells and at least one placement, and
//!   the pieces' cells (times their counts) add up to the number of target cells, or,
//!   with optional cells or count ranges, some choice of counts in the ranges gives a
//!   total between the required cells and all cells;
//! - `optional[t]` and `cell_colors[t]` describe target cell `t`; a colour is an index
//!   into `colors` from 1 (0 is no colour), and every colour a piece uses is on some
//!   target cell;
//! - names are unique words (no spaces); symbols, one character each for the text
//!   output, are unique too (by default a name's first character).
//!
//! Cells are given as coordinates (`cells`, `box`/`target`) or drawn as layers
//! (`layers`, see `puzzle::drawing`); a file may mix both.
//!
//! The matrix: items are the target cells (covered once; an optional cell at most once),
//! then one item per piece, covered between its `min_count` and `count` times. Options
//! are placements: a piece in one of its orientations, translated so that all its cells
//! lie in the target, each coloured piece cell on a target cell of its colour.
//!
//! Files: `parse.rs` reads a file's keys and checks what needs all of them, `piece.rs`
//! reads one `[[piece]]`, `spec.rs` builds a puzzle from typed values (BurrTools') with
//! the same checks, `placements.rs` builds the option table, `kind.rs` is the
//! [`crate::puzzle::Kind`] (matrix, groups, renderings) and `info.rs` its `info` text;
//! this file holds the types and the queries on a parsed puzzle (mirror partners, target
//! symmetries, copies).

pub mod generate;
mod info;
mod kind;
mod parse;
mod piece;
mod placements;
mod scene;
mod spec;
#[cfg(test)]
mod tests;

use super::Expect;
use crate::geometry::{min_corner, Cell, Isometry, Shape};

use crate::geometry::MAX_COORDINATE;
pub use spec::{PieceSpec, Spec};
/// More target cells than this would make a matrix no engine here can search.
pub const MAX_TARGET_CELLS: usize = 65_536;
/// Copies of one piece.
pub const MAX_COUNT: i64 = 4096;

/// What [`Polycube::fill`] gives for an optional cell no piece covers (printed `+`).
pub const EMPTY: (u32, u32) = (u32::MAX, 0);

/// One piece of a polycube puzzle, as the file gives it (one orientation); its copies
/// share one item of the matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// A word, unique in the puzzle.
    pub name: String,
    /// One character, unique in the puzzle: labels the piece's cells in text output.
    pub symbol: char,
    /// A longer human name (`Little Corner`), shown after the name; optional.
    pub label: Option<String>,
    /// The piece's cells as the file gives them, normalised; its orientations are images
    /// of this shape.
    pub shape: Shape,
    /// The most copies a solution uses.
    pub count: u32,
    /// The fewest copies a solution uses (`count` unless a range was given).
    pub min_count: u32,
    /// The coloured cells of `shape` (in its coordinates) with their colours.
    pub colors: Vec<(Cell, u32)>,
}

impl Piece {
    /// `A (Little Corner)`, `Alpha (a)` or `A`: the name, with the symbol when it is not
    /// the name and the label when there is one.
    pub fn display_name(&self) -> String {
        let name = if self.name == self.symbol.to_string() {
            self.name.clone()
        } else {
            format!("{} [{}]", self.name, self.symbol)
        };
        match &self.label {
            Some(l) => format!("{name} ({l})"),
            None => name,
        }
    }
}

/// A polycube packing puzzle, parsed and checked: a target of cells to fill with the
/// pieces, and every placement of every piece, which are the matrix's options. Items are
/// the target cells (optional ones secondary), then one per piece covered `min_count` to
/// `count` times.
#[derive(Clone, Debug)]
pub struct Polycube {
    /// The puzzle's name, from the file's `name`.
    pub name: String,
    /// The file it came from, for messages.
    pub source: String,
    /// The target's cells, sorted and distinct: target cell `t` is item `t`.
    pub target: Vec<Cell>,
    /// Target cells that may stay empty, by index.
    pub optional: Vec<bool>,
    /// The colour of each target cell (0: none; `k` is `colors[k - 1]`).
    pub cell_colors: Vec<u32>,
    /// Colour names, in the order of their numbers.
    pub colors: Vec<String>,
    /// Whether pieces may also be placed as their mirror images (turned over).
    pub mirror: bool,
    /// A flat puzzle's plane, as the axis normal to it (0, 1, 2: the `plane` key's x, y,
    /// z): its pieces turn within the plane only, 4 ways (8 with `mirror`), and the
    /// target's group is the symmetry of the flat shape (see [`Polycube::isometries`]).
    /// The target and every piece are then one cell thick along that axis.
    pub plane: Option<usize>,
    /// Published counts from the file's `[expect]` table.
    pub expect: Expect,
    /// The pieces, in file order: piece `k` is item `target.len() + k`.
    pub pieces: Vec<Piece>,
    /// The distinct orientations of each piece (24 isometries, or 48 with `mirror`; in a
    /// plane 4, or 8);
    /// for a coloured piece, orientations that differ only in where the colours are
    /// count as distinct.
    pub orientations: Vec<Vec<Shape>>,
    /// The colour of each cell of each orientation (parallel to its cells); empty for a
    /// piece without colours.
    pub orientation_colors: Vec<Vec<Vec<u32>>>,
    /// Every placement, piece by piece: option `o` of the matrix is `placements[o]`.
    pub placements: Vec<Placement>,
}

/// A piece in one orientation at one position: an option of the matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Which piece, an index into [`Polycube::pieces`].
    pub piece: u32,
    /// Index into the piece's `orientations`.
    pub orientation: u32,
    /// Indices into the target's cell list, in increasing order.
    pub cells: Vec<u32>,
    /// The piece's colour on each of `cells` (empty for a piece without colours).
    pub colors: Vec<u32>,
}

impl Polycube {
    /// The isometries behind the puzzle's symmetry, identity first, proper ones (the
    /// turns a physical piece can make) before improper ones (mirror images): the 48 of
    /// the cube, or in a plane the 8 that keep it in place (4 turns about its normal,
    /// 4 mirror images within it). Turning a flat board over is one of the latter: it
    /// maps each one-sided piece onto its mirror image.
    pub fn isometries(&self) -> Vec<Isometry> {
        match self.plane {
            Some(axis) => Isometry::in_plane(axis),
            None => Isometry::all().to_vec(),
        }
    }

    /// The isometries a piece may take: the proper [`Polycube::isometries`], all of them
    /// with `mirror`.
    pub fn piece_isometries(&self) -> Vec<Isometry> {
        let mut group = self.isometries();
        group.retain(|g| self.mirror || g.is_proper());
        group
    }

    /// For reflections: which piece each piece becomes in a mirror image.
    /// In a plane, shapes are the same when a turn within the plane maps one onto the
    /// other: a one-sided piece's mirror image is another piece.
    ///
    /// # Errors
    ///
    /// The index of the first piece whose mirror image is not in the set, when the piece
    /// set is not its own mirror image.
    pub fn mirror_partners(&self) -> std::result::Result<Vec<u32>, usize> {
        if self.mirror {
            return Ok((0..self.pieces.len() as u32).collect());
        }
        let group = self.isometries();
        let (turns, mirrors) = group.split_at(group.len() / 2);
        let canonical = |s: &Shape| s.canonical_under(turns);
        let image_of = |s: &Shape| canonical(&s.transformed(mirrors[0]));
        let canon: Vec<Shape> = self.pieces.iter().map(|p| canonical(&p.shape)).collect();
        let mut partner = vec![u32::MAX; self.pieces.len()];
        let mut used = vec![false; self.pieces.len()];
        for i in 0..self.pieces.len() {
            let image = image_of(&self.pieces[i].shape);
            if image == canon[i] {
                partner[i] = i as u32;
                used[i] = true;
            }
        }
        for i in 0..self.pieces.len() {
            if partner[i] != u32::MAX {
                continue;
            }
            let image = image_of(&self.pieces[i].shape);
            let j = (0..self.pieces.len())
                .find(|&j| {
                    !used[j]
                        && canon[j] == image
                        && self.pieces[j].count == self.pieces[i].count
                        && self.pieces[j].min_count == self.pieces[i].min_count
                })
                .ok_or(i)?;
            used[j] = true;
            partner[i] = j as u32;
            partner[j] = i as u32;
        }
        Ok(partner)
    }

    /// The symmetries of the target under `isometries`, with the cell permutation each
    /// induces: those that map the target onto itself, optional cells onto optional
    /// cells and every cell onto a cell of its colour. The identity comes first.
    pub fn target_symmetries(&self, isometries: &[Isometry]) -> Vec<(Isometry, Vec<u32>)> {
        let index = self.cell_index();
        let lo = min_corner(&self.target).unwrap();
        let mut out = Vec::new();
        for &g in isometries {
            let image: Vec<Cell> = self.target.iter().map(|&c| g.apply(c)).collect();
            let ilo = min_corner(&image).unwrap();
            let shift = [lo[0] - ilo[0], lo[1] - ilo[1], lo[2] - ilo[2]];
            let perm: Option<Vec<u32>> = image
                .iter()
                .map(|c| {
                    index
                        .get(&[c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]])
                        .copied()
                })
                .collect();
            let Some(perm) = perm else { continue };
            let keeps = |t: usize| {
                let u = perm[t] as usize;
                self.optional[t] == self.optional[u] && self.cell_colors[t] == self.cell_colors[u]
            };
            if (0..perm.len()).all(keeps) {
                out.push((g, perm));
            }
        }
        out
    }

    /// The placements of a solution with their copy numbers (0 for the first copy of a
    /// piece), copies numbered by their least cell so that the numbering depends only on
    /// the solution; in piece order.
    pub fn copies(&self, solution: &[u32]) -> Vec<(&Placement, u32)> {
        let mut placed: Vec<&Placement> = solution
            .iter()
            .map(|&o| &self.placements[o as usize])
            .collect();
        placed.sort_by_key(|p| (p.piece, p.cells[0]));
        let mut out: Vec<(&Placement, u32)> = Vec::with_capacity(placed.len());
        for p in placed {
            let copy = match out.last() {
                Some((q, n)) if q.piece == p.piece => n + 1,
                _ => 0,
            };
            out.push((p, copy));
        }
        out
    }

    /// What covers each target cell: (piece, copy), as [`Polycube::copies`] numbers them,
    /// or `(u32::MAX, 0)` for an optional cell left empty.
    pub fn fill(&self, solution: &[u32]) -> Vec<(u32, u32)> {
        let mut fill = vec![EMPTY; self.target.len()];
        for (p, copy) in self.copies(solution) {
            for &c in &p.cells {
                fill[c as usize] = (p.piece, copy);
            }
        }
        fill
    }
}
