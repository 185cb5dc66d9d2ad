//! SAT against the native reference, measured in the same process:
//! - Bedlam: time to the first model (embedded varisat, plain strategy) per encoding,
//!   against the DLX's time to its first solution;
//! - Soma (rotations, 480): time to enumerate every model per encoding, against the DLX.
//!
//! `cargo bench --bench sat`

use std::ops::ControlFlow;
use std::time::Instant;

use polycover::cnf::{self, Amo};
use polycover::sat::{self, Backend, Strategy};
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
    for amo in Amo::ALL {
        let t = Instant::now();
        let formula = cnf::compile(&bedlam.matrix, &r, amo);
        let compiled = t.elapsed().as_secs_f64();
        sat::for_each_model(
            &bedlam.matrix,
            &r,
            &formula,
            Backend::Varisat,
            Strategy::Plain,
            &mut |_| ControlFlow::Break(()),
        )
        .unwrap();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "bedlam first model     sat {:<10}     {:>8.3} s  (compile {:.3} s, {} vars, {} clauses)  {:>7.1}x dlx",
            amo.name(),
            secs,
            compiled,
            formula.num_vars,
            formula.num_clauses(),
            secs / dlx_first
        );
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
    for amo in Amo::ALL {
        let t = Instant::now();
        let formula = cnf::compile(&soma.matrix, &r, amo);
        let mut models = 0;
        sat::for_each_model(
            &soma.matrix,
            &r,
            &formula,
            Backend::Varisat,
            Strategy::Cubes,
            &mut |_| {
                models += 1;
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        assert_eq!(models, n);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "soma count {models}         sat {:<10}     {:>8.3} s  {:>7.0}x dlx",
            amo.name(),
            secs,
            secs / dlx
        );
    }
}
