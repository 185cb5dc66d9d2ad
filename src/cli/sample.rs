//! `sample`: solutions drawn uniformly at random ([`crate::sample`]), written as
//! `enumerate` writes its solutions (the same records and pictures).
//!
//! Invariants:
//! - The options and the output are checked before the count; the count comes before
//!   the first record, so a stop during it writes nothing.
//! - The seed is printed on standard error before the first draw, so any run can be
//!   repeated.
//! - A stop during the draws keeps the whole records written.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use super::args::{is_stdio, SampleArgs, STDIO};
use super::outcome::Outcome;
use super::records::{written_to, Records};
use super::search::{page_directory, picture_directory};
use crate::error::{Error, Result};
use crate::output::{self, Ended};
use crate::sample::Sampler;

pub(super) fn sample(a: SampleArgs, out: &mut dyn Write) -> Result<Outcome> {
    let target = a.output.clone().unwrap_or_else(|| PathBuf::from(STDIO));
    output::check_writable(&target, &[&a.puzzle.puzzle])?;
    let p = a.puzzle.problem(a.symmetry)?;
    if a.svg.is_some() {
        p.puzzle().check_drawable()?;
    }
    if a.html.is_some() {
        p.puzzle().check_html()?;
    }
    if a.force && a.svg.is_none() && a.html.is_none() {
        return Err(Error::Usage(
            "--force lets --svg or --html write into a directory that holds files; \
             neither was given"
                .into(),
        ));
    }
    let pictures = a
        .svg
        .as_deref()
        .map(|d| picture_directory(d, a.force))
        .transpose()?;
    let pages = a
        .html
        .as_deref()
        .map(|d| page_directory(d, a.force))
        .transpose()?;
    let seed = a.seed.unwrap_or_else(fresh_seed);
    eprintln!("c seed {seed} (--seed {seed} draws the same solutions again)");
    let start = Instant::now();
    let memory = a.memory.unwrap_or_else(crate::memory::default_table_budget);
    let stop = crate::interrupt::requested;
    let listening = crate::interrupt::Listening::start();
    let mut sampler = Sampler::new(&p, seed, memory, &stop)
        .map_err(|_| Error::Interrupted("while counting the solutions".into()))?;
    drop(listening);
    let total = sampler.solutions().clone();
    let what = if p.reduction.group().order() == 1 {
        "solutions"
    } else if !p.reduction.needs_check() {
        "distinct solutions"
    } else {
        "solutions of the reduced matrix"
    };
    eprintln!(
        "c counted {total} {what} in {:.3} s ({})",
        start.elapsed().as_secs_f64(),
        statistics(&sampler)
    );
    if p.reduction.needs_check() {
        // The rejection step of `crate::sample`, in a user's words.
        eprintln!(
            "c a distinct solution may appear there k times: a draw of it is kept with \
             chance 1/k"
        );
    }
    if total == num_bigint::BigUint::ZERO {
        eprintln!("c no solution to draw");
        return Ok(Outcome::Unsatisfiable);
    }
    let mut records = Records {
        format: a.format,
        puzzle: p.puzzle(),
        written: 0,
        flush_each: true,
        limit: None,
        pictures,
        pages,
        path: a.output.clone().filter(|path| !is_stdio(path)),
    };
    let mut stopped = false;
    let kept = output::write_records(&target, out, &[&a.puzzle.puzzle], &mut |sink| {
        for _ in 0..a.draws {
            match sampler.draw() {
                Ok(Some(solution)) => {
                    // No limit: the records never ask to stop.
                    let _ = records.solution(sink, &solution)?;
                }
                Ok(None) => unreachable!("the puzzle has solutions"),
                Err(_) => {
                    stopped = true;
                    break;
                }
            }
        }
        Ok(if stopped {
            Ended::Stopped
        } else {
            Ended::Finished
        })
    })?;
    let written = records.written;
    let to = written_to(a.output.as_deref(), kept);
    if stopped {
        eprintln!(
            "c stopped by {}: {written} solutions written{to}",
            crate::interrupt::cause()
        );
        return Err(Error::Interrupted(format!(
            "{written} solutions written{to}"
        )));
    }
    eprintln!(
        "c drew {written} solutions{to} in {} tries, {:.3} s in all",
        sampler.tries(),
        start.elapsed().as_secs_f64()
    );
    Ok(Outcome::Done)
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

fn statistics(sampler: &Sampler<'_>) -> String {
    let s = sampler.stats();
    format!(
        "nodes {}, table entries {}, {:.1} MiB",
        s.nodes,
        s.table.peak_entries,
        s.table.peak_bytes as f64 / (1 << 20) as f64
    )
}
