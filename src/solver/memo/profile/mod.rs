//! A layer-by-layer count of a sweep: the memo's subproblems, counted forwards as a
//! broken-profile DP instead of looked up from a search.
//!
//! # The data
//!
//! Under a sweep ([`super::order::Branching::Sweep`]) the unit items (the cells) come
//! first, numbered in the sweep's order, and every option covers some of them. Let `R` be
//! the reach ([`super::order::reach`]): the most, over the options, of an option's last
//! cell less its first. The *state* before cell `h` is
//!
//! - the window: which of the cells `h .. h + R` are covered, bit `i` for cell `h + i`;
//! - the counters: for every other item (a piece with copies, or any item with bounds),
//!   how many more covers it may take (`max` less the covers so far). An item that the
//!   covered cells already count (one piece filling a box: its copies used are the cells
//!   covered over its size) and that can never leave its bounds has none
//!   ([`counted_by_cells`]).
//!
//! Both are packed into one `u64`, the window in the low `R + 1` bits (an option taken
//! at `h` covers up to `h + R`, before the step moves the window on) and each counter in
//! the bits that its `max` needs above. A layer is a map from state to the number of
//! partial solutions that reach it.
//!
//! # Why the state determines the completions
//!
//! This is the memo's frontier key ([`super::frontier`]) read forwards. Every option is
//! taken at its first cell, and only when that cell is the first uncovered one, so
//! before cell `h` every cell below `h` is covered and every cell from `h + R` on is not:
//! an option taken at `h' < h` covers cells up to `h' + R < h + R`. The covered cells are
//! then the window's, and what may still be added depends on them and on the counters
//! alone. So partial solutions with one state have the same completions, and a state's
//! count is the sum over the partial solutions that reach it.
//!
//! Step `h`: a state whose bit 0 is set (cell `h` is covered) moves on as it is, shifted
//! by one; any other state takes, in turn, every option whose first cell is `h`, whose
//! cells are uncovered in the window, and whose weight on each counter the counter still
//! allows. Each solution is built on exactly one path (the option covering each first
//! uncovered cell is determined by the solution), as in the memo's search, so the count
//! after the last cell, summed over the states whose counters are within their items'
//! bounds, is the number of exact covers.
//!
//! # Numbers
//!
//! Counts are `u128` (held in two words) with a checked add. A count that overflows
//! starts again with big integers (a slower run, kept for the boxes past 2^128, whose
//! sweeps are the largest anyway): the result is exact either way.
//!
//! Invariants: the keys of a layer all describe states before the same cell; a returned
//! count is exact; a stopped or oversized count returns no number.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault};

use num_bigint::BigUint;

use super::input::Input;

mod shards;
mod table;

use table::{Large, Small, States, SMALL_MOST};

/// One option, as the DP takes it at its first cell.
#[derive(Clone, Debug)]
struct Step {
    /// Its cells, as bits of the window from its first cell (bit 0).
    cells: u64,
    /// For each counter it takes from: the counter's place and the covers it takes.
    takes: Vec<(usize, u64)>,
}

/// A counter's place in the state: its shift and its mask (after the shift).
#[derive(Clone, Copy, Debug)]
struct Field {
    shift: u32,
    mask: u64,
    /// The item's `max - min`: at the end a counter must be at most this (the item took
    /// at least `min` covers).
    slack: u64,
}

/// A sweep laid out for the DP: the options by first cell, and the state's fields.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// The cells, in the sweep's order.
    cells: usize,
    /// `R + 1`: the window's bits.
    reach: u32,
    /// The options whose first cell is `h`, at `starts[h]`.
    starts: Vec<Vec<Step>>,
    fields: Vec<Field>,
    /// The state before the first cell: every counter at its item's `max`.
    first: u64,
}

/// The layout of `input` for the DP, in `sweep` (the narrowest of its sweeps: the memo's,
/// or the other one [`Input::listed`] keeps where it is narrower); `None` where the DP does not
/// count it: it is not a sweep, an option covers no cell, or its state does not fit a
/// word with its top bit clear (a state with it set is the tables' free slot).
pub(super) fn layout(input: &Input, sweep: super::order::Sweep) -> Option<Layout> {
    let input = input.layered(sweep)?;
    let cells = input.items.iter().take_while(|&&b| b == (1, 1)).count();
    if cells == 0 || input.items[cells..].contains(&(1, 1)) {
        return None;
    }
    let reach = super::order::reach(&input.items, &input.options) + 1;
    if reach >= u64::BITS {
        return None;
    }
    let mut fields = Vec::new();
    let mut place = vec![usize::MAX; input.items.len()];
    let mut shift = reach;
    let mut first = 0u64;
    for (i, &(min, max)) in input.items.iter().enumerate().skip(cells) {
        if counted_by_cells(input, cells, i) {
            continue;
        }
        let bits = u64::BITS - u64::from(max).leading_zeros();
        if shift + bits >= u64::BITS {
            return None;
        }
        place[i] = fields.len();
        fields.push(Field {
            shift,
            mask: (1u64 << bits) - 1,
            slack: u64::from(max - min),
        });
        first |= u64::from(max) << shift;
        shift += bits;
    }
    let mut starts = vec![Vec::new(); cells];
    for option in &input.options {
        let mut units = option.iter().map(|e| e.0 as usize).filter(|&i| i < cells);
        let start = units.next()?;
        let mut bits = 1u64;
        for u in units {
            bits |= 1 << (u - start);
        }
        let takes = option
            .iter()
            .filter(|e| e.0 as usize >= cells && place[e.0 as usize] != usize::MAX)
            .map(|&(i, w)| (place[i as usize], u64::from(w)))
            .collect();
        starts[start].push(Step { cells: bits, takes });
    }
    Some(Layout {
        cells,
        reach,
        starts,
        fields,
        first,
    })
}

/// Whether item `i`'s counter is known from the cells alone, and so needs no field in the
/// state: every option covers it, with a weight in the same ratio to the option's cells
/// (one piece that fills the box: each placement takes one copy and `size` cells), so
/// that after `c` cells are covered it has taken `c` times that ratio; and over all the
/// cells that lies within the item's bounds, so that no step is refused by it and every
/// end is within them. A box of one piece then steps states of its window alone.
fn counted_by_cells(input: &Input, cells: usize, i: usize) -> bool {
    let (min, max) = input.items[i];
    // The ratio: weight `w` per `size` cells, from the first option.
    let weight_and_size = |option: &Vec<(u32, u32)>| {
        let w = option
            .iter()
            .find(|e| e.0 as usize == i)
            .map(|e| u64::from(e.1));
        let size = option.iter().filter(|e| (e.0 as usize) < cells).count() as u64;
        w.map(|w| (w, size))
    };
    let Some((w, size)) = input.options.first().and_then(weight_and_size) else {
        return false;
    };
    let proportional = input
        .options
        .iter()
        .all(|o| weight_and_size(o).is_some_and(|(wo, so)| wo * size == w * so));
    // Over all the cells the item takes `cells * w / size` covers.
    let taken = cells as u64 * w;
    proportional && size > 0 && u64::from(min) * size <= taken && taken <= u64::from(max) * size
}

#[cfg(test)]
impl Layout {
    /// The counters a state carries besides its window.
    pub(super) fn counters(&self) -> usize {
        self.fields.len()
    }
}

/// Why a count gave no number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unfinished {
    /// The stop asked for it.
    Stopped,
    /// A layer would pass the memory allowed.
    Memory,
}

/// What a count found, the states it stepped from, and the most one layer held.
pub(super) struct Profiled {
    pub count: Result<BigUint, Unfinished>,
    /// Where a layer outgrew the budget: its cell, the cells, and its states then.
    pub outgrown: Option<(usize, usize, u64)>,
    pub steps: u64,
    pub peak_states: usize,
    pub peak_bytes: usize,
    /// The threads it ran on.
    pub workers: usize,
}

/// Counts the exact covers of `layout`'s input, in at most `memory` bytes of layers,
/// polling `stop` at each cell, on `workers` threads ([`shards`]) where they are at least
/// [`FEWEST_SHARING`], else on one.
pub(super) fn count(
    layout: &Layout,
    memory: usize,
    stop: &(dyn Fn() -> bool + Sync),
    workers: usize,
) -> Profiled {
    let workers = if workers >= FEWEST_SHARING {
        workers
    } else {
        1
    };
    let narrow = run_on::<Wide>(layout, memory, stop, workers);
    match narrow.count {
        Err(Overflow::Past) => {
            let wide = run_on::<BigUint>(layout, memory, stop, workers);
            Profiled {
                count: wide.count.map_err(Overflow::unfinished),
                outgrown: wide.outgrown,
                steps: narrow.steps + wide.steps,
                peak_states: narrow.peak_states.max(wide.peak_states),
                peak_bytes: narrow.peak_bytes.max(wide.peak_bytes),
                workers,
            }
        }
        count => Profiled {
            count: count
                .map(|n| BigUint::from(n.get()))
                .map_err(Overflow::unfinished),
            outgrown: narrow.outgrown,
            steps: narrow.steps,
            peak_states: narrow.peak_states,
            peak_bytes: narrow.peak_bytes,
            workers,
        },
    }
}

/// [`run`] on one thread, [`shards::run`] on several.
fn run_on<N: Number>(
    layout: &Layout,
    memory: usize,
    stop: &(dyn Fn() -> bool + Sync),
    workers: usize,
) -> Run<N> {
    if workers > 1 {
        shards::run(layout, memory, stop, workers)
    } else {
        run(layout, memory, stop)
    }
}

/// The fewest workers the layers are shared by: a state stepped on the shards costs
/// twice what it does in one map (its successors land in a thousand maps, not near each
/// other in one), so two workers are slower than one. Measured on 16 cores, 5x6x6
/// dominoes: 21.9 s on one thread, 25.5 s on two, 13.4 s on four, 4.2 s on sixteen.
const FEWEST_SHARING: usize = 4;

/// A number the layers add: a `u128` that reports an overflow, or a big integer.
trait Number: Clone + Sized + Send + Sync {
    fn zero() -> Self;
    fn one() -> Self;
    /// `self += other`; false on an overflow.
    fn add(&mut self, other: &Self) -> bool;
    /// Bytes it holds outside the layer's slot.
    fn heap(&self) -> usize;
}

/// A `u128` in two words: aligned to 8 bytes, so a state and its count take 24 bytes
/// in a layer, not the 32 that a `u128`'s 16-byte alignment pads them to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Wide([u64; 2]);

impl Wide {
    pub(super) fn get(self) -> u128 {
        u128::from(self.0[0]) | (u128::from(self.0[1]) << 64)
    }

    pub(super) fn of(n: u128) -> Wide {
        Wide([n as u64, (n >> 64) as u64])
    }
}

impl Number for Wide {
    fn zero() -> Wide {
        Wide::of(0)
    }
    fn one() -> Wide {
        Wide::of(1)
    }
    #[inline]
    fn add(&mut self, other: &Wide) -> bool {
        match self.get().checked_add(other.get()) {
            Some(sum) => {
                *self = Wide::of(sum);
                true
            }
            None => false,
        }
    }
    fn heap(&self) -> usize {
        0
    }
}

impl Number for BigUint {
    fn zero() -> BigUint {
        BigUint::ZERO
    }
    fn one() -> BigUint {
        BigUint::from(1u8)
    }
    fn add(&mut self, other: &BigUint) -> bool {
        *self += other;
        true
    }
    fn heap(&self) -> usize {
        self.bits().div_ceil(64) as usize * 8
    }
}

/// Why a run of one number type gave no number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Overflow {
    Past,
    Unfinished(Unfinished),
}

impl Overflow {
    fn unfinished(self) -> Unfinished {
        match self {
            Overflow::Unfinished(u) => u,
            Overflow::Past => unreachable!("big integers do not overflow"),
        }
    }
}

/// What a run of one number type found.
struct Run<N> {
    count: Result<N, Overflow>,
    outgrown: Option<(usize, usize, u64)>,
    steps: u64,
    peak_states: usize,
    peak_bytes: usize,
}

impl<N: Number> Run<N> {
    /// A run at its first layer, the one state before the first cell.
    fn new() -> Run<N> {
        Run {
            count: Ok(N::zero()),
            outgrown: None,
            steps: 0,
            peak_states: 1,
            peak_bytes: 0,
        }
    }

    /// Records the layer after cell `h` of `cells`: `states` states in tables whose
    /// slots take `slots` bytes in all (the layer's and the one emptied, held at once),
    /// each state's number holding `heap` bytes besides. False where they pass `memory`:
    /// the run then ends, outgrown.
    fn layer(
        &mut self,
        at: (usize, usize),
        states: usize,
        slots: usize,
        heap: usize,
        memory: usize,
    ) -> bool {
        let bytes = slots + states * heap;
        self.steps += states as u64;
        self.peak_states = self.peak_states.max(states);
        self.peak_bytes = self.peak_bytes.max(bytes);
        if bytes > memory {
            self.outgrown = Some((at.0 + 1, at.1, states as u64));
            self.count = Err(Overflow::Unfinished(Unfinished::Memory));
            return false;
        }
        true
    }
}

/// The bytes of a standard-library map of `rooms` states: a slot and a control byte each.
fn map_bytes<N>(rooms: usize) -> usize {
    rooms * (std::mem::size_of::<(u64, N)>() + 1)
}

/// A shard of a layer of the threads' run ([`shards`]): [`StateHasher`], as a shard holds
/// a thousandth of the layer, whose states share few low bits.
type Shard<N> = HashMap<u64, N, BuildHasherDefault<StateHasher>>;

/// The hash of a state for a shard: the key times an odd constant, its high half folded
/// onto its low half. In a map of a thousand buckets, the bucket is the product's ten low
/// bits, the key's ten low bits without the fold: the states of a shard that differ only
/// further on then shared their buckets (4x6x6 dominoes on 1,024 shards took twice the
/// time of one map).
#[derive(Default)]
struct StateHasher(u64);

impl std::hash::Hasher for StateHasher {
    #[inline]
    fn write_u64(&mut self, key: u64) {
        let x = key.wrapping_mul(0x517c_c1b7_2722_0a95);
        self.0 = x ^ (x >> 32);
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(self.0 ^ u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// States between two polls of the stop.
const POLL: usize = 1 << 16;

/// The DP with numbers of type `N`: its layers in the small table while they are small,
/// then in the large one ([`table`]).
fn run<N: Number>(layout: &Layout, memory: usize, stop: &dyn Fn() -> bool) -> Run<N> {
    let mut run = Run::new();
    let mut small = Small::default();
    small.add(layout.first, &N::one());
    if let Some((h, mut small)) = steps(layout, 0, small, SMALL_MOST, &mut run, memory, stop) {
        let mut large = Large::default();
        large.reserve(small.len());
        large.extend(small.drain());
        drop(small);
        steps(layout, h, large, usize::MAX, &mut run, memory, stop);
    }
    run
}

/// Steps the cells from `h` on, from the states of `layer`, in tables of type `T`: until
/// the last cell, where it sets the run's count and returns `None`, or until a layer
/// holds more than `most` states, where it returns the next cell and that layer. `None`
/// also where the run ended (stopped, outgrown, overflowed: the run says which).
fn steps<N: Number, T: States<N>>(
    layout: &Layout,
    from: usize,
    mut layer: T,
    most: usize,
    run: &mut Run<N>,
    memory: usize,
    stop: &dyn Fn() -> bool,
) -> Option<(usize, T)> {
    let window = (1u64 << layout.reach) - 1;
    // Two tables, stepped from and into in turn, each emptied with its room kept: a map
    // allocated afresh for every cell spent as much time in page faults as in the
    // steps (6x6x6 dominoes: 196 s of system time in 444).
    let mut next = T::default();
    for h in from..layout.cells {
        next.reserve(layer.len());
        for (k, (key, n)) in layer.drain().enumerate() {
            if k % POLL == 0 && stop() {
                run.count = Err(Overflow::Unfinished(Unfinished::Stopped));
                return None;
            }
            if !advance(layout, h, window, key, &n, &mut |k, n| next.add(k, n)) {
                run.count = Err(Overflow::Past);
                return None;
            }
        }
        std::mem::swap(&mut layer, &mut next);
        let bytes = layer.bytes() + next.bytes();
        let heap = layer.any_count().map_or(0, N::heap);
        if !run.layer((h, layout.cells), layer.len(), bytes, heap, memory) {
            return None;
        }
        if layer.len() > most && h + 1 < layout.cells {
            return Some((h + 1, layer));
        }
    }
    run.count = total(layout, layer.drain());
    None
}

/// The count after the last cell: the sum over the final states whose window is empty
/// and whose counters are within their items' bounds.
fn total<N: Number>(
    layout: &Layout,
    last: impl IntoIterator<Item = (u64, N)>,
) -> Result<N, Overflow> {
    let window = (1u64 << layout.reach) - 1;
    let mut total = N::zero();
    for (key, n) in last {
        let within = layout
            .fields
            .iter()
            .all(|f| (key >> f.shift) & f.mask <= f.slack);
        if within && key & window == 0 && !total.add(&n) {
            return Err(Overflow::Past);
        }
    }
    Ok(total)
}

/// Step `h` from one state, `n` partial solutions, giving each next state and its
/// partial solutions to `emit`; false where `emit` overflowed.
#[inline]
fn advance<N: Number>(
    layout: &Layout,
    h: usize,
    window: u64,
    key: u64,
    n: &N,
    emit: &mut impl FnMut(u64, &N) -> bool,
) -> bool {
    if key & 1 == 1 {
        return emit(shifted(key, window), n);
    }
    'option: for step in &layout.starts[h] {
        if key & step.cells != 0 {
            continue;
        }
        let mut taken = key | step.cells;
        for &(f, w) in &step.takes {
            let field = layout.fields[f];
            if (taken >> field.shift) & field.mask < w {
                continue 'option;
            }
            taken -= w << field.shift;
        }
        if !emit(shifted(taken, window), n) {
            return false;
        }
    }
    true
}

/// The state before the next cell: the window moved on by one, the counters as they are.
#[inline]
fn shifted(key: u64, window: u64) -> u64 {
    ((key & window) >> 1) | (key & !window)
}

/// Adds `n` to `key`'s count in `layer`; false on an overflow.
#[inline]
fn add<N: Number, H: BuildHasher>(layer: &mut HashMap<u64, N, H>, key: u64, n: &N) -> bool {
    match layer.entry(key) {
        std::collections::hash_map::Entry::Occupied(mut c) => c.get_mut().add(n),
        std::collections::hash_map::Entry::Vacant(v) => {
            v.insert(n.clone());
            true
        }
    }
}
