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
/// (exactly) in the slices and in its own view, and in the assembled views, where the
/// faces are translucent, nearly (a piece inside the target may show only through
/// others, so only pieces with a cell on the surface are asked for there). And the
/// picture is not blank.
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
        // Colours from the slices: each cell's rectangle is filled with its piece's colour.
        let mut palette: BTreeMap<String, Vec<[u8; 3]>> = BTreeMap::new();
        for rect in panels[2]
            .2
            .descendants()
            .filter(|n| n.has_attribute("data-piece"))
        {
            let fill = parse_hex(rect.attribute("fill").unwrap());
            let key = rect.attribute("data-piece").unwrap().to_string();
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
        let on_surface: BTreeSet<String> = cells
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
            .collect();
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
        // Every view shows every piece (faces turned toward the eye, translucent).
        for view in &views {
            let shown: BTreeSet<(String, String)> = view
                .children()
                .filter(|n| n.has_attribute("data-piece"))
                .map(|n| {
                    (
                        n.attribute("data-piece").unwrap().to_string(),
                        n.attribute("data-copy").unwrap().to_string(),
                    )
                })
                .collect();
            assert_eq!(
                shown,
                distinct.iter().cloned().cloned().collect(),
                "{puzzle}"
            );
        }
        // The slices: layer z, row y, column x hold the printed solution's symbol.
        let (cells, size) = printed_cells(&text);
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
    let mut names: Vec<String> = std::fs::read_dir(&pictures)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
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
