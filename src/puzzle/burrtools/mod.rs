//! BurrTools puzzle files (`.xmpuzzle`): read once into typed values, a [`BurrTools`] with
//! the problem asked for, which becomes a polycube puzzle without a detour through text
//! ([`BurrTools::puzzle`] is a [`Spec`] for [`crate::puzzle::Polycube::from_spec`]); `toml.rs` writes a problem
//! as a puzzle file, for `import` alone.
//!
//! An `.xmpuzzle` is XML, usually gzipped: `<puzzle>` holds `<gridType type="T"/>`,
//! `<shapes>` (one `<voxel x y z [name]>` each, its text one character per voxel with x
//! varying fastest, then y, then z: `#` filled, `_` empty, `+` variable, each optionally
//! followed by a colour number) and `<problems>` (each `<problem name>` lists
//! `<shape id count|min max>` pieces and a `<result id>`). A solved problem records
//! BurrTools' count as `assemblies="N"`.
//!
//! Invariants of a [`BurrTools`]: its problem is one problem of a cube-grid (type 0) file. The
//! result's `+` voxels become optional cells, `min`/`max` a count range, and voxel
//! colours the puzzle's colours (named `c1`, `c2`, ... after BurrTools' numbers, listed
//! in the order of those numbers). Everything polycover would read differently is
//! refused by name: other grids, `+` in a piece, and colour rules other than "a coloured
//! piece voxel goes on a result voxel of the same colour" (BurrTools allows any listed
//! pair of colours, and lets a coloured piece voxel sit on an uncoloured result voxel),
//! and anything malformed. What polycover's own checks refuse (a piece that fits nowhere,
//! say) is refused by [`crate::puzzle::Polycube::from_spec`], located at
//! `FILE problem K, shape N`.
//!
//! Conventions. Coordinates are BurrTools' own (x, y, z); a BurrTools shape name becomes
//! a piece name with spaces turned into `-` (the original is the label) and gets a
//! symbol of its own. BurrTools' count of a solved problem becomes `[expect] rotations`:
//! like polycover's default, it counts assemblies up to the rotations of the result.

mod pieces;
mod toml;
mod xml;

use xml::{parse_xml, xml_text};

use std::collections::HashSet;

use itertools::Itertools;

use crate::error::{Error, Result};
use crate::geometry::Cell;
use crate::input;
use crate::puzzle::polycube::Spec;
use crate::puzzle::Expect;

/// Whether `bytes` look like a BurrTools file: XML whose root is `<puzzle`, plain or
/// gzipped (gzip is only the wrapping: a gzipped puzzle file is a puzzle file).
pub(crate) fn is_burrtools(bytes: &[u8]) -> bool {
    let head = input::head(bytes, 512);
    let head = String::from_utf8_lossy(&head);
    let head = head.trim_start_matches('\u{feff}').trim_start();
    head.starts_with("<?xml") || head.starts_with("<puzzle")
}

/// One problem of a BurrTools file, as its list of problems shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurrToolsProblem {
    /// Its position in the file, from 1: what `--problem N` names.
    pub number: usize,
    /// The problem's `name` attribute; empty when it has none.
    pub name: String,
    /// The number of assemblies BurrTools found, when the file records the problem as
    /// solved; `None` when it was never solved.
    pub assemblies: Option<u64>,
}

/// A BurrTools file, read with the problem asked for: its problems, the one chosen as a
/// puzzle polycover packs, and what `import` says about where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurrTools {
    /// The file, for messages and `import`'s header.
    pub source: String,
    /// The lines of the file's `<comment>` (line ends trimmed), for `import`'s header.
    pub comment: Vec<String>,
    /// Every problem in the file, in file order.
    pub problems: Vec<BurrToolsProblem>,
    /// The index in `problems` of the problem asked for.
    chosen: usize,
    /// The chosen problem's puzzle. Its name is the title: the comment's `Name:` line (or
    /// the file name), with the problem's name when it adds one. Its target cells and
    /// each piece's cells come in the order of BurrTools' voxels (x fastest), its colours
    /// in the order of their numbers.
    pub(crate) puzzle: Spec,
}

impl BurrTools {
    /// Reads a BurrTools file and the problem `problem` names (by name or number from 1;
    /// it may be left out when the file holds one problem).
    ///
    /// # Errors
    ///
    /// What [`BurrTools::list`] refuses; [`Error::Usage`] when `problem` names no problem
    /// of the file, or is left out for a file that holds several; [`Error::Puzzle`] when
    /// the file holds no problem or the problem does not make a puzzle.
    pub fn read(source: &str, bytes: &[u8], problem: Option<&str>) -> Result<BurrTools> {
        read(source, bytes, problem)
    }

    /// The problems a BurrTools file holds, in file order, none of them read: what
    /// `info` shows before it picks one.
    ///
    /// # Errors
    ///
    /// [`Error::Puzzle`] when the bytes do not inflate or are not UTF-8 XML, the root is
    /// not `<puzzle>`, or a problem's attributes do not parse.
    pub fn list(source: &str, bytes: &[u8]) -> Result<Vec<BurrToolsProblem>> {
        let xml = xml_text(source, bytes)?;
        let doc = parse_xml(source, &xml)?;
        list(source, root(source, &doc)?)
    }

    /// Whether `bytes` look like a BurrTools file: XML whose root is `<puzzle`, plain or
    /// gzipped.
    pub fn is_burrtools(bytes: &[u8]) -> bool {
        is_burrtools(bytes)
    }

    /// The problem asked for: its number, name and BurrTools' count.
    pub fn problem(&self) -> &BurrToolsProblem {
        &self.problems[self.chosen]
    }
}

/// One `<voxel>` shape.
struct Voxels {
    name: Option<String>,
    /// (x, y, z) of the filled voxels (`#` and `+`), in the text's order.
    cells: Vec<Cell>,
    /// The `+` (variable) voxels among them.
    variable: Vec<Cell>,
    /// Coloured voxels with their colour numbers (from 1).
    colors: Vec<(Cell, u32)>,
}

fn attr<T: std::str::FromStr>(
    source: &str,
    node: roxmltree::Node,
    name: &str,
) -> Result<Option<T>> {
    match node.attribute(name) {
        None => Ok(None),
        Some(v) => v.trim().parse().map(Some).map_err(|_| {
            Error::puzzle(
                at(source, node),
                format!(
                    "<{}> attribute {name}=\"{v}\" is not a number",
                    node.tag_name().name()
                ),
            )
        }),
    }
}

/// `file:line` of an XML node.
fn at(source: &str, node: roxmltree::Node) -> String {
    let pos = node.document().text_pos_at(node.range().start);
    format!("{source}:{}", pos.row)
}

fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, tag: &str) -> Option<roxmltree::Node<'a, 'i>> {
    node.children().find(|c| c.has_tag_name(tag))
}

fn parse_voxels(source: &str, node: roxmltree::Node, id: usize) -> Result<Voxels> {
    let size = ["x", "y", "z"].map(|k| attr::<usize>(source, node, k));
    let mut dims = [0usize; 3];
    for (k, s) in size.into_iter().enumerate() {
        dims[k] = s?.ok_or_else(|| {
            Error::puzzle(
                at(source, node),
                format!("shape {}: no size {}", id + 1, ["x", "y", "z"][k]),
            )
        })?;
    }
    let name = node.attribute("name").map(str::to_string);
    let label = name.clone().unwrap_or_else(|| format!("{}", id + 1));
    if dims.contains(&0) {
        return Err(Error::puzzle(
            at(source, node),
            format!(
                "shape {label}: size {}x{}x{} has no voxels",
                dims[0], dims[1], dims[2]
            ),
        ));
    }
    // The grid's cells must be countable: x * y divides every voxel's index below, and a
    // product past 64 bits would wrap (to 0 for x = y = 2^32).
    let Some(volume) = dims.iter().try_fold(1usize, |v, &d| v.checked_mul(d)) else {
        return Err(Error::puzzle(
            at(source, node),
            format!(
                "shape {label}: a {}x{}x{} grid has more cells than polycover can count",
                dims[0], dims[1], dims[2]
            ),
        ));
    };
    let text = node.text().unwrap_or("").trim();
    let mut cells = Vec::new();
    let mut variable = Vec::new();
    let mut colors = Vec::new();
    let mut index = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let mut colour = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            colour.push(*d);
            chars.next();
        }
        let colour: u32 = if colour.is_empty() {
            0
        } else {
            colour.parse().map_err(|_| {
                Error::puzzle(
                    at(source, node),
                    format!("shape {label}: voxel colour {colour} is out of range"),
                )
            })?
        };
        // A coordinate is below the text's length, which the input limit keeps far
        // below `i32::MAX`; saturated all the same, and then refused as out of range.
        let cell = [
            index % dims[0],
            index / dims[0] % dims[1],
            index / (dims[0] * dims[1]),
        ]
        .map(|n| i32::try_from(n).unwrap_or(i32::MAX));
        match c {
            '#' | '+' => {
                cells.push(cell);
                if c == '+' {
                    variable.push(cell);
                }
                if colour != 0 {
                    colors.push((cell, colour));
                }
            }
            '_' => {}
            c => {
                return Err(Error::puzzle(
                    at(source, node),
                    format!("shape {label}: unknown voxel character {c:?} (known: # _ +)"),
                ))
            }
        }
        index += 1;
    }
    if index != volume {
        return Err(Error::puzzle(
            at(source, node),
            format!(
                "shape {label}: {} for a {}x{}x{} grid ({volume})",
                crate::count::Count::plural(index, "voxel", "voxels"),
                dims[0],
                dims[1],
                dims[2]
            ),
        ));
    }
    Ok(Voxels {
        name,
        cells,
        variable,
        colors,
    })
}

/// The file's root element, checked to be a cube-grid BurrTools puzzle.
fn root<'a>(source: &str, doc: &'a roxmltree::Document) -> Result<roxmltree::Node<'a, 'a>> {
    let puzzle = doc.root_element();
    if !puzzle.has_tag_name("puzzle") {
        return Err(Error::puzzle(
            source,
            format!(
                "not a BurrTools puzzle: the root element is <{}>",
                puzzle.tag_name().name()
            ),
        ));
    }
    let grid = child(puzzle, "gridType")
        .map(|g| attr::<i64>(source, g, "type"))
        .transpose()?
        .flatten()
        .unwrap_or(0);
    if grid != 0 {
        let what = match grid {
            1 => " (triangular prisms)",
            2 => " (spheres)",
            3 => " (rhombic dodecahedra)",
            4 => " (tetrahedra and octahedra)",
            _ => "",
        };
        return Err(Error::puzzle(
            source,
            format!("grid type {grid} is not supported{what}: polycover packs cubes (grid type 0)"),
        ));
    }
    Ok(puzzle)
}

fn problems_of<'a>(puzzle: roxmltree::Node<'a, 'a>) -> Vec<roxmltree::Node<'a, 'a>> {
    child(puzzle, "problems")
        .map(|p| p.children().filter(|c| c.has_tag_name("problem")).collect())
        .unwrap_or_default()
}

fn info(source: &str, k: usize, problem: roxmltree::Node) -> Result<BurrToolsProblem> {
    let solved = problem.attribute("state") == Some("2");
    Ok(BurrToolsProblem {
        number: k + 1,
        name: problem.attribute("name").unwrap_or("").to_string(),
        assemblies: if solved {
            attr(source, problem, "assemblies")?
        } else {
            None
        },
    })
}

/// The problems of the file's root `puzzle`, in file order.
fn list(source: &str, puzzle: roxmltree::Node) -> Result<Vec<BurrToolsProblem>> {
    problems_of(puzzle)
        .iter()
        .enumerate()
        .map(|(k, &p)| info(source, k, p))
        .collect()
}

/// Reads a BurrTools file and the problem `problem` names (by name or number from 1; it
/// may be left out when the file holds one problem).
///
/// # Errors
///
/// [`Error::Puzzle`] when the bytes do not inflate or are not UTF-8 XML, the root is
/// not `<puzzle>`, or a problem's attributes do not parse, when the file holds no
/// problem, or when the problem does not make a puzzle; [`Error::Usage`] when `problem`
/// names none of the file's problems, or is left out for a file that holds several.
pub(crate) fn read(source: &str, bytes: &[u8], problem: Option<&str>) -> Result<BurrTools> {
    let xml = xml_text(source, bytes)?;
    let doc = parse_xml(source, &xml)?;
    let puzzle = root(source, &doc)?;
    let problems = list(source, puzzle)?;
    let chosen = choose(source, &problems, problem)?;
    let (comment, spec) = read_problem(
        source,
        puzzle,
        problems_of(puzzle)[chosen],
        &problems[chosen],
    )?;
    Ok(BurrTools {
        source: source.to_string(),
        comment,
        problems,
        chosen,
        puzzle: spec,
    })
}

/// The index of the problem `want` names, by name or number from 1; with none asked,
/// the file's only problem.
fn choose(source: &str, problems: &[BurrToolsProblem], want: Option<&str>) -> Result<usize> {
    let listing = || {
        problems
            .iter()
            .map(|p| format!("{} \"{}\"", p.number, p.name))
            .join(", ")
    };
    match want {
        None if problems.len() == 1 => Ok(0),
        None if problems.is_empty() => Err(Error::puzzle(source, "the file holds no problem")),
        None => Err(Error::Usage(format!(
            "{source} holds {} problems: {}; pick one with {}",
            problems.len(),
            listing(),
            crate::setting::Setting::Problem.is("NAME or NUMBER")
        ))),
        Some(want) => problems
            .iter()
            .position(|p| p.name == want)
            .or_else(|| {
                want.parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=problems.len()).contains(&n))
                    .map(|n| n - 1)
            })
            .ok_or_else(|| {
                Error::Usage(format!(
                    "{source}: no problem \"{want}\" (its problems: {}){}",
                    listing(),
                    crate::suggest::did_you_mean(want, problems.iter().map(|p| p.name.as_str()))
                ))
            }),
    }
}

/// The problem `node` (described by `info`) of the file's root `puzzle`, read: the file's
/// comment and the puzzle.
fn read_problem(
    source: &str,
    puzzle: roxmltree::Node,
    node: roxmltree::Node,
    info: &BurrToolsProblem,
) -> Result<(Vec<String>, Spec)> {
    let shapes: Vec<roxmltree::Node> = child(puzzle, "shapes")
        .map(|s| s.children().filter(|c| c.has_tag_name("voxel")).collect())
        .unwrap_or_default();
    let shape = |id: usize, by: roxmltree::Node| -> Result<Voxels> {
        let node = shapes.get(id).ok_or_else(|| {
            Error::puzzle(
                at(source, by),
                format!(
                    "shape id {id} does not exist ({})",
                    crate::count::Count::plural(shapes.len(), "shape", "shapes")
                ),
            )
        })?;
        parse_voxels(source, *node, id)
    };
    let result_node = child(node, "result")
        .ok_or_else(|| Error::puzzle(at(source, node), "the problem has no <result>"))?;
    let result_id: usize = attr(source, result_node, "id")?
        .ok_or_else(|| Error::puzzle(at(source, result_node), "<result> has no id"))?;
    let result = shape(result_id, result_node)?;

    // The comment's `Name:` (or the file name), and the problem's name when it adds one.
    let base = puzzle_title(puzzle)
        .unwrap_or_else(|| source.rsplit('/').next().unwrap_or(source).to_string());
    let title = if info.name.is_empty() || info.name == base {
        base
    } else {
        format!("{base}: {}", info.name)
    };
    let comment = child(puzzle, "comment")
        .and_then(|c| c.text())
        .map(|c| {
            c.trim_end()
                .lines()
                .map(|l| l.trim_end().to_string())
                .collect()
        })
        .unwrap_or_default();
    let pieces_node = child(node, "shapes")
        .ok_or_else(|| Error::puzzle(at(source, node), "the problem lists no pieces (<shapes>)"))?;
    let parts: Vec<roxmltree::Node> = pieces_node
        .children()
        .filter(|c| c.has_tag_name("shape"))
        .collect();
    let mut shapes_used = Vec::with_capacity(parts.len());
    for &piece in &parts {
        let id: usize = attr(source, piece, "id")?
            .ok_or_else(|| Error::puzzle(at(source, piece), "<shape> has no id"))?;
        shapes_used.push((piece, id, shape(id, piece)?));
    }
    check_colors(source, node, &result, shapes_used.iter().map(|(_, _, v)| v))?;

    let pieces = pieces::piece_specs(source, info.number, shapes_used)?;
    Ok((
        comment,
        Spec {
            name: title,
            at: format!("{source} problem {}", info.number),
            optional: result.variable,
            colors: colors_by_number(&result.colors),
            target: result.cells,
            mirror: false,
            expect: Expect {
                rotations: info.assemblies.map(crate::count::Count::from),
                ..Expect::default()
            },
            pieces,
        },
    ))
}

/// Coloured voxels grouped by colour number, in increasing order, each named `cK` after
/// its number K; the cells of each in the voxels' order.
fn colors_by_number(colors: &[(Cell, u32)]) -> Vec<(String, Vec<Cell>)> {
    colors
        .iter()
        .map(|&(_, k)| k)
        .sorted_unstable()
        .dedup()
        .map(|k| {
            let these = colors
                .iter()
                .filter(|&&(_, c)| c == k)
                .map(|&(cell, _)| cell)
                .collect();
            (format!("c{k}"), these)
        })
        .collect()
}

/// Refuses colour rules polycover would read differently. BurrTools lets piece colour
/// `p` sit on result colour `r` when the problem's `<bitmap>` lists the pair
/// (`piece="p-1" result="r-1"`), and lets any voxel sit on an uncoloured result voxel;
/// polycover puts a coloured piece cell on a cell of the same colour only. The two agree
/// when every listed pair is a colour with itself, every colour a piece uses is allowed
/// onto itself, and no coloured piece voxel can sit on an uncoloured result voxel (the
/// result has none, or the pieces have no colours).
fn check_colors<'a>(
    source: &str,
    problem: roxmltree::Node,
    result: &Voxels,
    pieces: impl Iterator<Item = &'a Voxels>,
) -> Result<()> {
    let used: HashSet<u32> = pieces
        .flat_map(|v| v.colors.iter().map(|&(_, k)| k))
        .collect();
    let mut pairs = HashSet::new();
    if let Some(bitmap) = child(problem, "bitmap") {
        for pair in bitmap.children().filter(|c| c.has_tag_name("pair")) {
            let p: u32 = attr(source, pair, "piece")?.unwrap_or(u32::MAX);
            let r: u32 = attr(source, pair, "result")?.unwrap_or(u32::MAX);
            if p != r {
                return Err(Error::puzzle(
                    at(source, pair),
                    format!(
                        "colour rule: piece colour {} on result colour {} is not supported \
                         (polycover puts a coloured piece cell only on a cell of the same colour)",
                        p.saturating_add(1),
                        r.saturating_add(1)
                    ),
                ));
            }
            pairs.insert(p.saturating_add(1));
        }
    }
    if used.is_empty() {
        return Ok(());
    }
    if let Some(k) = used.iter().find(|k| !pairs.contains(k)) {
        return Err(Error::puzzle(
            at(source, problem),
            format!(
                "colour rule: BurrTools lets piece colour {k} go on no coloured result voxel \
                 (no pair allows it); polycover would put it on colour {k}: not supported"
            ),
        ));
    }
    if result.cells.len() > result.colors.len() {
        return Err(Error::puzzle(
            at(source, problem),
            "colour rule: the result has uncoloured voxels, where BurrTools lets coloured piece \
             voxels sit and polycover does not: not supported",
        ));
    }
    Ok(())
}

/// A name for the puzzle: the comment's `Name:` line, if it has one.
fn puzzle_title(puzzle: roxmltree::Node) -> Option<String> {
    let comment = child(puzzle, "comment")?.text()?;
    comment
        .lines()
        .find_map(|l| l.trim().strip_prefix("Name:").map(|n| n.trim().to_string()))
        .filter(|n| !n.is_empty())
}
