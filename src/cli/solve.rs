//! `mancala solve`: solve Kalah(m, n) or any Kalah position exactly.

use super::solve_tables::{self, SolveHow};
use super::{progress, BoardWords, GameName, GameNameFlags, TablesArg};
use mancala_solver::tables::MAX_TABLE_PITS;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use mancala_solver::error::TableLabel;
use mancala_solver::error::{Error, Result};
use mancala_solver::family::Rules;
use mancala_solver::kalah::position::Position;
use mancala_solver::with_rules;

use mancala_solver::search::run::default_table_seeds;
use mancala_solver::search::run::{
    prepare, CheckpointFile, MissingTables, RunOptions, RunReport, TableSource,
};
use mancala_solver::search::{MoveOrder, SolveOptions};
use mancala_solver::tablebase::BuildSettings;

use super::render::build_command;
use mancala_solver::tables::index::MAX_INDEX_SEEDS;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Arguments of `mancala solve`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "Examples:\n  mancala solve kalah 6 4\n  \
mancala solve kalah 6 5 --max-table-seeds 24 --tt-mb 4096   # long: minutes\n  \
mancala solve kalah \"0 3 0 2 1 4 20 1 0 2 3 0 2 10\" --json\n  \
mancala solve kalah 5 4 --no-etc --no-futility --threads 1   # long: the 5-pit tables first\n  \
mancala solve awari 3 3\n  \
mancala solve oware 4 2 --json\n\n\
Awari, Oware, Vai Lung Thlan and Ohvalhu are solved whole from their tables (built into --db \
on first use when small; a larger build is left to `mancala build`, which the error names): the \
value of the start (or of the position given) and of every opening move. Awari and Oware positions \
above the tables are solved by the exact search over them, which takes --time, --tt-mb, \
--max-table-seeds, --no-tables, --checkpoint, --checkpoint-every and --resume; for the others only \
--db, --no-build, --time (which bounds the build) and --json apply. Vai Lung Thlan values are played \
on to the empty board (the early end past half dropped: the same winner).\n\n\
The value is the final store difference for the side to move (stores included). \
The principal variation uses the published notation: pits 0..m-1 from the mover's \
left, the moves of one turn together, a dash where the turn passes. Depth counts \
plies (single sowings).")]
pub struct SolveArgs {
    /// The game: kalah, awari, oware, awale, vai-lung-thlan or ohvalhu, or a
    /// full name such as kalah:6:4 (the start of Kalah(6,4)) or
    /// kalah:6:4:capture-needs-opposite.
    #[arg(value_parser = GameName::parse)]
    pub game: GameName,
    /// Either M N (pits per side, seeds per pit: the start of Kalah(M, N)) or
    /// a position from the side to move (Kalah: 2m+2 numbers), quoted or as
    /// separate words; none when the game's name gives the board
    /// (kalah:6:4).
    #[arg(num_args = 0..)]
    pub board: Vec<String>,
    #[command(flatten)]
    pub tables: TablesArg,
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
    /// Stop after this many seconds and print the best result so far:
    /// proven bounds and the best move found (not an exact value). The time
    /// counts from the start: tables built on first use that are not ready
    /// by then end the command with an error (the finished ones are kept).
    #[arg(long, value_name = "SECONDS", value_parser = super::render::parse_seconds)]
    pub time: Option<f64>,
    /// Save what the search has proven so far to FILE (written
    /// atomically; Kalah's zstd-compressed): every --checkpoint-every
    /// seconds (Awari and Oware: after an MTD(f) pass of the root), on
    /// SIGINT or SIGTERM (which then stop the solve; a second one ends it
    /// at once), at --time, and when the solve finishes. Resume with
    /// --resume FILE.
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

/// A note for a solve that will search without the tables that would make
/// it fast (when building them is cheap), naming the command that builds
/// them.
fn missing_tables_note(args: &SolveArgs, missing: &MissingTables) -> String {
    let (m, cheap, used) = (missing.pits, missing.seeds, missing.used);
    let mut cmd = format!("mancala build kalah --pits {m} --max-seeds {cheap}");
    if args.rules != "default" {
        cmd.push_str(&format!(" --rules {}", args.rules));
    }
    if args.tables.db != std::path::Path::new("db") {
        cmd.push_str(&format!(" --db {}", args.tables.db.display()));
    }
    format!(
        "note: searching with {} where {m}-pit tables up to {cheap} seeds ({} positions, \
         about a minute or less to build) would make this solve much faster: `{cmd}`{}",
        if used == 0 {
            "no endgame tables".to_string()
        } else {
            format!("endgame tables up to {used} seeds")
        },
        missing.positions,
        if args.no_build {
            ", or drop --no-build"
        } else {
            ""
        }
    )
}

/// The Kalah position of `solve`'s board words.
fn parse_board(board: &[String]) -> Result<Position> {
    match BoardWords::parse("solve", "kalah", board)? {
        BoardWords::Start { pits, seeds } => Position::start(pits, seeds),
        BoardWords::Position(text) => Position::parse(&text),
    }
}

/// Run `mancala solve`.
pub fn run(mut args: SolveArgs) -> Result<ExitCode> {
    match (args.board.is_empty(), args.game.pits, args.game.seeds) {
        (true, Some(m), Some(n)) => args.board = vec![m.to_string(), n.to_string()],
        (true, _, _) => {
            return Err(Error::Unsupported(format!(
                "give the board: `solve {0} M N`, `solve {0}:M:N` or `solve {0} \"<position>\"`",
                args.game.name
            )))
        }
        (false, None, None) => {}
        (false, _, _) => {
            return Err(Error::Conflict(format!(
                "the game's name gives the board ({}:M:N): drop the board after it",
                args.game.name
            )))
        }
    }
    let searched = args.game.rules(&args.rules)?.has_exact_search();
    if !searched && (args.checkpoint.is_some() || args.resume.is_some()) {
        return Err(Error::Unsupported(format!(
            "--checkpoint and --resume apply to the exact searches (Kalah, Awari, Oware); {} is \
             solved from its tables",
            args.game.name
        )));
    }
    let how = SolveHow {
        board: &args.board,
        db: &args.tables.db,
        no_build: args.no_build,
        max_table_seeds: args.max_table_seeds,
        no_tables: args.no_tables,
        tt_mb: args.tt_mb,
        time: args.time,
        json: args.json,
        quiet: args.quiet,
        checkpoint: args.checkpoint.as_deref(),
        checkpoint_every: args.checkpoint_every,
        resume: args.resume.as_deref(),
    };
    let rules = match args.game.rules(&args.rules)? {
        Rules::Kalah(rules) => rules,
        Rules::Awari(game) if game.has_tables() => return solve_tables::solve_awari(game, &how),
        // Every other game is solved whole from its tables.
        other => return with_rules!(other, g => solve_tables::solve_by_tables(g, &how)),
    };
    let pos = parse_board(&args.board)?;
    let m = pos.pits_per_side();
    if m > MAX_TABLE_PITS {
        return Err(Error::OutOfRange(format!(
            "{m} pits per side: the solver handles 1 to {MAX_TABLE_PITS} pits per side"
        )));
    }
    if args.tt_mb == 0 && !args.no_tt {
        return Err(Error::Unsupported(
            "--tt-mb 0: give the transposition table at least 1 MiB, or use --no-tt".into(),
        ));
    }
    if let Some(want) = args.max_table_seeds.filter(|&k| k > MAX_INDEX_SEEDS) {
        return Err(Error::OutOfRange(format!(
            "--max-table-seeds {want}: tables go up to {MAX_INDEX_SEEDS} seeds"
        )));
    }
    // With a checkpoint, the first SIGINT or SIGTERM stops the search (the
    // checkpoint is written and the bounds printed); a second ends the
    // process.
    let stop = match &args.checkpoint {
        Some(path) => super::stop_on_signals(path)?,
        None => Arc::new(AtomicBool::new(false)),
    };
    // The tables built on first use keep to --time too.
    let label = TableLabel {
        game: "kalah",
        rules: Some(rules.name()).filter(|&n| n != "default"),
        pits: m,
        seeds: args
            .max_table_seeds
            .unwrap_or_else(|| default_table_seeds(m, pos.active_seeds())),
    };
    let deadline = solve_tables::Deadline::new(args.time, build_command(&label, &args.tables.db));
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
        id_step: args.id_step,
        id_jump: args.id_jump,
        guess: args.guess,
        threads: args.threads,
        split_plies: args.split_plies,
        // Quiet: only what must be known (a checkpoint that failed).
        progress: progress::observer(args.quiet),
        deadline: args
            .time
            .map(|t| std::time::Instant::now() + std::time::Duration::from_secs_f64(t)),
        stop: Some(stop.clone()),
        ..SolveOptions::default()
    };
    let tables = if args.no_tables || args.max_table_seeds == Some(0) {
        TableSource::None
    } else {
        TableSource::Directory {
            dir: args.tables.db.clone(),
            max_seeds: args.max_table_seeds,
            build: !args.no_build,
            memory: args.table_memory_mb.saturating_mul(1 << 20),
            settings: BuildSettings {
                progress: deadline.observer(),
                ..BuildSettings::default()
            },
        }
    };
    let run = prepare(
        &pos,
        RunOptions {
            search: opts.clone(),
            tables,
            checkpoint: args.checkpoint.as_ref().map(|path| CheckpointFile {
                path: path.clone(),
                every: std::time::Duration::from_secs_f64(args.checkpoint_every),
                max_entries: args.checkpoint_entries,
            }),
            resume: args.resume.clone(),
        },
    )?;
    deadline.tables_ready();
    if let Some(missing) = run.missing.as_ref().filter(|_| !args.quiet) {
        eprintln!("{}", missing_tables_note(&args, missing));
    }
    if run.table_memory_bytes > 0 && !args.quiet {
        eprintln!(
            "tables decoded into memory: {} MiB in {:.2} s",
            run.table_memory_bytes >> 20,
            run.table_load_seconds
        );
    }
    let report = run.solve();
    progress::end_status(&opts.progress);
    let report = report?;
    render(&args, &pos, &opts, &report);
    let (sol, signalled) = (&report.solution, report.stopped);
    if let Some(path) = &args.checkpoint {
        if let Some(e) = &report.checkpoint_error {
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

/// Print a finished (or stopped) run: JSON, or text.
fn render(args: &SolveArgs, pos: &Position, opts: &SolveOptions, report: &RunReport) {
    let rules = opts.rules;
    let (in_memory, load_seconds) = (report.table_memory_bytes, report.table_load_seconds);
    let sol = &report.solution;
    let resumed = &report.resumed;
    let signalled = report.stopped;
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
    // The opening books' value of the position, beside the search's: the
    // solver still searches (it is what `solve` measures), and every solve
    // of a book position checks the book.
    let book_value = mancala_solver::book::Books::embedded().value(rules, pos);
    if args.json {
        let out = json!({
            "position": pos.to_string(),
            "rules": rules.name(),
            "book_value": book_value,
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
        if let Some(b) = book_value {
            let agrees = if !sol.exact {
                "the search did not finish"
            } else if sol.value == b {
                "the search agrees"
            } else {
                "THE SEARCH DISAGREES: report this"
            };
            println!("opening book: {b:+} ({agrees})");
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
