//! What a maker asks of the pieces' shapes, and how far a cut is from it: the faults the
//! search drives to zero before it counts alone.
//!
//! Invariant: [`faults`] is 0 exactly when every rule asked for holds: no two pieces of
//! one shape up to rotation (unless duplicates are allowed), no piece its own mirror
//! image (`--chiral`), every piece in one plane (`--flat-pieces`). [`impossible`] says
//! why no cut can keep the rules only where that is sure: when it says nothing, a cut
//! may still be out of reach, but when it speaks, none is (it refuses no request a cut
//! could meet).

use crate::geometry::{Cell, Shape};

/// The rules on shapes a design keeps (see the module doc): the request's
/// `allow_duplicates`, `chiral` and `flat` ([`super::Request::rules`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rules {
    /// Two pieces may have the same shape (they become one piece with a count).
    pub(crate) allow_duplicates: bool,
    /// No piece may be its own mirror image.
    pub(crate) chiral: bool,
    /// Every piece lies in one plane.
    pub(crate) flat: bool,
}

/// How many pieces break a rule: a piece of a shape an earlier piece has, an achiral
/// piece under `chiral`, a piece that is not flat under `flat` (a piece breaking two
/// rules counts twice).
pub(crate) fn faults(pieces: &[Vec<Cell>], rules: Rules) -> usize {
    let shapes: Vec<Shape> = pieces.iter().map(|p| Shape::new(p.clone())).collect();
    let canonical: Vec<Shape> = shapes.iter().map(Shape::canonical).collect();
    let mut faults = 0;
    for (k, shape) in shapes.iter().enumerate() {
        if !rules.allow_duplicates && canonical[..k].contains(&canonical[k]) {
            faults += 1;
        }
        if rules.chiral && shape.mirrored().canonical() == canonical[k] {
            faults += 1;
        }
        if rules.flat && !is_flat(shape) {
            faults += 1;
        }
    }
    faults
}

/// Shapes of 1, 2, ... cells up to rotation ([`Shape::canonical`]: a chiral piece and
/// its mirror image are two shapes), as the rules count them: all of them, the chiral
/// ones, the flat ones (a flat piece is its own mirror image, so none is both). The
/// tests enumerate them. Each table ends at the first size with more than 4096 shapes,
/// the most cells a designed box has: past its end a size has more shapes still (the
/// counts grow with the size), more than any request has pieces, and is not counted.
const ALL: [u64; 8] = [1, 1, 2, 8, 29, 166, 1023, 6922];
const CHIRAL: [u64; 8] = [0, 0, 0, 2, 12, 108, 832, 6222];
const FLAT: [u64; 10] = [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655];

/// The shapes of `size` cells that `rules` allow, up to rotation; `u64::MAX` past the
/// tables (more than any request needs).
fn shapes(size: usize, rules: Rules) -> u64 {
    let table: &[u64] = match (rules.chiral, rules.flat) {
        (true, true) => return 0,
        (true, false) => &CHIRAL,
        (false, true) => &FLAT,
        (false, false) => &ALL,
    };
    match size {
        0 => 0,
        s => table.get(s - 1).copied().unwrap_or(u64::MAX),
    }
}

/// Why no cut of `volume` cells into `pieces` pieces of `sizes.0` to `sizes.1` cells
/// keeps `rules`, counting shapes alone: too few shapes that the rules allow, or pieces
/// of distinct shapes that cannot add up to the volume. `None` when the counts allow it
/// (which does not promise a cut: see the module doc).
pub(crate) fn impossible(
    pieces: usize,
    sizes: (usize, usize),
    volume: usize,
    rules: Rules,
) -> Option<String> {
    let (lo, hi) = sizes;
    if rules.chiral && rules.flat {
        return Some(format!(
            "{} and {} exclude each other: a flat piece is its own mirror image",
            crate::setting::Setting::Chiral.mark(),
            crate::setting::Setting::FlatPieces.mark()
        ));
    }
    // How many pieces of one size may be cut: with duplicates, as many as wanted of a
    // size that has a shape at all.
    let room = |s: usize| match shapes(s, rules) {
        0 => 0,
        _ if rules.allow_duplicates => u64::MAX,
        n => n,
    };
    // The fewest and the most cells `pieces` pieces can take: the smallest shapes
    // first, then the largest first. Both stop once every piece has its shape, so a
    // large bound is no long loop (the tables end at a size with shapes enough).
    let take = |order: &mut dyn Iterator<Item = usize>| {
        let (mut left, mut cells) = (pieces, 0usize);
        for s in order {
            if left == 0 {
                break;
            }
            let t = room(s).min(left as u64) as usize;
            left -= t;
            cells = cells.saturating_add(t.saturating_mul(s));
        }
        (pieces - left, cells)
    };
    let (found, least) = take(&mut (lo..=hi));
    let (_, most) = take(&mut (lo..=hi).rev());
    let kind = match (rules.chiral, rules.flat) {
        (true, _) => "chiral ",
        (_, true) => "flat ",
        _ => "",
    };
    let distinct = if rules.allow_duplicates {
        ""
    } else {
        " that all differ in shape"
    };
    if found == 0 {
        Some(format!("no {kind}piece has {lo} to {hi} cells"))
    } else if found < pieces {
        Some(format!(
            "{pieces} pieces must all differ in shape, but there are only {found} {kind}shapes \
             of {lo} to {hi} cells (up to rotation; a mirror image is another shape)"
        ))
    } else if least > volume {
        Some(format!(
            "{pieces} {kind}pieces of {lo} to {hi} cells{distinct} take at least {least} \
             cells, and the box has {volume}"
        ))
    } else if most < volume {
        Some(format!(
            "{pieces} {kind}pieces of {lo} to {hi} cells{distinct} take at most {most} cells, \
             and the box has {volume}"
        ))
    } else {
        None
    }
}

/// Whether the shape's cells share a coordinate on some axis (it lies in one plane).
pub(crate) fn is_flat(shape: &Shape) -> bool {
    let cells = shape.cells();
    (0..3).any(|a| cells.iter().all(|c| c[a] == cells[0][a]))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// Every shape of 1 to `n` cells up to rotation, by size, grown a cell at a time (in
    /// the plane z = 0 when `flat`): each keyed by its canonical form, with cells that
    /// stay in that plane to grow from.
    fn enumerate(n: usize, flat: bool) -> Vec<Vec<Shape>> {
        let steps: &[Cell] = if flat {
            &[[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]]
        } else {
            &[
                [1, 0, 0],
                [-1, 0, 0],
                [0, 1, 0],
                [0, -1, 0],
                [0, 0, 1],
                [0, 0, -1],
            ]
        };
        let mut level: BTreeMap<Shape, Vec<Cell>> =
            BTreeMap::from([(Shape::new(vec![[0, 0, 0]]), vec![[0, 0, 0]])]);
        let mut sizes = vec![level.keys().cloned().collect()];
        while sizes.len() < n {
            let mut next = BTreeMap::new();
            for cells in level.values() {
                for c in cells {
                    for d in steps {
                        let cell = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
                        if cells.contains(&cell) {
                            continue;
                        }
                        let mut grown = cells.clone();
                        grown.push(cell);
                        next.entry(Shape::new(grown.clone()).canonical())
                            .or_insert(grown);
                    }
                }
            }
            level = next;
            sizes.push(level.keys().cloned().collect());
        }
        sizes
    }

    /// The tables of shape counts are what an enumeration finds, and each ends past
    /// 4096 shapes (see `ALL`).
    #[test]
    #[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
    fn shape_counts_match_an_enumeration() {
        let chiral = |s: &Shape| s.mirrored().canonical() != *s;
        for (k, shapes) in enumerate(ALL.len(), false).iter().enumerate() {
            let count = |f: &dyn Fn(&Shape) -> bool| shapes.iter().filter(|s| f(s)).count();
            assert_eq!(shapes.len() as u64, ALL[k], "{} cells", k + 1);
            assert_eq!(count(&chiral) as u64, CHIRAL[k], "{} cells", k + 1);
            assert_eq!(count(&is_flat) as u64, FLAT[k], "{} cells", k + 1);
            assert!(!shapes.iter().any(|s| chiral(s) && is_flat(s)));
        }
        for (k, shapes) in enumerate(FLAT.len(), true).iter().enumerate() {
            assert_eq!(shapes.len() as u64, FLAT[k], "{} flat cells", k + 1);
        }
        for table in [&ALL[..], &CHIRAL, &FLAT] {
            assert!(table[table.len() - 2] <= 4096 && table[table.len() - 1] > 4096);
        }
    }

    /// The requests are refused, with the figure that rules them out; requests
    /// the counts allow are not.
    #[test]
    fn impossible_names_what_rules_a_request_out() {
        let none = Rules::default();
        let says = |pieces, sizes, volume, rules| {
            impossible(pieces, sizes, volume, rules).unwrap_or_default()
        };
        // 27 pieces of 1 or 2 cells: only the monocube and the dicube.
        assert!(says(27, (1, 2), 27, none).contains("only 2 shapes"));
        // 4 pieces in 2x2x2: the 4 shapes of 1 to 3 cells take 1 + 2 + 3 + 3 = 9 cells.
        assert!(says(4, (1, 3), 8, none).contains("at least 9 cells"));
        // 3 pieces of 1 to 2 cells: the third shape is missing whatever the volume.
        assert!(says(3, (1, 2), 5, none).contains("only 2 shapes"));
        // 2 pieces of 4 cells: the largest take 8 cells, and the box has 9.
        assert!(says(2, (1, 4), 9, none).contains("at most 8 cells"));
        let chiral = Rules {
            chiral: true,
            ..none
        };
        assert!(says(3, (1, 3), 6, chiral).contains("no chiral piece"));
        // The 2 chiral tetracubes, then 12 chiral pentacubes: 4 pieces take 18 cells.
        assert!(says(4, (4, 5), 16, chiral).contains("at least 18 cells"));
        let both = Rules {
            chiral: true,
            flat: true,
            ..none
        };
        assert!(says(2, (4, 4), 8, both).contains("exclude each other"));
        for (pieces, sizes, volume, rules) in [
            (6, (3, 6), 27, none),
            (4, (1, 3), 9, none),
            (2, (4, 5), 9, chiral),
            (8, (7, 9), 64, none),
            (100, (9, 4096), 4096, none),
            (
                27,
                (1, 2),
                27,
                Rules {
                    allow_duplicates: true,
                    ..none
                },
            ),
        ] {
            assert_eq!(impossible(pieces, sizes, volume, rules), None, "{pieces}");
        }
    }

    #[test]
    fn faults_count_each_rule() {
        let l = vec![[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]];
        // The same L turned; a corner (achiral, not flat); a screw (chiral, not flat).
        let l_turned = vec![[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0]];
        let corner = vec![[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]];
        let screw = vec![[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]];
        let none = Rules::default();
        let all = Rules {
            allow_duplicates: false,
            chiral: true,
            flat: true,
        };
        assert_eq!(faults(&[l.clone(), l_turned.clone()], none), 1);
        let lifted = Rules {
            allow_duplicates: true,
            ..none
        };
        assert_eq!(faults(&[l.clone(), l_turned], lifted), 0);
        // The flat L is its own mirror image; the corner is achiral and not flat; the
        // screw is chiral and not flat.
        assert_eq!(faults(std::slice::from_ref(&l), all), 1);
        assert_eq!(faults(&[corner], all), 2);
        assert_eq!(faults(&[screw], all), 1);
    }
}
