//! Optional cells, piece count ranges and colours (issue 14): random small puzzles that
//! use all three count the same with the DLX, the bits engine (which hands them to the
//! DLX and says so), SAT in two at-most-one encodings on both backends, and a brute
//! force written here from the puzzle format's rules alone: its own 24 rotations, its
//! own placements, its own subset search and its own symmetry classes.

use std::collections::{BTreeMap, HashSet};

use polycover::sat::Amo;
use polycover::{Engine, Puzzle, SymmetryMode};

use crate::common::*;

type Cell = [i32; 3];

/// A small deterministic generator (xorshift64*), so that a failure names its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random puzzle in the terms, and its TOML.
#[derive(Debug)]
struct Spec {
    target: Vec<Cell>,
    optional: Vec<Cell>,
    /// Target cell colours (1 or 2).
    cell_colors: BTreeMap<Cell, u32>,
    pieces: Vec<PieceSpec>,
}

#[derive(Debug)]
struct PieceSpec {
    cells: Vec<Cell>,
    colors: BTreeMap<Cell, u32>,
    min: u32,
    max: u32,
}

const COLORS: [&str; 2] = ["red", "blue"];

fn triples(cells: impl IntoIterator<Item = Cell>) -> String {
    let list: Vec<String> = cells
        .into_iter()
        .map(|c| format!("[{},{},{}]", c[0], c[1], c[2]))
        .collect();
    format!("[{}]", list.join(", "))
}

/// `red = [cells]` and `blue = [cells]` lines for the colours (1 and 2) in `colors`.
fn color_lines(colors: &BTreeMap<Cell, u32>) -> String {
    let mut out = String::new();
    for (i, name) in COLORS.iter().enumerate() {
        let these: Vec<Cell> = colors
            .iter()
            .filter(|(_, &c)| c == i as u32 + 1)
            .map(|(&cell, _)| cell)
            .collect();
        if !these.is_empty() {
            out += &format!("{name} = {}\n", triples(these));
        }
    }
    out
}

impl Spec {
    fn random(rng: &mut Rng) -> Spec {
        let dims = [
            2 + rng.below(2) as i32,
            1 + rng.below(3) as i32,
            1 + rng.below(2) as i32,
        ];
        let mut target = Vec::new();
        for x in 0..dims[0] {
            for y in 0..dims[1] {
                for z in 0..dims[2] {
                    if target.len() < 10 && !rng.chance(15) {
                        target.push([x, y, z]);
                    }
                }
            }
        }
        let optional = target.iter().copied().filter(|_| rng.chance(25)).collect();
        let mut cell_colors = BTreeMap::new();
        for &c in &target {
            if rng.chance(25) {
                cell_colors.insert(c, 1 + rng.below(2) as u32);
            }
        }
        let used: HashSet<u32> = cell_colors.values().copied().collect();
        let mut pieces = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let size = 1 + rng.below(3) as usize;
            let mut cells = vec![[0, 0, 0]];
            while cells.len() < size {
                let from = cells[rng.below(cells.len() as u64) as usize];
                let mut c = from;
                c[rng.below(3) as usize] += if rng.chance(50) { 1 } else { -1 };
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            let mut colors = BTreeMap::new();
            for &c in &cells {
                if !used.is_empty() && rng.chance(30) {
                    let mut k = 1 + rng.below(2) as u32;
                    if !used.contains(&k) {
                        k = 3 - k;
                    }
                    colors.insert(c, k);
                }
            }
            let min = rng.below(3) as u32;
            let max = (min + rng.below(3) as u32).max(1);
            pieces.push(PieceSpec {
                cells,
                colors,
                min,
                max,
            });
        }
        Spec {
            target,
            optional,
            cell_colors,
            pieces,
        }
    }

    fn toml(&self) -> String {
        let mut t = format!(
            "name = \"random\"\ntarget = {}\noptional = {}\n",
            triples(self.target.iter().copied()),
            triples(self.optional.iter().copied())
        );
        let mut pieces = String::new();
        for (k, p) in self.pieces.iter().enumerate() {
            let count = if p.min == p.max {
                format!("{}", p.min)
            } else {
                format!("[{}, {}]", p.min, p.max)
            };
            pieces += &format!(
                "\n[[piece]]\nname = \"P{k}\"\ncells = {}\ncount = {count}\n",
                triples(p.cells.iter().copied())
            );
            if !p.colors.is_empty() {
                pieces += "[piece.colors]\n";
                pieces += &color_lines(&p.colors);
            }
        }
        if !self.cell_colors.is_empty() {
            t += "\n[colors]\n";
            t += &color_lines(&self.cell_colors);
        }
        t + &pieces
    }
}

/// The 24 rotations: signed permutation matrices of determinant +1, built here.
fn rotations() -> Vec<[[i32; 3]; 3]> {
    let mut out = Vec::new();
    for perm in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        for signs in 0..8 {
            let mut m = [[0; 3]; 3];
            for row in 0..3 {
                m[row][perm[row]] = if signs >> row & 1 == 1 { -1 } else { 1 };
            }
            let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
            if det == 1 {
                out.push(m);
            }
        }
    }
    assert_eq!(out.len(), 24);
    out
}

fn rotate(m: &[[i32; 3]; 3], c: Cell) -> Cell {
    let mut out = [0; 3];
    for (row, o) in out.iter_mut().enumerate() {
        *o = (0..3).map(|k| m[row][k] * c[k]).sum();
    }
    out
}

/// A placement: the piece, and each covered target cell with the piece's colour there.
type Placed = (usize, Vec<(Cell, u32)>);

fn placements(spec: &Spec) -> Vec<Placed> {
    let color_of = |c: &Cell| spec.cell_colors.get(c).copied().unwrap_or(0);
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (k, piece) in spec.pieces.iter().enumerate() {
        for m in rotations() {
            let turned: Vec<(Cell, u32)> = piece
                .cells
                .iter()
                .map(|&c| (rotate(&m, c), piece.colors.get(&c).copied().unwrap_or(0)))
                .collect();
            for &anchor in &spec.target {
                let d = [
                    anchor[0] - turned[0].0[0],
                    anchor[1] - turned[0].0[1],
                    anchor[2] - turned[0].0[2],
                ];
                let mut cells: Vec<(Cell, u32)> = turned
                    .iter()
                    .map(|&(c, k)| ([c[0] + d[0], c[1] + d[1], c[2] + d[2]], k))
                    .collect();
                let fits = cells.iter().all(|(c, colour)| {
                    spec.target.contains(c) && (*colour == 0 || color_of(c) == *colour)
                });
                if !fits {
                    continue;
                }
                cells.sort_unstable();
                if seen.insert((k, cells.clone())) {
                    out.push((k, cells));
                }
            }
        }
    }
    out
}

/// Every solution: sets of placements, no cell twice, every required cell covered,
/// every piece used between its min and max times. Each sorted.
fn brute_force(spec: &Spec) -> Vec<Vec<Placed>> {
    fn go(
        spec: &Spec,
        all: &[Placed],
        from: usize,
        used: &mut HashSet<Cell>,
        counts: &mut Vec<u32>,
        chosen: &mut Vec<Placed>,
        out: &mut Vec<Vec<Placed>>,
    ) {
        if from == all.len() {
            let full = spec
                .target
                .iter()
                .all(|c| used.contains(c) || spec.optional.contains(c));
            let counted = spec
                .pieces
                .iter()
                .zip(counts.iter())
                .all(|(p, &n)| p.min <= n && n <= p.max);
            if full && counted {
                let mut s = chosen.clone();
                s.sort();
                out.push(s);
            }
            return;
        }
        go(spec, all, from + 1, used, counts, chosen, out);
        let (piece, cells) = &all[from];
        if counts[*piece] < spec.pieces[*piece].max && cells.iter().all(|(c, _)| !used.contains(c))
        {
            for (c, _) in cells {
                used.insert(*c);
            }
            counts[*piece] += 1;
            chosen.push(all[from].clone());
            go(spec, all, from + 1, used, counts, chosen, out);
            chosen.pop();
            counts[*piece] -= 1;
            for (c, _) in cells {
                used.remove(c);
            }
        }
    }
    let all = placements(spec);
    let mut out = Vec::new();
    let mut counts = vec![0; spec.pieces.len()];
    go(
        spec,
        &all,
        0,
        &mut HashSet::new(),
        &mut counts,
        &mut Vec::new(),
        &mut out,
    );
    out
}

/// The rotations that map the target onto itself (after moving it back to its least
/// corner), optional cells onto optional cells and colours onto the same colours.
fn target_symmetries(spec: &Spec) -> Vec<Box<dyn Fn(Cell) -> Cell>> {
    let least = |cells: &[Cell]| -> Cell {
        let mut lo = cells[0];
        for c in cells {
            for a in 0..3 {
                lo[a] = lo[a].min(c[a]);
            }
        }
        lo
    };
    let lo = least(&spec.target);
    let mut out: Vec<Box<dyn Fn(Cell) -> Cell>> = Vec::new();
    for m in rotations() {
        let image: Vec<Cell> = spec.target.iter().map(|&c| rotate(&m, c)).collect();
        let ilo = least(&image);
        let map = move |c: Cell| {
            let r = rotate(&m, c);
            [
                r[0] - ilo[0] + lo[0],
                r[1] - ilo[1] + lo[1],
                r[2] - ilo[2] + lo[2],
            ]
        };
        let keeps = spec.target.iter().all(|&c| {
            let d = map(c);
            spec.target.contains(&d)
                && spec.optional.contains(&c) == spec.optional.contains(&d)
                && spec.cell_colors.get(&c) == spec.cell_colors.get(&d)
        });
        if keeps {
            out.push(Box::new(map));
        }
    }
    out
}

/// Solutions up to the target's symmetries: the distinct least images.
fn classes(spec: &Spec, solutions: &[Vec<Placed>]) -> usize {
    let group = target_symmetries(spec);
    let mut seen = HashSet::new();
    for s in solutions {
        let least = group
            .iter()
            .map(|g| {
                let mut image: Vec<Placed> = s
                    .iter()
                    .map(|(p, cells)| {
                        let mut cells: Vec<(Cell, u32)> =
                            cells.iter().map(|&(c, k)| (g(c), k)).collect();
                        cells.sort_unstable();
                        (*p, cells)
                    })
                    .collect();
                image.sort();
                image
            })
            .min()
            .unwrap();
        seen.insert(least);
    }
    seen.len()
}

/// The engines compared: the DLX, the bits engine, the memo, and SAT with two encodings on each
/// backend (CaDiCaL with MRV decisions, varisat).
fn engines() -> Vec<(String, Engine)> {
    let mut out = vec![
        ("dlx".to_string(), Engine::dlx()),
        ("bits".into(), Engine::bits()),
        // Counts with a table, and up to symmetry by Burnside's lemma.
        ("memo".into(), Engine::from_name("memo").unwrap()),
    ];
    for backend in ["cadical", "varisat"] {
        if cfg!(not(feature = "cadical")) && backend == "cadical" {
            continue;
        }
        for amo in [Amo::Pairwise, Amo::Product] {
            out.push((
                format!("sat {backend} {}", amo.name()),
                sat_engine(&[(Setting::Backend, backend), (Setting::Amo, amo.name())]),
            ));
        }
    }
    out
}

#[test]
fn random_puzzles_with_optional_cells_ranges_and_colours_agree_with_a_brute_force() {
    let wanted = if cfg!(debug_assertions) { 60 } else { 400 };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut tested, mut with_all_three, mut solutions, mut solved) = (0, 0, 0, 0);
    for attempt in 0..20 * wanted {
        if tested == wanted {
            break;
        }
        let spec = Spec::random(&mut rng);
        let text = spec.toml();
        let Ok(puzzle) = Puzzle::parse("random.toml", &text) else {
            continue; // an impossible volume, a piece that fits nowhere: refused, fine
        };
        tested += 1;
        let colored = spec.pieces.iter().any(|p| !p.colors.is_empty());
        let ranged = spec.pieces.iter().any(|p| p.min != p.max);
        if colored && ranged && !spec.optional.is_empty() {
            with_all_three += 1;
        }
        let all = brute_force(&spec);
        solutions += all.len();
        solved += usize::from(!all.is_empty());
        for (mode, want) in [
            (SymmetryMode::None, all.len()),
            (SymmetryMode::Rotations, classes(&spec, &all)),
        ] {
            let c = puzzle.compile(mode).unwrap();
            for (name, engine) in engines() {
                let got = count(&c, engine, 1);
                assert_eq!(
                    got, want as u64,
                    "attempt {attempt}, {name}, {mode:?}:\n{text}"
                );
            }
        }
    }
    eprintln!(
        "{tested} puzzles, {with_all_three} with all three features, {solved} solvable, \
         {solutions} solutions"
    );
    assert_eq!(tested, wanted, "too few random puzzles were valid");
    assert!(
        with_all_three >= wanted / 10,
        "only {with_all_three} puzzles used optional cells, ranges and colours together"
    );
    assert!(
        solved >= wanted / 5,
        "only {solved} random puzzles had a solution"
    );
}

/// The bits engine does not take these puzzles itself, and says so on the `c solver`
/// line rather than quietly.
#[test]
fn the_bits_engine_names_the_dlx_standing_in() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("optional.toml");
    std::fs::write(
        &path,
        "name = \"o\"\nbox = [3, 1, 1]\noptional = [[2,0,0]]\n\
         [[piece]]\nname = \"d\"\ncells = [[0,0,0],[1,0,0]]\n",
    )
    .unwrap();
    let out = polycover(&["count", path.to_str().unwrap(), "--solver", "bits"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("c solver bits: the dlx instead (the bitset engine does not handle optional cells or count ranges)"),
        "{text}"
    );
    // The domino must cover the two required cells.
    assert!(text.contains("s mc 1"), "{text}");
}
