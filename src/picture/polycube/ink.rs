//! Painting: the colours of the pieces (neighbours told apart), the colour-constraint
//! marks, the faces of a 3-D view in painter's order, a 2-D grid of cells, and the
//! entries of the key.
//!
//! Invariants: an [`Ink`] gives every body (every copy of a piece) one colour for all
//! its drawings, bodies that touch getting colours far apart
//! ([`crate::picture::separated`]); the elements drawn for a piece carry the
//! `data-piece`/`data-copy` attributes of [`marker`].

use std::collections::{HashMap, HashSet};

use super::projection::{dot, owners, Face, Place, View};
use super::{Body, Scene};
use crate::geometry::Cell;
use crate::picture::svg::Svg;
use crate::picture::{constraint_colour, shade, Rgb};
use crate::xml::escape;

/// The attributes that tie a drawn element to its piece and copy.
pub(super) fn marker(body: &Body) -> String {
    format!(
        " data-piece=\"{}\" data-copy=\"{}\"",
        escape(&body.symbol.to_string()),
        body.copy
    )
}

/// What the drawing functions share: the bodies, their colours and the colour
/// constraints.
pub(super) struct Ink<'a> {
    pub(super) bodies: &'a [Body],
    pub(super) colours: Vec<Rgb>,
    pub(super) owner: HashMap<Cell, usize>,
    /// Target cells with a colour constraint, and their colour numbers.
    pub(super) target_marks: HashMap<Cell, u32>,
    /// Piece cells with a colour, and their colour numbers.
    pub(super) piece_marks: HashMap<Cell, u32>,
    pub(super) colors: &'a [String],
}

impl Ink<'_> {
    pub(super) fn new<'a>(scene: &Scene<'a>) -> Ink<'a> {
        let bodies = scene.bodies;
        Ink {
            bodies,
            colours: super::colours(bodies),
            owner: owners(bodies),
            target_marks: scene
                .target
                .iter()
                .zip(scene.cell_colors)
                .filter(|(_, &k)| k != 0)
                .map(|(&c, &k)| (c, k))
                .collect(),
            piece_marks: bodies
                .iter()
                .flat_map(|b| b.cells.iter().zip(&b.colors))
                .filter(|(_, &k)| k != 0)
                .map(|(&c, &k)| (c, k))
                .collect(),
            colors: scene.colors,
        }
    }

    /// The colour of constraint `k` (from 1) and the attributes naming it.
    pub(super) fn constraint(&self, k: u32, whose: &str) -> (Rgb, String) {
        let name = &self.colors[k as usize - 1];
        (
            constraint_colour(name, k),
            format!(
                " class=\"constraint\" data-constraint=\"{}\" data-on=\"{whose}\"",
                escape(name)
            ),
        )
    }

    /// A colour mark: constraint `k`'s colour with a dark outline inside a white halo,
    /// so that it shows on any piece colour, its own included.
    pub(super) fn mark(&self, svg: &mut Svg, points: &[(f64, f64)], k: u32, whose: &str) {
        let (colour, attributes) = self.constraint(k, whose);
        svg.polygon(points, colour, (Rgb(255, 255, 255), 3.0), "");
        svg.polygon(points, colour, (Rgb(0x22, 0x22, 0x22), 1.0), &attributes);
    }

    /// Draws the `faces` that face the eye, farthest first, each with its outline where
    /// it does not continue into a face of the same body in the same plane.
    pub(super) fn faces(
        &self,
        svg: &mut Svg,
        view: &View,
        place: Place,
        faces: &[(Face, usize)],
        edge: f64,
    ) {
        let drawn: HashMap<Face, usize> = faces.iter().copied().collect();
        let mut seen: Vec<(f64, Face, usize)> = faces
            .iter()
            .filter(|(f, _)| dot(f.normal(), view.eye) > 1e-9)
            .map(|&(f, b)| (dot(f.centre(), view.eye), f, b))
            .collect();
        seen.sort_by(|a, b| a.0.total_cmp(&b.0));
        let dark = Rgb(0x22, 0x22, 0x22);
        for (_, face, b) in seen {
            let corners = face.corners();
            let points: Vec<(f64, f64)> = corners.iter().map(|&p| place.at(view, p)).collect();
            let fill = self.colours[b].scaled(shade(face.axis));
            // A hairline of the face's own colour closes the seams between faces.
            svg.polygon(&points, fill, (fill, 0.6), &marker(&self.bodies[b]));
            if let Some(&k) = self.piece_marks.get(&face.cell) {
                let centre = place.at(view, face.centre());
                let inset: Vec<(f64, f64)> = points
                    .iter()
                    .map(|&(x, y)| {
                        (
                            centre.0 + (x - centre.0) * 0.45,
                            centre.1 + (y - centre.1) * 0.45,
                        )
                    })
                    .collect();
                self.mark(svg, &inset, k, "piece");
            }
            // Edge k runs from corner k to corner k + 1; the face beyond it in the same
            // plane is one step along (b, d) = ((axis + 1) % 3, (axis + 2) % 3).
            let (bb, dd) = ((face.axis + 1) % 3, (face.axis + 2) % 3);
            for (k, (along, step)) in [(dd, -1), (bb, 1), (dd, 1), (bb, -1)]
                .into_iter()
                .enumerate()
            {
                let mut next = face;
                next.cell[along] += step;
                if drawn.get(&next) != Some(&b) {
                    svg.line(points[k], points[(k + 1) % 4], dark, edge);
                }
            }
        }
    }

    /// Draws a grid of cells: `at(column, row)` is the cell at each square, `side` the
    /// squares' size, from `(x0, y0)`. Each cell of a piece in its colour with its symbol
    /// and its colour marks; an empty target cell outlined in black, a cell outside the
    /// target in light grey; a heavy line where two pieces meet.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn grid(
        &self,
        svg: &mut Svg,
        x0: f64,
        y0: f64,
        side: f64,
        columns: usize,
        rows: usize,
        inside: &HashSet<Cell>,
        at: &dyn Fn(usize, usize) -> Cell,
    ) {
        let dark = Rgb(0x22, 0x22, 0x22);
        for row in 0..rows {
            for column in 0..columns {
                let (sx, sy) = (x0 + column as f64 * side, y0 + row as f64 * side);
                let cell = at(column, row);
                match self.owner.get(&cell) {
                    Some(&b) => {
                        let body = &self.bodies[b];
                        let colour = self.colours[b];
                        svg.rect(
                            sx,
                            sy,
                            side,
                            side,
                            Some(colour),
                            Rgb(255, 255, 255),
                            &marker(body),
                        );
                        if side >= 10.0 {
                            svg.text(
                                sx + side / 2.0,
                                sy + side * 0.7,
                                side * 0.55,
                                colour.ink(),
                                &body.symbol.to_string(),
                                "middle",
                            );
                        }
                    }
                    None if inside.contains(&cell) => {
                        svg.rect(sx, sy, side, side, None, Rgb(0, 0, 0), "");
                    }
                    None => {
                        svg.rect(sx, sy, side, side, None, Rgb(0xee, 0xee, 0xee), "");
                    }
                }
                // Colour marks, kept off the square's edges so that marks of diagonal
                // neighbours do not meet: the target cell's a triangle in the top-left
                // corner, the piece cell's a square in the bottom-right one.
                let (inset, leg) = ((side * 0.07).max(1.5), (side * 0.3).max(4.0));
                if let Some(&k) = self.target_marks.get(&cell) {
                    let (x, y) = (sx + inset, sy + inset);
                    let corner = [(x, y), (x + leg, y), (x, y + leg)];
                    self.mark(svg, &corner, k, "target");
                }
                if let Some(&k) = self.piece_marks.get(&cell) {
                    let (x, y) = (sx + side - inset, sy + side - inset);
                    let leg = leg * 0.8;
                    let square = [(x, y), (x - leg, y), (x - leg, y - leg), (x, y - leg)];
                    self.mark(svg, &square, k, "piece");
                }
            }
        }
        // Piece outlines, over the squares.
        let heavy = (side / 12.0).clamp(1.2, 2.5);
        for row in 0..rows {
            for column in 0..columns {
                let (sx, sy) = (x0 + column as f64 * side, y0 + row as f64 * side);
                let here = self.owner.get(&at(column, row));
                let (right, below) = (
                    (column + 1 < columns)
                        .then(|| self.owner.get(&at(column + 1, row)))
                        .flatten(),
                    (row + 1 < rows)
                        .then(|| self.owner.get(&at(column, row + 1)))
                        .flatten(),
                );
                if (here.is_some() || right.is_some()) && here != right {
                    svg.line((sx + side, sy), (sx + side, sy + side), dark, heavy);
                }
                if (here.is_some() || below.is_some()) && here != below {
                    svg.line((sx, sy + side), (sx + side, sy + side), dark, heavy);
                }
                if here.is_some() && column == 0 {
                    svg.line((sx, sy), (sx, sy + side), dark, heavy);
                }
                if here.is_some() && row == 0 {
                    svg.line((sx, sy), (sx + side, sy), dark, heavy);
                }
            }
        }
    }

    /// The key's entries (pieces, when `pieces`, and some need naming; then the colour
    /// constraints), with a note explaining the colour marks.
    pub(super) fn key(&self, pieces: bool) -> (Vec<KeyEntry>, Option<String>) {
        let mut entries = Vec::new();
        let names_needed = self
            .bodies
            .iter()
            .any(|b| b.label.is_some() || b.copies > 1 || b.symbol.to_string() != b.name);
        if pieces && names_needed {
            for (b, body) in self.bodies.iter().enumerate() {
                entries.push(KeyEntry {
                    colour: self.colours[b],
                    symbol: body.symbol.to_string(),
                    attributes: format!(" class=\"swatch\"{}", marker(body)),
                    meaning: caption(body, true),
                });
            }
        }
        let mut note = None;
        if !self.target_marks.is_empty() || !self.piece_marks.is_empty() {
            for (k, name) in self.colors.iter().enumerate() {
                let (colour, attributes) = self.constraint(k as u32 + 1, "key");
                entries.push(KeyEntry {
                    colour,
                    symbol: String::new(),
                    attributes,
                    meaning: format!("colour {name}"),
                });
            }
            note = Some(
                "Colour constraints: a triangle in a cell's top-left corner is the target \
                 cell's colour; a square (in a cell's bottom-right corner, or on a face) is \
                 the colour of the piece's cell, which sits on a target cell of that colour."
                    .to_string(),
            );
        }
        (entries, note)
    }
}

/// One entry of the key: a swatch of `colour` with `symbol` in it (or none), its SVG
/// attributes, and what it means.
pub(super) struct KeyEntry {
    pub(super) colour: Rgb,
    pub(super) symbol: String,
    pub(super) attributes: String,
    pub(super) meaning: String,
}

/// `A = name #2 (label)`: the symbol as the slices show it, then what it stands for.
pub(super) fn caption(body: &Body, with_label: bool) -> String {
    let mut caption = body.symbol.to_string();
    if body.copies > 1 {
        caption += &format!(" = {} #{}", body.name, body.copy);
    } else if body.symbol.to_string() != body.name {
        caption += &format!(" = {}", body.name);
    }
    match &body.label {
        Some(label) if with_label => format!("{caption} ({label})"),
        _ => caption,
    }
}
