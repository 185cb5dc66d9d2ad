//! Writing one term of a certificate: the CNF of the solutions one symmetry fixes, with
//! the comments that name its variables, and the CPOG certificate of its count.
//!
//! Invariant: both files are synced before the term is returned, so that the caller's
//! renaming of the `.partial` files keeps only what is on disk.

use std::collections::HashSet;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use num_bigint::BigUint;

use super::formula::Formula;
use super::out::Out;
use super::reverse;
use super::search::{Certifier, Shape};
use super::Term;
use crate::count::Count;
use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// Writes the term of `g` (the identity for `None`): its CNF at `cnf_path` and its
/// certificate at `cpog_path`. The term's name, symmetry and file names are the
/// caller's to fill in.
#[allow(clippy::too_many_arguments)]
pub(super) fn write_term(
    problem: &Problem,
    g: Option<&Symmetry>,
    shape: Shape,
    models: Option<HashSet<Vec<u32>>>,
    stop: &Stop,
    cnf_path: &Path,
    cpog_path: &Path,
    written: &dyn Fn(u64),
) -> Result<Term> {
    let started = Instant::now();
    let formula = Formula::new(&problem.compiled.matrix, g)?;
    let comments = cnf_comments(problem, &formula, g);
    let cnf_bytes = write_cnf(&formula, &comments, cnf_path)?;
    written(cnf_bytes);
    let written = |cpog: u64| written(cnf_bytes + cpog);
    // The frontier's sweep order where the layers certify (milliseconds); for pieces
    // without copies, the cells' raster, then the pieces.
    let matrix = &problem.compiled.matrix;
    let (layered, sweep) = if super::layers::applies(&formula) {
        (true, crate::solver::memo::layer_order(matrix))
    } else if super::layers::covers_all(&formula) {
        let order = crate::solver::memo::cells_first_order(matrix);
        (order.is_some(), order)
    } else {
        (false, None)
    };
    let graph = write_cpog(
        &formula,
        shape,
        models,
        layered,
        sweep.as_deref(),
        stop,
        cpog_path,
        &written,
    )?;
    Ok(Term {
        name: String::new(),
        multiplicity: 1,
        count: Count::from(graph.count),
        cnf: String::new(),
        cpog: String::new(),
        cnf_bytes,
        cpog_bytes: graph.bytes,
        seconds: started.elapsed().as_secs_f64(),
        symmetry: None,
        nodes: Some(graph.nodes),
        states: Some(graph.states),
        checker_count: None,
    })
}

/// The CNF's comments: what it is, how it encodes the puzzle, the items without
/// clauses, and one line naming each variable's placement (what makes it readable).
pub(super) fn cnf_comments(
    problem: &Problem,
    formula: &Formula,
    g: Option<&Symmetry>,
) -> Vec<String> {
    let compiled = &problem.compiled;
    let puzzle = &compiled.puzzle;
    let map = puzzle.variable_map();
    let mut comments = vec![
        format!("polycover {} certified CNF", env!("CARGO_PKG_VERSION")),
        format!("puzzle {}", puzzle.name()),
        match g {
            None => "term identity: the models are all the solutions".to_string(),
            Some(g) => format!(
                "term {}: the models are the solutions this symmetry maps onto themselves",
                g.name
            ),
        },
        "encoding: per cell at least one placement; per pair of placements on one cell, \
         not both; per counted piece, at most max and at least min as plain clauses; for a \
         symmetry, x_o -> x_g(o); no auxiliary variables, no symmetry breaking"
            .to_string(),
    ];
    for &i in &formula.implied {
        let item = &compiled.matrix.items()[i as usize];
        comments.push(format!(
            "item {} ({}..{} times) has no clauses: the cells decide its count",
            item.name, item.min, item.max
        ));
    }
    comments.push(format!(
        "variables {} (one per {}); variable map: c v VAR {}",
        formula.num_vars, map.option, map.columns
    ));
    for o in 0..formula.num_vars {
        comments.push(format!("v {} {}", o + 1, puzzle.describe_option(o)));
    }
    comments
}

/// An input/output error while writing the file at `path`, named by it.
fn write_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Write {
        path: path.into(),
        source,
    }
}

/// Writes the CNF with its `comments` at `path` and syncs it: its size in bytes.
fn write_cnf(formula: &Formula, comments: &[String], path: &Path) -> Result<u64> {
    let io_err = write_error(path);
    let mut cnf = BufWriter::new(fs::File::create(path).map_err(&io_err)?);
    formula.write_dimacs(&mut cnf, comments).map_err(&io_err)?;
    let file = cnf.into_inner().map_err(|e| io_err(e.into_error()))?;
    file.sync_all().map_err(&io_err)?;
    Ok(file.metadata().map(|m| m.len()).unwrap_or(0))
}

/// The certificate written: the count its graph gives, and its size.
struct Graph {
    count: BigUint,
    /// The graph's operations.
    nodes: usize,
    /// Search states visited.
    states: u64,
    bytes: u64,
}

/// The certificate's file, telling `hear` the bytes written to it so far about every
/// megabyte: the writer's progress, without a poll of the file's size.
struct Heard<'h> {
    file: fs::File,
    written: u64,
    told: u64,
    hear: &'h dyn Fn(u64),
}

impl Write for Heard<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        if self.written >= self.told + (1 << 20) {
            self.told = self.written;
            (self.hear)(self.written);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// The certificate being written.
type CpogOut<'h> = Out<BufWriter<Heard<'h>>>;

/// Writes the certificate of `formula`'s count at `path` and syncs it: the search's
/// graph and lemmas, the root, and the deletion of every clause but the root's unit.
/// `written` hears its bytes so far as it grows.
#[allow(clippy::too_many_arguments)]
fn write_cpog(
    formula: &Formula,
    shape: Shape,
    models: Option<HashSet<Vec<u32>>>,
    layered: bool,
    sweep: Option<&[u32]>,
    stop: &Stop,
    path: &Path,
    written: &dyn Fn(u64),
) -> Result<Graph> {
    let write = write_error(path);
    let file = Heard {
        file: fs::File::create(path).map_err(&write)?,
        written: 0,
        told: 0,
        hear: written,
    };
    let cpog = BufWriter::with_capacity(1 << 20, file);
    let mut out = Out::new(cpog, formula.num_vars, formula.clauses.len() as u32);
    out.comment(&format!(
        "polycover {} CPOG certificate of the CNF beside it",
        env!("CARGO_PKG_VERSION")
    ))
    .map_err(&write)?;
    let shape_note = match shape {
        Shape::Shared => "the memo's subproblems, shared",
        Shape::Tree => "a search tree",
    };
    out.comment(&format!("graph: {shape_note}"))
        .map_err(&write)?;
    if shape == Shape::Shared && models.is_none() && layered {
        return write_layers(formula, out, sweep, stop, path);
    }
    let mut search = Certifier::new(formula, out, shape, models, stop);
    search.deny_bad().map_err(|e| relabel(e, path))?;
    let (count, top, top_lemma) = search.run().map_err(|e| relabel(e, path))?;
    let states = search.states;
    let bad = std::mem::take(&mut search.bad);
    let mut out = search.out;
    let (root, keep, zero) = root(&mut out, &count, top, top_lemma, &bad).map_err(&write)?;
    out.root(root).map_err(&write)?;
    reverse::delete_all(&mut out, formula, root, keep, zero.as_ref(), stop)
        .map_err(|e| relabel(e, path))?;
    close(out, count, states, path)
}

/// The certificate of a sweep ([`super::layers`]): its layers, the root, and the
/// deletions through the cut lemmas.
fn write_layers(
    formula: &Formula,
    out: CpogOut<'_>,
    sweep: Option<&[u32]>,
    stop: &Stop,
    path: &Path,
) -> Result<Graph> {
    let write = write_error(path);
    let mut layers = super::layers::Layers::new(formula, out, sweep, stop);
    layers.deny_bad().map_err(|e| relabel(e, path))?;
    let (count, top, top_lemma) = layers.run().map_err(|e| relabel(e, path))?;
    let bad = layers.bad().to_vec();
    let (root, keep, zero) = root(&mut layers.out, &count, top, top_lemma, &bad).map_err(&write)?;
    layers.out.root(root).map_err(&write)?;
    match (&zero, top) {
        (None, Some(top)) => layers.finish(root, top, keep),
        _ => reverse::delete_all(&mut layers.out, formula, root, keep, zero.as_ref(), stop),
    }
    .map_err(|e| relabel(e, path))?;
    let states = layers.visited;
    close(layers.out, count, states, path)
}

/// Flushes and syncs the finished certificate at `path`: what it holds, and its size.
fn close(out: CpogOut<'_>, count: BigUint, states: u64, path: &Path) -> Result<Graph> {
    let write = write_error(path);
    let nodes = out.nodes.len();
    let bytes = out.bytes;
    let heard = out
        .into_inner()
        .into_inner()
        .map_err(|e| write(e.into_error()))?;
    (heard.hear)(heard.written);
    heard.file.sync_all().map_err(&write)?;
    Ok(Graph {
        count,
        nodes,
        states,
        bytes,
    })
}

/// The certificate's root and its unit clause, after the search gave `count`, its
/// `top` node and lemma `top_lemma`: the false node of a count of zero (returned too, for
/// the deletions), the top itself, or, where options were denied up front (`bad`), the
/// product of their negations and the top.
fn root<W: Write>(
    out: &mut Out<W>,
    count: &BigUint,
    top: Option<i32>,
    top_lemma: u32,
    bad: &[u32],
) -> std::io::Result<(i32, u32, Option<reverse::Zero>)> {
    if *count == BigUint::default() {
        let (z, unit) = reverse::Zero::make(out, top_lemma)?;
        return Ok((z.z, unit, Some(z)));
    }
    let top = top.expect("a positive count has a node");
    if bad.is_empty() {
        return Ok((top, top_lemma, None));
    }
    let mut kids: Vec<i32> = bad.iter().map(|&o| -(o as i32 + 1)).collect();
    kids.push(top);
    let r = out.product(&kids)?;
    // Each bad option's unit clause, the top's, then the root's definition.
    let mut hints: Vec<u32> = Vec::new();
    let lemmas: Vec<(u32, u32, u32)> = out.lemmas[..bad.len()].to_vec();
    hints.extend(lemmas.iter().map(|l| l.0));
    hints.push(top_lemma);
    hints.push(out.node(r).cid);
    let unit = out.lemma(&[r], &hints)?;
    Ok((r, unit, None))
}

/// An input/output error while writing the certificate, named by its file.
fn relabel(e: Error, path: &Path) -> Error {
    match e {
        Error::Io(source) => Error::Write {
            path: path.into(),
            source,
        },
        e => e,
    }
}
