//! BurrTools puzzle files (`.xmpuzzle`): a polycube puzzle written so that BurrTools
//! opens it, and [`crate::puzzle::burrtools`] reads it back to the same puzzle.
//!
//! The file is gzipped XML, as BurrTools writes it: `gridType 0` (cubes), one `<voxel>`
//! shape per piece (its bounding box, x fastest, then y, then z; `#` a cube, `_`
//! empty), then the target as the last shape (its bounding box, `_` where the box is not
//! the target), and one problem that uses every piece `count` times with the target as
//! its result. Names are the piece names; the puzzle's name is the comment's `Name:` line,
//! which BurrTools shows and the importer reads back.
//!
//! Optional cells are `+` voxels of the result, count ranges `min`/`max`, and colours
//! BurrTools' colour numbers (after the voxel character) with one `<bitmap>` pair per
//! colour allowing it onto itself.
//!
//! Invariant: import(export(p)) has p's target and pieces up to translation, so the same
//! counts in every mode. Only polycube puzzles can be written; with `mirror = true` the
//! file cannot say that pieces may be mirrored, so that is refused, as is `plane` (pieces
//! that may not flip), and coloured
//! pieces with uncoloured target cells (BurrTools would let a coloured piece cell sit on
//! them, polycover does not).

use std::io::{self, Write};

use crate::error::{Error, Result};
use crate::geometry::{max_corner, min_corner, Cell};
use crate::puzzle::polycube::Polycube;
use crate::puzzle::Puzzle;
use crate::xml::escape;

/// A `<voxel>` element for `cells`; `mark` gives each cell's text (`#` or `+`, then
/// its colour number if it has one).
fn voxel(cells: &[Cell], name: &str, mark: &dyn Fn(usize) -> String) -> String {
    let lo = min_corner(cells).unwrap();
    let hi = max_corner(cells).unwrap();
    let size: Vec<i32> = (0..3).map(|a| hi[a] - lo[a] + 1).collect();
    let index: std::collections::HashMap<Cell, usize> =
        cells.iter().enumerate().map(|(k, &c)| (c, k)).collect();
    let mut voxels = String::new();
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                let c = [lo[0] + x, lo[1] + y, lo[2] + z];
                match index.get(&c) {
                    Some(&k) => voxels += &mark(k),
                    None => voxels.push('_'),
                }
            }
        }
    }
    format!(
        "    <voxel x=\"{}\" y=\"{}\" z=\"{}\" name=\"{}\" type=\"0\">{voxels}</voxel>\n",
        size[0],
        size[1],
        size[2],
        escape(name)
    )
}

/// The polycube puzzle in `puzzle`, or why it cannot be written.
///
/// # Errors
///
/// [`Error::Usage`] when `puzzle` is not a polycube puzzle, or uses what BurrTools
/// cannot say: `mirror = true`, a `plane`, or coloured pieces with uncoloured target
/// cells.
pub fn check(puzzle: &Puzzle) -> Result<&Polycube> {
    let p = puzzle.downcast_ref::<Polycube>().ok_or_else(|| {
        Error::Usage(format!(
            "{}: only polycube puzzles can be written as BurrTools files",
            puzzle.source()
        ))
    })?;
    if p.mirror {
        return Err(Error::Usage(format!(
            "{}: `mirror = true` (pieces may be mirrored) has no BurrTools equivalent here",
            puzzle.source()
        )));
    }
    if p.plane.is_some() {
        return Err(Error::Usage(format!(
            "{}: `plane` (pieces turn in the plane only) has no BurrTools equivalent: \
             BurrTools turns every piece in space",
            puzzle.source()
        )));
    }
    if p.pieces.iter().any(|q| !q.colors.is_empty()) && p.cell_colors.contains(&0) {
        return Err(Error::Usage(format!(
            "{}: coloured pieces with uncoloured target cells have no BurrTools equivalent \
             (BurrTools lets a coloured piece cell sit on an uncoloured cell)",
            puzzle.source()
        )));
    }
    Ok(p)
}

/// Writes `p` as a gzipped BurrTools file. Call [`check`] first.
///
/// # Errors
///
/// What writing to `w` gives.
pub fn write(w: &mut dyn Write, p: &Polycube) -> io::Result<()> {
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n");
    xml += "  <gridType type=\"0\"/>\n";
    if p.colors.is_empty() {
        xml += "  <colors/>\n";
    } else {
        xml += "  <colors>\n";
        for crate::picture::Rgb(r, g, b) in crate::picture::palette(p.colors.len()) {
            xml += &format!("    <color red=\"{r}\" green=\"{g}\" blue=\"{b}\"/>\n");
        }
        xml += "  </colors>\n";
    }
    xml += "  <shapes>\n";
    let number = |k: u32| if k == 0 { String::new() } else { k.to_string() };
    for piece in &p.pieces {
        let cells = piece.shape.cells();
        let color_of = |k: usize| {
            piece
                .colors
                .iter()
                .find(|(c, _)| *c == cells[k])
                .map_or(0, |&(_, n)| n)
        };
        xml += &voxel(cells, &piece.name, &|k| format!("#{}", number(color_of(k))));
    }
    xml += &voxel(&p.target, "Result", &|k| {
        let v = if p.optional[k] { '+' } else { '#' };
        format!("{v}{}", number(p.cell_colors[k]))
    });
    xml += "  </shapes>\n  <problems>\n";
    xml += &format!(
        "    <problem name=\"{}\" state=\"0\">\n      <shapes>\n",
        escape(&p.name)
    );
    for (k, piece) in p.pieces.iter().enumerate() {
        if piece.min_count == piece.count {
            xml += &format!("        <shape id=\"{k}\" count=\"{}\"/>\n", piece.count);
        } else {
            xml += &format!(
                "        <shape id=\"{k}\" min=\"{}\" max=\"{}\"/>\n",
                piece.min_count, piece.count
            );
        }
    }
    xml += &format!(
        "      </shapes>\n      <result id=\"{}\"/>\n",
        p.pieces.len()
    );
    if p.colors.is_empty() {
        xml += "      <bitmap/>\n";
    } else {
        xml += "      <bitmap>\n";
        for k in 0..p.colors.len() {
            xml += &format!("        <pair piece=\"{k}\" result=\"{k}\"/>\n");
        }
        xml += "      </bitmap>\n";
    }
    xml += "    </problem>\n  </problems>\n";
    xml += &format!(
        "  <comment popup=\"\">Name: {}\nWritten by polycover {} from {}.</comment>\n</puzzle>\n",
        escape(&p.name),
        env!("CARGO_PKG_VERSION"),
        escape(&p.source)
    );
    let mut gz = flate2::write::GzEncoder::new(w, flate2::Compression::default());
    gz.write_all(xml.as_bytes())?;
    gz.finish()?;
    Ok(())
}
