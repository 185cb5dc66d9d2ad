//! The defects a new user found (issue 11), one test each, and `--timeout`.

use crate::common::*;

/// Durations too long for the clock are no panic: `1e19` seconds means "no deadline" and
/// `1e300` is refused (see `exit_codes::bad_options_exit_2`).
#[test]
fn huge_timeouts_do_not_panic() {
    let out = polycover(&["bench", "soma", "--timeout", "1e19", "--solvers", "dlx"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = polycover(&["count", "soma", "--timeout", "1e19"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("s mc 480"));
}

#[test]
fn thread_counts_are_bounded() {
    for bad in ["0", "100000", "two"] {
        let out = polycover(&["count", "soma", "--threads", bad]);
        assert_eq!(out.status.code(), Some(2), "--threads {bad}");
        assert!(stderr(&out).contains("1 to 1024"), "{}", stderr(&out));
    }
    let out = polycover(&["count", "soma", "--threads", "1024"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A run stopped by `--timeout` says what it found on `c` lines, never `s mc`, and
/// exits 1; each engine and command honours it.
#[test]
fn timeout_stops_count_solve_and_enumerate() {
    for solver in ["bits", "dlx", "sat"] {
        let out = polycover(&[
            "count",
            "bedlam",
            "--timeout",
            "0.3",
            "--threads",
            "1",
            "--solver",
            solver,
        ]);
        assert_eq!(out.status.code(), Some(1), "{solver}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("c stopped by the timeout: "), "{text}");
        assert_eq!(text.lines().last(), Some("s UNKNOWN"), "{text}");
        assert!(!text.contains("s mc"), "{text}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("e.txt");
    let out = polycover(&[
        "enumerate",
        "bedlam",
        "--symmetry",
        "none",
        "--timeout",
        "0.3",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("c stopped by the timeout: "),
        "{}",
        stderr(&out)
    );
    // A solve that finds its solution in time is unaffected.
    let out = polycover(&["solve", "soma", "--timeout", "10"]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
}
