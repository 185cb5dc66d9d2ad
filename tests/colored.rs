//! Coloured cubes: Hesselink's instance, generated instances checked by the DLX, the
//! bitset engine, SAT and brute-force orbits (Hesselink's staged search, a third way, is
//! the library's own unit test: `puzzle::colored`), rendering, and bad files.

use polycover::kinds::Generator;
use polycover::sat::Amo;
use polycover::{Engine, Puzzle, RunOptions, SymmetryMode};

use crate::common::*;

/// SAT counts with the default backend and with varisat must agree; returns the count.
fn sat_count_both(c: &polycover::Problem, amo: Amo) -> u64 {
    let n = sat_count(c, amo, &SatRun::default());
    let varisat = SatRun {
        engine: sat_engine(&[(Setting::Backend, "varisat")]),
        ..SatRun::default()
    };
    assert_eq!(
        sat_count(c, amo, &varisat),
        n,
        "varisat against the default backend"
    );
    n
}

/// The 24 rotations of a cube as permutations of its faces (left, front, right, back,
/// top, bottom), from the rotation matrices: face `i` of a turned cube shows the given
/// face `t[i]`. (Which hand the faces go round by does not matter: conjugating by a
/// mirror maps the rotations onto themselves.)
fn face_turns() -> Vec<[usize; 6]> {
    let faces: [[i32; 3]; 6] = [
        [-1, 0, 0],
        [0, -1, 0],
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
        [0, 0, -1],
    ];
    rotations()
        .iter()
        .map(|m| faces.map(|f| faces.iter().position(|&g| turn(m, g) == f).unwrap()))
        .collect()
}

#[test]
fn hesselink_5_has_one_solution_up_to_the_stack_and_eight_raw() {
    let puzzle = Puzzle::load("hesselink-5").unwrap();
    let stack = puzzle.compile(SymmetryMode::Stack).unwrap();
    let none = puzzle.compile(SymmetryMode::None).unwrap();
    assert_eq!(stack.symmetries(), 8);
    for solver in [Engine::dlx(), Engine::bits()] {
        assert_eq!(count(&stack, solver.clone(), 1), 1, "{solver:?}");
        assert_eq!(count(&none, solver.clone(), 2), 8, "{solver:?}");
    }
    for amo in Amo::ALL {
        assert_eq!(sat_count_both(&stack, amo), 1, "{amo:?}");
        assert_eq!(sat_count_both(&none, amo), 8, "{amo:?}");
    }
    assert_eq!(count_orbits_by_brute_force(&stack), 1);
    // The default mode of a coloured-cube puzzle is the stack, on the command line too.
    assert_eq!(
        stdout(&polycover(&["count", "hesselink-5"])).lines().last(),
        Some("s mc 1")
    );
    let out = polycover(&["count", "hesselink-5", "--symmetry", "rotations"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--symmetry stack"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_printed_solution_turns_each_given_cube_and_fills_every_side() {
    for solver in ["bits", "sat"] {
        let out = polycover(&[
            "enumerate",
            "hesselink-5",
            "--format",
            "jsonl",
            "--solver",
            solver,
        ]);
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "{text}");
        let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        for cube in v["cubes"].as_array().unwrap() {
            let given: Vec<char> = cube["given"].as_str().unwrap().chars().collect();
            let turned = cube["turned"].as_str().unwrap();
            let is_turn = face_turns()
                .iter()
                .any(|t| t.iter().map(|&k| given[k]).collect::<String>() == turned);
            assert!(is_turn, "{turned} is not a rotation of {given:?}");
        }
        for side in ["left", "front", "right", "back"] {
            let mut s: Vec<char> = v["sides"][side].as_str().unwrap().chars().collect();
            s.sort_unstable();
            assert_eq!(s.iter().collect::<String>(), "ABCDE", "{side}");
        }
    }
    // The text form: a header and one line per cube, exit code 10.
    let out = polycover(&["solve", "hesselink-5"]);
    assert_eq!(out.status.code(), Some(10));
    let text = stdout(&out);
    assert!(text.contains("cube  left front right back"), "{text}");
    assert!(text.contains("AEDDEA"), "{text}");
}

/// Generated instances, H = 3 to 8, planted and random: the DLX, the bits engine and SAT
/// agree on the raw count, and the DLX, SAT and brute-force orbit counting agree up to
/// the stack.
#[test]
fn generated_instances_agree_three_ways() {
    let mut solvable_seen = 0;
    for h in 3..=8 {
        for (seed, solvable) in [(1, true), (2, true), (3, false), (4, false)] {
            let text = Generator::colored_cubes(h, seed, solvable).unwrap();
            let puzzle = Puzzle::parse(&format!("gen-{h}-{seed}"), &text).unwrap();
            let none = puzzle.compile(SymmetryMode::None).unwrap();
            let stack = puzzle.compile(SymmetryMode::Stack).unwrap();
            let raw = count(&none, Engine::dlx(), 1);
            assert_eq!(count(&none, Engine::bits(), 1), raw, "H={h} seed {seed}");
            assert_eq!(
                sat_count_both(&none, Amo::Product),
                raw,
                "H={h} seed {seed}: sat"
            );
            let up_to_stack = count(&stack, Engine::dlx(), 1);
            assert_eq!(
                sat_count_both(&stack, Amo::Ladder),
                up_to_stack,
                "H={h} seed {seed}"
            );
            assert_eq!(
                count_orbits_by_brute_force(&stack),
                up_to_stack,
                "H={h} seed {seed}"
            );
            if solvable {
                assert!(raw >= 1, "H={h} seed {seed}: the planted solution is lost");
                solvable_seen += 1;
            }
        }
    }
    assert_eq!(solvable_seen, 12);
}

#[test]
fn generate_writes_a_loadable_file_and_is_reproducible() {
    let a = polycover(&[
        "generate",
        "colored-cubes",
        "--cubes",
        "6",
        "--seed",
        "9",
        "--solvable",
    ]);
    let b = polycover(&[
        "generate",
        "colored-cubes",
        "--cubes",
        "6",
        "--seed",
        "9",
        "--solvable",
    ]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b));
    Puzzle::parse("generated", &stdout(&a)).unwrap();
    let out = polycover(&["generate", "colored-cubes", "--cubes", "27"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("between 1 and 26"),
        "{}",
        stderr(&out)
    );
}

/// The DIMACS of a coloured-cube puzzle carries the projection and the turn map, and an
/// external solver's model decodes back into a solution.
#[test]
fn dimacs_and_decode_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let cnf_path = dir.path().join("h5.cnf");
    let out = polycover(&["dimacs", "hesselink-5", "-o", cnf_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&cnf_path).unwrap();
    assert!(text.contains("c p show 1 2 3"), "no projection line");
    assert!(text.contains("c v 1 cube1 r0 AEDDEA"), "no turn map");
    // The header names the kind's columns, not a polycube's.
    assert!(
        text.contains("c variable map: c v VAR CUBE ROTATION FACES"),
        "{text}"
    );
    assert!(text.contains("one per (cube, turn) pair"), "{text}");
    assert!(!text.contains("PIECE ORIENTATION"), "{text}");
    // A model from our own solver, written as SAT-competition output, decodes.
    let puzzle = Puzzle::load("hesselink-5").unwrap();
    let c = puzzle.compile(SymmetryMode::Stack).unwrap();
    let solution = c
        .first(&sat_engine(&[]), &RunOptions::default())
        .unwrap()
        .0
        .expect("a solution");
    let lits = model_literals(c.matrix().num_options(), &solution);
    let model = dir.path().join("h5.model");
    std::fs::write(&model, format!("s SATISFIABLE\nv {} 0\n", lits)).unwrap();
    let out = polycover(&["decode", "hesselink-5", "--model", model.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    assert!(stdout(&out).contains("AEDDEA"), "{}", stdout(&out));
}
