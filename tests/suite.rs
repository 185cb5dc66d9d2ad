//! `suite`: a benchmark family written into a directory, its CSV read back and three of
//! its rows checked again from the files alone (the CNF's hash and size, the puzzle's
//! counts by another engine, the status by SAT); bad requests refused with exit 2; and
//! the GBD hash, against a hash GBD publishes and its normalisation rules.

use std::collections::HashMap;
use std::path::Path;

use md5::{Digest, Md5};
use polycover_lab::gbd;

use crate::common::*;

/// The GBD hash the long way, written apart from `sat::gbd`: every line that does not
/// start with `c` or `p` split at whitespace, `+` signs dropped, clauses closed by `0`
/// and joined by one space, then MD5.
fn gbd_reference(text: &str) -> String {
    let mut clauses = Vec::new();
    let mut clause: Vec<&str> = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with('c') || t.starts_with('p') {
            continue;
        }
        for token in t.split_whitespace() {
            clause.push(token.trim_start_matches('+'));
            if token == "0" {
                clauses.push(clause.join(" "));
                clause.clear();
            }
        }
    }
    if !clause.is_empty() {
        clause.push("0");
        clauses.push(clause.join(" "));
    }
    hex(&Md5::digest(clauses.join(" ").as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `p cnf` line's counts, and the clauses and the largest variable the file holds.
fn dimacs_sizes(text: &str) -> ((u64, u64), u64, u64) {
    let mut header = None;
    let (mut clauses, mut most) = (0, 0);
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("p cnf ") {
            let n: Vec<u64> = rest
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            header = Some((n[0], n[1]));
        } else if !t.starts_with('c') {
            for lit in t.split_whitespace() {
                let lit: i64 = lit.parse().unwrap();
                if lit == 0 {
                    clauses += 1;
                }
                most = most.max(lit.unsigned_abs());
            }
        }
    }
    (header.expect("a p cnf line"), clauses, most)
}

/// `polycover ARGS` on a puzzle file: the number of its `s mc` line.
fn count(args: &[&str]) -> String {
    let o = polycover(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    let out = stdout(&o);
    out.lines()
        .find_map(|l| l.strip_prefix("s mc "))
        .unwrap_or_else(|| panic!("{args:?}: no s mc line in\n{out}"))
        .to_string()
}

fn suite(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["suite", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    polycover(&all)
}

/// Twenty instances (the defaults: a 3x3x3 box, 5 or 6 pieces, even seeds UNSAT), every
/// file there, and three rows checked from the files alone.
#[test]
fn a_family_is_written_and_its_rows_check_out_from_the_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let o = suite(&dir, &["--family", "cut", "--seeds", "1-20"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("c instance 20/20 cut-20"), "{err}");
    assert!(
        err.contains("20 instances (10 SAT, 10 UNSAT), 142 files"),
        "{err}"
    );
    assert!(
        stdout(&o).is_empty(),
        "suite writes nothing on standard output"
    );

    let rows = csv_rows(&dir.join("instances.csv"));
    assert_eq!(rows.len(), 20 * polycover::sat::Amo::ALL.len());
    let header = std::fs::read_to_string(dir.join("instances.csv")).unwrap();
    assert_eq!(
        header.lines().next().unwrap(),
        "puzzle,cnf,family,seed,box,pieces,sizes,encoding,variables,clauses,status,\
         count_none,count_rotations,native_s,count_s,gbd_hash,note",
        "the CSV's header"
    );
    for r in &rows {
        assert!(dir.join(&r["cnf"]).is_file(), "{}", r["cnf"]);
        assert!(dir.join(&r["puzzle"]).is_file(), "{}", r["puzzle"]);
        assert_eq!(r["family"], "cut");
        let want = if r["seed"].parse::<u64>().unwrap() % 2 == 0 {
            "UNSAT"
        } else {
            "SAT"
        };
        assert_eq!(r["status"], want, "{r:?}");
    }
    // Each CNF is another formula: the hashes differ.
    let hashes: std::collections::HashSet<_> = rows.iter().map(|r| &r["gbd_hash"]).collect();
    assert_eq!(hashes.len(), rows.len(), "two CNFs with one GBD hash");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    for says in [
        "polycover suite DIR --family cut --box 3,3,3 --pieces 5-6 --seeds 1-20 --status mixed",
        "| cut-2.toml | 2 | 5 | UNSAT | 0 | 0 |",
        "## The GBD hash",
        "`count_rotations`",
    ] {
        assert!(readme.contains(says), "README.md lacks `{says}`:\n{readme}");
    }

    let pick = |seed: &str, encoding: &str| -> &HashMap<String, String> {
        rows.iter()
            .find(|r| r["seed"] == seed && r["encoding"] == encoding)
            .unwrap_or_else(|| panic!("no row for seed {seed}, {encoding}"))
    };
    for row in [
        pick("1", "pairwise"),
        pick("2", "commander"),
        pick("19", "product"),
    ] {
        recheck(&dir, row);
    }
}

/// One row against its files: the CNF's GBD hash (computed here, apart from the
/// library) and sizes, the same hash for what `dimacs` writes from the puzzle file, the
/// counts by the DLX, and the status by the SAT solver in the row's encoding.
fn recheck(dir: &Path, row: &HashMap<String, String>) {
    let cnf = gunzip(&dir.join(&row["cnf"]));
    let text = String::from_utf8(cnf).unwrap();
    assert_eq!(gbd_reference(&text), row["gbd_hash"], "{}", row["cnf"]);
    let ((vars, clauses), counted, most) = dimacs_sizes(&text);
    assert_eq!(vars.to_string(), row["variables"], "{}", row["cnf"]);
    assert_eq!(clauses.to_string(), row["clauses"], "{}", row["cnf"]);
    assert_eq!(
        counted, clauses,
        "{}: clauses against its p line",
        row["cnf"]
    );
    assert!(most <= vars, "{}", row["cnf"]);
    assert!(text.contains(&format!("c puzzle Random {} pieces", row["pieces"])));
    assert!(text.contains(&format!("at-most-one={}", row["encoding"])));

    let puzzle = dir.join(&row["puzzle"]);
    let puzzle = puzzle.to_str().unwrap();
    let again = dir.join("again.cnf");
    let o = polycover(&[
        "dimacs",
        puzzle,
        "--amo",
        &row["encoding"],
        "-o",
        again.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = format!("GBD hash {}", row["gbd_hash"]);
    assert!(stderr(&o).contains(&said), "{}", stderr(&o));
    let again = std::fs::read_to_string(&again).unwrap();
    assert_eq!(gbd::hash(again.as_bytes()).unwrap(), row["gbd_hash"]);

    let rotations = count(&["count", puzzle, "--solver", "dlx"]);
    assert_eq!(rotations, row["count_rotations"], "{}", row["puzzle"]);
    let none = count(&["count", puzzle, "--solver", "dlx", "--symmetry", "none"]);
    assert_eq!(none, row["count_none"], "{}", row["puzzle"]);
    let o = polycover(&[
        "solve",
        puzzle,
        "--solver",
        "sat",
        "--amo",
        &row["encoding"],
    ]);
    let want = if row["status"] == "SAT" { 10 } else { 20 };
    assert_eq!(
        o.status.code(),
        Some(want),
        "{}: {}",
        row["puzzle"],
        stdout(&o)
    );
}

/// A count the timeout stops is an empty cell with a note, never a partial count.
#[test]
fn a_count_past_the_timeout_is_an_empty_cell_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("big");
    let args = [
        "--family", "big", "--box", "4,3,3", "--pieces", "12", "--seeds", "3",
    ];
    let mut all = args.to_vec();
    all.extend_from_slice(&["--status", "sat", "--count-timeout", "0.2"]);
    let o = suite(&dir, &all);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("counts stopped by the 0.2 s count timeout"));
    let rows = csv_rows(&dir.join("instances.csv"));
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r["status"], "SAT");
        assert_eq!(r["count_rotations"], "", "{r:?}");
        assert_eq!(r["count_none"], "", "{r:?}");
        assert!(r["note"].contains("count timeout"), "{r:?}");
    }
}

#[test]
fn bad_requests_are_refused_with_exit_2_before_any_file() {
    let tmp = tempfile::tempdir().unwrap();
    let new = tmp.path().join("new");
    let held = tmp.path().join("held");
    std::fs::create_dir(&held).unwrap();
    std::fs::write(held.join("notes.txt"), "mine").unwrap();
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let cases: [(&Path, &[&str], &str); 8] = [
        (&new, &[], "--family"),
        (&held, &["--family", "f"], "--force"),
        (&file, &["--family", "f"], "not a directory"),
        (&new, &["--family", "../f"], "--family"),
        (&new, &["--family", "f", "--seeds", "5-1"], "A <= B"),
        (
            &new,
            &["--family", "f", "--box", "2,2,2", "--pieces", "9"],
            "cannot fill",
        ),
        (&new, &["--family", "f", "--count-timeout", "0"], "positive"),
        (&new, &["--family", "f", "--status", "maybe"], "maybe"),
    ];
    for (dir, args, says) in cases {
        let o = suite(dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(!new.exists(), "{args:?} made the directory");
    }
    assert_eq!(std::fs::read_dir(&held).unwrap().count(), 1);
    // With --force the suite goes in, and what was there stays.
    let o = suite(&held, &["--family", "f", "--seeds", "1-2", "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 other entry, not this suite's, left as it is"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(held.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(held.join("f-2-ladder.cnf.gz").is_file());
}

/// gbdc itself (PyPI `gbdc`, which `.ci/run` installs in `target/venv`) gives every CNF
/// of a suite the hash in its CSV, and the published instance its name.
#[test]
fn gbdc_gives_the_same_hashes() {
    if !needs(&[Need::Python(&["gbdc"])]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let o = suite(&dir, &["--family", "g", "--seeds", "1-2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = csv_rows(&dir.join("instances.csv"));
    let fixture = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(
        "tests/fixtures/gbd/328da7966b09b2f6e99c93c4e877fbff-sgen3-n260-s62321009-sat.cnf.gz",
    );
    let mut files: Vec<String> = rows
        .iter()
        .map(|r| dir.join(&r["cnf"]).to_str().unwrap().to_string())
        .collect();
    files.push(fixture.to_str().unwrap().to_string());
    let script = "import sys, gbdc\nfor f in sys.argv[1:]: print(gbdc.gbdhash(f))";
    let out = std::process::Command::new(python())
        .arg("-c")
        .arg(script)
        .args(&files)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}: run `bash .ci/run`", python()));
    assert!(
        out.status.success(),
        "gbdc (run `bash .ci/run`, which installs it): {}",
        stderr(&out)
    );
    let hashes: Vec<String> = stdout(&out).lines().map(String::from).collect();
    let mut want: Vec<String> = rows.iter().map(|r| r["gbd_hash"].clone()).collect();
    want.push("328da7966b09b2f6e99c93c4e877fbff".into());
    assert_eq!(hashes, want);
}

/// A CNF that GBD names by its hash (gbdc's test file
/// `328da7966b09b2f6e99c93c4e877fbff-sgen3-n260-s62321009-sat.cnf`, here gzipped).
#[test]
fn the_gbd_hash_of_a_published_instance() {
    let name = "328da7966b09b2f6e99c93c4e877fbff-sgen3-n260-s62321009-sat.cnf.gz";
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tests/fixtures/gbd")
        .join(name);
    let text = gunzip(&path);
    assert_eq!(gbd::hash(&text).unwrap(), &name[..32]);
    assert_eq!(
        gbd_reference(std::str::from_utf8(&text).unwrap()),
        &name[..32]
    );
    // Streamed in pieces of 7 bytes: the same.
    let mut hasher = gbd::Hasher::new();
    for piece in text.chunks(7) {
        hasher.update(piece).unwrap();
    }
    assert_eq!(hasher.finish(), &name[..32]);
}

#[test]
fn the_gbd_hash_skips_comments_header_and_whitespace_but_not_clauses() {
    let base = "p cnf 3 2\n1 -2 0\n2 3 0\n";
    let want = hex(&Md5::digest(b"1 -2 0 2 3 0"));
    assert_eq!(gbd::hash(base.as_bytes()).unwrap(), want);
    for same in [
        "c a comment\np cnf 3 2\n1 -2 0\nc between\n2 3 0\n",
        "p cnf 99 7\n1 -2 0\n2 3 0\n",
        "1 -2 0 2 3 0",
        "  1   -2\t0\n\n 2\n3 0   \n\n",
        "p cnf 3 2\r\n1 -2 0\r\n2 3 0\r\n",
        "p cnf 3 2\n+1 -2 0\n2 +3 0\n",
        "p cnf 3 2\n1 -2 0\n2 3",
    ] {
        assert_eq!(gbd::hash(same.as_bytes()).unwrap(), want, "{same:?}");
        assert_eq!(gbd_reference(same), want, "{same:?}");
    }
    for other in [
        "p cnf 3 2\n1 2 0\n2 3 0\n",
        "p cnf 3 2\n2 3 0\n1 -2 0\n",
        "p cnf 3 2\n-2 1 0\n2 3 0\n",
        "p cnf 3 2\n1 -2 2 3 0\n",
    ] {
        assert_ne!(gbd::hash(other.as_bytes()).unwrap(), want, "{other:?}");
    }
    assert!(gbd::hash(b"p cnf 1 1\n1 x 0\n").is_err());
}
