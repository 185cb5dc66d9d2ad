//! How the SAT path is configured: the embedded solver ([`Backend`]), who decides
//! ([`Decide`]), how the search is split ([`Strategy`]), and all of it with the CNF's
//! encoding as one [`SatEngine`], the value an engine choice carries.
//!
//! Invariant: these are plain values, read by the enumeration and its backends; nothing
//! here runs a solver, so the backends depend on this module and never the reverse.

use super::amo::Amo;
use crate::setting::Setting;

/// How models are enumerated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// One search over the whole problem, on one thread.
    Plain,
    /// Cube and conquer: disjoint cubes from the native search, solved under assumptions.
    Cubes,
}

impl Strategy {
    /// One line for help texts.
    pub(crate) fn help(self) -> &'static str {
        match self {
            Strategy::Plain => "One search over the whole problem, on one thread",
            Strategy::Cubes => {
                "Cube and conquer: disjoint cubes from the native search, solved under \
                 assumptions"
            }
        }
    }

    /// The strategy's name as `--strategy` spells it and `c` lines print it.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Plain => "plain",
            Strategy::Cubes => "cubes",
        }
    }
}

/// The embedded SAT solvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// CaDiCaL with the MRV propagator (the default; not in `--no-default-features` builds).
    Cadical,
    /// varisat, pure Rust: the portable reference.
    Varisat,
    /// MiniSat 2.2 (rustsat-minisat; feature `c-solvers`): incremental.
    Minisat,
    /// Glucose 4 (rustsat-glucose; feature `c-solvers`): incremental.
    Glucose,
    /// Kissat 4 (rustsat-kissat; feature `c-solvers`): not incremental, so it finds the
    /// first solution (or proves there is none): it neither counts nor lists.
    Kissat,
}

impl Backend {
    /// One line for help texts.
    pub(crate) fn help(self) -> &'static str {
        match self {
            Backend::Cadical => "CaDiCaL with the MRV propagator (the default where built in)",
            Backend::Varisat => {
                "varisat, pure Rust: the portable reference, for builds without C++ and for \
                 proofs; one call per model, so 5-15x slower than cadical at counting"
            }
            Backend::Minisat => "MiniSat 2.2: one call per model",
            Backend::Glucose => "Glucose 4: one call per model",
            Backend::Kissat => "Kissat 4: not incremental, the first solution only",
        }
    }

    /// The backend's name as `--backend` spells it and `c` lines print it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cadical => "cadical",
            Backend::Varisat => "varisat",
            Backend::Minisat => "minisat",
            Backend::Glucose => "glucose",
            Backend::Kissat => "kissat",
        }
    }

    /// The at-most-one encoding the backend runs unless told otherwise: the lazy one
    /// for CaDiCaL, whose propagator enforces it and so sees every placement set false
    /// before the solver's clauses do (docs/guide/performance.md, "SAT performance"),
    /// product (the smallest eager CNF) for the others, which read the CNF alone.
    pub fn default_amo(self) -> Amo {
        match self {
            Backend::Cadical => Amo::Lazy,
            _ => Amo::CNF_DEFAULT,
        }
    }

    /// Every backend, built in or not.
    pub const ALL: [Backend; 5] = [
        Backend::Cadical,
        Backend::Varisat,
        Backend::Minisat,
        Backend::Glucose,
        Backend::Kissat,
    ];

    /// Whether this build has the backend; the feature that brings it when not.
    ///
    /// # Errors
    ///
    /// The cargo feature's name (`cadical` or `c-solvers`) when the backend was not
    /// built in.
    pub fn built(self) -> std::result::Result<(), &'static str> {
        match self {
            Backend::Cadical if !cfg!(feature = "cadical") => Err("cadical"),
            Backend::Minisat | Backend::Glucose | Backend::Kissat
                if !cfg!(feature = "c-solvers") =>
            {
                Err("c-solvers")
            }
            _ => Ok(()),
        }
    }

    /// Whether one solver takes one model after another (blocking clauses between
    /// calls, or inside one call): all but Kissat.
    pub fn incremental(self) -> bool {
        self != Backend::Kissat
    }

    /// CaDiCaL where it is built in, varisat otherwise.
    pub fn default_for_build() -> Backend {
        if cfg!(feature = "cadical") {
            Backend::Cadical
        } else {
            Backend::Varisat
        }
    }
}

/// Who chooses CaDiCaL's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decide {
    /// Minimum remaining values: a placement of the most constrained cell or piece.
    Mrv,
    /// CaDiCaL's own heuristics (models are still checked and blocked in one call).
    Solver,
}

impl Decide {
    /// One line for help texts.
    pub(crate) fn help(self) -> &'static str {
        match self {
            Decide::Mrv => {
                "Minimum remaining values: a placement of the most constrained cell or piece"
            }
            Decide::Solver => {
                "CaDiCaL's own heuristics (models are still checked and blocked in one call)"
            }
        }
    }

    /// The choice's name as `--decide` spells it and `c` lines print it.
    pub fn name(self) -> &'static str {
        match self {
            Decide::Mrv => "mrv",
            Decide::Solver => "solver",
        }
    }
}

/// How the SAT path runs: the settings an engine that runs on the CNF holds (`engine/sat.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SatEngine {
    /// The embedded solver that runs the CNF.
    pub backend: Backend,
    /// The at-most-one encoding of the CNF (by default the backend's,
    /// [`Backend::default_amo`]).
    pub amo: Amo,
    /// Who picks CaDiCaL's decisions.
    pub decide: Decide,
    /// `None`: one plain search for the first solution, cubes for everything else.
    pub strategy: Option<Strategy>,
    /// CaDiCaL options (`NAME`, `VALUE`), set after polycover's defaults.
    pub cadical_options: Vec<(String, i32)>,
    /// Build the CNF even when its size passes the limit (`cnf::MAX_CLAUSES`,
    /// `cnf::MAX_LITERALS`); otherwise such a run is refused before it builds.
    pub force: bool,
    /// Check the MRV propagator's invariants after every callback (always on in debug
    /// builds): slow, a checking aid for tests of the propagator, never for a count.
    pub paranoid: bool,
}

impl Default for SatEngine {
    fn default() -> Self {
        let backend = Backend::default_for_build();
        SatEngine {
            backend,
            amo: backend.default_amo(),
            decide: Decide::Mrv,
            strategy: None,
            cadical_options: Vec::new(),
            force: false,
            paranoid: false,
        }
    }
}

/// The lazy at-most-one is no CNF on its own: only CaDiCaL's propagator enforces it.
/// `backend` is the solver that reads the CNF, `None` for the CNF alone (written out, or
/// refuted with a proof). The one place of this rule.
pub(crate) fn lazy_rule(amo: Amo, backend: Option<Backend>) -> std::result::Result<(), String> {
    match backend {
        _ if amo.is_eager() => Ok(()),
        Some(Backend::Cadical) => Ok(()),
        Some(b) => Err(format!(
            "{} needs {}, whose propagator enforces at-most-one; {} reads the CNF alone",
            Setting::Amo.is("lazy"),
            Setting::Backend.is("cadical"),
            b.name()
        )),
        None => Err(Amo::LAZY_NEEDS_PROPAGATOR.into()),
    }
}
