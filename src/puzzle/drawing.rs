//! Layer art: cells drawn as text, the way solutions are printed.
//!
//! A drawing is a list of strings, one per z level, bottom (z = 0) first. Each string
//! is rows of characters separated by newlines (a TOML multi-line string): row r is
//! y = r, the top row printed first; column c is x = c. What counts as a cell is the
//! caller's rule; `.` and a space are empty.
//!
//! Invariants of what [`cells`] accepts: at least one cell; every row of every layer has
//! the same number of characters and every layer the same number of rows (a drawing is
//! a grid: a ragged row is almost always a typing slip, and silently padding it would
//! move cells). Leading empty lines and trailing blank lines of a layer are not rows, so
//! that `"""` may sit on lines of its own, indented or not.
//!
//! Errors carry `file:line:column` of the offending character. That is exact for
//! literal strings (`'''...'''`) and for basic strings without escapes; otherwise it
//! falls back to the string's start, and the message still names layer, row and column.

use std::ops::Range;

use toml::Spanned;

use super::toml_util::location;
use crate::error::{Error, Result};
use crate::geometry::{Cell, MAX_COORDINATE};

/// The widest and tallest drawing accepted: the same bound as coordinates.
const MAX_SIDE: usize = MAX_COORDINATE as usize;

/// Where the characters of one TOML string are in the file, when that can be known.
struct Located<'a> {
    source: &'a str,
    text: &'a str,
    span: Range<usize>,
    /// Byte offset in `text` of the value's first byte, when the value is the raw text.
    start: Option<usize>,
}

impl Located<'_> {
    fn new<'a>(source: &'a str, text: &'a str, s: &Spanned<String>) -> Located<'a> {
        let span = s.span();
        let raw = text.get(span.clone()).unwrap_or("");
        let value = s.get_ref();
        let start = ["'''", "\"\"\"", "'", "\""].iter().find_map(|delimiter| {
            let inner = raw.strip_prefix(delimiter)?.strip_suffix(delimiter)?;
            let mut offset = span.start + delimiter.len();
            let mut inner = inner;
            if delimiter.len() == 3 {
                // TOML drops a newline right after the opening delimiter.
                for newline in ["\r\n", "\n"] {
                    if let Some(rest) = inner.strip_prefix(newline) {
                        inner = rest;
                        offset += newline.len();
                        break;
                    }
                }
            }
            (inner == value).then_some(offset)
        });
        Located {
            source,
            text,
            span,
            start,
        }
    }

    /// `file:line:column` of the value's byte `at`.
    fn at(&self, at: usize) -> String {
        let offset = self.start.map_or(self.span.start, |s| s + at);
        location(self.source, self.text, Some(offset..offset))
    }
}

/// The cells of a drawing. `what` names it in messages (`piece A`, `target`); `is_cell`
/// says which characters are cells, and `cell_chars` describes them for the message about
/// an unknown character.
pub fn cells(
    source: &str,
    text: &str,
    layers: &Spanned<Vec<Spanned<String>>>,
    what: &str,
    is_cell: &dyn Fn(char) -> bool,
    cell_chars: &str,
) -> Result<Vec<Cell>> {
    Ok(
        marked_cells(source, text, layers, what, is_cell, cell_chars)?
            .into_iter()
            .map(|(cell, _)| cell)
            .collect(),
    )
}

/// [`cells`], each with the character that drew it (`+` marks an optional target cell).
pub fn marked_cells(
    source: &str,
    text: &str,
    layers: &Spanned<Vec<Spanned<String>>>,
    what: &str,
    is_cell: &dyn Fn(char) -> bool,
    cell_chars: &str,
) -> Result<Vec<(Cell, char)>> {
    let whole = location(source, text, Some(layers.span()));
    if layers.get_ref().is_empty() {
        return Err(Error::puzzle(
            whole,
            format!("{what}: `layers` is empty (one string per z level, bottom first)"),
        ));
    }
    if layers.get_ref().len() > MAX_SIDE {
        return Err(Error::puzzle(
            whole,
            format!("{what}: more than {MAX_SIDE} layers"),
        ));
    }
    let mut out = Vec::new();
    // (columns, rows) of the first layer, and where its first row is.
    let mut grid: Option<(usize, usize)> = None;
    for (z, layer) in layers.get_ref().iter().enumerate() {
        let place = Located::new(source, text, layer);
        let value = layer.get_ref();
        // Rows with the byte offset of their first character.
        let mut rows: Vec<(usize, &str)> = Vec::new();
        let mut offset = 0;
        for line in value.split('\n') {
            rows.push((offset, line.strip_suffix('\r').unwrap_or(line)));
            offset += line.len() + 1;
        }
        while rows.first().is_some_and(|(_, r)| r.is_empty()) {
            rows.remove(0);
        }
        while rows.last().is_some_and(|(_, r)| r.trim().is_empty()) {
            rows.pop();
        }
        let layer_name = format!("{what}, layer {} (z = {z})", z + 1);
        if rows.is_empty() {
            return Err(Error::puzzle(
                place.at(0),
                format!("{layer_name} is empty: draw its rows, `.` for an empty cell"),
            ));
        }
        let (columns, height) = *grid.get_or_insert((rows[0].1.chars().count(), rows.len()));
        if columns > MAX_SIDE {
            return Err(Error::puzzle(
                place.at(rows[0].0),
                format!("{layer_name}: rows longer than {MAX_SIDE} characters"),
            ));
        }
        for (r, (start, row)) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != columns {
                return Err(Error::puzzle(
                    place.at(start + row.len().min(columns)),
                    format!(
                        "{layer_name}, row {}: ragged rows: this row has {}, \
                         the first row of the drawing has {columns} (every row the same \
                         length; `.` for an empty cell)",
                        r + 1,
                        crate::count::Count::plural(n, "character", "characters")
                    ),
                ));
            }
            for (x, (byte, c)) in row.char_indices().enumerate() {
                match c {
                    '.' | ' ' => {}
                    c if is_cell(c) => out.push(([x as i32, r as i32, z as i32], c)),
                    c => {
                        return Err(Error::puzzle(
                            place.at(start + byte),
                            format!(
                                "{layer_name}, row {}, column {}: unknown character {c:?} \
                                 (a cell is {cell_chars}; `.` or a space is empty)",
                                r + 1,
                                x + 1
                            ),
                        ))
                    }
                }
            }
        }
        if rows.len() != height {
            return Err(Error::puzzle(
                place.at(rows[0].0),
                format!(
                    "{layer_name} has {}, the first layer has {height} (every layer \
                     the same size)",
                    crate::count::Count::plural(rows.len(), "row", "rows")
                ),
            ));
        }
    }
    if out.is_empty() {
        return Err(Error::puzzle(
            whole,
            format!("{what}: the drawing has no cells ({cell_chars} marks a cell)"),
        ));
    }
    Ok(out)
}
