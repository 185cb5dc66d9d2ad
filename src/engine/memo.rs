//! The memo engine (`--solver memo`): counts with a table of subproblem counts
//! ([`crate::solver::memo`]) and never sees a solution, so its prepared value
//! [`Counts`] and has no listing to refuse; it also [`Samples`], drawing through the same
//! table ([`super::sample`]).
//!
//! Up to symmetry it cannot keep one canonical member of each orbit, as the native
//! engines do. It counts:
//! - with no symmetry (`--symmetry none`), the exact covers of the matrix;
//! - when the reduction pinned an item and needs no canonical-form check (every
//!   representative's stabiliser is trivial), the exact covers of the reduced matrix,
//!   which are one per orbit;
//! - otherwise by Burnside's lemma ([`crate::burnside`]): the fixed solutions of one
//!   element per conjugacy class, each a count of its quotient problem.
//!
//! Preparing decides the plan once (and computes the Burnside classes once): `describe`
//! and the count read it.
//!
//! Invariants: a count it reports is exact, or marked incomplete (a deadline, Ctrl-C);
//! the table stays within [`RunOptions::memory`]; a part of a split (`--part`,
//! `--checkpoint`) is counted subproblem by subproblem on the reduced matrix, each
//! subproblem reported as it ends, when the reduction needs no check. Burnside's sum
//! does not split into subproblems (which member of an orbit is canonical is not known
//! within one), so with a check the memo counts a scope only when it is the whole split
//! (`--checkpoint` of a whole count, started afresh, or a part that the whole split
//! falls in): by Burnside's lemma at once, reporting no subproblem; the caller records
//! the total. An empty scope (a part of a small puzzle that no subproblem falls in, a
//! checkpoint that holds every subproblem) counts 0, as with the native engines, so that
//! the parts of any split merge; a scope of some subproblems but not all is refused.

use std::time::Instant;

use super::sample::Sampler;
use super::{Algorithm, Counts, Goal, Problem, Report, RunOptions, Samples, Within};
use crate::burnside::{self, Quotient};
use crate::count::Count;
use crate::error::{Error, Result};
use crate::setting::Setting;
use crate::solver::memo::{self, Counted, MemoStats, Settings, Sweep};

/// The memo engine. Its prepared value also serves the frontier engine
/// (`frontier.rs`), which counts a sweep layer by layer where it can and searches as the
/// memo does where it cannot.
#[derive(Debug)]
pub(super) struct Memo;

/// How the memo counts a problem's orbits.
enum Plan {
    /// The exact covers of the reduced matrix are the orbits.
    Direct,
    /// Burnside's sum over the group's conjugacy classes: (element, class size).
    Burnside(Vec<(usize, usize)>),
}

fn plan(problem: &Problem) -> Plan {
    if problem.reduction.needs_check() {
        Plan::Burnside(burnside::classes(problem.reduction.group()))
    } else {
        Plan::Direct
    }
}

impl Algorithm for Memo {
    fn name(&self) -> &'static str {
        super::names::MEMO
    }

    /// The table's subproblems.
    fn certifies(&self) -> Option<super::Certifies> {
        Some(super::Certifies::Table)
    }

    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn super::Prepared + 'p>> {
        Ok(Box::new(PreparedMemo::new(problem, self.name(), None)))
    }
}

/// The memo prepared for one problem (or the frontier: `layers`): its plan, Burnside
/// classes included.
pub(super) struct PreparedMemo<'p> {
    problem: &'p Problem,
    plan: Plan,
    /// The input of the plan's first matrix ([`matrix_of`]), built once: its sweeps and
    /// their orders are computed as it is made.
    input: memo::Input,
    name: &'static str,
    /// The sweep the plan's first matrix (the reduced one, or Burnside's identity) is
    /// counted along by layers: the frontier's, where the layers apply.
    layers: Option<Sweep>,
    /// The frontier asked for layers that do not apply, so the memo's search counts.
    fell_back: bool,
}

impl<'p> PreparedMemo<'p> {
    /// The memo for `problem`, named `name`, counting by layers along `sweep` where it is
    /// given and the layers apply.
    pub(super) fn new(problem: &'p Problem, name: &'static str, sweep: Option<Sweep>) -> Self {
        let plan = plan(problem);
        let input = memo::Input::from(matrix_of(problem, &plan));
        let layers = sweep.filter(|&s| input.by_layers(s));
        PreparedMemo {
            problem,
            plan,
            input,
            name,
            layers,
            fell_back: sweep.is_some() && layers.is_none(),
        }
    }
}

impl super::Prepared for PreparedMemo<'_> {
    fn keeps_table(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn describe(&self, _goal: Goal) -> Vec<String> {
        let problem = self.problem;
        let how = match &self.plan {
            Plan::Direct if problem.reduction.group().order() == 1 => {
                "every solution counts".to_string()
            }
            Plan::Direct => "one solution per orbit by the pinned item".to_string(),
            Plan::Burnside(classes) => format!(
                "orbits by Burnside's lemma over {} classes of {} symmetries",
                classes.len(),
                problem.reduction.group().order()
            ),
        };
        if let Some(sweep) = self.layers {
            return vec![format!(
                "solver {}: layer by layer along a sweep (sweep {}), a broken-profile DP \
                 (every piece has copies, so its states are the frontier's cells and the \
                 pieces left), {how}",
                self.name,
                sweep.name()
            )];
        }
        let (_, branching) = memo::Input::from(problem.reduction.matrix()).branching();
        let instead = if self.fell_back {
            // The frontier's layers need a sweep (every piece with copies) whose state
            // fits a word: say that the memo's search counts instead.
            " with no layers here (they need every piece to have copies and a frontier \
             that fits a word), so the memo's search:"
        } else {
            ":"
        };
        vec![format!(
            "solver {}{instead} a table of subproblem counts, {how}, {branching}",
            self.name
        )]
    }

    fn samples(&self) -> Option<&dyn Samples> {
        Some(self)
    }

    fn counts(&self) -> Option<&dyn Counts> {
        Some(self)
    }
}

/// The memo draws: it counts the reduced matrix into its table, then walks it
/// ([`super::sample`]).
impl Samples for PreparedMemo<'_> {
    fn fits(&self, memory: usize) -> Result<()> {
        Sampler::fits(self.problem, memory)
    }

    fn draws<'s>(
        &'s self,
        seed: u64,
        memory: usize,
        stop: &'s (dyn Fn() -> bool + Sync),
    ) -> Result<Sampler<'s>> {
        Sampler::new(self.problem, seed, memory, stop)
    }
}

impl Counts for PreparedMemo<'_> {
    fn count(&self, opts: &RunOptions, within: Option<Within<'_>>) -> Result<Report> {
        let problem = self.problem;
        let start = Instant::now();
        let _listening = opts.stop.listen();
        let stop = || opts.stop.should_stop();
        // Layers never forget: one that outgrows the budget ends the count with a
        // refusal that names its size (below), so the table's refusal is for the search.
        if let Some(sweep) = self.layers {
            refuse_layers_past_budget(self.input.layers_widest(sweep), opts.memory)?;
        } else {
            refuse_past_budget(self.estimated(), opts.memory, Instead::Count)?;
        }
        let settings = Settings {
            threads: opts.threads.max(1),
            memory: opts.memory,
            shared: true,
            stop: &stop,
            layers: self.layers,
        };
        let mut stats = MemoStats::default();
        let mut parts = 0;
        let counted: Option<Count> = match (&self.plan, within) {
            (Plan::Direct, None) => take(
                // The plan's first matrix is the reduced one: its input, built once.
                memo::count_input(&self.input, &settings),
                &mut stats,
            ),
            (Plan::Direct, Some(w)) => {
                let jobs: Vec<Vec<u32>> = w
                    .scope
                    .subproblems
                    .iter()
                    .map(|&j| {
                        crate::solver::split::reduced_prefix(
                            &problem.reduction,
                            w.scope.split.prefix(j),
                        )
                    })
                    .collect();
                parts = jobs.len() as u64;
                let finished = |k: usize, n: num_bigint::BigUint| {
                    (w.finished)(w.scope.subproblems[k], Count::from(n))
                };
                take(
                    memo::count_each(problem.reduction.matrix(), &jobs, &settings, &finished),
                    &mut stats,
                )
            }
            // An empty part (a split with fewer subproblems than parts, or a checkpoint
            // that holds them all): nothing to count, as with the native engines, so
            // that every part of a small puzzle merges.
            (Plan::Burnside(_), Some(w)) if w.scope.subproblems.is_empty() => Some(Count::zero()),
            (Plan::Burnside(_), Some(w)) if w.scope.subproblems.len() < w.scope.split.len() => {
                return Err(Error::Usage(format!(
                    "{} counts a part of a split, or continues a checkpoint that holds some \
                     subproblems, only where the symmetry reduction needs no canonical-form \
                     check (for example {}): up to symmetry it counts by Burnside's lemma, \
                     which does not split into subproblems; use {} (or a new checkpoint file)",
                    Setting::Solver.is(self.name),
                    Setting::Symmetry.is("none"),
                    Setting::Solver.is(super::names::BITS),
                )))
            }
            // The whole split: the whole count, at once.
            (Plan::Burnside(classes), _) => {
                let matrix = &problem.compiled.matrix;
                let group = problem.reduction.group();
                let inputs: Vec<(memo::Input, u64)> = classes
                    .iter()
                    .map(|&(k, size)| {
                        let quotient = Quotient::new(matrix, &group.elements()[k]);
                        (memo::Input::from(&quotient), size as u64)
                    })
                    .collect();
                match take(memo::count_sum(&inputs, &settings), &mut stats) {
                    Some(sum) => Some(burnside::divide(sum, group.order())?),
                    None => None,
                }
            }
        };
        if let Some(outgrown) = stats.layers.outgrown {
            return Err(outgrown_refusal(outgrown, opts.memory));
        }
        let complete = counted.is_some();
        let stopped = !complete;
        Ok(Report {
            solutions: counted.unwrap_or_default(),
            complete,
            interrupted: stopped && opts.stop.raised(),
            timed_out: stopped && !opts.stop.raised(),
            seconds: start.elapsed().as_secs_f64(),
            statistics: statistics(&stats),
            parts_done: 0,
            parts,
            // The workers it ran on (one for a small sweep, at most one per core); a
            // count stopped before any ran says what was asked.
            threads: if stats.workers > 0 {
                stats.workers
            } else {
                opts.threads.max(1)
            },
        })
    }
}

impl PreparedMemo<'_> {
    /// The estimate of the table of the matrix the count runs on (Burnside's identity
    /// class is the matrix itself), where the memo sweeps.
    fn estimated(&self) -> Option<memo::TableEstimate> {
        self.input.table_estimate()
    }
}

fn estimate(problem: &Problem, plan: &Plan) -> Option<memo::TableEstimate> {
    memo::Input::from(matrix_of(problem, plan)).table_estimate()
}

/// The matrix a plan counts first: the reduced one, or Burnside's identity class, the
/// whole matrix.
fn matrix_of<'p>(problem: &'p Problem, plan: &Plan) -> &'p crate::matrix::Matrix {
    match plan {
        Plan::Direct => problem.reduction.matrix(),
        Plan::Burnside(_) => &problem.compiled.matrix,
    }
}

/// The refusal of a count whose layer outgrew the budget: where, how many states, and
/// the memory that was allowed. A usage error (exit 2): the puzzle and the budget do not
/// fit together.
fn outgrown_refusal((cell, cells, states): (usize, usize, u64), memory: usize) -> Error {
    Error::Usage(format!(
        "the frontier's layers would not fit in {}: at cell {cell} of {cells} one layer \
         held {states} states and was still growing. Give a larger {} if the machine has \
         it (a layer never forgets, so no count runs with a table that recounts)",
        Setting::Memory.is(bytes(memory as u64)),
        Setting::Memory.mark(),
    ))
}

/// Bytes a state takes in a layer: its key (8), its count (a `u128`, 16) and the hash
/// map's control byte; a layer holds at most one state per pattern of the widest
/// frontier's cells.
const LAYER_STATE_BYTES: u64 = 25;

/// Refuses, before any work, a count whose widest frontier alone may hold more states
/// than `--memory`: `2^cells` of [`LAYER_STATE_BYTES`]. An upper bound (a 16x16 box of
/// dominoes meets 12,870 of its 2^17 patterns), so a count it lets through may still
/// outgrow the budget, and then ends with [`outgrown_refusal`]; what it refuses is
/// refused within a second instead of after filling the memory.
fn refuse_layers_past_budget(widest: Option<u32>, memory: usize) -> Result<()> {
    let Some(cells) = widest else {
        return Ok(());
    };
    let keys = memo::patterns(cells);
    let need = keys.saturating_mul(LAYER_STATE_BYTES);
    if need <= memory as u64 {
        return Ok(());
    }
    let size = if cells < 63 && need < u64::MAX {
        format!(
            "2^{cells} = {keys} states of {LAYER_STATE_BYTES} bytes, about {}",
            bytes(need)
        )
    } else {
        format!("2^{cells} states, more than any machine holds")
    };
    if layers_past_machine(Some(cells)) {
        return Err(Error::Usage(format!(
            "the frontier's layers cannot fit in this machine's memory: its sweep's widest \
             frontier has {cells} cells, so one layer may hold up to {size}. No {} lifts \
             that: count it with {} (or dlx, or sat), which keep no table",
            Setting::Memory.mark(),
            Setting::Solver.is(super::names::BITS),
        )));
    }
    Err(Error::Usage(format!(
        "the frontier's layers may not fit in {}: its sweep's widest frontier has {} cells, \
         so one layer may hold up to {size}. Give a larger {} if the machine has it, or \
         count a smaller puzzle",
        Setting::Memory.is(bytes(memory as u64)),
        cells,
        Setting::Memory.mark(),
    )))
}

/// Whether one layer of a sweep whose widest frontier has `widest` cells may hold more
/// than this machine's memory (`MemTotal`; where nothing tells, more than any memory), so
/// that no `--memory` lifts the frontier's refusal.
fn layers_past_machine(widest: Option<u32>) -> bool {
    widest.is_some_and(|cells| {
        let need = memo::patterns(cells).saturating_mul(LAYER_STATE_BYTES);
        need >= crate::memory::machine_memory().map_or(u64::MAX, |m| m as u64)
    })
}

/// Whether the frontier engine counts `problem` layer by layer along `sweep` (its first
/// matrix is a sweep whose state fits a word), in layers that could fit in this
/// machine's memory with a large enough `--memory`: the default engine never picks a
/// frontier that would fall back to the memo, or be refused whatever the budget. The
/// input (its sweeps, its plan's Burnside classes) is built once for both.
pub(super) fn layers_take(problem: &Problem, sweep: Sweep) -> bool {
    let input = memo::Input::from(matrix_of(problem, &plan(problem)));
    input.by_layers(sweep) && !layers_past_machine(input.layers_widest(sweep))
}

/// Whether the memo's table for `problem` could fit in this machine's memory with a
/// large enough `--memory`: `false` when its widest sweep step alone is past it (or past
/// any memory), the refusal of [`refuse_past_budget`] that no `--memory` lifts.
pub(super) fn fits_machine(problem: &Problem) -> bool {
    estimate(problem, &plan(problem)).is_none_or(|e| !past_machine(&e))
}

/// Whether a table of estimate `e` is past this machine's memory (`MemTotal`; where
/// nothing tells, past any memory only), so that no `--memory` lifts its refusal.
fn past_machine(e: &memo::TableEstimate) -> bool {
    e.bytes >= crate::memory::machine_memory().map_or(u64::MAX, |m| m as u64)
}

/// What a refusal by [`refuse_past_budget`] that no memory can lift points to instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Instead {
    /// A count: the engines that need no table.
    Count,
    /// Uniform draws, which only the memo's counts give.
    Sample,
}

/// Refuses, before any work, a count whose sweep's widest step alone may hold more keys
/// than the table's byte budget (`--memory`): the table would forget and count the same
/// subproblems again and again, for hours, where a refusal with the size costs nothing
/// (the 6x6x6 cube of dominoes: 27 cells, 2.3 GB and no count after a minute). An error
/// of usage (exit 2): the puzzle and the budget do not fit together.
///
/// A table larger than the machine's memory (or than any memory) cannot be lifted by
/// `--memory`: the refusal then names what would run instead (`instead`), not the flag.
pub(crate) fn refuse_past_budget(
    estimate: Option<memo::TableEstimate>,
    memory: usize,
    instead: Instead,
) -> Result<()> {
    match estimate {
        Some(e) if e.bytes > memory as u64 => {
            // Past 2^63 keys the figures saturate: say so rather than print u64::MAX.
            let size = if e.cells < 63 && e.bytes < u64::MAX {
                format!(
                    "2^{} = {} subproblems of {} bytes, about {}",
                    e.cells,
                    e.keys,
                    e.entry_bytes,
                    bytes(e.bytes)
                )
            } else {
                format!(
                    "2^{} subproblems of {} bytes, more than any machine holds",
                    e.cells, e.entry_bytes
                )
            };
            if past_machine(&e) {
                let what = match instead {
                    Instead::Count => format!(
                        "count it with {} (or dlx, or sat), which keep no table",
                        Setting::Solver.is(super::names::BITS)
                    ),
                    Instead::Sample => "drawing at random goes through that table, so it \
                                        cannot draw from this puzzle; the bits engine lists \
                                        its solutions instead"
                        .to_string(),
                };
                return Err(Error::Usage(format!(
                    "the memo's table cannot fit in this machine's memory: its sweep's widest \
                     frontier has {} cells, so one step may hold up to {size}. No {} lifts \
                     that: {what}",
                    e.cells,
                    Setting::Memory.mark(),
                )));
            }
            Err(Error::Usage(format!(
                "the memo's table would not fit in {}: its sweep's widest frontier has {} \
                 cells, so one step may hold up to {size}; a table that small forgets and \
                 counts them again without end. Give a larger {} if the machine has it, or \
                 count a smaller puzzle",
                Setting::Memory.is(bytes(memory as u64)),
                e.cells,
                Setting::Memory.mark(),
            )))
        }
        _ => Ok(()),
    }
}

/// A byte size for a person: `512 MiB`, `34 GiB`.
fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 || v >= 10.0 {
        format!("{v:.0} {}", UNITS[unit])
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// The count of one memo run, its statistics added to `stats`; `None` when it stopped.
fn take(counted: Counted, stats: &mut MemoStats) -> Option<Count> {
    stats.add(&counted.stats);
    counted.count.ok().map(Count::from)
}

fn statistics(stats: &MemoStats) -> String {
    let t = &stats.table;
    let l = &stats.layers;
    let layers = format!(
        "states {}, widest layer {}, layers {:.1} MiB",
        l.states,
        l.widest,
        l.bytes as f64 / (1 << 20) as f64
    );
    let table = format!(
        "nodes {}, table hits {:.1}%, entries {}, table {:.1} MiB, evictions {}",
        stats.nodes,
        100.0 * stats.hit_rate(),
        t.peak_entries,
        t.peak_bytes as f64 / (1 << 20) as f64,
        t.evictions
    );
    match (l.states > 0, stats.nodes > 0) {
        (true, true) => format!("{layers}, {table}"),
        (true, false) => layers,
        _ => table,
    }
}
