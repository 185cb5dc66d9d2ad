//! CaDiCaL (bundled by the `pindakaas` crate) steered through its user-propagator
//! interface (IPASIR-UP): decisions by minimum remaining values, forward checking of the
//! next decision's candidates, dead ends handed over as backtracks, and every model
//! checked and blocked inside one solve call.
//!
//! Invariants:
//! - The propagator observes exactly the primary variables; `decide` only ever returns an
//!   unassigned one (CaDiCaL aborts otherwise). CaDiCaL flushes its assignment
//!   notifications before it asks, so the counts are current when it does.
//! - Every literal `propagate` returns has its reason clause stored at that moment, made
//!   of literals false then; `explain_propagation` hands out that stored clause, never
//!   one computed from a later state. A dead end returns a literal that is false already
//!   (the level's decision, negated): its clause is then all false, with one literal of
//!   the top level, and CaDiCaL backtracks one level and assigns it (analysis takes that
//!   path when the conflict has a single literal of the highest level).
//! - `check_solution` rejects every model (so the solver searches on in the same call) and
//!   hands back its blocking clause through `provide_clause`; it accepts a model only to
//!   end the call when the enumeration is to stop.
//! - The terminate callback is polled by CaDiCaL between its steps, so a deadline, a stop
//!   from the consumer or Ctrl-C ends even a single long call.
//!
//! Pitfalls met on the way: `Lit::from_raw` is the public constructor; options removed by
//! the symmetry reduction arrive as root-level units (the propagator starts with them
//! false); an unknown option name is ignored silently by `set_option`, so names are
//! checked by reading them back.

use std::cell::RefCell;
use std::num::NonZeroI32;
use std::rc::Rc;
use std::sync::Arc;

use pindakaas::solver::cadical::Cadical;
use pindakaas::solver::propagation::{
    ClauseBuilder, ClausePersistence, ExternalPropagation, Propagator, PropagatorConfig,
    SearchDecision, Solution, SolvingActions,
};
use pindakaas::solver::{Assumptions, SolveResult, TermSignal, TerminateCallback};
use pindakaas::{ClauseDatabase, Lit};

use super::cnf::{Blocking, Formula};
use super::config::Decide;
use super::propagator::{Groups, Mrv};
use super::search::{Cube, Halt, ModelSink, Outcome, LOAD_STOP_EVERY};
use crate::error::{Error, Result};

fn lit(l: i32) -> Lit {
    Lit::from_raw(NonZeroI32::new(l).expect("DIMACS literals are nonzero"))
}

fn dimacs(l: Lit) -> i32 {
    NonZeroI32::from(l).get()
}

/// Options measured on Bedlam and the pentomino rectangles (docs/guide/performance.md,
/// "SAT performance"):
/// with MRV decisions most of CaDiCaL's machinery for hard combinatorial instances only
/// costs time. Restarts would throw the MRV trail away, inprocessing rewrites clauses that
/// are fine as they are, and the activity bumping that steers CaDiCaL's own decisions is
/// unused.
pub(crate) const DEFAULT_OPTIONS: &[(&str, i32)] = &[
    ("inprocessing", 0),
    ("restart", 0),
    ("chrono", 2),
    ("bump", 0),
    ("walk", 0),
    ("lucky", 0),
    ("shrinkreap", 0),
];

/// CaDiCaL options beyond [`DEFAULT_OPTIONS`] that the guide's measurements name: with
/// those, the names a misspelled `--sat-option` is compared with ("did you mean ...?").
/// CaDiCaL cannot list its options, so a typo of another one gets no suggestion.
const MEASURED_OPTIONS: &[&str] = &[
    "shrink",
    "minimize",
    "stabilize",
    "warmup",
    "backbone",
    "bumpreason",
    "reducetarget",
    "reduceint",
    "eagersubsume",
    "otfs",
];

/// Sets `name` to `value`, refusing names CaDiCaL does not know and values it would clamp.
fn set_option(solver: &mut Cadical, name: &str, value: i32) -> Result<()> {
    if name.is_empty() || name.contains('\0') {
        return Err(Error::Usage(format!("`{name}` is not a CaDiCaL option")));
    }
    // Every CaDiCaL option accepts 1 or clamps it to a nonzero bound; an unknown name
    // reads back as 0 whatever was set.
    solver.set_option(name, 1);
    if solver.get_option(name) == 0 {
        let known = DEFAULT_OPTIONS
            .iter()
            .map(|(n, _)| *n)
            .chain(MEASURED_OPTIONS.iter().copied());
        return Err(Error::Usage(format!(
            "`{name}` is not a CaDiCaL option{} (see `cadical --help` for the names)",
            crate::suggest::did_you_mean(name, known)
        )));
    }
    solver.set_option(name, value);
    let got = solver.get_option(name);
    if got != value {
        return Err(Error::Usage(format!(
            "CaDiCaL option {name}={value} is out of range (it would be {got})"
        )));
    }
    Ok(())
}

/// The propagator CaDiCaL calls back.
struct Steer {
    mrv: Mrv,
    decide: Decide,
    sink: ModelSink,
    /// The clause refusing the last model (its blocking clause, or the lazy
    /// at-most-one's binary clause), until CaDiCaL takes it: one buffer, reused.
    pending: Vec<Lit>,
    /// `pending` holds a clause not yet taken (it may be empty: an empty clause ends
    /// the search as unsatisfiable).
    has_pending: bool,
    /// The reason of each option the propagator set false, kept until CaDiCaL asks
    /// (it asks lazily, and only for literals its conflict analysis meets). DIMACS, as
    /// [`Mrv`] makes them: forward checking's reasons are moved in, and converted only
    /// for the few CaDiCaL asks about; a rival's reason reuses its option's buffer.
    reasons: Vec<Vec<i32>>,
    /// Where forward checking writes a reason, swapped with the option's buffer.
    scratch: Vec<i32>,
    solution: Vec<u32>,
    /// Variables `1..=num_primary` are the placements.
    num_primary: usize,
    blocking: Blocking,
}

impl PropagatorConfig for Steer {
    // Reasons of forward checking are consequences of the formula: CaDiCaL may forget
    // them like learned clauses.
    const REASON_PERSISTENCE: ClausePersistence = ClausePersistence::Forgettable;
}

impl Steer {
    /// Option `o` propagated false, with the reason just written to `scratch` (kept as
    /// its reason, the old buffer becoming the next scratch).
    fn set_false(&mut self, o: u32) -> Lit {
        std::mem::swap(&mut self.reasons[o as usize], &mut self.scratch);
        lit(-(o as i32 + 1))
    }
}

impl Propagator for Steer {
    fn notify_assignment(&mut self, lits: &[Lit]) {
        self.mrv.assign_all(lits.iter().map(|&l| dimacs(l)));
    }

    fn notify_new_decision_level(&mut self) {
        self.mrv.new_level();
    }

    fn notify_backtrack(&mut self, new_level: usize, _restart: bool) {
        self.mrv.backtrack(new_level);
    }

    fn propagate(&mut self, _slv: &mut dyn SolvingActions) -> Option<Lit> {
        // The lazy at-most-one first: forward checking counts on it.
        if let Some((q, o)) = self.mrv.next_rival() {
            // A rival that is true, or the last live option of an uncovered group, ends
            // the node: backtrack as the native engines do, without a conflict.
            if self.mrv.rival_ends_node(q) {
                if let Some(d) = self.mrv.dead_end(&mut self.scratch) {
                    return Some(self.set_false(d));
                }
            }
            let reason = &mut self.reasons[q as usize];
            reason.clear();
            reason.extend([-(q as i32 + 1), -(o as i32 + 1)]);
            return Some(lit(-(q as i32 + 1)));
        }
        if self.decide == Decide::Solver {
            return None;
        }
        let o = self.mrv.forward_check(&mut self.scratch)?;
        Some(self.set_false(o))
    }

    fn explain_propagation(&mut self, propagated: Lit, mut clause: ClauseBuilder<'_>) {
        let o = (-dimacs(propagated) - 1) as usize;
        clause.extend(self.reasons[o].iter().map(|&l| lit(l)));
    }

    fn decide(&mut self, _slv: &mut dyn SolvingActions) -> SearchDecision {
        if self.decide == Decide::Solver {
            return SearchDecision::Free;
        }
        match self.mrv.decide() {
            Some(o) => SearchDecision::Assign(lit(o as i32 + 1)),
            None => SearchDecision::Free,
        }
    }

    fn check_solution(&mut self, _slv: &mut dyn SolvingActions, model: Solution<'_>) -> bool {
        // The lazy at-most-one's last guard: a group covered twice is refused with the
        // binary clause that forbids it, and the search goes on.
        if let Some((a, b)) = self.mrv.doubly_covered() {
            self.pending.clear();
            self.pending
                .extend([lit(-(a as i32 + 1)), lit(-(b as i32 + 1))]);
            self.has_pending = true;
            return false;
        }
        let n = self.num_primary;
        self.solution.clear();
        self.solution.extend(
            model
                .literals()
                .iter()
                .map(|&l| dimacs(l))
                .filter(|&l| l > 0 && (l as usize) <= n)
                .map(|l| (l - 1) as u32),
        );
        self.solution.sort_unstable();
        self.pending.clear();
        // In an exact matrix the decisions name the model (everything else follows from
        // them), and the clause over them is a backtrack without conflict analysis, as
        // for a dead end; a level CaDiCaL decided itself (the auxiliary variables of an
        // eager encoding) leaves the model's own placements to block it.
        if self.blocking.is_exact() && self.mrv.dead_end(&mut self.scratch).is_some() {
            self.pending.extend(self.scratch.iter().map(|&l| lit(l)));
        } else {
            self.pending
                .extend(self.blocking.literals(&self.solution, &[]).map(lit));
        }
        self.has_pending = true;
        // Accepting ends the solve call: do it when the enumeration is to stop.
        !self.sink.model(&self.solution)
    }

    fn provide_clause(
        &mut self,
        _slv: &mut dyn SolvingActions,
        mut clause: ClauseBuilder<'_>,
    ) -> Option<ClausePersistence> {
        if !std::mem::take(&mut self.has_pending) {
            return None;
        }
        clause.extend(self.pending.iter().copied());
        Some(ClausePersistence::Irredundant)
    }
}

/// One CaDiCaL with the formula loaded and the propagator connected (`None` from
/// [`Solver::new`] when the stop came while loading).
pub(crate) struct Solver {
    solver: Cadical,
    steer: Rc<RefCell<Steer>>,
    pub(crate) calls: u64,
}

impl Solver {
    pub(crate) fn new(
        formula: &Formula,
        groups: Arc<Groups>,
        decide: Decide,
        options: &[(String, i32)],
        sink: ModelSink,
        stop: Halt,
        paranoid: bool,
    ) -> Result<Option<Solver>> {
        let mut solver = Cadical::default();
        for (name, value) in DEFAULT_OPTIONS {
            set_option(&mut solver, name, *value)?;
        }
        for (name, value) in options {
            set_option(&mut solver, name, *value)?;
        }
        let _ = solver.new_var_range(formula.num_vars as usize);
        let mut buf: Vec<Lit> = Vec::new();
        for (k, c) in formula.cnf.iter().enumerate() {
            if k % LOAD_STOP_EVERY == 0 && stop.now() {
                return Ok(None);
            }
            buf.clear();
            buf.extend(c.iter().map(|l| lit(l.to_ipasir())));
            // An empty clause makes the formula unsatisfiable; CaDiCaL then reports that.
            let _ = solver.add_clause_from_slice(&buf);
        }
        let mut mrv = Mrv::new(groups, paranoid);
        if !formula.amo.is_eager() {
            mrv.enforce_at_most_one();
        }
        let steer = Rc::new(RefCell::new(Steer {
            mrv,
            decide,
            sink,
            pending: Vec::new(),
            has_pending: false,
            reasons: vec![Vec::new(); formula.num_primary as usize],
            scratch: Vec::new(),
            solution: Vec::new(),
            num_primary: formula.num_primary as usize,
            blocking: formula.blocking(),
        }));
        solver.connect_propagator(Rc::clone(&steer));
        for o in 0..formula.num_primary {
            solver.add_observed_var(lit(o as i32 + 1).var());
        }
        solver.set_terminate_callback(Some(move || {
            if stop.now() {
                TermSignal::Terminate
            } else {
                TermSignal::Continue
            }
        }));
        Ok(Some(Solver {
            solver,
            steer,
            calls: 0,
        }))
    }

    /// Enumerates every model that extends `cube` (options set true as assumptions).
    pub(crate) fn run(&mut self, cube: &Cube) -> Outcome {
        let assumptions: Vec<Lit> = cube.iter().map(|&o| lit(o as i32 + 1)).collect();
        self.steer.borrow_mut().mrv.assume(cube);
        self.calls += 1;
        let outcome = match self.solver.solve_assuming(assumptions) {
            SolveResult::Unsatisfiable(_) => Outcome::Exhausted,
            // A model was accepted: the enumeration is to stop.
            SolveResult::Satisfied(_) => Outcome::Stopped,
            SolveResult::Unknown => Outcome::Stopped,
        };
        debug_assert_eq!(self.steer.borrow().mrv.anomalies, 0);
        outcome
    }

    /// MRV decisions made so far.
    pub(crate) fn decisions(&self) -> u64 {
        self.steer.borrow().mrv.decisions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names offered as suggestions are CaDiCaL's own: each is known (1 may be out
    /// of its range, as for `reducetarget`, which is refused for the value, not the name).
    #[test]
    fn the_suggested_option_names_are_real() {
        let mut solver = Cadical::default();
        for name in DEFAULT_OPTIONS
            .iter()
            .map(|(n, _)| *n)
            .chain(MEASURED_OPTIONS.iter().copied())
        {
            if let Err(e) = set_option(&mut solver, name, 1) {
                assert!(e.to_string().contains("out of range"), "{name}: {e}");
            }
        }
    }
}
