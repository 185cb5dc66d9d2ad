//! A polycube puzzle built from typed values, without TOML: what another format (a
//! BurrTools problem) reads into, turned into a [`Polycube`] by the checks a puzzle file
//! gets.
//!
//! A [`Spec`] says what a puzzle file says, in the same terms: the target as a list of
//! cells, optional cells and coloured cells by coordinates, colour names, and pieces with
//! their cells (in their own coordinates), count range and coloured cells. Where the
//! file route reads spans for its messages, a spec carries a location for the puzzle and
//! one for each piece (`FILE problem K, shape N`).
//!
//! Invariant: [`Polycube::from_spec`] gives the same [`Polycube`] (the same fields, so
//! the same option table) as [`Polycube::parse`] on the file that says the same things,
//! and refuses what that file would be refused for. It calls the same checks
//! (`parse.rs`, `piece.rs`) and orders what the file route orders: the target sorted,
//! colours numbered in the order of their names as strings (`c1`, `c10`, `c2`: the file
//! route reads `[colors]` through a sorted map), a piece's coloured cells relative to
//! its least corner.

use super::parse::{
    add_target_cell, check_color_name, check_name, check_some_required, check_target_size,
    check_volume, mark_optional, paint, sort_target,
};
use super::piece::{
    add_cell, add_color, check_count, check_name as check_piece_name, check_symbol, check_unique,
    color_number, connected, coordinate, Checked,
};
use super::{Piece, Polycube};
use crate::error::{Error, Result};
use crate::geometry::Cell;
use crate::puzzle::Expect;

/// A polycube puzzle as typed values (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The puzzle's `name`.
    pub name: String,
    /// Where the puzzle is described, for messages about it as a whole.
    pub at: String,
    /// The target's cells, in any order.
    pub target: Vec<Cell>,
    /// Target cells that may stay empty.
    pub optional: Vec<Cell>,
    /// Colour names with the target cells of each, in any order of the names.
    pub colors: Vec<(String, Vec<Cell>)>,
    /// Whether pieces may also be used as their mirror images (turned over), 48
    /// orientations instead of 24.
    pub mirror: bool,
    /// Published counts, as a file's `[expect]` table gives them.
    pub expect: Expect,
    /// The pieces, in the order they are numbered.
    pub pieces: Vec<PieceSpec>,
}

/// One piece of a [`Spec`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// One word, unique in the puzzle.
    pub name: String,
    /// Its symbol; `None` for the name's first character.
    pub symbol: Option<char>,
    /// A longer human name, shown after the name (`A (Little Corner)`); optional.
    pub label: Option<String>,
    /// Its cells, in its own coordinates.
    pub cells: Vec<Cell>,
    /// The fewest and the most copies a solution uses.
    pub min_count: u64,
    /// The most copies a solution uses (`min_count <= count`).
    pub count: u64,
    /// Colour names (of the target's) with the piece's cells of each, in its coordinates.
    pub colors: Vec<(String, Vec<Cell>)>,
    /// Where the piece is described, for messages about it.
    pub at: String,
}

impl Polycube {
    /// The puzzle `spec` says; `source` names the file it came from.
    ///
    /// # Errors
    ///
    /// [`Error::Puzzle`], at the spec's or the piece's `at`, for what a puzzle file would
    /// be refused for: a bad name, too many target cells, a coordinate out of range, a
    /// cell given twice, no required cell, a bad or repeated colour, no pieces, a piece
    /// that is empty, not face-connected or has a bad count, or cells that cannot be
    /// filled by the pieces' volume.
    pub(crate) fn from_spec(
        source: &str,
        spec: &Spec,
        stop: &crate::stop::Stop,
    ) -> Result<Polycube> {
        let at = &spec.at;
        let located = |m: String| Error::puzzle(at, m);
        check_name(at, &spec.name)?;
        check_target_size(spec.target.len()).map_err(located)?;
        let mut target = Vec::with_capacity(spec.target.len());
        for &c in &spec.target {
            add_target_cell(&mut target, in_range(c, "target").map_err(located)?)
                .map_err(located)?;
        }
        sort_target(at, &mut target)?;

        let mut optional = vec![false; target.len()];
        for &c in &spec.optional {
            let c = in_range(c, "optional").map_err(located)?;
            mark_optional(&mut optional, &target, c).map_err(located)?;
        }
        check_some_required(at, &optional)?;

        // Numbered in name order, as the file route's sorted `[colors]` table is.
        let mut by_name: Vec<&(String, Vec<Cell>)> = spec.colors.iter().collect();
        by_name.sort_by(|a, b| a.0.cmp(&b.0));
        let mut colors: Vec<String> = Vec::with_capacity(by_name.len());
        let mut cell_colors = vec![0u32; target.len()];
        for (name, cells) in by_name {
            let what = format!("colors.{name}");
            check_color_name(name, &what).map_err(located)?;
            if colors.contains(name) {
                return Err(located(format!("{what}: the colour is given twice")));
            }
            colors.push(name.clone());
            let k = colors.len() as u32;
            for &c in cells {
                let c = in_range(c, &what).map_err(located)?;
                paint(&mut cell_colors, &colors, &target, c, k, &what).map_err(located)?;
            }
        }

        if spec.pieces.is_empty() {
            return Err(Error::puzzle(at, "no pieces"));
        }
        let mut pieces: Vec<Piece> = Vec::with_capacity(spec.pieces.len());
        let mut lines: Vec<String> = Vec::with_capacity(spec.pieces.len());
        for p in &spec.pieces {
            let piece = piece(p, &colors, &pieces, &lines).map_err(|m| Error::puzzle(&p.at, m))?;
            pieces.push(piece);
            lines.push(p.at.clone());
        }
        check_volume(at, &pieces, &optional)?;
        Polycube::with_placements(
            Polycube {
                name: spec.name.clone(),
                source: source.to_string(),
                target,
                optional,
                cell_colors,
                colors,
                mirror: spec.mirror,
                plane: None,
                expect: spec.expect.clone(),
                pieces,
                orientations: Vec::new(),
                orientation_colors: Vec::new(),
                placements: Vec::new(),
            },
            &lines,
            stop,
        )
    }
}

/// Piece `p`, checked as a `[[piece]]` table is, against the pieces before it.
fn piece(p: &PieceSpec, colors: &[String], pieces: &[Piece], lines: &[String]) -> Checked<Piece> {
    check_piece_name(&p.name)?;
    let symbol = match p.symbol {
        Some(c) => check_symbol(&p.name, c)?,
        None => p
            .name
            .chars()
            .next()
            .expect("a checked name has a character"),
    };
    let what = format!("piece {}", p.name);
    check_unique(&p.name, symbol, p.symbol.is_some(), pieces, lines)?;
    if p.cells.is_empty() {
        return Err(format!("{what}: `cells` is empty"));
    }
    let mut cells = Vec::with_capacity(p.cells.len());
    for &c in &p.cells {
        add_cell(&mut cells, in_range(c, &what)?, &what)?;
    }
    let shape = connected(cells.clone(), &what)?;
    let saturated = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let found = if p.min_count == p.count {
        p.count.to_string()
    } else {
        format!("[{}, {}]", p.min_count, p.count)
    };
    let (min_count, count) =
        check_count(saturated(p.min_count), saturated(p.count), &what, &found)?;
    let mut piece_colors = Vec::new();
    for (name, these) in &p.colors {
        let k = color_number(name, colors, &what)?;
        for &c in these {
            add_color(
                &mut piece_colors,
                &cells,
                in_range(c, &what)?,
                (name, k),
                &what,
            )?;
        }
    }
    piece_colors.sort_unstable();
    Ok(Piece {
        name: p.name.clone(),
        symbol,
        label: p.label.clone(),
        shape,
        count,
        min_count,
        colors: piece_colors,
    })
}

/// Cell `c`, each coordinate within the range a file's may have.
fn in_range(c: Cell, what: &str) -> Checked<Cell> {
    let mut out = [0; 3];
    for (k, &n) in c.iter().enumerate() {
        out[k] = coordinate(i64::from(n), what)?;
    }
    Ok(out)
}
