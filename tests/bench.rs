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
    for name in polycover::bench::Entrant::names() {
        assert!(
            names_word(&help, name),
            "`{name}` is not in bench --help:\n{help}"
        );
    }
    let out = polycover(&["bench", "soma", "--solvers", "sat-lingeling"]);
    assert_eq!(out.status.code(), Some(2));
    for name in polycover::bench::Entrant::names() {
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
    let five_t = format!("{}/tests/fixtures/five-t.toml", env!("CARGO_MANIFEST_DIR"));
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

/// A box on the chart: left, top, right, bottom.
type Box4 = (f64, f64, f64, f64);

fn overlap(a: Box4, b: Box4) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

fn attr(n: roxmltree::Node, name: &str) -> f64 {
    n.attribute(name)
        .unwrap_or_else(|| panic!("no {name} on {n:?}"))
        .parse()
        .unwrap()
}

fn rect_box(n: roxmltree::Node) -> Box4 {
    let (x, y) = (attr(n, "x"), attr(n, "y"));
    (x, y, x + attr(n, "width"), y + attr(n, "height"))
}

/// The chart as a person sees it: x labels in their own margin below the plots (their
/// text boxes, at a generous 0.65 em per character, touch no plot), the legend beside
/// the plots, equal times of two puzzles side by side (both colours visible in the
/// rendered plot), a distinct marker for a count stopped by the timeout and for a time
/// to UNSAT. Set BENCH_CHART_PNG=FILE to keep the rendering and look at it.
#[test]
fn bench_chart_keeps_labels_legend_and_points_apart() {
    use polycover::bench::{Row, Spread};
    let spread = |s: f64| {
        Some(Spread {
            median: s,
            min: s,
            max: s,
        })
    };
    let row = |puzzle: &str, engine: &str, first: f64, count: f64, n: u64| {
        let mut r = Row::new(puzzle, engine, None);
        r.first = spread(first);
        r.count = spread(count);
        r.solutions = Some(n.into());
        r.complete = true;
        r
    };
    let mut rows = vec![
        // Equal times, two puzzles, one engine: both must stay visible.
        row("Alpha", "dlx", 0.01, 1.0, 100),
        row("Beta", "dlx", 0.01, 1.0, 100),
        row("Alpha", "bits", 0.001, 0.1, 100),
        row("Beta", "bits", 0.002, 0.2, 100),
    ];
    // A long label, and a count stopped by the timeout.
    let mut stopped = row("Alpha", "sat-cadical-solver", 0.5, 60.0, 3);
    stopped.amo = Some(polycover::sat::Amo::Commander);
    stopped.complete = false;
    stopped.status = "timeout".into();
    rows.push(stopped);
    // No solution: a time to UNSAT.
    let mut unsat = Row::new("Gamma (unsolvable)", "dlx", None);
    unsat.unsat = spread(0.003);
    unsat.count = spread(0.003);
    unsat.solutions = Some(0u64.into());
    unsat.complete = true;
    rows.push(unsat);

    let svg = polycover::bench::svg(&rows).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed");
    let root = doc.root_element();
    let (width, height) = (attr(root, "width"), attr(root, "height"));
    let class = |c: &'static str| {
        doc.descendants()
            .filter(move |n| n.attribute("class") == Some(c))
    };
    let plots: Vec<Box4> = class("plot").map(rect_box).collect();
    assert_eq!(plots.len(), 2, "two panels");
    let legend = rect_box(class("legend-box").next().expect("a legend box"));
    let page = (0.0, 0.0, width, height);
    for plot in &plots {
        assert!(!overlap(legend, *plot), "the legend covers a plot");
    }
    assert!(
        legend.2 <= width && legend.3 <= height,
        "the legend is on the page"
    );

    // Rotated a quarter turn about their anchor, the labels read downwards from it.
    let labels: Vec<(String, Box4)> = class("x-label")
        .map(|n| {
            let (x, y, size) = (attr(n, "x"), attr(n, "y"), attr(n, "font-size"));
            let transform = n.attribute("transform").unwrap_or_default();
            assert!(transform.starts_with("rotate(-90"), "{transform}");
            let text = n.text().unwrap_or_default().to_string();
            let length = text.chars().count() as f64 * 0.65 * size;
            (text, (x - 0.8 * size, y, x + 0.25 * size, y + length))
        })
        .collect();
    assert_eq!(
        labels.len(),
        2 * 3,
        "three engines in each panel: {labels:?}"
    );
    for (i, (text, b)) in labels.iter().enumerate() {
        for plot in &plots {
            assert!(!overlap(*b, *plot), "label {text} crosses into a plot");
        }
        assert!(!overlap(*b, legend), "label {text} under the legend");
        assert!(b.3 <= page.3 && b.0 >= 0.0, "label {text} off the page");
        for (other, c) in &labels[i + 1..] {
            assert!(!overlap(*b, *c), "labels {text} and {other} overlap");
        }
    }

    // Points: kinds, and equal times side by side.
    let points: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.starts_with("point "))
        })
        .collect();
    let kind = |n: &roxmltree::Node| n.attribute("class").unwrap()["point ".len()..].to_string();
    let stopped: Vec<_> = points.iter().filter(|n| kind(n) == "stopped").collect();
    assert_eq!(stopped.len(), 1, "one count stopped by the timeout");
    let finished = points.iter().find(|n| kind(n) == "count").unwrap();
    assert_ne!(
        stopped[0].tag_name().name(),
        finished.tag_name().name(),
        "a stopped count has its own marker shape"
    );
    let unsats: Vec<_> = points.iter().filter(|n| kind(n) == "unsat").collect();
    assert_eq!(unsats.len(), 1, "one time to UNSAT");
    assert!(
        !points.iter().any(|n| kind(n) == "first"
            && n.attribute("data-puzzle") == unsats[0].attribute("data-puzzle")),
        "the unsolvable puzzle has no first solution"
    );
    let equal: Vec<(f64, f64)> = points
        .iter()
        .filter(|n| n.tag_name().name() == "circle" && n.attribute("data-label") == Some("0"))
        .map(|n| (attr(*n, "cx"), attr(*n, "cy")))
        .collect();
    assert_eq!(
        equal.len(),
        4,
        "Alpha and Beta's dlx, in two panels: {equal:?}"
    );
    for pair in [(0, 1), (2, 3)] {
        let (a, b) = (equal[pair.0], equal[pair.1]);
        assert_eq!(a.1, b.1, "equal times, equal heights");
        assert!(
            (a.0 - b.0).abs() >= 2.0 * 4.5,
            "equal points hide each other: {a:?} {b:?}"
        );
    }

    // Rendered: each puzzle's colour shows inside the plots.
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    if let Some(path) = std::env::var_os("BENCH_CHART_PNG") {
        let path = std::path::PathBuf::from(path);
        pixmap.save_png(&path).unwrap();
        // With its text, for a renderer that has fonts (rsvg-convert, a browser).
        std::fs::write(path.with_extension("svg"), &svg).unwrap();
    }
    let colour = |puzzle: &str| {
        let node = points
            .iter()
            .find(|n| n.tag_name().name() == "circle" && n.attribute("data-puzzle") == Some(puzzle))
            .unwrap();
        let hex = node.attribute("fill").unwrap().trim_start_matches('#');
        let byte = |k: usize| u8::from_str_radix(&hex[k..k + 2], 16).unwrap();
        [byte(0), byte(2), byte(4)]
    };
    for puzzle in ["0", "1"] {
        let want = colour(puzzle);
        let seen = (0..size.height())
            .flat_map(|y| (0..size.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                plots
                    .iter()
                    .any(|p| overlap((x as f64, y as f64, x as f64 + 1.0, y as f64 + 1.0), *p))
            })
            .filter(|&(x, y)| {
                let p = pixmap.pixel(x, y).unwrap().demultiply();
                [p.red(), p.green(), p.blue()] == want
            })
            .count();
        // Two markers of radius 4.5 in each panel: well over 100 pixels.
        assert!(
            seen > 100,
            "puzzle {puzzle}: {seen} pixels of its colour in the plots"
        );
    }
}
