//! Gates for tests that need something besides the Rust toolchain: a program on PATH
//! (Debian packages: CaDiCaL, CryptoMiniSat, MiniZinc with Gecode, Chromium, GNU
//! parallel), the DRAT checker `rate` (crates.io, in target/tools), or Python modules
//! (PyPI, in the virtualenv target/venv). `bash .ci/run` installs all of them.
//!
//! A test that needs such a thing starts with `if !needs(&[...]) { return; }`. When
//! something is missing, the gate prints one line to standard error (written past the
//! harness's capture, so it shows in a passing run too):
//!
//! `skipped <test>: needs <what>; bash .ci/run installs it`
//!
//! and the test returns early, so that `cargo test --release` passes on a machine with
//! only Rust and a C++ compiler. With `POLYCOVER_TEST_REQUIRE_ALL=1` (which `.ci/run`
//! sets) a missing need is a failure with the same line instead: CI never skips silently.
//!
//! What needs the feature `c-solvers` (MiniSat, Glucose, Kissat) is a compile-time
//! matter, `#[cfg(feature = "c-solvers")]`, not a gate.
//!
//! This file is also a module of `tests/schedulers.rs` (its own harness), which gates
//! its trials with [`skip_or_fail`] and [`failure_line`].

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The environment variable that turns a missing need into a failure.
pub const REQUIRE_ALL: &str = "POLYCOVER_TEST_REQUIRE_ALL";

/// One thing a test needs.
#[derive(Clone, Copy, Debug)]
pub enum Need<'a> {
    /// A program on PATH.
    Tool(&'a str),
    /// The DRAT checker `rate`: target/tools/bin/rate, or on PATH.
    Rate,
    /// The test Python ([`python`]) that imports each of these modules.
    Python(&'a [&'a str]),
}

impl Need<'_> {
    /// `None` when present; otherwise what is missing, in words.
    fn missing(&self) -> Option<String> {
        match *self {
            Need::Tool(name) => on_path(name).is_none().then(|| format!("`{name}` on PATH")),
            Need::Rate => rate_path()
                .is_none()
                .then(|| "the DRAT checker `rate` (target/tools/bin/rate)".to_string()),
            Need::Python(modules) => {
                let python = python();
                (!imports(&python, modules))
                    .then(|| format!("the Python modules {} in {python}", modules.join(", ")))
            }
        }
    }
}

/// Whether everything in `needs` is present. If not, the test this thread runs is
/// skipped with a printed line, or fails under `POLYCOVER_TEST_REQUIRE_ALL=1`; the
/// caller returns early on `false`.
pub fn needs(needs: &[Need]) -> bool {
    let missing: Vec<String> = needs.iter().filter_map(Need::missing).collect();
    if missing.is_empty() {
        return true;
    }
    // The standard harness names each test's thread after the test.
    let thread = std::thread::current();
    skip_or_fail(
        require_all(),
        thread.name().unwrap_or("a test"),
        &missing.join(" and "),
    );
    false
}

/// Whether a missing need fails the test (`POLYCOVER_TEST_REQUIRE_ALL=1`).
pub fn require_all() -> bool {
    std::env::var_os(REQUIRE_ALL).is_some_and(|v| v == "1")
}

/// The line a test skipped for `what` prints (and fails with, when all is required).
pub fn skip_line(test: &str, what: &str) -> String {
    format!("skipped {test}: needs {what}; bash .ci/run installs it")
}

/// The failure of a test that misses `what` when all is required.
pub fn failure_line(test: &str, what: &str) -> String {
    format!(
        "{} ({REQUIRE_ALL}=1: a missing need fails)",
        skip_line(test, what)
    )
}

/// Prints the skip line for `test`, or panics with [`failure_line`] when `require_all`.
pub fn skip_or_fail(require_all: bool, test: &str, what: &str) {
    if require_all {
        panic!("{}", failure_line(test, what));
    }
    // Straight to the process's standard error: the harness captures `eprintln!`, and
    // would show the line only for a failing test.
    let _ = writeln!(std::io::stderr().lock(), "{}", skip_line(test, what));
}

/// `name`'s path on PATH, if it is there.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The DRAT checker: the one `.ci/run` installs into target/tools, or `rate` on PATH.
pub fn rate_path() -> Option<PathBuf> {
    let installed =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/tools/bin/rate");
    if installed.is_file() {
        return Some(installed);
    }
    on_path("rate")
}

/// The test Python: `$POLYCOVER_PYTHON`, or the virtualenv `.ci/run` makes
/// (target/venv), which has d4, Ganak, OR-Tools, gbdc, websocket-client, Pillow and
/// trimesh.
pub fn python() -> String {
    let venv = format!(
        "{}/target/venv/bin/python",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    std::env::var("POLYCOVER_PYTHON").unwrap_or(venv)
}

/// Whether `python` runs and imports every module of `modules`.
fn imports(python: &str, modules: &[&str]) -> bool {
    Command::new(python)
        .arg("-c")
        .arg(format!("import {}", modules.join(", ")))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A program no machine has.
#[cfg(test)]
const ABSENT: &str = "polycover-test-absent-program";

/// Run in a child process by [`a_missing_need_skips_and_fails_when_all_are_required`],
/// with and without `POLYCOVER_TEST_REQUIRE_ALL=1`.
#[test]
#[ignore = "a probe: a_missing_need_skips_and_fails_when_all_are_required runs it"]
fn probe_a_missing_need() {
    if !needs(&[Need::Tool("sh"), Need::Tool(ABSENT)]) {
        return;
    }
    panic!("{ABSENT} was found");
}

/// The gate end to end, in this test binary run again as a child: a missing need prints
/// its skip line and passes; with `POLYCOVER_TEST_REQUIRE_ALL=1` the same line fails
/// the test.
#[test]
fn a_missing_need_skips_and_fails_when_all_are_required() {
    let line = skip_line(
        "needs::probe_a_missing_need",
        &format!("`{ABSENT}` on PATH"),
    );
    let probe = |require: Option<&str>| {
        let mut child = Command::new(std::env::current_exe().unwrap());
        child.args(["--ignored", "--exact", "needs::probe_a_missing_need"]);
        child.env_remove(REQUIRE_ALL);
        if let Some(v) = require {
            child.env(REQUIRE_ALL, v);
        }
        let out = child.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("1 passed") || text.contains("1 failed"),
            "{text}"
        );
        (out.status.success(), text)
    };
    for require in [None, Some("0")] {
        let (passed, text) = probe(require);
        assert!(passed, "{require:?}: {text}");
        assert!(text.lines().any(|l| l == line), "{require:?}: {text}");
    }
    let (passed, text) = probe(Some("1"));
    assert!(!passed, "{text}");
    assert!(text.contains(&line), "{text}");
    assert!(text.contains(REQUIRE_ALL), "{text}");
}

/// What is present passes the gate without a word; `Python` and `Rate` name what they
/// miss.
#[test]
fn present_needs_pass_and_missing_ones_are_named() {
    assert!(Need::Tool("sh").missing().is_none());
    assert!(needs(&[Need::Tool("sh")]));
    assert_eq!(
        Need::Tool(ABSENT).missing().as_deref(),
        Some(format!("`{ABSENT}` on PATH").as_str())
    );
    let what = Need::Python(&["polycover_test_absent_module"])
        .missing()
        .expect("no such module");
    assert!(what.contains("polycover_test_absent_module"), "{what}");
    if rate_path().is_none() {
        assert!(Need::Rate.missing().unwrap().contains("rate"));
    }
}
