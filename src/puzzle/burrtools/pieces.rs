//! A BurrTools problem's pieces as polycover's: each `<shape>` entry of the problem with
//! its count or count range, checked, and named. A piece's name is its shape's name with
//! spaces turned into `-` (or `S` and the shape's number), cut to 60 characters and made
//! unique with `-2`, `-3`, ...; its symbol is its own ([`pick_symbol`]); the shape's own
//! name is its label where the two differ. An entry with a count of zero is left out.

use std::collections::HashSet;

use itertools::Itertools;

use super::{at, attr, colors_by_number, Voxels};
use crate::error::{Error, Result};
use crate::puzzle::polycube::PieceSpec;

/// The pieces of problem `number`: each entry of `shapes` as (its `<shape>` node, its
/// shape id, the shape's voxels), in the problem's order.
pub(super) fn piece_specs(
    source: &str,
    number: usize,
    shapes: Vec<(roxmltree::Node, usize, Voxels)>,
) -> Result<Vec<PieceSpec>> {
    let mut pieces = Vec::with_capacity(shapes.len());
    let mut used_names = HashSet::new();
    let mut used_symbols = HashSet::new();
    for (piece, id, voxels) in shapes {
        let (min, max) = count_range(source, piece, id)?;
        if max == 0 {
            continue;
        }
        check_voxels(source, piece, id, &voxels)?;
        let name = unique_name(&voxels, id, &mut used_names);
        let symbol = pick_symbol(&name, &mut used_symbols).ok_or_else(|| {
            Error::puzzle(
                source,
                "more pieces than symbols (letters, digits, Greek letters)",
            )
        })?;
        let label = voxels.name.clone().filter(|o| *o != name);
        pieces.push(PieceSpec {
            name,
            symbol: Some(symbol),
            label,
            colors: colors_by_number(&voxels.colors),
            cells: voxels.cells,
            min_count: min,
            count: max,
            at: format!("{source} problem {number}, shape {}", id + 1),
        });
    }
    Ok(pieces)
}

/// The entry's copies as (least, most): its `count`, else its `min` and `max`, else one.
fn count_range(source: &str, piece: roxmltree::Node, id: usize) -> Result<(u64, u64)> {
    Ok(
        match (
            attr::<u64>(source, piece, "count")?,
            attr::<u64>(source, piece, "min")?,
            attr::<u64>(source, piece, "max")?,
        ) {
            (Some(c), _, _) => (c, c),
            (None, Some(lo), Some(hi)) if lo <= hi => (lo, hi),
            (None, Some(lo), Some(hi)) => {
                return Err(Error::puzzle(
                    at(source, piece),
                    format!("shape {}: min {lo} is greater than max {hi}", id + 1),
                ))
            }
            _ => (1, 1),
        },
    )
}

/// Refuses a piece shape with variable voxels or none at all.
fn check_voxels(source: &str, piece: roxmltree::Node, id: usize, voxels: &Voxels) -> Result<()> {
    if !voxels.variable.is_empty() {
        return Err(Error::puzzle(
            at(source, piece),
            format!(
                "shape {}: a piece with variable voxels (`+`) is not supported (they \
                 mean optional cells of the result)",
                id + 1
            ),
        ));
    }
    if voxels.cells.is_empty() {
        return Err(Error::puzzle(
            at(source, piece),
            format!("shape {} is empty", id + 1),
        ));
    }
    Ok(())
}

/// The piece name of shape `id` (see the module doc), added to the names `used`.
fn unique_name(voxels: &Voxels, id: usize, used: &mut HashSet<String>) -> String {
    let base = voxels
        .name
        .as_deref()
        .map(|n| n.split_whitespace().join("-"))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("S{}", id + 1));
    let mut name: String = base.chars().take(60).collect();
    let mut n = 2;
    while !used.insert(name.clone()) {
        name = format!("{}-{n}", base.chars().take(56).collect::<String>());
        n += 1;
    }
    name
}

/// The first free of: the name's first character, its other letters and digits, then
/// A-Z, a-z, 0-9 and Greek letters.
fn pick_symbol(name: &str, used: &mut HashSet<char>) -> Option<char> {
    let candidates = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .chain('A'..='Z')
        .chain('a'..='z')
        .chain('0'..='9')
        .chain('α'..='ω');
    candidates.into_iter().find(|&c| used.insert(c))
}
