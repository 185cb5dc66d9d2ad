//! Micro-benchmarks (criterion): building the matrix (placement generation), computing
//! the symmetry reduction, compiling Bedlam's CNF in each at-most-one encoding, and
//! counting Soma with each native engine and with SAT.

use criterion::{criterion_group, criterion_main, Criterion};
use std::ops::ControlFlow;

use polycover::sat::{self as cnf, Amo, Backend, SatOptions};
use polycover::solver::{self, RunOptions, Solver};
use polycover::{Puzzle, Reduction, SymmetryMode};

fn placements(c: &mut Criterion) {
    let bedlam = Puzzle::load("bedlam").unwrap();
    let Puzzle::Polycube(p) = &bedlam else {
        unreachable!("bedlam is a polycube puzzle")
    };
    c.bench_function("bedlam matrix (4188 placements)", |b| b.iter(|| p.matrix()));
    let compiled = bedlam.compile(SymmetryMode::Rotations).unwrap();
    c.bench_function("bedlam symmetry reduction", |b| {
        b.iter(|| Reduction::new(&compiled.matrix, compiled.group.clone()))
    });
}

fn soma(c: &mut Criterion) {
    let soma = Puzzle::load("soma")
        .unwrap()
        .compile(SymmetryMode::Rotations)
        .unwrap();
    let reduction = Reduction::new(&soma.matrix, soma.group.clone());
    for solver in [Solver::Dlx, Solver::Bits] {
        c.bench_function(&format!("soma count 480, {}", solver.name()), |b| {
            b.iter(|| {
                let s = solver::count(
                    &reduction,
                    RunOptions {
                        solver,
                        threads: 1,
                        progress: None,
                    },
                );
                assert_eq!(s.solutions, 480);
            })
        });
    }
}

fn cnf_compile(c: &mut Criterion) {
    let bedlam = Puzzle::load("bedlam")
        .unwrap()
        .compile(SymmetryMode::Rotations)
        .unwrap();
    let reduction = Reduction::new(&bedlam.matrix, bedlam.group.clone());
    let mut group = c.benchmark_group("bedlam cnf");
    group.sample_size(10);
    for amo in Amo::ALL {
        group.bench_function(amo.name(), |b| {
            b.iter(|| cnf::compile(&bedlam.matrix, &reduction, amo))
        });
    }
    group.finish();
}

fn soma_sat(c: &mut Criterion) {
    let soma = Puzzle::load("soma")
        .unwrap()
        .compile(SymmetryMode::Rotations)
        .unwrap();
    let reduction = Reduction::new(&soma.matrix, soma.group.clone());
    let formula = cnf::compile(&soma.matrix, &reduction, Amo::Product);
    let mut group = c.benchmark_group("soma count 480");
    group.sample_size(10);
    for backend in [Backend::default_for_build(), Backend::Varisat] {
        let opts = SatOptions {
            backend,
            ..SatOptions::default()
        };
        group.bench_function(format!("sat product ({}, cubes)", backend.name()), |b| {
            b.iter(|| {
                let mut n = 0;
                cnf::for_each_model(&soma.matrix, &reduction, &formula, &opts, None, &mut |_| {
                    n += 1;
                    ControlFlow::Continue(())
                })
                .unwrap();
                assert_eq!(n, 480);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, placements, soma, cnf_compile, soma_sat);
criterion_main!(benches);
