//! Re-derive table entries from their children and report mismatches.
//!
//! Each checked entry is recomputed one ply deep: the position is unranked,
//! every legal move is played with [`Position::play`], and the children's
//! values come from the tables (smaller ones, or the same table for moves
//! that keep every seed in play). A sound table is the unique fixpoint of
//! this check because the Kalah game graph has no cycle.

use crate::progress::{Event, Observer};
use crate::side::Side;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::error::Result;
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::kalah::tables::Tablebase;
pub use crate::tables::verify::Mismatch;

/// Result of a verification.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VerifyReport {
    /// Pits per side.
    pub pits: usize,
    /// Seeds in play.
    pub seeds: usize,
    /// Positions in the table.
    pub positions: u64,
    /// Entries checked.
    pub checked: u64,
    /// Number of mismatches.
    pub mismatches: u64,
    /// The first mismatches found (at most 20).
    pub examples: Vec<Mismatch>,
}

/// The position of table `k` at `index`, stores empty, South to move.
pub fn position_at(tb: &Tablebase, k: usize, index: u64) -> Position {
    let m = tb.pits();
    let table = tb.table(k).expect("table loaded");
    let mut cells = vec![0u8; 2 * m + 2];
    let (mover, rest) = cells.split_at_mut(m);
    table.indexer().unrank(index, mover, &mut rest[1..m + 1]);
    Position::from_cells(&cells, Side::South).expect("valid position")
}

/// Value of the seeds in play of `pos` recomputed from its children's
/// table values.
pub fn derive(tb: &Tablebase, pos: &Position) -> Option<i32> {
    let moves = tb.move_values(pos)?;
    moves.iter().map(|mv| mv.value).max()
}

/// Check table `k` of the tablebase: every entry, or `sample` random ones
/// (drawn with `seed`).
pub fn verify_table(
    tb: &Tablebase,
    k: usize,
    sample: Option<u64>,
    seed: u64,
    progress: &Observer,
) -> Result<VerifyReport> {
    let table = tb.table(k).expect("table loaded");
    let n = table.len();
    let indices: Box<dyn Fn(u64) -> u64 + Sync> = match sample {
        Some(s) if s < n => {
            let draws: Vec<u64> = {
                let mut rng = rand::rngs::SmallRng::seed_from_u64(seed ^ k as u64);
                (0..s).map(|_| rng.gen_range(0..n)).collect()
            };
            Box::new(move |i| draws[i as usize])
        }
        _ => Box::new(|i| i),
    };
    let total = sample.map_or(n, |s| s.min(n));
    progress.event(&Event::Start {
        stage: &format!("verify k={k}"),
        total: Some(total),
    });
    let done = AtomicU64::new(0);
    let bad = AtomicU64::new(0);
    let examples = Mutex::new(Vec::new());
    (0..total).into_par_iter().for_each(|i| {
        let index = indices(i);
        let pos = position_at(tb, k, index);
        let stored = table.value(index);
        let derived = derive(tb, &pos).expect("children within the tables");
        if stored != derived {
            bad.fetch_add(1, Ordering::Relaxed);
            let mut ex = examples.lock().unwrap();
            if ex.len() < 20 {
                ex.push(Mismatch {
                    index,
                    position: pos.to_string(),
                    stored,
                    derived,
                });
            }
        }
        if i % 65536 == 0 {
            progress.advance(
                done.fetch_add(65536.min(total - i), Ordering::Relaxed) + 65536.min(total - i),
            );
        }
    });
    progress.event(&Event::Finish);
    let mut examples = examples.into_inner().unwrap();
    examples.sort_by_key(|m| m.index);
    Ok(VerifyReport {
        pits: tb.pits(),
        seeds: k,
        positions: n,
        checked: total,
        mismatches: bad.into_inner(),
        examples,
    })
}

/// Open the tables 1..=k of `dir` and check table k.
pub fn verify_kalah(
    dir: &Path,
    rules: KalahRules,
    pits: usize,
    k: usize,
    sample: Option<u64>,
    seed: u64,
    progress: &Observer,
) -> Result<VerifyReport> {
    crate::tables::verify::check_seeds(k)?;
    let tb = Tablebase::open(dir, rules, pits, k)?;
    verify_table(&tb, k, sample, seed, progress)
}
