//! The picture of a polycube solution.
//!
//! A solid target (at least two cells thick on every axis) gets three panels:
//! - `assembled`: the solution in four axonometric views, the eye turned 90 degrees
//!   about the vertical (z) axis from one view to the next. Views 1 and 3 look from
//!   above, views 2 and 4 from below, so that between them every outer face of the target
//!   (bottoms included) faces the eye in two views. Faces are opaque, outlined where one
//!   piece meets another or the surface bends, not along every unit square.
//! - `pieces`: each piece (each copy) alone, in its place inside a thin wireframe of the
//!   target, with its symbol, name and label under it.
//! - `slices`: the z-layers from bottom to top, rows y (least at the top, as in the text
//!   output) and columns x, each cell in its piece's colour with its symbol, a heavy line
//!   where two pieces meet.
//!
//! A flat target (one cell thick on some axis) gets one large 2-D picture instead, the
//! `plan`: seen from above (z flat: rows y, least at the top, as in the text output) or
//! from the front (y or x flat: rows z, highest at the top).
//!
//! A `key` panel follows when there is something the drawing cannot say by itself: the
//! colour constraints (a triangle in a cell's top-left corner is the target cell's
//! colour; a square, in a cell's bottom-right corner or on a face of a 3-D view, the
//! piece cell's colour), and, for a plan, which symbol is which piece.
//!
//! Projection is orthographic, with a right-handed camera, so no piece is ever drawn as
//! its mirror image. Hidden faces are never drawn over visible ones: only faces on the
//! outside that face the eye are drawn (back faces culled), and those in order of depth,
//! farthest first (painter's order). For unit faces of a cube grid seen from a direction
//! with no zero component, the face centres' depth order is an order in which nothing
//! nearer is painted before something farther that it overlaps. Each face's outline is
//! painted with the face, so a nearer face covers the outlines behind it too.

use std::collections::{HashMap, HashSet};

use super::svg::{escape, Svg};
use super::text::{fit, width as text_width, wrap};
use super::{constraint_colour, separated, shade, title, title_height, Rgb};
use crate::geometry::{max_corner, min_corner, Cell};

/// One placed piece (one copy) as the picture sees it.
#[derive(Clone, Debug)]
pub struct Body {
    /// The piece's name.
    pub name: String,
    /// The piece's label, if it has one.
    pub label: Option<String>,
    /// The one-character symbol of this copy, as in the text output.
    pub symbol: char,
    /// Copy number from 1.
    pub copy: u32,
    /// How many copies the piece has.
    pub copies: u32,
    pub cells: Vec<Cell>,
    /// The colour constraint of each of `cells` (0: none; `k`: [`Scene::colors`]`[k - 1]`);
    /// empty for a piece without colours.
    pub colors: Vec<u32>,
}

/// What one picture shows: `bodies` (every placed copy) filling `target`.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    pub title: &'a str,
    pub target: &'a [Cell],
    /// The colour constraint of each target cell, parallel to `target` (0: none; `k`:
    /// `colors[k - 1]`); empty when the puzzle has none.
    pub cell_colors: &'a [u32],
    /// The constraint colours' names.
    pub colors: &'a [String],
    pub bodies: &'a [Body],
}

/// Bounding boxes larger than this many cells are not drawn (a sparse target far apart
/// would make a slices panel of a million empty squares).
pub const MAX_BOX_CELLS: u64 = 100_000;

/// Whether [`picture`] draws `target`: its bounding box has at most [`MAX_BOX_CELLS`]
/// cells. Known before any solving, so that a caller can refuse up front.
pub fn drawable(target: &[Cell]) -> bool {
    match (min_corner(target), max_corner(target)) {
        (Some(lo), Some(hi)) => {
            (0..3).map(|a| (hi[a] - lo[a] + 1) as u64).product::<u64>() <= MAX_BOX_CELLS
        }
        _ => false,
    }
}

/// The eye for one view.
#[derive(Clone, Copy, Debug)]
struct View {
    right: [f64; 3],
    up: [f64; 3],
    /// Toward the eye: a face is seen when its normal has a positive dot product.
    eye: [f64; 3],
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalized(a: [f64; 3]) -> [f64; 3] {
    let n = dot(a, a).sqrt();
    [a[0] / n, a[1] / n, a[2] / n]
}

impl View {
    /// The eye at `azimuth` degrees round the z axis (from +x toward +y) and `elevation`
    /// degrees above the xy plane (negative: below).
    fn new(azimuth: f64, elevation: f64) -> View {
        let (a, e) = (azimuth.to_radians(), elevation.to_radians());
        let eye = [e.cos() * a.cos(), e.cos() * a.sin(), e.sin()];
        let forward = [-eye[0], -eye[1], -eye[2]];
        let right = normalized(cross(forward, [0.0, 0.0, 1.0]));
        let up = cross(right, forward);
        View { right, up, eye }
    }

    /// Screen coordinates (y down) of a point, before scaling.
    fn project(&self, p: [f64; 3]) -> (f64, f64) {
        (dot(p, self.right), -dot(p, self.up))
    }
}

/// A unit face: the cell, the axis of its normal and the normal's sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Face {
    cell: Cell,
    axis: usize,
    positive: bool,
}

impl Face {
    /// The six faces of `cell`.
    fn around(cell: Cell) -> impl Iterator<Item = Face> {
        (0..3).flat_map(move |axis| {
            [false, true].map(|positive| Face {
                cell,
                axis,
                positive,
            })
        })
    }

    fn normal(&self) -> [f64; 3] {
        let mut n = [0.0; 3];
        n[self.axis] = if self.positive { 1.0 } else { -1.0 };
        n
    }

    fn neighbour(&self) -> Cell {
        let mut c = self.cell;
        c[self.axis] += if self.positive { 1 } else { -1 };
        c
    }

    /// The four corners, in order round the face.
    fn corners(&self) -> [[f64; 3]; 4] {
        let (b, d) = ((self.axis + 1) % 3, (self.axis + 2) % 3);
        let base = self.cell.map(|v| v as f64);
        let mut out = [base; 4];
        for (k, (db, dd)) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            .into_iter()
            .enumerate()
        {
            out[k][self.axis] += if self.positive { 1.0 } else { 0.0 };
            out[k][b] += db;
            out[k][d] += dd;
        }
        out
    }

    fn centre(&self) -> [f64; 3] {
        let c = self.corners();
        let mut m = [0.0; 3];
        for p in c {
            for k in 0..3 {
                m[k] += p[k] / 4.0;
            }
        }
        m
    }
}

/// The target's feature edges: unit edges of its surface where the surface bends, so that
/// a box shows its 12 edges and not a grid.
fn feature_edges(target: &[Cell]) -> Vec<([f64; 3], [f64; 3])> {
    let inside: HashSet<Cell> = target.iter().copied().collect();
    // Each unit edge, keyed by its lower end and direction, with the normals of the
    // surface faces that meet there.
    let mut edges: HashMap<(Cell, usize), Vec<(usize, bool)>> = HashMap::new();
    for face in target.iter().flat_map(|&cell| Face::around(cell)) {
        if inside.contains(&face.neighbour()) {
            continue;
        }
        let Face {
            cell,
            axis,
            positive,
        } = face;
        let mut plane = cell;
        plane[axis] += positive as i32;
        for along in [(axis + 1) % 3, (axis + 2) % 3] {
            let other = 3 - axis - along;
            for offset in [0, 1] {
                let mut start = plane;
                start[other] += offset;
                edges
                    .entry((start, along))
                    .or_default()
                    .push((axis, positive));
            }
        }
    }
    // Unit edges where the surface bends, merged into straight runs: (line, start).
    let mut lines: HashMap<(usize, [i32; 2]), Vec<i32>> = HashMap::new();
    for ((start, along), normals) in edges {
        if normals.len() == 2 && normals[0] == normals[1] {
            continue;
        }
        let (b, d) = ((along + 1) % 3, (along + 2) % 3);
        lines
            .entry((along, [start[b], start[d]]))
            .or_default()
            .push(start[along]);
    }
    let mut out = Vec::new();
    for ((along, [pb, pd]), mut starts) in lines {
        starts.sort_unstable();
        let (b, d) = ((along + 1) % 3, (along + 2) % 3);
        let mut k = 0;
        while k < starts.len() {
            let mut end = k;
            while end + 1 < starts.len() && starts[end + 1] == starts[end] + 1 {
                end += 1;
            }
            let mut a = [0.0; 3];
            a[b] = pb as f64;
            a[d] = pd as f64;
            let mut z = a;
            a[along] = starts[k] as f64;
            z[along] = (starts[end] + 1) as f64;
            out.push((a, z));
            k = end + 1;
        }
    }
    out.sort_by(|x, y| x.partial_cmp(y).unwrap());
    out
}

/// The wireframe drawn behind each piece: the target's bends, or for a target with
/// many (a scattered one), its bounding box, so that the pieces panel stays small.
fn wireframe(target: &[Cell], lo: Cell, hi: Cell) -> Vec<([f64; 3], [f64; 3])> {
    let edges = feature_edges(target);
    if edges.len() <= MAX_WIREFRAME {
        return edges;
    }
    let mut out = Vec::new();
    for k in 0..8 {
        for a in 0..3 {
            if k >> a & 1 == 0 {
                out.push((box_corner(lo, hi, k), box_corner(lo, hi, k | 1 << a)));
            }
        }
    }
    out
}

/// Corner `k` (bit a set: the far side on axis a) of the box of cells from `lo` to `hi`.
fn box_corner(lo: Cell, hi: Cell, k: usize) -> [f64; 3] {
    [0, 1, 2].map(|a| {
        if k >> a & 1 == 1 {
            hi[a] as f64 + 1.0
        } else {
            lo[a] as f64
        }
    })
}

/// More straight edges than this in the target's outline, and the wireframe is its
/// bounding box instead.
const MAX_WIREFRAME: usize = 200;

/// The screen box of `target`'s bounding box in `view`, unscaled: (min x, min y, max x,
/// max y).
fn extent(view: &View, lo: Cell, hi: Cell) -> (f64, f64, f64, f64) {
    let mut e = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for k in 0..8 {
        let (x, y) = view.project(box_corner(lo, hi, k));
        e = (e.0.min(x), e.1.min(y), e.2.max(x), e.3.max(y));
    }
    e
}

/// Where one view goes: the screen point of the unscaled origin, and the scale.
#[derive(Clone, Copy)]
struct Place {
    x: f64,
    y: f64,
    scale: f64,
}

impl Place {
    fn at(&self, view: &View, p: [f64; 3]) -> (f64, f64) {
        let (x, y) = view.project(p);
        (self.x + x * self.scale, self.y + y * self.scale)
    }
}

/// Which body covers each cell.
fn owners(bodies: &[Body]) -> HashMap<Cell, usize> {
    bodies
        .iter()
        .enumerate()
        .flat_map(|(b, body)| body.cells.iter().map(move |&c| (c, b)))
        .collect()
}

/// Faces of the bodies' cells that separate one body from anything else, each with its
/// body; with `outside`, only those on the outside of the whole assembly (the others are
/// hidden behind opaque faces anyway).
fn body_faces(bodies: &[Body], outside: bool) -> Vec<(Face, usize)> {
    let owner = owners(bodies);
    bodies
        .iter()
        .enumerate()
        .flat_map(|(b, body)| body.cells.iter().map(move |&cell| (b, cell)))
        .flat_map(|(b, cell)| Face::around(cell).map(move |face| (face, b)))
        .filter(|(face, b)| match owner.get(&face.neighbour()) {
            None => true,
            Some(other) => !outside && other != b,
        })
        .collect()
}

/// Pairs of bodies that touch: face to face in the solution, or, on the outside, along
/// an edge where the surface bends inward (the two faces meet in the assembled views).
fn contacts(bodies: &[Body]) -> Vec<(usize, usize)> {
    let owner = owners(bodies);
    let mut out = HashSet::new();
    for (face, a) in body_faces(bodies, false) {
        let beyond = face.neighbour();
        match owner.get(&beyond) {
            Some(&b) => {
                out.insert((a.min(b), a.max(b)));
            }
            None => {
                // An inward bend: a cell beside the empty one beyond this face.
                for along in (0..3).filter(|&t| t != face.axis) {
                    for step in [-1, 1] {
                        let mut diagonal = beyond;
                        diagonal[along] += step;
                        if let Some(&b) = owner.get(&diagonal) {
                            if b != a {
                                out.insert((a.min(b), a.max(b)));
                            }
                        }
                    }
                }
            }
        }
    }
    let mut out: Vec<_> = out.into_iter().collect();
    out.sort_unstable();
    out
}

/// The attributes that tie a drawn element to its piece and copy.
fn marker(body: &Body) -> String {
    format!(
        " data-piece=\"{}\" data-copy=\"{}\"",
        escape(&body.symbol.to_string()),
        body.copy
    )
}

/// What the drawing functions share: the bodies, their colours and the colour
/// constraints.
struct Ink<'a> {
    bodies: &'a [Body],
    colours: Vec<Rgb>,
    owner: HashMap<Cell, usize>,
    /// Target cells with a colour constraint, and their colour numbers.
    target_marks: HashMap<Cell, u32>,
    /// Piece cells with a colour, and their colour numbers.
    piece_marks: HashMap<Cell, u32>,
    colors: &'a [String],
}

impl Ink<'_> {
    fn new<'a>(scene: &Scene<'a>) -> Ink<'a> {
        let bodies = scene.bodies;
        Ink {
            bodies,
            colours: separated(bodies.len(), &contacts(bodies)),
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
    fn constraint(&self, k: u32, whose: &str) -> (Rgb, String) {
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
    fn mark(&self, svg: &mut Svg, points: &[(f64, f64)], k: u32, whose: &str) {
        let (colour, attributes) = self.constraint(k, whose);
        svg.polygon(points, colour, (Rgb(255, 255, 255), 3.0), "");
        svg.polygon(points, colour, (Rgb(0x22, 0x22, 0x22), 1.0), &attributes);
    }

    /// Draws the `faces` that face the eye, farthest first, each with its outline where
    /// it does not continue into a face of the same body in the same plane.
    fn faces(&self, svg: &mut Svg, view: &View, place: Place, faces: &[(Face, usize)], edge: f64) {
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
    fn grid(
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
    fn key(&self, pieces: bool) -> (Vec<KeyEntry>, Option<String>) {
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
struct KeyEntry {
    colour: Rgb,
    symbol: String,
    attributes: String,
    meaning: String,
}

/// `A = name #2 (label)`: the symbol as the slices show it, then what it stands for.
fn caption(body: &Body, with_label: bool) -> String {
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

const MARGIN: f64 = 16.0;
/// Room for a panel's heading above its content.
const HEADING: f64 = 28.0;
/// The narrowest picture: room for a title and headings.
const MIN_WIDTH: f64 = 360.0;
const GREY: Rgb = Rgb(0x55, 0x55, 0x55);

/// The key panel's layout: entries in rows of equal columns, then the note's lines.
struct KeyLayout {
    entries: Vec<KeyEntry>,
    note: Vec<String>,
    column: f64,
    per_row: usize,
    height: f64,
}

impl KeyLayout {
    const SWATCH: f64 = 18.0;
    const ROW: f64 = 24.0;

    /// The width it would like, and the layout for a panel `width` wide.
    fn natural_width(entries: &[KeyEntry]) -> f64 {
        entries
            .iter()
            .map(|e| Self::SWATCH + 8.0 + text_width(&e.meaning, 12.0).min(260.0) + MARGIN)
            .fold(0.0, f64::max)
            + 2.0 * MARGIN
    }

    fn new(entries: Vec<KeyEntry>, note: Option<String>, width: f64) -> KeyLayout {
        let room = width - 8.0 - 2.0 * MARGIN;
        let column = (Self::natural_width(&entries) - 2.0 * MARGIN)
            .min(room)
            .max(1.0);
        let per_row = ((room / column).floor() as usize).max(1);
        let note: Vec<String> = note.map_or(Vec::new(), |n| wrap(&n, 11.0, room, 8));
        let rows = entries.len().div_ceil(per_row);
        let height = HEADING + rows as f64 * Self::ROW + note.len() as f64 * 15.0 + MARGIN;
        KeyLayout {
            entries,
            note,
            column,
            per_row,
            height,
        }
    }

    fn draw(&self, svg: &mut Svg, top: f64, width: f64) {
        svg.panel("key", 4.0, top, width - 8.0, self.height, "key");
        for (k, entry) in self.entries.iter().enumerate() {
            let KeyEntry {
                colour,
                symbol,
                attributes,
                meaning,
            } = entry;
            let x = MARGIN + (k % self.per_row) as f64 * self.column;
            let y = top + HEADING + (k / self.per_row) as f64 * Self::ROW;
            svg.rect(
                x,
                y,
                Self::SWATCH,
                Self::SWATCH,
                Some(*colour),
                Rgb(0x22, 0x22, 0x22),
                attributes,
            );
            if !symbol.is_empty() {
                svg.text(
                    x + Self::SWATCH / 2.0,
                    y + 13.5,
                    11.0,
                    colour.ink(),
                    symbol,
                    "middle",
                );
            }
            let room = self.column - Self::SWATCH - 8.0 - 8.0;
            svg.text(
                x + Self::SWATCH + 8.0,
                y + 13.5,
                12.0,
                Rgb(0x22, 0x22, 0x22),
                &fit(meaning, 12.0, room),
                "start",
            );
        }
        let rows = self.entries.len().div_ceil(self.per_row);
        let y = top + HEADING + rows as f64 * Self::ROW + 11.0;
        for (k, line) in self.note.iter().enumerate() {
            svg.text(MARGIN, y + 15.0 * k as f64, 11.0, GREY, line, "start");
        }
        svg.close();
    }
}

/// The SVG picture of one solution ([`Scene`]). `None` when the target's bounding box is
/// too large to draw ([`drawable`]).
pub fn picture(scene: &Scene) -> Option<String> {
    if !drawable(scene.target) {
        return None;
    }
    let lo = min_corner(scene.target)?;
    let hi = max_corner(scene.target)?;
    let ink = Ink::new(scene);
    let size: [usize; 3] = [0, 1, 2].map(|a| (hi[a] - lo[a] + 1) as usize);
    Some(match (0..3).rev().find(|&a| size[a] == 1) {
        Some(flat) => plan(scene, &ink, lo, hi, flat),
        None => solid(scene, &ink, lo, hi),
    })
}

/// A flat target (one cell thick along `flat`): one large 2-D picture and a key.
fn plan(scene: &Scene, ink: &Ink, lo: Cell, hi: Cell, flat: usize) -> String {
    // (column axis, row axis, whether rows go from the highest coordinate down, wording).
    let (u, v, highest_first, seen) = match flat {
        2 => (0, 1, false, "one layer: seen from above"),
        1 => (0, 2, true, "one layer: seen from the front"),
        _ => (1, 2, true, "one layer: seen from the side"),
    };
    let (columns, rows) = ((hi[u] - lo[u] + 1) as usize, (hi[v] - lo[v] + 1) as usize);
    let side = (560.0 / columns.max(rows) as f64).clamp(8.0, 64.0);
    let (entries, note) = ink.key(true);
    let width = (columns as f64 * side + 2.0 * MARGIN + 8.0)
        .max(MIN_WIDTH)
        .max(if entries.is_empty() {
            0.0
        } else {
            KeyLayout::natural_width(&entries) + 8.0
        });
    let key = (!entries.is_empty() || note.is_some()).then(|| KeyLayout::new(entries, note, width));
    let title_h = title_height(scene.title, width, MARGIN);
    let plan_h = HEADING + rows as f64 * side + MARGIN;
    let height = title_h + plan_h + key.as_ref().map_or(0.0, |k| k.height + MARGIN) + MARGIN;
    let mut svg = Svg::new(width, height, scene.title);
    title(&mut svg, scene.title, width, MARGIN);
    let top = title_h;
    svg.panel("plan", 4.0, top, width - 8.0, plan_h, seen);
    let inside: HashSet<Cell> = scene.target.iter().copied().collect();
    svg.open(&[("class", "plan".into())]);
    let at = |column: usize, row: usize| {
        let mut cell = lo;
        cell[u] += column as i32;
        cell[v] = if highest_first {
            hi[v] - row as i32
        } else {
            lo[v] + row as i32
        };
        cell
    };
    ink.grid(
        &mut svg,
        MARGIN,
        top + HEADING,
        side,
        columns,
        rows,
        &inside,
        &at,
    );
    svg.close();
    svg.close();
    if let Some(key) = &key {
        key.draw(&mut svg, top + plan_h + MARGIN, width);
    }
    svg.finish()
}

/// A solid target: assembled views, the pieces, the slices, and a key for colours.
fn solid(scene: &Scene, ink: &Ink, lo: Cell, hi: Cell) -> String {
    let bodies = scene.bodies;
    let size: [usize; 3] = [0, 1, 2].map(|a| (hi[a] - lo[a] + 1) as usize);
    let views: Vec<(View, &str)> = vec![
        (View::new(-60.0, 30.0), "from above"),
        (View::new(30.0, -30.0), "from below, turned 90\u{b0}"),
        (View::new(120.0, 30.0), "from above, turned 180\u{b0}"),
        (View::new(210.0, -30.0), "from below, turned 270\u{b0}"),
    ];
    let extents: Vec<_> = views.iter().map(|(v, _)| extent(v, lo, hi)).collect();
    let widest = extents
        .iter()
        .map(|e| (e.2 - e.0).max(e.3 - e.1))
        .fold(0.0, f64::max);
    // A view about 220 pixels across, whatever the puzzle's size.
    let scale = (220.0 / widest).clamp(2.0, 60.0);

    // The assembled panel: four views in a row, each in a column wide enough for the
    // view and for its caption.
    let caption_size = 12.0;
    let column_w: Vec<f64> = extents
        .iter()
        .zip(&views)
        .map(|(e, (_, name))| ((e.2 - e.0) * scale).max(text_width(name, caption_size)))
        .collect();
    let view_h = extents
        .iter()
        .map(|e| (e.3 - e.1) * scale)
        .fold(0.0, f64::max);
    let assembled_w = column_w.iter().sum::<f64>() + MARGIN * 5.0 + 8.0;

    // The pieces panel: small views of the first eye, in rows, each in a cell wide
    // enough for its view and, up to a point, its caption (wrapped to two lines).
    let small = scale * 0.55;
    let e0 = extents[0];
    let view_w = (e0.2 - e0.0) * small;
    let captions: Vec<String> = bodies.iter().map(|b| caption(b, false)).collect();
    let longest = captions
        .iter()
        .map(|c| text_width(c, 11.0))
        .fold(0.0, f64::max);
    let piece_w = view_w.max(90.0).max(longest.min(200.0));
    let caption_lines: Vec<Vec<String>> =
        captions.iter().map(|c| wrap(c, 11.0, piece_w, 2)).collect();
    let lines = caption_lines.iter().map(Vec::len).max().unwrap_or(1);
    let labelled = bodies.iter().any(|b| b.label.is_some());
    let piece_h =
        (e0.3 - e0.1) * small + 8.0 + 13.0 * lines as f64 + if labelled { 12.0 } else { 0.0 };

    // The slices panel: one grid per layer, side by side, wrapping; each layer as wide
    // as its grid or its `z=` label.
    let square = (240.0 / size[0].max(size[1]) as f64).clamp(6.0, 26.0);
    let z_label = |z: i32| format!("z={z}");
    let layer_w = (size[0] as f64 * square)
        .max(text_width(&z_label(lo[2]), 12.0))
        .max(text_width(&z_label(hi[2]), 12.0));
    let layer_h = size[1] as f64 * square + 18.0;

    let (entries, note) = ink.key(false);
    let width = assembled_w
        .max(piece_w + 2.0 * MARGIN + 8.0)
        .max(layer_w + 2.0 * MARGIN + 8.0)
        .max(MIN_WIDTH)
        .max(if entries.is_empty() {
            0.0
        } else {
            KeyLayout::natural_width(&entries) + 8.0
        });
    let per_row = ((width - 8.0 - MARGIN) / (piece_w + MARGIN))
        .floor()
        .max(1.0) as usize;
    let piece_rows = bodies.len().div_ceil(per_row);
    let per_layer_row = ((width - 8.0 - MARGIN) / (layer_w + MARGIN))
        .floor()
        .max(1.0) as usize;
    let layer_rows = size[2].div_ceil(per_layer_row);
    let key = (!entries.is_empty() || note.is_some()).then(|| KeyLayout::new(entries, note, width));

    let assembled_h = HEADING + view_h + 24.0 + MARGIN;
    let pieces_h = HEADING + piece_rows as f64 * (piece_h + MARGIN) + MARGIN;
    let slices_h = HEADING + layer_rows as f64 * (layer_h + MARGIN) + MARGIN;
    let title_h = title_height(scene.title, width, MARGIN);
    let height = title_h
        + assembled_h
        + pieces_h
        + slices_h
        + key.as_ref().map_or(0.0, |k| k.height + MARGIN)
        + 3.0 * MARGIN;
    let mut svg = Svg::new(width, height, scene.title);
    title(&mut svg, scene.title, width, MARGIN);

    // Assembled.
    let mut top = title_h;
    svg.panel(
        "assembled",
        4.0,
        top,
        width - 8.0,
        assembled_h,
        "assembled: four sides",
    );
    let faces = body_faces(bodies, true);
    let mut x = MARGIN;
    for (((view, name), e), &column) in views.iter().zip(&extents).zip(&column_w) {
        let w = (e.2 - e.0) * scale;
        let place = Place {
            x: x + (column - w) / 2.0 - e.0 * scale,
            y: top + HEADING + 6.0 - e.1 * scale,
            scale,
        };
        svg.open(&[("class", "view".into())]);
        ink.faces(&mut svg, view, place, &faces, 1.2);
        svg.close();
        svg.text(
            x + column / 2.0,
            top + HEADING + view_h + 22.0,
            caption_size,
            GREY,
            name,
            "middle",
        );
        x += column + MARGIN;
    }
    svg.close();
    top += assembled_h + MARGIN;

    // Pieces.
    svg.panel(
        "pieces",
        4.0,
        top,
        width - 8.0,
        pieces_h,
        "pieces: each in its place",
    );
    let (view, _) = views[0];
    let wireframe = wireframe(scene.target, lo, hi);
    for (k, body) in bodies.iter().enumerate() {
        let (row, col) = (k / per_row, k % per_row);
        let x0 = MARGIN + col as f64 * (piece_w + MARGIN);
        let y0 = top + HEADING + row as f64 * (piece_h + MARGIN);
        let place = Place {
            x: x0 + (piece_w - view_w) / 2.0 - e0.0 * small,
            y: y0 - e0.1 * small,
            scale: small,
        };
        svg.open(&[
            ("class", "piece".into()),
            ("data-piece", escape(&body.symbol.to_string())),
            ("data-copy", body.copy.to_string()),
        ]);
        for &(a, b) in &wireframe {
            svg.line(
                place.at(&view, a),
                place.at(&view, b),
                Rgb(0xaa, 0xaa, 0xaa),
                0.7,
            );
        }
        let alone = std::slice::from_ref(body);
        let faces: Vec<(Face, usize)> = body_faces(alone, true)
            .into_iter()
            .map(|(f, _)| (f, k))
            .collect();
        ink.faces(&mut svg, &view, place, &faces, 0.9);
        let mut y = y0 + (e0.3 - e0.1) * small + 8.0 + 9.0;
        for line in &caption_lines[k] {
            svg.text(
                x0 + piece_w / 2.0,
                y,
                11.0,
                Rgb(0x22, 0x22, 0x22),
                line,
                "middle",
            );
            y += 13.0;
        }
        if let Some(label) = &body.label {
            let y = y0 + (e0.3 - e0.1) * small + 8.0 + 13.0 * lines as f64 + 9.0;
            svg.text(
                x0 + piece_w / 2.0,
                y,
                10.0,
                Rgb(0x66, 0x66, 0x66),
                &fit(label, 10.0, piece_w),
                "middle",
            );
        }
        svg.close();
    }
    svg.close();
    top += pieces_h + MARGIN;

    // Slices.
    svg.panel(
        "slices",
        4.0,
        top,
        width - 8.0,
        slices_h,
        "slices: z-layers, bottom first",
    );
    let inside: HashSet<Cell> = scene.target.iter().copied().collect();
    for dz in 0..size[2] {
        let z = lo[2] + dz as i32;
        let (row, col) = (dz / per_layer_row, dz % per_layer_row);
        let x0 = MARGIN + col as f64 * (layer_w + MARGIN);
        let y0 = top + HEADING + row as f64 * (layer_h + MARGIN);
        svg.open(&[("class", "layer".into()), ("data-z", z.to_string())]);
        svg.text(x0, y0 + 12.0, 12.0, GREY, &z_label(z), "start");
        let at = |column: usize, row: usize| [lo[0] + column as i32, lo[1] + row as i32, z];
        ink.grid(
            &mut svg,
            x0,
            y0 + 18.0,
            square,
            size[0],
            size[1],
            &inside,
            &at,
        );
        svg.close();
    }
    svg.close();
    top += slices_h + MARGIN;
    if let Some(key) = &key {
        key.draw(&mut svg, top, width);
    }
    svg.finish()
}
