//! The `info` text of a polycube puzzle: the target and its rules, the placements, the
//! symmetry groups and the expected counts, then a table of the pieces.

use std::io::Write;

use super::Polycube;
use crate::error::Result;
use crate::geometry::{max_corner, min_corner};
use crate::matrix::Matrix;
use crate::puzzle::{Kind, SymmetryMode};

impl Polycube {
    /// Writes the `info` text (see the module doc).
    pub(super) fn write_info(&self, out: &mut dyn Write) -> Result<()> {
        let matrix = self.matrix();
        self.write_target(out)?;
        writeln!(out, "placements  {}", matrix.num_options())?;
        self.write_groups(out, &matrix)?;
        for (mode, n) in [
            ("none", &self.expect.none),
            ("rotations", &self.expect.rotations),
            ("reflections", &self.expect.reflections),
        ] {
            if let Some(n) = n {
                writeln!(out, "expect      {mode} {n}")?;
            }
        }
        writeln!(out)?;
        self.write_pieces(out)
    }

    /// The name, the file, the target's size, its optional and coloured cells, and the
    /// rules on turning pieces.
    fn write_target(&self, out: &mut dyn Write) -> Result<()> {
        let lo = min_corner(&self.target).unwrap();
        let hi = max_corner(&self.target).unwrap();
        writeln!(out, "name        {}", self.name)?;
        writeln!(out, "file        {}", self.source)?;
        writeln!(
            out,
            "target      {} in a {}x{}x{} bounding box",
            crate::count::Count::plural(self.target.len(), "cell", "cells"),
            hi[0] - lo[0] + 1,
            hi[1] - lo[1] + 1,
            hi[2] - lo[2] + 1
        )?;
        let optional = self.optional.iter().filter(|&&o| o).count();
        if optional > 0 {
            let optional = crate::count::Count::plural(optional, "cell", "cells");
            writeln!(out, "optional    {optional} may stay empty")?;
        }
        if !self.colors.is_empty() {
            let counts: Vec<String> = self
                .colors
                .iter()
                .enumerate()
                .map(|(k, name)| {
                    let n = self
                        .cell_colors
                        .iter()
                        .filter(|&&c| c == k as u32 + 1)
                        .count();
                    format!("{name} {n}")
                })
                .collect();
            writeln!(out, "colors      {} (target cells)", counts.join(", "))?;
        }
        writeln!(out, "mirror      {}", self.mirror)?;
        if let Some(axis) = self.plane {
            let name = ["x", "y", "z"][axis];
            writeln!(out, "plane       {name} (pieces turn in the plane only)")?;
        }
        Ok(())
    }

    /// Each symmetry mode's group order, or why the puzzle has none in that mode.
    fn write_groups(&self, out: &mut dyn Write, matrix: &Matrix) -> Result<()> {
        for mode in [SymmetryMode::Rotations, SymmetryMode::Reflections] {
            match self.group(matrix, mode) {
                Ok(g) => writeln!(
                    out,
                    "group       {} ({} elements)",
                    mode.as_str(),
                    g.order()
                )?,
                Err(e) => {
                    let why = if self.pieces.iter().any(|q| !q.colors.is_empty()) {
                        "coloured pieces".to_string()
                    } else if self.mirror_partners().is_err() {
                        "the piece set is chiral".to_string()
                    } else {
                        e.to_string()
                    };
                    writeln!(out, "group       {} (not available: {why})", mode.as_str())?
                }
            }
        }
        Ok(())
    }

    /// The pieces' table: cells, count, orientations, placements and label of each.
    fn write_pieces(&self, out: &mut dyn Write) -> Result<()> {
        // Long names widen the first column; symbols get a column when they are not the
        // names.
        let width = self
            .pieces
            .iter()
            .map(|q| q.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(5);
        let symbols = self.pieces.iter().any(|q| q.name != q.symbol.to_string());
        let symbol_head = if symbols { "symbol  " } else { "" };
        writeln!(
            out,
            "{:<width$}  {symbol_head}cells  count  orientations  placements  label",
            "piece"
        )?;
        let mut per_piece = vec![0usize; self.pieces.len()];
        for placement in &self.placements {
            per_piece[placement.piece as usize] += 1;
        }
        for (k, piece) in self.pieces.iter().enumerate() {
            let symbol = if symbols {
                format!("{:<6}  ", piece.symbol)
            } else {
                String::new()
            };
            let count = if piece.min_count == piece.count {
                piece.count.to_string()
            } else {
                format!("{}-{}", piece.min_count, piece.count)
            };
            let line = format!(
                "{:<width$}  {symbol}{:>5}  {:>5}  {:>12}  {:>10}  {}",
                piece.name,
                piece.shape.len(),
                count,
                self.orientations[k].len(),
                per_piece[k],
                piece.label.as_deref().unwrap_or("")
            );
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}
