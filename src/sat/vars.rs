//! The primary variables, shared by every clause builder (the CNF compiler, the
//! cardinality and lex-leader encodings, the OPB export's chains).
//!
//! Invariant: option `o` of the matrix is variable `o + 1` in DIMACS numbering (rustsat's
//! variable index `o`), in every encoding and symmetry mode; auxiliary variables come
//! after the primary ones. Nothing here depends on the rest of `sat`, so every module
//! that builds clauses can use it without the compiler.

use rustsat::types::Lit;

/// The primary literal of option `o`: true when the placement is chosen.
pub fn option_lit(o: u32) -> Lit {
    Lit::positive(o)
}
