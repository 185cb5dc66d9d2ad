//! The picture of a polycube solution: three panels.
//!
//! - `assembled`: the solution in four axonometric views, the eye turned 90 degrees
//!   about the vertical (z) axis from one view to the next. Views 1 and 3 look from
//!   above, views 2 and 4 from below, so that between them every outer face of the target
//!   (bottoms included) faces the eye in two views. Faces are a little translucent, so
//!   that pieces inside show through.
//! - `pieces`: each piece (each copy) alone, opaque, in its place inside a thin wireframe
//!   of the target.
//! - `slices`: the z-layers from bottom to top, rows y (least at the top, as in the text
//!   output) and columns x, each cell in its piece's colour with its symbol.
//!
//! Projection is orthographic, with a right-handed camera, so no piece is ever drawn as
//! its mirror image. Hidden faces are never drawn over visible ones: only faces that
//! face the eye are drawn (back faces culled), and those in order of depth, farthest
//! first (painter's order). For unit faces of a cube grid seen from a direction with no
//! zero component, the face centres' depth order is an order in which nothing nearer is
//! painted before something farther that it overlaps.

use std::collections::{HashMap, HashSet};

use super::svg::{escape, Svg};
use super::{shade, Rgb};
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
    pub color: Rgb,
    pub cells: Vec<Cell>,
}

/// Bounding boxes larger than this many cells are not drawn (a sparse target far apart
/// would make a slices panel of a million empty squares).
pub const MAX_BOX_CELLS: u64 = 100_000;

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

/// Which body covers each cell.
fn owners(bodies: &[Body]) -> HashMap<Cell, usize> {
    bodies
        .iter()
        .enumerate()
        .flat_map(|(b, body)| body.cells.iter().map(move |&c| (c, b)))
        .collect()
}

/// Faces of `cells` that separate one body from anything else, each with its body.
fn body_faces(bodies: &[Body]) -> Vec<(Face, usize)> {
    let owner = owners(bodies);
    bodies
        .iter()
        .enumerate()
        .flat_map(|(b, body)| body.cells.iter().map(move |&cell| (b, cell)))
        .flat_map(|(b, cell)| Face::around(cell).map(move |face| (face, b)))
        .filter(|(face, b)| owner.get(&face.neighbour()) != Some(b))
        .collect()
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

/// The attributes that tie a drawn element to its piece and copy.
fn marker(body: &Body) -> String {
    format!(
        " data-piece=\"{}\" data-copy=\"{}\"",
        escape(&body.symbol.to_string()),
        body.copy
    )
}

/// Draws the `faces` ([`body_faces`] of `bodies`) that face the eye, farthest first.
fn draw_faces(
    svg: &mut Svg,
    view: &View,
    place: Place,
    bodies: &[Body],
    faces: &[(Face, usize)],
    opacity: f64,
) {
    let mut seen: Vec<(f64, Face, usize)> = faces
        .iter()
        .filter(|(f, _)| dot(f.normal(), view.eye) > 1e-9)
        .map(|&(f, b)| (dot(f.centre(), view.eye), f, b))
        .collect();
    seen.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, face, b) in seen {
        let body = &bodies[b];
        let points: Vec<(f64, f64)> = face.corners().iter().map(|&p| place.at(view, p)).collect();
        svg.polygon(
            &points,
            body.color.scaled(shade(face.axis)),
            opacity,
            &marker(body),
        );
    }
}

/// The SVG picture of one solution: `bodies` (every placed copy) filling `target`.
/// `None` when the target's bounding box is too large to draw ([`MAX_BOX_CELLS`]).
pub fn picture(title: &str, target: &[Cell], bodies: &[Body]) -> Option<String> {
    let lo = min_corner(target)?;
    let hi = max_corner(target)?;
    let size: [i64; 3] = [0, 1, 2].map(|a| (hi[a] - lo[a] + 1) as i64);
    if size.iter().map(|&s| s as u64).product::<u64>() > MAX_BOX_CELLS {
        return None;
    }
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
    let margin = 16.0;
    let heading = 28.0;

    // The assembled panel: four views in a row.
    let cell_w: Vec<f64> = extents.iter().map(|e| (e.2 - e.0) * scale).collect();
    let view_h = extents
        .iter()
        .map(|e| (e.3 - e.1) * scale)
        .fold(0.0, f64::max);
    let assembled_w = cell_w.iter().sum::<f64>() + margin * 5.0;

    // The pieces panel: small views of the first eye, in rows.
    let small = scale * 0.55;
    let e0 = extents[0];
    let piece_w = ((e0.2 - e0.0) * small).max(90.0);
    let piece_h = (e0.3 - e0.1) * small + 30.0;
    let per_row = ((assembled_w - margin) / (piece_w + margin))
        .floor()
        .max(1.0) as usize;
    let piece_rows = bodies.len().div_ceil(per_row);

    // The slices panel: one grid per layer, side by side, wrapping.
    let square = (240.0 / size[0].max(size[1]) as f64).clamp(6.0, 26.0);
    let layer_w = size[0] as f64 * square;
    let layer_h = size[1] as f64 * square + 18.0;
    let width = assembled_w
        .max(per_row as f64 * (piece_w + margin) + margin)
        .max(layer_w + 2.0 * margin);
    let per_layer_row = ((width - margin) / (layer_w + margin)).floor().max(1.0) as usize;
    let layer_rows = (size[2] as usize).div_ceil(per_layer_row);

    let assembled_h = heading + view_h + 24.0 + margin;
    let pieces_h = heading + piece_rows as f64 * (piece_h + margin) + margin;
    let slices_h = heading + layer_rows as f64 * (layer_h + margin) + margin;
    let title_h = 30.0;
    let height = title_h + assembled_h + pieces_h + slices_h + 2.0 * margin;
    let mut svg = Svg::new(width, height, title);
    svg.text(margin, 22.0, 18.0, Rgb(0, 0, 0), title, "start");

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
    // The same faces in every view; each view keeps those turned toward its eye.
    let faces = body_faces(bodies);
    let mut x = margin;
    for ((view, name), e) in views.iter().zip(&extents) {
        let place = Place {
            x: x - e.0 * scale,
            y: top + heading + 6.0 - e.1 * scale,
            scale,
        };
        svg.open(&[("class", "view".into())]);
        draw_faces(&mut svg, view, place, bodies, &faces, 0.85);
        svg.close();
        svg.text(
            x + (e.2 - e.0) * scale / 2.0,
            top + heading + view_h + 22.0,
            12.0,
            Rgb(0x55, 0x55, 0x55),
            name,
            "middle",
        );
        x += (e.2 - e.0) * scale + margin;
    }
    svg.close();
    top += assembled_h + margin;

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
    let wireframe = wireframe(target, lo, hi);
    for (k, body) in bodies.iter().enumerate() {
        let (row, col) = (k / per_row, k % per_row);
        let x0 = margin + col as f64 * (piece_w + margin);
        let y0 = top + heading + row as f64 * (piece_h + margin);
        let place = Place {
            x: x0 + (piece_w - (e0.2 - e0.0) * small) / 2.0 - e0.0 * small,
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
        draw_faces(&mut svg, &view, place, alone, &body_faces(alone), 1.0);
        // The symbol as the slices show it, then what it stands for.
        let mut caption = body.symbol.to_string();
        if body.copies > 1 {
            caption += &format!(" = {} #{}", body.name, body.copy);
        } else if body.symbol.to_string() != body.name {
            caption += &format!(" = {}", body.name);
        }
        svg.text(
            x0 + piece_w / 2.0,
            y0 + piece_h - 14.0,
            11.0,
            Rgb(0x22, 0x22, 0x22),
            &caption,
            "middle",
        );
        if let Some(label) = &body.label {
            // About 6 pixels a character at this size; the label is cut to its view.
            let fits = ((piece_w + margin) / 5.8) as usize;
            let shown: String = if label.chars().count() > fits {
                label
                    .chars()
                    .take(fits.saturating_sub(1))
                    .chain(['\u{2026}'])
                    .collect()
            } else {
                label.clone()
            };
            svg.text(
                x0 + piece_w / 2.0,
                y0 + piece_h,
                10.0,
                Rgb(0x66, 0x66, 0x66),
                &shown,
                "middle",
            );
        }
        svg.close();
    }
    svg.close();
    top += pieces_h + margin;

    // Slices.
    svg.panel(
        "slices",
        4.0,
        top,
        width - 8.0,
        slices_h,
        "slices: z-layers, bottom first",
    );
    let owner = owners(bodies);
    let inside: HashSet<Cell> = target.iter().copied().collect();
    for dz in 0..size[2] as i32 {
        let z = lo[2] + dz;
        let (row, col) = (dz as usize / per_layer_row, dz as usize % per_layer_row);
        let x0 = margin + col as f64 * (layer_w + margin);
        let y0 = top + heading + row as f64 * (layer_h + margin);
        svg.open(&[("class", "layer".into()), ("data-z", z.to_string())]);
        svg.text(
            x0,
            y0 + 12.0,
            12.0,
            Rgb(0x55, 0x55, 0x55),
            &format!("z={z}"),
            "start",
        );
        for y in lo[1]..=hi[1] {
            for x in lo[0]..=hi[0] {
                let sx = x0 + (x - lo[0]) as f64 * square;
                let sy = y0 + 18.0 + (y - lo[1]) as f64 * square;
                let cell = [x, y, z];
                match owner.get(&cell) {
                    Some(&b) => {
                        let body = &bodies[b];
                        svg.rect(
                            sx,
                            sy,
                            square,
                            square,
                            Some(body.color),
                            Rgb(255, 255, 255),
                            &marker(body),
                        );
                        if square >= 10.0 {
                            svg.text(
                                sx + square / 2.0,
                                sy + square * 0.7,
                                square * 0.55,
                                body.color.ink(),
                                &body.symbol.to_string(),
                                "middle",
                            );
                        }
                    }
                    None if inside.contains(&cell) => {
                        svg.rect(sx, sy, square, square, None, Rgb(0, 0, 0), "");
                    }
                    None => {
                        svg.rect(sx, sy, square, square, None, Rgb(0xee, 0xee, 0xee), "");
                    }
                }
            }
        }
        svg.close();
    }
    svg.close();
    Some(svg.finish())
}
