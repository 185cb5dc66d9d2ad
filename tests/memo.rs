//! Counting without visiting each solution: the domino boxes of the catalog, whose counts
//! reach 10^30, against a transfer-matrix count written here, independent of the
//! exact-cover matrix and of every engine.

use polycover::Puzzle;

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
            .expect()
            .get(polycover::SymmetryMode::None)
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
