//! The layers of [`super`] stepped on several threads: each layer is split into shards
//! by a hash of the state, and each worker steps whole shards of the layer, adding the
//! states it reaches into the next layer's shards, each behind its own lock. A cell's
//! shards are the jobs of one run of the scheduler's executor ([`execute`]): a worker
//! takes a shard at a time, and gives nothing away.
//!
//! A worker does not take a lock for each state it reaches: it gathers them in a small
//! batch per shard of the next layer ([`BATCH`] states) and adds a batch under one lock
//! when it is full, and every batch left when it runs out of shards. With many more
//! shards than workers, two workers rarely want one shard at once.
//!
//! Measured on 16 cores (one run each, the same machine for a row):
//!
//! | dominoes | one map | shards, 1 thread | 4 threads | 8 threads | 16 threads |
//! |---|---:|---:|---:|---:|---:|
//! | 4x6x6 | 1.12 s | 1.97 s | 0.69 s | 0.40 s | 0.30 s |
//! | 5x6x6 | 21.9 s | 44.1 s | 13.4 s | 7.1 s | 4.2 s |
//! | 6x6x6 | | | | 115 s | 63 s (12.9 GiB) |
//!
//! A state stepped costs about twice what it costs in the one-thread run's single map
//! ([`super::run`]), whose hash keeps the states one state steps into near each other:
//! the shards scale well (10.4 times on sixteen) from a slower start. Two designs were
//! measured and dropped:
//! - each worker's whole output kept in lists by shard, then each shard of the next
//!   layer merged by one worker without locks (two phases per cell): every state
//!   reached was written and read once more, and 5x6x6 took 14.0 s on four threads,
//!   4.4 s on sixteen;
//! - the shard taken from ten raw bits of the state, so that the maps keep the
//!   one-thread run's order (29.1 s on one thread): a few shards held most states, and
//!   their locks made four threads as slow as one (15.8 s; sixteen: 5.8 s; 6x6x6:
//!   102 s).
//!
//! The count is the one-thread run's: the next layer holds the same states with the same
//! sums, only split by shard, and a state's sum does not depend on the order of its
//! additions.
//!
//! Invariants: a worker's batches are empty when its cell ends; the next layer's
//! shards are written only under their locks; a stop or an overflow ends the run with
//! no number.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::{add, advance, total, Layout, Number, Overflow, Run, Shard, Unfinished, POLL};
use crate::schedule::{execute, Caller, Giving, Job, Pool, Worker};

/// Shards of a layer: far more than the workers, so that a worker seldom waits for the
/// lock of one, and so that the shards even out between the workers.
const SHARD_BITS: u32 = 10;

/// States a worker gathers for one shard before it takes the shard's lock.
const BATCH: usize = 32;

/// A layer with fewer states is stepped on the calling thread alone: starting the
/// threads would cost more than the layer. (In the unit tests, almost none is, so that
/// their small boxes take the threads' path.)
#[cfg(not(test))]
const ALONE: usize = 1 << 14;
#[cfg(test)]
const ALONE: usize = 2;

/// The shard of `key`. Not from the maps' own hash (the key times `MaskHasher`'s
/// multiplier), whose top bits are the maps' control bytes: keys of one shard that shared
/// them would match each other's in every probe.
#[inline]
fn shard(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (u64::BITS - SHARD_BITS)) as usize
}

type Shards<N> = Vec<Mutex<Shard<N>>>;

fn lock<N>(shard: &Mutex<Shard<N>>) -> std::sync::MutexGuard<'_, Shard<N>> {
    shard.lock().expect("a worker that panicked ends the run")
}

/// A worker's batches, one per shard of the next layer.
struct Batches<N>(Vec<Vec<(u64, N)>>);

impl<N: Number> Batches<N> {
    /// Adds `n` at `key` to the batch of its shard, and the batch to the shard when it is
    /// full; false on an overflow.
    #[inline]
    fn add(&mut self, key: u64, n: &N, next: &Shards<N>) -> bool {
        let s = shard(key);
        let batch = &mut self.0[s];
        batch.push((key, n.clone()));
        batch.len() < BATCH || empty(batch, &next[s])
    }

    /// Adds every batch to its shard; false on an overflow.
    fn flush(&mut self, next: &Shards<N>) -> bool {
        let mut fine = true;
        for (batch, shard) in self.0.iter_mut().zip(next) {
            if !batch.is_empty() {
                fine &= empty(batch, shard);
            }
        }
        fine
    }
}

/// Adds `batch` to `shard` under its lock, emptying it; false on an overflow.
fn empty<N: Number>(batch: &mut Vec<(u64, N)>, shard: &Mutex<Shard<N>>) -> bool {
    let mut map = lock(shard);
    let mut fine = true;
    for (key, n) in batch.drain(..) {
        fine &= add(&mut map, key, &n);
    }
    fine
}

/// What went wrong in a cell, seen by every worker so that all of them stop.
#[derive(Default)]
struct Halt {
    stopped: AtomicBool,
    overflowed: AtomicBool,
}

/// One worker's part of a cell: the shards it steps, and where it adds what they reach.
struct Stepper<'a, N> {
    batches: Batches<N>,
    layer: &'a Shards<N>,
    next: &'a Shards<N>,
    layout: &'a Layout,
    /// The cell, and the window's mask.
    h: usize,
    window: u64,
    stop: &'a (dyn Fn() -> bool + Sync),
    halt: &'a Halt,
}

/// A job is a shard of the layer (its number); the tally, the states stepped from it.
impl<N: Number> Worker<usize, u64> for Stepper<'_, N> {
    fn run(&mut self, job: &Job<usize>, _giving: &Giving<'_, usize, u64>) -> Option<u64> {
        // The shard stepped from is emptied, its room kept for the cell after.
        let mut from = lock(&self.layer[job.work]);
        let stepped = from.len() as u64;
        for (k, (key, n)) in from.drain().enumerate() {
            if k % POLL == 0 && (self.stop)() {
                self.halt.stopped.store(true, Ordering::Relaxed);
            }
            if self.halt.stopped.load(Ordering::Relaxed) {
                return None;
            }
            let (batches, next) = (&mut self.batches, self.next);
            let added = advance(self.layout, self.h, self.window, key, &n, &mut |key, n| {
                batches.add(key, n, next)
            });
            if !added {
                self.halt.overflowed.store(true, Ordering::Relaxed);
                return None;
            }
        }
        Some(stepped)
    }

    fn root_done(&mut self, _shard: usize, _stepped: u64) {}
}

/// The DP of [`super::run`] with each layer's shards stepped on `workers` threads.
pub(super) fn run<N: Number>(
    layout: &Layout,
    memory: usize,
    stop: &(dyn Fn() -> bool + Sync),
    workers: usize,
) -> Run<N> {
    let count = 1usize << SHARD_BITS;
    let window = (1u64 << layout.reach) - 1;
    let mut layer: Shards<N> = (0..count).map(|_| Mutex::default()).collect();
    let mut next: Shards<N> = (0..count).map(|_| Mutex::default()).collect();
    lock(&layer[shard(layout.first)]).insert(layout.first, N::one());
    let mut states = 1usize;
    let mut run = Run::new();
    let halt = Halt::default();
    // Each worker's batches, kept between the cells.
    let spare: Vec<Mutex<Option<Batches<N>>>> = (0..workers)
        .map(|_| {
            let batches = (0..count).map(|_| Vec::with_capacity(BATCH)).collect();
            Mutex::new(Some(Batches(batches)))
        })
        .collect();
    for h in 0..layout.cells {
        let threads = if states < ALONE { 1 } else { workers };
        let pool = Pool::new(0..count, threads);
        let givings = Giving::for_workers(&pool, threads);
        let (into, from) = (&next, &layer);
        let make = |k: usize| {
            let batches = spare[k].lock().expect("not poisoned").take()?;
            Some(Stepper {
                batches,
                layer: from,
                next: into,
                layout,
                h,
                window,
                stop,
                halt: &halt,
            })
        };
        // A worker's batches left at its end go to their shards before the next cell.
        let retire = |k: usize, mut stepper: Stepper<'_, N>| {
            if !stepper.batches.flush(into) {
                halt.overflowed.store(true, Ordering::Relaxed);
            }
            *spare[k].lock().expect("not poisoned") = Some(stepper.batches);
        };
        execute(&pool, &givings, &make, &retire, Caller::Works);
        if halt.overflowed.load(Ordering::Relaxed) {
            run.count = Err(Overflow::Past);
            return run;
        }
        if halt.stopped.load(Ordering::Relaxed) {
            run.count = Err(Overflow::Unfinished(Unfinished::Stopped));
            return run;
        }
        std::mem::swap(&mut layer, &mut next);
        states = layer.iter_mut().map(|s| len(s)).sum();
        let rooms: usize = layer
            .iter_mut()
            .chain(next.iter_mut())
            .map(|s| room(s))
            .sum();
        let heap = layer
            .iter_mut()
            .find_map(|s| mine(s).values().next().map(N::heap))
            .unwrap_or(0);
        if !run.layer(
            (h, layout.cells),
            states,
            super::map_bytes::<N>(rooms),
            heap,
            memory,
        ) {
            return run;
        }
    }
    let last = layer
        .into_iter()
        .flat_map(|s| s.into_inner().expect("a worker that panicked ends the run"));
    run.count = total(layout, last);
    run
}

fn mine<N>(shard: &mut Mutex<Shard<N>>) -> &mut Shard<N> {
    shard
        .get_mut()
        .expect("a worker that panicked ends the run")
}

fn len<N>(shard: &mut Mutex<Shard<N>>) -> usize {
    mine(shard).len()
}

fn room<N>(shard: &mut Mutex<Shard<N>>) -> usize {
    mine(shard).capacity()
}
