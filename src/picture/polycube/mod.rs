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
//!
//! Files: `projection.rs` (views and faces), `ink.rs` (colours, marks, faces and grids
//! painted), `layout.rs` (the panels and the document); this file holds what callers
//! pass in ([`Scene`], [`Body`]) and the entry point, [`picture`].

mod ink;
mod layout;
mod projection;

use crate::geometry::{max_corner, min_corner, Cell};
use crate::picture::{separated, Rgb};
use ink::Ink;
use layout::{plan, solid};

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

/// The colour of each of `bodies`, the same in every drawing of a solution (the SVG
/// picture and the 3-D view): [`separated`] over the bodies' contacts.
pub fn colours(bodies: &[Body]) -> Vec<Rgb> {
    separated(bodies.len(), &projection::contacts(bodies))
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
