//! The Vai Lung Thlan table builder: retrograde analysis of each table,
//! one score threshold at a time.
//!
//! A move either captures (the child has fewer seeds on the board: a
//! smaller, finished table, so the move's value is known: an *exit*) or
//! captures nothing (a *quiet* move: the child is in the same table, from
//! the opponent's view, or from the mover's own view when the opponent is
//! left without seeds and passes). Quiet moves can go round cycles, and
//! endless play is worth 0.
//!
//! For each threshold `t = 1, 2, ...` the builder finds, from the exits
//! backwards over the quiet moves (a predecessor list built once), the
//! boards whose mover can force a result `>= t` and those where the
//! opponent can force `<= -t` (the classic win/loss retrograde with
//! move counters). A board's value is the largest `t` it wins, or minus
//! the largest it loses, or 0. Thresholds stop once none is decided.
//!
//! The forward pass runs on every core (rayon); the propagation is
//! sequential. Memory is about `6m + 8` bytes a board while a table is
//! built: meant for the small boards whose tables fit.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::error::Result;
use crate::family::Rules;
use crate::kalah::position::Position;
use crate::progress::{Event, Observer};
use crate::side::Side;
use crate::sow::MAX_PITS;
use crate::tablebase::TableSet;
use crate::tables::TableSpec;
use crate::vai_lung_thlan::{sow_and_capture, VaiLungThlan};

/// No exit in this move slot.
const NO_EXIT: i8 = i8::MIN;
/// No quiet move in this move slot.
const NO_EDGE: u32 = u32::MAX;
/// The bit of a quiet edge that says the same player moves again.
const SAME: u32 = 1 << 31;

/// Estimated peak memory of building tables 1..=`max_seeds` of `pits`
/// pits: the working arrays of the largest table and the packed smaller
/// ones.
pub fn estimate_peak_memory(pits: usize, max_seeds: usize) -> Result<u64> {
    let mut below = 0u64;
    let mut peak = 0u64;
    for k in 1..=max_seeds {
        let n = TableSpec {
            game: Rules::VaiLungThlan,
            pits,
            seeds: k,
        }
        .indexer()?
        .count();
        let packed = n * 6 / 8 + n / 64 + 4096;
        peak = peak.max((9 * pits as u64 + 8) * n + packed + below);
        below += packed;
    }
    Ok(peak + (64 << 20))
}

/// The board of table `k` at `index`: captures empty, South to move.
pub fn position_at(set: &TableSet<VaiLungThlan>, k: usize, index: u64) -> Position {
    let m = set.pits();
    let indexer = set.spec(k).indexer().expect("a table's indexer");
    let mut cells = [0u8; 2 * MAX_PITS + 2];
    let (mover, rest) = cells.split_at_mut(m);
    indexer.unrank(index, mover, &mut rest[1..m + 1]);
    Position::from_cells(&cells[..2 * m + 2], Side::South).expect("a table board")
}

/// The shares (`value + k`) of every board with `k` seeds on the board,
/// given the finished smaller tables in `set`.
pub(crate) fn build_layer(
    set: &TableSet<VaiLungThlan>,
    k: usize,
    progress: &Observer,
) -> Result<Vec<u8>> {
    let m = set.pits();
    let indexer = set.spec(k).indexer()?;
    let n = indexer.count() as usize;
    progress.event(&Event::Start {
        stage: &format!("k={k}"),
        total: Some(n as u64),
    });
    // Forward pass: each board's exits (their values) and quiet edges.
    let mut exits = vec![NO_EXIT; n * m];
    let mut edges = vec![NO_EDGE; n * m];
    exits
        .par_chunks_mut(m)
        .zip(edges.par_chunks_mut(m))
        .enumerate()
        .for_each(|(i, (ex, ed))| {
            let mut ring = [0u8; 2 * MAX_PITS];
            {
                let (mover, opponent) = ring.split_at_mut(m);
                indexer.unrank(i as u64, mover, &mut opponent[..m]);
            }
            for pit in 0..m {
                if ring[pit] == 0 {
                    continue;
                }
                let mut r = ring;
                let c = sow_and_capture(&mut r[..2 * m], pit);
                let (mover, opponent) = (&r[..m], &r[m..2 * m]);
                if c > 0 {
                    let child = set.rows_value(opponent, mover).expect("smaller tables");
                    ex[pit] = (c as i32 - child) as i8;
                } else if opponent.iter().all(|&x| x == 0) {
                    let j = indexer.rank(mover, opponent).expect("same table");
                    ed[pit] = j as u32 | SAME;
                } else {
                    ed[pit] = indexer.rank(opponent, mover).expect("same table") as u32;
                }
            }
        });
    let moves: Vec<u8> = exits
        .par_chunks(m)
        .zip(edges.par_chunks(m))
        .map(|(ex, ed)| {
            (0..m)
                .filter(|&p| ex[p] != NO_EXIT || ed[p] != NO_EDGE)
                .count() as u8
        })
        .collect();
    // Predecessor lists of the quiet edges (compressed rows).
    progress.event(&Event::Phase {
        what: "predecessors",
    });
    let counts: Vec<AtomicU32> = (0..n + 1).map(|_| AtomicU32::new(0)).collect();
    edges.par_iter().filter(|&&e| e != NO_EDGE).for_each(|&e| {
        counts[(e & !SAME) as usize + 1].fetch_add(1, Ordering::Relaxed);
    });
    let mut starts: Vec<u32> = counts.into_iter().map(AtomicU32::into_inner).collect();
    for i in 0..n {
        starts[i + 1] += starts[i];
    }
    let mut preds = vec![0u32; starts[n] as usize];
    let mut fill = starts.clone();
    for (slot, &e) in edges.iter().enumerate() {
        if e != NO_EDGE {
            let child = (e & !SAME) as usize;
            preds[fill[child] as usize] = (slot / m) as u32 | (e & SAME);
            fill[child] += 1;
        }
    }
    drop(fill);
    drop(edges);
    // Thresholds.
    let mut values = vec![0i8; n];
    let mut status = vec![0u8; n];
    let mut counter = vec![0u8; n];
    let mut queue: Vec<u32> = Vec::new();
    for t in 1..=k as i32 {
        progress.event(&Event::Phase {
            what: &format!("threshold {t}"),
        });
        queue.clear();
        for i in 0..n {
            let ex = &exits[i * m..(i + 1) * m];
            let mut left = moves[i];
            let mut win = false;
            for &e in ex {
                if e != NO_EXIT {
                    if e as i32 >= t {
                        win = true;
                    } else if e as i32 <= -t {
                        left -= 1;
                    }
                }
            }
            counter[i] = left;
            status[i] = if win {
                WIN
            } else if left == 0 {
                LOSS
            } else {
                0
            };
            if status[i] != 0 {
                queue.push(i as u32);
            }
        }
        let mut decided = 0usize;
        while let Some(c) = queue.pop() {
            decided += 1;
            let c = c as usize;
            let won = status[c] == WIN;
            for &p in &preds[starts[c] as usize..starts[c + 1] as usize] {
                let same = p & SAME != 0;
                let p = (p & !SAME) as usize;
                if status[p] != 0 {
                    continue;
                }
                // Good for p's mover: the child won by the same player, or
                // lost by the opponent.
                if won == same {
                    status[p] = WIN;
                    queue.push(p as u32);
                } else {
                    counter[p] -= 1;
                    if counter[p] == 0 {
                        status[p] = LOSS;
                        queue.push(p as u32);
                    }
                }
            }
        }
        if decided == 0 {
            break;
        }
        for i in 0..n {
            match status[i] {
                WIN => values[i] = t as i8,
                LOSS => values[i] = -t as i8,
                _ => {}
            }
        }
        progress.advance((n as u64 * t as u64 / k as u64).min(n as u64));
    }
    progress.event(&Event::Finish);
    Ok(values
        .iter()
        .map(|&v| (v as i32 + k as i32) as u8)
        .collect())
}

const WIN: u8 = 1;
const LOSS: u8 = 2;
