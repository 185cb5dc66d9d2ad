//! Each exit code means one thing: 0 done, 10 and 20 SAT answers, 2 bad input or usage,
//! 1 a failure while running, 130 Ctrl-C (`sat::ctrl_c_stops_a_sat_count_cleanly`).

use crate::common::*;

fn file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn answers_exit_10_and_20() {
    assert_eq!(polycover(&["solve", "soma"]).status.code(), Some(10));
    let five_t = format!(
        "{}/tests/fixtures/five-t.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let out = polycover(&["solve", &five_t]);
    assert_eq!(out.status.code(), Some(20), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("s UNSATISFIABLE"));
}

/// The count is printed, but a count that differs from the file's published one is a
/// failure: exit 1, with the reason on standard error.
#[test]
fn a_count_that_differs_from_expect_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = file(
        dir.path(),
        "wrong.toml",
        &format!("{}\n[expect]\nnone = 5\n", DOMINOES),
    );
    let out = polycover(&["count", &wrong, "--symmetry", "none"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("c expected 5 (DIFFERS)\n"), "{text}");
    assert_eq!(text.lines().last(), Some("s mc 32"));
    assert!(stderr(&out).contains("[expect] says 5"), "{}", stderr(&out));
    // The right figure passes.
    let right = file(
        dir.path(),
        "right.toml",
        &format!("{}\n[expect]\nnone = 32\n", DOMINOES),
    );
    let out = polycover(&["count", &right, "--symmetry", "none"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("c expected 32 (matches)\n"));
}

#[test]
fn an_output_that_cannot_be_written_exits_1() {
    // A full disk while writing (opening /dev/full for writing is all this does with
    // it: its writes fail with ENOSPC).
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = crate::common::bin()
        .args(["enumerate", "soma", "--limit", "1"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    // A directory that is not there is the user's to fix, found before the work: a
    // usage error, exit 2, as a directory named as the output is.
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("not-there").join("out.txt");
    let out = polycover(&[
        "enumerate",
        "soma",
        "--limit",
        "1",
        "-o",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
}

/// Bad options and option values, and modes a puzzle does not take, are usage errors.
#[test]
fn bad_options_exit_2() {
    for args in [
        &["count", "soma", "--solver", "nope"][..],
        &["count", "soma", "--threads", "many"],
        &["count", "soma", "--solver", "sat", "--sat-option", "nope=1"],
        &["count", "hesselink-5", "--symmetry", "rotations"],
        &["count", "soma", "--symmetry", "stack"],
        &["count", "bedlam", "--symmetry", "reflections"],
        &["bench", "soma", "--timeout", "-1"],
        &["bench", "soma", "--timeout", "nan"],
        &["bench", "soma", "--timeout", "0"],
        &["bench", "soma", "--solvers", "dlx,nope"],
        &["bench", "soma", "--amo", "nope"],
        &["count", "no-such-puzzle"],
    ] {
        let out = polycover(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?}: no message");
    }
}
