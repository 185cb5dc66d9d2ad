//! What a maker asks of the pieces' shapes, and how far a cut is from it: the faults the
//! search drives to zero before it counts alone.
//!
//! Invariant: [`faults`] is 0 exactly when every rule asked for holds: no two pieces of
//! one shape up to rotation (unless duplicates are allowed), no piece its own mirror
//! image (`--chiral`), every piece in one plane (`--flat-pieces`).

use crate::geometry::{Cell, Shape};

/// The rules on shapes a design keeps (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Two pieces may have the same shape (they become one piece with a count).
    pub allow_duplicates: bool,
    /// No piece may be its own mirror image.
    pub chiral: bool,
    /// Every piece lies in one plane.
    pub flat: bool,
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

/// Whether the shape's cells share a coordinate on some axis (it lies in one plane).
pub(crate) fn is_flat(shape: &Shape) -> bool {
    let cells = shape.cells();
    (0..3).any(|a| cells.iter().all(|c| c[a] == cells[0][a]))
}

#[cfg(test)]
mod tests {
    use super::*;

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
