//! Coloured-cube stacking (Instant Insanity, generalised to H cubes and H colours), as an
//! exact cover.
//!
//! A cube is six colours in face order left, front, right, back, top, bottom (Hesselink's
//! numbering 0..6). A *turn* of a cube is one of the 24 rotations, acting on that string.
//!
//! The matrix (so that every engine, the CNF compiler and the symmetry code are reused):
//! - items `f * H + c`: side `f` (0 left, 1 front, 2 right, 3 back) shows colour `c`; then
//!   items `4H + j`: cube `j` is turned. All unit items; sides before cubes, so the
//!   engines' tie rule prefers a cube, as it prefers a piece.
//! - options: (cube, turn) for each *distinct* turned string of the cube; it covers its
//!   cube and its four (side, colour) items. A turn that shows one colour on two sides
//!   (left and right, say) is still an option: those are two different items. Hesselink's
//!   own first cube, AEDDEA, shows a colour twice in every turn.
//!
//! Invariants: the colours of a puzzle are exactly `0..H` (letters in alphabetical order),
//! each appears at least four times; the options of one cube are distinct strings, so
//! no two options cover the same items.
//!
//! Symmetry ("stack"): the 8 rotations that keep the column's axis vertical (turn it about
//! the vertical axis, turn it upside down), applied to every cube at once. They fix every
//! cube item and permute the sides, so [`crate::symmetry::Reduction`] pins a cube.

mod kind;

use std::collections::HashMap;

use serde::Deserialize;
use toml::Spanned;

use super::{toml_util, Expect};
use crate::error::{Error, Result};

/// Face names in Hesselink's order.
pub(crate) const FACES: [&str; 6] = ["left", "front", "right", "back", "top", "bottom"];

/// A rotation as a permutation of face positions: the turned string is
/// `new[i] = old[p[i]]`.
pub(crate) type Turn = [u8; 6];

/// A quarter turn about the vertical axis: each side shows what its left neighbour showed.
const QUARTER: Turn = [1, 2, 3, 0, 4, 5];
/// A third of a turn about a body diagonal: it cycles the three axes.
const THIRD: Turn = [1, 5, 3, 4, 2, 0];
/// A half turn about the left-right axis: front and back swap, top and bottom swap.
const FLIP: Turn = [0, 3, 2, 1, 5, 4];

fn compose(a: &Turn, b: &Turn) -> Turn {
    // Apply `b`, then `a`: new[i] = mid[a[i]] = old[b[a[i]]].
    std::array::from_fn(|i| b[a[i] as usize])
}

/// The closure of `generators`, identity first, in a fixed breadth-first order.
fn closure(generators: &[Turn]) -> Vec<Turn> {
    let mut out = vec![[0, 1, 2, 3, 4, 5]];
    let mut k = 0;
    while k < out.len() {
        for g in generators {
            let t = compose(g, &out[k]);
            if !out.contains(&t) {
                out.push(t);
            }
        }
        k += 1;
    }
    out
}

/// The 24 rotations of a cube.
pub(crate) fn rotations() -> Vec<Turn> {
    closure(&[QUARTER, THIRD])
}

/// The 8 rotations of the whole stack that keep it vertical.
pub(crate) fn stack_rotations() -> Vec<Turn> {
    closure(&[QUARTER, FLIP])
}

/// The colours of `cube` (in face order) after the rotation `t`.
pub(crate) fn turn(cube: &[u8; 6], t: &Turn) -> [u8; 6] {
    std::array::from_fn(|i| cube[t[i] as usize])
}

/// A coloured-cubes puzzle: H cubes to stack into a column whose four sides each show
/// every one of the H colours once. Its options are the turns of each cube.
#[derive(Clone, Debug)]
pub struct ColoredCubes {
    /// The file it came from, for messages.
    pub source: String,
    /// The puzzle's name: the file's `name`, else "coloured cubes".
    pub name: String,
    /// Each cube's colours (indices into `letters`) in face order.
    pub cubes: Vec<[u8; 6]>,
    /// The colour letters, in order.
    pub letters: Vec<char>,
    /// Published counts from the file's `[expect]` table.
    pub expect: Expect,
    /// Every distinct turn of every cube, cube by cube: option `o` of the matrix is
    /// `turns[o]`.
    pub(crate) turns: Vec<CubeTurn>,
}

/// A cube turned by one of the 24 rotations: an option of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeTurn {
    /// Which cube, an index into [`ColoredCubes::cubes`]; also its place in the column.
    pub cube: u32,
    /// Index into [`rotations`].
    pub rotation: u32,
    /// The cube's colours after the turn, in face order.
    pub faces: [u8; 6],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: Option<String>,
    #[allow(dead_code)]
    kind: String,
    cubes: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    expect: Expect,
}

impl ColoredCubes {
    /// Reads a coloured-cubes file: `document` is `text` parsed once (see `puzzle::KINDS`).
    ///
    /// # Errors
    ///
    /// [`Error::Puzzle`], at the line concerned, for unknown keys, an empty `cubes` list,
    /// more than 26 cubes, a cube that is not six capital letters, a number of colours
    /// other than the number of cubes, or a colour seen fewer than four times.
    pub(crate) fn parse(
        source: &str,
        text: &str,
        document: toml_util::Document<'_>,
    ) -> Result<ColoredCubes> {
        let raw: Raw = toml_util::deserialize(source, text, document, &Expect::explain_oversized)?;
        let at = |span: std::ops::Range<usize>| toml_util::line(source, text, span);
        if raw.cubes.get_ref().is_empty() {
            return Err(Error::puzzle(at(raw.cubes.span()), "`cubes` is empty"));
        }
        let h = raw.cubes.get_ref().len();
        if h > 26 {
            return Err(Error::puzzle(
                at(raw.cubes.span()),
                format!("{h} cubes need {h} colours, but colours are the letters A to Z: at most 26 cubes"),
            ));
        }
        let mut letters: Vec<char> = Vec::new();
        for (j, s) in raw.cubes.get_ref().iter().enumerate() {
            let faces: Vec<char> = s.get_ref().chars().collect();
            if faces.len() != 6 {
                return Err(Error::puzzle(
                    at(s.span()),
                    format!(
                        "cube {} (\"{}\") has {}; write six colour letters, in the order left, front, right, back, top, bottom",
                        j + 1,
                        s.get_ref(),
                        crate::count::Count::plural(faces.len(), "face", "faces")
                    ),
                ));
            }
            if let Some(bad) = faces.iter().find(|c| !c.is_ascii_uppercase()) {
                return Err(Error::puzzle(
                    at(s.span()),
                    format!(
                        "cube {} (\"{}\"): colour {bad:?} is not a capital letter A to Z",
                        j + 1,
                        s.get_ref()
                    ),
                ));
            }
            letters.extend(faces);
        }
        let mut count: HashMap<char, usize> = HashMap::new();
        for &c in &letters {
            *count.entry(c).or_default() += 1;
        }
        let mut colours: Vec<char> = count.keys().copied().collect();
        colours.sort_unstable();
        if colours.len() != h {
            return Err(Error::puzzle(
                at(raw.cubes.span()),
                format!(
                    "{h} cubes use {} colours ({}): each side of the column has {h} faces and must show every colour once, so there must be exactly {h}",
                    colours.len(),
                    colours.iter().collect::<String>()
                ),
            ));
        }
        if let Some(c) = colours.iter().find(|c| count[c] < 4) {
            return Err(Error::puzzle(
                at(raw.cubes.span()),
                format!(
                    "colour {c} appears {} time(s), but each of the four sides must show it: the puzzle has no solution",
                    count[c]
                ),
            ));
        }
        let index: HashMap<char, u8> = colours
            .iter()
            .enumerate()
            .map(|(k, &c)| (c, k as u8))
            .collect();
        let cubes = raw
            .cubes
            .get_ref()
            .iter()
            .map(|s| {
                let f: Vec<u8> = s.get_ref().chars().map(|c| index[&c]).collect();
                std::array::from_fn(|i| f[i])
            })
            .collect();
        let mut puzzle = ColoredCubes {
            source: source.to_string(),
            name: raw.name.unwrap_or_else(|| "coloured cubes".into()),
            cubes,
            letters: colours,
            expect: raw.expect.located(source, text),
            turns: Vec::new(),
        };
        for j in 0..puzzle.height() {
            let turns = puzzle.turns_of(j);
            puzzle
                .turns
                .extend(turns.into_iter().map(|(rotation, faces)| CubeTurn {
                    cube: j as u32,
                    rotation,
                    faces,
                }));
        }
        Ok(puzzle)
    }

    /// H: the number of cubes, which is also the number of colours.
    pub fn height(&self) -> usize {
        self.cubes.len()
    }

    /// The distinct turns of cube `j`, as (rotation index, turned colours): a cube with a
    /// symmetric colouring has fewer than 24.
    pub fn turns_of(&self, j: usize) -> Vec<(u32, [u8; 6])> {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for (k, t) in rotations().iter().enumerate() {
            let w = turn(&self.cubes[j], t);
            if !seen.contains(&w) {
                seen.push(w);
                out.push((k as u32, w));
            }
        }
        out
    }

    /// The turned cubes of a solution, in column order.
    pub fn column(&self, solution: &[u32]) -> Vec<(u32, [u8; 6])> {
        let mut column = vec![(0, [0u8; 6]); self.height()];
        for &o in solution {
            let t = &self.turns[o as usize];
            column[t.cube as usize] = (t.rotation, t.faces);
        }
        column
    }

    /// The letter of colour `c` (an index into [`ColoredCubes::letters`]).
    ///
    /// # Panics
    ///
    /// If `c` is not a colour of the puzzle.
    pub fn letter(&self, c: u8) -> char {
        self.letters[c as usize]
    }
}

#[cfg(test)]
/// Calls `visit` with every column in which each cube of `column` is turned by one of
/// `turns` (the first of which is the identity), counting like an odometer. With
/// `fix_last`, the last cube keeps its turn: turning every cube by one stack rotation maps
/// solutions to solutions, so one cube may stay put.
fn each_turned(
    column: &[[u8; 6]],
    turns: &[Turn],
    fix_last: bool,
    visit: &mut dyn FnMut(&[[u8; 6]]),
) {
    let free = column.len() - usize::from(fix_last && !column.is_empty());
    let mut digit = vec![0usize; free];
    let mut turned = column.to_vec();
    loop {
        for j in 0..free {
            turned[j] = turn(&column[j], &turns[digit[j]]);
        }
        visit(&turned);
        let Some(j) = digit.iter().position(|&d| d + 1 < turns.len()) else {
            return;
        };
        digit[..j].fill(0);
        digit[j] += 1;
    }
}

/// A small seeded generator (SplitMix64), so that a seed names the same instance on every
/// machine and every version.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, xs: &mut [T]) {
        for k in (1..xs.len()).rev() {
            xs.swap(k, self.below(k + 1));
        }
    }
}

/// A random instance with `h` cubes and `h` colours, as puzzle-file text. With `solvable`,
/// a solution is planted: each side of a column is a random permutation of the colours,
/// top and bottom are random, and then every cube is given a random turn. Without it the
/// faces are random; instances that the parser would reject (a colour missing or seen
/// fewer than four times) are redrawn.
///
/// # Errors
///
/// [`Error::Usage`] when `h` is not from 1 to 26.
pub(crate) fn generate(h: usize, seed: u64, solvable: bool) -> Result<String> {
    if !(1..=26).contains(&h) {
        return Err(Error::Usage(format!(
            "{} must be between 1 and 26 (one colour letter per cube), not {h}",
            crate::setting::Setting::Cubes.mark()
        )));
    }
    let mut rng = SplitMix(seed);
    let rotations = rotations();
    let cubes: Vec<[u8; 6]> = loop {
        let cubes: Vec<[u8; 6]> = if solvable {
            let mut sides: Vec<Vec<u8>> = (0..4).map(|_| (0..h as u8).collect()).collect();
            for s in &mut sides {
                rng.shuffle(s);
            }
            (0..h)
                .map(|j| {
                    let solved = [
                        sides[0][j],
                        sides[1][j],
                        sides[2][j],
                        sides[3][j],
                        rng.below(h) as u8,
                        rng.below(h) as u8,
                    ];
                    turn(&solved, &rotations[rng.below(24)])
                })
                .collect()
        } else {
            (0..h)
                .map(|_| std::array::from_fn(|_| rng.below(h) as u8))
                .collect()
        };
        let mut count = vec![0; h];
        for c in &cubes {
            for &x in c {
                count[x as usize] += 1;
            }
        }
        if count.iter().all(|&n| n >= 4) {
            break cubes;
        }
    };
    let words: Vec<String> = cubes
        .iter()
        .map(|c| {
            format!(
                "\"{}\"",
                c.iter().map(|&x| (b'A' + x) as char).collect::<String>()
            )
        })
        .collect();
    Ok(format!(
        "# polycover generate colored-cubes --cubes {h} --seed {seed}{}\n\
         name = \"random {h} cubes, seed {seed}{}\"\n\
         kind = \"colored-cubes\"\n\
         # faces: left, front, right, back, top, bottom\n\
         cubes = [{}]\n",
        if solvable { " --solvable" } else { "" },
        if solvable { ", planted solution" } else { "" },
        words.join(", ")
    ))
}

/// The kind's own check, for its tests: the staged count.
#[cfg(test)]
impl ColoredCubes {
    /// The raw count of a stack (every solution, no symmetry removed) by a staged search
    /// of its own, independent of the exact cover: a check of the kind's counts.
    ///
    /// Hesselink's staged search: first choose each cube's vertical axis and keep the
    /// columns whose sides show each colour four times, then each cube's quarter turn (the
    /// last cube fixed) checking the left and right sides, then each cube's half turn (the
    /// last cube fixed) checking the front and back. That finds one solution per orbit of
    /// the 8 stack rotations when those act freely; the raw count is recovered by applying
    /// the 8 stack rotations to each solution found and counting distinct columns.
    pub fn staged_raw_count(cubes: &[[u8; 6]]) -> u64 {
        let h = cubes.len();
        let axes = [[0, 1, 2, 3, 4, 5], THIRD, compose(&THIRD, &THIRD)];
        let quarters = closure(&[QUARTER]);
        let halves = closure(&[FLIP]);
        let side_ok = |col: &[[u8; 6]], f: usize| {
            let mut seen = 0u32;
            col.iter().all(|c| {
                let bit = 1 << c[f];
                let fresh = seen & bit == 0;
                seen |= bit;
                fresh
            })
        };
        // Stage 1 accepts a column whose sides show each colour four times in all.
        let acceptable = |col: &[[u8; 6]]| {
            let mut count = vec![0u32; h];
            for c in col {
                for &x in &c[..4] {
                    count[x as usize] += 1;
                }
            }
            count.iter().all(|&n| n == 4)
        };
        let mut found: std::collections::HashSet<Vec<[u8; 6]>> = Default::default();
        each_turned(cubes, &axes, false, &mut |y| {
            if acceptable(y) {
                each_turned(y, &quarters, true, &mut |z| {
                    if side_ok(z, 0) && side_ok(z, 2) {
                        each_turned(z, &halves, true, &mut |w| {
                            if side_ok(w, 1) && side_ok(w, 3) {
                                found.insert(w.to_vec());
                            }
                        });
                    }
                });
            }
        });
        // Each found solution stands for its orbit under the stack rotations.
        let stack = stack_rotations();
        let mut all: std::collections::HashSet<Vec<[u8; 6]>> = Default::default();
        for s in &found {
            for g in &stack {
                all.insert(s.iter().map(|c| turn(c, g)).collect());
            }
        }
        all.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rotation_groups_have_24_and_8_elements() {
        assert_eq!(rotations().len(), 24);
        assert_eq!(stack_rotations().len(), 8);
        // Every stack rotation keeps top and bottom on the vertical axis.
        assert!(stack_rotations().iter().all(|t| t[4] >= 4 && t[5] >= 4));
    }

    /// The raw count (no symmetry) by the dancing links.
    fn dlx_raw_count(puzzle: &crate::puzzle::Puzzle) -> u64 {
        let problem = puzzle.compile(crate::puzzle::SymmetryMode::None).unwrap();
        let report = problem
            .count(
                &crate::engine::handle::Engine::dlx(),
                &crate::engine::run::RunOptions::default(),
            )
            .unwrap();
        assert!(report.complete);
        report.solutions.to_u64().unwrap()
    }

    fn cubes_of(puzzle: &crate::puzzle::Puzzle) -> &[[u8; 6]] {
        &puzzle.downcast_ref::<ColoredCubes>().unwrap().cubes
    }

    /// Hesselink's staged search, independent of the exact cover, gives the matrix's raw
    /// count: 8 for his five cubes, and the DLX's count for generated stacks of 3 to 8
    /// cubes, planted and random.
    #[test]
    fn the_staged_search_agrees_with_the_exact_cover() {
        let hesselink = crate::puzzle::Puzzle::load("hesselink-5").unwrap();
        assert_eq!(ColoredCubes::staged_raw_count(cubes_of(&hesselink)), 8);
        assert_eq!(dlx_raw_count(&hesselink), 8);
        for h in 3..=8 {
            for (seed, solvable) in [(1, true), (2, true), (3, false), (4, false)] {
                let text = generate(h, seed, solvable).unwrap();
                let puzzle = crate::puzzle::Puzzle::parse("generated", &text).unwrap();
                assert_eq!(
                    ColoredCubes::staged_raw_count(cubes_of(&puzzle)),
                    dlx_raw_count(&puzzle),
                    "H={h} seed {seed}"
                );
            }
        }
    }
}
