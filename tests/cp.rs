//! The linear models (`export --format mzn|opb`): MiniZinc with Gecode (Debian packages
//! `minizinc` and `flatzinc`, installed by `.ci/run`) counts the MiniZinc model, and the
//! OPB model, read back as exact cover, counts the same with polycover's DLX.

use std::process::Command;

use polycover::matrix::{Item, Matrix};
use polycover::{solver, Reduction};

use crate::common::*;

fn export(puzzle: &str, format: &str, mode: Option<&str>) -> String {
    let mut args = vec!["export", puzzle, "--format", format];
    if let Some(m) = mode {
        args.extend(["--symmetry", m]);
    }
    let out = polycover(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn gecode_counts_the_minizinc_model() {
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, mode, want) in [
        ("soma", None, 480),
        ("soma", Some("none"), 11520),
        ("slothouber-graatsma", Some("none"), 8),
        ("hesselink-5", None, 1),
        ("hesselink-5", Some("none"), 8),
    ] {
        let model = dir.path().join("model.mzn");
        std::fs::write(&model, export(puzzle, "mzn", mode)).unwrap();
        let out = Command::new("minizinc")
            .args(["--solver", "gecode", "--all-solutions"])
            .arg(&model)
            .output()
            .unwrap_or_else(|e| panic!("minizinc: {e}: run `bash .ci/run`, which installs it"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let solutions = text.lines().filter(|l| *l == "----------").count();
        assert_eq!(solutions, want, "{puzzle} {mode:?}");
        assert!(
            text.lines().any(|l| l == "=========="),
            "the search was complete"
        );
        assert!(text.lines().any(|l| l.starts_with("x = [")), "{text}");
    }
}

/// Reads an OPB exact-cover model back: one item per constraint (`+1 xa +1 xb ... = k ;`),
/// one option per variable.
fn read_opb(text: &str) -> Matrix {
    let head = text.lines().next().unwrap();
    let numbers: Vec<usize> = head
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    let [variables, constraints] = numbers[..] else {
        panic!("bad header {head}")
    };
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('*')).collect();
    assert_eq!(rows.len(), constraints);
    let mut items = Vec::new();
    let mut covers: Vec<Vec<u32>> = vec![Vec::new(); variables];
    for (i, row) in rows.iter().enumerate() {
        let body = row
            .strip_suffix(';')
            .unwrap_or_else(|| panic!("no ; in {row}"))
            .trim();
        let (lhs, rhs) = body.split_once(" = ").unwrap();
        items.push(Item {
            name: format!("c{i}"),
            multiplicity: rhs.trim().parse().unwrap(),
        });
        let terms: Vec<&str> = lhs.split_whitespace().collect();
        for pair in terms.chunks(2) {
            assert_eq!(pair[0], "+1");
            let v: usize = pair[1].strip_prefix('x').unwrap().parse().unwrap();
            covers[v - 1].push(i as u32);
        }
    }
    let mut m = Matrix::new(items);
    for option in covers {
        m.push_option(&option);
    }
    m
}

#[test]
fn the_opb_model_is_the_exact_cover() {
    for (puzzle, mode, want) in [
        ("soma", None, 480),
        ("soma", Some("none"), 11520),
        ("slothouber-graatsma", Some("none"), 8),
        ("hesselink-5", None, 1),
    ] {
        let text = export(puzzle, "opb", mode);
        assert!(text.starts_with("* #variable= "), "{text}");
        let m = read_opb(&text);
        let n =
            solver::count(&Reduction::none(&m), solver::dlx, None, 1, None, None, None).solutions;
        assert_eq!(n, want, "{puzzle} {mode:?}");
    }
}
