//! The selectable at-most-one encodings. Every eager one comes from rustsat's
//! `encodings::am1`; this module only names them for the command line and runs the chosen
//! one through rustsat's shared `Encode` trait.
//!
//! [`Amo::Lazy`] is not a CNF encoding on its own: the CNF keeps only the at-least-one
//! clause of each exactly-one group (a cell, a one-copy piece), and CaDiCaL's propagator
//! enforces at-most-one as the search goes, as lazy clause generation does: a placement
//! set true propagates every other placement of its groups false, with the binary reason
//! `¬p ∨ ¬q` (`src/sat/propagator/`). Items that are no group (an optional cell, a piece
//! with copies) keep an eager encoding (product). Only the cadical backend runs it, and
//! no file is written in it.
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
//! - lazy: O. Ohrimenko, P. J. Stuckey and M. Codish, *Propagation via Lazy Clause
//!   Generation*, Constraints 14(3), 2009.

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
    /// No clauses for the exactly-one groups' at-most-one: CaDiCaL's propagator sets a
    /// true placement's rivals false with binary reasons (cadical backend only).
    Lazy,
}

impl Amo {
    /// The encoding of a CNF that stands on its own (written out, or read by a backend
    /// without the propagator) unless one is chosen: the smallest eager one.
    pub const CNF_DEFAULT: Amo = Amo::Product;

    /// The eager encodings, each a CNF on its own: what a DIMACS file and every backend
    /// can take (the suite writes one file per encoding).
    pub const ALL: [Amo; 6] = [
        Amo::Pairwise,
        Amo::Ladder,
        Amo::Bitwise,
        Amo::Commander,
        Amo::Bimander,
        Amo::Product,
    ];

    /// The eager encodings and [`Amo::Lazy`]: what `bench --amo all` measures.
    pub const EVERY: [Amo; 7] = [
        Amo::Pairwise,
        Amo::Ladder,
        Amo::Bitwise,
        Amo::Commander,
        Amo::Bimander,
        Amo::Product,
        Amo::Lazy,
    ];

    /// Whether the CNF alone is the problem (every encoding but [`Amo::Lazy`]).
    pub fn is_eager(self) -> bool {
        self != Amo::Lazy
    }

    /// Why a CNF in this encoding cannot be used without CaDiCaL's propagator.
    pub(crate) const LAZY_NEEDS_PROPAGATOR: &'static str =
        "the lazy at-most-one is not a CNF on its \
        own (the propagator of the cadical backend enforces at-most-one): use an eager \
        encoding such as product";

    /// One line for help texts.
    pub(crate) fn help(self) -> &'static str {
        match self {
            Amo::Pairwise => "One binary clause per pair: no auxiliary variables, quadratic size",
            Amo::Ladder => "A ladder (order encoding) of n-1 auxiliary variables",
            Amo::Bitwise => "Binary (log) encoding of the chosen index",
            Amo::Commander => "Groups of 4 with a commander variable each, recursively",
            Amo::Bimander => "Groups of 4 with bitwise-encoded commanders",
            Amo::Product => "Chen's 2-product: a grid of row and column variables",
            Amo::Lazy => {
                "Only at-least-one clauses for cells and pieces; CaDiCaL's propagator \
                 enforces at-most-one as it searches (cadical backend; no CNF file)"
            }
        }
    }

    /// The encoding by its name; `None` for a name that is none of [`Amo::EVERY`].
    pub fn from_name(name: &str) -> Option<Amo> {
        Amo::EVERY.into_iter().find(|a| a.name() == name)
    }

    /// The encoding's name as `--amo` spells it, and as DIMACS headers and bench rows
    /// print it.
    pub fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Ladder => "ladder",
            Amo::Bitwise => "bitwise",
            Amo::Commander => "commander",
            Amo::Bimander => "bimander",
            Amo::Product => "product",
            Amo::Lazy => "lazy",
        }
    }

    /// Adds "at most one of `lits` is true" to `sink`. An error is the sink's refusal
    /// (a stopped compilation) or rustsat failing to reserve memory.
    ///
    /// # Errors
    ///
    /// [`OutOfMemory`] when `sink` refuses a clause (the CNF compiler's sink does once it
    /// is told to stop) or memory for the clauses cannot be reserved.
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
            // Lazy leaves the exactly-one groups to the propagator (the compiler does not
            // call this for them); any other at-most-one is eager.
            Amo::Product | Amo::Lazy => {
                am1::TwoProduct::<am1::Pairwise>::from(lits).encode(sink, vars)
            }
        }
    }
}
