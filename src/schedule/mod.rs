//! The one scheduler every engine's threads run on: a pool of jobs that workers take, and
//! work requests, by which a busy search gives the branches nearest its root to idle
//! workers.
//!
//! # How it works
//!
//! A run starts from its *roots*: the subproblems of its deterministic split (native and
//! memo prefixes) or its SAT cubes, numbered by position. Each root is one job in the
//! pool. Workers take jobs first in, first out, so roots start in order. A worker that
//! finds the pool empty waits, and the count of waiting workers is published in an atomic
//! that a running search reads every few thousand nodes ([`Pool::wanted`]): when someone
//! waits, the search cuts off the untried options of its shallowest open level and gives
//! each one back as a job of the *same root* ([`Pool::give`]), a prefix one option longer.
//! This is the work-requesting scheme of parallel backtracking (and of cube-and-conquer's
//! dynamic splitting): the shallowest branches are the largest on average, so one gift
//! keeps the taker busy for a long time, and nobody pays for stealing while nobody waits.
//!
//! Each root keeps the number of its pieces still open and the tally (solutions) of those
//! finished. [`Pool::finish`] returns a root's whole tally exactly once, when its last
//! piece finishes: that is when a checkpoint may record the root and a progress display
//! count it. A run that stops leaves its unfinished roots unreported, so a checkpoint
//! never records a root a stolen piece of which did not finish, and a resumed run
//! redoes the whole root: it loses the stolen work but never doubles or drops a solution.
//!
//! Invariants:
//! - every job given is taken at most once, and, unless the run stops, exactly once;
//! - a root's tally is returned once, after every piece of it finished, and never for a
//!   root with a piece unfinished;
//! - the run ends when every worker waits on an empty pool, or when [`Pool::stop`] is
//!   called; then every waiting and every later [`Pool::take`] returns `None`.
//! - the searches never block on the pool: `wanted` is one relaxed atomic load.

use std::collections::VecDeque;
use std::ops::AddAssign;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

mod execute;

pub(crate) use execute::{execute, Caller, Giving, Piece, Worker};

/// Where a running search gives work to idle workers (the scheduler): it polls
/// [`Share::wanted`] with its stop check and, when asked, gives the untried options of its
/// shallowest open level as subproblems (prefixes one option longer) and skips them.
pub trait Share {
    /// Whether a worker waits for work now.
    fn wanted(&self) -> bool;
    /// Hands these subproblems (prefixes of options of the engine's matrix) to others.
    fn give(&self, prefixes: Vec<Vec<u32>>);
}

/// The share of a search that runs alone: nobody ever wants its work.
pub struct Alone;

impl Share for Alone {
    fn wanted(&self) -> bool {
        false
    }

    fn give(&self, _prefixes: Vec<Vec<u32>>) {
        unreachable!("a search running alone is never asked for work")
    }
}

/// The worker threads a run of `threads` asked for runs on: no more than the machine can
/// run at once (`std::thread::available_parallelism`, which respects the process's CPU
/// affinity and cgroup quota). More workers than cores would only take turns on the
/// cores, each evicting the others' search state from the caches: measured on 2 cores,
/// 16 DLX workers took 1.18x the CPU of 2 for the same Bedlam tree. Work stealing keeps
/// the cores that do run busy, so nothing is gained by more.
pub fn workers(threads: usize) -> usize {
    // One thread needs no count of cores: asking reads the cgroup's files, a tenth of a
    // millisecond that a small count would notice.
    if threads <= 1 {
        1
    } else {
        threads.min(cores())
    }
}

/// The cores this process may use (affinity and cgroup quota respected): the default
/// thread count, and the cap of [`workers`].
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A job of the pool: the root (the position of a subproblem or cube in the run's list)
/// and the work itself.
pub struct Job<J> {
    /// The root this job is a piece of.
    pub root: usize,
    /// The work: a prefix of options, or a cube.
    pub work: J,
}

/// The pool of a run on `workers` threads, with `T` the tally of a root's pieces.
pub struct Pool<J, T> {
    state: Mutex<State<J, T>>,
    wake: Condvar,
    /// Workers waiting for a job, less the jobs queued for them: what searches poll.
    hungry: AtomicUsize,
    workers: usize,
}

struct State<J, T> {
    jobs: VecDeque<Job<J>>,
    /// Per root: the pieces given and not yet finished.
    open: Vec<usize>,
    /// Per root: the tally of its finished pieces.
    tally: Vec<T>,
    waiting: usize,
    over: bool,
}

impl<J, T: Default + for<'a> AddAssign<&'a T>> Pool<J, T> {
    /// A pool holding `roots` as the jobs of roots 0, 1, ..., for `workers` workers (each
    /// of which must call [`Pool::take`] until it returns `None`).
    pub fn new(roots: impl IntoIterator<Item = J>, workers: usize) -> Self {
        let jobs: VecDeque<Job<J>> = roots
            .into_iter()
            .enumerate()
            .map(|(root, work)| Job { root, work })
            .collect();
        let n = jobs.len();
        Pool {
            state: Mutex::new(State {
                jobs,
                open: vec![1; n],
                tally: (0..n).map(|_| T::default()).collect(),
                waiting: 0,
                over: false,
            }),
            wake: Condvar::new(),
            hungry: AtomicUsize::new(0),
            workers: workers.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<J, T>> {
        // A worker that panicked while holding the lock leaves consistent counters (each
        // update is one statement), and the panic itself ends the run.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn publish(&self, state: &State<J, T>) {
        self.hungry.store(
            state.waiting.saturating_sub(state.jobs.len()),
            Ordering::Relaxed,
        );
    }

    /// The next job, waiting for one while other workers run; `None` when the run is over
    /// (every worker waits on an empty pool, or it was stopped).
    pub fn take(&self) -> Option<Job<J>> {
        let mut state = self.lock();
        loop {
            if state.over {
                return None;
            }
            if let Some(job) = state.jobs.pop_front() {
                self.publish(&state);
                return Some(job);
            }
            state.waiting += 1;
            if state.waiting == self.workers {
                // Nobody runs, so nobody can give: the run is over.
                state.over = true;
                self.publish(&state);
                self.wake.notify_all();
                return None;
            }
            self.publish(&state);
            state = self.wake.wait(state).unwrap_or_else(|e| e.into_inner());
            state.waiting -= 1;
        }
    }

    /// Whether a worker waits for a job that nobody has given yet: a running search then
    /// gives part of its work. One relaxed load, cheap enough to poll in a search.
    #[inline]
    pub fn wanted(&self) -> bool {
        self.hungry.load(Ordering::Relaxed) > 0
    }

    /// Gives `works` as new jobs of `root`, for waiting workers to take.
    pub fn give(&self, root: usize, works: impl IntoIterator<Item = J>) {
        let mut state = self.lock();
        let before = state.jobs.len();
        state
            .jobs
            .extend(works.into_iter().map(|work| Job { root, work }));
        let given = state.jobs.len() - before;
        state.open[root] += given;
        self.publish(&state);
        drop(state);
        for _ in 0..given.min(self.workers) {
            self.wake.notify_one();
        }
    }

    /// Records that one job of `root` finished with `tally`. Returns the root's whole
    /// tally when this was its last open piece (once per root), else `None`.
    pub fn finish(&self, root: usize, tally: &T) -> Option<T> {
        let mut state = self.lock();
        state.tally[root] += tally;
        state.open[root] -= 1;
        (state.open[root] == 0).then(|| std::mem::take(&mut state.tally[root]))
    }

    /// Ends the run: every waiting and later [`Pool::take`] returns `None`. Jobs still
    /// queued are dropped, and their roots are never reported finished.
    pub fn stop(&self) {
        let mut state = self.lock();
        state.over = true;
        self.publish(&state);
        self.wake.notify_all();
    }

    /// A guard for a worker's body: when the worker leaves, however it leaves, the run
    /// stops. The run ends only when *every* worker waits, so one that left early (the
    /// search stopped, it failed, it panicked) would leave the others waiting forever;
    /// one that leaves because [`Pool::take`] returned `None` finds the run over already.
    /// (A panic then reaches the caller when the threads are joined.)
    pub fn stop_when_leaving(&self) -> impl Drop + '_ {
        struct Guard<'p, J, T: Default + for<'a> AddAssign<&'a T>>(&'p Pool<J, T>);
        impl<J, T: Default + for<'a> AddAssign<&'a T>> Drop for Guard<'_, J, T> {
            fn drop(&mut self) {
                self.0.stop();
            }
        }
        Guard(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root split into pieces by `give` is reported once, with the sum of its pieces,
    /// only after the last piece finishes; the run ends when every worker waits.
    #[test]
    fn a_root_is_finished_by_its_last_piece() {
        let pool: Pool<u32, u64> = Pool::new([10, 20], 2);
        let a = pool.take().unwrap();
        assert_eq!((a.root, a.work), (0, 10));
        pool.give(0, [11, 12]);
        assert_eq!(pool.finish(0, &1), None);
        let b = pool.take().unwrap();
        assert_eq!((b.root, b.work), (1, 20));
        assert_eq!(pool.finish(1, &5), Some(5));
        let c = pool.take().unwrap();
        assert_eq!(pool.finish(c.root, &2), None);
        let d = pool.take().unwrap();
        assert_eq!(pool.finish(d.root, &3), Some(6));
        // One worker alone waits forever unless the other one also waits.
        std::thread::scope(|s| {
            let other = s.spawn(|| pool.take().is_none());
            assert!(pool.take().is_none());
            assert!(other.join().unwrap());
        });
    }

    /// `wanted` says a worker waits with nothing queued, and turns off once work is given.
    #[test]
    fn a_waiting_worker_is_wanted_until_given_work() {
        let pool: Pool<u32, u64> = Pool::new([1], 2);
        let first = pool.take().unwrap();
        assert!(!pool.wanted());
        std::thread::scope(|s| {
            let taker = s.spawn(|| pool.take().map(|j| j.work));
            while !pool.wanted() {
                std::thread::yield_now();
            }
            pool.give(first.root, [7]);
            assert_eq!(taker.join().unwrap(), Some(7));
        });
        assert!(!pool.wanted());
        assert_eq!(pool.finish(0, &1), None);
        assert_eq!(pool.finish(0, &1), Some(2));
    }

    /// Work stealing over threads: a binary tree of depth 16 searched from one root by 4
    /// workers, each giving its shallowest untried branch when someone waits, counts every
    /// leaf once.
    #[test]
    fn stealing_counts_every_leaf_once() {
        const DEPTH: u32 = 16;
        let pool: Pool<(u32, u32), u64> = Pool::new([(0, 0)], 4);
        let total = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    while let Some(job) = pool.take() {
                        // A job is (depth, path); an explicit stack of right branches.
                        let mut stack = vec![job.work];
                        let mut leaves = 0u64;
                        while let Some((d, p)) = stack.pop() {
                            if pool.wanted() && !stack.is_empty() {
                                // The shallowest pending branch goes to a waiting worker.
                                let shallowest = stack.remove(0);
                                pool.give(job.root, [shallowest]);
                            }
                            if d == DEPTH {
                                leaves += 1;
                            } else {
                                stack.push((d + 1, p * 2 + 1));
                                stack.push((d + 1, p * 2));
                            }
                        }
                        if let Some(n) = pool.finish(job.root, &leaves) {
                            total.fetch_add(n, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert_eq!(total.into_inner(), 1 << DEPTH);
    }
}
