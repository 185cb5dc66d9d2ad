//! The problem engines read, on the ground floor: a compiled puzzle and its symmetry
//! reduction, computed once, with the accessors that describe them. Running engines on
//! it is the engine room's (`engine/problem.rs` adds `count`, `first` and the rest).
//!
//! Invariants: the reduction is built once per problem, and every engine prepared on it
//! reads it; what an engine compiles from it (a built native engine, a CNF, Burnside
//! classes) belongs to that engine's prepared value, not here. This module imports
//! nothing from `engine/`.

use crate::error::Result;
use crate::matrix::Matrix;
use crate::parts::Split;
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};
use crate::solution::Solution;
use crate::symmetry::Reduction;

/// A puzzle compiled for one symmetry mode ([`Puzzle::compile`]): its exact-cover matrix,
/// the group of symmetries that says which solutions are the same, and the reduction of
/// the matrix by that group, which every engine searches.
///
/// Solutions are sorted option numbers of the full matrix ([`Problem::matrix`]), whatever
/// the engine: the reduction is undone before a solution reaches a caller.
///
/// ```
/// use polycover::{Puzzle, SymmetryMode};
///
/// let soma = Puzzle::load("soma")?.compile(SymmetryMode::Rotations)?;
/// assert_eq!(soma.symmetries(), 24); // the rotations of the cube
/// assert!(soma.reduced().num_options() < soma.matrix().num_options());
/// # Ok::<(), polycover::Error>(())
/// ```
pub struct Problem {
    /// The compiled puzzle: its matrix and symmetry group.
    pub(crate) compiled: Compiled,
    /// The symmetry reduction of the matrix, which every engine searches.
    pub(crate) reduction: Reduction,
}

/// The puzzle's name and what was compiled: the matrix and the group are too large to
/// print.
impl std::fmt::Debug for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Problem")
            .field("puzzle", &self.puzzle().name())
            .field("mode", &self.mode())
            .field("options", &self.matrix().num_options())
            .field("symmetries", &self.symmetries())
            .finish()
    }
}

impl Problem {
    /// The problem of a compiled puzzle, with its reduction.
    pub(crate) fn new(compiled: Compiled) -> Problem {
        let reduction = Reduction::new(&compiled.matrix, compiled.group.clone());
        Problem {
            compiled,
            reduction,
        }
    }

    /// Loads (a file or a catalog name) and compiles, in the kind's default symmetry
    /// mode unless told.
    ///
    /// # Errors
    ///
    /// A puzzle that cannot be read, parsed or compiled in that mode.
    pub fn load(spec: impl AsRef<std::path::Path>, mode: Option<SymmetryMode>) -> Result<Problem> {
        let puzzle = Puzzle::load(spec)?;
        let mode = mode.unwrap_or(puzzle.default_symmetry());
        puzzle.compile(mode)
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.compiled.puzzle
    }

    /// The symmetry mode the problem was compiled for.
    pub fn mode(&self) -> SymmetryMode {
        self.compiled.mode
    }

    /// The full exact-cover matrix, options in the kind's order ([`Puzzle::matrix`]):
    /// solutions are sorted option numbers of this matrix.
    pub fn matrix(&self) -> &Matrix {
        &self.compiled.matrix
    }

    /// The number of symmetries in the mode, the identity included: 1 when each
    /// solution counts on its own (`none`).
    pub fn symmetries(&self) -> usize {
        self.compiled.group.order()
    }

    /// Every image of `solution` (sorted options of [`Problem::matrix`]) under the
    /// symmetries, each sorted, the identity's first: the solutions that count as one.
    pub fn images(&self, solution: &[u32]) -> Vec<Vec<u32>> {
        self.compiled
            .group
            .elements()
            .iter()
            .map(|g| {
                let mut image = Vec::new();
                g.apply_sorted(solution, &mut image);
                image
            })
            .collect()
    }

    /// The matrix the engines search: the options the reduction keeps, renumbered
    /// from 0 ([`Problem::original`] maps them back).
    pub fn reduced(&self) -> &Matrix {
        self.reduction.matrix()
    }

    /// The option of the full matrix that option `reduced_option` of
    /// [`Problem::reduced`] is.
    pub fn original(&self, reduced_option: u32) -> u32 {
        self.reduction.original(reduced_option)
    }

    /// For each option of the full matrix, whether the reduction keeps it.
    pub fn kept_mask(&self) -> Vec<bool> {
        self.reduction.kept_mask()
    }

    /// The item whose options the reduction thinned to one per orbit, if it pinned one.
    pub fn pinned_item(&self) -> Option<u32> {
        self.reduction.pinned_item()
    }

    /// Whether a solution of the reduced matrix must still be checked for being the
    /// least of its orbit ([`Problem::is_canonical`]): the pin alone does not make each
    /// orbit's solution unique.
    pub fn needs_check(&self) -> bool {
        self.reduction.needs_check()
    }

    /// Whether `solution` (sorted options of the full matrix, every one kept) is the
    /// one the reduction counts for its orbit.
    pub fn is_canonical(&self, solution: &[u32]) -> bool {
        self.reduction.is_canonical(solution)
    }

    /// The split of this problem's search into `parts` parts.
    pub fn split(&self, parts: usize) -> Split {
        Split::new(
            &self.compiled.matrix,
            &self.reduction,
            self.compiled.mode.as_str(),
            parts,
        )
    }

    /// The solution made of `options` (sorted options of the original matrix, as
    /// [`Problem::first`] returns them), to render.
    pub fn solution<'a>(&'a self, options: &'a [u32]) -> Solution<'a> {
        Solution::new(self.puzzle(), options)
    }
}

/// Compiling a puzzle makes its problem: defined here, on the floor of the problem, so
/// that the kinds never name it.
impl Puzzle {
    /// The problem the engines read for `mode`: the exact-cover matrix, the symmetry
    /// group and the reduction by it, computed once.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`](crate::error::Error::Usage) when the kind does not count in `mode` (`stack` for polycubes,
    /// `rotations` or `reflections` for coloured cubes), or for `reflections` when the
    /// piece set is not its own mirror image or has coloured pieces.
    pub fn compile(&self, mode: SymmetryMode) -> Result<Problem> {
        self.compiled(mode).map(Problem::new)
    }
}
