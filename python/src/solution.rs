//! `Solution`: one solution (sorted options of the puzzle's matrix), which renders itself
//! as the command line does: text (`solve`), SVG (`solve --svg`), and the 3-D HTML page
//! (`solve --html`) for a notebook.

use pyo3::prelude::*;

use crate::numbers::Whole;
use crate::{to_py, usage};

/// One solution of a puzzle: its placements, and its pictures for notebooks.
#[pyclass(frozen, module = "polycover")]
pub struct Solution {
    puzzle: polycover::Puzzle,
    options: Vec<u32>,
}

impl Solution {
    /// The solution made of `options` (sorted option numbers of the puzzle's matrix).
    pub(crate) fn new(puzzle: polycover::Puzzle, options: Vec<u32>) -> Solution {
        Solution { puzzle, options }
    }

    /// The sorted options.
    pub(crate) fn options_ref(&self) -> &[u32] {
        &self.options
    }
}

#[pymethods]
impl Solution {
    /// The options of the puzzle's matrix that make the solution, sorted: option `o` is
    /// the CNF's primary variable `o + 1`.
    #[getter]
    fn options(&self) -> Vec<u32> {
        self.options.clone()
    }

    /// Each placement as a line of the DIMACS variable map (`c v` lines, without the
    /// variable): the piece and the cells it covers.
    #[getter]
    fn placements(&self) -> Vec<String> {
        self.options
            .iter()
            .map(|&o| self.puzzle.describe_option(o))
            .collect()
    }

    /// The solution as `polycover solve` prints it (z-layers of piece letters).
    fn text(&self) -> String {
        self.puzzle.text(&self.options)
    }

    /// The solution as one JSON object (a line of `enumerate --format jsonl`), as text;
    /// `index` (its `"solution"` number), a whole number from 0 to 2^64 - 1.
    #[pyo3(signature = (index = Whole::from(1)))]
    fn json(&self, index: Whole) -> PyResult<String> {
        let index = index.0.parse::<u64>().map_err(|_| {
            usage(format!(
                "`{}`: the index must be a whole number from 0 to {}",
                index.0,
                u64::MAX
            ))
        })?;
        Ok(self.puzzle.json(&self.options, index).to_string())
    }

    /// The picture `polycover solve --svg FILE` writes, as SVG text.
    fn svg(&self) -> PyResult<String> {
        self.puzzle.svg(&self.options).map_err(to_py)
    }

    /// The 3-D view `polycover solve --html FILE` writes (polycube puzzles), as HTML.
    fn html(&self) -> PyResult<String> {
        self.puzzle.html(&self.options).map_err(to_py)
    }

    /// The SVG picture for notebooks; `None` when the puzzle cannot be drawn.
    fn _repr_svg_(&self) -> Option<String> {
        self.puzzle.svg(&self.options).ok()
    }

    /// The 3-D view for notebooks; `None` for kinds without one.
    fn _repr_html_(&self) -> Option<String> {
        self.puzzle.html(&self.options).ok()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!(
            "<polycover.Solution of {:?}: options {:?}>",
            self.puzzle.name(),
            self.options
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Solution>()
            .is_ok_and(|o| o.get().options == self.options)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.options.hash(&mut h);
        h.finish()
    }

    fn __len__(&self) -> usize {
        self.options.len()
    }
}
