//! What a drawing of a polycube solution shows (a [`Scene`]: each placed copy of a piece
//! as a [`Body`] with its cells in target coordinates, name, label and the symbol the
//! text output gives that copy, [`copy_symbols`]), shared by the SVG pictures and the 3-D HTML view so
//! that both draw the same bodies.

use std::collections::HashMap;

use super::Polycube;
use crate::picture::polycube::{Body, Scene};

/// What the drawings of `solution` show ([`Scene`]), handed to `draw`.
pub(super) fn with_scene<T>(p: &Polycube, solution: &[u32], draw: impl FnOnce(&Scene) -> T) -> T {
    let symbol_of = copy_symbols(p).map(|(s, _)| s);
    let bodies: Vec<Body> = p
        .copies(solution)
        .into_iter()
        .map(|(placement, copy)| {
            let piece = &p.pieces[placement.piece as usize];
            let key = (placement.piece, copy);
            Body {
                name: piece.name.to_string(),
                label: piece.label.clone(),
                symbol: symbol_of.as_ref().map_or(piece.symbol, |s| s[&key]),
                copy: copy + 1,
                copies: piece.count,
                cells: placement
                    .cells
                    .iter()
                    .map(|&c| p.target[c as usize])
                    .collect(),
                colors: placement.colors.clone(),
            }
        })
        .collect();
    let scene = Scene {
        title: &p.name,
        target: &p.target,
        cell_colors: &p.cell_colors,
        colors: &p.colors,
        bodies: &bodies,
    };
    draw(&scene)
}

/// The symbol of each (piece, copy).
type CopySymbols = HashMap<(u32, u32), char>;

/// One symbol per copy of a piece, so that copies can be told apart: the first copy
/// keeps the piece's name, the second takes its lowercase form when no piece uses that,
/// and the others take lowercase letters, then digits, that no piece uses. Capitals
/// come last: pieces are usually named by capitals, and a copy drawn as an unused
/// capital reads as another piece. With the legend (`D: Dde` per piece with copies);
/// `None` when the spare symbols run out.
pub(super) fn copy_symbols(p: &Polycube) -> Option<(CopySymbols, Option<String>)> {
    let names: Vec<char> = p.pieces.iter().map(|q| q.symbol).collect();
    let mut taken: Vec<char> = names.clone();
    let mut symbol_of: HashMap<(u32, u32), char> = HashMap::new();
    let mut legend = Vec::new();
    for (k, piece) in p.pieces.iter().enumerate() {
        let mut these = vec![piece.symbol];
        symbol_of.insert((k as u32, 0), piece.symbol);
        for copy in 1..piece.count {
            let own = piece.symbol.to_lowercase().next().filter(|_| copy == 1);
            let c = own
                .into_iter()
                .chain('a'..='z')
                .chain('0'..='9')
                .chain('A'..='Z')
                .find(|c| !taken.contains(c))?;
            taken.push(c);
            symbol_of.insert((k as u32, copy), c);
            these.push(c);
        }
        if piece.count > 1 {
            legend.push(format!(
                "{}: {}",
                piece.symbol,
                these.iter().collect::<String>()
            ));
        }
    }
    let legend = (!legend.is_empty()).then(|| format!("copies  {}", legend.join("; ")));
    Some((symbol_of, legend))
}
