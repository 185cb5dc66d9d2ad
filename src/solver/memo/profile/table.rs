//! The layers of the one-thread run: where a layer's states are kept, in one of two
//! tables behind one trait ([`States`]).
//!
//! # The small table
//!
//! A layer of a few thousand states is stepped in microseconds, so how its table is kept
//! is most of its cost. [`Small`] is an open-addressing table: one array of slots
//! `(state, count)`, a free slot's state being [`FREE`]; a state's first slot is the low
//! bits of its product with an odd constant, and a taken slot sends it on to the next
//! (linear probing). It is never more than half full, so a search ends within a few slots.
//!
//! The slot depends on the state's low bits only: those are the window's first cells, the
//! ones the next steps change. Stepped in slot order, states follow one another with alike
//! low bits, and so do the states they step into: each step writes near the last one.
//! Measured on the layers alone, L-trominoes 3x3x6 (23,662 states stepped) took 230 µs
//! so, against 426 µs in the standard library's map, and 742-815 µs with the state's
//! high bits mixed into the slot (Fibonacci hashing, or the fold of [`super::StateHasher`]),
//! which spread the steps over the table.
//!
//! # The large one
//!
//! Past [`SMALL_MOST`] states a layer moves to the standard library's map (hashbrown),
//! hashed by the engines' [`MaskHasher`] (the same low-bits product): with its
//! groups of sixteen slots and a tag byte from the hash's high bits, the states that
//! share their low bits (many, in a wide layer) are told apart without a walk, and it
//! holds up to seven eighths of its slots. On 4x6x6 dominoes (646,646 states at the
//! widest) the small table took 1.6 times as long, and twice the memory.
//!
//! Invariants: a table holds each state at most once, with a count that is not zero; a
//! drained table is empty and keeps its room; [`FREE`] is never a state (a layout's
//! states leave the top bit clear: [`super::layout`]).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::Number;
use crate::solver::mask::MaskHasher;

/// The states of one layer, and what each is reached by.
pub(super) trait States<N: Number>: Default {
    /// Adds `n` to `key`'s count; false on an overflow.
    fn add(&mut self, key: u64, n: &N) -> bool;
    /// Makes room for `states` states in all.
    fn reserve(&mut self, states: usize);
    fn len(&self) -> usize;
    /// The bytes its slots take (the numbers' own heap aside).
    fn bytes(&self) -> usize;
    /// The count of some state, if it holds any.
    fn any_count(&self) -> Option<&N>;
    /// Takes every state out, leaving the table empty with its room kept.
    fn drain(&mut self) -> impl Iterator<Item = (u64, N)> + '_;
}

/// The most states a layer holds in [`Small`] before it moves to [`Large`]: L-trominoes
/// 3x3x6 (925 at the widest) stay in it, and 4x4x12 dominoes (12,870), which took as
/// long in either, move.
pub(super) const SMALL_MOST: usize = 1 << 13;

/// A state no layout has: the free slot.
pub(super) const FREE: u64 = u64::MAX;

/// The odd constant of the slot's product (as the engines' [`MaskHasher`]).
const ODD: u64 = 0x9e37_79b9_7f4a_7c15;

/// The small table (module doc).
pub(super) struct Small<N> {
    slots: Vec<(u64, N)>,
    len: usize,
}

impl<N: Number> Default for Small<N> {
    /// Room for 64 states from the start: a 2-D board's layers hold a few dozen, and a
    /// larger table is scanned whole at every cell (8x8 dominoes took 45 µs with room for
    /// 512, 12 µs with 64).
    fn default() -> Small<N> {
        Small::with_slots(128)
    }
}

impl<N: Number> Small<N> {
    fn with_slots(slots: usize) -> Small<N> {
        debug_assert!(slots.is_power_of_two());
        Small {
            slots: vec![(FREE, N::zero()); slots],
            len: 0,
        }
    }

    /// Moves every state into a table of `slots` slots (at least twice its states, so
    /// that the moves themselves never resize).
    fn resize(&mut self, slots: usize) {
        let old = std::mem::replace(self, Small::with_slots(slots));
        for (key, n) in old.slots {
            if key != FREE {
                self.add(key, &n);
            }
        }
    }
}

impl<N: Number> States<N> for Small<N> {
    #[inline]
    fn add(&mut self, key: u64, n: &N) -> bool {
        debug_assert_ne!(key, FREE);
        if (self.len + 1) * 2 > self.slots.len() {
            self.resize(self.slots.len() * 2);
        }
        let mask = self.slots.len() - 1;
        let mut i = key.wrapping_mul(ODD) as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.0 == key {
                return slot.1.add(n);
            }
            if slot.0 == FREE {
                *slot = (key, n.clone());
                self.len += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn reserve(&mut self, states: usize) {
        if states * 2 > self.slots.len() {
            self.resize((states * 2).next_power_of_two());
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<(u64, N)>()
    }

    fn any_count(&self) -> Option<&N> {
        self.slots.iter().find(|s| s.0 != FREE).map(|s| &s.1)
    }

    fn drain(&mut self) -> impl Iterator<Item = (u64, N)> + '_ {
        self.len = 0;
        self.slots.iter_mut().filter(|s| s.0 != FREE).map(|s| {
            let key = std::mem::replace(&mut s.0, FREE);
            (key, std::mem::replace(&mut s.1, N::zero()))
        })
    }
}

/// The large table (module doc).
pub(super) type Large<N> = HashMap<u64, N, BuildHasherDefault<MaskHasher>>;

impl<N: Number> States<N> for Large<N> {
    #[inline]
    fn add(&mut self, key: u64, n: &N) -> bool {
        super::add(self, key, n)
    }

    fn reserve(&mut self, states: usize) {
        HashMap::reserve(self, states.saturating_sub(HashMap::len(self)));
    }

    fn len(&self) -> usize {
        HashMap::len(self)
    }

    fn bytes(&self) -> usize {
        super::map_bytes::<N>(self.capacity())
    }

    fn any_count(&self) -> Option<&N> {
        self.values().next()
    }

    fn drain(&mut self) -> impl Iterator<Item = (u64, N)> + '_ {
        HashMap::drain(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::memo::profile::Wide;

    /// Both tables hold the same states with the same counts, through growth, repeated
    /// adds and drains, where keys share their low bits (the small table's slot) and
    /// differ only above them.
    #[test]
    fn both_tables_keep_each_state_once_with_its_sum() {
        let mut small: Small<Wide> = Small::default();
        let mut large: Large<Wide> = Large::default();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for round in 0..3u64 {
            let mut want = std::collections::BTreeMap::new();
            for k in 0..20_000u64 {
                // xorshift: keys below 2^63, half of them alike in their low 12 bits.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let key = if k % 2 == 0 {
                    (state >> 1) & !0xfff | 0x5a5
                } else {
                    (state >> 1) % 5_000
                };
                let n = Wide::of(u128::from(k + round));
                assert!(small.add(key, &n) && large.add(key, &n));
                let sum = want.entry(key).or_insert(0u128);
                *sum += u128::from(k + round);
            }
            assert_eq!(States::len(&small), want.len());
            assert_eq!(States::len(&large), want.len());
            assert!(small.bytes() >= 2 * want.len() * std::mem::size_of::<(u64, Wide)>());
            let mut from_small: Vec<_> = small.drain().map(|(k, n)| (k, n.get())).collect();
            let mut from_large: Vec<_> = large.drain().map(|(k, n)| (k, n.get())).collect();
            from_small.sort_unstable();
            from_large.sort_unstable();
            let want: Vec<_> = want.into_iter().collect();
            assert_eq!(from_small, want, "round {round}");
            assert_eq!(from_large, want, "round {round}");
            assert_eq!((States::len(&small), small.any_count()), (0, None));
            assert_eq!(States::len(&large), 0);
        }
    }

    /// An add past a count's `u128` says so.
    #[test]
    fn an_overflowing_add_is_reported() {
        let mut small: Small<Wide> = Small::default();
        assert!(small.add(7, &Wide::of(u128::MAX)));
        assert!(!small.add(7, &Wide::of(1)));
    }
}
