//! SAT against the native reference, measured in the same process, for each embedded
//! backend (CaDiCaL with MRV decisions, CaDiCaL with its own, varisat):
//! - Bedlam: time to the first model (plain strategy) per encoding, against the DLX's
//!   time to its first solution;
//! - Soma (rotations, 480): time to enumerate every model per encoding, against the DLX.
//!
//! The full Bedlam count is `polycover bench bedlam --solvers sat-cadical` (README).
//!
//! `cargo bench --bench sat`

use std::ops::ControlFlow;
use std::time::Instant;

use polycover::sat::{self, Amo, Backend, Decide, SatOptions, Strategy};
use polycover::solver::{self, RunOptions, Solver};
use polycover::{Puzzle, Reduction, SymmetryMode};

fn main() {
    if let Some(f) = std::env::args().skip(1).find(|a| !a.starts_with('-')) {
        if !"sat".contains(&f) {
            return;
        }
    }
    let bedlam = Puzzle::load("bedlam")
        .unwrap()
        .compile(SymmetryMode::Rotations)
        .unwrap();
    let r = Reduction::new(&bedlam.matrix, bedlam.group.clone());
    let t = Instant::now();
    solver::first(&r, Solver::Dlx).unwrap();
    let dlx_first = t.elapsed().as_secs_f64();
    println!(
        "bedlam first solution  dlx                {:>8.3} s",
        dlx_first
    );
    for (backend, decide) in engines() {
        for amo in Amo::ALL {
            let t = Instant::now();
            let formula = sat::compile(&bedlam.matrix, &r, amo);
            let compiled = t.elapsed().as_secs_f64();
            let opts = SatOptions {
                backend,
                decide,
                strategy: Strategy::Plain,
                ..SatOptions::default()
            };
            sat::for_each_model(&bedlam.matrix, &r, &formula, &opts, None, &mut |_| {
                ControlFlow::Break(())
            })
            .unwrap();
            let secs = t.elapsed().as_secs_f64();
            println!(
            "bedlam first model     {:<22} {:<10} {:>8.3} s  (compile {:.3} s, {} vars, {} clauses)  {:>7.1}x dlx",
            label(backend, decide),
            amo.name(),
            secs,
            compiled,
            formula.num_vars,
            formula.num_clauses(),
            secs / dlx_first
        );
        }
    }
    let soma = Puzzle::load("soma")
        .unwrap()
        .compile(SymmetryMode::Rotations)
        .unwrap();
    let r = Reduction::new(&soma.matrix, soma.group.clone());
    let t = Instant::now();
    let n = solver::count(
        &r,
        RunOptions {
            solver: Solver::Dlx,
            threads: 1,
            progress: None,
        },
    )
    .solutions;
    let dlx = t.elapsed().as_secs_f64();
    println!("soma count {n}         dlx                {:>8.3} s", dlx);
    for (backend, decide) in engines() {
        for amo in Amo::ALL {
            let t = Instant::now();
            let formula = sat::compile(&soma.matrix, &r, amo);
            let mut models = 0;
            let opts = SatOptions {
                backend,
                decide,
                ..SatOptions::default()
            };
            sat::for_each_model(&soma.matrix, &r, &formula, &opts, None, &mut |_| {
                models += 1;
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(models, n);
            let secs = t.elapsed().as_secs_f64();
            println!(
                "soma count {models}         {:<22} {:<10} {:>8.3} s  {:>7.0}x dlx",
                label(backend, decide),
                amo.name(),
                secs,
                secs / dlx
            );
        }
    }
}

/// The embedded backends and decision modes this build has.
fn engines() -> Vec<(Backend, Decide)> {
    let mut v = Vec::new();
    if cfg!(feature = "cadical") {
        v.push((Backend::Cadical, Decide::Mrv));
        v.push((Backend::Cadical, Decide::Solver));
    }
    v.push((Backend::Varisat, Decide::Mrv));
    v
}

fn label(backend: Backend, decide: Decide) -> String {
    match backend {
        Backend::Cadical => format!("sat {} {}", backend.name(), decide.name()),
        Backend::Varisat => format!("sat {}", backend.name()),
    }
}
