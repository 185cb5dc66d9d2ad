//! Pictures (`solve --svg`, `enumerate --svg`) as people will see them: rendered to
//! pixels by a real SVG renderer (resvg), and read back as XML for their structure.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::*;

/// A panel's area, from its frame.
#[derive(Clone, Copy, Debug)]
struct Area {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

fn number(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name)
        .unwrap_or_else(|| panic!("no {name} on {node:?}"))
        .parse()
        .unwrap()
}

fn parse_hex(hex: &str) -> [u8; 3] {
    let h = hex.trim_start_matches('#');
    let byte = |k: usize| u8::from_str_radix(&h[k..k + 2], 16).unwrap();
    [byte(0), byte(2), byte(4)]
}

/// The panels of a picture by id, with their areas, in document order.
fn panels<'a>(doc: &'a roxmltree::Document) -> Vec<(String, Area, roxmltree::Node<'a, 'a>)> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("panel"))
        .map(|panel| {
            let frame = panel
                .children()
                .find(|c| c.is_element())
                .expect("a panel has children");
            assert_eq!(
                frame.attribute("class"),
                Some("frame"),
                "a panel starts with its frame"
            );
            let area = Area {
                x: number(frame, "x"),
                y: number(frame, "y"),
                w: number(frame, "width"),
                h: number(frame, "height"),
            };
            (panel.attribute("id").unwrap().to_string(), area, panel)
        })
        .collect()
}

/// Renders an SVG to RGB pixels with resvg: (width, pixels row by row).
fn render(svg: &str) -> (u32, Vec<[u8; 3]>) {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .expect("resvg reads the picture");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let pixels = pixmap
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()]
        })
        .collect();
    (size.width(), pixels)
}

fn distance(a: [u8; 3], b: [u8; 3]) -> f64 {
    (0..3)
        .map(|k| (a[k] as f64 - b[k] as f64).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// The pixels of `area`.
fn pixels_in(width: u32, pixels: &[[u8; 3]], area: Area) -> Vec<[u8; 3]> {
    let height = pixels.len() as u32 / width;
    let (x0, y0) = (area.x.max(0.0) as u32, area.y.max(0.0) as u32);
    let x1 = ((area.x + area.w) as u32).min(width);
    let y1 = ((area.y + area.h) as u32).min(height);
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .map(|(x, y)| pixels[(y * width + x) as usize])
        .collect()
}

/// How many pixels of `area` are `colour` or one of its shades (within `tolerance`),
/// and nearer to it than to any other piece's colours.
fn count_colour(
    area_pixels: &[[u8; 3]],
    piece: &str,
    palette: &BTreeMap<String, Vec<[u8; 3]>>,
    tolerance: f64,
) -> usize {
    area_pixels
        .iter()
        .filter(|&&px| {
            let nearest = palette
                .iter()
                .flat_map(|(p, shades)| shades.iter().map(move |&s| (distance(px, s), p)))
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .unwrap();
            nearest.1 == piece && nearest.0 <= tolerance
        })
        .count()
}

/// The symbols of the pieces with a cell on the outside of the printed solution.
fn surface_symbols(cells: &BTreeMap<[usize; 3], char>, size: [usize; 3]) -> BTreeSet<String> {
    cells
        .iter()
        .filter(|(c, _)| {
            (0..3).any(|a| {
                c[a] == 0 || c[a] + 1 == size[a] || {
                    // A neighbour outside the target (a hole) is surface too.
                    let mut lo = **c;
                    let mut hi = **c;
                    lo[a] = lo[a].wrapping_sub(1);
                    hi[a] += 1;
                    !cells.contains_key(&lo) || !cells.contains_key(&hi)
                }
            })
        })
        .map(|(_, s)| s.to_string())
        .collect()
}

fn picture_of(puzzle: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.svg");
    let out = polycover(&["solve", puzzle, "--svg", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    (std::fs::read_to_string(&path).unwrap(), stdout(&out))
}

/// The cells of a printed solution's layers (`z=0  z=1 ...` side by side) with their
/// symbols, and the grid's size.
fn printed_cells(text: &str) -> (BTreeMap<[usize; 3], char>, [usize; 3]) {
    let body: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("s "))
        .skip(1)
        .take_while(|l| {
            !l.starts_with("copies") && !l.starts_with("pieces") && !l.trim().is_empty()
        })
        .collect();
    let (header, rows) = if body[0].starts_with("z=") {
        (Some(body[0]), &body[1..])
    } else {
        (None, &body[..])
    };
    let columns: Vec<&str> = rows[0].split("  ").collect();
    let layers = header.map_or(1, |h| h.split_whitespace().count());
    assert_eq!(columns.len(), layers);
    let width = columns[0].chars().count();
    let mut cells = BTreeMap::new();
    for (y, row) in rows.iter().enumerate() {
        for (z, layer) in row.split("  ").enumerate() {
            for (x, c) in layer.chars().enumerate() {
                if c != '.' {
                    cells.insert([x, y, z], c);
                }
            }
        }
    }
    (cells, [width, rows.len(), layers])
}

/// Every piece's colour shows in each panel where the piece is visible: its own colour
/// (exactly) in the slices or plan and in its own view, and in the assembled views,
/// nearly (only pieces with a cell on the surface are asked for there: a piece inside
/// is hidden). And the picture is not blank.
#[test]
fn pictures_show_every_piece_in_its_colour_in_every_panel() {
    for puzzle in [
        "bedlam",
        "soma",
        "slothouber-graatsma",
        "pentomino-8x8-hole",
    ] {
        let (svg, text) = picture_of(puzzle);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let panels = panels(&doc);
        let (width, pixels) = render(&svg);
        let white = pixels.iter().filter(|&&p| p == [255, 255, 255]).count();
        assert!(
            white < pixels.len() * 9 / 10,
            "{puzzle}: the picture is almost blank"
        );
        // Colours from the slices (or the plan of a flat puzzle): each cell's rectangle is
        // filled with its piece's colour.
        let mut palette: BTreeMap<String, Vec<[u8; 3]>> = BTreeMap::new();
        for (key, fill) in grid_fills(&doc).into_values() {
            palette.entry(key).or_insert_with(|| {
                // The colour and its side shades (0.80 and 0.64 of it).
                [1.0, 0.80, 0.64]
                    .iter()
                    .map(|f| fill.map(|c| (c as f64 * f).round() as u8))
                    .collect()
            });
        }
        let (cells, size) = printed_cells(&text);
        let symbols: BTreeSet<String> = cells.values().map(|c| c.to_string()).collect();
        assert_eq!(
            palette.keys().cloned().collect::<BTreeSet<_>>(),
            symbols,
            "{puzzle}: the slices name the pieces of the printed solution"
        );
        let on_surface = surface_symbols(&cells, size);
        for (id, area, _) in &panels {
            let inside = pixels_in(width, &pixels, *area);
            for piece in palette.keys() {
                let (tolerance, wanted) = match id.as_str() {
                    "assembled" if !on_surface.contains(piece) => continue,
                    "assembled" => (40.0, 20),
                    _ => (1.5, 20),
                };
                let n = count_colour(&inside, piece, &palette, tolerance);
                assert!(
                    n >= wanted,
                    "{puzzle}: piece {piece} shows in {n} pixels of panel {id}"
                );
            }
        }
    }
}

/// The picture's structure: three panels in order; one view of each copy of each piece;
/// the slices agree cell by cell with the printed solution; nothing that would make a
/// viewer fetch or run anything.
#[test]
fn pictures_have_three_panels_and_one_view_per_piece() {
    for (puzzle, copies) in [("bedlam", 13), ("slothouber-graatsma", 9), ("soma", 7)] {
        let (svg, text) = picture_of(puzzle);
        for forbidden in ["<script", "href", "@import", "@font-face", "<image", "url("] {
            assert!(
                !svg.contains(forbidden),
                "{puzzle}: the picture has {forbidden}"
            );
        }
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let panels = panels(&doc);
        let ids: Vec<&str> = panels.iter().map(|(id, _, _)| id.as_str()).collect();
        assert_eq!(ids, ["assembled", "pieces", "slices"], "{puzzle}");
        // Panels do not overlap.
        for w in panels.windows(2) {
            assert!(w[0].1.y + w[0].1.h <= w[1].1.y, "{puzzle}: panels overlap");
        }
        let views: Vec<_> = panels[0]
            .2
            .children()
            .filter(|n| n.attribute("class") == Some("view"))
            .collect();
        assert_eq!(views.len(), 4, "{puzzle}: four views");
        let pieces: Vec<(String, String)> = panels[1]
            .2
            .children()
            .filter(|n| n.attribute("class") == Some("piece"))
            .map(|n| {
                (
                    n.attribute("data-piece").unwrap().to_string(),
                    n.attribute("data-copy").unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(pieces.len(), copies, "{puzzle}: {pieces:?}");
        let distinct: BTreeSet<_> = pieces.iter().collect();
        assert_eq!(distinct.len(), copies, "{puzzle}: each copy once");
        // Each view shows the pieces on its sides (opaque faces turned toward the eye);
        // together the four show every piece that reaches the surface.
        let (cells, size) = printed_cells(&text);
        let on_surface = surface_symbols(&cells, size);
        let mut shown: BTreeSet<(String, String)> = BTreeSet::new();
        for view in &views {
            let here: BTreeSet<(String, String)> = view
                .children()
                .filter(|n| n.has_attribute("data-piece"))
                .map(|n| {
                    (
                        n.attribute("data-piece").unwrap().to_string(),
                        n.attribute("data-copy").unwrap().to_string(),
                    )
                })
                .collect();
            assert!(here.len() >= 3, "{puzzle}: a view shows {here:?}");
            shown.extend(here);
        }
        let symbols: BTreeSet<String> = shown.into_iter().map(|(p, _)| p).collect();
        assert_eq!(symbols, on_surface, "{puzzle}");
        // The slices: layer z, row y, column x hold the printed solution's symbol.
        let layers: Vec<_> = panels[2]
            .2
            .children()
            .filter(|n| n.attribute("class") == Some("layer"))
            .collect();
        assert_eq!(layers.len(), size[2], "{puzzle}: one slice per layer");
        let mut drawn = BTreeMap::new();
        for (z, layer) in layers.iter().enumerate() {
            let rects: Vec<_> = layer
                .children()
                .filter(|n| n.has_tag_name("rect"))
                .collect();
            assert_eq!(
                rects.len(),
                size[0] * size[1],
                "{puzzle}: a square per cell"
            );
            let x0 = rects
                .iter()
                .map(|r| number(*r, "x"))
                .fold(f64::MAX, f64::min);
            let y0 = rects
                .iter()
                .map(|r| number(*r, "y"))
                .fold(f64::MAX, f64::min);
            let side = number(rects[0], "width");
            for r in rects.iter().filter(|r| r.has_attribute("data-piece")) {
                let x = ((number(*r, "x") - x0) / side).round() as usize;
                let y = ((number(*r, "y") - y0) / side).round() as usize;
                let symbol = r.attribute("data-piece").unwrap().chars().next().unwrap();
                drawn.insert([x, y, z], symbol);
            }
        }
        assert_eq!(
            drawn, cells,
            "{puzzle}: the slices are the printed solution"
        );
    }
}

/// Coloured cubes: the four sides unfolded, each face in its colour, every colour shown.
#[test]
fn coloured_cube_pictures_show_the_four_sides() {
    let (svg, text) = picture_of("hesselink-5");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let panels = panels(&doc);
    assert_eq!(panels.len(), 1);
    assert_eq!(panels[0].0, "sides");
    let faces: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_attribute("data-colour"))
        .collect();
    assert_eq!(faces.len(), 5 * 6, "six faces of five cubes");
    // The front side reads as the printed solution's front column.
    let printed_front: String = text
        .lines()
        .skip_while(|l| !l.starts_with("cube "))
        .skip(1)
        .take(5)
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    let drawn_front: String = faces
        .iter()
        .filter(|n| n.attribute("data-face") == Some("front"))
        .map(|n| n.attribute("data-colour").unwrap())
        .collect();
    assert_eq!(drawn_front, printed_front);
    let (width, pixels) = render(&svg);
    let inside = pixels_in(width, &pixels, panels[0].1);
    let mut colours = BTreeMap::new();
    for f in &faces {
        colours.insert(
            f.attribute("data-colour").unwrap().to_string(),
            vec![parse_hex(f.attribute("fill").unwrap())],
        );
    }
    assert_eq!(colours.len(), 5, "five colours");
    for letter in colours.keys() {
        let n = count_colour(&inside, letter, &colours, 1.5);
        assert!(n > 200, "colour {letter} shows in {n} pixels");
    }
}

/// `enumerate --svg DIR --limit N` writes N numbered pictures; a file where the directory
/// should be is a usage error.
#[test]
fn enumerate_draws_each_solution_into_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let pictures = dir.path().join("soma-pictures");
    let out = polycover(&[
        "enumerate",
        "soma",
        "--limit",
        "3",
        "--svg",
        pictures.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names = file_names(&pictures);
    assert_eq!(
        names,
        [
            "solution-000001.svg",
            "solution-000002.svg",
            "solution-000003.svg"
        ]
    );
    let a = std::fs::read_to_string(pictures.join(&names[0])).unwrap();
    let b = std::fs::read_to_string(pictures.join(&names[1])).unwrap();
    assert_ne!(a, b, "two solutions, two pictures");
    roxmltree::Document::parse(&a).unwrap();

    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = polycover(&[
        "enumerate",
        "soma",
        "--limit",
        "1",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
}

/// A target too spread out to draw is a clear error, not a huge file.
#[test]
fn a_sparse_target_too_large_to_draw_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("far.toml");
    std::fs::write(
        &puzzle,
        "name = \"far\"\ntarget = [[0,0,0],[1000,1000,1000]]\n\
         [[piece]]\nname = \"A\"\ncells = [[0,0,0]]\ncount = 2\n",
    )
    .unwrap();
    let svg = dir.path().join("far.svg");
    let out = polycover(&[
        "solve",
        puzzle.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("too many to draw"),
        "{}",
        stderr(&out)
    );
    assert!(!svg.exists());
}

/// Writes `text` as a puzzle file in `dir` and draws a solution of it: (SVG, stdout).
fn picture_of_text(dir: &std::path::Path, text: &str) -> (String, String) {
    let puzzle = dir.join("p.toml");
    std::fs::write(&puzzle, text).unwrap();
    picture_of(puzzle.to_str().unwrap())
}

/// Each cell of a picture's grid (slices or plan) as (piece symbol, fill), keyed by the
/// square's position: what the slices and the plan say about the solution.
fn grid_fills(doc: &roxmltree::Document) -> BTreeMap<(i64, i64), (String, [u8; 3])> {
    doc.descendants()
        .filter(|n| matches!(n.attribute("class"), Some("layer") | Some("plan")))
        .flat_map(|g| g.children().filter(|n| n.has_attribute("data-piece")))
        .map(|r| {
            (
                (number(r, "x").round() as i64, number(r, "y").round() as i64),
                (
                    r.attribute("data-piece").unwrap().to_string(),
                    parse_hex(r.attribute("fill").unwrap()),
                ),
            )
        })
        .collect()
}

/// The redmean distance between two colours (as the picture module measures it).
fn redmean(a: [u8; 3], b: [u8; 3]) -> f64 {
    let mean = (a[0] as f64 + b[0] as f64) / 2.0;
    let d = |k: usize| a[k] as f64 - b[k] as f64;
    ((2.0 + mean / 256.0) * d(0).powi(2)
        + 4.0 * d(1).powi(2)
        + (2.0 + (255.0 - mean) / 256.0) * d(2).powi(2))
    .sqrt()
}

/// Pieces that touch face to face get colours far apart (Bedlam's H and M used to be
/// two shades of one hue), and every piece keeps a colour of its own.
#[test]
fn touching_pieces_get_colours_far_apart() {
    for puzzle in ["bedlam", "soma", "slothouber-graatsma"] {
        let (svg, text) = picture_of(puzzle);
        let (cells, _) = printed_cells(&text);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let mut colour: BTreeMap<String, [u8; 3]> = BTreeMap::new();
        for (symbol, fill) in grid_fills(&doc).into_values() {
            assert_eq!(
                *colour.entry(symbol.clone()).or_insert(fill),
                fill,
                "{symbol}"
            );
        }
        let distinct: BTreeSet<[u8; 3]> = colour.values().copied().collect();
        assert_eq!(distinct.len(), colour.len(), "{puzzle}: a colour per piece");
        let mut closest = (f64::MAX, String::new());
        for (cell, a) in &cells {
            for axis in 0..3 {
                let mut next = *cell;
                next[axis] += 1;
                match cells.get(&next) {
                    Some(b) if b != a => {
                        let d = redmean(colour[&a.to_string()], colour[&b.to_string()]);
                        if d < closest.0 {
                            closest = (d, format!("{a} and {b}"));
                        }
                    }
                    _ => {}
                }
            }
        }
        assert!(
            closest.0 >= 180.0,
            "{puzzle}: touching pieces {} are only {:.0} apart",
            closest.1,
            closest.0
        );
    }
}

/// An upper estimate of a text's width (DejaVu Sans, the widest common sans-serif,
/// rounded up by character class), independent of the program's own.
fn estimated_width(text: &str, size: f64) -> f64 {
    text.chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | 'I' | 'J' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.33,
            ' ' | 'f' | 'r' | 't' | '(' | ')' | '-' | '/' => 0.43,
            'm' | 'w' | 'M' | 'W' | '@' | '%' => 1.0,
            'a'..='z' | '0'..='9' | '_' => 0.65,
            c if c.is_ascii() => 0.84,
            _ => 1.0,
        })
        .sum::<f64>()
        * size
}

/// Every text's box (x0, y0, x1, y1) by the estimate above, with its panel's area (none
/// for text outside the panels).
fn text_boxes(doc: &roxmltree::Document) -> Vec<(String, [f64; 4], Option<Area>)> {
    let areas: Vec<(roxmltree::NodeId, Area)> = panels(doc)
        .into_iter()
        .map(|(_, area, node)| (node.id(), area))
        .collect();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|t| {
            let content = t.text().unwrap_or("").to_string();
            let size = number(t, "font-size");
            let w = estimated_width(&content, size);
            let x = number(t, "x");
            let x0 = match t.attribute("text-anchor") {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            let y = number(t, "y");
            let area = t
                .ancestors()
                .find_map(|a| areas.iter().find(|(id, _)| *id == a.id()).map(|p| p.1));
            (content, [x0, y - 0.8 * size, x0 + w, y + 0.2 * size], area)
        })
        .collect()
}

/// Text stays inside its panel (the title inside the picture), and no two texts
/// overlap.
fn assert_text_fits(what: &str, svg: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let (width, height) = (number(root, "width"), number(root, "height"));
    let boxes = text_boxes(&doc);
    for (text, b, area) in &boxes {
        let a = area.unwrap_or(Area {
            x: 0.0,
            y: 0.0,
            w: width,
            h: height,
        });
        assert!(
            b[0] >= a.x && b[2] <= a.x + a.w && b[1] >= a.y && b[3] <= a.y + a.h,
            "{what}: {text:?} at {b:?} leaves its area {a:?}"
        );
    }
    for (k, (t, a, _)) in boxes.iter().enumerate() {
        for (u, b, _) in &boxes[..k] {
            let overlap =
                a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5;
            assert!(!overlap, "{what}: {t:?} at {a:?} overlaps {u:?} at {b:?}");
        }
    }
}

/// A 64-character puzzle name, a 64-character piece name and a long label stay inside
/// their panels (the title inside the picture), wrapped or cut, without overlapping.
#[test]
fn a_64_character_name_stays_inside_its_panel() {
    let dir = tempfile::tempdir().unwrap();
    let long = "W".repeat(64);
    let (svg, _) = picture_of_text(
        dir.path(),
        &format!(
            "name = \"{long}\"\nbox = [4, 2, 2]\n\
             [[piece]]\nname = \"{long}\"\nsymbol = \"w\"\nlabel = \"{long} {long}\"\n\
             cells = [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]\n\
             [[piece]]\nname = \"O\"\ncells = [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]\ncount = 3\n"
        ),
    );
    assert_text_fits("long names", &svg);
}

/// On a narrow target (a 2x2x8 column, whose views are narrower than their captions) no
/// caption runs into another or out of its panel; catalog pictures keep the same rule.
#[test]
fn captions_stay_apart_on_a_narrow_target() {
    let dir = tempfile::tempdir().unwrap();
    let (svg, _) = picture_of_text(
        dir.path(),
        "name = \"column\"\nbox = [2, 2, 8]\n\
         [[piece]]\nname = \"O\"\ncells = [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]\ncount = 8\n",
    );
    assert_text_fits("column", &svg);
    for puzzle in ["bedlam", "soma", "pentomino-8x8-hole", "hesselink-5"] {
        assert_text_fits(puzzle, &picture_of(puzzle).0);
    }
}

/// A flat puzzle (one layer thick) is one large 2-D picture, the plan, cell by cell the
/// printed solution, with no 3-D views and no slices.
#[test]
fn flat_puzzles_are_drawn_as_one_plan() {
    let (svg, text) = picture_of("pentomino-8x8-hole");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let ids: Vec<String> = panels(&doc).into_iter().map(|(id, _, _)| id).collect();
    assert_eq!(ids, ["plan"]);
    assert!(!svg.contains("<polygon"), "no 3-D views");
    let fills = grid_fills(&doc);
    let side = fills
        .keys()
        .zip(fills.keys().skip(1))
        .map(|(a, b)| (b.0 - a.0).abs().max((b.1 - a.1).abs()))
        .filter(|&d| d > 0)
        .min()
        .unwrap();
    assert!(side >= 30, "large squares, not {side} pixels");
    let (x0, y0) = (
        fills.keys().map(|k| k.0).min().unwrap(),
        fills.keys().map(|k| k.1).min().unwrap(),
    );
    let drawn: BTreeMap<[usize; 3], char> = fills
        .iter()
        .map(|(&(x, y), (symbol, _))| {
            (
                [((x - x0) / side) as usize, ((y - y0) / side) as usize, 0],
                symbol.chars().next().unwrap(),
            )
        })
        .collect();
    let (cells, size) = printed_cells(&text);
    assert_eq!(size[2], 1);
    // The hole is in the middle, so the drawn grid starts where the printed one does.
    assert_eq!(drawn, cells);
}

/// The assembled views are opaque: no fill-opacity or opacity below 1 anywhere.
#[test]
fn assembled_views_are_opaque() {
    for puzzle in ["bedlam", "soma"] {
        let (svg, _) = picture_of(puzzle);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        for node in doc.descendants() {
            for name in ["fill-opacity", "opacity"] {
                if let Some(v) = node.attribute(name) {
                    assert!(
                        v.parse::<f64>().unwrap() >= 1.0,
                        "{puzzle}: {name}={v} on {node:?}"
                    );
                }
            }
        }
    }
}

/// Colour constraints show: a mark on every target cell that has a colour and on the
/// coloured piece cells, in the slices or plan and (3-D) on the pieces' faces, and a key
/// naming each colour.
#[test]
fn colour_constraints_are_shown_with_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let solid = "name = \"coloured cube\"\nbox = [2, 2, 2]\n\
         [colors]\nred = [[0,0,0], [1,1,1]]\nblue = [[1,0,0]]\n\
         [[piece]]\nname = \"L\"\ncells = [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]\n\
         [piece.colors]\nred = [[0,0,0]]\nblue = [[1,0,0]]\n\
         [[piece]]\nname = \"R\"\ncells = [[1,1,1],[0,1,1],[1,0,1],[1,1,0]]\n";
    let bars = std::fs::read_to_string(format!(
        "{}/tests/fixtures/ranges/coloured-bars.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    ))
    .unwrap();
    for (what, text, target_marks) in [("solid", solid, 3), ("bars", bars.as_str(), 6)] {
        let (svg, _) = picture_of_text(dir.path(), text);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let ids: Vec<String> = panels(&doc).into_iter().map(|(id, _, _)| id).collect();
        assert_eq!(
            ids.last().map(String::as_str),
            Some("key"),
            "{what}: {ids:?}"
        );
        let marks = |on: &str| -> Vec<String> {
            doc.descendants()
                .filter(|n| n.attribute("data-on") == Some(on))
                .map(|n| n.attribute("data-constraint").unwrap().to_string())
                .collect()
        };
        let keyed: BTreeSet<String> = marks("key").into_iter().collect();
        assert_eq!(
            keyed,
            BTreeSet::from(["blue".into(), "red".into()]),
            "{what}"
        );
        assert_eq!(marks("target").len(), target_marks, "{what}");
        assert!(
            !marks("piece").is_empty(),
            "{what}: the pieces' coloured cells"
        );
        assert_text_fits(what, &svg);
        // The marks show in their colours: red and blue pixels in the picture.
        let (width, pixels) = render(&svg);
        let all = Area {
            x: 0.0,
            y: 0.0,
            w: width as f64,
            h: (pixels.len() as u32 / width) as f64,
        };
        let inside = pixels_in(width, &pixels, all);
        for (name, rgb) in [("red", [0xe4, 0x1a, 0x1c]), ("blue", [0x37, 0x7e, 0xb8])] {
            let n = inside.iter().filter(|&&p| distance(p, rgb) < 2.0).count();
            assert!(n > 30, "{what}: {name} shows in {n} pixels");
        }
    }
}

/// `solve --svg` and `enumerate --svg` on a puzzle too large to draw refuse before
/// searching: exit 2, and no search line (`c time`), no answer and no solution printed.
#[test]
fn a_puzzle_too_large_to_draw_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("sparse.toml");
    std::fs::write(
        &puzzle,
        "name = \"sparse\"\ntarget = [[0,0,0],[1,0,0],[500,500,500],[501,500,500]]\n\
         [[piece]]\nname = \"D\"\ncells = [[0,0,0],[1,0,0]]\ncount = 2\n",
    )
    .unwrap();
    let svg = dir.path().join("s.svg");
    let pictures = dir.path().join("pictures");
    for args in [
        vec![
            "solve",
            puzzle.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ],
        vec![
            "enumerate",
            puzzle.to_str().unwrap(),
            "--svg",
            pictures.to_str().unwrap(),
        ],
    ] {
        let out = polycover(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("too many to draw"),
            "{}",
            stderr(&out)
        );
        let printed = stdout(&out);
        assert!(
            !printed
                .lines()
                .any(|l| l.starts_with("c time") || l.starts_with("s ") || l.contains(",0,0")),
            "{args:?}: searched before refusing:\n{printed}"
        );
    }
    assert!(!svg.exists());
    assert!(!pictures.exists(), "no picture directory made");
}
