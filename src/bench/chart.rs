//! The SVG chart of a bench run: time to the first solution and time per counted
//! solution, per engine and encoding, on log scales, one series per puzzle.

use super::Row;
use crate::error::{Error, Result};

/// Draws the time to the first solution and the time per counted solution, per engine
/// and encoding, on log scales: one series per puzzle.
pub fn svg(rows: &[Row]) -> Result<String> {
    use plotters::prelude::*;
    let werr = |e: String| Error::Failed(format!("drawing the chart: {e}"));
    let mut text = String::new();
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
    {
        let root = SVGBackend::with_string(&mut text, (1200, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| werr(e.to_string()))?;
        let panels = root.split_evenly((1, 2));
        type Metric = fn(&Row) -> Option<f64>;
        let metrics: [(&str, Metric); 2] = [
            ("time to the first solution (s)", |r| {
                r.first.map(|s| s.median)
            }),
            ("time per solution, counting (s)", |r| {
                r.seconds_per_solution()
            }),
        ];
        for (panel, (title, metric)) in panels.iter().zip(metrics) {
            let values: Vec<f64> = rows
                .iter()
                .filter_map(metric)
                .filter(|v| *v > 0.0)
                .collect();
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(0.0, f64::max);
            let (lo, hi) = if values.is_empty() {
                (1e-6, 1.0)
            } else {
                (lo / 2.0, hi * 2.0)
            };
            let n = labels.len().max(1);
            let mut chart = ChartBuilder::on(panel)
                .caption(title, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(110)
                .y_label_area_size(70)
                .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), (lo..hi).log_scale())
                .map_err(|e| werr(e.to_string()))?;
            let names = labels.clone();
            chart
                .configure_mesh()
                .x_labels(n)
                .x_label_formatter(&|x| {
                    let k = x.round();
                    if (x - k).abs() < 1e-6 && k >= 0.0 {
                        names.get(k as usize).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .x_label_style(
                    ("sans-serif", 12)
                        .into_font()
                        .transform(FontTransform::Rotate90),
                )
                .y_desc("seconds (log scale)")
                .draw()
                .map_err(|e| werr(e.to_string()))?;
            for (k, puzzle) in puzzles.iter().enumerate() {
                let color = Palette99::pick(k).to_rgba();
                let points: Vec<(f64, f64)> = rows
                    .iter()
                    .filter(|r| &r.puzzle == puzzle)
                    .filter_map(|r| {
                        let x = labels.iter().position(|l| *l == r.label())? as f64;
                        metric(r).filter(|v| *v > 0.0).map(|v| (x, v))
                    })
                    .collect();
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 5, color.filled())))
                    .map_err(|e| werr(e.to_string()))?
                    .label(puzzle.as_str())
                    .legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(|e| werr(e.to_string()))?;
        }
        root.present().map_err(|e| werr(e.to_string()))?;
    }
    Ok(text)
}
