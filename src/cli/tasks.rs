//! How proof tasks run (`mancala prove` and `mancala book`): the tables,
//! the search's budget and threads, and the run's one transposition table.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use clap::Args;

use super::{progress, TablesArg};
use mancala_solver::error::{Error, Result};
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::KalahRules;
use mancala_solver::search::prove::ProveOptions;
use mancala_solver::search::run::{prepare, PreparedRun, RunOptions, TableSource};
use mancala_solver::search::SolveOptions;
use mancala_solver::tablebase::BuildSettings;
use mancala_solver::tables::index::MAX_INDEX_SEEDS;

/// The options of proof tasks.
#[derive(Args, Clone, Debug)]
pub struct TaskArgs {
    #[command(flatten)]
    pub tables: TablesArg,
    /// Split a task the search has not settled after this many seconds
    /// (default: 600, or no time limit with --task-nodes). 0 splits every
    /// task that is not settled at once, down to the end of the game: a
    /// test of the protocol on tiny games, a tree without end on others.
    #[arg(long, value_parser = super::render::parse_seconds)]
    pub task_seconds: Option<f64>,
    /// Split a task the search has not settled after this many nodes
    /// (e.g. 4e9): a budget of work, the same on a loaded machine as on an
    /// idle one.
    #[arg(long, value_name = "N", value_parser = parse_nodes)]
    pub task_nodes: Option<u64>,
    /// When splitting, estimate each move by a search of this many seconds
    /// (default: a hundredth of --task-seconds; with --task-nodes, a
    /// hundredth of its nodes).
    #[arg(long, value_parser = super::render::parse_seconds)]
    pub estimate_seconds: Option<f64>,
    /// Probe the tables up to K seeds in play (default: what --db holds).
    #[arg(long, value_name = "K")]
    pub max_table_seeds: Option<usize>,
    /// Never build tables; use only what is on disk.
    #[arg(long)]
    pub no_build: bool,
    /// Decode the tables into memory within this many MiB (0: read the files).
    #[arg(long, default_value_t = 4096, value_name = "MIB")]
    pub table_memory_mb: u64,
    /// Transposition-table size in MiB (one table, kept from task to task).
    #[arg(long, default_value_t = 256)]
    pub tt_mb: usize,
    /// Worker threads of each task (0 or omitted: all cores).
    #[arg(long, default_value_t = 0, value_parser = super::render::parse_threads)]
    pub threads: usize,
    /// No live progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

impl TaskArgs {
    /// Refuse options that cannot work, before anything runs.
    pub fn check(&self) -> Result<()> {
        if let Some(want) = self.max_table_seeds.filter(|&k| k > MAX_INDEX_SEEDS) {
            return Err(Error::OutOfRange(format!(
                "--max-table-seeds {want}: tables go up to {MAX_INDEX_SEEDS} seeds"
            )));
        }
        mancala_solver::search::tt::check_tt_mb(self.tt_mb)
    }

    /// The tables (opened, or built where allowed) for positions like
    /// `root`, and the tasks' options with one transposition table for the
    /// whole run, stopped by `stop`.
    pub fn prepare(
        &self,
        root: &Position,
        rules: KalahRules,
        stop: Arc<AtomicBool>,
    ) -> Result<(PreparedRun, ProveOptions)> {
        self.check()?;
        let search = SolveOptions {
            rules,
            tt_mb: self.tt_mb,
            threads: self.threads,
            progress: progress::observer(self.quiet),
            stop: Some(stop),
            ..SolveOptions::default()
        };
        let tables = if self.max_table_seeds == Some(0) {
            TableSource::None
        } else {
            TableSource::Directory {
                dir: self.tables.db.clone(),
                max_seeds: self.max_table_seeds,
                build: !self.no_build,
                memory: self.table_memory_mb.saturating_mul(1 << 20),
                settings: BuildSettings {
                    progress: progress::observer(self.quiet),
                    ..BuildSettings::default()
                },
            }
        };
        let prepared = prepare(
            root,
            RunOptions {
                tables,
                ..RunOptions::new(search.clone())
            },
        )?;
        // One transposition table for every task of this run.
        let search = SolveOptions {
            shared_tt: Some(Arc::new(mancala_solver::search::TransTable::try_with_kib(
                self.tt_mb.saturating_mul(1 << 10),
            )?)),
            ..search
        };
        // With a budget of nodes the clock limits nothing unless asked to.
        let task_seconds = self.task_seconds.unwrap_or(match self.task_nodes {
            Some(_) => f64::INFINITY,
            None => 600.0,
        });
        let opts = ProveOptions {
            search,
            task_seconds,
            task_nodes: self.task_nodes,
            estimate_seconds: self.estimate_seconds.unwrap_or(task_seconds / 100.0),
            estimate_nodes: self.task_nodes.map(|n| n / 100),
            split_again_at_once: true,
        };
        Ok((prepared, opts))
    }
}

/// Parse a count of nodes (`--task-nodes`): a whole number, in plain or
/// scientific notation (4e9), at least 1.
pub fn parse_nodes(s: &str) -> std::result::Result<u64, String> {
    match s.parse::<f64>() {
        Ok(n) if n.is_finite() && (1.0..=1e18).contains(&n) && n.fract() == 0.0 => Ok(n as u64),
        _ => Err(format!(
            "'{}' is not a count of nodes: give a whole number from 1 to 1e18, e.g. 4e9",
            mancala_solver::error::clip(s)
        )),
    }
}
