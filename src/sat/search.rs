//! What the enumeration and a backend's search share: the cube to search, the stop to
//! heed, the sink the models go to, and how the search of a cube ended. The enumeration
//! (`enumerate.rs`) hands these to each backend (`cadical.rs`, `varisat.rs`); the
//! backends depend on this module, never on the enumeration.
//!
//! Invariants:
//! - A model reaches the enumeration only through [`ModelSink::model`], which checks it
//!   against the matrix as an exact cover first, on the worker's thread.
//! - [`Halt::now`] is the one answer to "stop?": the caller's `Break`, a failed check,
//!   the run's stop (its deadline, Ctrl-C) all show there, so every solver callback that polls it sees
//!   every reason.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::Arc;

use crate::error::Error;
use crate::matrix::Matrix;
use crate::stop::Stop;

/// A cube: options of the original matrix assumed true.
pub(super) type Cube = Vec<u32>;

/// The reasons to stop, shared by the workers, their solvers' callbacks and the caller:
/// the run's [`Stop`], and a flag of the enumeration's own.
#[derive(Clone)]
pub(super) struct Halt(Arc<HaltState>);

struct HaltState {
    flag: AtomicBool,
    run: Stop,
}

impl Halt {
    pub(super) fn new(run: Stop) -> Halt {
        Halt(Arc::new(HaltState {
            flag: AtomicBool::new(false),
            run,
        }))
    }

    /// Stops every worker: a `Break`, a failure.
    pub(super) fn set(&self) {
        self.0.flag.store(true, Ordering::Relaxed);
    }

    /// Whether to stop now.
    pub(super) fn now(&self) -> bool {
        self.0.flag.load(Ordering::Relaxed) || self.0.run.should_stop()
    }
}

/// What a worker tells the caller.
pub(super) enum Event {
    /// A model found in the cube at this position of the cube list.
    Model(usize, Vec<u32>),
    CubeDone(usize),
    Failed(Error),
    Finished {
        calls: u64,
        decisions: u64,
    },
}

/// Where a worker's solver puts its models: checked, then sent to the caller.
pub(super) struct ModelSink {
    matrix: Arc<Matrix>,
    /// The position of the cube the worker is searching.
    cube: Arc<AtomicUsize>,
    events: SyncSender<Event>,
    stop: Halt,
}

impl ModelSink {
    /// The sink of one worker: `cube` holds the position of the cube it searches.
    pub(super) fn new(
        matrix: Arc<Matrix>,
        cube: Arc<AtomicUsize>,
        events: SyncSender<Event>,
        stop: Halt,
    ) -> ModelSink {
        ModelSink {
            matrix,
            cube,
            events,
            stop,
        }
    }

    /// Takes a model (sorted true primary options); `false` when the enumeration is to
    /// stop.
    pub(super) fn model(&self, solution: &[u32]) -> bool {
        if let Err(e) = self.matrix.cover_fault(solution) {
            self.stop.set();
            let _ = self.events.send(Event::Failed(Error::Failed(format!(
                "internal error: a SAT model is not a solution: {e}"
            ))));
            return false;
        }
        let cube = self.cube.load(Ordering::Relaxed);
        if self
            .events
            .send(Event::Model(cube, solution.to_vec()))
            .is_err()
        {
            return false;
        }
        !self.stop.now()
    }
}

/// How a worker's search of one cube ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    Exhausted,
    Stopped,
}

/// Clauses a solver loads between two looks at the stop: loading a formula of millions
/// of clauses takes seconds, and a deadline or Ctrl-C must not wait for it.
pub(super) const LOAD_STOP_EVERY: usize = 1 << 16;
