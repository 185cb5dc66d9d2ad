//! `solve --proof`: DRAT proofs of UNSAT answers, checked by `rate` (crates.io; `.ci/run`
//! installs it into target/tools), an independent checker, against the DIMACS that
//! `polycover dimacs` writes for the same puzzle, symmetry mode and encoding. Without
//! `rate` the checked test is skipped (`tests/needs.rs`); MiniSat's refusal needs the
//! feature `c-solvers`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// The checker: the one `.ci/run` installs, or `rate` on PATH; its test checked that
/// it is there ([`needs`]).
fn rate() -> PathBuf {
    crate::needs::rate_path()
        .expect("`rate` is not installed: run `bash .ci/run`, which installs it")
}

/// Whether `rate` verifies `proof` for `cnf` (it prints `s VERIFIED` and exits 0, or
/// `s NOT VERIFIED` and exits 1).
fn verified(cnf: &Path, proof: &Path) -> bool {
    let out = Command::new(rate()).arg(cnf).arg(proof).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let yes = text.lines().any(|l| l == "s VERIFIED");
    let no = text.lines().any(|l| l == "s NOT VERIFIED");
    assert!(
        yes != no,
        "rate answered neither: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        out.status.success(),
        yes,
        "rate's exit code and answer differ: {text}"
    );
    yes
}

/// An UNSAT puzzle that is not trivially so: one solution's cut with a chiral piece
/// mirrored (`generate polycubes --unsat`), reproducible by its seed.
fn unsat_puzzle(dir: &Path) -> String {
    let path = dir.join("unsat.toml").to_str().unwrap().to_string();
    let o = polycover(&[
        "generate",
        "polycubes",
        "--box",
        "3,3,3",
        "--pieces",
        "6",
        "--unsat",
        "--seed",
        "1",
        "-o",
        &path,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    path
}

/// The proof and the CNF it refers to, for `puzzle` with `args` (symmetry, encoding).
fn proof_and_cnf(dir: &Path, puzzle: &str, args: &[&str]) -> (PathBuf, PathBuf) {
    let proof = dir.join(format!("p{}.drat", args.join("")));
    let cnf = dir.join(format!("f{}.cnf", args.join("")));
    let mut solve = vec![
        "solve",
        puzzle,
        "--solver",
        "sat",
        "--proof",
        proof.to_str().unwrap(),
    ];
    solve.extend_from_slice(args);
    let o = polycover(&solve);
    assert_eq!(o.status.code(), Some(20), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("s UNSATISFIABLE") && text.contains("c proof "),
        "{text}"
    );
    let mut dimacs = vec!["dimacs", puzzle, "-o", cnf.to_str().unwrap()];
    dimacs.extend_from_slice(args);
    let o = polycover(&dimacs);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    (proof, cnf)
}

/// The proof is verified in the default mode (symmetry clauses included), without
/// symmetry, and in another encoding; with one lemma removed, or the same lemma
/// corrupted, it is rejected.
#[test]
fn rate_accepts_the_proof_and_rejects_a_damaged_one() {
    if !needs(&[Need::Rate]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let puzzle = unsat_puzzle(dir.path());
    for args in [&[][..], &["--symmetry", "none"], &["--amo", "ladder"]] {
        let (proof, cnf) = proof_and_cnf(dir.path(), &puzzle, args);
        assert!(verified(&cnf, &proof), "{args:?}");
    }

    let (proof, cnf) = proof_and_cnf(dir.path(), &puzzle, &[]);
    let text = std::fs::read_to_string(&proof).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.last(),
        Some(&"0"),
        "the proof ends with the empty clause"
    );
    let damaged = dir.path().join("damaged.drat");
    let without = |k: usize| {
        let kept: Vec<&str> = (0..lines.len())
            .filter(|&i| i != k)
            .map(|i| lines[i])
            .collect();
        kept.join("\n") + "\n"
    };
    // Many lemmas can be derived again from the ones after them; the first that cannot
    // is one whose removal the checker must notice.
    let needed = (0..lines.len().min(200))
        .filter(|&k| !lines[k].starts_with('d') && lines[k] != "0")
        .find(|&k| {
            std::fs::write(&damaged, without(k)).unwrap();
            !verified(&cnf, &damaged)
        })
        .expect("a lemma among the first 200 that the proof needs");
    // The same lemma with its first literal negated is rejected too.
    let mut corrupted: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut words: Vec<String> = corrupted[needed].split(' ').map(String::from).collect();
    words[0] = (-words[0].parse::<i64>().unwrap()).to_string();
    corrupted[needed] = words.join(" ");
    std::fs::write(&damaged, corrupted.join("\n") + "\n").unwrap();
    assert!(
        !verified(&cnf, &damaged),
        "lemma {needed} corrupted: {}",
        corrupted[needed]
    );
}

/// A puzzle with a solution gets the solution and no proof file; a backend that writes
/// no proof is refused (exit 2), and an output that cannot be written fails as every
/// output does (exit 1), both before any work.
#[test]
fn a_solution_writes_no_proof_and_bad_proof_requests_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("soma.drat");
    let p = proof.to_str().unwrap();
    let o = polycover(&["solve", "soma", "--solver", "sat", "--proof", p]);
    assert_eq!(o.status.code(), Some(10), "{}", stderr(&o));
    assert!(stdout(&o).contains("c no proof written"), "{}", stdout(&o));
    assert!(!proof.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no temporary left"
    );

    for (args, says) in [
        #[cfg(feature = "c-solvers")]
        (
            vec!["--solver", "sat", "--backend", "minisat"],
            "writes no proof",
        ),
        (vec!["--solver", "bits"], "--solver sat"),
        (vec![], "--solver sat"),
    ] {
        let mut all = vec!["solve", "soma", "--proof", p];
        all.extend_from_slice(&args);
        let o = polycover(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
    // A backend that writes no proof is refused before any work: before the puzzle is
    // even read (this one does not exist).
    #[cfg(feature = "cadical")]
    {
        let o = polycover(&[
            "solve",
            "no/such/puzzle.toml",
            "--proof",
            p,
            "--solver",
            "sat",
            "--backend",
            "cadical",
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("the cadical backend writes no proof"),
            "{}",
            stderr(&o)
        );
    }
    let o = polycover(&[
        "solve",
        "soma",
        "--solver",
        "sat",
        "--proof",
        "/nonexistent/p.drat",
    ]);
    // A missing directory is the user's to fix, found before the work: exit 2.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}
