//! Micro-benchmarks of the native path (criterion): building the matrix, computing the
//! symmetry reduction, and counting Soma with each engine.

use criterion::{criterion_group, criterion_main, Criterion};
use polycover::solver::{self, RunOptions, Solver};
use polycover::{Puzzle, Reduction, SymmetryMode};

fn placements(c: &mut Criterion) {
    let bedlam = Puzzle::load("bedlam").unwrap();
    let Puzzle::Polycube(p) = &bedlam;
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

criterion_group!(benches, placements, soma);
criterion_main!(benches);
