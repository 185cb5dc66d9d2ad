//! Layout: the panels of a picture (`assembled`, `pieces`, `slices`, or one `plan`, and
//! the `key`), their sizes and places, and the SVG document around them.
//!
//! Invariant: the document's width and height are computed from every panel's size
//! before anything is drawn (the width at least [`MIN_WIDTH`] and enough for the widest
//! panel row), and the panels are stacked top to bottom in that order.

use std::collections::HashSet;

use super::ink::{caption, Ink, KeyEntry};
use super::projection::{body_faces, extent, wireframe, Face, Place, View};
use super::{Body, Scene};
use crate::geometry::Cell;
use crate::picture::svg::Svg;
use crate::picture::text::{fit, width as text_width, wrap};
use crate::picture::{title, title_height, Rgb};
use crate::xml::escape;

pub(super) const MARGIN: f64 = 16.0;
/// Room for a panel's heading above its content.
pub(super) const HEADING: f64 = 28.0;
/// The narrowest picture: room for a title and headings.
pub(super) const MIN_WIDTH: f64 = 360.0;
pub(super) const GREY: Rgb = Rgb(0x55, 0x55, 0x55);

/// The key panel's layout: entries in rows of equal columns, then the note's lines.
pub(super) struct KeyLayout {
    pub(super) entries: Vec<KeyEntry>,
    pub(super) note: Vec<String>,
    pub(super) column: f64,
    pub(super) per_row: usize,
    pub(super) height: f64,
}

impl KeyLayout {
    pub(super) const SWATCH: f64 = 18.0;
    pub(super) const ROW: f64 = 24.0;

    /// The width it would like, and the layout for a panel `width` wide.
    pub(super) fn natural_width(entries: &[KeyEntry]) -> f64 {
        entries
            .iter()
            .map(|e| Self::SWATCH + 8.0 + text_width(&e.meaning, 12.0).min(260.0) + MARGIN)
            .fold(0.0, f64::max)
            + 2.0 * MARGIN
    }

    pub(super) fn new(entries: Vec<KeyEntry>, note: Option<String>, width: f64) -> KeyLayout {
        let room = width - 8.0 - 2.0 * MARGIN;
        let column = (Self::natural_width(&entries) - 2.0 * MARGIN)
            .min(room)
            .max(1.0);
        let per_row = ((room / column).floor() as usize).max(1);
        let note: Vec<String> = note.map_or(Vec::new(), |n| wrap(&n, 11.0, room, 8));
        let rows = entries.len().div_ceil(per_row);
        let height = HEADING + rows as f64 * Self::ROW + note.len() as f64 * 15.0 + MARGIN;
        KeyLayout {
            entries,
            note,
            column,
            per_row,
            height,
        }
    }

    pub(super) fn draw(&self, svg: &mut Svg, top: f64, width: f64) {
        svg.panel("key", 4.0, top, width - 8.0, self.height, "key");
        for (k, entry) in self.entries.iter().enumerate() {
            let KeyEntry {
                colour,
                symbol,
                attributes,
                meaning,
            } = entry;
            let x = MARGIN + (k % self.per_row) as f64 * self.column;
            let y = top + HEADING + (k / self.per_row) as f64 * Self::ROW;
            svg.rect(
                x,
                y,
                Self::SWATCH,
                Self::SWATCH,
                Some(*colour),
                Rgb(0x22, 0x22, 0x22),
                attributes,
            );
            if !symbol.is_empty() {
                svg.text(
                    x + Self::SWATCH / 2.0,
                    y + 13.5,
                    11.0,
                    colour.ink(),
                    symbol,
                    "middle",
                );
            }
            let room = self.column - Self::SWATCH - 8.0 - 8.0;
            svg.text(
                x + Self::SWATCH + 8.0,
                y + 13.5,
                12.0,
                Rgb(0x22, 0x22, 0x22),
                &fit(meaning, 12.0, room),
                "start",
            );
        }
        let rows = self.entries.len().div_ceil(self.per_row);
        let y = top + HEADING + rows as f64 * Self::ROW + 11.0;
        for (k, line) in self.note.iter().enumerate() {
            svg.text(MARGIN, y + 15.0 * k as f64, 11.0, GREY, line, "start");
        }
        svg.close();
    }
}

/// A flat target (one cell thick along `flat`): one large 2-D picture and a key.
pub(super) fn plan(scene: &Scene, ink: &Ink, lo: Cell, hi: Cell, flat: usize) -> String {
    // (column axis, row axis, whether rows go from the highest coordinate down, wording).
    let (u, v, highest_first, seen) = match flat {
        2 => (0, 1, false, "one layer: seen from above"),
        1 => (0, 2, true, "one layer: seen from the front"),
        _ => (1, 2, true, "one layer: seen from the side"),
    };
    let (columns, rows) = ((hi[u] - lo[u] + 1) as usize, (hi[v] - lo[v] + 1) as usize);
    let side = (560.0 / columns.max(rows) as f64).clamp(8.0, 64.0);
    let (entries, note) = ink.key(true);
    let width = (columns as f64 * side + 2.0 * MARGIN + 8.0)
        .max(MIN_WIDTH)
        .max(if entries.is_empty() {
            0.0
        } else {
            KeyLayout::natural_width(&entries) + 8.0
        });
    let key = (!entries.is_empty() || note.is_some()).then(|| KeyLayout::new(entries, note, width));
    let title_h = title_height(scene.title, width, MARGIN);
    let plan_h = HEADING + rows as f64 * side + MARGIN;
    let height = title_h + plan_h + key.as_ref().map_or(0.0, |k| k.height + MARGIN) + MARGIN;
    let mut svg = Svg::new(width, height, scene.title);
    title(&mut svg, scene.title, width, MARGIN);
    let top = title_h;
    svg.panel("plan", 4.0, top, width - 8.0, plan_h, seen);
    let inside: HashSet<Cell> = scene.target.iter().copied().collect();
    svg.open(&[("class", "plan".into())]);
    let at = |column: usize, row: usize| {
        let mut cell = lo;
        cell[u] += column as i32;
        cell[v] = if highest_first {
            hi[v] - row as i32
        } else {
            lo[v] + row as i32
        };
        cell
    };
    ink.grid(
        &mut svg,
        MARGIN,
        top + HEADING,
        side,
        columns,
        rows,
        &inside,
        &at,
    );
    svg.close();
    svg.close();
    if let Some(key) = &key {
        key.draw(&mut svg, top + plan_h + MARGIN, width);
    }
    svg.finish()
}

/// A view's bounds on the page at scale 1: (least x, least y, greatest x, greatest y).
type Extent = (f64, f64, f64, f64);

/// How many cells `cell_w` wide fit side by side in a panel of a picture `width` wide
/// (at least one, so a narrow picture still draws everything).
fn per_row(width: f64, cell_w: f64) -> usize {
    ((width - 8.0 - MARGIN) / (cell_w + MARGIN))
        .floor()
        .max(1.0) as usize
}

/// The assembled panel: four views in a row, each in a column wide enough for the view
/// and for its caption.
struct Assembled {
    views: Vec<(View, &'static str)>,
    extents: Vec<Extent>,
    /// Pixels per cell edge, shared by the four views.
    scale: f64,
    column_w: Vec<f64>,
    /// The tallest view's height.
    view_h: f64,
    width: f64,
    height: f64,
}

impl Assembled {
    const CAPTION_SIZE: f64 = 12.0;

    /// The four views of the box `lo..=hi` and the panel's size.
    fn new(lo: Cell, hi: Cell) -> Assembled {
        let views: Vec<(View, &str)> = vec![
            (View::new(-60.0, 30.0), "from above"),
            (View::new(30.0, -30.0), "from below, turned 90\u{b0}"),
            (View::new(120.0, 30.0), "from above, turned 180\u{b0}"),
            (View::new(210.0, -30.0), "from below, turned 270\u{b0}"),
        ];
        let extents: Vec<_> = views.iter().map(|(v, _)| extent(v, lo, hi)).collect();
        let widest = extents
            .iter()
            .map(|e| (e.2 - e.0).max(e.3 - e.1))
            .fold(0.0, f64::max);
        // A view about 220 pixels across, whatever the puzzle's size.
        let scale = (220.0 / widest).clamp(2.0, 60.0);
        let column_w: Vec<f64> = extents
            .iter()
            .zip(&views)
            .map(|(e, (_, name))| ((e.2 - e.0) * scale).max(text_width(name, Self::CAPTION_SIZE)))
            .collect();
        let view_h = extents
            .iter()
            .map(|e| (e.3 - e.1) * scale)
            .fold(0.0, f64::max);
        let width = column_w.iter().sum::<f64>() + MARGIN * 5.0 + 8.0;
        let height = HEADING + view_h + 24.0 + MARGIN;
        Assembled {
            views,
            extents,
            scale,
            column_w,
            view_h,
            width,
            height,
        }
    }

    /// Draws the panel at `top`: every body's outside faces, once per view.
    fn draw(&self, svg: &mut Svg, ink: &Ink, bodies: &[Body], top: f64, width: f64) {
        let scale = self.scale;
        svg.panel(
            "assembled",
            4.0,
            top,
            width - 8.0,
            self.height,
            "assembled: four sides",
        );
        let faces = body_faces(bodies, true);
        let mut x = MARGIN;
        for (((view, name), e), &column) in self.views.iter().zip(&self.extents).zip(&self.column_w)
        {
            let w = (e.2 - e.0) * scale;
            let place = Place {
                x: x + (column - w) / 2.0 - e.0 * scale,
                y: top + HEADING + 6.0 - e.1 * scale,
                scale,
            };
            svg.open(&[("class", "view".into())]);
            ink.faces(svg, view, place, &faces, 1.2);
            svg.close();
            svg.text(
                x + column / 2.0,
                top + HEADING + self.view_h + 22.0,
                Self::CAPTION_SIZE,
                GREY,
                name,
                "middle",
            );
            x += column + MARGIN;
        }
        svg.close();
    }
}

/// The pieces panel: small views of the first eye, in rows, each in a cell wide enough
/// for its view and, up to a point, its caption (wrapped to two lines).
struct PieceCells {
    view: View,
    /// The first view's extent, which every piece's view shares.
    e0: Extent,
    /// Pixels per cell edge: smaller than the assembled views'.
    small: f64,
    view_w: f64,
    /// Each piece's caption, wrapped.
    caption_lines: Vec<Vec<String>>,
    /// The most caption lines any piece has: every cell leaves room for them.
    lines: usize,
    width: f64,
    height: f64,
}

impl PieceCells {
    /// The cells' size for `bodies`, seen as the assembled panel's first view.
    fn new(bodies: &[Body], assembled: &Assembled) -> PieceCells {
        let small = assembled.scale * 0.55;
        let e0 = assembled.extents[0];
        let view_w = (e0.2 - e0.0) * small;
        let captions: Vec<String> = bodies.iter().map(|b| caption(b, false)).collect();
        let longest = captions
            .iter()
            .map(|c| text_width(c, 11.0))
            .fold(0.0, f64::max);
        let width = view_w.max(90.0).max(longest.min(200.0));
        let caption_lines: Vec<Vec<String>> =
            captions.iter().map(|c| wrap(c, 11.0, width, 2)).collect();
        let lines = caption_lines.iter().map(Vec::len).max().unwrap_or(1);
        let labelled = bodies.iter().any(|b| b.label.is_some());
        let height =
            (e0.3 - e0.1) * small + 8.0 + 13.0 * lines as f64 + if labelled { 12.0 } else { 0.0 };
        PieceCells {
            view: assembled.views[0].0,
            e0,
            small,
            view_w,
            caption_lines,
            lines,
            width,
            height,
        }
    }

    /// Draws the panel at `top`, `per_row` pieces to a row, each over the target's
    /// wireframe so that its place shows.
    fn draw(&self, svg: &mut Svg, ink: &Ink, scene: &Scene, (lo, hi): (Cell, Cell), at: Panel) {
        let Panel {
            top,
            width,
            height,
            per_row,
        } = at;
        svg.panel(
            "pieces",
            4.0,
            top,
            width - 8.0,
            height,
            "pieces: each in its place",
        );
        let wireframe = wireframe(scene.target, lo, hi);
        for (k, body) in scene.bodies.iter().enumerate() {
            let (row, col) = (k / per_row, k % per_row);
            let x0 = MARGIN + col as f64 * (self.width + MARGIN);
            let y0 = top + HEADING + row as f64 * (self.height + MARGIN);
            self.draw_piece(svg, ink, &wireframe, (k, body), (x0, y0));
        }
        svg.close();
    }

    /// Draws piece `k` in the cell whose top left is `(x0, y0)`: the wireframe, the
    /// piece's faces, its caption and its label.
    fn draw_piece(
        &self,
        svg: &mut Svg,
        ink: &Ink,
        wireframe: &[([f64; 3], [f64; 3])],
        (k, body): (usize, &Body),
        (x0, y0): (f64, f64),
    ) {
        let (view, e0, small, piece_w) = (self.view, self.e0, self.small, self.width);
        let place = Place {
            x: x0 + (piece_w - self.view_w) / 2.0 - e0.0 * small,
            y: y0 - e0.1 * small,
            scale: small,
        };
        svg.open(&[
            ("class", "piece".into()),
            ("data-piece", escape(&body.symbol.to_string())),
            ("data-copy", body.copy.to_string()),
        ]);
        for &(a, b) in wireframe {
            svg.line(
                place.at(&view, a),
                place.at(&view, b),
                Rgb(0xaa, 0xaa, 0xaa),
                0.7,
            );
        }
        let alone = std::slice::from_ref(body);
        let faces: Vec<(Face, usize)> = body_faces(alone, true)
            .into_iter()
            .map(|(f, _)| (f, k))
            .collect();
        ink.faces(svg, &view, place, &faces, 0.9);
        let mut y = y0 + (e0.3 - e0.1) * small + 8.0 + 9.0;
        for line in &self.caption_lines[k] {
            svg.text(
                x0 + piece_w / 2.0,
                y,
                11.0,
                Rgb(0x22, 0x22, 0x22),
                line,
                "middle",
            );
            y += 13.0;
        }
        if let Some(label) = &body.label {
            let y = y0 + (e0.3 - e0.1) * small + 8.0 + 13.0 * self.lines as f64 + 9.0;
            svg.text(
                x0 + piece_w / 2.0,
                y,
                10.0,
                Rgb(0x66, 0x66, 0x66),
                &fit(label, 10.0, piece_w),
                "middle",
            );
        }
        svg.close();
    }
}

/// The slices panel: one grid per layer, side by side, wrapping; each layer as wide as
/// its grid or its `z=` label.
struct Slices {
    lo: Cell,
    size: [usize; 3],
    /// A grid square's side.
    square: f64,
    layer_w: f64,
    layer_h: f64,
}

impl Slices {
    /// The layers of the box `lo..=hi`.
    fn new(lo: Cell, hi: Cell) -> Slices {
        let size: [usize; 3] = [0, 1, 2].map(|a| (hi[a] - lo[a] + 1) as usize);
        let square = (240.0 / size[0].max(size[1]) as f64).clamp(6.0, 26.0);
        let layer_w = (size[0] as f64 * square)
            .max(text_width(&z_label(lo[2]), 12.0))
            .max(text_width(&z_label(hi[2]), 12.0));
        let layer_h = size[1] as f64 * square + 18.0;
        Slices {
            lo,
            size,
            square,
            layer_w,
            layer_h,
        }
    }

    /// Draws the panel: each layer's label and grid, bottom first.
    fn draw(&self, svg: &mut Svg, ink: &Ink, target: &[Cell], at: Panel) {
        let Panel {
            top,
            width,
            height,
            per_row,
        } = at;
        let (lo, size) = (self.lo, self.size);
        svg.panel(
            "slices",
            4.0,
            top,
            width - 8.0,
            height,
            "slices: z-layers, bottom first",
        );
        let inside: HashSet<Cell> = target.iter().copied().collect();
        for dz in 0..size[2] {
            let z = lo[2] + dz as i32;
            let (row, col) = (dz / per_row, dz % per_row);
            let x0 = MARGIN + col as f64 * (self.layer_w + MARGIN);
            let y0 = top + HEADING + row as f64 * (self.layer_h + MARGIN);
            svg.open(&[("class", "layer".into()), ("data-z", z.to_string())]);
            svg.text(x0, y0 + 12.0, 12.0, GREY, &z_label(z), "start");
            let at = |column: usize, row: usize| [lo[0] + column as i32, lo[1] + row as i32, z];
            ink.grid(
                svg,
                x0,
                y0 + 18.0,
                self.square,
                size[0],
                size[1],
                &inside,
                &at,
            );
            svg.close();
        }
        svg.close();
    }
}

/// A layer's label.
fn z_label(z: i32) -> String {
    format!("z={z}")
}

/// Where a panel of cells in rows goes: its top, the picture's width, its height, and
/// how many cells to a row.
#[derive(Clone, Copy)]
struct Panel {
    top: f64,
    width: f64,
    height: f64,
    per_row: usize,
}

/// A solid target: assembled views, the pieces, the slices, and a key for colours.
pub(super) fn solid(scene: &Scene, ink: &Ink, lo: Cell, hi: Cell) -> String {
    let bodies = scene.bodies;
    let assembled = Assembled::new(lo, hi);
    let pieces = PieceCells::new(bodies, &assembled);
    let slices = Slices::new(lo, hi);

    let (entries, note) = ink.key(false);
    let width = assembled
        .width
        .max(pieces.width + 2.0 * MARGIN + 8.0)
        .max(slices.layer_w + 2.0 * MARGIN + 8.0)
        .max(MIN_WIDTH)
        .max(if entries.is_empty() {
            0.0
        } else {
            KeyLayout::natural_width(&entries) + 8.0
        });
    let per_piece_row = per_row(width, pieces.width);
    let piece_rows = bodies.len().div_ceil(per_piece_row);
    let per_layer_row = per_row(width, slices.layer_w);
    let layer_rows = slices.size[2].div_ceil(per_layer_row);
    let key = (!entries.is_empty() || note.is_some()).then(|| KeyLayout::new(entries, note, width));

    let pieces_h = HEADING + piece_rows as f64 * (pieces.height + MARGIN) + MARGIN;
    let slices_h = HEADING + layer_rows as f64 * (slices.layer_h + MARGIN) + MARGIN;
    let title_h = title_height(scene.title, width, MARGIN);
    let height = title_h
        + assembled.height
        + pieces_h
        + slices_h
        + key.as_ref().map_or(0.0, |k| k.height + MARGIN)
        + 3.0 * MARGIN;
    let mut svg = Svg::new(width, height, scene.title);
    title(&mut svg, scene.title, width, MARGIN);

    let mut top = title_h;
    assembled.draw(&mut svg, ink, bodies, top, width);
    top += assembled.height + MARGIN;
    let panel = Panel {
        top,
        width,
        height: pieces_h,
        per_row: per_piece_row,
    };
    pieces.draw(&mut svg, ink, scene, (lo, hi), panel);
    top += pieces_h + MARGIN;
    let panel = Panel {
        top,
        width,
        height: slices_h,
        per_row: per_layer_row,
    };
    slices.draw(&mut svg, ink, scene.target, panel);
    top += slices_h + MARGIN;
    if let Some(key) = &key {
        key.draw(&mut svg, top, width);
    }
    svg.finish()
}
