//! Thread scaling (`bench --threads 1,2,4,...`): each in-process engine's count on each
//! puzzle at each thread count, with its speed-up over the same engine's count at the
//! smallest thread count, its CPU time, the cores it kept busy (CPU over wall) and its
//! efficiency (speed-up per thread).
//!
//! Invariants:
//! - A row at each thread count is measured exactly as a row of a one-count run
//!   ([`super::engine_row`]: a fresh process each, the first solution on one thread), so
//!   its peak memory and CPU time are its own.
//! - An engine's complete counts agree at every thread count; a mismatch is an error
//!   (exit 1), as a disagreement with the DLX is.
//! - The speed-up compares whole counting times where both counts finished, and times
//!   per solution where the timeout stopped one of them (an estimate: the solutions need
//!   not be spread evenly over the search).
//! - The DLX runs only when `--solvers` names it (each engine is its own reference here);
//!   when it runs, every engine's row is also compared with the DLX's row at the same
//!   thread count, as in a one-count run.
//! - Programs on PATH (`cadical`, `ganak`, `minizinc`, `cpsat`, `--external`) choose their
//!   own threads: each is measured once, at the smallest count, with no speed-up.

use super::{compare, engine_row, entrant_row, entries, interrupted, load, Measured};
use super::{Entrant, Plan, Row};
use polycover::Engine;
use polycover::{Error, Result};

/// Runs the plan at each of `threads` (sorted, distinct, at least two); `log` gets each
/// row as it finishes. The rows of one engine (and encoding) on one puzzle come together,
/// in the order of `threads`.
pub fn run(plan: &Plan, threads: &[usize], log: &mut dyn FnMut(&Row)) -> Result<Vec<Row>> {
    if threads.is_empty() {
        return Err(Error::Usage("--threads needs a thread count".into()));
    }
    let at = |t: usize| Plan {
        threads: t,
        ..plan.clone()
    };
    let mut rows = Vec::new();
    let (_stdin_dir, puzzles) = load(plan)?;
    let dlx = Entrant::Engine(Engine::dlx());
    for (spec, puzzle) in &puzzles {
        let measured = Measured::new(spec, puzzle, plan);
        // The DLX first, when named: the reference of the other rows at its thread count.
        let mut references: Vec<Row> = Vec::new();
        if plan.entrants.contains(&dlx) {
            let mut base: Option<Row> = None;
            for &t in threads {
                interrupted(plan.stop.raised())?;
                let mut row = engine_row(&measured, &Engine::dlx(), &at(t))?;
                against(&mut row, base.as_ref())?;
                base.get_or_insert_with(|| row.clone());
                log(&row);
                references.push(row.clone());
                rows.push(row);
            }
        }
        let mut cnf_dir = None;
        for (entrant, amo) in entries(plan) {
            if *entrant == dlx {
                continue;
            }
            let counts = match entrant {
                Entrant::Engine(_) => threads,
                Entrant::Program(_) | Entrant::Solver(_) => &threads[..1],
            };
            let mut base: Option<Row> = None;
            for &t in counts {
                interrupted(plan.stop.raised())?;
                let mut row = entrant_row(&measured, entrant, amo, &at(t), &mut cnf_dir)?;
                if let Some(dlx) = references.iter().find(|r| r.threads == t) {
                    compare(&mut row, dlx)?;
                }
                let skipped = row.status.starts_with("skipped");
                if matches!(entrant, Entrant::Engine(_)) && !skipped {
                    against(&mut row, base.as_ref())?;
                    base.get_or_insert_with(|| row.clone());
                }
                log(&row);
                rows.push(row);
                // An engine this build lacks is skipped once, not at every count.
                if skipped {
                    break;
                }
            }
        }
    }
    Ok(rows)
}

/// Fills a row's speed-up against `base`, the same engine's row at the smallest thread
/// count (`None`: this row is that one), and refuses counts that disagree.
fn against(row: &mut Row, base: Option<&Row>) -> Result<()> {
    let Some(base) = base else {
        row.base_threads = Some(row.threads);
        row.speedup = row.count.map(|_| 1.0);
        return Ok(());
    };
    row.base_threads = Some(base.threads);
    if row.complete && base.complete && row.solutions != base.solutions {
        return Err(Error::Failed(format!(
            "{}: {} counted {} solutions on {} thread(s) but {} on {}",
            row.puzzle,
            row.label(),
            row.solutions
                .as_ref()
                .map_or("no".into(), |n| n.to_string()),
            row.threads,
            base.solutions
                .as_ref()
                .map_or("no".into(), |n| n.to_string()),
            base.threads,
        )));
    }
    row.speedup = match (base.count, row.count) {
        (Some(b), Some(r)) if row.complete && base.complete => Some(b.median / r.median.max(1e-9)),
        _ => match (base.seconds_per_solution(), row.seconds_per_solution()) {
            (Some(b), Some(r)) => Some(b / r.max(1e-12)),
            _ => None,
        },
    };
    Ok(())
}

/// CPU seconds (user and system, every thread's) this process has used so far; `None`
/// where `getrusage` is missing or fails.
pub(super) fn process_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // Safety: getrusage only writes the struct it is given, which is plain data.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // Safety: as above; RUSAGE_SELF names this process.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        Some(secs(usage.ru_utime) + secs(usage.ru_stime))
    }
    #[cfg(not(unix))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::Spread;

    fn counted(threads: usize, seconds: f64, solutions: u64, complete: bool) -> Row {
        let mut row = Row::new("p", "bits", None);
        row.threads = threads;
        row.count = Spread::of(vec![seconds]);
        row.solutions = Some(solutions.into());
        row.complete = complete;
        row
    }

    #[test]
    fn the_speedup_is_against_the_smallest_count_and_counts_must_agree() {
        let mut one = counted(1, 8.0, 100, true);
        against(&mut one, None).unwrap();
        assert_eq!((one.base_threads, one.speedup), (Some(1), Some(1.0)));
        let mut four = counted(4, 2.5, 100, true);
        four.cpu = Spread::of(vec![9.0]);
        against(&mut four, Some(&one)).unwrap();
        assert_eq!(four.speedup, Some(3.2));
        assert_eq!(four.efficiency(), Some(0.8));
        assert_eq!(four.cpu_use(), Some(3.6));
        // A count stopped by the timeout compares times per solution.
        let mut stopped = counted(2, 2.0, 40, false);
        against(&mut stopped, Some(&one)).unwrap();
        assert!((stopped.speedup.unwrap() - 1.6).abs() < 1e-9, "{stopped:?}");
        // Two finished counts that differ are a failure while running (exit 1).
        let mut wrong = counted(2, 4.0, 99, true);
        let err = against(&mut wrong, Some(&one)).unwrap_err();
        assert_eq!(err.class(), polycover::ErrorClass::Failure, "{err}");
        assert!(err.to_string().contains("99 solutions on 2"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn cpu_time_is_read_and_grows() {
        let before = process_cpu_seconds().expect("getrusage answers");
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let after = process_cpu_seconds().unwrap();
        assert!(after > before, "{before} {after} {x}");
    }
}
