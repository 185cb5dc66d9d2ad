//! The frontier key: under a sweep, the key of a subproblem is the first uncovered cell,
//! the few cells after it that may be covered, and the pieces' counters, instead of one
//! bit for every cell.
//!
//! # Why the frontier determines the subproblem
//!
//! The full key (`search`) is one bit per unit item (set while it is uncovered) and a
//! field per other item. Under [`Branching::Sweep`](super::order::Branching) the unit
//! items are numbered first, in the sweep's order, so they are the key's first bits, and
//! the search branches on the first uncovered one, `h`. Let the *reach* `R` be the most,
//! over the options, of an option's last unit item less its first
//! ([`super::order::reach`]). Then at every node of a count:
//!
//! 1. every unit item before `h` is covered, and `h` is not (what `h` is);
//! 2. every unit item from `h + R` on is uncovered. An option is taken while branching
//!    on the first uncovered unit item `h'` that it covers; it covers no unit item before
//!    `h'` (those are covered, and a live option covers no covered item), so its unit
//!    items lie in `h'..=h' + R`. Going down, `h` only grows (covering never uncovers),
//!    and `h' < h` for every option taken, so each covered unit item is below
//!    `h' + R + 1 <= h + R`.
//!
//! So the full key is a function of `h`, the `R - 1` bits of the unit items
//! `h + 1 .. h + R` and the other items' fields: the unit bits before `h` are 0, the bit
//! of `h` is 1, the bits from `h + R` on are 1. That tuple is the frontier key (packed
//! densely: `h`, then the window, then the other fields as the full key holds them). It is
//! also a function of the full key (`h` is its first set unit bit), so two nodes share a
//! frontier key exactly when they share the full key: the same subproblem
//! ([`Frontier::decode`] rebuilds the full key, and the search's sanity check compares).
//! With no unit item uncovered, `h` is written as 0 and the window as zeros: the unit
//! bits are then all 0.
//!
//! Point 2 holds for the options the search takes itself. Options pushed from outside
//! (a split's prefix) hold it only when they came from the same sweep; the search checks
//! the prefix of every count ([`Frontier::holds`]), and `count_each`, whose prefixes may
//! come from the native engines' split, keys on every item when one of them does not
//! ([`super::input::Input::for_prefixes`]).
//!
//! # When
//!
//! Only when the frontier key has fewer words than the full key: on a box the reach is
//! about a cross-section, so a 16x16 box of dominoes keys in one word instead of five,
//! and a 4x4x12 box in one instead of four. Burnside's quotients, whose options join
//! far-apart cells, reach across the whole box and keep the full key.
//!
//! Invariant: [`Frontier::build`] is one to one on the subproblems that satisfy 1 and 2,
//! and [`Frontier::decode`] is its inverse.

/// The layout of the frontier key of one input.
#[derive(Clone)]
pub(super) struct Frontier {
    /// Unit items, the full key's first bits.
    units: u32,
    /// The reach `R` (module docs): the window is the `R - 1` unit items after `h`.
    reach: u32,
    /// Bits of `h` (a header, 1 to `units`, or 0 for none).
    h_bits: u32,
    /// The other items' fields end at this bit of the full key (they begin at `units`).
    tail_end: u32,
    /// Words of the full key.
    full_words: usize,
    /// The current frontier key, built by [`Frontier::build`].
    out: Vec<u64>,
}

impl Frontier {
    /// The layout for a full key of `full_words` words whose first `units` bits are the
    /// unit items and whose other fields end at bit `tail_end`; `None` when it would not
    /// be shorter than the full key.
    pub(super) fn new(units: u32, reach: u32, tail_end: u32, full_words: usize) -> Option<Self> {
        let h_bits = 32 - units.leading_zeros();
        let bits = h_bits + reach.saturating_sub(1) + (tail_end - units);
        let words = bits.div_ceil(64).max(1) as usize;
        (words < full_words).then(|| Frontier {
            units,
            reach,
            h_bits,
            tail_end,
            full_words,
            out: vec![0; words],
        })
    }

    /// Words of the frontier key.
    pub(super) fn words(&self) -> usize {
        self.out.len()
    }

    /// Point 2 of the module docs, for a node whose first uncovered unit item is header
    /// `h` (0: none) and whose highest covered unit item is header `top` (0: none).
    pub(super) fn holds(&self, h: u32, top: u32) -> bool {
        h == 0 || top < h + self.reach
    }

    /// The frontier key of the node whose full key is `full` and whose first uncovered
    /// unit item is header `h` (0: none).
    #[inline]
    pub(super) fn build(&mut self, full: &[u64], h: u32) -> &[u64] {
        self.out.fill(0);
        let mut at = 0;
        put(&mut self.out, &mut at, u64::from(h), self.h_bits);
        // Header h is unit item h - 1: the window is unit items h to h + R - 2.
        let window = self.reach.saturating_sub(1);
        if h == 0 {
            at += window;
        } else {
            let end = (h + window).min(self.units);
            copy(&mut self.out, &mut at, full, h, end);
            at += h + window - end.max(h);
        }
        copy(&mut self.out, &mut at, full, self.units, self.tail_end);
        &self.out
    }

    /// The full key a frontier key stands for (the inverse of [`Frontier::build`] on the
    /// nodes where [`Frontier::holds`]): for the checks.
    pub(super) fn decode(&self, key: &[u64]) -> Vec<u64> {
        let mut full = vec![0u64; self.full_words];
        let h = bits(key, 0, self.h_bits) as u32;
        let window = self.reach.saturating_sub(1);
        if h != 0 {
            for u in h - 1..self.units {
                let set = if u == h - 1 {
                    true
                } else if u < h + window {
                    bits(key, self.h_bits + (u - h), 1) == 1
                } else {
                    true
                };
                full[(u / 64) as usize] |= u64::from(set) << (u % 64);
            }
        }
        let mut at = self.units;
        copy(&mut full, &mut at, key, self.h_bits + window, {
            self.h_bits + window + (self.tail_end - self.units)
        });
        full
    }
}

/// Bits `from..from + n` of `words` (`n` at most 64), zeros past the end.
#[inline]
fn bits(words: &[u64], from: u32, n: u32) -> u64 {
    let (i, s) = ((from / 64) as usize, from % 64);
    let Some(&low) = words.get(i) else {
        return 0;
    };
    let mut v = low >> s;
    if s > 0 && n > 64 - s {
        if let Some(&high) = words.get(i + 1) {
            v |= high << (64 - s);
        }
    }
    if n < 64 {
        v & ((1u64 << n) - 1)
    } else {
        v
    }
}

/// Writes the low `n` bits of `v` (the others 0) at bit `*at` of `out`, and moves on.
#[inline]
fn put(out: &mut [u64], at: &mut u32, v: u64, n: u32) {
    if n == 0 {
        return;
    }
    let (i, s) = ((*at / 64) as usize, *at % 64);
    out[i] |= v << s;
    if s > 0 && n > 64 - s {
        out[i + 1] |= v >> (64 - s);
    }
    *at += n;
}

/// Copies bits `from..to` of `words` to bit `*at` of `out`, and moves on.
#[inline]
fn copy(out: &mut [u64], at: &mut u32, words: &[u64], from: u32, to: u32) {
    let mut from = from;
    while from < to {
        let n = (to - from).min(64);
        put(out, at, bits(words, from, n), n);
        from += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{Item, Matrix};
    use crate::solver::backtrack::Branch;
    use crate::solver::memo::input::Input;
    use crate::solver::memo::order::Branching;
    use crate::solver::memo::search::Search;
    use crate::solver::memo::{count_each, count_on, Settings};
    use num_bigint::BigUint;

    /// A full key of `units` unit bits and a tail, built from the covered cells.
    fn full(units: u32, uncovered: &[bool], tail: &[(u32, u64)], words: usize) -> Vec<u64> {
        let mut key = vec![0u64; words];
        for (u, &free) in uncovered.iter().enumerate() {
            key[u / 64] |= u64::from(free) << (u % 64);
        }
        for &(at, v) in tail {
            key[(at / 64) as usize] |= v << (at % 64);
        }
        assert_eq!(uncovered.len() as u32, units);
        key
    }

    #[test]
    fn the_frontier_key_round_trips_and_tells_nodes_apart() {
        // 150 cells (three words of unit bits), a reach of 20, a tail of two fields.
        let (units, reach) = (150u32, 20u32);
        let tail_end = 150 + 8 + 5;
        let mut f = Frontier::new(units, reach, tail_end, 3).expect("shorter");
        assert_eq!(f.words(), 1);
        let mut seen = std::collections::HashMap::new();
        for h in (1..=units).step_by(7).chain([0, units]) {
            for pattern in 0..64u64 {
                let mut free = vec![true; units as usize];
                let first = if h == 0 { units } else { h - 1 };
                free[..first as usize].iter_mut().for_each(|c| *c = false);
                for k in 0..reach - 1 {
                    let u = h + k;
                    if h != 0 && u < units && (pattern.rotate_left(k * 5) >> k) & 1 == 0 {
                        free[u as usize] = false;
                    }
                }
                let tail = [(150, pattern % 200), (158, pattern % 31)];
                let key = full(units, &free, &tail, 3);
                assert!(f.holds(h, 0));
                let fk = f.build(&key, h).to_vec();
                assert_eq!(f.decode(&fk), key, "h {h}, pattern {pattern}");
                if let Some(other) = seen.insert(fk, key.clone()) {
                    assert_eq!(other, key, "one frontier key, two subproblems");
                }
            }
        }
    }

    #[test]
    fn a_frontier_key_no_shorter_is_not_used_and_a_prefix_past_the_reach_fails() {
        // 40 cells in one word: nothing to gain.
        assert!(Frontier::new(40, 10, 48, 1).is_none());
        let f = Frontier::new(200, 30, 208, 4).unwrap();
        assert!(f.holds(10, 39) && !f.holds(10, 40) && f.holds(0, 200));
    }

    fn never() -> bool {
        false
    }

    /// A strip of 3 rows by 22 to 26 cells (more than one word of cells), its cells
    /// numbered at random, tiled by monominoes and dominoes with count ranges, straight
    /// trominoes with copies, and a few far-reaching "links" (two cells up to three
    /// columns apart); a tenth of the placements left out, so the region is ragged.
    fn strip(seed: u64) -> Matrix {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(n)) as u32
        };
        let rows = 3;
        let width = 22 + next(5);
        let cells = rows * width;
        let mut place: Vec<u32> = (0..cells).collect();
        for k in (1..place.len()).rev() {
            place.swap(k, next(k as u32 + 1) as usize);
        }
        let mut items: Vec<Item> = (0..cells)
            .map(|c| Item::exact(format!("c{c}"), 1))
            .collect();
        let pieces = cells;
        items.push(Item::range("monomino", next(3), cells));
        items.push(Item::range("domino", next(4), cells / 2));
        items.push(Item::exact("tromino", 2 + next(2)));
        items.push(Item::range("link", 0, 1 + next(2)));
        let mut m = Matrix::new(items);
        let cell = |r: u32, c: u32| place[(r * width + c) as usize];
        for r in 0..rows {
            for c in 0..width {
                let mut shapes: Vec<(Vec<(u32, u32)>, u32)> = vec![
                    (vec![(0, 0)], 0),
                    (vec![(0, 0), (0, 1)], 1),
                    (vec![(0, 0), (1, 0)], 1),
                    (vec![(0, 0), (0, 1), (0, 2)], 2),
                ];
                if next(8) == 0 {
                    shapes.push((vec![(0, 0), (rows - 1 - r, 2 + next(2))], 3));
                }
                for (shape, piece) in shapes {
                    let fits = shape
                        .iter()
                        .all(|&(dr, dc)| r + dr < rows && c + dc < width);
                    if fits && next(10) > 0 {
                        let mut option: Vec<u32> =
                            shape.iter().map(|&(dr, dc)| cell(r + dr, c + dc)).collect();
                        option.push(pieces + piece);
                        m.push_option(&option);
                    }
                }
            }
        }
        m
    }

    fn settings(memory: usize) -> Settings<'static> {
        Settings {
            threads: 2,
            memory,
            shared: true,
            stop: &never,
            layers: None,
        }
    }

    /// Every node of the first `depth` levels: sane links, key and frontier key.
    fn walk(search: &mut Search<'_>, depth: usize) {
        assert_eq!(search.sanity(), Ok(()));
        if depth == 0 {
            return;
        }
        if let Branch::On(options) = search.options() {
            for o in options.into_iter().take(3) {
                search.push(o);
                walk(search, depth - 1);
                search.pop(o);
            }
        }
    }

    /// On strips wider than a word, the sweep keys on the frontier; its counts (one
    /// thread and two, a table big enough and one that evicts) are those of the key of
    /// every item, and every node's frontier key decodes to its full key.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
    fn frontier_keys_count_as_the_full_keys() {
        for seed in 0..12 {
            let m = strip(seed);
            let input = Input::from(&m);
            assert_eq!(input.branching, Branching::Sweep, "seed {seed}");
            let mut full = input.clone();
            full.frontier = None;
            let mut search = Search::new(&input, &never);
            assert!(search.keys_on_frontier(), "seed {seed}");
            assert!(search.key_words() < Search::new(&full, &never).key_words());
            walk(&mut search, 6);
            let expected = count_on(&full, &settings(1 << 26), 1).0.count;
            assert!(expected.is_ok(), "seed {seed}");
            for (workers, memory) in [(1, 1 << 26), (2, 1 << 26), (1, 1 << 20)] {
                let got = count_on(&input, &settings(memory), workers).0.count;
                assert_eq!(
                    got, expected,
                    "seed {seed}, {workers} workers, {memory} bytes"
                );
            }
        }
    }

    /// Prefixes from a split by the fewest options cover cells far past the sweep's first
    /// uncovered one: `count_each` then keys on every item, and counts right; the sweep's
    /// own prefixes keep the frontier key.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
    fn prefixes_from_another_split_fall_back_to_the_full_key() {
        let mut fell_back = 0;
        for seed in 0..8 {
            let m = strip(seed);
            let input = Input::from(&m);
            let whole = count_on(&input, &settings(1 << 26), 1).0.count.unwrap();
            for branching in [Branching::Fewest, Branching::Sweep] {
                let mut by = input.clone();
                by.branching = branching;
                by.frontier = None;
                let mut search = Search::new(&by, &never);
                let mut jobs = Vec::new();
                if let Branch::On(first) = search.options() {
                    for o in first {
                        search.push(o);
                        match search.options() {
                            Branch::On(second) => jobs.extend(second.iter().map(|&p| vec![o, p])),
                            Branch::Solution => jobs.push(vec![o]),
                            Branch::Dead => {}
                        }
                        search.pop(o);
                    }
                }
                let keeps = input.clone().for_prefixes(&jobs).frontier.is_some();
                if branching == Branching::Sweep {
                    assert!(keeps, "seed {seed}: the sweep's own prefixes");
                } else {
                    fell_back += usize::from(!keeps);
                }
                let parts = std::sync::Mutex::new(BigUint::ZERO);
                let add = |_: usize, n: BigUint| *parts.lock().unwrap() += n;
                let counted = count_each(&m, &jobs, &settings(1 << 26), &add);
                assert_eq!(
                    counted.count.as_ref(),
                    Ok(&whole),
                    "seed {seed} {branching:?}"
                );
                assert_eq!(parts.into_inner().unwrap(), whole);
            }
        }
        assert!(fell_back > 2, "{fell_back}");
    }
}
