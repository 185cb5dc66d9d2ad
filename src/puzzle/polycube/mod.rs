//! Polycube packing: pieces made of unit cubes, packed into a target set of cells.
//!
//! Invariants of a parsed [`Polycube`]:
//! - the target is a non-empty set of distinct cells, sorted; a cell's index in that list
//!   is its item number in the matrix;
//! - every piece is face-connected, has distinct cells and at least one placement, and
//!   the pieces' cells (times their counts) add up to the number of target cells, or,
//!   with optional cells or count ranges, some choice of counts in the ranges gives a
//!   total between the required cells and all cells;
//! - `optional[t]` and `cell_colors[t]` describe target cell `t`; a colour is an index
//!   into `colors` from 1 (0 is no colour), and every colour a piece uses is on some
//!   target cell;
//! - names are unique words (no spaces); symbols, one character each for the text
//!   output, are unique too (by default a name's first character).
//!
//! Cells are given as coordinates (`cells`, `box`/`target`) or drawn as layers
//! (`layers`, see `puzzle::drawing`); a file may mix both.
//!
//! The matrix: items are the target cells (covered once; an optional cell at most once),
//! then one item per piece, covered between its `min_count` and `count` times. Options
//! are placements: a piece in one of its orientations, translated so that all its cells
//! lie in the target, each coloured piece cell on a target cell of its colour.

mod kind;

use std::collections::HashMap;

use serde::Deserialize;
use toml::Spanned;

use super::toml_util::{line, location};
use super::Expect;
use crate::error::{Error, Result};
use crate::geometry::{min_corner, Cell, Isometry, Shape};

pub use crate::geometry::MAX_COORDINATE;
/// More target cells than this would make a matrix no engine here can search.
pub const MAX_TARGET_CELLS: usize = 65_536;
/// Copies of one piece.
pub const MAX_COUNT: i64 = 4096;

/// What [`Polycube::fill`] gives for an optional cell no piece covers (printed `+`).
pub const EMPTY: (u32, u32) = (u32::MAX, 0);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// A word, unique in the puzzle.
    pub name: String,
    /// One character, unique in the puzzle: labels the piece's cells in text output.
    pub symbol: char,
    pub label: Option<String>,
    pub shape: Shape,
    /// The most copies a solution uses.
    pub count: u32,
    /// The fewest copies a solution uses (`count` unless a range was given).
    pub min_count: u32,
    /// The coloured cells of `shape` (in its coordinates) with their colours.
    pub colors: Vec<(Cell, u32)>,
}

impl Piece {
    /// `A (Little Corner)`, `Alpha (a)` or `A`: the name, with the symbol when it is not
    /// the name and the label when there is one.
    pub fn display_name(&self) -> String {
        let name = if self.name == self.symbol.to_string() {
            self.name.clone()
        } else {
            format!("{} [{}]", self.name, self.symbol)
        };
        match &self.label {
            Some(l) => format!("{name} ({l})"),
            None => name,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Polycube {
    pub name: String,
    pub source: String,
    pub target: Vec<Cell>,
    /// Target cells that may stay empty, by index.
    pub optional: Vec<bool>,
    /// The colour of each target cell (0: none; `k` is `colors[k - 1]`).
    pub cell_colors: Vec<u32>,
    /// Colour names, in the order of their numbers.
    pub colors: Vec<String>,
    pub mirror: bool,
    pub expect: Expect,
    pub pieces: Vec<Piece>,
    /// The distinct orientations of each piece (24 isometries, or 48 with `mirror`);
    /// for a coloured piece, orientations that differ only in where the colours are
    /// count as distinct.
    pub orientations: Vec<Vec<Shape>>,
    /// The colour of each cell of each orientation (parallel to its cells); empty for a
    /// piece without colours.
    pub orientation_colors: Vec<Vec<Vec<u32>>>,
    /// Every placement, piece by piece: option `o` of the matrix is `placements[o]`.
    pub placements: Vec<Placement>,
}

/// A piece in one orientation at one position: an option of the matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub piece: u32,
    /// Index into the piece's `orientations`.
    pub orientation: u32,
    /// Indices into the target's cell list, in increasing order.
    pub cells: Vec<u32>,
    /// The piece's colour on each of `cells` (empty for a piece without colours).
    pub colors: Vec<u32>,
}

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
    #[serde(default)]
    expect: Expect,
    piece: Vec<Spanned<RawPiece>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    name: Spanned<String>,
    symbol: Option<Spanned<String>>,
    label: Option<String>,
    cells: Option<Spanned<Vec<Spanned<toml::Value>>>>,
    layers: Option<Spanned<Vec<Spanned<String>>>>,
    count: Option<Spanned<toml::Value>>,
    colors: Option<std::collections::BTreeMap<String, Spanned<Vec<Spanned<toml::Value>>>>>,
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
fn triple(source: &str, text: &str, v: &Spanned<toml::Value>, what: &str) -> Result<Cell> {
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

/// The distinct orientations of a piece under `group`, with the colour of each cell of
/// each (empty lists for a piece without colours). A coloured piece's orientations are
/// distinct when their cells or their colours differ.
fn colored_orientations(piece: &Piece, group: &[Isometry]) -> (Vec<Shape>, Vec<Vec<u32>>) {
    if piece.colors.is_empty() {
        let shapes = piece.shape.orientations(group);
        let colors = vec![Vec::new(); shapes.len()];
        return (shapes, colors);
    }
    let color_of = |c: &Cell| {
        piece
            .colors
            .iter()
            .find(|(d, _)| d == c)
            .map_or(0, |&(_, k)| k)
    };
    let mut seen: Vec<(Shape, Vec<u32>)> = Vec::new();
    for &g in group {
        let mut cells: Vec<(Cell, u32)> = piece
            .shape
            .cells()
            .iter()
            .map(|c| (g.apply(*c), color_of(c)))
            .collect();
        let lo = min_corner(&cells.iter().map(|(c, _)| *c).collect::<Vec<_>>()).unwrap();
        for (c, _) in &mut cells {
            for a in 0..3 {
                c[a] -= lo[a];
            }
        }
        cells.sort_unstable();
        let shape = Shape::new(cells.iter().map(|(c, _)| *c).collect());
        let colors = cells.into_iter().map(|(_, k)| k).collect();
        if !seen.iter().any(|(s, k)| *s == shape && *k == colors) {
            seen.push((shape, colors));
        }
    }
    seen.into_iter().unzip()
}

impl Polycube {
    /// Reads a polycube file: `document` is `text` parsed once (see [`super::KINDS`]).
    pub fn parse(
        source: &str,
        text: &str,
        document: super::toml_util::Document<'_>,
    ) -> Result<Polycube> {
        let raw: RawFile = super::toml_util::deserialize(source, text, document)?;
        if raw.name.trim().is_empty() {
            return Err(Error::puzzle(source, "`name` must not be empty"));
        }
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

        let mut pieces: Vec<Piece> = Vec::with_capacity(raw.piece.len());
        let mut lines = Vec::with_capacity(raw.piece.len());
        if raw.piece.is_empty() {
            return Err(Error::puzzle(
                source,
                "no pieces: add at least one [[piece]] table",
            ));
        }
        for sp in &raw.piece {
            let p = sp.get_ref();
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
                    super::drawing::cells(
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
                Some(map) => piece_colors(source, text, map, &raw_cells, &colors, &what)?,
            };
            pieces.push(Piece {
                name,
                symbol,
                label: p.label.clone(),
                shape,
                count,
                min_count,
                colors: piece_colors,
            });
            lines.push(at);
        }

        let required = optional.iter().filter(|&&o| !o).count();
        let exact = required == target.len() && pieces.iter().all(|p| p.min_count == p.count);
        if exact {
            let volume: usize = pieces
                .iter()
                .map(|p| p.shape.len() * p.count as usize)
                .sum();
            if volume != target.len() {
                let detail = pieces
                    .iter()
                    .map(|p| {
                        if p.count > 1 {
                            format!("{}:{}x{}", p.name, p.count, p.shape.len())
                        } else {
                            format!("{}:{}", p.name, p.shape.len())
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                return Err(Error::puzzle(
                    source,
                    format!(
                        "the pieces have {volume} cells but the target has {} ({detail})",
                        target.len()
                    ),
                ));
            }
        } else if !reachable_volume(&pieces, required, target.len()) {
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
                .collect::<Vec<_>>()
                .join(" ");
            return Err(Error::puzzle(
                source,
                format!(
                    "no choice of piece counts fills the target: {required} of its cells must \
                     be filled and {} may stay empty, so the pieces must cover between \
                     {required} and {} cells, and no counts in the given ranges do \
                     (piece:count x cells: {detail})",
                    target.len() - required,
                    target.len()
                ),
            ));
        }
        let group: &[Isometry] = if raw.mirror {
            Isometry::all()
        } else {
            Isometry::rotations()
        };
        let (orientations, orientation_colors): (Vec<Vec<Shape>>, Vec<Vec<Vec<u32>>>) = pieces
            .iter()
            .map(|p| colored_orientations(p, group))
            .unzip();
        let mut puzzle = Polycube {
            name: raw.name,
            source: source.to_string(),
            target,
            optional,
            cell_colors,
            colors,
            mirror: raw.mirror,
            expect: raw.expect,
            pieces,
            orientations,
            orientation_colors,
            placements: Vec::new(),
        };
        for (k, p) in puzzle.pieces.iter().enumerate() {
            let placements = puzzle.placements_of(k);
            if placements.is_empty() {
                return Err(Error::puzzle(
                    lines[k].clone(),
                    format!(
                        "piece {}: it fits nowhere in the target, in any orientation",
                        p.display_name()
                    ),
                ));
            }
            puzzle
                .placements
                .extend(
                    placements
                        .into_iter()
                        .map(|(orientation, cells, colors)| Placement {
                            piece: k as u32,
                            orientation,
                            colors,
                            cells,
                        }),
                );
        }
        Ok(puzzle)
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
            let marked = super::drawing::marked_cells(
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
                    return Err(Error::puzzle(at, "`box` must be three integers [x, y, z]"));
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
                let mut cells = Vec::with_capacity(cells as usize);
                for x in 0..dims[0] as i32 {
                    for y in 0..dims[1] as i32 {
                        for z in 0..dims[2] as i32 {
                            cells.push([x, y, z]);
                        }
                    }
                }
                cells
            }
            (None, Some(t)) => {
                if t.get_ref().len() > MAX_TARGET_CELLS {
                    return Err(Error::puzzle(
                        line(source, text, t.span()),
                        format!("`target` has more than {MAX_TARGET_CELLS} cells"),
                    ));
                }
                let mut cells = Vec::with_capacity(t.get_ref().len());
                for v in t.get_ref() {
                    let c = triple(source, text, v, "target")?;
                    if cells.contains(&c) {
                        return Err(Error::puzzle(
                            location(source, text, Some(v.span())),
                            format!("target: duplicate cell {c:?}"),
                        ));
                    }
                    cells.push(c);
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
            match target.binary_search(&c) {
                Ok(k) if !optional[k] => optional[k] = true,
                Ok(_) => {
                    return Err(Error::puzzle(
                        location(source, text, Some(v.span())),
                        format!("optional: {c:?} is listed twice"),
                    ))
                }
                Err(_) => {
                    return Err(Error::puzzle(
                        location(source, text, Some(v.span())),
                        format!(
                            "optional: {c:?} is not a cell of the target (an optional cell is \
                             a target cell that may stay empty)"
                        ),
                    ))
                }
            }
        }
        if optional.iter().all(|&o| o) {
            return Err(Error::puzzle(
                source,
                "every target cell is optional: at least one cell must be filled",
            ));
        }
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
            if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(Error::puzzle(
                    line(source, text, cells.span()),
                    format!("{what}: a colour name is one word"),
                ));
            }
            names.push(name.clone());
            for v in cells.get_ref() {
                let c = triple(source, text, v, &what)?;
                let at = || location(source, text, Some(v.span()));
                let Ok(t) = target.binary_search(&c) else {
                    return Err(Error::puzzle(
                        at(),
                        format!("{what}: {c:?} is not a cell of the target"),
                    ));
                };
                if cell_colors[t] != 0 {
                    return Err(Error::puzzle(
                        at(),
                        format!(
                            "{what}: {c:?} already has colour {}",
                            names[cell_colors[t] as usize - 1]
                        ),
                    ));
                }
                cell_colors[t] = k as u32 + 1;
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
        if target.is_empty() {
            return Err(Error::puzzle(source, "the target has no cells"));
        }
        target.sort_unstable();
        Ok(())
    }

    /// Index of each target cell.
    fn cell_index(&self) -> HashMap<Cell, u32> {
        self.target
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u32))
            .collect()
    }

    /// The placements of piece `k`: (orientation, sorted target cell indices, the
    /// piece's colour on each of them or nothing for a piece without colours). A coloured
    /// piece cell only goes on a target cell of its colour.
    pub fn placements_of(&self, k: usize) -> Vec<(u32, Vec<u32>, Vec<u32>)> {
        let index = self.cell_index();
        let mut out = Vec::new();
        for (o, shape) in self.orientations[k].iter().enumerate() {
            let colors = &self.orientation_colors[k][o];
            // A placement puts the shape's first cell on some target cell: trying those
            // costs the number of cells, not the bounding box's volume (a sparse target
            // far apart has a huge box). Sorted, the translations come in the order a
            // scan of the box would give, so option numbers do not depend on this.
            let anchor = shape.cells()[0];
            let mut shifts: Vec<[i32; 3]> = self
                .target
                .iter()
                .map(|t| [t[0] - anchor[0], t[1] - anchor[1], t[2] - anchor[2]])
                .collect();
            shifts.sort_unstable();
            for d in shifts {
                let cells: Option<Vec<u32>> = shape
                    .cells()
                    .iter()
                    .map(|c| index.get(&[c[0] + d[0], c[1] + d[1], c[2] + d[2]]).copied())
                    .collect();
                let Some(cells) = cells else { continue };
                // Translation keeps the lexicographic order: `cells` is sorted, and
                // parallel to the orientation's cells and colours.
                debug_assert!(cells.windows(2).all(|w| w[0] < w[1]));
                if colors.is_empty() {
                    out.push((o as u32, cells, Vec::new()));
                } else if cells
                    .iter()
                    .zip(colors)
                    .all(|(&t, &c)| c == 0 || self.cell_colors[t as usize] == c)
                {
                    out.push((o as u32, cells, colors.clone()));
                }
            }
        }
        out
    }

    /// For reflections: which piece each piece becomes in a mirror image. `None` when the
    /// piece set is not its own mirror image, with the first piece whose image is missing.
    pub fn mirror_partners(&self) -> std::result::Result<Vec<u32>, usize> {
        if self.mirror {
            return Ok((0..self.pieces.len() as u32).collect());
        }
        let canon: Vec<Shape> = self.pieces.iter().map(|p| p.shape.canonical()).collect();
        let mut partner = vec![u32::MAX; self.pieces.len()];
        let mut used = vec![false; self.pieces.len()];
        for i in 0..self.pieces.len() {
            let image = self.pieces[i].shape.mirrored().canonical();
            if image == canon[i] {
                partner[i] = i as u32;
                used[i] = true;
            }
        }
        for i in 0..self.pieces.len() {
            if partner[i] != u32::MAX {
                continue;
            }
            let image = self.pieces[i].shape.mirrored().canonical();
            let j = (0..self.pieces.len())
                .find(|&j| {
                    !used[j]
                        && canon[j] == image
                        && self.pieces[j].count == self.pieces[i].count
                        && self.pieces[j].min_count == self.pieces[i].min_count
                })
                .ok_or(i)?;
            used[j] = true;
            partner[i] = j as u32;
            partner[j] = i as u32;
        }
        Ok(partner)
    }

    /// The symmetries of the target under `isometries`, with the cell permutation each
    /// induces: those that map the target onto itself, optional cells onto optional
    /// cells and every cell onto a cell of its colour. The identity comes first.
    pub fn target_symmetries(&self, isometries: &[Isometry]) -> Vec<(Isometry, Vec<u32>)> {
        let index = self.cell_index();
        let lo = min_corner(&self.target).unwrap();
        let mut out = Vec::new();
        for &g in isometries {
            let image: Vec<Cell> = self.target.iter().map(|&c| g.apply(c)).collect();
            let ilo = min_corner(&image).unwrap();
            let shift = [lo[0] - ilo[0], lo[1] - ilo[1], lo[2] - ilo[2]];
            let perm: Option<Vec<u32>> = image
                .iter()
                .map(|c| {
                    index
                        .get(&[c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]])
                        .copied()
                })
                .collect();
            let Some(perm) = perm else { continue };
            let keeps = |t: usize| {
                let u = perm[t] as usize;
                self.optional[t] == self.optional[u] && self.cell_colors[t] == self.cell_colors[u]
            };
            if (0..perm.len()).all(keeps) {
                out.push((g, perm));
            }
        }
        out
    }

    /// The placements of a solution with their copy numbers (0 for the first copy of a
    /// piece), copies numbered by their least cell so that the numbering depends only on
    /// the solution; in piece order.
    pub fn copies(&self, solution: &[u32]) -> Vec<(&Placement, u32)> {
        let mut placed: Vec<&Placement> = solution
            .iter()
            .map(|&o| &self.placements[o as usize])
            .collect();
        placed.sort_by_key(|p| (p.piece, p.cells[0]));
        let mut out: Vec<(&Placement, u32)> = Vec::with_capacity(placed.len());
        for p in placed {
            let copy = match out.last() {
                Some((q, n)) if q.piece == p.piece => n + 1,
                _ => 0,
            };
            out.push((p, copy));
        }
        out
    }

    /// What covers each target cell: (piece, copy), as [`Polycube::copies`] numbers them,
    /// or [`EMPTY`] for an optional cell left empty.
    pub fn fill(&self, solution: &[u32]) -> Vec<(u32, u32)> {
        let mut fill = vec![EMPTY; self.target.len()];
        for (p, copy) in self.copies(solution) {
            for &c in &p.cells {
                fill[c as usize] = (p.piece, copy);
            }
        }
        fill
    }
}
