//! A table decoded into memory at a fixed width: the fewest bits that hold
//! its largest share (5 bits per position for the Kalah tables of 16 to 31
//! seeds), so that a look-up is a single read at a computed address.
//!
//! The file format needs two dependent reads per look-up (the chunk
//! directory, then the code it points to), and on a table of a hundred MiB
//! both usually miss the caches; the search spends much of its time waiting
//! on them. Decoding once at load time trades a little memory (5 bits per
//! position against 3.8 in the files) for one cache miss per look-up.

use rayon::prelude::*;

use super::format::{prefetch, CHUNK};
use crate::error::{Error, MemoryUse, Result};

/// The shares of one table, `bits` bits per position, little-endian bit
/// order, followed by 8 bytes of zero padding so that any share can be read
/// with one unaligned 64-bit load.
pub(super) struct Resident {
    bits: u32,
    mask: u64,
    map: memmap2::MmapMut,
    /// Where the shares start in `map` (2 MiB-aligned for a big table).
    offset: usize,
    /// Bytes of shares and padding from `offset`.
    len: usize,
}

/// Size of a huge page: a table of at least [`HUGE_MIN`] bytes is aligned
/// to it and advised to use transparent huge pages.
const HUGE_PAGE: usize = 2 << 20;

/// Tables this big or bigger are put on huge pages.
const HUGE_MIN: usize = 1 << 20;

impl std::fmt::Debug for Resident {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Resident({} bits, {} bytes)", self.bits, self.len)
    }
}

/// Bits per position of a decoded table whose shares go up to `max_share`.
pub(super) fn width(max_share: usize) -> u32 {
    usize::BITS - max_share.max(1).leading_zeros()
}

/// Bytes a decoded table of `count` positions takes at `bits` bits each.
pub(super) fn bytes(count: u64, bits: u32) -> u64 {
    let chunks = count.div_ceil(CHUNK as u64);
    chunks * (CHUNK as u64 / 8) * bits as u64 + 8
}

impl Resident {
    /// Decode the `count` shares of the table for `seeds` seeds (each at
    /// most `max_share`), both cores, chunk by chunk: `chunk_shares(c, out)`
    /// writes chunk `c`'s shares into `out` and returns how many there are.
    pub(super) fn decode(
        seeds: usize,
        max_share: usize,
        count: u64,
        chunk_shares: impl Fn(usize, &mut [u8; CHUNK]) -> usize + Sync,
    ) -> Result<Resident> {
        let bits = width(max_share);
        let len = bytes(count, bits) as usize;
        // A look-up is a random read: on 4 KiB pages nearly every one of
        // a big table also misses the TLB (and a page walk is slow on a
        // virtual machine), so big tables go on 2 MiB pages, advised before
        // the first touch.
        let huge = len >= HUGE_MIN;
        let mut map =
            memmap2::MmapMut::map_anon(len + if huge { HUGE_PAGE } else { 0 }).map_err(|e| {
                Error::Memory {
                    message: format!(
                        "cannot hold the {seeds}-seed table in memory ({} MiB): {e}",
                        len >> 20
                    ),
                    kind: MemoryUse::TablesInMemory,
                }
            })?;
        let offset = if huge {
            #[cfg(target_os = "linux")]
            {
                // A hint only: without transparent huge pages it works the same.
                let _ = map.advise(memmap2::Advice::HugePage);
            }
            map.as_ptr().align_offset(HUGE_PAGE)
        } else {
            0
        };
        let data = &mut map[offset..offset + len];
        // Each chunk of CHUNK positions fills exactly CHUNK * bits / 8 bytes.
        let chunk_bytes = CHUNK / 8 * bits as usize;
        data[..len - 8]
            .par_chunks_mut(chunk_bytes)
            .enumerate()
            .for_each(|(c, out)| {
                let mut shares = [0u8; CHUNK];
                let n = chunk_shares(c, &mut shares);
                let (mut acc, mut held, mut o) = (0u64, 0u32, 0usize);
                for &s in &shares[..n] {
                    acc |= (s as u64) << held;
                    held += bits;
                    while held >= 8 {
                        out[o] = acc as u8;
                        acc >>= 8;
                        held -= 8;
                        o += 1;
                    }
                }
                if held > 0 {
                    out[o] = acc as u8;
                }
            });
        Ok(Resident {
            bits,
            mask: (1u64 << bits) - 1,
            map,
            offset,
            len,
        })
    }

    /// Bytes taken.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The shares and their padding.
    #[inline(always)]
    fn data(&self) -> &[u8] {
        &self.map[self.offset..self.offset + self.len]
    }

    /// The share at `index` (below the table's position count).
    #[inline(always)]
    pub(super) fn share(&self, index: u64) -> u8 {
        let bit = index * self.bits as u64;
        let at = (bit / 8) as usize;
        let word = u64::from_le_bytes(self.data()[at..at + 8].try_into().unwrap());
        ((word >> (bit % 8)) & self.mask) as u8
    }

    /// Ask the processor to start loading the share at `index`.
    #[inline(always)]
    pub(super) fn prefetch(&self, index: u64) {
        let at = (index * self.bits as u64 / 8) as usize;
        prefetch(self.data().as_ptr().wrapping_add(at));
    }
}
