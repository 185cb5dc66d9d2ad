//! The sampler against chi-square tests: uniform over the solutions with no symmetry,
//! uniform over the orbits up to symmetry (where the reduced matrix holds an orbit's
//! members once, or several times); and the same test rejecting the sampler without its
//! rejection step.

use std::collections::HashMap;

use super::Sampler;
use crate::chi_square;
use crate::problem::Problem;
use crate::puzzle::SymmetryMode;

const DOMINOES: &str = "tests/fixtures/dominoes-4x6.toml";
const DRAWS: usize = 100_000;

fn never() -> bool {
    false
}

/// The least image of `solution` under the problem's group: its orbit's name.
fn orbit(problem: &Problem, solution: &[u32]) -> Vec<u32> {
    let mut image = Vec::new();
    problem
        .reduction
        .group()
        .elements()
        .iter()
        .map(|g| {
            g.apply_sorted(solution, &mut image);
            image.clone()
        })
        .min()
        .unwrap()
}

/// How often each orbit came out in `DRAWS` draws by `draw`, orbits never drawn as 0.
fn tally(problem: &Problem, orbits: u64, draw: &mut dyn FnMut() -> Vec<u32>) -> Vec<u64> {
    let mut bins: HashMap<Vec<u32>, u64> = HashMap::new();
    for _ in 0..DRAWS {
        let s = draw();
        assert!(s.windows(2).all(|w| w[0] < w[1]), "sorted options");
        *bins.entry(orbit(problem, &s)).or_default() += 1;
    }
    assert!(bins.len() as u64 <= orbits);
    let mut counts: Vec<u64> = bins.into_values().collect();
    counts.resize(orbits as usize, 0);
    counts
}

fn problem(spec: &str, mode: SymmetryMode) -> Problem {
    Problem::load(spec, Some(mode)).unwrap()
}

#[test]
#[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
fn no_symmetry_draws_every_solution_alike() {
    let p = problem(DOMINOES, SymmetryMode::None);
    let mut sampler = Sampler::new(&p, 7, 1 << 26, &never).unwrap();
    assert_eq!(*sampler.solutions(), 281u32.into());
    let counts = tally(&p, 281, &mut || sampler.draw().unwrap().unwrap());
    assert!(!chi_square::rejects_uniform(&counts));
    assert_eq!(
        sampler.tries(),
        DRAWS as u64,
        "no rejections without symmetry"
    );
}

/// The 4x6 box: no item is fixed by the whole group, so the reduced matrix is the whole
/// matrix and an orbit has 1, 2 or 4 members there. Drawing without the rejection step
/// favours the orbits of 4 and is rejected; with it, the 98 orbits come out alike.
#[test]
#[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
fn up_to_symmetry_draws_every_orbit_alike() {
    let p = problem(DOMINOES, SymmetryMode::Rotations);
    assert!(p.reduction.pinned_item().is_none());
    let mut sampler = Sampler::new(&p, 7, 1 << 26, &never).unwrap();
    let counts = tally(&p, 98, &mut || sampler.draw().unwrap().unwrap());
    assert!(!chi_square::rejects_uniform(&counts));
    // 281 solutions in 98 orbits: about 2.9 tries per draw.
    let tries = sampler.tries() as f64 / DRAWS as f64;
    assert!((2.7..3.0).contains(&tries), "{tries} tries per draw");

    let mut mutant = Sampler::new(&p, 7, 1 << 26, &never).unwrap();
    let counts = tally(&p, 98, &mut || mutant.try_one().unwrap());
    assert!(chi_square::rejects_uniform(&counts));
}

/// A square and dominoes: the square is pinned, and its placements on the middle rows
/// are their own mirror images, so 61 of the 229 orbits have two members in the reduced
/// matrix (290 solutions). With the rejection step the orbits come out alike; without
/// it those 61 come out twice as often, and the test sees it.
#[test]
#[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
fn a_pinned_reduction_with_a_check_draws_every_orbit_alike() {
    let p = problem(
        "tests/fixtures/o-and-dominoes-4x6.toml",
        SymmetryMode::Rotations,
    );
    assert!(p.reduction.pinned_item().is_some() && p.reduction.needs_check());
    let mut sampler = Sampler::new(&p, 11, 1 << 26, &never).unwrap();
    assert_eq!(*sampler.solutions(), 290u32.into());
    let counts = tally(&p, 229, &mut || sampler.draw().unwrap().unwrap());
    assert!(!chi_square::rejects_uniform(&counts));
    assert!(sampler.tries() > DRAWS as u64, "some draws were rejected");

    let mut mutant = Sampler::new(&p, 11, 1 << 26, &never).unwrap();
    let counts = tally(&p, 229, &mut || mutant.try_one().unwrap());
    assert!(chi_square::rejects_uniform(&counts));
}

#[test]
fn a_seed_fixes_the_draws() {
    let p = problem(DOMINOES, SymmetryMode::Rotations);
    let draws = |seed| {
        let mut s = Sampler::new(&p, seed, 1 << 26, &never).unwrap();
        (0..20)
            .map(|_| s.draw().unwrap().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(draws(3), draws(3));
    assert_ne!(draws(3), draws(4));
}

/// Three L-trominoes never tile the 3x3 square (a corner's tromino leaves a cell that no
/// other can fill together with the rest).
#[test]
fn a_puzzle_without_solutions_draws_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l3.toml");
    std::fs::write(
        &path,
        "name = \"L in 3x3\"\nbox = [3, 3, 1]\n\n[[piece]]\nname = \"L\"\n\
         cells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = 3\n",
    )
    .unwrap();
    let p = Problem::load(&path, Some(SymmetryMode::None)).unwrap();
    let mut sampler = Sampler::new(&p, 1, 1 << 26, &never).unwrap();
    assert_eq!(*sampler.solutions(), 0u32.into());
    assert!(matches!(sampler.draw(), Ok(None)));
}
