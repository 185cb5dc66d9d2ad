//! Proofs of UNSAT answers: the formula refuted by varisat with a DRAT proof written as
//! it searches, for an independent checker (`rate`, `drat-trim`) to verify against the
//! DIMACS of the same formula.
//!
//! What the proof certifies is the CNF as polycover writes it (`polycover dimacs` with the
//! same puzzle, symmetry mode and encoding): the exactly-one clauses *and* the
//! lex-leader clauses that keep one solution per orbit. That the symmetry clauses remove
//! only non-canonical solutions is polycover's own argument (docs/symmetry.md), not part
//! of the certificate; `--symmetry none` gives a formula whose refutation needs no such
//! argument.
//!
//! Invariants:
//! - The refutation is one solve with no assumptions, so an UNSAT answer ends the proof
//!   with the empty clause. (The enumeration's calls carry an activation literal as an
//!   assumption, and a proof of "UNSAT under an assumption" is not a refutation.)
//! - No propagator takes part: the MRV propagator's reasons would enter a solver's proof
//!   as trusted clauses, so a proof is only made by a plain solver.
//! - A SAT answer is a model checked as an exact cover; it has no proof.

use std::io::Write;

use varisat::ExtendFormula;

use super::cnf::Formula;
use crate::error::{Error, Result};
use crate::matrix::Matrix;

/// How a refutation attempt ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// No model: the proof written ends with the empty clause.
    Unsatisfiable,
    /// A model (the true options, sorted), checked: there is nothing to prove.
    Satisfiable(Vec<u32>),
}

impl Formula {
    /// One solve of this CNF (of `matrix`'s reduced problem) by varisat, writing a textual
    /// DRAT proof to `proof` as it goes: a checked solution, or no solution and a proof
    /// ending in the empty clause. varisat cannot be interrupted inside its call: a
    /// deadline or Ctrl-C waits for it.
    ///
    /// # Errors
    ///
    /// [`Error::Failed`] when varisat fails (writing the proof to `proof` included), or when
    /// its model is not a solution of `matrix` (an internal error).
    pub fn refute(&self, matrix: &Matrix, proof: &mut dyn Write) -> Result<Refutation> {
        let formula = self;
        let failed =
            |e: varisat::solver::SolverError| Error::Failed(format!("varisat failed: {e}"));
        let mut solver = varisat::Solver::new();
        solver.write_proof(&mut *proof, varisat::ProofFormat::Drat);
        for c in formula.clauses() {
            let lits: Vec<varisat::Lit> = c
                .iter()
                .map(|&l| varisat::Lit::from_dimacs(l as isize))
                .collect();
            solver.add_clause(&lits);
        }
        let sat = solver.solve().map_err(failed)?;
        let answer = if sat {
            let model = solver.model().expect("a model after SAT");
            let solution: Vec<u32> = model
                .iter()
                .filter(|l| l.is_positive() && (l.var().index() as u32) < formula.num_primary)
                .map(|l| l.var().index() as u32)
                .collect();
            matrix.cover_fault(&solution).map_err(|e| {
                Error::Failed(format!(
                    "internal error: a SAT model is not a solution: {e}"
                ))
            })?;
            Refutation::Satisfiable(solution)
        } else {
            Refutation::Unsatisfiable
        };
        solver.close_proof().map_err(failed)?;
        Ok(answer)
    }
}
