//! Known counts, through both native engines and every symmetry mode, and an
//! independent brute-force orbit count for the small puzzles.

use polycover::SymmetryMode::{self, None as NoSymmetry, Reflections, Rotations};
use polycover::{Engine, RunOptions};

use crate::common::*;

const MODES: [SymmetryMode; 3] = [NoSymmetry, Rotations, Reflections];

#[test]
fn soma_counts_in_every_mode_with_both_engines() {
    for (mode, want) in [(NoSymmetry, 11_520), (Rotations, 480), (Reflections, 240)] {
        let c = compile("soma", mode);
        assert_eq!(count(&c, Engine::dlx(), 1), want, "dlx {mode:?}");
        assert_eq!(count(&c, Engine::bits(), 2), want, "bits {mode:?}");
    }
}

/// Every small catalog puzzle: each published count in its `[expect]` table, from both
/// engines, and the same count by brute-force orbit counting.
#[test]
fn small_catalog_puzzles_match_expectations_and_brute_force() {
    for name in [
        "soma",
        "slothouber-graatsma",
        "pentomino-3x20",
        "pentomino-8x8-hole",
    ] {
        let puzzle = polycover::Puzzle::load(name).unwrap();
        for mode in MODES {
            let Ok(c) = puzzle.compile(mode) else {
                continue;
            };
            let dlx = count(&c, Engine::dlx(), 1);
            let bits = count(&c, Engine::bits(), 2);
            assert_eq!(dlx, bits, "{name} {mode:?}: engines disagree");
            assert_eq!(
                count_orbits_by_brute_force(&c),
                dlx,
                "{name} {mode:?}: brute force"
            );
            if let Some(want) = puzzle.expected(mode) {
                assert_eq!(*want, dlx, "{name} {mode:?}: published count");
            }
        }
    }
}

/// The Slothouber-Graatsma puzzle has one solution, fixed by a 3-fold rotation about a
/// space diagonal: 8 raw solutions, because its orbit has 24 / 3 members.
#[test]
fn a_solution_fixed_by_a_three_fold_rotation_counts_once() {
    let raw = compile("slothouber-graatsma", NoSymmetry);
    assert_eq!(count(&raw, Engine::dlx(), 1), 8);
    let rot = compile("slothouber-graatsma", Rotations);
    assert_eq!(count(&rot, Engine::dlx(), 1), 1);
    assert_eq!(count(&rot, Engine::bits(), 1), 1);
}

/// Only symmetric pieces (dominoes), all copies of one piece: no piece can be pinned to
/// a free orbit, so the count rests on the canonical-form check.
#[test]
fn only_symmetric_pieces() {
    let text = DOMINOES;
    for mode in MODES {
        let c = compile_text(text, mode);
        let brute = count_orbits_by_brute_force(&c);
        assert_eq!(count(&c, Engine::dlx(), 1), brute, "{mode:?}");
        assert_eq!(count(&c, Engine::bits(), 1), brute, "{mode:?}");
    }
    // 2x2x3 has 32 domino tilings.
    assert_eq!(count(&compile_text(text, NoSymmetry), Engine::dlx(), 1), 32);
}

/// Copies are indistinguishable: naming them apart multiplies the raw count by 4!.
#[test]
fn copies_are_counted_once() {
    let copies = r#"
        name = "L copies"
        box = [3, 2, 2]
        [[piece]]
        name = "L"
        cells = [[0,0,0], [1,0,0], [0,1,0]]
        count = 4
    "#;
    let named = r#"
        name = "L named"
        box = [3, 2, 2]
        [[piece]]
        name = "a"
        cells = [[0,0,0], [1,0,0], [0,1,0]]
        [[piece]]
        name = "b"
        cells = [[0,0,0], [1,0,0], [0,1,0]]
        [[piece]]
        name = "c"
        cells = [[0,0,0], [1,0,0], [0,1,0]]
        [[piece]]
        name = "e"
        cells = [[0,0,0], [1,0,0], [0,1,0]]
    "#;
    let c = count(&compile_text(copies, NoSymmetry), Engine::dlx(), 1);
    let n = count(&compile_text(named, NoSymmetry), Engine::dlx(), 1);
    assert!(c > 0);
    assert_eq!(n, 24 * c);
    assert_eq!(
        count(&compile_text(copies, NoSymmetry), Engine::bits(), 1),
        c
    );
}

#[test]
fn threads_do_not_change_counts() {
    let c = compile("soma", NoSymmetry);
    assert_eq!(count(&c, Engine::bits(), 1), count(&c, Engine::bits(), 3));
    assert_eq!(count(&c, Engine::dlx(), 2), 11_520);
}

/// Heavier checks run only in release builds (`cargo test --release`).
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn pentomino_rectangles() {
    // The DLX on two of them (5x12 walks the same code as 6x10, for 3 s more), and the
    // orbits counted by brute force (every raw solution, least image under the group) on
    // the smallest: on 6x10 it walked 9,356 raw solutions, 10 s of DLX.
    for (name, want, dlx) in [
        ("pentomino-6x10", 2339, true),
        ("pentomino-5x12", 1010, false),
        ("pentomino-4x15", 368, true),
    ] {
        let c = compile(name, Rotations);
        assert_eq!(count(&c, Engine::bits(), 2), want, "{name}");
        if dlx {
            assert_eq!(count(&c, Engine::dlx(), 2), want, "{name} dlx");
        }
        let raw = compile(name, NoSymmetry);
        assert_eq!(count(&raw, Engine::bits(), 2), 4 * want, "{name} raw");
    }
    let c = compile("pentomino-4x15", Rotations);
    assert_eq!(count_orbits_by_brute_force(&c), 368);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn bedlam_19186_up_to_rotation() {
    let c = compile("bedlam", Rotations);
    assert_eq!(count(&c, Engine::bits(), 2), 19_186);
}

/// Both engines branch by the same rule, so they walk the same search tree. Soma and the
/// pentominoes run the bitset engine's segmented form with one copy of each piece, the
/// Slothouber-Graatsma cube with copies.
#[test]
fn engines_walk_the_same_tree() {
    for (name, mode) in [
        ("soma", NoSymmetry),
        ("slothouber-graatsma", Rotations),
        ("pentomino-3x20", Rotations),
    ] {
        let p = compile(name, mode);
        let run = |engine: &Engine| {
            let r = p.count(engine, &RunOptions::default()).unwrap();
            // Node and raw-solution counts, and the distinct solutions.
            (r.statistics, r.solutions)
        };
        let (dlx, bits) = (run(&Engine::dlx()), run(&Engine::bits()));
        assert!(dlx.0.starts_with("nodes "), "{dlx:?}");
        assert_eq!(dlx, bits, "{name}");
    }
}

/// Dominoes in a `w`x`h` box, `--symmetry none`.
fn dominoes(w: u32, h: u32) -> String {
    format!(
        "name = \"dominoes\"\nbox = [{w}, {h}, 1]\n[[piece]]\nname = \"d\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = {}\n",
        w * h / 2
    )
}

/// Puzzles with copies run the bitset engine's segmented form (cell masks without the
/// piece items: the 8x8 dominoes fit one word) and give the DLX's counts, node counts
/// and raw solutions: the domino tilings of 4x4 and 4x5 (36 and 95), L and I trominoes
/// (copies of two pieces, so the last copy of a piece is still not branched on), and a
/// mix of one-copy and many-copy pieces.
#[test]
fn copies_run_segmented_and_walk_the_dlx_tree() {
    let trominoes = |l: u32, i: u32, w: u32, h: u32| {
        format!(
            "name = \"trominoes\"\nbox = [{w}, {h}, 1]\n\
             [[piece]]\nname = \"L\"\ncells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = {l}\n\
             [[piece]]\nname = \"I\"\ncells = [[0,0,0], [1,0,0], [2,0,0]]\ncount = {i}\n"
        )
    };
    let mixed = "name = \"mixed\"\nbox = [4, 3, 1]\n\
         [[piece]]\nname = \"L\"\ncells = [[0,0,0], [1,0,0], [0,1,0]]\n\
         [[piece]]\nname = \"T\"\ncells = [[0,0,0], [1,0,0], [2,0,0], [1,1,0]]\n\
         [[piece]]\nname = \"d\"\ncells = [[0,0,0], [1,0,0]]\ncount = 2\n\
         [[piece]]\nname = \"m\"\ncells = [[0,0,0]]\n";
    // The kernel this CPU runs, told apart here as the engine tells it (AVX2 unless
    // `POLYCOVER_SIMD=portable`).
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    let forced = std::env::var("POLYCOVER_SIMD").is_ok_and(|v| v == "portable");
    let kernel = if avx2 && !forced { "avx2" } else { "portable" };
    for (text, want) in [
        (dominoes(4, 4), Some(36)),
        (dominoes(4, 5), Some(95)),
        (DOMINOES.to_string(), Some(32)),
        (trominoes(7, 7, 7, 6), Some(14_504)),
        (trominoes(2, 2, 4, 3), Some(16)),
        (mixed.to_string(), None),
    ] {
        let p = compile_text(&text, NoSymmetry);
        let solver = p.describe(&Engine::bits(), polycover::engine::Goal::First);
        assert_eq!(
            solver,
            [format!(
                "solver bits: piece segments, cell masks of 1 word(s), {kernel} list compaction"
            )],
            "{text}"
        );
        let run = |engine: &Engine| {
            let r = p.count(engine, &RunOptions::default()).unwrap();
            (r.statistics, r.solutions)
        };
        let (dlx, bits) = (run(&Engine::dlx()), run(&Engine::bits()));
        assert_eq!(dlx, bits, "{text}");
        assert!(!dlx.1.is_zero(), "{text}");
        if let Some(want) = want {
            assert_eq!(dlx.1, want, "{text}");
        }
    }
}
