//! Issue 46, items 1, 2, 5 and 6: every limit and signal is heeded where the fourth new
//! user found one ignored. varisat inside a solver call (its `--timeout`, a first
//! Ctrl-C); a FIFO's other end that never comes (`--timeout` on an output without a
//! reader and an input without a writer); a signal before the search listens, which
//! must still end on an `s` line; and the default engine, which must never pick one that
//! refuses.
//!
//! Every bound here is a guard against a hang, far above the time a run takes (a
//! `--timeout 2` run ends in about 2 s): it proves that the run ends, not how fast.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use crate::common::{
    collect, mkfifo, polycover, rest_of_stderr, signal, spawn, stderr, stdout, wait_at_most,
};

/// Far above the seconds a run with `--timeout 2` or `3` takes, even on a loaded machine;
/// the runs these tests guard against went on for minutes.
const ENDS_WITHIN: Duration = Duration::from_secs(30);

/// 60 cells of tetrominoes with one T: colour the 6x10 board as a chessboard, and each
/// L, S and I covers two black and two white cells, the T three of one colour. So no
/// tiling, and a SAT solver needs far longer than any test to learn it (varisat: minutes).
const TETROMINOES: &str = r#"name = "tetrominoes 6x10, one T (no tiling)"
box = [6, 10, 1]

[[piece]]
name = "T"
cells = [[0,0,0], [1,0,0], [2,0,0], [1,1,0]]

[[piece]]
name = "L"
cells = [[0,0,0], [1,0,0], [2,0,0], [0,1,0]]
count = 5

[[piece]]
name = "S"
cells = [[0,0,0], [1,0,0], [1,1,0], [2,1,0]]
count = 4

[[piece]]
name = "I"
cells = [[0,0,0], [1,0,0], [2,0,0], [3,0,0]]
count = 5
"#;

/// 25 Y pentacubes in a 5x5x5 box: copies of one piece, so the default engine looks at
/// the memo, whose sweep's widest frontier (71 cells) no machine's memory holds.
const Y_PENTACUBES: &str = r#"name = "25 Y pentacubes in a 5x5x5 box"
box = [5, 5, 5]

[[piece]]
name = "Y"
cells = [[0,0,0], [1,0,0], [2,0,0], [3,0,0], [1,1,0]]
count = 25
"#;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs to the end, at most [`ENDS_WITHIN`]: (exit code, standard output, standard error).
fn run_guarded(args: &[&str]) -> (i32, String, String) {
    let mut child = spawn(args);
    let out = collect(&mut child);
    let status = wait_at_most(&mut child, ENDS_WITHIN).unwrap_or_else(|| {
        panic!(
            "`polycover {}` still ran after {ENDS_WITHIN:?}",
            args.join(" ")
        )
    });
    let code = status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {status:?}"));
    (code, out.join().unwrap(), rest_of_stderr(&mut child))
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn varisat_stops_at_its_timeout_inside_a_solver_call() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "tetrominoes.toml", TETROMINOES);
    let start = Instant::now();
    let (code, out, err) = run_guarded(&[
        "solve",
        &puzzle,
        "--solver",
        "sat",
        "--backend",
        "varisat",
        "--timeout",
        "2",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("c stopped by the timeout before a solution"),
        "{out}"
    );
    assert_eq!(last_line(&out), "s UNKNOWN", "{out}");
    eprintln!(
        "varisat solve --timeout 2 ended after {:?}",
        start.elapsed()
    );

    // A count (cube and conquer, one varisat per worker) stops the same way.
    let (code, out, err) = run_guarded(&[
        "count",
        "bedlam",
        "--solver",
        "sat",
        "--backend",
        "varisat",
        "--timeout",
        "2",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("c stopped by the timeout"), "{out}");
    assert_eq!(last_line(&out), "s UNKNOWN", "{out}");
}

#[test]
fn a_first_ctrl_c_stops_varisat_inside_a_solver_call() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "tetrominoes.toml", TETROMINOES);
    let mut child = spawn(&["solve", &puzzle, "--solver", "sat", "--backend", "varisat"]);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut out = String::new();
    // The `c cnf` line comes just before the solver's one call.
    for line in lines.by_ref() {
        let line = line.unwrap();
        out.push_str(&line);
        out.push('\n');
        if line.starts_with("c cnf") {
            break;
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "INT");
    let rest = std::thread::spawn(move || lines.map(|l| l.unwrap() + "\n").collect::<String>());
    let status = wait_at_most(&mut child, ENDS_WITHIN).expect("a first Ctrl-C ends varisat's call");
    out.push_str(&rest.join().unwrap());
    assert_eq!(
        status.code(),
        Some(130),
        "{out}{}",
        rest_of_stderr(&mut child)
    );
    assert!(
        out.contains("c stopped by Ctrl-C before a solution"),
        "{out}"
    );
    assert_eq!(last_line(&out), "s UNKNOWN", "{out}");
}

#[test]
fn an_output_fifo_without_a_reader_ends_at_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.fifo");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let (code, out, err) = run_guarded(&[
        "enumerate",
        "soma",
        "--limit",
        "3",
        "-o",
        fifo,
        "--timeout",
        "2",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("had no reader"), "{err}");
    // `sample` writes through the same output.
    let (code, _, err) = run_guarded(&[
        "sample",
        "soma",
        "-n",
        "2",
        "--seed",
        "1",
        "-o",
        fifo,
        "--timeout",
        "2",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("had no reader"), "{err}");
    // `solve --svg`: the solution is found, its picture waits for a reader; the
    // deadline ends the run on a `c stopped` line and `s UNKNOWN` (issue 62, 11: there
    // was no `s` line).
    let (code, out, err) = run_guarded(&["solve", "soma", "--svg", fifo, "--timeout", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("had no reader"), "{out}");
    assert_eq!(last_line(&out), "s UNKNOWN", "{out}");
}

#[test]
fn an_input_fifo_without_a_writer_ends_at_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.fifo");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let (code, out, err) = run_guarded(&["count", fifo, "--timeout", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    // A count the timeout stopped before its search still ends on an `s` line.
    assert!(
        out.contains("c stopped by the timeout while waiting for"),
        "{out}{err}"
    );
    assert!(out.ends_with("s UNKNOWN\n"), "{out}{err}");

    // A writer that comes late, within the timeout, is read whole.
    let writer_fifo = fifo.to_string();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        std::fs::write(
            &writer_fifo,
            std::fs::read(format!("{}/examples/tromino-box.toml", crate::common::ROOT)).unwrap(),
        )
        .unwrap();
    });
    let (code, out, err) = run_guarded(&["count", fifo, "--timeout", "20"]);
    writer.join().unwrap();
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(last_line(&out), "s mc 9", "{out}");
}

/// Whether the process has started its signal-handling thread (named `signals`): the
/// handlers are installed from then on.
fn handlers_installed(child: &Child) -> bool {
    let tasks = format!("/proc/{}/task", child.id());
    let Ok(entries) = std::fs::read_dir(tasks) else {
        return false;
    };
    entries.flatten().any(|t| {
        std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.trim() == "signals")
    })
}

#[test]
fn a_signal_before_the_search_listens_still_ends_on_an_s_line() {
    for command in ["count", "solve"] {
        let mut child = spawn(&[command, "bedlam", "--solver", "sat"]);
        let out = collect(&mut child);
        let start = Instant::now();
        while !handlers_installed(&child) {
            assert!(start.elapsed() < ENDS_WITHIN, "no signals thread");
            std::thread::sleep(Duration::from_millis(1));
        }
        // At once: the puzzle is still being read, or its CNF built, before the search
        // listens (or, on a slow machine, the search has just begun).
        signal(&child, "TERM");
        let status = wait_at_most(&mut child, ENDS_WITHIN).expect("SIGTERM ends the run");
        let out = out.join().unwrap();
        assert_eq!(status.code(), Some(143), "{command}: {out}");
        assert!(out.contains("c stopped by SIGTERM"), "{command}: {out}");
        assert_eq!(last_line(&out), "s UNKNOWN", "{command}: {out}");
    }
}

#[test]
fn the_default_engine_never_picks_one_that_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = write(dir.path(), "y.toml", Y_PENTACUBES);
    // The whole count takes the bitset engine minutes: two seconds of it show the choice.
    let (code, out, err) = run_guarded(&["count", &puzzle, "--symmetry", "none", "--timeout", "2"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("c solver bits"), "{out}");
    assert!(
        out.contains("neither the memo's table nor the frontier's layers would fit"),
        "{out}"
    );
    assert_eq!(last_line(&out), "s UNKNOWN", "{out}");

    // The memo named, with any memory: a refusal that names what would run, not --memory.
    let o = polycover(&[
        "count",
        &puzzle,
        "--symmetry",
        "none",
        "--solver",
        "memo",
        "--memory",
        "64G",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(e.contains("--solver bits"), "{e}");
    assert!(!e.contains("larger --memory"), "{e}");

    // sample draws only through the memo's counts: it says so, and what lists them.
    let o = polycover(&["sample", &puzzle, "--symmetry", "none", "--memory", "64G"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(e.contains("the bits engine lists its solutions"), "{e}");
    assert!(!e.contains("larger --memory"), "{e}");
}

/// A signal during `check` ends it as `--timeout` does, with the signal's code (issue
/// 62, the new user's sweep): the rows finished so far, then `c stopped by SIGNAL: ENGINE
/// had counted N so far` and `s UNKNOWN` (it used to end at the table's header, the
/// engine unnamed, with no `s` line).
#[test]
fn a_signal_during_check_says_unknown() {
    for (name, code) in [("INT", 130), ("TERM", 143)] {
        let mut child = crate::common::spawn(&["check", "pentomino-6x10"]);
        let out = crate::common::collect(&mut child);
        std::thread::sleep(std::time::Duration::from_millis(700));
        crate::common::signal(&child, name);
        let status = crate::common::wait_at_most(&mut child, std::time::Duration::from_secs(30))
            .expect("it ends");
        let out = out.join().unwrap();
        assert_eq!(status.code(), Some(code), "{name}: {out}");
        assert!(out.trim_end().ends_with("s UNKNOWN"), "{name}: {out}");
        assert!(out.contains("c stopped by"), "{name}: {out}");
        assert!(
            !out.contains("DIFFERS") && !out.contains("s mc"),
            "{name}: {out}"
        );
    }
}
