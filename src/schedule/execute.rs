//! The one worker loop of every engine's threads: [`execute`] spawns the workers, each
//! takes jobs from the run's [`Pool`] until it is over, runs each with its engine's
//! [`Worker`], and hands each root's whole tally, once, to the worker that finished its
//! last piece. What differs between engines is what they supply: a worker's state and its
//! search of one job ([`Worker`]), and how a branch given away becomes a job ([`Piece`]).
//!
//! Invariants:
//! - a job is run by one worker, its root marked in that worker's [`Giving`] first, so
//!   that what the search gives away becomes jobs of the same root;
//! - a worker that leaves, however it leaves (the pool is over, its job was stopped, it
//!   could not start, it panicked), stops the pool, so no other worker waits for ever;
//! - every worker that started is retired once, on its own thread, after its last job.

use std::ops::AddAssign;
use std::sync::Mutex;

use super::{Job, Pool, Share};

/// A job's work that a running search can cut: a branch it gives away (a prefix of
/// options) becomes a job of the same kind, marked like the job it came from.
pub(crate) trait Piece: Sized {
    /// What a piece inherits from the job it was cut from.
    type Mark: Copy + Default + Send;
    /// The mark of this job, for its pieces.
    fn mark(&self) -> Self::Mark;
    /// The job of a given branch `prefix`, cut from a job marked `mark`.
    fn piece(mark: Self::Mark, prefix: Vec<u32>) -> Self;
}

/// A native search's job: a prefix of options of the reduced matrix.
impl Piece for Vec<u32> {
    type Mark = ();
    fn mark(&self) {}
    fn piece((): (), prefix: Vec<u32>) -> Self {
        prefix
    }
}

/// A SAT cube, by its position in the run's list: cubes are searched whole.
impl Piece for usize {
    type Mark = ();
    fn mark(&self) {}
    fn piece((): (), _prefix: Vec<u32>) -> Self {
        unreachable!("a SAT cube is searched whole, never given away in pieces")
    }
}

/// One worker's part of a run: its engine's state (a search, its tables, its counters)
/// and how it runs one job.
pub(crate) trait Worker<J: Piece, T> {
    /// Runs `job`, giving branches to waiting workers through `giving` when it asks;
    /// returns the job's tally, or `None` when the run must end (a stop, a failure, which
    /// the worker records where its engine reads it).
    fn run(&mut self, job: &Job<J>, giving: &Giving<'_, J, T>) -> Option<T>;

    /// Hears that `root` finished, with its whole tally: this worker finished its last
    /// piece. Once per root.
    fn root_done(&mut self, root: usize, tally: T);
}

/// Where a worker's running search gives work away (its [`Share`]): the branches become
/// jobs of the root it runs, marked like its job.
pub(crate) struct Giving<'p, J: Piece, T> {
    pool: &'p Pool<J, T>,
    /// The running job's root and mark: set at each job, read at each gift (rare).
    running: Mutex<(usize, J::Mark)>,
}

impl<'p, J: Piece, T: Default + for<'a> AddAssign<&'a T>> Giving<'p, J, T> {
    /// One for each of `workers` workers of `pool`.
    pub(crate) fn for_workers(pool: &'p Pool<J, T>, workers: usize) -> Vec<Giving<'p, J, T>> {
        (0..workers)
            .map(|_| Giving {
                pool,
                running: Mutex::new((0, J::Mark::default())),
            })
            .collect()
    }
}

impl<J: Piece, T: Default + for<'a> AddAssign<&'a T>> Share for Giving<'_, J, T> {
    fn wanted(&self) -> bool {
        self.pool.wanted()
    }

    fn give(&self, prefixes: Vec<Vec<u32>>) {
        let (root, mark) = *self.running.lock().unwrap_or_else(|e| e.into_inner());
        self.pool
            .give(root, prefixes.into_iter().map(|p| J::piece(mark, p)));
    }
}

/// What the calling thread does while the workers run.
pub(crate) enum Caller<'c> {
    /// It is worker 0.
    Works,
    /// It runs this (the SAT enumeration's consumer of models) while every worker runs
    /// on a thread of its own.
    Consumes(&'c mut dyn FnMut()),
}

/// Runs `pool`'s jobs on one worker per [`Giving`] in `givings` (made for this pool): each
/// worker thread makes its state with `make` (its number; `None`: it could not start,
/// which leaves the run), runs jobs until the pool is over or a job returns `None`, and is
/// handed to `retire` (its number and state) at its end.
pub(crate) fn execute<J, T, W>(
    pool: &Pool<J, T>,
    givings: &[Giving<'_, J, T>],
    make: &(dyn Fn(usize) -> Option<W> + Sync),
    retire: &(dyn Fn(usize, W) + Sync),
    caller: Caller<'_>,
) where
    J: Piece + Send,
    T: Default + for<'a> AddAssign<&'a T> + Send,
    W: Worker<J, T>,
{
    let work = |k: usize| {
        let _leaving = pool.stop_when_leaving();
        let Some(mut worker) = make(k) else {
            return;
        };
        let giving = &givings[k];
        while let Some(job) = pool.take() {
            *giving.running.lock().unwrap_or_else(|e| e.into_inner()) = (job.root, job.work.mark());
            let Some(tally) = worker.run(&job, giving) else {
                break;
            };
            if let Some(all) = pool.finish(job.root, &tally) {
                worker.root_done(job.root, all);
            }
        }
        retire(k, worker);
    };
    std::thread::scope(|s| {
        let first = match caller {
            Caller::Works => 1,
            Caller::Consumes(_) => 0,
        };
        for k in first..givings.len() {
            let work = &work;
            s.spawn(move || work(k));
        }
        match caller {
            Caller::Works => work(0),
            Caller::Consumes(consume) => consume(),
        }
    });
}
