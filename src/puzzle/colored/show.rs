//! Coloured-cube solutions and puzzles as people and programs read them.
//!
//! Text: one line per cube, bottom of the page = bottom of the column, with its colours
//! on the four sides (so each side of the column reads down a column of text), top and
//! bottom, and its turn: which of the cube's original faces is now on top and which at
//! the front. JSON: `{"index", "sides": {"left": "..", ..}, "cubes": [{"cube", "given",
//! "turned", "top_was", "front_was"}...]}`.
//!
//! The DIMACS variable map names a turn as `cubeN rROTATION FACES`.

use std::io::Write;

use serde_json::json;

use super::{rotations, ColoredCubes, FACES};
use crate::error::Result;
use crate::puzzle::{Summary, SymmetryMode};

/// One cube of a solved column.
struct Turned {
    /// From 1, bottom first.
    cube: usize,
    given: String,
    turned: String,
    top_was: &'static str,
    front_was: &'static str,
}

fn turned_cubes(p: &ColoredCubes, solution: &[u32]) -> Vec<Turned> {
    let rotations = rotations();
    let word = |faces: &[u8; 6]| faces.iter().map(|&c| p.letter(c)).collect::<String>();
    p.column(solution)
        .iter()
        .enumerate()
        .map(|(j, (rotation, faces))| {
            let t = rotations[*rotation as usize];
            Turned {
                cube: j + 1,
                given: word(&p.cubes[j]),
                turned: word(faces),
                top_was: FACES[t[4] as usize],
                front_was: FACES[t[1] as usize],
            }
        })
        .collect()
}

pub(super) fn text(p: &ColoredCubes, solution: &[u32]) -> String {
    let mut out =
        String::from("cube  left front right back  top bottom  given   top was  front was\n");
    for t in turned_cubes(p, solution) {
        let f: Vec<char> = t.turned.chars().collect();
        out += &format!(
            "{:<4}  {:<4} {:<5} {:<5} {:<4}  {:<3} {:<6}  {}  {:<7}  {}\n",
            t.cube, f[0], f[1], f[2], f[3], f[4], f[5], t.given, t.top_was, t.front_was
        );
    }
    out
}

pub(super) fn json(p: &ColoredCubes, solution: &[u32], index: u64) -> serde_json::Value {
    let cubes = turned_cubes(p, solution);
    let side = |f: usize| -> String {
        cubes
            .iter()
            .map(|c| c.turned.chars().nth(f).unwrap())
            .collect()
    };
    json!({
        "index": index,
        "sides": {"left": side(0), "front": side(1), "right": side(2), "back": side(3)},
        "cubes": cubes.iter().map(|t| json!({
            "cube": t.cube, "given": t.given, "turned": t.turned,
            "top_was": t.top_was, "front_was": t.front_was,
        })).collect::<Vec<_>>(),
    })
}

pub(super) fn describe_option(p: &ColoredCubes, o: u32) -> String {
    let t = &p.turns[o as usize];
    let faces: String = t.faces.iter().map(|&c| p.letter(c)).collect();
    format!("cube{} r{} {}", t.cube + 1, t.rotation, faces)
}

pub(super) fn info(p: &ColoredCubes, out: &mut dyn Write) -> Result<()> {
    let matrix = p.matrix();
    writeln!(out, "name        {}", p.name)?;
    writeln!(out, "file        {}", p.source)?;
    writeln!(
        out,
        "kind        colored-cubes: {} cubes, colours {}",
        p.height(),
        p.letters.iter().collect::<String>()
    )?;
    writeln!(
        out,
        "options     {} (cube, turn) pairs",
        matrix.num_options()
    )?;
    for mode in [SymmetryMode::Stack, SymmetryMode::None] {
        let g = p.group(&matrix, mode)?;
        writeln!(
            out,
            "group       {} ({} elements)",
            mode.as_str(),
            g.order()
        )?;
    }
    for (mode, n) in [("none", p.expect.none), ("stack", p.expect.stack)] {
        if let Some(n) = n {
            writeln!(out, "expect      {mode} {n}")?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "cube  faces (left front right back top bottom)  distinct turns"
    )?;
    for j in 0..p.height() {
        let faces: String = p.cubes[j].iter().map(|&c| p.letter(c)).collect();
        let turns = p.turns.iter().filter(|t| t.cube == j as u32).count();
        writeln!(out, "{:<4}  {:<44}  {}", j + 1, faces, turns)?;
    }
    Ok(())
}

pub(super) fn summary(p: &ColoredCubes) -> Summary {
    Summary {
        pieces: p.height() as u64,
        cells: None,
        expected: p.expect.stack.map(|n| format!("{n} (stack)")),
    }
}
