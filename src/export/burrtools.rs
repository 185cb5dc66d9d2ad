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
//! Invariant: import(export(p)) has p's target and pieces up to translation, so the same
//! counts in every mode. Only polycube puzzles can be written; with `mirror = true` the
//! file cannot say that pieces may be mirrored, so that is refused.

use std::io::{self, Write};

use crate::error::{Error, Result};
use crate::geometry::{max_corner, min_corner, Cell};
use crate::puzzle::polycube::Polycube;
use crate::puzzle::Puzzle;

/// XML text, escaped for attributes and content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A `<voxel>` element for `cells`.
fn voxel(cells: &[Cell], name: &str) -> String {
    let lo = min_corner(cells).unwrap();
    let hi = max_corner(cells).unwrap();
    let size: Vec<i32> = (0..3).map(|a| hi[a] - lo[a] + 1).collect();
    let set: std::collections::HashSet<Cell> = cells.iter().copied().collect();
    let mut voxels = String::new();
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                let c = [lo[0] + x, lo[1] + y, lo[2] + z];
                voxels.push(if set.contains(&c) { '#' } else { '_' });
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
    Ok(p)
}

/// Writes `p` as a gzipped BurrTools file.
pub fn write(w: &mut dyn Write, p: &Polycube) -> io::Result<()> {
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n");
    xml += "  <gridType type=\"0\"/>\n  <colors/>\n  <shapes>\n";
    for piece in &p.pieces {
        xml += &voxel(piece.shape.cells(), &piece.name);
    }
    xml += &voxel(&p.target, "Result");
    xml += "  </shapes>\n  <problems>\n";
    xml += &format!(
        "    <problem name=\"{}\" state=\"0\">\n      <shapes>\n",
        escape(&p.name)
    );
    for (k, piece) in p.pieces.iter().enumerate() {
        xml += &format!("        <shape id=\"{k}\" count=\"{}\"/>\n", piece.count);
    }
    xml += &format!(
        "      </shapes>\n      <result id=\"{}\"/>\n      <bitmap/>\n    </problem>\n  </problems>\n",
        p.pieces.len()
    );
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
