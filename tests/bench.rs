//! `polycover bench`: the columns of its CSV, a well-formed SVG, and skipped engines.

use crate::common::*;

#[test]
fn bench_writes_csv_rows_and_a_wellformed_svg() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("dominoes.toml");
    std::fs::write(&puzzle, DOMINOES).unwrap();
    let csv = dir.path().join("out.csv");
    let svg = dir.path().join("out.svg");
    let out = polycover(&[
        "bench",
        puzzle.to_str().unwrap(),
        "soma",
        "--amo",
        "product,ladder",
        "--solvers",
        "dlx,bits,sat-cadical,sat-varisat,ganak",
        "--threads",
        "2",
        "--repeat",
        "2",
        "--timeout",
        "0.5",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for column in [
        "puzzle",
        "engine",
        "amo",
        "threads",
        "status",
        "vars",
        "clauses",
        "literals",
        "dimacs_bytes",
        "compile_s",
        "first_s",
        "count_s",
        "solutions",
        "complete",
        "solutions_per_s",
        "peak_mib",
        "first_vs_dlx",
        "count_vs_dlx",
    ] {
        assert!(
            header.contains(&column),
            "missing column {column}: {header:?}"
        );
    }
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == header.len()), "{text}");
    // Per puzzle: dlx, bits, two SAT backends and ganak, each x 2 encodings.
    assert_eq!(rows.len(), 2 * 8, "{text}");
    // In-process counts run on the plan's threads; external programs on their own one.
    for r in &rows {
        let expected = if r[col("engine")] == "ganak" {
            "1"
        } else {
            "2"
        };
        assert_eq!(r[col("threads")], expected, "{text}");
    }
    let find = |puzzle: &str, engine: &str, amo: &str| {
        rows.iter()
            .find(|r| {
                r[col("puzzle")] == puzzle && r[col("engine")] == engine && r[col("amo")] == amo
            })
            .unwrap_or_else(|| panic!("no row {puzzle} {engine} {amo}: {text}"))
    };
    let dlx = find("dominoes", "dlx", "");
    let sat = find("dominoes", "sat-varisat", "product");
    assert_eq!(dlx[col("solutions")], sat[col("solutions")], "{text}");
    let backend = if cfg!(feature = "cadical") {
        "sat-cadical"
    } else {
        "sat-varisat"
    };
    let cadical = find("dominoes", backend, "ladder");
    assert_eq!(cadical[col("solutions")], dlx[col("solutions")], "{text}");
    assert_eq!(cadical[col("complete")], "true", "{text}");
    assert_eq!(dlx[col("complete")], "true");
    // The CNF rows carry their size; the ratios are filled against the DLX.
    assert!(sat[col("clauses")].parse::<u64>().unwrap() > 0);
    assert!(sat[col("dimacs_bytes")].parse::<u64>().unwrap() > 0);
    assert!(sat[col("first_vs_dlx")].parse::<f64>().unwrap() > 0.0);
    assert_eq!(find("Soma cube", "dlx", "")[col("solutions")], "480");
    // An engine that is not installed is a skipped row, not a failure.
    let ganak = find("dominoes", "ganak", "ladder");
    if !ganak[col("status")].starts_with("skipped") {
        assert_eq!(ganak[col("solutions")], dlx[col("solutions")]);
    }
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&svg_text).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let labels: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    for label in [
        "dlx",
        "sat-varisat/product",
        "sat-varisat/ladder",
        "dominoes",
        "Soma cube",
    ] {
        assert!(labels.contains(&label), "{label} not in the chart");
    }
}

#[test]
fn bench_rejects_an_unknown_encoding() {
    let out = polycover(&["bench", "soma", "--amo", "zigzag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown at-most-one encoding `zigzag`"),
        "{}",
        stderr(&out)
    );
}

/// The rows of a `bench --csv` file, as maps from column name to value.
fn csv_rows(path: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

/// Gecode (through MiniZinc) and CP-SAT (through tests/cpsat.py, built into the binary)
/// are rows like any engine: first solution and count, checked, with ratios to the DLX.
/// Slothouber-Graatsma's model carries lex-leader constraints.
#[test]
fn bench_runs_minizinc_and_cpsat_on_the_linear_models() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("cp.csv");
    let python = python();
    // No solution: both solvers say so, and that is a finished count of 0.
    let five_t = format!("{}/tests/fixtures/five-t.toml", env!("CARGO_MANIFEST_DIR"));
    let out = polycover_env(
        &[
            "bench",
            "soma",
            "slothouber-graatsma",
            &five_t,
            "--solvers",
            "minizinc,cpsat",
            "--timeout",
            "120",
            "--csv",
            csv.to_str().unwrap(),
        ],
        &[("POLYCOVER_PYTHON", python.as_str())],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 3 * 3, "{rows:?}");
    for engine in ["minizinc", "cpsat"] {
        let row = rows
            .iter()
            .find(|r| r["solutions"] == "0" && r["engine"] == engine)
            .unwrap_or_else(|| panic!("no unsolvable {engine} row: {rows:?}"));
        assert_eq!(row["status"], "ok", "{row:?}");
        assert_eq!(row["complete"], "true", "{row:?}");
        assert_eq!(row["first_s"], "", "no first solution: {row:?}");
    }
    for (puzzle, want) in [("Soma cube", "480"), ("Slothouber-Graatsma", "1")] {
        for engine in ["minizinc", "cpsat"] {
            let row = rows
                .iter()
                .find(|r| r["puzzle"] == puzzle && r["engine"] == engine)
                .unwrap_or_else(|| panic!("no {puzzle} {engine} row: {rows:?}"));
            assert_eq!(row["status"], "ok", "{row:?}");
            assert_eq!(row["solutions"], want, "{row:?}");
            assert_eq!(row["complete"], "true", "{row:?}");
            assert!(row["first_s"].parse::<f64>().unwrap() > 0.0, "{row:?}");
            assert!(row["first_vs_dlx"].parse::<f64>().unwrap() > 0.0, "{row:?}");
            assert_eq!(row["amo"], "", "a linear model has no at-most-one encoding");
        }
    }
}

/// Missing programs are skipped rows; a program that prints a wrong answer fails the
/// bench (exit 1): here a stand-in `minizinc` that prints Gecode's one Soma solution
/// twice when asked for all of them.
#[test]
fn bench_skips_missing_cp_solvers_and_fails_on_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let csv = dir.path().join("skipped.csv");
    let out = polycover_env(
        &[
            "bench",
            "soma",
            "--solvers",
            "minizinc,cpsat",
            "--csv",
            csv.to_str().unwrap(),
        ],
        &[
            ("PATH", empty.to_str().unwrap()),
            ("POLYCOVER_PYTHON", "/nonexistent/python3"),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = csv_rows(&csv);
    let status = |engine: &str| {
        rows.iter()
            .find(|r| r["engine"] == engine)
            .map(|r| r["status"].clone())
            .unwrap_or_default()
    };
    assert_eq!(status("minizinc"), "skipped: minizinc not on PATH");
    assert!(
        status("cpsat").starts_with("skipped: /nonexistent/python3 cannot import ortools"),
        "{rows:?}"
    );

    // One real solution, from Gecode.
    let model = dir.path().join("soma.mzn");
    let out = polycover(&[
        "export",
        "soma",
        "--format",
        "mzn",
        "-o",
        model.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let gecode = std::process::Command::new("minizinc")
        .args(["--solver", "gecode"])
        .arg(&model)
        .output()
        .expect("minizinc: run `bash .ci/run`, which installs it");
    let line = String::from_utf8_lossy(&gecode.stdout)
        .lines()
        .find(|l| l.starts_with("x = ["))
        .expect("a solution")
        .to_string();
    let fake = dir.path().join("fake");
    std::fs::create_dir(&fake).unwrap();
    let answer = dir.path().join("answer.txt");
    std::fs::write(
        &answer,
        format!("{line}\n----------\n{line}\n----------\n==========\n"),
    )
    .unwrap();
    let script = fake.join("minizinc");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --solvers ]; then echo org.gecode.gecode; exit 0; fi\ncat '{}'\n",
            answer.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", fake.display());
    let out = polycover_env(
        &["bench", "soma", "--solvers", "minizinc"],
        &[("PATH", path.as_str())],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("the same solution was printed twice"),
        "{}",
        stderr(&out)
    );
}
