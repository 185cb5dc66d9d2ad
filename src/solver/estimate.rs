//! How big each subproblem's search tree is, roughly: for a progress bar whose ETA follows
//! the work done rather than the number of subproblems done. Subproblems of one split differ
//! in size by orders of magnitude, so an ETA by count is wrong by minutes (issue 22, item 23).
//!
//! Knuth's estimator walks one random path down from the subproblem's root. At depth `d` the
//! node branches `b_d` ways; the path stands for `b_0 · … · b_d` nodes at depth `d + 1`, so
//! `1 + b_0 + b_0·b_1 + …` is an unbiased estimate of the tree's node count. Averaging a few
//! probes tames its variance; summed over many subproblems the errors shrink further.
//!
//! Invariant: an estimate is at least 1 (the subproblem's own node) and finite; the walk
//! uses only [`Backtrack::branch`], so the engine's node count and state are as before.
//!
//! # References
//!
//! D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of
//! Computation 29 (1975), 121-136.

use std::time::{Duration, Instant};

use super::backtrack::Backtrack;
use crate::stop::Stop;

/// Random probes per subproblem: enough to rank subproblems by size, cheap beside the search
/// (each probe is one path of `branch` calls).
const PROBES: usize = 8;

/// The most time an estimate takes: it serves a progress bar or the choice of an engine,
/// so it must never be what a run spends its time on (a box of 2048 dominoes walks 2048
/// levels per probe).
pub const MOST: Duration = Duration::from_secs(1);

/// How much probing an estimate may do: until an instant, and while nobody asks to stop.
///
/// Invariant: a probe checks its budget at every step, so an estimate overruns it by at
/// most one step of the engine.
pub struct Budget<'a> {
    until: Instant,
    stop: &'a Stop,
    /// Called once if the estimate is still going at that instant: a long one says so.
    notice: Option<(Instant, &'a dyn Fn())>,
    noticed: std::cell::Cell<bool>,
}

impl<'a> Budget<'a> {
    /// The longest an engine-choosing estimate takes by default: one second.
    pub const MOST: Duration = MOST;

    /// At most `most` from now, and at most a tenth of the time left before `stop`'s
    /// deadline (then never past it): an estimate for a run of 5 s takes at most 0.5 s.
    /// A raised `stop` ends it.
    pub fn new(most: Duration, stop: &'a Stop) -> Budget<'a> {
        let now = Instant::now();
        let most = match stop.deadline() {
            Some(d) => most.min(d.saturating_duration_since(now) / 10),
            None => most,
        };
        Budget {
            until: now.checked_add(most).unwrap_or(now),
            stop,
            notice: None,
            noticed: std::cell::Cell::new(false),
        }
    }

    /// The same budget, calling `notice` once if the estimate still runs `after` from now.
    pub fn with_notice(self, after: Duration, notice: &'a dyn Fn()) -> Budget<'a> {
        let now = Instant::now();
        Budget {
            notice: Some((now.checked_add(after).unwrap_or(now), notice)),
            ..self
        }
    }

    /// How long the budget still allows.
    pub fn left(&self) -> Duration {
        self.until.saturating_duration_since(Instant::now())
    }

    /// Whether the time is up or a stop was asked for.
    fn spent(&self) -> bool {
        let now = Instant::now();
        if let Some((at, notice)) = self.notice {
            if now >= at && !self.noticed.replace(true) {
                notice();
            }
        }
        self.stop.raised() || now >= self.until
    }
}

/// The estimated search-tree size of each subproblem in `jobs` (prefixes for `engine`);
/// `None` when the budget ran out before every subproblem had one probe: the sizes are then
/// unknown.
///
/// Probes go round the subproblems (one probe each, then a second each...), so that a
/// budget that ends early still leaves every subproblem a probe or two.
pub(super) fn tree_sizes(
    engine: &mut dyn Backtrack,
    jobs: &[Vec<u32>],
    budget: &Budget,
) -> Option<Vec<f64>> {
    // A fixed seed: the same split gets the same estimates from run to run.
    let mut state = SEED;
    let mut sums = vec![0.0; jobs.len()];
    let mut probes = vec![0usize; jobs.len()];
    'rounds: for _ in 0..PROBES {
        for (k, prefix) in jobs.iter().enumerate() {
            match probe(engine, prefix, &mut state, budget) {
                Probe::Done(nodes) => {
                    sums[k] += nodes;
                    probes[k] += 1;
                }
                Probe::Cut(_) => break 'rounds,
            }
        }
    }
    if probes.contains(&0) {
        return None;
    }
    Some(
        sums.iter()
            .zip(&probes)
            .map(|(&sum, &n)| (sum / n as f64).clamp(1.0, f64::MAX))
            .collect(),
    )
}

/// An estimate of the whole tree's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean of the probes that finished; when none did, what the one cut short had
    /// reached, a lower bound of its estimate.
    pub nodes: f64,
    /// Probes that finished.
    pub probes: usize,
    /// The budget ran out (or a stop was asked for) before every probe finished.
    pub cut: bool,
}

/// The estimated size of the whole search tree, from up to `probes` random paths within
/// `budget`.
pub(super) fn whole_tree(engine: &mut dyn Backtrack, probes: usize, budget: &Budget) -> Estimate {
    let mut state = SEED;
    let mut sum = 0.0;
    for k in 0..probes {
        match probe(engine, &[], &mut state, budget) {
            Probe::Done(nodes) => sum += nodes,
            Probe::Cut(reached) => {
                return Estimate {
                    nodes: if k == 0 {
                        reached
                    } else {
                        (sum / k as f64).clamp(1.0, f64::MAX)
                    },
                    probes: k,
                    cut: true,
                }
            }
        }
    }
    Estimate {
        nodes: (sum / probes.max(1) as f64).clamp(1.0, f64::MAX),
        probes,
        cut: false,
    }
}

/// Knuth's estimate of the solutions, with the bottom of the tree counted: each of
/// `probes` probes walks a random path `depth` levels down (`seed` picks the paths),
/// counts the solutions below its end exactly, and stands for that count times the
/// branchings on the way (a dead end on the way stands for none). Unbiased, as Knuth's
/// plain estimate is, with far less variance where solutions are rare among the paths:
/// on Bedlam (19,186 solutions up to rotations, 13 levels) the plain estimate's probes
/// almost never reach a solution (0 in 10,000 probes for three seeds of five), while
/// a hundred probes 4 levels down give 11,000 to 29,000 in 70 ms. Depth 0 is the exact
/// count. `None` when `stop` ended the first probe.
pub(crate) fn solutions_below(
    engine: &mut dyn Backtrack,
    probes: usize,
    depth: usize,
    seed: u64,
    stop: &Stop,
) -> Option<f64> {
    use std::ops::ControlFlow;
    let mut state = seed;
    let mut sum = 0.0;
    let mut done = 0usize;
    let mut path = Vec::new();
    for _ in 0..probes {
        // A small subtree's count never reaches its own stop check.
        if stop.should_stop() {
            break;
        }
        path.clear();
        let mut weight = 1.0f64;
        let mut dead = false;
        while path.len() < depth {
            match engine.branch(&path) {
                super::Branch::On(options) if !options.is_empty() => {
                    weight *= options.len() as f64;
                    let k = (splitmix(&mut state) % options.len() as u64) as usize;
                    path.push(options[k]);
                }
                super::Branch::Solution => break,
                _ => {
                    dead = true;
                    break;
                }
            }
        }
        if !dead {
            let mut below = 0u64;
            let flow = engine.run(
                &path,
                &mut |_| {
                    below += 1;
                    ControlFlow::Continue(())
                },
                stop,
            );
            if flow.is_break() {
                break;
            }
            sum += weight * below as f64;
        }
        done += 1;
    }
    (done > 0).then(|| sum / done as f64)
}

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// One probe's outcome.
enum Probe {
    /// Knuth's estimate from one whole path.
    Done(f64),
    /// The budget ran out on the way: the estimate of the path so far, a lower bound.
    Cut(f64),
}

/// One random path down from `prefix`: `1 + b_0 + b_0·b_1 + …`.
fn probe(engine: &mut dyn Backtrack, prefix: &[u32], state: &mut u64, budget: &Budget) -> Probe {
    let mut weight = 1.0f64;
    let mut nodes = 1.0f64;
    let mut cut = false;
    engine.walk(prefix, &mut |branches| {
        if budget.spent() {
            cut = true;
            return None;
        }
        weight *= branches as f64;
        nodes += weight;
        Some((splitmix(state) % branches as u64) as usize)
    });
    let nodes = nodes.clamp(1.0, f64::MAX);
    if cut {
        Probe::Cut(nodes)
    } else {
        Probe::Done(nodes)
    }
}

/// SplitMix64: a tiny generator is all a probe needs, and it keeps estimates reproducible.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{Item, Matrix};

    fn matrix(items: u32, options: &[&[u32]]) -> Matrix {
        let mut m = Matrix::new(
            (0..items)
                .map(|i| Item::exact(format!("i{i}"), 1))
                .collect(),
        );
        for o in options {
            m.push_option(o);
        }
        m
    }

    fn unbounded() -> Budget<'static> {
        static NEVER: std::sync::LazyLock<Stop> = std::sync::LazyLock::new(Stop::new);
        Budget::new(Duration::from_secs(3600), &NEVER)
    }

    /// A box of `w` x `h` cells tiled by dominoes: a deep tree (`w * h / 2` levels).
    fn dominoes(w: u32, h: u32) -> Matrix {
        let cell = |x: u32, y: u32| y * w + x;
        let mut options: Vec<Vec<u32>> = Vec::new();
        for y in 0..h {
            for x in 0..w {
                if x + 1 < w {
                    options.push(vec![cell(x, y), cell(x + 1, y)]);
                }
                if y + 1 < h {
                    options.push(vec![cell(x, y), cell(x, y + 1)]);
                }
            }
        }
        let options: Vec<&[u32]> = options.iter().map(|o| o.as_slice()).collect();
        matrix(w * h, &options)
    }

    /// An engine that only branches, so that its walks are the trait's default: the
    /// replay that the engines' own walks must agree with.
    struct Replay(Box<dyn Backtrack>);

    impl Backtrack for Replay {
        fn branch(&mut self, prefix: &[u32]) -> crate::solver::Branch<Vec<u32>> {
            self.0.branch(prefix)
        }
        fn run_shared(
            &mut self,
            prefix: &[u32],
            visit: &mut crate::solver::backtrack::Visit<'_>,
            share: &dyn crate::solver::backtrack::Share,
            stop: &crate::stop::Stop,
        ) -> std::ops::ControlFlow<()> {
            self.0.run_shared(prefix, visit, share, stop)
        }
        fn nodes(&self) -> u64 {
            self.0.nodes()
        }
        fn describe(&self) -> String {
            self.0.describe()
        }
    }

    /// The DLX and the bitset engine step down in place; their probes follow the same
    /// paths as a replay of each path from the root, so the estimates are equal.
    #[test]
    fn walking_in_place_estimates_as_replaying() {
        let matrix = dominoes(6, 5);
        let jobs = crate::solver::split::split(crate::solver::bits(&matrix).as_mut(), 20);
        for build in [crate::solver::dlx, crate::solver::bits] {
            let in_place = tree_sizes(build(&matrix).as_mut(), &jobs, &unbounded());
            let replayed = tree_sizes(&mut Replay(build(&matrix)), &jobs, &unbounded());
            assert!(in_place.is_some());
            assert_eq!(in_place, replayed);
            let whole = whole_tree(build(&matrix).as_mut(), 16, &unbounded());
            assert_eq!(
                whole,
                whole_tree(&mut Replay(build(&matrix)), 16, &unbounded())
            );
            assert!(!whole.cut && whole.probes == 16);
        }
    }

    /// A stop asked for ends the estimate at its next step: no sizes, and a whole-tree
    /// estimate marked cut, with a lower bound from the path walked.
    #[test]
    fn a_stop_ends_the_estimate() {
        let matrix = dominoes(8, 8);
        let mut engine = crate::solver::dlx(&matrix);
        let stop = Stop::new();
        stop.raise();
        let budget = Budget::new(Duration::from_secs(3600), &stop);
        assert_eq!(tree_sizes(engine.as_mut(), &[Vec::new()], &budget), None);
        let estimate = whole_tree(engine.as_mut(), 128, &budget);
        assert!(estimate.cut && estimate.probes == 0 && estimate.nodes >= 1.0);
    }

    /// The budget bounds the time: 128 probes 2048 levels deep take seconds, the budget
    /// a tenth of a second (the bound asserted is generous: it proves the cut, not speed).
    #[test]
    fn the_budget_bounds_a_deep_estimate() {
        let matrix = dominoes(64, 64);
        let mut engine = crate::solver::dlx(&matrix);
        let start = Instant::now();
        let stop = Stop::new().until(Some(start + Duration::from_secs(1)));
        let budget = Budget::new(MOST, &stop);
        let estimate = whole_tree(engine.as_mut(), 100_000, &budget);
        assert!(estimate.cut);
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
    }

    /// Every option covers one item of its own: the tree is a path of single branches
    /// until the last item, so the estimate is exact.
    #[test]
    fn a_forced_search_is_estimated_exactly() {
        let matrix = matrix(3, &[&[0], &[1], &[2]]);
        let mut engine = crate::solver::dlx(&matrix);
        let sizes = tree_sizes(engine.as_mut(), &[Vec::new()], &unbounded());
        assert_eq!(sizes, Some(vec![4.0]));
    }

    /// A subproblem deeper in the tree is smaller than the whole search.
    #[test]
    fn a_subproblem_is_smaller_than_the_root() {
        // Two items, each covered by either of two options: 2 x 2 solutions.
        let matrix = matrix(2, &[&[0], &[0], &[1], &[1]]);
        let mut engine = crate::solver::dlx(&matrix);
        let sizes = tree_sizes(engine.as_mut(), &[Vec::new(), vec![0]], &unbounded());
        assert_eq!(sizes, Some(vec![7.0, 3.0]));
    }

    /// The estimate from the bottom: depth 0 is the exact count; deeper, the mean of
    /// many estimates is near it (Knuth's estimate is unbiased); a raised stop gives
    /// none. Broken on purpose (the branching left out of the weight), the mean fails.
    #[test]
    fn solutions_below_is_exact_at_the_root_and_unbiased_below() {
        // 4x4 dominoes: 36 tilings.
        let m = dominoes(4, 4);
        let never = Stop::new();
        let exact = solutions_below(crate::solver::bits(&m).as_mut(), 3, 0, 1, &never);
        assert_eq!(exact, Some(36.0));
        let seeds = 400u64;
        let mean: f64 = (0..seeds)
            .map(|s| solutions_below(crate::solver::bits(&m).as_mut(), 4, 3, s, &never).unwrap())
            .sum::<f64>()
            / seeds as f64;
        assert!((mean - 36.0).abs() < 36.0 * 0.1, "{mean}");
        let stopped = Stop::new();
        stopped.raise();
        assert_eq!(
            solutions_below(crate::solver::bits(&m).as_mut(), 4, 3, 1, &stopped),
            None
        );
    }
}
