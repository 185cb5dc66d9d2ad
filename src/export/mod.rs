//! Writing a compiled puzzle in other programs' input formats (`polycover export`).
//!
//! Every format is written from the same [`Problem`](crate::Problem): its matrix and its symmetry
//! reduction. Formats that cannot express what the reduction needs refuse the mode with
//! a clear message instead of writing a file whose count would mean something else.
//!
//! The pieces themselves, for 3-D printing (`stl`, `3mf`), are made from the puzzle alone
//! (or one of its solutions): `mesh.rs` makes each piece's closed surface, `print.rs`
//! picks the pieces' copies, turns and places them, `stl.rs` and `threemf.rs` write them.

pub mod answers;
pub mod burrtools;
pub mod dlx;
pub mod linear;
pub mod mesh;
pub mod print;
pub mod stl;
pub mod threemf;

use crate::puzzle::Compiled;
use crate::sat::dimacs::Header;
use crate::symmetry::Reduction;

/// The `c` lines' account of a compiled puzzle for [`crate::sat::dimacs::write`]: the
/// one place that reads a puzzle for the DIMACS writer, which names no kind.
///
/// ```
/// use polycover::sat::{dimacs, Amo};
/// use polycover::Problem;
/// let soma = Problem::load("soma", None)?;
/// let formula = soma.formula(Amo::Product);
/// let header = polycover::export::dimacs_header(&soma.compiled, &soma.reduction);
/// let mut cnf = Vec::new();
/// dimacs::write(&mut cnf, &header, &formula, dimacs::Projection::Show)?;
/// assert!(String::from_utf8(cnf)?.contains("c puzzle Soma"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn dimacs_header<'a>(compiled: &'a Compiled, reduction: &Reduction) -> Header<'a> {
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

/// The formats `export` writes.
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
