//! The engine seam: prepare, then run.
//!
//! An engine is a type behind [`Algorithm`]: the DLX and the bitset engine (`native.rs`),
//! the SAT path with its backend, encoding and decisions (`sat.rs`), the memo
//! (`memo.rs`). An [`Engine`] is a cheap, shareable handle to one, holding settings
//! only. `ENGINES` lists every engine by name, as `puzzle::KINDS` lists the puzzle
//! kinds: `--solver`, `bench --solvers`, `check` and the help texts all read it, so a new
//! engine is one file and one line there.
//!
//! A run is two steps. [`Engine::prepare`] compiles the engine for one [`Problem`] (the
//! compiled puzzle and its reduction, nothing else) into a [`Prepared`] value that owns
//! what was compiled: the built native engine, the memo's Burnside classes, the SAT
//! settings and (built on the first run, under its deadline) the CNF. `describe` and the
//! runs are methods of that value, so nothing is built twice and nothing is parked in
//! the problem.
//!
//! The prepared value is a boxed trait object, not an enum: an engine of the crate's own
//! tests (`toy.rs`) or a future one is one more type, and the command line never learns
//! which engines exist. What it can do is said by types: [`Prepared::counts`],
//! [`Prepared::lists`] and [`Prepared::finds_one`] hand out a [`Counts`], [`Lists`] or
//! [`FindsOne`] when the engine has that ability, so an engine that only counts writes
//! no refusing method. [`Prepared::counter`] counts with an engine that only lists by listing.
//! What types cannot say, that this build lacks an engine's backend, is
//! [`Algorithm::available`].
//!
//! Invariants:
//! - Every engine reports each distinct solution (one per orbit of the symmetry group)
//!   exactly once, as sorted options of the original matrix, checked as an exact cover.
//! - A [`Report`] with `complete == false` holds a lower bound: a deadline, Ctrl-C, or the
//!   caller's `Break` stopped the run. Callers never present it as a count.
//! - A prepared engine refuses nothing it hands out: a job it cannot do is a `None`
//!   capability, refused (exit 2) by `counter`, `lister` or `finder` before any work.

mod covers;
mod default;
pub(crate) mod difficulty;
mod frontier;
pub(crate) mod handle;
mod memo;
pub(crate) mod run;
pub(crate) use memo::{refuse_past_budget, Instead};
mod native;
pub(crate) mod problem;
pub(crate) mod sample;
pub(crate) mod sat;
mod settings;
#[cfg(any(test, feature = "toy"))]
mod toy;

use std::fmt;
use std::ops::ControlFlow;

use crate::count::Count;
use crate::error::{Error, Result};
use crate::sat::{Refutation, SatEngine};
pub use sample::Sampler;

use crate::setting::Setting;
use crate::subproblems::Step;
pub use difficulty::Difficulty;

pub use crate::subproblems::Progress;
// The facade's own types, named at the crate's root (`polycover::Engine`, ...), not here.
pub(crate) use crate::problem::Problem;
pub(crate) use handle::Engine;
pub(crate) use run::{Report, RunOptions, Scope, MAX_THREADS};

/// An engine: what it is called and how it prepares a problem.
pub trait Algorithm: Send + Sync + fmt::Debug {
    /// The engine's name, as `--solver` and `bench --solvers` take it.
    fn name(&self) -> &'static str;

    /// Compiles the engine for `problem`: builds what `describe` and the runs share.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] when this build cannot run the engine ([`Algorithm::available`]).
    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn Prepared + 'p>>;

    /// Whether this build can run the engine; the reason when it cannot (a backend
    /// compiled out): the one refusal that types cannot say. The reason names settings
    /// as a message does: word it with [`crate::setting::Setting::render`].
    fn available(&self) -> std::result::Result<(), String> {
        Ok(())
    }

    /// The graph its certificate of a count takes (`count --certify`), when it writes
    /// one: what `certify` reads instead of the engine's name.
    fn certifies(&self) -> Option<Certifies> {
        None
    }

    /// The settings it takes, in the order a help text lists them (none by default).
    fn settings(&self) -> Vec<Declared> {
        Vec::new()
    }

    /// This engine with `pairs` applied: each setting one it declares, each value one of
    /// the declared ones ([`Engine::configure`] checked them, and calls this only with
    /// some pairs); the combination is the engine's to check.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for settings that do not go together.
    fn configure(&self, pairs: &[(Setting, &str)]) -> Result<Engine> {
        unreachable!(
            "{} declares no setting, so is given none: {} pairs",
            self.name(),
            pairs.len()
        )
    }

    /// The value of `setting`, spelt as [`Algorithm::settings`] offers it; `None` for one
    /// it does not declare, or one left to the run.
    fn setting(&self, setting: Setting) -> Option<String> {
        let _ = setting;
        None
    }

    /// The engine a checkpointed count takes instead of this one, for an engine whose
    /// count is not made of subproblems that a checkpoint records as they end (the
    /// frontier's layers: the memo); `None` for one whose count is.
    fn instead_for_checkpoint(&self) -> Option<Engine> {
        None
    }
}

/// The shape of an engine's certificate of its count: a capability an engine declares
/// ([`Algorithm::certifies`]), so that the certificate's writer names no engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certifies {
    /// Its table of subproblems, shared: a node per subproblem (or per layer's state).
    Table,
    /// Its search tree: a node per node of the search.
    SearchTree,
    /// The models its enumeration found, the leaves of a tree: a certificate of every
    /// solution (no symmetry), the models listed once more for it.
    Models,
}

/// An engine compiled for one problem: it describes itself and hands out what it can do.
pub trait Prepared: Send + Sync {
    /// The engine's name.
    fn name(&self) -> &'static str;

    /// What will run for `goal`, as `c` line texts without the `c ` (the first starts
    /// `solver `).
    fn describe(&self, goal: Goal) -> Vec<String>;

    /// Builds now what the runs would build on first use (the CNF), so that a benchmark
    /// can time it apart. Doing nothing is fine.
    fn build_ahead(&self) {}

    /// Whether [`RunOptions::memory`] bounds something the engine keeps (a table of
    /// subproblem counts, a frontier's layers); an engine that keeps none ignores it, and
    /// a front end says so where the budget was given.
    fn keeps_table(&self) -> bool {
        false
    }

    /// Counting, when the engine counts by itself.
    fn counts(&self) -> Option<&dyn Counts> {
        None
    }

    /// Listing every solution, when the engine can.
    fn lists(&self) -> Option<&dyn Lists> {
        None
    }

    /// Finding the first solution (or showing there is none): every engine that lists,
    /// and one that finds only the first (a solver that is not incremental).
    fn finds_one(&self) -> Option<&dyn FindsOne> {
        self.lists().map(|l| l as &dyn FindsOne)
    }

    /// Why the engine does not count or list every solution, for the refusal (empty
    /// when it does); its settings are worded by [`crate::setting::Setting::render`].
    fn limits(&self) -> &'static str {
        ""
    }

    /// Refuting with a proof, when the engine writes one.
    fn refutes(&self) -> Option<&dyn Refutes> {
        None
    }

    /// Drawing solutions at random, uniformly, when the engine can.
    fn samples(&self) -> Option<&dyn Samples> {
        None
    }

    /// Measuring its search tree, when the engine can.
    fn measures(&self) -> Option<&dyn MeasuresTree> {
        None
    }

    /// Why the engine writes no proof, for the refusal (its settings worded by
    /// [`crate::setting::Setting::render`]).
    fn no_proof(&self) -> &'static str {
        "the proof is of the CNF's unsatisfiability, and this engine does not run on the CNF"
    }

    /// What counts with this engine: its own counting, or listing when it only lists
    /// (each solution counted as it goes by). This and [`Prepared::lister`] and
    /// [`Prepared::finder`] are the one place that words the refusal (exit 2) of a job
    /// an engine cannot do; an engine does not override them.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for an engine that finds only the first solution.
    fn counter(&self) -> Result<Box<dyn Counts + '_>> {
        match (self.counts(), self.lists()) {
            (Some(c), _) => Ok(Box::new(Counter::Counts(c))),
            (None, Some(l)) => Ok(Box::new(Counter::Lists(l))),
            (None, None) => Err(finds_one_only(self.name(), self.limits())),
        }
    }

    /// The listing.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for an engine that only counts, or finds only the first solution.
    fn lister(&self) -> Result<&dyn Lists> {
        match (self.lists(), self.counts()) {
            (Some(l), _) => Ok(l),
            (None, Some(_)) => Err(counts_only(self.name())),
            (None, None) => Err(finds_one_only(self.name(), self.limits())),
        }
    }

    /// The search for a first solution.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for an engine that only counts.
    fn finder(&self) -> Result<&dyn FindsOne> {
        self.finds_one().ok_or_else(|| counts_only(self.name()))
    }

    /// The measures of the search tree.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for an engine that measures none.
    fn measurer(&self) -> Result<&dyn MeasuresTree> {
        self.measures().ok_or_else(|| {
            Error::Usage(format!(
                "{} measures no search tree: {} does (the measures are its tree's)",
                self.name(),
                crate::setting::Setting::Solver.is(names::DLX)
            ))
        })
    }

    /// The drawing of random solutions.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for an engine that draws none.
    fn sampler(&self) -> Result<&dyn Samples> {
        self.samples().ok_or_else(|| {
            Error::Usage(format!(
                "{} draws no random solutions: {} does, from its table of counts",
                self.name(),
                crate::setting::Setting::Solver.is(names::MEMO)
            ))
        })
    }

    /// The refutation with a proof.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for an engine that writes no proof, saying why.
    fn refuter(&self) -> Result<&dyn Refutes> {
        self.refutes().ok_or_else(|| {
            Error::Usage(format!(
                "{} writes no proof: {}",
                self.name(),
                self.no_proof()
            ))
        })
    }
}

/// An engine that counts the distinct solutions.
pub trait Counts {
    /// Counts the distinct solutions: of the whole search, or of the subproblems of
    /// `within` (calling its `finished` as each one ends).
    ///
    /// # Errors
    ///
    /// A part this engine cannot count apart ([`Error::Usage`]), or a failure while
    /// running.
    fn count(&self, opts: &RunOptions, within: Option<Within<'_>>) -> Result<Report>;
}

/// An engine that lists every distinct solution; it finds the first one too.
pub trait Lists: FindsOne {
    /// Calls `f` with each distinct solution ([`Step::Solution`]) and, with `scope`, with
    /// the end of each of its subproblems ([`Step::Finished`], with its index in the
    /// split). `f` returns `Break` to stop. The engine chooses how to search from the
    /// run's options and the scope (the SAT engine: cubes on several threads or for a
    /// scope, one plain search on one thread).
    ///
    /// # Errors
    ///
    /// A failure while running.
    fn for_each(
        &self,
        opts: &RunOptions,
        scope: Option<Scope<'_>>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report>;
}

/// An engine that refutes with a proof: one search for a first solution that writes, as
/// it goes, a proof that an independent checker verifies when there is none (DRAT, of
/// the CNF that `polycover dimacs` writes).
pub trait Refutes {
    /// One search: a solution, checked ([`Refutation::Satisfiable`]), or none and a
    /// proof written to `proof` that ends in the empty clause
    /// ([`Refutation::Unsatisfiable`]). `opts.stop` stops the CNF's compilation; the
    /// solve itself runs to its end.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a CNF the engine cannot refute (the lazy encoding, or one
    /// past the size limit without `force`); a failure while running or writing.
    fn refute(&self, opts: &RunOptions, proof: &mut dyn std::io::Write) -> Result<Refutation>;
}

/// An engine that draws solutions at random, uniformly over the orbits of the problem's
/// symmetry: it counts first, into a table it then walks (see [`Sampler`]).
pub trait Samples: Sync {
    /// Refuses, before any work, a problem whose table of counts may need more than
    /// `memory` bytes: the count would recount the same subproblems for hours.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`], saying what the table would need.
    fn fits(&self, memory: usize) -> Result<()>;

    /// Counts (a table of at most `memory` bytes), ready to draw with the generator
    /// seeded by `seed` (a seed gives the same draws on every machine); `stop` is polled
    /// during the count and every draw.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] when `stop` ended the count.
    fn draws<'s>(
        &'s self,
        seed: u64,
        memory: usize,
        stop: &'s (dyn Fn() -> bool + Sync),
    ) -> Result<Sampler<'s>>;
}

/// An engine that measures its search tree: the figures puzzle makers rank a puzzle by
/// (see [`Difficulty`]).
pub trait MeasuresTree: Sync {
    /// The measures of the whole tree, walked on one thread until `stop` says stop:
    /// `Ok(None)` when its deadline came first.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] when `stop` was raised.
    fn measure(&self, stop: &crate::stop::Stop) -> Result<Option<Difficulty>>;
}

/// An engine that finds a first solution, or shows that there is none.
pub trait FindsOne {
    /// The first distinct solution, if there is one; `None` too when the deadline or
    /// Ctrl-C stopped the search first (then `Report::complete` is false).
    ///
    /// # Errors
    ///
    /// A failure while running.
    fn first(&self, opts: &RunOptions) -> Result<(Option<Vec<u32>>, Report)>;
}

/// What a run is for. An engine may search differently for each, and say so in its
/// description: the SAT engine runs one plain search for a first solution, and cubes
/// for every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The first solution, soon ([`FindsOne`]).
    First,
    /// Every solution ([`Counts`], [`Lists`]).
    All,
}

/// The first solution of an engine that lists: its listing, stopped at its first
/// solution (an engine whose first solution comes faster another way says so in its own
/// [`FindsOne`]).
pub(crate) fn first_listed(
    lists: &dyn Lists,
    opts: &RunOptions,
) -> Result<(Option<Vec<u32>>, Report)> {
    let mut first = None;
    let report = lists.for_each(opts, None, &mut |step| {
        step.solution_to(&mut |s| {
            first = Some(s.to_vec());
            ControlFlow::Break(())
        })
    })?;
    Ok((first, report))
}

fn finds_one_only(name: &str, limits: &str) -> Error {
    Error::Usage(format!("{name} finds one solution, not all: {limits}"))
}

/// What counts: an engine's own counting, or its listing, counted.
#[derive(Clone, Copy)]
enum Counter<'a> {
    /// The engine counts.
    Counts(&'a dyn Counts),
    /// The engine lists; each solution is counted as it goes by.
    Lists(&'a dyn Lists),
}

impl Counts for Counter<'_> {
    fn count(&self, opts: &RunOptions, within: Option<Within<'_>>) -> Result<Report> {
        match *self {
            Counter::Counts(c) => c.count(opts, within),
            Counter::Lists(l) => l.for_each(opts, within.map(|w| w.scope), &mut |step| {
                if let (
                    Some(w),
                    Step::Finished {
                        subproblem,
                        solutions,
                    },
                ) = (within, step)
                {
                    (w.finished)(subproblem, solutions.into());
                }
                ControlFlow::Continue(())
            }),
        }
    }
}

/// Some subproblems of a count, and who hears as each one ends.
#[derive(Clone, Copy)]
pub struct Within<'a> {
    /// The subproblems.
    pub scope: Scope<'a>,
    /// Called (on any thread) with a subproblem's index in the split and its count as it
    /// ends; subproblems that a stop cut short are not reported.
    pub finished: &'a (dyn Fn(usize, Count) + Sync),
}

/// A setting that an engine takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// Which setting.
    pub setting: Setting,
    /// The values it takes, as [`Engine::configure`] takes them, each with a line of
    /// help, in the order a help text or `bench` lists them; empty when it takes any text
    /// of its own form (see `help`).
    pub values: Vec<(&'static str, &'static str)>,
    /// The value when none is given; `None` when the run chooses (a SAT engine's
    /// strategy: plain for a first solution, cubes for the rest).
    pub default: Option<&'static str>,
    /// One line for help texts.
    pub help: &'static str,
}

impl Declared {
    /// The values' names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.values.iter().map(|&(name, _)| name).collect()
    }

    /// Whether `value` is one of the declared values (any text, when none is declared).
    pub fn takes(&self, value: &str) -> bool {
        self.values.is_empty() || self.values.iter().any(|&(name, _)| name == value)
    }
}

/// One entry of [`ENGINES`].
pub(crate) struct Entry {
    /// The name `--solver` and `bench --solvers` take.
    name: &'static str,
    /// One line for help texts.
    about: &'static str,
    /// A value of `--solver` (count, solve, enumerate); every entry is one of `bench
    /// --solvers` and of `check`'s cross-checks.
    on_solver: bool,
    /// The engine with its defaults: a handle and settings, nothing built.
    make: fn() -> Engine,
}

/// The registered engines' names: the one place they are written, for the registry below,
/// the engines' own `name`, and the messages and choices that name an engine (a default,
/// a suggestion), so that no other file matches or writes an engine's name.
pub(crate) mod names {
    pub(crate) const BITS: &str = "bits";
    pub(crate) const DLX: &str = "dlx";
    pub(crate) const MEMO: &str = "memo";
    pub(crate) const FRONTIER: &str = "frontier";
    pub(crate) const SAT: &str = "sat";
    pub(crate) const SAT_CADICAL: &str = "sat-cadical";
    pub(crate) const SAT_CADICAL_SOLVER: &str = "sat-cadical-solver";
    pub(crate) const SAT_VARISAT: &str = "sat-varisat";
    pub(crate) const SAT_MINISAT: &str = "sat-minisat";
    pub(crate) const SAT_GLUCOSE: &str = "sat-glucose";
    pub(crate) const SAT_KISSAT: &str = "sat-kissat";
}

/// Every engine, by name: the one list that `--solver`, `bench --solvers`, `check` and
/// the help texts read (through [`Engine::from_name`], [`Engine::solver_names`],
/// [`Engine::bench_names`] and [`Engine::about`]). A new engine adds one line here.
pub(crate) static ENGINES: &[Entry] = &[
    Entry {
        name: names::BITS,
        about: "bitset Algorithm X: the fast native engine",
        on_solver: true,
        make: Engine::bits,
    },
    Entry {
        name: names::DLX,
        about: "dancing links: the reference",
        on_solver: true,
        make: Engine::dlx,
    },
    Entry {
        name: names::MEMO,
        about: "a table of subproblem counts: counts identical pieces fast, lists nothing",
        on_solver: true,
        make: || Engine::new(memo::Memo),
    },
    Entry {
        name: names::FRONTIER,
        about: "the memo, layer by layer (a profile DP) where every piece has copies",
        on_solver: true,
        make: || Engine::new(frontier::Frontier::default()),
    },
    Entry {
        name: names::SAT,
        about: "the CNF by the build's default SAT backend (CaDiCaL with MRV decisions)",
        on_solver: true,
        make: || Engine::new(sat::Sat(SatEngine::default())),
    },
    Entry {
        name: names::SAT_CADICAL,
        about: "CaDiCaL steered by the MRV propagator",
        on_solver: false,
        make: || Engine::new(sat::Sat(sat::settings(crate::sat::Backend::Cadical, true))),
    },
    Entry {
        name: names::SAT_CADICAL_SOLVER,
        about: "CaDiCaL with its own decisions",
        on_solver: false,
        make: || Engine::new(sat::Sat(sat::settings(crate::sat::Backend::Cadical, false))),
    },
    Entry {
        name: names::SAT_VARISAT,
        about: "varisat, pure Rust",
        on_solver: false,
        make: || Engine::new(sat::Sat(sat::settings(crate::sat::Backend::Varisat, true))),
    },
    Entry {
        name: names::SAT_MINISAT,
        about: "MiniSat 2.2 (rustsat), a model per call",
        on_solver: false,
        make: || Engine::new(sat::Sat(sat::settings(crate::sat::Backend::Minisat, true))),
    },
    Entry {
        name: names::SAT_GLUCOSE,
        about: "Glucose 4 (rustsat), a model per call",
        on_solver: false,
        make: || Engine::new(sat::Sat(sat::settings(crate::sat::Backend::Glucose, true))),
    },
    Entry {
        name: names::SAT_KISSAT,
        about: "Kissat 4 (rustsat): the first solution only",
        on_solver: false,
        make: || Engine::new(sat::Sat(sat::settings(crate::sat::Backend::Kissat, true))),
    },
    #[cfg(any(test, feature = "toy"))]
    Entry {
        name: "toy",
        about: "a counter for the crate's own tests (the dlx, listing nothing)",
        on_solver: true,
        make: || Engine::new(toy::Toy),
    },
    #[cfg(any(test, feature = "toy"))]
    Entry {
        name: "toy-lister",
        about: "a lister for the crate's own tests (the dlx, counting nothing itself)",
        on_solver: true,
        make: || Engine::new(toy::Lister),
    },
];

/// The refusal of an engine that only counts, asked for solutions.
pub(crate) fn counts_only(name: &str) -> Error {
    Error::Usage(format!(
        "{} counts solutions without listing them: count with it",
        crate::setting::Setting::Solver.is(name)
    ))
}
