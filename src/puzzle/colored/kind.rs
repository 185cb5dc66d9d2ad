//! The coloured-cube kind as the rest of polycover sees it (its [`Kind`] impl): solutions
//! and puzzles as people and programs read them.
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

use std::collections::HashMap;

use super::{rotations, stack_rotations, turn, ColoredCubes, FACES};
use crate::error::{Error, Result};
use crate::matrix::{Item, Matrix};
use crate::puzzle::{About, Kind, SymmetryMode, VariableMap};
use crate::symmetry::{Group, Symmetry};

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

impl Kind for ColoredCubes {
    fn about(&self) -> About<'_> {
        About {
            name: &self.name,
            source: &self.source,
            expect: &self.expect,
        }
    }

    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        &[SymmetryMode::Stack, SymmetryMode::None]
    }

    fn matrix(&self) -> Matrix {
        let h = self.height();
        let mut items: Vec<Item> = (0..4)
            .flat_map(|f| {
                self.letters
                    .iter()
                    .map(move |c| Item::exact(format!("{}={c}", FACES[f]), 1))
            })
            .collect();
        items.extend((0..h).map(|j| Item::exact(format!("cube{}", j + 1), 1)));
        let mut m = Matrix::new(items);
        for t in &self.turns {
            let mut row: Vec<u32> = (0..4)
                .map(|f| (f * h + t.faces[f] as usize) as u32)
                .collect();
            row.push(4 * h as u32 + t.cube);
            m.push_option(&row);
        }
        m
    }

    fn group(&self, matrix: &Matrix, mode: SymmetryMode) -> Result<Group> {
        match mode {
            SymmetryMode::None => return Ok(Group::trivial(matrix)),
            SymmetryMode::Stack => {}
            other => {
                return Err(Error::Usage(format!(
                    "{}: coloured cubes count with {} (the default) or none, not {}",
                    self.source,
                    crate::setting::Setting::Symmetry.is("stack"),
                    other.as_str()
                )))
            }
        }
        let h = self.height();
        let lookup: HashMap<(u32, [u8; 6]), u32> = self
            .turns
            .iter()
            .enumerate()
            .map(|(o, t)| ((t.cube, t.faces), o as u32))
            .collect();
        let mut elements = Vec::new();
        for s in stack_rotations() {
            // The colour at side p[i] moves to side i.
            let mut items: Vec<u32> = (0..matrix.num_items() as u32).collect();
            for (i, &from) in s.iter().take(4).enumerate() {
                for c in 0..h {
                    items[from as usize * h + c] = (i * h + c) as u32;
                }
            }
            let options = self
                .turns
                .iter()
                .map(|t| lookup[&(t.cube, turn(&t.faces, &s))])
                .collect();
            elements.push(Symmetry {
                items,
                options,
                name: format!("stack turn {s:?}"),
            });
        }
        Ok(Group::new(elements))
    }

    fn variable_map(&self) -> VariableMap {
        VariableMap {
            option: "(cube, turn) pair",
            columns: "CUBE ROTATION FACES (colours left front right back top bottom)",
        }
    }

    fn describe_option(&self, o: u32) -> String {
        let t = &self.turns[o as usize];
        let faces: String = t.faces.iter().map(|&c| self.letter(c)).collect();
        format!("cube{} r{} {}", t.cube + 1, t.rotation, faces)
    }

    fn text(&self, solution: &[u32]) -> String {
        let mut out =
            String::from("cube  left front right back  top bottom  given   top was  front was\n");
        for t in turned_cubes(self, solution) {
            let f: Vec<char> = t.turned.chars().collect();
            out += &format!(
                "{:<4}  {:<4} {:<5} {:<5} {:<4}  {:<3} {:<6}  {}  {:<7}  {}\n",
                t.cube, f[0], f[1], f[2], f[3], f[4], f[5], t.given, t.top_was, t.front_was
            );
        }
        out
    }

    fn json(&self, solution: &[u32], index: u64) -> serde_json::Value {
        let cubes = turned_cubes(self, solution);
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

    /// `fA`: side (l, f, r, b) shows colour A; `c3`: cube 3.
    fn item_names(&self, matrix: &Matrix) -> Vec<String> {
        let h = self.height();
        (0..matrix.num_items())
            .map(|i| {
                if i < 4 * h {
                    format!("{}{}", ["l", "f", "r", "b"][i / h], self.letters[i % h])
                } else {
                    format!("c{}", i - 4 * h + 1)
                }
            })
            .collect()
    }

    fn item_legend(&self) -> String {
        "lA: the left side shows colour A (l, f, r, b: left, front, right, back); c3: cube 3".into()
    }

    fn svg(&self, solution: &[u32]) -> Result<String> {
        let column: Vec<[u8; 6]> = self.column(solution).into_iter().map(|(_, f)| f).collect();
        Ok(crate::picture::colored::picture(
            &self.name,
            &self.letters,
            &column,
        ))
    }

    fn info(&self, out: &mut dyn Write) -> Result<()> {
        let matrix = self.matrix();
        writeln!(out, "name        {}", self.name)?;
        writeln!(out, "file        {}", self.source)?;
        writeln!(
            out,
            "kind        colored-cubes: {}, colours {}",
            crate::count::Count::plural(self.height(), "cube", "cubes"),
            self.letters.iter().collect::<String>()
        )?;
        writeln!(
            out,
            "options     {} (cube, turn) pairs",
            matrix.num_options()
        )?;
        for mode in [SymmetryMode::Stack, SymmetryMode::None] {
            let g = self.group(&matrix, mode)?;
            writeln!(
                out,
                "group       {} ({} elements)",
                mode.as_str(),
                g.order()
            )?;
        }
        for (mode, n) in [("none", &self.expect.none), ("stack", &self.expect.stack)] {
            if let Some(n) = n {
                writeln!(out, "expect      {mode} {n}")?;
            }
        }
        writeln!(out)?;
        writeln!(
            out,
            "cube  faces (left front right back top bottom)  distinct turns"
        )?;
        for j in 0..self.height() {
            let faces: String = self.cubes[j].iter().map(|&c| self.letter(c)).collect();
            let turns = self.turns.iter().filter(|t| t.cube == j as u32).count();
            writeln!(out, "{:<4}  {:<44}  {}", j + 1, faces, turns)?;
        }
        Ok(())
    }

    fn pieces(&self) -> u64 {
        self.height() as u64
    }

    fn cells(&self) -> Option<u64> {
        None
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
