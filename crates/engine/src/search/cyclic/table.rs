//! The transposition table of the exact search for games with cycles
//! (path-independent bounds, and path-dependent ones under a guard), and
//! the hasher of the path's boards.

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Slot {
    pub(super) key: u128,
    pub(super) lower: i16,
    pub(super) upper: i16,
    pub(super) best: u8,
    pub(super) used: bool,
    pub(super) work: u32,
}

/// The transposition table: two-way buckets, the entry with less work
/// replaced. Only path-independent bounds are stored.
pub struct CyclicTable {
    slots: Vec<Slot>,
    mask: usize,
    /// Path-dependent bounds, each valid under a prefix of the path (see
    /// `Searcher`).
    pub(super) cond: Vec<CondSlot>,
}

/// A bound that holds while the path keeps the prefix it was found under:
/// the board at ply `dep.max` is the same visit (`visit`), and the board
/// stands at a ply of the same parity.
#[derive(Clone, Copy, Default)]
pub(super) struct CondSlot {
    pub(super) key: u128,
    pub(super) visit: u64,
    pub(super) min: u32,
    pub(super) max: u32,
    pub(super) parity: u8,
    pub(super) lower: i16,
    pub(super) upper: i16,
}

pub(super) fn hash(key: u128) -> usize {
    let h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize
}

impl CyclicTable {
    /// A table of about `mb` mebibytes (a quarter of it for path-dependent
    /// bounds).
    pub fn new(mb: usize) -> CyclicTable {
        let bytes = mb.max(1) << 20;
        let pow2 = |want: usize| {
            let mut n = 2usize;
            while n * 2 <= want {
                n *= 2;
            }
            n
        };
        let n = pow2(bytes * 3 / 4 / std::mem::size_of::<Slot>());
        let c = pow2(bytes / 4 / std::mem::size_of::<CondSlot>());
        CyclicTable {
            slots: vec![Slot::default(); n],
            mask: n - 2,
            cond: vec![CondSlot::default(); c],
        }
    }

    /// The entries in use.
    pub(super) fn used(&self) -> impl Iterator<Item = Slot> + '_ {
        self.slots.iter().filter(|s| s.used).copied()
    }

    /// Put saved entries back (each as [`CyclicTable::put`] would).
    pub(super) fn load(&mut self, entries: &[Slot]) {
        for e in entries {
            self.put(e.key, e.lower as i32, e.upper as i32, e.best, e.work);
        }
    }

    fn bucket(&self, key: u128) -> usize {
        hash(key) & self.mask
    }

    pub(super) fn get(&self, key: u128) -> Option<Slot> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|s| s.used && s.key == key)
            .copied()
    }

    pub(super) fn put(&mut self, key: u128, lower: i32, upper: i32, best: u8, work: u32) {
        let b = self.bucket(key);
        let pair = &mut self.slots[b..b + 2];
        let i = if let Some(i) = pair.iter().position(|s| s.used && s.key == key) {
            // Same board: keep both facts (bounds only ever tighten).
            let s = pair[i];
            let lower = lower.max(s.lower as i32);
            let upper = upper.min(s.upper as i32);
            pair[i] = Slot {
                key,
                lower: lower as i16,
                upper: upper as i16,
                best,
                used: true,
                work: work.max(s.work),
            };
            return;
        } else if !pair[0].used || (pair[1].used && pair[0].work <= pair[1].work) {
            0
        } else {
            1
        };
        pair[i] = Slot {
            key,
            lower: lower as i16,
            upper: upper as i16,
            best,
            used: true,
            work,
        };
    }
}

/// A cheap hasher for the path's board keys and parities.
#[derive(Default, Clone, Copy)]
pub(super) struct PathHash(u64);

impl std::hash::Hasher for PathHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u128(&mut self, key: u128) {
        let h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        self.0 ^= h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u8(&mut self, parity: u8) {
        self.0 = self.0.rotate_left(1) ^ parity as u64;
    }
}

pub(super) type PathHasher = std::hash::BuildHasherDefault<PathHash>;
