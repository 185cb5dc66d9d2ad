//! SAT against the native reference, measured in the same process, for each embedded
//! backend (CaDiCaL with MRV decisions, CaDiCaL with its own, varisat):
//! - Bedlam: time to the first model (plain strategy) per encoding, against the DLX's
//!   time to its first solution;
//! - Soma (rotations, 480): time to enumerate every model per encoding, against the DLX.
//!
//! The full Bedlam count is `polycover bench bedlam --solvers sat-cadical` (README).
//!
//! `cargo bench --bench sat`

use std::time::Instant;

use polycover::sat::{Amo, Formula};
use polycover::{Engine, Problem, RunOptions, Setting, SymmetryMode};

fn main() {
    if let Some(f) = std::env::args().skip(1).find(|a| !a.starts_with('-')) {
        if !"sat".contains(&f) {
            return;
        }
    }
    let run = RunOptions::default();
    let bedlam = Problem::load("bedlam", Some(SymmetryMode::Rotations)).unwrap();
    let (_, dlx) = bedlam.first(&Engine::dlx(), &run).unwrap();
    println!(
        "bedlam first solution  dlx                {:>8.3} s",
        dlx.seconds
    );
    for engine in engines() {
        for amo in Amo::ALL {
            let engine = engine.configure([(Setting::Amo, amo.name())]).unwrap();
            // A fresh problem each time, so that the compile is measured.
            let p = Problem::load("bedlam", Some(SymmetryMode::Rotations)).unwrap();
            let t = Instant::now();
            let f = Formula::of(&p, amo);
            let compiled = t.elapsed().as_secs_f64();
            let (first, _) = p.first(&engine, &run).unwrap();
            assert!(first.is_some());
            let secs = t.elapsed().as_secs_f64();
            println!(
                "bedlam first model     {:<22} {:<10} {:>8.3} s  (compile {:.3} s, {} vars, {} clauses)  {:>7.1}x dlx",
                engine.name(),
                amo.name(),
                secs,
                compiled,
                f.num_vars,
                f.num_clauses(),
                secs / dlx.seconds
            );
        }
    }
    let soma = Problem::load("soma", Some(SymmetryMode::Rotations)).unwrap();
    let dlx = soma.count(&Engine::dlx(), &run).unwrap();
    let n = dlx.solutions;
    println!(
        "soma count {n}         dlx                {:>8.3} s",
        dlx.seconds
    );
    for engine in engines() {
        for amo in Amo::ALL {
            let engine = engine.configure([(Setting::Amo, amo.name())]).unwrap();
            let t = Instant::now();
            Formula::of(&soma, amo);
            let report = soma.count(&engine, &run).unwrap();
            assert_eq!(report.solutions, n);
            let secs = t.elapsed().as_secs_f64();
            println!(
                "soma count {}         {:<22} {:<10} {:>8.3} s  {:>7.0}x dlx",
                report.solutions,
                engine.name(),
                amo.name(),
                secs,
                secs / dlx.seconds
            );
        }
    }
}

/// The embedded backends and decision modes this build has.
fn engines() -> Vec<Engine> {
    let mut names = Vec::new();
    if cfg!(feature = "cadical") {
        names.extend(["sat-cadical", "sat-cadical-solver"]);
    }
    names.push("sat-varisat");
    names
        .into_iter()
        .map(|n| Engine::from_name(n).expect("a known engine"))
        .collect()
}
