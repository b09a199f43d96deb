//! `mancala solve`: solve Kalah(m, n) or any Kalah position exactly.

use super::progress;
use mancala_solver::tables::MAX_TABLE_PITS;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use mancala_solver::error::{Error, Result};
use mancala_solver::family::Rules;
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::ohvalhu::Ohvalhu;
use mancala_solver::search::checkpoint::Identity;
use mancala_solver::search::{
    solve, Checkpoint, CheckpointReason, Checkpointing, MoveOrder, SolveOptions,
};
use mancala_solver::tablebase::{BuildSettings, OnDemand, TableSet};
use mancala_solver::tables::index::{size_up_to, MAX_INDEX_SEEDS};
use mancala_solver::vai_lung_thlan::VaiLungThlan;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Positions in the 6-pit tables built by default on first use: up to 20
/// seeds (225,332,381 positions, about 15 s on two cores, 102 MiB), with
/// which Kalah(6,4), the main job, solves in under a second.
const DEFAULT_TABLE_POSITIONS_6: u64 = 230_000_000;

/// Positions in the tables of narrower boards built by default on first
/// use: about a minute of building on two cores and 450 MiB of disk (5 pits
/// up to 30 seeds: 847 M positions, 73 s; then Kalah(5,6) solves in 0.7 s
/// instead of 9.6 s with 25 seeds and minutes without tables; 4 pits up to
/// 45 seeds; 1 to 3 pits: every seed count a position has).
const DEFAULT_TABLE_POSITIONS: u64 = 900_000_000;

/// Arguments of `mancala solve`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "Examples:\n  mancala solve kalah 6 4\n  \
mancala solve kalah 6 5 --max-table-seeds 24 --tt-mb 4096\n  \
mancala solve kalah \"0 3 0 2 1 4 20 1 0 2 3 0 2 10\" --json\n  \
mancala solve kalah 5 4 --no-etc --no-futility --threads 1\n  \
mancala solve awari 3 3\n  \
mancala solve oware 4 2 --json\n\n\
Awari, Oware, Vai Lung Thlan and Ohvalhu are solved whole from their tables (built into --db \
on first use): the value of the start (or of the position given) and of every opening move. \
Only --db, --no-build and --json apply to them. Vai Lung Thlan values are played on to the \
empty board (the early end past half dropped: the same winner).\n\n\
The value is the final store difference for the side to move (stores included). \
The principal variation uses the published notation: pits 0..m-1 from the mover's \
left, the moves of one turn together, a dash where the turn passes. Depth counts \
plies (single sowings).")]
pub struct SolveArgs {
    /// The game: kalah, awari, oware, vai-lung-thlan or ohvalhu.
    #[arg(value_parser = ["kalah", "awari", "oware", "vai-lung-thlan", "ohvalhu"])]
    pub game: String,
    /// Either M N (pits per side, seeds per pit: the start of Kalah(M, N)) or
    /// one quoted position from the side to move (2m+2 numbers).
    #[arg(required = true, num_args = 1..=2)]
    pub board: Vec<String>,
    /// Directory of the endgame tables.
    #[arg(long, default_value = "db")]
    pub db: PathBuf,
    /// Rule set: default, capture-needs-opposite or end-when-mover-empty.
    #[arg(long, default_value = "default")]
    pub rules: String,
    /// Load the tables for 1..=K seeds in play (building missing ones unless
    /// --no-build); 0 searches without tables. Default: what the table
    /// directory holds; for 6 pits the tables up to 20 seeds (or the seeds in
    /// play, if fewer) are built on first use.
    #[arg(long, value_name = "K")]
    pub max_table_seeds: Option<usize>,
    /// Never build tables; use only what is on disk.
    #[arg(long)]
    pub no_build: bool,
    /// Transposition-table size in MiB (the positions near the tables go
    /// to the near table, see --near-tt-kb; give bigger games more, e.g.
    /// 8192 for Kalah(6,5)).
    #[arg(long, default_value_t = 32)]
    pub tt_mb: usize,
    /// Size in KiB of the near transposition table, a cache-sized table of
    /// its own for the positions within --near-seeds seeds of the largest
    /// loaded table (0: one table for all).
    #[arg(long, default_value_t = 256)]
    pub near_tt_kb: usize,
    /// Positions with at most this many seeds in play above the largest
    /// loaded table use the near transposition table.
    #[arg(long, default_value_t = 6)]
    pub near_seeds: u32,
    /// Decode the tables into memory, largest first, as long as they fit in
    /// this many MiB (one cache miss per look-up instead of two; the 6-pit
    /// tables up to 20 seeds take 132 MiB); 0 reads them from the files.
    #[arg(long, default_value_t = 4096, value_name = "MIB")]
    pub table_memory_mb: u64,
    /// Switch the transposition table off.
    #[arg(long)]
    pub no_tt: bool,
    /// Switch futility pruning off.
    #[arg(long)]
    pub no_futility: bool,
    /// Switch enhanced transposition cut-offs off.
    #[arg(long)]
    pub no_etc: bool,
    /// Let enhanced transposition cut-offs read the children's bounds from
    /// the main transposition table too (by default only from the near
    /// table: the main table's entries miss the cache, and waiting for them
    /// costs more than it saves; see benches/solve.sh enhancements).
    #[arg(long)]
    pub etc_main_tt: bool,
    /// Do not probe the tables (same as --max-table-seeds 0).
    #[arg(long)]
    pub no_tables: bool,
    /// Move ordering after the transposition move: "banked" (extra turns,
    /// then most seeds banked; see benches/solve.sh ordering) or
    /// "published" (extra turns, captures, right to left).
    #[arg(long, default_value = "banked")]
    pub order: MoveOrder,
    /// Iterative-deepening step in plies (3 in the first published solver);
    /// the default, two iterations of 10 and 20 plies, gives the exact
    /// search its first guess (see benches/solve.sh enhancements); 0
    /// searches at full depth at once.
    #[arg(long, default_value_t = 10)]
    pub id_step: u32,
    /// Last limited iterative-deepening depth before the jump to full depth.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=254))]
    pub id_jump: u32,
    /// First guess of the value (final store difference for the side to move).
    #[arg(long, allow_hyphen_values = true)]
    pub guess: Option<i32>,
    /// Worker threads (0 or omitted: all cores; at most 4 per core).
    #[arg(long, default_value_t = 0, value_parser = super::render::parse_threads)]
    pub threads: usize,
    /// Split between threads only this many plies or fewer from the root.
    #[arg(long, default_value_t = 12)]
    pub split_plies: u32,
    /// Stop after this many seconds of search and print the best result so
    /// far: proven bounds and the best move found (not an exact value).
    #[arg(long, value_name = "SECONDS", value_parser = super::render::parse_seconds)]
    pub time: Option<f64>,
    /// Save what the search has proven so far to FILE (zstd-compressed,
    /// written atomically): every --checkpoint-every seconds, on SIGINT or
    /// SIGTERM (which then stop the solve; a second one ends it at once),
    /// at --time, and when the solve finishes. Resume with --resume FILE.
    #[arg(long, value_name = "FILE", value_parser = super::render::parse_output_file)]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between two periodic checkpoints (taken at a lowered
    /// priority, on Linux 10 steps of niceness below the solve: on a busy
    /// machine a big one, such as 16 M entries of a 4 GiB table, takes
    /// about a minute rather than a few seconds).
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0, value_parser = super::render::parse_seconds)]
    pub checkpoint_every: f64,
    /// At most this many transposition-table entries in a checkpoint (the
    /// most valuable: full-depth entries of the largest subtrees first).
    #[arg(long, value_name = "N", default_value_t = 8_000_000)]
    pub checkpoint_entries: usize,
    /// Go on from a checkpoint written by --checkpoint for the same
    /// position, rules and tables (a finished one prints its result at
    /// once). May be the --checkpoint file itself.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// No live progress on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Seeds of the tables built on first use, for any width: as many as fit
/// in [`DEFAULT_TABLE_POSITIONS_6`] (6 pits) or [`DEFAULT_TABLE_POSITIONS`]
/// positions, never more than the position has in play.
fn default_table_seeds(m: usize, in_play: usize) -> usize {
    let budget = if m == MAX_TABLE_PITS {
        DEFAULT_TABLE_POSITIONS_6
    } else {
        DEFAULT_TABLE_POSITIONS
    };
    (1..=MAX_INDEX_SEEDS)
        .take_while(|&k| size_up_to(m, k) <= budget)
        .last()
        .unwrap_or(1)
        .min(in_play)
}

/// The tables the solve reads: what `--max-table-seeds` asks for (built
/// when missing unless `--no-build`), else what the directory holds, with
/// the default tables built on first use.
fn load_tables(
    args: &SolveArgs,
    rules: KalahRules,
    m: usize,
    in_play: usize,
) -> Result<Option<TableSet<KalahRules>>> {
    if args.no_tables || args.max_table_seeds == Some(0) {
        return Ok(None);
    }
    let dir = &args.db;
    let want = args
        .max_table_seeds
        .unwrap_or_else(|| default_table_seeds(m, in_play));
    if want > MAX_INDEX_SEEDS {
        return Err(Error::Unsupported(format!(
            "--max-table-seeds {want}: tables go up to {MAX_INDEX_SEEDS} seeds"
        )));
    }
    if args.no_build && args.max_table_seeds.is_none() {
        return Ok(Some(TableSet::open_available(dir, rules, m)?));
    }
    let policy = if args.no_build {
        OnDemand::Never
    } else {
        OnDemand::UpTo(u64::MAX)
    };
    let settings = BuildSettings {
        progress: progress::observer(false),
        ..BuildSettings::default()
    };
    match TableSet::open_or_build(dir, rules, m, want, &policy, &settings) {
        // The default tables are beyond a small machine: use what is there.
        Err(Error::BeyondTables { .. }) if args.max_table_seeds.is_none() => {
            Ok(Some(TableSet::open_available(dir, rules, m)?))
        }
        result => Ok(Some(result?)),
    }
}

/// A note for a solve that will search without the tables that would make
/// it fast (when building them is cheap), naming the command that builds
/// them.
fn missing_tables_note(args: &SolveArgs, m: usize, in_play: usize, used: usize) -> Option<String> {
    let cheap = default_table_seeds(m, in_play);
    if args.quiet || args.no_tables || args.max_table_seeds.is_some() || used >= cheap {
        return None;
    }
    let mut cmd = format!("mancala build kalah --pits {m} --max-seeds {cheap}");
    if args.rules != "default" {
        cmd.push_str(&format!(" --rules {}", args.rules));
    }
    if args.db != std::path::Path::new("db") {
        cmd.push_str(&format!(" --db {}", args.db.display()));
    }
    Some(format!(
        "note: searching with {} where {m}-pit tables up to {cheap} seeds ({} positions, \
         about a minute or less to build) would make this solve much faster: `{cmd}`{}",
        if used == 0 {
            "no endgame tables".to_string()
        } else {
            format!("endgame tables up to {used} seeds")
        },
        size_up_to(m, cheap),
        if args.no_build {
            ", or drop --no-build"
        } else {
            ""
        }
    ))
}

fn parse_board(board: &[String]) -> Result<Position> {
    match board {
        [text] => Position::parse(text),
        [m, n] => {
            let num = |t: &String, what: &str| {
                t.parse::<usize>().map_err(|_| {
                    Error::Unsupported(format!(
                        "{what} \"{t}\" is not a whole number: write `solve kalah M N` or \
                         `solve kalah \"<position>\"`"
                    ))
                })
            };
            Position::start(num(m, "pits per side")?, num(n, "seeds per pit")?)
        }
        _ => Err(Error::Unsupported(
            "write `solve kalah M N` or `solve kalah \"<position>\"`".into(),
        )),
    }
}

/// Run `mancala solve`.
pub fn run(args: SolveArgs) -> Result<ExitCode> {
    if args.game != "kalah" && (args.checkpoint.is_some() || args.resume.is_some()) {
        return Err(Error::Unsupported(format!(
            "--checkpoint and --resume apply to the Kalah solver; {} is solved from its tables",
            args.game
        )));
    }
    let rules = match Rules::from_name(&args.game, Some(&args.rules))? {
        Rules::Kalah(rules) => rules,
        Rules::Awari(game) => return solve_by_tables(game, &args),
        Rules::Ohvalhu => return solve_by_tables(Ohvalhu, &args),
        Rules::VaiLungThlan => return solve_by_tables(VaiLungThlan, &args),
    };
    let pos = parse_board(&args.board)?;
    let m = pos.pits_per_side();
    if m > MAX_TABLE_PITS {
        return Err(Error::Unsupported(format!(
            "{m} pits per side: the solver handles 1 to {MAX_TABLE_PITS} pits per side"
        )));
    }
    if args.tt_mb == 0 && !args.no_tt {
        return Err(Error::Unsupported(
            "--tt-mb 0: give the transposition table at least 1 MiB, or use --no-tt".into(),
        ));
    }
    if !args.no_tt {
        mancala_solver::search::tt::check_tt_mb(args.tt_mb)?;
    }
    // A checkpoint is read and checked against the position before tables
    // are loaded or built; its tables are checked by the solve.
    let resume = match &args.resume {
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
    let mut tables = if pos.is_game_over(rules) {
        None
    } else {
        load_tables(&args, rules, m, pos.active_seeds())?
    };
    let used = tables.as_ref().map_or(0, |t| t.max_seeds());
    if let Some(note) = missing_tables_note(&args, m, pos.active_seeds(), used) {
        eprintln!("{note}");
    }
    let load_start = std::time::Instant::now();
    let mut in_memory = 0;
    if let Some(tb) = tables.as_mut() {
        let k = args.max_table_seeds.unwrap_or(usize::MAX);
        in_memory = tb.load_into_memory(k, args.table_memory_mb.saturating_mul(1 << 20))?;
    }
    let load_seconds = load_start.elapsed().as_secs_f64();
    if in_memory > 0 && !args.quiet {
        eprintln!(
            "tables decoded into memory: {} MiB in {load_seconds:.2} s",
            in_memory >> 20
        );
    }
    let deadline = args
        .time
        .map(|t| std::time::Instant::now() + std::time::Duration::from_secs_f64(t));
    let stop = Arc::new(AtomicBool::new(false));
    let final_error: Arc<Mutex<Option<String>>> = Arc::default();
    let checkpoint = match &args.checkpoint {
        Some(path) => {
            // The first SIGINT or SIGTERM stops the search (the checkpoint
            // is written and the bounds printed); a second ends the process.
            for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
                let install = || -> std::io::Result<()> {
                    signal_hook::flag::register_conditional_shutdown(sig, 130, stop.clone())?;
                    signal_hook::flag::register(sig, stop.clone())?;
                    Ok(())
                };
                install().map_err(|e| Error::io(path, e))?;
            }
            let path = path.clone();
            let final_error = final_error.clone();
            Some(Checkpointing {
                every: std::time::Duration::from_secs_f64(args.checkpoint_every.max(0.01)),
                max_entries: args.checkpoint_entries,
                save: Arc::new(move |c: &Checkpoint, reason| {
                    let written = c.write(&path);
                    if reason != CheckpointReason::Periodic {
                        *final_error.lock().unwrap_or_else(|e| e.into_inner()) =
                            written.as_ref().err().map(|e| e.to_string());
                    }
                    written
                }),
            })
        }
        None => None,
    };
    let resumed = resume.clone();
    let opts = SolveOptions {
        rules,
        tt_mb: args.tt_mb,
        near_tt_kb: args.near_tt_kb,
        near_seeds: args.near_seeds,
        use_tt: !args.no_tt,
        use_futility: !args.no_futility,
        use_etc: !args.no_etc,
        etc_main_tt: args.etc_main_tt,
        order: args.order,
        use_tables: tables.is_some(),
        max_table_seeds: args.max_table_seeds,
        id_step: args.id_step,
        id_jump: args.id_jump,
        guess: args.guess,
        threads: args.threads,
        split_plies: args.split_plies,
        // Quiet: only what must be known (a checkpoint that failed).
        progress: progress::observer(args.quiet),
        deadline,
        stop: Some(stop.clone()),
        shared_tt: None,
        checkpoint,
        resume,
    };
    let sol = solve(&pos, tables.as_ref(), &opts);
    progress::end_status(&opts.progress);
    let sol = match (sol, &args.resume) {
        (Err(e), Some(path)) => return Err(checkpoint_error(e, path)),
        (sol, _) => sol?,
    };
    let signalled = stop.load(Ordering::Relaxed) && !sol.exact;
    let resumed_from = resumed.as_ref().map(|ck| {
        let st = &ck.state;
        json!({
            "file": args.resume.as_ref().map(|p| p.display().to_string()),
            "finished": st.finished.is_some(),
            "depth_completed": st.depth,
            "exact_started": st.exact_started,
            "lower": st.lower,
            "upper": st.upper,
            "opening_moves": st.root_moves.iter().map(|r| json!({
                "pit": r.pit, "lower": r.lower, "upper": r.upper
            })).collect::<Vec<_>>(),
            "entries": ck.entries.len(),
            "nodes_before": st.nodes,
            "seconds_before": st.seconds,
        })
    });
    let st = &sol.stats;
    if args.json {
        let out = json!({
            "position": pos.to_string(),
            "rules": rules.name(),
            // A stopped search proves bounds, not a value: `value`, the
            // best turn and the line stay null, `estimate` and
            // `best_move_so_far` say what it found.
            "value": sol.proven_value(),
            "exact": sol.exact,
            "lower": sol.lower,
            "upper": sol.upper,
            "estimate": sol.value,
            "verdict": sol.verdict(),
            "best_move": sol.best_move.filter(|_| sol.exact),
            "best_move_so_far": sol.best_move,
            "best_turn": sol.exact.then(|| sol.best_turn()),
            "pv": sol.exact.then_some(&sol.pv),
            "depth_completed": sol.depth,
            "stats": st,
            "solve_seconds": sol.solve_seconds,
            "pv_seconds": sol.pv_seconds,
            "threads": sol.threads,
            "table_seeds": sol.table_seeds,
            "table_memory_bytes": in_memory,
            "table_load_seconds": load_seconds,
            "tt_mb": if opts.use_tt { opts.tt_mb } else { 0 },
            "near_tt_kb": if opts.use_tt { opts.near_tt_kb } else { 0 },
            "stopped_by_signal": signalled,
            "checkpoint": args.checkpoint.as_ref().map(|p| p.display().to_string()),
            "resumed_from": resumed_from,
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    } else {
        println!("position: {pos}");
        print!("{}", pos.board());
        if let Some(ck) = &resumed {
            let st = &ck.state;
            println!(
                "resumed from {}: {}",
                args.resume
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string()),
                if st.finished.is_some() {
                    "a finished solve".to_string()
                } else {
                    format!(
                        "depth {} completed, {}, {} of {} opening moves valued, {} \
                         transposition entries, {} nodes and {:.1} s before",
                        st.depth,
                        if st.exact_started {
                            format!("value in [{:+}, {:+}]", st.lower, st.upper)
                        } else {
                            "exact search not started".to_string()
                        },
                        st.root_moves.iter().filter(|r| r.lower == r.upper).count(),
                        st.root_moves.len(),
                        ck.entries.len(),
                        st.nodes,
                        st.seconds
                    )
                }
            );
        }
        if sol.exact {
            println!(
                "value: {:+} ({} for the side to move; final store difference, stores included)",
                sol.value,
                sol.verdict().unwrap_or("?")
            );
        } else {
            println!(
                "value: not proven, stopped by {}: between {:+} and {:+} \
                 (estimate {:+}; final store difference, stores included){}",
                if signalled { "a signal" } else { "--time" },
                sol.lower,
                sol.upper,
                sol.value,
                match sol.verdict() {
                    Some(v) => format!("; proven a {v} for the side to move"),
                    None => String::new(),
                }
            );
        }
        match sol.best_move {
            Some(p) if !sol.exact => {
                println!("best move so far: pit {p} (depth {} completed)", sol.depth)
            }
            Some(p) => println!(
                "best first turn: {} (best move: pit {p})",
                sol.best_turn()
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<String>()
            ),
            None => println!("the game is over"),
        }
        println!("principal variation: {}", sol.pv);
        println!(
            "search: {} nodes, {} table hits, {} transposition hits ({} cut-offs), \
             {} futility cut-offs, {} ETC cut-offs, {} MTD(f) passes in {} iterations, \
             {} parallel tasks",
            st.nodes,
            st.table_hits,
            st.tt_hits,
            st.tt_cutoffs,
            st.futility_cutoffs,
            st.etc_cutoffs,
            st.mtdf_passes,
            st.iterations,
            st.parallel_tasks
        );
        if let Some(p) = &st.profile {
            print_profile(p);
        }
        println!(
            "time: {:.3} s to solve, {:.3} s for the principal variation, {:.3} s to decode \
             the tables into memory; {} thread(s), tables up to {} seeds ({} MiB in memory), \
             transposition table {}",
            sol.solve_seconds,
            sol.pv_seconds,
            load_seconds,
            sol.threads,
            sol.table_seeds,
            in_memory >> 20,
            match (opts.use_tt, opts.near_tt_kb) {
                (false, _) => "off".to_string(),
                (true, 0) => format!("{} MiB", opts.tt_mb),
                (true, kb) => format!(
                    "{} MiB + {kb} KiB per thread near the tables (up to {} seeds above them)",
                    opts.tt_mb, opts.near_seeds
                ),
            }
        );
    }
    if let Some(path) = &args.checkpoint {
        if let Some(e) = final_error.lock().unwrap_or_else(|e| e.into_inner()).take() {
            eprintln!("error: the last checkpoint was not written: {e}");
            return Ok(ExitCode::from(1));
        }
        if !args.quiet && !sol.exact {
            eprintln!(
                "checkpoint {} written: go on with --resume {}",
                path.display(),
                path.display()
            );
        }
    }
    // Stopped by SIGINT or SIGTERM: the conventional code of an interrupt.
    Ok(if signalled {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// A checkpoint error as the command line shows it: with the file named.
fn checkpoint_error(e: Error, path: &std::path::Path) -> Error {
    match e {
        Error::WrongCheckpoint { saved, asked } => Error::BadCheckpoint {
            path: path.to_path_buf(),
            reason: format!("it was made for {saved}, not {asked}"),
        },
        e => e,
    }
}

/// `mancala solve awari|oware M N` (or a position): the value of the start
/// and of every opening move, from the tables, built when missing.
fn solve_by_tables<G: super::query::Present>(game: G, args: &SolveArgs) -> Result<ExitCode> {
    let usage = || {
        format!(
            "write `solve {} M N` or `solve {} \"<board>\"`",
            game.name(),
            game.name()
        )
    };
    let pos = match args.board.as_slice() {
        [text] => game.parse(text)?,
        [m, n] => {
            let num = |t: &String, what: &str| {
                t.parse::<usize>().map_err(|_| {
                    Error::Unsupported(format!("{what} \"{t}\" is not a whole number: {}", usage()))
                })
            };
            game.start(num(m, "pits per side")?, num(n, "seeds per pit")?)?
        }
        _ => return Err(Error::Unsupported(usage())),
    };
    let policy = if args.no_build {
        OnDemand::Never
    } else {
        OnDemand::UpTo(u64::MAX)
    };
    let v = super::query::value_position(game, pos, &args.db, &policy)?;
    super::query::show(&v, args.json);
    Ok(ExitCode::SUCCESS)
}

/// The search profile (builds with the `search-profile` feature) as text.
fn print_profile(p: &mancala_solver::search::SearchProfile) {
    println!("profile, MTD(f) passes (active values; depth - is the exact search):");
    println!("  depth  window  value        nodes  if cut first");
    for x in &p.passes {
        let depth = x.depth.map_or("-".to_string(), |d| d.to_string());
        println!(
            "  {depth:>5}  {:>6}  {:>5}  {:>11}  {:>12}",
            x.window, x.value, x.nodes, x.nodes_if_cut_first
        );
    }
    println!("profile, nodes by seeds in play:");
    println!("  seeds        nodes  searched cuts  late cuts  nodes before late cuts  fail-lows");
    for l in p.by_seeds.iter().filter(|l| l.nodes > 0) {
        println!(
            "  {:>5}  {:>11}  {:>13}  {:>9}  {:>22}  {:>9}",
            l.seeds, l.nodes, l.searched_cuts, l.late_cuts, l.nodes_before_late_cuts, l.fail_lows
        );
    }
}
