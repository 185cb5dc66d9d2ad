//! The problem of a [`BurrTools`] file written as a polycover puzzle file: what `polycover import`
//! prints. Nothing else reads BurrTools through this text.
//!
//! Invariant: the text says what the problem's [`crate::puzzle::polycube::Spec`] says,
//! so `Puzzle::parse` of it gives the puzzle `Polycube::from_spec` gives (a test holds
//! the two routes together). Layout: a header comment (the file, the problem's number,
//! the file's own comment), `name`, `target` and `optional` as cell lists in BurrTools'
//! voxel order, `[colors]` by BurrTools' colour numbers, `[expect]`, then one
//! `[[piece]]` per piece, `count` only when it is not 1.

use itertools::Itertools;

use super::BurrTools;
use crate::geometry::Cell;

impl BurrTools {
    /// The problem asked for as a puzzle file.
    pub fn toml(&self) -> String {
        let spec = &self.puzzle;
        let mut toml = format!(
            "# Imported from the BurrTools file {}, problem {}.\n",
            self.source,
            self.problem().number
        );
        for line in &self.comment {
            toml += &format!("# {line}\n");
        }
        toml += &format!("name = {}\n", quote(&spec.name));
        toml += &format!("target = [{}]\n", triples(&spec.target));
        if !spec.optional.is_empty() {
            toml += &format!("optional = [{}]\n", triples(&spec.optional));
        }
        if !spec.colors.is_empty() {
            toml += "\n[colors]                     # BurrTools' colour numbers\n";
            toml += &color_lines(&spec.colors);
        }
        if let Some(n) = &spec.expect.rotations {
            toml += &format!(
                "\n[expect]                     # BurrTools' own count of this problem\nrotations = {n}\n"
            );
        }
        for piece in &spec.pieces {
            toml += "\n[[piece]]\n";
            toml += &format!("name = {}\n", quote(&piece.name));
            if let Some(symbol) = piece.symbol {
                toml += &format!("symbol = {}\n", quote(&symbol.to_string()));
            }
            if let Some(label) = &piece.label {
                toml += &format!("label = {}\n", quote(label));
            }
            toml += &format!("cells = [{}]\n", triples(&piece.cells));
            if piece.min_count != piece.count {
                toml += &format!("count = [{}, {}]\n", piece.min_count, piece.count);
            } else if piece.count > 1 {
                toml += &format!("count = {}\n", piece.count);
            }
            if !piece.colors.is_empty() {
                toml += "[piece.colors]\n";
                toml += &color_lines(&piece.colors);
            }
        }
        toml
    }
}

/// One `name = [cells]` line per colour, in the given order: the body of a `[colors]` or
/// `[piece.colors]` table.
fn color_lines(colors: &[(String, Vec<Cell>)]) -> String {
    colors
        .iter()
        .map(|(name, cells)| format!("{name} = [{}]\n", triples(cells)))
        .collect()
}

/// `[x,y,z], ...` for a TOML list of cells.
fn triples(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|c| format!("[{},{},{}]", c[0], c[1], c[2]))
        .join(", ")
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            '\n' => out += "\\n",
            '\t' => out += "\\t",
            c if c.is_control() => out += &format!("\\u{:04x}", c as u32),
            c => out.push(c),
        }
    }
    out + "\""
}
