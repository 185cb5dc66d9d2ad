//! The 3-D view of a polycube solution: one self-contained HTML page that draws the
//! assembled solution with WebGL (`solve --html`, `enumerate --html`). One can turn it
//! (drag, touch), zoom it (wheel, pinch), move the pieces apart, show the first k pieces
//! in placement order, and hover or tap a piece for its name and label.
//!
//! The page is the template `webgl.html` (its own small renderer in inline JavaScript)
//! with the solution filled in as a JSON scene. Invariants the tests read back:
//! - nothing is fetched: no external script, style, font or image, no `http://` or
//!   `https://` address; everything the page needs is in the file;
//! - the scene is the `<script type="application/json" id="scene">` element, valid JSON
//!   with no `<` in it (written `\u003c`), so no piece name can end the element early:
//!   `title`, `shade` (the brightness of a face by the axis of its normal, the SVG's
//!   [`shade`]) and `pieces` in placement order, each with `symbol`, `name`, `label`,
//!   `copy`, `copies`, `colour` (`#rrggbb`, the colour the SVG picture gives the same
//!   body, from [`colours`]) and `cells` (relative to the target's least corner);
//! - a face is drawn as its piece's colour times its `shade`, so the top faces show the
//!   colour itself, as in the SVG, and only the lines along cube edges are darker.

use serde_json::{json, Value};

use super::polycube::{colours, Scene};
use super::shade;
use crate::geometry::min_corner;
use crate::xml::escape;

/// The page, with `{{TITLE}}` and `{{SCENE}}` where the solution goes.
const TEMPLATE: &str = include_str!("webgl.html");

/// The solution as the scene the page's script reads.
pub fn scene_json(scene: &Scene) -> Value {
    let lo = min_corner(scene.target).unwrap_or([0, 0, 0]);
    let pieces: Vec<Value> = scene
        .bodies
        .iter()
        .zip(colours(scene.bodies))
        .map(|(body, colour)| {
            let cells: Vec<[i32; 3]> = body
                .cells
                .iter()
                .map(|c| [c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]])
                .collect();
            json!({
                "symbol": body.symbol.to_string(),
                "name": body.name,
                "label": body.label,
                "copy": body.copy,
                "copies": body.copies,
                "colour": colour.hex(),
                "cells": cells,
            })
        })
        .collect();
    json!({
        "title": scene.title,
        "shade": [shade(0), shade(1), shade(2)],
        "pieces": pieces,
    })
}

/// The HTML page of one solution.
pub fn page(scene: &Scene) -> String {
    // `<` only appears inside JSON strings, where `\u003c` reads the same.
    let data = scene_json(scene).to_string().replace('<', "\\u003c");
    // One pass over the template, so that a title holding a marker stays text.
    let mut out = String::with_capacity(TEMPLATE.len() + data.len());
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let end = start + rest[start..].find("}}").expect("a closed marker") + 2;
        match &rest[start..end] {
            "{{TITLE}}" => out.push_str(&escape(scene.title)),
            "{{SCENE}}" => out.push_str(&data),
            other => panic!("unknown marker {other} in webgl.html"),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::polycube::Body;

    fn body(symbol: char, name: &str, cells: &[[i32; 3]]) -> Body {
        Body {
            name: name.into(),
            label: Some(format!("{name}'s label")),
            symbol,
            copy: 1,
            copies: 1,
            cells: cells.to_vec(),
            colors: Vec::new(),
        }
    }

    /// The JSON between the scene element's tags.
    fn embedded(page: &str) -> Value {
        let open = "<script type=\"application/json\" id=\"scene\">";
        let start = page.find(open).expect("the scene element") + open.len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end]).expect("valid JSON")
    }

    #[test]
    fn the_page_embeds_the_scene_and_stays_small() {
        let target = [[1, 1, 1], [2, 1, 1], [1, 2, 1], [2, 2, 1]];
        let bodies = [
            body('A', "</script><b>", &target[..2]),
            body('B', "{{SCENE}}", &target[2..]),
        ];
        let scene = Scene {
            title: "two </script> {{TITLE}}",
            target: &target,
            cell_colors: &[],
            colors: &[],
            bodies: &bodies,
        };
        let page = page(&scene);
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "only the two real ends"
        );
        assert!(page.contains("<title>two &lt;/script&gt; {{TITLE}}</title>"));
        let data = embedded(&page);
        assert_eq!(data, scene_json(&scene));
        assert_eq!(data["title"], "two </script> {{TITLE}}");
        let pieces = data["pieces"].as_array().unwrap();
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0]["name"], "</script><b>");
        assert_eq!(pieces[1]["name"], "{{SCENE}}");
        assert_eq!(pieces[1]["label"], "{{SCENE}}'s label");
        // Cells from the least corner, in the body's order.
        assert_eq!(pieces[1]["cells"], json!([[0, 1, 0], [1, 1, 0]]));
        // The SVG's colours and shades.
        let expected = colours(&bodies);
        for (piece, colour) in pieces.iter().zip(expected) {
            assert_eq!(piece["colour"], colour.hex());
        }
        assert_eq!(data["shade"], json!([shade(0), shade(1), shade(2)]));
        // Small: the renderer and the page around it take a few tens of KB at most.
        assert!(page.len() < 30_000, "{} bytes", page.len());
        for external in ["http://", "https://", "src=", "<link", "@import", "url("] {
            assert!(!page.contains(external), "{external}");
        }
    }
}
