//! `--amo lazy`: only at-least-one clauses for the exactly-one groups, at-most-one
//! enforced by CaDiCaL's propagator. Its counts equal the DLX's on puzzles with copies,
//! optional cells, count ranges, coloured cubes and no solution, in every symmetry mode,
//! with MRV decisions and CaDiCaL's own; and everything that would read its CNF without
//! the propagator refuses it.

use polycover::sat::Amo;
use polycover::{Engine, Puzzle, SymmetryMode};

use crate::common::*;

fn lazy(decide: &str, strategy: &str, threads: usize) -> SatRun {
    // The encoding is the count's (`sat_count(.., Amo::Lazy, ..)`).
    sat_run("cadical", decide, strategy, threads)
}

fn fixture(name: &str) -> Puzzle {
    Puzzle::load(format!(
        "{}/tests/fixtures/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    ))
    .unwrap()
}

#[test]
fn lazy_counts_equal_dlx_counts() {
    let mut puzzles: Vec<(String, Puzzle)> = ["soma", "slothouber-graatsma", "hesselink-5"]
        .iter()
        .map(|n| (n.to_string(), Puzzle::load(n).unwrap()))
        .collect();
    puzzles.push((
        "dominoes".into(),
        Puzzle::parse("d.toml", DOMINOES).unwrap(),
    ));
    for name in [
        "five-t.toml",
        "chiral-pairs.toml",
        "o-and-dominoes-4x6.toml",
    ] {
        puzzles.push((name.into(), fixture(name)));
    }
    for entry in std::fs::read_dir(format!(
        "{}/tests/fixtures/ranges",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    ))
    .unwrap()
    {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let p = Puzzle::load(path.to_str().unwrap()).unwrap();
            puzzles.push((path.display().to_string(), p));
        }
    }
    for (name, puzzle) in &puzzles {
        for mode in [
            SymmetryMode::None,
            SymmetryMode::Rotations,
            SymmetryMode::Reflections,
            SymmetryMode::Stack,
        ] {
            let Ok(c) = puzzle.compile(mode) else {
                continue;
            };
            let dlx = count(&c, Engine::dlx(), 1);
            for run in [
                lazy("mrv", "plain", 1),
                lazy("mrv", "cubes", 2),
                lazy("solver", "cubes", 1),
            ] {
                let n = sat_count(&c, Amo::Lazy, &run);
                assert_eq!(n, dlx, "{name} {mode:?} {:?}", run.engine);
            }
        }
    }
}

/// Bigger: the 4x15 pentominoes (368) and Bedlam's first solutions, through the
/// command line.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn lazy_counts_the_pentominoes_and_solves_bedlam() {
    let out = polycover(&[
        "count",
        "pentomino-4x15",
        "--solver",
        "sat",
        "--amo",
        "lazy",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("at-most-one lazy"), "{text}");
    assert_eq!(text.lines().last(), Some("s mc 368"), "{text}");
    let out = polycover(&["solve", "bedlam", "--solver", "sat", "--amo", "lazy"]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
}

/// What reads the CNF without CaDiCaL's propagator refuses lazy before any work: the
/// other backends, `dimacs`, `solve --proof`; `bench` gives them skipped rows.
#[test]
fn lazy_is_refused_where_no_propagator_runs() {
    for args in [
        &[
            "count",
            "soma",
            "--solver",
            "sat",
            "--backend",
            "varisat",
            "--amo",
            "lazy",
        ][..],
        #[cfg(feature = "c-solvers")]
        &[
            "solve",
            "soma",
            "--solver",
            "sat",
            "--backend",
            "minisat",
            "--amo",
            "lazy",
        ],
        &["dimacs", "soma", "--amo", "lazy", "-o", "-"],
        &[
            "solve", "soma", "--solver", "sat", "--amo", "lazy", "--proof", "-",
        ],
    ] {
        let out = polycover(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("lazy"), "{args:?}: {}", stderr(&out));
        assert!(!stdout(&out).contains("s "), "{args:?}: {}", stdout(&out));
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("lazy.csv");
    let out = polycover(&[
        "bench",
        "soma",
        "--solvers",
        "sat-cadical,sat-varisat,cadical",
        "--amo",
        "product,lazy",
        "--timeout",
        "20",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&csv).unwrap();
    let row = |engine: &str| {
        text.lines()
            .find(|l| l.contains(&format!(",{engine},lazy,")))
            .unwrap_or_else(|| panic!("no {engine} lazy row: {text}"))
            .to_string()
    };
    assert!(row("sat-cadical").contains(",ok,"), "{text}");
    assert!(row("sat-cadical").contains(",480,"), "{text}");
    assert!(row("sat-varisat").contains("skipped"), "{text}");
    assert!(row("cadical").contains("skipped"), "{text}");
}
