//! Round trips through real external tools: CaDiCaL and CryptoMiniSat (Debian packages)
//! and the model counters d4 and Ganak (PyPI packages, run by `tests/count_models.py`).
//! `.ci/run` installs all of them; a test whose tool is missing says so and is skipped
//! (a failure under `POLYCOVER_TEST_REQUIRE_ALL=1`, see `tests/needs.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use crate::needs::on_path;

/// `name` on PATH; its test checked that it is there ([`needs`]).
fn tool(name: &str) -> PathBuf {
    on_path(name)
        .unwrap_or_else(|| panic!("`{name}` is not on PATH: run `bash .ci/run`, which installs it"))
}

fn dimacs(dir: &Path, puzzle: &str, args: &[&str]) -> String {
    let path = dir.join(format!(
        "{}-{}.cnf",
        puzzle.replace('/', "_"),
        args.join("_").replace('-', "").replace('/', "of")
    ));
    let path = path.to_str().unwrap().to_string();
    let mut all = vec!["dimacs", puzzle, "-o", &path];
    all.extend_from_slice(args);
    let out = polycover(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    path
}

/// Runs CaDiCaL on our DIMACS of `puzzle` (it must answer SAT, exit 10) and hands its
/// answer to `decode`, whose exit code must be 10 too; returns what `decode` printed.
fn cadical_answer_decoded(puzzle: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let cnf = dimacs(dir.path(), puzzle, &[]);
    let out = Command::new(tool("cadical"))
        .args(["-q", &cnf])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(10),
        "cadical on {puzzle}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer = dir.path().join("answer");
    std::fs::write(&answer, &out.stdout).unwrap();
    let decoded = polycover(&["decode", puzzle, "--model", answer.to_str().unwrap()]);
    assert_eq!(decoded.status.code(), Some(10), "{}", stderr(&decoded));
    stdout(&decoded)
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn cadical_solves_bedlam_and_decode_accepts_it() {
    if !needs(&[Need::Tool("cadical")]) {
        return;
    }
    let layers: Vec<String> = cadical_answer_decoded("bedlam")
        .lines()
        .skip_while(|l| *l != "s SATISFIABLE")
        .skip(2)
        .map(String::from)
        .collect();
    assert_eq!(layers.len(), 4);
    let letters: String = layers
        .concat()
        .chars()
        .filter(|c| c.is_ascii_uppercase())
        .collect();
    assert_eq!(letters.len(), 64);
}

/// A coloured-cube puzzle goes through the same DIMACS and decode path.
#[test]
fn cadical_solves_a_coloured_cube_puzzle_and_decode_accepts_it() {
    if !needs(&[Need::Tool("cadical")]) {
        return;
    }
    let decoded = cadical_answer_decoded("hesselink-5");
    assert!(decoded.contains("AEDDEA"), "{decoded}");
}

/// CryptoMiniSat enumerates the models projected on `c ind`; their number is the count.
#[test]
fn cryptominisat_enumerates_the_projected_models() {
    if !needs(&[Need::Tool("cryptominisat5")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, mode, amo, want) in [
        ("soma", "reflections", "product", 240),
        ("slothouber-graatsma", "none", "ladder", 8),
        // Copies of one piece up to rotation (the 3x20 pentominoes took CryptoMiniSat
        // half a minute here for their 2 models).
        (
            "tests/fixtures/dominoes-4x6.toml",
            "rotations",
            "bimander",
            98,
        ),
    ] {
        let cnf = dimacs(
            dir.path(),
            puzzle,
            &["--symmetry", mode, "--amo", amo, "--projection", "ind"],
        );
        let out = Command::new(tool("cryptominisat5"))
            .args(["--maxsol", "1000000", &cnf])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let models = text.lines().filter(|l| *l == "s SATISFIABLE").count();
        assert_eq!(models, want, "{puzzle} {mode} {amo}");
        // Each reported model decodes to a valid solution.
        let first: String = text
            .split("s SATISFIABLE")
            .nth(1)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with('v'))
            .collect::<Vec<_>>()
            .join("\n");
        let answer = dir.path().join("cms.answer");
        std::fs::write(&answer, format!("s SATISFIABLE\n{first}\n")).unwrap();
        // CMS prints only the independent-support variables when projecting: a partial model.
        let decoded = polycover(&["decode", puzzle, "--model", answer.to_str().unwrap()]);
        assert_eq!(
            decoded.status.code(),
            Some(10),
            "{puzzle}: {}",
            stderr(&decoded)
        );
    }
}

fn count_with(counter: &str, cnf: &str) -> u64 {
    let script = format!(
        "{}/tests/count_models.py",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let out = Command::new(python())
        .args([&script, counter, cnf])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {}: {e}; run `bash .ci/run`, which makes the virtualenv",
                python()
            )
        });
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{counter}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    polycover::sat::Answer::parse_count(&text)
        .and_then(|n| n.to_u64())
        .unwrap_or_else(|| panic!("{counter}: no count in its output: {text}"))
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn d4_counts_the_projected_models() {
    if !needs(&[Need::Python(&["py_d4"])]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, mode, amo, want) in [
        ("soma", "rotations", "product", 480),
        ("soma", "rotations", "ladder", 480),
        // Not the pentomino 8x8 with a hole (65): d4 took two minutes over it.
        (
            "tests/fixtures/dominoes-4x6.toml",
            "rotations",
            "product",
            98,
        ),
        ("slothouber-graatsma", "rotations", "pairwise", 1),
    ] {
        let cnf = dimacs(dir.path(), puzzle, &["--symmetry", mode, "--amo", amo]);
        assert_eq!(count_with("d4", &cnf), want, "{puzzle} {mode} {amo}");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn ganak_counts_the_projected_models() {
    if !needs(&[Need::Python(&["pyganak"])]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, mode, amo, want) in GANAK_CASES {
        let cnf = dimacs(dir.path(), puzzle, &["--symmetry", mode, "--amo", amo]);
        assert_eq!(count_with("ganak", &cnf), *want, "{puzzle} {mode} {amo}");
    }
}

/// `dimacs --certified`, the CNF a certificate certifies (a variable per placement, no
/// auxiliary variable, no symmetry breaking): d4 and Ganak count every solution, as
/// polycover does. On the 2x4x6 dominoes both count it in seconds and run out of any
/// reasonable time on the default CNF (product at-most-one and a totalizer).
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn model_counters_count_the_certified_cnf() {
    if !needs(&[Need::Python(&["py_d4", "pyganak"])]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let boxed = dir.path().join("d246.toml");
    std::fs::write(
        &boxed,
        "name = \"Dominoes 2x4x6\"\nbox = [2, 4, 6]\n[[piece]]\nname = \"D\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = 24\n",
    )
    .unwrap();
    let trominoes = dir.path().join("l.toml");
    std::fs::write(
        &trominoes,
        "name = \"L-trominoes 3x3x2\"\nbox = [3, 3, 2]\n[[piece]]\nname = \"L\"\n\
         cells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = 6\n",
    )
    .unwrap();
    for (puzzle, want) in [
        (boxed.to_str().unwrap(), 9_049_169),
        (trominoes.to_str().unwrap(), 432),
    ] {
        let counted = polycover(&["count", puzzle, "--symmetry", "none"]);
        assert!(
            stdout(&counted).contains(&format!("s mc {want}")),
            "{}",
            stdout(&counted)
        );
        let cnf = dimacs(dir.path(), puzzle, &["--certified"]);
        let text = std::fs::read_to_string(&cnf).unwrap();
        assert!(
            text.contains("c polycover") && text.contains("certified CNF"),
            "{text}"
        );
        for counter in ["d4", "ganak"] {
            assert_eq!(count_with(counter, &cnf), want, "{counter} on {puzzle}");
        }
    }
    // A count up to symmetry has one CNF per Burnside term: refused, with the way there.
    let o = polycover(&["dimacs", "soma", "--certified", "--symmetry", "rotations"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give --symmetry none"),
        "{}",
        stderr(&o)
    );
}

const GANAK_CASES: &[(&str, &str, &str, u64)] = &[
    ("slothouber-graatsma", "rotations", "pairwise", 1),
    ("slothouber-graatsma", "none", "ladder", 8),
    // Not soma: Ganak takes minutes over its 480 models (d4 takes 2 s); the 4x6 box of
    // dominoes checks the same lex-leader chains and pairwise encoding in a second.
    (
        "tests/fixtures/dominoes-4x6.toml",
        "rotations",
        "pairwise",
        98,
    ),
];

/// `dimacs --part K/N`: d4's counts of the parts add up to the DLX count. N = 5 deals
/// several subproblems to each part (selector variables); N = 65,536 leaves one
/// subproblem in each of the first parts (unit clauses) and none in the last (an empty
/// clause), and each part's d4 count equals `count --part` of that part.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn d4_counts_of_the_parts_add_up() {
    if !needs(&[Need::Python(&["py_d4"])]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Soma without symmetry is in the parts of 65,536 below; its five big parts would
    // cost d4 a minute and prove nothing the reduced ones do not.
    for (puzzle, mode, want) in [("soma", "rotations", 480u64), ("hesselink-5", "none", 8)] {
        let mut sum = 0;
        for k in 1..=5 {
            let part = format!("{k}/5");
            let cnf = dimacs(dir.path(), puzzle, &["--symmetry", mode, "--part", &part]);
            let text = std::fs::read_to_string(&cnf).unwrap();
            assert!(
                text.contains(&format!("c part {part}: ")),
                "the header names the part"
            );
            sum += count_with("d4", &cnf);
        }
        assert_eq!(sum, want, "{puzzle} {mode}");
    }
    for k in [1, 2, 3, 65_536] {
        let part = format!("{k}/65536");
        let cnf = dimacs(dir.path(), "soma", &["--symmetry", "none", "--part", &part]);
        let out = polycover(&["count", "soma", "--symmetry", "none", "--part", &part]);
        let line = stdout(&out);
        let line = line
            .lines()
            .find(|l| l.starts_with("c part "))
            .unwrap()
            .to_string();
        let native: u64 = line.rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(count_with("d4", &cnf), native, "{part}");
        if k == 65_536 {
            assert_eq!(native, 0);
        }
    }
}

/// Writes an executable stand-in solver into `dir`.
fn stand_in(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_string()
}

/// `bench --external NAME=COMMAND`: CryptoMiniSat (a real solver, on PATH through
/// `.ci/run`) gives a checked row in every eager encoding and a skipped lazy one.
#[test]
fn bench_runs_an_external_dimacs_solver_and_checks_its_model() {
    if !needs(&[Need::Tool("cryptominisat5")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("ext.csv");
    let out = polycover(&[
        "bench",
        "soma",
        "--solvers",
        "dlx",
        "--amo",
        "product,ladder,lazy",
        "--external",
        "cms=cryptominisat5 --verb 0",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&csv).unwrap();
    for amo in ["product", "ladder"] {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("Soma cube,cms,{amo},")))
            .unwrap_or_else(|| panic!("no cms {amo} row: {text}"));
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[4], "ok", "{row}");
        assert!(
            cells[10].parse::<f64>().is_ok(),
            "a first-model time: {row}"
        );
    }
    let lazy = text
        .lines()
        .find(|l| l.contains(",cms,lazy,"))
        .expect("a lazy row");
    assert!(lazy.contains("skipped"), "{lazy}");
}

/// A solver that prints a wrong model (complete, every variable true), a partial one, or
/// UNSATISFIABLE for a puzzle with solutions fails the bench (exit 1) with a message
/// naming it; malformed --external values are usage errors (exit 2) before any work.
#[test]
fn a_wrong_external_answer_fails_the_bench() {
    let dir = tempfile::tempdir().unwrap();
    let all_true = stand_in(
        dir.path(),
        "all-true.sh",
        "echo 's SATISFIABLE'\nawk '/^p cnf/ { printf \"v\"; for (i = 1; i <= $3; i++) printf \" %d\", i; print \" 0\" }' \"$1\"\nexit 10",
    );
    let partial = stand_in(
        dir.path(),
        "partial.sh",
        "echo 's SATISFIABLE'\necho 'v 1 2 3 0'\nexit 10",
    );
    let unsat = stand_in(dir.path(), "unsat.sh", "echo 's UNSATISFIABLE'\nexit 20");
    let silent = stand_in(dir.path(), "silent.sh", "echo oops >&2\nexit 3");
    for (script, says) in [
        (&all_true, "is covered"),
        (&partial, "partial model"),
        (&unsat, "answered UNSATISFIABLE"),
        (&silent, "without an answer"),
    ] {
        let spec = format!("liar={script}");
        let out = polycover(&["bench", "soma", "--solvers", "dlx", "--external", &spec]);
        assert_eq!(out.status.code(), Some(1), "{script}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("liar") && err.contains(says),
            "{script}: {err}"
        );
    }
    for bad in [
        "noequals",
        "x=",
        "x='unbalanced",
        "dlx=cadical",
        "sat-cadical=kissat",
        "a b=c",
    ] {
        let out = polycover(&["bench", "soma", "--external", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{bad}");
    }
}
