//! The CNF path: SAT counts equal DLX counts in every encoding and symmetry mode, DIMACS
//! round trips, and `decode` on good and bad models.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use polycover::sat::Amo;
use polycover::{Engine, Puzzle, Report, RunOptions, SymmetryMode};

use crate::common::*;

fn opts(backend: &str, decide: &str, strategy: &str, threads: usize) -> SatRun {
    sat_run(backend, decide, strategy, threads)
}

fn varisat(strategy: &str) -> SatRun {
    opts("varisat", "mrv", strategy, 1)
}

/// Every symmetry mode a puzzle accepts.
fn modes(p: &Puzzle) -> Vec<SymmetryMode> {
    [
        SymmetryMode::None,
        SymmetryMode::Rotations,
        SymmetryMode::Reflections,
        SymmetryMode::Stack,
    ]
    .into_iter()
    .filter(|&m| p.compile(m).is_ok())
    .collect()
}

/// The small puzzles: the small catalog puzzles, one with a nontrivial stabiliser
/// (Slothouber-Graatsma), copies counted by the totalizer (dominoes), coloured cubes,
/// and one with no solution.
fn small_puzzles() -> Vec<(String, Puzzle)> {
    let mut v: Vec<(String, Puzzle)> = ["soma", "slothouber-graatsma", "hesselink-5"]
        .iter()
        .map(|n| (n.to_string(), Puzzle::load(n).unwrap()))
        .collect();
    v.push((
        "dominoes".into(),
        Puzzle::parse("dominoes.toml", DOMINOES).unwrap(),
    ));
    let five_t = format!(
        "{}/tests/fixtures/five-t.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    v.push(("five-t".into(), Puzzle::load(&five_t).unwrap()));
    v
}

/// The default backend (CaDiCaL with MRV decisions, varisat in builds without it), every
/// encoding, every symmetry mode, both strategies, one and two threads. Soma's 11,520 raw
/// solutions are left to the tests below (every model distinct, the propagator in step):
/// here they cost a minute of CI for no path the smaller raw puzzles do not take.
#[test]
fn sat_counts_equal_dlx_counts_on_small_puzzles() {
    let backend = default_backend();
    for (name, puzzle) in small_puzzles() {
        for mode in modes(&puzzle) {
            if name == "soma" && mode == SymmetryMode::None {
                continue;
            }
            let c = puzzle.compile(mode).unwrap();
            let dlx = count(&c, Engine::dlx(), 1);
            for amo in Amo::ALL {
                for (strategy, threads) in [("plain", 1), ("cubes", 1), ("cubes", 2)] {
                    let o = opts(backend, "mrv", strategy, threads);
                    assert_eq!(
                        sat_count(&c, amo, &o),
                        dlx,
                        "{name} {mode:?} {amo:?} {strategy:?} {threads} threads"
                    );
                }
            }
        }
    }
}

/// CaDiCaL's own decisions, with the models still checked and blocked in one call.
#[test]
#[cfg(feature = "cadical")]
fn cadical_with_its_own_decisions_counts_right() {
    for (name, puzzle) in small_puzzles() {
        for mode in modes(&puzzle) {
            let c = puzzle.compile(mode).unwrap();
            let dlx = count(&c, Engine::dlx(), 1);
            let o = opts("cadical", "solver", "plain", 1);
            assert_eq!(sat_count(&c, Amo::Product, &o), dlx, "{name} {mode:?}");
        }
    }
}

/// varisat, the pure-Rust reference: Slothouber-Graatsma in every encoding, mode and
/// strategy; Soma up to reflections in every encoding and up to rotations in one. (Soma's
/// 11,520 raw solutions take varisat a minute, one call per model: the CaDiCaL test covers
/// them.)
#[test]
fn varisat_counts_equal_dlx_counts() {
    let puzzle = Puzzle::load("slothouber-graatsma").unwrap();
    for mode in modes(&puzzle) {
        let c = puzzle.compile(mode).unwrap();
        let dlx = count(&c, Engine::dlx(), 1);
        for amo in Amo::ALL {
            for strategy in ["plain", "cubes"] {
                let n = sat_count(&c, amo, &varisat(strategy));
                assert_eq!(n, dlx, "{mode:?} {amo:?} {strategy:?}");
            }
        }
    }
    for mode in [SymmetryMode::Rotations, SymmetryMode::Reflections] {
        let c = compile("soma", mode);
        let dlx = count(&c, Engine::dlx(), 1);
        for amo in Amo::ALL {
            let every = mode == SymmetryMode::Reflections && !cfg!(debug_assertions);
            if !every && amo != Amo::Product {
                continue; // release builds check them all
            }
            assert_eq!(
                sat_count(&c, amo, &varisat("cubes")),
                dlx,
                "soma {mode:?} {amo:?}"
            );
        }
    }
}

/// Every raw solution of Soma, found once each, on two workers.
#[test]
fn soma_without_symmetry_breaking_has_11520_distinct_models() {
    let c = compile("soma", SymmetryMode::None);
    let o = opts(default_backend(), "mrv", "cubes", 2);
    let (all, _) = sat_solutions(&c, Amo::Product, &o);
    assert_eq!(all.len(), 11_520);
    for s in &all {
        c.matrix().check_solution(s).unwrap();
    }
}

/// The propagator's invariants, recomputed after every callback (as in debug builds),
/// on a whole enumeration, with and without symmetry clauses.
#[test]
#[cfg(feature = "cadical")]
fn the_propagator_stays_in_step_with_cadical() {
    // Ladder on raw Soma too would add 11,520 paranoid callbacks and no new path.
    for (mode, amos) in [
        (SymmetryMode::Rotations, &[Amo::Product, Amo::Ladder][..]),
        (SymmetryMode::None, &[Amo::Product][..]),
    ] {
        let c = compile("soma", mode);
        for &amo in amos {
            let mut o = opts("cadical", "mrv", "cubes", 1);
            o.engine = o.engine.configure([(Setting::Paranoid, "true")]).unwrap();
            let expected = if mode == SymmetryMode::None {
                11_520
            } else {
                480
            };
            assert_eq!(sat_count(&c, amo, &o), expected, "{mode:?} {amo:?}");
        }
    }
}

/// The count is the same for any number of workers, and so are the solutions.
#[test]
fn the_total_does_not_depend_on_the_thread_count() {
    let c = compile("soma", SymmetryMode::Rotations);
    let backend = default_backend();
    let mut reference: Option<Vec<Vec<u32>>> = None;
    for threads in [1, 2, 3] {
        let (mut all, report) =
            sat_solutions(&c, Amo::Product, &opts(backend, "mrv", "cubes", threads));
        assert!(
            report.complete && report.parts_done == report.parts,
            "{report:?}"
        );
        all.sort();
        match &reference {
            None => reference = Some(all),
            Some(r) => assert_eq!(&all, r, "{threads} threads"),
        }
    }
    assert_eq!(reference.unwrap().len(), 480);
}

/// A mid-size puzzle through SAT on two threads, from the command line (the 4x15 box:
/// a third of the 5x12's time in CI, the same paths).
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn pentomino_4x15_through_sat_on_two_threads() {
    let out = polycover(&[
        "count",
        "pentomino-4x15",
        "--solver",
        "sat",
        "--threads",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("c solver sat: backend"), "{text}");
    assert_eq!(text.lines().last(), Some("s mc 368"), "{text}");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn sat_counts_equal_dlx_counts_on_soma_and_pentominoes() {
    // The default backend only: varisat's plain search took 48 s of CPU here, and varisat
    // is checked on Soma and Slothouber-Graatsma above.
    let c = compile("pentomino-3x20", SymmetryMode::Rotations);
    for amo in [Amo::Bimander, Amo::Pairwise] {
        let o = opts(default_backend(), "mrv", "cubes", 2);
        assert_eq!(sat_count(&c, amo, &o), 2, "{amo:?}");
    }
}

/// Without symmetry breaking the models are all the solutions, so the lex-leader
/// clauses (and nothing else) remove exactly |G| - 1 of every free orbit.
#[test]
fn symmetry_clauses_keep_one_model_per_orbit() {
    let none = compile("slothouber-graatsma", SymmetryMode::None);
    assert_eq!(sat_count(&none, Amo::Ladder, &varisat("plain")), 8);
    let rot = compile("slothouber-graatsma", SymmetryMode::Rotations);
    assert_eq!(sat_count(&rot, Amo::Ladder, &varisat("plain")), 1);
}

fn bedlam_with_deadline(backend: &str, after: Duration) -> (Report, Duration) {
    let c = compile("bedlam", SymmetryMode::Rotations);
    let start = Instant::now();
    let run = SatRun {
        engine: sat_engine(&[(Setting::Backend, backend)]),
        threads: 1,
        deadline: Some(start + after),
    };
    let (_, report) = sat_solutions(&c, Amo::Product, &run);
    (report, start.elapsed())
}

/// A deadline stops CaDiCaL inside its solve call: the count is marked incomplete.
/// (Without the terminate callback this would run for half an hour.)
#[test]
#[cfg(feature = "cadical")]
fn a_deadline_stops_cadical_inside_a_call() {
    let (report, took) = bedlam_with_deadline("cadical", Duration::from_millis(300));
    assert!(!report.complete && !report.interrupted, "{report:?}");
    assert!(report.parts_done < report.parts, "{report:?}");
    assert!(report.solutions < 19_186, "{report:?}");
    assert!(
        took < Duration::from_secs(120),
        "the deadline was not honoured: {took:?}"
    );
}

/// The consumer's `Break` ends the enumeration at once, with exactly as many models
/// handed over as it accepted.
#[test]
fn break_stops_after_exactly_the_models_taken() {
    let p = compile("soma", SymmetryMode::Rotations);
    for backend in [default_backend(), "varisat"] {
        let mut taken = 0;
        let engine = sat_engine(&[(Setting::Backend, backend)]);
        let report = p
            .for_each_solution(
                &engine,
                &RunOptions {
                    threads: 2,
                    ..RunOptions::default()
                },
                &mut |_| {
                    taken += 1;
                    if taken == 7 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            )
            .unwrap();
        assert_eq!(
            (taken, report.solutions.to_u64()),
            (7, Some(7)),
            "{backend:?}"
        );
        assert!(
            !report.interrupted,
            "a Break is no interruption: {report:?}"
        );
    }
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
    assert!(comments.contains(&"c t pmc"));
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
    let p = compile("slothouber-graatsma", SymmetryMode::Rotations);
    let solution = p
        .first(&Engine::dlx(), &RunOptions::default())
        .unwrap()
        .0
        .unwrap();
    let lits = model_literals(p.matrix().num_options(), &solution);
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
        (
            "two-s-lines.txt",
            "s SATISFIABLE\ns SATISFIABLE\nv 1 2 0\n".to_string(),
            ":1: `s SATISFIABLE` has no model: no `v` line comes before the next `s` line (line 2)",
        ),
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
            .filter(|l| l.starts_with(&format!("c sat {}", default_backend())))
            .count(),
        6,
        "{text}"
    );
}

#[test]
#[cfg(feature = "cadical")]
fn cadical_options_from_the_command_line() {
    let ok = polycover(&[
        "count",
        "soma",
        "--solver",
        "sat",
        "--sat-option",
        "chrono=1",
        "--sat-option",
        "shrink=2",
    ]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(
        stdout(&ok).contains(", chrono=1, shrink=2"),
        "{}",
        stdout(&ok)
    );
    assert_eq!(stdout(&ok).lines().last(), Some("s mc 480"));
    let cases = [
        ("nosuchoption=1", "`nosuchoption` is not a CaDiCaL option"),
        ("shrink=9", "shrink=9 is out of range"),
        ("shrink", "`shrink` is not NAME=VALUE"),
        (
            "shrink=x",
            "`x` (in `shrink=x`): a CaDiCaL option's value must be a whole number",
        ),
    ];
    for (arg, fragment) in cases {
        let out = polycover(&["count", "soma", "--solver", "sat", "--sat-option", arg]);
        assert_eq!(out.status.code(), Some(2), "{arg}: {}", stderr(&out));
        assert!(stderr(&out).contains(fragment), "{arg}: {}", stderr(&out));
        assert!(!stdout(&out).contains("s mc"), "{arg}");
    }
    let out = polycover(&["solve", "soma", "--solver", "sat", "--decide", "solver"]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
}

/// Ctrl-C during a SAT count: a clean stop, the partial count on `c` lines, `s UNKNOWN`
/// and exit 130, never `s mc`.
#[test]
#[cfg(all(feature = "cadical", unix))]
fn ctrl_c_stops_a_sat_count_cleanly() {
    let child = crate::common::bin()
        .args(["count", "bedlam", "--solver", "sat", "--threads", "2"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the search has started (the header is out), then interrupt.
    std::thread::sleep(Duration::from_millis(1500));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(130), "{text}\n{}", stderr(&out));
    assert!(text.contains("c stopped by Ctrl-C: "), "{text}");
    assert_eq!(text.lines().last(), Some("s UNKNOWN"), "{text}");
    assert!(!text.contains("s mc"), "{text}");
}

#[test]
fn enumerate_and_solve_through_sat() {
    let out = polycover(&[
        "enumerate",
        "soma",
        "--solver",
        "sat",
        "--limit",
        "3",
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 3);
    let out = polycover(&["solve", "bedlam", "--solver", "sat"]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    assert!(stdout(&out).contains("s SATISFIABLE"));
    let out = polycover(&["solve", "bedlam", "--solver", "sat", "--backend", "varisat"]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
}

/// The lex-leader clauses keep the very solutions the native canonical-form check keeps,
/// not merely as many: the least sorted option list of each orbit. The puzzles need that
/// check (a pinned piece with symmetric placements, Soma's mirror pairs, and dominoes,
/// where nothing can be pinned and the whole group is checked).
#[test]
fn sat_keeps_the_same_representatives_as_the_dlx() {
    let dominoes = Puzzle::parse("dominoes.toml", DOMINOES).unwrap();
    let cases = [
        (compile("slothouber-graatsma", SymmetryMode::Rotations), 1),
        (compile("slothouber-graatsma", SymmetryMode::Reflections), 1),
        (compile("soma", SymmetryMode::Reflections), 240),
        (dominoes.compile(SymmetryMode::Rotations).unwrap(), 0),
    ];
    for (p, want) in cases {
        assert!(p.needs_check(), "{}", p.puzzle().name());
        let mut native = Vec::new();
        p.for_each_solution(&Engine::dlx(), &RunOptions::default(), &mut |s| {
            let mut s = s.options().to_vec();
            s.sort_unstable();
            native.push(s);
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        native.sort();
        if want > 0 {
            assert_eq!(native.len(), want, "{}", p.puzzle().name());
        }
        let mut backends = vec!["varisat"];
        if cfg!(feature = "cadical") {
            backends.push("cadical");
        }
        for backend in backends {
            let (mut sat, _) = sat_solutions(&p, Amo::Pairwise, &opts(backend, "mrv", "cubes", 1));
            for s in &mut sat {
                s.sort_unstable();
            }
            sat.sort();
            assert_eq!(sat, native, "{} {backend:?}", p.puzzle().name());
        }
    }
}
