//! `export --format dlx` read back by a small reader of Knuth's format, written here
//! from his description (dlx1, dlx2's secondary items, dlx3's `k|name` and `a:b|name`
//! bounds), and solved with polycover's own DLX.

use polycover::{Item, Matrix};

use crate::common::*;

/// Reads Knuth's DLX input: comments `|...`, the item line (primary items, `|`, then
/// secondary ones; `k|name` or `a:b|name` bounds), then one option per line.
fn read_dlx(text: &str) -> Matrix {
    let mut lines = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('|') && !l.trim().is_empty());
    let head = lines.next().expect("an item line");
    let mut names = Vec::new();
    let mut items = Vec::new();
    let mut primary = Vec::new();
    let mut secondary = false;
    for token in head.split_whitespace() {
        if token == "|" {
            assert!(!secondary, "one `|` between primary and secondary items");
            secondary = true;
            continue;
        }
        let (bound, name) = match token.split_once('|') {
            Some((b, n)) => {
                assert!(!secondary, "secondary items have no bounds: {token}");
                (b, n)
            }
            None => ("1", token),
        };
        let (lo, hi) = bound.split_once(':').unwrap_or((bound, bound));
        assert!(
            name.len() <= 8,
            "dlx1 names are at most 8 characters: {name}"
        );
        assert!(!names.contains(&name), "item {name} named twice");
        names.push(name);
        items.push(if secondary {
            Item::optional(name)
        } else {
            Item::range(name, lo.parse().unwrap(), hi.parse().unwrap())
        });
        primary.push(!secondary);
    }
    let mut m = Matrix::new(items);
    for line in lines {
        let option: Vec<u32> = line
            .split_whitespace()
            .map(|n| {
                names
                    .iter()
                    .position(|&x| x == n)
                    .unwrap_or_else(|| panic!("unknown item {n} in {line}")) as u32
            })
            .collect();
        assert!(
            option.iter().any(|&i| primary[i as usize]),
            "Knuth's solvers need a primary item in every option: {line}"
        );
        m.push_option(&option);
    }
    m
}

fn dlx_count(m: &Matrix) -> u64 {
    m.count_covers()
}

fn export(args: &[&str]) -> String {
    let mut all = vec!["export"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "dlx"]);
    let out = polycover(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn dlx_exports_read_back_to_the_same_counts() {
    let mut cases = vec![
        ("soma", "none", 11520),
        ("soma", "rotations", 480),
        ("hesselink-5", "none", 8),
        ("hesselink-5", "stack", 1),
        ("slothouber-graatsma", "none", 8),
    ];
    if !cfg!(debug_assertions) {
        cases.push(("pentomino-6x10", "none", 9356));
    }
    for (puzzle, mode, want) in cases {
        let text = export(&[puzzle, "--symmetry", mode]);
        assert!(
            text.starts_with("| polycover "),
            "{puzzle}: the header is a comment"
        );
        let m = read_dlx(&text);
        assert_eq!(dlx_count(&m), want, "{puzzle} {mode}");
    }
}

/// Optional cells are dlx2's secondary items, count ranges dlx3's `a:b|` bounds; a
/// piece that may be left out and can lie on optional cells only stays primary (`0:1|`),
/// since Knuth's solvers need a primary item in every option.
#[test]
fn optional_cells_and_ranges_read_back_to_the_same_counts() {
    for (fixture, want) in [("optional-corner", 7), ("coloured-bars", 11)] {
        let path = format!(
            "{}/tests/fixtures/ranges/{fixture}.toml",
            concat!(env!("CARGO_MANIFEST_DIR"), "/..")
        );
        let text = export(&[&path, "--symmetry", "none"]);
        let items = text.lines().find(|l| !l.starts_with('|')).unwrap();
        assert!(items.contains(" | "), "secondary items: {items}");
        assert!(items.contains("1:3|D"), "a count range: {items}");
        if fixture == "optional-corner" {
            assert_eq!(items, "000 010 100 110 200 1:3|D 0:1|M | 210");
        }
        let m = read_dlx(&text);
        assert_eq!(dlx_count(&m), want, "{fixture}");
    }
}

/// The raw export is the whole matrix: as many options as `info` says placements.
#[test]
fn the_raw_dlx_export_is_the_whole_matrix() {
    let c = compile("bedlam", polycover::SymmetryMode::None);
    let m = read_dlx(&export(&["bedlam", "--symmetry", "none"]));
    assert_eq!(m.num_items(), c.matrix().num_items());
    assert_eq!(m.num_options(), c.matrix().num_options());
    for o in 0..m.num_options() as u32 {
        assert_eq!(m.option_items(o), c.matrix().option_items(o));
    }
}

/// A mode whose reduction still needs a check after the search is refused, not written
/// with a count that would mean something else.
#[test]
fn a_reduction_dlx_cannot_express_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dominoes.toml");
    std::fs::write(&path, DOMINOES).unwrap();
    let out = polycover(&[
        "export",
        path.to_str().unwrap(),
        "--format",
        "dlx",
        "--symmetry",
        "rotations",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("cannot be written exactly in DLX format"),
        "{}",
        stderr(&out)
    );
    // The default mode (rotations) is refused too; the whole matrix is written: 32 tilings.
    let out = polycover(&["export", path.to_str().unwrap(), "--format", "dlx"]);
    assert_eq!(out.status.code(), Some(2));
    let out = polycover(&[
        "export",
        path.to_str().unwrap(),
        "--format",
        "dlx",
        "--symmetry",
        "none",
    ]);
    assert_eq!(dlx_count(&read_dlx(&stdout(&out))), 32);
}

/// MiniZinc output for `decode`: `x = [...]` is read with or without a closing `;` (an
/// output item that prints the assignment as a statement), not refused as cut short.
#[test]
fn decode_reads_a_minizinc_line_with_a_semicolon() {
    let dir = tempfile::tempdir().unwrap();
    let p = polycover::Problem::load("soma", None).unwrap();
    let (first, _) = p
        .first(&polycover::Engine::dlx(), &polycover::RunOptions::default())
        .unwrap();
    let first = first.unwrap();
    let values: Vec<&str> = (0..p.matrix().num_options() as u32)
        .map(|o| if first.contains(&o) { "1" } else { "0" })
        .collect();
    for (name, line) in [
        ("plain.txt", format!("x = [{}]", values.join(", "))),
        ("semicolon.txt", format!("x = [{}];", values.join(", "))),
        ("spaced.txt", format!("x = [{}] ; ", values.join(","))),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{line}\n----------\n")).unwrap();
        let out = polycover(&["decode", "soma", "--model", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(10), "{name}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("c the model is a valid solution of Soma cube"),
            "{name}"
        );
    }
    // Still cut short: no closing bracket.
    let path = dir.path().join("cut.txt");
    std::fs::write(&path, format!("x = [{};\n", values.join(", "))).unwrap();
    let out = polycover(&["decode", "soma", "--model", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cut short"), "{}", stderr(&out));
}
