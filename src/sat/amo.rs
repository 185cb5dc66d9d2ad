//! The selectable at-most-one encodings. Every one comes from rustsat's
//! `encodings::am1`; this module only names them for the command line and runs the chosen
//! one through rustsat's shared `Encode` trait.
//!
//! Invariant: each encoding only adds clauses over the given literals and fresh auxiliary
//! variables taken from the variable manager, so the primary variables keep their numbers.
//!
//! # References
//!
//! - pairwise: S. D. Prestwich, *CNF Encodings*, Handbook of Satisfiability, 2nd ed., 2021.
//! - ladder: I. P. Gent and P. Nightingale, *A New Encoding of AllDifferent into SAT*,
//!   ModRef 2004.
//! - bitwise: S. D. Prestwich, *Finding Large Cliques using SAT Local Search*, in Trends in
//!   Constraint Programming, 2007.
//! - commander: W. Klieber and G. Kwon, *Efficient CNF Encoding for Selecting 1 from N
//!   Objects*, CFV 2007.
//! - bimander: V.-H. Nguyen and S. T. Mai, *A New Method to Encode the At-Most-One
//!   Constraint into SAT*, SoICT 2015.
//! - product: J. Chen, *A New SAT Encoding of the At-Most-One Constraint*, ModRef 2010.

use rustsat::encodings::am1::{self, Encode};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::Lit;
use rustsat::OutOfMemory;

/// An at-most-one encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amo {
    /// One binary clause per pair: no auxiliary variables, quadratic size.
    Pairwise,
    /// A ladder (order encoding) of n-1 auxiliary variables.
    Ladder,
    /// Binary (log) encoding of the chosen index.
    Bitwise,
    /// Groups of 4 with a commander variable each, recursively.
    Commander,
    /// Groups of 4 with bitwise-encoded commanders.
    Bimander,
    /// Chen's 2-product: a grid of row and column variables.
    Product,
}

impl Amo {
    pub const ALL: [Amo; 6] = [
        Amo::Pairwise,
        Amo::Ladder,
        Amo::Bitwise,
        Amo::Commander,
        Amo::Bimander,
        Amo::Product,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Ladder => "ladder",
            Amo::Bitwise => "bitwise",
            Amo::Commander => "commander",
            Amo::Bimander => "bimander",
            Amo::Product => "product",
        }
    }

    /// Adds "at most one of `lits` is true" to `sink`. An error is the sink's refusal
    /// (a stopped compilation) or rustsat failing to reserve memory.
    pub fn encode<C: CollectClauses>(
        self,
        lits: Vec<Lit>,
        sink: &mut C,
        vars: &mut dyn ManageVars,
    ) -> Result<(), OutOfMemory> {
        if lits.len() <= 1 {
            return Ok(());
        }
        match self {
            Amo::Pairwise => am1::Pairwise::from(lits).encode(sink, vars),
            Amo::Ladder => am1::Ladder::from(lits).encode(sink, vars),
            Amo::Bitwise => am1::Bitwise::from(lits).encode(sink, vars),
            Amo::Commander => am1::Commander::<4, am1::Pairwise>::from(lits).encode(sink, vars),
            Amo::Bimander => am1::Bimander::<4, am1::Pairwise>::from(lits).encode(sink, vars),
            Amo::Product => am1::TwoProduct::<am1::Pairwise>::from(lits).encode(sink, vars),
        }
    }
}
