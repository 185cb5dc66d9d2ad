//! Reading a polycube puzzle file: the file-level keys (`name`, the target as `box`,
//! `target` or `layers`, `holes`, `optional`, `[colors]`, `mirror`, `[expect]`), the
//! pieces (each read by [`super::piece`]) and the checks that need all of them.
//!
//! Invariants of what [`Polycube::parse`] returns are those of [`Polycube`]; here in
//! particular: the target is sorted and free of duplicates and holes; `optional` and
//! `cell_colors` are parallel to it; the pieces' volume can fill the target (exactly,
//! or, with optional cells or count ranges, for some choice of counts). Every message
//! carries the file (and line, when one value is at fault).

use itertools::{iproduct, Itertools};
use serde::Deserialize;
use toml::Spanned;

use super::piece::{
    coordinate_out_of_range, count_out_of_range, parse_piece, triple, Checked, RawPiece,
};
use super::{Piece, Polycube, MAX_COORDINATE, MAX_TARGET_CELLS};
use crate::error::{Error, Result};
use crate::geometry::Cell;
use crate::puzzle::toml_util::{self, line, location, Document};
use crate::puzzle::{drawing, Expect};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: String,
    #[allow(dead_code)]
    kind: Option<String>,
    #[serde(rename = "box")]
    box_size: Option<Spanned<Vec<Spanned<toml::Value>>>>,
    holes: Option<Vec<Spanned<toml::Value>>>,
    target: Option<Spanned<Vec<Spanned<toml::Value>>>>,
    layers: Option<Spanned<Vec<Spanned<String>>>>,
    optional: Option<Vec<Spanned<toml::Value>>>,
    colors: Option<std::collections::BTreeMap<String, Spanned<Vec<Spanned<toml::Value>>>>>,
    #[serde(default)]
    mirror: bool,
    plane: Option<Spanned<String>>,
    #[serde(default)]
    expect: Expect,
    piece: Vec<Spanned<RawPiece>>,
}

impl Polycube {
    /// Reads a polycube file: `document` is `text` parsed once (see `puzzle::KINDS`).
    ///
    /// # Errors
    ///
    /// [`Error::Puzzle`], at the line concerned, for unknown keys or values of the wrong
    /// type, and for anything `docs/puzzle-format.md` forbids: a bad name, target or
    /// drawing, a piece that is empty, not face-connected or off its `plane`, repeated
    /// names or symbols, bad colours or counts, or a volume the pieces cannot fill.
    pub(crate) fn parse(
        source: &str,
        text: &str,
        document: Document<'_>,
        stop: &crate::stop::Stop,
    ) -> Result<Polycube> {
        let raw: RawFile = toml_util::deserialize(source, text, document, &explain_oversized)?;
        check_name(source, &raw.name)?;
        // Layer art of the target may use the pieces' symbols, as printed solutions do.
        let symbols: Vec<char> = raw
            .piece
            .iter()
            .filter_map(|p| {
                let p = p.get_ref();
                match &p.symbol {
                    Some(s) => s.get_ref().chars().next(),
                    None => p.name.get_ref().chars().next(),
                }
            })
            .collect();
        let (target, drawn_optional) = Self::parse_target(source, text, &raw, &symbols)?;
        let optional = Self::parse_optional(source, text, &raw, &target, &drawn_optional)?;
        let (colors, cell_colors) = Self::parse_colors(source, text, &raw, &target)?;

        if raw.piece.is_empty() {
            return Err(Error::puzzle(
                source,
                "no pieces: add at least one [[piece]] table",
            ));
        }
        let mut pieces: Vec<Piece> = Vec::with_capacity(raw.piece.len());
        let mut lines = Vec::with_capacity(raw.piece.len());
        for p in &raw.piece {
            let (piece, at) = parse_piece(source, text, p.get_ref(), &colors, &pieces, &lines)?;
            pieces.push(piece);
            lines.push(at);
        }
        check_volume(source, &pieces, &optional)?;
        let plane = match &raw.plane {
            Some(plane) => Some(check_plane(source, text, plane, &target, &pieces, &lines)?),
            None => None,
        };
        Polycube::with_placements(
            Polycube {
                name: raw.name,
                source: source.to_string(),
                target,
                optional,
                cell_colors,
                colors,
                mirror: raw.mirror,
                plane,
                expect: raw.expect.located(source, text),
                pieces,
                orientations: Vec::new(),
                orientation_colors: Vec::new(),
                placements: Vec::new(),
            },
            &lines,
            stop,
        )
    }

    fn parse_target(
        source: &str,
        text: &str,
        raw: &RawFile,
        symbols: &[char],
    ) -> Result<(Vec<Cell>, Vec<Cell>)> {
        let given = [
            raw.box_size.as_ref().map(|b| ("box", b.span())),
            raw.target.as_ref().map(|t| ("target", t.span())),
            raw.layers.as_ref().map(|l| ("layers", l.span())),
        ];
        let given: Vec<_> = given.into_iter().flatten().collect();
        if given.len() > 1 {
            return Err(Error::puzzle(
                line(source, text, given[1].1.clone()),
                format!(
                    "`{}` and `{}`: give one of `box`, `target` or `layers`",
                    given[0].0, given[1].0
                ),
            ));
        }
        if let Some(layers) = &raw.layers {
            let is_cell =
                |c: char| c == '#' || c == '+' || c.is_ascii_alphanumeric() || symbols.contains(&c);
            let marked = drawing::marked_cells(
                source,
                text,
                layers,
                "target",
                &is_cell,
                "`#`, a letter, a digit or a piece's symbol, or `+` for an optional cell",
            )?;
            let optional = marked
                .iter()
                .filter(|(_, c)| *c == '+')
                .map(|(cell, _)| *cell)
                .collect();
            let mut cells = marked.into_iter().map(|(cell, _)| cell).collect();
            Self::finish_target(source, text, raw, &mut cells)?;
            return Ok((cells, optional));
        }
        let mut target: Vec<Cell> = match (&raw.box_size, &raw.target) {
            (Some(_), Some(_)) => unreachable!("refused above"),
            (None, None) => {
                return Err(Error::puzzle(
                    source,
                    "missing key `box` (or `target`, or `layers`): the shape to fill",
                ))
            }
            (Some(b), None) => {
                let at = line(source, text, b.span());
                let dims: Vec<i64> = b
                    .get_ref()
                    .iter()
                    .filter_map(|v| v.get_ref().as_integer())
                    .collect();
                if dims.len() != 3 || b.get_ref().len() != 3 {
                    let found = toml::Value::Array(
                        b.get_ref().iter().map(|v| v.get_ref().clone()).collect(),
                    );
                    return Err(Error::puzzle(
                        at,
                        format!("`box` must be three integers [x, y, z], found {found}"),
                    ));
                }
                if dims.iter().any(|&d| !(1..=MAX_COORDINATE).contains(&d)) {
                    return Err(Error::puzzle(
                        at,
                        format!(
                            "`box` sizes must be between 1 and {MAX_COORDINATE}, found {dims:?}"
                        ),
                    ));
                }
                let cells = dims[0] * dims[1] * dims[2];
                if cells as usize > MAX_TARGET_CELLS {
                    return Err(Error::puzzle(
                        at,
                        format!("`box` {dims:?} has {cells} cells; at most {MAX_TARGET_CELLS} are supported"),
                    ));
                }
                let [x, y, z] = [0, 1, 2].map(|a| 0..dims[a] as i32);
                iproduct!(x, y, z).map(|(x, y, z)| [x, y, z]).collect()
            }
            (None, Some(t)) => {
                check_target_size(t.get_ref().len())
                    .map_err(|m| Error::puzzle(line(source, text, t.span()), m))?;
                let mut cells = Vec::with_capacity(t.get_ref().len());
                for v in t.get_ref() {
                    let c = triple(source, text, v, "target")?;
                    add_target_cell(&mut cells, c)
                        .map_err(|m| Error::puzzle(location(source, text, Some(v.span())), m))?;
                }
                cells
            }
        };
        Self::finish_target(source, text, raw, &mut target)?;
        Ok((target, Vec::new()))
    }

    /// Which target cells are optional: the `+` cells of the drawing and the `optional`
    /// list, each a cell of the target.
    fn parse_optional(
        source: &str,
        text: &str,
        raw: &RawFile,
        target: &[Cell],
        drawn: &[Cell],
    ) -> Result<Vec<bool>> {
        let mut optional = vec![false; target.len()];
        // A drawn `+` that `holes` removed is no cell at all.
        for c in drawn {
            if let Ok(k) = target.binary_search(c) {
                optional[k] = true;
            }
        }
        for v in raw.optional.iter().flatten() {
            let c = triple(source, text, v, "optional")?;
            mark_optional(&mut optional, target, c)
                .map_err(|m| Error::puzzle(location(source, text, Some(v.span())), m))?;
        }
        check_some_required(source, &optional)?;
        Ok(optional)
    }

    /// The `[colors]` table: colour names (numbered from 1 in name order) and each
    /// target cell's colour.
    fn parse_colors(
        source: &str,
        text: &str,
        raw: &RawFile,
        target: &[Cell],
    ) -> Result<(Vec<String>, Vec<u32>)> {
        let mut names = Vec::new();
        let mut cell_colors = vec![0u32; target.len()];
        for (k, (name, cells)) in raw.colors.iter().flatten().enumerate() {
            let what = format!("colors.{name}");
            check_color_name(name, &what)
                .map_err(|m| Error::puzzle(line(source, text, cells.span()), m))?;
            names.push(name.clone());
            for v in cells.get_ref() {
                let c = triple(source, text, v, &what)?;
                paint(&mut cell_colors, &names, target, c, k as u32 + 1, &what)
                    .map_err(|m| Error::puzzle(location(source, text, Some(v.span())), m))?;
            }
        }
        Ok((names, cell_colors))
    }

    /// Removes the holes from `target`, checks it is not empty, and sorts it.
    fn finish_target(
        source: &str,
        text: &str,
        raw: &RawFile,
        target: &mut Vec<Cell>,
    ) -> Result<()> {
        for h in raw.holes.iter().flatten() {
            let c = triple(source, text, h, "holes")?;
            match target.iter().position(|&t| t == c) {
                Some(k) => {
                    target.swap_remove(k);
                }
                None => {
                    return Err(Error::puzzle(
                        location(source, text, Some(h.span())),
                        format!("holes: {c:?} is not a cell of the target (or is listed twice)"),
                    ))
                }
            }
        }
        sort_target(source, target)
    }
}

/// What to say of an integer too large for an `i64` (which the TOML reader cannot hold)
/// at the keys of `o`: the range that key allows. `None` for keys that take no integer.
fn explain_oversized(o: &toml_util::Oversized) -> Option<String> {
    let n = &o.value;
    let piece = || format!("piece {}", o.table_name.as_deref().unwrap_or("?"));
    let coordinate = |what: &str| Some(coordinate_out_of_range(what, n));
    match o.keys().as_slice() {
        ["box"] => Some(format!(
            "`box` size {n} is out of range: sizes are between 1 and {MAX_COORDINATE}"
        )),
        ["piece", "count"] => Some(count_out_of_range(&piece(), n)),
        ["piece", "cells"] | ["piece", "colors", _] => coordinate(&piece()),
        [key @ ("target" | "holes" | "optional")] => coordinate(key),
        ["colors", name] => coordinate(&format!("colors.{name}")),
        _ => Expect::explain_oversized(o),
    }
}

/// A puzzle's `name` must say something.
pub(super) fn check_name(source: &str, name: &str) -> Result<()> {
    if name.trim().is_empty() {
        return Err(Error::puzzle(source, "`name` must not be empty"));
    }
    Ok(())
}

/// A target given cell by cell has at most [`MAX_TARGET_CELLS`] cells.
pub(super) fn check_target_size(cells: usize) -> Checked<()> {
    if cells > MAX_TARGET_CELLS {
        return Err(format!("`target` has more than {MAX_TARGET_CELLS} cells"));
    }
    Ok(())
}

/// Adds cell `c` to the target's `cells`, which must not hold it yet.
pub(super) fn add_target_cell(cells: &mut Vec<Cell>, c: Cell) -> Checked<()> {
    if cells.contains(&c) {
        return Err(format!("target: duplicate cell {c:?}"));
    }
    cells.push(c);
    Ok(())
}

/// The finished target (holes removed) must have cells; it is sorted, so that a cell's
/// index is its item number.
pub(super) fn sort_target(source: &str, target: &mut [Cell]) -> Result<()> {
    if target.is_empty() {
        return Err(Error::puzzle(source, "the target has no cells"));
    }
    target.sort_unstable();
    Ok(())
}

/// Marks cell `c` of the (sorted) `target` optional, once.
pub(super) fn mark_optional(optional: &mut [bool], target: &[Cell], c: Cell) -> Checked<()> {
    match target.binary_search(&c) {
        Ok(k) if !optional[k] => {
            optional[k] = true;
            Ok(())
        }
        Ok(_) => Err(format!("optional: {c:?} is listed twice")),
        Err(_) => Err(format!(
            "optional: {c:?} is not a cell of the target (an optional cell is \
             a target cell that may stay empty)"
        )),
    }
}

/// Some target cell must be required.
pub(super) fn check_some_required(source: &str, optional: &[bool]) -> Result<()> {
    if optional.iter().all(|&o| o) {
        return Err(Error::puzzle(
            source,
            "every target cell is optional: at least one cell must be filled",
        ));
    }
    Ok(())
}

/// A colour name is one word.
pub(super) fn check_color_name(name: &str, what: &str) -> Checked<()> {
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("{what}: a colour name is one word"));
    }
    Ok(())
}

/// Gives cell `c` of the (sorted) `target` colour `k` (from 1; `names[k - 1]`), which
/// it must not have another of.
pub(super) fn paint(
    cell_colors: &mut [u32],
    names: &[String],
    target: &[Cell],
    c: Cell,
    k: u32,
    what: &str,
) -> Checked<()> {
    let Ok(t) = target.binary_search(&c) else {
        return Err(format!("{what}: {c:?} is not a cell of the target"));
    };
    if cell_colors[t] != 0 {
        return Err(format!(
            "{what}: {c:?} already has colour {}",
            names[cell_colors[t] as usize - 1]
        ));
    }
    cell_colors[t] = k;
    Ok(())
}

/// The pieces' cells (times their counts) must fill the target: exactly, or, with
/// optional cells or count ranges, for some choice of counts in the ranges.
/// The axis normal to the `plane` key's plane, with the target and every piece one
/// cell thick along it: a flat puzzle whose pieces turn in the plane only.
fn check_plane(
    source: &str,
    text: &str,
    plane: &Spanned<String>,
    target: &[Cell],
    pieces: &[Piece],
    lines: &[String],
) -> Result<usize> {
    let at = || line(source, text, plane.span());
    let axis = match plane.get_ref().as_str() {
        "x" => 0,
        "y" => 1,
        "z" => 2,
        other => {
            return Err(Error::puzzle(
                at(),
                format!("plane = {other:?}: give \"x\", \"y\" or \"z\", the axis normal to the flat puzzle's plane"),
            ))
        }
    };
    let name = plane.get_ref();
    let thick = |cells: &[Cell]| cells.iter().any(|c| c[axis] != cells[0][axis]);
    if thick(target) {
        return Err(Error::puzzle(
            at(),
            format!("plane = \"{name}\": the target is more than one cell thick along {name}; a flat puzzle lies in one layer"),
        ));
    }
    for (piece, at) in pieces.iter().zip(lines) {
        if thick(piece.shape.cells()) {
            return Err(Error::puzzle(
                at.clone(),
                format!(
                    "piece {}: it is more than one cell thick along {name}, but plane = \"{name}\" makes the puzzle flat",
                    piece.display_name()
                ),
            ));
        }
    }
    Ok(axis)
}

pub(super) fn check_volume(source: &str, pieces: &[Piece], optional: &[bool]) -> Result<()> {
    let target_len = optional.len();
    let required = optional.iter().filter(|&&o| !o).count();
    let exact = required == target_len && pieces.iter().all(|p| p.min_count == p.count);
    if exact {
        let volume: usize = pieces
            .iter()
            .map(|p| p.shape.len() * p.count as usize)
            .sum();
        if volume != target_len {
            let detail = pieces
                .iter()
                .map(|p| {
                    if p.count > 1 {
                        format!("{}:{}x{}", p.name, p.count, p.shape.len())
                    } else {
                        format!("{}:{}", p.name, p.shape.len())
                    }
                })
                .join(" ");
            return Err(Error::puzzle(
                source,
                format!(
                    "the pieces have {} but the target has {target_len} ({detail})",
                    crate::count::Count::plural(volume, "cell", "cells")
                ),
            ));
        }
    } else if !reachable_volume(pieces, required, target_len) {
        let detail = pieces
            .iter()
            .map(|p| {
                let n = if p.min_count == p.count {
                    format!("{}", p.count)
                } else {
                    format!("{}-{}", p.min_count, p.count)
                };
                format!("{}:{n}x{}", p.name, p.shape.len())
            })
            .join(" ");
        return Err(Error::puzzle(
            source,
            format!(
                "no choice of piece counts fills the target: {required} of its cells must \
                 be filled and {} may stay empty, so the pieces must cover between \
                 {required} and {} cells, and no counts in the given ranges do \
                 (piece:count x cells: {detail})",
                target_len - required,
                target_len
            ),
        ));
    }
    Ok(())
}

/// Whether some counts within the pieces' ranges cover between `required` and `total`
/// cells (a subset-sum over the reachable totals, bounded by `total`).
fn reachable_volume(pieces: &[Piece], required: usize, total: usize) -> bool {
    let mut reach = vec![false; total + 1];
    reach[0] = true;
    for p in pieces {
        let size = p.shape.len();
        let mut next = vec![false; total + 1];
        for v in (0..=total).filter(|&v| reach[v]) {
            for c in p.min_count as usize..=p.count as usize {
                match v.checked_add(c * size) {
                    Some(w) if w <= total => next[w] = true,
                    _ => break,
                }
            }
        }
        reach = next;
    }
    reach[required..].iter().any(|&r| r)
}
