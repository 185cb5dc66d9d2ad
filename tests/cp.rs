//! The linear models (`export --format mzn|opb`): MiniZinc with Gecode (Debian packages
//! `minizinc` and `flatzinc`, installed by `.ci/run`) counts the MiniZinc model, and the
//! OPB model, read back as exact cover, counts the same with polycover's DLX, and with
//! OR-Tools CP-SAT (`tests/cpsat.py`, PyPI `ortools` in the virtualenv `.ci/run` makes).
//! Where they are missing their tests are skipped (`tests/needs.rs`).

use std::process::Command;

use polycover::{Item, Matrix};

use crate::common::*;

fn export(puzzle: &str, format: &str, mode: Option<&str>) -> String {
    let mut args = vec!["export", puzzle, "--format", format];
    if let Some(m) = mode {
        args.extend(["--symmetry", m]);
    }
    let out = polycover(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn gecode_counts_the_minizinc_model() {
    if !needs(&[Need::Tool("minizinc"), Need::Tool("fzn-gecode")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let dominoes = dir.path().join("dominoes.toml");
    std::fs::write(&dominoes, DOMINOES).unwrap();
    for (puzzle, mode, want) in [
        ("soma", None, 480),
        // Nothing to pin: an unconditional lex_lesseq per group element.
        (dominoes.to_str().unwrap(), Some("rotations"), 7),
        (dominoes.to_str().unwrap(), Some("none"), 32),
        ("slothouber-graatsma", Some("none"), 8),
        // The canonical-form check as lex_lesseq constraints: a pinned representative
        // with a nontrivial stabiliser, and Soma's mirror pairs.
        ("slothouber-graatsma", None, 1),
        ("slothouber-graatsma", Some("reflections"), 1),
        ("soma", Some("reflections"), 240),
        ("hesselink-5", None, 1),
        ("hesselink-5", Some("none"), 8),
        // Optional cells (at most one), count ranges (a pair of bounds) and colours.
        (
            "tests/fixtures/ranges/optional-corner.toml",
            Some("none"),
            7,
        ),
        ("tests/fixtures/ranges/coloured-bars.toml", Some("none"), 11),
    ] {
        let model = dir.path().join("model.mzn");
        std::fs::write(&model, export(puzzle, "mzn", mode)).unwrap();
        let out = Command::new("minizinc")
            .args(["--solver", "gecode", "--all-solutions"])
            .arg(&model)
            .output()
            .unwrap_or_else(|e| panic!("minizinc: {e}: run `bash .ci/run`, which installs it"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let solutions = text.lines().filter(|l| *l == "----------").count();
        assert_eq!(solutions, want, "{puzzle} {mode:?}");
        assert!(
            text.lines().any(|l| l == "=========="),
            "the search was complete"
        );
        assert!(text.lines().any(|l| l.starts_with("x = [")), "{text}");
    }
}

/// Reads an OPB exact-cover model back: one item per constraint (`+1 xa +1 xb ... = k ;`),
/// one option per variable; `+1 xk = 0 ;` (the symmetry reduction's units) removes one.
fn read_opb(text: &str) -> Matrix {
    let head = text.lines().next().unwrap();
    let numbers: Vec<usize> = head
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    let [variables, constraints] = numbers[..] else {
        panic!("bad header {head}")
    };
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('*')).collect();
    assert_eq!(rows.len(), constraints);
    let mut items = Vec::new();
    let mut covers: Vec<Vec<u32>> = vec![Vec::new(); variables];
    let mut fixed_to_0 = vec![false; variables];
    // Items by their variables: a range comes as a `>=` pair on the same variables.
    let mut by_terms: std::collections::HashMap<Vec<usize>, usize> = Default::default();
    for row in &rows {
        let body = row
            .strip_suffix(';')
            .unwrap_or_else(|| panic!("no ; in {row}"))
            .trim();
        let (lhs, rhs, relation) = match body.split_once(" = ") {
            Some((l, r)) => (l, r, "="),
            None => {
                let (l, r) = body.split_once(" >= ").unwrap_or_else(|| panic!("{row}"));
                (l, r, ">=")
            }
        };
        let signed: Vec<(i64, usize)> = lhs
            .split_whitespace()
            .collect::<Vec<_>>()
            .chunks(2)
            .map(|pair| {
                let sign = match pair[0] {
                    "+1" => 1,
                    "-1" => -1,
                    c => panic!("coefficient {c} in {row}"),
                };
                (sign, pair[1].strip_prefix('x').unwrap().parse().unwrap())
            })
            .collect();
        let terms: Vec<usize> = signed.iter().map(|&(_, v)| v).collect();
        let rhs: i64 = rhs.trim().parse().unwrap();
        if relation == "=" && rhs == 0 {
            for v in terms {
                fixed_to_0[v - 1] = true;
            }
            continue;
        }
        let k = *by_terms.entry(terms.clone()).or_insert_with(|| {
            items.push(Item::range(
                format!("c{}", items.len()),
                0,
                terms.len() as u32,
            ));
            for &v in &terms {
                covers[v - 1].push((items.len() - 1) as u32);
            }
            items.len() - 1
        });
        let item = &mut items[k];
        match (relation, signed[0].0) {
            ("=", _) => (item.min, item.max) = (rhs as u32, rhs as u32),
            (_, 1) => item.min = rhs as u32,
            _ => item.max = (-rhs) as u32,
        }
    }
    let mut m = Matrix::new(items);
    for (v, option) in covers.iter().enumerate() {
        if !fixed_to_0[v] {
            m.push_option(option);
        }
    }
    m
}

#[test]
fn the_opb_model_is_the_exact_cover() {
    for (puzzle, mode, want) in [
        ("soma", None, 480),
        ("slothouber-graatsma", Some("none"), 8),
        ("hesselink-5", None, 1),
        (
            "tests/fixtures/ranges/optional-corner.toml",
            Some("none"),
            7,
        ),
        ("tests/fixtures/ranges/coloured-bars.toml", Some("none"), 11),
    ] {
        let text = export(puzzle, "opb", mode);
        assert!(text.starts_with("* #variable= "), "{text}");
        let m = read_opb(&text);
        let n = m.count_covers();
        assert_eq!(n, want, "{puzzle} {mode:?}");
    }
}

/// `decode` accepts a MiniZinc answer (Gecode's, for real) and the same model as
/// pseudo-Boolean `v` lines, and rejects a corrupted one with exit 2.
#[test]
fn decode_checks_minizinc_and_opb_answers() {
    if !needs(&[Need::Tool("minizinc"), Need::Tool("fzn-gecode")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("soma.mzn");
    std::fs::write(&model, export("soma", "mzn", None)).unwrap();
    let out = Command::new("minizinc")
        .args(["--solver", "gecode"])
        .arg(&model)
        .output()
        .expect("minizinc: run `bash .ci/run`, which installs it");
    let answer = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = answer
        .lines()
        .find(|l| l.starts_with("x = ["))
        .unwrap_or_else(|| panic!("{answer}"))
        .to_string();
    let decode = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        polycover(&["decode", "soma", "--model", path.to_str().unwrap()])
    };
    let out = decode("mzn.txt", &answer);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    assert!(stdout(&out).contains("c the model is a valid solution of Soma cube"));
    // The same assignment as a pseudo-Boolean solver prints it.
    let values: Vec<&str> = line["x = [".len()..line.len() - 1].split(", ").collect();
    let literals: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(k, v)| format!("{}x{}", if *v == "1" { "" } else { "-" }, k + 1))
        .collect();
    let opb = format!("s SATISFIABLE\nv {}\n", literals.join(" "));
    let out = decode("opb.txt", &opb);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    // Corrupted: one chosen placement dropped.
    let first_one = values.iter().position(|v| *v == "1").unwrap();
    let mut broken: Vec<&str> = values.clone();
    broken[first_one] = "0";
    let out = decode(
        "broken.txt",
        &format!("x = [{}]\n----------\n", broken.join(", ")),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let out = decode(
        "broken-opb.txt",
        &opb.replacen(
            &format!(" x{}", first_one + 1),
            &format!(" -x{}", first_one + 1),
            1,
        ),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
}

fn cpsat(command: &str, opb: &std::path::Path) -> String {
    let script = format!(
        "{}/tests/cpsat.py",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let out = Command::new(python())
        .args([script.as_str(), command])
        .arg(opb)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}: run `bash .ci/run`", python()));
    assert!(
        out.status.success(),
        "cpsat.py {command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// OR-Tools CP-SAT (tests/cpsat.py) counts our OPB model, and its first Bedlam solution
/// decodes as a valid solution.
#[test]
fn cpsat_counts_the_opb_model_and_its_answers_decode() {
    if !needs(&[Need::Python(&["ortools"])]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, mode, want) in [
        ("soma", None, 480),
        ("hesselink-5", Some("none"), 8),
        ("slothouber-graatsma", Some("none"), 8),
        // Lex-leader clauses over auxiliary variables: still one count per class.
        ("slothouber-graatsma", None, 1),
        ("soma", Some("reflections"), 240),
        ("tests/fixtures/ranges/coloured-bars.toml", Some("none"), 11),
    ] {
        let opb = dir.path().join("model.opb");
        std::fs::write(&opb, export(puzzle, "opb", mode)).unwrap();
        let out = cpsat("count", &opb);
        assert_eq!(
            out.lines().last(),
            Some(format!("s mc {want}").as_str()),
            "{puzzle} {mode:?}"
        );
    }
    let opb = dir.path().join("bedlam.opb");
    std::fs::write(&opb, export("bedlam", "opb", None)).unwrap();
    let answer = dir.path().join("bedlam.answer");
    std::fs::write(&answer, cpsat("solve", &opb)).unwrap();
    let out = polycover(&["decode", "bedlam", "--model", answer.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    // An answer that also assigns the lex-leader chains' auxiliary variables decodes
    // to its placements.
    let opb = dir.path().join("sg.opb");
    let text = export("slothouber-graatsma", "opb", None);
    assert!(text.contains("lex-leader"), "{text}");
    std::fs::write(&opb, text).unwrap();
    let answer_text = cpsat("solve", &opb);
    let n_options = compile("slothouber-graatsma", polycover::SymmetryMode::Rotations)
        .matrix()
        .num_options();
    assert!(
        answer_text.contains(&format!(" x{}", n_options + 1))
            || answer_text.contains(&format!(" -x{}", n_options + 1)),
        "auxiliary variables in the answer"
    );
    std::fs::write(&answer, answer_text).unwrap();
    let out = polycover(&[
        "decode",
        "slothouber-graatsma",
        "--model",
        answer.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
}

/// A model with no solution: Gecode prints only MiniZinc's `=====UNSATISFIABLE=====`,
/// which `decode` reads as an unsatisfiable answer (exit 20).
#[test]
fn decode_reads_gecodes_unsatisfiable_answer() {
    if !needs(&[Need::Tool("minizinc"), Need::Tool("fzn-gecode")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let five_t = format!(
        "{}/tests/fixtures/five-t.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let model = dir.path().join("five-t.mzn");
    std::fs::write(&model, export(&five_t, "mzn", None)).unwrap();
    let out = Command::new("minizinc")
        .args(["--solver", "gecode"])
        .arg(&model)
        .output()
        .expect("minizinc: run `bash .ci/run`, which installs it");
    let answer = dir.path().join("answer.txt");
    std::fs::write(&answer, &out.stdout).unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("=====UNSATISFIABLE====="),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = polycover(&["decode", &five_t, "--model", answer.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(20), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("s UNSATISFIABLE"));
}
