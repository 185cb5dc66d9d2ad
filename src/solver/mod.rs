//! The native engines and the driver that runs them over a symmetry [`Reduction`].
//!
//! A native search ([`Backtrack`]) walks one exact-cover matrix. The driver hands every engine the
//! reduced matrix, maps its solutions back to the original options, keeps the canonical
//! ones, and splits the search near the root so that several threads can share it.
//!
//! Invariant: an engine reports each exact cover of its matrix exactly once, and a
//! `prefix` given to it always comes from its own [`Backtrack::branch`] calls.
//!
//! Both engines branch on the unit item with the fewest remaining options and break ties
//! in favour of the item listed last. Puzzle kinds list cells before pieces, so a tie
//! goes to a piece: on Bedlam that walks 17% fewer nodes than preferring cells. With the
//! same rule the two engines walk the same tree and report the same node counts, which
//! the tests check.

pub(crate) mod backtrack;
pub(crate) mod bits;
mod compact;
mod descent;
mod dlx;
mod estimate;
mod links;
mod mask;
pub(crate) mod memo;
mod segments;
pub(crate) mod split;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::stop::Stop;

use crate::matrix::Matrix;
use crate::schedule::{execute, Caller, Giving, Job, Pool, Worker};
use crate::subproblems::{Progress, Step};
use crate::symmetry::Reduction;
use split::split;

pub use backtrack::{Backtrack, Branch};
pub use estimate::{Budget, Estimate};

/// How a native engine is built for a matrix: `dlx` or `bits`.
pub type Build = fn(&Matrix) -> Box<dyn Backtrack>;

/// What the driver calls for each worker thread's engine: a [`Build`], or one that hands
/// out an engine built earlier (see `engine::native`, which builds one to describe it).
pub type Builder<'a> = &'a (dyn Fn(&Matrix) -> Box<dyn Backtrack> + Sync);

/// Dancing links: the reference.
pub fn dlx(matrix: &Matrix) -> Box<dyn Backtrack> {
    Box::new(dlx::Dlx::new(matrix))
}

/// The bitset engine sized for the matrix: list segments, plain masks, or the DLX for
/// matrices it cannot hold.
pub fn bits(matrix: &Matrix) -> Box<dyn Backtrack> {
    bits::build(matrix)
}

/// What a run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// The nodes each worker thread visited (of a count; empty for a listing, which runs
    /// on the caller's thread).
    pub workers: Vec<u64>,
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

/// Knuth's estimate of how many solutions the bitset search of `matrix` finds (before any
/// check of canonical forms), from `probes` random paths `depth` levels down (`seed`
/// picks them), each with the solutions below its end counted: unbiased, within a factor
/// of two or so at a hundred probes on 4x4x4 puzzles; `None` when `stop` ended the first
/// probe.
pub(crate) fn estimated_solutions_below(
    matrix: &Matrix,
    probes: usize,
    depth: usize,
    seed: u64,
    stop: &Stop,
) -> Option<f64> {
    estimate::solutions_below(bits(matrix).as_mut(), probes, depth, seed, stop)
}

/// Called as a subproblem of a given list finishes: its position in the list and the
/// distinct solutions it had.
pub type Finished<'a> = &'a (dyn Fn(usize, u64) + Sync);

/// Counts the distinct solutions of the reduced problem on `threads` threads (at most one
/// per core: `schedule::workers`). `stop` is checked at each solution found and, between
/// solutions, every few thousand nodes.
///
/// `jobs`: only these subproblems (prefixes of reduced options, from `split::subproblems`
/// through `split::reduced_prefix`), with `finished` called as each one ends. `None`: the whole
/// search, split as suits the thread count. Either way the subproblems are the roots of
/// the run's `schedule::Pool`: a worker that runs out of them takes branches
/// that a running search gives away, and a root is finished (and `finished` hears it)
/// when all its pieces are.
#[allow(clippy::too_many_arguments)]
pub fn count(
    reduction: &Reduction,
    build: Builder<'_>,
    jobs: Option<&[Vec<u32>]>,
    threads: usize,
    stop: &Stop,
    progress: Option<OnProgress<'_>>,
    finished: Option<Finished<'_>>,
) -> Stats {
    count_on(
        reduction,
        build,
        jobs,
        crate::schedule::workers(threads),
        stop,
        progress,
        finished,
    )
}

/// [`count`] on exactly `workers` threads, however many cores there are.
#[allow(clippy::too_many_arguments)]
pub(crate) fn count_on(
    reduction: &Reduction,
    build: Builder<'_>,
    jobs: Option<&[Vec<u32>]>,
    workers: usize,
    stop: &Stop,
    progress: Option<OnProgress<'_>>,
    finished: Option<Finished<'_>>,
) -> Stats {
    let _listening = stop.listen();
    let start = Instant::now();
    let matrix = reduction.matrix();
    let workers = workers.max(1);
    let mut root = build(matrix);
    let own;
    let jobs = match jobs {
        Some(j) => j,
        None => {
            // Enough roots that the first ones handed out keep every worker busy without
            // asking for work at once, and that the progress display moves: stealing
            // evens out the rest.
            own = split(root.as_mut(), 48 * workers);
            &own
        }
    };
    // Sizes only for a progress display: a few random probes per subproblem, within a
    // budget that leaves the run its time and hears Ctrl-C. Unknown sizes weigh every
    // subproblem alike.
    let sizes = match progress {
        Some(_) => {
            let budget = Budget::new(estimate::MOST, stop);
            estimate::tree_sizes(root.as_mut(), jobs, &budget)
                .unwrap_or_else(|| vec![1.0; jobs.len()])
        }
        None => Vec::new(),
    };
    let shared = Shared {
        reduction,
        check: reduction.needs_check(),
        stop,
        stopped: AtomicBool::new(false),
        timed_out: AtomicBool::new(false),
        start,
        jobs: jobs.len(),
        sizes: &sizes,
        all: sizes.iter().sum(),
        work_done: Mutex::new(0.0),
        done: AtomicUsize::new(0),
        so_far: AtomicU64::new(0),
        progress,
        finished,
    };
    let pool: Pool<Vec<u32>, u64> = Pool::new(jobs.iter().cloned(), workers);
    let givings = Giving::for_workers(&pool, workers);
    let root = Mutex::new(Some(root));
    let total = Mutex::new(Stats {
        workers: vec![0; workers],
        ..Stats::default()
    });
    let make = |k: usize| {
        let built = (k == 0).then(|| root.lock().unwrap_or_else(|e| e.into_inner()).take());
        Some(Counting {
            engine: built.flatten().unwrap_or_else(|| build(matrix)),
            shared: &shared,
            local: Stats::default(),
            original: Vec::new(),
        })
    };
    let retire = |k: usize, w: Counting<'_>| {
        let mut t = total.lock().unwrap_or_else(|e| e.into_inner());
        t.solutions += w.local.solutions;
        t.found += w.local.found;
        t.nodes += w.engine.nodes();
        t.workers[k] = w.engine.nodes();
    };
    execute(&pool, &givings, &make, &retire, Caller::Works);
    let mut stats = total.into_inner().unwrap_or_else(|e| e.into_inner());
    stats.stopped = shared.stopped.into_inner();
    stats.timed_out = shared.timed_out.into_inner();
    stats.interrupted = stats.stopped && stop.raised();
    stats
}

/// What the workers of a native count share: the reduction, the stop and how it stopped,
/// and the tallies and progress of the finished subproblems.
struct Shared<'a> {
    reduction: &'a Reduction,
    check: bool,
    stop: &'a Stop,
    stopped: AtomicBool,
    timed_out: AtomicBool,
    start: Instant,
    jobs: usize,
    /// Each subproblem's estimated tree size (empty without a progress display).
    sizes: &'a [f64],
    all: f64,
    work_done: Mutex<f64>,
    done: AtomicUsize,
    so_far: AtomicU64,
    progress: Option<OnProgress<'a>>,
    finished: Option<Finished<'a>>,
}

/// A worker of a native count: its engine, and the solutions it found.
struct Counting<'a> {
    engine: Box<dyn Backtrack>,
    shared: &'a Shared<'a>,
    local: Stats,
    /// Scratch: a solution's options in the original matrix.
    original: Vec<u32>,
}

impl Worker<Vec<u32>, u64> for Counting<'_> {
    fn run(&mut self, job: &Job<Vec<u32>>, giving: &Giving<'_, Vec<u32>, u64>) -> Option<u64> {
        let shared = self.shared;
        let before = self.local.solutions;
        let (local, original) = (&mut self.local, &mut self.original);
        let flow = self.engine.run_shared(
            &job.work,
            &mut |solution| {
                if shared.stop.timed_out() {
                    shared.timed_out.store(true, Ordering::Relaxed);
                    return ControlFlow::Break(());
                }
                if shared.stopped.load(Ordering::Relaxed) {
                    return ControlFlow::Break(());
                }
                local.found += 1;
                if shared.check {
                    original.clear();
                    original.extend(solution.iter().map(|&o| shared.reduction.original(o)));
                    if !shared.reduction.is_canonical(original) {
                        return ControlFlow::Continue(());
                    }
                }
                debug_assert_eq!(shared.reduction.matrix().cover_fault(solution), Ok(()));
                local.solutions += 1;
                ControlFlow::Continue(())
            },
            giving,
            shared.stop,
        );
        if flow.is_break() {
            if shared.stop.timed_out() {
                shared.timed_out.store(true, Ordering::Relaxed);
            }
            shared.stopped.store(true, Ordering::Relaxed);
            return None;
        }
        Some(self.local.solutions - before)
    }

    fn root_done(&mut self, root: usize, n: u64) {
        let shared = self.shared;
        if let Some(f) = shared.finished {
            f(root, n);
        }
        let found = shared.so_far.fetch_add(n, Ordering::Relaxed) + n;
        let finished = shared.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(p) = shared.progress {
            let share = {
                let mut w = shared.work_done.lock().unwrap_or_else(|e| e.into_inner());
                *w += shared.sizes[root];
                (*w / shared.all).min(1.0)
            };
            p(&Progress {
                unit: "subproblems",
                parts_done: finished,
                parts: shared.jobs,
                solutions: found,
                work: share,
                elapsed: shared.start.elapsed().as_secs_f64(),
            });
        }
    }
}

/// Calls `f` with each distinct solution, as sorted options of the *original* matrix,
/// in search order, on this thread. `f` returns `Break` to stop; so does the deadline,
/// checked at each solution and every few thousand nodes between them.
pub fn for_each(
    reduction: &Reduction,
    build: Builder<'_>,
    stop: &Stop,
    f: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
) -> Stats {
    for_each_in(
        reduction,
        build,
        &[Vec::new()],
        stop,
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
    stop: &Stop,
    f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
) -> Stats {
    walk(&mut *build(reduction.matrix()), reduction, jobs, stop, f)
}

/// [`for_each_in`] on an engine the caller built (and may read afterwards).
fn walk(
    engine: &mut dyn Backtrack,
    reduction: &Reduction,
    jobs: &[Vec<u32>],
    stop: &Stop,
    f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
) -> Stats {
    let _listening = stop.listen();
    let mut stats = Stats::default();
    let mut original = Vec::new();
    let mut timed_out = false;
    let mut flow = ControlFlow::Continue(());
    for (k, prefix) in jobs.iter().enumerate() {
        let before = stats.solutions;
        flow = engine.run(
            prefix,
            &mut |solution| {
                if stop.timed_out() {
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
            },
            stop,
        );
        // Ctrl-C and the deadline end `run` with Break: that subproblem is not done.
        if flow.is_break() {
            if stop.timed_out() {
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
    stats.interrupted = stats.stopped && stop.raised();
    stats
}

/// The DLX's whole search tree of the reduced problem, walked from the root on this
/// thread (what `design::difficulty` measures).
pub(crate) struct Tree {
    /// Nodes visited, the root included.
    pub(crate) nodes: u64,
    /// Nodes where an item had no option left (see `Dlx::dead_ends`).
    pub(crate) dead_ends: u64,
    /// Solutions of the reduced matrix, and the distinct ones among them.
    pub(crate) found: u64,
    pub(crate) solutions: u64,
    /// Ctrl-C or the deadline stopped the walk: the figures are lower bounds.
    pub(crate) stopped: bool,
}

/// Walks the DLX's whole tree of `reduction` (see [`Tree`]), until `stop` says stop.
pub(crate) fn dlx_tree(reduction: &Reduction, stop: &Stop) -> Tree {
    let mut engine = dlx::Dlx::new(reduction.matrix());
    let stats = walk(&mut engine, reduction, &[Vec::new()], stop, &mut |_| {
        ControlFlow::Continue(())
    });
    Tree {
        nodes: stats.nodes,
        dead_ends: engine.dead_ends(),
        found: stats.found,
        solutions: stats.solutions,
        stopped: stats.stopped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;

    /// The most unbalanced split there is, one subproblem holding the whole tree, run by
    /// four workers: the three that find no subproblem take branches the busy one gives
    /// away, so every worker visits nodes, and the count is still exact (the 6x10
    /// pentomino rectangle: 2,339 up to rotation).
    #[test]
    #[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
    fn idle_workers_take_work_from_a_running_search() {
        let problem = Problem::load("pentomino-6x10", None).unwrap();
        let one_root = [Vec::new()];
        for build in [bits as Build, dlx as Build] {
            let finished = Mutex::new(Vec::new());
            let stats = count_on(
                &problem.reduction,
                &build,
                Some(&one_root),
                4,
                &Stop::new(),
                None,
                Some(&|root, n| finished.lock().unwrap().push((root, n))),
            );
            assert_eq!(stats.solutions, 2339);
            assert_eq!(finished.into_inner().unwrap(), [(0, 2339)]);
            assert_eq!(stats.workers.len(), 4);
            assert!(
                stats.workers.iter().all(|&n| n > 0),
                "{:?} idle: {:?}",
                build(problem.reduction.matrix()).describe(),
                stats.workers
            );
            assert_eq!(stats.workers.iter().sum::<u64>(), stats.nodes);
        }
    }
}
