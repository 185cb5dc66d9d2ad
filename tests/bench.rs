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
    check_bench_csv(&std::fs::read_to_string(&csv).unwrap());
    check_bench_svg(&std::fs::read_to_string(&svg).unwrap());
}

/// The bench's CSV: every column, a row per puzzle, engine and encoding, and counts that
/// agree across engines.
fn check_bench_csv(text: &str) {
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
}

/// The bench's SVG: well-formed, with a label for each engine, encoding and puzzle.
fn check_bench_svg(svg_text: &str) {
    let doc = roxmltree::Document::parse(svg_text).expect("the SVG is well-formed XML");
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
    if !needs(&[
        Need::Tool("minizinc"),
        Need::Tool("fzn-gecode"),
        Need::Python(&["ortools"]),
    ]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("cp.csv");
    let python = python();
    // No solution: both solvers say so, and that is a finished count of 0.
    let five_t = format!(
        "{}/tests/fixtures/five-t.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
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
        assert!(
            row["unsat_s"].parse::<f64>().unwrap() > 0.0,
            "a time to UNSAT: {row:?}"
        );
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
    if !needs(&[Need::Tool("minizinc"), Need::Tool("fzn-gecode")]) {
        return;
    }
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

/// Whether `text` names `word` as a whole word (not as part of `sat-cadical` for `sat`).
fn names_word(text: &str, word: &str) -> bool {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
    text.match_indices(word).any(|(at, _)| {
        !part(text[..at].chars().next_back()) && !part(text[at + word.len()..].chars().next())
    })
}

/// `sat` means one thing everywhere: in `bench --solvers` what `count --solver sat` runs,
/// the build's default backend (CaDiCaL with the MRV decisions), and its rows say so.
/// `--help` lists every name `--solvers` takes, and an unknown name is refused with them.
#[test]
fn bench_sat_means_what_count_solver_sat_means() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sat.csv");
    let out = polycover(&[
        "bench",
        "soma",
        "--solvers",
        "sat",
        "--timeout",
        "60",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = csv_rows(&csv);
    let engines: Vec<&str> = rows.iter().map(|r| r["engine"].as_str()).collect();
    let default_backend = if cfg!(feature = "cadical") {
        "sat-cadical"
    } else {
        "sat-varisat"
    };
    assert_eq!(engines, ["dlx", default_backend], "{rows:?}");
    assert_eq!(rows[1]["solutions"], "480", "{rows:?}");

    // `count --solver sat` names the same backend on its solver line.
    let count = polycover(&["count", "soma", "--solver", "sat"]);
    let backend = default_backend.trim_start_matches("sat-");
    assert!(
        stdout(&count)
            .lines()
            .any(|l| l.starts_with(&format!("c solver sat: backend {backend}"))),
        "{}",
        stdout(&count)
    );

    let help = stdout(&polycover(&["bench", "--help"]));
    for name in bench_names() {
        assert!(
            names_word(&help, name),
            "`{name}` is not in bench --help:\n{help}"
        );
    }
    let out = polycover(&["bench", "soma", "--solvers", "sat-lingeling"]);
    assert_eq!(out.status.code(), Some(2));
    for name in bench_names() {
        assert!(names_word(&stderr(&out), name), "{}", stderr(&out));
    }
}

/// A puzzle with no solution has no time to its first solution, in any row: each engine,
/// the external `cadical` included, gives its time to UNSAT in its own column, and the
/// chart draws it with its own marker, never as a first solution.
#[test]
fn bench_gives_a_time_to_unsat_not_a_first_solution() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("unsat.csv");
    let svg = dir.path().join("unsat.svg");
    let five_t = format!(
        "{}/tests/fixtures/five-t.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let out = polycover(&[
        "bench",
        &five_t,
        "--solvers",
        "dlx,bits,sat,cadical",
        "--timeout",
        "60",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 4, "{rows:?}");
    for row in rows.iter().filter(|r| !r["status"].starts_with("skipped")) {
        assert_eq!(row["first_s"], "", "no first solution: {row:?}");
        assert!(
            row.get("unsat_s")
                .and_then(|s| s.parse::<f64>().ok())
                .is_some_and(|s| s > 0.0),
            "a time to UNSAT: {row:?}"
        );
    }
    assert!(
        stdout(&out).contains("first none, UNSAT"),
        "{}",
        stdout(&out)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let points: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("class"))
        .filter(|c| c.starts_with("point "))
        .collect();
    assert!(points.contains(&"point unsat"), "{points:?}");
    assert!(!points.contains(&"point first"), "{points:?}");
}

/// A row's peak memory is its own: Soma's rows read the same after the 6x10 pentomino
/// rectangle's (whose pairwise CNF row takes 200-300 MiB) as alone, within the run-to-run
/// spread of a SAT row stopped by its timeout. Each run is measured in a fresh process;
/// measured in one process, Soma's DLX row read 28 MiB instead of 6.5 after it.
#[test]
fn bench_memory_of_a_row_does_not_depend_on_the_rows_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let peaks = |puzzles: &[&str], name: &str| {
        let csv = dir.path().join(name);
        let mut args = vec!["bench"];
        args.extend(puzzles);
        let solvers = if cfg!(feature = "cadical") {
            "dlx,sat-cadical"
        } else {
            "dlx,sat-varisat"
        };
        args.extend([
            "--solvers",
            solvers,
            "--amo",
            "pairwise",
            "--timeout",
            "1",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let out = polycover(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        csv_rows(&csv)
            .into_iter()
            .filter(|r| r["puzzle"] == "Soma cube")
            .map(|r| (r["engine"].clone(), r["peak_mib"].parse::<f64>().ok()))
            .collect::<Vec<_>>()
    };
    let alone = peaks(&["soma"], "alone.csv");
    let after = peaks(&["pentomino-6x10", "soma"], "after.csv");
    assert_eq!(alone.len(), 2, "{alone:?}");
    for ((engine, a), (_, b)) in alone.iter().zip(&after) {
        let (Some(a), Some(b)) = (a, b) else {
            // No /proc here: no memory figures to compare. Linux always has them.
            if cfg!(target_os = "linux") {
                panic!("no peak memory on Linux: {alone:?}");
            }
            continue;
        };
        assert!(
            (a - b).abs() <= (0.25 * a).max(2.5),
            "{engine}: {a} MiB alone, {b} MiB after the pentominoes"
        );
    }
}

/// Every name `bench --solvers` takes: the registry's bench names, the external `cadical`,
/// and the external programs (the binary's `Entrant::names`, which a test outside the
/// binary cannot call).
fn bench_names() -> Vec<&'static str> {
    let mut names = polycover::Engine::bench_names();
    names.extend(["cadical", "ganak", "minizinc", "cpsat"]);
    names
}

/// `--threads 2,1`: each engine at each thread count (sorted, the smallest first), with
/// its CPU time, cores busy, speed-up against its own one-thread count and efficiency;
/// counts agree across thread counts. Only numbers are checked, never their size.
#[test]
fn bench_scales_each_engine_over_a_list_of_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("scaling.csv");
    let out = polycover(&[
        "bench",
        "soma",
        "--solvers",
        "dlx,bits,memo",
        "--threads",
        "2,1",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("threads 1,2 per count"), "{text}");
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 3 * 2, "{rows:?}");
    for engine in ["dlx", "bits", "memo"] {
        let mine: Vec<_> = rows.iter().filter(|r| r["engine"] == engine).collect();
        let threads: Vec<&str> = mine.iter().map(|r| r["threads"].as_str()).collect();
        assert_eq!(threads, ["1", "2"], "{engine}: {rows:?}");
        for r in &mine {
            assert_eq!(r["solutions"], "480", "{r:?}");
            assert_eq!(r["complete"], "true", "{r:?}");
            for column in ["count_s", "cpu_s", "cpu_use", "speedup", "efficiency"] {
                let x: f64 = r[column]
                    .parse()
                    .unwrap_or_else(|e| panic!("{column} of {r:?}: {e}"));
                assert!(x.is_finite() && x >= 0.0, "{column} of {r:?}");
            }
        }
        // The one-thread row is the reference.
        assert_eq!(mine[0]["speedup"], "1.00", "{rows:?}");
        assert_eq!(mine[0]["efficiency"], "1.00", "{rows:?}");
        let lines = text
            .lines()
            .filter(|l| l.starts_with("Soma cube") && names_word(l, engine))
            .count();
        assert_eq!(lines, 2, "{engine}: {text}");
    }
    // Each engine measured against the DLX at the same thread count, too.
    let bits2 = rows
        .iter()
        .find(|r| r["engine"] == "bits" && r["threads"] == "2")
        .unwrap();
    assert!(bits2["count_vs_dlx"].parse::<f64>().is_ok(), "{bits2:?}");
    assert!(
        text.lines()
            .any(|l| l.contains("speed-up") && l.contains("busy")),
        "{text}"
    );

    // Without `dlx` in --solvers the DLX is not run: each engine is its own reference.
    let out = polycover(&["bench", "soma", "--solvers", "bits", "--threads", "1,2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.lines().any(|l| names_word(l, "dlx")), "{text}");
    assert_eq!(
        text.lines().filter(|l| names_word(l, "bits")).count(),
        2,
        "{text}"
    );

    // One thread count: the lines are those of a plain bench, without scaling fields.
    let out = polycover(&["bench", "soma", "--solvers", "bits", "--threads", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("2 thread(s) per count"), "{text}");
    assert!(!text.contains("speed-up"), "{text}");
}

#[test]
fn bench_rejects_a_bad_thread_list() {
    for (list, says) in [
        (
            "0,abc",
            "`abc`: each thread count must be a whole number from 0",
        ),
        ("1,,2", "``: each thread count"),
        ("1,2,1", "the thread count 1 is given twice"),
        ("2,5000", "`5000`: each thread count"),
        ("1.5", "`1.5`: each thread count"),
    ] {
        let out = polycover(&["bench", "soma", "--threads", list]);
        assert_eq!(out.status.code(), Some(2), "{list}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{list}: {}", stderr(&out));
    }
}
