//! The engine `count` runs when none is named: the memo (by layers, the frontier, where a
//! sweep's layers apply) where identical pieces make the same subproblems recur and the
//! search is large, the bitset engine elsewhere. The rule
//! and the measurements behind its thresholds are on [`Problem::default_counter`].
//!
//! Invariant: the choice reads only the reduced matrix and a bounded estimate of the
//! native search (at most a second, less before a near deadline),
//! so it costs a bounded time whatever the puzzle.

use std::time::{Duration, Instant};

use super::frontier::Frontier;
use super::{memo, Engine, Problem};
use crate::solver::memo::Sweep;
use crate::solver::Budget;

/// How long the default's estimate runs before it tells a caller that asked to hear
/// ([`Problem::default_counter`]): shorter ones pass unnoticed, and most puzzles' take
/// milliseconds.
const NOTICE_AFTER: Duration = Duration::from_millis(200);
use crate::stop::Stop;

/// The default engine, asked of the problem it would count.
impl Problem {
    /// The engine `count` runs when none is named, and why: the memo where identical pieces
    /// make the same subproblems recur and the search is large, the bitset engine elsewhere.
    ///
    /// - No item of the reduced matrix is covered more than once (distinct pieces): bits.
    ///   The memo's table then hardly ever hits (Bedlam: 2.5% of lookups) and its search is
    ///   a dancing-links search, ten times slower per node than the bitset engine's.
    /// - A piece has copies (or a count range), but pieces with copies make less than
    ///   half of a solution: bits. A few copies among distinct pieces share
    ///   few subproblems.
    /// - A piece has copies (or a count range), but Knuth's estimate of the native search
    ///   is below 3e7 nodes (a few seconds of the bitset engine): bits.
    ///   Measured on 6x10 pentomino sets with two or three copies of some pieces (5 to 6.4
    ///   million nodes), the bitset engine took 0.5-0.7 s and the memo 1.8-6 s: a few
    ///   copies among distinct pieces share few subproblems.
    /// - Otherwise the memo: a search that large with copies is where the table pays (8x8
    ///   dominoes: 50 million nodes and 7 s for bits, 0.003 s for the memo; 8x10 an hour
    ///   against 0.005 s). Its subproblems are counted layer by layer (the `frontier`
    ///   engine) where a sweep's layers apply, by its search (`memo`) elsewhere.
    ///
    /// `split`: the count is told apart by subproblem (a part of several, a checkpoint that
    /// holds some subproblems; a fresh checkpoint of a whole count is not); the memo counts
    /// those only when the reduction needs no canonical-form check, since Burnside's sum does
    /// not split.
    ///
    /// - The memo's table would not fit in this machine's memory, whatever `--memory` says
    ///   (its widest sweep step alone is past it): bits, which keeps no table. The default
    ///   never picks an engine whose refusal only another engine lifts (25 Y-pentacubes in a
    ///   5x5x5 box: a 71-cell frontier, 2^71 keys; bits counts it, 60,672 solutions
    ///   without symmetry, in minutes). A table that would fit the machine but not the
    ///   run's `--memory` keeps the memo, whose refusal names the memory that lifts it: such
    ///   a box (the 6x6x6 cube of dominoes, 12 GiB against a 4 GiB budget) is far past what
    ///   the bitset engine could ever count.
    ///
    /// The estimate takes at most a second, and a tenth of the time to `stop`'s deadline
    /// at most, and ends when `stop` is raised. An estimate cut short decides on what it
    /// has: the mean of the paths that finished, or, when none did, what the first path
    /// had reached, a lower bound. `notice`, if given, hears once, with the most the
    /// estimate may still take, when it is still going after 0.2 s: a caller
    /// tells its user why nothing has started yet.
    pub fn default_counter(
        &self,
        split: bool,
        stop: &Stop,
        notice: Option<&dyn Fn(Duration)>,
    ) -> (Engine, String) {
        let budget = Budget::new(Budget::MOST, stop);
        let left = budget.left();
        let told = notice.map(|n| move || n(left));
        match &told {
            Some(told) => {
                self.default_counter_within(split, &budget.with_notice(NOTICE_AFTER, told))
            }
            None => self.default_counter_within(split, &budget),
        }
    }

    /// [`Problem::default_counter`] with the estimate held to `budget`.
    fn default_counter_within(&self, split: bool, budget: &Budget) -> (Engine, String) {
        let problem = self;
        let matrix = problem.reduction.matrix();
        let copies = matrix.items().iter().map(|i| i.max).max().unwrap_or(1);
        if copies <= 1 {
            return (Engine::bits(), "the default: no piece has copies".into());
        }
        let share = copies_share(matrix);
        if share < MEMO_FROM_SHARE {
            return (
                Engine::bits(),
                format!(
                    "the default: a piece may be used up to {copies} times, but pieces with \
                     copies make only {:.0}% of a solution",
                    100.0 * share
                ),
            );
        }
        let start = Instant::now();
        let estimate = crate::solver::estimated_nodes(matrix, ESTIMATE_PROBES, budget);
        let nodes = estimate.nodes;
        let by = if estimate.cut {
            format!(
                "by an estimate cut short at {:.1} s ({} of {ESTIMATE_PROBES} random paths)",
                start.elapsed().as_secs_f64(),
                estimate.probes
            )
        } else {
            "by estimate".to_string()
        };
        let about = if nodes >= f64::MAX {
            ""
        } else if estimate.cut && estimate.probes == 0 {
            "at least "
        } else {
            "about "
        };
        // Optional cells and count ranges: the DLX lists (the bitset engine has no
        // completion step for them), and such searches hold many solutions that differ
        // only where they may, each of which it visits.
        let small = if matrix.is_exact() {
            MEMO_FROM_NODES
        } else {
            MEMO_FROM_NODES_INEXACT
        };
        if nodes < small {
            return (
                Engine::bits(),
                format!(
                    "the default: a piece may be used up to {copies} times, but the search is \
                     small, {about}{} nodes {by}",
                    round(nodes)
                ),
            );
        }
        if split && problem.reduction.needs_check() {
            return (
                Engine::bits(),
                "the default for a part up to symmetry (the memo counts orbits by Burnside's \
                 lemma, which does not split into parts)"
                    .into(),
            );
        }
        let sweep = Sweep::default();
        if memo::layers_take(problem, sweep) {
            return (
                Engine::new(Frontier::default()),
                format!(
                    "the default: a piece may be used up to {copies} times, and the search is \
                     large, {about}{} nodes {by}; a sweep whose layers the frontier counts",
                    round(nodes)
                ),
            );
        }
        if !memo::fits_machine(problem) {
            return (
                Engine::bits(),
                format!(
                    "the default: a piece may be used up to {copies} times and the search is \
                     large, {about}{} nodes {by}, but neither the memo's table nor the \
                     frontier's layers would fit in this machine's memory",
                    round(nodes)
                ),
            );
        }
        (
            Engine::new(memo::Memo),
            format!(
                "the default: a piece may be used up to {copies} times, and the search is large, \
                 {about}{} nodes {by}",
                round(nodes)
            ),
        )
    }
}

/// The share of a solution's covers that pieces with copies make: each item covered
/// more than once (a piece with copies, a count range) counts its covers times the mean
/// length of its options, against every item's covers. 1 for a box of dominoes; 0.17 for
/// the 6x10 pentominoes with a second L for the X.
fn copies_share(matrix: &crate::matrix::Matrix) -> f64 {
    let columns = matrix.columns();
    let items = matrix.items();
    let all: f64 = items.iter().map(|i| i.max as f64).sum();
    let by_copies: f64 = (0..items.len())
        .filter(|&i| items[i].max > 1 && !columns[i].is_empty())
        .map(|i| {
            let column = &columns[i];
            let mean = column
                .iter()
                .map(|&o| matrix.option_items(o).len() as f64)
                .sum::<f64>()
                / column.len() as f64;
            items[i].max as f64 * mean
        })
        .sum();
    if all == 0.0 {
        0.0
    } else {
        (by_copies / all).min(1.0)
    }
}

/// Where [`Problem::default_counter`] considers the memo: pieces with copies make at least half
/// of a solution. Below it the copies share few subproblems: a random cut of the 4x4x4
/// box into 13 pieces, three of one shape (23%), has over a million solutions, which the
/// bitset engine lists at 13,000 a second while the memo's table filled 2 GB in 10
/// minutes without a count.
pub(crate) const MEMO_FROM_SHARE: f64 = 0.5;

/// Where [`Problem::default_counter`] turns to the memo: a native search of this many nodes
/// (estimated) takes the bitset engine a few seconds, so below it the memo could save
/// at most that.
pub(crate) const MEMO_FROM_NODES: f64 = 3e7;

/// [`MEMO_FROM_NODES`] where optional cells or count ranges leave the listing to the
/// DLX: a 2x3x4 box with an optional cell and a monocube of count 0..1 (about 1.0e7
/// nodes by estimate) lists 663,400 solutions in 2.4 s there, against 0.25 s for the
/// memo, which counts them without visiting each.
pub(crate) const MEMO_FROM_NODES_INEXACT: f64 = 3e6;

/// Random paths for the estimate: milliseconds (16x16 dominoes: 128 levels deep), and
/// enough to tell a million nodes from a hundred million. Deep searches (a 16x16x16 box:
/// 2048 levels) get fewer within the estimate's [`Budget`].
const ESTIMATE_PROBES: usize = 128;

/// `x` to two significant digits: 550000 for 547,812, 6.5e7 past a million.
fn round(x: f64) -> String {
    if x >= f64::MAX {
        // The estimate's product of branchings overflowed.
        "more than 1e308".to_string()
    } else if x < 100.0 {
        format!("{x:.0}")
    } else if x < 1e6 {
        let scale = 10f64.powi(x.log10().floor() as i32 - 1);
        format!("{:.0}", (x / scale).round() * scale)
    } else {
        format!("{x:.1e}")
    }
}
