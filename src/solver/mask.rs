//! Item masks: a set of items as a fixed array of `W` 64-bit words (item `i` is bit
//! `i % 64` of word `i / 64`), and bit-sliced counts of how many masks of a list contain
//! each item. The bitset engines and the compaction kernels share these.
//!
//! Invariant: a [`Counts`] holds, for every item, the number of masks of the list it was
//! last given that contain the item; planes from `used` on are zero.

pub(super) type Mask<const W: usize> = [u64; W];

#[inline]
pub(super) fn disjoint<const W: usize>(a: &Mask<W>, b: &Mask<W>) -> bool {
    let mut acc = 0;
    for k in 0..W {
        acc |= a[k] & b[k];
    }
    acc == 0
}

#[inline]
pub(super) fn has<const W: usize>(m: &Mask<W>, i: u32) -> bool {
    m[(i / 64) as usize] >> (i % 64) & 1 == 1
}

#[inline]
pub(super) fn set<const W: usize>(m: &mut Mask<W>, i: u32) {
    m[(i / 64) as usize] |= 1 << (i % 64);
}

/// Whether some item of `items` is neither covered nor in any surviving option (`union`):
/// then no solution extends the node.
#[inline(always)]
pub(super) fn uncoverable<const W: usize>(
    items: &Mask<W>,
    covered: &Mask<W>,
    union: &Mask<W>,
) -> bool {
    (0..W).any(|w| items[w] & !covered[w] & !union[w] != 0)
}

/// Bit-sliced counts of a list of masks: bit `k` of `planes[k]` at item `i` is bit `k`
/// of the number of masks containing item `i`. Planes from `used` on are zero.
pub(super) struct Counts<const W: usize> {
    planes: [Mask<W>; PLANES],
    used: usize,
}

/// Enough planes for any list a `u32` can index.
const PLANES: usize = 34;

/// A carry-save adder over whole words: the sum bits and the carry bits of `a + b + c`,
/// for 64 items at once.
#[inline(always)]
fn csa(a: u64, b: u64, c: u64) -> (u64, u64) {
    let u = a ^ b;
    (u ^ c, (a & b) | (u & c))
}

/// Adds eight item masks to the bit-sliced counts in `planes[..used]`.
#[inline(always)]
fn add_block<const W: usize>(planes: &mut [Mask<W>; PLANES], used: usize, m: [&Mask<W>; 8]) {
    for w in 0..W {
        let (ones, ta) = csa(planes[0][w], m[0][w], m[1][w]);
        let (ones, tb) = csa(ones, m[2][w], m[3][w]);
        let (twos, fa) = csa(planes[1][w], ta, tb);
        let (ones, ta) = csa(ones, m[4][w], m[5][w]);
        let (ones, tb) = csa(ones, m[6][w], m[7][w]);
        let (twos, fb) = csa(twos, ta, tb);
        let (fours, mut carry) = csa(planes[2][w], fa, fb);
        planes[0][w] = ones;
        planes[1][w] = twos;
        planes[2][w] = fours;
        for plane in &mut planes[3..used] {
            let c = plane[w] & carry;
            plane[w] ^= carry;
            carry = c;
        }
    }
}

impl<const W: usize> Counts<W> {
    pub(super) fn new() -> Self {
        Counts {
            planes: [[0; W]; PLANES],
            used: 0,
        }
    }

    /// Sets the planes to the per-item counts of `list`, with a Harley-Seal carry-save
    /// tree over blocks of eight options: each block costs a few dozen word operations
    /// for every item at once, and no counter in memory is touched, so nothing waits on
    /// a store.
    pub(super) fn count(&mut self, list: &[Mask<W>]) {
        let n = list.len();
        // Planes 0..3 take the ones, twos and fours; the eights ripple into the rest.
        let high = (usize::BITS - (n / 8).leading_zeros()) as usize;
        let used = (3 + high + 1).min(PLANES);
        for p in &mut self.planes[..self.used.max(used)] {
            *p = [0; W];
        }
        self.used = used;
        let mut blocks = list.chunks_exact(8);
        for b in &mut blocks {
            let masks: [&Mask<W>; 8] = std::array::from_fn(|k| &b[k]);
            add_block(&mut self.planes, used, masks);
        }
        // The last partial block, padded with empty masks: one more tree is cheaper than
        // rippling up to seven masks through every plane.
        let rest = blocks.remainder();
        if !rest.is_empty() {
            let empty = [0u64; W];
            let masks: [&Mask<W>; 8] = std::array::from_fn(|k| rest.get(k).unwrap_or(&empty));
            add_block(&mut self.planes, used, masks);
        }
    }

    /// The count of item `i`, read back from the planes.
    pub(super) fn count_of(&self, i: u32) -> u32 {
        (0..self.used)
            .map(|k| (has(&self.planes[k], i) as u32) << k)
            .sum()
    }

    /// Among the items in `candidates` (not empty), the one with the fewest options,
    /// ties going to the highest item, and its count. The least count is the
    /// lexicographically least bit string: walk the planes from the top, keeping the
    /// candidates whose bit is 0 whenever some are.
    pub(super) fn least(&self, mut candidates: Mask<W>) -> (u32, u32) {
        for plane in self.planes[..self.used].iter().rev() {
            let mut t = [0u64; W];
            let mut any = 0;
            for w in 0..W {
                t[w] = candidates[w] & !plane[w];
                any |= t[w];
            }
            if any != 0 {
                candidates = t;
            }
        }
        let w = W
            - 1
            - candidates
                .iter()
                .rev()
                .position(|&x| x != 0)
                .expect("a candidate");
        let best = w as u32 * 64 + 63 - candidates[w].leading_zeros();
        (best, self.count_of(best))
    }
}

/// A map from option keys (masks, or a piece and a mask) to option numbers, with
/// [`MaskHasher`]: the engines look an option up for each reported solution.
pub(super) type OptionMap<K> = std::collections::HashMap<K, u32, MaskHasherBuilder>;

/// Builds [`MaskHasher`]s.
pub(super) type MaskHasherBuilder = std::hash::BuildHasherDefault<MaskHasher>;

/// A multiply-rotate hash (as FxHash) for option keys. The keys are the puzzle's own
/// options, not input an adversary picks, so the DoS resistance of the standard SipHash
/// buys nothing here, and SipHash cost ten times more per lookup.
#[derive(Default)]
pub(super) struct MaskHasher {
    hash: u64,
}

impl MaskHasher {
    #[inline(always)]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for MaskHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
}
