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
    check_unique(&name, symbol, p.symbol.is_some(), pieces, lines)
        .map_err(|m| Error::puzzle(&at, m))?;
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
                add_cell(&mut cells, c, &what)
                    .map_err(|m| Error::puzzle(location(source, text, Some(v.span())), m))?;
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
    let shape =
        connected(cells, &what).map_err(|m| Error::puzzle(line(source, text, cells_span), m))?;
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

/// What a check on typed values gives: the value, or the message (without location; the
/// caller knows where the value came from: a TOML span, a BurrTools shape).
pub(super) type Checked<T> = std::result::Result<T, String>;

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

/// A piece name is one word of 1 to [`MAX_NAME`] characters.
pub(super) fn check_name(name: &str) -> Checked<()> {
    if name.is_empty()
        || name.chars().count() > MAX_NAME
        || name.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(format!(
            "piece {name:?}: a piece name is one word of 1 to {MAX_NAME} characters, \
             without spaces (`label` holds a longer description)"
        ));
    }
    Ok(())
}

/// A symbol given explicitly: any character [`symbol_problem`] has nothing against.
pub(super) fn check_symbol(name: &str, c: char) -> Checked<char> {
    match symbol_problem(c) {
        None => Ok(c),
        Some(why) => Err(format!("piece {name}: symbol {c:?} cannot be used: {why}")),
    }
}

/// The name and the symbol (given explicitly, or the name's first character) must differ
/// from those of the pieces before (`pieces`, found at `lines`).
pub(super) fn check_unique(
    name: &str,
    symbol: char,
    explicit: bool,
    pieces: &[Piece],
    lines: &[String],
) -> Checked<()> {
    if let Some(first) = pieces.iter().position(|q| q.name == name) {
        return Err(format!(
            "piece {name}: duplicate piece name (first used at {})",
            lines[first]
        ));
    }
    if let Some(first) = pieces.iter().position(|q| q.symbol == symbol) {
        let how = if explicit {
            "its `symbol`"
        } else {
            "the first character of its name, by default"
        };
        return Err(format!(
            "piece {name}: symbol {symbol:?} ({how}) is already the symbol of piece {} \
                 (at {}); every piece needs its own: give one of them \
                 `symbol = \"x\"` (any character but `.`, `+`, `#` and spaces, \
                 for example a Greek letter once letters and digits run out)",
            pieces[first].name, lines[first]
        ));
    }
    Ok(())
}

/// Adds cell `c` to a piece's `cells`, which must not hold it yet.
pub(super) fn add_cell(cells: &mut Vec<Cell>, c: Cell, what: &str) -> Checked<()> {
    if cells.contains(&c) {
        return Err(format!("{what}: duplicate cell {c:?}"));
    }
    cells.push(c);
    Ok(())
}

/// The piece's shape, which must be face-connected.
pub(super) fn connected(cells: Vec<Cell>, what: &str) -> Checked<Shape> {
    let shape = Shape::new(cells);
    if !shape.is_face_connected() {
        return Err(format!(
            "{what}: the cells are not face-connected (every cube must share a face with another)"
        ));
    }
    Ok(shape)
}

/// One coordinate of a cell, at most [`MAX_COORDINATE`] in absolute value.
pub(super) fn coordinate(n: i64, what: &str) -> Checked<i32> {
    if n.unsigned_abs() > MAX_COORDINATE as u64 {
        return Err(coordinate_out_of_range(what, &n));
    }
    Ok(n as i32)
}

/// The message for a coordinate `n` past [`MAX_COORDINATE`] in absolute value.
pub(super) fn coordinate_out_of_range(what: &str, n: &dyn std::fmt::Display) -> String {
    format!("{what}: coordinate {n} is out of range (at most {MAX_COORDINATE} in absolute value)")
}

/// The message for a count (or a bound of a count range) `n` past what counts allow.
pub(super) fn count_out_of_range(what: &str, n: &dyn std::fmt::Display) -> String {
    format!(
        "{what}: count {n} is out of range: a count is an integer between 1 and \
         {MAX_COUNT}, or a range [min, max] with 0 <= min <= max and 1 <= max <= {MAX_COUNT}"
    )
}

/// The piece's name and symbol, checked.
fn name_and_symbol(source: &str, text: &str, p: &RawPiece) -> Result<(String, char)> {
    let at = line(source, text, p.name.span());
    let name = p.name.get_ref().clone();
    check_name(&name).map_err(|m| Error::puzzle(&at, m))?;
    let symbol = match &p.symbol {
        Some(sym) => {
            let at = line(source, text, sym.span());
            let mut chars = sym.get_ref().chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => check_symbol(&name, c).map_err(|m| Error::puzzle(at, m))?,
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
        cell[k] = coordinate(n, what).map_err(|m| Error::puzzle(at(), m))?;
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
    let found = c.get_ref();
    let range = match found {
        toml::Value::Integer(k) => check_count(*k, *k, what, found),
        toml::Value::Array(a) if a.len() == 2 => match (a[0].as_integer(), a[1].as_integer()) {
            (Some(min), Some(max)) => check_count(min, max, what, found),
            _ => Err(bad_count(what, found)),
        },
        _ => Err(bad_count(what, found)),
    };
    range.map_err(|m| Error::puzzle(at(), m))
}

/// A count range `min..=max` (`min == max` for an exact count): `0 <= min <= max` and
/// `1 <= max <=` [`MAX_COUNT`]. `found` is how the count was written.
pub(super) fn check_count(
    min: i64,
    max: i64,
    what: &str,
    found: &dyn std::fmt::Display,
) -> Checked<(u32, u32)> {
    // Each bound out of range first: [0, -5] has its max wrong, not its order.
    if min < 0 || !(1..=MAX_COUNT).contains(&max) {
        return Err(bad_count(what, found));
    }
    if min > max {
        return Err(format!(
            "{what}: count [{min}, {max}]: min is greater than max"
        ));
    }
    Ok((min as u32, max as u32))
}

fn bad_count(what: &str, found: &dyn std::fmt::Display) -> String {
    format!(
        "{what}: count must be an integer between 1 and {MAX_COUNT}, or a range \
         [min, max] with 0 <= min <= max and 1 <= max <= {MAX_COUNT}; found {found}"
    )
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
    let mut out: Vec<(Cell, u32)> = Vec::new();
    for (name, cells) in map {
        let k = color_number(name, colors, what)
            .map_err(|m| Error::puzzle(line(source, text, cells.span()), m))?;
        for v in cells.get_ref() {
            let c = triple(source, text, v, what)?;
            add_color(&mut out, raw_cells, c, (name, k), what)
                .map_err(|m| Error::puzzle(location(source, text, Some(v.span())), m))?;
        }
    }
    out.sort_unstable();
    Ok(out)
}

/// The number (from 1) of the target's colour `name`, which some target cell must have.
pub(super) fn color_number(name: &str, colors: &[String], what: &str) -> Checked<u32> {
    match colors.iter().position(|c| c == name) {
        Some(k) => Ok(k as u32 + 1),
        None => Err(format!(
            "{what}: colour {name}: no cell of the target has it (the target's \
             colours are given in [colors]{})",
            if colors.is_empty() {
                ", which this puzzle has none of".to_string()
            } else {
                format!(": {}", colors.join(", "))
            }
        )),
    }
}

/// Adds to `out` the colour `(name, number)` of the piece's cell `c`, given in the
/// piece's own coordinates (`raw_cells`, as written) and stored in its shape's (moved
/// to the origin corner). The caller sorts `out` once every colour is in.
pub(super) fn add_color(
    out: &mut Vec<(Cell, u32)>,
    raw_cells: &[Cell],
    c: Cell,
    (name, k): (&str, u32),
    what: &str,
) -> Checked<()> {
    if !raw_cells.contains(&c) {
        return Err(format!(
            "{what}: colour {name}: {c:?} is not a cell of the piece"
        ));
    }
    let lo = min_corner(raw_cells).expect("a piece has cells");
    let cell = [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]];
    if out.iter().any(|(d, _)| *d == cell) {
        return Err(format!("{what}: colour {name}: {c:?} already has a colour"));
    }
    out.push((cell, k));
    Ok(())
}
