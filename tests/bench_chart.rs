//! The bench chart as a person sees it, checked on the SVG the binary's `bench` draws
//! (`lab/src/bench/chart.rs` includes this file as its test module: the chart is the
//! binary's, out of reach of the integration tests).

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
    let svg = crate::bench::svg(&chart_rows()).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed");
    let (plots, legend) = check_legend(&doc);
    check_x_labels(&doc, &plots, legend);
    let points = check_points(&doc);
    check_colours(&svg, &plots, &points);
}

/// The rows the chart test draws: equal times of two puzzles, a long label, a count
/// stopped by the timeout and an unsolvable puzzle.
fn chart_rows() -> Vec<crate::bench::Row> {
    use crate::bench::{Row, Spread};
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

    rows
}

/// The chart's elements of class `c`.
fn class<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    c: &'static str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> + 'a {
    doc.descendants()
        .filter(move |n| n.attribute("class") == Some(c))
}

/// The page: left, top, right, bottom.
fn page(doc: &roxmltree::Document) -> Box4 {
    let root = doc.root_element();
    (0.0, 0.0, attr(root, "width"), attr(root, "height"))
}

/// The two plots and the legend beside them, on the page: their boxes.
fn check_legend(doc: &roxmltree::Document) -> (Vec<Box4>, Box4) {
    let (_, _, width, height) = page(doc);
    let plots: Vec<Box4> = class(doc, "plot").map(rect_box).collect();
    assert_eq!(plots.len(), 2, "two panels");
    let legend = rect_box(class(doc, "legend-box").next().expect("a legend box"));
    for plot in &plots {
        assert!(!overlap(legend, *plot), "the legend covers a plot");
    }
    assert!(
        legend.2 <= width && legend.3 <= height,
        "the legend is on the page"
    );

    (plots, legend)
}

/// The x labels: below the plots, off the legend, on the page, and apart.
fn check_x_labels(doc: &roxmltree::Document, plots: &[Box4], legend: Box4) {
    let page = page(doc);
    // Rotated a quarter turn about their anchor, the labels read downwards from it.
    let labels: Vec<(String, Box4)> = class(doc, "x-label")
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
        for plot in plots {
            assert!(!overlap(*b, *plot), "label {text} crosses into a plot");
        }
        assert!(!overlap(*b, legend), "label {text} under the legend");
        assert!(b.3 <= page.3 && b.0 >= 0.0, "label {text} off the page");
        for (other, c) in &labels[i + 1..] {
            assert!(!overlap(*b, *c), "labels {text} and {other} overlap");
        }
    }
}

/// The points: a marker of its own for a stopped count and for a time to UNSAT, and
/// equal times side by side. Returns every point.
fn check_points<'a, 'i>(doc: &'a roxmltree::Document<'i>) -> Vec<roxmltree::Node<'a, 'i>> {
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

    points
}

/// Rendered: each puzzle's colour shows inside the plots.
fn check_colours(svg: &str, plots: &[Box4], points: &[roxmltree::Node]) {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
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
        std::fs::write(path.with_extension("svg"), svg).unwrap();
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
