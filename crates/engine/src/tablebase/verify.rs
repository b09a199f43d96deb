//! Checking a table of any game against its children: every entry (or a
//! random sample) must equal the best of its moves, valued from the tables
//! (the Bellman equation). For games with cycles a whole table is also
//! checked to be the right fixpoint ([`TableGame::forcing_check`]): a table whose
//! every entry satisfies the equation can still rest a value on a cycle.
//! The check shares no code with the builders but the rules.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rand::Rng;
use rayon::prelude::*;

use crate::error::{Error, Result};

use crate::progress::{Event, Observer};
use crate::tablebase::TableGame;
use crate::tablebase::TableSet;
use crate::tables::index::MAX_INDEX_SEEDS;

/// One entry whose stored value differs from the one re-derived.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Mismatch {
    /// Index in the table.
    pub index: u64,
    /// The position, in notation.
    pub position: String,
    /// Stored value (seeds in play).
    pub stored: i32,
    /// Re-derived value.
    pub derived: i32,
}

/// Result of checking one table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VerifyReport {
    /// The game.
    pub game: String,
    /// Pits per side.
    pub pits: usize,
    /// Seeds of the table.
    pub seeds: usize,
    /// Entries in the table.
    pub positions: u64,
    /// Entries whose Bellman equation was checked.
    pub checked: u64,
    /// Entries that differ from the best of their moves.
    pub mismatches: u64,
    /// Games with cycles: non-zero values not backed by a forcing strategy
    /// (resting on a cycle); `None` when the check was not run (a sample
    /// was checked, mismatches were found, or the game has no cycles).
    pub unforced: Option<u64>,
    /// Sweeps the forcing check took.
    pub sweeps: u32,
    /// The first problems found (at most 20).
    pub examples: Vec<Mismatch>,
}

impl VerifyReport {
    /// Whether the table passed every check that was run.
    pub fn is_sound(&self) -> bool {
        self.mismatches == 0 && self.unforced.unwrap_or(0) == 0
    }
}

/// Refuse a seed count no table has.
pub fn check_seeds(k: usize) -> Result<()> {
    if k == 0 || k > MAX_INDEX_SEEDS {
        return Err(Error::OutOfRange(format!(
            "no table holds {k} seeds: tables exist for 1 to {MAX_INDEX_SEEDS} seeds"
        )));
    }
    Ok(())
}

/// Check table `k` of `set`: every entry, or `sample` random ones (drawn
/// with `seed`), and on whole tables of games with cycles the forcing check.
pub fn verify<G: TableGame>(
    set: &TableSet<G>,
    k: usize,
    sample: Option<u64>,
    seed: u64,
    progress: &Observer,
) -> Result<VerifyReport> {
    check_seeds(k)?;
    if sample == Some(0) {
        return Err(Error::Unsupported(
            "a sample of 0 entries checks nothing: sample at least 1 entry, or check the whole table"
                .into(),
        ));
    }
    let table = set.table(k).ok_or_else(|| Error::MissingTable {
        path: set.spec(k).path(set.dir()),
        table: set.spec(k).label(),
    })?;
    let n = table.len();
    let draws: Option<Vec<u64>> = match sample {
        Some(s) if s < n => {
            let mut rng = crate::rng::seeded(seed ^ k as u64);
            Some((0..s).map(|_| rng.gen_range(0..n)).collect())
        }
        _ => None,
    };
    let total = draws.as_ref().map_or(n, |d| d.len() as u64);
    progress.event(&Event::Start {
        stage: &format!("verify k={k}"),
        total: Some(total),
    });
    progress.event(&Event::Phase { what: "bellman" });
    let done = AtomicU64::new(0);
    let bad = AtomicU64::new(0);
    let examples = Mutex::new(Vec::new());
    let note = |index: u64, position: String, stored: i32, derived: i32| {
        let mut ex = examples.lock().unwrap_or_else(|e| e.into_inner());
        if ex.len() < 20 {
            ex.push(Mismatch {
                index,
                position,
                stored,
                derived,
            });
        }
    };
    (0..total).into_par_iter().for_each(|i| {
        let index = draws.as_ref().map_or(i, |d| d[i as usize]);
        let (position, stored, derived) = G::check_entry(set, k, index);
        if stored != derived {
            bad.fetch_add(1, Ordering::Relaxed);
            note(index, position, stored, derived);
        }
        if i % 65536 == 0 {
            let step = 65536.min(total - i);
            progress.advance(done.fetch_add(step, Ordering::Relaxed) + step);
        }
    });
    let mismatches = bad.into_inner();
    let mut sweeps = 0;
    let mut unforced = None;
    if draws.is_none() && mismatches == 0 {
        progress.event(&Event::Phase { what: "forcing" });
        if let Some((unproved, s)) = G::forcing_check(set, k, progress) {
            for &index in unproved.iter().take(20) {
                let (position, stored, _) = G::check_entry(set, k, index);
                note(index, position, stored, 0);
            }
            unforced = Some(unproved.len() as u64);
            sweeps = s;
        }
    }
    progress.event(&Event::Finish);
    let mut examples = examples.into_inner().unwrap_or_else(|e| e.into_inner());
    examples.sort_by_key(|m| m.index);
    Ok(VerifyReport {
        game: set.game().name().to_string(),
        pits: set.pits(),
        seeds: k,
        positions: n,
        checked: total,
        mismatches,
        unforced,
        sweeps,
        examples,
    })
}
