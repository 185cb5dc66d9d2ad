//! MiniSat, Glucose and Kissat (rustsat's bundled solvers, feature `c-solvers`): counts
//! against the DLX where the solver is incremental, first solutions that `decode`
//! accepts, Kissat's refusal to count, and the answer to a puzzle with no solution.

use polycover::sat::Amo;
use polycover::{Engine, RunOptions, SymmetryMode};

use crate::common::*;

fn run(backend: &str, strategy: &str, threads: usize) -> SatRun {
    sat_run(backend, "mrv", strategy, threads)
}

/// MiniSat and Glucose count like the DLX: Slothouber-Graatsma in every encoding, mode
/// and strategy, Soma up to rotations in every encoding on two threads.
#[test]
fn minisat_and_glucose_count_like_the_dlx() {
    for backend in ["minisat", "glucose"] {
        for mode in [
            SymmetryMode::None,
            SymmetryMode::Rotations,
            SymmetryMode::Reflections,
        ] {
            let c = compile("slothouber-graatsma", mode);
            let dlx = count(&c, Engine::dlx(), 1);
            for amo in Amo::ALL {
                for strategy in ["plain", "cubes"] {
                    let n = sat_count(&c, amo, &run(backend, strategy, 1));
                    assert_eq!(n, dlx, "{backend:?} {mode:?} {amo:?} {strategy:?}");
                }
            }
        }
        // Soma in two encodings: every encoding met Slothouber-Graatsma above, and the
        // other six added 10 s to CI without a path of their own.
        let c = compile("soma", SymmetryMode::Rotations);
        for amo in [Amo::Product, Amo::Ladder] {
            if cfg!(debug_assertions) && amo != Amo::Product {
                continue; // release builds check both
            }
            let n = sat_count(&c, amo, &run(backend, "cubes", 2));
            assert_eq!(n, 480, "{backend:?} soma {amo:?}");
        }
    }
}

/// Kissat is not incremental: through the library it finds a first solution, checked, or
/// shows that there is none, and declines to count, with the reason, before any work.
#[test]
fn kissat_finds_a_first_solution_and_declines_counts() {
    let c = compile("slothouber-graatsma", SymmetryMode::None);
    let engine = run("kissat", "plain", 1).engine;
    let p = &c;
    let (first, _) = p.first(&engine, &RunOptions::default()).unwrap();
    c.matrix()
        .check_solution(&first.expect("a solution"))
        .unwrap();
    let err = p.count(&engine, &RunOptions::default()).unwrap_err();
    assert!(matches!(err, polycover::Error::Usage(_)), "{err}");
    assert!(err.to_string().contains("not incremental"), "{err}");

    let five_t = format!(
        "{}/tests/fixtures/five-t.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let none = polycover::Puzzle::load(&five_t).unwrap();
    let p = none.compile(SymmetryMode::Rotations).unwrap();
    let (first, report) = p.first(&engine, &RunOptions::default()).unwrap();
    assert!(first.is_none() && report.complete, "{report:?}");
}

/// Each backend finds a first solution of a big puzzle through the library, and that
/// solution, written as a solver's answer, is accepted by `decode`; `solve` on the
/// command line names the backend it ran and prints a solution (exit 10). Glucose and
/// Kissat take Bedlam; MiniSat takes the 6x10 pentominoes, because its plain search on
/// Bedlam alone took half a minute of CI.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn each_backend_solves_bedlam_and_decode_accepts_the_model() {
    let dir = tempfile::tempdir().unwrap();
    for (backend, puzzle) in [
        ("minisat", "pentomino-6x10"),
        ("glucose", "bedlam"),
        ("kissat", "bedlam"),
    ] {
        let out = polycover(&["solve", "soma", "--solver", "sat", "--backend", backend]);
        assert_eq!(out.status.code(), Some(10), "{backend:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains(&format!("c solver sat: backend {}", backend)),
            "{text}"
        );
        assert!(text.contains("s SATISFIABLE"), "{text}");

        let c = compile(puzzle, SymmetryMode::Rotations);
        let p = &c;
        let engine = run(backend, "plain", 1).engine;
        let (first, _) = p.first(&engine, &RunOptions::default()).unwrap();
        let first = first.expect("the puzzle has solutions");
        let answer = dir.path().join(format!("{}.out", backend));
        std::fs::write(
            &answer,
            format!(
                "s SATISFIABLE\nv {} 0\n",
                model_literals(c.matrix().num_options(), &first)
            ),
        )
        .unwrap();
        let decoded = polycover(&["decode", puzzle, "--model", answer.to_str().unwrap()]);
        assert_eq!(
            decoded.status.code(),
            Some(10),
            "{backend:?}: {}",
            stderr(&decoded)
        );
    }
}

/// The command line: MiniSat counts Soma's 480; Kissat on a puzzle with no solution says
/// UNSATISFIABLE (exit 20); `count` and `enumerate` with Kissat are refused before any
/// output (exit 2) with the reason and the backends that can.
#[test]
fn the_command_line_counts_with_minisat_and_refuses_kissat_counts() {
    let out = polycover(&["count", "soma", "--solver", "sat", "--backend", "minisat"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("s mc 480"));

    let five_t = format!(
        "{}/tests/fixtures/five-t.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let out = polycover(&["solve", &five_t, "--solver", "sat", "--backend", "kissat"]);
    assert_eq!(out.status.code(), Some(20), "{}", stderr(&out));
    assert!(stdout(&out).contains("s UNSATISFIABLE"));

    for command in ["count", "enumerate"] {
        let out = polycover(&[command, "soma", "--solver", "sat", "--backend", "kissat"]);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{command}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(
            err.contains("not incremental") && err.contains("minisat"),
            "{err}"
        );
    }
}
