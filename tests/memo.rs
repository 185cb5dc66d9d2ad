//! Counting without visiting each solution: the domino boxes of the catalog, whose counts
//! reach 10^30, against a transfer-matrix count written here, independent of the
//! exact-cover matrix and of every engine.

use polycover::{Engine, Puzzle, SymmetryMode};

use crate::common::*;

/// Domino tilings of a `w` x `h` rectangle, by a transfer matrix over the cells in row
/// order: the state is which of the next `w` cells are already covered (by a vertical
/// domino from the row above, or a horizontal one from the left). In u128: 16x16 has
/// 2.4 * 10^30 tilings, below 2^128.
fn domino_tilings(w: usize, h: usize) -> u128 {
    let mut ways = std::collections::HashMap::from([(0u32, 1u128)]);
    for row in 0..h {
        for col in 0..w {
            let mut next = std::collections::HashMap::new();
            for (&state, &n) in &ways {
                let mut add = |s: u32| *next.entry(s).or_insert(0) += n;
                let rest = state >> 1;
                if state & 1 == 1 {
                    // This cell is covered already.
                    add(rest);
                    continue;
                }
                if row + 1 < h {
                    // A vertical domino covers this cell and the one below.
                    add(rest | 1 << (w - 1));
                }
                if col + 1 < w && rest & 1 == 0 {
                    // A horizontal domino covers this cell and the next.
                    add(rest | 1);
                }
            }
            ways = next;
        }
    }
    ways.get(&0).copied().unwrap_or(0)
}

#[test]
fn the_transfer_matrix_counts_known_boards() {
    assert_eq!(domino_tilings(2, 2), 2);
    assert_eq!(domino_tilings(4, 4), 36);
    assert_eq!(domino_tilings(3, 4), 11);
    assert_eq!(domino_tilings(3, 3), 0);
    assert_eq!(domino_tilings(8, 8), 12_988_816);
}

/// Each catalog domino box's `[expect] none` is the transfer-matrix count, and the 16x16
/// count is past 2^100.
#[test]
fn catalog_domino_counts_are_the_transfer_matrix_counts() {
    for (w, h) in [(8, 8), (8, 10), (12, 12), (16, 16)] {
        let puzzle = Puzzle::load(format!("dominoes-{w}x{h}")).unwrap();
        let want = puzzle
            .expected(polycover::SymmetryMode::None)
            .expect("[expect] none")
            .clone();
        assert_eq!(
            want,
            polycover::Count::from(domino_tilings(w, h)),
            "{w}x{h}"
        );
    }
    assert!(domino_tilings(16, 16) > 1 << 100);
}

/// The whole command on the 16x16 box prints the exact count, past 2^100, which is the
/// transfer matrix's.
#[test]
fn sixteen_by_sixteen_prints_its_exact_count() {
    let out = polycover(&["count", "dominoes-16x16", "--symmetry", "none"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("c solver frontier:"), "{text}");
    assert!(
        text.ends_with(&format!("s mc {}\n", domino_tilings(16, 16))),
        "{text}"
    );
}

/// `count` without `--solver` picks the memo for the domino boxes (copies make the whole
/// solution, and the search is large), and the bitset engine for a few copies among
/// distinct pieces, for a small search and for distinct pieces; the `c solver` line says
/// why. The counts are right (the random cut has over a million solutions: its run is
/// stopped after a second, and only its choice is checked).
#[test]
fn the_default_engine_follows_copies_and_the_search_size() {
    let fixtures = format!(
        "{}/tests/fixtures",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    for (puzzle, engine, why, count) in [
        (
            "dominoes-8x8".to_string(),
            "frontier",
            "a sweep whose layers the frontier counts",
            Some("1629189"),
        ),
        (
            format!("{fixtures}/two-l-6x10.toml"),
            "bits",
            "pieces with copies make only 17% of a solution",
            Some("21443"),
        ),
        (
            format!("{fixtures}/random-13-seed-3.toml"),
            "bits",
            "pieces with copies make only 19% of a solution",
            None,
        ),
        (
            format!("{fixtures}/dominoes-4x6.toml"),
            "bits",
            "the search is small",
            Some("98"),
        ),
        (
            "soma".to_string(),
            "bits",
            "no piece has copies",
            Some("480"),
        ),
        // Optional cells and a count range leave the listing to the DLX, which visits
        // each of 663,400 solutions (issue 62, 9: ten times the memo's time).
        (
            format!("{fixtures}/optional-2x3x4.toml"),
            "memo",
            "the search is large",
            Some("663400"),
        ),
    ] {
        // Only the run with millions of solutions is cut short: the others finish (a
        // timeout on them would fail under a loaded machine).
        let out = match count {
            Some(_) => polycover(&["count", &puzzle]),
            None => polycover(&["count", &puzzle, "--timeout", "1"]),
        };
        let text = stdout(&out);
        let solver = text
            .lines()
            .find(|l| l.starts_with("c solver "))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            solver.starts_with(&format!("c solver {engine}:")),
            "{solver}"
        );
        assert!(solver.contains(why), "{solver}");
        match count {
            Some(count) => {
                assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
                assert!(text.ends_with(&format!("s mc {count}\n")), "{text}");
            }
            None => assert_eq!(out.status.code(), Some(1), "stopped: {text}"),
        }
    }
}

/// Counts up to symmetry by Burnside's lemma equal the native engines' canonical-form
/// counts, in every mode, on the small catalog puzzles, the coloured cubes and puzzles
/// with copies and count ranges. (Random puzzles with copies, ranges, optional cells and
/// colours: `ranges::random_puzzles_...` and `properties::random_puzzles_count_alike`
/// run the memo too.)
#[test]
fn burnside_counts_equal_the_native_counts_in_every_mode() {
    let fixtures = format!(
        "{}/tests/fixtures",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let mut puzzles: Vec<String> = [
        "soma",
        "slothouber-graatsma",
        "pentomino-3x20",
        "pentomino-8x8-hole",
        "hesselink-5",
    ]
    .map(String::from)
    .to_vec();
    puzzles.push(format!("{fixtures}/ranges/optional-corner.toml"));
    puzzles.push(format!("{fixtures}/ranges/coloured-bars.toml"));
    puzzles.push(format!("{fixtures}/five-t.toml"));
    puzzles.push(format!("{fixtures}/chiral-pairs.toml"));
    // Copies with a pinned piece whose placements have symmetries of their own.
    puzzles.push(format!("{fixtures}/o-and-dominoes-4x6.toml"));
    puzzles.push(format!("{fixtures}/dominoes-4x6.toml"));
    let memo = Engine::from_name("memo").unwrap();
    for name in &puzzles {
        let puzzle = Puzzle::load(name).unwrap();
        for &mode in puzzle.symmetry_modes() {
            let Ok(c) = puzzle.compile(mode) else {
                continue; // reflections of a chiral set
            };
            let dlx = count(&c, Engine::dlx(), 1);
            assert_eq!(count(&c, memo.clone(), 2), dlx, "{name} {mode:?}");
        }
    }
}

/// The 8x8 box of dominoes up to its 8 rotations (and 16 isometries): Burnside's sum of
/// fixed tilings against the bitset engine, which lists all 12,988,816 tilings and keeps
/// the canonical one of each orbit.
#[test]
fn eight_by_eight_up_to_symmetry_two_ways() {
    let memo = Engine::from_name("memo").unwrap();
    let puzzle = Puzzle::load("dominoes-8x8").unwrap();
    let c = puzzle.compile(SymmetryMode::Rotations).unwrap();
    let burnside = count(&c, memo.clone(), 2);
    assert_eq!(burnside, count(&c, Engine::bits(), 2));
    assert_eq!(burnside, 1_629_189);
    let c = puzzle.compile(SymmetryMode::Reflections).unwrap();
    assert_eq!(count(&c, memo, 2), burnside);
}

/// A memory cap far below what the table wants: the count is still right, entries are
/// evicted, and the table stays under the cap.
#[test]
fn a_small_memory_cap_evicts_and_counts_right() {
    let out = polycover(&[
        "count",
        "dominoes-12x12",
        "--symmetry",
        "none",
        "--solver",
        "memo",
        "--memory",
        "1M",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.ends_with("s mc 53060477521960000\n"), "{text}");
    let stats = text.lines().find(|l| l.starts_with("c threads")).unwrap();
    let field = |name: &str| -> f64 {
        let at = stats.find(name).unwrap() + name.len();
        stats[at..]
            .split(|c: char| !c.is_ascii_digit() && c != '.')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(field("evictions ") > 0.0, "{stats}");
    let table: f64 = stats[..stats.find(" MiB, evictions").unwrap()]
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(table <= 1.0, "{stats}");
}

/// `--memory` takes sizes with units and refuses nonsense before any work.
#[test]
fn memory_sizes_are_checked() {
    for bad in ["0", "1K", "lots", "-4G", "4Q"] {
        let out = polycover(&["count", "soma", &format!("--memory={bad}")]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("memory size"),
            "{bad}: {}",
            stderr(&out)
        );
    }
}

/// The `c threads` line says the workers the memo ran on: one for a sweep that counts in
/// milliseconds (8x8), one per core up to those asked for a large one (16x16).
#[test]
fn the_threads_line_says_the_workers_the_memo_ran_on() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (puzzle, ran) in [("dominoes-8x8", 1), ("dominoes-16x16", cores.min(2))] {
        let out = polycover(&["count", puzzle, "--solver", "memo", "--threads", "2"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let line = if ran == 2 {
            "c threads 2,".to_string()
        } else {
            format!("c threads {ran} (of 2 asked),")
        };
        assert!(stdout(&out).contains(&line), "{line}: {}", stdout(&out));
    }
}
