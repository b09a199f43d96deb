//! The command-line interface: parses arguments, calls the library, prints
//! results to stdout (`--json` for machines) and progress to stderr.

use mancala::tables::MAX_TABLE_PITS;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::json;

use mancala::awari::build::AwariBuildOptions;
use mancala::awari::rules::AwariGame;
use mancala::error::{Error, Result};
use mancala::kalah::build::{self, BuildOptions};
use mancala::kalah::position::Position;
use mancala::kalah::rules::KalahRules;
use mancala::kalah::tables::Tablebase;
use mancala::kalah::verify;
use mancala::tables::driver;
use mancala::tables::index::size_up_to;

mod arena;
mod progress;
mod render;

use render::verdict;
mod awari;
mod graph;
mod solve;
mod svg;

/// Largest number of positions the query builds on demand (about 20 s).
const ON_DEMAND_LIMIT: u64 = 300_000_000;

#[derive(Parser)]
#[command(
    name = "mancala",
    version,
    about = "Rules engine, endgame tables and solver for Kalah",
    long_about = "Rules engine, endgame tables and solver for Kalah.\n\n\
Positions are written from the side to move, counter-clockwise from its first \
pit: the mover's pits, the mover's store, the opponent's pits, the opponent's \
store. The start of Kalah(6,4) is \"4 4 4 4 4 4 0 4 4 4 4 4 4 0\".\n\n\
Exit codes: 0 success, 1 bad data (missing or corrupt tables, I/O), 2 bad usage."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Game {
    /// Kalah(m, n) with stores.
    Kalah,
    /// Awari (captures 2-3), 2 to 6 pits per side.
    Awari,
    /// Oware (captures 2-4), 2 to 6 pits per side.
    Oware,
}

impl Game {
    /// The Awari-family game, or `None` for Kalah.
    fn awari(self) -> Option<AwariGame> {
        match self {
            Game::Kalah => None,
            Game::Awari => Some(AwariGame::Awari),
            Game::Oware => Some(AwariGame::Oware),
        }
    }
}

/// The games `mancala play` knows.
#[derive(Clone, Copy, ValueEnum)]
enum PlayGame {
    /// Kalah(m, n) with stores.
    Kalah,
    /// Awari (captures 2-3), 2 to 6 pits per side.
    Awari,
    /// Oware (captures 2-4), 2 to 6 pits per side.
    Oware,
}

#[derive(Args, Clone)]
struct TableArgs {
    /// Directory of the tables.
    #[arg(long, default_value = "db")]
    db: PathBuf,
    /// Kalah rule set: default, capture-needs-opposite or end-when-mover-empty
    /// (Awari and Oware have one rule set each).
    #[arg(long, default_value = "default")]
    rules: KalahRules,
}

impl TableArgs {
    /// Refuse a Kalah rule set given for Awari or Oware.
    fn check_awari(&self, game: AwariGame) -> Result<()> {
        if self.rules != KalahRules::Default {
            return Err(Error::Unsupported(format!(
                "--rules {} is a Kalah rule set; {game} has its own rules: leave --rules out",
                self.rules
            )));
        }
        Ok(())
    }
}

#[derive(Subcommand)]
enum Command {
    /// Build the endgame tables for 1..=K seeds in play.
    #[command(
        after_help = "Examples:\n  mancala build kalah --pits 6 --max-seeds 20\n  \
mancala build kalah --pits 4 --max-seeds 16 --rules capture-needs-opposite --db /tmp/db\n  \
mancala build awari --pits 6 --max-seeds 16\n  \
mancala build oware --pits 4 --max-seeds 16\n\n\
Kalah tables hold the positions with k seeds in play; Awari and Oware tables the boards \
with k seeds on the board (retrograde analysis with cycles, endless play worth 0)."
    )]
    Build {
        /// The game.
        game: Game,
        /// Pits per side (1..=6).
        #[arg(long)]
        pits: usize,
        /// Build the tables for 1 up to this many seeds in play.
        #[arg(long)]
        max_seeds: usize,
        #[command(flatten)]
        tables: TableArgs,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Memory budget, e.g. 8G (default: 80% of RAM).
        #[arg(long, value_parser = render::parse_memory)]
        memory: Option<u64>,
        /// Print a JSON report on stdout.
        #[arg(long)]
        json: bool,
    },
    /// The value of a position and of each of its moves, from the tables.
    #[command(
        after_help = "Examples:\n  mancala query kalah \"0 3 0 2 1 4 20 1 0 2 3 0 2 10\"\n  \
mancala query kalah \"1 0 2 0 3 1 0\" --json\n  \
mancala query awari \"0 1 3 2 0 0\"\n  \
mancala query oware \"0 1 3 [20] 2 0 0 [22]\" --json\n\n\
Kalah: values are final store differences for the side to move, stores included. \
Awari and Oware: the value is the seeds the side to move will still win from the board \
minus the opponent's (endless play counts 0); with captured totals given, the final \
score difference is printed too."
    )]
    Query {
        /// The game.
        game: Game,
        /// The position, from the side to move (Kalah: 2m+2 numbers; Awari and
        /// Oware: 2m, or 2m+2 with the captured totals in brackets).
        position: String,
        #[command(flatten)]
        tables: TableArgs,
        /// Do not build missing tables; fail instead.
        #[arg(long)]
        no_build: bool,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Apply a line of moves and print the position reached.
    #[command(after_help = "Examples:\n  mancala play kalah 6 4 --moves 25-10-3\n  \
mancala play kalah --position \"1 2 0 3 1 0 2 0\" --moves 1 --json\n  \
mancala play awari 6 4 --moves 2-5-0\n  \
mancala play oware --position \"0 1 3 [20] 2 0 0 [22]\" --moves 2\n\n\
Moves: pits 0..m-1 from the mover's left. Kalah: the moves of one turn written together, \
a dash passes the turn. Awari and Oware: one move per turn, separated by dashes.\n\
Awari/Oware positions: 2m numbers from the side to move, or 2m+2 with the captured \
totals in brackets in the places of the Kalah stores.")]
    Play {
        /// The game.
        game: PlayGame,
        /// Pits per side (with seeds per pit, the start position).
        pits: Option<usize>,
        /// Seeds per pit at the start.
        seeds: Option<usize>,
        /// Start from this position instead (from the side to move).
        #[arg(long, conflicts_with_all = ["pits", "seeds"])]
        position: Option<String>,
        /// The moves, e.g. 25-10-3.
        #[arg(long, default_value = "")]
        moves: String,
        /// Kalah rule set.
        #[arg(long, default_value = "default")]
        rules: KalahRules,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        vs: arena::VsArgs,
    },
    /// Play a match between two agents and report honest statistics.
    Match(arena::MatchArgs),
    /// Play every pair of agents and print the cross table.
    Tournament(arena::TournamentArgs),
    /// Re-derive table entries from their children and report mismatches.
    #[command(
        after_help = "Examples:\n  mancala verify kalah --pits 6 --seeds 12\n  \
mancala verify kalah --pits 6 --seeds 20 --sample 1000000\n  \
mancala verify awari --pits 6 --seeds 8\n\n\
Awari and Oware: a whole table is also checked to be the right fixpoint (every non-zero \
value backed by a finite forcing strategy, none resting on a cycle)."
    )]
    Verify {
        /// The game.
        game: Game,
        /// Pits per side.
        #[arg(long)]
        pits: usize,
        /// The table to check (seeds in play).
        #[arg(long)]
        seeds: usize,
        /// Check this many random entries instead of all.
        #[arg(long)]
        sample: Option<u64>,
        /// Seed of the random sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        tables: TableArgs,
        /// Print JSON on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Solve Kalah(m, n) or a position exactly: value, best turn, principal variation.
    Solve(solve::SolveArgs),
    Graph(graph::GraphArgs),
}

/// Run the command line; errors are printed as one line on stderr.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", render::error_message(&e));
            if e.is_usage() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Graph(args) => graph::run(args),
        Command::Build {
            game,
            pits,
            max_seeds,
            tables,
            threads,
            memory,
            json,
        } => {
            if let Some(g) = game.awari() {
                tables.check_awari(g)?;
                let opts = AwariBuildOptions {
                    dir: tables.db,
                    game: g,
                    pits,
                    max_seeds,
                    threads,
                    memory_budget: memory.unwrap_or_else(driver::default_memory_budget),
                    progress: progress::observer(false),
                };
                return awari::build(&opts, json);
            }
            let opts = BuildOptions {
                dir: tables.db,
                rules: tables.rules,
                pits,
                max_seeds,
                threads,
                memory_budget: memory.unwrap_or_else(driver::default_memory_budget),
                progress: progress::observer(false),
            };
            let report = build::build_kalah(&opts)?;
            print_build_report(
                &report,
                &format!(
                    "tables for 1..={max_seeds} seeds, {pits} pits, {} rules",
                    opts.rules
                ),
                "positions",
                &opts.dir,
                json,
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Query {
            game,
            position,
            tables,
            no_build,
            json,
        } => match game.awari() {
            Some(g) => {
                tables.check_awari(g)?;
                awari::query(g, &position, &tables.db, no_build, json)
            }
            None => query(&position, &tables, no_build, json),
        },
        Command::Play {
            game,
            pits,
            seeds,
            position,
            moves,
            rules,
            json,
            vs,
        } => {
            let awari_game = match game {
                PlayGame::Kalah => {
                    return match vs.vs {
                        Some(_) => arena::play_vs(pits, seeds, position, &moves, rules, &vs),
                        None => play(pits, seeds, position, &moves, rules, json),
                    }
                }
                PlayGame::Awari => AwariGame::Awari,
                PlayGame::Oware => AwariGame::Oware,
            };
            if vs.vs.is_some() {
                return arena::play_vs_awari(awari_game, pits, seeds, position, &moves, &vs);
            }
            awari::play(awari_game, pits, seeds, position, &moves, json)
        }
        Command::Match(args) => arena::run_match(args),
        Command::Tournament(args) => arena::run_tournament(args),
        Command::Verify {
            game,
            pits,
            seeds,
            sample,
            seed,
            tables,
            json,
        } => {
            if let Some(g) = game.awari() {
                tables.check_awari(g)?;
                return awari::verify(g, pits, seeds, sample, seed, &tables.db, json);
            }
            check_table_pits(pits)?;
            let report = verify::verify_kalah(
                &tables.db,
                tables.rules,
                pits,
                seeds,
                sample,
                seed,
                &progress::observer(false),
            )?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report).expect("json"));
            } else {
                println!(
                    "table {pits} pits, {seeds} seeds ({} rules): checked {} of {} entries, {} mismatches",
                    tables.rules, report.checked, report.positions, report.mismatches
                );
                for m in &report.examples {
                    println!(
                        "  index {}: {}  stored {} derived {}",
                        m.index, m.position, m.stored, m.derived
                    );
                }
            }
            Ok(if report.mismatches == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Solve(args) => solve::run(args),
    }
}

/// Print what a build did: the JSON report, or two lines (the tables in
/// all, and what was built now, with its rate) headed by `title`; `unit`
/// names a table entry ("positions", "boards").
fn print_build_report(
    report: &driver::BuildReport,
    title: &str,
    unit: &str,
    dir: &Path,
    json: bool,
) {
    if json {
        println!("{}", serde_json::to_string_pretty(report).expect("json"));
        return;
    }
    let built: Vec<_> = report.tables.iter().filter(|t| !t.found).collect();
    let entries: u64 = report.tables.iter().map(|t| t.positions).sum();
    let bytes: u64 = report.tables.iter().map(|t| t.bytes).sum();
    let secs = built.iter().fold(0.0, |s, t| s + t.seconds);
    let built_entries: u64 = built.iter().map(|t| t.positions).sum();
    println!(
        "{title}: {entries} {unit}, {} on disk in {}",
        render::human_bytes(bytes),
        dir.display()
    );
    if built.is_empty() {
        println!(
            "all {} tables found on disk, nothing to build",
            report.tables.len()
        );
        return;
    }
    println!(
        "built {} tables ({built_entries} {unit}) in {secs:.2} s ({:.2} M {unit}/s), {} found on disk",
        built.len(),
        built_entries as f64 / secs.max(1e-9) / 1e6,
        report.tables.len() - built.len()
    );
}

fn check_table_pits(pits: usize) -> Result<()> {
    if pits == 0 || pits > MAX_TABLE_PITS {
        return Err(Error::Unsupported(format!(
            "{pits} pits per side: tables exist for 1 to {MAX_TABLE_PITS} pits per side"
        )));
    }
    Ok(())
}

/// Open the tables needed for `k` seeds, building small missing ones.
fn tables_for(
    dir: &Path,
    rules: KalahRules,
    m: usize,
    k: usize,
    no_build: bool,
) -> Result<Tablebase> {
    let tb = Tablebase::open_available(dir, rules, m)?;
    if tb.max_seeds() >= k {
        return Ok(tb);
    }
    let needed = size_up_to(m, k);
    if no_build || needed > ON_DEMAND_LIMIT {
        return Err(Error::MissingTable {
            path: mancala::kalah::tables::spec(rules, m, tb.max_seeds() + 1).path(dir),
            table: mancala::kalah::tables::spec(rules, m, k).label(),
        });
    }
    eprintln!(
        "building the missing {m}-pit tables up to {k} seeds in {} (first use)",
        dir.display()
    );
    build::build_kalah(&BuildOptions {
        dir: dir.to_path_buf(),
        rules,
        pits: m,
        max_seeds: k,
        threads: None,
        memory_budget: driver::default_memory_budget(),
        progress: progress::observer(false),
    })?;
    Tablebase::open(dir, rules, m, k)
}

fn query(text: &str, tables: &TableArgs, no_build: bool, json: bool) -> Result<ExitCode> {
    let pos = Position::parse(text)?;
    let m = pos.pits_per_side();
    check_table_pits(m)?;
    let k = pos.active_seeds();
    if k > mancala::tables::index::MAX_INDEX_SEEDS {
        return Err(Error::Unsupported(format!(
            "{k} seeds in play: tables go up to {} seeds",
            mancala::tables::index::MAX_INDEX_SEEDS
        )));
    }
    let tb = if pos.is_game_over(tables.rules) {
        Tablebase::open_available(&tables.db, tables.rules, m)?
    } else {
        tables_for(&tables.db, tables.rules, m, k, no_build)?
    };
    let value = tb.value(&pos).expect("tables loaded");
    let moves = tb.move_values(&pos).expect("tables loaded");
    let best: Vec<usize> = moves
        .iter()
        .filter(|mv| mv.value == value)
        .map(|mv| mv.pit)
        .collect();
    if json {
        let out = json!({
            "position": pos.to_string(),
            "rules": tables.rules.name(),
            "seeds_in_play": k,
            "value": value,
            "verdict": verdict(value),
            "game_over": pos.is_game_over(tables.rules),
            "moves": moves,
            "best_moves": best,
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    } else {
        println!("position: {pos}");
        print!("{}", pos.board());
        println!(
            "value: {value:+} ({} for the side to move; final store difference, stores included)",
            verdict(value)
        );
        if pos.is_game_over(tables.rules) {
            println!("the game is over");
        }
        for mv in &moves {
            println!(
                "  pit {}: {:+}{}{}",
                mv.pit,
                mv.value,
                if mv.extra_turn { "  (extra turn)" } else { "" },
                if mv.value == value { "  best" } else { "" }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn play(
    pits: Option<usize>,
    seeds: Option<usize>,
    position: Option<String>,
    moves: &str,
    rules: KalahRules,
    json: bool,
) -> Result<ExitCode> {
    let mut pos = match (position, pits, seeds) {
        (Some(text), _, _) => Position::parse(&text)?,
        (None, Some(m), Some(n)) => Position::start(m, n)?,
        _ => {
            return Err(Error::Unsupported(
                "give the board as `play kalah M N` (pits per side, seeds per pit) or --position \"...\""
                    .into(),
            ))
        }
    };
    let played = pos.play_line(moves, rules)?;
    let stores = pos.stores();
    let over = pos.is_game_over(rules);
    if json {
        let out = json!({
            "position": pos.to_string(),
            "to_move": pos.to_move(),
            "stores": stores,
            "game_over": over,
            "moves_played": played.len(),
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    } else {
        println!("position: {pos}");
        print!("{}", pos.board());
        println!("stores: South {} North {}", stores[0], stores[1]);
        if over {
            let verdict = match stores[0].cmp(&stores[1]) {
                std::cmp::Ordering::Greater => "South wins",
                std::cmp::Ordering::Less => "North wins",
                std::cmp::Ordering::Equal => "draw",
            };
            println!("game over: {verdict}");
        } else {
            println!("{} to move", pos.to_move());
        }
    }
    Ok(ExitCode::SUCCESS)
}
