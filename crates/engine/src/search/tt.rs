//! The transposition table of the solver: lock-free, shared by all threads.
//!
//! A position is keyed on its pit contents only, seen from the side to move
//! (the stores only add a constant to its value), so every entry holds bounds
//! on the *active value*: the final difference, mover minus opponent, of the
//! seeds still in the pits. The full key (up to 12 pits of one byte) is kept in
//! every entry, so two positions never share an entry by accident: collision
//! checking is complete.
//!
//! Bounds are stored as bounds on the mover's final share `j` of the `s`
//! seeds in play (value `2j - s`), one byte each, which is exact because a
//! value always has the parity of `s`. A share lower bound of 0 or an upper
//! bound of `s` means "nothing known".
//!
//! Entry layout: two 64-bit words. The second word holds pits 8..12 of the
//! key in its high half and the data (share bounds, depth, best move and the
//! log2 of the work spent) in its low half; the first word holds pits 0..8 of
//! the key XOR the second word, so a torn write by another thread is detected
//! on reading and the entry is treated as absent (Hyatt's lock-less scheme).
//!
//! Entries are grouped four to a 64-byte bucket. A store replaces the entry
//! with the same key, or else the entry of the bucket with the least depth,
//! ties broken by the least work: full-depth (exact-search) entries outlive
//! entries of the shallow iterative-deepening passes, and among them the
//! roots of big subtrees are kept.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, MemoryUse, Result};

/// Entries per bucket.
const WAYS: usize = 4;

/// Depth stamp of entries that come from an unlimited (exact) search.
pub const FULL_DEPTH: u8 = u8::MAX;

/// "No best move" in an entry.
pub const NO_MOVE: u8 = 7;

/// The key of a position: its pits, 8 in the first word and up to 4 more in
/// the second (high half). All-zero keys never occur (such positions are over).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    lo: u64,
    hi: u32,
}

impl Key {
    /// The key of a row pair given as up to 12 pits, mover's first.
    #[inline]
    pub fn new(pits: &[u8]) -> Key {
        debug_assert!(pits.len() <= 12);
        let mut bytes = [0u8; 16];
        bytes[..pits.len()].copy_from_slice(pits);
        let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        let hi = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        Key { lo, hi }
    }

    /// The key of a position given as a word of up to 12 pits, one byte
    /// each, mover's first (bytes 12..16 must be zero): the same key as
    /// [`Key::new`] of those pits.
    #[inline]
    pub fn from_word(word: u128) -> Key {
        debug_assert!(word >> 96 == 0);
        Key {
            lo: word as u64,
            hi: (word >> 64) as u32,
        }
    }

    /// The pits of the key, mover's first (12 bytes; the pits of a narrower
    /// board are followed by zeros).
    pub fn pits(self) -> [u8; 12] {
        let mut out = [0u8; 12];
        out[..8].copy_from_slice(&self.lo.to_le_bytes());
        out[8..].copy_from_slice(&self.hi.to_le_bytes());
        out
    }

    /// The key as a number whose most significant byte is its first pit
    /// (the order of [`Key`]'s `Ord`).
    #[inline]
    fn order(self) -> (u64, u32) {
        (self.lo.swap_bytes(), self.hi.swap_bytes())
    }

    #[inline]
    fn hash(self) -> u64 {
        let mut h = self.lo ^ (self.hi as u64).rotate_left(29) ^ 0x2545_f491_4f6c_dd1d;
        h = (h ^ (h >> 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h = (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^ (h >> 32)
    }
}

/// Keys in the order of their pits, the first pit first (the order of a
/// checkpoint file's keys).
impl Ord for Key {
    fn cmp(&self, other: &Key) -> std::cmp::Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Lower bound on the mover's share of the seeds in play.
    pub lo_share: u8,
    /// Upper bound on the mover's share of the seeds in play.
    pub hi_share: u8,
    /// Remaining depth the bounds were searched to ([`FULL_DEPTH`]: exact search).
    pub depth: u8,
    /// Best move found (pit from the mover's left), [`NO_MOVE`] if none.
    pub best: u8,
    /// log2 of the nodes spent on the search that produced the entry.
    pub work: u8,
}

impl Entry {
    /// The entry as the 32 bits the table keeps (the low half of its
    /// second word); [`Entry::unpack`] reads them back.
    #[inline]
    pub fn pack(self) -> u32 {
        self.lo_share as u32
            | (self.hi_share as u32) << 8
            | (self.depth as u32) << 16
            | ((self.best as u32 & 7) | (self.work.min(31) as u32) << 3) << 24
    }

    /// The entry packed by [`Entry::pack`].
    #[inline]
    pub fn unpack(d: u32) -> Entry {
        Entry {
            lo_share: d as u8,
            hi_share: (d >> 8) as u8,
            depth: (d >> 16) as u8,
            best: ((d >> 24) & 7) as u8,
            work: (d >> 27) as u8,
        }
    }

    /// Lower bound on the active value with `s` seeds in play.
    #[inline]
    pub fn lower(&self, s: i32) -> i32 {
        2 * self.lo_share as i32 - s
    }

    /// Upper bound on the active value with `s` seeds in play.
    #[inline]
    pub fn upper(&self, s: i32) -> i32 {
        2 * self.hi_share as i32 - s
    }

    /// One entry for a key found twice (the table can hold a key in two
    /// slots of its bucket: two threads storing a new key at once may
    /// each choose another slot; and a copy made while the search runs
    /// can read a key before and after it moved): the deeper entry; at
    /// the same depth both bounds, intersected, when they overlap (each
    /// holds at that depth), with the larger work and a best move if
    /// either has one; else the entry of more work (then the larger
    /// [`Entry::pack`]). The same whichever comes first.
    pub fn merge(self, other: Entry) -> Entry {
        if self.depth != other.depth {
            return if self.depth > other.depth {
                self
            } else {
                other
            };
        }
        let key = |e: &Entry| (e.work.min(31), e.pack());
        let (x, y) = if key(&self) >= key(&other) {
            (self, other)
        } else {
            (other, self)
        };
        let (lo, hi) = (x.lo_share.max(y.lo_share), x.hi_share.min(y.hi_share));
        if lo > hi {
            return x;
        }
        Entry {
            lo_share: lo,
            hi_share: hi,
            best: if x.best != NO_MOVE { x.best } else { y.best },
            ..x
        }
    }

    /// How much the entry is worth keeping, as the replacement scheme sees
    /// it: its depth, then the log2 of the work behind it (higher is
    /// worth more; full-depth entries of big subtrees are worth most).
    #[inline]
    pub fn rank(&self) -> u16 {
        (self.depth as u16) << 5 | self.work.min(31) as u16
    }
}

/// Ranks of [`Entry::rank`]: 8 bits of depth, 5 of work.
const RANKS: usize = 1 << 13;

/// Size of a huge page, the alignment of the slot array.
const HUGE_PAGE: usize = 2 << 20;

/// The memory of a table's slots: an anonymous memory map.
#[cfg(not(target_arch = "wasm32"))]
type Slots = memmap2::MmapMut;

/// The memory of a table's slots in the browser build: zeroed words on
/// the heap.
#[cfg(target_arch = "wasm32")]
struct Slots(Vec<u64>);

#[cfg(target_arch = "wasm32")]
impl Slots {
    fn zeroed(bytes: usize) -> std::io::Result<Slots> {
        let mut v = Vec::new();
        v.try_reserve_exact(bytes.div_ceil(8))
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e.to_string()))?;
        v.resize(bytes.div_ceil(8), 0);
        Ok(Slots(v))
    }

    fn as_ptr(&self) -> *const u8 {
        self.0.as_ptr() as *const u8
    }
}

#[cfg(not(target_arch = "wasm32"))]
trait Zeroed: Sized {
    fn zeroed(bytes: usize) -> std::io::Result<Self>;
}

#[cfg(not(target_arch = "wasm32"))]
impl Zeroed for memmap2::MmapMut {
    fn zeroed(bytes: usize) -> std::io::Result<Self> {
        memmap2::MmapMut::map_anon(bytes)
    }
}

/// The shared transposition table.
///
/// The slots live in an anonymous memory map (zero-filled lazily by the
/// kernel, so a big table costs nothing until it is used) aligned to 2 MiB
/// and advised to use transparent huge pages: with 4 KiB pages nearly every
/// probe of a table of hundreds of MiB also misses the TLB, and measured on
/// Kalah(6,4) those page walks were most of the search time.
///
/// The browser build (wasm32) has no memory maps: its slots are a zeroed
/// vector on the heap.
pub struct TransTable {
    map: Slots,
    offset: usize,
    len: usize,
    buckets: u64,
}

impl std::fmt::Debug for TransTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TransTable({} buckets)", self.buckets)
    }
}

/// Whether a transposition table of `bytes` fits in the machine's memory
/// (the operating system would hand out more, lazily, and the solve would
/// then be killed halfway): `Err` says why not.
pub fn check_memory(bytes: u64) -> std::result::Result<(), String> {
    match crate::tables::driver::total_memory() {
        Some(total) if bytes > total => Err(format!(
            "more than the machine's {} MiB of memory",
            total >> 20
        )),
        _ => Ok(()),
    }
}

/// [`check_memory`] for a table of `mb` mebibytes, as an [`Error`].
pub fn check_tt_mb(mb: usize) -> Result<()> {
    check_memory((mb as u64).saturating_mul(1 << 20)).map_err(|why| Error::Memory {
        message: format!("cannot allocate a transposition table of {mb} MiB: {why}"),
        kind: MemoryUse::TranspositionTable,
    })
}

impl TransTable {
    /// A table using about `mb` mebibytes (at least one bucket).
    ///
    /// # Panics
    /// When the operating system refuses the memory ([`TransTable::try_with_kib`]
    /// reports it instead).
    pub fn new(mb: usize) -> TransTable {
        TransTable::try_with_kib(mb.max(1).saturating_mul(1 << 10))
            .expect("memory for the transposition table")
    }

    /// A table using about `kib` kibibytes (at least one bucket), or an
    /// error saying the memory is not available.
    pub fn try_with_kib(kib: usize) -> Result<TransTable> {
        let refused = |why: String| Error::Memory {
            message: format!("cannot allocate a transposition table of {kib} KiB: {why}"),
            kind: MemoryUse::TranspositionTable,
        };
        let bytes = kib
            .max(1)
            .checked_mul(1 << 10)
            .ok_or_else(|| refused("more than the address space".into()))?;
        check_memory(bytes as u64).map_err(refused)?;
        let buckets = (bytes / (16 * WAYS)).max(1);
        let len = buckets * WAYS * 2;
        let map = Slots::zeroed(len * 8 + HUGE_PAGE).map_err(|e| refused(e.to_string()))?;
        let offset = map.as_ptr().align_offset(HUGE_PAGE);
        #[cfg(target_os = "linux")]
        {
            // A hint only: without transparent huge pages the table works the same.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Ok(TransTable {
            map,
            offset,
            len,
            buckets: buckets as u64,
        })
    }

    #[inline(always)]
    fn slots(&self) -> &[AtomicU64] {
        // SAFETY: the map is at least `offset + 8 * len` bytes long, the
        // offset is 2 MiB-aligned (so 8-aligned), the memory is zero-filled
        // (a valid `AtomicU64`) and only ever accessed through atomics; it
        // lives as long as `self`.
        unsafe {
            std::slice::from_raw_parts(
                self.map.as_ptr().add(self.offset) as *const AtomicU64,
                self.len,
            )
        }
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.len / 2
    }

    /// Entries in use (a full scan; for reports).
    pub fn used(&self) -> usize {
        self.slots()
            .chunks(2)
            .filter(|w| w[1].load(Ordering::Relaxed) != 0)
            .count()
    }

    /// The bucket of `key` in this table (its first slot), for callers that
    /// prefetch, probe and store one position: computed once, passed to
    /// [`TransTable::prefetch_at`], [`TransTable::probe_at`] and
    /// [`TransTable::store_at`]. Only meaningful for this table.
    #[inline]
    pub fn bucket(&self, key: Key) -> usize {
        (((key.hash() as u128 * self.buckets as u128) >> 64) as usize) * WAYS * 2
    }

    /// Ask the processor to start loading the bucket of `key`, so that a
    /// later [`TransTable::probe`] does not wait on memory (a no-op on
    /// processors without a prefetch instruction).
    #[inline]
    pub fn prefetch(&self, key: Key) {
        self.prefetch_at(self.bucket(key));
    }

    /// [`TransTable::prefetch`] of the key whose [`TransTable::bucket`] is
    /// `bucket`.
    #[inline]
    pub fn prefetch_at(&self, bucket: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots()[bucket..].as_ptr() as *const i8;
            // SAFETY: prefetching has no observable effect on memory and the
            // pointer is inside the slot array.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// The entry for `key`, if any.
    #[inline]
    pub fn probe(&self, key: Key) -> Option<Entry> {
        self.probe_at(self.bucket(key), key)
    }

    /// [`TransTable::probe`] with the key's [`TransTable::bucket`] given.
    #[inline]
    pub fn probe_at(&self, base: usize, key: Key) -> Option<Entry> {
        let slots = &self.slots()[base..base + 2 * WAYS];
        for way in 0..WAYS {
            // The second word holds the key's high half: most misses end there.
            let b = slots[2 * way + 1].load(Ordering::Relaxed);
            if b != 0 && (b >> 32) as u32 == key.hi {
                let a = slots[2 * way].load(Ordering::Relaxed);
                if a ^ b == key.lo {
                    return Some(Entry::unpack(b as u32));
                }
            }
        }
        None
    }

    /// Store `entry` for `key`. When the key is present with the same depth,
    /// the bounds are merged (the tighter of each kept).
    #[inline]
    pub fn store(&self, key: Key, entry: Entry) {
        self.store_at(self.bucket(key), key, entry)
    }

    /// [`TransTable::store`] with the key's [`TransTable::bucket`] given.
    #[inline]
    pub fn store_at(&self, base: usize, key: Key, mut entry: Entry) {
        let slots = &self.slots()[base..base + 2 * WAYS];
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for way in 0..WAYS {
            let at = 2 * way;
            let b = slots[at + 1].load(Ordering::Relaxed);
            if b == 0 {
                if victim_rank > 0 {
                    victim = at;
                    victim_rank = 0;
                }
                continue;
            }
            let data = b as u32;
            if (b >> 32) as u32 == key.hi && slots[at].load(Ordering::Relaxed) ^ b == key.lo {
                let old = Entry::unpack(data);
                if old.depth > entry.depth {
                    // Keep the deeper result.
                    return;
                }
                if old.depth == entry.depth {
                    let lo = entry.lo_share.max(old.lo_share);
                    let hi = entry.hi_share.min(old.hi_share);
                    // Disjoint bounds can only come from the search
                    // instability of depth-limited passes: keep the new ones.
                    if lo <= hi {
                        entry.lo_share = lo;
                        entry.hi_share = hi;
                    }
                    entry.work = entry.work.max(old.work);
                    if entry.best == NO_MOVE {
                        entry.best = old.best;
                    }
                }
                victim = at;
                break;
            }
            let old = Entry::unpack(data);
            let rank = 1 + ((old.depth as u32) << 8 | old.work as u32);
            if rank < victim_rank {
                victim = at;
                victim_rank = rank;
            }
        }
        let b = (key.hi as u64) << 32 | entry.pack() as u64;
        slots[victim].store(key.lo ^ b, Ordering::Relaxed);
        slots[victim + 1].store(b, Ordering::Relaxed);
    }
}

impl TransTable {
    /// The entry of slot pair `i` (a key and its data), if the pair holds
    /// one whose key belongs in its bucket. Read while other threads may
    /// write: the data word, the key word, then the data word again, and
    /// nothing when it changed (a store completed between the loads, so
    /// the key word may be of the new entry and the data of the old: a
    /// torn pair). `between` runs between the first two loads (tests
    /// use it to play a concurrent store there).
    #[inline]
    fn read_pair(
        &self,
        slots: &[AtomicU64],
        i: usize,
        between: &impl Fn(&TransTable, usize),
    ) -> Option<(Key, Entry)> {
        let b = slots[2 * i + 1].load(Ordering::Acquire);
        if b == 0 {
            return None;
        }
        between(self, i);
        let a = slots[2 * i].load(Ordering::Acquire);
        if slots[2 * i + 1].load(Ordering::Relaxed) != b {
            return None;
        }
        let key = Key {
            lo: a ^ b,
            hi: (b >> 32) as u32,
        };
        (self.bucket(key) == (i / WAYS) * WAYS * 2).then(|| (key, Entry::unpack(b as u32)))
    }

    /// A copy of the table's most valuable entries, at most `max` of them,
    /// sorted by key ([`Key`]'s order), each key once: every entry if they
    /// fit, else those of the highest [`Entry::rank`]. Only entries that
    /// `accept` (a plausibility check of key and bounds) are taken.
    ///
    /// The table is read while the search goes on, without pausing it.
    /// Each slot pair is read with three atomic loads (data, key, data
    /// again: a store that completes in between discards the pair), and
    /// an entry is kept only when its key hashes to the bucket it was read
    /// from and `accept` takes it, the protection the lock-less probe
    /// relies on against a pair torn by two stores. A key can be met twice
    /// (the table may hold it in two slots, and a key read early in its
    /// bucket may move to a later slot before that slot is read): its
    /// copies are merged ([`Entry::merge`]), so that the result never
    /// repeats a key. Two passes: a histogram of the ranks picks the
    /// cut-off rank, the second pass copies.
    pub fn snapshot(&self, max: usize, accept: impl Fn(Key, Entry) -> bool) -> Vec<(Key, Entry)> {
        self.snapshot_with(max, accept, &|_, _| {})
    }

    /// [`TransTable::snapshot`] with `between` run inside every read of a
    /// slot pair ([`TransTable::read_pair`]).
    fn snapshot_with(
        &self,
        max: usize,
        accept: impl Fn(Key, Entry) -> bool,
        between: &impl Fn(&TransTable, usize),
    ) -> Vec<(Key, Entry)> {
        let slots = self.slots();
        let pairs = self.len / 2;
        let mut histogram = vec![0u64; RANKS];
        for i in 0..pairs {
            if let Some((k, e)) = self.read_pair(slots, i, between) {
                if accept(k, e) {
                    histogram[e.rank() as usize] += 1;
                }
            }
        }
        // The lowest rank kept whole, and how many of the rank below it fit.
        let mut cut = 0usize;
        let mut room = max as u64;
        for r in (0..RANKS).rev() {
            if histogram[r] > room {
                cut = r + 1;
                break;
            }
            room -= histogram[r];
        }
        let partial = cut.checked_sub(1);
        let total: u64 = histogram[cut..].iter().sum::<u64>() + partial.map_or(0, |_| room);
        let mut out = Vec::with_capacity(total.min(max as u64) as usize);
        for i in 0..pairs {
            if out.len() >= max {
                break;
            }
            if let Some((k, e)) = self.read_pair(slots, i, between) {
                let r = e.rank() as usize;
                if r >= cut && accept(k, e) {
                    out.push((k, e));
                } else if Some(r) == partial && room > 0 && accept(k, e) {
                    room -= 1;
                    out.push((k, e));
                }
            }
        }
        unique_keys(&mut out);
        out
    }

    /// Store `entries` (from [`TransTable::snapshot`]), the least valuable
    /// first so that in a crowded bucket the most valuable stay.
    pub fn restore(&self, entries: &[(Key, Entry)]) {
        let mut order: Vec<u32> = (0..entries.len() as u32).collect();
        order.sort_by_key(|&i| entries[i as usize].1.rank());
        for i in order {
            let (k, e) = entries[i as usize];
            self.store(k, e);
        }
    }
}

/// Sort `entries` by key and merge the entries of a key met more than
/// once ([`Entry::merge`]).
pub(super) fn unique_keys(entries: &mut Vec<(Key, Entry)>) {
    entries.sort_unstable_by_key(|x| x.0);
    entries.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = kept.1.merge(later.1);
        }
        same
    });
}

#[cfg(test)]
mod races;

#[cfg(test)]
mod tests;
