//! Counting exact covers without visiting them: Algorithm X with a memo of subproblem
//! counts (the idea of Knuth's `dlx6` and of DXZ, Nishino et al., "Dancing with Decision
//! Diagrams", AAAI 2017).
//!
//! # Why a key determines a count
//!
//! A node of the search is a partial solution. What can still be added below it depends
//! on the items alone: an option is *live* when none of its unit or secondary items is
//! covered and every other item of it may still be covered once more. A completion is a
//! set of live options that covers each uncovered unit item exactly once and brings every
//! other item between its `min` and `max`. So the number of completions is a function of
//!
//! - for each unit and each secondary item, whether it is covered (one bit);
//! - for each item with k copies or a range, how many more covers it may take
//!   (`remaining = max − used`; its need, `remaining − (max − min)`, follows);
//!
//! and nothing else: not the options chosen, nor their order. That tuple is the key
//! (`search` packs it into a few words: the free cells as a bitset and a small counter
//! per piece with copies). Two partial solutions with the same key (the same cells
//! covered in two ways) have the same completions, so the count of the first is stored
//! in the table (`table`) and the second reads it.
//!
//! # Why copies are counted once, not k! times
//!
//! As in the native engines, the search branches only on *unit* items (a cell), trying
//! each live option that covers the chosen one. A solution's options that cover unit
//! items are then found on exactly one path: each is the one option covering the unit
//! item branched on at its level. The copies of a piece are one item with `remaining`
//! copies left, never k items to permute, so a tiling by k identical dominoes is one
//! solution. The matrix invariants guarantee that in an exact matrix every option has a
//! unit item; in other matrices, the options with no unit item (only secondary cells and
//! pieces with ranges) are left when every unit item is covered, and `search` counts the
//! sets of them that respect the bounds, by increasing option number, as the DLX lists
//! them. The count at each node is the sum over its branches; a node whose chosen item
//! has no live option (or an item that needs more covers than it has live options) is 0.
//!
//! Branching: the unit item with the fewest live options, ties to the item listed last,
//! the native engines' rule, so the memo walks the tree the DLX walks, cut where it has
//! been before. (Ties to the first item gave the same speed on the domino boxes.)
//!
//! # Numbers
//!
//! Counts are a `u128` with a checked add, falling back to [`BigUint`] on overflow, so
//! they never wrap (20x20 dominoes pass 2^128). The table stores a count inline in one
//! word when it is below 2^63 and in a side arena of big integers above. Measured on the
//! 12x12 and 16x16 domino boxes (one thread, medians of three): an inline `u128` (two
//! words) took the same time (0.058 s against 0.054 s; 2.58 s against 2.68 s) for a 14%
//! larger table (403 MB against 353 MB at peak on 16x16), so one word it is.
//!
//! # Threads
//!
//! The threads are workers of the one scheduler, [`crate::schedule::Pool`], at most one
//! per core ([`crate::schedule::workers`]). With more than one, the search is first cut
//! near its root, breadth first by its own branching (as `subproblems` cuts the native
//! search), into at least 16 subproblems per worker; subproblems with the same key are
//! merged (counted once, multiplied by how many there are). Those are the pool's roots
//! (`count_each` takes its roots from the caller: a part of a split, or what a checkpoint
//! left). A worker that finds the pool empty is fed by a running search: it gives away
//! the untried options of its shallowest open level, as jobs of the same root with the
//! same multiplicity, and stores no count of the levels it cut (see `search`). A root's
//! count is the sum of its pieces', reported when the last one ends.
//!
//! The workers share one table, sharded by hash with a lock per shard: on the domino
//! boxes every subproblem meets the same lower states, which a table per thread would
//! compute once per thread. Measured on 12x12 dominoes with two threads: 79k nodes and
//! 0.03 s shared, 141k nodes and 0.07 s with a table per thread (16x16: 1.35 s against
//! 5.1 s).
//! A worker that meets a subproblem another is computing puts it off and works on its
//! other options meanwhile ("Claims" in `search`).
//!
//! Burnside's classes ([`count_sum`]) are counted at once on several workers: every
//! class's split goes into the one pool, the identity's first, and each class has its
//! own shared table. Counted one after another, each class ended with workers idle
//! while its last jobs ran, five times over on a square box.
//!
//! A count by layers (the `frontier` engine, [`profile`]) has no search to split: each
//! layer is cut into shards by state, and each cell's shards are the jobs of one run of
//! the same executor, stepped on the same workers (`profile::shards`).
//!
//! Invariants: a returned count is exact; a stopped search returns [`Incomplete`], never
//! a number; the table never holds more than its byte budget.

mod input;
mod key;
mod order;
mod profile;
mod search;
mod sharded;
mod split;
mod table;
#[cfg(test)]
mod tests;
mod unrank;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use num_bigint::BigUint;

use crate::schedule::{execute, Caller, Giving, Job as ScheduledJob, Piece, Pool, Worker};

pub(crate) use input::{cells_first_order, layer_order};
pub use input::{Input, TableEstimate};
use order::Branching;
pub use order::Sweep;
pub use search::Incomplete;
use search::Search;
use sharded::{Sharded, View};
use split::split;
pub use table::TableStats;
use table::{free_later, Count, Memo, Table, FREE_LATER_BYTES};
pub use unrank::Unranker;

/// How to count.
#[derive(Clone, Copy)]
pub struct Settings<'a> {
    pub threads: usize,
    /// The table's byte budget (all threads together).
    pub memory: usize,
    /// Threads share one sharded table (else each has its own, with an equal share of
    /// the budget).
    pub shared: bool,
    /// Polled every few thousand nodes; `true` stops the count.
    pub stop: &'a (dyn Fn() -> bool + Sync),
    /// Count a sweep layer by layer ([`profile`]) along this sweep where its state fits
    /// a word, instead of by the search and its table (the `frontier` engine); `None`:
    /// the search (the `memo` engine).
    pub layers: Option<Sweep>,
}

/// What a count found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    pub count: Result<BigUint, Incomplete>,
    pub stats: MemoStats,
}

/// What a memo count (or a sampler's table) saw: its search and its table of counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoStats {
    /// Search nodes visited (memo hits included).
    pub nodes: u64,
    /// Subproblems the threads shared out (1 on one thread).
    pub subproblems: usize,
    /// Worker threads the count ran on (the most, over Burnside's classes): at most the
    /// threads asked for and the cores, and one for a small sweep.
    pub workers: usize,
    /// The table of subproblem counts.
    pub table: TableStats,
    /// The layers of the counts made layer by layer.
    pub layers: LayerStats,
}

/// What counts made layer by layer saw ([`profile`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerStats {
    /// States stepped from, over every layer.
    pub states: u64,
    /// The most states one layer held.
    pub widest: u64,
    /// The most bytes one layer took.
    pub bytes: u64,
    /// A layer that outgrew the budget: its cell's position in the sweep, the cells,
    /// and the states it had reached when it was given up.
    pub outgrown: Option<(usize, usize, u64)>,
}

impl MemoStats {
    /// The share of lookups that found their count.
    pub fn hit_rate(&self) -> f64 {
        let all = self.table.hits + self.table.misses;
        if all == 0 {
            0.0
        } else {
            self.table.hits as f64 / all as f64
        }
    }
}

impl MemoStats {
    /// Adds the statistics of a run that came after this one (a Burnside class): its
    /// table was freed before, so the peaks are the larger, not the sum.
    pub fn add(&mut self, other: &MemoStats) {
        self.nodes += other.nodes;
        self.subproblems += other.subproblems;
        self.workers = self.workers.max(other.workers);
        let (l, o) = (&mut self.layers, &other.layers);
        l.states += o.states;
        l.widest = l.widest.max(o.widest);
        l.bytes = l.bytes.max(o.bytes);
        l.outgrown = l.outgrown.or(o.outgrown);
        let (t, o) = (&mut self.table, &other.table);
        t.hits += o.hits;
        t.misses += o.misses;
        t.evictions += o.evictions;
        t.peak_entries = t.peak_entries.max(o.peak_entries);
        t.peak_bytes = t.peak_bytes.max(o.peak_bytes);
        t.peak_rehash_bytes = t.peak_rehash_bytes.max(o.peak_rehash_bytes);
    }
}

/// [`count_input`] of a [`crate::matrix::Matrix`], or of an [`Input`] made for it: the
/// tests' way in.
#[cfg(test)]
pub fn count(input: impl Into<Input>, settings: &Settings<'_>) -> Counted {
    count_input(&input.into(), settings)
}

/// Counts the exact covers of `input`, on at most `settings.threads` workers
/// ([`crate::schedule::workers`]), and on one when the input is a sweep small enough to
/// count in milliseconds.
pub(crate) fn count_input(input: &Input, settings: &Settings<'_>) -> Counted {
    let workers = workers(input, input.sweep_keys(), settings.threads);
    count_on(input, settings, workers).0
}

/// The workers a count of `input` runs on: [`crate::schedule::workers`], but one for a
/// small sweep (at most [`SMALL_SWEEP`] for its cells times the patterns of its widest
/// step, `keys`, its [`Input::sweep_keys`]), which counts in milliseconds:
/// starting workers and a shared table costs about 5 ms, so 12x12 dominoes took 0.021 s
/// on two threads here and 0.015 s on one (8x8: 0.006 s and 0.001 s).
fn workers(input: &Input, keys: Option<u64>, threads: usize) -> usize {
    let units = input.items.iter().take_while(|&&b| b == (1, 1)).count() as u64;
    match keys {
        Some(keys) if keys.saturating_mul(units) <= SMALL_SWEEP => 1,
        _ => crate::schedule::workers(threads),
    }
}

/// See [`workers`]: 12x12 dominoes (144 cells, 2^13 patterns) is below, 16x16 (256 and
/// 2^17) far above.
const SMALL_SWEEP: u64 = 1 << 21;

/// [`count`] on exactly `workers` threads, however many cores there are; with the
/// search nodes each worker visited. A sweep whose layers fit the budget is counted by
/// layers instead, on as many threads ([`profile`]: the states it stepped from are its
/// nodes).
pub(crate) fn count_on(
    input: &Input,
    settings: &Settings<'_>,
    workers: usize,
) -> (Counted, Vec<u64>) {
    if let Some(counted) = profiled(input, settings, workers) {
        let nodes = counted.stats.layers.states;
        return (counted, vec![nodes]);
    }
    count_searching(input, settings, workers)
}

/// [`count_on`] by the search and its table, never by layers.
pub(crate) fn count_searching(
    input: &Input,
    settings: &Settings<'_>,
    workers: usize,
) -> (Counted, Vec<u64>) {
    let workers = workers.max(1);
    let mut root = Search::new(input, settings.stop);
    let roots = if workers == 1 {
        vec![(Vec::new(), 1)]
    } else {
        split(&mut root, 16 * workers)
    };
    let subproblems = roots.len();
    let roots = roots.into_iter().map(|(prefix, times)| Job {
        class: 0,
        prefix,
        times,
    });
    let run = run(
        &[input],
        &[settings.memory],
        roots.collect(),
        workers,
        settings,
        None,
    );
    let stats = MemoStats {
        nodes: root.nodes + run.workers.iter().sum::<u64>(),
        subproblems,
        workers,
        table: run.table,
        layers: LayerStats::default(),
    };
    let counted = Counted {
        count: run.count.map(Count::into_big),
        stats,
    };
    (counted, run.workers)
}

/// The count of a sweep by layers ([`profile`]), where the settings ask for layers and
/// its state fits a word; `None` where the search counts it instead. A layer that
/// outgrew the budget gives no number, and says so in the statistics
/// ([`LayerStats::outgrown`]): the search's table, which keeps every layer's
/// subproblems, would hold more still and forget without end.
fn profiled(input: &Input, settings: &Settings<'_>, workers: usize) -> Option<Counted> {
    let layout = profile::layout(input, settings.layers?)?;
    let profiled = profile::count(&layout, settings.memory, settings.stop, workers.max(1));
    let stats = MemoStats {
        subproblems: 1,
        workers: profiled.workers,
        layers: LayerStats {
            states: profiled.steps,
            widest: profiled.peak_states as u64,
            bytes: profiled.peak_bytes as u64,
            outgrown: profiled.outgrown,
        },
        ..MemoStats::default()
    };
    Some(Counted {
        count: profiled.count.map_err(|_| Incomplete),
        stats,
    })
}

/// The sum of each input's count times its multiplier (Burnside's classes: the fixed
/// covers of one element of each class, times the class's size), on at most
/// `settings.threads` workers. On several workers the inputs are counted at once, as
/// the roots of one pool, the largest (first) first: the small ones fill the gaps the
/// large one's end leaves, where counting them one after another would wait for each
/// one's last job. Their tables share the budget ([`budgets`]). On one thread they are
/// counted one after another, each with the whole budget.
pub fn count_sum(inputs: &[(Input, u64)], settings: &Settings<'_>) -> Counted {
    // Each a sweep over the whole matrix, and a search built: made once.
    let estimates: Vec<Option<TableEstimate>> = inputs
        .iter()
        .map(|(input, _)| input.table_estimate())
        .collect();
    let workers = match inputs.first() {
        // The first input is the largest (Burnside's identity): it decides.
        Some((first, _)) => workers(first, estimates[0].map(|e| e.keys), settings.threads),
        None => 1,
    };
    if workers > 1 {
        // The identity's class by layers, on the workers, where it is a sweep that they
        // count; the other classes (Burnside's quotients, whose options reach across the
        // box) in the pool.
        if let Some(((first, times), rest)) = inputs.split_first() {
            if let Some(counted) = profiled(first, settings, workers) {
                let others = count_sum(rest, settings);
                let mut stats = counted.stats;
                stats.add(&others.stats);
                let count = match (counted.count, others.count) {
                    (Ok(a), Ok(b)) => Ok(a * times + b),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                };
                return Counted { count, stats };
            }
        }
    }
    if workers == 1 {
        let mut sum = BigUint::ZERO;
        let mut stats = MemoStats::default();
        for (input, times) in inputs {
            let counted = count_on(input, settings, 1).0;
            stats.add(&counted.stats);
            match counted.count {
                Ok(n) => sum += n * times,
                Err(e) => {
                    return Counted {
                        count: Err(e),
                        stats,
                    }
                }
            }
        }
        return Counted {
            count: Ok(sum),
            stats,
        };
    }
    let mut roots = Vec::new();
    let mut nodes = 0;
    for (class, (input, times)) in inputs.iter().enumerate() {
        let mut root = Search::new(input, settings.stop);
        let split = split(&mut root, 16 * workers);
        nodes += root.nodes;
        roots.extend(split.into_iter().map(|(prefix, merged)| Job {
            class,
            prefix,
            times: merged * times,
        }));
    }
    let subproblems = roots.len();
    let classes: Vec<&Input> = inputs.iter().map(|(input, _)| input).collect();
    let budget = budgets(&estimates, settings.memory);
    let run = run(&classes, &budget, roots, workers, settings, None);
    Counted {
        count: run.count.map(Count::into_big),
        stats: MemoStats {
            nodes: nodes + run.workers.iter().sum::<u64>(),
            subproblems,
            workers,
            table: run.table,
            layers: LayerStats::default(),
        },
    }
}

/// Counts the completions of each prefix of `jobs` (options of `input`, as a split of
/// the search makes them), calling `finished` with each one's position in `jobs` and its
/// count once all of it is counted (pieces given to other workers included); the workers
/// (at most `settings.threads`, [`crate::schedule::workers`]) share one table. The count
/// is the sum, or [`Incomplete`] when a stop cut a job short (the jobs reported before
/// are exact).
pub fn count_each(
    input: impl Into<Input>,
    jobs: &[Vec<u32>],
    settings: &Settings<'_>,
    finished: &(dyn Fn(usize, BigUint) + Sync),
) -> Counted {
    // Prefixes from another engine's split may break the frontier key's condition.
    let input: Input = input.into().for_prefixes(jobs);
    let roots = jobs.iter().map(|prefix| Job {
        class: 0,
        prefix: prefix.clone(),
        times: 1,
    });
    let workers = crate::schedule::workers(settings.threads);
    let report = |root: usize, count: &Count| finished(root, count.clone().into_big());
    let memory = [settings.memory];
    let run = run(
        &[&input],
        &memory,
        roots.collect(),
        workers,
        settings,
        Some(&report),
    );
    let stats = MemoStats {
        nodes: run.workers.iter().sum(),
        subproblems: jobs.len(),
        workers,
        table: run.table,
        layers: LayerStats::default(),
    };
    Counted {
        count: run.count.map(Count::into_big),
        stats,
    }
}

/// A memo job: a prefix of options of one of the run's inputs (`class`), and what its
/// count is multiplied by (how many merged prefixes it stands for, times the input's
/// own multiplier in [`count_sum`]).
struct Job {
    class: usize,
    prefix: Vec<u32>,
    times: u64,
}

/// Hears a root's position and its whole count, once all of it is counted.
type Heard<'a> = &'a (dyn Fn(usize, &Count) + Sync);

/// What [`run`] found: the sum of the roots' counts (or [`Incomplete`]), the nodes each
/// worker visited, and the table's statistics.
struct Run {
    count: Result<Count, Incomplete>,
    workers: Vec<u64>,
    table: TableStats,
}

/// Counts `roots` (each a prefix of one of `classes`) on `workers` threads through the
/// scheduler's pool: each worker takes a job, counts it with its search of that input,
/// and gives untried options to waiting workers as jobs of the same root (same input,
/// same multiplicity). `finished` hears each root's whole count once all its pieces are
/// counted. The workers share one sharded table per input when `settings.shared` (and
/// there are several), else each has its own; input `c`'s tables together get
/// `budget[c]` bytes (the whole budget for one input, else as [`budgets`] divides it).
fn run(
    classes: &[&Input],
    budget: &[usize],
    roots: Vec<Job>,
    workers: usize,
    settings: &Settings<'_>,
    finished: Option<Heard<'_>>,
) -> Run {
    let stop = AtomicBool::new(false);
    let stopping = || stop.load(Ordering::Relaxed) || (settings.stop)();
    let key_words: Vec<usize> = classes
        .iter()
        .map(|input| Search::new(input, &stopping).key_words())
        .collect();
    let shared: Option<Vec<Sharded>> = (settings.shared && workers > 1).then(|| {
        (0..classes.len())
            .map(|c| Sharded::new(key_words[c], budget[c]))
            .collect()
    });
    let pool: Pool<Job, Count> = Pool::new(roots, workers);
    let givings = Giving::for_workers(&pool, workers);
    let freed: Mutex<Vec<Table>> = Mutex::new(Vec::new());
    let total = Mutex::new(Run {
        count: Ok(Count::ZERO),
        workers: vec![0; workers],
        table: TableStats::default(),
    });
    let make = |k: usize| {
        Some(Counter {
            classes,
            key_words: &key_words,
            budget,
            workers,
            shared: shared.as_deref(),
            stopping: &stopping,
            stop: &stop,
            giving: &givings[k],
            finished,
            // Per input, made when a job of it first comes: the search, and its own table
            // when the workers do not share one.
            searches: classes.iter().map(|_| None).collect(),
            own: classes.iter().map(|_| None).collect(),
            views: classes.iter().map(|_| None).collect(),
            sum: Count::ZERO,
        })
    };
    let retire = |k: usize, w: Counter<'_>| {
        let mut t = total.lock().unwrap_or_else(|e| e.into_inner());
        if let Ok(n) = &mut t.count {
            n.add(&w.sum);
        }
        t.workers[k] = w.searches.iter().flatten().map(|s| s.nodes).sum();
        for table in w.own.iter().flatten() {
            t.table.merge(&table.stats());
        }
        for view in w.views.iter().flatten() {
            t.table.hits += view.hits;
            t.table.misses += view.misses;
        }
        drop(t);
        freed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(w.own.into_iter().flatten());
    };
    execute(&pool, &givings, &make, &retire, Caller::Works);
    let mut run = total.into_inner().unwrap_or_else(|e| e.into_inner());
    if stop.into_inner() {
        run.count = Err(Incomplete);
    }
    if let Some(tables) = &shared {
        // The views counted the hits and misses; the shards, the rest.
        for t in tables {
            run.table.merge(&t.stats());
        }
    }
    let freed = freed.into_inner().unwrap_or_else(|e| e.into_inner());
    if run.table.peak_bytes >= FREE_LATER_BYTES {
        free_later((shared, freed));
    }
    run
}

/// The byte budget of each input's table when several are counted at once: shared in
/// proportion to what each input's table needs at its widest step (`estimates`, each
/// input's [`Input::table_estimate`], powers of two far apart), each at least a
/// sixteenth of an equal share, so that no table is starved into computing everything
/// again. Where an input has no estimate (the search does not sweep), the first input,
/// the largest by the caller's order (Burnside's identity), takes half and the others
/// share the rest.
fn budgets(estimates: &[Option<TableEstimate>], memory: usize) -> Vec<usize> {
    let n = estimates.len();
    if n == 1 {
        return vec![memory];
    }
    let floor = memory / n / 16;
    let needs: Vec<f64> = match estimates
        .iter()
        .map(|e| e.as_ref().map(|e| e.bytes.max(1) as f64))
        .collect::<Option<Vec<f64>>>()
    {
        Some(needs) => needs,
        None => (0..n)
            .map(|c| if c == 0 { (n - 1) as f64 } else { 1.0 })
            .collect(),
    };
    let spare = (memory - floor * n) as f64;
    let all: f64 = needs.iter().sum();
    needs
        .iter()
        .map(|&b| floor + (spare * (b / all)) as usize)
        .collect()
}

/// The count of the subproblem `prefix` leads to, `search` left as it was. A prefix
/// given by a weighted search may end in an option that does not fit (see search.rs):
/// its part of the count is 0, as in the loop of the level it was cut from.
fn count_after(
    search: &mut Search<'_>,
    prefix: &[u32],
    memo: &mut dyn Memo,
) -> Result<Count, Incomplete> {
    let mut pushed = 0;
    for &o in prefix {
        if !search.fits(o) {
            break;
        }
        search.push(o);
        pushed += 1;
    }
    let count = if pushed == prefix.len() {
        search.count(memo)
    } else {
        Ok(Count::ZERO)
    };
    for &o in prefix[..pushed].iter().rev() {
        search.pop(o);
    }
    count
}

// The estimate needs the search's key layout, and the search reads the input: kept here,
// above both, so that neither file imports the other both ways.
impl Input {
    /// Whether a count with layers along `sweep` ([`Settings::layers`]) counts this input
    /// layer by layer: a sweep whose state fits a word.
    pub fn by_layers(&self, sweep: Sweep) -> bool {
        profile::layout(self, sweep).is_some()
    }

    /// The patterns of the sweep's widest frontier, `2^cells` ([`TableEstimate::keys`]),
    /// without the rest of the estimate (which builds a search for its key's size); `None`
    /// when the search does not sweep.
    pub(crate) fn sweep_keys(&self) -> Option<u64> {
        (self.branching == Branching::Sweep)
            .then(|| patterns(order::widest(&self.items, &self.options)))
    }

    /// Cells of the widest frontier of the sweep that the layers take (the narrower one
    /// that [`Input::listed`] keeps, where it does), or `None` when it is not a sweep.
    pub(crate) fn layers_widest(&self, sweep: Sweep) -> Option<u32> {
        let swept = self.layered(sweep)?;
        Some(order::widest(&swept.items, &swept.options))
    }

    /// What a sweep's table needs at its widest step ([`TableEstimate`]), or `None` when
    /// the search does not sweep (MRV: no estimate is known).
    pub fn table_estimate(&self) -> Option<TableEstimate> {
        if self.branching != Branching::Sweep {
            return None;
        }
        let cells = order::widest(&self.items, &self.options);
        let never = || false;
        let key_words = Search::new(self, &never).key_words();
        let entry_bytes = table::slot_bytes(key_words) as u64;
        let keys = patterns(cells);
        Some(TableEstimate {
            cells,
            keys,
            entry_bytes,
            bytes: keys.saturating_mul(entry_bytes),
        })
    }
}

/// `2^cells`, saturating: the patterns of a frontier of `cells` cells.
pub(crate) fn patterns(cells: u32) -> u64 {
    1u64.checked_shl(cells).unwrap_or(u64::MAX)
}

/// A memo job's pieces keep its input and multiplicity.
impl Piece for Job {
    type Mark = (usize, u64);
    fn mark(&self) -> (usize, u64) {
        (self.class, self.times)
    }
    fn piece((class, times): (usize, u64), prefix: Vec<u32>) -> Job {
        Job {
            class,
            prefix,
            times,
        }
    }
}

/// A worker of a memo count: per input, its search and its table (its own, or its view
/// of the shared one), and the sum of the roots it finished.
struct Counter<'a> {
    classes: &'a [&'a Input],
    key_words: &'a [usize],
    budget: &'a [usize],
    workers: usize,
    shared: Option<&'a [Sharded]>,
    stopping: &'a (dyn Fn() -> bool + Sync),
    /// Set when a job was stopped: the count is then incomplete.
    stop: &'a AtomicBool,
    giving: &'a Giving<'a, Job, Count>,
    finished: Option<Heard<'a>>,
    searches: Vec<Option<Search<'a>>>,
    own: Vec<Option<Table>>,
    views: Vec<Option<View<'a>>>,
    sum: Count,
}

impl Worker<Job, Count> for Counter<'_> {
    fn run(&mut self, job: &ScheduledJob<Job>, _giving: &Giving<'_, Job, Count>) -> Option<Count> {
        let Job {
            class,
            prefix,
            times,
        } = &job.work;
        let (class, times) = (*class, *times);
        let (classes, stopping, giving) = (self.classes, self.stopping, self.giving);
        let search = self.searches[class].get_or_insert_with(|| {
            let mut s = Search::new(classes[class], stopping);
            s.sharing(giving);
            s
        });
        let memo: &mut dyn Memo = match self.shared {
            Some(s) => self.views[class].get_or_insert_with(|| s[class].view()),
            None => {
                let (words, bytes) = (self.key_words[class], self.budget[class] / self.workers);
                self.own[class].get_or_insert_with(|| Table::new(words, bytes))
            }
        };
        match count_after(search, prefix, memo) {
            Ok(c) => Some(c.times(times)),
            Err(Incomplete) => {
                self.stop.store(true, Ordering::Relaxed);
                None
            }
        }
    }

    fn root_done(&mut self, root: usize, all: Count) {
        if let Some(f) = self.finished {
            f(root, &all);
        }
        self.sum.add(&all);
    }
}
