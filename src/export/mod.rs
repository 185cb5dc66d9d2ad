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
