//! Orientations, placements and symmetry groups of polycube puzzles.

use super::Polycube;
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};

fn compile(name: &str, mode: SymmetryMode) -> Compiled {
    Puzzle::load(name).unwrap().compiled(mode).unwrap()
}

fn polycube(name: &str) -> Polycube {
    let puzzle = Puzzle::load(name).unwrap();
    match puzzle.downcast_ref::<Polycube>() {
        Some(p) => p.clone(),
        None => panic!("{name} is not a polycube puzzle: {}", puzzle.name()),
    }
}

#[test]
fn bedlam_orientations_and_placements() {
    let p = polycube("bedlam");
    let mut orientations: Vec<usize> = p.orientations.iter().map(|o| o.len()).collect();
    orientations.sort_unstable();
    assert_eq!(
        orientations,
        [3, 12, 12, 12, 12, 12, 24, 24, 24, 24, 24, 24, 24]
    );
    let matrix = Puzzle::load("bedlam").unwrap().matrix();
    assert_eq!(matrix.num_options(), 4188);
    assert_eq!(matrix.num_options(), p.placements.len());
}

#[test]
fn soma_orientations() {
    let p = polycube("soma");
    let counts: Vec<usize> = p.orientations.iter().map(|o| o.len()).collect();
    // V, L, T, Z, A, B, P
    assert_eq!(counts, [12, 24, 12, 12, 12, 12, 8]);
}

fn group_order(text: &str, mode: SymmetryMode) -> usize {
    Puzzle::parse("t.toml", text)
        .unwrap()
        .compiled(mode)
        .unwrap()
        .group
        .order()
}

fn box_puzzle(x: u32, y: u32, z: u32, holes: &str) -> String {
    // Unit cubes fill any target, so the group is the target's alone.
    format!(
        "name = \"t\"\nbox = [{x}, {y}, {z}]\nholes = [{holes}]\n[[piece]]\nname = \"u\"\ncells = [[0,0,0]]\ncount = {}\n",
        x * y * z - holes.matches('[').count() as u32
    )
}

#[test]
fn group_orders_are_computed_from_the_target() {
    let cases = [
        (box_puzzle(4, 4, 4, ""), 24, 48),
        (box_puzzle(4, 4, 2, ""), 8, 16),
        (box_puzzle(6, 10, 1, ""), 4, 8),
        (
            box_puzzle(8, 8, 1, "[3,3,0],[3,4,0],[4,3,0],[4,4,0]"),
            8,
            16,
        ),
        // An off-centre hole leaves only the rotations that fix it.
        (box_puzzle(3, 3, 1, "[0,0,0]"), 2, 4),
    ];
    for (text, rotations, isometries) in cases {
        assert_eq!(
            group_order(&text, SymmetryMode::Rotations),
            rotations,
            "{text}"
        );
        assert_eq!(
            group_order(&text, SymmetryMode::Reflections),
            isometries,
            "{text}"
        );
        assert_eq!(group_order(&text, SymmetryMode::None), 1);
    }
}

#[test]
fn groups_are_consistent_with_the_matrix() {
    for (name, mode) in [
        ("soma", SymmetryMode::Reflections),
        ("bedlam", SymmetryMode::Rotations),
        ("pentomino-8x8-hole", SymmetryMode::Reflections),
    ] {
        let c = compile(name, mode);
        assert_eq!(c.group.validate(&c.matrix), Ok(()), "{name}");
    }
}

#[test]
fn reflections_swap_the_chiral_soma_pieces() {
    let p = polycube("soma");
    let partners = p.mirror_partners().unwrap();
    let name = |k: u32| p.pieces[k as usize].symbol;
    let swapped: Vec<(char, char)> = (0..p.pieces.len() as u32)
        .filter(|&k| partners[k as usize] != k)
        .map(|k| (name(k), name(partners[k as usize])))
        .collect();
    assert_eq!(swapped, [('A', 'B'), ('B', 'A')]);
    assert!(polycube("bedlam").mirror_partners().is_err());
}
