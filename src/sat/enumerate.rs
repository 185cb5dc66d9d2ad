//! Embedded SAT enumeration: the models of a [`Formula`], one per distinct solution,
//! found by workers that each own a solver, and handed to the caller on its own thread.
//!
//! Invariants:
//! - A reported solution has been checked against the matrix as an exact cover first, on
//!   the worker, before it leaves the solver's callback.
//! - Every model is reported once: after a model, a clause forbidding its set of true
//!   primary variables is added ([`super::cnf::Blocking`]). For an exact matrix it lists
//!   only the true primary variables (13 literals for Bedlam): any other model differs
//!   from this one in some placement that this one uses, because both are exact covers.
//!   With optional cells or count ranges a solution may contain another, and the clause
//!   lists every primary variable.
//! - Cubes are disjoint (each is a prefix of the native search tree), so workers never
//!   find the same model, and the total is the same for any number of threads.
//! - The workers (at most one per core, [`crate::schedule::workers`]) take cubes, in
//!   order, from the one scheduler's pool ([`crate::schedule::Pool`]), each cube a root
//!   of its own: a SAT solve gives no work away, so a cube is finished when its solve
//!   ends. Every worker that leaves early (a stop, a failure) stops the pool, so that no
//!   worker waits for a cube that will never come.
//! - A stop (the caller's `Break`, the deadline, Ctrl-C, a failed check) reaches every
//!   solver: CaDiCaL through its terminate callback, inside a call; varisat between calls;
//!   and both while they load the formula (every [`LOAD_STOP_EVERY`](super::search::LOAD_STOP_EVERY) clauses).
//!
//! # Strategies
//!
//! - [`Strategy::Plain`]: one search over the whole problem (for CaDiCaL one solve call
//!   for all models; for varisat one call per model).
//! - [`Strategy::Cubes`] (default): split the search into disjoint cubes with the native
//!   engine's first branching levels (cube and conquer), and enumerate each cube under
//!   assumptions. Workers take cubes from the scheduler's pool.

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::schedule::{self, execute, Caller, Giving, Job, Pool};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;

use crate::error::{Error, Result};
use crate::matrix::Matrix;
use crate::subproblems::{Progress, Step};
use crate::symmetry::Reduction;

use super::cnf::Formula;
use super::config::{Backend, SatEngine, Strategy};
#[cfg(feature = "cadical")]
use super::propagator::Groups;
use super::search::{Cube, Event, Halt, ModelSink, Outcome};

/// One enumeration: the engine, and how this run goes.
#[derive(Clone, Debug)]
pub struct SatOptions<'a> {
    pub engine: &'a SatEngine,
    /// The engine's strategy, or this one when it has none.
    pub strategy: Strategy,
    /// Workers, each with its own solver (with [`Strategy::Cubes`]).
    pub threads: usize,
    /// When to stop (`stopped` is then set in the stats).
    pub stop: crate::stop::Stop,
    /// These cubes (options of the original matrix, disjoint, from
    /// [`crate::solver::subproblems`]) instead of the strategy's: a part of a split.
    pub cubes: Option<&'a [Cube]>,
}

/// What an enumeration did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SatStats {
    pub models: u64,
    pub cubes: u64,
    /// Cubes searched to the end.
    pub cubes_done: u64,
    /// varisat's solve calls; CaDiCaL's (one per cube).
    pub solver_calls: u64,
    /// MRV decisions (CaDiCaL).
    pub decisions: u64,
    /// The deadline passed or Ctrl-C was pressed before the enumeration was complete.
    pub stopped: bool,
    /// Ctrl-C stopped it.
    pub interrupted: bool,
    /// Workers that ran, each with its own solver (one for a plain search, at most one
    /// per cube).
    pub threads: u64,
}

/// How many cubes to aim for. varisat, measured on the 8x8 pentomino square (65 models):
/// 16 cubes 60 s, 64 cubes 48 s, 256 cubes 43 s, 4096 cubes 108 s (each solver call
/// costs milliseconds even when the cube is empty), one plain enumeration 119 s. CaDiCaL
/// keeps what it learned across cubes, so the cubes only need to keep the workers
/// evenly loaded and give the progress display its steps.
fn cubes_wanted(backend: Backend, threads: usize) -> usize {
    match backend {
        // MiniSat and Glucose call per model as varisat does; Kissat starts afresh per
        // model anyway, so fewer cubes mean fewer fresh solvers.
        Backend::Varisat | Backend::Minisat | Backend::Glucose => 256,
        Backend::Kissat => 4 * threads.max(1),
        Backend::Cadical => 64 * threads.max(1),
    }
}

/// One worker's solver.
enum Worker {
    Varisat(super::varisat::Solver),
    #[cfg(feature = "c-solvers")]
    Minisat(super::bundled::Incremental<rustsat_minisat::core::Minisat>),
    #[cfg(feature = "c-solvers")]
    Glucose(super::bundled::Incremental<rustsat_glucose::core::Glucose>),
    #[cfg(feature = "c-solvers")]
    Kissat(super::bundled::Kissat),
    #[cfg(feature = "cadical")]
    Cadical(super::cadical::Solver),
}

impl Worker {
    fn new(
        opts: &SatOptions,
        formula: &Formula,
        #[cfg(feature = "cadical")] groups: Option<&Arc<Groups>>,
        sink: ModelSink,
        stop: Halt,
    ) -> Result<Option<Worker>> {
        let engine = opts.engine;
        match engine.backend {
            Backend::Varisat => {
                Ok(super::varisat::Solver::new(formula, sink, stop).map(Worker::Varisat))
            }
            #[cfg(feature = "cadical")]
            Backend::Cadical => Ok(super::cadical::Solver::new(
                formula,
                Arc::clone(groups.expect("groups are built for CaDiCaL")),
                engine.decide,
                &engine.cadical_options,
                sink,
                stop,
                engine.paranoid,
            )?
            .map(Worker::Cadical)),
            #[cfg(feature = "c-solvers")]
            Backend::Minisat => {
                super::bundled::Incremental::new(engine.backend, formula, sink, stop)
                    .map(|s| s.map(Worker::Minisat))
            }
            #[cfg(feature = "c-solvers")]
            Backend::Glucose => {
                super::bundled::Incremental::new(engine.backend, formula, sink, stop)
                    .map(|s| s.map(Worker::Glucose))
            }
            #[cfg(feature = "c-solvers")]
            Backend::Kissat => Ok(Some(Worker::Kissat(super::bundled::Kissat::new(
                formula, sink, stop,
            )))),
            #[allow(unreachable_patterns)]
            other => Err(Error::Usage(format!(
                "this polycover was built without {} (without the `{}` feature): \
                 use `{}`, or rebuild with the default features",
                other.name(),
                other.built().err().unwrap_or("default"),
                crate::setting::Setting::Backend.is("varisat")
            ))),
        }
    }

    fn run(&mut self, cube: &Cube) -> Result<Outcome> {
        match self {
            Worker::Varisat(s) => s.run(cube),
            #[cfg(feature = "c-solvers")]
            Worker::Minisat(s) => s.run(cube),
            #[cfg(feature = "c-solvers")]
            Worker::Glucose(s) => s.run(cube),
            #[cfg(feature = "c-solvers")]
            Worker::Kissat(s) => s.run(cube),
            #[cfg(feature = "cadical")]
            Worker::Cadical(s) => Ok(s.run(cube)),
        }
    }

    fn counters(&self) -> (u64, u64) {
        match self {
            Worker::Varisat(s) => (s.calls, 0),
            #[cfg(feature = "c-solvers")]
            Worker::Minisat(s) => (s.calls, 0),
            #[cfg(feature = "c-solvers")]
            Worker::Glucose(s) => (s.calls, 0),
            #[cfg(feature = "c-solvers")]
            Worker::Kissat(s) => (s.calls, 0),
            #[cfg(feature = "cadical")]
            Worker::Cadical(s) => (s.calls, s.decisions()),
        }
    }
}

/// Calls `f` with each model's solution (sorted options of `matrix`), on this thread,
/// and with the end of each cube ([`Step::Finished`], with its position in the cube
/// list and its models); `Break` stops. `progress` is called as models arrive and cubes
/// finish.
pub fn for_each_model(
    matrix: &Matrix,
    reduction: &Reduction,
    formula: &Formula,
    opts: &SatOptions,
    progress: Option<&dyn Fn(&Progress)>,
    f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
) -> Result<SatStats> {
    let start = Instant::now();
    let _listening = opts.stop.listen();
    let (cubes, threads) = cubes_and_threads(reduction, opts);
    let cubes: &[Cube] = &cubes;
    let stop = Halt::new(opts.stop.clone());
    // A cube's tally is nothing: its models are counted here, as they arrive.
    let pool: Pool<usize, u64> = Pool::new(0..cubes.len(), threads);
    // Bounded, so that a slow consumer (a pipe) holds the workers back instead of
    // queueing models without end. Each worker holds its own sender, and only they do,
    // so the consumer's loop ends when the last worker ends.
    let (tx, rx) = sync_channel::<Event>(1024);
    let starting = Starting {
        opts,
        formula,
        // The propagator's groups, shared by the CaDiCaL workers; varisat needs none.
        #[cfg(feature = "cadical")]
        groups: (opts.engine.backend == Backend::Cadical)
            .then(|| Arc::new(Groups::new(matrix, &reduction.kept_mask()))),
        matrix: Arc::new(matrix.clone()),
        senders: Mutex::new((0..threads).map(|_| Some(tx.clone())).collect()),
        stop: stop.clone(),
        cubes,
    };
    drop(tx);
    let mut consumer = Consumer {
        stats: SatStats {
            cubes: cubes.len() as u64,
            threads: threads as u64,
            ..SatStats::default()
        },
        models_in: vec![0; cubes.len()],
        failure: None,
        broken: false,
        f,
        stop: &stop,
        pool: &pool,
        progress,
        start,
    };
    let givings = Giving::for_workers(&pool, threads);
    let retire = |_: usize, w: Searching<'_>| {
        let (calls, decisions) = w.worker.counters();
        let _ = w.tx.send(Event::Finished { calls, decisions });
    };
    let mut consume = || {
        for event in &rx {
            consumer.hear(event);
        }
    };
    execute(
        &pool,
        &givings,
        &|k| starting.worker(k),
        &retire,
        Caller::Consumes(&mut consume),
    );
    if let Some(e) = consumer.failure {
        return Err(e);
    }
    let mut stats = consumer.stats;
    stats.stopped = !consumer.broken && stats.cubes_done < stats.cubes;
    stats.interrupted = stats.stopped && opts.stop.raised();
    Ok(stats)
}

/// The cubes an enumeration searches (the caller's, one empty cube for a plain search,
/// or the split's), and the workers it runs on.
fn cubes_and_threads<'c>(reduction: &Reduction, opts: &SatOptions<'c>) -> (Cow<'c, [Cube]>, usize) {
    let cubes: Cow<'c, [Cube]> = match (opts.cubes, opts.strategy) {
        (Some(given), _) => Cow::Borrowed(given),
        (None, Strategy::Plain) => Cow::Owned(vec![Vec::new()]),
        (None, Strategy::Cubes) => Cow::Owned(crate::solver::split::subproblems(
            reduction,
            cubes_wanted(opts.engine.backend, opts.threads),
        )),
    };
    let threads = match (opts.cubes, opts.strategy) {
        (None, Strategy::Plain) => 1,
        _ => crate::schedule::workers(opts.threads).min(cubes.len().max(1)),
    };
    (cubes, threads)
}

/// What every worker of an enumeration starts from: the formula and the engine's
/// settings, the propagator's groups, the matrix models are checked against, a sender
/// per worker, the stop and the cubes.
struct Starting<'a> {
    opts: &'a SatOptions<'a>,
    formula: &'a Formula,
    #[cfg(feature = "cadical")]
    groups: Option<Arc<Groups>>,
    matrix: Arc<Matrix>,
    senders: Mutex<Vec<Option<SyncSender<Event>>>>,
    stop: Halt,
    cubes: &'a [Cube],
}

impl<'a> Starting<'a> {
    /// Worker `k`, its solver loaded with the formula; `None` when it stopped while
    /// loading, or failed (the failure then sent, and the run stopped).
    fn worker(&self, k: usize) -> Option<Searching<'a>> {
        let tx = self.senders.lock().unwrap_or_else(|e| e.into_inner())[k].take()?;
        let current = Arc::new(AtomicUsize::new(0));
        let sink = ModelSink::new(
            Arc::clone(&self.matrix),
            Arc::clone(&current),
            tx.clone(),
            self.stop.clone(),
        );
        let worker = Worker::new(
            self.opts,
            self.formula,
            #[cfg(feature = "cadical")]
            self.groups.as_ref(),
            sink,
            self.stop.clone(),
        );
        match worker {
            Ok(Some(worker)) => Some(Searching {
                worker,
                current,
                tx,
                stop: self.stop.clone(),
                cubes: self.cubes,
            }),
            // Stopped while loading the formula: no cube was searched.
            Ok(None) => None,
            Err(e) => {
                // A failure stops every worker (those waiting for a cube too: this one's
                // leaving stops the pool).
                self.stop.set();
                let _ = tx.send(Event::Failed(e));
                None
            }
        }
    }
}

/// The calling thread's side of an enumeration: it hears the workers' events, hands
/// models and finished cubes to the caller's `f`, and keeps the statistics.
struct Consumer<'a, 'f> {
    stats: SatStats,
    /// Models per cube, for `Step::Finished`.
    models_in: Vec<u64>,
    failure: Option<Error>,
    /// The caller's `f` said `Break`.
    broken: bool,
    f: &'f mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    stop: &'a Halt,
    pool: &'a Pool<usize, u64>,
    progress: Option<&'a dyn Fn(&Progress)>,
    start: Instant,
}

impl Consumer<'_, '_> {
    fn hear(&mut self, event: Event) {
        let listening = !self.broken && self.failure.is_none();
        match event {
            Event::Model(cube, solution) if listening => {
                self.stats.models += 1;
                self.models_in[cube] += 1;
                self.tell(Step::Solution(&solution));
                self.report();
            }
            Event::Model(..) => {}
            Event::CubeDone(cube) => {
                self.stats.cubes_done += 1;
                if listening {
                    self.tell(Step::Finished {
                        subproblem: cube,
                        solutions: self.models_in[cube],
                    });
                }
                self.report();
            }
            Event::Failed(e) => {
                self.failure.get_or_insert(e);
            }
            Event::Finished { calls, decisions } => {
                self.stats.solver_calls += calls;
                self.stats.decisions += decisions;
            }
        }
    }

    /// Hands `step` to the caller; a `Break` stops every worker.
    fn tell(&mut self, step: Step<'_>) {
        if (self.f)(step).is_break() {
            self.broken = true;
            self.stop.set();
            self.pool.stop();
        }
    }

    fn report(&self) {
        if let Some(p) = self.progress {
            let (done, all) = (self.stats.cubes_done, self.stats.cubes);
            p(&Progress {
                unit: "cubes",
                parts_done: done as usize,
                parts: all as usize,
                solutions: self.stats.models,
                work: done as f64 / all.max(1) as f64,
                elapsed: self.start.elapsed().as_secs_f64(),
            });
        }
    }
}

/// A worker of a SAT enumeration: its solver, the cube it searches (which its models
/// name), and its sender to the consumer.
struct Searching<'a> {
    worker: Worker,
    current: Arc<AtomicUsize>,
    tx: SyncSender<Event>,
    stop: Halt,
    cubes: &'a [Cube],
}

impl schedule::Worker<usize, u64> for Searching<'_> {
    fn run(&mut self, job: &Job<usize>, _giving: &Giving<'_, usize, u64>) -> Option<u64> {
        if self.stop.now() {
            return None;
        }
        let k = job.root;
        self.current.store(k, Ordering::Relaxed);
        match self.worker.run(&self.cubes[k]) {
            // A cube's tally is nothing: its models are counted by the consumer, as they
            // arrive.
            Ok(Outcome::Exhausted) => Some(0),
            Ok(Outcome::Stopped) => None,
            Err(e) => {
                self.stop.set();
                let _ = self.tx.send(Event::Failed(e));
                None
            }
        }
    }

    fn root_done(&mut self, root: usize, _: u64) {
        let _ = self.tx.send(Event::CubeDone(root));
    }
}
