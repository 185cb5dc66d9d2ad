//! The memo table: subproblem keys to their counts, inside a byte budget.
//!
//! # The data structure
//!
//! A set-associative hash table in one flat `Vec<u64>`. A key is a fixed number of words
//! for a given matrix (see the `search` module), so every slot has the same stride:
//!
//! ```text
//! slot = [ meta | value (VALUE_WORDS words) | key (key_words words) ]
//! ```
//!
//! - `meta` is 0 for an empty slot, else 1 + the number of search nodes the entry cost
//!   to compute (saturating): what evicting it would cost to recompute.
//! - `value` holds the count inline when it is below 2^(64·VALUE_WORDS − 1); else the top
//!   bit of its last word is set and its first word indexes `big`, an arena of
//!   [`BigUint`]s with a free list. Only subproblems near the root of a huge count
//!   (16x16 dominoes and beyond) ever go there.
//! - Slots are grouped in buckets of [`WAYS`]. A key may live in either of two buckets
//!   (one from the hash's low bits, one from a second mix of it) and goes to the emptier:
//!   with two choices a table fills to most of its slots before a bucket pair is full,
//!   where one choice overflows a bucket at a few percent load. A lookup reads at most
//!   two buckets, never a chain.
//!
//! # The budget
//!
//! The table starts small and doubles when a key finds both its buckets full, as long as
//! the old and the new slot arrays together (both live while rehashing) and the arena fit
//! in the budget. (Rehashing drops an entry whose two new buckets are full, at half load
//! so rare it was never seen; a dropped entry is only computed again.) Once the table
//! cannot double, a new key replaces the entry of its two buckets that was cheapest to
//! compute. A count too big to store inline is not stored when the arena would pass the
//! budget. So the table never passes its budget, and it only forgets: a forgotten count
//! is computed again, never guessed.
//!
//! Invariants: `bytes() <= budget` at all times (peak included); an entry's value is
//! the exact count of its key's subproblem.

use std::sync::Mutex;

use num_bigint::BigUint;

/// Words of a slot's value. One word (counts below 2^63 inline) measured best: see the
/// `memo` module docs.
const VALUE_WORDS: usize = 1;
/// Slots per bucket.
const WAYS: usize = 4;
/// Buckets of a table's first allocation (when the budget allows).
const FIRST_BUCKETS: usize = 1 << 6;
/// The tag bit of a value's last word: the count is in the arena.
const IN_ARENA: u64 = 1 << 63;

/// An exact count: a `u128` until it overflows, then a big integer. Never wraps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Count {
    Small(u128),
    Big(BigUint),
}

impl Count {
    pub(crate) const ZERO: Count = Count::Small(0);
    pub(crate) const ONE: Count = Count::Small(1);

    pub(crate) fn add(&mut self, other: &Count) {
        match (&mut *self, other) {
            (Count::Small(a), Count::Small(b)) => match a.checked_add(*b) {
                Some(s) => *a = s,
                None => *self = Count::Big(BigUint::from(*a) + *b),
            },
            (Count::Big(a), Count::Small(b)) => *a += *b,
            (Count::Big(a), Count::Big(b)) => *a += b,
            (Count::Small(a), Count::Big(b)) => *self = Count::Big(b + *a),
        }
    }

    /// `self · k`, exactly.
    pub(crate) fn times(&self, k: u64) -> Count {
        match self {
            Count::Small(a) => match a.checked_mul(k as u128) {
                Some(p) => Count::Small(p),
                None => Count::Big(BigUint::from(*a) * k),
            },
            Count::Big(a) => Count::Big(a * k),
        }
    }

    pub(crate) fn into_big(self) -> BigUint {
        match self {
            Count::Small(a) => BigUint::from(a),
            Count::Big(a) => a,
        }
    }
}

/// Zero: what the scheduler's pool starts a root's tally at.
impl Default for Count {
    fn default() -> Count {
        Count::ZERO
    }
}

/// The scheduler's pool sums a root's pieces with this.
impl std::ops::AddAssign<&Count> for Count {
    fn add_assign(&mut self, other: &Count) {
        self.add(other);
    }
}

/// Bytes of a table slot for keys of `key_words` words (a table holds at least one slot
/// per entry).
pub(crate) fn slot_bytes(key_words: usize) -> usize {
    8 * (1 + VALUE_WORDS + key_words)
}

/// The mixing of a key into a well-spread 64-bit hash (a multiply-xorshift per word, then
/// the splitmix64 finalizer): bucket and shard indices both come from it.
pub(crate) fn hash(key: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &w in key {
        h = (h ^ w).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 29;
    }
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// What a table saw. Peaks are of the table alone (slots and arena).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    pub hits: u64,
    pub misses: u64,
    /// Entries replaced (or counts not stored) for want of room.
    pub evictions: u64,
    pub peak_entries: u64,
    /// The most the table held (slots and arena): the memory it took. Slot arrays never
    /// shrink, so the sum over a shared table's shards is what they held together, within
    /// the process's peak memory (the `table` figure of the statistics).
    pub peak_bytes: u64,
    /// The most the table held, counting the moment of a rehash, when the old and the new
    /// slots are both live: what the budget bounds. Summed over shards it overstates what
    /// was ever live at once, so it is not a figure to report.
    pub peak_rehash_bytes: u64,
}

impl TableStats {
    pub(crate) fn merge(&mut self, other: &TableStats) {
        self.hits += other.hits;
        self.misses += other.misses;
        self.evictions += other.evictions;
        self.peak_entries += other.peak_entries;
        self.peak_bytes += other.peak_bytes;
        self.peak_rehash_bytes += other.peak_rehash_bytes;
    }
}

/// What a search finds when it starts on a subproblem.
pub(crate) enum Found {
    /// Its count, stored.
    Count(Count),
    /// Nothing: the caller computes it, and either stores it ([`Memo::insert`]) or gives
    /// the claim back ([`Memo::release`]).
    Claimed,
    /// Another worker has claimed it and is computing it now.
    Busy,
}

/// Where the search reads and stores counts: one thread's own [`Table`], or its handle
/// on a [`Sharded`] table shared by all threads.
pub(crate) trait Memo {
    fn get(&mut self, key: &[u64], hash: u64) -> Option<Count>;
    /// The stored count of `key`'s subproblem, or a claim on computing it. A table of
    /// one thread is never busy.
    fn claim(&mut self, key: &[u64], hash: u64) -> Found {
        match self.get(key, hash) {
            Some(c) => Found::Count(c),
            None => Found::Claimed,
        }
    }
    /// Stores the count of `key`'s subproblem, which took `cost` nodes to compute; its
    /// claim, if any, ends.
    fn insert(&mut self, key: &[u64], hash: u64, count: &Count, cost: u64);
    /// Ends the caller's claim on `key` without a count (it was cut short or partial).
    fn release(&mut self, _key: &[u64], _hash: u64) {}
}

pub(crate) struct Table {
    key_words: usize,
    stride: usize,
    slots: Vec<u64>,
    /// A power of two, or 0 before the first insert.
    buckets: usize,
    entries: u64,
    big: Vec<BigUint>,
    free: Vec<u32>,
    big_bytes: usize,
    budget: usize,
    pub(crate) stats: TableStats,
}

impl Table {
    pub(crate) fn new(key_words: usize, budget: usize) -> Table {
        Table {
            key_words,
            stride: 1 + VALUE_WORDS + key_words,
            slots: Vec::new(),
            buckets: 0,
            entries: 0,
            big: Vec::new(),
            free: Vec::new(),
            big_bytes: 0,
            budget,
            stats: TableStats::default(),
        }
    }

    /// The bytes the table holds now: slots and big counts.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * 8 + self.big_bytes
    }

    fn bucket_bytes(&self) -> usize {
        WAYS * self.stride * 8
    }

    fn slot(&self, bucket: usize, way: usize) -> usize {
        (bucket * WAYS + way) * self.stride
    }

    fn key_at(&self, at: usize) -> &[u64] {
        &self.slots[at + 1 + VALUE_WORDS..at + self.stride]
    }

    fn note_peak(&mut self, bytes: usize) {
        self.stats.peak_bytes = self.stats.peak_bytes.max(bytes as u64);
        self.stats.peak_rehash_bytes = self.stats.peak_rehash_bytes.max(bytes as u64);
        self.stats.peak_entries = self.stats.peak_entries.max(self.entries);
    }

    /// The two buckets a key may live in: from the hash's low bits, and from a second
    /// mix of all its bits (so that two keys sharing one bucket rarely share the other).
    fn homes(&self, hash: u64) -> [usize; 2] {
        let mask = self.buckets - 1;
        let other = (hash.rotate_left(32).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize;
        [hash as usize & mask, other & mask]
    }

    fn find(&self, key: &[u64], hash: u64) -> Option<usize> {
        if self.buckets == 0 {
            return None;
        }
        for bucket in self.homes(hash) {
            for way in 0..WAYS {
                let at = self.slot(bucket, way);
                if self.slots[at] != 0 && self.key_at(at) == key {
                    return Some(at);
                }
            }
        }
        None
    }

    fn lookup(&mut self, key: &[u64], hash: u64) -> Option<Count> {
        match self.find(key, hash) {
            Some(at) => {
                self.stats.hits += 1;
                Some(self.decode(at))
            }
            None => {
                self.stats.misses += 1;
                None
            }
        }
    }

    /// Where a new key goes: an empty slot of the emptier of its buckets, else (`Err`)
    /// the slot of its buckets that was cheapest to compute.
    fn place(&self, hash: u64) -> Result<usize, usize> {
        let mut cheapest = (u64::MAX, 0);
        let mut best_free = None;
        for bucket in self.homes(hash) {
            let mut free = 0;
            let mut first = None;
            for way in 0..WAYS {
                let at = self.slot(bucket, way);
                let meta = self.slots[at];
                if meta == 0 {
                    free += 1;
                    first.get_or_insert(at);
                } else if meta < cheapest.0 {
                    cheapest = (meta, at);
                }
            }
            if let Some(at) = first {
                if best_free.is_none_or(|(f, _)| free > f) {
                    best_free = Some((free, at));
                }
            }
        }
        best_free.map(|(_, at)| at).ok_or(cheapest.1)
    }

    fn decode(&self, at: usize) -> Count {
        let value = &self.slots[at + 1..at + 1 + VALUE_WORDS];
        if value[VALUE_WORDS - 1] & IN_ARENA != 0 {
            return Count::Big(self.big[(value[0] & !IN_ARENA) as usize].clone());
        }
        let mut v = 0u128;
        for (k, &w) in value.iter().enumerate() {
            v |= (w as u128) << (64 * k);
        }
        Count::Small(v)
    }

    /// The inline words of `count`, or `None` when it needs the arena.
    fn inline(count: &Count) -> Option<[u64; VALUE_WORDS]> {
        let Count::Small(v) = *count else { return None };
        if v >> (64 * VALUE_WORDS - 1) != 0 {
            return None;
        }
        let mut words = [0u64; VALUE_WORDS];
        for (k, w) in words.iter_mut().enumerate() {
            *w = (v >> (64 * k)) as u64;
        }
        Some(words)
    }

    fn big_size(b: &BigUint) -> usize {
        std::mem::size_of::<BigUint>() + b.bits().div_ceil(64) as usize * 8
    }

    /// Frees the arena entry of the slot at `at`, if it has one.
    fn release(&mut self, at: usize) {
        if self.slots[at] != 0 && self.slots[at + VALUE_WORDS] & IN_ARENA != 0 {
            let k = (self.slots[at + 1] & !IN_ARENA) as usize;
            let old = std::mem::take(&mut self.big[k]);
            self.big_bytes -= Table::big_size(&old);
            self.free.push(k as u32);
        }
    }

    /// Doubles the table (or makes the first one) if old and new fit in the budget.
    fn grow(&mut self) -> bool {
        let old_bytes = self.slots.len() * 8;
        let mut buckets = if self.buckets == 0 {
            FIRST_BUCKETS
        } else {
            self.buckets * 2
        };
        // The first allocation shrinks to the budget; later ones only double.
        while self.buckets == 0
            && buckets > 1
            && buckets * self.bucket_bytes() + self.big_bytes > self.budget
        {
            buckets /= 2;
        }
        let new_bytes = buckets * self.bucket_bytes();
        if old_bytes + new_bytes + self.big_bytes > self.budget {
            return false;
        }
        let rehash = (old_bytes + new_bytes + self.big_bytes) as u64;
        self.stats.peak_rehash_bytes = self.stats.peak_rehash_bytes.max(rehash);
        let old = std::mem::replace(&mut self.slots, vec![0; buckets * WAYS * self.stride]);
        self.buckets = buckets;
        for entry in old.chunks_exact(self.stride) {
            if entry[0] == 0 {
                continue;
            }
            match self.place(hash(&entry[1 + VALUE_WORDS..])) {
                Ok(at) => self.slots[at..at + self.stride].copy_from_slice(entry),
                Err(_) => {
                    // Both buckets full at half load: so rare that the entry is simply
                    // dropped (and its big count freed).
                    self.entries -= 1;
                    self.stats.evictions += 1;
                    if entry[VALUE_WORDS] & IN_ARENA != 0 {
                        let k = entry[1] & !IN_ARENA;
                        let old = std::mem::take(&mut self.big[k as usize]);
                        self.big_bytes -= Table::big_size(&old);
                        self.free.push(k as u32);
                    }
                }
            }
        }
        // The old slots are freed: what the table holds now.
        self.note_peak(self.bytes());
        true
    }

    fn store(&mut self, key: &[u64], hash: u64, count: &Count, cost: u64) {
        debug_assert_eq!(key.len(), self.key_words);
        if self.find(key, hash).is_some() {
            // Another thread stored it meanwhile: same key, same count.
            return;
        }
        let at = loop {
            if self.buckets == 0 {
                if self.grow() {
                    continue;
                }
                // Not even one bucket fits: nothing is stored.
                self.stats.evictions += 1;
                return;
            }
            match self.place(hash) {
                Ok(at) => break at,
                Err(_) if self.grow() => continue,
                Err(at) => {
                    self.stats.evictions += 1;
                    self.release(at);
                    self.slots[at] = 0;
                    self.entries -= 1;
                    break at;
                }
            }
        };
        let words = match Table::inline(count) {
            Some(words) => words,
            None => {
                let big = count.clone().into_big();
                let size = Table::big_size(&big);
                if self.bytes() + size > self.budget {
                    self.stats.evictions += 1;
                    return;
                }
                self.big_bytes += size;
                let k = match self.free.pop() {
                    Some(k) => {
                        self.big[k as usize] = big;
                        k as u64
                    }
                    None => {
                        self.big.push(big);
                        (self.big.len() - 1) as u64
                    }
                };
                let mut words = [0u64; VALUE_WORDS];
                words[0] = k;
                words[VALUE_WORDS - 1] |= IN_ARENA;
                words
            }
        };
        self.slots[at] = cost.saturating_add(1).max(1);
        self.slots[at + 1..at + 1 + VALUE_WORDS].copy_from_slice(&words);
        self.slots[at + 1 + VALUE_WORDS..at + self.stride].copy_from_slice(key);
        self.entries += 1;
        self.note_peak(self.bytes());
    }
}

impl Memo for Table {
    fn get(&mut self, key: &[u64], hash: u64) -> Option<Count> {
        self.lookup(key, hash)
    }

    fn insert(&mut self, key: &[u64], hash: u64, count: &Count, cost: u64) {
        self.store(key, hash, count, cost);
    }
}

/// One table shared by every thread: independent shards, each behind its own lock and
/// with an equal share of the budget, chosen by the hash's top bits (the bucket takes
/// the low ones).
///
/// Many small shards, each on cache lines of its own: with 64 shards packed side by
/// side, 16 threads on the 16x16 dominoes spent 4x the CPU of one thread for the same
/// nodes, waiting on locks and passing the lines that hold them between cores.
pub(crate) struct Sharded {
    shards: Vec<Shard>,
}

/// A shard's lock and table, alone on its cache lines (two lines: adjacent-line
/// prefetching pairs them).
#[repr(align(128))]
struct Shard(Mutex<Guarded>);

/// What a shard's lock guards: its table, and the keys of its subproblems that some
/// worker has claimed and is computing ([`Found::Busy`] to the others). A search claims
/// each subproblem it starts on, and ends the claim when it stores or gives up its
/// count, so a shard holds at most a few claims (one per open level of each worker, over
/// 1,024 shards): a flat list, `[hash, key...]` per claim, searched in full.
struct Guarded {
    table: Table,
    claims: Vec<u64>,
}

impl Guarded {
    fn claimed(&self, key: &[u64], hash: u64) -> Option<usize> {
        let stride = 1 + key.len();
        (0..self.claims.len())
            .step_by(stride)
            .find(|&at| self.claims[at] == hash && &self.claims[at + 1..at + stride] == key)
    }

    fn unclaim(&mut self, key: &[u64], hash: u64) {
        if let Some(at) = self.claimed(key, hash) {
            let stride = 1 + key.len();
            let last = self.claims.len() - stride;
            self.claims.copy_within(last.., at);
            self.claims.truncate(last);
        }
    }
}

impl Sharded {
    /// A power of two: the shard is the hash's top bits.
    pub(crate) const SHARDS: usize = 1024;

    pub(crate) fn new(key_words: usize, budget: usize) -> Sharded {
        Sharded {
            shards: (0..Sharded::SHARDS)
                .map(|_| {
                    Shard(Mutex::new(Guarded {
                        table: Table::new(key_words, budget / Sharded::SHARDS),
                        claims: Vec::new(),
                    }))
                })
                .collect(),
        }
    }

    fn shard(&self, hash: u64) -> std::sync::MutexGuard<'_, Guarded> {
        let top = (hash >> (64 - Sharded::SHARDS.trailing_zeros())) as usize;
        self.shards[top].0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn stats(&self) -> TableStats {
        let mut total = TableStats::default();
        for s in &self.shards {
            total.merge(&s.0.lock().unwrap_or_else(|e| e.into_inner()).table.stats);
        }
        total
    }
}

impl Memo for &Sharded {
    fn get(&mut self, key: &[u64], hash: u64) -> Option<Count> {
        self.shard(hash).table.lookup(key, hash)
    }

    fn claim(&mut self, key: &[u64], hash: u64) -> Found {
        let mut shard = self.shard(hash);
        if let Some(c) = shard.table.lookup(key, hash) {
            return Found::Count(c);
        }
        if shard.claimed(key, hash).is_some() {
            return Found::Busy;
        }
        shard.claims.push(hash);
        shard.claims.extend_from_slice(key);
        Found::Claimed
    }

    fn insert(&mut self, key: &[u64], hash: u64, count: &Count, cost: u64) {
        let mut shard = self.shard(hash);
        shard.table.store(key, hash, count, cost);
        // Whoever claimed it: the count is stored (or, past the budget, will be computed
        // again by whoever meets it next).
        shard.unclaim(key, hash);
    }

    fn release(&mut self, key: &[u64], hash: u64) {
        self.shard(hash).unclaim(key, hash);
    }
}
