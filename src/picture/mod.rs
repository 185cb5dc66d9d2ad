//! Pictures of solutions, as self-contained SVG files, and the 3-D view of a polycube
//! solution as a self-contained HTML page ([`webgl`]).
//!
//! A picture is plain SVG 1.1: polygons, rectangles, lines and text in the generic font
//! families (`sans-serif`, `monospace`), with no scripts, no external fonts and no
//! images, so that every browser and viewer shows the same thing.
//!
//! Invariants every picture keeps, which the tests read back:
//! - each panel is a `<g class="panel" id="...">` whose first child is a
//!   `<rect class="frame">` giving the panel's area, and everything drawn in a panel,
//!   text included (measured by [`text::width`], an upper estimate), stays inside it;
//!   the title above the panels stays inside the picture (wrapped, then cut with an
//!   ellipsis);
//! - everything drawn for one piece carries `data-piece` with the piece's symbol and
//!   `data-copy`, its copy number from 1 (a coloured-cube face: `data-colour`, its
//!   letter);
//! - every copy of every piece has its own colour, chosen by [`separated`] from a pool
//!   of well-separated colours so that pieces that touch get colours far apart (the
//!   colours depend on the solution drawn). Faces are opaque: that colour times a
//!   shade that depends on the face's direction only ([`shade`]), so the top faces show
//!   the colour itself.
//!
//! The kinds draw with [`polycube::picture`] and [`colored::picture`]; this module holds
//! what they share: colours, text measures and the SVG writer.

pub mod colored;
pub mod polycube;
mod svg;
pub mod text;
pub mod webgl;

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// This colour darkened by `factor` (1 keeps it).
    pub fn scaled(self, factor: f64) -> Rgb {
        let f = |c: u8| (c as f64 * factor).round().clamp(0.0, 255.0) as u8;
        Rgb(f(self.0), f(self.1), f(self.2))
    }

    /// Black or white, whichever reads better on this colour.
    pub fn ink(self) -> Rgb {
        let luma = 0.299 * self.0 as f64 + 0.587 * self.1 as f64 + 0.114 * self.2 as f64;
        if luma > 140.0 {
            Rgb(0, 0, 0)
        } else {
            Rgb(255, 255, 255)
        }
    }
}

/// `n` colours with evenly spaced hues, dealt so that neighbours in the list are far apart
/// on the colour wheel (piece A and piece B should not be two shades of red). Past 12
/// colours the lightness alternates too, which keeps close hues apart.
pub fn palette(n: usize) -> Vec<Rgb> {
    // A stride coprime with n near n / golden ratio visits every hue once, each step
    // about 222 degrees round the wheel.
    let stride = (1..=n.max(1))
        .rev()
        .filter(|&s| gcd(s, n.max(1)) == 1)
        .min_by_key(|&s| ((s as f64 - n as f64 / 1.618).abs() * 1000.0) as u64)
        .unwrap_or(1);
    (0..n)
        .map(|i| {
            let hue = ((i * stride) % n) as f64 * 360.0 / n as f64;
            let lightness = if n > 12 && i % 2 == 1 { 0.40 } else { 0.58 };
            hsl(hue, 0.70, lightness)
        })
        .collect()
}

/// How bright a face is, by the axis of its normal: light from above, so tops (and
/// bottoms) show the piece's own colour and the sides are darker, each axis its own
/// shade, which makes the cube's shape readable without a lighting model.
pub fn shade(axis: usize) -> f64 {
    [0.80, 0.64, 1.0][axis]
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn hsl(hue: f64, saturation: f64, lightness: f64) -> Rgb {
    let c = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = lightness - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb(to(r), to(g), to(b))
}

/// How far apart two colours look: Euclidean distance in RGB weighted by the "redmean"
/// rule (a cheap stand-in for a perceptual distance), 0 to about 765.
pub fn distance(a: Rgb, b: Rgb) -> f64 {
    let mean = (a.0 as f64 + b.0 as f64) / 2.0;
    let d = |x: u8, y: u8| x as f64 - y as f64;
    ((2.0 + mean / 256.0) * d(a.0, b.0).powi(2)
        + 4.0 * d(a.1, b.1).powi(2)
        + (2.0 + (255.0 - mean) / 256.0) * d(a.2, b.2).powi(2))
    .sqrt()
}

/// One colour for each of `n` items, each its own, dealt so that items in `contacts`
/// (pairs of touching items) are far apart: a greedy colouring of the contact graph over
/// [`pool`]`(n)` that, instead of the first free colour, takes the free colour farthest
/// ([`distance`]) from those of the item's coloured neighbours. Items go most
/// constrained first (most coloured neighbours, then most neighbours; DSatur's order),
/// so the crowded middle of a puzzle is coloured while the choice is widest.
/// Deterministic: the same contacts give the same colours.
pub fn separated(n: usize, contacts: &[(usize, usize)]) -> Vec<Rgb> {
    let colours = pool(n);
    let mut neighbours = vec![Vec::new(); n];
    for &(a, b) in contacts {
        if a != b && !neighbours[a].contains(&b) {
            neighbours[a].push(b);
            neighbours[b].push(a);
        }
    }
    let mut given: Vec<Option<usize>> = vec![None; n];
    let mut free = vec![true; colours.len()];
    for _ in 0..n {
        let item = (0..n)
            .filter(|&i| given[i].is_none())
            .max_by_key(|&i| {
                let coloured = neighbours[i]
                    .iter()
                    .filter(|&&j| given[j].is_some())
                    .count();
                (coloured, neighbours[i].len(), std::cmp::Reverse(i))
            })
            .unwrap();
        let near: Vec<Rgb> = neighbours[item]
            .iter()
            .filter_map(|&j| given[j].map(|c| colours[c]))
            .collect();
        // The free colour whose nearest neighbour colour is farthest; with no coloured
        // neighbour, the first free colour.
        let pick = (0..colours.len())
            .filter(|&c| free[c])
            .max_by(|&x, &y| {
                let worst = |c: usize| {
                    near.iter()
                        .map(|&m| distance(colours[c], m))
                        .fold(f64::MAX, f64::min)
                };
                worst(x).total_cmp(&worst(y)).then(y.cmp(&x))
            })
            .unwrap();
        free[pick] = false;
        given[item] = Some(pick);
    }
    given.into_iter().map(|c| colours[c.unwrap()]).collect()
}

/// The colours [`separated`] deals from: hues 30 degrees apart (closer past 24 items) at
/// two lightnesses, at least twice as many colours as items, so that a piece can take a
/// colour far from all its neighbours' while every piece still has its own. (Measured
/// on Bedlam, Soma and Slothouber-Graatsma solutions, two lightnesses of 12 hues gave
/// the widest gap between touching pieces that keeps any two pieces' colours apart.)
pub fn pool(n: usize) -> Vec<Rgb> {
    let hues = n.div_ceil(2).max(12);
    [0.45, 0.65]
        .into_iter()
        .flat_map(|lightness| {
            (0..hues).map(move |k| hsl(k as f64 * 360.0 / hues as f64, 0.70, lightness))
        })
        .collect()
}

/// The colour that marks colour constraint `name` (number `k` from 1): the colour itself
/// when the name is a common colour word, else one of a few marker colours by number.
pub fn constraint_colour(name: &str, k: u32) -> Rgb {
    match name.to_ascii_lowercase().as_str() {
        "red" => Rgb(0xe4, 0x1a, 0x1c),
        "blue" => Rgb(0x37, 0x7e, 0xb8),
        "green" => Rgb(0x4d, 0xaf, 0x4a),
        "yellow" => Rgb(0xff, 0xe1, 0x19),
        "orange" => Rgb(0xff, 0x7f, 0x00),
        "purple" | "violet" => Rgb(0x98, 0x4e, 0xa3),
        "black" => Rgb(0, 0, 0),
        "white" => Rgb(255, 255, 255),
        "grey" | "gray" => Rgb(0x99, 0x99, 0x99),
        "brown" => Rgb(0xa6, 0x56, 0x28),
        "pink" => Rgb(0xf7, 0x81, 0xbf),
        "cyan" => Rgb(0x42, 0xd4, 0xf4),
        "magenta" => Rgb(0xf0, 0x32, 0xe6),
        _ => [
            Rgb(0xe4, 0x1a, 0x1c),
            Rgb(0x37, 0x7e, 0xb8),
            Rgb(0x4d, 0xaf, 0x4a),
            Rgb(0xff, 0xe1, 0x19),
            Rgb(0x98, 0x4e, 0xa3),
            Rgb(0xff, 0x7f, 0x00),
            Rgb(0, 0, 0),
            Rgb(255, 255, 255),
            Rgb(0xa6, 0x56, 0x28),
        ][(k.max(1) as usize - 1) % 9],
    }
}

/// The picture's title at its top-left, wrapped to two lines of `width` (then cut);
/// returns the height it takes.
fn title(svg: &mut svg::Svg, title: &str, width: f64, margin: f64) -> f64 {
    let lines = text::wrap(title, 18.0, width - 2.0 * margin, 2);
    for (k, line) in lines.iter().enumerate() {
        svg.text(
            margin,
            22.0 + 22.0 * k as f64,
            18.0,
            Rgb(0, 0, 0),
            line,
            "start",
        );
    }
    8.0 + 22.0 * lines.len() as f64
}

/// How tall [`title`] will be.
fn title_height(title: &str, width: f64, margin: f64) -> f64 {
    8.0 + 22.0 * text::wrap(title, 18.0, width - 2.0 * margin, 2).len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_colours_are_distinct_and_far_apart() {
        for n in [1, 2, 7, 13, 25, 70] {
            let colours = palette(n);
            assert_eq!(colours.len(), n);
            for i in 0..n {
                for j in 0..i {
                    assert_ne!(colours[i], colours[j], "n = {n}: {i} and {j}");
                }
            }
        }
        // Neighbours in piece order differ clearly in hue.
        let thirteen = palette(13);
        for w in thirteen.windows(2) {
            let d = (w[0].0 as i32 - w[1].0 as i32).abs()
                + (w[0].1 as i32 - w[1].1 as i32).abs()
                + (w[0].2 as i32 - w[1].2 as i32).abs();
            assert!(d > 120, "{:?} and {:?} are too close", w[0], w[1]);
        }
    }

    #[test]
    fn touching_items_get_distinct_colours_far_apart() {
        // A ring of 12: each item touches two; all 12 colours are used once each.
        let ring: Vec<(usize, usize)> = (0..12).map(|i| (i, (i + 1) % 12)).collect();
        let colours = separated(12, &ring);
        let mut sorted = colours.clone();
        sorted.sort_by_key(|c| (c.0, c.1, c.2));
        sorted.dedup();
        assert_eq!(sorted.len(), 12);
        for &(a, b) in &ring {
            assert!(distance(colours[a], colours[b]) > 200.0, "{a} {b}");
        }
    }
}
