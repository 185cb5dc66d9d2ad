//! `sample`: solutions drawn uniformly at random ([`polycover::engine::Sampler`]), written as
//! `enumerate` writes its solutions (the same records and pictures).
//!
//! Invariants:
//! - The options and the output are checked before the count; the count comes before
//!   the first record, so a stop during it writes nothing.
//! - The seed is printed on standard error before the first draw, so any run can be
//!   repeated.
//! - A stop during the draws keeps the whole records written.
//! - `--timeout` and the signals stop the count and the draws alike (polled every few
//!   thousand search nodes), and a long run prints a `c` line every 10 s.

use super::context::Context;
use std::io::Write;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::args::{is_stdio, SampleArgs};
use super::outcome::Outcome;
use super::records::{written_to, Records};
use crate::output::{self, Ended};
use polycover::engine::Sampler;
use polycover::Problem;
use polycover::{Error, Result};

pub(super) fn sample(a: SampleArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    let target = a.records.target();
    output::check_writable(&target, &[&a.puzzle.puzzle])?;
    // The option table is made within --timeout: the command's stop has its deadline.
    let p = a.puzzle.problem(a.symmetry, ctx)?;
    a.records.check_puzzle(p.puzzle())?;
    let memory = a
        .memory
        .unwrap_or_else(|| polycover::RunOptions::default().memory);
    let prepared = super::engines::for_samples(&p)?;
    let samples = prepared.sampler()?;
    samples.fits(memory)?;
    if a.force && !a.records.drawing() {
        return Err(Error::Usage(
            "--force lets --svg or --html write into a directory that holds files; \
             neither was given"
                .into(),
        ));
    }
    // The directories are checked (and emptied with --force) before the draws begin.
    let mut records = a.records.records(p.puzzle(), None, a.force, ctx.stop())?;
    records.path = a.records.output.clone().filter(|path| !is_stdio(path));
    let seed = a.seed.unwrap_or_else(fresh_seed);
    eprintln!("c seed {seed} (--seed {seed} draws the same solutions again)");
    let start = Instant::now();
    let watch = Watch {
        start,
        run: ctx.stop().clone(),
        timed_out: AtomicBool::new(false),
        last: Mutex::new(start),
        drawn: AtomicU64::new(0),
        counting: AtomicBool::new(true),
        draws: a.draws,
    };
    let stop = || watch.stop();
    let listening = watch.run.listen();
    let sampler = samples.draws(seed, memory, &stop);
    drop(listening);
    let mut sampler = match sampler {
        Ok(sampler) => sampler,
        Err(_) if watch.timed_out.load(Ordering::Relaxed) => {
            eprintln!(
                "c stopped by the timeout while counting the solutions, after {:.3} s: \
                 nothing drawn",
                start.elapsed().as_secs_f64()
            );
            return Ok(Outcome::Stopped);
        }
        Err(_) => return Err(Error::Interrupted("while counting the solutions".into())),
    };
    watch.counting.store(false, Ordering::Relaxed);
    let total = sampler.solutions().clone();
    report_count(&p, &sampler, start);
    if total == num_bigint::BigUint::ZERO {
        eprintln!("c no solution to draw");
        return Ok(Outcome::Unsatisfiable);
    }
    let mut stopped = false;
    let kept = output::write_records(ctx.stop(), &target, out, &[&a.puzzle.puzzle], &mut |sink| {
        stopped = draw(&mut sampler, &mut records, sink, &watch)?;
        Ok(if stopped {
            Ended::Stopped
        } else {
            Ended::Finished
        })
    })?;
    // "1 solution", "N solutions": what every line below says was written.
    let written = polycover::Count::solutions(records.written);
    let to = written_to(a.records.output.as_deref(), kept);
    if stopped && watch.timed_out.load(Ordering::Relaxed) {
        eprintln!("c stopped by the timeout: {written} written{to}");
        return Ok(Outcome::Stopped);
    }
    if stopped {
        eprintln!(
            "c stopped by {}: {written} written{to}",
            crate::signals::cause()
        );
        return Err(Error::Interrupted(format!("{written} written{to}")));
    }
    eprintln!(
        "c drew {written}{to} in {} {}, {:.3} s in all",
        sampler.tries(),
        if sampler.tries() == 1 { "try" } else { "tries" },
        start.elapsed().as_secs_f64()
    );
    Ok(Outcome::Done)
}

/// The `c counted` line, and what a reduced count means for the draws.
fn report_count(p: &Problem, sampler: &Sampler<'_>, start: Instant) {
    let total = sampler.solutions();
    let what = if p.symmetries() == 1 {
        "solutions"
    } else if !p.needs_check() {
        "distinct solutions"
    } else {
        "solutions of the reduced matrix"
    };
    eprintln!(
        "c counted {total} {what} in {:.3} s ({})",
        start.elapsed().as_secs_f64(),
        sampler.statistics()
    );
    if p.needs_check() {
        // The rejection step of `polycover::engine::Sampler`, in a user's words.
        eprintln!(
            "c a distinct solution may appear there k times: a draw of it is kept with \
             chance 1/k"
        );
    }
}

/// Draws `watch.draws` solutions into `sink` as records; `true`: stopped (by a signal
/// or the deadline) before the last, the records written so far kept whole.
fn draw(
    sampler: &mut Sampler<'_>,
    records: &mut Records,
    sink: &mut dyn Write,
    watch: &Watch,
) -> Result<bool> {
    for _ in 0..watch.draws {
        match sampler.draw() {
            Ok(Some(solution)) => {
                // No limit: the records never ask to stop.
                let _ = records.solution(sink, &solution)?;
                watch.drawn.fetch_add(1, Ordering::Relaxed);
            }
            Ok(None) => unreachable!("the puzzle has solutions"),
            Err(_) => return Ok(true),
        }
    }
    Ok(false)
}

/// How often a long count or draw says on standard error that it is still going.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// What the sampler's stop callback watches: the signals, the deadline, and when to say
/// how far the run is.
struct Watch {
    start: Instant,
    /// The command's stop, which the signals raise, with the `--timeout` deadline.
    run: crate::Stop,
    /// The deadline, not a signal, stopped the run.
    timed_out: AtomicBool,
    /// When the last progress line (or the start) was.
    last: Mutex<Instant>,
    drawn: AtomicU64,
    counting: AtomicBool,
    draws: u64,
}

impl Watch {
    /// Whether to stop now (a signal, or the deadline passed); prints a `c` line every
    /// [`PROGRESS_EVERY`]. Polled every few thousand search nodes.
    fn stop(&self) -> bool {
        let now = Instant::now();
        if let Ok(mut last) = self.last.try_lock() {
            if now.duration_since(*last) >= PROGRESS_EVERY {
                *last = now;
                let elapsed = now.duration_since(self.start).as_secs_f64();
                if self.counting.load(Ordering::Relaxed) {
                    eprintln!("c counting the solutions to draw from: {elapsed:.0} s so far");
                } else {
                    eprintln!(
                        "c drawing: {} of {} solutions drawn, {elapsed:.0} s so far",
                        self.drawn.load(Ordering::Relaxed),
                        self.draws
                    );
                }
            }
        }
        if self.run.timed_out() {
            self.timed_out.store(true, Ordering::Relaxed);
            return true;
        }
        self.run.raised()
    }
}

/// A seed nobody chose: the clock's nanoseconds and the process id, mixed.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mixed = (nanos ^ (u64::from(std::process::id()) << 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // Short enough to type again.
    mixed >> 32
}
