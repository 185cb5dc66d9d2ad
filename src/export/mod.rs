//! Writing a compiled puzzle in other programs' input formats (`polycover export`).
//!
//! Every format is written from the same [`Problem`]: its matrix and its symmetry
//! reduction. Formats that cannot express what the reduction needs refuse the mode with
//! a clear message instead of writing a file whose count would mean something else.
//!
//! The pieces themselves, for 3-D printing (`stl`, `3mf`), are made from the puzzle alone
//! (or one of its solutions): `mesh.rs` makes each piece's closed surface, `print.rs`
//! picks the pieces' copies, turns and places them, `stl.rs` and `threemf.rs` write them.

mod answers;
mod burrtools;
mod dlx;
mod linear;
mod mesh;
mod print;
mod stl;
mod threemf;

use std::io::{self, Write};

use crate::error::{Error, Result};
use crate::problem::Problem;
use crate::sat::dimacs::{self, Header, Projection};
use crate::sat::Formula;

pub(crate) use linear::opb_num_vars;
pub use mesh::Mesh;
pub use print::{Print, Solid};

// DIMACS is written here, where the puzzle is read, so that `src/sat/` names no kind.
impl Formula {
    /// Writes the formula as DIMACS to `w`: its `c` lines (the tool, the puzzle, the
    /// encoding, the symmetry mode, the variable counts) tell `problem`, the problem it was
    /// compiled from ([`Formula::of`]); then the projection line, the variable map and
    /// the clauses.
    ///
    /// ```
    /// use polycover::sat::{Amo, Formula, Projection};
    /// use polycover::Problem;
    /// let soma = Problem::load("soma", None)?;
    /// let formula = Formula::of(&soma, Amo::Product);
    /// let mut cnf = Vec::new();
    /// formula.write(&mut cnf, &soma, Projection::Show)?;
    /// assert!(String::from_utf8(cnf)?.contains("c puzzle Soma"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// What writing to `w` returns.
    pub fn write(
        &self,
        w: &mut dyn Write,
        problem: &Problem,
        projection: Projection,
    ) -> io::Result<()> {
        dimacs::write(w, &Header::of(problem), self, projection)
    }

    /// [`Formula::write`], with more `c` lines (without the `c `) after the symmetry
    /// line: what part of the search a restricted formula holds.
    ///
    /// # Errors
    ///
    /// What writing to `w` returns.
    pub fn write_with_notes(
        &self,
        w: &mut dyn Write,
        problem: &Problem,
        projection: Projection,
        notes: &[String],
    ) -> io::Result<()> {
        dimacs::write_with_notes(w, &Header::of(problem), self, projection, notes)
    }
}

impl<'a> Header<'a> {
    /// The `c` lines' account of a compiled puzzle: the one place that reads a puzzle for
    /// the DIMACS writer, which names no kind.
    pub(crate) fn of(problem: &'a Problem) -> Header<'a> {
        let (compiled, reduction) = (&problem.compiled, &problem.reduction);
        let map = compiled.puzzle.variable_map();
        Header {
            puzzle: compiled.puzzle.name(),
            symmetry: compiled.mode.as_str(),
            group_order: compiled.group.order(),
            pinned_item: reduction
                .pinned_item()
                .map(|i| compiled.matrix.items()[i as usize].name.as_str()),
            option: map.option,
            columns: map.columns,
            describe_option: Box::new(|o| compiled.puzzle.describe_option(o)),
        }
    }
}

/// The formats `export` writes; each checks and writes a problem ([`Format::check`],
/// [`Format::write`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Knuth's exact-cover input (dlx1, dlx2; dlx3 for pieces with copies).
    Dlx,
    /// A BurrTools `.xmpuzzle` (gzipped XML) that BurrTools opens.
    Burrtools,
    /// A MiniZinc model: one 0/1 variable per placement, one sum per item.
    Mzn,
    /// The same model in OPB, the pseudo-Boolean competition format.
    Opb,
    /// The pieces for 3-D printing as binary STL: one file per piece copy in a
    /// directory, or all in one `.stl` file.
    Stl,
    /// The pieces for 3-D printing as one 3MF file, each piece copy its own object.
    ThreeMf,
}

impl Format {
    /// Refuses, before anything is written, a problem that this format, a text format
    /// (DLX, BurrTools, MiniZinc, OPB), cannot say: a reduction the format cannot express,
    /// a puzzle that is not made of polycubes for BurrTools. (The pieces to print, STL and
    /// 3MF, are [`Print`]'s.)
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] naming what the format cannot say, or that the format prints
    /// pieces.
    pub fn check(self, problem: &Problem) -> Result<()> {
        match self {
            Format::Dlx => dlx::check(problem),
            Format::Burrtools => burrtools::check(problem.puzzle()).map(drop),
            Format::Mzn | Format::Opb => Ok(()),
            Format::Stl | Format::ThreeMf => Err(Error::Usage(
                "STL and 3MF are the pieces to print, not the puzzle's matrix".into(),
            )),
        }
    }

    /// Writes `problem` in this text format to `w`, once [`Format::check`] took it.
    ///
    /// ```
    /// use polycover::export::Format;
    /// use polycover::Problem;
    /// let soma = Problem::load("soma", None)?;
    /// Format::Opb.check(&soma)?;
    /// let mut opb = Vec::new();
    /// Format::Opb.write(&mut opb, &soma)?;
    /// assert!(String::from_utf8(opb).unwrap().starts_with("* #variable= "));
    /// # Ok::<(), polycover::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Format::check`]'s refusals, and [`Error::Io`] when `w` fails.
    pub fn write(self, w: &mut dyn Write, problem: &Problem) -> Result<()> {
        match self {
            Format::Dlx => dlx::write(w, problem)?,
            Format::Mzn => linear::write_mzn(w, problem)?,
            Format::Opb => linear::write_opb(w, problem)?,
            Format::Burrtools => burrtools::write(w, burrtools::check(problem.puzzle())?)?,
            Format::Stl | Format::ThreeMf => self.check(problem)?,
        }
        Ok(())
    }

    /// The variables of the OPB model of `problem` ([`Format::Opb`]): what its solvers'
    /// answers number, for checking an answer's size.
    pub fn opb_num_vars(problem: &Problem) -> u32 {
        opb_num_vars(problem)
    }
}

/// Reading back the linear models' answers.
impl crate::sat::dimacs::Answer {
    /// The answers in `text`, if it is MiniZinc or pseudo-Boolean solver output (the
    /// linear models [`Format::Mzn`] and [`Format::Opb`]), with variable k meaning option
    /// k-1 as in DIMACS; `None` for text that is neither (left to [`Self::parse_all`]).
    ///
    /// # Errors
    ///
    /// Output of those formats that does not parse, naming `name` and the line.
    pub fn parse_linear(text: &str, name: &str) -> Option<Result<Vec<Self>>> {
        answers::parse(text, name)
    }
}
