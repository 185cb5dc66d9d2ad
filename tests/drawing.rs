//! Puzzles drawn as layers, and piece names longer than one character with symbols.

use std::collections::BTreeSet;

type Cell = [i32; 3];
use polycover::{Engine, Puzzle, SymmetryMode};

use crate::common::*;

fn polycube_of(source: &str, text: &str) -> Puzzle {
    Puzzle::parse(source, text).unwrap_or_else(|e| panic!("{e}"))
}

/// Two puzzles with the same target, the same pieces (as shapes) and the same
/// placements: the same matrix (items named by cell and piece) and the same option
/// behind each row (piece, orientation, cells).
fn assert_same_placements(a: &Puzzle, b: &Puzzle, what: &str) {
    let (ma, mb) = (a.matrix(), b.matrix());
    assert_eq!(ma, mb, "{what}: matrix");
    for o in 0..ma.num_options() as u32 {
        assert_eq!(
            a.describe_option(o),
            b.describe_option(o),
            "{what}: option {o}"
        );
    }
}

/// The names of the target's cells: the items of the matrix before the pieces'.
fn cell_items(p: &Puzzle) -> Vec<String> {
    let m = p.matrix();
    let pieces = p.piece_cells().unwrap().len();
    m.items()[..m.num_items() - pieces]
        .iter()
        .map(|i| i.name.clone())
        .collect()
}

fn parse_error(text: &str) -> String {
    match Puzzle::parse("art.toml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/coordinates/{name}.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    )
}

/// The catalog's drawn puzzles are the coordinate versions kept in tests/fixtures: the
/// same target, the same pieces (as shapes), the same counts in every mode, by both
/// native engines.
#[test]
fn drawn_catalog_puzzles_equal_their_coordinate_versions() {
    for (name, modes) in [
        (
            "soma",
            &[
                (SymmetryMode::Rotations, 480),
                (SymmetryMode::Reflections, 240),
                (SymmetryMode::None, 11520),
            ][..],
        ),
        (
            "pentomino-8x8-hole",
            &[(SymmetryMode::Rotations, 65), (SymmetryMode::None, 520)][..],
        ),
    ] {
        let drawn_text = polycover::CatalogEntry::find(name).unwrap().text;
        assert!(drawn_text.contains("layers = ["), "{name} is drawn");
        let drawn = polycube_of(name, drawn_text);
        let plain_text = std::fs::read_to_string(fixture(name)).unwrap();
        assert!(
            !plain_text.contains("layers"),
            "{name}: the fixture is in coordinates"
        );
        let plain = polycube_of(name, &plain_text);
        assert_eq!(drawn.piece_cells(), plain.piece_cells(), "{name}: pieces");
        assert_same_placements(&drawn, &plain, name);
        for &(mode, want) in modes {
            for text in [drawn_text, plain_text.as_str()] {
                let c = compile_text(text, mode);
                assert_eq!(count(&c, Engine::bits(), 1), want, "{name} {mode:?} bits");
                assert_eq!(count(&c, Engine::dlx(), 1), want, "{name} {mode:?} dlx");
            }
        }
    }
}

/// A drawing and the same cells as coordinates give the same puzzle; `#` and the piece's
/// symbol both mark cells; a file mixes both forms.
#[test]
fn a_drawing_means_the_cells_it_shows() {
    let drawn = polycube_of(
        "d.toml",
        "name = \"d\"\nlayers = ['''\n###\n#.#\n''', '''\n#..\n...\n''']\n\
         [[piece]]\nname = \"L\"\nlayers = ['''\nL#\nL.\n''']\n\
         [[piece]]\nname = \"R\"\ncells = [[0,0,0], [1,0,0], [2,0,0]]\n",
    );
    let plain = polycube_of(
        "p.toml",
        "name = \"p\"\ntarget = [[0,0,0],[1,0,0],[2,0,0],[0,1,0],[2,1,0],[0,0,1]]\n\
         [[piece]]\nname = \"L\"\ncells = [[0,0,0],[1,0,0],[0,1,0]]\n\
         [[piece]]\nname = \"R\"\ncells = [[5,5,5], [6,5,5], [7,5,5]]\n",
    );
    assert_eq!(
        drawn.piece_cells().unwrap()[0],
        plain.piece_cells().unwrap()[0]
    );
    assert_same_placements(&drawn, &plain, "drawn and plain");
}

/// Layer art errors name the file, line and column of the character at fault.
#[test]
fn layer_art_errors_point_at_the_character() {
    let piece = |art: &str| {
        format!("name = \"t\"\nbox = [2, 2, 1]\n[[piece]]\nname = \"A\"\nlayers = [{art}]\n")
    };
    // Line 5 holds `layers = ['''`, so the drawing's rows are lines 6 and 7.
    let e = parse_error(&piece("'''\nAA\nA\n'''"));
    assert!(e.starts_with("art.toml:7:2: "), "{e}");
    assert!(e.contains("ragged rows") && e.contains("row 2"), "{e}");
    let e = parse_error(&piece("'''\nAA\nA*\n'''"));
    assert!(e.starts_with("art.toml:7:2: "), "{e}");
    assert!(
        e.contains("unknown character '*'") && e.contains("column 2"),
        "{e}"
    );
    // A basic string with escapes: the row and column are still named.
    let e = parse_error(&piece("\"AA\\nA*\""));
    assert!(e.starts_with("art.toml:5:"), "{e}");
    assert!(e.contains("row 2, column 2: unknown character '*'"), "{e}");
    let e = parse_error(&piece(""));
    assert!(e.contains("`layers` is empty"), "{e}");
    let e = parse_error(&piece("''"));
    assert!(e.contains("layer 1 (z = 0) is empty"), "{e}");
    let e = parse_error(&piece("'''\n..\n..\n'''"));
    assert!(e.contains("the drawing has no cells"), "{e}");
    let e = parse_error(&piece("'''\nAA\n''', '''\nA\n'''"));
    assert!(e.contains("ragged rows"), "{e}");
    let e = parse_error(&piece("'''\nAA\n''', '''\nA.\nA.\n'''"));
    assert!(
        e.contains("layer 2 (z = 1) has 2 rows, the first layer has 1"),
        "{e}"
    );
    // Another piece's symbol is not a cell of this piece.
    let e = parse_error(&piece("'''\nAB\n'''"));
    assert!(e.contains("unknown character 'B'"), "{e}");
    let e = parse_error(
        "name = \"t\"\nbox = [2, 1, 1]\nlayers = ['##']\n[[piece]]\nname = \"A\"\ncells = [[0,0,0],[1,0,0]]\n",
    );
    assert!(e.contains("`box` and `layers`: give one of"), "{e}");
    let e = parse_error(
        "name = \"t\"\nbox = [2, 1, 1]\n[[piece]]\nname = \"A\"\ncells = [[0,0,0],[1,0,0]]\nlayers = ['AA']\n",
    );
    assert!(e.contains("give either `cells` or `layers`"), "{e}");
    let e = parse_error(
        "name = \"t\"\nlayers = ['#*']\n[[piece]]\nname = \"A\"\ncells = [[0,0,0],[1,0,0]]\n",
    );
    assert!(e.starts_with("art.toml:2:13: "), "{e}");
    assert!(
        e.contains("target, layer 1 (z = 0), row 1, column 2"),
        "{e}"
    );
}

/// The printed layers of a solution, as strings, one per z (bottom first).
fn printed_layers(text: &str) -> Vec<String> {
    let body: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("s "))
        .skip(1)
        .take_while(|l| !l.starts_with("copies") && !l.starts_with("pieces"))
        .collect();
    let rows = if body[0].starts_with("z=") {
        &body[1..]
    } else {
        &body[..]
    };
    let layers = rows[0].split("  ").count();
    (0..layers)
        .map(|z| {
            rows.iter()
                .map(|r| format!("{}\n", r.split("  ").nth(z).unwrap()))
                .collect()
        })
        .collect()
}

/// `solve` output pasted into a puzzle file's `layers` gives back the target's cells.
#[test]
fn printed_layers_read_back_as_the_same_target() {
    for name in [
        "bedlam",
        "soma",
        "pentomino-6x10",
        "pentomino-8x8-hole",
        "slothouber-graatsma",
    ] {
        let out = polycover(&["solve", name]);
        assert_eq!(out.status.code(), Some(10), "{name}");
        let layers = printed_layers(&stdout(&out));
        let original = polycube_of(name, polycover::CatalogEntry::find(name).unwrap().text);
        let art: Vec<String> = layers.iter().map(|l| format!("'''\n{l}'''")).collect();
        let text = format!(
            "name = \"pasted\"\nlayers = [{}]\n[[piece]]\nname = \"m\"\ncells = [[0,0,0]]\ncount = {}\n",
            art.join(", "),
            cell_items(&original).len()
        );
        let pasted = polycube_of("pasted.toml", &text);
        assert_eq!(cell_items(&pasted), cell_items(&original), "{name}");
    }
}

/// The 70 hexacubes first met in a breadth-first growth, each turned flat where it can be.
fn hexacubes(n: usize) -> Vec<Vec<Cell>> {
    let turns = rotations();
    let mut level: BTreeSet<Vec<Cell>> = [vec![[0, 0, 0]]].into();
    for _ in 1..6 {
        let mut next = BTreeSet::new();
        for s in &level {
            for c in s {
                for d in [
                    [1, 0, 0],
                    [-1, 0, 0],
                    [0, 1, 0],
                    [0, -1, 0],
                    [0, 0, 1],
                    [0, 0, -1],
                ] {
                    let cell: Cell = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
                    if !s.contains(&cell) {
                        let mut cells = s.clone();
                        cells.push(cell);
                        next.insert(canonical(&cells, &turns));
                    }
                }
            }
        }
        level = next;
    }
    level
        .into_iter()
        .take(n)
        .map(|s| {
            turns
                .iter()
                .map(|m| normal(s.iter().map(|&c| turn(m, c)).collect()))
                .min_by_key(|t| {
                    let hi = max_corner(t);
                    (hi[2], hi[1], t.clone())
                })
                .unwrap()
        })
        .collect()
}

/// 70 distinct hexacubes, each with a long name and its own symbol (letters, digits,
/// then Greek letters), each packed into a slot of its own shape: exactly one solution
/// in every mode. It counts right with both engines and prints readably: layers of
/// symbols and a legend from symbol to name.
#[test]
fn seventy_pieces_with_long_names_and_symbols() {
    let shapes = hexacubes(70);
    assert_eq!(shapes.len(), 70);
    let symbols: Vec<char> = ('A'..='Z')
        .chain('a'..='z')
        .chain('0'..='9')
        .chain("αβγδεζηθ".chars())
        .collect();
    let mut target = Vec::new();
    let (mut x, mut y, mut row_height) = (0, 0, 0);
    let mut pieces = String::new();
    for (k, s) in shapes.iter().enumerate() {
        let hi = max_corner(s);
        if x + hi[0] + 1 > 40 {
            x = 0;
            y += row_height + 2;
            row_height = 0;
        }
        for c in s {
            target.push(format!("[{},{},{}]", c[0] + x, c[1] + y, c[2]));
        }
        let cells: Vec<String> = s
            .iter()
            .map(|c| format!("[{},{},{}]", c[0], c[1], c[2]))
            .collect();
        pieces += &format!(
            "[[piece]]\nname = \"hexacube-{:02}\"\nsymbol = \"{}\"\ncells = [{}]\n",
            k + 1,
            symbols[k],
            cells.join(", ")
        );
        x += hi[0] + 2;
        row_height = row_height.max(hi[1]);
    }
    let text = format!(
        "name = \"seventy hexacubes\"\ntarget = [{}]\n{pieces}",
        target.join(", ")
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seventy.toml");
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();
    for mode in ["none", "rotations"] {
        for solver in ["bits", "dlx"] {
            let out = polycover(&["count", path, "--symmetry", mode, "--solver", solver]);
            assert_eq!(
                stdout(&out).lines().last(),
                Some("s mc 1"),
                "{mode} {solver}: {}",
                stderr(&out)
            );
        }
    }
    let out = polycover(&["solve", path]);
    assert_eq!(out.status.code(), Some(10));
    let shown = stdout(&out);
    let layers = printed_layers(&shown);
    for (k, &symbol) in symbols.iter().enumerate() {
        let n: usize = layers.iter().map(|l| l.matches(symbol).count()).sum();
        assert_eq!(
            n,
            6,
            "symbol {symbol} marks the six cells of hexacube-{:02}",
            k + 1
        );
        assert!(
            shown.contains(&format!("{symbol} hexacube-{:02}", k + 1)),
            "the legend names {symbol}:\n{shown}"
        );
    }
    assert!(shown
        .lines()
        .all(|l| l.chars().count() <= 80 || !l.starts_with("pieces")));

    // Without symbols, the names' first characters clash: a clear error naming both.
    let clash: String = text
        .lines()
        .filter(|l| !l.starts_with("symbol"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("clash.toml"), &clash).unwrap();
    let out = polycover(&["count", dir.path().join("clash.toml").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("piece hexacube-02: symbol 'h'")
            && e.contains("already the symbol of piece hexacube-01"),
        "{e}"
    );
    assert!(e.contains("symbol = \"x\""), "{e}");
}

/// Names and symbols that cannot be used.
#[test]
fn bad_names_and_symbols_are_refused() {
    let with = |piece: &str| {
        format!("name = \"t\"\nbox = [1, 1, 1]\n[[piece]]\n{piece}\ncells = [[0,0,0]]\n")
    };
    for (piece, message) in [
        ("name = \"two words\"", "one word of 1 to 64 characters"),
        ("name = \"\"", "one word"),
        (
            "name = \"ok\"\nsymbol = \"ab\"",
            "`symbol` must be one character",
        ),
        ("name = \"ok\"\nsymbol = \".\"", "`.` marks an empty cell"),
        (
            "name = \".dot\"",
            "its first character '.' cannot be its symbol",
        ),
        (
            "name = \"ok\"\nsymbol = \"+\"",
            "reserved for optional cells",
        ),
    ] {
        let e = parse_error(&with(piece));
        assert!(e.contains(message), "{piece}: {e}");
        assert!(e.starts_with("art.toml:"), "{e}");
    }
}

/// The largest coordinate on each axis.
fn max_corner(cells: &[Cell]) -> Cell {
    cells.iter().fold([i32::MIN; 3], |m, c| {
        [m[0].max(c[0]), m[1].max(c[1]), m[2].max(c[2])]
    })
}
