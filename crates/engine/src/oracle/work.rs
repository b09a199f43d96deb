//! Long work by game name, for front ends that hold no game types (the
//! Python package): building a game's tables, solving a Kalah position
//! with checkpoints, playing a match, grading an agent. Each reports
//! progress and stops through its [`Observer`] ([`Observer::with_stop`]):
//! a stopped build keeps every table it wrote (files are written
//! atomically), a stopped solve returns its proven bounds and writes its
//! checkpoint, a stopped match or grading returns [`Error::Stopped`].

use crate::clock::Instant;
use std::path::{Path, PathBuf};

use super::*;
use crate::play::arena::{self, MatchOptions};
use crate::play::grade::{self, GradeOptions, GradeReport, DEFAULT_OPPONENTS};
use crate::play::report::{MatchReport, RepetitionScore};
use crate::search::run::{default_table_seeds, prepare, CheckpointFile, RunOptions, TableSource};
use crate::search::{Solution, SolveOptions};
use crate::tablebase::build::{build, BuildOptions};
use crate::tables::driver::{default_memory_budget, BuildLimits, BuildReport};

/// What [`Oracle::solve`] is asked.
#[derive(Clone, Debug, Default)]
pub struct SolveRequest {
    /// Stop after this long with proven bounds (`None`: until solved).
    pub time: Option<Duration>,
    /// Write checkpoints to this file (periodically, and when the solve
    /// stops or ends).
    pub checkpoint: Option<PathBuf>,
    /// Go on from this checkpoint (may be the checkpoint file itself).
    pub resume: Option<PathBuf>,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
}

/// What a solve gave: the solution (exact, or proven bounds) and how it ran.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// The position solved.
    pub position: String,
    /// The solution; `exact` false with proven bounds when stopped.
    pub solution: Solution,
    /// The stop flag ended it before it finished.
    pub stopped: bool,
    /// It went on from a checkpoint.
    pub resumed: bool,
    /// The last checkpoint could not be written: why.
    pub checkpoint_error: Option<String>,
}

/// The tables that answer a game's positions fast, as the command line
/// builds them on a game's first use ([`Oracle::table_plan`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TablePlan {
    /// The game as named (`kalah:6:4:capture-needs-opposite`): what
    /// [`Oracle::build_tables`] takes.
    pub game: String,
    /// The game's name (`kalah`, `awari`).
    pub tables_of: &'static str,
    /// The rule set of the tables, for games with several.
    pub rules: Option<&'static str>,
    /// Pits per side.
    pub pits: usize,
    /// The tables wanted: those of 1 to `seeds` seeds.
    pub seeds: usize,
    /// Seeds in play at the game's start.
    pub game_seeds: usize,
    /// The most seeds of the tables on disk (0: none).
    pub on_disk: usize,
    /// Positions of the tables still to build.
    pub positions: u64,
    /// About the disk space they take (four bits a position; Awari and
    /// Oware tables take about a sixth more).
    pub disk_bytes: u64,
    /// Nothing is left to build.
    pub ready: bool,
}

/// Positions of the tables built by [`Oracle::table_plan`] for a game
/// other than Kalah: as many as [`crate::tablebase::DEFAULT_ON_DEMAND`]
/// builds on first use (300 million).
pub const PLAN_POSITIONS: u64 = 300_000_000;

impl Oracle {
    /// The tables that make `game`'s positions fast to answer, as the
    /// command line builds them on first use (`solve`): Kalah's 6-pit
    /// tables up to 20 seeds and the narrower boards' up to about 900
    /// million positions ([`default_table_seeds`]); the other games' up to
    /// [`PLAN_POSITIONS`] positions within the memory budget; never more
    /// seeds than the game has. What is on disk, and what is left to build
    /// ([`Oracle::build_tables`] with the plan's `game` and `seeds` builds
    /// it).
    pub fn table_plan(&self, game: &str) -> Result<TablePlan> {
        let spec = parse_game(game)?;
        if wide(&spec).is_some() {
            return Err(no_tables(&spec));
        }
        with_rules!(spec.rules, g => {
            if !g.table_pits_range().contains(&spec.pits) {
                return Err(no_tables(&spec));
            }
            let start = g.start(spec.pits, spec.seeds)?;
            let game_seeds = seeds_of(g, &start);
            let set = self.tables(g, spec.pits)?;
            let entries = |from: usize, to: usize| -> Result<u64> {
                let mut n = 0u64;
                for k in from..=to {
                    n = n.saturating_add(set.spec(k).indexer()?.count());
                }
                Ok(n)
            };
            let seeds = if matches!(spec.rules, Rules::Kalah(_)) {
                default_table_seeds(spec.pits, game_seeds)
            } else {
                let limits = BuildLimits {
                    memory_budget: default_memory_budget(),
                    group_bytes: None,
                };
                let mut k = game_seeds.min(MAX_INDEX_SEEDS);
                while k > 1
                    && (entries(1, k)? > PLAN_POSITIONS
                        || g.build_memory(spec.pits, k, &limits)
                            .map_or(true, |m| m > limits.memory_budget))
                {
                    k -= 1;
                }
                k
            };
            let on_disk = set.max_seeds();
            let positions = if on_disk >= seeds { 0 } else { entries(on_disk + 1, seeds)? };
            Ok(TablePlan {
                game: spec.to_string(),
                tables_of: spec.rules.game_name(),
                rules: spec.rules.rules_name(),
                pits: spec.pits,
                seeds,
                game_seeds,
                on_disk,
                positions,
                disk_bytes: positions / 2,
                ready: on_disk >= seeds,
            })
        })
    }

    /// Build (or finish building) the tables of `game` for 1 to `max_seeds`
    /// seeds in the oracle's directory, whatever its build limit. Tables
    /// already there are checked and kept, so a stopped build goes on where
    /// it stopped.
    pub fn build_tables(
        &self,
        game: &str,
        max_seeds: usize,
        threads: Option<usize>,
        progress: Observer,
    ) -> Result<BuildReport> {
        let spec = parse_game(game)?;
        if wide(&spec).is_some() {
            return Err(no_tables(&spec));
        }
        with_rules!(spec.rules, g => {
            if !g.table_pits_range().contains(&spec.pits) {
                return Err(no_tables(&spec));
            }
            let report = build(&BuildOptions {
                dir: self.config.dir.clone(),
                game: g,
                pits: spec.pits,
                max_seeds,
                threads,
                memory_budget: default_memory_budget(),
                group_bytes: None,
                progress,
            });
            // Whatever was built, the next look-up opens the tables anew.
            self.cache().remove(&(g.table_game(), spec.pits));
            report
        })
    }

    /// Solve `position` of the Kalah game `game` (the start when `None`)
    /// with the tables the oracle has or builds within its limit: the
    /// exact value and principal variation, or proven bounds when
    /// `request.time` or the observer's stop flag ends it first (then the
    /// checkpoint, if asked, lets a later solve go on).
    pub fn solve(
        &self,
        game: &str,
        position: Option<&str>,
        request: &SolveRequest,
        progress: Observer,
    ) -> Result<SolveReport> {
        let spec = parse_game(game)?;
        let Rules::Kalah(rules) = spec.rules else {
            return Err(Error::Unsupported(format!(
                "{spec}: the search above the tables is Kalah's; query gives this game's values \
                 from its tables"
            )));
        };
        if wide(&spec).is_some() {
            return Err(no_values(&spec, position));
        }
        let pos = position_of(rules, &spec, position)?;
        if let Some(path) = &request.checkpoint {
            check_checkpoint_path(path)?;
        }
        // Tables built on demand report to the caller and stop on its flag.
        let set =
            match self.tables_for_observed(rules, spec.pits, seeds_of(rules, &pos), &progress)? {
                Some(set) => set,
                None => self.tables(rules, spec.pits)?,
            };
        // The observer's stop flag stops the search too.
        let stop = progress.stop_flag();
        let search = SolveOptions {
            rules,
            tt_mb: self.config.search.tt_mb,
            threads: request.threads.unwrap_or(0),
            deadline: request.time.map(|t| Instant::now() + t),
            stop,
            progress,
            ..SolveOptions::default()
        };
        let run = prepare(
            &pos,
            RunOptions {
                search,
                tables: TableSource::Given(set),
                checkpoint: request.checkpoint.as_ref().map(|path| CheckpointFile {
                    path: path.clone(),
                    every: Duration::from_secs(300),
                    max_entries: 8_000_000,
                }),
                resume: request.resume.clone(),
            },
        )?;
        let report = run.solve()?;
        Ok(SolveReport {
            position: pos.to_string(),
            solution: report.solution,
            stopped: report.stopped,
            resumed: report.resumed.is_some(),
            checkpoint_error: report.checkpoint_error,
        })
    }

    /// Play `games` games of `game` between the agents `a` and `b` (specs
    /// as on the command line; A is South in the even-numbered games), on
    /// every core, with the oracle's tables for agents that read them.
    pub fn run_match(
        &self,
        game: &str,
        a: &str,
        b: &str,
        games: usize,
        seed: u64,
        progress: Observer,
    ) -> Result<MatchReport> {
        let spec = parse_game(game)?;
        let (a, b): (AgentSpec, AgentSpec) = (a.parse()?, b.parse()?);
        let tables = if a.uses_tables() || b.uses_tables() {
            self.shared_tables(&spec)?
        } else {
            None
        };
        let opts = MatchOptions {
            game: spec,
            a,
            b,
            games,
            seed,
            random_opening: None,
            threads: None,
            progress,
            tables,
            max_plies: 500,
            repetition: RepetitionScore::Split,
        };
        // The games are counted as they finish and their records dropped:
        // a match of any length needs the same memory.
        arena::run_match_each(&opts, &mut |_| Ok(()))
    }

    /// Grade `agent` against perfect play on `positions` of its decisions
    /// (`mancala grade`): values from the oracle's tables and, in Kalah,
    /// Awari and Oware, the exact search above them for `search_time` a
    /// position.
    pub fn grade(
        &self,
        game: &str,
        agent: &str,
        positions: usize,
        seed: u64,
        search_time: Duration,
        progress: Observer,
    ) -> Result<GradeReport> {
        let spec = parse_game(game)?;
        let agent: AgentSpec = agent.parse()?;
        let tables = self.shared_tables(&spec)?;
        if tables.is_none() && !spec.rules.has_exact_search() {
            return Err(no_tables(&spec));
        }
        let max_seeds = grade::seeds_limit(spec.rules, tables.as_ref());
        let opts = GradeOptions {
            game: spec,
            positions,
            seed,
            opponents: DEFAULT_OPPONENTS
                .iter()
                .map(|o| o.parse())
                .collect::<Result<Vec<AgentSpec>>>()?,
            search_time,
            tt_mb: self.config.search.tt_mb,
            threads: None,
            tables,
            max_seeds,
            progress,
        };
        grade::grade(&agent, &opts)
    }

    /// The tables of `spec`'s game and width on disk, if any.
    fn shared_tables(&self, spec: &GameSpec) -> Result<Option<SharedTables>> {
        if wide(spec).is_some() {
            return Ok(None);
        }
        with_rules!(spec.rules, g => {
            if !g.table_pits_range().contains(&spec.pits) {
                return Ok(None);
            }
            self.agent_tables(g, spec.pits)
        })
    }
}

/// Whether a checkpoint can be written at `path`, tried before a solve so
/// that a wrong path costs no search: not a directory, in a directory that
/// exists and takes a new file (the temporary file the write goes through
/// is made and removed). A disk that fills later is only found then
/// ([`SolveReport::checkpoint_error`]).
fn check_checkpoint_path(path: &Path) -> Result<()> {
    let bad = |reason: String| Error::BadCheckpoint {
        path: path.to_path_buf(),
        reason,
    };
    if path.is_dir() {
        return Err(bad("it is a directory: give the path of a file".into()));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.exists() {
        return Err(bad(format!(
            "its directory {} does not exist: create it, or give a path in one that does",
            dir.display()
        )));
    }
    if !dir.is_dir() {
        return Err(bad(format!("{} is not a directory", dir.display())));
    }
    let tmp = crate::atomic::temp_path(path, "checkpoint");
    let made = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp);
    match made {
        Ok(file) => {
            drop(file);
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        // This process's write under way (another solve to the same file).
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(bad(format!(
            "it cannot be written in {}: {e}",
            dir.display()
        ))),
    }
}

/// `spec`'s game has no tables at its width.
fn no_tables(spec: &GameSpec) -> Error {
    let (range, why) = with_rules!(spec.rules, g => (g.table_pits_range(), g.no_tables_reason()));
    if range.is_empty() {
        return Error::NoTables {
            game: spec.to_string(),
            at: None,
            reason: why.to_string(),
        };
    }
    Error::NoTables {
        game: spec.to_string(),
        at: Some(spec.pits),
        reason: format!(
            "its tables are for {} to {} pits a side, of at most {MAX_INDEX_SEEDS} seeds",
            range.start(),
            range.end()
        ),
    }
}
