//! Pictures of solutions, as self-contained SVG files.
//!
//! A picture is plain SVG 1.1: polygons, rectangles, lines and text in the generic font
//! families (`sans-serif`, `monospace`), with no scripts, no external fonts and no
//! images, so that every browser and viewer shows the same thing.
//!
//! Invariants every picture keeps, which the tests read back:
//! - each panel is a `<g class="panel" id="...">` whose first child is a
//!   `<rect class="frame">` giving the panel's area;
//! - everything drawn for one piece carries `data-piece` with the piece's symbol and
//!   `data-copy`, its copy number from 1 (a coloured-cube face: `data-colour`, its
//!   letter);
//! - a piece's colour is [`palette`]`(units)[unit]`, where the units are the pieces'
//!   copies in piece order: the same in every solution of a puzzle, different for every
//!   copy. Faces are that colour times a shade that depends on the face's direction only
//!   ([`shade`]), so the top faces show the colour itself.
//!
//! The kinds draw with [`polycube::picture`] and [`colored::picture`]; this module holds
//! what they share: colours and the SVG writer.

pub mod colored;
pub mod polycube;
mod svg;

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
}
