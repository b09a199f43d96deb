//! The Ohvalhu table builder: level by level, as for Kalah.
//!
//! An Ohvalhu move either puts a seed into the mover's store (the child has
//! fewer seeds in play: a smaller, finished table) or keeps every seed in
//! the mover's row, moved to the right (the child is in the same table and
//! the seeds' total distance to their owners' stores is lower). So the
//! builder ranks the table's positions by that distance and fills them
//! level by level, each level in parallel (rayon), every same-table child
//! finished before its parent.
//!
//! Relay sowing depends on both rows, so unlike the Kalah builder this one
//! plays each move whole with [`ohvalhu_move`] on one position at a time:
//! simpler and slower, meant for the small boards whose tables fit.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use crate::error::Result;
use crate::family::Rules;
use crate::kalah::position::Position;
use crate::ohvalhu::{ohvalhu_move, Ohvalhu};
use crate::progress::{Event, Observer};
use crate::side::Side;
use crate::sow::MAX_PITS;
use crate::tablebase::TableSet;
use crate::tables::TableSpec;

const UNKNOWN: u8 = 0xff;

/// Estimated peak memory of building tables 1..=`max_seeds` of `pits`
/// pits: while table k is built, its shares (a byte each), its order and
/// levels (six bytes each), its packed form, and the smaller tables.
pub fn estimate_peak_memory(pits: usize, max_seeds: usize) -> Result<u64> {
    let mut below = 0u64;
    let mut peak = 0u64;
    for k in 1..=max_seeds {
        let n = TableSpec {
            game: Rules::Ohvalhu,
            pits,
            seeds: k,
        }
        .indexer()?
        .count();
        let packed = n * 5 / 8 + n / 64 + 4096;
        peak = peak.max(7 * n + packed + below);
        below += packed;
    }
    Ok(peak + (64 << 20))
}

/// The total distance of a row's seeds to the row owner's store.
fn distance(row: &[u8]) -> usize {
    let m = row.len();
    row.iter()
        .enumerate()
        .map(|(i, &c)| c as usize * (m - i))
        .sum()
}

/// The position of table `k` at `index`: stores empty, South to move.
pub fn position_at(set: &TableSet<Ohvalhu>, k: usize, index: u64) -> Position {
    let m = set.pits();
    let indexer = set.spec(k).indexer().expect("a table's indexer");
    let mut cells = [0u8; 2 * MAX_PITS + 2];
    let (mover, rest) = cells.split_at_mut(m);
    indexer.unrank(index, mover, &mut rest[1..m + 1]);
    Position::from_cells(&cells[..2 * m + 2], Side::South).expect("a table position")
}

/// The shares of every position with `k` seeds in play, given the finished
/// smaller tables in `set`.
pub(crate) fn build_layer(
    set: &TableSet<Ohvalhu>,
    k: usize,
    progress: &Observer,
) -> Result<Vec<u8>> {
    let m = set.pits();
    let indexer = set.spec(k).indexer()?;
    let count = indexer.count();
    progress.event(&Event::Start {
        stage: &format!("k={k}"),
        total: Some(count),
    });
    // Every position's level, then the positions sorted by level.
    let levels: Vec<u16> = (0..count)
        .into_par_iter()
        .map(|i| {
            let (mut mover, mut opponent) = ([0u8; MAX_PITS], [0u8; MAX_PITS]);
            indexer.unrank(i, &mut mover[..m], &mut opponent[..m]);
            (distance(&mover[..m]) + distance(&opponent[..m])) as u16
        })
        .collect();
    let top = levels.iter().copied().max().unwrap_or(0) as usize;
    let mut starts = vec![0usize; top + 2];
    for &l in &levels {
        starts[l as usize + 1] += 1;
    }
    for l in 0..=top {
        starts[l + 1] += starts[l];
    }
    let mut order = vec![0u32; count as usize];
    let mut next = starts.clone();
    for (i, &l) in levels.iter().enumerate() {
        order[next[l as usize]] = i as u32;
        next[l as usize] += 1;
    }
    drop(levels);
    let shares: Vec<AtomicU8> = (0..count).map(|_| AtomicU8::new(UNKNOWN)).collect();
    let done = AtomicU64::new(0);
    for l in 0..=top {
        order[starts[l]..starts[l + 1]]
            .par_chunks(256)
            .for_each(|chunk| {
                for &i in chunk {
                    let v = value_of(set, k, &indexer, &shares, i as u64);
                    shares[i as usize].store(((v + k as i32) / 2) as u8, Ordering::Relaxed);
                }
                let n = chunk.len() as u64;
                progress.advance(done.fetch_add(n, Ordering::Relaxed) + n);
            });
    }
    progress.event(&Event::Finish);
    Ok(shares.into_iter().map(AtomicU8::into_inner).collect())
}

/// The value of the seeds in play of table `k`'s position `i`, from its
/// children: in the smaller tables, or in `shares` (same table, lower
/// level, already filled).
fn value_of(
    set: &TableSet<Ohvalhu>,
    k: usize,
    indexer: &crate::tables::index::Indexer,
    shares: &[AtomicU8],
    i: u64,
) -> i32 {
    let m = set.pits();
    let n = 2 * m + 2;
    let mut cells = [0u8; 2 * MAX_PITS + 2];
    {
        let (mover, rest) = cells.split_at_mut(m);
        indexer.unrank(i, mover, &mut rest[1..m + 1]);
    }
    let mut best = i32::MIN;
    for pit in 0..m {
        if cells[pit] == 0 {
            continue;
        }
        let mut c = cells;
        let mv = ohvalhu_move(&mut c[..n], m, pit);
        let banked = c[m] as i32 - c[2 * m + 1] as i32;
        let v = if mv.game_over {
            banked
        } else {
            let (mover, opponent) = if mv.extra_turn {
                (&c[..m], &c[m + 1..2 * m + 1])
            } else {
                (&c[m + 1..2 * m + 1], &c[..m])
            };
            let child = rows_value(set, k, indexer, shares, mover, opponent);
            if mv.extra_turn {
                banked + child
            } else {
                banked - child
            }
        };
        best = best.max(v);
    }
    best
}

/// The value of a non-terminal board (mover row not empty) from the
/// smaller tables or this table's filled shares.
fn rows_value(
    set: &TableSet<Ohvalhu>,
    k: usize,
    indexer: &crate::tables::index::Indexer,
    shares: &[AtomicU8],
    mover: &[u8],
    opponent: &[u8],
) -> i32 {
    let a: usize = mover.iter().map(|&c| c as usize).sum();
    let b: usize = opponent.iter().map(|&c| c as usize).sum();
    debug_assert!(a > 0);
    if a + b < k {
        return set
            .rows_value(mover, opponent)
            .expect("smaller tables are loaded");
    }
    let j = shares[indexer.rank_with_sum(mover, opponent, a) as usize].load(Ordering::Relaxed);
    debug_assert_ne!(j, UNKNOWN, "a same-table child at a lower level");
    2 * j as i32 - k as i32
}
