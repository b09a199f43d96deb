//! Building the tables of any game: the rule set's builder ([`TableGame::build_layer`],
//! level by level or retrograde) run under the shared driver.

use std::path::PathBuf;

use crate::error::{Error, Result};

use crate::progress::Observer;
use crate::tablebase::TableGame;
use crate::tablebase::TableSet;
use crate::tables::driver::{run_build, BuildLimits, BuildReport, Job, TableReport};
use crate::tables::index::MAX_INDEX_SEEDS;
use crate::tables::lock::TableLock;
use crate::tables::Table;

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions<G: TableGame> {
    /// Directory of the tables.
    pub dir: PathBuf,
    /// The rule set.
    pub game: G,
    /// Pits per side.
    pub pits: usize,
    /// Build tables for 1..=max_seeds seeds.
    pub max_seeds: usize,
    /// Worker threads (None: all cores).
    pub threads: Option<usize>,
    /// Most bytes of memory the build may use.
    pub memory_budget: u64,
    /// Most bytes of one-byte shares held at once while one table is built
    /// (`None`: as many as the budget allows; see
    /// [`crate::tables::driver::BuildLimits`]).
    pub group_bytes: Option<u64>,
    /// Where progress goes (silent by default).
    pub progress: Observer,
}

/// Check what `opts` asks for before any work: board width, seed count and
/// memory. The estimated peak memory in bytes.
pub fn check_build<G: TableGame>(opts: &BuildOptions<G>) -> Result<u64> {
    TableSet::empty(&opts.dir, opts.game, opts.pits)?;
    if opts.max_seeds == 0 || opts.max_seeds > MAX_INDEX_SEEDS {
        return Err(Error::OutOfRange(format!(
            "tables up to {} seeds: tables are built for 1 to {MAX_INDEX_SEEDS} seeds",
            opts.max_seeds
        )));
    }
    opts.game
        .build_memory(opts.pits, opts.max_seeds, &limits(opts))
}

fn limits<G: TableGame>(opts: &BuildOptions<G>) -> BuildLimits {
    BuildLimits {
        memory_budget: opts.memory_budget,
        group_bytes: opts.group_bytes,
    }
}

/// Build (or finish building) the tables described by `opts`.
///
/// Tables already on disk are opened and checked (header and checksum) and
/// kept; a killed build therefore resumes where it stopped. Refuses to start
/// when the estimated peak memory is over the budget.
pub fn build<G: TableGame>(opts: &BuildOptions<G>) -> Result<BuildReport> {
    let peak = check_build(opts)?;
    let mut set = TableSet::empty(&opts.dir, opts.game, opts.pits)?;
    let name = opts.game.name();
    let name = name[..1].to_ascii_uppercase() + &name[1..];
    let title = match opts.game.rules_name() {
        Some(r) => format!(
            "{name} tables ({r} rules, {} pits, 1..={} seeds)",
            opts.pits, opts.max_seeds
        ),
        None => format!(
            "{name} tables ({} pits, 1..={} seeds)",
            opts.pits, opts.max_seeds
        ),
    };
    let job = Job {
        dir: &opts.dir,
        max_seeds: opts.max_seeds,
        threads: opts.threads,
        memory_budget: opts.memory_budget,
        progress: &opts.progress,
        title,
        unit: G::ENTRY,
        peak,
    };
    let spec = |k| set.spec(k);
    let specs: Vec<_> = (0..=opts.max_seeds).map(spec).collect();
    run_build(
        &job,
        &mut set,
        |k| specs[k],
        |set, k| G::build_table(set, k, &opts.dir, &limits(opts), &opts.progress),
        TableSet::push,
    )
}

/// One table of a build split into tasks ([`plan_tasks`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TableTasks {
    /// Seeds of the table.
    pub seeds: usize,
    /// Whether its file is in the directory already (checked when used).
    pub found: bool,
    /// Its groups of mover sums, each one task ([`build_group`]), then
    /// [`assemble`]; one group: the table is one task, [`build`] up to
    /// `seeds`.
    pub groups: Vec<Vec<usize>>,
}

/// A build split into tasks for processes or machines sharing `opts.dir`:
/// for each table 1..=`opts.max_seeds`, in that order (a table needs the
/// smaller ones), whether it is on disk and its groups within the memory
/// limits of `opts`. The groups of one table can be built at once.
pub fn plan_tasks<G: TableGame>(opts: &BuildOptions<G>) -> Result<Vec<TableTasks>> {
    check_build(opts)?;
    let set = TableSet::empty(&opts.dir, opts.game, opts.pits)?;
    (1..=opts.max_seeds)
        .map(|k| {
            Ok(TableTasks {
                seeds: k,
                found: set.spec(k).path(&opts.dir).is_file(),
                groups: opts.game.table_groups(opts.pits, k, &limits(opts))?,
            })
        })
        .collect()
}

/// What [`build_group`] did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GroupReport {
    /// Seeds of the table.
    pub seeds: usize,
    /// The group's mover sums.
    pub sums: Vec<usize>,
    /// Whether it was built now (false: a sound partial file, or the
    /// table, was there).
    pub built: bool,
    /// Seconds spent.
    pub seconds: f64,
}

/// Build one group of mover sums of table `opts.max_seeds` into its
/// partial file in `opts.dir` (a task of [`plan_tasks`]); the smaller
/// tables must be on disk. A sound partial file already there is kept, and
/// nothing is built when the table itself is there.
pub fn build_group<G: TableGame>(opts: &BuildOptions<G>, sums: &[usize]) -> Result<GroupReport> {
    check_build(opts)?;
    let k = opts.max_seeds;
    let start = crate::clock::Instant::now();
    let set = TableSet::open(&opts.dir, opts.game, opts.pits, k - 1)?;
    // Shared with the other groups' tasks; a build or assembly of the
    // whole table waits for them.
    crate::files::create_dir(&opts.dir)?;
    let lock = TableLock::acquire_shared(&opts.dir, set.spec(k))?;
    let pool = crate::threads::pool(opts.threads)?;
    let built =
        pool.install(|| G::build_group(&set, k, sums, &opts.dir, &limits(opts), &opts.progress))?;
    drop(lock);
    Ok(GroupReport {
        seeds: k,
        sums: sums.to_vec(),
        built,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Assemble table `opts.max_seeds` from the partial files of its groups in
/// `opts.dir` (the last task of a split table), under the table's lock,
/// and check the result by opening it. A sound table already there is
/// kept (`found`); a group not built yet is refused, naming its sums.
pub fn assemble<G: TableGame>(opts: &BuildOptions<G>) -> Result<TableReport> {
    check_build(opts)?;
    let k = opts.max_seeds;
    let start = crate::clock::Instant::now();
    let set = TableSet::open(&opts.dir, opts.game, opts.pits, k - 1)?;
    let spec = set.spec(k);
    let lock = TableLock::acquire(&opts.dir, spec, |path| {
        opts.progress
            .event(&crate::progress::Event::WaitingForTable { path })
    })?;
    let (table, found) = match Table::open(&opts.dir, spec) {
        Ok(table) => (table, true),
        Err(_) => {
            // No group task runs now (they hold the lock shared): what is
            // left of a killed one's temporary files goes.
            lock.remove_temporaries(&opts.dir, spec);
            G::assemble_table(&set, k, &opts.dir, &opts.progress)?;
            (Table::open(&opts.dir, spec)?, false)
        }
    };
    drop(lock);
    let (positions, bytes) = (table.len(), table.file_len());
    Ok(TableReport {
        seeds: k,
        positions,
        bytes,
        bits_per_position: bytes as f64 * 8.0 / positions.max(1) as f64,
        seconds: if found {
            0.0
        } else {
            start.elapsed().as_secs_f64()
        },
        found,
    })
}
