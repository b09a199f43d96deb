//! Dense, hole-free ranking of positions with exactly k seeds in the pits.
//!
//! A position is a pair of rows (the mover's and the opponent's), each a
//! composition of its row sum into m parts. A row is ranked with the
//! combinatorial number system: the row `x` puts bars at
//! `p_j = x_0 + ... + x_j + j` (j < m-1) and its rank is `sum C(p_j, j+1)`,
//! a bijection onto `0..C(a+m-1, m-1)` for rows of sum `a`.
//!
//! Positions are grouped in blocks by the mover's row sum `a`; inside a block
//! the index is `rank(mover) * rows(k-a) + rank(opponent)`. Which row sums
//! occur is the [`Layout`]: Kalah tables hold the positions with both rows
//! non-empty (the others are terminal), so with m pits per side and k seeds
//! there are `C(k+2m-1, 2m-1) - 2 C(k+m-1, m-1)` of them.
//!
//! Rank and unrank are table-driven and allocation-free.

use crate::error::{Error, Result};

/// Largest n kept in the binomial table.
const BINOM_N: usize = 128;
/// Largest r + 1 kept in the binomial table.
const BINOM_R: usize = 24;

/// `C(n, r)` for `n < 128`, `r < 24`, saturating at `u64::MAX`.
static BINOM: [[u64; BINOM_R]; BINOM_N] = binomials();

const fn binomials() -> [[u64; BINOM_R]; BINOM_N] {
    let mut t = [[0u64; BINOM_R]; BINOM_N];
    let mut n = 0;
    while n < BINOM_N {
        t[n][0] = 1;
        let mut r = 1;
        while r < BINOM_R {
            if n > 0 {
                t[n][r] = t[n - 1][r - 1].saturating_add(t[n - 1][r]);
            }
            r += 1;
        }
        n += 1;
    }
    t
}

/// The binomial coefficient `C(n, r)` (0 when `r > n`).
///
/// # Panics
/// When `n >= 128` or `r >= 24`, outside the table.
#[inline]
pub fn binomial(n: usize, r: usize) -> u64 {
    BINOM[n][r]
}

/// Largest seed count the indexer supports.
pub const MAX_INDEX_SEEDS: usize = 64;

/// Number of rows of m pits holding exactly `a` seeds: `C(a+m-1, m-1)`.
#[inline]
pub fn rows(m: usize, a: usize) -> u64 {
    binomial(a + m - 1, m - 1)
}

/// Rank of one row among the rows with the same pit count and seed sum.
#[inline]
pub fn rank_row(row: &[u8]) -> u64 {
    let mut bar = 0usize;
    let mut rank = 0u64;
    for j in 0..row.len() - 1 {
        bar += row[j] as usize;
        rank += BINOM[bar + j][j + 1];
    }
    rank
}

/// `ROW_BINOM[j][n] = C(n, j + 1)` for the bars of rows of up to 6 pits,
/// as `u32`: the largest entry used, for 6 pits and 64 seeds, is
/// C(69, 5) = 11,238,513. Small enough (3 KiB) to stay in the L1 cache.
static ROW_BINOM: [[u32; BINOM_N]; 5] = row_binomials();

const fn row_binomials() -> [[u32; BINOM_N]; 5] {
    let mut t = [[0u32; BINOM_N]; 5];
    let mut j = 0;
    while j < 5 {
        let mut n = 0;
        while n < BINOM_N {
            let c = BINOM[n][j + 1];
            t[j][n] = if c > u32::MAX as u64 {
                u32::MAX
            } else {
                c as u32
            };
            n += 1;
        }
        j += 1;
    }
    t
}

/// Rank and seed sum of a row whose length (at most 6) is known at compile
/// time, in one unrolled pass over a small table: the builder's hot path.
/// The row must hold at most [`MAX_INDEX_SEEDS`] seeds.
#[inline(always)]
pub fn rank_and_sum<const M: usize>(row: &[u8; M]) -> (u64, usize) {
    let mut bar = 0usize;
    let mut rank = 0u32;
    let mut j = 0;
    while j + 1 < M {
        bar += row[j] as usize;
        rank += ROW_BINOM[j][(bar + j) & (BINOM_N - 1)];
        j += 1;
    }
    (rank as u64, bar + row[M - 1] as usize)
}

/// Write into `out` (m pits) the row of sum `a` with rank `rank`.
pub fn unrank_row(mut rank: u64, a: usize, out: &mut [u8]) {
    let m = out.len();
    if m == 1 {
        out[0] = a as u8;
        return;
    }
    // Bars from the last one down: p_j is the largest c with C(c, j+1) <= rank.
    let mut hi = a + m - 2; // largest possible bar position
    let mut next_bar = a + m - 1; // virtual bar after the last pit
    for j in (0..m - 1).rev() {
        let mut c = hi;
        while BINOM[c][j + 1] > rank {
            c -= 1;
        }
        rank -= BINOM[c][j + 1];
        out[j + 1] = (next_bar - c - 1) as u8;
        next_bar = c;
        hi = c.saturating_sub(1);
    }
    out[0] = next_bar as u8;
}

/// Which row sums a table holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Both rows non-empty (default Kalah rules and capture-needs-opposite).
    BothRowsNonEmpty,
    /// The mover's row non-empty, the opponent's row anything
    /// (Kalah end-when-mover-empty).
    MoverRowNonEmpty,
}

impl Layout {
    /// The id stored in table headers.
    pub fn id(self) -> u8 {
        match self {
            Layout::BothRowsNonEmpty => 1,
            Layout::MoverRowNonEmpty => 2,
        }
    }
}

/// Number of positions with m pits per side and exactly k seeds in both rows
/// non-empty: `C(k+2m-1, 2m-1) - 2 C(k+m-1, m-1)` (0 for k < 2).
pub fn count_both_non_empty(m: usize, k: usize) -> u64 {
    if k < 2 {
        return 0;
    }
    binomial(k + 2 * m - 1, 2 * m - 1) - 2 * rows(m, k)
}

/// Awari and Oware: the boards of m pits per side with exactly k seeds on
/// which the player who just moved has at least one empty pit (the origin of
/// the move): `C(k+2m-1, 2m-1) - C(k+m-1, 2m-1)`, the second term counting
/// the boards whose just-moved row has no empty pit. Every board reached by a
/// move is one of them; summed over the seed counts of a 48-seed Awari game
/// (0..=46 and 48) plus the start, they are the 889,063,398,406 positions of
/// the published Awari solution. (The tables index every board whose mover
/// row is non-empty, a superset, so that set-up boards can be looked up too.)
pub fn count_after_move(m: usize, k: usize) -> u64 {
    let all = binomial(k + 2 * m - 1, 2 * m - 1);
    if k < m {
        all
    } else {
        all - binomial(k - m + 2 * m - 1, 2 * m - 1)
    }
}

/// The paper's Size(m, k): positions with 1..=k seeds, both rows non-empty:
/// `C(k+2m, 2m) - 2 C(k+m, m) + 1`.
pub fn size_up_to(m: usize, k: usize) -> u64 {
    binomial(k + 2 * m, 2 * m) + 1 - 2 * binomial(k + m, m)
}

/// The bijection between positions of m pits per side with exactly k seeds
/// (in a given [`Layout`]) and `0..count()`.
#[derive(Clone, Debug)]
pub struct Indexer {
    m: usize,
    k: usize,
    layout: Layout,
    /// First index of the block whose mover row holds `a` seeds, for every
    /// `a` in `0..=k+1` (`offsets[k+1]` is the count).
    offsets: Vec<u64>,
    /// `rows(m, s)` for `s` in `0..=k`.
    row_counts: Vec<u64>,
}

impl Indexer {
    /// The indexer for m pits per side and exactly k seeds.
    pub fn new(m: usize, k: usize, layout: Layout) -> Result<Indexer> {
        if m == 0 || m > 6 {
            return Err(Error::OutOfRange(format!(
                "{m} pits per side: tables and the indexer support 1 to 6 pits per side"
            )));
        }
        if k > MAX_INDEX_SEEDS {
            return Err(Error::OutOfRange(format!(
                "{k} seeds: the indexer supports at most {MAX_INDEX_SEEDS} seeds in play"
            )));
        }
        let row_counts: Vec<u64> = (0..=k).map(|s| rows(m, s)).collect();
        let mut offsets = Vec::with_capacity(k + 2);
        let mut total = 0u64;
        for a in 0..=k {
            offsets.push(total);
            if Self::holds(layout, k, a) {
                total += row_counts[a] * row_counts[k - a];
            }
        }
        offsets.push(total);
        Ok(Indexer {
            m,
            k,
            layout,
            offsets,
            row_counts,
        })
    }

    fn holds(layout: Layout, k: usize, a: usize) -> bool {
        match layout {
            Layout::BothRowsNonEmpty => a >= 1 && a < k,
            Layout::MoverRowNonEmpty => a >= 1,
        }
    }

    /// Pits per side.
    pub fn pits(&self) -> usize {
        self.m
    }

    /// Seeds in play.
    pub fn seeds(&self) -> usize {
        self.k
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Number of positions.
    pub fn count(&self) -> u64 {
        self.offsets[self.k + 1]
    }

    /// Whether a position whose mover row holds `a` seeds is in the table.
    #[inline]
    pub fn holds_mover_sum(&self, a: usize) -> bool {
        a <= self.k && Self::holds(self.layout, self.k, a)
    }

    /// First index of the block of positions whose mover row holds `a` seeds.
    #[inline]
    pub fn block_offset(&self, a: usize) -> u64 {
        self.offsets[a]
    }

    /// Number of rows of m pits with `s` seeds (`s <= k`).
    #[inline]
    pub fn row_count(&self, s: usize) -> u64 {
        self.row_counts[s]
    }

    /// Index of the position with these rows, given the mover row's sum.
    /// The rows must hold k seeds together and be in the layout.
    #[inline]
    pub fn rank_with_sum(&self, mover: &[u8], opponent: &[u8], mover_sum: usize) -> u64 {
        debug_assert!(self.holds_mover_sum(mover_sum));
        self.offsets[mover_sum]
            + rank_row(mover) * self.row_counts[self.k - mover_sum]
            + rank_row(opponent)
    }

    /// Index of the position with these rows (of a length known at compile
    /// time, holding k seeds together), or `None` when the mover row's sum
    /// is not in the layout: [`Indexer::rank`] for the solver's hot path.
    #[inline(always)]
    pub fn rank_rows<const M: usize>(&self, mover: &[u8; M], opponent: &[u8; M]) -> Option<u64> {
        let (mover_rank, a) = rank_and_sum(mover);
        if !self.holds_mover_sum(a) {
            return None;
        }
        let (opponent_rank, _) = rank_and_sum(opponent);
        Some(self.offset_rank(a, mover_rank, opponent_rank))
    }

    /// Index of the position whose mover row holds `mover_sum` seeds, from
    /// the two row ranks.
    #[inline]
    pub fn offset_rank(&self, mover_sum: usize, mover_rank: u64, opponent_rank: u64) -> u64 {
        self.offsets[mover_sum] + mover_rank * self.row_counts[self.k - mover_sum] + opponent_rank
    }

    /// Index of the position with these rows, or `None` when the rows do not
    /// hold k seeds or are not in the layout.
    #[inline]
    pub fn rank(&self, mover: &[u8], opponent: &[u8]) -> Option<u64> {
        if mover.len() != self.m || opponent.len() != self.m {
            return None;
        }
        let a: usize = mover.iter().map(|&x| x as usize).sum();
        let b: usize = opponent.iter().map(|&x| x as usize).sum();
        if a + b != self.k || !self.holds_mover_sum(a) {
            return None;
        }
        Some(self.rank_with_sum(mover, opponent, a))
    }

    /// Write the rows of the position with index `index` (which must be below
    /// [`Indexer::count`]). Returns the mover row's sum.
    pub fn unrank(&self, index: u64, mover: &mut [u8], opponent: &mut [u8]) -> usize {
        debug_assert!(index < self.count());
        // The block: the largest a whose offset is <= index (blocks may be empty).
        let a = match self.offsets.binary_search(&index) {
            Ok(mut a) => {
                while self.offsets[a + 1] == index {
                    a += 1;
                }
                a
            }
            Err(a) => a - 1,
        };
        let within = index - self.offsets[a];
        let b = self.k - a;
        let per = self.row_counts[b];
        unrank_row(within / per, a, mover);
        unrank_row(within % per, b, opponent);
        a
    }
}

/// Every row of m pits with sum `a`, in rank order, flattened (m bytes each).
pub fn all_rows(m: usize, a: usize) -> Vec<u8> {
    let n = rows(m, a) as usize;
    let mut out = vec![0u8; n * m];
    let mut row = vec![0u8; m];
    for r in 0..n {
        unrank_row(r as u64, a, &mut row);
        out[r * m..(r + 1) * m].copy_from_slice(&row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_right() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(2, 5), 0);
        assert_eq!(binomial(52, 5), 2_598_960);
        assert_eq!(binomial(40, 20), 137_846_528_820);
    }

    #[test]
    fn fixed_rank_agrees_with_rank_row() {
        let mut row = [0u8; 6];
        for a in [0, 1, 7, 20, 40, 64] {
            for r in (0..rows(6, a)).step_by(997) {
                unrank_row(r, a, &mut row);
                assert_eq!(rank_and_sum(&row), (r, a));
            }
        }
    }

    #[test]
    fn row_ranks_are_a_bijection() {
        for m in 1..=6 {
            for a in 0..=8 {
                let n = rows(m, a);
                let mut seen = vec![false; n as usize];
                let mut row = vec![0u8; m];
                for r in 0..n {
                    unrank_row(r, a, &mut row);
                    assert_eq!(row.iter().map(|&x| x as usize).sum::<usize>(), a);
                    let back = rank_row(&row);
                    assert_eq!(back, r, "m={m} a={a} row={row:?}");
                    assert!(!seen[back as usize]);
                    seen[back as usize] = true;
                }
            }
        }
    }

    #[test]
    fn counts_match_the_formulas() {
        for m in 1..=6 {
            let mut total = 0;
            for k in 1..=20 {
                let ix = Indexer::new(m, k, Layout::BothRowsNonEmpty).unwrap();
                assert_eq!(ix.count(), count_both_non_empty(m, k));
                total += ix.count();
                assert_eq!(total, size_up_to(m, k), "m={m} k={k}");
                let ix = Indexer::new(m, k, Layout::MoverRowNonEmpty).unwrap();
                assert_eq!(ix.count(), binomial(k + 2 * m - 1, 2 * m - 1) - rows(m, k));
            }
        }
    }

    #[test]
    fn published_six_pit_table_sizes() {
        // Published (docs/SOLVER.md, "Published results the tests check"):
        // positions with up to k active seeds, both rows non-empty.
        for (k, size) in [
            (17, 51_694_042u64),
            (18, 86_224_034),
            (19, 140_766_326),
            (20, 225_332_381),
            (21, 354_225_301),
            (22, 547_600_561),
            (23, 833_501_761),
            (24, 1_250_490_151),
            (25, 1_851_010_435),
            (26, 2_705_662_765),
            (27, 3_908_582_301),
            (28, 5_584_163_673),
            (29, 7_895_408_601),
            (30, 11_054_221_305),
        ] {
            assert_eq!(size_up_to(6, k), size, "k={k}");
            let sum: u64 = (1..=k)
                .map(|j| {
                    Indexer::new(6, j, Layout::BothRowsNonEmpty)
                        .unwrap()
                        .count()
                })
                .sum();
            assert_eq!(sum, size);
        }
    }
}
