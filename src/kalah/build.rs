//! The parallel Kalah table builder.
//!
//! Tables are filled from 1 seed upwards. A Kalah move either puts a seed in
//! the mover's store (the child has fewer seeds in play and is in a smaller,
//! finished table) or keeps every seed in the mover's row, moved to the
//! right (the child is in the same table). The second kind strictly lowers
//! the total distance of the seeds to their owners' stores, so the game graph
//! inside a table has no cycle. The builder goes through a table level by
//! level of that distance, so every same-table child is finished before its
//! parent, with no recursion.
//!
//! Inside a level the positions are independent; the work is split over
//! mover rows (each a contiguous stretch of the table, so threads write to
//! separate cache lines) and run with rayon. Shares are kept one byte per
//! position while a table is built and packed (about 3.8 bits, see
//! [`crate::tables`]) when it is written. The positions go through a
//! software pipeline: the children of a position are located (and the
//! directory entries of their chunks prefetched) three positions ahead,
//! their codes prefetched two ahead, so that the cache misses of many
//! look-ups overlap.

use crate::tables::MAX_TABLE_PITS;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::family::Rules;
use crate::game::TableSet;
use crate::kalah::rules::{KalahRules, KalahSowing, Landing};
use crate::progress::{Event, Observer};
use crate::tables::index::{all_rows, rank_and_sum, Indexer};
use crate::tables::{prefetch, Table, TableSpec};

const UNKNOWN: u8 = 0xff;

/// Estimated peak memory of building tables 1..=max_seeds: while table k is
/// built, one byte per position of k, its packed form (at most 5 bits per
/// position plus the chunk directory), and the mapped smaller tables.
pub fn estimate_peak_memory(rules: KalahRules, pits: usize, max_seeds: usize) -> Result<u64> {
    let mut below = 0u64;
    let mut peak = 0u64;
    for k in 1..=max_seeds {
        let n = TableSpec {
            game: Rules::Kalah(rules),
            pits,
            seeds: k,
        }
        .indexer()?
        .count();
        let packed = n * 5 / 8 + n / 64 + 4096;
        peak = peak.max(n + packed + below);
        below += packed;
    }
    Ok(peak + (64 << 20))
}

/// Everything the workers of one layer share. `M` is the number of pits per
/// side, fixed at compile time so that the hot loops unroll.
struct Layer<'a, const M: usize> {
    m_tables: Vec<Option<&'a Table>>,
    k: usize,
    rules: KalahRules,
    indexer: Indexer,
    shares: Vec<AtomicU8>,
}

/// Compute the shares of every position with `k` seeds in play, given the
/// finished tables for fewer seeds in `tb`.
pub(crate) fn build_layer(
    tb: &TableSet<KalahRules>,
    k: usize,
    progress: &Observer,
) -> Result<Vec<u8>> {
    match tb.pits() {
        1 => build_layer_m::<1>(tb, k, progress),
        2 => build_layer_m::<2>(tb, k, progress),
        3 => build_layer_m::<3>(tb, k, progress),
        4 => build_layer_m::<4>(tb, k, progress),
        5 => build_layer_m::<5>(tb, k, progress),
        6 => build_layer_m::<6>(tb, k, progress),
        m => Err(Error::Unsupported(format!(
            "{m} pits per side: tables are built for 1 to {MAX_TABLE_PITS} pits per side"
        ))),
    }
}

fn build_layer_m<const M: usize>(
    tb: &TableSet<KalahRules>,
    k: usize,
    progress: &Observer,
) -> Result<Vec<u8>> {
    let rules = tb.game();
    let indexer = tb.spec(k).indexer()?;
    let count = indexer.count();
    let shares: Vec<AtomicU8> = (0..count).map(|_| AtomicU8::new(UNKNOWN)).collect();
    let layer = Layer::<M> {
        m_tables: (0..k).map(|kk| tb.table(kk)).collect(),
        k,
        rules,
        indexer,
        shares,
    };
    let rows: Vec<Vec<u8>> = (0..=k).map(|s| all_rows(M, s)).collect();
    // groups[s][d]: ranks of the rows of sum s whose seeds are at total
    // distance d from their owner's store.
    let groups: Vec<Vec<Vec<u32>>> = rows
        .iter()
        .enumerate()
        .map(|(s, flat)| {
            let mut g = vec![Vec::new(); s * M + 1];
            for (r, row) in flat.chunks_exact(M).enumerate() {
                g[distance(row)].push(r as u32);
            }
            g
        })
        .collect();
    progress.event(&Event::Start {
        stage: &format!("k={k}"),
        total: Some(count),
    });
    let done = AtomicU64::new(0);
    // Level by level of total distance: a move that keeps every seed in play
    // lowers it, so every same-table child is finished before its parent.
    // Inside a level the positions are independent; each work item is one
    // mover row, whose positions are a contiguous stretch of the table, so
    // threads write to separate cache lines.
    let mut items: Vec<(u32, u32, u32)> = Vec::new();
    for level in 0..=k * M {
        items.clear();
        for a in 1..=k {
            if !layer.indexer.holds_mover_sum(a) {
                continue;
            }
            let b = k - a;
            for d1 in level.saturating_sub(b * M)..=(a * M).min(level) {
                let d2 = level - d1;
                if groups[b][d2].is_empty() {
                    continue;
                }
                for &r1 in &groups[a][d1] {
                    items.push((a as u32, r1, d2 as u32));
                }
            }
        }
        items.par_chunks(32).for_each(|chunk| {
            let mut positions = 0u64;
            for &(a, r1, d2) in chunk {
                let (a, r1) = (a as usize, r1 as usize);
                let b = k - a;
                let mover: &[u8; M] = rows[a][r1 * M..(r1 + 1) * M].try_into().unwrap();
                let moves = MoverMoves::new(mover);
                let first = layer.indexer.block_offset(a) + r1 as u64 * layer.indexer.row_count(b);
                let opps = &groups[b][d2 as usize];
                // Software pipeline, two deep: the children of position
                // i + 2 are located (their chunks' directory entries
                // prefetched), the codes of the children of i + 1 are
                // prefetched (their directory entries are in cache by
                // then), and only then are the values of i's children read.
                let opp_row = |r2: u32| -> &[u8; M] {
                    let r2 = r2 as usize;
                    rows[b][r2 * M..(r2 + 1) * M].try_into().unwrap()
                };
                const AHEAD: usize = PIPELINE - 1;
                let mut ring = [[Child::default(); M]; PIPELINE];
                let locate = |ring: &mut [[Child; M]; PIPELINE], i: usize| {
                    if let Some(&r2) = opps.get(i) {
                        layer.locate(&mut ring[i % PIPELINE], &moves, opp_row(r2), r2 as u64, b);
                    }
                };
                for i in 0..AHEAD {
                    locate(&mut ring, i);
                    if i >= 1 {
                        layer.prefetch_codes(&ring[i - 1], moves.len);
                    }
                }
                for (i, &r2) in opps.iter().enumerate() {
                    locate(&mut ring, i + AHEAD);
                    if i + AHEAD - 1 < opps.len() {
                        layer.prefetch_codes(&ring[(i + AHEAD - 1) % PIPELINE], moves.len);
                    }
                    let v = layer.evaluate(&ring[i % PIPELINE], moves.len);
                    layer.shares[(first + r2 as u64) as usize]
                        .store(((v + k as i32) / 2) as u8, Ordering::Relaxed);
                }
                positions += opps.len() as u64;
            }
            progress.advance(done.fetch_add(positions, Ordering::Relaxed) + positions);
        });
    }
    progress.event(&Event::Finish);
    Ok(layer.shares.into_iter().map(AtomicU8::into_inner).collect())
}

/// Positions in flight in the builder's software pipeline.
const PIPELINE: usize = 4;

/// One child of a position, between locating it and reading its value.
#[derive(Clone, Copy, Default)]
struct Child {
    /// Store difference the move made (mover's view), incl. the final sweep.
    base: i32,
    /// 0: the game ended; 1: extra turn (add the child's value); -1: the
    /// turn passed (subtract it).
    sign: i32,
    /// Seeds in play in the child.
    seeds: usize,
    index: u64,
}

/// The moves of one mover row, sown once and finished against every
/// opponent row: with the rank and seed count of the mover's row after each
/// move, with and without a capture.
struct MoverMoves<const M: usize> {
    moves: [MoverMove<M>; M],
    len: usize,
}

#[derive(Clone, Copy)]
struct MoverMove<const M: usize> {
    sowing: KalahSowing<M>,
    rank: u64,
    sum: usize,
    rank_captured: u64,
    to_opponent: usize,
}

impl<const M: usize> MoverMoves<M> {
    fn new(row: &[u8; M]) -> MoverMoves<M> {
        let mut moves = [MoverMove {
            sowing: KalahSowing {
                own: [0; M],
                to_store: 0,
                to_opponent: [0; M],
                last: Landing::Store,
            },
            rank: 0,
            sum: 0,
            rank_captured: 0,
            to_opponent: 0,
        }; M];
        let mut len = 0;
        for pit in (0..M).filter(|&p| row[p] > 0) {
            let sowing = KalahSowing::new(row, pit);
            let (rank, sum) = rank_and_sum(&sowing.own);
            let rank_captured = match sowing.capture_pit() {
                Some(i) => {
                    let mut own = sowing.own;
                    own[i] = 0;
                    rank_and_sum(&own).0
                }
                None => rank,
            };
            let to_opponent = sowing.to_opponent.iter().map(|&x| x as usize).sum();
            moves[len] = MoverMove {
                sowing,
                rank,
                sum,
                rank_captured,
                to_opponent,
            };
            len += 1;
        }
        MoverMoves { moves, len }
    }
}

impl<const M: usize> Layer<'_, M> {
    /// Locate into `children` the children of the position made of the
    /// mover row behind `moves` and the opponent row `opp` (rank `r2`, `b`
    /// seeds), their entries (or their chunks' directory entries) prefetched, so that their cache misses overlap (with each
    /// other, and with the evaluation of the previous position: see
    /// [`Layer::evaluate`]).
    #[inline]
    fn locate(
        &self,
        children: &mut [Child; M],
        moves: &MoverMoves<M>,
        opp: &[u8; M],
        r2: u64,
        b: usize,
    ) {
        for (ch, mv) in children.iter_mut().zip(&moves.moves[..moves.len]) {
            let f = mv.sowing.finish(opp, self.rules);
            let (own_rank, own_sum) = if f.captured > 0 {
                (mv.rank_captured, mv.sum - 1)
            } else {
                (mv.rank, mv.sum)
            };
            let opp_sum = b + mv.to_opponent - f.captured.saturating_sub(1) as usize;
            ch.base = f.gained as i32;
            if f.game_over {
                ch.sign = 0;
                ch.base += own_sum as i32 - opp_sum as i32;
                continue;
            }
            let opp_rank = if mv.to_opponent == 0 && f.captured == 0 {
                r2
            } else {
                rank_and_sum(&f.opponent).0
            };
            ch.seeds = self.k - f.gained as usize;
            let (sign, a, r1, r2) = if f.extra_turn {
                (1, own_sum, own_rank, opp_rank)
            } else {
                (-1, opp_sum, opp_rank, own_rank)
            };
            ch.sign = sign;
            if ch.seeds < self.k {
                let table = self.m_tables[ch.seeds].expect("smaller tables are built first");
                ch.index = table.indexer().offset_rank(a, r1, r2);
                table.prefetch_start(ch.index);
            } else {
                ch.index = self.indexer.offset_rank(a, r1, r2);
                prefetch(self.shares.as_ptr().wrapping_add(ch.index as usize) as *const u8);
            }
        }
    }

    /// Prefetch the codes of the `n` located children in smaller tables
    /// (reads their directory entries, prefetched by [`Layer::locate`]).
    #[inline]
    fn prefetch_codes(&self, children: &[Child; M], n: usize) {
        for ch in &children[..n] {
            if ch.sign != 0 && ch.seeds < self.k {
                let table = self.m_tables[ch.seeds].expect("smaller tables are built first");
                table.prefetch_code(ch.index);
            }
        }
    }

    /// Value (mover minus opponent, seeds in play only) of a position from
    /// its `n` located children.
    #[inline]
    fn evaluate(&self, children: &[Child; M], n: usize) -> i32 {
        let mut best = i32::MIN;
        for ch in &children[..n] {
            let v = if ch.sign == 0 {
                ch.base
            } else {
                ch.base + ch.sign * self.child_value(ch)
            };
            best = best.max(v);
        }
        best
    }

    /// Value of a non-terminal child.
    #[inline]
    fn child_value(&self, ch: &Child) -> i32 {
        if ch.seeds < self.k {
            let table = self.m_tables[ch.seeds].expect("smaller tables are built first");
            return table.value(ch.index);
        }
        let j = self.shares[ch.index as usize].load(Ordering::Relaxed);
        assert!(
            j != UNKNOWN,
            "internal error: a same-table child was not computed before its parent"
        );
        2 * j as i32 - self.k as i32
    }
}

/// Total distance of a row's seeds to their owner's store (a seed in pit i
/// of m is m - i pits away).
fn distance(row: &[u8]) -> usize {
    let m = row.len();
    row.iter()
        .enumerate()
        .map(|(i, &x)| (m - i) * x as usize)
        .sum()
}
