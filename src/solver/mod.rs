//! The native engines and the driver that runs them over a symmetry [`Reduction`].
//!
//! An [`Engine`] searches one exact-cover matrix. The driver hands every engine the
//! reduced matrix, maps its solutions back to the original options, keeps the canonical
//! ones, and splits the search near the root so that several threads can share it.
//!
//! Invariant: an engine reports each exact cover of its matrix exactly once, and a
//! `prefix` given to it always comes from its own [`Engine::branch`] calls.
//!
//! Both engines branch on the unit item with the fewest remaining options and break ties
//! in favour of the item listed last. Puzzle kinds list cells before pieces, so a tie
//! goes to a piece: on Bedlam that walks 17% fewer nodes than preferring cells. With the
//! same rule the two engines walk the same tree and report the same node counts, which
//! the tests check.

pub(crate) mod bits;
mod compact;
mod descent;
mod dlx;
pub(crate) mod engine;
mod estimate;
mod links;
mod mask;
pub(crate) mod memo;
mod segments;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::matrix::Matrix;
use crate::subproblems::{split, Progress, Step};
use crate::symmetry::Reduction;

pub use compact::Kernel;
pub use engine::{Branch, Engine, Visit};
pub use estimate::{Budget, Estimate, MOST as ESTIMATE_MOST};

/// How a native engine is built for a matrix: `dlx` or `bits`.
pub type Build = fn(&Matrix) -> Box<dyn Engine>;

/// What the driver calls for each worker thread's engine: a [`Build`], or one that hands
/// out an engine built earlier (see `engine::native`, which builds one to describe it).
pub type Builder<'a> = &'a (dyn Fn(&Matrix) -> Box<dyn Engine> + Sync);

/// Dancing links: the reference.
pub fn dlx(matrix: &Matrix) -> Box<dyn Engine> {
    Box::new(dlx::Dlx::new(matrix))
}

/// The bitset engine sized for the matrix: list segments, plain masks, or the DLX for
/// matrices it cannot hold.
pub fn bits(matrix: &Matrix) -> Box<dyn Engine> {
    bits::build(matrix)
}

/// What a run found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Distinct solutions (one per orbit).
    pub solutions: u64,
    /// Solutions of the reduced matrix, before the canonical-form check.
    pub found: u64,
    pub nodes: u64,
    /// The deadline stopped the run (or the caller did), so `solutions` is a lower bound.
    pub stopped: bool,
    /// The deadline, not the caller, stopped it.
    pub timed_out: bool,
    /// Ctrl-C stopped it.
    pub interrupted: bool,
}

/// Called as subproblems finish. The share of work done weighs each subproblem by its
/// estimated tree size, so that an ETA drawn from it follows the work, not the count.
pub type OnProgress<'a> = &'a (dyn Fn(&Progress) + Sync);

/// Knuth's estimate of how many nodes the native search of `matrix` visits (the DLX and
/// the bitset engine walk the same tree), from up to `probes` random paths within
/// `budget`: a rough figure (it is unbiased, but one probe can be off by orders of
/// magnitude), for choosing an engine.
pub fn estimated_nodes(matrix: &Matrix, probes: usize, budget: &Budget) -> Estimate {
    estimate::whole_tree(dlx(matrix).as_mut(), probes, budget)
}

/// The machine's core count, the default for `--threads`.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Called as a subproblem of a given list finishes: its position in the list and the
/// distinct solutions it had.
pub type Finished<'a> = &'a (dyn Fn(usize, u64) + Sync);

/// Counts the distinct solutions of the reduced problem on `threads` threads. The
/// deadline is checked at each solution found and, between solutions, every few thousand
/// nodes (the engines' stop check reads it as this thread's deadline).
///
/// `jobs`: only these subproblems (prefixes of reduced options, from `crate::subproblems::subproblems`
/// through `crate::subproblems::reduced_prefix`), with `finished` called as each one ends. `None`: the whole
/// search, split as suits the thread count.
#[allow(clippy::too_many_arguments)]
pub fn count(
    reduction: &Reduction,
    build: Builder<'_>,
    jobs: Option<&[Vec<u32>]>,
    threads: usize,
    deadline: Option<Instant>,
    progress: Option<OnProgress<'_>>,
    finished: Option<Finished<'_>>,
) -> Stats {
    let _listening = crate::interrupt::Listening::start();
    let start = Instant::now();
    let matrix = reduction.matrix();
    let mut root = build(matrix);
    let own;
    let jobs = match jobs {
        Some(j) => j,
        None => {
            // About 48 subproblems per thread keep the load even.
            own = split(root.as_mut(), 48 * threads.max(1));
            &own
        }
    };
    // Sizes only for a progress display: a few random probes per subproblem, within a
    // budget that leaves the run its time and hears Ctrl-C. Unknown sizes weigh every
    // subproblem alike.
    let sizes = match progress {
        Some(_) => {
            let budget = Budget::new(estimate::MOST, deadline, &crate::interrupt::requested);
            estimate::tree_sizes(root.as_mut(), jobs, &budget)
                .unwrap_or_else(|| vec![1.0; jobs.len()])
        }
        None => Vec::new(),
    };
    let all: f64 = sizes.iter().sum();
    let work_done = Mutex::new(0.0f64);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let so_far = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let timed_out = AtomicBool::new(false);
    let total = Mutex::new(Stats::default());
    let check = reduction.needs_check();
    let work = |engine: &mut dyn Engine| {
        let mut local = Stats::default();
        let mut original = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(prefix) = jobs.get(k) else { break };
            let before = local.solutions;
            let flow = engine.run(prefix, &mut |solution| {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    timed_out.store(true, Ordering::Relaxed);
                    return ControlFlow::Break(());
                }
                if stop.load(Ordering::Relaxed) {
                    return ControlFlow::Break(());
                }
                local.found += 1;
                if check {
                    original.clear();
                    original.extend(solution.iter().map(|&o| reduction.original(o)));
                    if !reduction.is_canonical(&original) {
                        return ControlFlow::Continue(());
                    }
                }
                debug_assert_eq!(matrix.check_solution(solution), Ok(()));
                local.solutions += 1;
                ControlFlow::Continue(())
            });
            if flow.is_break() {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    timed_out.store(true, Ordering::Relaxed);
                }
                stop.store(true, Ordering::Relaxed);
                break;
            }
            if let Some(f) = finished {
                f(k, local.solutions - before);
            }
            let found = so_far.fetch_add(local.solutions - before, Ordering::Relaxed)
                + (local.solutions - before);
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(p) = progress {
                let share = {
                    let mut w = work_done.lock().unwrap_or_else(|e| e.into_inner());
                    *w += sizes[k];
                    (*w / all).min(1.0)
                };
                p(&Progress {
                    unit: "subproblems",
                    parts_done: finished,
                    parts: jobs.len(),
                    solutions: found,
                    work: share,
                    elapsed: start.elapsed().as_secs_f64(),
                });
            }
        }
        local.nodes = engine.nodes();
        let mut t = total.lock().unwrap_or_else(|e| e.into_inner());
        t.solutions += local.solutions;
        t.found += local.found;
        t.nodes += local.nodes;
    };
    let threads = threads.clamp(1, jobs.len().max(1));
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(|| {
                let mut engine = build(matrix);
                crate::interrupt::within(deadline, || work(engine.as_mut()));
            });
        }
        crate::interrupt::within(deadline, || work(root.as_mut()));
    });
    let mut stats = total.into_inner().unwrap_or_else(|e| e.into_inner());
    stats.stopped = stop.into_inner();
    stats.timed_out = timed_out.into_inner();
    stats.interrupted = stats.stopped && crate::interrupt::requested();
    stats
}

/// Calls `f` with each distinct solution, as sorted options of the *original* matrix,
/// in search order, on this thread. `f` returns `Break` to stop; so does the deadline,
/// checked at each solution and every few thousand nodes between them.
pub fn for_each(
    reduction: &Reduction,
    build: Builder<'_>,
    deadline: Option<Instant>,
    f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
) -> Stats {
    for_each_in(
        reduction,
        build,
        &[Vec::new()],
        deadline,
        &mut |step| match step {
            Step::Solution(s) => f(s),
            Step::Finished { .. } => ControlFlow::Continue(()),
        },
    )
}

/// [`for_each`] over the subproblems `jobs` (prefixes of reduced options), one after the
/// other: `f` also hears when each ends ([`Step::Finished`] with its position in `jobs`).
pub fn for_each_in(
    reduction: &Reduction,
    build: Builder<'_>,
    jobs: &[Vec<u32>],
    deadline: Option<Instant>,
    f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
) -> Stats {
    let _listening = crate::interrupt::Listening::start();
    let mut engine = build(reduction.matrix());
    let mut stats = Stats::default();
    let mut original = Vec::new();
    let mut timed_out = false;
    let mut flow = ControlFlow::Continue(());
    for (k, prefix) in jobs.iter().enumerate() {
        let before = stats.solutions;
        // The deadline as this thread's, so that the engine's stop check hears it between
        // solutions.
        flow = crate::interrupt::within(deadline, || {
            engine.run(prefix, &mut |solution| {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    timed_out = true;
                    return ControlFlow::Break(());
                }
                stats.found += 1;
                original.clear();
                original.extend(solution.iter().map(|&o| reduction.original(o)));
                original.sort_unstable();
                if !reduction.is_canonical(&original) {
                    return ControlFlow::Continue(());
                }
                stats.solutions += 1;
                f(Step::Solution(&original))
            })
        });
        // Ctrl-C and the deadline end `run` with Break: that subproblem is not done.
        if flow.is_break() {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                timed_out = true;
            }
            break;
        }
        flow = f(Step::Finished {
            subproblem: k,
            solutions: stats.solutions - before,
        });
        if flow.is_break() {
            break;
        }
    }
    stats.nodes = engine.nodes();
    stats.stopped = flow.is_break();
    stats.timed_out = timed_out;
    stats.interrupted = stats.stopped && crate::interrupt::requested();
    stats
}
