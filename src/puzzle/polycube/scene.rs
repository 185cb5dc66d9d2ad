//! What a drawing of a polycube solution shows (a [`Scene`]: each placed copy of a piece
//! as a [`Body`] with its cells in target coordinates, name, label and the symbol the
//! text output gives that copy), shared by the SVG pictures and the 3-D HTML view so
//! that both draw the same bodies.

use super::kind::copy_symbols;
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
