//! Flat puzzles with `plane`: pieces turn in the plane and never flip. One-sided puzzles
//! (the catalog's, and five mirror pairs) counted by the engines, against a brute-force
//! tiler written here from scratch (its own 2-D rotations, its own orbits), so that a
//! mistake in the isometries, the orientations or the target's group shows as a
//! disagreement. Plus the key's errors, and a flat file without the key counting as
//! before.

use std::collections::HashSet;

use polycover::SymmetryMode::{self, None as NoSymmetry, Reflections, Rotations};
use polycover::{Engine, Puzzle};

use crate::common::*;

/// A piece as 2-D cells.
type Cells = Vec<(i32, i32)>;

fn normalise(mut cells: Cells) -> Cells {
    let (x0, y0) = (
        cells.iter().map(|c| c.0).min().unwrap(),
        cells.iter().map(|c| c.1).min().unwrap(),
    );
    for c in &mut cells {
        *c = (c.0 - x0, c.1 - y0);
    }
    cells.sort_unstable();
    cells
}

/// The distinct quarter turns of a piece: (x, y) -> (-y, x), up to four times.
fn turns(cells: &Cells) -> Vec<Cells> {
    let mut out: Vec<Cells> = Vec::new();
    let mut c = normalise(cells.clone());
    for _ in 0..4 {
        if !out.contains(&c) {
            out.push(c.clone());
        }
        c = normalise(c.iter().map(|&(x, y)| (-y, x)).collect());
    }
    out
}

/// A catalog puzzle's file.
fn catalog_text(name: &str) -> &'static str {
    polycover::CatalogEntry::find(name).unwrap().text
}

/// Every tiling of a `w` x `h` board by the pieces, each once, turned but not flipped:
/// the grid of piece numbers, filled at the first empty cell each time.
fn tilings(w: i32, h: i32, pieces: &[Cells]) -> Vec<Vec<usize>> {
    let shapes: Vec<Vec<Cells>> = pieces.iter().map(turns).collect();
    let mut grid = vec![usize::MAX; (w * h) as usize];
    let mut used = vec![false; pieces.len()];
    let mut out = Vec::new();
    fill(w, h, &shapes, &mut grid, &mut used, &mut out);
    out
}

fn fill(
    w: i32,
    h: i32,
    shapes: &[Vec<Cells>],
    grid: &mut Vec<usize>,
    used: &mut Vec<bool>,
    out: &mut Vec<Vec<usize>>,
) {
    let Some(first) = grid.iter().position(|&g| g == usize::MAX) else {
        out.push(grid.clone());
        return;
    };
    let (fx, fy) = (first as i32 % w, first as i32 / w);
    for k in 0..shapes.len() {
        if used[k] {
            continue;
        }
        for shape in &shapes[k] {
            // The shape's least cell in scan order (y, then x) goes on the first empty cell.
            let anchor = *shape.iter().min_by_key(|c| (c.1, c.0)).unwrap();
            let cells: Option<Vec<usize>> = shape
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = (x - anchor.0 + fx, y - anchor.1 + fy);
                    let i = (y * w + x) as usize;
                    (x >= 0 && x < w && y >= 0 && y < h && grid[i] == usize::MAX).then_some(i)
                })
                .collect();
            let Some(cells) = cells else { continue };
            for &i in &cells {
                grid[i] = k;
            }
            used[k] = true;
            fill(w, h, shapes, grid, used, out);
            used[k] = false;
            for &i in &cells {
                grid[i] = usize::MAX;
            }
        }
    }
}

/// Distinct tilings up to the board's half-turn, and with `flip` also up to turning the
/// board over (a mirror image, each piece becoming its mirror partner).
fn orbits(w: i32, h: i32, pieces: &[Cells], all: &[Vec<usize>], flip: bool) -> usize {
    // Partner: the piece whose turns include this piece's mirror image.
    let partner: Vec<usize> = pieces
        .iter()
        .map(|p| {
            let image = normalise(p.iter().map(|&(x, y)| (-x, y)).collect());
            (0..pieces.len())
                .find(|&j| turns(&pieces[j]).contains(&image))
                .expect("the set holds every piece's mirror image")
        })
        .collect();
    let at = |g: &Vec<usize>, x: i32, y: i32| g[(y * w + x) as usize];
    let mut seen = HashSet::new();
    for g in all {
        let half: Vec<usize> = (0..w * h)
            .map(|i| at(g, w - 1 - i % w, h - 1 - i / w))
            .collect();
        let mut images = vec![g.clone(), half];
        if flip {
            for im in images.clone() {
                images.push(
                    (0..w * h)
                        .map(|i| partner[at(&im, w - 1 - i % w, i / w)])
                        .collect(),
                );
            }
        }
        seen.insert(images.into_iter().min().unwrap());
    }
    seen.len()
}

fn sat() -> Engine {
    sat_engine(&[])
}

/// The five chiral pentominoes that come in mirror pairs in the one-sided set (F, L, N,
/// P, Y and their mirror images) in a 5x10 rectangle: small enough for SAT to list every
/// solution in a second, and turning the board over maps each piece onto its partner.
const MIRROR_PAIRS_5X10: &str = r#"
name = "One-sided mirror pairs 5x10"
box = [5, 10, 1]
plane = "z"

[expect]
none = 76
rotations = 38
reflections = 19

[[piece]]
name = "F"
cells = [[1,0,0], [2,0,0], [0,1,0], [1,1,0], [1,2,0]]

[[piece]]
name = "F2"
symbol = "f"
label = "F mirrored"
cells = [[0,0,0], [1,0,0], [1,1,0], [1,2,0], [2,1,0]]

[[piece]]
name = "L"
cells = [[0,0,0], [1,0,0], [2,0,0], [3,0,0], [0,1,0]]

[[piece]]
name = "L2"
symbol = "l"
label = "L mirrored"
cells = [[0,0,0], [1,0,0], [2,0,0], [3,0,0], [3,1,0]]

[[piece]]
name = "N"
cells = [[0,0,0], [1,0,0], [2,0,0], [2,1,0], [3,1,0]]

[[piece]]
name = "N2"
symbol = "n"
label = "N mirrored"
cells = [[0,1,0], [1,0,0], [1,1,0], [2,0,0], [3,0,0]]

[[piece]]
name = "P"
cells = [[0,0,0], [1,0,0], [0,1,0], [1,1,0], [0,2,0]]

[[piece]]
name = "P2"
symbol = "p"
label = "P mirrored"
cells = [[0,0,0], [0,1,0], [1,0,0], [1,1,0], [1,2,0]]

[[piece]]
name = "Y"
cells = [[0,0,0], [1,0,0], [2,0,0], [3,0,0], [1,1,0]]

[[piece]]
name = "Y2"
symbol = "y"
label = "Y mirrored"
cells = [[0,0,0], [1,0,0], [2,0,0], [2,1,0], [3,0,0]]
"#;

/// One-sided puzzles: DLX, bits, the memo (which never visits a solution) and SAT
/// against the brute-force tiler and the `[expect]` table (4x7: none, by the colouring
/// argument in the file). The catalog's 3x30 only through the bitset engine: its 184
/// solutions took the DLX, the memo and SAT (18 s for SAT alone) over a minute, and the
/// mirror pairs in 5x10 put every engine through the same groups.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn one_sided_puzzles_count_alike_five_ways() {
    for (name, text, w, h, every_engine) in [
        (
            "one-sided-tetrominoes-4x7",
            catalog_text("one-sided-tetrominoes-4x7"),
            4,
            7,
            true,
        ),
        ("mirror pairs 5x10", MIRROR_PAIRS_5X10, 5, 10, true),
        (
            "one-sided-pentominoes-3x30",
            catalog_text("one-sided-pentominoes-3x30"),
            3,
            30,
            false,
        ),
    ] {
        let pieces = pieces_of_text(text);
        let all = tilings(w, h, &pieces);
        let puzzle = Puzzle::parse(&format!("{name}.toml"), text).unwrap();
        for (mode, brute) in [
            (NoSymmetry, all.len()),
            (Rotations, orbits(w, h, &pieces, &all, false)),
            (Reflections, orbits(w, h, &pieces, &all, true)),
        ] {
            let c = puzzle.compile(mode).unwrap();
            let bits = count(&c, Engine::bits(), 2);
            assert_eq!(
                bits, brute as u64,
                "{name} {mode:?}: bits against brute force"
            );
            if every_engine {
                assert_eq!(count(&c, Engine::dlx(), 1), bits, "{name} {mode:?}: DLX");
                let memo = Engine::from_name("memo").unwrap();
                assert_eq!(count(&c, memo, 1), bits, "{name} {mode:?}: memo");
                // SAT visits every solution slowly: once, under the group that maps
                // each piece onto its mirror partner.
                if mode == Reflections || bits == 0 {
                    assert_eq!(count(&c, sat(), 1), bits, "{name} {mode:?}: SAT");
                }
            }
            let want = puzzle.expected(mode).expect("the file's [expect]");
            assert_eq!(
                want.to_string(),
                bits.to_string(),
                "{name} {mode:?}: [expect]"
            );
        }
    }
}

const L_TETROMINOES: &str = r#"
    name = "Two L tetrominoes"
    box = [4, 2, 1]
    PLANE
    [[piece]]
    name = "L"
    cells = [[0,0,0], [1,0,0], [2,0,0], [0,1,0]]
    [[piece]]
    name = "K"
    cells = [[0,0,0], [1,0,0], [2,0,0], [0,1,0]]
"#;

fn counts(text: &str, modes: &[SymmetryMode]) -> Vec<u64> {
    modes
        .iter()
        .map(|&m| count(&compile_text(text, m), Engine::dlx(), 1))
        .collect()
}

/// A 4x2 board and two L tetrominoes of one hand. One-sided (the key) they tile it the
/// brute force's ways (an L and an L turned half round); with flipping (no key) one of
/// them may also be a J, which gives more. The set is not its own mirror image, so
/// `reflections` is refused with the key, naming the piece (without it, every flat piece
/// is its own mirror image: turned over in space).
#[test]
fn the_plane_key_stops_pieces_flipping_and_changes_the_group() {
    let free = L_TETROMINOES.replace("PLANE", "");
    let flat = L_TETROMINOES.replace("PLANE", r#"plane = "z""#);
    let pieces = pieces_of_text(&flat);
    let all = tilings(4, 2, &pieces);
    let half_turns: HashSet<Vec<usize>> = all
        .iter()
        .map(|g| {
            let half: Vec<usize> = g.iter().rev().copied().collect();
            g.clone().min(half)
        })
        .collect();
    assert!(!all.is_empty());
    assert_eq!(
        counts(&flat, &[NoSymmetry, Rotations]),
        vec![all.len() as u64, half_turns.len() as u64]
    );
    let free_counts = counts(&free, &[NoSymmetry]);
    assert!(
        free_counts[0] > all.len() as u64,
        "flipping pieces gives more raw tilings: {free_counts:?} against {}",
        all.len()
    );
    let e = Puzzle::parse("flat.toml", &flat)
        .unwrap()
        .compile(Reflections)
        .unwrap_err()
        .to_string();
    assert!(e.contains("the mirror image of piece L"), "{e}");
    assert!(Puzzle::parse("free.toml", &free)
        .unwrap()
        .compile(Reflections)
        .is_ok());
}

fn pieces_of_text(text: &str) -> Vec<Cells> {
    let doc: toml::Value = toml::from_str(text).unwrap();
    doc["piece"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let c = c.as_array().unwrap();
                    (
                        c[0].as_integer().unwrap() as i32,
                        c[1].as_integer().unwrap() as i32,
                    )
                })
                .collect()
        })
        .collect()
}

/// The free pentominoes in 3x20 with `plane = "z"` and `mirror = true`: the same pieces
/// as without the key (8 flat orientations each), but the group holds only the plane's
/// turns under `rotations`: the 2 published solutions are 4 until the board may be
/// turned over. Without the key the file counts as it always did.
#[test]
fn a_flat_file_with_mirrors_in_its_plane() {
    let text = catalog_text("pentomino-3x20");
    let all = [NoSymmetry, Rotations, Reflections];
    assert_eq!(counts(text, &all), vec![8, 2, 2]);
    let flat = text.replace(
        "box = [3, 20, 1]",
        "box = [3, 20, 1]\nplane = \"z\"\nmirror = true",
    );
    assert_ne!(flat, text);
    assert_eq!(counts(&flat, &all), vec![8, 4, 2]);
}

#[test]
fn plane_errors() {
    let bad = |text: &str, want: &str| {
        let e = Puzzle::parse("flat.toml", text).unwrap_err().to_string();
        assert!(e.contains(want), "{e:?} should say {want:?}");
        assert!(e.contains("flat.toml:"), "{e:?} names the file and line");
    };
    bad(
        &L_TETROMINOES.replace("PLANE", r#"plane = "w""#),
        r#"give "x", "y" or "z""#,
    );
    bad(
        &L_TETROMINOES.replace("PLANE", r#"plane = "x""#),
        "the target is more than one cell thick along x",
    );
    let thick = L_TETROMINOES
        .replace("PLANE", r#"plane = "z""#)
        .replace("box = [4, 2, 1]", "box = [2, 2, 2]");
    bad(&thick, "the target is more than one cell thick along z");
    let thick_piece = r#"
        name = "Thick"
        target = [[0,0,0], [1,0,0], [2,0,0], [3,0,0]]
        plane = "z"
        [[piece]]
        name = "A"
        cells = [[0,0,0], [0,0,1]]
        [[piece]]
        name = "B"
        cells = [[0,0,0], [1,0,0]]
    "#;
    bad(
        thick_piece,
        "piece A: it is more than one cell thick along z",
    );
    // BurrTools turns every piece in space: the export refuses the key.
    let out = polycover(&[
        "export",
        "one-sided-tetrominoes-4x7",
        "--format",
        "burrtools",
        "-o",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no BurrTools equivalent"));
}
