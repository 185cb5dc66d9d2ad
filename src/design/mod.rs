//! Designing polycube puzzles with exactly one solution (`polycover design`): a local
//! search over cuts of a box that reshapes the pieces until the puzzle's solutions, up to
//! the rotations of the box, are one.
//!
//! # The search
//!
//! A state is a cut of the box (`cut.rs`): the cut is always a solution of its puzzle,
//! so a puzzle has at least one. Its score is (faults, solutions): the pieces that break
//! a rule on shapes (the request's `allow_duplicates`, `chiral` and `flat`, see
//! `shape.rs`), then the solutions up to rotations,
//! counted by the caller's counter with an early stop. A move passes a boundary cell to
//! a neighbouring piece or swaps two neighbouring cells of two pieces; it is tried, and
//! the puzzle counted, only when it keeps a valid cut and adds no fault.
//!
//! The counts stop early: a candidate is compared with the current state, whose count `c`
//! is known, so hill climbing counts it up to `c + 1` (one more is already worse), and
//! annealing up to `2c + 1`. Most candidates are therefore refused after a few
//! solutions. A count below its stop is the whole count: a state with one solution is
//! proven unique by the count that accepted it (a full search that found no second).
//! The first state, and a candidate that removes a fault, are counted up to `cap`; a
//! count that reaches the cap stands for "at least `cap`", and such states compare equal.
//!
//! Strategies ([`Strategy`]): `climb` accepts a candidate no worse than the current state
//! (equal ones too, a walk on the plateau) and, after `PATIENCE` tries without a better
//! state, goes back to the best state since its last restart and kicks it with a few
//! random moves, and after `KICKS` kicks without a better state restarts from a fresh
//! random cut (the best state of all is kept); `anneal`
//! also accepts a worse candidate with probability exp(-ln(c'/c) / T), T cooling.
//!
//! Invariants: every state the search holds is a valid cut (the invariants of
//! `cut.rs`); the best state's count is exact unless `capped`; the same request and the
//! same counts give the same moves (the generator is seeded by `seed` alone); the
//! search stops at a unique puzzle without faults, at the deadline, or at Ctrl-C
//! (`Request::stop`), and in each case returns the best state; a request whose
//! rules no cut can keep, by the count of shapes alone (`shape::impossible`), is refused
//! before the search begins.

mod cut;
mod fallback;
mod maximize;
mod shape;

use std::time::Instant;

use rand_pcg::rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::error::{Error, Result};
use crate::geometry::{Cell, Shape};
use crate::puzzle::polycube::generate;
use crate::puzzle::Puzzle;

use shape::Rules;

/// Counts the solutions of a puzzle up to rotations, stopping at the given number:
/// `Ok(Some(n))` with `n` the whole count when below that number, `Ok(None)` when the
/// count gave up (its deadline), and [`Error::Interrupted`] at Ctrl-C. Shared by the
/// walks, each counting on its own thread.
pub(crate) type Counter<'a> = dyn Fn(&Puzzle, u64) -> Result<Option<u64>> + Sync + 'a;

impl Request {
    /// Designs the puzzle asked for; `command` is the command line named in the file's
    /// header, `count` counts the solutions of a state up to rotations, stopping at the
    /// number it is given (`Ok(None)` when it gave up; the walks call it from their own
    /// threads), and `progress` hears of every step (on the calling thread).
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a request no cut meets or a `start` that is not a cut of the
    /// box; what `count` returns but [`Error::Interrupted`], which stops the search.
    pub fn design(
        &self,
        command: &str,
        count: &(dyn Fn(&Puzzle, u64) -> Result<Option<u64>> + Sync),
        progress: &mut dyn FnMut(&Event),
    ) -> Result<Designed> {
        design(self, command, count, progress)
    }

    /// Climbs from `designed`, when it is unique, to the unique puzzle with the largest
    /// `measure` of its DLX search tree found before the request's stop says stop; a
    /// design that is not unique is returned as it is. `count` counts as for
    /// [`Request::design`]; `progress` hears of every step.
    ///
    /// # Errors
    ///
    /// What `count` returns but [`Error::Interrupted`], which ends the climb.
    pub fn maximize(
        &self,
        designed: Designed,
        measure: Measure,
        count: &(dyn Fn(&Puzzle, u64) -> Result<Option<u64>> + Sync),
        progress: &mut dyn FnMut(&Event),
    ) -> Result<Designed> {
        maximize::maximize(self, designed, measure, count, progress)
    }

    /// The rules on the pieces' shapes, as one value for `shape.rs`.
    pub(crate) fn rules(&self) -> Rules {
        Rules {
            allow_duplicates: self.allow_duplicates,
            chiral: self.chiral,
            flat: self.flat,
        }
    }
}

/// What `--maximize` makes larger: a measure of a unique puzzle's DLX search tree
/// ([`crate::engine::Difficulty`]), as puzzle makers rank puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Every node of the tree: the work to find the one solution and prove there is no
    /// other.
    Nodes,
    /// The leaves without a solution: how often a solver backs out of a wrong placement
    /// (per solution, as the puzzle has one).
    DeadEnds,
    /// The options of the item the search branches on first (its most constrained cell
    /// or piece): the first placement's choices, so that no piece is forced at the
    /// first move.
    FirstMove,
}

impl Measure {
    /// The measure's name, as `--maximize` takes it: `nodes`, `dead-ends`.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Nodes => "nodes",
            Measure::DeadEnds => "dead-ends",
            Measure::FirstMove => "first-move",
        }
    }

    /// The measure in words, for progress lines and file headers: `DLX nodes`.
    pub fn words(self) -> &'static str {
        match self {
            Measure::Nodes => "DLX nodes",
            Measure::DeadEnds => "DLX dead ends",
            Measure::FirstMove => "first-move options",
        }
    }
}

/// How the search moves between states (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Hill climbing on the plateau, with kicks from the best state.
    #[default]
    Climb,
    /// Simulated annealing.
    Anneal,
}

/// What to design.
#[derive(Clone, Debug)]
pub struct Request {
    /// The box, in cells along x, y and z.
    pub size: [usize; 3],
    /// How many pieces (ignored with `start`, whose pieces are the pieces).
    pub pieces: usize,
    /// Each piece's cell count, from `.0` to `.1`.
    pub sizes: (usize, usize),
    /// The seed of the first cut and of the moves.
    pub seed: u64,
    /// Two pieces may have the same shape (they become one piece with a count).
    pub allow_duplicates: bool,
    /// No piece may be its own mirror image (`--chiral`).
    pub chiral: bool,
    /// Every piece lies in one plane (`--flat-pieces`).
    pub flat: bool,
    /// The cut to start from, pieces in box coordinates, instead of a random one.
    pub start: Option<Vec<Vec<Cell>>>,
    /// Shapes of `start`'s pieces that never change, each as its cells: a piece whose
    /// shape is one of these up to rotation (and translation) is frozen.
    pub keep: Vec<Vec<Cell>>,
    /// When to end, with the best state so far: at the stop's deadline (the normal end
    /// of a search without a unique puzzle), or when it is raised.
    pub stop: crate::stop::Stop,
    /// How the search moves.
    pub strategy: Strategy,
    /// The count's stop for the first state and for candidates that remove a fault.
    pub cap: u64,
    /// Draw the piece a move changes by how many ways it fits the box (see
    /// `Cut::placements`), not uniformly by cell.
    pub prefer_placements: bool,
    /// Walks to run side by side, one per worker thread (at most one per core; 0 counts
    /// as 1). One walk is reproducible: the same request and seed give the same puzzle.
    pub threads: usize,
}

/// A state's score, compared as (faults, solutions): less is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Score {
    /// Pieces that break a rule on shapes.
    pub faults: usize,
    /// Solutions up to rotations; at least this many when `capped`, about this many
    /// when `estimated`.
    pub solutions: u64,
    /// The count stopped at its cap.
    pub capped: bool,
    /// `solutions` is an estimate of a count above the cap (Knuth's, with the bottom of
    /// the tree counted: see the module doc), not a count.
    pub estimated: bool,
}

impl Score {
    /// Whether this is the goal: no fault and one solution.
    pub fn unique(&self) -> bool {
        self.faults == 0 && self.solutions == 1 && !self.capped && !self.estimated
    }

    /// Whether `solutions` is the whole count.
    pub fn exact(&self) -> bool {
        !self.capped && !self.estimated
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = if self.estimated {
            "about "
        } else if self.capped {
            "at least "
        } else {
            ""
        };
        // An estimate saturates at the largest count it holds: that is no number of
        // solutions, only a bound.
        if self.estimated && self.solutions == u64::MAX {
            write!(f, "more than {} solutions", u64::MAX)?;
        } else {
            write!(
                f,
                "{how}{}",
                crate::count::Count::solutions(crate::count::Count::from(self.solutions))
            )?;
        }
        if self.faults > 0 {
            write!(f, ", {} pieces breaking the shape rules", self.faults)?;
        }
        Ok(())
    }
}

/// How far a design is, for progress lines: one kind of event for the design search
/// ([`Request::design`]), the climb to a harder puzzle ([`Request::maximize`]) and
/// the draws before a design ([`crate::kinds::Generator::unique_or_unsat`]).
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// Drawing at random: this many puzzles drawn so far.
    Drawing {
        /// Puzzles drawn.
        draws: u64,
    },
    /// The draws failed: a design search of this seed begins.
    Designing {
        /// The design's seed.
        seed: u64,
    },
    /// A step of the design search.
    Moved {
        /// Seconds since the search began.
        seconds: f64,
        /// The best score so far.
        best: Score,
        /// Moves tried (valid cuts counted or refused for a fault).
        tried: u64,
        /// Moves accepted.
        accepted: u64,
        /// The best score improved at this step.
        improved: bool,
    },
    /// A step of the climb to a harder unique puzzle.
    Climbed {
        /// Seconds since the climb began.
        seconds: f64,
        /// What the climb makes larger.
        measure: Measure,
        /// The measure of the hardest unique puzzle so far.
        best: u64,
        /// The measure of the unique puzzle the climb started from.
        first: u64,
        /// Moves tried in the climb.
        tried: u64,
        /// Moves accepted.
        accepted: u64,
        /// The hardest puzzle changed at this step.
        improved: bool,
    },
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The best puzzle is unique: the goal.
    Unique,
    /// The deadline passed first.
    Deadline,
    /// Ctrl-C (or another stop request) came first.
    Interrupted,
}

/// The best puzzle found, and how.
#[derive(Clone, Debug)]
pub struct Designed {
    /// The puzzle file: a header saying how it was made, `[expect]` where the count is
    /// exact and without faults, the pieces.
    pub text: String,
    /// The best state's score.
    pub score: Score,
    /// Why the search stopped.
    pub ending: Ending,
    /// Moves tried and accepted.
    pub tried: u64,
    /// Moves accepted.
    pub accepted: u64,
    /// Seconds the search took.
    pub seconds: f64,
    /// Every improvement of the best score, over all walks: (seconds, score).
    pub curve: Vec<(f64, Score)>,
    /// The walks that ran side by side (one per worker thread).
    pub walks: usize,
    /// The best state's cut, and its frozen pieces, for [`Request::maximize`].
    cut: cut::Cut,
    frozen: Vec<bool>,
}

/// Tries without a better current state before `climb` kicks the best state.
const PATIENCE: u64 = 200;
/// Kicks from one local best without a better state before `climb` restarts from a
/// fresh random cut (a search from a `start` never restarts).
const KICKS: u32 = 10;
/// Random moves in a kick.
const KICK: usize = 4;

/// Designs the puzzle `r` asks for; `command` is the command line named in the file's
/// header, `count` counts, `progress` hears of every step.
///
/// # Errors
///
/// [`Error::Usage`] for a request no cut meets or a `start` that is not a cut of the
/// box; what `count` returns but [`Error::Interrupted`], which stops the search.
pub(crate) fn design(
    r: &Request,
    command: &str,
    count: &Counter<'_>,
    progress: &mut dyn FnMut(&Event),
) -> Result<Designed> {
    let begun = Instant::now();
    let g = generate::Generator {
        size: r.size,
        pieces: r.pieces,
        sizes: r.sizes,
        seed: r.seed,
        unique: false,
        unsat: false,
    };
    let start = check(r, &g)?;
    let walks = crate::schedule::workers(r.threads.max(1));
    let shared = Shared::new(begun, start);
    let results = if walks == 1 {
        vec![(0, walk(r, 0, &g, count, &shared, progress))]
    } else {
        side_by_side(r, walks, &g, count, &shared, progress)
    };
    let mut best: Option<(usize, Walked)> = None;
    for (k, result) in results {
        let walked = result?;
        if best.as_ref().is_none_or(|(_, b)| walked.best.1 < b.best.1) {
            best = Some((k, walked));
        }
    }
    let (_, walked) = best.expect("at least one walk ran");
    let totals = shared.lock();
    let ending = walked.ending;
    let seconds = begun.elapsed().as_secs_f64();
    let header = format!(
        "# {command}\n{}",
        how(r, &totals, walks, walked.best.1, ending, seconds)
    );
    let best = walked.best;
    let expect = (best.1.faults == 0 && best.1.exact()).then_some(best.1.solutions);
    Ok(Designed {
        text: render(r, &best.0, &header, expect),
        score: best.1,
        ending,
        tried: totals.tried,
        accepted: totals.accepted,
        seconds,
        curve: totals.curve.clone(),
        walks,
        cut: best.0,
        frozen: walked.frozen,
    })
}

/// What the walks of one design share: the request's `start` cut, the best state of all
/// (a walk that restarts starts from it when it is better than its own), the curve of its
/// score, the moves, and whether one walk is done (unique), which ends the others.
struct Shared {
    begun: Instant,
    start: Option<cut::Cut>,
    totals: std::sync::Mutex<Totals>,
    done: std::sync::atomic::AtomicBool,
}

/// The best state of all walks, and their moves.
struct Totals {
    best: Option<(cut::Cut, Score)>,
    curve: Vec<(f64, Score)>,
    tried: u64,
    accepted: u64,
}

impl Shared {
    fn new(begun: Instant, start: Option<cut::Cut>) -> Shared {
        Shared {
            begun,
            start,
            totals: std::sync::Mutex::new(Totals {
                best: None,
                curve: Vec::new(),
                tried: 0,
                accepted: 0,
            }),
            done: std::sync::atomic::AtomicBool::new(false),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Totals> {
        self.totals.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a walk's moves and its best state; the event that says where the design
    /// stands (the best of all walks, the moves of all).
    fn step(&self, tried: u64, accepted: u64, best: &(cut::Cut, Score)) -> Event {
        let mut t = self.lock();
        t.tried += tried;
        t.accepted += accepted;
        let improved = t.best.as_ref().is_none_or(|b| best.1 < b.1);
        if improved {
            t.best = Some(best.clone());
            t.curve.push((self.begun.elapsed().as_secs_f64(), best.1));
            if best.1.unique() {
                self.done.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        Event::Moved {
            seconds: self.begun.elapsed().as_secs_f64(),
            best: t.best.as_ref().map_or(best.1, |b| b.1),
            tried: t.tried,
            accepted: t.accepted,
            improved,
        }
    }

    /// The best state of all, when it is better than `than`.
    fn better(&self, than: Score) -> Option<cut::Cut> {
        let t = self.lock();
        t.best.as_ref().filter(|b| b.1 < than).map(|b| b.0.clone())
    }

    fn done(&self) -> bool {
        self.done.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// One walk's end: its best state, why it ended, and its frozen pieces.
struct Walked {
    best: (cut::Cut, Score),
    ending: Ending,
    frozen: Vec<bool>,
}

/// The seed of walk `k`: the request's own for the first walk (so that one walk is the
/// plain search), and a distinct stream for each other.
fn walk_seed(seed: u64, k: usize) -> u64 {
    seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// `walks` walks side by side on the scheduler's workers (a job per walk), their events
/// handed to `progress` on the calling thread; each walk's result, by its number.
fn side_by_side(
    r: &Request,
    walks: usize,
    g: &generate::Generator,
    count: &Counter<'_>,
    shared: &Shared,
    progress: &mut dyn FnMut(&Event),
) -> Vec<(usize, Result<Walked>)> {
    use crate::schedule::{execute, Caller, Giving, Job, Pool, Worker};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    /// A worker runs the walk its job names, sending its events to the caller.
    struct Walker<'a, 'c> {
        r: &'a Request,
        g: &'a generate::Generator,
        count: &'a Counter<'c>,
        shared: &'a Shared,
        events: mpsc::Sender<Event>,
        results: Vec<(usize, Result<Walked>)>,
    }
    impl Worker<usize, u64> for Walker<'_, '_> {
        fn run(&mut self, job: &Job<usize>, _: &Giving<'_, usize, u64>) -> Option<u64> {
            let events = self.events.clone();
            let result = walk(
                self.r,
                job.work,
                self.g,
                self.count,
                self.shared,
                &mut |e| {
                    // The caller reads until every walk retired: a send cannot fail before.
                    let _ = events.send(*e);
                },
            );
            self.results.push((job.work, result));
            Some(0)
        }
        fn root_done(&mut self, _root: usize, _tally: u64) {}
    }

    let pool: Pool<usize, u64> = Pool::new(0..walks, walks);
    let givings = Giving::for_workers(&pool, walks);
    let (sender, receiver) = mpsc::channel();
    let sender = std::sync::Mutex::new(sender);
    let results = std::sync::Mutex::new(Vec::new());
    let retired = AtomicUsize::new(0);
    let make = |_: usize| {
        Some(Walker {
            r,
            g,
            count,
            shared,
            events: sender.lock().unwrap_or_else(|e| e.into_inner()).clone(),
            results: Vec::new(),
        })
    };
    let retire = |_: usize, w: Walker<'_, '_>| {
        results
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(w.results);
        retired.fetch_add(1, Ordering::SeqCst);
    };
    let mut consume = || {
        // Until every worker retired (a worker that could not start retires too).
        while retired.load(Ordering::SeqCst) < walks {
            if let Ok(e) = receiver.recv_timeout(std::time::Duration::from_millis(50)) {
                progress(&e);
            }
        }
        while let Ok(e) = receiver.try_recv() {
            progress(&e);
        }
    };
    execute(
        &pool,
        &givings,
        &make,
        &retire,
        Caller::Consumes(&mut consume),
    );
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(k, _)| *k);
    results
}

/// Walk `k` of the design `r` asks for (see the module doc): from the request's `start`
/// or a random cut, until the goal, the stop, or another walk's goal.
fn walk(
    r: &Request,
    k: usize,
    g: &generate::Generator,
    count: &Counter<'_>,
    shared: &Shared,
    progress: &mut dyn FnMut(&Event),
) -> Result<Walked> {
    let begun = shared.begun;
    let mut rng = Pcg64Mcg::seed_from_u64(walk_seed(r.seed, k));
    let first = first_cut(shared, g, &mut rng)?;
    let keep: Vec<Shape> = r
        .keep
        .iter()
        .map(|cells| Shape::new(cells.clone()).canonical())
        .collect();
    let frozen: Vec<bool> = first
        .pieces()
        .into_iter()
        .map(|p| keep.contains(&Shape::new(p).canonical()))
        .collect();
    let mut search = Mover {
        r,
        rng,
        frozen,
        count,
        tried: 0,
        accepted: 0,
    };
    let (score, mut stop) = search.first_score(&first)?;
    let mut walk = Walk::new((first, score), begun.elapsed().as_secs_f64());
    progress(&shared.step(0, 0, &walk.best));
    let mut told = (0, 0);
    while stop.is_none() {
        stop = stopping(r, walk.best.1, shared);
        if stop.is_some() {
            break;
        }
        let Some(moved) = search.neighbour(&walk.current.0) else {
            // Nothing can move (every piece frozen): the first cut is the design.
            stop = Some(Ending::Deadline);
            break;
        };
        let Some(next) = moved else {
            continue;
        };
        search.tried += 1;
        walk.since_better += 1;
        let scored = match search.score(&next, Some(walk.current.1)) {
            Ok(s) => s,
            Err(Error::Interrupted(_)) => {
                stop = Some(Ending::Interrupted);
                break;
            }
            Err(e) => return Err(e),
        };
        walk.take(&mut search, next, scored, &begun);
        if r.strategy == Strategy::Climb && walk.since_better >= PATIENCE {
            stop = walk.kick(&mut search, g, shared)?;
        }
        progress(&shared.step(search.tried - told.0, search.accepted - told.1, &walk.best));
        told = (search.tried, search.accepted);
    }
    Ok(Walked {
        best: walk.best,
        ending: stop.unwrap_or(Ending::Deadline),
        frozen: search.frozen,
    })
}

/// Refuses, before any walk, a request no cut meets or a `start` that is not a cut of the
/// box; the cut of a `start`, which every walk starts from.
fn check(r: &Request, g: &generate::Generator) -> Result<Option<cut::Cut>> {
    match &r.start {
        Some(pieces) => {
            let cut = cut::Cut::new(r.size, pieces).ok_or_else(|| {
                Error::Usage("the starting pieces are not a cut of the box".into())
            })?;
            possible(r, pieces.len())?;
            Ok(Some(cut))
        }
        None => {
            generate::check(g)?;
            possible(r, r.pieces)?;
            Ok(None)
        }
    }
}

/// The cut a walk starts from: the request's `start` (checked), or a random cut for `g`.
fn first_cut(shared: &Shared, g: &generate::Generator, rng: &mut Pcg64Mcg) -> Result<cut::Cut> {
    match &shared.start {
        Some(start) => Ok(start.clone()),
        None => fresh(g, rng),
    }
}

/// Why the search must stop before its next move, if it must: the goal reached, a stop
/// request, or the deadline.
fn stopping(r: &Request, best: Score, shared: &Shared) -> Option<Ending> {
    if best.unique() {
        Some(Ending::Unique)
    } else if shared.done() {
        // Another walk reached the goal: this one's result is not the design.
        Some(Ending::Deadline)
    } else if r.stop.raised() {
        Some(Ending::Interrupted)
    } else if r.stop.timed_out() {
        Some(Ending::Deadline)
    } else {
        None
    }
}

/// The header line saying how the search went, for the puzzle file.
fn how(
    r: &Request,
    totals: &Totals,
    walks: usize,
    best: Score,
    stop: Ending,
    seconds: f64,
) -> String {
    let side_by_side = if walks > 1 {
        format!(", {walks} walks side by side")
    } else {
        String::new()
    };
    format!(
        "# Designed by {} accepted of {} tried in {seconds:.1} s ({:?}{side_by_side}): {}.\n",
        crate::count::Count::plural(totals.accepted, "move", "moves"),
        totals.tried,
        r.strategy,
        match stop {
            Ending::Unique => "exactly one solution up to rotations".to_string(),
            _ => format!("stopped before a unique puzzle; the best has {best}"),
        }
    )
}

/// The states the walk keeps, and what decides when `climb` kicks.
struct Walk {
    current: (cut::Cut, Score),
    /// The best state since the last restart, which kicks go back to.
    local: (cut::Cut, Score),
    best: (cut::Cut, Score),
    /// Kicks since `local` last improved.
    kicks: u32,
    /// Tries since the current state last improved.
    since_better: u64,
    /// Annealing's temperature (cooled under either strategy, used by `anneal`).
    temperature: f64,
    /// Every improvement of the best score: (seconds, score).
    curve: Vec<(f64, Score)>,
}

impl Walk {
    /// A walk that begins at `first`, scored at `seconds`.
    fn new(first: (cut::Cut, Score), seconds: f64) -> Walk {
        Walk {
            curve: vec![(seconds, first.1)],
            local: first.clone(),
            best: first.clone(),
            current: first,
            kicks: 0,
            since_better: 0,
            temperature: 1.0,
        }
    }

    /// Moves to `next` (scored `scored`) if the strategy accepts it, keeps the local and
    /// overall best states, and cools; whether the best state improved.
    fn take(
        &mut self,
        search: &mut Mover,
        next: cut::Cut,
        scored: Option<Score>,
        begun: &Instant,
    ) -> bool {
        if let Some(s) = scored {
            if search.accepts(s, self.current.1, self.temperature) {
                search.accepted += 1;
                if s < self.current.1 {
                    self.since_better = 0;
                }
                self.current = (next, s);
            }
        }
        if self.current.1 < self.local.1 {
            self.local = self.current.clone();
            self.kicks = 0;
        }
        let improved = self.current.1 < self.best.1;
        if improved {
            self.best = self.current.clone();
            self.curve
                .push((begun.elapsed().as_secs_f64(), self.best.1));
        }
        self.temperature = (self.temperature * 0.999).max(0.05);
        improved
    }

    /// `climb` out of patience: kicks the local best state, or, after `KICKS` kicks
    /// without a better one, restarts: from a kick of the best state of all walks when
    /// another walk holds a better one than this walk's best, else from a fresh cut for
    /// `g`; `Interrupted` when a stop request came during the count.
    fn kick(
        &mut self,
        search: &mut Mover,
        g: &generate::Generator,
        shared: &Shared,
    ) -> Result<Option<Ending>> {
        self.since_better = 0;
        self.kicks += 1;
        let restart = self.kicks > KICKS && search.r.start.is_none();
        let kicked = if restart {
            // The walk from this one has stalled for long.
            self.kicks = 0;
            match shared.better(self.best.1) {
                Some(better) => search.kick(&better),
                None => fresh(g, &mut search.rng)
                    .and_then(|cut| Ok(search.score(&cut, None)?.map(|s| (cut, s)))),
            }
        } else {
            search.kick(&self.local.0)
        };
        match kicked {
            Ok(Some(kicked)) => {
                self.current = kicked;
                if restart {
                    self.local = self.current.clone();
                }
            }
            Ok(None) => self.current = self.local.clone(),
            Err(Error::Interrupted(_)) => return Ok(Some(Ending::Interrupted)),
            Err(e) => return Err(e),
        }
        Ok(None)
    }
}

/// Counts at or above this stop are estimated before they are counted: below it the
/// estimate of a few solutions is mostly zeros.
const ESTIMATE_FROM: u64 = 8;
/// Puzzles of fewer pieces are counted, never estimated: their whole tree is small (a
/// unique 4x4x4 puzzle in 10 pieces is designed in under a second), and an estimate
/// whose probes stop one level down would count most of it a hundred times.
const ESTIMATE_PIECES: usize = COUNTED_LEVELS + 2;
/// An estimate at least this is the score, and the puzzle is not counted: counting a few
/// hundred solutions of a 4x4x4 puzzle walks most of its tree (seconds), the estimate
/// takes a hundred probes (tens of milliseconds) and is within a factor of two or so
/// (Bedlam's 19,186: 11,000 to 29,000).
const COUNT_BELOW: u64 = 256;
/// A puzzle estimated below `COUNT_BELOW` is counted up to this many times it (the
/// estimate may be low), and one estimated at this many times the count it is compared
/// with is refused without a count.
const ESTIMATE_MARGIN: u64 = 4;
/// Probes of an estimate: about 70 ms on Bedlam.
const ESTIMATE_PROBES: usize = 100;
/// Levels each probe leaves to an exact count: the last pieces, whose subtrees are cheap
/// and where the solutions are.
const COUNTED_LEVELS: usize = 9;

/// Knuth's estimate of `puzzle`'s solutions up to rotations, with the bottom of the tree
/// counted (`COUNTED_LEVELS` of `pieces`); `None` when every probe was stopped.
///
/// # Errors
///
/// A puzzle that does not compile; [`Error::Interrupted`] when `stop` is raised.
fn estimate(
    puzzle: &Puzzle,
    pieces: usize,
    seed: u64,
    stop: &crate::stop::Stop,
) -> Result<Option<f64>> {
    let problem = puzzle.compile(crate::puzzle::SymmetryMode::Rotations)?;
    let depth = pieces.saturating_sub(COUNTED_LEVELS).max(1);
    let e = crate::solver::estimated_solutions_below(
        problem.reduction.matrix(),
        ESTIMATE_PROBES,
        depth,
        seed,
        stop,
    );
    if stop.raised() {
        return Err(Error::Interrupted("while estimating a count".into()));
    }
    Ok(e)
}

/// Refuses a request whose rules on shapes no cut into `pieces` pieces keeps
/// (`shape::impossible`): the search would look for one until stopped.
fn possible(r: &Request, pieces: usize) -> Result<()> {
    let volume = r.size.iter().product();
    match shape::impossible(pieces, r.sizes, volume, r.rules()) {
        Some(why) => Err(Error::Usage(why)),
        None => Ok(()),
    }
}

/// A random cut for `g` (`generate`'s).
fn fresh(g: &generate::Generator, rng: &mut Pcg64Mcg) -> Result<cut::Cut> {
    let pieces = generate::cut(g, rng)?;
    Ok(cut::Cut::new(g.size, &pieces).expect("the generator cuts the box"))
}

/// The search's moving parts that scoring and kicking share.
struct Mover<'r, 'c, 'd> {
    r: &'r Request,
    rng: Pcg64Mcg,
    frozen: Vec<bool>,
    count: &'c Counter<'d>,
    tried: u64,
    accepted: u64,
}

impl Mover<'_, '_, '_> {
    /// The score of `cut`, compared with `current` (see the module doc for where the
    /// count stops); `None` when it adds a fault, when the count gave up, or when it is
    /// surely worse than `current` under hill climbing.
    fn score(&mut self, cut: &cut::Cut, current: Option<Score>) -> Result<Option<Score>> {
        let faults = shape::faults(&cut.pieces(), self.r.rules());
        let cap = self.r.cap.max(2);
        let at_most = match current {
            Some(c) if faults > c.faults => return Ok(None),
            Some(c) if faults == c.faults && c.exact() => match self.r.strategy {
                Strategy::Climb => c.solutions + 1,
                Strategy::Anneal => (2 * c.solutions + 1).min(cap),
            },
            _ => cap,
        };
        let text = render(self.r, cut, "", None);
        // Named as what it is: there is no file of this name to open.
        let puzzle = Puzzle::parse("the designed puzzle", &text)?;
        // A count that would run long is estimated first (see the module doc): while the
        // estimate is large, it is the score; only a small one is counted.
        let estimate = if at_most >= ESTIMATE_FROM && cut.pieces >= ESTIMATE_PIECES {
            estimate(&puzzle, cut.pieces, self.rng.next_u64(), &self.r.stop)?
        } else {
            None
        };
        // Near a count the climb knows, a candidate estimated at several times it is
        // worse: refused at the estimate's cost, not the count's (most moves from a
        // puzzle with few solutions add many).
        let worse = |e: f64| match current {
            Some(c) if c.exact() => e >= (ESTIMATE_MARGIN * at_most) as f64,
            _ => false,
        };
        if let Some(e) = estimate.filter(|&e| e >= COUNT_BELOW as f64 || worse(e)) {
            return Ok(Some(Score {
                faults,
                solutions: e.round() as u64,
                capped: false,
                estimated: true,
            }));
        }
        // An estimate below `COUNT_BELOW` may be low: the count stops soon if it is.
        let at_most = if estimate.is_some() {
            at_most.min(ESTIMATE_MARGIN * COUNT_BELOW)
        } else {
            at_most
        };
        Ok((self.count)(&puzzle, at_most)?.map(|n| Score {
            faults,
            solutions: n,
            capped: n >= at_most,
            estimated: false,
        }))
    }

    /// The first state's score, counted up to the cap; a first count past the deadline
    /// or stopped by a stop request leaves the cut standing, its count unknown (and,
    /// for a stop request, the search's ending).
    fn first_score(&mut self, first: &cut::Cut) -> Result<(Score, Option<Ending>)> {
        let unknown = || Score {
            faults: shape::faults(&first.pieces(), self.r.rules()),
            solutions: 1,
            capped: true,
            estimated: false,
        };
        match self.score(first, None) {
            Ok(Some(s)) => Ok((s, None)),
            Ok(None) => Ok((unknown(), None)),
            Err(Error::Interrupted(_)) => Ok((unknown(), Some(Ending::Interrupted))),
            Err(e) => Err(e),
        }
    }

    /// Whether the strategy moves from a state scored `current` to one scored `s`:
    /// one no worse always, a worse one (same faults, exact count) under `anneal` with
    /// probability exp(-ln(s/current) / `temperature`). Draws from the generator
    /// either way, so that the moves stay the same for the same counts.
    fn accepts(&mut self, s: Score, current: Score, temperature: f64) -> bool {
        let worse = (s.solutions as f64 / current.solutions as f64).ln();
        let chance = (-worse / temperature).exp();
        let draw = self.rng.next_u64() as f64 / u64::MAX as f64;
        s <= current
            || (self.r.strategy == Strategy::Anneal
                && s.faults == current.faults
                && s.exact()
                && draw < chance)
    }

    /// One random move of `cut`, drawn with the request's weights (pieces with more
    /// placements first, where it prefers them): `None` when no piece can move,
    /// `Some(None)` when the move drawn would break the cut (sizes, connection, frozen
    /// pieces), else the cut it leads to.
    fn neighbour(&mut self, cut: &cut::Cut) -> Option<Option<cut::Cut>> {
        let weight = if self.r.prefer_placements {
            cut.placements()
        } else {
            vec![0; cut.pieces]
        };
        let m = cut.random_move(&mut self.rng, &self.frozen, &weight)?;
        Some(cut.moved(m, self.r.sizes, &self.frozen))
    }

    /// `KICK` random valid moves from `cut`, scored afresh (up to the cap).
    fn kick(&mut self, cut: &cut::Cut) -> Result<Option<(cut::Cut, Score)>> {
        let mut kicked = cut.clone();
        for _ in 0..KICK {
            for _ in 0..100 {
                let none = vec![0; kicked.pieces];
                let Some(m) = kicked.random_move(&mut self.rng, &self.frozen, &none) else {
                    return Ok(None);
                };
                if let Some(next) = kicked.moved(m, self.r.sizes, &self.frozen) {
                    kicked = next;
                    break;
                }
            }
        }
        self.tried += 1;
        Ok(self.score(&kicked, None)?.map(|s| (kicked, s)))
    }
}

/// The puzzle file of `cut`: `header`, the box, `[expect]` with `expect` solutions up to
/// rotations where given, then the pieces, pieces of one shape merged into a `count`.
fn render(r: &Request, cut: &cut::Cut, header: &str, expect: Option<u64>) -> String {
    let mut shapes: Vec<(Shape, Shape, usize)> = Vec::new();
    for cells in cut.pieces() {
        let shape = Shape::new(cells);
        let canonical = shape.canonical();
        match shapes.iter_mut().find(|(c, _, _)| *c == canonical) {
            Some((_, _, n)) => *n += 1,
            None => shapes.push((canonical, shape, 1)),
        }
    }
    let [x, y, z] = r.size;
    let mut out = format!(
        "{header}name = \"Designed: {} pieces in {x}x{y}x{z} (seed {})\"\nbox = [{x}, {y}, {z}]\n",
        cut.pieces, r.seed
    );
    if let Some(n) = expect {
        out.push_str(&format!("\n[expect]\nrotations = {n}\n"));
    }
    for (k, (_, shape, n)) in shapes.iter().enumerate() {
        let cells: Vec<String> = shape
            .cells()
            .iter()
            .map(|c| format!("[{},{},{}]", c[0], c[1], c[2]))
            .collect();
        out.push_str(&format!(
            "\n[[piece]]\n{}cells = [{}]\n",
            generate::named(k),
            cells.join(", ")
        ));
        if *n > 1 {
            out.push_str(&format!("count = {n}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Score;

    /// A saturated estimate is shown as a bound, never as the number 2^64 - 1 (issue 62,
    /// the new user's sweep: `best about 18446744073709551615 solutions`).
    #[test]
    fn a_saturated_estimate_reads_as_a_bound() {
        let score = |solutions, estimated| Score {
            faults: 0,
            solutions,
            capped: false,
            estimated,
        };
        assert_eq!(
            score(u64::MAX, true).to_string(),
            "more than 18446744073709551615 solutions"
        );
        assert_eq!(score(4444, true).to_string(), "about 4444 solutions");
        assert_eq!(score(1, false).to_string(), "1 solution");
    }
}
