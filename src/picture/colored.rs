//! The picture of a coloured-cube solution: the column's four long sides unfolded.
//!
//! One panel, `sides`: four strips side by side (left, front, right, back, as the text
//! output names them), one square per cube, the top cube of the stack at the top. Each
//! square shows the colour of that face with its letter. Beside them, apart, each cube's
//! top and bottom, which the stack hides. A colour is [`super::palette`] of the number
//! of colours, in letter order, so every solution of a puzzle uses the same colours.

use super::svg::Svg;
use super::{palette, title, title_height, Rgb};
use crate::xml::escape;

/// Draws `column`: each cube's faces after its turn, in face order left, front, right,
/// back, top, bottom, as colour numbers into `letters`.
pub fn picture(name: &str, letters: &[char], column: &[[u8; 6]]) -> String {
    let colours = palette(letters.len());
    let square = 36.0;
    let margin = 16.0;
    let heading = 28.0;
    let label_w = 60.0;
    let sides = ["left", "front", "right", "back"];
    let hidden = ["top", "bottom"];
    let width = margin * 2.0 + label_w + 4.0 * square + 30.0 + 2.0 * square + margin;
    let panel_h = heading + 22.0 + column.len() as f64 * square + margin;
    let top = title_height(name, width, margin);
    let height = top + panel_h + margin;
    let mut svg = Svg::new(width, height, name);
    title(&mut svg, name, width, margin);
    svg.panel(
        "sides",
        4.0,
        top,
        width - 8.0,
        panel_h,
        "the four sides, unfolded",
    );
    let x0 = margin + label_w;
    let y0 = top + heading + 22.0;
    for (f, name) in sides.iter().chain(&hidden).enumerate() {
        let x = x0 + f as f64 * square + if f >= 4 { 30.0 } else { 0.0 };
        svg.text(
            x + square / 2.0,
            y0 - 6.0,
            11.0,
            Rgb(0x55, 0x55, 0x55),
            name,
            "middle",
        );
    }
    for (j, faces) in column.iter().enumerate() {
        let y = y0 + j as f64 * square;
        svg.text(
            margin,
            y + square * 0.62,
            12.0,
            Rgb(0x33, 0x33, 0x33),
            &format!("cube {}", j + 1),
            "start",
        );
        for (f, &colour) in faces.iter().enumerate() {
            let x = x0 + f as f64 * square + if f >= 4 { 30.0 } else { 0.0 };
            let fill = colours[colour as usize];
            let letter = letters[colour as usize].to_string();
            svg.rect(
                x,
                y,
                square,
                square,
                Some(fill),
                Rgb(0x22, 0x22, 0x22),
                &format!(
                    " data-colour=\"{}\" data-cube=\"{}\" data-face=\"{}\"",
                    escape(&letter),
                    j + 1,
                    sides.iter().chain(&hidden).nth(f).unwrap()
                ),
            );
            svg.text(
                x + square / 2.0,
                y + square * 0.66,
                square * 0.45,
                fill.ink(),
                &letter,
                "middle",
            );
        }
    }
    svg.close();
    svg.finish()
}
