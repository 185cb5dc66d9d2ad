//! The option table of a polycube puzzle: every placement of every piece.
//!
//! Invariants: `orientations[k]` are the distinct images of piece `k` under
//! [`Polycube::piece_isometries`] (the rotations, all 48 isometries with `mirror`, or
//! those of the puzzle's plane), the piece's own orientation first; a coloured
//! piece's orientations differ in their cells or in where their colours are. Placements
//! come piece by piece, then orientation by orientation, then by translation in the
//! order of a scan of the target's bounding box, so option numbers depend only on the
//! puzzle. A placement's cells are sorted target indices and lie in the target, each
//! coloured piece cell on a target cell of its colour. Every piece that must be used has
//! a placement; one that may be missing (`count = [0, k]`) may have none. There are at
//! most [`MAX_PLACEMENTS`]. The table is made until the reader's [`Stop`] says stop
//! (polled piece by piece).

use std::collections::HashMap;

/// The most placements (options) a puzzle may have: 4 million options hold about a
/// gigabyte with the matrix and its reduction. The shipped puzzles have at most tens of
/// thousands (a 16x16x16 box of dominoes: 11,520); 4096 distinct single cubes in that
/// box would have 16.8 million, and ran out of memory after 19 s.
pub const MAX_PLACEMENTS: usize = 4_000_000;

use super::{Piece, Placement, Polycube};
use crate::error::{Error, Result};
use crate::geometry::{min_corner, Cell, Isometry, Shape};
use crate::stop::Stop;

impl Polycube {
    /// `puzzle` (read, its orientations and placements not yet made) with its option
    /// table. A piece that must be used and fits nowhere is an error at its table's
    /// `file:line`, `lines[k]`.
    pub(super) fn with_placements(
        mut puzzle: Polycube,
        lines: &[String],
        stop: &Stop,
    ) -> Result<Polycube> {
        let group = puzzle.piece_isometries();
        (puzzle.orientations, puzzle.orientation_colors) = puzzle
            .pieces
            .iter()
            .map(|p| colored_orientations(p, &group))
            .unzip();
        for (k, p) in puzzle.pieces.iter().enumerate() {
            if stop.should_stop() {
                let how = format!(
                    "while placing the pieces ({} of {} placed)",
                    k,
                    puzzle.pieces.len()
                );
                return Err(match stop.raised() {
                    true => Error::Interrupted(how),
                    false => Error::Failed(format!("stopped by the timeout {how}")),
                });
            }
            let placements = puzzle.placements_of(k);
            // A piece that may be missing (`count = [0, k]`) and fits nowhere is simply
            // missing from every solution; one that must be used makes none.
            if placements.is_empty() && p.min_count > 0 {
                return Err(Error::puzzle(
                    lines[k].clone(),
                    format!(
                        "piece {}: it fits nowhere in the target, in any orientation",
                        p.display_name()
                    ),
                ));
            }
            if puzzle.placements.len() + placements.len() > MAX_PLACEMENTS {
                return Err(Error::puzzle(
                    lines[k].clone(),
                    format!(
                        "piece {}: with it the pieces have more than {MAX_PLACEMENTS} \
                         placements in the target, a matrix of gigabytes that no engine here \
                         could search; give identical pieces one table, the copies in its count key",
                        p.display_name()
                    ),
                ));
            }
            puzzle
                .placements
                .extend(
                    placements
                        .into_iter()
                        .map(|(orientation, cells, colors)| Placement {
                            piece: k as u32,
                            orientation,
                            colors,
                            cells,
                        }),
                );
        }
        Ok(puzzle)
    }

    /// Index of each target cell.
    pub(super) fn cell_index(&self) -> HashMap<Cell, u32> {
        self.target
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u32))
            .collect()
    }

    /// The placements of piece `k`: (orientation, sorted target cell indices, the
    /// piece's colour on each of them or nothing for a piece without colours). A coloured
    /// piece cell only goes on a target cell of its colour.
    pub fn placements_of(&self, k: usize) -> Vec<(u32, Vec<u32>, Vec<u32>)> {
        let index = self.cell_index();
        let mut out = Vec::new();
        for (o, shape) in self.orientations[k].iter().enumerate() {
            let colors = &self.orientation_colors[k][o];
            // A placement puts the shape's first cell on some target cell: trying those
            // costs the number of cells, not the bounding box's volume (a sparse target
            // far apart has a huge box). Sorted, the translations come in the order a
            // scan of the box would give, so option numbers do not depend on this.
            let anchor = shape.cells()[0];
            let mut shifts: Vec<[i32; 3]> = self
                .target
                .iter()
                .map(|t| [t[0] - anchor[0], t[1] - anchor[1], t[2] - anchor[2]])
                .collect();
            shifts.sort_unstable();
            for d in shifts {
                let cells: Option<Vec<u32>> = shape
                    .cells()
                    .iter()
                    .map(|c| index.get(&[c[0] + d[0], c[1] + d[1], c[2] + d[2]]).copied())
                    .collect();
                let Some(cells) = cells else { continue };
                // Translation keeps the lexicographic order: `cells` is sorted, and
                // parallel to the orientation's cells and colours.
                debug_assert!(cells.windows(2).all(|w| w[0] < w[1]));
                if colors.is_empty() {
                    out.push((o as u32, cells, Vec::new()));
                } else if cells
                    .iter()
                    .zip(colors)
                    .all(|(&t, &c)| c == 0 || self.cell_colors[t as usize] == c)
                {
                    out.push((o as u32, cells, colors.clone()));
                }
            }
        }
        out
    }
}

/// The distinct orientations of a piece under `group`, with the colour of each cell of
/// each (empty lists for a piece without colours). A coloured piece's orientations are
/// distinct when their cells or their colours differ.
fn colored_orientations(piece: &Piece, group: &[Isometry]) -> (Vec<Shape>, Vec<Vec<u32>>) {
    if piece.colors.is_empty() {
        let shapes = piece.shape.orientations(group);
        let colors = vec![Vec::new(); shapes.len()];
        return (shapes, colors);
    }
    let color_of = |c: &Cell| {
        piece
            .colors
            .iter()
            .find(|(d, _)| d == c)
            .map_or(0, |&(_, k)| k)
    };
    let mut seen: Vec<(Shape, Vec<u32>)> = Vec::new();
    for &g in group {
        let mut cells: Vec<(Cell, u32)> = piece
            .shape
            .cells()
            .iter()
            .map(|c| (g.apply(*c), color_of(c)))
            .collect();
        let lo = min_corner(&cells.iter().map(|(c, _)| *c).collect::<Vec<_>>()).unwrap();
        for (c, _) in &mut cells {
            for a in 0..3 {
                c[a] -= lo[a];
            }
        }
        cells.sort_unstable();
        let shape = Shape::new(cells.iter().map(|(c, _)| *c).collect());
        let colors = cells.into_iter().map(|(_, k)| k).collect();
        if !seen.iter().any(|(s, k)| *s == shape && *k == colors) {
            seen.push((shape, colors));
        }
    }
    seen.into_iter().unzip()
}
