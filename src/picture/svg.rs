//! A small SVG writer: elements appended to a string, numbers to two decimals, text
//! escaped. It checks nothing about nesting; the callers open and close groups in pairs.

use std::fmt::Write;

use super::Rgb;
use crate::xml::escape;

pub struct Svg {
    out: String,
}

impl Svg {
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut out = String::new();
        let _ = write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" \
             width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" \
             font-family=\"sans-serif\">\n<title>{}</title>\n\
             <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
            escape(title)
        );
        Svg { out }
    }

    /// Opens `<g>` with the given attributes (already escaped values).
    pub fn open(&mut self, attributes: &[(&str, String)]) {
        self.out.push_str("<g");
        for (k, v) in attributes {
            let _ = write!(self.out, " {k}=\"{v}\"");
        }
        self.out.push_str(">\n");
    }

    pub fn close(&mut self) {
        self.out.push_str("</g>\n");
    }

    /// A panel: its group and its frame, with a heading (cut to fit) at its top.
    pub fn panel(&mut self, id: &str, x: f64, y: f64, w: f64, h: f64, heading: &str) {
        self.open(&[("class", "panel".into()), ("id", id.into())]);
        let _ = writeln!(
            self.out,
            "<rect class=\"frame\" x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" \
             fill=\"none\" stroke=\"#dddddd\"/>"
        );
        // Cut to the frame, so that a narrow panel keeps its heading inside.
        let heading = super::text::fit(heading, 14.0, w - 16.0);
        self.text(
            x + 8.0,
            y + 18.0,
            14.0,
            Rgb(0x33, 0x33, 0x33),
            &heading,
            "start",
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: Option<Rgb>,
        stroke: Rgb,
        extra: &str,
    ) {
        let fill = fill.map_or("none".into(), Rgb::hex);
        let _ = writeln!(
            self.out,
            "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"{fill}\" \
             stroke=\"{}\" stroke-width=\"1\"{extra}/>",
            stroke.hex()
        );
    }

    /// A filled polygon, outlined with `stroke` (colour, width); `extra` holds more
    /// attributes, with a leading space. Always opaque.
    pub fn polygon(&mut self, points: &[(f64, f64)], fill: Rgb, stroke: (Rgb, f64), extra: &str) {
        self.out.push_str("<polygon points=\"");
        for (k, (x, y)) in points.iter().enumerate() {
            if k > 0 {
                self.out.push(' ');
            }
            let _ = write!(self.out, "{x:.2},{y:.2}");
        }
        let _ = writeln!(
            self.out,
            "\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{:.2}\" stroke-linejoin=\"round\"{extra}/>",
            fill.hex(),
            stroke.0.hex(),
            stroke.1
        );
    }

    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), stroke: Rgb, width: f64) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"{}\" \
             stroke-width=\"{width:.2}\"/>",
            a.0,
            a.1,
            b.0,
            b.1,
            stroke.hex()
        );
    }

    /// Text with its baseline at `y`; `anchor` is `start`, `middle` or `end`.
    pub fn text(&mut self, x: f64, y: f64, size: f64, fill: Rgb, text: &str, anchor: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{x:.2}\" y=\"{y:.2}\" font-size=\"{size:.1}\" fill=\"{}\" \
             text-anchor=\"{anchor}\">{}</text>",
            fill.hex(),
            escape(text)
        );
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}
