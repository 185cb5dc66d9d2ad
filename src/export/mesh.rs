//! Closed triangle meshes of polycube pieces, for 3-D printing (`export --format stl|3mf`).
//!
//! A piece is the union of its closed cubes of side `unit`. Printed pieces must slide
//! together, so each is shrunk by `r = gap / 2`: the printed solid is the set of points
//! whose L∞ ball of radius `r` (a cube of side `2r` around the point) lies inside the
//! union. Two pieces that touch in a solution then face each other `gap` apart.
//!
//! Construction: along each axis every cell is cut into three slabs, `[0, r]`,
//! `[r, unit - r]` and `[unit - r, unit]` (one slab when `r = 0`), so each cell is 27
//! sub-boxes (or one) on one grid shared by the whole piece. A sub-box lies in the
//! shrunk piece iff every cell that its `r`-neighbourhood meets is a cell of the piece:
//! on each axis the cell itself, and for a low (high) slab also the neighbour below
//! (above) on that axis. The surface is every face between a sub-box inside and one
//! outside, as two triangles whose corners are grid points, indexed once.
//!
//! Invariants of a [`Mesh`] from [`shrunk`]:
//! - closed: every face is a whole grid rectangle and corners are shared grid points, so
//!   there are no T-junctions and each edge belongs to exactly two triangles, once in
//!   each direction;
//! - oriented: counter-clockwise seen from outside (normals outward, volume positive);
//! - no face between two cubes of the same piece: such faces have the solid on both
//!   sides, so they are never emitted;
//! - a 2-manifold: at every vertex the sub-boxes inside, and those outside, are each
//!   connected through faces. With `r > 0` this always holds: the outside is the union of
//!   the cells not in the piece grown by `r`, whose boxes begin only at coordinates
//!   `≡ -r` and end only at `≡ +r (mod unit)`, never both at one grid line, so no edge has
//!   solid only in two opposite quadrants. With `r = 0` cubes that touch only along an
//!   edge or at a corner would make such an edge or vertex: checked at every vertex and
//!   refused (`NotManifold`), as is any violation for `r > 0` (a bug, then).

use std::collections::{HashMap, HashSet};

use crate::geometry::{max_corner, min_corner, Cell};

/// A triangle mesh: vertex positions (mm) and triangles as indices into them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions in millimetres; each is shared by the triangles around it.
    pub vertices: Vec<[f64; 3]>,
    /// Counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

impl Mesh {
    /// The enclosed volume (the divergence theorem over the oriented triangles).
    pub fn volume(&self) -> f64 {
        let six: f64 = self
            .triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|v| self.vertices[v as usize]);
                a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                    + a[2] * (b[0] * c[1] - b[1] * c[0])
            })
            .sum();
        six / 6.0
    }

    /// The least and greatest coordinate on each axis (zeros for an empty mesh).
    pub fn bounds(&self) -> ([f64; 3], [f64; 3]) {
        let Some(&first) = self.vertices.first() else {
            return ([0.0; 3], [0.0; 3]);
        };
        self.vertices.iter().fold((first, first), |(lo, hi), v| {
            (
                [0, 1, 2].map(|a| lo[a].min(v[a])),
                [0, 1, 2].map(|a| hi[a].max(v[a])),
            )
        })
    }

    /// Moves every vertex by `by`.
    pub fn translate(&mut self, by: [f64; 3]) {
        for v in &mut self.vertices {
            for a in 0..3 {
                v[a] += by[a];
            }
        }
    }

    /// The unit normal of triangle `t` (outward).
    pub fn normal(&self, t: usize) -> [f64; 3] {
        let [a, b, c] = self.triangles[t].map(|v| self.vertices[v as usize]);
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let n = [
            u[1] * w[2] - u[2] * w[1],
            u[2] * w[0] - u[0] * w[2],
            u[0] * w[1] - u[1] * w[0],
        ];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        n.map(|x| x / len)
    }
}

/// Meshes made (writing them is `stl.rs`'s and `threemf.rs`'s).
impl Mesh {
    /// The closed surface of the cubes `cells`, each `unit` mm, every face moved in by
    /// `r` mm (half the clearance between pieces).
    ///
    /// # Errors
    ///
    /// [`crate::error::Error::Usage`] when `r` is 0 and two cubes touch only along an edge or at
    /// a corner: no closed manifold (it names the vertex).
    pub fn shrunk(cells: &[[i32; 3]], unit: f64, r: f64) -> crate::error::Result<Mesh> {
        shrunk(cells, unit, r).map_err(|NotManifold { at: [x, y, z] }| {
            crate::error::Error::Usage(format!(
                "cubes touch only along an edge or at a corner near ({x}, {y}, {z}) mm: \
                 no closed surface without a gap between the cubes"
            ))
        })
    }
}

/// The surface would not be a 2-manifold: cubes of the piece touch only along an edge or
/// at a corner near `at` (mm, in the piece's cell coordinates times the unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NotManifold {
    /// The offending vertex, in millimetres.
    pub(crate) at: [f64; 3],
}

/// The grid of sub-boxes over a piece's cells.
struct Grid<'a> {
    cells: &'a HashSet<Cell>,
    lo: Cell,
    /// Cells along each axis in the bounding box.
    size: [i64; 3],
    /// Slabs per cell: 3, or 1 when `r = 0`.
    k: i64,
    unit: f64,
    r: f64,
}

impl Grid<'_> {
    /// The position of grid line `g` on axis `a`.
    fn line(&self, a: usize, g: i64) -> f64 {
        let cell = self.lo[a] as i64 + g.div_euclid(self.k);
        let offset = match g.rem_euclid(self.k) {
            0 => 0.0,
            1 => self.r,
            _ => self.unit - self.r,
        };
        cell as f64 * self.unit + offset
    }

    /// Whether sub-box `g` (grid indices) lies in the shrunk piece.
    fn inside(&self, g: [i64; 3]) -> bool {
        if (0..3).any(|a| g[a] < 0 || g[a] >= self.size[a] * self.k) {
            return false;
        }
        // The cell offsets the sub-box's r-neighbourhood meets on each axis.
        let reach = |a: usize| -> (i32, i32) {
            match (self.k, g[a] % self.k) {
                (1, _) | (_, 1) => (0, 0),
                (_, 0) => (-1, 0),
                _ => (0, 1),
            }
        };
        let cell = |a: usize| self.lo[a] + (g[a] / self.k) as i32;
        let (x, y, z) = (reach(0), reach(1), reach(2));
        for dx in x.0..=x.1 {
            for dy in y.0..=y.1 {
                for dz in z.0..=z.1 {
                    if !self
                        .cells
                        .contains(&[cell(0) + dx, cell(1) + dy, cell(2) + dz])
                    {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// Whether the octants in `set` (bit `i` is octant `i`, its bits the three axes) are
/// connected through shared faces (octants that differ in one axis).
fn octants_connected(set: u8) -> bool {
    if set == 0 {
        return true;
    }
    let mut seen = 1u8 << set.trailing_zeros();
    loop {
        let mut next = seen;
        for i in 0..8 {
            if seen & (1 << i) != 0 {
                for axis in 0..3 {
                    next |= set & (1 << (i ^ (1 << axis)));
                }
            }
        }
        if next == seen {
            return seen == set;
        }
        seen = next;
    }
}

/// The surface of the piece made of `cells` with cubes of side `unit`, shrunk by `r`
/// (half the clearance, `0 <= 2r < unit`), in the cells' own coordinates times the unit.
///
/// # Errors
///
/// [`NotManifold`] when `r = 0` and two cubes of the piece touch only along an edge or
/// at a corner (the surface would pinch there); for `r > 0` it would be a bug.
///
/// # Panics
///
/// If `unit <= 0`, `r < 0` or `2r >= unit`.
pub(crate) fn shrunk(cells: &[Cell], unit: f64, r: f64) -> Result<Mesh, NotManifold> {
    assert!(
        unit > 0.0 && r >= 0.0 && 2.0 * r < unit,
        "unit {unit}, r {r}"
    );
    let (Some(lo), Some(hi)) = (min_corner(cells), max_corner(cells)) else {
        return Ok(Mesh::default());
    };
    let set: HashSet<Cell> = cells.iter().copied().collect();
    let grid = Grid {
        cells: &set,
        lo,
        size: [0, 1, 2].map(|a| (hi[a] - lo[a] + 1) as i64),
        k: if r > 0.0 { 3 } else { 1 },
        unit,
        r,
    };
    let mut mesh = Mesh::default();
    let mut index: HashMap<[i64; 3], u32> = HashMap::new();
    let mut vertex = |p: [i64; 3], mesh: &mut Mesh| -> u32 {
        *index.entry(p).or_insert_with(|| {
            mesh.vertices.push([0, 1, 2].map(|a| grid.line(a, p[a])));
            (mesh.vertices.len() - 1) as u32
        })
    };
    let mut sorted: Vec<Cell> = set.iter().copied().collect();
    sorted.sort_unstable();
    for c in sorted {
        let base = [0, 1, 2].map(|a| (c[a] - lo[a]) as i64 * grid.k);
        for s in 0..grid.k.pow(3) {
            let g = [
                base[0] + s % grid.k,
                base[1] + s / grid.k % grid.k,
                base[2] + s / (grid.k * grid.k),
            ];
            if !grid.inside(g) {
                continue;
            }
            for a in 0..3 {
                for side in [-1i64, 1] {
                    let mut n = g;
                    n[a] += side;
                    if grid.inside(n) {
                        continue;
                    }
                    // The face's corners, counter-clockwise seen from the side it faces:
                    // (b, c) then (b + 1, c), (b + 1, c + 1), (b, c + 1) turns from axis b
                    // to axis c, whose normal is +a; the far side is the reverse.
                    let (b, cc) = ((a + 1) % 3, (a + 2) % 3);
                    let mut at = g;
                    if side > 0 {
                        at[a] += 1;
                    }
                    let corner = |db: i64, dc: i64| {
                        let mut p = at;
                        p[b] += db;
                        p[cc] += dc;
                        p
                    };
                    let mut quad = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                    if side < 0 {
                        quad.reverse();
                    }
                    let v = quad.map(|p| vertex(p, &mut mesh));
                    mesh.triangles.push([v[0], v[1], v[2]]);
                    mesh.triangles.push([v[0], v[2], v[3]]);
                }
            }
        }
    }
    // Every vertex: the sub-boxes around it, inside and outside, each face-connected.
    for (&p, &v) in &index {
        let mut set = 0u8;
        for i in 0..8 {
            let g = [0, 1, 2].map(|a| p[a] - 1 + ((i >> a) & 1) as i64);
            if grid.inside(g) {
                set |= 1 << i;
            }
        }
        if !octants_connected(set) || !octants_connected(!set) {
            return Err(NotManifold {
                at: mesh.vertices[v as usize],
            });
        }
    }
    Ok(mesh)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every directed edge once, and its reverse once: closed and consistently oriented.
    fn assert_closed(mesh: &Mesh) {
        let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
        for t in &mesh.triangles {
            for i in 0..3 {
                *edges.entry((t[i], t[(i + 1) % 3])).or_default() += 1;
            }
        }
        for (&(a, b), &n) in &edges {
            assert_eq!(n, 1, "edge {a}-{b} used {n} times in one direction");
            assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a}-{b} has no twin");
        }
    }

    /// The shrunk piece's volume counted in voxels of side `r` (`unit / r` whole): a voxel
    /// is inside iff the 27 voxels around it (its r-neighbourhood) lie in the piece's cubes.
    fn voxel_volume(cells: &[Cell], unit: f64, r: f64) -> f64 {
        let per = (unit / r).round() as i32;
        let set: HashSet<Cell> = cells.iter().copied().collect();
        let in_union = |v: [i32; 3]| set.contains(&v.map(|x| x.div_euclid(per)));
        let mut count = 0;
        for c in cells {
            for i in 0..per.pow(3) {
                let v = [
                    c[0] * per + i % per,
                    c[1] * per + i / per % per,
                    c[2] * per + i / (per * per),
                ];
                let all = (0..27)
                    .all(|j| in_union([v[0] + j % 3 - 1, v[1] + j / 3 % 3 - 1, v[2] + j / 9 - 1]));
                count += all as i32;
            }
        }
        count as f64 * r.powi(3)
    }

    #[test]
    fn one_cube_is_twelve_triangles() {
        for r in [0.0, 0.1] {
            let mesh = shrunk(&[[0, 0, 0]], 10.0, r).unwrap();
            assert_eq!(mesh.triangles.len(), 12);
            assert_eq!(mesh.vertices.len(), 8);
            assert_closed(&mesh);
            let side: f64 = 10.0 - 2.0 * r;
            assert!((mesh.volume() - side.powi(3)).abs() < 1e-9);
            assert_eq!(mesh.bounds(), ([r; 3], [10.0 - r; 3]));
        }
    }

    #[test]
    fn faces_between_cubes_of_a_piece_are_not_emitted() {
        // Two cubes: a 2x1x1 box, 10 squares with r = 0; the face between them would add
        // two more triangles and a third use of its edges.
        let mesh = shrunk(&[[0, 0, 0], [1, 0, 0]], 1.0, 0.0).unwrap();
        assert_eq!(mesh.triangles.len(), 20);
        assert_closed(&mesh);
        assert!((mesh.volume() - 2.0).abs() < 1e-12);
    }

    #[test]
    fn an_l_tromino_loses_its_perimeter_times_r() {
        let (u, r) = (10.0, 0.5);
        let cells = [[0, 0, 0], [1, 0, 0], [0, 1, 0]];
        let mesh = shrunk(&cells, u, r).unwrap();
        assert_closed(&mesh);
        // The eroded L: area 3u² − perimeter·r + (convex − concave corners)·r².
        let area = 3.0 * u * u - 8.0 * u * r + (5.0 - 1.0) * r * r;
        let expected = area * (u - 2.0 * r);
        assert!((mesh.volume() - expected).abs() < 1e-9, "{}", mesh.volume());
        assert!((mesh.volume() - voxel_volume(&cells, u, r)).abs() < 1e-6);
        for v in &mesh.vertices {
            assert!(v.iter().all(|&x| x >= r - 1e-12));
        }
    }

    /// (0,0,0) and (1,1,0) meet along the edge x = y = 1 with (1,0,0) and (0,1,0) empty.
    const EDGE_ONLY: [Cell; 5] = [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [1, 1, 0]];

    #[test]
    fn an_edge_only_contact_is_refused_without_a_gap() {
        let err = shrunk(&EDGE_ONLY, 10.0, 0.0).unwrap_err();
        assert_eq!([err.at[0], err.at[1]], [10.0, 10.0]);
    }

    #[test]
    fn an_edge_only_contact_is_separated_by_the_gap() {
        let (u, r) = (10.0, 1.0);
        let mesh = shrunk(&EDGE_ONLY, u, r).unwrap();
        assert_closed(&mesh);
        assert!((mesh.volume() - voxel_volume(&EDGE_ONLY, u, r)).abs() < 1e-6);
    }

    #[test]
    fn shrunk_volumes_match_voxels() {
        // Every pentacube-sized shape here, with corner-only and edge-only contacts.
        let shapes: [&[Cell]; 4] = [
            &[[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 1, 0]],
            &[[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 1, 0], [1, 2, 0]],
            &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1], [2, 1, 1]],
            &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0]],
        ];
        for cells in shapes {
            for r in [0.5, 2.0] {
                let mesh = shrunk(cells, 10.0, r).unwrap();
                assert_closed(&mesh);
                let want = voxel_volume(cells, 10.0, r);
                assert!((mesh.volume() - want).abs() < 1e-6, "{cells:?} r {r}");
            }
        }
    }

    #[test]
    fn octant_connectivity() {
        assert!(octants_connected(0b0000_0011));
        assert!(!octants_connected(0b1000_0001)); // opposite corners
        assert!(!octants_connected(0b0000_1001)); // opposite across an edge
        assert!(octants_connected(0b1111_1111));
    }
}
