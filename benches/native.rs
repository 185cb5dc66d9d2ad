//! Micro-benchmarks (criterion): building the matrix (placement generation), computing
//! the symmetry reduction, compiling Bedlam's CNF in each at-most-one encoding, and
//! counting Soma with each native engine and with SAT.

use criterion::{criterion_group, criterion_main, Criterion};

use polycover::sat::{self as cnf, Amo, Backend};
use polycover::{Engine, Problem, Puzzle, Reduction, RunOptions, SatEngine, SymmetryMode};

fn placements(c: &mut Criterion) {
    let text = polycover::catalog::find("bedlam").unwrap().text;
    c.bench_function("bedlam parse and placements (4188)", |b| {
        b.iter(|| Puzzle::parse("bedlam.toml", text).unwrap())
    });
    let bedlam = Puzzle::parse("bedlam.toml", text).unwrap();
    c.bench_function("bedlam matrix", |b| b.iter(|| bedlam.matrix()));
    let compiled = bedlam.compile(SymmetryMode::Rotations).unwrap();
    c.bench_function("bedlam symmetry reduction", |b| {
        b.iter(|| Reduction::new(&compiled.matrix, compiled.group.clone()))
    });
}

fn soma(c: &mut Criterion) {
    let soma = Problem::load("soma", Some(SymmetryMode::Rotations)).unwrap();
    for engine in [Engine::dlx(), Engine::bits()] {
        c.bench_function(&format!("soma count 480, {}", engine.name()), |b| {
            b.iter(|| {
                let r = soma.count(&engine, &RunOptions::default()).unwrap();
                assert_eq!(r.solutions, 480);
            })
        });
    }
}

fn cnf_compile(c: &mut Criterion) {
    let bedlam = Problem::load("bedlam", Some(SymmetryMode::Rotations)).unwrap();
    let mut group = c.benchmark_group("bedlam cnf");
    group.sample_size(10);
    for amo in Amo::ALL {
        group.bench_function(amo.name(), |b| {
            b.iter(|| cnf::compile(&bedlam.compiled.matrix, &bedlam.reduction, amo))
        });
    }
    group.finish();
}

fn soma_sat(c: &mut Criterion) {
    let soma = Problem::load("soma", Some(SymmetryMode::Rotations)).unwrap();
    let mut group = c.benchmark_group("soma count 480");
    group.sample_size(10);
    for backend in [Backend::default_for_build(), Backend::Varisat] {
        let engine = Engine::sat(SatEngine {
            backend,
            ..SatEngine::default()
        });
        soma.formula(Amo::Product);
        group.bench_function(format!("sat product ({}, cubes)", backend.name()), |b| {
            b.iter(|| {
                let r = soma.count(&engine, &RunOptions::default()).unwrap();
                assert_eq!(r.solutions, 480);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, placements, soma, cnf_compile, soma_sat);
criterion_main!(benches);
