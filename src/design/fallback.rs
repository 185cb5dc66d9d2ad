//! `generate polycubes --unique` and `--unsat` when random draws fail: a bounded number
//! of random draws first (as [`crate::puzzle::polycube::generate`] makes them), then the
//! design search of this module's parent, the search `polycover design` runs.
//!
//! Random cuts with one solution grow rare fast with the box: 4x4x3 in 10 pieces drew
//! tens of thousands of puzzles in two minutes and kept none. So after `draws` draws
//! (the caller's bound, [`DRAWS`] by default: a number, not a time, so that the same
//! seed gives the same puzzle on any machine) the design search reshapes a random cut
//! until the puzzle is unique. `unsat` then takes the unique design the way it takes a
//! unique draw: it mirrors one chiral piece and keeps the puzzle when the counter finds
//! no solution; a design where no mirror does that is followed by another design, of
//! the next seed.
//!
//! Invariants: a request that the draws meet gives the text `generate` gives (the same
//! generator, the same draws); a designed puzzle's file says so, with the `polycover
//! design` command that gives the same cut and the moves it took (no time: the file
//! depends on the seed alone, given exact counts); the design search keeps its default
//! rules (no two pieces of one shape), so that command reproduces it; where no cut can
//! keep those rules (too few shapes of the sizes asked for), failed draws end the
//! search (`Error::Failed`) instead of a design that would never end.

use std::time::Duration;

use rand_pcg::rand_core::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::{design, Ending, Event, Request, Rules, Strategy};
use crate::engine::{Engine, RunOptions};
use crate::error::{Error, Result};
use crate::puzzle::polycube::{generate, Polycube};
use crate::puzzle::{Puzzle, SymmetryMode};
use crate::setting::Setting;
use crate::stop::Stop;

/// Random draws before the design search takes over, unless the caller says otherwise.
pub(crate) const DRAWS: u64 = 1_000;

/// Designs of other seeds tried for `unsat` when no mirrored piece of a unique design
/// leaves it without a solution.
const ROUNDS: u64 = 20;

/// The design search's count stop for a first cut (as `design --cap`'s default).
const CAP: u64 = 10_000;

/// The pieces of a designed puzzle's text, each copy on its own.
fn pieces(text: &str) -> Result<Vec<Vec<crate::geometry::Cell>>> {
    let puzzle = Puzzle::parse("the designed puzzle", text)?;
    let p = puzzle
        .downcast_ref::<Polycube>()
        .expect("the design search writes polycube puzzles");
    Ok(p.pieces
        .iter()
        .flat_map(|piece| std::iter::repeat_n(piece.shape.cells().to_vec(), piece.count as usize))
        .collect())
}

/// `generate --unique` and `--unsat`: random draws, then the design search.
impl generate::Generator {
    /// How many puzzles `unique_or_unsat` draws at random, by default, before the
    /// design search takes over.
    pub const DRAWS: u64 = DRAWS;

    /// A unique (or, with `unsat`, a unique puzzle made unsolvable by a mirrored piece)
    /// puzzle: up to `draws` random draws, then the design search; `progress` hears of
    /// each step, `count` counts as for [`crate::design::Request::design`].
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a request no cut meets, [`Error::Interrupted`] when `stop` is
    /// raised, [`Error::Failed`] when neither the draws nor the design search find one
    /// or when `stop`'s deadline passes first (`stopped by the timeout after ...`), and
    /// what `count` returns.
    pub fn unique_or_unsat(
        &self,
        draws: u64,
        stop: &Stop,
        progress: &mut dyn FnMut(&Event),
        count: &(dyn Fn(&Puzzle, u64) -> Result<Option<u64>> + Sync),
    ) -> Result<generate::Generated> {
        let r = self;
        generate::check(r)?;
        let mut rng = Pcg64Mcg::seed_from_u64(r.seed);
        let mut tries = 0;
        if let Some(found) = r.drawn(&mut rng, &mut tries, draws, stop, progress, count)? {
            return Ok(found);
        }
        let [x, y, z] = r.size;
        let (lo, hi) = r.sizes;
        // The design search would look for ever for pieces of distinct shapes that do not
        // exist: the request stands (a draw may still meet it), so this is a failure to
        // find, as when the designs find none.
        let volume = x * y * z;
        if let Some(why) = super::shape::impossible(r.pieces, r.sizes, volume, Rules::default()) {
            return Err(Error::Failed(format!(
                "no puzzle found in {tries} draws, and the design search \
                 cannot take over: {why}; try other {}, {} or {}",
                Setting::Sizes.mark(),
                Setting::Pieces.mark(),
                Setting::Seed.mark()
            )));
        }
        let mut seconds = 0.0;
        let mut tried = 0;
        for round in 0..ROUNDS {
            let seed = r.seed.wrapping_add(round);
            let command = format!(
                "polycover design --box {x},{y},{z} --pieces {} --sizes {lo}-{hi} --seed {seed}",
                r.pieces
            );
            progress(&Event::Designing { seed });
            let request = Request {
                size: r.size,
                pieces: r.pieces,
                sizes: r.sizes,
                seed,
                allow_duplicates: false,
                chiral: false,
                flat: false,
                start: None,
                keep: Vec::new(),
                stop: stop.clone(),
                strategy: Strategy::Climb,
                cap: CAP,
                prefer_placements: true,
                threads: 1,
            };
            let designed = design(&request, &command, count, progress)?;
            seconds += designed.seconds;
            tried += designed.tried;
            match designed.ending {
                Ending::Unique => {}
                Ending::Interrupted => {
                    return Err(Error::Interrupted(format!(
                        "after {tries} puzzles drawn and {tried} moves of the design search, \
                         none kept"
                    )))
                }
                Ending::Deadline if stop.timed_out() => {
                    return Err(timed_out(format!(
                        "after {tries} puzzles drawn and {tried} moves of the design search, \
                         none kept"
                    )))
                }
                // Before the deadline: only a box whose pieces cannot move ends here.
                Ending::Deadline => break,
            }
            let pieces = pieces(&designed.text)?;
            let mirrored = match r.unsat {
                false => None,
                true => match generate::mirror(r, &pieces, &mut rng, &mut |p, n| count(p, n))? {
                    Some(k) => Some(k),
                    None => continue,
                },
            };
            let how = format!(
                "Designed after {tries} random draws had none: `{command}` ({}).",
                crate::count::Count::plural(designed.tried, "move", "moves")
            );
            return Ok(generate::Generated {
                text: generate::render(r, &pieces, mirrored, Some(&how)),
                tries,
                seed: Some(seed),
                tried: designed.tried,
                seconds,
            });
        }
        Err(Error::Failed(format!(
            "no puzzle found in {tries} draws and {tried} moves of the design \
             search; try other {}, {} or {}",
            Setting::Sizes.mark(),
            Setting::Pieces.mark(),
            Setting::Seed.mark()
        )))
    }
}

impl generate::Generator {
    /// Up to `draws` random draws (`tries` counts them): the first that meets the
    /// request, or `None`.
    fn drawn(
        &self,
        rng: &mut Pcg64Mcg,
        tries: &mut u64,
        draws: u64,
        stop: &Stop,
        progress: &mut dyn FnMut(&Event),
        count: &(dyn Fn(&Puzzle, u64) -> Result<Option<u64>> + Sync),
    ) -> Result<Option<generate::Generated>> {
        // A draw whose count the deadline cut is passed over (`count` says `None`): past
        // the stop's own deadline, the draws end instead, as the whole request does.
        let counted = &mut |p: &Puzzle, n| match stop.timed_out() {
            true => Err(timed_out(String::new())),
            false => count(p, n),
        };
        let drawn = generate::draw(
            self,
            rng,
            tries,
            draws,
            &mut |draws| progress(&Event::Drawing { draws }),
            counted,
        )
        .map_err(|e| match stop.timed_out() && !stop.raised() {
            true => timed_out(format!("after {tries} puzzles drawn, none kept")),
            false => e,
        })?;
        Ok(drawn.map(|found| {
            let how = format!("Drawn at random: draw {tries}.");
            generate::Generated {
                text: generate::render(self, &found.pieces, found.mirrored, Some(&how)),
                tries: *tries,
                seed: None,
                tried: 0,
                seconds: 0.0,
            }
        }))
    }
}

/// The error of a request that its stop's deadline ended, saying how far it got.
fn timed_out(how_far: String) -> Error {
    Error::Failed(format!("stopped by the timeout {how_far}"))
}

/// The counter of a drawn puzzle, asked of the puzzle.
impl Puzzle {
    /// The solutions of a drawn puzzle up to rotations, by the bitset engine, counted up
    /// to `at_most`; `None` when the search did not end within 2 s (the draw is then
    /// passed over): the counter of `generate --unique`, `design` and the lab's suites.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] when `stop` was raised, and the errors of compiling the
    /// puzzle.
    pub fn count_drawn(&self, at_most: u64, stop: &Stop) -> Result<Option<u64>> {
        let puzzle = self;
        let problem = puzzle.compile(SymmetryMode::Rotations)?;
        let opts = RunOptions {
            stop: stop.within(Duration::from_secs(CHECK_SECONDS)),
            ..RunOptions::default()
        };
        let (found, report) = problem.count_up_to(&Engine::bits(), &opts, at_most)?;
        if report.interrupted {
            return Err(Error::Interrupted(format!(
                "after {}",
                crate::count::Count::solutions(found)
            )));
        }
        Ok((found >= at_most || report.complete).then_some(found))
    }
}

/// How long [`Puzzle::count_drawn`] may search: a puzzle whose single solution (or none) takes
/// longer to prove is passed over, so that `--unique` and `--unsat` give instances that
/// a native engine settles in seconds.
pub(crate) const CHECK_SECONDS: u64 = 2;
