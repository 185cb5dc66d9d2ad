//! The memo in three dimensions (issue 37): tilings of a×b×c boxes by dominoes and by
//! L-trominoes, counted by `polycover count --symmetry none --solver memo`, against a
//! broken-profile count written here, independent of the exact-cover matrix and of every
//! engine. The profile count is itself checked against known values and against a
//! brute-force search written here.
//!
//! Boxes checked against the profile count: dominoes 2x2x2..2x2x6, 2x3x4, 3x3x4, 4x4xN
//! for N ≤ 4 (every build) and N ≤ 12 and 2x2x40 (release builds); L-trominoes 2x3xN
//! and 3x3xN for N ≤ 4 (every build) and N ≤ 12 (release builds). Up to symmetry, the
//! memo against the bitset engine: dominoes 2x2x4 and 2x3x4, L-trominoes 3x3x2 and 2x3x4.

use std::collections::HashMap;

use crate::common::*;

/// A cell as (x, y, z).
type Cell = [i32; 3];

const DOMINO: &[Cell] = &[[0, 0, 0], [1, 0, 0]];
const L_TROMINO: &[Cell] = &[[0, 0, 0], [1, 0, 0], [0, 1, 0]];

/// The 24 rotations of space applied to `cells`, each orientation translated so its
/// least cell (in the sweep order: z, then y, then x) is the origin, without repeats.
fn orientations(cells: &[Cell]) -> Vec<Vec<Cell>> {
    let mut all: Vec<Vec<Cell>> = Vec::new();
    // A rotation: a permutation of the axes with signs, of determinant +1.
    for perm in [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [0, 2, 1],
        [2, 1, 0],
        [1, 0, 2],
    ] {
        let even = perm == [0, 1, 2] || perm == [1, 2, 0] || perm == [2, 0, 1];
        for signs in 0..8 {
            let sign = |k: usize| if signs >> k & 1 == 1 { -1 } else { 1 };
            if (sign(0) * sign(1) * sign(2) == 1) != even {
                continue;
            }
            let mut turned: Vec<Cell> = cells
                .iter()
                .map(|c| [0, 1, 2].map(|k| sign(k) * c[perm[k]]))
                .collect();
            turned.sort_by_key(|c| (c[2], c[1], c[0]));
            let first = turned[0];
            for c in &mut turned {
                *c = [0, 1, 2].map(|k| c[k] - first[k]);
            }
            if !all.contains(&turned) {
                all.push(turned);
            }
        }
    }
    all
}

/// Tilings of the a×b×c box by copies of `piece` (any rotation), by a broken-profile
/// sweep: the cells in order (x fastest, then y, then z); the state is which of the
/// cells from the current one on are filled already (bit k: the cell k places ahead). At
/// an empty cell every orientation whose least cell is this one and that fits in the box
/// and in the empty cells is placed. A piece reaches at most a few slices ahead, so the
/// state fits a u64 for cross-sections up to 6x6 (dominoes) or 4x4 (trominoes).
fn profile_count(dims: [i32; 3], piece: &[Cell]) -> u128 {
    let [a, b, c] = dims;
    // The orientations that fit in the box (a flat box has no vertical domino).
    let shapes: Vec<Vec<Cell>> = orientations(piece)
        .into_iter()
        .filter(|shape| {
            (0..3).all(|k| {
                let (lo, hi) = (
                    shape.iter().map(|p| p[k]).min(),
                    shape.iter().map(|p| p[k]).max(),
                );
                hi.zip(lo).is_some_and(|(hi, lo)| hi - lo < dims[k])
            })
        })
        .collect();
    let offset = |p: &Cell| p[0] + a * (p[1] + b * p[2]);
    let reach = shapes.iter().flatten().map(&offset).max().unwrap_or(0);
    assert!(reach < 64, "the profile is wider than a u64");
    let mut ways: HashMap<u64, u128> = HashMap::from([(0, 1)]);
    for z in 0..c {
        for y in 0..b {
            for x in 0..a {
                let mut next: HashMap<u64, u128> = HashMap::new();
                for (&state, &n) in &ways {
                    if state & 1 == 1 {
                        *next.entry(state >> 1).or_default() += n;
                        continue;
                    }
                    'shape: for shape in &shapes {
                        let mut placed = state;
                        for p in shape {
                            let q = [x + p[0], y + p[1], z + p[2]];
                            if (0..3).any(|k| q[k] < 0 || q[k] >= dims[k]) {
                                continue 'shape;
                            }
                            let bit = 1u64 << offset(p);
                            if placed & bit != 0 {
                                continue 'shape;
                            }
                            placed |= bit;
                        }
                        *next.entry(placed >> 1).or_default() += n;
                    }
                }
                ways = next;
            }
        }
    }
    ways.get(&0).copied().unwrap_or(0)
}

/// Tilings by a plain search: fill the least empty cell with each orientation that fits.
/// Exponential; for checking the profile count on small boxes only.
fn brute_force(dims: [i32; 3], piece: &[Cell]) -> u64 {
    fn fill(filled: &mut Vec<bool>, dims: [i32; 3], shapes: &[Vec<Cell>]) -> u64 {
        let Some(at) = filled.iter().position(|&f| !f) else {
            return 1;
        };
        let [a, b, _] = dims;
        let here = [at as i32 % a, at as i32 / a % b, at as i32 / (a * b)];
        let mut total = 0;
        for shape in shapes {
            let cells: Option<Vec<usize>> = shape
                .iter()
                .map(|p| {
                    let q = [0, 1, 2].map(|k| here[k] + p[k]);
                    let inside = (0..3).all(|k| q[k] >= 0 && q[k] < dims[k]);
                    let i = (q[0] + a * (q[1] + b * q[2])) as usize;
                    (inside && !filled[i]).then_some(i)
                })
                .collect();
            if let Some(cells) = cells {
                cells.iter().for_each(|&i| filled[i] = true);
                total += fill(filled, dims, shapes);
                cells.iter().for_each(|&i| filled[i] = false);
            }
        }
        total
    }
    let cells = (dims[0] * dims[1] * dims[2]) as usize;
    fill(&mut vec![false; cells], dims, &orientations(piece))
}

#[test]
fn the_orientations_are_the_known_ones() {
    assert_eq!(orientations(DOMINO).len(), 3);
    assert_eq!(orientations(L_TROMINO).len(), 12);
}

#[test]
fn the_profile_count_counts_known_boxes() {
    // 2-D: the 8x8 board (Kasteleyn), and small ones.
    assert_eq!(profile_count([8, 8, 1], DOMINO), 12_988_816);
    assert_eq!(profile_count([4, 4, 1], DOMINO), 36);
    assert_eq!(profile_count([3, 3, 1], DOMINO), 0);
    // 3-D: the 2x2xN prisms.
    assert_eq!(profile_count([2, 2, 2], DOMINO), 9);
    assert_eq!(profile_count([2, 2, 3], DOMINO), 32);
    assert_eq!(profile_count([2, 2, 4], DOMINO), 121);
    // The sweep's axis does not matter.
    assert_eq!(
        profile_count([2, 3, 4], DOMINO),
        profile_count([4, 3, 2], DOMINO)
    );
    assert_eq!(
        profile_count([2, 3, 5], L_TROMINO),
        profile_count([5, 2, 3], L_TROMINO)
    );
    // L-trominoes tile a 2x3n rectangle in 2^n ways.
    assert_eq!(profile_count([2, 3, 1], L_TROMINO), 2);
    assert_eq!(profile_count([2, 9, 1], L_TROMINO), 8);
}

#[test]
fn the_profile_count_is_the_brute_force_count() {
    for dims in [[2, 2, 3], [2, 3, 3], [3, 3, 2], [2, 2, 5], [2, 4, 3]] {
        assert_eq!(
            profile_count(dims, DOMINO),
            u128::from(brute_force(dims, DOMINO)),
            "dominoes {dims:?}"
        );
    }
    for dims in [[2, 3, 2], [3, 3, 3], [2, 3, 4], [3, 2, 5]] {
        assert_eq!(
            profile_count(dims, L_TROMINO),
            u128::from(brute_force(dims, L_TROMINO)),
            "L-trominoes {dims:?}"
        );
    }
}

/// The puzzle file of the a×b×c box filled by copies of `piece`.
fn box_toml(dims: [i32; 3], piece: &[Cell]) -> String {
    let volume = dims[0] * dims[1] * dims[2];
    let cells: Vec<String> = piece
        .iter()
        .map(|c| format!("[{},{},{}]", c[0], c[1], c[2]))
        .collect();
    format!(
        "name = \"box\"\nbox = [{}, {}, {}]\n\n[[piece]]\nname = \"P\"\ncells = [{}]\n\
         count = {}\n",
        dims[0],
        dims[1],
        dims[2],
        cells.join(", "),
        volume / piece.len() as i32
    )
}

/// `polycover count` of the box with `args`, its `s mc` count and its output.
fn cli_count(dims: [i32; 3], piece: &[Cell], args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("box.toml");
    std::fs::write(&path, box_toml(dims, piece)).unwrap();
    let mut all = vec!["count", path.to_str().unwrap(), "--symmetry", "none"];
    all.extend_from_slice(args);
    let out = polycover(&all);
    let text = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{dims:?}: {}{text}",
        stderr(&out)
    );
    let count = text
        .lines()
        .find_map(|l| l.strip_prefix("s mc "))
        .unwrap_or_else(|| panic!("{dims:?}: {text}"))
        .to_string();
    (count, text)
}

/// The memo on one thread, against the profile count.
fn check_memo(dims: [i32; 3], piece: &[Cell]) {
    let (count, _) = cli_count(dims, piece, &["--solver", "memo", "--threads", "1"]);
    assert_eq!(count, profile_count(dims, piece).to_string(), "{dims:?}");
}

#[test]
fn the_memo_counts_small_boxes_as_the_profile_does() {
    for n in 1..=4 {
        check_memo([2, 2, n], DOMINO);
        check_memo([4, 4, n], DOMINO);
        check_memo([2, 3, n], L_TROMINO);
        check_memo([3, 3, n], L_TROMINO);
    }
    check_memo([2, 2, 6], DOMINO);
    check_memo([2, 3, 4], DOMINO);
    check_memo([3, 3, 4], DOMINO);
    // The bitset engine agrees on one box small enough for it.
    let (bits, _) = cli_count([2, 3, 4], DOMINO, &["--solver", "bits"]);
    assert_eq!(bits, profile_count([2, 3, 4], DOMINO).to_string());
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn the_memo_counts_four_by_four_prisms_of_dominoes() {
    for n in 5..=12 {
        check_memo([4, 4, n], DOMINO);
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn the_memo_counts_a_long_two_by_two_prism_of_dominoes() {
    check_memo([2, 2, 40], DOMINO);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn the_memo_counts_prisms_of_l_trominoes() {
    for n in 5..=12 {
        check_memo([2, 3, n], L_TROMINO);
        check_memo([3, 3, n], L_TROMINO);
    }
}

/// `count` with no `--solver` takes the frontier (the memo, layer by layer) on a 3-D box
/// of dominoes, and says why.
#[test]
fn the_default_counts_a_three_dimensional_box_with_the_frontier() {
    let (count, text) = cli_count([4, 4, 4], DOMINO, &[]);
    assert_eq!(count, profile_count([4, 4, 4], DOMINO).to_string());
    assert!(text.contains("c solver frontier: layer by layer"), "{text}");
}

/// The frontier is an engine of its own with one declared setting, its sweep (issue 63):
/// `count --help` lists its values from the declaration, each sweep counts the same
/// (checked against the profile count written here) with other states, `--sweep`
/// without the frontier is refused, and where no layers apply the frontier says that the
/// memo's search counts instead.
#[test]
fn the_frontier_takes_its_sweep_as_a_declared_setting() {
    let help = stdout(&polycover(&["count", "--help"]));
    let listed = help
        .split("--sweep")
        .nth(1)
        .expect("count --help lists --sweep");
    assert!(
        listed.contains("narrowest") && listed.contains("cuthill-mckee"),
        "{help}"
    );
    let want = profile_count([3, 3, 6], L_TROMINO).to_string();
    let mut states = Vec::new();
    for sweep in ["narrowest", "cuthill-mckee"] {
        let args = ["--solver", "frontier", "--sweep", sweep, "--threads", "1"];
        let (count, text) = cli_count([3, 3, 6], L_TROMINO, &args);
        assert_eq!(count, want, "{sweep}");
        assert!(text.contains(&format!("(sweep {sweep})")), "{text}");
        let line = text
            .lines()
            .find(|l| l.starts_with("c threads"))
            .expect("a statistics line");
        states.push(
            line.split("states ")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .to_string(),
        );
    }
    assert_ne!(states[0], states[1], "the two sweeps take other layers");
    let refused = polycover(&["count", "soma", "--sweep", "narrowest"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("--sweep applies to --solver frontier only"),
        "{}",
        stderr(&refused)
    );
    let soma = polycover(&["count", "soma", "--solver", "frontier"]);
    let text = stdout(&soma);
    assert!(text.contains("s mc 480"), "{text}");
    assert!(
        text.contains("c solver frontier with no layers here") && text.contains("memo's search"),
        "{text}"
    );
}

/// Up to rotations and to reflections, the memo's Burnside counts (whose quotients it
/// sweeps too) equal the bitset engine's canonical-form counts on 3-D boxes small enough
/// for it.
#[test]
fn burnside_counts_of_three_dimensional_boxes_are_the_native_counts() {
    let memo = polycover::Engine::from_name("memo").unwrap();
    for (dims, piece) in [
        ([2, 2, 4], DOMINO),
        ([2, 3, 4], DOMINO),
        ([3, 3, 2], L_TROMINO),
        ([2, 3, 4], L_TROMINO),
    ] {
        let text = box_toml(dims, piece);
        for mode in [
            polycover::SymmetryMode::Rotations,
            polycover::SymmetryMode::Reflections,
        ] {
            let c = compile_text(&text, mode);
            let bits = count(&c, polycover::Engine::bits(), 1);
            assert_eq!(count(&c, memo.clone(), 1), bits, "{dims:?} {mode:?}");
        }
    }
}

/// The 6x6x6 cube of dominoes: the sweep's widest frontier has 29 cells, so one step may
/// hold 2^29 keys of 24 bytes (12 GiB) in the memo's table, or one layer 2^29 states of
/// 25 bytes in the frontier's, past a 4 GiB budget. `count` (the default engine, the
/// frontier, and the memo named) refuses before any work, exit 2, with the estimate,
/// instead of filling the memory for minutes; a box whose widest step fits the same
/// small budget counts.
#[test]
fn the_six_cube_of_dominoes_is_refused_with_the_table_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cube.toml");
    std::fs::write(&path, box_toml([6, 6, 6], DOMINO)).unwrap();
    let path = path.to_str().unwrap();
    // The memo's table, and the frontier's layers (the default engine, and named).
    let table = "2^29 = 536870912 subproblems of 24 bytes";
    let layers = "2^29 = 536870912 states of 25 bytes";
    let runs: [(&[&str], &str); 3] = [
        (&["--solver", "memo"], table),
        (&["--solver", "frontier"], layers),
        (&[], layers),
    ];
    for (solver, size) in runs {
        let mut args = vec!["count", path, "--symmetry", "none", "--memory", "4G"];
        args.extend_from_slice(solver);
        let out = polycover(&args);
        let err = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{solver:?}: {err}{}",
            stdout(&out)
        );
        for part in [
            "--memory 4.0 GiB",
            "frontier has 29 cells",
            size,
            "about 12 GiB",
        ] {
            assert!(err.contains(part), "{solver:?}: {err}");
        }
    }
    let (count, _) = cli_count(
        [4, 4, 4],
        DOMINO,
        &["--solver", "memo", "--threads", "1", "--memory", "1M"],
    );
    assert_eq!(count, profile_count([4, 4, 4], DOMINO).to_string());
}

/// The 8x8x8 cube of dominoes: one layer of the frontier may hold 2^51 states, more than
/// any machine. The default engine does not pick an engine that every budget refuses (it
/// counts, here until its timeout), and the frontier named is refused for the machine,
/// naming what would run instead, not `--memory` as a way out.
#[test]
fn the_eight_cube_of_dominoes_is_counted_by_default_and_refused_by_the_frontier() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cube.toml");
    std::fs::write(&path, box_toml([8, 8, 8], DOMINO)).unwrap();
    let path = path.to_str().unwrap();
    let out = polycover(&["count", path, "--timeout", "1"]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("c stopped by the timeout") && !text.contains("--memory"),
        "{text}"
    );
    let out = polycover(&["count", path, "--solver", "frontier"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot fit in this machine's memory")
            && err.contains("No --memory lifts that")
            && err.contains("--solver bits"),
        "{err}"
    );
}
