//! The build driver every table builder runs under: the memory check, the
//! thread pool, and the loop over seed counts that keeps the sound tables
//! found on disk and builds, writes and reopens the others.

use crate::clock::Instant;
use std::path::Path;

use crate::error::{Error, MemoryUse, Result};
use crate::progress::{Event, Observer};
use crate::tables::lock::{temporary_prefix, TableLock};
use crate::tables::partial::partial_prefix;
use crate::tables::{Table, TableSpec, WriteInfo};

/// What limits the memory of a build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildLimits {
    /// Most bytes of memory the build may use.
    pub memory_budget: u64,
    /// Most bytes of one-byte shares held at once while one table is built
    /// (`None`: as many as the budget allows). Builders that can build a
    /// table in parts (Kalah) split larger tables into groups of blocks
    /// and assemble the file from the groups' partial files.
    pub group_bytes: Option<u64>,
}

/// What happened to one table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TableReport {
    /// Seeds in play.
    pub seeds: usize,
    /// Positions in the table.
    pub positions: u64,
    /// Bytes on disk.
    pub bytes: u64,
    /// Bits on disk per position (header and directory included).
    pub bits_per_position: f64,
    /// Seconds spent building (0 when found on disk).
    pub seconds: f64,
    /// Whether the table was already on disk and sound.
    pub found: bool,
}

/// The whole build.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BuildReport {
    /// One entry per seed count.
    pub tables: Vec<TableReport>,
    /// Worker threads used.
    pub threads: usize,
    /// Estimated peak memory in bytes.
    pub peak_memory: u64,
}

/// Total memory of the machine in bytes (from /proc/meminfo), if known.
pub fn total_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The default memory budget: 80% of the machine's memory.
pub fn default_memory_budget() -> u64 {
    total_memory().map(|m| m / 10 * 8).unwrap_or(8 << 30)
}

/// Bits per position of a file of `bytes` bytes holding `positions`.
fn bits_per_position(bytes: u64, positions: u64) -> f64 {
    bytes as f64 * 8.0 / positions.max(1) as f64
}

/// What the Kalah and the Awari builders share: the memory check, the
/// thread pool, and the loop over seed counts that keeps the sound tables
/// found on disk and builds, writes and reopens the others.
pub(crate) struct Job<'a> {
    /// Directory of the tables.
    pub dir: &'a Path,
    /// Build the tables for 1..=max_seeds seeds.
    pub max_seeds: usize,
    /// Worker threads (None: all cores).
    pub threads: Option<usize>,
    /// Most bytes of memory the build may use.
    pub memory_budget: u64,
    /// Where progress goes.
    pub progress: &'a Observer,
    /// What is built, for messages ("Kalah tables (default rules, ...)").
    pub title: String,
    /// What a table entry is called in messages ("positions", "boards").
    pub unit: &'static str,
    /// Estimated peak memory in bytes.
    pub peak: u64,
}

/// Run `job`: for every seed count, keep the table on disk when it opens
/// and checks, else build and write it atomically with `layer` (given the
/// finished smaller tables in `tb`) on the job's thread pool, under the
/// table's lock, reopen it, and `push` it onto `tb`.
pub(crate) fn run_build<T: Sync>(
    job: &Job,
    tb: &mut T,
    spec: impl Fn(usize) -> TableSpec,
    layer: impl Fn(&T, usize) -> Result<WriteInfo> + Sync,
    push: impl Fn(&mut T, Table),
) -> Result<BuildReport> {
    if job.peak > job.memory_budget {
        return Err(Error::Memory {
            message: format!(
                "building the {} needs about {} MiB of memory, over the budget of {} MiB",
                job.title,
                job.peak.div_ceil(1 << 20),
                job.memory_budget >> 20
            ),
            kind: MemoryUse::Build,
        });
    }
    let pool = crate::threads::pool(job.threads)?;
    let threads = pool.current_num_threads();
    // Before the plan is shown: a path that cannot be the table directory
    // is refused first.
    crate::files::create_dir(job.dir)?;
    job.progress.event(&Event::BuildPlan {
        title: &job.title,
        dir: job.dir,
        peak_memory: job.peak,
        memory_budget: job.memory_budget,
        threads,
    });
    let leftovers = temporaries(job.dir);
    let mut reports = Vec::new();
    let found = |t: &Table, k: usize| TableReport {
        seeds: k,
        positions: t.len(),
        bytes: t.file_len(),
        bits_per_position: bits_per_position(t.file_len(), t.len()),
        seconds: 0.0,
        found: true,
    };
    for k in 1..=job.max_seeds {
        if job.progress.should_stop() {
            return Err(Error::Stopped(format!(
                "the build stopped before the {k}-seed table: the tables up to {} seeds are written and kept",
                k - 1
            )));
        }
        let s = spec(k);
        if let Ok(t) = Table::open(job.dir, s) {
            let (tmp, part) = (temporary_prefix(s), partial_prefix(s));
            if leftovers
                .iter()
                .any(|n| n.starts_with(&tmp) || n.starts_with(&part))
            {
                // A dead builder's temporary or partial files beside a
                // sound table.
                if let Some(lock) = TableLock::try_acquire(job.dir, s)? {
                    lock.remove_temporaries(job.dir, s);
                    remove_partials(job.dir, s);
                }
            }
            reports.push(found(&t, k));
            push(tb, t);
            continue;
        }
        // Build it under its lock; another process may be building it, or
        // may have finished it while this one waited.
        let lock = TableLock::acquire(job.dir, s, |_| {
            job.progress.event(&Event::WaitingForTable {
                path: &s.path(job.dir),
            })
        })?;
        match Table::open(job.dir, s) {
            Ok(t) => {
                reports.push(found(&t, k));
                push(tb, t);
                continue;
            }
            Err(Error::MissingTable { .. }) => {}
            Err(e) => job.progress.event(&Event::Rebuilding { error: &e }),
        }
        lock.remove_temporaries(job.dir, s);
        let start = Instant::now();
        let finished: &T = tb;
        let info = pool.install(|| layer(finished, k))?;
        let t = Table::open(job.dir, s)?;
        drop(lock);
        let seconds = start.elapsed().as_secs_f64();
        job.progress.event(&Event::TableBuilt {
            seeds: k,
            entries: t.len(),
            unit: job.unit,
            seconds,
            bytes: info.bytes,
        });
        reports.push(TableReport {
            seeds: k,
            positions: t.len(),
            bytes: info.bytes,
            bits_per_position: bits_per_position(info.bytes, t.len()),
            seconds,
            found: false,
        });
        push(tb, t);
    }
    Ok(BuildReport {
        tables: reports,
        threads,
        peak_memory: job.peak,
    })
}

/// Names of the temporary table files in `dir` (each is removed by the
/// build of its table, under the table's lock: see [`super::lock`]).
fn temporaries(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && (n.contains(".tbl.tmp-") || n.contains(".tbl.part-")))
        .collect()
}

/// Remove the partial files of `spec`'s table from `dir` (the caller holds
/// the table's lock).
pub(crate) fn remove_partials(dir: &Path, spec: TableSpec) {
    let prefix = partial_prefix(spec);
    for name in temporaries(dir) {
        if name.starts_with(&prefix) {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
}
