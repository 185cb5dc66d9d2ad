//! `design --maximize nodes|dead-ends|first-move`: from a unique design, a climb to a
//! harder one.
//!
//! A state is a unique cut without faults (the design search's goal) and its score a
//! [`Measure`] of the DLX's search tree (`engine/difficulty.rs`): its nodes, the work a
//! solver does to find the one solution and prove there is no other, its dead ends, the
//! wrong placements a solver backs out of, or the options of its first move. A move is one of the design search's
//! (`cut.rs`); the candidate is counted by the caller's [`Counter`] up to two solutions
//! (a second refuses it), and a unique one is measured. A candidate with at least the
//! current state's measure is accepted (equal ones too, a walk on the plateau); after
//! `PATIENCE` tries without a harder puzzle the walk goes back to the hardest.
//!
//! Invariants: every state the climb holds, the first included, is a unique cut
//! without faults; the hardest state (largest measure) is kept and returned however the climb
//! ends (the deadline, which is its normal end, or Ctrl-C); the same request and the same
//! counts give the same moves (its generator is seeded from the request's seed).

use std::time::Instant;

use rand_pcg::rand_core::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::{
    cut, render, Counter, Designed, Ending, Event, Measure, Mover, Request, Score, PATIENCE,
};
use crate::error::{Error, Result};
use crate::puzzle::{Puzzle, SymmetryMode};

/// Climbs from `designed`, when it is unique, to the unique puzzle with the largest
/// `measure` found before `r.stop` says stop (without a deadline it climbs until Ctrl-C;
/// see the module docs); a design that is not
/// unique is returned as it is. `count` counts (as for [`super::design`]); `progress`
/// hears of every step.
///
/// # Errors
///
/// What `count` returns but [`Error::Interrupted`], which ends the climb.
pub(crate) fn maximize(
    r: &Request,
    designed: Designed,
    measure: Measure,
    count: &Counter<'_>,
    progress: &mut dyn FnMut(&Event),
) -> Result<Designed> {
    if designed.ending != Ending::Unique {
        return Ok(designed);
    }
    let begun = Instant::now();
    let mut search = Mover {
        r,
        // Not the design's own stream: the climb is the same whatever the design took.
        rng: Pcg64Mcg::seed_from_u64(r.seed ^ 0x6861_7264_6572),
        frozen: designed.frozen.clone(),
        count,
        tried: 0,
        accepted: 0,
    };
    let mut stop = Ending::Unique;
    let first = match measured(r, &designed.cut, measure) {
        Ok(Some(n)) => n,
        Ok(None) => return Ok(designed),
        Err(Error::Interrupted(_)) => {
            return Ok(Designed {
                ending: Ending::Interrupted,
                ..designed
            })
        }
        Err(e) => return Err(e),
    };
    let unique = designed.score;
    let mut current = (designed.cut.clone(), first);
    let mut best = current.clone();
    let mut since_better = 0u64;
    let mut step = |search: &Mover<'_, '_, '_>, best: u64, improved: bool| {
        progress(&Event::Climbed {
            seconds: begun.elapsed().as_secs_f64(),
            measure,
            best,
            first,
            tried: search.tried,
            accepted: search.accepted,
            improved,
        });
    };
    step(&search, first, true);
    loop {
        if r.stop.raised() {
            stop = Ending::Interrupted;
            break;
        }
        if r.stop.timed_out() {
            break;
        }
        let Some(moved) = search.neighbour(&current.0) else {
            break;
        };
        let Some(next) = moved else {
            continue;
        };
        search.tried += 1;
        since_better += 1;
        // A candidate that is not unique is never accepted: `Some(None)`.
        let candidate = search.score(&next, Some(unique)).and_then(|s| match s {
            Some(s) if s.unique() => measured(r, &next, measure).map(|m| m.map(Some)),
            _ => Ok(Some(None)),
        });
        let n = match candidate {
            Ok(Some(n)) => n,
            // The deadline stopped the count or the walk: the climb's normal end.
            Ok(None) => break,
            Err(Error::Interrupted(_)) => {
                stop = Ending::Interrupted;
                break;
            }
            Err(e) => return Err(e),
        };
        if let Some(n) = n.filter(|&n| n >= current.1) {
            search.accepted += 1;
            current = (next, n);
        }
        let improved = current.1 > best.1;
        if improved {
            best = current.clone();
            since_better = 0;
        } else if since_better >= PATIENCE {
            since_better = 0;
            current = best.clone();
        }
        step(&search, best.1, improved);
    }
    let climbed = Climbed {
        measure,
        best,
        first,
        tried: search.tried,
        accepted: search.accepted,
        seconds: begun.elapsed().as_secs_f64(),
        ending: stop,
    };
    Ok(harder(r, designed, climbed))
}

/// Where a climb ended: its best cut and measure, its first measure, its moves and time,
/// and why it ended.
struct Climbed {
    measure: Measure,
    best: (cut::Cut, u64),
    first: u64,
    tried: u64,
    accepted: u64,
    seconds: f64,
    ending: Ending,
}

/// The design `designed` made harder by `climb`: the best cut's puzzle, its header
/// saying how, and the moves and time of both searches.
fn harder(r: &Request, designed: Designed, climb: Climbed) -> Designed {
    let header: String = designed
        .text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let header = format!(
        "{header}# Then made harder (--maximize {}) by {} accepted of {} tried in \
         {:.1} s: {} {} to {}.\n",
        climb.measure.name(),
        crate::count::Count::plural(climb.accepted, "move", "moves"),
        climb.tried,
        climb.seconds,
        climb.measure.words(),
        climb.first,
        climb.best.1
    );
    Designed {
        text: render(r, &climb.best.0, &header, Some(1)),
        score: Score {
            faults: 0,
            solutions: 1,
            capped: false,
            estimated: false,
        },
        ending: climb.ending,
        tried: designed.tried + climb.tried,
        accepted: designed.accepted + climb.accepted,
        seconds: designed.seconds + climb.seconds,
        curve: designed.curve,
        walks: designed.walks,
        cut: climb.best.0,
        frozen: designed.frozen,
    }
}

/// The `measure` of `cut`'s puzzle up to rotations; `Ok(None)` past the deadline.
fn measured(r: &Request, cut: &cut::Cut, measure: Measure) -> Result<Option<u64>> {
    let puzzle = Puzzle::parse("the designed puzzle", &render(r, cut, "", None))?;
    let problem = puzzle.compile(SymmetryMode::Rotations)?;
    if measure == Measure::FirstMove {
        return Ok(Some(crate::engine::difficulty::first_move(&problem)));
    }
    let tree = crate::engine::difficulty::tree(&problem, &r.stop)?;
    Ok(tree.map(|t| match measure {
        Measure::Nodes => t.nodes,
        Measure::DeadEnds => t.dead_ends,
        Measure::FirstMove => unreachable!("measured above"),
    }))
}
