//! Building the tables of any game: the rule set's builder ([`Game::build_layer`],
//! level by level or retrograde) run under the shared driver.

use std::path::PathBuf;

use crate::error::{Error, Result};

use crate::progress::Observer;
use crate::tablebase::TableGame;
use crate::tablebase::TableSet;
use crate::tables::driver::{run_build, BuildLimits, BuildReport, Job};
use crate::tables::index::MAX_INDEX_SEEDS;

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
        return Err(Error::Unsupported(format!(
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
