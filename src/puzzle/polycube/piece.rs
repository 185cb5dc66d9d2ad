//! One `[[piece]]` table of a polycube file, read and checked: its name and symbol, its
//! cells (a list or layer art), its count or count range and its coloured cells.
//!
//! Invariants of a [`Piece`] read here: the name is one word of at most [`MAX_NAME`]
//! characters; the symbol is one character that does not mean "empty", "optional" or
//! "any cell" in drawings; name and symbol differ from those of the pieces before it;
//! the cells are distinct and face-connected; `min_count <= count`, `1 <= count <=`
//! [`MAX_COUNT`]; every coloured cell is a cell of the piece with a colour of the target.
//! Every message carries the file and line of the offending value.

use serde::Deserialize;
use toml::Spanned;

use super::{Piece, MAX_COORDINATE, MAX_COUNT};
use crate::error::{Error, Result};
use crate::geometry::{min_corner, Cell, Shape};
use crate::puzzle::drawing;
use crate::puzzle::toml_util::{line, location};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPiece {
    pub(super) name: Spanned<String>,
    pub(super) symbol: Option<Spanned<String>>,
    label: Option<String>,
    cells: Option<Spanned<Vec<Spanned<toml::Value>>>>,
    layers: Option<Spanned<Vec<Spanned<String>>>>,
    count: Option<Spanned<toml::Value>>,
    colors: Option<std::collections::BTreeMap<String, Spanned<Vec<Spanned<toml::Value>>>>>,
}

/// Piece `p`, checked against the pieces read before it (`pieces`, their tables at
/// `lines`) and the target's colour names; with the `file:line` of its table.
pub(super) fn parse_piece(
    source: &str,
    text: &str,
    p: &RawPiece,
    colors: &[String],
    pieces: &[Piece],
    lines: &[String],
) -> Result<(Piece, String)> {
    let at = line(source, text, p.name.span());
    let (name, symbol) = name_and_symbol(source, text, p)?;
    let what = format!("piece {name}");
    if let Some(first) = pieces.iter().position(|q| q.name == name) {
        return Err(Error::puzzle(
            at,
            format!(
                "{what}: duplicate piece name (first used at {})",
                lines[first]
            ),
        ));
    }
    if let Some(first) = pieces.iter().position(|q| q.symbol == symbol) {
        let how = if p.symbol.is_some() {
            "its `symbol`"
        } else {
            "the first character of its name, by default"
        };
        return Err(Error::puzzle(
            at,
            format!(
                "{what}: symbol {symbol:?} ({how}) is already the symbol of piece {} \
                     (at {}); every piece needs its own: give one of them \
                     `symbol = \"x\"` (any character but `.`, `+`, `#` and spaces, \
                     for example a Greek letter once letters and digits run out)",
                pieces[first].name, lines[first]
            ),
        ));
    }
    let cells = match (&p.cells, &p.layers) {
        (Some(_), Some(l)) => {
            return Err(Error::puzzle(
                line(source, text, l.span()),
                format!("{what}: give either `cells` or `layers`, not both"),
            ))
        }
        (None, None) => {
            return Err(Error::puzzle(
                at,
                format!("{what}: missing `cells` (or `layers`): the piece's cubes"),
            ))
        }
        (None, Some(l)) => {
            let is_cell = |c: char| c == '#' || c == symbol;
            drawing::cells(
                source,
                text,
                l,
                &what,
                &is_cell,
                &format!("`#` or the piece's symbol `{symbol}`"),
            )?
        }
        (Some(list), None) => {
            if list.get_ref().is_empty() {
                return Err(Error::puzzle(
                    line(source, text, list.span()),
                    format!("{what}: `cells` is empty"),
                ));
            }
            let mut cells = Vec::with_capacity(list.get_ref().len());
            for v in list.get_ref() {
                let c = triple(source, text, v, &what)?;
                if cells.contains(&c) {
                    return Err(Error::puzzle(
                        location(source, text, Some(v.span())),
                        format!("{what}: duplicate cell {c:?}"),
                    ));
                }
                cells.push(c);
            }
            cells
        }
    };
    let cells_span = p
        .cells
        .as_ref()
        .map(|c| c.span())
        .or_else(|| p.layers.as_ref().map(|l| l.span()))
        .unwrap();
    let raw_cells = cells.clone();
    let shape = Shape::new(cells);
    if !shape.is_face_connected() {
        return Err(Error::puzzle(
                line(source, text, cells_span),
                format!("{what}: the cells are not face-connected (every cube must share a face with another)"),
            ));
    }
    let (min_count, count) = match &p.count {
        None => (1, 1),
        Some(c) => count_range(source, text, c, &what)?,
    };
    let piece_colors = match &p.colors {
        None => Vec::new(),
        Some(map) => piece_colors(source, text, map, &raw_cells, colors, &what)?,
    };
    let piece = Piece {
        name,
        symbol,
        label: p.label.clone(),
        shape,
        count,
        min_count,
        colors: piece_colors,
    };
    Ok((piece, at))
}

/// Longest piece name.
const MAX_NAME: usize = 64;

/// Characters that cannot be a symbol: they mean "empty" (`.`, space) or will mean
/// "optional cell" (`+`) in layer art, and `#` is "a cell" in every drawing.
fn symbol_problem(c: char) -> Option<&'static str> {
    match c {
        '.' => Some("`.` marks an empty cell"),
        '+' => Some("`+` is reserved for optional cells"),
        '#' => Some("`#` marks a cell of any piece in drawings"),
        c if c.is_whitespace() || c.is_control() => Some("it is blank"),
        _ => None,
    }
}

/// The piece's name and symbol, checked.
fn name_and_symbol(source: &str, text: &str, p: &RawPiece) -> Result<(String, char)> {
    let at = line(source, text, p.name.span());
    let name = p.name.get_ref().clone();
    if name.is_empty()
        || name.chars().count() > MAX_NAME
        || name.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(Error::puzzle(
            at,
            format!(
                "piece {name:?}: a piece name is one word of 1 to {MAX_NAME} characters, \
                 without spaces (`label` holds a longer description)"
            ),
        ));
    }
    let symbol = match &p.symbol {
        Some(sym) => {
            let at = line(source, text, sym.span());
            let mut chars = sym.get_ref().chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => match symbol_problem(c) {
                    None => c,
                    Some(why) => {
                        return Err(Error::puzzle(
                            at,
                            format!("piece {name}: symbol {c:?} cannot be used: {why}"),
                        ))
                    }
                },
                _ => {
                    return Err(Error::puzzle(
                        at,
                        format!(
                            "piece {name}: `symbol` must be one character, found {:?}",
                            sym.get_ref()
                        ),
                    ))
                }
            }
        }
        None => {
            let first = name.chars().next().unwrap();
            if let Some(why) = symbol_problem(first) {
                return Err(Error::puzzle(
                    at,
                    format!(
                        "piece {name}: its first character {first:?} cannot be its symbol \
                         ({why}); give it one with `symbol = \"x\"`"
                    ),
                ));
            }
            first
        }
    };
    Ok((name, symbol))
}

/// Reads one `[x, y, z]` integer triple, with a located message when it is not one.
pub(super) fn triple(
    source: &str,
    text: &str,
    v: &Spanned<toml::Value>,
    what: &str,
) -> Result<Cell> {
    let at = || location(source, text, Some(v.span()));
    let not_a_triple = || {
        Error::puzzle(
            at(),
            format!(
                "{what}: a cell must be an integer triple [x, y, z], found {}",
                v.get_ref()
            ),
        )
    };
    let arr = v
        .get_ref()
        .as_array()
        .filter(|a| a.len() == 3)
        .ok_or_else(not_a_triple)?;
    let mut cell = [0i32; 3];
    for (k, x) in arr.iter().enumerate() {
        let n = x.as_integer().ok_or_else(not_a_triple)?;
        if n.abs() > MAX_COORDINATE {
            return Err(Error::puzzle(
                at(),
                format!("{what}: coordinate {n} is out of range (at most {MAX_COORDINATE} in absolute value)"),
            ));
        }
        cell[k] = n as i32;
    }
    Ok(cell)
}

/// A piece's `count`: `k` (exactly k copies) or `[min, max]`.
fn count_range(
    source: &str,
    text: &str,
    c: &Spanned<toml::Value>,
    what: &str,
) -> Result<(u32, u32)> {
    let at = || line(source, text, c.span());
    let bad = || {
        Error::puzzle(
            at(),
            format!(
                "{what}: count must be an integer between 1 and {MAX_COUNT}, or a range \
                 [min, max] with 0 <= min <= max and 1 <= max <= {MAX_COUNT}; found {}",
                c.get_ref()
            ),
        )
    };
    match c.get_ref() {
        toml::Value::Integer(k) if (1..=MAX_COUNT).contains(k) => Ok((*k as u32, *k as u32)),
        toml::Value::Array(a) if a.len() == 2 => {
            let (Some(min), Some(max)) = (a[0].as_integer(), a[1].as_integer()) else {
                return Err(bad());
            };
            if min > max {
                return Err(Error::puzzle(
                    at(),
                    format!("{what}: count [{min}, {max}]: min is greater than max"),
                ));
            }
            if min < 0 || !(1..=MAX_COUNT).contains(&max) {
                return Err(bad());
            }
            Ok((min as u32, max as u32))
        }
        _ => Err(bad()),
    }
}

/// A piece's `colors` table: its coloured cells (given in the piece's own coordinates,
/// like `cells`), moved as the shape is normalised, with their colour numbers.
fn piece_colors(
    source: &str,
    text: &str,
    map: &std::collections::BTreeMap<String, Spanned<Vec<Spanned<toml::Value>>>>,
    raw_cells: &[Cell],
    colors: &[String],
    what: &str,
) -> Result<Vec<(Cell, u32)>> {
    let lo = min_corner(raw_cells).expect("a piece has cells");
    let mut out: Vec<(Cell, u32)> = Vec::new();
    for (name, cells) in map {
        let Some(k) = colors.iter().position(|c| c == name) else {
            return Err(Error::puzzle(
                line(source, text, cells.span()),
                format!(
                    "{what}: colour {name}: no cell of the target has it (the target's \
                     colours are given in [colors]{})",
                    if colors.is_empty() {
                        ", which this puzzle has none of".to_string()
                    } else {
                        format!(": {}", colors.join(", "))
                    }
                ),
            ));
        };
        for v in cells.get_ref() {
            let c = triple(source, text, v, what)?;
            let at = || location(source, text, Some(v.span()));
            if !raw_cells.contains(&c) {
                return Err(Error::puzzle(
                    at(),
                    format!("{what}: colour {name}: {c:?} is not a cell of the piece"),
                ));
            }
            let cell = [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]];
            if out.iter().any(|(d, _)| *d == cell) {
                return Err(Error::puzzle(
                    at(),
                    format!("{what}: colour {name}: {c:?} already has a colour"),
                ));
            }
            out.push((cell, k as u32 + 1));
        }
    }
    out.sort_unstable();
    Ok(out)
}
