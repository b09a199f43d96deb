//! Cross-checking a Kalah table against the solver: sampled entries of
//! table `k` are solved from scratch by the MTD(f) search
//! ([`crate::search::solve`]), which probes the tables only up to a smaller
//! seed count, and the two values must agree. The builder and the search
//! share only the rules and the smaller tables, so this checks the large
//! tables against the values of the small ones along whole lines of play,
//! where [`crate::tablebase::verify`] checks one step (an entry against its
//! children).

use crate::clock::Instant;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use rand::Rng;
use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::kalah::rules::KalahRules;
use crate::kalah::verify::position_at;
use crate::progress::{Event, Observer};
use crate::search::{solve, SolveOptions};
use crate::tablebase::verify::{check_seeds, Mismatch};
use crate::tablebase::TableSet;

/// What to cross-check.
#[derive(Clone, Debug)]
pub struct CrossCheck {
    /// The table checked (its seeds).
    pub seeds: usize,
    /// The search probes the tables only up to this many seeds in play
    /// (smaller than [`CrossCheck::seeds`]).
    pub probe_seeds: usize,
    /// Entries drawn at random (at least 1).
    pub sample: u64,
    /// Seed of the draw.
    pub seed: u64,
    /// A solve that takes longer is abandoned and counted as skipped.
    pub limit: Duration,
    /// Transposition table of each solve, in mebibytes.
    pub tt_mb: usize,
}

/// Result of a cross-check.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CrossCheckReport {
    /// The game.
    pub game: String,
    /// The rule set.
    pub rules: String,
    /// Pits per side.
    pub pits: usize,
    /// Seeds of the table checked.
    pub seeds: usize,
    /// Largest table the search probed.
    pub probe_seeds: usize,
    /// Entries in the table.
    pub positions: u64,
    /// Entries drawn.
    pub sampled: u64,
    /// Entries solved within the limit and compared.
    pub checked: u64,
    /// Entries whose solve hit the time limit (not compared).
    pub skipped: u64,
    /// Entries whose stored value differs from the solver's.
    pub mismatches: u64,
    /// Nodes searched over all solves.
    pub nodes: u64,
    /// Seconds per solve limit.
    pub limit_seconds: f64,
    /// The first mismatches found (at most 20; `derived` is the solver's
    /// value).
    pub examples: Vec<Mismatch>,
}

impl CrossCheckReport {
    /// Whether every compared entry agreed and at least one was compared.
    pub fn is_sound(&self) -> bool {
        self.mismatches == 0 && self.checked > 0
    }
}

/// Cross-check table `check.seeds` of `set` against the solver with the
/// tables probed up to `check.probe_seeds` (see the module documentation).
/// The sampled solves run in parallel, one thread each.
pub fn cross_check(
    set: &TableSet<KalahRules>,
    check: &CrossCheck,
    progress: &Observer,
) -> Result<CrossCheckReport> {
    let k = check.seeds;
    check.validate()?;
    let table = set.table(k).ok_or_else(|| Error::MissingTable {
        path: set.spec(k).path(set.dir()),
        table: set.spec(k).label(),
    })?;
    let n = table.len();
    let draws = check.draws(n);
    let tally = Tally::start(check, draws.len(), progress);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    draws.par_iter().for_each(|&index| {
        let pos = position_at(set, k, index);
        let options = SolveOptions {
            rules: set.game(),
            tt_mb: check.tt_mb,
            max_table_seeds: Some(check.probe_seeds),
            threads: 1,
            id_step: 0,
            deadline: Some(Instant::now() + check.limit),
            ..SolveOptions::default()
        };
        match solve(&pos, Some(set), &options) {
            Ok(sol) => tally.record(
                index,
                table.value(index),
                sol.exact.then_some(sol.value),
                sol.stats.nodes,
                || pos.to_string(),
            ),
            Err(e) => {
                failure
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                tally.advance();
            }
        }
    });
    progress.event(&Event::Finish);
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(tally.report(
        crate::game::Game::name(set.game()),
        set.game().name(),
        set.pits(),
        check,
        n,
    ))
}

impl CrossCheck {
    /// Whether the arguments make a check: a table that can exist, a
    /// sample of at least one entry, and smaller tables to probe.
    pub(crate) fn validate(&self) -> Result<()> {
        check_seeds(self.seeds)?;
        if self.sample == 0 {
            return Err(Error::Unsupported(
                "a sample of 0 entries checks nothing: sample at least 1 entry".into(),
            ));
        }
        if self.probe_seeds >= self.seeds {
            return Err(Error::Unsupported(format!(
                "the search may probe tables up to {} seeds, not {} (the table checked): \
                 give it smaller tables",
                self.seeds - 1,
                self.probe_seeds
            )));
        }
        Ok(())
    }

    /// The entries drawn from a table of `n` (with repetition, from the
    /// check's seed and the table's seeds).
    pub(crate) fn draws(&self, n: u64) -> Vec<u64> {
        let mut rng = crate::rng::seeded(self.seed ^ self.seeds as u64);
        (0..self.sample).map(|_| rng.gen_range(0..n)).collect()
    }
}

/// The counts of a cross-check under way, shared by its threads.
pub(crate) struct Tally<'a> {
    progress: &'a Observer,
    sampled: u64,
    done: AtomicU64,
    checked: AtomicU64,
    skipped: AtomicU64,
    bad: AtomicU64,
    nodes: AtomicU64,
    examples: Mutex<Vec<Mismatch>>,
}

impl<'a> Tally<'a> {
    /// Announce the check of `sampled` entries to `progress`.
    pub(crate) fn start(check: &CrossCheck, sampled: usize, progress: &'a Observer) -> Self {
        progress.event(&Event::Start {
            stage: &format!(
                "cross-check k={} by search (tables to {})",
                check.seeds, check.probe_seeds
            ),
            total: Some(sampled as u64),
        });
        Tally {
            progress,
            sampled: sampled as u64,
            done: AtomicU64::new(0),
            checked: AtomicU64::new(0),
            skipped: AtomicU64::new(0),
            bad: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
            examples: Mutex::new(Vec::new()),
        }
    }

    /// One entry searched: `stored` its table value, `derived` the
    /// search's (`None`: not finished within the limit, skipped),
    /// `position` its notation (asked only for a mismatch).
    pub(crate) fn record(
        &self,
        index: u64,
        stored: i32,
        derived: Option<i32>,
        nodes: u64,
        position: impl FnOnce() -> String,
    ) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        match derived {
            None => {
                self.skipped.fetch_add(1, Ordering::Relaxed);
            }
            Some(derived) => {
                self.checked.fetch_add(1, Ordering::Relaxed);
                if stored != derived {
                    self.bad.fetch_add(1, Ordering::Relaxed);
                    let mut ex = self.examples.lock().unwrap_or_else(|e| e.into_inner());
                    if ex.len() < 20 {
                        ex.push(Mismatch {
                            index,
                            position: position(),
                            stored,
                            derived,
                        });
                    }
                }
            }
        }
        self.advance();
    }

    /// One more entry done (recorded or failed).
    pub(crate) fn advance(&self) {
        self.progress
            .advance(self.done.fetch_add(1, Ordering::Relaxed) + 1);
    }

    /// The report of the check of a table of `positions` entries.
    pub(crate) fn report(
        self,
        game: &str,
        rules: &str,
        pits: usize,
        check: &CrossCheck,
        positions: u64,
    ) -> CrossCheckReport {
        let mut examples = self
            .examples
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        examples.sort_by_key(|m| m.index);
        CrossCheckReport {
            game: game.to_string(),
            rules: rules.to_string(),
            pits,
            seeds: check.seeds,
            probe_seeds: check.probe_seeds,
            positions,
            sampled: self.sampled,
            checked: self.checked.into_inner(),
            skipped: self.skipped.into_inner(),
            mismatches: self.bad.into_inner(),
            nodes: self.nodes.into_inner(),
            limit_seconds: check.limit.as_secs_f64(),
            examples,
        }
    }
}
