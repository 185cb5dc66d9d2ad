//! Solutions as people and programs read them.
//!
//! Text: the target's z-layers side by side, bottom layer (least z) first. In each layer
//! rows are y (least first, top of the page) and columns are x; a cell shows the name of
//! the piece covering it, and `.` marks a cell of the bounding box outside the target.
//!
//! JSON lines: one object per solution, `{"index": n, "placements": [{"piece", "label",
//! "orientation", "cells"}...], "layers": [[row, ...], ...]}`.
//!
//! Coloured cubes: one line per cube, bottom of the page = bottom of the column, with its
//! colours on the four sides (so each side of the column reads down a column of text),
//! top and bottom, and its turn: which of the cube's original faces is now on top and
//! which at the front. JSON: `{"index", "sides": {"left": "..", ..}, "cubes": [{"cube",
//! "given", "turned", "top_was", "front_was"}...]}`.

use serde_json::json;

use crate::geometry::{max_corner, min_corner};
use crate::matrix::{Matrix, Meaning};
use crate::puzzle::colored::{self, ColoredCubes, FACES};
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
        Puzzle::ColoredCubes(p) => colored_text(p, matrix, solution),
    }
}

/// For each cube of the column: (cube number from 1, given, turned, top was, front was).
fn turned_cubes(
    p: &ColoredCubes,
    matrix: &Matrix,
    solution: &[u32],
) -> Vec<(usize, String, String, &'static str, &'static str)> {
    let rotations = colored::rotations();
    let word = |faces: &[u8; 6]| faces.iter().map(|&c| p.letter(c)).collect::<String>();
    p.column(matrix, solution)
        .iter()
        .enumerate()
        .map(|(j, (rotation, faces))| {
            let t = rotations[*rotation as usize];
            (
                j + 1,
                word(&p.cubes[j]),
                word(faces),
                FACES[t[4] as usize],
                FACES[t[1] as usize],
            )
        })
        .collect()
}

fn colored_text(p: &ColoredCubes, matrix: &Matrix, solution: &[u32]) -> String {
    let mut out =
        String::from("cube  left front right back  top bottom  given   top was  front was\n");
    for (j, given, turned, top, front) in turned_cubes(p, matrix, solution) {
        let f: Vec<char> = turned.chars().collect();
        out += &format!(
            "{j:<4}  {:<4} {:<5} {:<5} {:<4}  {:<3} {:<6}  {given}  {top:<7}  {front}\n",
            f[0], f[1], f[2], f[3], f[4], f[5]
        );
    }
    out
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
                    } = matrix.meaning(o)
                    else {
                        unreachable!("a polycube matrix holds placements only")
                    };
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
        Puzzle::ColoredCubes(p) => {
            let cubes = turned_cubes(p, matrix, solution);
            let side = |f: usize| -> String {
                cubes.iter().map(|c| c.2.chars().nth(f).unwrap()).collect()
            };
            json!({
                "index": index,
                "sides": {"left": side(0), "front": side(1), "right": side(2), "back": side(3)},
                "cubes": cubes.iter().map(|(j, given, turned, top, front)| json!({
                    "cube": j, "given": given, "turned": turned, "top_was": top, "front_was": front,
                })).collect::<Vec<_>>(),
            })
        }
    }
}
