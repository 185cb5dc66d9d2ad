//! Difficulty measures of a puzzle (`info --difficulty`, `design --report`, and what
//! `design --maximize nodes` climbs): the figures the packing-puzzle literature ranks
//! puzzles by, read off the search tree of the dancing links. The DLX engine hands them
//! out as its ability to measure its tree ([`super::MeasuresTree`]).
//!
//! # The tree
//!
//! The tree is the one `count --solver dlx` searches: Algorithm X over the problem's
//! *reduced* matrix (the symmetry reduction of its mode already applied: the pinned
//! item's options removed), branching at each node on the unit item with the fewest
//! options left, ties to the item listed last (`solver` module docs), walked whole from
//! the root on one thread. It depends only on the matrix and the mode, never on threads,
//! splits or the machine, so every figure here is deterministic. (`count`'s own `nodes`
//! figure is the same tree less the nodes above its split into subproblems.)
//!
//! # The measures
//!
//! - `solutions`: the distinct solutions up to the mode's symmetry, as `count` reports
//!   them; `raw_solutions` the solutions of the reduced matrix before the canonical check
//!   (the two differ only where the reduction leaves some symmetry to check).
//! - `nodes`: every node of the tree, the root included: one per partial solution the
//!   search reaches. In a matrix that is not exact (optional cells, count ranges) the
//!   completion's steps are nodes too.
//! - `dead_ends`: the leaves without a solution, the nodes where some item that must
//!   still be covered has no option left (the search's `Branch::Dead`); a failed
//!   completion of a matrix that is not exact is not one. In an exact matrix every leaf
//!   is a dead end or a raw solution. `dead_ends_per_solution` is `dead_ends /
//!   solutions` (undefined without a solution): how many times a solver backs out of a
//!   wrong placement for each solution it finds.
//! - `first_move`: the options of the item the search branches on at the root, the first
//!   placement's choices (0 when the root is already a leaf).
//! - `branching[d]`: the mean number of children of a node at depth `d` (nodes at depth
//!   `d + 1` over nodes at depth `d`, leaves counted with none), for `d` below
//!   [`DEPTHS`]; `branching[0]` is `first_move`. Counted breadth first; a level with more
//!   than [`MOST_PREFIXES`] nodes ends the list early, and so does a level with none.
//!
//! Invariants: `dead_ends + raw_solutions <= nodes`, with `solutions <= raw_solutions`;
//! the measures of a stopped walk (deadline, Ctrl-C) are never returned as if complete.

use std::time::Instant;

use super::Problem;
use crate::error::{Error, Result};
use crate::solver::{self, Branch};
use crate::stop::Stop;

/// How many levels of the tree [`Difficulty::branching`] describes.
pub(crate) const DEPTHS: usize = 3;

/// The most nodes of one level the branching profile expands (a bound on its memory).
pub(crate) const MOST_PREFIXES: usize = 200_000;

/// The difficulty measures of one puzzle in one symmetry mode (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Difficulty {
    /// The symmetry mode's name (`rotations`, ...).
    pub mode: &'static str,
    /// Distinct solutions up to the mode's symmetry.
    pub solutions: u64,
    /// Solutions of the reduced matrix, before the canonical check.
    pub raw_solutions: u64,
    /// Nodes of the DLX's search tree, the root included.
    pub nodes: u64,
    /// Leaves where an item had no option left.
    pub dead_ends: u64,
    /// The options of the item branched on at the root.
    pub first_move: u64,
    /// The mean number of children of a node at depths 0, 1, ...
    pub branching: Vec<f64>,
    /// Seconds the measures took.
    pub seconds: f64,
}

impl Difficulty {
    /// How many levels of the search tree `branching` describes.
    pub const DEPTHS: usize = DEPTHS;

    /// Dead ends per distinct solution; `None` without a solution.
    pub fn dead_ends_per_solution(&self) -> Option<f64> {
        (self.solutions > 0).then(|| self.dead_ends as f64 / self.solutions as f64)
    }

    /// The measures as `info` rows: a name, then its value.
    pub fn rows(&self) -> Vec<(&'static str, String)> {
        let per = match self.dead_ends_per_solution() {
            Some(x) => format!("{} per solution", round(x)),
            None => "no solution".into(),
        };
        vec![
            (
                "difficulty",
                format!(
                    "the DLX's search tree, symmetry {} ({:.3} s)",
                    self.mode, self.seconds
                ),
            ),
            ("solutions", self.solutions.to_string()),
            ("nodes", self.nodes.to_string()),
            ("dead ends", format!("{} ({per})", self.dead_ends)),
            ("first move", format!("{} options", self.first_move)),
            (
                "branching",
                format!(
                    "{} (mean children of a node at depths 0 to {})",
                    self.profile(),
                    self.branching.len().saturating_sub(1)
                ),
            ),
        ]
    }

    /// The measures on one line, for `design`'s `c` lines and its file's comment.
    pub fn line(&self) -> String {
        let per = self
            .dead_ends_per_solution()
            .map_or("no solution".into(), |x| {
                format!("{} per solution", round(x))
            });
        format!(
            "{}, {} nodes, {} dead ends ({per}), first move {} options, branching {}",
            crate::count::Count::solutions(crate::count::Count::from(self.solutions)),
            self.nodes,
            self.dead_ends,
            self.first_move,
            self.profile()
        )
    }

    /// `text` (a puzzle file) with the measures as a comment after its leading comment
    /// lines.
    pub fn annotated(&self, text: &str) -> String {
        let header: usize = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| l.len() + 1)
            .sum::<usize>()
            .min(text.len());
        format!(
            "{}# Difficulty (DLX, {}): {}.\n{}",
            &text[..header],
            self.mode,
            self.line(),
            &text[header..]
        )
    }

    fn profile(&self) -> String {
        let b: Vec<String> = self.branching.iter().map(|&x| round(x)).collect();
        b.join(", ")
    }
}

/// A figure to three significant digits or so, without trailing zeros.
fn round(x: f64) -> String {
    let s = if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The measures of `problem`, walked until `stop` says stop: `Ok(None)` when its deadline
/// came first.
///
/// # Errors
///
/// [`Error::Interrupted`] when `stop` was raised.
pub(crate) fn measure(problem: &Problem, stop: &Stop) -> Result<Option<Difficulty>> {
    let started = Instant::now();
    let Some(tree) = tree(problem, stop)? else {
        return Ok(None);
    };
    let Some(branching) = branching(problem, stop)? else {
        return Ok(None);
    };
    Ok(Some(Difficulty {
        mode: problem.compiled.mode.as_str(),
        solutions: tree.solutions,
        raw_solutions: tree.found,
        nodes: tree.nodes,
        dead_ends: tree.dead_ends,
        first_move: branching.first().map_or(0, |&b| b as u64),
        branching,
        seconds: started.elapsed().as_secs_f64(),
    }))
}

/// The whole tree's figures alone (what `design --maximize nodes` compares); `Ok(None)`
/// past the deadline.
pub(crate) fn tree(problem: &Problem, stop: &Stop) -> Result<Option<solver::Tree>> {
    let tree = solver::dlx_tree(&problem.reduction, stop);
    if !tree.stopped {
        Ok(Some(tree))
    } else if stop.raised() {
        Err(Error::Interrupted(format!(
            "after {} nodes of the difficulty measure",
            tree.nodes
        )))
    } else {
        Ok(None)
    }
}

/// The options of the item the DLX branches on at the root (0 when the root is a leaf):
/// [`Difficulty::first_move`] without the rest of the tree.
pub(crate) fn first_move(problem: &Problem) -> u64 {
    match solver::dlx(problem.reduction.matrix()).branch(&[]) {
        Branch::On(options) => options.len() as u64,
        _ => 0,
    }
}

/// The branching profile (see the module docs), breadth first by the DLX's own
/// branching; `Ok(None)` past the deadline.
fn branching(problem: &Problem, stop: &Stop) -> Result<Option<Vec<f64>>> {
    let mut engine = solver::dlx(problem.reduction.matrix());
    let mut level: Vec<Vec<u32>> = vec![Vec::new()];
    let mut profile = Vec::new();
    while profile.len() < DEPTHS && !level.is_empty() && level.len() <= MOST_PREFIXES {
        let mut next = Vec::new();
        for prefix in &level {
            if stop.raised() {
                return Err(Error::Interrupted("during the branching profile".into()));
            }
            if stop.timed_out() {
                return Ok(None);
            }
            if let Branch::On(options) = engine.branch(prefix) {
                next.extend(options.into_iter().map(|o| {
                    let mut p = prefix.clone();
                    p.push(o);
                    p
                }));
            }
        }
        profile.push(next.len() as f64 / level.len() as f64);
        level = next;
    }
    Ok(Some(profile))
}
