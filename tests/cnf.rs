//! The CNF's size and its compilation: many copies of a piece encoded in linear size, the
//! size counted before the CNF is built and refused past the limit without `--force`,
//! and the deadline and Ctrl-C holding while the CNF is compiled and loaded (issue 22,
//! item 7); the threads a plain SAT count reports (item 26).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use polycover::sat::{Amo, Formula};
use polycover::{Engine, Problem, RunOptions, SymmetryMode};

use crate::common::*;

/// `n` dominoes filling a box.
fn dominoes(x: usize, y: usize, z: usize) -> String {
    format!(
        "name = \"dominoes {x}x{y}x{z}\"\nbox = [{x}, {y}, {z}]\n[[piece]]\nname = \"d\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = {}\n",
        x * y * z / 2
    )
}

/// 20x20x20 with two one-copy monominoes: the at-most-one over one monomino's 8,000
/// placements takes 32 M clauses pairwise, past the limit.
const PAST_THE_LIMIT: &str = r#"
name = "past the limit"
box = [20, 20, 20]
[[piece]]
name = "m"
cells = [[0,0,0]]
[[piece]]
name = "n"
cells = [[0,0,0]]
[[piece]]
name = "d"
cells = [[0,0,0], [1,0,0]]
count = 3999
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Standard output, standard error and the exit code of a run, killed (and the test
/// failed) should it outlive a generous hang guard; `interrupt` sends SIGINT once the
/// `c cnf` header line is out and the compilation has had a moment to start.
fn run_guarded(args: &[&str], interrupt: bool) -> (String, String, Option<i32>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let mut child = crate::common::spawn(args);
    // The hang guard: kills the run after 180 s. No assertion on the time itself.
    let ended = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let (ended, pid) = (Arc::clone(&ended), child.id().to_string());
        std::thread::spawn(move || {
            let guard = Instant::now() + Duration::from_secs(180);
            while Instant::now() < guard {
                if ended.load(Ordering::Relaxed) {
                    return false;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
            true
        })
    };
    let mut err = String::new();
    let mut errors = child.stderr.take().unwrap();
    let error_reader = std::thread::spawn(move || {
        errors.read_to_string(&mut err).unwrap();
        err
    });
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    let mut line = String::new();
    while lines.read_line(&mut line).unwrap() > 0 {
        text += &line;
        if interrupt && line.starts_with("c cnf ") {
            // The compilation starts right after this line and takes seconds.
            std::thread::sleep(Duration::from_millis(300));
            crate::common::signal(&child, "INT");
            lines.read_to_string(&mut text).unwrap();
            break;
        }
        line.clear();
    }
    let status = child.wait().unwrap();
    ended.store(true, Ordering::Relaxed);
    let killed = watchdog.join().unwrap();
    let err = error_reader.join().unwrap();
    assert!(
        !killed,
        "polycover {args:?} still ran after the hang guard:\n{text}{err}"
    );
    (text, err, status.code())
}

/// The number after `key` on the first line starting with `prefix`.
fn figure(text: &str, prefix: &str, key: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.starts_with(prefix))?;
    let (before, _) = line.split_once(key)?;
    before
        .split_whitespace()
        .last()?
        .trim_matches(',')
        .parse()
        .ok()
}

/// 2,048 dominoes in a 16x16x16 box with `--timeout 2`: a stopped run (or a refusal),
/// never a count, in bounded memory: the CNF is 1.8 M clauses, not 40.7 M (9.9 GB for
/// `count`, 6 GB for `solve` before).
#[test]
fn a_timeout_stops_the_dominoes_box() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "dominoes-16.toml", &dominoes(16, 16, 16));
    let puzzle = puzzle.to_str().unwrap();
    for command in ["count", "solve"] {
        let args = [
            command,
            puzzle,
            "--solver",
            "sat",
            "--timeout",
            "2",
            "--threads",
            "1",
        ];
        let args = if command == "count" {
            &args[..]
        } else {
            &args[..6]
        };
        let (out, err, code) = run_guarded(args, false);
        assert!(!out.contains("s mc"), "{command}: {out}");
        if code == Some(2) {
            assert!(err.contains("--force"), "{command}: {err}");
            continue;
        }
        // On a quiet machine `solve` finds its tiling before the deadline (1.2 s): then
        // it answers, within the same size and memory bounds.
        if command == "solve" && code == Some(10) {
            assert!(out.contains("\ns SATISFIABLE\n"), "{out}");
        } else {
            assert_eq!(code, Some(1), "{command}: {out}{err}");
            assert!(out.contains("\ns UNKNOWN\n"), "{command}: {out}");
            assert!(out.contains("c stopped by the timeout"), "{command}: {out}");
        }
        let clauses = figure(&out, "c cnf ", " clauses").expect("a c cnf line");
        assert!(clauses < 5e6, "{command}: {clauses} clauses");
        let last = out.lines().find(|l| l.contains("peak memory"));
        if let Some(mib) = last.and_then(|l| figure(l, "c ", " MiB")) {
            assert!(mib < 2048.0, "{command}: peak memory {mib} MiB");
        }
    }
}

/// A pairwise CNF of 37 M clauses, forced, with `--timeout 1`: the compilation itself
/// stops (a stopped run, exit 1, `s UNKNOWN`).
#[test]
fn the_deadline_holds_while_the_cnf_is_compiled() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "big.toml", PAST_THE_LIMIT);
    let args = [
        "count",
        puzzle.to_str().unwrap(),
        "--solver",
        "sat",
        "--amo",
        "pairwise",
        "--force",
        "--threads",
        "1",
        "--timeout",
        "1",
    ];
    let (out, err, code) = run_guarded(&args, false);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("stopped while compiling the CNF"), "{out}");
    assert!(out.contains("c stopped by the timeout"), "{out}");
    assert!(out.ends_with("s UNKNOWN\n"), "{out}");
}

/// Ctrl-C (SIGINT) while the same CNF is compiled: the header is out, the run stops
/// cleanly with exit 130 and `s UNKNOWN`.
#[test]
fn ctrl_c_holds_while_the_cnf_is_compiled() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "big.toml", PAST_THE_LIMIT);
    let args = [
        "count",
        puzzle.to_str().unwrap(),
        "--solver",
        "sat",
        "--amo",
        "pairwise",
        "--force",
        "--threads",
        "1",
    ];
    let (out, err, code) = run_guarded(&args, true);
    assert_eq!(code, Some(130), "{out}{err}");
    assert!(out.contains("c cnf "), "{out}");
    assert!(!out.contains("s mc"), "{out}");
    assert!(out.contains("c stopped by Ctrl-C"), "{out}");
    assert!(out.ends_with("s UNKNOWN\n"), "{out}");
}

/// Every command that builds a CNF refuses one past the limit, at once, with exit 2 and
/// a message that gives the size and the limit and names `--force`; `dimacs` writes
/// nothing.
#[test]
fn a_cnf_past_the_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "big.toml", PAST_THE_LIMIT);
    let puzzle = puzzle.to_str().unwrap();
    let cnf = dir.path().join("big.cnf");
    let sat = ["--solver", "sat", "--amo", "pairwise"];
    let runs: Vec<Vec<&str>> = vec![
        [&["count", puzzle][..], &sat].concat(),
        [&["solve", puzzle][..], &sat].concat(),
        [&["enumerate", puzzle][..], &sat].concat(),
        vec![
            "dimacs",
            puzzle,
            "--amo",
            "pairwise",
            "-o",
            cnf.to_str().unwrap(),
        ],
        vec!["check", puzzle],
    ];
    for args in runs {
        let (out, err, code) = run_guarded(&args, false);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        for needle in ["--force", "10000000 clauses", "clauses and"] {
            assert!(err.contains(needle), "{args:?}: {err}");
        }
        assert!(!out.contains("s mc"), "{args:?}: {out}");
    }
    assert!(!cnf.exists());
}

/// The clauses and variables of a DIMACS file's `p cnf` line.
fn dimacs_size(path: &Path, mode: &str) -> (f64, f64) {
    let out = polycover(&[
        "dimacs",
        path.to_str().unwrap(),
        "--symmetry",
        mode,
        "-o",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let p = text.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let fields: Vec<f64> = p[6..].split(' ').map(|f| f.parse().unwrap()).collect();
    (fields[1], fields[0])
}

/// k dominoes are an exactly-k over their placements: the CNF grows linearly with the
/// box. From 4x4x4 to 8x8x8 the placements grow 9.3 times; a totalizer's clauses grew
/// 36 times (n·k), these grow about as the placements.
#[test]
fn many_copies_take_linear_size() {
    let dir = tempfile::tempdir().unwrap();
    let small = write(dir.path(), "d4.toml", &dominoes(4, 4, 4));
    let large = write(dir.path(), "d8.toml", &dominoes(8, 8, 8));
    let options = |path: &Path| {
        Problem::load(path, Some(SymmetryMode::None))
            .unwrap()
            .matrix()
            .num_options() as f64
    };
    let growth = options(&large) / options(&small);
    for mode in ["none", "rotations"] {
        let (c4, v4) = dimacs_size(&small, mode);
        let (c8, v8) = dimacs_size(&large, mode);
        assert!(c8 / c4 < 1.5 * growth, "{mode}: clauses {c4} -> {c8}");
        assert!(v8 / v4 < 1.5 * growth, "{mode}: variables {v4} -> {v8}");
    }
}

/// The size the header gives before compiling is the compiled formula's, exactly, in
/// every encoding: catalog puzzles, copies (adder and totalizer), ranges, optional cells.
#[test]
fn the_counted_size_is_the_compiled_size() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        write(dir.path(), "d4.toml", &dominoes(4, 4, 2)),
        write(dir.path(), "mixed.toml", MIXED),
        write(dir.path(), "ranges.toml", RANGES),
        write(dir.path(), "lower.toml", LOWER_BOUND),
    ];
    let mut specs: Vec<PathBuf> = ["soma", "pentomino-6x10", "bedlam"]
        .iter()
        .map(PathBuf::from)
        .collect();
    specs.extend(files);
    specs.push(PathBuf::from(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        "/tests/fixtures/ranges/coloured-bars.toml"
    )));
    specs.push(PathBuf::from(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        "/tests/fixtures/ranges/optional-corner.toml"
    )));
    for spec in &specs {
        for mode in [SymmetryMode::None, SymmetryMode::Rotations] {
            let p = Problem::load(spec, Some(mode)).unwrap();
            for amo in Amo::ALL {
                let counted = Formula::size(&p, amo);
                let f = Formula::of(&p, amo);
                assert_eq!(
                    (counted.variables, counted.clauses, counted.literals),
                    (
                        f.num_vars as u64,
                        f.num_clauses() as u64,
                        f.num_literals() as u64
                    ),
                    "{} {mode:?} {}",
                    spec.display(),
                    amo.name()
                );
            }
        }
    }
}

/// 9 dominoes (a binary adder) and 2 monominoes (a totalizer) in 5x2x2.
const MIXED: &str = r#"
name = "dominoes and monominoes"
box = [5, 2, 2]
[[piece]]
name = "d"
cells = [[0,0,0], [1,0,0]]
count = 9
[[piece]]
name = "m"
cells = [[0,0,0]]
count = 2
"#;

/// Ranges past the totalizer's: both bounds for the monominoes, an upper bound only for
/// the dominoes (12 cells: m + 2d = 12).
const RANGES: &str = r#"
name = "wide ranges"
box = [4, 3, 1]
[[piece]]
name = "m"
cells = [[0,0,0]]
count = [2, 10]
[[piece]]
name = "d"
cells = [[0,0,0], [1,0,0]]
count = [0, 9]
"#;

/// A lower bound only (9 or more of 12 possible monominoes).
const LOWER_BOUND: &str = r#"
name = "lower bound"
box = [4, 3, 1]
[[piece]]
name = "m"
cells = [[0,0,0]]
count = [9, 12]
[[piece]]
name = "d"
cells = [[0,0,0], [1,0,0]]
count = [0, 9]
"#;

/// Copies and ranges encoded by the adder count as the DLX counts, on CaDiCaL and
/// varisat, with and without symmetry.
#[test]
fn copies_count_as_the_dlx_counts() {
    // Small enough for varisat: at most 1,845 solutions each.
    let none_and_rotations = [SymmetryMode::None, SymmetryMode::Rotations];
    let puzzles = [
        (dominoes(2, 3, 4), &none_and_rotations[..]),
        (dominoes(3, 3, 2), &none_and_rotations[..]),
        (MIXED.to_string(), &none_and_rotations[1..]),
        (RANGES.to_string(), &none_and_rotations[..]),
        (LOWER_BOUND.to_string(), &none_and_rotations[..]),
    ];
    let mut backends = vec!["varisat"];
    if cfg!(feature = "cadical") {
        backends.push("cadical");
    }
    for (text, modes) in &puzzles {
        for &mode in *modes {
            let c = compile_text(text, mode);
            let dlx = count(&c, Engine::dlx(), 1);
            assert!(dlx > 0, "{}", c.puzzle().name());
            for &backend in &backends {
                let run = SatRun {
                    engine: sat_engine(&[(Setting::Backend, backend)]),
                    threads: 2,
                    deadline: None,
                };
                assert_eq!(
                    sat_count(&c, Amo::Product, &run),
                    dlx,
                    "{} {mode:?} {backend}",
                    c.puzzle().name(),
                );
            }
        }
    }
}

/// `--strategy plain` runs one solver: the count says one thread, not the two asked.
#[test]
fn a_plain_count_reports_the_thread_it_ran_on() {
    let out = polycover(&[
        "count",
        "soma",
        "--solver",
        "sat",
        "--strategy",
        "plain",
        "--threads",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\nc threads 1 (of 2 asked), "), "{text}");
    // Cubes run on the threads asked.
    let out = polycover(&["count", "soma", "--solver", "sat", "--threads", "2"]);
    assert!(stdout(&out).contains("\nc threads 2, "), "{}", stdout(&out));
}

/// The library's run refuses the same way, and `force` lets a run through (stopped here
/// by its deadline during the compilation, with no solution reported).
#[test]
fn the_library_refuses_and_forces_too() {
    let p = compile_text(PAST_THE_LIMIT, SymmetryMode::Rotations);
    let engine = |force: bool| {
        sat_engine(&[
            (Setting::Amo, "pairwise"),
            (Setting::Force, &force.to_string()),
        ])
    };
    let e = p.count(&engine(false), &RunOptions::default()).unwrap_err();
    assert!(matches!(e, polycover::Error::Usage(_)), "{e}");
    let report = p
        .count(
            &engine(true),
            &RunOptions {
                stop: polycover::Stop::new()
                    .until(Some(Instant::now() + Duration::from_millis(200))),
                ..RunOptions::default()
            },
        )
        .unwrap();
    assert!(!report.complete && report.timed_out, "{report:?}");
    assert_eq!(report.solutions, 0);
}

/// A build without CaDiCaL refuses `--backend cadical` as it parses the arguments: no
/// header, no CNF, exit 2 (`cargo test --no-default-features --features cli --test lib -- cnf::`).
#[cfg(not(feature = "cadical"))]
#[test]
fn cadical_is_refused_at_once_in_a_build_without_it() {
    for args in [
        &["count", "soma", "--solver", "sat", "--backend", "cadical"][..],
        &["check", "soma", "--backend", "cadical"][..],
    ] {
        let out = polycover(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
        assert!(stderr(&out).contains("cadical"), "{}", stderr(&out));
    }
}
