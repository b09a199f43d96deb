//! Table files: format, atomic writing, and the memory-mapped reader.
//!
//! One file holds the exact value of every position of one (game, rules,
//! pits per side, seeds in play). Values are stored as a small unsigned
//! *share* `j` per position. Kalah stores the mover's final share of the
//! seeds in play (`value = 2j - k`: a Kalah value always has the parity of
//! k, so k + 1 values are possible, not 2k + 1); Awari and Oware store
//! `j = value + k` (`0..=2k`: their values have any parity).
//!
//! **Encoding (mixed radix per chunk).** Positions are grouped in chunks of
//! 512 consecutive indices. Consecutive indices share the mover's row, so
//! their values are close: a chunk whose shares lie in `base..base + r`
//! stores each share as a digit `j - base` in radix `r`, `g` digits packed
//! into one group of `b <= 31` bits (`r^g <= 2^b`; `g` and `b` fixed per
//! radix, chosen to pack a whole chunk in the fewest bits: radix 11 packs 7
//! digits in 25 bits, 3.57 bits each, radix 16 one digit in 4 bits, radix 1
//! takes no bits at all). Digit `d` of a group `x` is `(x / r^d) % r`,
//! computed with multiplications by precomputed reciprocals (exact for
//! every `x < 2^31`). Every value is exact (no escapes, no bounds), and a
//! look-up is one directory read and one code read, straight from the map.
//! The 6-pit Kalah tables up to 20 seeds take 3.80 bits per position in all,
//! 102.2 MiB (at 4 bits they would take 107.45 MiB; the first version of
//! this format, 4-bit codes with an escape list, took 108.4 MiB).
//!
//! Layout (little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MANCALA\x1a` |
//! | 8 | 4 | format version |
//! | 12 | 1 | game (1 Kalah, 2 Awari, 3 Oware) |
//! | 13 | 1 | rules id (Kalah rule set; 0 for Awari and Oware) |
//! | 14 | 1 | pits per side m |
//! | 15 | 1 | seeds in play k |
//! | 16 | 1 | index layout id |
//! | 17 | 1 | encoding (3: mixed radix per chunk) |
//! | 18 | 1 | reserved (0) |
//! | 19 | 1 | log2 of the chunk size (9) |
//! | 20 | 4 | reserved (0) |
//! | 24 | 8 | positions |
//! | 32 | 8 | bytes of codes |
//! | 40 | 8 | chunk-directory offset |
//! | 48 | 8 | reserved (0) |
//! | 56 | 4 | CRC-32 of everything after the header |
//! | 60 | 4 | CRC-32 of bytes 0..60 |
//!
//! After the header: the codes (the chunks' groups, one bit stream,
//! little-endian bit order, then at least 8 bytes of zero padding so that
//! every group can be read as one unaligned 64-bit word, padded to 8
//! bytes); the chunk directory, one `u64` per chunk plus one
//! (`first_bit << 16 | radix << 8 | base`, the last entry holding the total
//! number of code bits).
//!
//! Format version 1 (4- and 5-bit codes with escape lists) is no longer
//! read: opening such a file says so and names the command that rebuilds
//! it, and `mancala build` replaces it.

use crate::tables::index::MAX_INDEX_SEEDS;

/// First bytes of every table file.
pub const MAGIC: [u8; 8] = *b"MANCALA\x1a";
/// Current table format version.
pub const FORMAT_VERSION: u32 = 2;
/// Header size in bytes.
pub const HEADER_LEN: usize = 64;
/// Encoding id: mixed-radix digits per chunk.
pub const ENCODING_RADIX: u8 = 3;
/// log2 of the number of positions in one chunk.
pub(crate) const CHUNK_BITS: u32 = 9;
pub(crate) const CHUNK: usize = 1 << CHUNK_BITS;
/// Zero bytes after the last code: every group is read as 8 bytes.
pub(crate) const CODE_PADDING: u64 = 8;
/// The largest radix (number of distinct shares in one chunk): Awari and
/// Oware shares go up to `2k` for k up to [`MAX_INDEX_SEEDS`].
pub const MAX_RADIX: usize = 2 * MAX_INDEX_SEEDS + 1;

/// Bits of one group at most: small enough that every division of a group
/// is one 64-bit multiplication and a shift (see [`Radix`]).
pub(crate) const GROUP_BITS: u32 = 31;
/// Digits of one group at most (radix 2 would allow 31; it packs 1 digit
/// per bit anyway).
pub(crate) const MAX_DIGITS: usize = 20;

/// How chunks in one radix `r` are packed and unpacked.
#[derive(Clone, Copy)]
pub(crate) struct Radix {
    /// Digits per group `g`.
    pub(crate) digits: u32,
    /// Bits per group `b` (`r^g <= 2^b`, `b <= 31`).
    pub(crate) bits: u32,
    /// `floor(p / g) = (p * digits_mul) >> 16` for every offset `p` in a
    /// chunk.
    pub(crate) digits_mul: u32,
    /// `floor(x / r^d) = (x * div_mul[d]) >> div_shift[d]` for every group
    /// `x < 2^31` and `d <= g`.
    pub(crate) div_mul: [u64; MAX_DIGITS + 1],
    pub(crate) div_shift: [u8; MAX_DIGITS + 1],
}

impl Radix {
    /// The layout for radix `r`: of the groups of at most 31 bits, the one
    /// that packs a full chunk in the fewest bits (whole groups).
    pub(crate) const fn new(r: usize) -> Radix {
        let mut best = (1u32, 0u32, u64::MAX);
        if r >= 2 {
            let mut g = 1u32;
            let mut p: u64 = 1;
            while g as usize <= MAX_DIGITS {
                p *= r as u64;
                if p > 1u64 << GROUP_BITS {
                    break;
                }
                let bits = 64 - (p - 1).leading_zeros();
                let cost = (CHUNK as u64).div_ceil(g as u64) * bits as u64;
                if cost < best.2 {
                    best = (g, bits, cost);
                }
                g += 1;
            }
        }
        let (digits, bits, _) = best;
        let mut div_mul = [0u64; MAX_DIGITS + 1];
        let mut div_shift = [0u8; MAX_DIGITS + 1];
        let mut d = 0;
        let mut power: u64 = 1;
        while d <= digits as usize {
            // s = 31 + ceil(log2 D), m = ceil(2^s / D): exact for x < 2^31
            // (x * (m D - 2^s) < 2^31 D <= 2^s), and x * m < 2^63.
            let log = 64 - (power - 1).leading_zeros();
            let shift = GROUP_BITS + log;
            div_mul[d] = ((1u128 << shift).div_ceil(power as u128)) as u64;
            div_shift[d] = shift as u8;
            if d < digits as usize {
                power *= r as u64;
            }
            d += 1;
        }
        Radix {
            digits,
            bits,
            digits_mul: (1 << 16) / digits + 1,
            div_mul,
            div_shift,
        }
    }

    /// Digit `d` of group `x`: `(x / r^d) % r`.
    #[inline(always)]
    pub(crate) fn digit(&self, x: u64, d: usize, r: usize) -> u64 {
        let q = (x * self.div_mul[d]) >> self.div_shift[d];
        let q1 = (x * self.div_mul[d + 1]) >> self.div_shift[d + 1];
        q - q1 * r as u64
    }

    /// Group and digit of offset `p` in a chunk.
    #[inline(always)]
    pub(crate) fn locate(&self, p: u32) -> (u32, usize) {
        let group = (p * self.digits_mul) >> 16;
        (group, (p - group * self.digits) as usize)
    }
}

/// `RADIX[r]`: the packing of radix `r` (`r = 0` unused).
pub(crate) static RADIX: [Radix; MAX_RADIX + 1] = {
    let mut t = [Radix::new(1); MAX_RADIX + 1];
    let mut r = 2;
    while r <= MAX_RADIX {
        t[r] = Radix::new(r);
        r += 1;
    }
    t
};

/// Bits taken by `len` shares in radix `radix`: whole groups.
pub(crate) fn group_bits(len: u64, radix: usize) -> u64 {
    let packing = &RADIX[radix];
    len.div_ceil(packing.digits as u64) * packing.bits as u64
}

/// Offset of the chunk directory and the file length, for `count`
/// positions and `code_bytes` bytes of codes (padding included).
pub(crate) fn layout_of(count: u64, code_bytes: u64) -> (u64, u64) {
    let directory = HEADER_LEN as u64 + code_bytes;
    let chunks = count.div_ceil(CHUNK as u64);
    (directory, directory + 8 * (chunks + 1))
}

/// Prefetch the cache line holding `ptr` (no-op off x86-64).
#[inline(always)]
pub fn prefetch(ptr: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint and never dereferences the pointer in a
    // way that can fault, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}
