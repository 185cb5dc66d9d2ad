//! The geometry of the 3-D views: the eye of each view (orthographic, right-handed), the
//! unit faces of cells, the outlines worth drawing (where the surface bends, where two
//! pieces meet, a wireframe of the target), and which faces are on the outside.
//!
//! Invariants: a [`View`]'s `right`, `up` and `eye` are unit vectors forming a
//! right-handed frame, so nothing is drawn as its mirror image; a [`Face`] is one unit
//! square of a cell's surface, its normal pointing out of the cell.

use std::collections::{HashMap, HashSet};

use super::Body;

use crate::geometry::Cell;

#[derive(Clone, Copy, Debug)]
pub(super) struct View {
    pub(super) right: [f64; 3],
    pub(super) up: [f64; 3],
    /// Toward the eye: a face is seen when its normal has a positive dot product.
    pub(super) eye: [f64; 3],
}

pub(super) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn normalized(a: [f64; 3]) -> [f64; 3] {
    let n = dot(a, a).sqrt();
    [a[0] / n, a[1] / n, a[2] / n]
}

impl View {
    /// The eye at `azimuth` degrees round the z axis (from +x toward +y) and `elevation`
    /// degrees above the xy plane (negative: below).
    pub(super) fn new(azimuth: f64, elevation: f64) -> View {
        let (a, e) = (azimuth.to_radians(), elevation.to_radians());
        let eye = [e.cos() * a.cos(), e.cos() * a.sin(), e.sin()];
        let forward = [-eye[0], -eye[1], -eye[2]];
        let right = normalized(cross(forward, [0.0, 0.0, 1.0]));
        let up = cross(right, forward);
        View { right, up, eye }
    }

    /// Screen coordinates (y down) of a point, before scaling.
    pub(super) fn project(&self, p: [f64; 3]) -> (f64, f64) {
        (dot(p, self.right), -dot(p, self.up))
    }
}

/// A unit face: the cell, the axis of its normal and the normal's sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Face {
    pub(super) cell: Cell,
    pub(super) axis: usize,
    pub(super) positive: bool,
}

impl Face {
    /// The six faces of `cell`.
    pub(super) fn around(cell: Cell) -> impl Iterator<Item = Face> {
        (0..3).flat_map(move |axis| {
            [false, true].map(|positive| Face {
                cell,
                axis,
                positive,
            })
        })
    }

    pub(super) fn normal(&self) -> [f64; 3] {
        let mut n = [0.0; 3];
        n[self.axis] = if self.positive { 1.0 } else { -1.0 };
        n
    }

    pub(super) fn neighbour(&self) -> Cell {
        let mut c = self.cell;
        c[self.axis] += if self.positive { 1 } else { -1 };
        c
    }

    /// The four corners, in order round the face.
    pub(super) fn corners(&self) -> [[f64; 3]; 4] {
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

    pub(super) fn centre(&self) -> [f64; 3] {
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
pub(super) fn feature_edges(target: &[Cell]) -> Vec<([f64; 3], [f64; 3])> {
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
pub(super) fn wireframe(target: &[Cell], lo: Cell, hi: Cell) -> Vec<([f64; 3], [f64; 3])> {
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
pub(super) fn box_corner(lo: Cell, hi: Cell, k: usize) -> [f64; 3] {
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
pub(super) const MAX_WIREFRAME: usize = 200;

/// The screen box of `target`'s bounding box in `view`, unscaled: (min x, min y, max x,
/// max y).
pub(super) fn extent(view: &View, lo: Cell, hi: Cell) -> (f64, f64, f64, f64) {
    let mut e = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for k in 0..8 {
        let (x, y) = view.project(box_corner(lo, hi, k));
        e = (e.0.min(x), e.1.min(y), e.2.max(x), e.3.max(y));
    }
    e
}

/// Where one view goes: the screen point of the unscaled origin, and the scale.
#[derive(Clone, Copy)]
pub(super) struct Place {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) scale: f64,
}

impl Place {
    pub(super) fn at(&self, view: &View, p: [f64; 3]) -> (f64, f64) {
        let (x, y) = view.project(p);
        (self.x + x * self.scale, self.y + y * self.scale)
    }
}

/// Which body covers each cell.
pub(super) fn owners(bodies: &[Body]) -> HashMap<Cell, usize> {
    bodies
        .iter()
        .enumerate()
        .flat_map(|(b, body)| body.cells.iter().map(move |&c| (c, b)))
        .collect()
}

/// Faces of the bodies' cells that separate one body from anything else, each with its
/// body; with `outside`, only those on the outside of the whole assembly (the others are
/// hidden behind opaque faces anyway).
pub(super) fn body_faces(bodies: &[Body], outside: bool) -> Vec<(Face, usize)> {
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
pub(super) fn contacts(bodies: &[Body]) -> Vec<(usize, usize)> {
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
