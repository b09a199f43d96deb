//! `mancala solve` for the games solved by their tables (Awari, Oware,
//! Vai Lung Thlan, Ohvalhu): the tables, built on first use within
//! `--time` ([`Deadline`], which the Kalah path shares), and for Awari and
//! Oware beyond them the exact search (`search::awari`), probing the
//! tables on disk.

use std::path::Path;
use std::sync::Arc;

use mancala_solver::error::{Error, TableLabel};
use mancala_solver::game::Board;
use mancala_solver::progress::{Event, Observer};
use mancala_solver::tablebase::{BuildSettings, OnDemand, DEFAULT_ON_DEMAND};

use super::progress;
use super::render::build_command;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mancala_solver::awari::position::AwariPosition;
use mancala_solver::awari::rules::AwariGame;
use mancala_solver::error::Result;
use mancala_solver::search::awari;
use mancala_solver::search::cyclic::{CheckpointTo, CyclicCheckpoint, CyclicOptions, Wanted};
use mancala_solver::tablebase::{PvEnd, TableGame, TableSet};
use mancala_solver::tables::driver::BuildLimits;

/// Whether `pos` is beyond the tables on disk and beyond what can be built
/// at all for it (the builder's index limit).
pub fn beyond_tables(game: AwariGame, pos: &AwariPosition, db: &Path) -> Result<bool> {
    let tables = TableSet::open_available(db, game, pos.pits_per_side())?;
    let k = pos.seeds_on_board();
    let unlimited = BuildLimits {
        memory_budget: u64::MAX,
        group_bytes: None,
    };
    Ok(tables.max_seeds() < k
        && game
            .build_memory(pos.pits_per_side(), k, &unlimited)
            .is_err())
}

/// What `mancala solve` asked for, as this path needs it (the command's
/// arguments, without the Kalah solver's).
pub struct SolveHow<'a> {
    /// The board: `M N` (a start) or one position.
    pub board: &'a [String],
    /// The table directory.
    pub db: &'a Path,
    /// Do not build missing tables.
    pub no_build: bool,
    /// Probe tables up to this many seeds (`None`: all on disk).
    pub max_table_seeds: Option<usize>,
    /// Probe no table.
    pub no_tables: bool,
    /// Transposition table in MiB.
    pub tt_mb: usize,
    /// Seconds allowed (`None`: to the end).
    pub time: Option<f64>,
    /// Print JSON.
    pub json: bool,
    /// No live progress on stderr.
    pub quiet: bool,
    /// Save the search's checkpoints here.
    pub checkpoint: Option<&'a Path>,
    /// Seconds between two checkpoints after MTD(f) passes.
    pub checkpoint_every: f64,
    /// Go on from this checkpoint.
    pub resume: Option<&'a Path>,
}

/// Solve `pos` by the exact search over the tables on disk and print it.
pub fn search(game: AwariGame, pos: &AwariPosition, args: &SolveHow<'_>) -> Result<ExitCode> {
    // --time counts from here: a build on first use spends of it too.
    let started = Instant::now();
    let max = if args.no_tables {
        Some(0)
    } else {
        args.max_table_seeds
    };
    let tables = match max.filter(|&k| k > 0) {
        // The tables --max-table-seeds names, built where missing unless
        // --no-build (as for Kalah), within --time.
        Some(k) => {
            let policy = if args.no_build {
                OnDemand::Never
            } else {
                OnDemand::UpTo(u64::MAX)
            };
            let label = TableLabel {
                game: game.name(),
                rules: None,
                pits: pos.pits_per_side(),
                seeds: k,
            };
            let deadline = Deadline::new(args.time, build_command(&label, args.db));
            let settings = BuildSettings {
                progress: deadline.observer(),
                ..BuildSettings::default()
            };
            let set =
                TableSet::open_or_build(args.db, game, pos.pits_per_side(), k, &policy, &settings)?;
            deadline.tables_ready();
            set
        }
        None => TableSet::open_available(args.db, game, pos.pits_per_side())?,
    };
    let resume = match args.resume {
        Some(path) => {
            let ck = CyclicCheckpoint::read(path)?;
            if !args.quiet {
                eprintln!(
                    "resuming from {}: bounds {:+}..={:+} on the seeds still to win, {} entries, {} nodes before",
                    path.display(),
                    ck.head.lower,
                    ck.head.upper,
                    ck.len(),
                    ck.head.nodes
                );
            }
            Some(Arc::new(ck))
        }
        None => None,
    };
    let options = CyclicOptions {
        tt_mb: args.tt_mb,
        deadline: args.time.map(|t| started + Duration::from_secs_f64(t)),
        progress: progress::observer(args.quiet),
        // With a checkpoint, the first SIGINT or SIGTERM stops the search
        // (the checkpoint is written, the bounds printed).
        stop: args.checkpoint.map(super::stop_on_signals).transpose()?,
        checkpoint: args.checkpoint.map(|path| CheckpointTo {
            path: path.to_path_buf(),
            identity: String::new(),
            every: Duration::from_secs_f64(args.checkpoint_every),
        }),
        resume,
        ..CyclicOptions::default()
    };
    let sol = awari::solve_awari(game, pos, Some(&tables), max, Wanted::ALL, &options)?;
    progress::end_status(&options.progress);
    if let Some(path) = args.checkpoint {
        match &sol.checkpoint_error {
            Some(e) => eprintln!("error: the last checkpoint was not written: {e}"),
            None => eprintln!(
                "checkpoint {} written: go on with --resume {}",
                path.display(),
                path.display()
            ),
        }
    }
    if args.json {
        let out = serde_json::json!({
            "game": game.name(),
            "rules": game.rules_name(),
            "position": pos.to_string(),
            "source": "search",
            "solution": sol,
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
        return Ok(ExitCode::SUCCESS);
    }
    println!("position: {pos}");
    print!("{}", pos.board_diagram());
    println!(
        "{} seeds on the board, above the tables: exact search, tables probed up to {} seeds",
        pos.seeds_on_board(),
        sol.table_seeds
    );
    match sol.value {
        Some(v) => println!(
            "value: {v:+} (final captured difference for the side to move, perfect play; endless play counts 0)"
        ),
        None => println!(
            "not finished {}: proven bounds {:+}..={:+} (final captured difference for the side to move)",
            if sol.stats.too_deep {
                "(a line too deep)"
            } else {
                "within --time"
            },
            sol.lower,
            sol.upper
        ),
    }
    for m in &sol.moves {
        if m.lower == m.upper {
            println!("  pit {}: {:+}", m.pit, m.lower);
        } else {
            println!("  pit {}: {:+}..={:+}", m.pit, m.lower, m.upper);
        }
    }
    if !sol.pv.is_empty() {
        println!(
            "principal variation: {} ({})",
            sol.pv,
            match sol.pv_end {
                Some(PvEnd::Repetition) =>
                    "a position repeats: endless play, the seeds left split evenly",
                Some(PvEnd::GameOver) => "the game ends",
                None => "cut: the time ran out before the line's end",
            }
        );
    }
    if sol.stats.too_deep {
        println!(
            "the search met a line of {} plies without an end and stopped there (the deepest it can go): build more tables",
            mancala_solver::search::cyclic::MAX_PLY
        );
    }
    println!(
        "searched {} nodes in {:.2} s ({} table probes, {} repetitions)",
        sol.stats.nodes, sol.seconds, sol.stats.probes, sol.stats.repetitions
    );
    Ok(ExitCode::SUCCESS)
}

/// `mancala solve awari|oware M N` (or a position): the value of the start
/// and of every opening move, from the tables, built when missing.
pub(super) fn solve_by_tables<G: TableGame>(game: G, args: &SolveHow<'_>) -> Result<ExitCode> {
    let pos = position_of(game, args)?;
    solve_position_by_tables(game, pos, args)
}

/// Awari and Oware: by the tables when they hold the position or can be
/// built for it, else by the exact search over the tables on disk.
pub(super) fn solve_awari(game: AwariGame, args: &SolveHow<'_>) -> Result<ExitCode> {
    let pos = position_of(game, args)?;
    if let Some(path) = args.resume {
        // Refused before anything is built or read from the tables: a file
        // that is not a checkpoint of this search.
        CyclicCheckpoint::read(path)?;
    }
    let search = || search(game, &pos, args);
    // Tables limited below the position (--max-table-seeds, --no-tables):
    // the search over them, as asked, even where a table holds the board.
    let limited = args.no_tables
        || args
            .max_table_seeds
            .is_some_and(|k| k < pos.seeds_on_board());
    if limited || beyond_tables(game, &pos, args.db)? {
        return search();
    }
    match solve_position_by_tables(game, pos, args) {
        Err(e @ (Error::BeyondTables { .. } | Error::BuildTooLarge { .. })) => {
            // The tables are worth building for positions like this one:
            // say how, then search over the tables there are.
            eprintln!(
                "note: {}; solving by the exact search instead",
                super::render::error_message(&e)
            );
            search()
        }
        Err(e @ Error::MissingTable { .. }) if args.no_build => {
            // --no-build: the tables on disk, and the search above them.
            eprintln!(
                "note: {}; --no-build: solving by the exact search over the tables on disk",
                super::render::error_message(&e)
            );
            search()
        }
        other => other,
    }
}

/// The position `mancala solve` names: `M N` (the start) or a position.
fn position_of<G: mancala_solver::game::Game>(game: G, args: &SolveHow<'_>) -> Result<G::Position> {
    super::BoardWords::parse("solve", game.name(), args.board)?.position(game)
}

fn solve_position_by_tables<G: TableGame>(
    game: G,
    pos: G::Position,
    args: &SolveHow<'_>,
) -> Result<ExitCode> {
    // A large build (hours, gigabytes) is asked for with `mancala build`,
    // not started by a solve.
    let policy = if args.no_build {
        OnDemand::Never
    } else {
        DEFAULT_ON_DEMAND
    };
    let label = TableLabel {
        game: game.name(),
        rules: None,
        pits: pos.pits(),
        seeds: G::table_seeds(&pos),
    };
    let deadline = Deadline::new(args.time, build_command(&label, args.db));
    let v = super::query::value_position(game, pos, args.db, &policy, deadline.observer())?;
    deadline.tables_ready();
    super::query::show(&v, args.json);
    Ok(ExitCode::SUCCESS)
}

/// `--time` over the tables a solve builds on first use: the time bounds
/// the whole command, and such a build can take far longer than the time
/// asked for. Once a build starts ([`Event::BuildingMissing`]) a watch
/// runs to the deadline; if the tables are not ready by then the process
/// ends with an error naming the command that builds them. Tables are
/// written whole under their lock, and a stopped build goes on where it
/// stopped, so the tables finished so far are kept.
#[derive(Clone)]
pub(super) struct Deadline {
    /// `--time`, and the instant it ends.
    at: Option<(f64, std::time::Instant)>,
    build: Arc<String>,
    /// The running watch (its thread ends when the sender is dropped), and
    /// whether the tables are ready (no watch starts after that).
    watch: Arc<std::sync::Mutex<(Option<std::sync::mpsc::Sender<()>>, bool)>>,
}

impl Deadline {
    /// `seconds` from now (none: no deadline); `build` is the command that
    /// builds the tables ahead of the solve.
    pub(super) fn new(seconds: Option<f64>, build: String) -> Deadline {
        Deadline {
            at: seconds.map(|t| {
                (
                    t,
                    std::time::Instant::now() + std::time::Duration::from_secs_f64(t),
                )
            }),
            build: Arc::new(build),
            watch: Arc::default(),
        }
    }

    /// The progress observer of the table build: the command's, starting
    /// the watch when a build on first use starts.
    pub(super) fn observer(&self) -> Observer {
        let inner = progress::observer(false);
        let deadline = self.clone();
        Observer::new(move |e: &Event<'_>| {
            if let Event::BuildingMissing { .. } = e {
                deadline.start_watch();
            }
            inner.event(e);
        })
    }

    fn start_watch(&self) {
        let Some((seconds, at)) = self.at else {
            return;
        };
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        if watch.0.is_some() || watch.1 {
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let build = self.build.clone();
        let left = at.saturating_duration_since(std::time::Instant::now());
        std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(left) {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "\nerror: --time {seconds} s ran out while the tables this solve needs were \
                     being built on first use (the tables finished so far are kept): build them \
                     first with `{build}`, or give more time"
                );
                std::process::exit(1);
            }
        });
        watch.0 = Some(tx);
    }

    /// The tables are ready: end the watch (the search keeps to the time
    /// itself).
    pub(super) fn tables_ready(&self) {
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        watch.0 = None;
        watch.1 = true;
    }
}
