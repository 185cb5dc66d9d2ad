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
