//! List compaction, the bitset engines' hot loop: keep the option masks disjoint from the
//! covered items, and OR the kept ones together.
//!
//! Two kernels compute exactly the same thing:
//! - the portable one, branch-free scalar code for any mask width;
//! - on x86-64 with AVX2, a vector one for one-word masks (Bedlam's 64 cells): four masks
//!   per instruction, packed with a lane permutation looked up by the 4-bit keep mask.
//!
//! The kernel is chosen once, at run time, from what the CPU reports; the environment
//! variable `POLYCOVER_SIMD=portable` forces the portable one (the tests run both).
//! AVX-512 has a single-instruction compress (`vpcompressq`), but the machine this was
//! tuned on reports only AVX2, so an untested AVX-512 path is deliberately absent.
//!
//! Invariant (both kernels): `to` is at least as long as `from`; on return `to[..n]` holds
//! the kept masks in their original order, and `to[n..from.len()]` holds garbage.

use std::sync::OnceLock;

use super::mask::{disjoint, Mask};

/// Which compaction code runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Portable,
    /// x86-64 AVX2, for one-word masks; wider masks use the portable code.
    Avx2,
}

impl Kernel {
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx2 => "avx2",
        }
    }

    /// The best kernel this CPU runs, unless `POLYCOVER_SIMD=portable` says otherwise.
    pub fn detect() -> Kernel {
        static CHOSEN: OnceLock<Kernel> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let forced = std::env::var("POLYCOVER_SIMD").is_ok_and(|v| v == "portable");
            if !forced && avx2_available() {
                Kernel::Avx2
            } else {
                Kernel::Portable
            }
        })
    }
}

impl Kernel {
    /// The kernel that actually runs for masks of `W` words: the vector one serves
    /// one-word masks only.
    pub fn effective<const W: usize>(self) -> Kernel {
        if W == 1 {
            self
        } else {
            Kernel::Portable
        }
    }
}

fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Copies the masks of `from` that are disjoint from `covered` to the front of `to`, ORs
/// them into `union`, and returns how many there are.
#[inline(always)]
pub(super) fn keep_disjoint<const W: usize>(
    kernel: Kernel,
    from: &[Mask<W>],
    to: &mut [Mask<W>],
    covered: &Mask<W>,
    union: &mut Mask<W>,
) -> usize {
    // One segment: the same code path, so each kernel exists once.
    let mut whole = [Segment {
        piece: 0,
        start: 0,
        end: from.len() as u32,
        copies: 0,
    }];
    keep_disjoint_segments(kernel, from, to, &mut whole, covered, union).0
}

/// A run of one piece's options in a list: `list[start..end]`, and how many copies of the
/// piece are still to place (the kernels rewrite the range and leave the rest alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Segment {
    pub piece: u32,
    pub start: u32,
    pub end: u32,
    pub copies: u32,
}

/// [`keep_disjoint`] for each segment of `from` in turn, written back to back into `to`;
/// each segment's range is rewritten to where its kept masks landed. Returns the new
/// length and whether some segment kept fewer masks than its piece has copies to place
/// (then no solution extends the node). One call per node rather than one per
/// segment: the vector kernel cannot be inlined into its caller, and Bedlam's segments
/// are often only a few masks long.
#[inline(always)]
pub(super) fn keep_disjoint_segments<const W: usize>(
    kernel: Kernel,
    from: &[Mask<W>],
    to: &mut [Mask<W>],
    segments: &mut [Segment],
    covered: &Mask<W>,
    union: &mut Mask<W>,
) -> (usize, bool) {
    assert!(to.len() >= from.len());
    assert!(segments
        .iter()
        .all(|s| s.start <= s.end && s.end as usize <= from.len()));
    #[cfg(target_arch = "x86_64")]
    if W == 1 && kernel == Kernel::Avx2 {
        // A `[u64; 1]` is laid out as one `u64`.
        let (from, to) = unsafe {
            (
                std::slice::from_raw_parts(from.as_ptr().cast::<u64>(), from.len()),
                std::slice::from_raw_parts_mut(to.as_mut_ptr().cast::<u64>(), to.len()),
            )
        };
        // Safety: `Kernel::Avx2` is only chosen when the CPU reports AVX2, and the
        // segments were checked to lie inside `from`.
        let (n, short, u) = unsafe { avx2::keep_disjoint_segments(from, to, segments, covered[0]) };
        union[0] |= u;
        return (n, short);
    }
    let _ = kernel;
    let mut len = 0;
    let mut short = false;
    for s in segments {
        let part = &from[s.start as usize..s.end as usize];
        let kept = portable(part, &mut to[len..], covered, union);
        s.start = len as u32;
        s.end = (len + kept) as u32;
        len += kept;
        short |= (kept as u32) < s.copies;
    }
    (len, short)
}

/// Branch-free: every mask is written and the write position advances only for a kept
/// one, because whether an option survives is close to a coin toss and a branch would
/// mispredict.
#[inline(always)]
pub(super) fn portable<const W: usize>(
    from: &[Mask<W>],
    to: &mut [Mask<W>],
    covered: &Mask<W>,
    union: &mut Mask<W>,
) -> usize {
    let mut len = 0;
    for e in from {
        to[len] = *e;
        let keep = disjoint(e, covered);
        let all = 0u64.wrapping_sub(keep as u64);
        for w in 0..W {
            union[w] |= e[w] & all;
        }
        len += keep as usize;
    }
    len
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// For each 4-bit keep mask, the 32-bit lane indices that move the kept 64-bit masks
    /// to the front (the rest is don't-care).
    static PACK: [[u32; 8]; 16] = pack_table();

    /// `FIRST[k]` selects the first `k` 64-bit lanes (all ones there, zero elsewhere).
    static FIRST: [[i64; 4]; 5] = [
        [0, 0, 0, 0],
        [-1, 0, 0, 0],
        [-1, -1, 0, 0],
        [-1, -1, -1, 0],
        [-1, -1, -1, -1],
    ];

    const fn pack_table() -> [[u32; 8]; 16] {
        let mut table = [[0u32; 8]; 16];
        let mut keep = 0;
        while keep < 16 {
            let mut out = 0;
            let mut lane = 0;
            while lane < 4 {
                if keep >> lane & 1 == 1 {
                    table[keep][2 * out] = 2 * lane as u32;
                    table[keep][2 * out + 1] = 2 * lane as u32 + 1;
                    out += 1;
                }
                lane += 1;
            }
            keep += 1;
        }
        table
    }

    /// [`crate::solver::compact::keep_disjoint_segments`] for one-word masks: the new length, whether a
    /// segment kept fewer masks than its copies, and the OR of the kept masks.
    ///
    /// # Safety
    /// The CPU must support AVX2, `to.len() >= from.len()`, and every segment lies inside
    /// `from`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn keep_disjoint_segments(
        from: &[u64],
        to: &mut [u64],
        segments: &mut [crate::solver::compact::Segment],
        covered: u64,
    ) -> (usize, bool, u64) {
        let cov = _mm256_set1_epi64x(covered as i64);
        let mut union = _mm256_setzero_si256();
        let mut len = 0;
        let mut short = false;
        for s in segments {
            // Safety: the segment lies inside `from`, and the kept masks of the segments
            // so far number at most the lengths of those segments, so `len` plus this
            // segment's length stays within `from.len() <= to.len()`.
            let kept = unsafe {
                let part = from.get_unchecked(s.start as usize..s.end as usize);
                compact(part, to.as_mut_ptr().add(len), cov, &mut union)
            };
            s.start = len as u32;
            len += kept;
            s.end = len as u32;
            short |= (kept as u32) < s.copies;
        }
        (len, short, fold(union))
    }

    /// Compacts `from` into `dst`, ORing the kept masks into `union`; returns how many
    /// were kept.
    ///
    /// # Safety
    /// AVX2, and `dst` is valid for `from.len()` writes.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn compact(from: &[u64], dst: *mut u64, cov: __m256i, union: &mut __m256i) -> usize {
        let zero = _mm256_setzero_si256();
        let mut len = 0;
        let chunks = from.len() / 4;
        let src = from.as_ptr();
        for c in 0..chunks {
            // Safety: lanes 4c..4c+4 are inside `from`; the store at `len <= 4c` ends at
            // most at 4c + 4 <= from.len().
            unsafe {
                let v = _mm256_loadu_si256(src.add(4 * c).cast());
                let kept = _mm256_cmpeq_epi64(_mm256_and_si256(v, cov), zero);
                *union = _mm256_or_si256(*union, _mm256_and_si256(v, kept));
                let keep = _mm256_movemask_pd(_mm256_castsi256_pd(kept)) as usize;
                let perm = _mm256_loadu_si256(PACK[keep].as_ptr().cast());
                let packed = _mm256_permutevar8x32_epi32(v, perm);
                _mm256_storeu_si256(dst.add(len).cast(), packed);
                len += keep.count_ones() as usize;
            }
        }
        let rest = from.len() - 4 * chunks;
        if rest > 0 {
            // The last one to three masks go through the same steps with the lanes past
            // the end masked off: masked lanes of a load or a store never touch memory.
            // Safety: only lanes below `rest` are read, and only the `kept` lanes stored,
            // at `len + kept <= from.len()`.
            unsafe {
                let inside = _mm256_loadu_si256(FIRST[rest].as_ptr().cast());
                let v = _mm256_maskload_epi64(src.add(4 * chunks).cast(), inside);
                let kept =
                    _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_and_si256(v, cov), zero), inside);
                *union = _mm256_or_si256(*union, _mm256_and_si256(v, kept));
                let keep = _mm256_movemask_pd(_mm256_castsi256_pd(kept)) as usize;
                let perm = _mm256_loadu_si256(PACK[keep].as_ptr().cast());
                let packed = _mm256_permutevar8x32_epi32(v, perm);
                let n = keep.count_ones() as usize;
                let first = _mm256_loadu_si256(FIRST[n].as_ptr().cast());
                _mm256_maskstore_epi64(dst.add(len).cast(), first, packed);
                len += n;
            }
        }
        len
    }

    /// The OR of the four lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn fold(v: __m256i) -> u64 {
        let mut lanes = [0u64; 4];
        // Safety: `lanes` has room for four 64-bit lanes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) };
        lanes[0] | lanes[1] | lanes[2] | lanes[3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so the test needs no crate and always runs the
    /// same cases.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Every kernel this CPU can run, whatever `POLYCOVER_SIMD` says: on a CPU with AVX2
    /// the vector kernel is compared with the portable one, never the portable one with
    /// itself.
    fn kernels() -> &'static [Kernel] {
        if avx2_available() {
            &[Kernel::Portable, Kernel::Avx2]
        } else {
            &[Kernel::Portable]
        }
    }

    /// Over several segments with copies to place, every kernel keeps the same masks,
    /// rewrites the same ranges and reports the same shortfall: a segment that keeps fewer
    /// masks than its copies (only then) makes the node dead.
    #[test]
    fn kernels_agree_on_segments_with_copies() {
        let mut state = 0x2545_f491_4f6c_dd1d;
        for round in 0..200 {
            let lens = [round % 7, 3, (round / 7) % 9, 0, 5];
            let total: usize = lens.iter().sum();
            let from: Vec<[u64; 1]> = (0..total)
                .map(|_| [xorshift(&mut state) & xorshift(&mut state)])
                .collect();
            let covered = [xorshift(&mut state) & xorshift(&mut state)];
            let mut start = 0;
            let segments: Vec<Segment> = lens
                .iter()
                .enumerate()
                .map(|(piece, &len)| {
                    let s = Segment {
                        piece: piece as u32,
                        start: start as u32,
                        end: (start + len) as u32,
                        copies: 1 + (xorshift(&mut state) % 3) as u32,
                    };
                    start += len;
                    s
                })
                .collect();
            // What the kernels must report, segment by segment.
            let kept: Vec<usize> = segments
                .iter()
                .map(|s| {
                    from[s.start as usize..s.end as usize]
                        .iter()
                        .filter(|m| m[0] & covered[0] == 0)
                        .count()
                })
                .collect();
            let short = segments
                .iter()
                .zip(&kept)
                .any(|(s, &k)| (k as u32) < s.copies);
            for &kernel in kernels() {
                let mut to = vec![[0u64]; total];
                let mut got = segments.clone();
                let mut union = [0u64];
                let (n, s) =
                    keep_disjoint_segments(kernel, &from, &mut to, &mut got, &covered, &mut union);
                assert_eq!((n, s), (kept.iter().sum(), short), "{kernel:?}");
                for (g, (old, &k)) in got.iter().zip(segments.iter().zip(&kept)) {
                    assert_eq!(
                        (g.piece, g.copies, g.end - g.start),
                        (old.piece, old.copies, k as u32)
                    );
                }
                let want: Vec<_> = from.iter().filter(|m| m[0] & covered[0] == 0).collect();
                assert!(to[..n].iter().eq(want.iter().copied()), "{kernel:?}");
                assert_eq!(union[0], want.iter().fold(0, |u, m| u | m[0]), "{kernel:?}");
            }
        }
    }

    /// The vector kernel agrees with the portable one on every length from 0 to 40 (all
    /// tail sizes) and on sparse and dense masks.
    #[test]
    fn kernels_agree() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for len in 0..=40 {
            for density in 0..4 {
                let from: Vec<[u64; 1]> = (0..len)
                    .map(|_| {
                        let mut m = xorshift(&mut state);
                        for _ in 0..density {
                            m &= xorshift(&mut state);
                        }
                        [m]
                    })
                    .collect();
                let covered = [xorshift(&mut state) & xorshift(&mut state) & xorshift(&mut state)];
                let mut want = vec![[0u64]; len];
                let mut want_union = [0u64];
                let n = portable(&from, &mut want, &covered, &mut want_union);
                let expected: Vec<_> = from.iter().filter(|m| m[0] & covered[0] == 0).collect();
                assert_eq!(n, expected.len());
                assert!(want[..n].iter().eq(expected.iter().copied()));
                for &kernel in kernels() {
                    let mut got = vec![[0u64]; len];
                    let mut union = [0u64];
                    let k = keep_disjoint(kernel, &from, &mut got, &covered, &mut union);
                    assert_eq!(
                        (k, &got[..k], union),
                        (n, &want[..n], want_union),
                        "{kernel:?}"
                    );
                }
            }
        }
    }
}
