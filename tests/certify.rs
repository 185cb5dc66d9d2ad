//! `count --certify` and `verify`: certificates that the CPOG project's own checker
//! (`cpog-check`, built here from `../shared/tools/cpog-check`, an outside oracle) accepts
//! with the count polycover printed; tampered ones it rejects; bad requests refused.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::*;

/// The checker `.ci/run` builds into target/tools, or built here from its sources.
fn checker() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
            let tool = root.join("target/tools/cpog-check");
            if tool.is_file() {
                return tool;
            }
            let src = std::env::var_os("POLYCOVER_CPOG_SRC")
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("../shared/tools/cpog-check"));
            assert!(
                src.join("cpog-check.c").is_file(),
                "the CPOG checker's sources are not at {} (set POLYCOVER_CPOG_SRC)",
                src.display()
            );
            std::fs::create_dir_all(tool.parent().unwrap()).unwrap();
            let partial = tool.with_extension("partial");
            let st = Command::new("cc")
                .args(["-O2", "-o"])
                .arg(&partial)
                .arg(src.join("cpog-check.c"))
                .arg(src.join("q25.c"))
                .status()
                .expect("cc runs");
            assert!(st.success(), "cc could not build cpog-check");
            std::fs::rename(&partial, &tool).unwrap();
            tool
        })
        .clone()
}

/// What the checker says of one CNF and certificate: whether it printed FULL-PROOF
/// SUCCESS, and the count it printed.
fn check(cnf: &Path, cpog: &Path) -> (bool, Option<String>) {
    use std::io::BufRead;
    // Read as it comes: the prototype prints two lines per clause it looks up (gigabytes
    // for Soma), of which only the verdicts matter.
    let mut child = Command::new(checker())
        .arg(cnf)
        .arg(cpog)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let verdicts: Vec<String> = std::io::BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .filter(|l| l.starts_with("CHECK:") || l.starts_with("ERROR"))
        .collect();
    let status = child.wait().unwrap();
    let ok = status.success() && verdicts.iter().any(|l| l.contains("FULL-PROOF SUCCESS"));
    let count = verdicts.iter().find_map(|l| {
        l.split_once("Regular model count = ")
            .map(|(_, n)| n.trim().to_string())
    });
    (ok, count)
}

fn s_mc(o: &std::process::Output) -> String {
    stdout(o)
        .lines()
        .find_map(|l| l.strip_prefix("s mc ").map(str::to_string))
        .unwrap_or_else(|| panic!("no s mc line: {}{}", stdout(o), stderr(o)))
}

fn puzzle(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn dominoes(dir: &Path, w: u32, h: u32, d: u32) -> String {
    let text = format!(
        "name = \"Dominoes {w}x{h}x{d}\"\nbox = [{w}, {h}, {d}]\n[[piece]]\nname = \"D\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = {}\n",
        w * h * d / 2
    );
    puzzle(dir, &format!("d{w}{h}{d}.toml"), &text)
}

const TROMINOES: &str = "name = \"Trominoes 3x4\"\nbox = [3, 4, 1]\n[[piece]]\nname = \"L\"\n\
    cells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = [1, 3]\n[[piece]]\nname = \"I\"\n\
    cells = [[0,0,0], [1,0,0], [2,0,0]]\ncount = [1, 3]\n";

/// Certifies with `solver` and `--symmetry none`, checks the one term with the checker,
/// and returns the count both agree on.
fn certified(puzzle: &str, solver: &str, dir: &Path) -> String {
    let o = polycover(&[
        "count",
        puzzle,
        "--symmetry",
        "none",
        "--solver",
        solver,
        "--certify",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let count = s_mc(&o);
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
    let term = manifest.lines().find(|l| l.starts_with("term ")).unwrap();
    let words: Vec<&str> = term.split_whitespace().collect();
    let (ok, checked) = check(&dir.join(words[3]), &dir.join(words[4]));
    assert!(
        ok,
        "cpog-check rejected the {solver} certificate of {puzzle}"
    );
    assert_eq!(
        checked.as_deref(),
        Some(count.as_str()),
        "{solver} on {puzzle}"
    );
    assert!(std::fs::read_to_string(dir.join("README"))
        .unwrap()
        .contains("cpog-check"));
    count
}

#[test]
fn every_counting_engine_certifies_the_dominoes_of_a_4x4_square() {
    let tmp = tempfile::tempdir().unwrap();
    let p = dominoes(tmp.path(), 4, 4, 1);
    for solver in ["memo", "dlx", "bits", "sat"] {
        assert_eq!(certified(&p, solver, &tmp.path().join(solver)), "36");
    }
}

#[test]
fn the_memo_certifies_the_8x8_square_and_a_3d_box() {
    let tmp = tempfile::tempdir().unwrap();
    // Kasteleyn's count of the 8x8 square.
    assert_eq!(
        certified("dominoes-8x8", "memo", &tmp.path().join("a")),
        "12988816"
    );
    let p = dominoes(tmp.path(), 2, 3, 4);
    let memo = certified(&p, "memo", &tmp.path().join("b"));
    assert_eq!(certified(&p, "dlx", &tmp.path().join("c")), memo);
    assert_eq!(memo, "1845");
}

/// At most two I: once two are placed, the other I placements that still fit are denied
/// by the product that placed the second (a graph without that denial fails the check).
const TROMINOES_6X2: &str = "name = \"Trominoes 6x2\"\nbox = [6, 2, 1]\n[[piece]]\nname = \"L\"\n\
    cells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = [0, 4]\n[[piece]]\nname = \"I\"\n\
    cells = [[0,0,0], [1,0,0], [2,0,0]]\ncount = [1, 2]\n";

#[test]
fn two_piece_kinds_in_count_ranges_are_certified_by_every_engine() {
    let tmp = tempfile::tempdir().unwrap();
    let p = puzzle(tmp.path(), "t.toml", TROMINOES);
    for solver in ["memo", "dlx", "bits", "sat"] {
        assert_eq!(
            certified(&p, solver, &tmp.path().join(solver)),
            "16",
            "{solver}"
        );
    }
    let p = puzzle(tmp.path(), "t2.toml", TROMINOES_6X2);
    for solver in ["memo", "dlx", "bits", "sat"] {
        let dir = tmp.path().join(format!("{solver}-6x2"));
        assert_eq!(certified(&p, solver, &dir), "6", "{solver}");
    }
    // The CNF states the ranges as clauses: at least one L is one clause of every L.
    let cnf = std::fs::read_to_string(tmp.path().join("memo/trominoes-3x4.cnf")).unwrap();
    assert!(
        cnf.contains("c encoding: per cell at least one placement"),
        "{cnf}"
    );
}

#[test]
fn a_puzzle_with_no_solution_is_certified_as_zero() {
    let tmp = tempfile::tempdir().unwrap();
    let p = puzzle(
        tmp.path(),
        "z.toml",
        "name = \"Z\"\nbox = [2, 3, 1]\n[[piece]]\nname = \"L\"\ncells = [[0,0,0], [1,0,0], [0,1,0]]\n\
         [[piece]]\nname = \"I\"\ncells = [[0,0,0], [1,0,0], [2,0,0]]\n",
    );
    for solver in ["memo", "dlx"] {
        let o = polycover(&[
            "count",
            &p,
            "--symmetry",
            "none",
            "--solver",
            solver,
            "--certify",
            tmp.path().join(solver).to_str().unwrap(),
        ]);
        // The I tromino takes a whole row of the 2x3 box; the L does not fit the other.
        assert_eq!(s_mc(&o), "0", "{}", stderr(&o));
        let (ok, count) = check(
            &tmp.path().join(solver).join("z.cnf"),
            &tmp.path().join(solver).join("z.cpog"),
        );
        assert!(ok && count.as_deref() == Some("0"), "{solver}: {count:?}");
    }
}

#[test]
fn a_count_up_to_rotations_is_certified_through_its_burnside_terms() {
    let tmp = tempfile::tempdir().unwrap();
    let p = dominoes(tmp.path(), 4, 4, 1);
    for solver in ["memo", "dlx"] {
        let dir = tmp.path().join(solver);
        let o = polycover(&[
            "count",
            &p,
            "--solver",
            solver,
            "--certify",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(s_mc(&o), "9", "{}", stderr(&o));
        let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
        assert_eq!(
            manifest.lines().filter(|l| l.starts_with("term ")).count(),
            5,
            "{manifest}"
        );
        // One of the terms fixes no tiling: a certificate of zero.
        let readme = std::fs::read_to_string(dir.join("README")).unwrap();
        assert!(
            readme.contains("(1 x 36 + 1 x 8 + 2 x 12 + 2 x 2 + 2 x 0) / 8 = 9"),
            "{readme}"
        );
        let v = polycover(&[
            "verify",
            dir.to_str().unwrap(),
            "--checker",
            checker().to_str().unwrap(),
        ]);
        assert_eq!(v.status.code(), Some(0), "{}{}", stdout(&v), stderr(&v));
        assert_eq!(s_mc(&v), "9");
        assert!(
            stdout(&v)
                .lines()
                .any(|l| l.starts_with("c term g6 ((x,y,z) -> (")
                    && l.contains("): 2 x 0 (FULL-PROOF SUCCESS")),
            "{}",
            stdout(&v)
        );
    }
    // A 3-D box under rotations: the cube's group.
    let p = dominoes(tmp.path(), 2, 2, 3);
    let dir = tmp.path().join("box");
    let o = polycover(&["count", &p, "--certify", dir.to_str().unwrap()]);
    let v = polycover(&[
        "verify",
        dir.to_str().unwrap(),
        "--checker",
        checker().to_str().unwrap(),
    ]);
    assert_eq!(s_mc(&v), s_mc(&o), "{}", stdout(&v));
}

/// The certificate of the 4x4 dominoes' identity term, written fresh into `dir`.
fn fresh(dir: &Path) -> (PathBuf, PathBuf) {
    let p = dominoes(dir, 4, 4, 1);
    let cert = dir.join("cert");
    let _ = std::fs::remove_dir_all(&cert);
    let o = polycover(&[
        "count",
        &p,
        "--symmetry",
        "none",
        "--solver",
        "memo",
        "--certify",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    (
        cert.join("dominoes-4x4x1.cnf"),
        cert.join("dominoes-4x4x1.cpog"),
    )
}

#[test]
fn a_tampered_certificate_is_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let (cnf, cpog) = fresh(tmp.path());
    assert!(check(&cnf, &cpog).0);
    let text = std::fs::read_to_string(&cpog).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // One literal changed: the first product's first child negated.
    let at = lines
        .iter()
        .position(|l| l.split_whitespace().nth(1) == Some("p"))
        .unwrap();
    let mut words: Vec<String> = lines[at].split_whitespace().map(String::from).collect();
    words[3] = format!("-{}", words[3]);
    let mut changed = lines.clone();
    let line = words.join(" ");
    changed[at] = &line;
    std::fs::write(&cpog, changed.join("\n") + "\n").unwrap();
    assert!(!check(&cnf, &cpog).0, "a changed literal passed");
    // One line dropped: the last deletion of an input clause.
    let mut dropped = lines.clone();
    dropped.pop();
    std::fs::write(&cpog, dropped.join("\n") + "\n").unwrap();
    assert!(!check(&cnf, &cpog).0, "a dropped line passed");
    // A clause dropped from the CNF changes what is certified.
    let cnf_text = std::fs::read_to_string(&cnf).unwrap();
    let (head, body) = cnf_text.split_once("p cnf ").unwrap();
    let mut body_lines: Vec<&str> = body.lines().collect();
    let header: Vec<u32> = body_lines[0]
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let h = format!("{} {}", header[0], header[1] - 1);
    body_lines[0] = &h;
    body_lines.remove(1);
    std::fs::write(&cpog, text.clone()).unwrap();
    std::fs::write(&cnf, format!("{head}p cnf {}\n", body_lines.join("\n"))).unwrap();
    assert!(
        !check(&cnf, &cpog).0,
        "a certificate passed for another CNF"
    );
    // verify names the failing term and exits 1.
    let dir = cnf.parent().unwrap();
    let v = polycover(&[
        "verify",
        dir.to_str().unwrap(),
        "--checker",
        checker().to_str().unwrap(),
    ]);
    assert_eq!(v.status.code(), Some(1), "{}", stdout(&v));
    assert!(
        stderr(&v).contains("term identity (dominoes-4x4x1.cpog): the checker rejected it: "),
        "{}",
        stderr(&v)
    );
    assert!(!stdout(&v).contains("s mc"), "{}", stdout(&v));
}

#[test]
fn bad_requests_are_refused_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let o = polycover(&["count", "soma", "--certify", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a directory"), "{}", stderr(&o));
    let o = polycover(&[
        "count",
        "soma",
        "--part",
        "1/2",
        "--certify",
        tmp.path().join("d").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot be combined with --part"),
        "{}",
        stderr(&o)
    );
    // A count range with too many placements for plain clauses.
    let o = polycover(&[
        "count",
        "slothouber-graatsma",
        "--symmetry",
        "none",
        "--solver",
        "dlx",
        "--certify",
        tmp.path().join("s").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("clauses"), "{}", stderr(&o));
    assert!(!tmp.path().join("s").join("MANIFEST").exists());
    // A search tree past the memory budget is refused before anything is written.
    let o = polycover(&[
        "count",
        "pentomino-6x10",
        "--symmetry",
        "none",
        "--solver",
        "dlx",
        "--memory",
        "1M",
        "--certify",
        tmp.path().join("p").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the search tree's certificate of 9356 solutions would take about"),
        "{}",
        stderr(&o)
    );
    assert!(!tmp.path().join("p").exists());
    // verify: no manifest, no checker, a manifest that does not add up.
    let o = polycover(&["verify", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("MANIFEST"), "{}", stderr(&o));
    let (cnf, _) = fresh(tmp.path());
    let dir = cnf.parent().unwrap();
    let o = polycover(&[
        "verify",
        dir.to_str().unwrap(),
        "--checker",
        "/nonexistent/cpog-check",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot run the CPOG checker"),
        "{}",
        stderr(&o)
    );
    let manifest = std::fs::read_to_string(dir.join("MANIFEST")).unwrap();
    std::fs::write(dir.join("MANIFEST"), manifest.replace("order 1", "order 2")).unwrap();
    let o = polycover(&[
        "verify",
        dir.to_str().unwrap(),
        "--checker",
        checker().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("MANIFEST gives the order 2, but the terms generate a group of 1"),
        "{}",
        stderr(&o)
    );
}

const L_TROMINOES: &str = "name = \"L-trominoes 2x3x2\"\nbox = [2, 3, 2]\n[[piece]]\n\
    name = \"L\"\ncells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = 4\n";

const FOUR_PIECES: &str = "name = \"Four pieces 2x3x2\"\nbox = [2, 3, 2]\n\
    [[piece]]\nname = \"I\"\ncells = [[0,0,0], [1,0,0], [2,0,0]]\n\
    [[piece]]\nname = \"L\"\ncells = [[0,0,0], [1,0,0], [0,1,0]]\n\
    [[piece]]\nname = \"T\"\ncells = [[0,0,0], [1,0,0], [2,0,0], [1,1,0]]\n\
    [[piece]]\nname = \"D\"\ncells = [[0,0,0], [1,0,0]]\n";

/// `verify` with `MANIFEST` edited as `edit` says, in a copy of `cert`: its exit code,
/// and its standard error and output together.
fn verify_edited(cert: &Path, edit: impl Fn(&str) -> String, extra: &[&str]) -> (i32, String) {
    let copy = cert.with_extension("edited");
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir(&copy).unwrap();
    for entry in std::fs::read_dir(cert).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
    }
    let manifest = std::fs::read_to_string(copy.join("MANIFEST")).unwrap();
    std::fs::write(copy.join("MANIFEST"), edit(&manifest)).unwrap();
    let mut args = vec!["verify", copy.to_str().unwrap()];
    args.extend_from_slice(extra);
    let checker = checker();
    if !extra.contains(&"--checker") {
        args.extend(["--checker", checker.to_str().unwrap()]);
    }
    let o = polycover(&args);
    let said = format!("{}{}", stderr(&o), stdout(&o));
    (o.status.code().unwrap_or(-1), said)
}

/// The lines of `manifest` but those starting with any of `dropped`.
fn without(manifest: &str, dropped: &[&str]) -> String {
    manifest
        .lines()
        .filter(|l| !dropped.iter().any(|d| l.starts_with(d)))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// What `verify` sums is derived from the CNFs the checker checked: the identity, the
/// group the terms' maps generate, its classes and their sizes. Each edit of `MANIFEST`
/// that a new user made print a wrong count is named and refused.
#[test]
fn an_edited_manifest_cannot_change_the_count() {
    let tmp = tempfile::tempdir().unwrap();
    let tb = puzzle(tmp.path(), "tb.toml", L_TROMINOES);
    let cert = tmp.path().join("tb");
    let o = polycover(&["count", &tb, "--certify", cert.to_str().unwrap()]);
    assert_eq!(s_mc(&o), "9", "{}", stderr(&o));
    let manifest = std::fs::read_to_string(cert.join("MANIFEST")).unwrap();
    for line in [
        "term identity 1 ",
        "term g1 2 ",
        "term g2 1 ",
        "term g4 2 ",
        "term g5 2 ",
        "order 8",
    ] {
        assert!(manifest.contains(line), "{manifest}");
    }
    let (code, said) = verify_edited(&cert, |m| m.to_string(), &["--puzzle", &tb]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("s mc 9"), "{said}");
    assert!(
        said.contains("c term g2 ((x,y,z) -> (-x,y,-z)): 1 x 8"),
        "{said}"
    );
    let refused = |edit: &dyn Fn(&str) -> String, extra: &[&str], why: &str| {
        let (code, said) = verify_edited(&cert, edit, extra);
        assert_eq!(code, 1, "{why}: {said}");
        assert!(said.contains(why), "{said}");
        assert!(!said.contains("s mc"), "{said}");
    };
    // D1: multiplicities that still add up to the order (it printed 11).
    refused(
        &|m| {
            m.replace("term g2 1 ", "term g2 3 ")
                .replace("term g4 2 ", "term g4 1 ")
                .replace("term g5 2 ", "term g5 1 ")
        },
        &[],
        "MANIFEST gives term g2 the multiplicity 3, but its class in the group its terms \
         generate has 1 element",
    );
    // D1: order 4 without g4 and g5 (it printed 18).
    refused(
        &|m| without(&m.replace("order 8", "order 4"), &["term g4", "term g5"]),
        &[],
        "the terms' classes hold 3 of the 4 elements of the group they generate",
    );
    // D1: g4 dropped and the identity's multiplicity raised to 3 (it printed 20).
    refused(
        &|m| {
            without(
                &m.replace("term identity 1 ", "term identity 3 "),
                &["term g4"],
            )
        },
        &[],
        "the terms' classes hold 6 of the 8 elements",
    );
    // D2: `symmetry none` and one term, the g2 files (it printed 8).
    refused(
        &|m| {
            without(m, &["term identity", "term g1", "term g4", "term g5"])
                .replace("symmetry rotations", "symmetry none")
                .replace("order 8", "order 1")
                .replace("term g2", "term identity")
        },
        &[],
        "no term is the identity",
    );
    // D2: the `symmetry` line is read.
    refused(
        &|m| m.replace("symmetry rotations", "symmetry none"),
        &[],
        "MANIFEST says `symmetry none`, but the terms are symmetries of a group of 8",
    );
    // One class listed twice: g2's line pointing at g1's CNF.
    refused(
        &|m| m.replace("-g2.cnf", "-g1.cnf"),
        &[],
        "are the same class of the group",
    );
}

/// D2: another puzzle's CNF and certificate, 6 dominoes in the same box (it printed 32):
/// its `c puzzle` line names it, and `--puzzle` rebuilds the CNF.
#[test]
fn another_puzzles_files_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let tb = puzzle(tmp.path(), "tb.toml", L_TROMINOES);
    let cert = tmp.path().join("tb");
    let o = polycover(&["count", &tb, "--certify", cert.to_str().unwrap()]);
    assert_eq!(s_mc(&o), "9", "{}", stderr(&o));
    let refused = |edit: &dyn Fn(&str) -> String, extra: &[&str], why: &str| {
        let (code, said) = verify_edited(&cert, edit, extra);
        assert_eq!(code, 1, "{why}: {said}");
        assert!(said.contains(why), "{said}");
        assert!(!said.contains("s mc"), "{said}");
    };
    let d6 = dominoes(tmp.path(), 2, 3, 2);
    let other = tmp.path().join("d6");
    let o = polycover(&[
        "count",
        &d6,
        "--symmetry",
        "none",
        "--certify",
        other.to_str().unwrap(),
    ]);
    assert_eq!(s_mc(&o), "32", "{}", stderr(&o));
    for name in ["dominoes-2x3x2.cnf", "dominoes-2x3x2.cpog"] {
        std::fs::copy(other.join(name), cert.join(name)).unwrap();
    }
    let swapped = |m: &str| {
        let head = m.lines().next().unwrap();
        format!(
            "{head}\npuzzle L-trominoes 2x3x2\nsymmetry none\norder 1\n\
             term identity 1 dominoes-2x3x2.cnf dominoes-2x3x2.cpog\n"
        )
    };
    refused(
        &swapped,
        &[],
        "MANIFEST names the puzzle `L-trominoes 2x3x2` but the CNFs are of `Dominoes 2x3x2`",
    );
    refused(
        &|m| swapped(m).replace("puzzle L-trominoes 2x3x2", "puzzle Dominoes 2x3x2"),
        &["--puzzle", &tb],
        "the certificate is not of the puzzle L-trominoes 2x3x2: its CNF has 20 variables, \
         the puzzle 44 placements",
    );
}

/// A Burnside sum that the order does not divide is a damaged certificate, not a bug to
/// report: here a checker that accepts anything, and g2's certificate replaced by the
/// identity's (44 where 8 belongs: 108 / 8).
#[test]
fn a_sum_the_order_does_not_divide_is_a_damaged_certificate() {
    let tmp = tempfile::tempdir().unwrap();
    let tb = puzzle(tmp.path(), "tb.toml", L_TROMINOES);
    let cert = tmp.path().join("tb");
    let o = polycover(&["count", &tb, "--certify", cert.to_str().unwrap()]);
    assert_eq!(s_mc(&o), "9", "{}", stderr(&o));
    std::fs::copy(
        cert.join("l-trominoes-2x3x2.cpog"),
        cert.join("l-trominoes-2x3x2-g2.cpog"),
    )
    .unwrap();
    let yes = tmp.path().join("yes");
    std::fs::write(
        &yes,
        "#!/bin/sh\necho 'CHECK: FULL-PROOF SUCCESS'\necho 'CHECK: Regular model count = 1'\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&yes, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, said) = verify_edited(
        &cert,
        |m| m.to_string(),
        &["--checker", yes.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("the certificate is damaged"), "{said}");
    assert!(!said.contains("please report"), "{said}");
}

#[test]
fn a_stopped_certificate_leaves_no_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("c");
    // The count takes a fifth of a second, its certificate (700 MB) seconds.
    let o = polycover(&[
        "count",
        "dominoes-16x16",
        "--symmetry",
        "none",
        "--solver",
        "memo",
        "--timeout",
        "0.5",
        "--certify",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("s UNKNOWN") && !stdout(&o).contains("s mc"),
        "{}",
        stdout(&o)
    );
    // The directory made for it is gone again (or, where it was there before, empty).
    assert!(
        !dir.exists() || file_names(&dir).is_empty(),
        "{:?}",
        file_names(&dir)
    );
}

/// Soma, all 11,520 solutions: the memo's certificate is 1.7 GB and the prototype checker
/// takes about two minutes (it prints two lines per clause it looks up).
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn soma_is_certified_by_the_memo() {
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(certified("soma", "memo", &tmp.path().join("soma")), "11520");
}

/// `suite --certify`: each instance's certificate checks, with the CSV's count of every
/// solution.
#[test]
fn a_suite_certifies_the_count_of_every_instance() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let o = polycover(&[
        "suite",
        dir.to_str().unwrap(),
        "--family",
        "fam",
        "--box",
        "2,3,4",
        "--pieces",
        "4-5",
        "--seeds",
        "1-3",
        "--certify",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows = csv_rows(&dir.join("instances.csv"));
    for seed in 1..=3 {
        let stem = format!("fam-{seed}");
        let row = rows.iter().find(|r| r["seed"] == seed.to_string()).unwrap();
        let cert = dir.join("certificates").join(&stem);
        let v = polycover(&[
            "verify",
            cert.to_str().unwrap(),
            "--checker",
            checker().to_str().unwrap(),
        ]);
        assert_eq!(v.status.code(), Some(0), "{stem}: {}", stderr(&v));
        assert_eq!(s_mc(&v), row["count_none"], "{stem}");
    }
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("## Certified counts"), "{readme}");
}

/// A sweep's certificate is sized by the frontier's states, up front, and refused past
/// `--memory` before anything is written: the 4x6x6 dominoes' 19.5 million would take
/// about 23 GB.
#[test]
fn a_sweep_too_large_to_certify_is_refused_up_front() {
    let tmp = tempfile::tempdir().unwrap();
    let big = dominoes(tmp.path(), 4, 6, 6);
    let o = polycover(&[
        "count",
        &big,
        "--symmetry",
        "none",
        "--memory",
        "1G",
        "--certify",
        tmp.path().join("big").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("the certificate of the frontier's 19484716 states would take about 23.4 GB"),
        "{}",
        stderr(&o)
    );
    assert!(!tmp.path().join("big").exists());
}

/// D5: a directory that holds anything is refused before the count (an earlier
/// certificate's terms would stay beside the new one's); `--force` removes an earlier
/// certificate's files and keeps the user's own.
#[test]
fn a_certificate_never_lands_beside_another() {
    let tmp = tempfile::tempdir().unwrap();
    let tb = puzzle(tmp.path(), "tb.toml", L_TROMINOES);
    let dir = tmp.path().join("c");
    let o = polycover(&["count", &tb, "--certify", dir.to_str().unwrap()]);
    assert_eq!(s_mc(&o), "9", "{}", stderr(&o));
    let before = file_names(&dir);
    let o = polycover(&[
        "count",
        &tb,
        "--symmetry",
        "none",
        "--certify",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the directory is not empty"),
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&o).contains("s mc"), "{}", stdout(&o));
    assert_eq!(file_names(&dir), before);
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let o = polycover(&[
        "count",
        &tb,
        "--symmetry",
        "none",
        "--certify",
        dir.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(s_mc(&o), "44", "{}", stderr(&o));
    assert_eq!(
        file_names(&dir),
        [
            "MANIFEST",
            "README",
            "l-trominoes-2x3x2.cnf",
            "l-trominoes-2x3x2.cpog",
            "notes.txt"
        ]
    );
}

/// D4: a signal while the certificate is written leaves no `.partial` file, whether the
/// writer stops cleanly (one SIGTERM) or the process ends at once (a second one).
#[test]
fn a_signal_while_certifying_leaves_no_partial_file() {
    let tmp = tempfile::tempdir().unwrap();
    for twice in [false, true] {
        let dir = tmp.path().join(format!("c{twice}"));
        let mut child = spawn(&[
            "count",
            "dominoes-16x16",
            "--symmetry",
            "none",
            "--solver",
            "memo",
            "--certify",
            dir.to_str().unwrap(),
        ]);
        let start = std::time::Instant::now();
        while !dir.is_dir()
            || !file_names(&dir)
                .iter()
                .any(|f| f.ends_with(".cpog.partial"))
        {
            assert!(start.elapsed().as_secs() < 60, "no partial file appeared");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        signal(&child, "TERM");
        if twice {
            signal(&child, "TERM");
        }
        let status = wait_at_most(&mut child, std::time::Duration::from_secs(60)).unwrap();
        assert_eq!(status.code(), Some(143));
        // The directory made for it goes with a first signal; a second one ends the
        // process at once, which removes the partial files only.
        assert!(
            !dir.exists() || file_names(&dir).is_empty(),
            "twice: {twice}: {:?}",
            file_names(&dir)
        );
    }
}

/// A `verify` stopped is no answer: by its timeout, `c stopped by the timeout`, `s
/// UNKNOWN` and exit 1 (not 130, which means Ctrl-C); by SIGTERM, `s UNKNOWN` and 143.
#[test]
fn a_stopped_verify_says_unknown() {
    let tmp = tempfile::tempdir().unwrap();
    let p = dominoes(tmp.path(), 4, 4, 4);
    let dir = tmp.path().join("c");
    let o = polycover(&[
        "count",
        &p,
        "--symmetry",
        "none",
        "--certify",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let checker = checker();
    let args = [
        "verify",
        dir.to_str().unwrap(),
        "--checker",
        checker.to_str().unwrap(),
    ];
    let mut timed = args.to_vec();
    timed.extend(["--timeout", "0.5"]);
    let v = polycover(&timed);
    assert_eq!(v.status.code(), Some(1), "{}", stderr(&v));
    let text = stdout(&v);
    assert!(
        text.contains("c stopped by the timeout") && text.trim_end().ends_with("s UNKNOWN"),
        "{text}"
    );
    let child = spawn(&args);
    std::thread::sleep(std::time::Duration::from_millis(700));
    signal(&child, "TERM");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143));
    assert!(
        stdout(&o).trim_end().ends_with("s UNKNOWN"),
        "{}",
        stdout(&o)
    );
    // Once the checker runs, the signal stops it as the deadline does, and says so (it
    // used to end the process at once, "nothing found so far is reported").
    if stderr(&o).contains("c checking term") {
        assert!(
            stdout(&o).contains("c stopped by SIGTERM: the checker was stopped"),
            "{}",
            stdout(&o)
        );
    }
}

/// `count PUZZLE --certify DIR` with `args`, then `verify DIR --puzzle PUZZLE`: both
/// outputs, for the caller's assertions.
fn certified_and_verified(
    puzzle: &str,
    dir: &Path,
    args: &[&str],
) -> (std::process::Output, std::process::Output) {
    let mut count = vec!["count", puzzle];
    count.extend_from_slice(args);
    count.extend(["--certify", dir.to_str().unwrap()]);
    let o = polycover(&count);
    let checker = checker();
    let v = polycover(&[
        "verify",
        dir.to_str().unwrap(),
        "--puzzle",
        puzzle,
        "--checker",
        checker.to_str().unwrap(),
    ]);
    (o, v)
}

/// Pieces without copies are certified in layers too, the pieces last in the sweep and
/// the contexts as chains: in every mode, by the memo (the default for them) and checked
/// against the puzzle, with the count the DLX gives.
#[test]
fn pieces_without_copies_are_certified_in_layers_in_every_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let p = puzzle(tmp.path(), "four.toml", FOUR_PIECES);
    for mode in ["none", "rotations", "reflections"] {
        let dir = tmp.path().join(format!("c-{mode}"));
        let (o, v) = certified_and_verified(&p, &dir, &["--symmetry", mode]);
        assert_eq!(o.status.code(), Some(0), "{mode}: {}", stderr(&o));
        assert_eq!(v.status.code(), Some(0), "{mode}: {}", stderr(&v));
        let dlx = polycover(&["count", &p, "--symmetry", mode, "--solver", "dlx"]);
        assert_eq!(s_mc(&v), s_mc(&dlx), "{mode}");
    }
}

/// The certificate of a sweep (one piece in copies: the frontier's layers as the graph,
/// the input clauses deleted through cut lemmas) is accepted by the checker in every
/// symmetry mode, whichever engine counted, with the count the engine printed: boxes
/// whose options start one or several layers apart, and Burnside terms whose orbits
/// tie options together (and deny those that overlap themselves).
#[test]
fn the_layers_certify_boxes_in_every_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let boxes = [
        dominoes(tmp.path(), 2, 3, 4),
        dominoes(tmp.path(), 4, 4, 2),
        puzzle(
            tmp.path(),
            "l.toml",
            &L_TROMINOES
                .replace("[2, 3, 2]", "[3, 3, 2]")
                .replace("count = 4", "count = 6"),
        ),
    ];
    for (k, p) in boxes.iter().enumerate() {
        for mode in ["none", "rotations", "reflections"] {
            for solver in ["frontier", "memo"] {
                let dir = tmp.path().join(format!("c{k}-{mode}-{solver}"));
                let (o, v) =
                    certified_and_verified(p, &dir, &["--symmetry", mode, "--solver", solver]);
                assert_eq!(o.status.code(), Some(0), "{p} {mode}: {}", stderr(&o));
                assert_eq!(v.status.code(), Some(0), "{p} {mode}: {}", stderr(&v));
                assert_eq!(s_mc(&v), s_mc(&o), "{p} {mode} {solver}");
            }
        }
    }
    // Without --solver, --certify takes the frontier here.
    let dir = tmp.path().join("default");
    let o = polycover(&["count", &boxes[0], "--certify", dir.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("c solver frontier")
            && stdout(&o).contains("the default for a certificate"),
        "{}",
        stdout(&o)
    );
}

/// D7: optional cells and count ranges together, certified by the memo's table and by a
/// search tree, and checked against the puzzle (`verify --puzzle`): two corners that may
/// stay empty, L-trominoes 2 to 4 times and dominoes up to twice, 35 fillings.
#[test]
fn optional_cells_and_count_ranges_are_certified() {
    let tmp = tempfile::tempdir().unwrap();
    let p = puzzle(
        tmp.path(),
        "holes.toml",
        "name = \"holes\"\nbox = [4, 3, 1]\noptional = [[0,0,0], [3,2,0]]\n[[piece]]\n\
         name = \"L\"\ncells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = [2, 4]\n[[piece]]\n\
         name = \"I\"\ncells = [[0,0,0], [1,0,0]]\ncount = [0, 2]\n",
    );
    for solver in ["memo", "dlx"] {
        let dir = tmp.path().join(solver);
        let o = polycover(&[
            "count",
            &p,
            "--symmetry",
            "none",
            "--solver",
            solver,
            "--certify",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(s_mc(&o), "35", "{}", stderr(&o));
        let v = polycover(&[
            "verify",
            dir.to_str().unwrap(),
            "--puzzle",
            &p,
            "--checker",
            checker().to_str().unwrap(),
        ]);
        assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
        assert_eq!(s_mc(&v), "35");
    }
    // An option that fills only optional cells is refused, naming its items.
    let p = puzzle(
        tmp.path(),
        "lone.toml",
        "name = \"lone\"\nbox = [2, 2, 1]\noptional = [[1,1,0]]\n[[piece]]\nname = \"D\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = 1\n[[piece]]\nname = \"M\"\n\
         cells = [[0,0,0]]\ncount = [0, 2]\n",
    );
    let o = polycover(&[
        "count",
        &p,
        "--symmetry",
        "none",
        "--certify",
        tmp.path().join("lone").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("items 1,1,0 M) fills only optional cells"),
        "{}",
        stderr(&o)
    );
}

/// `--certify DIR` makes DIR only in a directory that exists, refused before the count
/// (a mistyped path used to make a chain of directories and write there), and a DIR it
/// made is gone again when no certificate is kept (a stop left it empty) (issue 62, the
/// new user's sweep).
#[test]
fn a_certificate_directory_is_made_in_one_that_exists_and_removed_when_nothing_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("no/such/cert");
    let out = crate::common::polycover(&["count", "soma", "--certify", deep.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("s mc"),
        "refused after the count"
    );
    assert!(!dir.path().join("no").exists());

    let puzzle = dir.path().join("d12.toml");
    std::fs::write(
        &puzzle,
        "name = \"d12\"\nbox = [12, 12, 1]\n[[piece]]\nname = \"D\"\ncells = [[0,0,0],[1,0,0]]\ncount = 72\n",
    )
    .unwrap();
    let cert = dir.path().join("cert");
    let out = crate::common::polycover(&[
        "count",
        puzzle.to_str().unwrap(),
        "--symmetry",
        "none",
        "--certify",
        cert.to_str().unwrap(),
        "--timeout",
        "0.05",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("c no certificate is kept"), "{text}");
    assert!(!cert.exists(), "the directory made for it stays");
}

/// `Certificate::write` tells its caller the bytes written so far (issue 63: the command
/// line's progress line hears the writer instead of polling `.partial` files): the last
/// figure it hears is the certificate's size, its CNFs and CPOG files of every term
/// together, and the figures never go down.
#[test]
fn the_writer_tells_the_bytes_it_has_written() {
    use polycover::{certify::Certificate, Problem, Stop};
    let dir = tempfile::tempdir().unwrap();
    let problem = Problem::load("dominoes-8x8", None).unwrap();
    let (engine, _) = Certificate::engine_for(&problem);
    let heard = std::sync::Mutex::new(Vec::new());
    let c = Certificate::write(
        &problem,
        &engine,
        &Stop::new(),
        None,
        &dir.path().join("cert"),
        &|bytes| heard.lock().unwrap().push(bytes),
    )
    .unwrap();
    let heard = heard.into_inner().unwrap();
    let size: u64 = c.terms.iter().map(|t| t.cnf_bytes + t.cpog_bytes).sum();
    assert!(c.terms.len() > 1, "Burnside terms");
    assert_eq!(heard.last(), Some(&size), "{heard:?}");
    assert!(heard.windows(2).all(|w| w[0] <= w[1]), "{heard:?}");
    assert!(heard.len() >= 2 * c.terms.len(), "{heard:?}");
}
