//! What `verify` sums, derived from the files the checker checks and never from the
//! editable `MANIFEST`.
//!
//! A certificate directory holds one CNF per Burnside term. The checker proves each
//! term's count; this module proves that the terms add up to a count of orbits:
//!
//! 1. **The identity.** The term whose CNF has the fewest clauses is the base formula
//!    `B`. Every other term's CNF must be `B`, clause for clause and with the same
//!    variables and `c v` lines, followed by exactly the clauses `-x_o x_g(o)` of one
//!    permutation `g` of the variables (each moved variable once, no other clause). Its
//!    models are then the models of `B` that `g` maps onto themselves.
//! 2. **Symmetries.** Each `g` maps `B`'s clause set onto itself (an automorphism), so
//!    it maps models to models.
//! 3. **The group.** The permutations generate a group `G`, computed by closure; the
//!    terms must be its conjugacy classes, each exactly once. The multiplicities are the
//!    classes' sizes and the order is `|G|`, derived here: the `MANIFEST`'s figures are
//!    compared with them and a difference is named.
//! 4. **The mode.** `symmetry none` needs `|G| = 1`. Where the `c v` lines place cells
//!    (polycube puzzles), every element must move the cells as an isometry of the
//!    target does, a rotation for `symmetry rotations`; its map is reported, and must be
//!    the one the term's CNF names.
//!
//! Burnside's lemma then makes the sum of the terms' counts, each times its class size,
//! over `|G|`, the number of `G`-orbits of `B`'s models. That `B` is the puzzle, and `G`
//! its group in the mode, is what [`against_puzzle`] checks (`verify --puzzle`): it
//! rebuilds the identity CNF and the group from the puzzle file and compares.
//!
//! Invariants: only the base formula's clauses are held in memory, once as written and
//! once as a set of sorted clauses; the other CNFs are read one at a time.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::formula::Formula;
use crate::error::{Error, Result};
use crate::geometry::{Cell, Isometry};
use crate::puzzle::{Puzzle, SymmetryMode};

/// The most elements the terms' group may have: the cube's full group has 48.
const MOST_ELEMENTS: usize = 1_000;

/// One term as `MANIFEST` lists it: nothing in it is trusted but its file names.
pub(super) struct Listed {
    pub name: String,
    pub multiplicity: usize,
    pub cnf: String,
    pub cpog: String,
}

/// A term's CNF, read whole.
struct Cnf {
    vars: u32,
    clauses: Vec<Vec<i32>>,
    /// The text of each `c v VAR ...` line after the variable, in variable order.
    placements: Vec<String>,
    /// `c puzzle NAME`.
    puzzle: Option<String>,
    /// `c term NAME: ...`: the symmetry the writer says the term is.
    label: Option<String>,
}

/// What the terms are, derived.
pub(super) struct Derived {
    /// Per listed term, the size of its conjugacy class.
    pub multiplicity: Vec<usize>,
    /// The group's order.
    pub order: usize,
    /// Per listed term, the map it is: an isometry's label where the variables are
    /// placements of cells, else `identity` or the number of variables it moves.
    pub map: Vec<String>,
    /// The puzzle the CNFs name.
    pub puzzle: Option<String>,
    /// The symmetry mode checked against (the `MANIFEST`'s `symmetry` line).
    pub mode: Option<SymmetryMode>,
}

fn damaged(what: String) -> Error {
    Error::Failed(format!("the certificate does not hold together: {what}"))
}

fn read_cnf(path: &Path) -> Result<Cnf> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Read {
        path: path.into(),
        source,
    })?;
    let bad = |why: &str| damaged(format!("{}: {why}", path.display()));
    let mut cnf = Cnf {
        vars: 0,
        clauses: Vec::new(),
        placements: Vec::new(),
        puzzle: None,
        label: None,
    };
    let mut header: Option<(u32, usize)> = None;
    let mut clause = Vec::new();
    for line in text.lines() {
        if let Some(c) = line.strip_prefix('c') {
            let c = c.trim_start();
            if let Some(rest) = c.strip_prefix("v ") {
                let (var, what) = rest.split_once(' ').unwrap_or((rest, ""));
                if var.parse::<usize>().ok() != Some(cnf.placements.len() + 1) {
                    return Err(bad("its `c v` lines are not in variable order"));
                }
                cnf.placements.push(what.to_string());
            } else if let Some(name) = c.strip_prefix("puzzle ") {
                cnf.puzzle = Some(name.to_string());
            } else if let Some(rest) = c.strip_prefix("term ") {
                cnf.label = rest.split_once(": ").map(|(l, _)| l.to_string());
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("p cnf ") {
            let n: Vec<usize> = rest
                .split_whitespace()
                .map(|w| w.parse().map_err(|_| bad("a bad `p cnf` line")))
                .collect::<Result<_>>()?;
            let [v, c] = n[..] else {
                return Err(bad("a bad `p cnf` line"));
            };
            header = Some((v as u32, c));
            cnf.vars = v as u32;
            continue;
        }
        if header.is_none() {
            if line.trim().is_empty() {
                continue;
            }
            return Err(bad("a clause before the `p cnf` line"));
        }
        for w in line.split_ascii_whitespace() {
            let l: i32 = w
                .parse()
                .map_err(|_| bad("a literal that is not a number"))?;
            if l == 0 {
                cnf.clauses.push(std::mem::take(&mut clause));
            } else if l.unsigned_abs() > cnf.vars {
                return Err(bad("a literal past the variables"));
            } else {
                clause.push(l);
            }
        }
    }
    let (vars, clauses) = header.ok_or_else(|| bad("no `p cnf` line"))?;
    if !clause.is_empty() || clauses != cnf.clauses.len() {
        return Err(bad("its clauses are not those its `p cnf` line counts"));
    }
    if !cnf.placements.is_empty() && cnf.placements.len() != vars as usize {
        return Err(bad("it names some of its variables but not all"));
    }
    Ok(cnf)
}

/// The clauses' number, from the `p cnf` line alone.
fn clause_count(path: &Path) -> Result<usize> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).map_err(|source| Error::Read {
        path: path.into(),
        source,
    })?;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|source| Error::Read {
            path: path.into(),
            source,
        })?;
        if let Some(rest) = line.strip_prefix("p cnf ") {
            if let Some(c) = rest.split_whitespace().nth(1).and_then(|c| c.parse().ok()) {
                return Ok(c);
            }
        }
    }
    Err(damaged(format!("{}: no `p cnf` line", path.display())))
}

/// A permutation of the variables, 0-based.
type Perm = Vec<u32>;

/// The permutation whose clauses `-x_o x_g(o)` follow the base formula in `term`.
fn term_map(base: &Cnf, term: &Cnf, name: &str) -> Result<Perm> {
    let differs = |what: &str| damaged(format!("term {name}'s CNF {what}"));
    if term.vars != base.vars || term.placements != base.placements {
        return Err(differs("has other variables than the identity's"));
    }
    if term.puzzle != base.puzzle {
        return Err(differs("names another puzzle than the identity's"));
    }
    let n = base.clauses.len();
    if term.clauses.len() < n || term.clauses[..n] != base.clauses[..] {
        return Err(differs(
            "is not the identity's CNF with clauses added: a clause of the identity's is \
             missing or changed",
        ));
    }
    let mut g: Perm = (0..base.vars).collect();
    let mut moved = vec![false; base.vars as usize];
    for c in &term.clauses[n..] {
        let &[a, b] = &c[..] else {
            return Err(differs("adds a clause that is not `-x_o x_g(o)`"));
        };
        if a >= 0 || b <= 0 || -a == b || moved[(-a - 1) as usize] {
            return Err(differs(
                "adds a clause that is not `-x_o x_g(o)` of one map",
            ));
        }
        moved[(-a - 1) as usize] = true;
        g[(-a - 1) as usize] = (b - 1) as u32;
    }
    let images: HashSet<u32> = g.iter().copied().collect();
    if images.len() != g.len() {
        return Err(differs(
            "adds clauses `-x_o x_g(o)` of a map that is not one to one",
        ));
    }
    Ok(g)
}

fn map_clause(g: &Perm, c: &[i32]) -> Vec<i32> {
    let mut out: Vec<i32> = c
        .iter()
        .map(|&l| {
            let v = g[(l.unsigned_abs() - 1) as usize] as i32 + 1;
            if l < 0 {
                -v
            } else {
                v
            }
        })
        .collect();
    out.sort_unstable();
    out
}

fn sorted(c: &[i32]) -> Vec<i32> {
    let mut c = c.to_vec();
    c.sort_unstable();
    c
}

/// Whether `g` maps the clause set onto itself.
fn is_automorphism(g: &Perm, clauses: &[Vec<i32>], set: &HashSet<Vec<i32>>) -> bool {
    clauses.iter().all(|c| set.contains(&map_clause(g, c)))
}

fn compose(a: &Perm, b: &Perm) -> Perm {
    b.iter().map(|&x| a[x as usize]).collect()
}

fn inverse(a: &Perm) -> Perm {
    let mut inv = vec![0; a.len()];
    for (i, &x) in a.iter().enumerate() {
        inv[x as usize] = i as u32;
    }
    inv
}

/// The group the permutations generate, identity first; `None` past [`MOST_ELEMENTS`].
fn closure(n: u32, gens: &[Perm]) -> Option<Vec<Perm>> {
    let id: Perm = (0..n).collect();
    let mut elements = vec![id.clone()];
    let mut seen: HashSet<Perm> = HashSet::from([id]);
    let mut k = 0;
    while k < elements.len() {
        for s in gens {
            let e = compose(s, &elements[k]);
            if seen.insert(e.clone()) {
                if elements.len() == MOST_ELEMENTS {
                    return None;
                }
                elements.push(e);
            }
        }
        k += 1;
    }
    Some(elements)
}

/// The cells of each placement, where every `c v` line reads `PIECE oN x,y,z ...`.
fn placement_cells(placements: &[String]) -> Option<Vec<Vec<Cell>>> {
    if placements.is_empty() {
        return None;
    }
    placements
        .iter()
        .map(|p| {
            let mut words = p.split_ascii_whitespace().skip(2).peekable();
            words.peek()?;
            let mut cells: Vec<Cell> = words
                .map(|w| {
                    let xyz: Vec<i32> = w
                        .split(',')
                        .map(|v| v.parse().ok())
                        .collect::<Option<_>>()?;
                    <[i32; 3]>::try_from(xyz).ok()
                })
                .collect::<Option<_>>()?;
            cells.sort_unstable();
            Some(cells)
        })
        .collect()
}

/// The isometries of the mode that move every placement's cells onto its image's under
/// `g`, the whole target kept in place.
fn realised_by(g: &Perm, cells: &[Vec<Cell>], isometries: &[Isometry]) -> Vec<Isometry> {
    let all: Vec<Cell> = cells.iter().flatten().copied().collect();
    let lo = crate::geometry::min_corner(&all).expect("cells");
    isometries
        .iter()
        .copied()
        .filter(|t| {
            let image: Vec<Cell> = all.iter().map(|&c| t.apply(c)).collect();
            let ilo = crate::geometry::min_corner(&image).expect("cells");
            let shift = [lo[0] - ilo[0], lo[1] - ilo[1], lo[2] - ilo[2]];
            cells.iter().enumerate().all(|(v, cs)| {
                let mut moved: Vec<Cell> = cs
                    .iter()
                    .map(|&c| {
                        let m = t.apply(c);
                        [m[0] + shift[0], m[1] + shift[1], m[2] + shift[2]]
                    })
                    .collect();
                moved.sort_unstable();
                moved == cells[g[v] as usize]
            })
        })
        .collect()
}

fn parse_mode(mode: Option<&str>) -> Result<Option<SymmetryMode>> {
    Ok(match mode {
        None => None,
        Some("none") => Some(SymmetryMode::None),
        Some("rotations") => Some(SymmetryMode::Rotations),
        Some("reflections") => Some(SymmetryMode::Reflections),
        Some("stack") => Some(SymmetryMode::Stack),
        Some(other) => return Err(damaged(format!("MANIFEST names the symmetry `{other}`"))),
    })
}

/// Derives the terms' multiplicities, the group's order and each term's map from the
/// CNFs in `dir` (see the module doc), and compares `MANIFEST`'s figures with them; with
/// `against`, compares the identity's CNF and the group with that puzzle's, while both
/// are in hand ([`against_puzzle`]).
///
/// # Errors
///
/// [`Error::Failed`] naming what does not hold together, or what is not the puzzle's; a
/// CNF that cannot be read; a puzzle that cannot be compiled in the mode.
pub(super) fn derive(
    dir: &Path,
    listed: &[Listed],
    order: usize,
    mode: Option<&str>,
    puzzle: Option<&str>,
    against: Option<&Puzzle>,
) -> Result<Derived> {
    let mode = parse_mode(mode)?;
    let sizes: Vec<usize> = listed
        .iter()
        .map(|t| clause_count(&dir.join(&t.cnf)))
        .collect::<Result<_>>()?;
    let identity = (0..listed.len()).min_by_key(|&k| sizes[k]).expect("a term");
    let base = read_cnf(&dir.join(&listed[identity].cnf))?;
    if let (Some(listed_name), Some(own)) = (puzzle, base.puzzle.as_deref()) {
        if listed_name != own {
            return Err(damaged(format!(
                "MANIFEST names the puzzle `{listed_name}` but the CNFs are of `{own}`"
            )));
        }
    }
    if base.label.as_deref().is_some_and(|l| l != "identity")
        || base
            .clauses
            .iter()
            .any(|c| c.iter().any(|&l| l > 0) && c.iter().any(|&l| l < 0))
    {
        // The base formula's clauses are each all positive (cover at least) or all
        // negative (cover at most); `-x_o x_g(o)` belongs to a term.
        return Err(damaged(format!(
            "no term is the identity: the term with the fewest clauses, {}, is the CNF of \
             a symmetry",
            listed[identity].name
        )));
    }
    let set: HashSet<Vec<i32>> = base.clauses.iter().map(|c| sorted(c)).collect();
    let mut maps: Vec<Perm> = Vec::with_capacity(listed.len());
    let mut labels = Vec::with_capacity(listed.len());
    for (k, t) in listed.iter().enumerate() {
        if k == identity {
            maps.push((0..base.vars).collect());
            labels.push(base.label.clone());
            continue;
        }
        let term = read_cnf(&dir.join(&t.cnf))?;
        let g = term_map(&base, &term, &t.name)?;
        if !is_automorphism(&g, &base.clauses, &set) {
            return Err(damaged(format!(
                "term {}'s map is not a symmetry of the identity's CNF: it sends a clause \
                 to one the CNF does not have",
                t.name
            )));
        }
        maps.push(g);
        labels.push(term.label);
    }
    let group = closure(base.vars, &maps).ok_or_else(|| {
        damaged(format!(
            "the terms' maps generate a group of more than {MOST_ELEMENTS} elements"
        ))
    })?;
    let multiplicity = classes(&group, &maps, listed)?;
    let derived_order = group.len();
    for (k, t) in listed.iter().enumerate() {
        if t.multiplicity != multiplicity[k] {
            return Err(damaged(format!(
                "MANIFEST gives term {} the multiplicity {}, but its class in the group its \
                 terms generate has {} element{}",
                t.name,
                t.multiplicity,
                multiplicity[k],
                if multiplicity[k] == 1 { "" } else { "s" }
            )));
        }
    }
    if order != derived_order {
        return Err(damaged(format!(
            "MANIFEST gives the order {order}, but the terms generate a group of {derived_order}"
        )));
    }
    if mode == Some(SymmetryMode::None) && derived_order != 1 {
        return Err(damaged(format!(
            "MANIFEST says `symmetry none`, but the terms are symmetries of a group of \
             {derived_order}"
        )));
    }
    let map = describe_maps(&base, &maps, &labels, listed, mode, identity)?;
    if let Some(against) = against {
        against_puzzle(&base, &group, mode.unwrap_or(SymmetryMode::None), against)?;
    }
    Ok(Derived {
        multiplicity,
        order: derived_order,
        map,
        puzzle: base.puzzle,
        mode,
    })
}

/// Each term's class size; refused unless the terms are the classes, each once.
fn classes(group: &[Perm], maps: &[Perm], listed: &[Listed]) -> Result<Vec<usize>> {
    let index: HashMap<&Perm, usize> = group.iter().enumerate().map(|(k, g)| (g, k)).collect();
    let inverses: Vec<Perm> = group.iter().map(inverse).collect();
    let mut owner: Vec<Option<usize>> = vec![None; group.len()];
    let mut sizes = Vec::with_capacity(maps.len());
    for (k, t) in maps.iter().enumerate() {
        let mut class: HashSet<usize> = HashSet::new();
        for (x, xi) in group.iter().zip(&inverses) {
            class.insert(index[&compose(x, &compose(t, xi))]);
        }
        for &e in &class {
            if let Some(other) = owner[e] {
                return Err(damaged(format!(
                    "terms {} and {} are the same class of the group: it would be counted \
                     twice",
                    listed[other].name, listed[k].name
                )));
            }
            owner[e] = Some(k);
        }
        sizes.push(class.len());
    }
    let covered = owner.iter().filter(|o| o.is_some()).count();
    if covered != group.len() {
        return Err(damaged(format!(
            "the terms' classes hold {covered} of the {} elements of the group they generate: \
             a class has no term",
            group.len()
        )));
    }
    Ok(sizes)
}

/// Each term's map, as an isometry where the variables place cells; refused where a map
/// is no isometry of the mode or not the one its CNF names.
fn describe_maps(
    base: &Cnf,
    maps: &[Perm],
    labels: &[Option<String>],
    listed: &[Listed],
    mode: Option<SymmetryMode>,
    identity: usize,
) -> Result<Vec<String>> {
    let moved = |g: &Perm| {
        g.iter()
            .enumerate()
            .filter(|&(i, &x)| i as u32 != x)
            .count()
    };
    let Some(cells) = placement_cells(&base.placements) else {
        return Ok(maps
            .iter()
            .enumerate()
            .map(|(k, g)| match k == identity {
                true => "identity".to_string(),
                false => format!("moves {} of {} variables", moved(g), g.len()),
            })
            .collect());
    };
    let isometries: Vec<Isometry> = match mode {
        Some(SymmetryMode::Rotations) => Isometry::rotations().to_vec(),
        _ => Isometry::all().to_vec(),
    };
    let mut out = Vec::with_capacity(maps.len());
    for (k, g) in maps.iter().enumerate() {
        if k == identity {
            out.push("identity".to_string());
            continue;
        }
        let found = realised_by(g, &cells, &isometries);
        let Some(first) = found.first() else {
            return Err(damaged(format!(
                "term {}'s map moves the placements as no {} of the target does",
                listed[k].name,
                if mode == Some(SymmetryMode::Rotations) {
                    "rotation"
                } else {
                    "isometry"
                }
            )));
        };
        if let Some(label) = &labels[k] {
            if !found.iter().any(|t| &t.label() == label) {
                return Err(damaged(format!(
                    "term {}'s CNF says it is the symmetry {label}, but its clauses are \
                     those of {}",
                    listed[k].name,
                    first.label()
                )));
            }
        }
        out.push(
            labels[k]
                .clone()
                .filter(|l| found.iter().any(|t| &t.label() == l))
                .unwrap_or_else(|| first.label()),
        );
    }
    Ok(out)
}

/// Checks that the certificate is of `puzzle` in `mode`: its identity CNF `base` is the
/// one polycover builds from the puzzle (variables, their `c v` lines and every clause,
/// in order), and the `group` its terms generate is the puzzle's group in that mode.
///
/// # Errors
///
/// [`Error::Failed`] naming the first difference; a puzzle that cannot be compiled in
/// the mode.
fn against_puzzle(base: &Cnf, group: &[Perm], mode: SymmetryMode, puzzle: &Puzzle) -> Result<()> {
    let problem = puzzle.compile(mode)?;
    let compiled = &problem.compiled;
    let formula = Formula::new(&compiled.matrix, None)?;
    let not = |what: String| {
        Error::Failed(format!(
            "the certificate is not of the puzzle {}: {what}",
            puzzle.name()
        ))
    };
    if base.vars != formula.num_vars {
        return Err(not(format!(
            "its CNF has {} variables, the puzzle {} placements",
            base.vars, formula.num_vars
        )));
    }
    for (o, line) in base.placements.iter().enumerate() {
        if *line != compiled.puzzle.describe_option(o as u32) {
            return Err(not(format!("variable {} is not the puzzle's", o + 1)));
        }
    }
    if let Some(k) = (0..formula.clauses.len().max(base.clauses.len()))
        .find(|&k| formula.clauses.get(k) != base.clauses.get(k))
    {
        return Err(not(format!(
            "clause {} of its CNF differs from the puzzle's ({} against {} clauses)",
            k + 1,
            base.clauses.len(),
            formula.clauses.len()
        )));
    }
    let own = super::faithful(&compiled.group);
    if own.order() != group.len() {
        return Err(not(format!(
            "its terms generate a group of {}, the puzzle's {} symmetry has {}",
            group.len(),
            mode.as_str(),
            own.order()
        )));
    }
    // The terms' group is closed and of the puzzle's order: it is the puzzle's group if
    // it holds each of the puzzle's elements.
    let group: HashSet<&Perm> = group.iter().collect();
    if let Some(g) = own.elements().iter().find(|g| !group.contains(&g.options)) {
        return Err(not(format!(
            "its terms' group lacks the puzzle's symmetry {}",
            g.name
        )));
    }
    Ok(())
}
