//! The store of the game-graph enumerator ([`crate::kalah::graph`]): a dense
//! index of every configuration of Kalah(m, n) and bitsets over it that
//! many threads can set at once.
//!
//! A node of the graph is a configuration: the `2mn` seeds spread over the
//! `2m + 2` cells (pits and stores, from the side to move) and the side to
//! move. No move creates or destroys a seed, and a terminal node counted as
//! played or as swept keeps every seed on the board, so every node of the
//! graph holds exactly `2mn` seeds. [`ConfigIndex`] ranks the cells as one
//! composition of `2mn` into `2m + 2` parts with the combinatorial number
//! system ([`crate::tables::index::rank_row`]), times 2 for the side to
//! move: a bijection onto `0..2 C(2mn + 2m + 1, 2m + 1)`, the
//! [`configurations`] of the report. An
//! [`AtomicBits`] then spends one bit per configuration.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, MemoryUse, Result};
use crate::kalah::position::Position;
use crate::side::Side;
use crate::sow::MAX_PITS;
use crate::tables::index::{rank_row, unrank_row};

/// The number of configurations the graph's size is compared with: the ways
/// to place the `2mn` seeds in the `2m` pits and the 2 stores,
/// `C(2mn + 2m + 1, 2m + 1)`, times 2 for the side to move.
/// `None` if it does not fit in 64 bits.
pub fn configurations(pits: usize, seeds: usize) -> Option<u64> {
    let k = (2 * pits * seeds) as u128;
    let cells = (2 * pits + 2) as u128;
    // C(k + cells - 1, cells - 1), exactly, in u128.
    let r = cells - 1;
    let mut c: u128 = 1;
    for i in 1..=r {
        c = c.checked_mul(k + i)? / i;
    }
    u64::try_from(c.checked_mul(2)?).ok()
}

/// The dense index of the configurations of Kalah(m, n): cells holding
/// `2mn` seeds in all, and the side to move.
#[derive(Clone, Copy, Debug)]
pub struct ConfigIndex {
    pits: usize,
    seeds: usize,
    count: u64,
}

impl ConfigIndex {
    /// The index of Kalah(`pits`, `seeds`), or an error when the number of
    /// configurations does not fit in 64 bits (far beyond any memory).
    pub fn new(pits: usize, seeds: usize) -> Result<ConfigIndex> {
        let count = configurations(pits, seeds)
            .filter(|_| (1..=MAX_PITS).contains(&pits))
            .ok_or_else(|| {
                Error::OutOfRange(format!(
                    "Kalah({pits},{seeds}): too many configurations to index"
                ))
            })?;
        Ok(ConfigIndex {
            pits,
            seeds: 2 * pits * seeds,
            count,
        })
    }

    /// The number of configurations: ranks run over `0..count()`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of `pos`, which must be a board of this instance (m pits
    /// per side, `2mn` seeds on the board, stores included).
    #[inline]
    pub fn rank(&self, pos: &Position) -> u64 {
        let cells = pos.cells();
        debug_assert_eq!(cells.len(), 2 * self.pits + 2);
        debug_assert_eq!(cells.iter().map(|&c| c as usize).sum::<usize>(), self.seeds);
        2 * rank_row(cells) + u64::from(pos.to_move() == Side::North)
    }

    /// The configuration of rank `rank` (below [`ConfigIndex::count`]).
    #[inline]
    pub fn unrank(&self, rank: u64) -> Position {
        debug_assert!(rank < self.count);
        let mut cells = [0u8; 2 * MAX_PITS + 2];
        let len = 2 * self.pits + 2;
        unrank_row(rank / 2, self.seeds, &mut cells[..len]);
        let side = if rank.is_multiple_of(2) {
            Side::South
        } else {
            Side::North
        };
        Position::from_cells(&cells[..len], side).expect("an unranked board is valid")
    }
}

/// A fixed-size set of bits in 64-bit words that threads set concurrently
/// (`fetch_or`); reading and clearing it takes exclusive access.
pub struct AtomicBits {
    words: Vec<AtomicU64>,
}

impl AtomicBits {
    /// Bytes a set of `bits` bits takes.
    pub fn bytes_for(bits: u64) -> u64 {
        bits.div_ceil(64).saturating_mul(8)
    }

    /// An empty set of `bits` bits, or [`Error::Memory`] when the memory
    /// cannot be had.
    pub fn new(bits: u64) -> Result<AtomicBits> {
        let refused = || Error::Memory {
            message: format!(
                "cannot allocate a bitset of {} MiB for the game graph",
                Self::bytes_for(bits).div_ceil(1 << 20)
            ),
            kind: MemoryUse::GameGraph,
        };
        let len = usize::try_from(bits.div_ceil(64)).map_err(|_| refused())?;
        let mut words = Vec::new();
        words.try_reserve_exact(len).map_err(|_| refused())?;
        words.resize_with(len, || AtomicU64::new(0));
        Ok(AtomicBits { words })
    }

    /// Set bit `i`; true if it was clear before (this call added it).
    #[inline]
    pub fn insert(&self, i: u64) -> bool {
        let mask = 1u64 << (i % 64);
        self.words[(i / 64) as usize].fetch_or(mask, Ordering::Relaxed) & mask == 0
    }

    /// Whether bit `i` is set.
    pub fn contains(&self, i: u64) -> bool {
        self.words[(i / 64) as usize].load(Ordering::Relaxed) & (1u64 << (i % 64)) != 0
    }

    /// The words, for a caller that scans (and clears) them with exclusive
    /// access: bit `b` of word `w` is element `64 w + b`.
    pub fn words_mut(&mut self) -> &mut [AtomicU64] {
        &mut self.words
    }

    /// The number of bits set.
    pub fn count(&self) -> u64 {
        self.words
            .iter()
            .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
            .sum()
    }
}

/// The elements of one word of an [`AtomicBits`] (`word` its index, `bits`
/// its value), in increasing order.
#[inline]
pub fn word_elements(word: usize, mut bits: u64) -> impl Iterator<Item = u64> {
    let base = word as u64 * 64;
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let b = bits.trailing_zeros();
        bits &= bits - 1;
        Some(base + u64::from(b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rank_is_a_bijection_onto_the_configurations() {
        for (m, n) in [(1, 1), (1, 3), (2, 1), (2, 2), (3, 1)] {
            let index = ConfigIndex::new(m, n).unwrap();
            let mut boards = HashSet::new();
            for r in 0..index.count() {
                let pos = index.unrank(r);
                assert_eq!(pos.pits_per_side(), m);
                assert_eq!(
                    pos.cells().iter().map(|&c| c as usize).sum::<usize>(),
                    2 * m * n
                );
                assert_eq!(index.rank(&pos), r, "Kalah({m},{n}) rank {r}");
                assert!(boards.insert(pos));
            }
            // Every board of 2mn seeds, both sides: count them directly.
            let cells = 2 * m + 2;
            let mut direct = 0u64;
            let mut c = vec![0usize; cells];
            loop {
                if c.iter().sum::<usize>() == 2 * m * n {
                    direct += 2;
                }
                let mut i = 0;
                while i < cells && c[i] == 2 * m * n {
                    c[i] = 0;
                    i += 1;
                }
                if i == cells {
                    break;
                }
                c[i] += 1;
            }
            assert_eq!(index.count(), direct, "Kalah({m},{n})");
        }
    }

    #[test]
    fn the_start_ranks_within_the_index() {
        let index = ConfigIndex::new(4, 3).unwrap();
        let start = Position::start(4, 3).unwrap();
        let r = index.rank(&start);
        assert!(r < index.count());
        assert_eq!(index.unrank(r), start);
        assert_eq!(index.unrank(r ^ 1), start.with_to_move(Side::North));
    }

    #[test]
    fn bits_are_set_once() {
        let mut bits = AtomicBits::new(130).unwrap();
        assert!(bits.insert(0));
        assert!(bits.insert(129));
        assert!(!bits.insert(129));
        assert!(bits.contains(0) && !bits.contains(1));
        assert_eq!(bits.count(), 2);
        assert_eq!(bits.words_mut().len(), 3);
        let w = bits.words_mut()[2].load(Ordering::Relaxed);
        assert_eq!(word_elements(2, w).collect::<Vec<_>>(), vec![129]);
        assert_eq!(AtomicBits::bytes_for(130), 24);
    }

    #[test]
    fn an_impossible_bitset_is_a_memory_error() {
        assert!(matches!(
            AtomicBits::new(u64::MAX),
            Err(Error::Memory {
                kind: MemoryUse::GameGraph,
                ..
            })
        ));
    }
}
