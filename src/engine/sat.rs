//! The SAT engines behind [`Algorithm`]: the problem's CNF enumerated by an embedded solver,
//! each model blocked and checked.
//!
//! Settings are made by [`SatBuilder`], which checks them once: CaDiCaL's own options
//! only with CaDiCaL, and the lazy at-most-one only with the propagator ([`lazy_rule`],
//! the one place that rule is written). The prepared value owns the settings, the CNF's
//! counted size and, from the first run on (or [`super::Prepared::build_ahead`]), the
//! CNF itself.
//!
//! Invariants: the CNF is refused past the size limit unless forced, before any work; the
//! deadline and Ctrl-C hold while it is compiled, as during the search (a stop while
//! compiling is a stopped run with no solution). A backend that is not incremental
//! (Kissat) finds the first solution only: its prepared value neither counts nor lists.

use std::ops::ControlFlow;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use super::{
    Algorithm, Counts, Declared, Engine, FindsOne, Goal, Lists, Problem, Progress, Refutes, Report,
    RunOptions, Scope, Within,
};
use crate::error::{Error, Result};
use crate::sat::{
    self, lazy_rule, Amo, Backend, Decide, Formula, SatEngine, SatOptions, Size, Strategy,
};
use crate::setting::Setting;
use crate::subproblems::Step;

/// The SAT path with its settings.
#[derive(Debug)]
pub(super) struct Sat(pub(super) SatEngine);

/// Default settings with this backend, and MRV decisions or the solver's own.
pub(super) fn settings(backend: Backend, mrv: bool) -> SatEngine {
    SatEngine {
        backend,
        amo: backend.default_amo(),
        decide: if mrv { Decide::Mrv } else { Decide::Solver },
        ..SatEngine::default()
    }
}

/// How a listing of every solution runs: on one thread, one SAT search over everything
/// beats cubes searched one after the other (Bedlam's first model in 0.1 s against
/// 0.9 s, and 400 models in 33-37 s against 43-49 s); cubes pay only when solvers run
/// side by side.
fn for_listing(opts: &RunOptions) -> Strategy {
    if opts.threads > 1 {
        Strategy::Cubes
    } else {
        Strategy::Plain
    }
}

/// Why a backend that is not incremental finds only the first solution. A constant, so
/// its setting is marked by hand, as [`Setting::is`] marks one (`setting.rs`).
const FIRST_ONLY: &str = "Kissat is not incremental (no assumptions, one solve per instance), \
    so each further solution would be a new solve from scratch; count with \
    \u{E000}backend\u{E001}minisat, glucose or cadical\u{E000}";

/// SAT settings, made step by step and checked once, by [`SatBuilder::build`].
#[derive(Clone, Debug)]
pub(crate) struct SatBuilder {
    settings: SatEngine,
    /// The first CaDiCaL-only setting given.
    cadical_only: Option<Setting>,
    /// The at-most-one encoding was chosen (else it follows the backend's default).
    amo_chosen: bool,
}

/// Settings that do not go together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SatSettingsError {
    /// A setting of CaDiCaL's (named as given) for another backend.
    CadicalOnly {
        /// The setting.
        setting: Setting,
        /// The backend chosen.
        backend: Backend,
    },
    /// The lazy at-most-one with a backend that has no propagator to enforce it.
    Lazy {
        /// The backend chosen.
        backend: Backend,
    },
}

impl SatSettingsError {
    /// The message, its settings marked for a front end to word ([`Setting::render`]).
    fn marked(&self) -> String {
        match self {
            SatSettingsError::CadicalOnly { setting, backend } => format!(
                "{} applies to the cadical backend only, not {}",
                setting.mark(),
                backend.name()
            ),
            SatSettingsError::Lazy { backend } => lazy_rule(Amo::Lazy, Some(*backend))
                .err()
                .unwrap_or_default(),
        }
    }
}

impl From<SatSettingsError> for Error {
    fn from(e: SatSettingsError) -> Error {
        Error::Usage(e.marked())
    }
}

impl From<SatEngine> for SatBuilder {
    /// Starts from `settings` (an engine's, as configured so far), remembering a
    /// CaDiCaL-only setting they already hold, so that a later change of backend is
    /// checked against it as a change in one call would be.
    fn from(settings: SatEngine) -> SatBuilder {
        let cadical_only = if !settings.cadical_options.is_empty() {
            Some(Setting::SatOption)
        } else if settings.decide == Decide::Solver {
            Some(Setting::Decide)
        } else {
            None
        };
        SatBuilder {
            amo_chosen: settings.amo != settings.backend.default_amo(),
            settings,
            cadical_only,
        }
    }
}

impl SatBuilder {
    /// The backend, and its at-most-one encoding unless one was chosen.
    pub fn backend(mut self, backend: Backend) -> SatBuilder {
        self.settings.backend = backend;
        if !self.amo_chosen {
            self.settings.amo = backend.default_amo();
        }
        self
    }

    /// The at-most-one encoding.
    pub fn amo(mut self, amo: Amo) -> SatBuilder {
        self.settings.amo = amo;
        self.amo_chosen = true;
        self
    }

    /// Who decides: `solver` (CaDiCaL's own heuristics) is CaDiCaL's alone; `mrv`, the
    /// default of every backend, is no choice of CaDiCaL's.
    pub fn decide(mut self, decide: Decide) -> SatBuilder {
        self.settings.decide = decide;
        if decide == Decide::Solver {
            self.cadical_only.get_or_insert(Setting::Decide);
        }
        self
    }

    /// The strategy, instead of the run's (plain for a first solution, cubes else).
    pub fn strategy(mut self, strategy: Strategy) -> SatBuilder {
        self.settings.strategy = Some(strategy);
        self
    }

    /// CaDiCaL options (`NAME`, `VALUE`), set after polycover's defaults (CaDiCaL only).
    pub fn cadical_options(
        mut self,
        options: impl IntoIterator<Item = (String, i32)>,
    ) -> SatBuilder {
        let before = self.settings.cadical_options.len();
        self.settings.cadical_options.extend(options);
        if self.settings.cadical_options.len() > before {
            self.cadical_only.get_or_insert(Setting::SatOption);
        }
        self
    }

    /// Builds the CNF even past its size limit.
    pub fn force(mut self, force: bool) -> SatBuilder {
        self.settings.force = force;
        self
    }

    /// Checks the MRV propagator's invariants after every callback.
    pub fn paranoid(mut self, paranoid: bool) -> SatBuilder {
        self.settings.paranoid = paranoid;
        self
    }

    /// The engine, once its settings are checked.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a CaDiCaL-only setting with another backend, and for the lazy
    /// at-most-one without the propagator; the message marks the settings
    /// ([`Error::render`]).
    pub fn build(self) -> Result<Engine> {
        self.checked().map_err(Error::from)
    }

    fn checked(self) -> std::result::Result<Engine, SatSettingsError> {
        let s = self.settings;
        if let (Some(setting), false) = (self.cadical_only, s.backend == Backend::Cadical) {
            return Err(SatSettingsError::CadicalOnly {
                setting,
                backend: s.backend,
            });
        }
        if lazy_rule(s.amo, Some(s.backend)).is_err() {
            return Err(SatSettingsError::Lazy { backend: s.backend });
        }
        Ok(Engine::new(Sat(s)))
    }
}

/// The settings a SAT engine with `s` declares, each with `s`'s value as its default.
fn declared(s: &SatEngine) -> Vec<Declared> {
    vec![
        Declared {
            setting: Setting::Backend,
            values: Backend::ALL
                .iter()
                .filter(|b| b.built().is_ok())
                .map(|b| (b.name(), b.help()))
                .collect(),
            default: Some(s.backend.name()),
            help: "the embedded SAT solver that runs the CNF",
        },
        Declared {
            setting: Setting::Amo,
            values: Amo::EVERY.iter().map(|a| (a.name(), a.help())).collect(),
            default: Some(s.amo.name()),
            help: "the at-most-one encoding of the CNF",
        },
        Declared {
            setting: Setting::Decide,
            values: [Decide::Mrv, Decide::Solver]
                .iter()
                .map(|d| (d.name(), d.help()))
                .collect(),
            default: Some(s.decide.name()),
            help: "who picks CaDiCaL's decisions (cadical only)",
        },
        Declared {
            setting: Setting::Strategy,
            values: [Strategy::Plain, Strategy::Cubes]
                .iter()
                .map(|st| (st.name(), st.help()))
                .collect(),
            default: s.strategy.map(Strategy::name),
            help: "how the search is split (by default plain for a first solution, cubes for \
                   every one)",
        },
        Declared {
            setting: Setting::SatOption,
            values: Vec::new(),
            default: None,
            help: "a CaDiCaL option, NAME=VALUE with a whole VALUE, set after polycover's \
                   defaults (cadical only; one pair per option)",
        },
        Declared {
            setting: Setting::Force,
            values: vec![
                (
                    "false",
                    "Refuse a CNF past its size limit before building it",
                ),
                ("true", "Build the CNF even past its size limit"),
            ],
            default: Some(if s.force { "true" } else { "false" }),
            help: "build the CNF even past its size limit",
        },
        Declared {
            setting: Setting::Paranoid,
            values: vec![
                ("false", "Trust the MRV propagator (release builds)"),
                (
                    "true",
                    "Check its invariants after every callback: slow, a checking aid",
                ),
            ],
            default: Some(if s.paranoid { "true" } else { "false" }),
            help: "check the MRV propagator's invariants after every callback (always on in \
                   debug builds)",
        },
    ]
}

/// `s` with `pairs` applied (each setting declared, each value one of its declared
/// values: [`Engine::configure`] checked them), then the combination checked once.
fn configure(s: &SatEngine, pairs: &[(Setting, &str)]) -> Result<Engine> {
    fn pick<T: Copy>(all: &[T], name: fn(T) -> &'static str, value: &str) -> T {
        *all.iter()
            .find(|&&v| name(v) == value)
            .expect("a declared value")
    }
    let mut b = SatBuilder::from(s.clone());
    for &(setting, value) in pairs {
        b = match setting {
            Setting::Backend => b.backend(pick(&Backend::ALL, Backend::name, value)),
            Setting::Amo => b.amo(pick(&Amo::EVERY, Amo::name, value)),
            Setting::Decide => b.decide(pick(&[Decide::Mrv, Decide::Solver], Decide::name, value)),
            Setting::Strategy => b.strategy(pick(
                &[Strategy::Plain, Strategy::Cubes],
                Strategy::name,
                value,
            )),
            Setting::SatOption => b.cadical_options([sat_option(value)?]),
            Setting::Force => b.force(value == "true"),
            Setting::Paranoid => b.paranoid(value == "true"),
            _ => unreachable!("a setting the SAT engine declares"),
        };
    }
    b.build()
}

/// A CaDiCaL option, `NAME=VALUE` with a whole `VALUE` of 32 bits.
/// The one parser of CaDiCaL's options: the command line's `--sat-option` hands its text
/// here through [`Engine::configure`].
fn sat_option(text: &str) -> Result<(String, i32)> {
    let refuse = |why: String| Error::Usage(format!("{}: {why}", Setting::SatOption.mark()));
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| refuse(format!("`{text}` is not NAME=VALUE")))?;
    if name.trim().is_empty() {
        return Err(refuse(format!(
            "`{text}` has no option name before `=`: give NAME=VALUE, as {}",
            Setting::SatOption.is("restartint=100")
        )));
    }
    let value = value.trim().parse::<i32>().map_err(|_| {
        refuse(format!(
            "`{}` (in `{text}`): a CaDiCaL option's value must be a whole number from {} to {}",
            value.trim(),
            i32::MIN,
            i32::MAX
        ))
    })?;
    Ok((name.trim().to_string(), value))
}

/// The value of `setting` in `s`, spelt as [`declared`] offers it.
fn setting(s: &SatEngine, setting: Setting) -> Option<String> {
    match setting {
        Setting::Backend => Some(s.backend.name().into()),
        Setting::Amo => Some(s.amo.name().into()),
        Setting::Decide => Some(s.decide.name().into()),
        Setting::Strategy => s.strategy.map(|st| st.name().into()),
        Setting::SatOption if !s.cadical_options.is_empty() => Some(
            s.cadical_options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        Setting::Force => Some(s.force.to_string()),
        Setting::Paranoid => Some(s.paranoid.to_string()),
        _ => None,
    }
}

impl Algorithm for Sat {
    fn name(&self) -> &'static str {
        use super::names;
        match (self.0.backend, self.0.decide) {
            (Backend::Varisat, _) => names::SAT_VARISAT,
            (Backend::Minisat, _) => names::SAT_MINISAT,
            (Backend::Glucose, _) => names::SAT_GLUCOSE,
            (Backend::Kissat, _) => names::SAT_KISSAT,
            (Backend::Cadical, Decide::Mrv) => names::SAT_CADICAL,
            (Backend::Cadical, Decide::Solver) => names::SAT_CADICAL_SOLVER,
        }
    }

    fn settings(&self) -> Vec<Declared> {
        declared(&self.0)
    }

    fn configure(&self, pairs: &[(Setting, &str)]) -> Result<Engine> {
        configure(&self.0, pairs)
    }

    fn setting(&self, setting: Setting) -> Option<String> {
        self::setting(&self.0, setting)
    }

    /// The models of its enumeration, listed once more for the certificate.
    fn certifies(&self) -> Option<super::Certifies> {
        Some(super::Certifies::Models)
    }

    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn super::Prepared + 'p>> {
        self.available().map_err(|why| {
            Error::Usage(format!(
                "{} with {}: {why}",
                self.name(),
                Setting::Amo.is(self.0.amo.name())
            ))
        })?;
        Ok(Box::new(PreparedSat {
            name: self.name(),
            settings: self.0.clone(),
            problem,
            size: Formula::size(problem, self.0.amo),
            formula: OnceLock::new(),
        }))
    }

    fn available(&self) -> std::result::Result<(), String> {
        let backend = self.0.backend;
        if let Err(feature) = backend.built() {
            return Err(format!("built without the {feature} feature"));
        }
        lazy_rule(self.0.amo, Some(backend))
    }
}

/// A SAT engine prepared for one problem.
struct PreparedSat<'p> {
    name: &'static str,
    settings: SatEngine,
    problem: &'p Problem,
    /// The CNF's size, counted without building it.
    size: Size,
    /// The CNF, once a run or [`super::Prepared::build_ahead`] compiled it.
    formula: OnceLock<Arc<Formula>>,
}

impl super::Prepared for PreparedSat<'_> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn describe(&self, goal: Goal) -> Vec<String> {
        let s = &self.settings;
        let strategy = match goal {
            Goal::First => Strategy::Plain,
            Goal::All => Strategy::Cubes,
        };
        let mut line = format!(
            "solver sat: backend {}, at-most-one {}, strategy {}",
            s.backend.name(),
            s.amo.name(),
            s.strategy.unwrap_or(strategy).name()
        );
        if s.backend == Backend::Cadical {
            line += &format!(", decide {}", s.decide.name());
            for (k, v) in &s.cadical_options {
                line += &format!(", {k}={v}");
            }
        }
        let size = self.size;
        vec![
            line,
            format!(
                "cnf {} variables ({} primary), {} clauses, {} literals{}",
                size.variables,
                self.problem.compiled.matrix.num_options(),
                size.clauses,
                size.literals,
                if size.over_limit() {
                    " (past the limit)"
                } else {
                    ""
                }
            ),
        ]
    }

    fn build_ahead(&self) {
        // Past the size limit and not forced, the run refuses: nothing to build.
        if self.settings.force || !self.size.over_limit() {
            let p = self.problem;
            self.formula
                .get_or_init(|| Arc::new(Formula::of(p, self.settings.amo)));
        }
    }

    fn counts(&self) -> Option<&dyn Counts> {
        self.settings.backend.incremental().then_some(self as _)
    }

    fn lists(&self) -> Option<&dyn Lists> {
        self.settings.backend.incremental().then_some(self as _)
    }

    fn finds_one(&self) -> Option<&dyn FindsOne> {
        Some(self)
    }

    fn limits(&self) -> &'static str {
        if self.settings.backend.incremental() {
            ""
        } else {
            FIRST_ONLY
        }
    }

    fn refutes(&self) -> Option<&dyn Refutes> {
        (self.settings.backend == Backend::Varisat).then_some(self as _)
    }

    fn no_proof(&self) -> &'static str {
        match self.settings.backend {
            Backend::Varisat => "",
            Backend::Cadical => {
                "pindakaas keeps CaDiCaL's proof tracer unstable, and with the MRV propagator \
                 its reasons would enter the proof unchecked; varisat writes one \
                 (\u{E000}backend\u{E001}varisat\u{E000})"
            }
            _ => {
                "rustsat's binding exposes no proof output; varisat writes one \
                 (\u{E000}backend\u{E001}varisat\u{E000})"
            }
        }
    }
}

/// One solve by varisat, which writes a DRAT proof (the one backend here that does).
impl Refutes for PreparedSat<'_> {
    fn refute(&self, opts: &RunOptions, proof: &mut dyn std::io::Write) -> Result<sat::Refutation> {
        let s = &self.settings;
        let formula = Formula::checked(self.problem, s.amo, s.force, &opts.stop)?;
        formula.refute(self.problem.matrix(), proof)
    }
}

impl Counts for PreparedSat<'_> {
    fn count(&self, opts: &RunOptions, within: Option<Within<'_>>) -> Result<Report> {
        match within {
            None => self.run(opts, Strategy::Cubes, None, &mut |_| {
                ControlFlow::Continue(())
            }),
            Some(w) => self.for_each(opts, Some(w.scope), &mut |step| {
                if let Step::Finished {
                    subproblem,
                    solutions,
                } = step
                {
                    (w.finished)(subproblem, solutions.into());
                }
                ControlFlow::Continue(())
            }),
        }
    }
}

impl Lists for PreparedSat<'_> {
    fn for_each(
        &self,
        opts: &RunOptions,
        scope: Option<Scope<'_>>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let Some(scope) = scope else {
            return self.run(opts, for_listing(opts), None, f);
        };
        // A scope's subproblems are the cubes, and `f` hears each by its index in the
        // split.
        let cubes: Vec<Vec<u32>> = scope
            .subproblems
            .iter()
            .map(|&j| scope.split.prefix(j).to_vec())
            .collect();
        self.run(opts, Strategy::Cubes, Some(&cubes), &mut |step| {
            f(scope.in_split(step))
        })
    }
}

impl FindsOne for PreparedSat<'_> {
    /// One search without cubes, stopped at its first model (the only search a backend
    /// that is not incremental makes).
    fn first(&self, opts: &RunOptions) -> Result<(Option<Vec<u32>>, Report)> {
        let mut first = None;
        let report = self.run(opts, Strategy::Plain, None, &mut |step| {
            step.solution_to(&mut |s| {
                first = Some(s.to_vec());
                ControlFlow::Break(())
            })
        })?;
        Ok((first, report))
    }
}

impl PreparedSat<'_> {
    /// Compiles the CNF unless built (under the deadline and Ctrl-C) and enumerates its
    /// models, whole or over `cubes`.
    fn run(
        &self,
        opts: &RunOptions,
        strategy: Strategy,
        cubes: Option<&[Vec<u32>]>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let s = &self.settings;
        let problem = self.problem;
        let start = Instant::now();
        let compiled_here = self.formula.get().is_none();
        if compiled_here {
            self.size.check(s.amo, s.force)?;
        }
        let formula = match self.formula.get() {
            Some(f) => f,
            None => {
                let _listening = opts.stop.listen();
                let (matrix, reduction) = (&problem.compiled.matrix, &problem.reduction);
                match sat::compile_until(matrix, reduction, s.amo, &|| opts.stop.should_stop()) {
                    Ok(f) => self.formula.get_or_init(|| Arc::new(f)),
                    Err(_) => {
                        let interrupted = opts.stop.raised();
                        return Ok(Report {
                            complete: false,
                            interrupted,
                            timed_out: !interrupted,
                            seconds: start.elapsed().as_secs_f64(),
                            statistics: format!(
                                "stopped while compiling the CNF, after {:.3} s",
                                start.elapsed().as_secs_f64()
                            ),
                            ..Report::default()
                        });
                    }
                }
            }
        };
        let compile_seconds = start.elapsed().as_secs_f64();
        let sat_opts = SatOptions {
            engine: s,
            strategy: s.strategy.unwrap_or(strategy),
            threads: opts.threads.max(1),
            stop: opts.stop.clone(),
            cubes,
        };
        let stats = sat::for_each_model(
            &problem.compiled.matrix,
            &problem.reduction,
            formula,
            &sat_opts,
            opts.progress.map(|p| p as &dyn Fn(&Progress)),
            f,
        )?;
        Ok(Report {
            solutions: stats.models.into(),
            complete: stats.cubes_done == stats.cubes,
            interrupted: stats.interrupted,
            timed_out: stats.stopped && !stats.interrupted,
            seconds: start.elapsed().as_secs_f64(),
            statistics: format!(
                "solver calls {}, mrv decisions {}{}",
                stats.solver_calls,
                stats.decisions,
                if compiled_here {
                    format!(", cnf compiled in {compile_seconds:.3} s")
                } else {
                    String::new()
                }
            ),
            parts_done: stats.cubes_done,
            parts: stats.cubes,
            threads: stats.threads as usize,
        })
    }
}
