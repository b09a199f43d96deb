//! The parallel Kalah table builder.
//!
//! Tables are filled from 1 seed upwards. A Kalah move either puts a seed in
//! the mover's store (the child has fewer seeds in play and is in a smaller,
//! finished table) or keeps every seed in the mover's row, moved to the
//! right (the child is in the same table). The second kind strictly lowers
//! the total distance of the seeds to their owners' stores, so the game graph
//! inside a table has no cycle.
//!
//! A table (or one group of its mover-sum blocks, see
//! [`super::partition`]) is filled in two passes over one byte per position:
//!
//! 1. **Smaller-table moves.** Every position gets the best value of its
//!    moves whose child is terminal or in a smaller, finished table; a
//!    position that also has same-table moves is flagged as partial. These
//!    positions are independent, so the pass goes in the order that keeps
//!    the children of consecutive positions on the same cache lines: by
//!    tiles of a few consecutive opponent rows (the child's mover row after
//!    a move that passes the turn is the parent's opponent row plus the
//!    seeds sown into it, so the children of one tile lie in a few short
//!    stretches of the smaller tables), every mover row against the tile.
//!    Extra-turn children keep the opponent row, so a tile's are adjacent
//!    too, and so are the writes.
//! 2. **Same-table moves.** Level by level of the seeds' total distance (a
//!    same-table move lowers it, so every same-table child is final before
//!    its parent), the flagged positions fold in their same-table children.
//!    A same-table child's mover row is the parent's opponent row, so the
//!    level's positions are visited opponent row by opponent row and those
//!    children lie in one short stretch of the table.
//!
//! In pass 1 the moves of a mover row are compiled once per tile
//! (`rows::RowPlan`): an extra turn's child is at a fixed start plus the
//! opponent row's rank, a sowing into the opponent's first pits at a start
//! plus a stride times the rank of the grown opponent row (computed once
//! per tile), a capture from the opposite pit; only moves that lap the
//! board or meet an empty opponent row are played in full. The smaller
//! tables that hold most children (k-1 and k-2) are decoded into memory
//! when the budget allows (`decode_below`).
//!
//! Both passes run with rayon and go through a software pipeline: the
//! children of a position are located (and the directory entries of their
//! chunks prefetched) several positions ahead, their codes prefetched one
//! position later, so that the cache misses of many look-ups overlap.
//! Shares are packed (about 3.8 bits, see [`crate::tables`]) when the table
//! is written.

use crate::tables::MAX_TABLE_PITS;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::kalah::rules::KalahRules;
use crate::progress::{Event, Observer};
use crate::tablebase::TableSet;
use crate::tables::index::{all_rows, rank_and_sum, rows};
use crate::tables::{prefetch, Table};

mod rows;
use rows::{Found, MoverMove, OpponentRow, RowPlan, StayMoves, NO_PIT};

/// Not computed yet (also: partial, no candidate yet).
const UNKNOWN: u8 = 0xff;
/// Flag of a share from pass 1 whose same-table moves are still to come.
const PARTIAL: u8 = 0x80;
/// The share bits of a partial entry with no candidate yet.
const NO_VALUE: u8 = 0x7f;

/// Everything the workers of one table (or group) share. `M` is the number
/// of pits per side, fixed at compile time so that the hot loops unroll.
struct Layer<'a, const M: usize> {
    m_tables: Vec<Option<&'a Table>>,
    k: usize,
    rules: KalahRules,
    /// `rows[s]`: every row of sum `s`, in rank order, flattened.
    rows: Vec<Vec<u8>>,
    /// `row_count[s]`: the number of rows of sum `s`.
    row_count: Vec<u64>,
    /// `local[a]`: where the block of mover sum `a` starts in `shares`
    /// (`u64::MAX`: not built here).
    local: Vec<u64>,
    shares: Vec<AtomicU8>,
}

/// Compute the shares of every position with `k` seeds in play, given the
/// finished tables for fewer seeds in `tb`.
pub(crate) fn build_layer(
    tb: &TableSet<KalahRules>,
    k: usize,
    decoded: &[Option<Table>],
    progress: &Observer,
) -> Result<Vec<u8>> {
    let indexer = tb.spec(k).indexer()?;
    let sums: Vec<usize> = (0..=k).filter(|&a| indexer.holds_mover_sum(a)).collect();
    build_blocks(tb, k, &sums, decoded, &format!("k={k}"), progress)
}

/// The `count` largest tables below `k` of `tb` decoded into memory (so
/// that a look-up is one read), indexed by seeds (`None`: read `tb`'s).
pub(crate) fn decode_below(
    tb: &TableSet<KalahRules>,
    k: usize,
    count: usize,
) -> Result<Vec<Option<Table>>> {
    let mut out = Vec::with_capacity(k);
    for kk in 0..k {
        if kk + count >= k && tb.table(kk).is_some_and(|t| !t.is_empty()) {
            let mut t = Table::open(tb.dir(), tb.spec(kk))?;
            t.load_into_memory()?;
            out.push(Some(t));
        } else {
            out.push(None);
        }
    }
    Ok(out)
}

/// Compute the shares of the blocks of table `k` whose mover row holds one
/// of `sums` seeds (a set closed under `a -> k - a` for the sums the table
/// holds), concatenated in increasing `a`: with every held sum, the whole
/// table. `stage` names the work in the progress events.
pub(crate) fn build_blocks(
    tb: &TableSet<KalahRules>,
    k: usize,
    sums: &[usize],
    decoded: &[Option<Table>],
    stage: &str,
    progress: &Observer,
) -> Result<Vec<u8>> {
    match tb.pits() {
        1 => fill::<1>(tb, k, sums, decoded, stage, progress),
        2 => fill::<2>(tb, k, sums, decoded, stage, progress),
        3 => fill::<3>(tb, k, sums, decoded, stage, progress),
        4 => fill::<4>(tb, k, sums, decoded, stage, progress),
        5 => fill::<5>(tb, k, sums, decoded, stage, progress),
        6 => fill::<6>(tb, k, sums, decoded, stage, progress),
        // The table set checked the width when it was made.
        m => Err(Error::Internal(format!(
            "a table of {m} pits per side reached the builder, which builds 1 to \
             {MAX_TABLE_PITS} pits per side"
        ))),
    }
}

/// Opponent rows per tile of pass 1: the children of a tile's positions in
/// the smaller tables (a few stretches of about `rows(a)` entries per
/// opponent row) should stay in the core's cache while every mover row
/// goes by.
fn tile_rows(mover_rows: u64) -> u64 {
    ((1 << 20) / (4 * mover_rows.max(1))).clamp(4, 64)
}

/// Mover rows per work item of pass 1.
const ITEM_MOVER_ROWS: u64 = 4096;
/// Positions per work item of pass 2 (about).
const ITEM_POSITIONS: usize = 8192;

fn fill<const M: usize>(
    tb: &TableSet<KalahRules>,
    k: usize,
    sums: &[usize],
    decoded: &[Option<Table>],
    stage: &str,
    progress: &Observer,
) -> Result<Vec<u8>> {
    let indexer = tb.spec(k).indexer()?;
    let mut local = vec![u64::MAX; k + 1];
    let mut count = 0u64;
    for &a in sums {
        debug_assert!(indexer.holds_mover_sum(a));
        debug_assert!(!indexer.holds_mover_sum(k - a) || sums.contains(&(k - a)));
        local[a] = count;
        count += indexer.block_offset(a + 1) - indexer.block_offset(a);
    }
    let layer = Layer::<M> {
        m_tables: (0..k)
            .map(|kk| decoded.get(kk).and_then(Option::as_ref).or(tb.table(kk)))
            .collect(),
        k,
        rules: tb.game(),
        rows: (0..=k).map(|s| all_rows(M, s)).collect(),
        row_count: (0..=k).map(|s| rows(M, s)).collect(),
        local,
        shares: (0..count).map(|_| AtomicU8::new(UNKNOWN)).collect(),
    };
    progress.event(&Event::Start {
        stage,
        total: Some(2 * count),
    });
    let done = AtomicU64::new(0);
    let report = |n: u64| progress.advance(done.fetch_add(n, Ordering::Relaxed) + n);

    // Pass 1: tiles of opponent rows, every mover row against each.
    let mut items: Vec<(u32, u64, u64, u64, u64)> = Vec::new();
    for &a in sums {
        let (na, nb) = (layer.row_count[a], layer.row_count[k - a]);
        let tile = tile_rows(na);
        for y0 in (0..nb).step_by(tile as usize) {
            for x0 in (0..na).step_by(ITEM_MOVER_ROWS as usize) {
                let (y1, x1) = ((y0 + tile).min(nb), (x0 + ITEM_MOVER_ROWS).min(na));
                items.push((a as u32, x0, x1, y0, y1));
            }
        }
    }
    items.par_iter().for_each(|&(a, x0, x1, y0, y1)| {
        layer.pass1(a as usize, x0, x1, y0, y1);
        report((x1 - x0) * (y1 - y0));
    });

    // Pass 2, level by level of total distance. groups[s][d]: ranks of the
    // rows of sum s whose seeds are at total distance d from their store;
    // movers[s][d]: those of them with a move that may stay in the row.
    let stay: Vec<Option<StayMoves>> = (0..=k)
        .map(|s| {
            (layer.local[s] != u64::MAX).then(|| StayMoves::new::<M>(&layer.rows[s], layer.rules))
        })
        .collect();
    let mut groups: Vec<Vec<Vec<u32>>> = vec![Vec::new(); k + 1];
    let mut movers: Vec<Vec<Vec<u32>>> = vec![Vec::new(); k + 1];
    for s in 0..=k {
        groups[s] = vec![Vec::new(); s * M + 1];
        movers[s] = vec![Vec::new(); s * M + 1];
        for (r, row) in layer.rows[s].chunks_exact(M).enumerate() {
            let d = distance(row);
            groups[s][d].push(r as u32);
            if stay[s]
                .as_ref()
                .is_some_and(|st| !st.of(r as u64).is_empty())
            {
                movers[s][d].push(r as u32);
            }
        }
    }
    let mut items: Vec<(u32, &[u32], &[u32], u64)> = Vec::new();
    for level in 0..=k * M {
        items.clear();
        for &a in sums {
            let b = k - a;
            for d1 in level.saturating_sub(b * M)..=(a * M).min(level) {
                let (g1, g2) = (&movers[a][d1], &groups[b][level - d1]);
                let all1 = groups[a][d1].len();
                if g2.is_empty() || all1 == 0 {
                    continue;
                }
                let per = (ITEM_POSITIONS / all1).max(1);
                for part in g2.chunks(per) {
                    items.push((a as u32, g1, part, (all1 * part.len()) as u64));
                }
            }
        }
        items.par_iter().for_each(|&(a, g1, g2, n)| {
            if !g1.is_empty() && layer.local[k - a as usize] != u64::MAX {
                let st = stay[a as usize].as_ref().expect("a held sum");
                layer.pass2(a as usize, g1, g2, st);
            }
            report(n);
        });
    }
    progress.event(&Event::Finish);
    Ok(layer.shares.into_iter().map(AtomicU8::into_inner).collect())
}

/// Positions in flight in the builder's software pipeline.
const PIPELINE: usize = 8;
/// How far ahead the pipeline locates children.
const AHEAD: usize = PIPELINE - 1;

/// One child of a position, between locating it and reading its value.
#[derive(Clone, Copy, Default)]
struct Child<'a> {
    /// Store difference the move made (mover's view), incl. the final sweep.
    base: i32,
    /// 0: the game ended; 1: extra turn (add the child's value); -1: the
    /// turn passed (subtract it).
    sign: i32,
    /// The smaller table of the child (`None`: the table being built).
    table: Option<&'a Table>,
    index: u64,
}

/// One position in the pipeline: its located children and where its share
/// goes.
#[derive(Clone, Copy)]
struct Slot<'a, const M: usize> {
    children: [Child<'a>; M],
    len: usize,
    /// Index of the position in the layer's shares.
    dest: usize,
    /// Pass 1: the position also has same-table moves.
    partial: bool,
}

impl<const M: usize> Default for Slot<'_, M> {
    fn default() -> Self {
        Slot {
            children: [Child::default(); M],
            len: 0,
            dest: 0,
            partial: false,
        }
    }
}

impl<'a, const M: usize> Layer<'a, M> {
    /// Row `r` of sum `s`.
    #[inline(always)]
    fn row(&self, s: usize, r: u64) -> &[u8; M] {
        let r = r as usize;
        self.rows[s][r * M..(r + 1) * M].try_into().unwrap()
    }

    /// Pass 1 over mover rows `x0..x1` (sum `a`) against opponent rows
    /// `y0..y1`: the value of the moves into smaller tables or to the end.
    fn pass1(&self, a: usize, x0: u64, x1: u64, y0: u64, y1: u64) {
        let b = self.k - a;
        let nb = self.row_count[b];
        // The tile's opponent rows with seeds sown into their first pits.
        let opps: Vec<OpponentRow<M>> =
            (y0..y1).map(|y| OpponentRow::new(self.row(b, y))).collect();
        let total = (x1 - x0) * (y1 - y0);
        let mut ring = [Slot::<M>::default(); PIPELINE];
        let (mut x, mut y) = (x0, y0);
        let plan_of = |x: u64| RowPlan::new(self.row(a, x), b, self.k, self.rules, &self.m_tables);
        let mut plan = plan_of(x);
        for p in 0..total + AHEAD as u64 {
            if p < total {
                let slot = &mut ring[p as usize % PIPELINE];
                slot.dest = (self.local[a] + x * nb + y) as usize;
                self.locate_smaller(slot, &plan, y, &opps[(y - y0) as usize], b);
                y += 1;
                if y == y1 {
                    (x, y) = (x + 1, y0);
                    if x < x1 {
                        plan = plan_of(x);
                    }
                }
            }
            if p >= 1 && p - 1 < total {
                self.prefetch_codes(&ring[(p - 1) as usize % PIPELINE]);
            }
            if p >= AHEAD as u64 {
                let slot = &ring[(p - AHEAD as u64) as usize % PIPELINE];
                let best = self.evaluate(slot);
                debug_assert!(best > i32::MIN || slot.partial, "a position without moves");
                let j = if best == i32::MIN {
                    NO_VALUE
                } else {
                    ((best + self.k as i32) / 2) as u8
                };
                let share = if slot.partial { PARTIAL | j } else { j };
                self.shares[slot.dest].store(share, Ordering::Relaxed);
            }
        }
    }

    /// Pass 2 for the mover rows `g1` (sum `a`, with moves that may stay in
    /// the row, listed in `stay`) against the opponent rows `g2`, opponent
    /// row by opponent row: fold the same-table children into the partial
    /// shares.
    fn pass2(&self, a: usize, g1: &[u32], g2: &[u32], stay: &StayMoves) {
        let (b, na, nb) = (self.k - a, self.row_count[a], self.row_count[self.k - a]);
        let total = g1.len() * g2.len();
        let mut ring = [Slot::<M>::default(); PIPELINE];
        let (mut i, mut j) = (0, 0);
        for p in 0..total + AHEAD {
            if p < total {
                let slot = &mut ring[p % PIPELINE];
                let (r1, r2) = (g1[i] as u64, g2[j] as u64);
                slot.dest = (self.local[a] + r1 * nb + r2) as usize;
                prefetch(self.shares.as_ptr().wrapping_add(slot.dest) as *const u8);
                let opp = self.row(b, r2);
                slot.len = 0;
                for &(rank, pit) in stay.of(r1) {
                    if pit == NO_PIT || opp[pit as usize] == 0 {
                        // The opponent row moves against the mover's row
                        // after sowing.
                        let index = self.local[b] + r2 * na + rank as u64;
                        prefetch(self.shares.as_ptr().wrapping_add(index as usize) as *const u8);
                        slot.children[slot.len] = Child {
                            base: 0,
                            sign: -1,
                            table: None,
                            index,
                        };
                        slot.len += 1;
                    }
                }
                i += 1;
                if i == g1.len() {
                    (i, j) = (0, j + 1);
                }
            }
            if p >= AHEAD {
                let slot = &ring[(p - AHEAD) % PIPELINE];
                let share = self.shares[slot.dest].load(Ordering::Relaxed);
                if share & PARTIAL == 0 {
                    continue;
                }
                let partial = share & !PARTIAL;
                let stored = if partial == NO_VALUE {
                    i32::MIN
                } else {
                    2 * partial as i32 - self.k as i32
                };
                let best = stored.max(self.evaluate(slot));
                assert!(best > i32::MIN, "internal error: a position without moves");
                self.shares[slot.dest].store(((best + self.k as i32) / 2) as u8, Ordering::Relaxed);
            }
        }
    }

    /// Locate into `slot` the children of the position made of the mover
    /// row of `plan` and the opponent row `y` (`b` seeds; `grown`: its ranks
    /// with seeds sown into its first pits) that are terminal or in smaller
    /// tables, their chunks' directory entries prefetched; flag the slot
    /// when the position also has same-table moves.
    #[inline]
    fn locate_smaller(
        &self,
        slot: &mut Slot<'a, M>,
        plan: &RowPlan<'a, M>,
        y: u64,
        opp: &OpponentRow<M>,
        b: usize,
    ) {
        slot.len = 0;
        slot.partial = plan.stays;
        for c in &plan.compiled[..plan.len] {
            let ch = &mut slot.children[slot.len];
            match c.found {
                Found::Terminal => {
                    *ch = Child {
                        base: c.base,
                        sign: 0,
                        table: None,
                        index: 0,
                    }
                }
                Found::Extra { table, start } => {
                    let index = start + y;
                    table.prefetch_start(index);
                    *ch = Child {
                        base: c.base,
                        sign: 1,
                        table: Some(table),
                        index,
                    }
                }
                Found::Pass {
                    table,
                    start,
                    stride,
                    r,
                } => {
                    let index = start + opp.grown[r] * stride;
                    table.prefetch_start(index);
                    *ch = Child {
                        base: c.base,
                        sign: -1,
                        table: Some(table),
                        index,
                    }
                }
                Found::Capture { pit, rank, sum } => {
                    let across = opp.pits[pit] as usize;
                    if across == 0 && self.rules == KalahRules::CaptureNeedsOpposite {
                        slot.partial = true;
                        continue;
                    }
                    let gained = across + 1;
                    let opp_sum = b - across;
                    if self.rules.ends(false, sum == 0, opp_sum == 0) {
                        *ch = Child {
                            base: (gained + sum) as i32 - opp_sum as i32,
                            sign: 0,
                            table: None,
                            index: 0,
                        };
                    } else {
                        let table =
                            self.m_tables[self.k - gained].expect("smaller tables are built first");
                        let index = table.indexer().offset_rank(opp_sum, opp.emptied[pit], rank);
                        table.prefetch_start(index);
                        *ch = Child {
                            base: gained as i32,
                            sign: -1,
                            table: Some(table),
                            index,
                        };
                    }
                }
                Found::General(i) => {
                    if !self.locate_general(ch, &plan.moves.moves[i], &opp.pits, y, b) {
                        slot.partial = true;
                        continue;
                    }
                }
            }
            slot.len += 1;
        }
    }

    /// Locate into `ch` the child of move `mv` against the opponent row
    /// `opp` (rank `r2`, `b` seeds), in full; false when the child is in the
    /// table being built.
    #[inline]
    fn locate_general(
        &self,
        ch: &mut Child<'a>,
        mv: &MoverMove<M>,
        opp: &[u8; M],
        r2: u64,
        b: usize,
    ) -> bool {
        let f = mv.sowing.finish(opp, self.rules);
        if f.gained == 0 && !f.game_over {
            return false;
        }
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
            ch.table = None;
            return true;
        }
        let opp_rank = if mv.to_opponent == 0 && f.captured == 0 {
            r2
        } else {
            rank_and_sum(&f.opponent).0
        };
        let (sign, a, r1, r2) = if f.extra_turn {
            (1, own_sum, own_rank, opp_rank)
        } else {
            (-1, opp_sum, opp_rank, own_rank)
        };
        ch.sign = sign;
        let table =
            self.m_tables[self.k - f.gained as usize].expect("smaller tables are built first");
        ch.table = Some(table);
        ch.index = table.indexer().offset_rank(a, r1, r2);
        table.prefetch_start(ch.index);
        true
    }

    /// Prefetch the codes of the located children in smaller tables (reads
    /// their directory entries, prefetched by [`Layer::locate_smaller`]).
    #[inline]
    fn prefetch_codes(&self, slot: &Slot<M>) {
        for ch in &slot.children[..slot.len] {
            if let Some(t) = ch.table {
                t.prefetch_code(ch.index);
            }
        }
    }

    /// Best value (mover minus opponent, seeds in play only) over the
    /// located children (`i32::MIN` when there are none).
    #[inline]
    fn evaluate(&self, slot: &Slot<M>) -> i32 {
        let mut best = i32::MIN;
        for ch in &slot.children[..slot.len] {
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
        if let Some(t) = ch.table {
            return t.value(ch.index);
        }
        let j = self.shares[ch.index as usize].load(Ordering::Relaxed);
        assert!(
            j & PARTIAL == 0,
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
