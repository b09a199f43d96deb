//! `mancala query GAME "<position>"` (and `mancala solve awari|oware`): the
//! value of a position and of its moves, from the tables, built on first
//! use when small.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;

use mancala_solver::awari::game::banked;
use mancala_solver::awari::rules::AwariGame;
use mancala_solver::error::{Error, Result};
use mancala_solver::game::{Board, Game};
use mancala_solver::tablebase::TableGame;
use mancala_solver::tablebase::{BuildSettings, OnDemand, TableSet, DEFAULT_ON_DEMAND};

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::ohvalhu::Ohvalhu;
use mancala_solver::oracle::analysis::{from_tables, Analysis};
use mancala_solver::progress::Observer;
use mancala_solver::tablebase::{Line, MoveValue, PvEnd};
use mancala_solver::tables::index::MAX_INDEX_SEEDS;
use mancala_solver::vai_lung_thlan::VaiLungThlan;
use mancala_solver::with_rules;

use super::render::verdict;
use super::{progress, GameArgs};

/// Arguments of `mancala query`.
#[derive(Args, Clone, Debug)]
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
pub struct QueryArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The position, from the side to move (Kalah: 2m+2 numbers; Awari and
    /// Oware: 2m, or 2m+2 with the captured totals in brackets).
    pub position: String,
    /// Do not build missing tables; fail instead.
    #[arg(long)]
    pub no_build: bool,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Run `mancala query`.
pub fn run(args: QueryArgs) -> Result<ExitCode> {
    let policy = if args.no_build {
        OnDemand::Never
    } else {
        DEFAULT_ON_DEMAND
    };
    with_rules!(args.game.rules()?, g => {
        let pos = g.parse(&args.position)?;
        let v = value_position(g, pos, &args.game.tables.db, &policy, progress::observer(false))?;
        show(&v, args.json);
        Ok(ExitCode::SUCCESS)
    })
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
        return Err(Error::Unsupported(format!(
            "{k} {}: tables go up to {MAX_INDEX_SEEDS} seeds",
            G::TABLE_SEEDS
        )));
    }
    let over = game.is_over(&pos);
    let set = if over || k == 0 {
        empty
    } else {
        let settings = BuildSettings {
            progress,
            ..BuildSettings::default()
        };
        TableSet::open_or_build(dir, game, m, k, policy, &settings).map_err(|e| match e {
            Error::BeyondTables { dir, table, reason } if table.game == "kalah" => {
                Error::BeyondTables {
                    dir,
                    table,
                    reason: format!(
                        "{reason}; find its value by search instead: `mancala solve kalah \"{}\"{}`",
                        pos,
                        table.rules.map(|r| format!(" --rules {r}")).unwrap_or_default()
                    ),
                }
            }
            e => e,
        })?
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

/// How each game shows a valued position (its published conventions).
pub trait Present: TableGame {
    /// Print `v` as text.
    fn print_text(v: &Valued<Self>);
}

/// Print `v`: as JSON (the oracle's [`Analysis`], the same in every game)
/// or as the game's text.
pub fn show<G: Present>(v: &Valued<G>, json: bool) {
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&v.analysis).expect("json")
        );
    } else {
        G::print_text(v);
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

impl Present for KalahRules {
    fn print_text(v: &Valued<Self>) {
        print_with_stores(v);
    }
}

impl Present for Ohvalhu {
    fn print_text(v: &Valued<Self>) {
        print_with_stores(v);
    }
}

/// Kalah and Ohvalhu: values are final store differences, stores included.
fn print_with_stores<G: TableGame<Position = Position>>(v: &Valued<G>) {
    println!("position: {}", v.pos);
    print!("{}", v.pos.board());
    println!(
        "value: {:+} ({} for the side to move; final store difference, stores included)",
        v.value,
        verdict(v.value)
    );
    if v.over {
        println!("the game is over");
    }
    for mv in &v.moves {
        println!(
            "  pit {}: {:+}{}{}",
            mv.pit,
            mv.value,
            if mv.extra_turn == Some(true) {
                "  (extra turn)"
            } else {
                ""
            },
            if mv.value == v.value { "  best" } else { "" }
        );
    }
    if let Some(line) = pv_text(&v.pv) {
        println!("{line}");
    }
}

impl Present for VaiLungThlan {
    fn print_text(v: &Valued<Self>) {
        println!("position: {}", v.pos);
        print!("{}", v.pos.board());
        if v.over {
            println!(
                "value: {:+} ({} for the side to move; the game is over: final capture difference)",
                v.value,
                verdict(v.value)
            );
            return;
        }
        println!(
            "value: {:+} ({} for the side to move; final capture difference, captures included, \
             play going on to the empty board (the early end past half dropped: same winner); \
             endless play splits the seeds left)",
            v.value,
            verdict(v.value)
        );
        for mv in &v.moves {
            let takes = mv.captured.unwrap_or(0);
            println!(
                "  pit {}: {:+}{}{}{}",
                mv.pit,
                mv.value,
                if takes > 0 {
                    format!("  (takes {takes})")
                } else {
                    String::new()
                },
                if mv.extra_turn == Some(true) {
                    "  (the opponent passes)"
                } else {
                    ""
                },
                if mv.value == v.value { "  best" } else { "" }
            );
        }
        if let Some(p) = v.best_move {
            println!("best move: pit {p}");
        }
        if let Some(line) = pv_text(&v.pv) {
            println!("{line}");
        }
    }
}

impl Present for AwariGame {
    fn print_text(v: &Valued<Self>) {
        // Awari's published convention: the value of the seeds still on the
        // board, the captured totals apart.
        let b = banked(&v.pos);
        let board_value = v.value - b;
        let moves: Vec<MoveValue> = v
            .moves
            .iter()
            .map(|mv| MoveValue {
                value: mv.value - b,
                ..*mv
            })
            .collect();
        println!("position: {}", v.pos);
        print!("{}", v.pos.board_diagram());
        println!(
            "value: {board_value:+} (seeds still to be won from the board, side to move minus opponent; endless play counts 0)"
        );
        println!(
            "final score difference with the seeds already captured: {:+} ({} for the side to move)",
            v.value,
            verdict(v.value)
        );
        if v.over {
            println!("the game is over");
        }
        for mv in &moves {
            let takes = mv.captured.unwrap_or(0);
            println!(
                "  pit {}: {:+}{}{}",
                mv.pit,
                mv.value,
                if takes > 0 {
                    format!("  (takes {takes})")
                } else {
                    String::new()
                },
                if mv.value == board_value {
                    "  best"
                } else {
                    ""
                }
            );
        }
        if let Some(p) = v.best_move {
            println!("best move: pit {p}");
        }
        if let Some(line) = pv_text(&v.pv) {
            println!("{line}");
        }
    }
}
