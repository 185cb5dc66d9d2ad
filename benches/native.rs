//! Micro-benchmarks (criterion): building the matrix (placement generation), compiling
//! it (the matrix, the symmetry group and the reduction by it), compiling Bedlam's CNF in each at-most-one encoding, and
//! counting Soma and the 6x6 domino tilings with each native engine, and Soma with SAT.

use criterion::{criterion_group, criterion_main, Criterion};

use polycover::sat::{self as cnf, Amo, Formula};
use polycover::{Engine, Problem, Puzzle, RunOptions, Setting, SymmetryMode};

fn placements(c: &mut Criterion) {
    let text = polycover::CatalogEntry::find("bedlam").unwrap().text;
    c.bench_function("bedlam parse and placements (4188)", |b| {
        b.iter(|| Puzzle::parse("bedlam.toml", text).unwrap())
    });
    let bedlam = Puzzle::parse("bedlam.toml", text).unwrap();
    c.bench_function("bedlam matrix", |b| b.iter(|| bedlam.matrix()));
    c.bench_function("bedlam compiled (matrix, group, reduction)", |b| {
        b.iter(|| bedlam.compile(SymmetryMode::Rotations).unwrap())
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

/// Copies of one piece: 18 dominoes in a 6x6 box, every tiling (6,728). The bitset engine
/// keeps the piece out of the masks (36 cells, one word), as for the 8x8 box in the
/// README's performance table.
fn dominoes(c: &mut Criterion) {
    let text = "name = \"dominoes 6x6\"\nbox = [6, 6, 1]\n[[piece]]\nname = \"d\"\n\
                cells = [[0,0,0], [1,0,0]]\ncount = 18\n";
    let puzzle = Puzzle::parse("dominoes.toml", text).unwrap();
    let dominoes = puzzle.compile(SymmetryMode::None).unwrap();
    for engine in [Engine::dlx(), Engine::bits()] {
        c.bench_function(
            &format!("6x6 dominoes count 6728, {}", engine.name()),
            |b| {
                b.iter(|| {
                    let r = dominoes.count(&engine, &RunOptions::default()).unwrap();
                    assert_eq!(r.solutions, 6728);
                })
            },
        );
    }
}

fn cnf_compile(c: &mut Criterion) {
    let bedlam = Problem::load("bedlam", Some(SymmetryMode::Rotations)).unwrap();
    let mut group = c.benchmark_group("bedlam cnf");
    group.sample_size(10);
    for amo in Amo::ALL {
        group.bench_function(amo.name(), |b| b.iter(|| cnf::Formula::of(&bedlam, amo)));
    }
    group.finish();
}

fn soma_sat(c: &mut Criterion) {
    let soma = Problem::load("soma", Some(SymmetryMode::Rotations)).unwrap();
    let mut group = c.benchmark_group("soma count 480");
    group.sample_size(10);
    let sat = Engine::from_name("sat").unwrap();
    let default = sat.setting(Setting::Backend).unwrap();
    for backend in [default.as_str(), "varisat"] {
        let engine = sat.configure([(Setting::Backend, backend)]).unwrap();
        Formula::of(&soma, Amo::Product);
        // Each backend in its own default encoding (lazy with CaDiCaL, product else).
        let amo = engine.setting(Setting::Amo).unwrap();
        group.bench_function(format!("sat {amo} ({backend}, cubes)"), |b| {
            b.iter(|| {
                let r = soma.count(&engine, &RunOptions::default()).unwrap();
                assert_eq!(r.solutions, 480);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, placements, soma, dominoes, cnf_compile, soma_sat);
criterion_main!(benches);
