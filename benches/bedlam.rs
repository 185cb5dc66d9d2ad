//! The headline benchmark: count all 19,186 Bedlam solutions natively.
//!
//! One full count takes tens of seconds, so this is a plain harness, not criterion: it
//! runs each configuration `BEDLAM_RUNS` times (default 1), in the same process so that
//! the ratios compare like with like, and prints medians and ratios.
//! `BEDLAM_DLX=1` adds the dancing-links reference engine.

use std::time::Instant;

use polycover::{Engine, Problem, RunOptions, SymmetryMode};

fn main() {
    // `cargo bench -- <filter>` passes arguments; honour a filter that excludes us.
    if let Some(f) = std::env::args().skip(1).find(|a| !a.starts_with('-')) {
        if !"bedlam".contains(&f) {
            return;
        }
    }
    let runs: usize = std::env::var("BEDLAM_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let problem = Problem::load("bedlam", Some(SymmetryMode::Rotations)).unwrap();
    // The bitset engine's own `c solver` line names its list-compaction kernel.
    for line in problem.describe(&Engine::bits(), polycover::engine::Goal::First) {
        println!("{line} (POLYCOVER_SIMD=portable forces the portable kernel)");
    }
    let mut configs = vec![(Engine::bits(), 1), (Engine::bits(), 2)];
    if std::env::var_os("BEDLAM_DLX").is_some() {
        configs.push((Engine::dlx(), 2));
    }
    let mut medians = Vec::new();
    for (engine, threads) in &configs {
        let threads = *threads;
        let mut times = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let s = problem
                .count(
                    engine,
                    &RunOptions {
                        threads,
                        ..RunOptions::default()
                    },
                )
                .unwrap();
            times.push(start.elapsed().as_secs_f64());
            assert_eq!(s.solutions, 19_186);
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let median = times[times.len() / 2];
        println!(
            "bedlam count 19186  solver {:<4}  threads {threads}  median {median:7.2} s  (min {:.2}, max {:.2}, {runs} runs)",
            engine.name(),
            times[0],
            times[times.len() - 1]
        );
        medians.push(median);
    }
    println!(
        "speed-up with 2 threads (bits): {:.2}x",
        medians[0] / medians[1]
    );
    if medians.len() > 2 {
        println!("dlx / bits at 2 threads: {:.2}x", medians[2] / medians[1]);
    }
}
