//! The table the workers of a count share: [`Table`]s in independent shards, each
//! behind its own lock, chosen by the hash's top bits (a table takes the low ones for
//! its buckets), each with an equal share of the budget.
//!
//! # What moves between cores
//!
//! With 16 workers, a shard was almost always last touched by another core, so each
//! cache line a look-up writes or reads after another core wrote it crosses between
//! caches. A look-up therefore writes only its shard's lock and, on a miss, the bucket it
//! reads anyway:
//!
//! - The shards are many (4,096) and each alone on its lines, with the lock and the
//!   table fields every look-up reads on the first one ([`Table`] is `repr(C)` for it).
//!   With 64 shards packed side by side, 16 threads on the 16x16 dominoes spent 4x the
//!   CPU of one thread for the same nodes. Measured on the 16-core device (16 threads,
//!   medians of 9): 256 shards took 0.069 s, 1,024 0.041 s, 4,096 0.032 s, and 16,384
//!   0.034 s (with `--symmetry none`; 4x4x12: 0.467 s with 1,024, 0.378 s with 4,096).
//!   A shard starts at [`FIRST_BUCKETS`] buckets (2 KiB), so that 4,096 of them cost no
//!   more memory to start than 1,024 did at 64 buckets: on a box with several Burnside
//!   classes every class's table touches every shard.
//! - A claim ("Claims" in `search`) is a slot of the table with a mark in place of a
//!   count, in the bucket the look-up has just read; storing the count
//!   fills that slot. Claims used to be a list beside each table: two more lines to
//!   pass between cores per miss.
//! - Hits and misses are counted by each worker's [`View`], not in the shard.
//!
//! Invariants: a shard's table holds only exact counts and claims; a claim is never
//! read as a count; a lost claim (no room for it) costs at most a subproblem computed
//! twice, never a wrong count.

use std::sync::{Mutex, MutexGuard};

use super::table::{Count, Found, Memo, Probe, Table, TableStats};

/// Buckets of a shard's first allocation.
const FIRST_BUCKETS: usize = 16;

pub(crate) struct Sharded {
    shards: Vec<Shard>,
}

/// A shard's lock and table, alone on its cache lines (two lines: adjacent-line
/// prefetching pairs them).
#[repr(align(128))]
struct Shard(Mutex<Table>);

impl Sharded {
    /// A power of two: the shard is the hash's top bits.
    pub(crate) const SHARDS: usize = 4096;

    pub(crate) fn new(key_words: usize, budget: usize) -> Sharded {
        let share = budget / Sharded::SHARDS;
        Sharded {
            shards: (0..Sharded::SHARDS)
                .map(|_| {
                    Shard(Mutex::new(Table::with_first(
                        key_words,
                        share,
                        FIRST_BUCKETS,
                    )))
                })
                .collect(),
        }
    }

    fn shard(&self, hash: u64) -> MutexGuard<'_, Table> {
        let top = (hash >> (64 - Sharded::SHARDS.trailing_zeros())) as usize;
        self.shards[top].0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the shards saw, without the hits and misses (the [`View`]s count those).
    pub(crate) fn stats(&self) -> TableStats {
        let mut total = TableStats::default();
        for s in &self.shards {
            total.merge(&s.0.lock().unwrap_or_else(|e| e.into_inner()).stats());
        }
        total
    }

    /// A worker's handle on the table, counting its hits and misses.
    pub(crate) fn view(&self) -> View<'_> {
        View {
            table: self,
            hits: 0,
            misses: 0,
        }
    }
}

/// A worker's handle on a [`Sharded`] table: the [`Memo`] its search uses.
pub(crate) struct View<'a> {
    table: &'a Sharded,
    pub(crate) hits: u64,
    pub(crate) misses: u64,
}

impl Memo for View<'_> {
    fn get(&mut self, key: &[u64], hash: u64) -> Option<Count> {
        match self.table.shard(hash).probe(key, hash) {
            Probe::Count(c) => {
                self.hits += 1;
                Some(c)
            }
            _ => {
                self.misses += 1;
                None
            }
        }
    }

    fn claim(&mut self, key: &[u64], hash: u64) -> Found {
        let mut shard = self.table.shard(hash);
        match shard.probe(key, hash) {
            Probe::Count(c) => {
                self.hits += 1;
                Found::Count(c)
            }
            Probe::Busy => {
                self.misses += 1;
                Found::Busy
            }
            Probe::Absent => {
                self.misses += 1;
                shard.mark_busy(key, hash);
                Found::Claimed
            }
        }
    }

    fn insert(&mut self, key: &[u64], hash: u64, count: &Count, cost: u64) {
        // Into the claim's slot, whoever claimed it; or, past the budget, not at all:
        // whoever meets it next computes it again.
        self.table.shard(hash).store(key, hash, count, cost);
    }

    fn release(&mut self, key: &[u64], hash: u64) {
        self.table.shard(hash).clear_busy(key, hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::memo::table::hash;

    fn found(f: Found) -> &'static str {
        match f {
            Found::Count(_) => "count",
            Found::Busy => "busy",
            Found::Claimed => "claimed",
        }
    }

    /// A claim is a slot: busy to everyone else, never read as a count, filled by the
    /// count, and gone when released; a view counts its own hits and misses.
    #[test]
    fn a_claim_is_busy_until_its_count_is_stored_or_released() {
        let table = Sharded::new(2, 1 << 24);
        let (mut a, mut b) = (table.view(), table.view());
        let key = [3u64, 5];
        let h = hash(&key);
        assert_eq!(found(a.claim(&key, h)), "claimed");
        assert_eq!(found(b.claim(&key, h)), "busy");
        assert_eq!(b.get(&key, h), None, "a claim is not a count");
        a.insert(&key, h, &Count::Small(42), 10);
        assert_eq!(b.get(&key, h), Some(Count::Small(42)));
        assert!(matches!(b.claim(&key, h), Found::Count(Count::Small(42))));
        // Releasing a stored key changes nothing.
        a.release(&key, h);
        assert_eq!(a.get(&key, h), Some(Count::Small(42)));

        let other = [7u64, 9];
        let h = hash(&other);
        assert_eq!(found(a.claim(&other, h)), "claimed");
        a.release(&other, h);
        assert_eq!(
            found(b.claim(&other, h)),
            "claimed",
            "released, so free again"
        );
        assert_eq!((a.hits, a.misses), (1, 2));
        assert_eq!((b.hits, b.misses), (2, 3));
        assert_eq!(table.stats().hits, 0, "the shards count no look-ups");
        assert_eq!(table.stats().peak_entries, 2);
    }

    /// Eviction takes the cheapest entry but never a claim; with every slot of a key's
    /// buckets claimed, a new count or claim is simply not recorded; with no room at all,
    /// nothing is.
    #[test]
    fn claims_are_never_evicted_and_a_full_table_only_forgets() {
        // One shard's budget: room for one bucket of 4 slots (4 words each), no more.
        let slot = 8 * 4;
        let mut t = Table::new(2, 4 * slot);
        let keys: Vec<[u64; 2]> = (0..64).map(|k| [k, k * 7]).collect();
        let mut claimed = Vec::new();
        for k in &keys {
            let h = hash(k);
            if matches!(t.probe(k, h), Probe::Absent) {
                t.mark_busy(k, h);
                if matches!(t.probe(k, h), Probe::Busy) {
                    claimed.push(*k);
                }
            }
        }
        assert_eq!(claimed.len(), 4, "one bucket of claims");
        let late = keys.iter().find(|k| !claimed.contains(k)).unwrap();
        t.store(late, hash(late), &Count::Small(1), 1_000);
        assert!(
            matches!(t.probe(late, hash(late)), Probe::Absent),
            "no room: forgotten"
        );
        for k in &claimed {
            assert!(matches!(t.probe(k, hash(k)), Probe::Busy), "claims stay");
            t.store(k, hash(k), &Count::Small(k[0].into()), 1);
        }
        assert!(t.stats().evictions > 0);
        // Counts (not claims) are evicted for new claims and counts: the cheapest first.
        t.store(late, hash(late), &Count::Small(5), 1_000);
        assert!(matches!(
            t.probe(late, hash(late)),
            Probe::Count(Count::Small(5))
        ));
        assert!(t.bytes() <= 4 * slot);

        let mut none = Table::new(2, 0);
        none.mark_busy(&keys[0], hash(&keys[0]));
        none.store(&keys[0], hash(&keys[0]), &Count::ONE, 1);
        assert!(matches!(
            none.probe(&keys[0], hash(&keys[0])),
            Probe::Absent
        ));
    }
}
