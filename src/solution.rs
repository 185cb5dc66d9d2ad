//! A solution as the callback of a listing sees it: the options it is made of, and what
//! they mean, through the puzzle that made them.
//!
//! Invariants: a [`Solution`] borrows what it shows and copies nothing; its options are
//! sorted options of the puzzle's matrix (the original matrix, not the reduced one: what
//! every listing engine hands over), so that each method renders what the command line
//! renders for the same solution (`solve`, `enumerate --format jsonl`, `--svg`,
//! `--html`).

use std::fmt;

use crate::error::Result;
use crate::puzzle::Puzzle;

/// One solution of a puzzle: its options, its placements in words, and its text, JSON
/// and pictures, as Python's `polycover.Solution` has them.
///
/// ```
/// use std::ops::ControlFlow;
/// use polycover::{Engine, Problem, RunOptions};
///
/// let soma = Problem::load("soma", None)?;
/// soma.for_each_solution(&Engine::dlx(), &RunOptions::default(), &mut |s| {
///     assert_eq!(s.options().len(), 7); // seven pieces
///     assert!(s.placements().all(|p| !p.is_empty()));
///     assert_eq!(s.text(), s.to_string());
///     ControlFlow::Break(())
/// })?;
/// # Ok::<(), polycover::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Solution<'a> {
    puzzle: &'a Puzzle,
    options: &'a [u32],
}

impl<'a> Solution<'a> {
    /// The solution of `puzzle` made of `options`, sorted options of its matrix (as
    /// `Problem::first` returns them); see `Problem::solution`.
    pub fn new(puzzle: &'a Puzzle, options: &'a [u32]) -> Solution<'a> {
        Solution { puzzle, options }
    }

    /// The sorted options of the puzzle's matrix: option `o` is the CNF's primary
    /// variable `o + 1`.
    pub fn options(&self) -> &'a [u32] {
        self.options
    }

    /// The puzzle the solution is of.
    pub fn puzzle(&self) -> &'a Puzzle {
        self.puzzle
    }

    /// Each placement as a line of the DIMACS variable map (`c v` lines, without the
    /// variable): the piece, then the cells it covers.
    pub fn placements(&self) -> impl Iterator<Item = String> + 'a {
        let puzzle = self.puzzle;
        self.options.iter().map(move |&o| puzzle.describe_option(o))
    }

    /// The solution as `polycover solve` prints it (z-layers of piece letters).
    pub fn text(&self) -> String {
        self.puzzle.text(self.options)
    }

    /// The solution as one JSON object, a line of `enumerate --format jsonl`; `index`
    /// is its `"solution"` number.
    pub fn json(&self, index: u64) -> serde_json::Value {
        self.puzzle.json(self.options, index)
    }

    /// The picture `solve --svg` writes.
    ///
    /// # Errors
    ///
    /// What [`Puzzle::check_drawable`] says.
    pub fn svg(&self) -> Result<String> {
        self.puzzle.svg(self.options)
    }

    /// The 3-D view `solve --html` writes (polycubes).
    ///
    /// # Errors
    ///
    /// What [`Puzzle::check_html`] says.
    pub fn html(&self) -> Result<String> {
        self.puzzle.html(self.options)
    }
}

/// The text of [`Solution::text`].
impl fmt::Display for Solution<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// The puzzle's name and the options: what tells two solutions apart.
impl fmt::Debug for Solution<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solution")
            .field("puzzle", &self.puzzle.name())
            .field("options", &self.options)
            .finish()
    }
}
