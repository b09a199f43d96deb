//! A whole solve run of a Kalah position, as every front end asks for one:
//! the tables it reads (opened, built on first use or given), decoded into
//! memory within a budget, a checkpoint file written periodically and at
//! the end, a resumed checkpoint, cancellation by a flag and progress by
//! the observer of [`SolveOptions`]. The command line, the oracle and a
//! binding call the same two steps: [`prepare`] (tables and checkpoint
//! read, nothing searched; what it found can be shown before the search)
//! and [`PreparedRun::solve`].
//!
//! The run never prints and never installs signal handlers: a caller that
//! wants SIGINT to stop the search raises [`SolveOptions::stop`] itself.

use crate::clock::Instant;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::checkpoint::{Checkpoint, CheckpointReason, Checkpointing, Identity};
use super::driver::solve;
use super::options::{Solution, SolveOptions};
use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::progress::Observer;
use crate::tablebase::{BuildSettings, OnDemand, TableSet};
use crate::tables::index::{size_up_to, MAX_INDEX_SEEDS};
use crate::tables::MAX_TABLE_PITS;

/// Positions in the 6-pit tables built by default on first use: up to 20
/// seeds (225,332,381 positions, about 15 s on two cores, 102 MiB), with
/// which Kalah(6,4) solves in under a second.
pub const DEFAULT_TABLE_POSITIONS_6: u64 = 230_000_000;

/// Positions in the tables of narrower boards built by default on first
/// use: about a minute of building on two cores and 450 MiB of disk (5 pits
/// up to 30 seeds: 847 M positions; 4 pits up to 45 seeds; 1 to 3 pits:
/// every seed count a position has).
pub const DEFAULT_TABLE_POSITIONS: u64 = 900_000_000;

/// Which endgame tables a run reads.
#[derive(Clone, Debug)]
pub enum TableSource {
    /// None: the search alone.
    None,
    /// The tables of a directory: up to `max_seeds` (`None`: the default
    /// for the board, [`default_table_seeds`], or what the directory holds
    /// when `build` is false), the missing ones built when `build`.
    Directory {
        /// The table directory.
        dir: PathBuf,
        /// The largest seed count to read (`None`: the default).
        max_seeds: Option<usize>,
        /// Whether missing tables may be built.
        build: bool,
        /// Decode the tables into memory, largest first, within this many
        /// bytes (0: read them from the files).
        memory: u64,
        /// How a build runs (threads, memory budget, progress).
        settings: BuildSettings,
    },
    /// A set already open (the oracle's), read as it is.
    Given(Arc<TableSet<crate::kalah::rules::KalahRules>>),
}

/// Where a run keeps its checkpoints.
#[derive(Clone, Debug)]
pub struct CheckpointFile {
    /// The file, written atomically.
    pub path: PathBuf,
    /// Time between two periodic checkpoints.
    pub every: Duration,
    /// Most transposition entries kept in one.
    pub max_entries: usize,
}

/// What a run is asked to do.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The search's own options (rule set, transposition table, threads,
    /// enhancements, deadline, stop flag, progress). Its `use_tables`,
    /// `max_table_seeds`, `checkpoint` and `resume` are set by the run.
    pub search: SolveOptions,
    /// The tables.
    pub tables: TableSource,
    /// Checkpoints to write, if any.
    pub checkpoint: Option<CheckpointFile>,
    /// A checkpoint to go on from (may be the checkpoint file itself).
    pub resume: Option<PathBuf>,
}

/// Cheap tables the run goes without: the search would be much faster
/// with the `pits`-pit tables up to `seeds` seeds (`positions` positions,
/// a minute or less to build) than with those up to `used` (0: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissingTables {
    /// Pits per side.
    pub pits: usize,
    /// The seeds the default tables reach.
    pub seeds: usize,
    /// Their positions.
    pub positions: u64,
    /// The largest table the run reads.
    pub used: usize,
}

/// A run ready to search: its tables open, its checkpoint read.
pub struct PreparedRun {
    pos: Position,
    tables: Option<Arc<TableSet<crate::kalah::rules::KalahRules>>>,
    options: RunOptions,
    resume: Option<Arc<Checkpoint>>,
    /// Bytes of tables decoded into memory.
    pub table_memory_bytes: u64,
    /// Seconds the decoding took.
    pub table_load_seconds: f64,
    /// Tables a default run would read and this one goes without (none
    /// when the caller chose the tables).
    pub missing: Option<MissingTables>,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The solution: exact, or proven bounds when stopped.
    pub solution: Solution,
    /// The checkpoint the run went on from.
    pub resumed: Option<Arc<Checkpoint>>,
    /// Bytes of tables decoded into memory.
    pub table_memory_bytes: u64,
    /// Seconds the decoding took.
    pub table_load_seconds: f64,
    /// The stop flag ended the search before it finished.
    pub stopped: bool,
    /// The last checkpoint (at the stop or the end) could not be written:
    /// why. Periodic ones that failed are reported through the progress
    /// observer and retried at the next period.
    pub checkpoint_error: Option<String>,
}

/// Seeds of the tables built on first use for `pits` pits per side: as
/// many as fit in [`DEFAULT_TABLE_POSITIONS_6`] (6 pits) or
/// [`DEFAULT_TABLE_POSITIONS`] positions, never more than `in_play`.
pub fn default_table_seeds(pits: usize, in_play: usize) -> usize {
    let budget = if pits == MAX_TABLE_PITS {
        DEFAULT_TABLE_POSITIONS_6
    } else {
        DEFAULT_TABLE_POSITIONS
    };
    (1..=MAX_INDEX_SEEDS)
        .take_while(|&k| size_up_to(pits, k) <= budget)
        .last()
        .unwrap_or(1)
        .min(in_play)
}

/// Open (or build) the tables and read the checkpoint to resume, checking
/// it against the position before any table is read.
pub fn prepare(pos: &Position, options: RunOptions) -> Result<PreparedRun> {
    let m = pos.pits_per_side();
    let rules = options.search.rules;
    if m > MAX_TABLE_PITS {
        return Err(Error::OutOfRange(format!(
            "{m} pits per side: the solver handles 1 to {MAX_TABLE_PITS} pits per side"
        )));
    }
    if options.search.use_tt {
        super::tt::check_tt_mb(options.search.tt_mb)?;
    }
    let resume = match &options.resume {
        Some(path) => {
            let ck = Checkpoint::read(path)?;
            let asked = Identity {
                position: pos.to_string(),
                rules,
                pits: m,
                ..ck.identity.clone()
            };
            ck.identity
                .check(&asked)
                .map_err(|e| checkpoint_error(e, path))?;
            Some(Arc::new(ck))
        }
        None => None,
    };
    let in_play = pos.active_seeds();
    let over = pos.is_game_over(rules);
    let (mut tables, mut missing, mut memory) = (None, None, 0);
    match &options.tables {
        TableSource::None => {}
        TableSource::Given(set) => tables = Some(set.clone()),
        TableSource::Directory {
            dir,
            max_seeds,
            build,
            memory: budget,
            settings,
        } if !over => {
            let set = open_tables(dir, rules, m, in_play, *max_seeds, *build, settings)?;
            let cheap = default_table_seeds(m, in_play);
            if max_seeds.is_none() && set.max_seeds() < cheap {
                missing = Some(MissingTables {
                    pits: m,
                    seeds: cheap,
                    positions: size_up_to(m, cheap),
                    used: set.max_seeds(),
                });
            }
            tables = Some(Arc::new(set));
            memory = *budget;
        }
        TableSource::Directory { .. } => {}
    }
    let load = Instant::now();
    let mut in_memory = 0;
    if let (Some(set), true) = (tables.as_mut(), memory > 0) {
        if let Some(set) = Arc::get_mut(set) {
            let k = match &options.tables {
                TableSource::Directory { max_seeds, .. } => max_seeds.unwrap_or(usize::MAX),
                _ => usize::MAX,
            };
            in_memory = set.load_into_memory(k, memory)?;
        }
    }
    if matches!(options.tables, TableSource::None) {
        missing = None;
    }
    Ok(PreparedRun {
        pos: *pos,
        tables,
        options,
        resume,
        table_memory_bytes: in_memory,
        table_load_seconds: load.elapsed().as_secs_f64(),
        missing,
    })
}

/// The tables a run reads from a directory: up to `max_seeds` (built when
/// missing if `build`), else what it holds with the default tables built
/// on first use.
fn open_tables(
    dir: &Path,
    rules: crate::kalah::rules::KalahRules,
    m: usize,
    in_play: usize,
    max_seeds: Option<usize>,
    build: bool,
    settings: &BuildSettings,
) -> Result<TableSet<crate::kalah::rules::KalahRules>> {
    let want = max_seeds.unwrap_or_else(|| default_table_seeds(m, in_play));
    if want > MAX_INDEX_SEEDS {
        return Err(Error::OutOfRange(format!(
            "tables up to {want} seeds: tables go up to {MAX_INDEX_SEEDS} seeds"
        )));
    }
    if !build && max_seeds.is_none() {
        return TableSet::open_available(dir, rules, m);
    }
    // Asked for tables up to K: larger ones on disk are not opened (nor
    // their files read through for the checksum, 5 GiB for the 6-pit table
    // of 34 seeds), so that every user of the run's tables (the prover's
    // tasks, their ledger lines) probes and reports K.
    if let Some(k) = max_seeds {
        match TableSet::open(dir, rules, m, k) {
            Err(Error::MissingTable { .. }) if build => {}
            result => return result,
        }
    }
    let policy = if build {
        OnDemand::UpTo(u64::MAX)
    } else {
        OnDemand::Never
    };
    match TableSet::open_or_build(dir, rules, m, want, &policy, settings) {
        // The default tables are beyond a small machine: use what is there.
        Err(Error::BeyondTables { .. }) if max_seeds.is_none() => {
            TableSet::open_available(dir, rules, m)
        }
        // Tables up to K built just now: larger ones on disk stay out.
        Ok(mut set) => {
            if let Some(k) = max_seeds {
                set.truncate(k);
            }
            Ok(set)
        }
        result => result,
    }
}

impl PreparedRun {
    /// The largest table the run reads (0: none).
    pub fn table_seeds(&self) -> usize {
        self.tables.as_ref().map_or(0, |t| t.max_seeds())
    }

    /// The tables the run reads (opened, and decoded into memory within
    /// the budget): share them with other solves of the same board.
    pub fn tables(&self) -> Option<Arc<TableSet<crate::kalah::rules::KalahRules>>> {
        self.tables.clone()
    }

    /// The checkpoint the run goes on from.
    pub fn resumed(&self) -> Option<&Checkpoint> {
        self.resume.as_deref()
    }

    /// Search: the exact value, or proven bounds when the deadline or the
    /// stop flag ends it first (the last checkpoint then written).
    pub fn solve(self) -> Result<RunReport> {
        let PreparedRun {
            pos,
            tables,
            options,
            resume,
            table_memory_bytes,
            table_load_seconds,
            ..
        } = self;
        let final_error: Arc<Mutex<Option<String>>> = Arc::default();
        let checkpoint = options.checkpoint.as_ref().map(|c| {
            let path = c.path.clone();
            let final_error = final_error.clone();
            Checkpointing {
                every: c.every.max(Duration::from_millis(10)),
                max_entries: c.max_entries,
                save: Arc::new(move |ck: &Checkpoint, reason| {
                    let written = ck.write(&path);
                    if reason != CheckpointReason::Periodic {
                        *final_error.lock().unwrap_or_else(|e| e.into_inner()) =
                            written.as_ref().err().map(|e| e.to_string());
                    }
                    written
                }),
            }
        });
        let mut search = options.search.clone();
        search.use_tables = tables.is_some();
        search.max_table_seeds = match &options.tables {
            TableSource::Directory { max_seeds, .. } => *max_seeds,
            _ => None,
        };
        search.checkpoint = checkpoint;
        search.resume = resume.clone();
        let solution = solve(&pos, tables.as_deref(), &search);
        let solution = match (solution, &options.resume) {
            (Err(e), Some(path)) => return Err(checkpoint_error(e, path)),
            (solution, _) => solution?,
        };
        let stopped = !solution.exact
            && search
                .stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        let checkpoint_error = final_error.lock().unwrap_or_else(|e| e.into_inner()).take();
        Ok(RunReport {
            solution,
            resumed: resume,
            table_memory_bytes,
            table_load_seconds,
            stopped,
            checkpoint_error,
        })
    }
}

/// Prepare and solve in one call.
pub fn run(pos: &Position, options: RunOptions) -> Result<RunReport> {
    prepare(pos, options)?.solve()
}

/// A checkpoint that does not fit the position, with the file named.
fn checkpoint_error(e: Error, path: &Path) -> Error {
    match e {
        Error::WrongCheckpoint { saved, asked } => Error::BadCheckpoint {
            path: path.to_path_buf(),
            reason: format!("it was made for {saved}, not {asked}"),
        },
        e => e,
    }
}

impl RunOptions {
    /// A run of `search` with no tables, checkpoints or resume.
    pub fn new(search: SolveOptions) -> RunOptions {
        RunOptions {
            search,
            tables: TableSource::None,
            checkpoint: None,
            resume: None,
        }
    }

    /// The same run reporting progress to `progress`.
    pub fn with_progress(mut self, progress: Observer) -> RunOptions {
        self.search.progress = progress;
        self
    }
}
