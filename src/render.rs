//! Solutions as people and programs read them.
//!
//! Text: the target's z-layers side by side, bottom layer (least z) first. In each layer
//! rows are y (least first, top of the page) and columns are x; a cell shows the name of
//! the piece covering it, and `.` marks a cell of the bounding box outside the target.
//!
//! JSON lines: one object per solution, `{"index": n, "placements": [{"piece", "label",
//! "orientation", "cells"}...], "layers": [[row, ...], ...]}`.

use serde_json::json;

use crate::geometry::{max_corner, min_corner};
use crate::matrix::{Matrix, Meaning};
use crate::puzzle::{Polycube, Puzzle};

/// The layers of a solution, one `Vec` of rows per z.
pub fn layers(p: &Polycube, matrix: &Matrix, solution: &[u32]) -> Vec<Vec<String>> {
    let fill = p.fill(matrix, solution);
    let lo = min_corner(&p.target).unwrap();
    let hi = max_corner(&p.target).unwrap();
    let at: std::collections::HashMap<_, _> = p
        .target
        .iter()
        .zip(fill.iter())
        .map(|(c, &f)| (*c, f))
        .collect();
    (lo[2]..=hi[2])
        .map(|z| {
            (lo[1]..=hi[1])
                .map(|y| {
                    (lo[0]..=hi[0])
                        .map(|x| at.get(&[x, y, z]).copied().unwrap_or('.'))
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The text rendering: a header of layer names, then the layers side by side.
pub fn text(puzzle: &Puzzle, matrix: &Matrix, solution: &[u32]) -> String {
    match puzzle {
        Puzzle::Polycube(p) => {
            let layers = layers(p, matrix, solution);
            let lo = min_corner(&p.target).unwrap();
            let width = layers[0][0].chars().count();
            let names: Vec<String> = (0..layers.len())
                .map(|k| format!("z={}", lo[2] + k as i32))
                .collect();
            let col = names.iter().map(|n| n.len()).max().unwrap_or(0).max(width);
            let mut out = String::new();
            let row = |cells: Vec<&str>| {
                let mut line = cells
                    .iter()
                    .map(|c| format!("{c:<col$}"))
                    .collect::<Vec<_>>()
                    .join("  ");
                line.truncate(line.trim_end().len());
                line + "\n"
            };
            if layers.len() > 1 {
                out += &row(names.iter().map(|s| s.as_str()).collect());
            }
            for y in 0..layers[0].len() {
                out += &row(layers.iter().map(|l| l[y].as_str()).collect());
            }
            out
        }
    }
}

/// One JSON object for a solution.
pub fn json(puzzle: &Puzzle, matrix: &Matrix, solution: &[u32], index: u64) -> serde_json::Value {
    match puzzle {
        Puzzle::Polycube(p) => {
            let placements: Vec<_> = solution
                .iter()
                .map(|&o| {
                    let Meaning::Placement {
                        piece,
                        orientation,
                        cells,
                    } = matrix.meaning(o);
                    let piece = &p.pieces[*piece as usize];
                    json!({
                        "piece": piece.name.to_string(),
                        "label": piece.label,
                        "orientation": orientation,
                        "cells": cells.iter().map(|&c| p.target[c as usize]).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({ "index": index, "placements": placements, "layers": layers(p, matrix, solution) })
        }
    }
}
