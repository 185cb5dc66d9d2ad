//! The polycube kind as the rest of polycover sees it (its [`Kind`] impl): solutions and
//! puzzles as people and programs read them.
//!
//! Text: the target's z-layers side by side, bottom layer (least z) first. In each layer
//! rows are y (least first, top of the page) and columns are x; a cell shows the symbol
//! of the piece covering it, and `.` marks a cell of the bounding box outside the target.
//! Pasted into a puzzle file's `layers`, the layers give back the target's cells.
//!
//! JSON lines: one object per solution, `{"index": n, "placements": [{"piece", "symbol",
//! "copy", "label", "orientation", "cells"}...], "layers": [[row, ...], ...]}`, one
//! placement per copy of a piece (`copy` counts from 1).
//!
//! Copies of one piece look alike, so in text each copy gets its own symbol (the first
//! keeps the piece's symbol, the others take letters and digits no piece uses) and a
//! `copies  D: Dde` legend line follows the layers. When the spare symbols run out (72
//! dominoes), every copy of every piece is numbered instead, 1 to N in piece order: each
//! cell shows its copy's number, zero-padded to the width of N, cells one space apart,
//! and `copies  D: 01-72` lines give each piece's numbers (the same layers, a few
//! columns wider, never a line per cell). When symbols are not the names (long names),
//! `pieces  a Alpha, b Beta` lines say which is which.
//!
//! A sparse target (one that fills less than an eighth of its bounding box) prints as a
//! cell list, `x,y,z piece` per line, and its JSON `layers` is `null`: the output grows
//! with the cells, not with the box. The JSON `layers` is `null` too for numbered copies
//! (its rows are one character per cell); its placements say which copy is where.
//!
//! The DIMACS variable map names a placement as `PIECE oORIENTATION x,y,z ...`.

use std::collections::HashMap;
use std::io::Write;

use serde_json::json;

use super::scene::{copy_symbols, with_scene};
use super::{Polycube, EMPTY};
use crate::error::{Error, Result};
use crate::geometry::{max_corner, min_corner};
use crate::matrix::{Item, Matrix};
use crate::puzzle::{About, Kind, SymmetryMode, VariableMap};
use crate::setting::Setting;
use crate::symmetry::{Group, Symmetry};

/// Whether the target fills so little of its bounding box that drawing the box would
/// cost more than listing the cells: then solutions print as a cell list, and their JSON
/// has no layers.
fn is_sparse(p: &Polycube) -> bool {
    let lo = min_corner(&p.target).unwrap();
    let hi = max_corner(&p.target).unwrap();
    let volume: u64 = (0..3).map(|k| (hi[k] - lo[k] + 1) as u64).product();
    volume > 64 && volume > 8 * p.target.len() as u64
}

/// A sparse target's solution: one line per cell, `x,y,z piece`, with `#n` for the n-th
/// copy of a piece that has several.
fn cell_list(p: &Polycube, solution: &[u32]) -> String {
    let mut out = String::from("cell  piece\n");
    for (c, (piece, copy)) in p.target.iter().zip(p.fill(solution)) {
        if piece == EMPTY.0 {
            out += &format!("{},{},{}  +\n", c[0], c[1], c[2]);
            continue;
        }
        let piece_ = &p.pieces[piece as usize];
        let copy = if piece_.count > 1 {
            format!("#{}", copy + 1)
        } else {
            String::new()
        };
        out += &format!("{},{},{}  {}{copy}\n", c[0], c[1], c[2], piece_.name);
    }
    out
}

/// The symbol of every target cell in `solution` ([`copy_symbols`]), with the legend.
fn symbols(p: &Polycube, solution: &[u32]) -> Option<(Vec<char>, Option<String>)> {
    let (symbol_of, legend) = copy_symbols(p)?;
    let cells = p
        .fill(solution)
        .iter()
        .map(|k| if *k == EMPTY { '+' } else { symbol_of[k] })
        .collect();
    Some((cells, legend))
}

/// When some piece's symbol is not its name: `pieces  a Alpha, b Beta, ...` lines (about
/// 78 columns each) saying which symbol is which piece. Empty otherwise.
fn names_legend(p: &Polycube) -> String {
    if p.pieces.iter().all(|q| q.name == q.symbol.to_string()) {
        return String::new();
    }
    let mut out = String::new();
    let mut line = String::new();
    for q in &p.pieces {
        let entry = format!("{} {}", q.symbol, q.name);
        if !line.is_empty() && line.len() + entry.len() + 2 > 70 {
            out += &format!("pieces  {line}\n");
            line.clear();
        }
        if !line.is_empty() {
            line += ", ";
        }
        line += &entry;
    }
    out + &format!("pieces  {line}\n")
}

/// Every copy numbered, for a solution with more copies than spare symbols: each target
/// cell's label (its copy's number from 1, in piece order, zero-padded to the width of
/// the last; `+` for an optional cell left empty, as wide), and the `copies  D: 01-72`
/// lines saying which numbers are which piece's.
fn numbered(p: &Polycube, solution: &[u32]) -> (Vec<String>, String) {
    let mut first = Vec::with_capacity(p.pieces.len());
    let mut next = 1u64;
    for q in &p.pieces {
        first.push(next);
        next += u64::from(q.count);
    }
    let width = (next - 1).max(1).to_string().len();
    let labels = p
        .fill(solution)
        .iter()
        .map(|&(piece, copy)| {
            if (piece, copy) == EMPTY {
                "+".repeat(width)
            } else {
                format!("{:0width$}", first[piece as usize] + u64::from(copy))
            }
        })
        .collect();
    let mut out = String::new();
    let mut line = String::new();
    for (q, &from) in p.pieces.iter().zip(&first) {
        let to = from + u64::from(q.count) - 1;
        let entry = if to == from {
            format!("{}: {from:0width$}", q.symbol)
        } else {
            format!("{}: {from:0width$}-{to:0width$}", q.symbol)
        };
        if !line.is_empty() && line.len() + entry.len() + 2 > 70 {
            out += &format!("copies  {line}\n");
            line.clear();
        }
        if !line.is_empty() {
            line += "; ";
        }
        line += &entry;
    }
    (labels, out + &format!("copies  {line}\n"))
}

/// The layers of a solution, one `Vec` of rows per z: each target cell's label (all of
/// one width), cells joined by `gap`, and `.` as wide as a label for a cell of the
/// bounding box outside the target.
fn layers(p: &Polycube, labels: &[String], gap: &str) -> Vec<Vec<String>> {
    let lo = min_corner(&p.target).unwrap();
    let hi = max_corner(&p.target).unwrap();
    let outside = ".".repeat(labels.first().map_or(1, |l| l.chars().count()));
    let at: HashMap<_, _> = p
        .target
        .iter()
        .zip(labels.iter())
        .map(|(c, f)| (*c, f.as_str()))
        .collect();
    (lo[2]..=hi[2])
        .map(|z| {
            (lo[1]..=hi[1])
                .map(|y| {
                    (lo[0]..=hi[0])
                        .map(|x| at.get(&[x, y, z]).copied().unwrap_or(&outside))
                        .collect::<Vec<_>>()
                        .join(gap)
                })
                .collect()
        })
        .collect()
}

/// One character per cell: a symbol, as [`layers`] wants it.
fn one_char_labels(fill: &[char]) -> Vec<String> {
    fill.iter().map(|c| c.to_string()).collect()
}

impl Kind for Polycube {
    fn about(&self) -> About<'_> {
        About {
            name: &self.name,
            source: &self.source,
            expect: &self.expect,
        }
    }

    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        &[
            SymmetryMode::Rotations,
            SymmetryMode::Reflections,
            SymmetryMode::None,
        ]
    }

    /// Builds the exact-cover matrix: cells, then pieces; one option per placement.
    fn matrix(&self) -> Matrix {
        let mut items: Vec<Item> = self
            .target
            .iter()
            .zip(&self.optional)
            .map(|(c, &optional)| {
                let name = format!("{},{},{}", c[0], c[1], c[2]);
                if optional {
                    Item::optional(name)
                } else {
                    Item::exact(name, 1)
                }
            })
            .collect();
        items.extend(
            self.pieces
                .iter()
                .map(|p| Item::range(p.name.to_string(), p.min_count, p.count)),
        );
        let mut m = Matrix::new(items);
        let n = self.target.len() as u32;
        let mut row = Vec::new();
        for p in &self.placements {
            row.clone_from(&p.cells);
            row.push(n + p.piece);
            m.push_option(&row);
        }
        m
    }

    /// The symmetry group for `mode`, as permutations of `matrix`.
    fn group(&self, matrix: &Matrix, mode: SymmetryMode) -> Result<Group> {
        let mut isometries = self.isometries();
        match mode {
            SymmetryMode::None => return Ok(Group::trivial(matrix)),
            SymmetryMode::Rotations => isometries.retain(|g| g.is_proper()),
            SymmetryMode::Reflections => {}
            SymmetryMode::Stack => {
                return Err(Error::Usage(format!(
                    "{}: {} is for coloured cubes; polycube puzzles use none, rotations or \
                     reflections",
                    self.source,
                    Setting::Symmetry.is("stack")
                )))
            }
        };
        if mode == SymmetryMode::Reflections && self.pieces.iter().any(|p| !p.colors.is_empty()) {
            return Err(Error::Usage(format!(
                "{}: {} is not supported for coloured pieces yet (their mirror images \
                 would need mirrored colours); use {}",
                self.source,
                Setting::Symmetry.is("reflections"),
                Setting::Symmetry.is("rotations")
            )));
        }
        let partners = match mode {
            SymmetryMode::Reflections => self.mirror_partners().map_err(|i| {
                Error::Usage(format!(
                    "{}: {} needs a piece set that is its own mirror image, but the mirror \
                     image of piece {} is not in the set (use {})",
                    self.source,
                    Setting::Symmetry.is("reflections"),
                    self.pieces[i].display_name(),
                    Setting::Symmetry.is("rotations")
                ))
            })?,
            _ => (0..self.pieces.len() as u32).collect(),
        };
        let n = self.target.len() as u32;
        // A coloured piece may cover one set of cells in several ways (its colours
        // elsewhere), so a placement is its piece, cells and colours.
        let lookup: HashMap<(u32, &[u32], &[u32]), u32> = self
            .placements
            .iter()
            .enumerate()
            .map(|(o, p)| ((p.piece, p.cells.as_slice(), p.colors.as_slice()), o as u32))
            .collect();
        let mut elements = Vec::new();
        for (g, cell_perm) in self.target_symmetries(&isometries) {
            let sigma = |p: u32| {
                if g.is_proper() {
                    p
                } else {
                    partners[p as usize]
                }
            };
            let mut items: Vec<u32> = cell_perm.clone();
            items.extend((0..self.pieces.len() as u32).map(|p| n + sigma(p)));
            let mut options = Vec::with_capacity(matrix.num_options());
            let mut image: Vec<(u32, u32)> = Vec::new();
            let (mut cells, mut colors) = (Vec::new(), Vec::new());
            for p in &self.placements {
                image.clear();
                image.extend(
                    p.cells.iter().enumerate().map(|(k, &c)| {
                        (cell_perm[c as usize], p.colors.get(k).copied().unwrap_or(0))
                    }),
                );
                image.sort_unstable();
                cells.clear();
                cells.extend(image.iter().map(|&(c, _)| c));
                colors.clear();
                if !p.colors.is_empty() {
                    colors.extend(image.iter().map(|&(_, k)| k));
                }
                let target = lookup
                    .get(&(sigma(p.piece), cells.as_slice(), colors.as_slice()))
                    .copied()
                    .expect(
                        "the image of a placement under a symmetry of the target is a placement",
                    );
                options.push(target);
            }
            elements.push(Symmetry {
                items,
                options,
                name: g.label(),
            });
        }
        Ok(Group::new(elements))
    }

    fn variable_map(&self) -> VariableMap {
        VariableMap {
            option: "placement",
            columns: "PIECE ORIENTATION CELLS (cells as x,y,z)",
        }
    }

    fn describe_option(&self, o: u32) -> String {
        let placement = &self.placements[o as usize];
        let cells: Vec<String> = placement
            .cells
            .iter()
            .map(|&c| {
                let [x, y, z] = self.target[c as usize];
                format!("{x},{y},{z}")
            })
            .collect();
        format!(
            "{} o{} {}",
            self.pieces[placement.piece as usize].name,
            placement.orientation,
            cells.join(" ")
        )
    }

    /// A header of layer names, then the layers side by side.
    fn text(&self, solution: &[u32]) -> String {
        if is_sparse(self) {
            return cell_list(self, solution);
        }
        let (layers, legend) = match symbols(self, solution) {
            Some((fill, legend)) => (layers(self, &one_char_labels(&fill), ""), legend),
            None => {
                let (labels, legend) = numbered(self, solution);
                (layers(self, &labels, " "), Some(legend))
            }
        };
        let lo = min_corner(&self.target).unwrap();
        let width = layers[0][0].chars().count();
        let names: Vec<String> = (0..layers.len())
            .map(|k| format!("z={}", lo[2] + k as i32))
            .collect();
        let col = names.iter().map(|n| n.len()).max().unwrap_or(0).max(width);
        let mut out = String::new();
        let row = |cells: Vec<&str>| {
            let mut line = cells
                .iter()
                .map(|c| format!("{c:<col$}"))
                .collect::<Vec<_>>()
                .join("  ");
            line.truncate(line.trim_end().len());
            line + "\n"
        };
        if layers.len() > 1 {
            out += &row(names.iter().map(|s| s.as_str()).collect());
        }
        for y in 0..layers[0].len() {
            out += &row(layers.iter().map(|l| l[y].as_str()).collect());
        }
        if let Some(legend) = legend {
            out += &legend;
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
        out += &names_legend(self);
        out
    }

    fn json(&self, solution: &[u32], index: u64) -> serde_json::Value {
        let placements: Vec<_> = self
            .copies(solution)
            .into_iter()
            .map(|(placement, copy)| {
                let piece = &self.pieces[placement.piece as usize];
                json!({
                    "piece": piece.name,
                    "symbol": piece.symbol.to_string(),
                    "copy": copy + 1,
                    "label": piece.label,
                    "orientation": placement.orientation,
                    "cells": placement.cells.iter().map(|&c| self.target[c as usize]).collect::<Vec<_>>(),
                })
            })
            .collect();
        let symbols = (!is_sparse(self))
            .then(|| symbols(self, solution))
            .flatten();
        let layers = symbols.map(|(fill, _)| layers(self, &one_char_labels(&fill), ""));
        json!({ "index": index, "placements": placements, "layers": layers })
    }

    /// Cells as `xyz`, each coordinate from the target's least corner in radix 36 (two
    /// digits each when some coordinate reaches 36); pieces by symbol.
    fn item_names(&self, _matrix: &Matrix) -> Vec<String> {
        let lo = min_corner(&self.target).unwrap();
        let hi = max_corner(&self.target).unwrap();
        let wide = (0..3).any(|a| hi[a] - lo[a] >= 36);
        let digits = |v: i32| -> String {
            let d = |n: i32| std::char::from_digit(n as u32, 36).unwrap();
            if wide {
                format!("{}{}", d(v / 36), d(v % 36))
            } else {
                d(v).to_string()
            }
        };
        let mut names: Vec<String> = self
            .target
            .iter()
            .map(|c| (0..3).map(|a| digits(c[a] - lo[a])).collect())
            .collect();
        names.extend(self.pieces.iter().map(|p| p.symbol.to_string()));
        names
    }

    fn item_legend(&self) -> String {
        let lo = min_corner(&self.target).unwrap();
        format!(
            "cells xyz: x, y, z in radix 36 (0-9, a-z) from ({},{},{}); pieces by symbol",
            lo[0], lo[1], lo[2]
        )
    }

    fn check_drawable(&self) -> Result<()> {
        if crate::picture::polycube::drawable(&self.target) {
            return Ok(());
        }
        Err(Error::Usage(format!(
            "{}: the target's bounding box has more than {} cells, too many to draw; \
             the text output lists the cells",
            self.source,
            crate::picture::polycube::MAX_BOX_CELLS
        )))
    }

    fn svg(&self, solution: &[u32]) -> Result<String> {
        self.check_drawable()?;
        with_scene(self, solution, crate::picture::polycube::picture)
            .ok_or_else(|| Error::Usage("the picture could not be drawn".into()))
    }

    fn check_html(&self) -> Result<()> {
        self.check_drawable()
    }

    fn html(&self, solution: &[u32]) -> Result<String> {
        self.check_drawable()?;
        Ok(with_scene(self, solution, crate::picture::webgl::page))
    }

    fn info(&self, out: &mut dyn Write) -> Result<()> {
        self.write_info(out)
    }

    fn pieces(&self) -> u64 {
        self.pieces.iter().map(|q| q.count as u64).sum()
    }

    fn cells(&self) -> Option<u64> {
        Some(self.target.len() as u64)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
