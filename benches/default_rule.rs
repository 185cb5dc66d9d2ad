//! `count` without `--solver` chooses its engine (`Problem::default_counter`): the memo
//! where a piece has copies, the bitset engine otherwise. This measures what the choice
//! costs and gains, in one process, alternating the two runs so that both see the same
//! machine: the default (the rule, then the engine it picks) against the bitset engine
//! alone, on each puzzle in its default symmetry mode, with every core.
//!
//! Plain harness (a Bedlam count takes seconds): `DEFAULT_RULE_RUNS` runs of each
//! (default 5; short counts are repeated until each side has about 3 s), medians and
//! min/max, and the ratio default / bits. Where the rule picks
//! the memo, the bitset engine runs once with a 60 s deadline (it would take an hour on
//! 8x10 dominoes). `DEFAULT_RULE_PUZZLES=soma,bedlam` picks the puzzles.

use std::time::{Duration, Instant};

use polycover::{Engine, Problem, RunOptions, Stop};

const PUZZLES: &str =
    "soma,pentomino-6x10,bedlam,tests/fixtures/two-l-6x10.toml,dominoes-8x8,dominoes-8x10,dominoes-12x12";

fn main() {
    // `cargo bench -- <filter>` passes arguments; honour a filter that excludes us.
    if let Some(f) = std::env::args().skip(1).find(|a| !a.starts_with('-')) {
        if !"default_rule".contains(&f) {
            return;
        }
    }
    let runs: usize = std::env::var("DEFAULT_RULE_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let puzzles = std::env::var("DEFAULT_RULE_PUZZLES").unwrap_or_else(|_| PUZZLES.into());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("default rule against bits, {threads} threads, {runs} runs each, alternating");
    for name in puzzles.split(',') {
        let problem = Problem::load(name, None).unwrap();
        let run = |engine: &Engine, limit: Option<Duration>| {
            let opts = RunOptions {
                threads,
                stop: limit.map_or_else(Stop::new, Stop::after),
                ..RunOptions::default()
            };
            let start = Instant::now();
            let report = problem.count(engine, &opts).unwrap();
            (start.elapsed().as_secs_f64(), report)
        };
        let default_run = || {
            let start = Instant::now();
            let (engine, _why) = problem.default_counter(false, &Stop::new(), None);
            let opts = RunOptions {
                threads,
                ..RunOptions::default()
            };
            let report = problem.count(&engine, &opts).unwrap();
            assert!(report.complete);
            (start.elapsed().as_secs_f64(), report, engine.name())
        };
        // A warm-up of each, not counted; short counts are repeated until each side has
        // about 3 s of runs, so that milliseconds are compared by a median of many.
        let (warm, report, chosen) = default_run();
        let memo = chosen != "bits";
        let limit = memo.then(|| Duration::from_secs(60));
        if !memo {
            run(&Engine::bits(), None);
        }
        let runs = if memo {
            runs
        } else {
            ((3.0 / warm.max(1e-6)) as usize).clamp(runs, 500)
        };
        let mut default_times = Vec::new();
        let mut bits_times = Vec::new();
        let mut bits_stopped = false;
        let mut bits_run = |bits_times: &mut Vec<f64>| {
            let (t, bits) = run(&Engine::bits(), limit);
            if bits.complete {
                assert_eq!(bits.solutions, report.solutions, "{name}");
            } else {
                bits_stopped = true;
            }
            bits_times.push(t);
        };
        for k in 0..runs {
            // Alternating which goes first: neither always runs on a cache the other
            // warmed. Where the memo is chosen, bits runs once (it takes minutes).
            let bits_now = !memo || k == 0;
            if k % 2 == 1 && bits_now {
                bits_run(&mut bits_times);
            }
            default_times.push(default_run().0);
            if k % 2 == 0 && bits_now {
                bits_run(&mut bits_times);
            }
        }
        let (d, dmin, dmax) = median(&mut default_times);
        let (b, bmin, bmax) = median(&mut bits_times);
        let bits = if bits_stopped {
            format!("stopped at {}", time(b))
        } else {
            format!(
                "{} (min {}, max {}, {} runs)",
                time(b),
                time(bmin),
                time(bmax),
                bits_times.len()
            )
        };
        let ratio = if bits_stopped {
            format!("< {:.4}", d / b)
        } else {
            format!("{:.3}", d / b)
        };
        println!(
            "{name:<16} default={chosen:<5} {} (min {}, max {}, {} runs)  bits {bits}  default/bits {ratio}",
            time(d),
            time(dmin),
            time(dmax),
            default_times.len()
        );
    }
}

/// Seconds, or milliseconds below one second.
fn time(t: f64) -> String {
    if t < 1.0 {
        format!("{:.2} ms", t * 1e3)
    } else {
        format!("{t:.2} s")
    }
}

/// The median, min and max of `times`.
fn median(times: &mut [f64]) -> (f64, f64, f64) {
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (times[times.len() / 2], times[0], times[times.len() - 1])
}
