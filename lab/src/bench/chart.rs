//! The SVG chart of a bench run: two panels, the time to the first solution and the time
//! per counted solution, per engine and encoding (x) on a log scale of seconds (y); one
//! colour per puzzle, one marker shape per kind of figure.
//!
//! Written by hand rather than with a plotting library, so that the layout is ours to
//! guarantee. Invariants:
//! - Nothing is drawn over a plot but its grid and points: the x labels have their own
//!   margin below the plot, sized by the longest label at [`CHAR_WIDTH`] per character,
//!   and the legend stands to the right of both panels.
//! - Two points never hide each other: within an engine's column each puzzle has its own
//!   horizontal offset, so equal times of different puzzles sit side by side.
//! - A marker says what its figure is: a filled circle a first solution or a finished
//!   count, a hollow triangle a count stopped by the timeout (its time per solution so
//!   far), a cross a search that found no solution (its time to UNSAT). A time to UNSAT
//!   is never drawn as a first solution.
//! - Every element a reader might check carries a class: `plot` (the plot's frame),
//!   `x-label`, `legend` with its `legend-box`, and `point` with the kind
//!   (`first`, `unsat`, `count`, `stopped`) and `data-puzzle`, `data-label`.

use std::fmt::Write as _;

use super::Row;
use polycover::Result;

/// The widest a character of the chart's sans-serif text is taken to be, in em: what the
/// layout reserves for a label of n characters.
pub const CHAR_WIDTH: f64 = 0.62;

/// Text sizes, in pixels.
const FONT: f64 = 12.0;
const TITLE_FONT: f64 = 15.0;

/// Layout, in pixels.
const PLOT_HEIGHT: f64 = 340.0;
const TOP: f64 = 40.0;
const Y_LABELS: f64 = 64.0;
const GAP: f64 = 28.0;
const MARGIN: f64 = 12.0;
const MARKER: f64 = 4.5;

/// One colour per puzzle (Tableau 10), in order of appearance.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f",
];

/// What a point shows, hence its marker.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A first solution, or a finished count: a filled circle.
    Solution,
    /// A count stopped by the timeout: a hollow triangle.
    Stopped,
    /// No solution: the time to UNSAT, a cross.
    Unsat,
}

struct Point {
    label: usize,
    puzzle: usize,
    seconds: f64,
    kind: Kind,
}

/// The width the layout reserves for `text` at `size` pixels.
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH * size
}

/// A power of ten as a time: `1 ms`, `100 µs`, `10 s`.
fn decade(e: i32) -> String {
    let (unit, base) = match e {
        e if e >= 0 => ("s", 0),
        -3..=-1 => ("ms", -3),
        -6..=-4 => ("µs", -6),
        _ => return format!("1e{e} s"),
    };
    format!("{} {unit}", 10u64.pow((e - base) as u32))
}

/// Draws the time to the first solution and the time per counted solution, per engine
/// and encoding, on log scales, one colour per puzzle.
pub fn svg(rows: &[Row]) -> Result<String> {
    let (labels, puzzles) = labels_and_puzzles(rows);
    let point = |r: &Row, seconds: Option<f64>, kind: Kind| -> Option<Point> {
        Some(Point {
            label: labels.iter().position(|l| *l == r.label())?,
            puzzle: puzzles.iter().position(|p| *p == r.puzzle)?,
            seconds: seconds.filter(|s| *s > 0.0)?,
            kind,
        })
    };
    let firsts: Vec<Point> = rows
        .iter()
        .filter_map(|r| match (r.first, r.unsat) {
            (Some(f), _) => point(r, Some(f.median), Kind::Solution),
            (None, Some(u)) => point(r, Some(u.median), Kind::Unsat),
            _ => None,
        })
        .collect();
    let counts: Vec<Point> = rows
        .iter()
        .filter_map(|r| {
            let kind = if r.complete {
                Kind::Solution
            } else {
                Kind::Stopped
            };
            point(r, r.seconds_per_solution(), kind)
        })
        .collect();

    // Each engine's column is wide enough for every puzzle's point side by side.
    let n = labels.len().max(1) as f64;
    let column = (puzzles.len() as f64 * (2.0 * MARKER + 3.0) + 12.0).max(30.0);
    let plot_width = (n * column).max(240.0);
    let column = plot_width / n;
    let label_area = labels
        .iter()
        .map(|l| text_width(l, FONT))
        .fold(0.0, f64::max)
        + 14.0;
    let panel_width = Y_LABELS + plot_width;

    let legend = legend(&puzzles, &firsts, &counts);
    let legend_x = MARGIN + 2.0 * panel_width + GAP + GAP;
    let legend_width = legend
        .iter()
        .map(|(t, _, _)| text_width(t, FONT))
        .fold(0.0, f64::max)
        + 40.0;
    let legend_height = legend.len() as f64 * 20.0 + 12.0;
    let width = legend_x + legend_width + MARGIN;
    let height = (TOP + PLOT_HEIGHT + label_area + MARGIN).max(TOP + legend_height + MARGIN);

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        s,
        r#"<rect width="{width:.0}" height="{height:.0}" fill="white"/>"#
    );
    let panels = [
        ("first", "time to the first solution", &firsts),
        ("count", "time per solution, counting", &counts),
    ];
    for (k, (id, title, points)) in panels.into_iter().enumerate() {
        let left = MARGIN + k as f64 * (panel_width + GAP) + Y_LABELS;
        panel(
            &mut s,
            id,
            title,
            points,
            &labels,
            puzzles.len(),
            (left, plot_width, column),
        );
    }

    // The legend, outside both plots.
    draw_legend(&mut s, &legend, legend_x, (legend_width, legend_height));
    let _ = writeln!(s, "</svg>");
    Ok(s)
}

/// The chart's columns (each engine and encoding) and colours (each puzzle), in the
/// rows' order; skipped rows have no point to show.
fn labels_and_puzzles(rows: &[Row]) -> (Vec<String>, Vec<String>) {
    let mut labels: Vec<String> = Vec::new();
    let mut puzzles: Vec<String> = Vec::new();
    for r in rows.iter().filter(|r| !r.status.starts_with("skipped")) {
        if !labels.contains(&r.label()) {
            labels.push(r.label());
        }
        if !puzzles.contains(&r.puzzle) {
            puzzles.push(r.puzzle.clone());
        }
    }
    (labels, puzzles)
}

/// The legend's entries: each puzzle's colour, then the markers' shapes the points use.
fn legend(
    puzzles: &[String],
    firsts: &[Point],
    counts: &[Point],
) -> Vec<(String, Option<usize>, Kind)> {
    let mut legend: Vec<(String, Option<usize>, Kind)> = puzzles
        .iter()
        .enumerate()
        .map(|(k, p)| (p.clone(), Some(k), Kind::Solution))
        .collect();
    legend.push((
        "first solution, finished count".into(),
        None,
        Kind::Solution,
    ));
    if counts.iter().any(|p| p.kind == Kind::Stopped) {
        legend.push(("count stopped by the timeout".into(), None, Kind::Stopped));
    }
    if firsts.iter().any(|p| p.kind == Kind::Unsat) {
        legend.push(("no solution: time to UNSAT".into(), None, Kind::Unsat));
    }
    legend
}

/// Draws the legend's box at `x` and its entries, each a marker and its text.
fn draw_legend(
    s: &mut String,
    legend: &[(String, Option<usize>, Kind)],
    legend_x: f64,
    (legend_width, legend_height): (f64, f64),
) {
    let _ = writeln!(s, r#"<g class="legend">"#);
    let _ = writeln!(
        s,
        r##"<rect class="legend-box" x="{legend_x:.1}" y="{TOP:.1}" width="{legend_width:.1}" height="{legend_height:.1}" fill="white" stroke="#888"/>"##
    );
    for (i, (text, puzzle, kind)) in legend.iter().enumerate() {
        let y = TOP + 16.0 + i as f64 * 20.0;
        let colour = puzzle.map_or("#444", |k| PALETTE[k % PALETTE.len()]);
        marker(s, legend_x + 16.0, y, colour, *kind, "legend-marker", "");
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="{FONT}">{}</text>"#,
            legend_x + 30.0,
            y + FONT * 0.35,
            escape(text)
        );
    }
    let _ = writeln!(s, "</g>");
}

/// One panel: title, frame, decades, x labels below the frame, and the points.
fn panel(
    s: &mut String,
    id: &str,
    title: &str,
    points: &[Point],
    labels: &[String],
    puzzles: usize,
    (left, plot_width, column): (f64, f64, f64),
) {
    let bottom = TOP + PLOT_HEIGHT;
    // Whole decades around the values, a little beyond them so that no point sits on
    // the frame.
    let logs: Vec<f64> = points.iter().map(|p| p.seconds.log10()).collect();
    let (lo, hi) = if logs.is_empty() {
        (-3, 0)
    } else {
        let min = logs.iter().copied().fold(f64::INFINITY, f64::min);
        let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        ((min - 0.15).floor() as i32, (max + 0.15).ceil() as i32)
    };
    let hi = hi.max(lo + 1);
    let y_of = |log: f64| bottom - (log - lo as f64) / (hi - lo) as f64 * PLOT_HEIGHT;

    let _ = writeln!(s, r#"<g class="panel" id="{id}">"#);
    let _ = writeln!(
        s,
        r#"<text class="title" x="{:.1}" y="{:.1}" font-size="{TITLE_FONT}" text-anchor="middle">{}</text>"#,
        left + plot_width / 2.0,
        TOP - 14.0,
        escape(title)
    );
    // Decades: a line and a label each; the steps between them faintly when few.
    for e in lo..=hi {
        let y = y_of(e as f64);
        let _ = writeln!(
            s,
            r##"<line class="grid" x1="{left:.1}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#bbb"/>"##,
            left + plot_width
        );
        let _ = writeln!(
            s,
            r#"<text class="y-label" x="{:.1}" y="{:.1}" font-size="{FONT}" text-anchor="end">{}</text>"#,
            left - 6.0,
            y + FONT * 0.35,
            decade(e)
        );
        if e < hi && hi - lo <= 6 {
            for m in 2..10 {
                let y = y_of(e as f64 + (m as f64).log10());
                let _ = writeln!(
                    s,
                    r##"<line class="grid" x1="{left:.1}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#eee"/>"##,
                    left + plot_width
                );
            }
        }
    }
    for (i, label) in labels.iter().enumerate() {
        let x = left + (i as f64 + 0.5) * column;
        let _ = writeln!(
            s,
            r##"<line class="grid" x1="{x:.1}" x2="{x:.1}" y1="{TOP:.1}" y2="{bottom:.1}" stroke="#eee"/>"##
        );
        // Rotated a quarter turn, it reads downwards from just below the frame: its
        // glyphs lie left of the anchor, centred on the column.
        let (ax, ay) = (x + FONT * 0.35, bottom + 8.0);
        let _ = writeln!(
            s,
            r#"<text class="x-label" x="{ax:.1}" y="{ay:.1}" font-size="{FONT}" text-anchor="end" transform="rotate(-90 {ax:.1} {ay:.1})">{}</text>"#,
            escape(label)
        );
    }
    let _ = writeln!(
        s,
        r##"<rect class="plot" x="{left:.1}" y="{TOP:.1}" width="{plot_width:.1}" height="{PLOT_HEIGHT:.1}" fill="none" stroke="#444"/>"##
    );
    if points.is_empty() {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="{FONT}" text-anchor="middle" fill="#666">no times to show</text>"##,
            left + plot_width / 2.0,
            TOP + PLOT_HEIGHT / 2.0
        );
    }
    // Each puzzle its own offset in the column, so that equal times stay visible.
    let step = ((column - 10.0) / puzzles.max(1) as f64).min(2.0 * MARKER + 3.0);
    for p in points {
        let x = left
            + (p.label as f64 + 0.5) * column
            + (p.puzzle as f64 - (puzzles as f64 - 1.0) / 2.0) * step;
        let y = y_of(p.seconds.log10());
        let kind = match (p.kind, id) {
            (Kind::Solution, "first") => "first",
            (Kind::Solution, _) => "count",
            (Kind::Stopped, _) => "stopped",
            (Kind::Unsat, _) => "unsat",
        };
        let data = format!(
            r#" data-puzzle="{}" data-label="{}" data-seconds="{}""#,
            p.puzzle, p.label, p.seconds
        );
        marker(
            s,
            x,
            y,
            PALETTE[p.puzzle % PALETTE.len()],
            p.kind,
            &format!("point {kind}"),
            &data,
        );
    }
    let _ = writeln!(s, "</g>");
}

/// A marker centred at (x, y): a filled circle, a hollow triangle or a cross.
fn marker(s: &mut String, x: f64, y: f64, colour: &str, kind: Kind, class: &str, data: &str) {
    let r = MARKER;
    let _ = match kind {
        Kind::Solution => writeln!(
            s,
            r#"<circle class="{class}"{data} cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{colour}" stroke="white" stroke-width="0.8"/>"#
        ),
        Kind::Stopped => writeln!(
            s,
            r#"<path class="{class}"{data} d="M {x:.1} {:.1} L {:.1} {:.1} L {:.1} {:.1} Z" fill="white" stroke="{colour}" stroke-width="1.8"/>"#,
            y - r - 1.0,
            x + r + 0.5,
            y + r - 0.5,
            x - r - 0.5,
            y + r - 0.5
        ),
        Kind::Unsat => writeln!(
            s,
            r#"<path class="{class}"{data} d="M {:.1} {:.1} L {:.1} {:.1} M {:.1} {:.1} L {:.1} {:.1}" stroke="{colour}" stroke-width="2.2"/>"#,
            x - r,
            y - r,
            x + r,
            y + r,
            x - r,
            y + r,
            x + r,
            y - r
        ),
    };
}

/// `text` with `&`, `<`, `>` and `"` replaced by their entities, so that it can stand in
/// an attribute or between tags of the SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
#[path = "../../../tests/bench_chart.rs"]
mod tests;
