//! `mancala query GAME "<position>"` (and `mancala solve awari|oware`): the
//! value of a position and of its moves, from the tables, built on first
//! use when small.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;

use mancala_solver::error::{Error, Result};
use mancala_solver::game::Board;
use mancala_solver::tablebase::TableGame;
use mancala_solver::tablebase::{BuildSettings, OnDemand, TableSet, DEFAULT_ON_DEMAND};

use mancala_solver::family::Rules;
use mancala_solver::oracle::analysis::{from_tables, Analysis, Source};
use mancala_solver::oracle::{book_answer, Oracle, OracleConfig, SearchBudget};
use mancala_solver::progress::Observer;
use mancala_solver::tablebase::{text, Line, MoveValue, PvEnd};
use mancala_solver::tables::driver::BuildLimits;
use mancala_solver::tables::index::MAX_INDEX_SEEDS;
use mancala_solver::with_rules;
use mancala_solver::GameSpec;
use std::time::Duration;

use super::{progress, BoardWords, GameArgs, GameName};

/// Arguments of `mancala query`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "Examples:\n  mancala query kalah \"0 3 0 2 1 4 20 1 0 2 3 0 2 10\"\n  \
mancala query kalah 1 0 2 0 3 1 0 0 --json\n  \
mancala query kalah 4 3\n  \
mancala query awari \"0 1 3 2 0 0\"\n  \
mancala query oware \"0 1 3 [20] 2 0 0 [22]\" --json\n\n\
Kalah: values are final store differences for the side to move, stores included. \
Awari and Oware: the value is the seeds the side to move will still win from the board \
minus the opponent's (endless play counts 0); with captured totals given, the final \
score difference is printed too."
)]
pub struct QueryArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The position, from the side to move (Kalah: 2m+2 numbers; Awari and
    /// Oware: 2m, or 2m+2 with the captured totals in brackets), quoted or
    /// as separate words; or M N, the start of the game with M pits a side
    /// and N seeds a pit; none when the game's name gives the board
    /// (kalah:6:4).
    pub position: Vec<String>,
    /// Do not build missing tables; fail instead.
    #[arg(long)]
    pub no_build: bool,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Above the tables that are or may be built on first use: seconds the
    /// exact search may take before it answers with proven bounds.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub time: f64,
    /// Above the tables: the search's transposition table, in MiB.
    #[arg(long, default_value_t = 256, value_name = "MIB")]
    pub tt_mb: usize,
}

/// Run `mancala query`.
pub fn run(args: QueryArgs) -> Result<ExitCode> {
    let policy = if args.no_build {
        OnDemand::Never
    } else {
        DEFAULT_ON_DEMAND
    };
    if !(args.time > 0.0 && args.time <= MAX_QUERY_SECONDS) {
        return Err(Error::Unsupported(format!(
            "--time {}: give seconds above 0, at most {MAX_QUERY_SECONDS} (for longer, `mancala solve`)",
            args.time
        )));
    }
    if args.tt_mb == 0 {
        return Err(Error::Unsupported(
            "--tt-mb 0: the search needs a transposition table of at least 1 MiB".into(),
        ));
    }
    let rules = args.game.rules()?;
    let name = &args.game.game;
    let board = match (args.position.is_empty(), name.pits, name.seeds) {
        (true, Some(pits), Some(seeds)) => BoardWords::Start { pits, seeds },
        (true, Some(pits), None) => BoardWords::parse("query", &name.name, &[pits.to_string()])?,
        _ => BoardWords::parse("query", &name.name, &args.position)?,
    };
    with_rules!(rules, g => query_one(g, rules, &board, &args, &policy))
}

/// A position agrees with the board its game's name gives (`kalah:6:4`):
/// the same pits per side, and no more seeds than the start holds.
/// `k`: the seeds on the board (outside the stores).
fn check_named_board<P: Board>(name: &GameName, text: &str, pos: &P, k: usize) -> Result<()> {
    let bad = |reason: String| mancala_solver::notation::bad_position(text, reason);
    if let Some(m) = name.pits.filter(|&m| m != pos.pits()) {
        return Err(bad(format!(
            "it has {} pits per side where the game {}:{m} has {m}; name the game without \
             its board ({}) or give a position of {m} pits a side",
            pos.pits(),
            name.name,
            name.name
        )));
    }
    if let Some(n) = name.seeds {
        let [a, b] = pos.scores();
        let total = k + a as usize + b as usize;
        let most = 2 * pos.pits() * n;
        if total > most {
            return Err(bad(format!(
                "it holds {total} seeds where {}:{}:{n} starts with {most}",
                name.name,
                pos.pits()
            )));
        }
    }
    Ok(())
}

/// `mancala query` in one game: the tables, else the search above them.
fn query_one<G: TableGame>(
    g: G,
    rules: Rules,
    board: &BoardWords,
    args: &QueryArgs,
    policy: &OnDemand,
) -> Result<ExitCode> {
    let pos = board.position(g)?;
    let text = match board {
        BoardWords::Position(text) => text.clone(),
        BoardWords::Start { .. } => pos.to_string(),
    };
    let k = G::table_seeds(&pos);
    check_named_board(&args.game.game, &text, &pos, k)?;
    // An opening the books hold: exact at once, no table to build.
    let spec = GameSpec {
        rules,
        pits: pos.pits(),
        seeds: 1,
    };
    if let Some(a) = book_answer(&spec.to_string(), Some(&text))? {
        if args.json {
            println!("{}", serde_json::to_string_pretty(&a).expect("json"));
        } else {
            print_board(&pos);
            print_search_analysis(&a);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let unlimited = BuildLimits {
        memory_budget: u64::MAX,
        group_bytes: None,
    };
    // No table for `k` seeds can be built at all (the index's limit).
    let beyond_index =
        k > MAX_INDEX_SEEDS || (k > 0 && g.build_memory(pos.pits(), k, &unlimited).is_err());
    let found = if k > MAX_INDEX_SEEDS {
        Err(index_limit::<G>(&pos))
    } else {
        value_position(
            g,
            pos,
            &args.game.tables.db,
            policy,
            progress::observer(false),
        )
    };
    match found {
        Ok(v) => {
            show(&v, args.json);
            Ok(ExitCode::SUCCESS)
        }
        // Tables that cannot be built here (or on first use): the
        // oracle's search above the tables, where the game has one.
        Err(
            e @ (Error::BeyondTables { .. }
            | Error::BuildTooLarge { .. }
            | Error::Unsupported(_)
            | Error::OutOfRange(_)),
        ) if beyond_index || !matches!(e, Error::Unsupported(_) | Error::OutOfRange(_)) => {
            let oracle = Oracle::new(OracleConfig {
                dir: args.game.tables.db.clone(),
                search: SearchBudget {
                    time: Duration::from_secs_f64(args.time),
                    tt_mb: args.tt_mb,
                },
                build_limit: 0,
                agent_time: Duration::ZERO,
                build_threads: None,
            });
            // A position a book holds in part: its value now, before the
            // search of the moves the book does not hold.
            if let Some(v) = oracle
                .query_book_known(&spec.to_string(), Some(&text))?
                .and_then(|k| k.value)
            {
                eprintln!(
                    "note: the opening book gives the value, {v:+} (exact); the moves it does not \
                     hold are searched within --time {} s",
                    args.time
                );
            }
            let a = match oracle.query(&spec.to_string(), Some(&text)) {
                Ok(a) => a,
                // No search for this game: the tables' own message.
                Err(Error::Unsupported(_) | Error::OutOfRange(_) | Error::NoTables { .. }) => {
                    return Err(e)
                }
                Err(other) => return Err(other),
            };
            eprintln!(
                "note: {}; answered by the exact search above the tables on disk \
                 (within --time {} s: `mancala solve {} \"{}\"{}` searches to the end)",
                super::render::error_message(&e),
                args.time,
                g.name(),
                pos,
                rules
                    .rules_name()
                    .filter(|r| *r != "default")
                    .map(|r| format!(" --rules {r}"))
                    .unwrap_or_default()
            );
            if args.json {
                println!("{}", serde_json::to_string_pretty(&a).expect("json"));
            } else {
                print_board(&pos);
                print_search_analysis(&a);
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(e),
    }
}

/// Longest `--time` a query takes (a day).
const MAX_QUERY_SECONDS: f64 = 86_400.0;

fn index_limit<G: TableGame>(pos: &G::Position) -> Error {
    Error::OutOfRange(format!(
        "{} {}: tables go up to {MAX_INDEX_SEEDS} seeds",
        G::table_seeds(pos),
        G::TABLE_SEEDS
    ))
}

/// A position valued by the search above the tables, as text.
fn print_search_analysis(a: &Analysis) {
    let show = |lower: i32, upper: i32| {
        if lower == upper {
            format!("{lower:+}")
        } else {
            format!("{lower:+}..={upper:+}")
        }
    };
    if a.source == Source::Book && a.moves.iter().all(|m| m.exact) {
        println!(
            "{} seeds on the board: from the opening book (exact, proven by its ledger's lines)",
            a.seeds_in_play
        );
    } else if a.source == Source::Book {
        println!(
            "{} seeds on the board: the value from the opening book (exact, proven by its \
             ledger's lines); the moves it does not hold searched within --time",
            a.seeds_in_play
        );
    } else {
        println!(
            "{} seeds on the board, above the tables: exact search, tables on disk probed",
            a.seeds_in_play
        );
    }
    match a.value {
        Some(v) => println!(
            "value: {v:+} ({} for the side to move; the same convention as the tables' answers)",
            a.verdict.unwrap_or("draw")
        ),
        None => println!(
            "not finished within --time: proven bounds {} (the same convention as the tables' answers)",
            show(a.lower, a.upper)
        ),
    }
    if let Some(d) = a.final_difference.filter(|d| Some(*d) != a.value) {
        println!("final score difference with the seeds already captured: {d:+}");
    }
    for m in &a.moves {
        let takes = m.captured.filter(|&c| c > 0);
        println!(
            "  pit {}: {}{}{}",
            m.pit,
            show(m.lower, m.upper),
            takes.map(|c| format!("  (takes {c})")).unwrap_or_default(),
            if a.value.is_some() && m.value == a.value {
                "  best"
            } else {
                ""
            }
        );
    }
    if let Some(p) = a.best_move {
        println!("best move: pit {p}");
    }
    if let Some(pv) = &a.pv {
        println!(
            "principal variation: {pv} ({})",
            match a.pv_end {
                Some(PvEnd::Repetition) =>
                    "a position repeats: endless play, the seeds left split evenly",
                _ if a.pv_cut && a.source == Source::Book =>
                    "cut: the book proves no best move beyond it",
                _ if a.pv_cut => "cut: the time ran out before the line's end",
                _ => "the game ends",
            }
        );
    }
}

/// A position valued from the tables.
pub struct Valued<G: TableGame> {
    pos: G::Position,
    /// The final score difference for the side to move.
    value: i32,
    moves: Vec<MoveValue>,
    over: bool,
    best_move: Option<usize>,
    pv: Option<Line>,
    /// What `--json` prints: the oracle's analysis, the same as the HTTP
    /// server's `/api/v1/query`.
    analysis: Analysis,
}

/// Value `pos` and its moves, opening the tables it needs (built when
/// `policy` allows, reporting to `progress`).
pub fn value_position<G: TableGame>(
    game: G,
    pos: G::Position,
    dir: &Path,
    policy: &OnDemand,
    progress: Observer,
) -> Result<Valued<G>> {
    let m = pos.pits();
    let empty = TableSet::empty(dir, game, m)?;
    let k = G::table_seeds(&pos);
    if k > MAX_INDEX_SEEDS {
        return Err(index_limit::<G>(&pos));
    }
    let over = game.is_over(&pos);
    let set = if over || k == 0 {
        empty
    } else {
        let settings = BuildSettings {
            progress,
            ..BuildSettings::default()
        };
        TableSet::open_or_build(dir, game, m, k, policy, &settings)?
    };
    let value = set.value(&pos).expect("tables loaded");
    let moves = set.move_values(&pos).expect("tables loaded");
    let best_move = set.best_move(&pos).map(|(pit, _)| pit);
    let pv = set.principal_variation(&pos);
    let analysis = from_tables(&set, &pos).expect("tables loaded");
    Ok(Valued {
        pos,
        value,
        moves,
        over,
        best_move,
        pv,
        analysis,
    })
}

/// Print the position and its board.
pub fn print_board<P: Board + std::fmt::Display>(pos: &P) {
    println!("position: {pos}");
    print!("{}", pos.diagram());
}

/// Print `v`: as JSON (the oracle's [`Analysis`], the same in every game)
/// or as text by the game's convention ([`TableGame::value_text`]).
pub fn show<G: TableGame>(v: &Valued<G>, json: bool) {
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&v.analysis).expect("json")
        );
        return;
    }
    print_board(&v.pos);
    print!(
        "{}",
        G::value_text(
            &v.pos,
            &text::Valued {
                value: v.value,
                over: v.over,
                moves: &v.moves,
                best_move: v.best_move,
            }
        )
    );
    if let Some(line) = pv_text(&v.pv) {
        println!("{line}");
    }
}

fn pv_text(pv: &Option<Line>) -> Option<String> {
    pv.as_ref().filter(|l| l.plies > 0).map(|l| {
        format!(
            "principal variation: {} ({})",
            l.moves,
            match l.end {
                PvEnd::GameOver => "the game ends",
                PvEnd::Repetition =>
                    "a position repeats: endless play, the seeds left split evenly",
            }
        )
    })
}
