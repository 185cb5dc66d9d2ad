//! The 3-D view (`solve --html`, `enumerate --html`): the page's scene read back, and the
//! page run in a real browser, headless Chromium (Debian `chromium`, installed by
//! `.ci/run`) with WebGL through SwiftShader, driven over the DevTools protocol by
//! `tests/html_view.py` (websocket-client and Pillow, in the virtualenv `.ci/run`
//! makes). A missing browser or Python package fails the test, saying what installs it.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::*;

/// The scene the page's script draws: the JSON of its scene element.
fn scene(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"scene\">";
    let start = page.find(open).expect("a scene element") + open.len();
    let end = start + page[start..].find("</script>").expect("the scene's end");
    serde_json::from_str(&page[start..end]).expect("the scene is valid JSON")
}

/// Nothing in the page is fetched: no address, no external script, style or image.
fn assert_self_contained(page: &str) {
    let lower = page.to_ascii_lowercase();
    for external in [
        "http://",
        "https://",
        "src=",
        "href=",
        "<link",
        "<img",
        "@import",
        "url(",
        "fetch(",
        "xmlhttprequest",
    ] {
        assert!(!lower.contains(external), "the page has {external}");
    }
    assert_eq!(
        lower.matches("<script").count(),
        2,
        "the scene and the renderer"
    );
}

/// Runs `solve PUZZLE --html` (and `--svg`) in `dir`; returns the page and the picture.
fn solve(dir: &Path, puzzle: &str) -> (String, String) {
    let html = dir.join(format!("{puzzle}.html"));
    let svg = dir.join(format!("{puzzle}.svg"));
    let out = polycover(&[
        "solve",
        puzzle,
        "--html",
        html.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("c 3-D view {}", html.display())));
    (
        std::fs::read_to_string(&html).unwrap(),
        std::fs::read_to_string(&svg).unwrap(),
    )
}

/// The page of a Bedlam solution: small, self-contained, every piece with its cells
/// (64 distinct cells of the 4x4x4 cube) and the colour the SVG picture of the same
/// solution gives it (there, the top faces show the colour itself).
#[test]
fn the_page_holds_the_solution_in_the_pictures_colours() {
    let dir = tempfile::tempdir().unwrap();
    let (page, svg) = solve(dir.path(), "bedlam");
    assert!(page.len() < 40_000, "{} bytes", page.len());
    assert_self_contained(&page);
    assert!(
        page.contains("<title>Bedlam cube</title>"),
        "the puzzle's name"
    );
    let scene = scene(&page);
    let pieces = scene["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 13);
    let mut cells = BTreeSet::new();
    for piece in pieces {
        for cell in piece["cells"].as_array().unwrap() {
            let c: Vec<i64> = cell
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            assert!(c.iter().all(|v| (0..4).contains(v)), "{c:?}");
            assert!(cells.insert(c), "a cell in two pieces");
        }
        let colour = piece["colour"].as_str().unwrap();
        let symbol = piece["symbol"].as_str().unwrap();
        let face = format!("fill=\"{colour}\" stroke=\"{colour}\"");
        assert!(
            svg.lines()
                .any(|l| l.contains(&face) && l.contains(&format!("data-piece=\"{symbol}\""))),
            "piece {symbol}: no face of colour {colour} in the SVG"
        );
        assert!(!piece["name"].as_str().unwrap().is_empty());
    }
    assert_eq!(cells.len(), 64);
}

/// `sample --html DIR` writes a page per drawn solution, the drawn solution's; a
/// coloured-cube puzzle is refused before anything is drawn.
#[test]
fn sample_writes_a_page_per_draw() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("drawn");
    let out = polycover(&[
        "sample",
        "soma",
        "-n",
        "2",
        "--seed",
        "3",
        "--format",
        "jsonl",
        "--html",
        pages.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let drawn: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(drawn.len(), 2);
    for (k, record) in drawn.iter().enumerate() {
        let page =
            std::fs::read_to_string(pages.join(format!("solution-{:06}.html", k + 1))).unwrap();
        assert_self_contained(&page);
        // The page's pieces are the drawn solution's placements, cell for cell (Soma's
        // target starts at the origin, so the page's cells are the record's).
        let cells = |list: &serde_json::Value| -> Vec<Vec<Vec<i64>>> {
            list.as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    let mut c: Vec<Vec<i64>> = serde_json::from_value(p["cells"].clone()).unwrap();
                    c.sort();
                    c
                })
                .collect()
        };
        let mut want = cells(&record["placements"]);
        let mut got = cells(&scene(&page)["pieces"]);
        want.sort();
        got.sort();
        assert_eq!(got, want, "draw {}", k + 1);
    }
    let refused = dir.path().join("cubes");
    let out = polycover(&["sample", "hesselink-5", "--html", refused.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!refused.exists(), "nothing is written for a refused kind");
}

/// `enumerate --html DIR --limit N` writes N numbered pages beside the SVG pictures'
/// names; a file where the directory should be is refused before the search.
#[test]
fn enumerate_writes_one_page_per_solution() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("soma-pages");
    let out = polycover(&[
        "enumerate",
        "soma",
        "--limit",
        "3",
        "--html",
        pages.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names = file_names(&pages);
    assert_eq!(
        names,
        [
            "solution-000001.html",
            "solution-000002.html",
            "solution-000003.html"
        ]
    );
    let a = std::fs::read_to_string(pages.join(&names[0])).unwrap();
    let b = std::fs::read_to_string(pages.join(&names[1])).unwrap();
    assert_ne!(
        scene(&a)["pieces"],
        scene(&b)["pieces"],
        "two solutions, two scenes"
    );
    assert_eq!(scene(&a)["pieces"].as_array().unwrap().len(), 7);
    assert_self_contained(&a);

    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = polycover(&["enumerate", "soma", "--html", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "nothing written before refusing");
}

/// What the 3-D view cannot do is refused before any search (exit 2, no `s` line, no
/// file): a coloured-cube puzzle, a split enumeration, `--html` and `--svg` in one file.
#[test]
fn the_3d_view_refuses_before_searching() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("v.html");
    let pages = dir.path().join("pages");
    let h = html.to_str().unwrap();
    for (args, says) in [
        (
            vec!["solve", "hesselink-5", "--html", h],
            "polycube puzzles only",
        ),
        (
            vec![
                "enumerate",
                "hesselink-5",
                "--html",
                pages.to_str().unwrap(),
            ],
            "polycube puzzles only",
        ),
        (
            vec![
                "enumerate",
                "soma",
                "--part",
                "1/2",
                "--html",
                pages.to_str().unwrap(),
            ],
            "--html does not go with --part",
        ),
        (vec!["solve", "soma", "--html", h, "--svg", h], "--html"),
    ] {
        let out = polycover(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(
            !stdout(&out)
                .lines()
                .any(|l| l.starts_with("s ") || l.starts_with("c time")),
            "{args:?} searched before refusing"
        );
    }
    assert!(!html.exists());
    assert!(!pages.exists());
}

/// Bedlam's page in headless Chromium: it loads offline with no error and fetches
/// nothing; all 13 pieces show in their colours; hovering a piece names it; a drag
/// across, one up and down, the apart slider, showing the first piece alone, the wheel
/// and a pinch each change the picture; a tap names a piece as hovering does.
#[test]
fn bedlam_turns_in_a_real_browser() {
    if !needs(&[Need::Tool("chromium"), Need::Python(&["websocket", "PIL"])]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (page, _) = solve(dir.path(), "bedlam");
    let page_path = dir.path().join("bedlam.html");
    let shots = dir.path().join("shots");
    std::fs::create_dir(&shots).unwrap();
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("chromium").is_file()));
    assert!(
        on_path,
        "`chromium` is not on PATH: run `bash .ci/run`, which installs it (Debian package)"
    );
    let script = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/.."),
        "/tests/html_view.py"
    );
    let out = Command::new(python())
        .args([script, page_path.to_str().unwrap(), shots.to_str().unwrap()])
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}: run `bash .ci/run`, which makes it", python()));
    assert!(
        out.status.success(),
        "html_view.py failed (it needs websocket-client and Pillow: `bash .ci/run`): {}",
        stderr(&out)
    );
    let seen: Value = serde_json::from_slice(&out.stdout).expect("html_view.py's JSON");
    assert_eq!(
        seen["errors"],
        Value::Array(vec![]),
        "console errors or exceptions"
    );
    assert_eq!(
        seen["requests"],
        Value::Array(vec![]),
        "the page fetched something"
    );

    let symbols: Vec<String> = scene(&page)["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["symbol"].as_str().unwrap().to_string())
        .collect();
    let pixels = |shot: &str, i: usize| seen["pixels"][shot][i].as_u64().unwrap();
    // Every piece shows in its colour (any of its three face shades): assembled, seen
    // from the first two sides, or apart from two opposite sides.
    for (i, symbol) in symbols.iter().enumerate() {
        let most = ["initial", "across", "turned", "apart", "apart_turned"]
            .iter()
            .map(|shot| pixels(shot, i))
            .max()
            .unwrap();
        assert!(
            most >= 100,
            "piece {symbol} shows in at most {most} pixels: {seen}"
        );
    }
    // Apart, from one side, nearly every piece shows.
    let apart = (0..symbols.len())
        .filter(|&i| pixels("apart", i) >= 100)
        .count();
    assert!(apart >= 11, "{apart} pieces show apart: {seen}");
    // The first piece alone: its colour, no other piece's.
    assert!(pixels("first", 0) >= 500, "{seen}");
    for (i, symbol) in symbols.iter().enumerate().skip(1) {
        assert!(
            pixels("first", i) < 20,
            "piece {symbol} shows with 1 shown: {seen}"
        );
    }
    assert!(
        seen["shown"].as_str().unwrap().starts_with("2 of 13"),
        "{seen}"
    );
    for (step, least) in [
        ("across", 0.05),
        ("tilt", 0.05),
        ("apart", 0.02),
        ("first", 0.02),
        ("zoom", 0.02),
        ("pinch", 0.02),
    ] {
        let changed = seen["changed"][step].as_f64().unwrap();
        assert!(
            changed > least,
            "{step} changed {changed} of the pixels: {seen}"
        );
    }
    // Hovering a face in a piece's colour names that piece.
    let hover = seen["hover"].as_array().unwrap();
    assert!(
        hover.len() >= 8,
        "only {} pieces to hover: {seen}",
        hover.len()
    );
    for h in hover {
        assert_eq!(h["named"], h["piece"], "hover at {}", h["at"]);
    }
    // A tap on the first of them names it, the pointer having left the pieces first.
    let tap = &seen["tap"];
    assert_eq!(tap["before"], "", "{seen}");
    assert_eq!(tap["named"], hover[0]["piece"], "{seen}");
}
