//! The CNF path: SAT counts equal DLX counts in every encoding and symmetry mode, DIMACS
//! round trips, and `decode` on good and bad models.

use std::ops::ControlFlow;

use polycover::cnf::{self, Amo};
use polycover::sat::{self, Backend, Strategy};
use polycover::solver::Solver;
use polycover::{Compiled, Reduction, SymmetryMode};

use crate::common::*;

fn sat_count(c: &Compiled, amo: Amo, strategy: Strategy) -> u64 {
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    let formula = cnf::compile(&c.matrix, &reduction, amo);
    let mut n = 0;
    sat::for_each_model(
        &c.matrix,
        &reduction,
        &formula,
        Backend::Varisat,
        strategy,
        &mut |_| {
            n += 1;
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    n
}

/// Every encoding, every mode, both strategies, on puzzles with a nontrivial stabiliser
/// (Slothouber-Graatsma), copies counted by the totalizer (dominoes), and no solution.
#[test]
fn sat_counts_equal_dlx_counts_on_small_puzzles() {
    let puzzles: Vec<(&str, polycover::Puzzle)> = vec![
        (
            "slothouber-graatsma",
            polycover::Puzzle::load("slothouber-graatsma").unwrap(),
        ),
        (
            "dominoes",
            polycover::Puzzle::parse("dominoes.toml", DOMINOES).unwrap(),
        ),
        (
            "five-t",
            polycover::Puzzle::load(&format!(
                "{}/tests/fixtures/five-t.toml",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap(),
        ),
    ];
    for (name, puzzle) in &puzzles {
        for mode in [
            SymmetryMode::None,
            SymmetryMode::Rotations,
            SymmetryMode::Reflections,
        ] {
            let c = puzzle.compile(mode).unwrap();
            let dlx = count(&c, Solver::Dlx, 1);
            for amo in Amo::ALL {
                for strategy in [Strategy::Plain, Strategy::Cubes] {
                    assert_eq!(
                        sat_count(&c, amo, strategy),
                        dlx,
                        "{name} {mode:?} {amo:?} {strategy:?}"
                    );
                }
            }
        }
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn sat_counts_equal_dlx_counts_on_soma_and_pentominoes() {
    for mode in [SymmetryMode::Rotations, SymmetryMode::Reflections] {
        let c = compile("soma", mode);
        let dlx = count(&c, Solver::Dlx, 1);
        for amo in Amo::ALL {
            assert_eq!(
                sat_count(&c, amo, Strategy::Cubes),
                dlx,
                "soma {mode:?} {amo:?}"
            );
        }
    }
    let c = compile("soma", SymmetryMode::None);
    assert_eq!(sat_count(&c, Amo::Product, Strategy::Cubes), 11_520);
    let c = compile("pentomino-3x20", SymmetryMode::Rotations);
    for amo in [Amo::Bimander, Amo::Pairwise] {
        assert_eq!(sat_count(&c, amo, Strategy::Plain), 2, "{amo:?}");
    }
}

/// Without symmetry breaking the models are all the solutions, so the lex-leader
/// clauses (and nothing else) remove exactly |G| - 1 of every free orbit.
#[test]
fn symmetry_clauses_keep_one_model_per_orbit() {
    let none = compile("slothouber-graatsma", SymmetryMode::None);
    assert_eq!(sat_count(&none, Amo::Ladder, Strategy::Plain), 8);
    let rot = compile("slothouber-graatsma", SymmetryMode::Rotations);
    assert_eq!(sat_count(&rot, Amo::Ladder, Strategy::Plain), 1);
}

#[test]
fn count_with_the_sat_solver_from_the_command_line() {
    let out = polycover(&[
        "count",
        "slothouber-graatsma",
        "--solver",
        "sat",
        "--amo",
        "commander",
    ]);
    assert_eq!(
        stdout(&out).lines().last(),
        Some("s mc 1"),
        "{}",
        stderr(&out)
    );
    let out = polycover(&["solve", "soma", "--solver", "sat"]);
    assert_eq!(out.status.code(), Some(10));
}

#[test]
fn gzip_dimacs_reads_back_identically() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("soma.cnf");
    let gz = dir.path().join("soma.cnf.gz");
    for p in [&plain, &gz] {
        let out = polycover(&[
            "dimacs",
            "soma",
            "--amo",
            "ladder",
            "-o",
            p.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let raw = std::fs::read(&gz).unwrap();
    assert_eq!(&raw[..2], &[0x1f, 0x8b], "gzip magic");
    let mut unzipped = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&raw[..]), &mut unzipped)
        .unwrap();
    assert_eq!(unzipped, std::fs::read_to_string(&plain).unwrap());
    // And stdout carries nothing but the CNF.
    let out = polycover(&["dimacs", "soma", "--amo", "ladder", "-o", "-"]);
    assert_eq!(stdout(&out), unzipped);
    assert!(stderr(&out).is_empty());
}

#[test]
fn dimacs_header_and_projection() {
    let text = stdout(&polycover(&["dimacs", "soma", "-o", "-"]));
    let comments: Vec<&str> = text.lines().take_while(|l| l.starts_with('c')).collect();
    assert!(comments[0].starts_with("c polycover "));
    assert!(comments.iter().any(|l| l.starts_with("c puzzle Soma cube")));
    assert!(comments
        .iter()
        .any(|l| l.starts_with("c encoding at-most-one=product")));
    assert!(comments.iter().any(|l| *l == "c t pmc"));
    assert!(comments
        .iter()
        .any(|l| l.starts_with("c p show 1 2 3 ") && l.ends_with(" 688 0")));
    assert!(!comments.iter().any(|l| l.starts_with("c ind")));
    assert!(comments.iter().any(|l| l.starts_with("c v 1 V o0 ")));
    assert!(text.lines().any(|l| l.starts_with("p cnf ")));
    let ind = stdout(&polycover(&[
        "dimacs",
        "soma",
        "--projection",
        "ind",
        "-o",
        "-",
    ]));
    assert!(ind.lines().any(|l| l.starts_with("c ind 1 2 ")));
    assert!(!ind
        .lines()
        .any(|l| l.starts_with("c p show") || l == "c t pmc"));
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// A model of Slothouber-Graatsma from our own SAT path, as a solver would print it.
fn good_model() -> String {
    let c = compile("slothouber-graatsma", SymmetryMode::Rotations);
    let reduction = Reduction::new(&c.matrix, c.group.clone());
    let solution = polycover::solver::first(&reduction, Solver::Dlx).unwrap();
    let lits = model_literals(c.matrix.num_options(), &solution);
    format!("c from a test\ns SATISFIABLE\nv {}\nv 0\n", lits)
}

#[test]
fn decode_accepts_a_valid_model_plain_or_gzip() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "answer.txt", &good_model());
    let out = polycover(&["decode", "slothouber-graatsma", "--model", &path]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    assert!(stdout(&out).contains("s SATISFIABLE"));
    // gzip, recognised by its magic bytes although the name says .txt
    let gz_path = dir.path().join("answer-gz.txt");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, good_model().as_bytes()).unwrap();
    std::fs::write(&gz_path, gz.finish().unwrap()).unwrap();
    let out = polycover(&[
        "decode",
        "slothouber-graatsma",
        "--model",
        gz_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
}

#[test]
fn decode_rejects_bad_models() {
    let dir = tempfile::tempdir().unwrap();
    let good = good_model();
    // Wrong: flip the first true variable to false.
    let first_true = good
        .split_whitespace()
        .find(|t| t.parse::<i64>().is_ok_and(|v| v > 0))
        .unwrap()
        .to_string();
    let wrong = good.replacen(&format!(" {first_true} "), &format!(" -{first_true} "), 1);
    // Partial: drop the last literal before the 0.
    let partial = {
        let v = good.lines().nth(2).unwrap();
        let cut = v.rsplit_once(' ').unwrap().0;
        good.replace(v, cut)
    };
    let cases = [
        ("wrong.txt", wrong, "the model is not a solution"),
        ("partial.txt", partial, "partial model"),
        (
            "garbage.txt",
            "s SATISFIABLE\nv 1 two 3 0\n".to_string(),
            ":2: `two` is not a literal",
        ),
        (
            "no-status.txt",
            "hello\n".to_string(),
            ":1: expected a `c`, `s` or `v` line",
        ),
        (
            "truncated.txt",
            "s SATISFIABLE\nv 1 2 3\n".to_string(),
            "does not end with 0",
        ),
        ("empty.txt", String::new(), "no `s` line"),
    ];
    for (name, text, fragment) in cases {
        let path = write(dir.path(), name, &text);
        let out = polycover(&["decode", "slothouber-graatsma", "--model", &path]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(fragment) && err.contains(name),
            "{name}: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    let binary = dir.path().join("binary.gz");
    std::fs::write(&binary, [0x1f, 0x8b, 0, 1, 2, 3]).unwrap();
    let out = polycover(&["decode", "soma", "--model", binary.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn check_agrees_on_a_small_puzzle() {
    let out = polycover(&["check", "slothouber-graatsma"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().last(), Some("s mc 1"));
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("c sat varisat"))
            .count(),
        6,
        "{text}"
    );
}
