//! The engine handle: which algorithm, with which settings, nothing built.
//!
//! Invariant: a handle is settings only; cloning it shares the algorithm, and two
//! handles are equal when they run the same engine with the same settings.

use std::fmt;
use std::sync::Arc;

use super::{native, Algorithm, Prepared, ENGINES};
use crate::error::Result;
use crate::setting::Setting;

use super::Problem;

/// One engine: a handle to an [`Algorithm`], which holds its checked settings as they
/// are (reading or changing them builds nothing), cheap to clone and share between
/// threads.
#[derive(Clone)]
pub struct Engine(Arc<dyn Algorithm>);

impl Engine {
    /// A handle to `algorithm`.
    pub fn new(algorithm: impl Algorithm + 'static) -> Engine {
        Engine(Arc::new(algorithm))
    }

    /// Dancing links: the reference.
    pub fn dlx() -> Engine {
        Engine::new(native::Native::DLX)
    }

    /// Bitset Algorithm X: the fast native engine.
    pub fn bits() -> Engine {
        Engine::new(native::Native::BITS)
    }

    /// An engine by name (one of [`Engine::bench_names`]), with its defaults; `None` for
    /// any other name ([`Engine::named`] says which names there are).
    pub fn from_name(name: &str) -> Option<Engine> {
        ENGINES.iter().find(|e| e.name == name).map(|e| (e.make)())
    }

    /// An engine by name, as [`Engine::from_name`], for a name a person typed.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`](crate::error::Error::Usage) for a name that is none of them, listing
    /// the names and the closest one, as the command line and the Python module do.
    ///
    /// ```
    /// let dlx = polycover::Engine::named("dlx")?;
    /// assert_eq!(dlx.name(), "dlx");
    /// let typo = polycover::Engine::named("dlxx").unwrap_err();
    /// assert!(typo.to_string().contains("did you mean `dlx`?"), "{typo}");
    /// # Ok::<(), polycover::Error>(())
    /// ```
    pub fn named(name: &str) -> crate::error::Result<Engine> {
        Engine::from_name(name).ok_or_else(|| {
            let names = Engine::bench_names();
            let closest = crate::suggest::closest(name, names.iter().copied())
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            crate::error::Error::Usage(format!(
                "no engine is called `{name}`: the engines are {}{closest}",
                names.join(", ")
            ))
        })
    }

    /// The names of `--solver` (count, solve, enumerate), in the registry's order.
    pub fn solver_names() -> Vec<&'static str> {
        ENGINES
            .iter()
            .filter(|e| e.on_solver)
            .map(|e| e.name)
            .collect()
    }

    /// The names of `--solver` whose engines declare `setting`, in the registry's order:
    /// where a message says that a setting applies (`amo`: `sat`; `sweep`: `frontier`).
    pub fn solvers_declaring(setting: Setting) -> Vec<&'static str> {
        Engine::solvers_that(|e| e.declares(setting))
    }

    /// The names of `--solver` whose engines, with their defaults, have `ability`.
    pub(crate) fn solvers_that(ability: impl Fn(&Engine) -> bool) -> Vec<&'static str> {
        ENGINES
            .iter()
            .filter(|e| e.on_solver && ability(&(e.make)()))
            .map(|e| e.name)
            .collect()
    }

    /// The names `bench --solvers` takes, in the registry's order: every engine
    /// there is, each one of `check`'s cross-checks.
    pub fn bench_names() -> Vec<&'static str> {
        ENGINES.iter().map(|e| e.name).collect()
    }

    /// One line for help texts about the engine `name` (one of
    /// [`Engine::bench_names`]).
    pub fn about(name: &str) -> Option<&'static str> {
        ENGINES.iter().find(|e| e.name == name).map(|e| e.about)
    }

    /// The algorithm behind the handle.
    pub fn algorithm(&self) -> &dyn Algorithm {
        &*self.0
    }

    /// The short name, without the encoding: `dlx`, `sat-cadical`.
    pub fn name(&self) -> &'static str {
        self.algorithm().name()
    }

    /// Compiles the engine for `problem` (see [`Prepared`]).
    ///
    /// # Errors
    ///
    /// [`crate::error::Error::Usage`] when this build cannot run the engine.
    pub fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn Prepared + 'p>> {
        self.algorithm().prepare(problem)
    }

    /// Whether this build can run the engine; the reason when it cannot.
    ///
    /// # Errors
    ///
    /// For a SAT engine: a message when its backend's cargo feature was not built, or
    /// when it asks for the lazy at-most-one encoding with a backend other than CaDiCaL
    /// (only CaDiCaL's propagator enforces it). The native engines are always available.
    /// The reason names settings as a message does: word it with
    /// [`crate::setting::Setting::render`] (`--backend cadical` on the command line).
    pub fn available(&self) -> std::result::Result<(), String> {
        self.algorithm().available()
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.algorithm().fmt(f)
    }
}

/// Two handles are equal when they run the same engine with the same settings: the same
/// name, and the same value of each setting it declares.
impl PartialEq for Engine {
    fn eq(&self, other: &Engine) -> bool {
        let values = |e: &Engine| -> Vec<(Setting, Option<String>)> {
            e.settings()
                .iter()
                .map(|d| (d.setting, e.setting(d.setting)))
                .collect()
        };
        self.name() == other.name() && values(self) == values(other)
    }
}

impl Eq for Engine {}
