//! The pieces of a polycube puzzle as solids to print (`export --format stl|3mf`): one
//! mesh per copy of each piece, shrunk for clearance, laid out on the build plate or
//! placed as in a solution.
//!
//! Invariants:
//! - [`Print`] holds a unit in `[MIN_UNIT, MAX_UNIT]` and a gap in `[0, unit)`;
//!   anything else is refused before any mesh is made (exit 2). The bounds keep every
//!   coordinate finite in the 32-bit floats of STL (and of the slicers that read 3MF):
//!   `--unit 1e308` would write `inf`.
//! - A gap above 0 survives in the file: once the pieces are placed, half the gap (each
//!   face's move) is at least [`RESOLUTIONS`] steps of the coordinates' resolution at the
//!   largest coordinate (a 32-bit float's step there, and never below the 3MF writer's
//!   10^-6 mm); else it is refused with the least gap that would do (exit 2). Without
//!   this, `--unit 1e30 --gap 0.1` printed pieces with no gap at all.
//! - Messages print numbers compactly ([`compact`]): `1e-300`, not 300 digits.
//! - Every piece copy appears once, in piece order, copies numbered from 1 (the number is
//!   in its name only when the piece has copies).
//! - Laid out ([`Print::laid_out`]), each piece is turned to the rotation that needs the fewest
//!   cubes printed over nothing (then the most cubes on the plate, then the least
//!   height), rests on z = 0, and keeps at least one unit from its neighbours: rows of
//!   `ceil(sqrt(n))` pieces from the origin along +x, rows along +y.
//! - Assembled ([`assembled`]), every piece keeps its place in the solution, the whole
//!   moved so that its least corner is the origin; facing pieces are `gap` apart.
//! - A piece whose surface would not be a 2-manifold (cubes touching only along an edge
//!   or at a corner, with no gap) is refused with its name and the place in its cells.

use crate::error::{Error, Result};
use crate::geometry::{Cell, Isometry, Shape};
use crate::puzzle::polycube::Polycube;
use crate::puzzle::Puzzle;
use crate::setting::Setting;

use super::mesh::{self, Mesh};

/// The default cube size, mm.
pub(crate) const DEFAULT_UNIT: f64 = 10.0;
/// The default clearance between two facing pieces, mm (each face moves in by half): a
/// snug sliding fit on a well-tuned FDM printer; 0.3 to 0.4 is looser.
pub(crate) const DEFAULT_GAP: f64 = 0.2;

/// The smallest cube size, mm: a micrometre, below any printer's resolution, and a
/// thousand steps of the 3MF writer's 10^-6 mm.
pub(crate) const MIN_UNIT: f64 = 1e-3;
/// The largest cube size, mm: 100 m, beyond any build plate; the largest puzzle laid out
/// at this size stays many orders of magnitude inside a 32-bit float's range.
pub(crate) const MAX_UNIT: f64 = 1e5;
/// How many steps of the coordinates' resolution half the gap must span, so that the gap
/// is written as given (to an eighth) and not rounded away.
pub(crate) const RESOLUTIONS: f64 = 8.0;
/// The 3MF writer's step, mm (6 decimals).
const DECIMAL_STEP: f64 = 1e-6;

/// `x` for a message: Rust's shortest form from 10^-4 to 10^7 (`0.1`, `250`), else in
/// e-notation (`1e-300`, `1e308`): never hundreds of digits.
pub(crate) fn compact(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || !a.is_finite() || (1e-4..1e7).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// `x` (above 0) to `digits` significant digits, rounded up or to the nearest, in
/// [`compact`]'s style: for figures a message computes.
fn significant(x: f64, digits: i32, up: bool) -> String {
    let e = x.log10().floor() as i32 + 1 - digits;
    let scale = 10f64.powi(e);
    // The tolerance keeps a quotient such as 33.000000000000004 at 33 when rounding up.
    let q = x / scale;
    let v = if up {
        (q * (1.0 - 1e-12)).ceil()
    } else {
        q.round()
    } * scale;
    if (1e-4..1e7).contains(&v) {
        format!("{v:.*}", (-e).max(0) as usize)
    } else {
        format!("{v:.*e}", (digits - 1).max(0) as usize)
    }
}

/// Cube size and clearance, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Print {
    unit: f64,
    gap: f64,
}

impl Print {
    /// `unit` and `gap` in mm, or why they cannot make pieces.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] when `unit` is not a number from 0.001 to 100000 (mm),
    /// when `gap` is negative or not finite, or when `gap` is not less than `unit`.
    pub fn new(unit: f64, gap: f64) -> Result<Print> {
        // Written so that NaN fails too.
        if !(MIN_UNIT..=MAX_UNIT).contains(&unit) {
            return Err(Error::Usage(format!(
                "{}: the cube size must be a number of mm from {} to {}",
                Setting::Unit.is(compact(unit)),
                compact(MIN_UNIT),
                compact(MAX_UNIT)
            )));
        }
        if !gap.is_finite() || gap < 0.0 {
            return Err(Error::Usage(format!(
                "{}: the clearance must be a number of mm, 0 or more",
                Setting::Gap.is(compact(gap))
            )));
        }
        if gap >= unit {
            return Err(Error::Usage(format!(
                "{}: the clearance must be less than the cube size ({}): each face moves \
                 in by half of it, and nothing of a cube would be left",
                Setting::Gap.is(compact(gap)),
                Setting::Unit.is(compact(unit))
            )));
        }
        Ok(Print { unit, gap })
    }

    /// The cube size when none is given, in mm.
    pub const DEFAULT_UNIT: f64 = DEFAULT_UNIT;
    /// The clearance when none is given, in mm.
    pub const DEFAULT_GAP: f64 = DEFAULT_GAP;

    /// Every copy of every piece, turned to print well and laid out on the plate (z = 0
    /// up).
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] when the gap is 0 and a piece's cubes touch only along an edge
    /// or at a corner (no closed manifold), or when the gap is too small for the
    /// coordinates the files can carry at this size.
    pub fn laid_out(&self, puzzle: &Puzzle) -> Result<Vec<Solid>> {
        let p = check(puzzle)?;
        let opts = *self;
        let all = copies(p);
        let columns = (all.len() as f64).sqrt().ceil().max(1.0) as usize;
        let space = opts.unit;
        let (mut x, mut y, mut row_depth) = (0.0f64, 0.0f64, 0.0f64);
        let mut out = Vec::with_capacity(all.len());
        for (i, (k, copy, tag, title)) in all.into_iter().enumerate() {
            if i > 0 && i % columns == 0 {
                x = 0.0;
                y += row_depth + space;
                row_depth = 0.0;
            }
            let shape = print_orientation(&p.pieces[k].shape);
            let mut mesh = solid_mesh(p, k, shape.cells(), opts)?;
            let (lo, hi) = mesh.bounds();
            mesh.translate([x - lo[0], y - lo[1], -lo[2]]);
            x += hi[0] - lo[0] + space;
            row_depth = row_depth.max(hi[1] - lo[1]);
            out.push(Solid {
                piece: k,
                copy,
                tag,
                title,
                mesh,
            });
        }
        check_resolution(&out, opts)?;
        Ok(out)
    }

    /// The pieces as placed in `solution` (options of the puzzle's matrix), the whole
    /// moved so that its least corner is the origin.
    ///
    /// # Errors
    ///
    /// As [`Print::laid_out`].
    ///
    /// # Panics
    ///
    /// If `solution` names an option that is not a placement of the puzzle.
    pub fn assembled(&self, puzzle: &Puzzle, solution: &[u32]) -> Result<Vec<Solid>> {
        assembled(check(puzzle)?, solution, *self)
    }

    /// Whether the pieces of `puzzle` can be printed, known before any work.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] when `puzzle` is not a polycube puzzle (coloured cubes have no
    /// pieces to print).
    pub fn printable(puzzle: &Puzzle) -> Result<()> {
        check(puzzle).map(|_| ())
    }

    /// The side of one cube, in mm.
    pub fn unit(&self) -> f64 {
        self.unit
    }

    /// The clearance between neighbouring pieces, in mm: each face moves in by half of
    /// it; 0 leaves the faces touching.
    pub fn gap(&self) -> f64 {
        self.gap
    }
}

/// `10 mm cubes, 0.2 mm gap`: the sizes, for a line that reports them.
impl std::fmt::Display for Print {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} mm cubes, {} mm gap",
            compact(self.unit),
            compact(self.gap)
        )
    }
}

impl Default for Print {
    fn default() -> Print {
        Print {
            unit: DEFAULT_UNIT,
            gap: DEFAULT_GAP,
        }
    }
}

/// Refuses a gap that the coordinates of `solids` cannot carry (see the module doc): at
/// the largest coordinate a 32-bit float steps by up to 2^-23 of it, and the 3MF text by
/// 10^-6 mm, and half the gap must span [`RESOLUTIONS`] such steps.
fn check_resolution(solids: &[Solid], opts: Print) -> Result<()> {
    if opts.gap == 0.0 {
        return Ok(());
    }
    let largest = solids
        .iter()
        .flat_map(|s| s.mesh.vertices.iter().flatten())
        .fold(0.0f64, |m, x| m.max(x.abs()));
    let float_step = largest * f64::from(f32::EPSILON);
    let step = float_step.max(DECIMAL_STEP);
    if opts.gap / 2.0 >= RESOLUTIONS * step {
        return Ok(());
    }
    // A smaller unit shrinks the float step, not the 3MF writer's.
    let remedy = if float_step >= DECIMAL_STEP {
        format!(", or a smaller {}", Setting::Unit.mark())
    } else {
        String::new()
    };
    Err(Error::Usage(format!(
        "{}: too small for pieces this size ({}): they reach {} mm, where the \
         coordinates written (32-bit floats in STL files and slicers, 6 decimals in 3MF) \
         step by about {} mm, and each face's move of half the gap would be rounded away; \
         give {} (faces that touch), or at least {} mm{remedy}",
        Setting::Gap.is(compact(opts.gap)),
        Setting::Unit.is(compact(opts.unit)),
        significant(largest, 3, false),
        significant(step, 2, false),
        Setting::Gap.is(0),
        significant(2.0 * RESOLUTIONS * step, 2, true)
    )))
}

/// One copy of one piece, as a solid.
#[derive(Clone, Debug)]
pub struct Solid {
    /// Index into the puzzle's pieces.
    pub piece: usize,
    /// From 1.
    pub copy: u32,
    /// `A`, or `A-2` for a piece with copies (`A-02` when it has ten or more): safe in
    /// a file name, unique in the puzzle even where case is ignored.
    pub tag: String,
    /// What a person reads: the piece's display name, and the copy number if it has copies.
    pub title: String,
    /// The copy's closed surface, in mm, shrunk by half the gap.
    pub mesh: Mesh,
}

/// The polycube puzzle in `puzzle`, or why its pieces cannot be printed.
///
/// # Errors
///
/// [`Error::Usage`] when `puzzle` is not a polycube puzzle (coloured cubes have no
/// pieces to print).
pub(crate) fn check(puzzle: &Puzzle) -> Result<&Polycube> {
    puzzle.downcast_ref::<Polycube>().ok_or_else(|| {
        Error::Usage(format!(
            "{}: only polycube puzzles have pieces to print (this is {})",
            puzzle.source(),
            puzzle.name()
        ))
    })
}

/// Each piece's word for file names, unique even where case is ignored: its symbol when
/// that is a letter or digit that no other symbol matches but for case, else its name
/// when that is letters, digits, `-` and `_` and no other name matches but for case
/// (one-sided sets: `F` and `F2`, where the symbols are `F` and `f`), else `p` and its
/// number from 1.
fn piece_words(p: &Polycube) -> Vec<String> {
    let alone = |words: &[String], k: usize| {
        words
            .iter()
            .filter(|w| w.eq_ignore_ascii_case(&words[k]))
            .count()
            == 1
    };
    let symbols: Vec<String> = p.pieces.iter().map(|q| q.symbol.to_string()).collect();
    let names: Vec<String> = p.pieces.iter().map(|q| q.name.clone()).collect();
    let safe = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    (0..p.pieces.len())
        .map(|k| {
            if safe(&symbols[k]) && alone(&symbols, k) {
                symbols[k].clone()
            } else if safe(&names[k]) && alone(&names, k) {
                names[k].clone()
            } else {
                format!("p{}", k + 1)
            }
        })
        .collect()
}

/// The mesh of `cells`, or the refusal that names piece `k`.
fn solid_mesh(p: &Polycube, k: usize, cells: &[Cell], opts: Print) -> Result<Mesh> {
    let r = opts.gap / 2.0;
    mesh::shrunk(cells, opts.unit, r).map_err(|_| {
        // Said in the piece's own cells, as its file gives them, not the turned copy's.
        let own = p.pieces[k].shape.cells();
        let at = match mesh::shrunk(own, 1.0, r / opts.unit) {
            Err(e) => format!(" at ({}, {}, {})", e.at[0], e.at[1], e.at[2]),
            Ok(_) => String::new(),
        };
        Error::Usage(format!(
            "{}: piece {}: its cubes touch only along an edge or at a corner{at} (in its \
             cells' coordinates); with {} its surface would not be a closed manifold, \
             which slicers cannot print reliably: give a gap above 0 (default {DEFAULT_GAP})",
            p.source,
            p.pieces[k].display_name(),
            Setting::Gap.is(0)
        ))
    })
}

/// The rotation of `shape` to print: fewest cubes over nothing, then most cubes on the
/// plate, then least height (the first such rotation).
fn print_orientation(shape: &Shape) -> Shape {
    let cost = |s: &Shape| {
        let cells = s.cells();
        let overhangs = cells
            .iter()
            .filter(|c| c[2] > 0 && !cells.contains(&[c[0], c[1], c[2] - 1]))
            .count();
        let on_plate = cells.iter().filter(|c| c[2] == 0).count();
        let height = cells.iter().map(|c| c[2]).max().unwrap_or(0);
        (overhangs, usize::MAX - on_plate, height)
    };
    Isometry::rotations()
        .iter()
        .map(|&g| shape.transformed(g))
        .min_by_key(cost)
        .expect("24 rotations")
}

/// The copies of each piece, in order: (piece, copy from 1, tag, title).
fn copies(p: &Polycube) -> Vec<(usize, u32, String, String)> {
    let words = piece_words(p);
    let mut out = Vec::new();
    for (k, q) in p.pieces.iter().enumerate() {
        for copy in 1..=q.count {
            let (tag, title) = if q.count > 1 {
                // Padded, so that the files sort in copy order.
                let width = q.count.to_string().len();
                (
                    format!("{}-{copy:0width$}", words[k]),
                    format!("{} #{copy}", q.display_name()),
                )
            } else {
                (words[k].clone(), q.display_name())
            };
            out.push((k, copy, tag, title));
        }
    }
    out
}

/// The pieces as placed in `solution` (options of the puzzle's matrix), the whole moved
/// so that its least corner is the origin.
///
/// # Errors
///
/// As [`Print::laid_out`]: a gap of 0 with cubes touching only along an edge or at a corner, or
/// a gap too small for the coordinates.
///
/// # Panics
///
/// If `solution` names an option that is not a placement of `p`.
pub(crate) fn assembled(p: &Polycube, solution: &[u32], opts: Print) -> Result<Vec<Solid>> {
    let names = copies(p);
    let mut out = Vec::new();
    for (placement, copy) in p.copies(solution) {
        let k = placement.piece as usize;
        let cells: Vec<Cell> = placement
            .cells
            .iter()
            .map(|&t| p.target[t as usize])
            .collect();
        let (_, _, tag, title) = names
            .iter()
            .find(|n| n.0 == k && n.1 == copy + 1)
            .expect("a copy the piece has")
            .clone();
        out.push(Solid {
            piece: k,
            copy: copy + 1,
            tag,
            title,
            mesh: solid_mesh(p, k, &cells, opts)?,
        });
    }
    let mut least = [f64::INFINITY; 3];
    for s in &out {
        let (lo, _) = s.mesh.bounds();
        least = [0, 1, 2].map(|a| least[a].min(lo[a]));
    }
    for s in &mut out {
        s.mesh.translate(least.map(|x| -x));
    }
    check_resolution(&out, opts)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_refuse_what_makes_no_piece() {
        for (unit, gap) in [
            (0.0, 0.0),
            (-1.0, 0.1),
            (f64::NAN, 0.1),
            (f64::INFINITY, 0.1),
            (10.0, -0.1),
            (10.0, f64::NAN),
            (10.0, 10.0),
            (10.0, 12.0),
        ] {
            assert!(Print::new(unit, gap).is_err(), "{unit} {gap}");
        }
        assert!(Print::new(10.0, 0.0).is_ok());
        assert!(Print::new(10.0, 9.99).is_ok());
        for unit in [1e308, 1e30, 1e-300, MAX_UNIT * 1.01, MIN_UNIT * 0.99] {
            let e = Print::new(unit, 0.0).unwrap_err().to_string();
            assert!(e.len() < 120, "{e}");
        }
        assert!(Print::new(MIN_UNIT, 0.0).is_ok());
        assert!(Print::new(MAX_UNIT, 0.0).is_ok());
    }

    #[test]
    fn numbers_in_messages_are_compact() {
        assert_eq!(compact(0.1), "0.1");
        assert_eq!(compact(100000.0), "100000");
        assert_eq!(compact(1e-300), "1e-300");
        assert_eq!(compact(1e308), "1e308");
        assert_eq!(compact(-2.5e-9), "-2.5e-9");
        assert_eq!(significant(1.9, 2, true), "1.9");
        assert_eq!(significant(1.901, 2, true), "2.0");
        assert_eq!(significant(0.000234, 2, true), "0.00024");
        assert_eq!(significant(123456.0, 2, true), "130000");
        assert_eq!(significant(3.3e-9, 2, true), "3.3e-9");
        assert_eq!(significant(999999.97, 3, false), "1000000");
        assert_eq!(significant(0.11920928597450256, 2, false), "0.12");
        assert_eq!(significant(0.009970000000000001, 3, false), "0.00997");
    }

    #[test]
    fn print_orientation_lays_an_l_flat() {
        // An upright L (in the xz plane) lies down: every cube on the plate.
        let l = Shape::new(vec![[0, 0, 0], [0, 0, 1], [0, 0, 2], [1, 0, 0]]);
        let s = print_orientation(&l);
        assert!(s.cells().iter().all(|c| c[2] == 0), "{s:?}");
    }
}
