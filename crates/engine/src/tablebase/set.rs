//! One table set type for every game: the tables of one rule set and board
//! width for 1..=K seeds, opened by memory map (or built on demand), and
//! the position-level look-ups on them.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

use crate::game::Board;
use crate::tablebase::build::{build, BuildOptions};
use crate::tablebase::TableGame;

use crate::progress::{Event, Observer};
use crate::tablebase::{Line, MoveValue};
use crate::tables::driver::{default_memory_budget, BuildLimits};
use crate::tables::index::MAX_INDEX_SEEDS;
use crate::tables::{Table, TableSpec};

/// Whether missing tables may be built when a set is opened.
#[derive(Clone, Debug)]
pub enum OnDemand {
    /// Never build: a missing table is an error.
    Never,
    /// Build the missing tables when they hold at most this many entries
    /// in all.
    UpTo(u64),
}

/// The largest build [`TableSet::open_or_build`] makes by default: 300
/// million entries (the 6-pit Kalah tables up to 20 seeds, about 15 s on
/// two cores).
pub const DEFAULT_ON_DEMAND: OnDemand = OnDemand::UpTo(300_000_000);

/// How tables are built on demand.
#[derive(Clone, Debug)]
pub struct BuildSettings {
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Most bytes of memory a build may use.
    pub memory_budget: u64,
    /// Where progress goes.
    pub progress: Observer,
}

impl Default for BuildSettings {
    fn default() -> BuildSettings {
        BuildSettings {
            threads: None,
            memory_budget: default_memory_budget(),
            progress: Observer::silent(),
        }
    }
}

/// The tables of one rule set and board width, for every seed count from 1
/// up to [`TableSet::max_seeds`].
///
/// Build (or open) the tables of Kalah with 2 pits a side up to 8 seeds, a
/// few thousand positions, then read a position's value, its moves' and
/// the perfect line:
///
/// ```
/// use mancala_solver::{BuildSettings, Game, KalahRules, OnDemand, TableSet};
///
/// let dir = tempfile::tempdir().unwrap();
/// let rules = KalahRules::Default;
/// let tables = TableSet::open_or_build(
///     dir.path(), rules, 2, 8, &OnDemand::UpTo(1_000_000), &BuildSettings::default(),
/// )?;
/// assert_eq!(tables.max_seeds(), 8);
///
/// let start = rules.start(2, 2)?; // Kalah(2,2): 8 seeds in play
/// let value = tables.value(&start).expect("within the tables");
/// let moves = tables.move_values(&start).expect("within the tables");
/// assert_eq!(moves.iter().map(|m| m.value).max(), Some(value));
/// let (pit, best) = tables.best_move(&start).expect("a legal move");
/// assert_eq!(best, value);
/// assert!(moves.iter().any(|m| m.pit == pit));
/// let line = tables.principal_variation(&start).expect("within the tables");
/// let mut end = start;
/// rules.play_line(&mut end, &line.moves)?; // the line replays to the end
///
/// // The files are there now: opening them builds nothing.
/// let again = TableSet::open(dir.path(), rules, 2, 8)?;
/// assert_eq!(again.value(&start), Some(value));
/// # Ok::<(), mancala_solver::Error>(())
/// ```
#[derive(Debug)]
pub struct TableSet<G: TableGame> {
    dir: PathBuf,
    game: G,
    pits: usize,
    /// `tables[k]` for k seeds; `tables[0]` is always `None`.
    tables: Vec<Option<Table>>,
}

impl<G: TableGame> TableSet<G> {
    /// An empty set (no tables): enough for positions that are over; the
    /// builder fills it.
    pub fn empty(dir: &Path, game: G, pits: usize) -> Result<TableSet<G>> {
        let range = game.table_pits_range();
        if range.is_empty() {
            return Err(Error::NoTables {
                game: game.table_game().to_string(),
                at: None,
                reason: format!(
                    "{} (play it with match, tournament or play)",
                    game.no_tables_reason()
                ),
            });
        }
        if !range.contains(&pits) {
            return Err(Error::OutOfRange(format!(
                "{pits} pits per side: {} tables exist for {} to {} pits per side",
                game.name(),
                range.start(),
                range.end()
            )));
        }
        Ok(TableSet {
            dir: dir.to_path_buf(),
            game,
            pits,
            tables: vec![None],
        })
    }

    /// Open the tables for 1..=`max_seeds` seeds from `dir`; every one must
    /// be present and sound (a missing one is [`Error::MissingTable`],
    /// naming the first missing file and the tables up to `max_seeds`).
    pub fn open(dir: &Path, game: G, pits: usize, max_seeds: usize) -> Result<TableSet<G>> {
        let mut set = TableSet::empty(dir, game, pits)?;
        for k in 1..=max_seeds {
            match Table::open(dir, set.spec(k)) {
                Ok(t) => set.push(t),
                // Name the first missing file and the tables needed (all
                // of them up to `max_seeds`, which one build makes).
                Err(Error::MissingTable { path, .. }) => {
                    return Err(Error::MissingTable {
                        path,
                        table: set.spec(max_seeds).label(),
                    })
                }
                Err(e) => return Err(e),
            }
        }
        Ok(set)
    }

    /// Open as many consecutive tables from 1 seed upwards as `dir` holds
    /// (possibly none). A table that is present but unusable is an error.
    pub fn open_available(dir: &Path, game: G, pits: usize) -> Result<TableSet<G>> {
        let mut set = TableSet::empty(dir, game, pits)?;
        for k in 1..=MAX_INDEX_SEEDS {
            match Table::open(dir, set.spec(k)) {
                Ok(t) => set.push(t),
                Err(Error::MissingTable { .. }) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(set)
    }

    /// Open the tables for 1..=`seeds` seeds, building the missing ones
    /// first when `policy` allows it (else a missing table is
    /// [`Error::MissingTable`], naming the first missing file and the
    /// tables needed; a build above the policy's limit is
    /// [`Error::BuildTooLarge`], with its size, and builds nothing). Tables
    /// beyond `seeds` that are already on disk are opened too.
    pub fn open_or_build(
        dir: &Path,
        game: G,
        pits: usize,
        seeds: usize,
        policy: &OnDemand,
        settings: &BuildSettings,
    ) -> Result<TableSet<G>> {
        let set = TableSet::open_available(dir, game, pits)?;
        if set.max_seeds() >= seeds {
            return Ok(set);
        }
        let missing = || Error::MissingTable {
            path: set.spec(set.max_seeds() + 1).path(dir),
            table: set.spec(seeds).label(),
        };
        let mut entries = 0u64;
        for k in set.max_seeds() + 1..=seeds {
            entries = entries.saturating_add(set.spec(k).indexer()?.count());
        }
        // Advice to build what cannot be built is worse than none.
        let beyond = |reason: String| Error::BeyondTables {
            dir: dir.to_path_buf(),
            table: set.spec(seeds).label(),
            reason,
        };
        let gib = |bytes: u64| bytes as f64 / (1u64 << 30) as f64;
        let limits = BuildLimits {
            memory_budget: settings.memory_budget,
            group_bytes: None,
        };
        let peak = match game.build_memory(pits, seeds, &limits) {
            Err(Error::Memory { message, .. }) => return Err(beyond(message)),
            Err(e) => return Err(e),
            Ok(peak) if peak > settings.memory_budget => {
                return Err(beyond(format!(
                    "building the {pits}-pit tables up to {seeds} seeds needs about {:.1} GiB of \
                     memory (budget {:.1} GiB) and {:.1} GiB of disk",
                    gib(peak),
                    gib(settings.memory_budget),
                    gib(entries / 2)
                )))
            }
            Ok(peak) => peak,
        };
        let limit = match *policy {
            OnDemand::Never => return Err(missing()),
            OnDemand::UpTo(limit) => limit,
        };
        if entries > limit {
            return Err(Error::BuildTooLarge {
                dir: dir.to_path_buf(),
                table: set.spec(seeds).label(),
                entries,
                unit: G::ENTRY,
                disk_bytes: entries / 2,
                memory_bytes: peak,
                limit,
            });
        }
        settings.progress.event(&Event::BuildingMissing {
            game: game.name(),
            pits,
            seeds,
            entries,
            unit: G::ENTRY,
            dir,
        });
        drop(set);
        build(&BuildOptions {
            dir: dir.to_path_buf(),
            game,
            pits,
            max_seeds: seeds,
            threads: settings.threads,
            memory_budget: settings.memory_budget,
            group_bytes: None,
            progress: settings.progress.clone(),
        })?;
        TableSet::open_available(dir, game, pits)
    }

    /// Add `table`, which must be this set's table for the next seed count
    /// ([`TableSet::max_seeds`] + 1): a set is consecutive from 1 seed up.
    /// For tables opened some other way than from the set's directory
    /// ([`Table::from_bytes`]).
    pub fn add(&mut self, table: Table) -> Result<()> {
        let next = self.spec(self.max_seeds() + 1);
        if table.spec() != next {
            return Err(Error::Unsupported(format!(
                "the table {} given where the set of {} on {} pits a side needs {} next \
                 (tables are added from 1 seed up)",
                table.spec().file_name(),
                self.game,
                self.pits,
                next.file_name()
            )));
        }
        self.push(table);
        Ok(())
    }

    /// Add the table for the next seed count (used by the builder).
    pub(crate) fn push(&mut self, table: Table) {
        debug_assert_eq!(table.spec().seeds, self.tables.len());
        self.tables.push(Some(table));
    }

    /// The spec of this set's table for `k` seeds.
    pub fn spec(&self, k: usize) -> TableSpec {
        TableSpec {
            game: self.game.table_game(),
            pits: self.pits,
            seeds: k,
        }
    }

    /// The rule set the tables were built under.
    pub fn game(&self) -> G {
        self.game
    }

    /// Pits per side.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// The table directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Keep only the tables up to `max_seeds` seeds: for a caller that
    /// asked for no more, whatever else the directory holds.
    pub fn truncate(&mut self, max_seeds: usize) {
        self.tables.truncate(max_seeds.saturating_add(1));
    }

    /// Largest seed count covered.
    pub fn max_seeds(&self) -> usize {
        self.tables.len() - 1
    }

    /// The table for `k` seeds, if loaded.
    #[inline]
    pub fn table(&self, k: usize) -> Option<&Table> {
        self.tables.get(k).and_then(|t| t.as_ref())
    }

    /// Total bytes of the loaded table files.
    pub fn total_bytes(&self) -> u64 {
        self.tables.iter().flatten().map(|t| t.file_len()).sum()
    }

    /// Refuse tables of other rules or another board width than `game` on
    /// `pits` pits: using them would give wrong values.
    pub fn check(&self, game: G, pits: usize) -> Result<()> {
        if game == self.game && pits == self.pits {
            return Ok(());
        }
        let describe = |g: G, p: usize| match g.rules_name() {
            Some(r) => format!("{} under {r} rules, {p} pits per side", g.name()),
            None => format!("{}, {p} pits per side", g),
        };
        Err(Error::WrongTables {
            dir: self.dir.clone(),
            asked: describe(game, pits),
            found: describe(self.game, self.pits),
        })
    }

    /// Decode tables into memory ([`Table::load_into_memory`]: one read per
    /// look-up instead of two), from the largest seed count up to
    /// `max_seeds` downwards, each one that still fits in `budget` bytes
    /// with those before it (tables without entries are left alone).
    /// Returns the bytes held in memory.
    pub fn load_into_memory(&mut self, max_seeds: usize, budget: u64) -> Result<u64> {
        let mut used = 0;
        for table in self
            .tables
            .iter_mut()
            .take(max_seeds.saturating_add(1))
            .rev()
            .flatten()
        {
            let bytes = table.memory_bytes();
            if !table.is_empty() && used + bytes <= budget {
                table.load_into_memory()?;
                used += bytes;
            }
        }
        Ok(used)
    }

    /// The value of `pos` for the side to move (final score difference
    /// under perfect play), or `None` when it needs a table not loaded.
    pub fn value(&self, pos: &G::Position) -> Option<i32> {
        if pos.pits() != self.pits {
            return None;
        }
        G::table_value(self, pos)
    }

    /// The value of every legal move of `pos`.
    pub fn move_values(&self, pos: &G::Position) -> Option<Vec<MoveValue>> {
        if pos.pits() != self.pits {
            return None;
        }
        G::move_values(self, pos)
    }

    /// A best move of `pos` and its value (`None` when the game is over or
    /// the tables do not cover it).
    pub fn best_move(&self, pos: &G::Position) -> Option<(usize, i32)> {
        if pos.pits() != self.pits {
            return None;
        }
        G::best_move(self, pos)
    }

    /// A principal variation from `pos`.
    pub fn principal_variation(&self, pos: &G::Position) -> Option<Line> {
        if pos.pits() != self.pits {
            return None;
        }
        G::principal_variation(self, pos)
    }
}
