//! Polycube packing: pieces made of unit cubes, packed into a target set of cells.
//!
//! Invariants of a parsed [`Polycube`]:
//! - the target is a non-empty set of distinct cells, sorted; a cell's index in that list
//!   is its item number in the matrix;
//! - every piece is face-connected, has distinct cells and at least one placement, and
//!   the pieces' cells (times their counts) add up to the number of target cells;
//! - names are unique words (no spaces); symbols, one character each for the text
//!   output, are unique too (by default a name's first character).
//!
//! Cells are given as coordinates (`cells`, `box`/`target`) or drawn as layers
//! (`layers`, see [`super::drawing`]); a file may mix both.
//!
//! The matrix: items are the target cells (multiplicity 1), then one item per piece with
//! multiplicity `count`. Options are placements: a piece in one of its orientations,
//! translated so that all its cells lie in the target.

mod kind;

use std::collections::HashMap;

use serde::Deserialize;
use toml::Spanned;

use super::toml_util::{line, location};
use super::Expect;
use crate::error::{Error, Result};
use crate::geometry::{min_corner, Cell, Isometry, Shape};

/// Coordinates beyond this are a mistake, not a puzzle.
pub const MAX_COORDINATE: i64 = 1024;
/// More target cells than this would make a matrix no engine here can search.
pub const MAX_TARGET_CELLS: usize = 65_536;
/// Copies of one piece.
pub const MAX_COUNT: i64 = 4096;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// A word, unique in the puzzle.
    pub name: String,
    /// One character, unique in the puzzle: labels the piece's cells in text output.
    pub symbol: char,
    pub label: Option<String>,
    pub shape: Shape,
    pub count: u32,
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
    pub mirror: bool,
    pub expect: Expect,
    pub pieces: Vec<Piece>,
    /// The distinct orientations of each piece (24 isometries, or 48 with `mirror`).
    pub orientations: Vec<Vec<Shape>>,
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
    count: Option<Spanned<i64>>,
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

impl Polycube {
    pub fn parse(source: &str, text: &str) -> Result<Polycube> {
        let raw: RawFile =
            toml::from_str(text).map_err(|e| super::toml_util::error(source, text, &e))?;
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
        let target = Self::parse_target(source, text, &raw, &symbols)?;

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
            let shape = Shape::new(cells);
            if !shape.is_face_connected() {
                return Err(Error::puzzle(
                    line(source, text, cells_span),
                    format!("{what}: the cells are not face-connected (every cube must share a face with another)"),
                ));
            }
            let count = match &p.count {
                None => 1,
                Some(c) if (1..=MAX_COUNT).contains(c.get_ref()) => *c.get_ref() as u32,
                Some(c) => {
                    return Err(Error::puzzle(
                        line(source, text, c.span()),
                        format!(
                            "{what}: count must be between 1 and {MAX_COUNT}, found {}",
                            c.get_ref()
                        ),
                    ))
                }
            };
            pieces.push(Piece {
                name,
                symbol,
                label: p.label.clone(),
                shape,
                count,
            });
            lines.push(at);
        }

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

        let group: &[Isometry] = if raw.mirror {
            Isometry::all()
        } else {
            Isometry::rotations()
        };
        let orientations: Vec<Vec<Shape>> =
            pieces.iter().map(|p| p.shape.orientations(group)).collect();
        let mut puzzle = Polycube {
            name: raw.name,
            source: source.to_string(),
            target,
            mirror: raw.mirror,
            expect: raw.expect,
            pieces,
            orientations,
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
                        .map(|(orientation, cells)| Placement {
                            piece: k as u32,
                            orientation,
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
    ) -> Result<Vec<Cell>> {
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
            let is_cell = |c: char| c == '#' || c.is_ascii_alphanumeric() || symbols.contains(&c);
            let mut cells = super::drawing::cells(
                source,
                text,
                layers,
                "target",
                &is_cell,
                "`#`, a letter, a digit or a piece's symbol",
            )?;
            return Self::finish_target(source, text, raw, &mut cells).map(|_| cells);
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
        Ok(target)
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

    /// The placements of piece `k`: (orientation, sorted target cell indices).
    pub fn placements_of(&self, k: usize) -> Vec<(u32, Vec<u32>)> {
        let index = self.cell_index();
        let mut out = Vec::new();
        for (o, shape) in self.orientations[k].iter().enumerate() {
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
                if let Some(mut cells) = cells {
                    cells.sort_unstable();
                    out.push((o as u32, cells));
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
                    !used[j] && canon[j] == image && self.pieces[j].count == self.pieces[i].count
                })
                .ok_or(i)?;
            used[j] = true;
            partner[i] = j as u32;
            partner[j] = i as u32;
        }
        Ok(partner)
    }

    /// The symmetries of the target under `isometries`, with the cell permutation each
    /// induces. The identity comes first.
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
            if let Some(perm) = perm {
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

    /// What covers each target cell: (piece, copy), as [`Polycube::copies`] numbers them.
    pub fn fill(&self, solution: &[u32]) -> Vec<(u32, u32)> {
        let mut fill = vec![(u32::MAX, 0); self.target.len()];
        for (p, copy) in self.copies(solution) {
            for &c in &p.cells {
                fill[c as usize] = (p.piece, copy);
            }
        }
        fill
    }
}
