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
//!   to compute (saturating): what evicting it would cost to recompute. In a shared
//!   table (the `sharded` module) a slot may also be a claim: `meta` is [`BUSY`] and the
//!   value 0, until the count is stored there or the claim released. A claim is never
//!   read as a count and never evicted.
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

use num_bigint::BigUint;

/// Words of a slot's value. One word (counts below 2^63 inline) measured best: see the
/// `memo` module docs.
const VALUE_WORDS: usize = 1;
/// Slots per bucket.
const WAYS: usize = 4;
/// Buckets of a table's first allocation (when the budget allows), but for the shards
/// of a shared table.
const FIRST_BUCKETS: usize = 1 << 6;
/// The tag bit of a value's last word: the count is in the arena.
const IN_ARENA: u64 = 1 << 63;
/// The `meta` of a claim: a worker is computing this key's count (value 0). Above any
/// entry's cost, so never the cheapest to evict.
const BUSY: u64 = u64::MAX;

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
    /// Lookups that found their subproblem's count.
    pub hits: u64,
    /// Lookups that did not (the subproblem was then counted).
    pub misses: u64,
    /// Entries replaced (or counts not stored) for want of room.
    pub evictions: u64,
    /// The most entries the table held at once.
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

/// `repr(C)`, hot fields first: in a shard of the shared table (`sharded`) the lock and
/// what every look-up reads and every store writes share the first cache line.
#[repr(C)]
pub(crate) struct Table {
    slots: Vec<u64>,
    /// A power of two, or 0 before the first insert.
    buckets: usize,
    stride: usize,
    key_words: usize,
    /// Slots in use, claims included.
    entries: u64,
    budget: usize,
    big: Vec<BigUint>,
    free: Vec<u32>,
    big_bytes: usize,
    /// Buckets of the first allocation (when the budget allows).
    first_buckets: usize,
    /// Kept up to date but for `peak_entries`, which is brought up to `entries` only
    /// before `entries` falls (and by [`Table::stats`]): a store writes no statistics.
    stats: TableStats,
}

/// What [`Table::probe`] found for a key.
pub(crate) enum Probe {
    Count(Count),
    /// A worker has claimed it ([`Table::mark_busy`]).
    Busy,
    Absent,
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
            first_buckets: FIRST_BUCKETS,
            stats: TableStats::default(),
        }
    }

    /// A table whose first allocation is `buckets` buckets (a power of two) instead of
    /// [`FIRST_BUCKETS`]: a shard of a shared table, one of thousands.
    pub(crate) fn with_first(key_words: usize, budget: usize, buckets: usize) -> Table {
        debug_assert!(buckets.is_power_of_two());
        Table {
            first_buckets: buckets,
            ..Table::new(key_words, budget)
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
    }

    /// One entry fewer: the peak is taken first.
    fn drop_entry(&mut self) {
        self.stats.peak_entries = self.stats.peak_entries.max(self.entries);
        self.entries -= 1;
    }

    /// What the table saw.
    pub(crate) fn stats(&self) -> TableStats {
        let mut stats = self.stats;
        stats.peak_entries = stats.peak_entries.max(self.entries);
        stats
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
                // Word by word: keys are two to four words, too short for `memcmp`'s call.
                if self.slots[at] != 0 && self.key_at(at).iter().zip(key).all(|(a, b)| a == b) {
                    return Some(at);
                }
            }
        }
        None
    }

    fn lookup(&mut self, key: &[u64], hash: u64) -> Option<Count> {
        match self.probe(key, hash) {
            Probe::Count(c) => {
                self.stats.hits += 1;
                Some(c)
            }
            _ => {
                self.stats.misses += 1;
                None
            }
        }
    }

    /// The key's count, claim or absence; counts no hit or miss (a shared table's
    /// callers count their own).
    pub(crate) fn probe(&self, key: &[u64], hash: u64) -> Probe {
        match self.find(key, hash) {
            Some(at) if self.slots[at] == BUSY => Probe::Busy,
            Some(at) => Probe::Count(self.decode(at)),
            None => Probe::Absent,
        }
    }

    /// Marks the absent `key` as claimed: a slot of its own, with meta [`BUSY`], where
    /// there is room (else the claim goes unrecorded: at worst another worker computes
    /// the same count).
    pub(crate) fn mark_busy(&mut self, key: &[u64], hash: u64) {
        debug_assert!(self.find(key, hash).is_none());
        if let Some(at) = self.room(hash) {
            self.slots[at] = BUSY;
            self.slots[at + 1..at + 1 + VALUE_WORDS].fill(0);
            self.slots[at + 1 + VALUE_WORDS..at + self.stride].copy_from_slice(key);
            self.entries += 1;
        }
    }

    /// Ends a claim on `key` without a count.
    pub(crate) fn clear_busy(&mut self, key: &[u64], hash: u64) {
        if let Some(at) = self.find(key, hash) {
            if self.slots[at] == BUSY {
                self.slots[at] = 0;
                self.drop_entry();
            }
        }
    }

    /// An empty slot for a new key of `hash`: growing the table, else evicting the
    /// cheapest entry of its buckets; `None` when neither is possible.
    fn room(&mut self, hash: u64) -> Option<usize> {
        loop {
            if self.buckets == 0 {
                if self.grow() {
                    continue;
                }
                // Not even one bucket fits.
                self.stats.evictions += 1;
                return None;
            }
            match self.place(hash) {
                Ok(at) => return Some(at),
                Err(_) if self.grow() => continue,
                Err(None) => {
                    // Every slot of both buckets is claimed.
                    self.stats.evictions += 1;
                    return None;
                }
                Err(Some(at)) => {
                    self.stats.evictions += 1;
                    self.release(at);
                    self.slots[at] = 0;
                    self.drop_entry();
                    return Some(at);
                }
            }
        }
    }

    /// Where a new key goes: an empty slot of the emptier of its buckets, else (`Err`)
    /// the slot of its buckets that was cheapest to compute (none when all are claims).
    fn place(&self, hash: u64) -> Result<usize, Option<usize>> {
        let mut cheapest = (BUSY, None);
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
                    cheapest = (meta, Some(at));
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
            self.first_buckets
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
                    // dropped (and its big count freed; a claim's value is 0).
                    self.drop_entry();
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

    /// Stores `key`'s count, in the slot of its claim if it has one (the claim ends).
    pub(crate) fn store(&mut self, key: &[u64], hash: u64, count: &Count, cost: u64) {
        debug_assert_eq!(key.len(), self.key_words);
        let at = match self.find(key, hash) {
            // Claimed: the count goes into the claim's slot.
            Some(at) if self.slots[at] == BUSY => at,
            // Another thread stored it meanwhile: same key, same count.
            Some(_) => return,
            None => match self.room(hash) {
                Some(at) => {
                    self.entries += 1;
                    at
                }
                None => return,
            },
        };
        let words = match Table::inline(count) {
            Some(words) => words,
            None => {
                let big = count.clone().into_big();
                let size = Table::big_size(&big);
                if self.bytes() + size > self.budget {
                    self.stats.evictions += 1;
                    self.slots[at] = 0;
                    self.drop_entry();
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
                self.note_peak(self.bytes());
                let mut words = [0u64; VALUE_WORDS];
                words[0] = k;
                words[VALUE_WORDS - 1] |= IN_ARENA;
                words
            }
        };
        // 1 + cost, below BUSY.
        self.slots[at] = cost.saturating_add(1).clamp(1, BUSY - 1);
        self.slots[at + 1..at + 1 + VALUE_WORDS].copy_from_slice(&words);
        self.slots[at + 1 + VALUE_WORDS..at + self.stride].copy_from_slice(key);
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

/// Tables that held at least this many bytes are freed on a thread of their own
/// ([`free_later`]); smaller ones free faster than a thread starts.
pub(crate) const FREE_LATER_BYTES: u64 = 4 << 20;

/// Drops `tables` on a thread of their own, off the count's critical path: the answer is
/// known, and giving a table's pages back takes milliseconds (on the 16x16 dominoes at
/// two threads, 5.6 ms of a 0.25 s count, most of it the shards of each of five
/// Burnside classes), serial time that would cap the speed-up of every thread count. A
/// caller that counts again at once may briefly hold both tables. Where no thread can
/// be started, they are dropped here.
pub(crate) fn free_later<T: Send + 'static>(tables: T) {
    // On failure, `spawn` drops the closure, and the tables with it, here.
    let _ = std::thread::Builder::new()
        .name("polycover-free".into())
        .spawn(move || drop(tables));
}
