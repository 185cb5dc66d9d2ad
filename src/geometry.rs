//! Cells of the cubic lattice and the 48 isometries of the cube that fix the origin.
//!
//! Invariants:
//! - An [`Isometry`] is a signed permutation of the three axes; [`Isometry::all`] lists the
//!   24 proper rotations first (identity at index 0), then the 24 improper ones.
//! - A [`Shape`] is always *normalised*: translated so that its minimum coordinate on each
//!   axis is 0, and sorted. Two shapes are the same polycube in the same orientation iff
//!   they are equal as values.

use std::sync::OnceLock;

use itertools::iproduct;

/// Coordinates beyond this, in absolute value, are a mistake in a puzzle file, not a
/// puzzle: the bound for coordinates, box sizes and drawings alike.
pub(crate) const MAX_COORDINATE: i64 = 1024;

/// A unit cube of the lattice, as `[x, y, z]`.
pub type Cell = [i32; 3];

/// A normalised set of cells (see the module invariants).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape(Vec<Cell>);

impl Shape {
    /// Normalises `cells`: translate to the origin corner and sort. Duplicates are kept;
    /// callers reject them before building a shape.
    pub fn new(mut cells: Vec<Cell>) -> Shape {
        if let Some(min) = min_corner(&cells) {
            for c in &mut cells {
                for a in 0..3 {
                    c[a] -= min[a];
                }
            }
        }
        cells.sort_unstable();
        Shape(cells)
    }

    /// The cells, normalised (least coordinate 0 on each axis) and sorted.
    pub fn cells(&self) -> &[Cell] {
        &self.0
    }

    /// The number of cells (unit cubes) in the shape.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The image of this shape under `g`, normalised again.
    pub fn transformed(&self, g: Isometry) -> Shape {
        Shape::new(self.0.iter().map(|&c| g.apply(c)).collect())
    }

    /// The distinct images of this shape under `group`, in the order first met. The first
    /// element is the shape itself when `group` starts with the identity.
    pub fn orientations(&self, group: &[Isometry]) -> Vec<Shape> {
        let mut out: Vec<Shape> = Vec::with_capacity(group.len());
        for &g in group {
            let s = self.transformed(g);
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }

    /// A representative of the shape's class under the proper rotations: the least of its
    /// 24 images. Two pieces are the same physical piece iff their canonical forms agree.
    pub fn canonical(&self) -> Shape {
        self.canonical_under(Isometry::rotations())
    }

    /// A representative of the shape's class under `group`: the least of its images.
    pub fn canonical_under(&self, group: &[Isometry]) -> Shape {
        group
            .iter()
            .map(|&g| self.transformed(g))
            .min()
            .unwrap_or_else(|| self.clone())
    }

    /// The mirror image (x -> -x), normalised.
    pub fn mirrored(&self) -> Shape {
        self.transformed(Isometry::MIRROR_X)
    }

    /// Whether every cell can be reached from every other through shared faces.
    pub fn is_face_connected(&self) -> bool {
        if self.0.is_empty() {
            return true;
        }
        let mut seen = vec![false; self.0.len()];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for (j, c) in self.0.iter().enumerate() {
                if !seen[j] && manhattan(self.0[i], *c) == 1 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.iter().all(|&s| s)
    }
}

fn manhattan(a: Cell, b: Cell) -> i32 {
    (a[0] - b[0]).abs() + (a[1] - b[1]).abs() + (a[2] - b[2]).abs()
}

/// The least coordinate on each axis, or `None` for no cells.
pub(crate) fn min_corner(cells: &[Cell]) -> Option<Cell> {
    let first = *cells.first()?;
    Some(cells.iter().fold(first, |m, c| {
        [m[0].min(c[0]), m[1].min(c[1]), m[2].min(c[2])]
    }))
}

/// The greatest coordinate on each axis, or `None` for no cells.
pub(crate) fn max_corner(cells: &[Cell]) -> Option<Cell> {
    let first = *cells.first()?;
    Some(cells.iter().fold(first, |m, c| {
        [m[0].max(c[0]), m[1].max(c[1]), m[2].max(c[2])]
    }))
}

/// A linear isometry of the lattice: output axis `i` is `sign[i]` times input axis `perm[i]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Isometry {
    perm: [u8; 3],
    sign: [i8; 3],
}

impl Isometry {
    /// The isometry that maps every cell to itself; index 0 of [`Isometry::all`].
    #[cfg(test)]
    pub const IDENTITY: Isometry = Isometry {
        perm: [0, 1, 2],
        sign: [1, 1, 1],
    };
    /// The reflection `x -> -x`, which turns a piece into its mirror image.
    pub const MIRROR_X: Isometry = Isometry {
        perm: [0, 1, 2],
        sign: [-1, 1, 1],
    };

    /// The map on coordinates, as `(x,y,z) -> (-y,x,z)`: each image coordinate is a
    /// signed coordinate of the cell.
    pub fn label(self) -> String {
        let axis = |i: usize| {
            let name = ["x", "y", "z"][self.perm[i] as usize];
            if self.sign[i] < 0 {
                format!("-{name}")
            } else {
                name.to_string()
            }
        };
        format!("(x,y,z) -> ({},{},{})", axis(0), axis(1), axis(2))
    }

    /// The image of cell `c`. It fixes the origin, so shapes need normalising after it
    /// (see [`Shape::transformed`]).
    pub fn apply(self, c: Cell) -> Cell {
        [
            self.sign[0] as i32 * c[self.perm[0] as usize],
            self.sign[1] as i32 * c[self.perm[1] as usize],
            self.sign[2] as i32 * c[self.perm[2] as usize],
        ]
    }

    /// The determinant is +1: a rotation a physical piece can make.
    pub fn is_proper(self) -> bool {
        let p = self.perm;
        // A permutation of three elements is even iff it is a cyclic shift.
        let even = p == [0, 1, 2] || p == [1, 2, 0] || p == [2, 0, 1];
        let negatives = self.sign.iter().filter(|&&s| s < 0).count();
        even == (negatives % 2 == 0)
    }

    #[cfg(test)]
    /// `self` after `other`: `(self.compose(other)).apply(c) == self.apply(other.apply(c))`.
    pub fn compose(self, other: Isometry) -> Isometry {
        let mut perm = [0u8; 3];
        let mut sign = [0i8; 3];
        for i in 0..3 {
            let j = self.perm[i] as usize;
            perm[i] = other.perm[j];
            sign[i] = self.sign[i] * other.sign[j];
        }
        Isometry { perm, sign }
    }

    /// All 48 isometries: the 24 rotations (identity first), then the 24 improper ones.
    pub fn all() -> &'static [Isometry] {
        static ALL: OnceLock<Vec<Isometry>> = OnceLock::new();
        ALL.get_or_init(|| {
            let perms = [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ];
            let mut all: Vec<Isometry> = iproduct!(perms, 0..8u8)
                .map(|(perm, bits)| {
                    let sign = [1, 2, 4].map(|bit| if bits & bit == 0 { 1 } else { -1 });
                    Isometry { perm, sign }
                })
                .collect();
            // Stable partition keeps the identity (perm [0,1,2], no signs) first.
            all.sort_by_key(|g| !g.is_proper());
            all
        })
    }

    /// The 24 proper rotations of the cube, identity first.
    pub fn rotations() -> &'static [Isometry] {
        &Isometry::all()[..24]
    }

    /// The 8 isometries that keep the plane normal to `axis` (0, 1, 2: x, y, z) in place,
    /// its direction included: the 4 turns about `axis` (identity first), then the 4
    /// mirror images within the plane. A flat piece in that plane never leaves it under
    /// them, and never flips over (that would take the normal to its opposite).
    pub fn in_plane(axis: usize) -> Vec<Isometry> {
        Isometry::all()
            .iter()
            .copied()
            .filter(|g| g.perm[axis] as usize == axis && g.sign[axis] == 1)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_sizes_and_closure() {
        assert_eq!(Isometry::all().len(), 48);
        assert_eq!(Isometry::all()[0], Isometry::IDENTITY);
        let rot = Isometry::rotations();
        assert!(rot.iter().all(|g| g.is_proper()));
        assert!(Isometry::all()[24..].iter().all(|g| !g.is_proper()));
        for &a in rot {
            for &b in rot {
                assert!(rot.contains(&a.compose(b)));
            }
        }
        let c = [1, 2, 3];
        for &a in Isometry::all() {
            for &b in Isometry::all() {
                assert_eq!(a.compose(b).apply(c), a.apply(b.apply(c)));
            }
        }
    }

    #[test]
    fn orientation_counts() {
        let l_tromino = Shape::new(vec![[0, 0, 0], [1, 0, 0], [0, 1, 0]]);
        assert_eq!(l_tromino.orientations(Isometry::rotations()).len(), 12);
        let cube = Shape::new(vec![[0, 0, 0]]);
        assert_eq!(cube.orientations(Isometry::rotations()).len(), 1);
        let rod = Shape::new(vec![[0, 0, 0], [1, 0, 0], [2, 0, 0]]);
        assert_eq!(rod.orientations(Isometry::rotations()).len(), 3);
        let screw = Shape::new(vec![[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]]);
        // A half-turn maps the screw onto itself, and no rotation maps it onto its mirror.
        assert_eq!(screw.orientations(Isometry::rotations()).len(), 12);
        assert_ne!(screw.canonical(), screw.mirrored().canonical());
        assert_eq!(screw.orientations(Isometry::all()).len(), 24);
    }

    #[test]
    fn connectivity() {
        assert!(Shape::new(vec![[0, 0, 0], [0, 0, 1]]).is_face_connected());
        assert!(!Shape::new(vec![[0, 0, 0], [1, 1, 0]]).is_face_connected());
    }

    #[test]
    fn in_plane_groups() {
        for axis in 0..3 {
            let g = Isometry::in_plane(axis);
            assert_eq!(g.len(), 8);
            assert_eq!(g[0], Isometry::IDENTITY);
            assert_eq!(g.iter().filter(|g| g.is_proper()).count(), 4);
            assert!(g[..4].iter().all(|g| g.is_proper()));
            for &a in &g {
                for &b in &g {
                    assert!(g.contains(&a.compose(b)));
                }
            }
        }
        // The L tetromino in the xy plane: 4 turns without flipping, 8 with mirrors; its
        // mirror image is another one-sided piece.
        let l = Shape::new(vec![[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]]);
        let plane = Isometry::in_plane(2);
        assert_eq!(l.orientations(&plane[..4]).len(), 4);
        assert_eq!(l.orientations(&plane).len(), 8);
        assert!(l
            .orientations(&plane)
            .iter()
            .all(|s| s.cells().iter().all(|c| c[2] == 0)));
        assert_ne!(
            l.canonical_under(&plane[..4]),
            l.mirrored().canonical_under(&plane[..4])
        );
        assert_eq!(l.canonical(), l.mirrored().canonical());
    }
}
