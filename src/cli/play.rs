//! `mancala play GAME`: apply a line of moves and print the position
//! reached, or play an agent in the terminal (`--vs`).

use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use mancala_solver::error::{Error, Result};
use mancala_solver::family::Rules;
use mancala_solver::game::{Board, Game};
use mancala_solver::kalah::position::{Position, MAX_SEEDS};
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::kalah::state::KalahState;
use mancala_solver::kalah::wide::WidePosition;
use mancala_solver::play::state::{Playable, State};
use mancala_solver::side::Side;
use mancala_solver::tablebase::TableGame;
use mancala_solver::with_rules;

use super::arena::{self, VsArgs};
use super::{GameName, GameNameFlags};

/// Arguments of `mancala play`.
#[derive(Args, Clone, Debug)]
#[command(after_help = format!("Examples:\n  mancala play kalah 6 4 --moves 25-10-3\n  \
mancala play kalah --position \"1 2 0 3 1 0 2 0\" --moves 1 --json\n  \
mancala play awari 6 4 --moves 2-5-0\n  \
mancala play kalah 6 100 --moves 0   # boards of more than 255 seeds, up to 1000 a pit, play on wide cells\n  \
mancala play oware --position \"0 1 3 [20] 2 0 0 [22]\" --moves 2\n\n\
Moves: pits 0..m-1 from the mover's left. Kalah: the moves of one turn written together, \
a dash passes the turn. Awari and Oware: one move per turn, separated by dashes.\n\
Awari/Oware positions: 2m numbers from the side to move, or 2m+2 with the captured \
totals in brackets in the places of the Kalah stores.\n\n{}", arena::agents_help()))]
pub struct PlayArgs {
    /// The game: kalah, awari, oware, awale, vai-lung-thlan or ohvalhu, or a
    /// full name such as kalah:6:4 (for M N) or kalah:6:4:capture-needs-opposite.
    #[arg(value_parser = GameName::parse)]
    pub game: GameName,
    /// Pits per side (with seeds per pit, the start position).
    pub pits: Option<usize>,
    /// Seeds per pit at the start.
    pub seeds: Option<usize>,
    /// Start from this position instead (from the side to move).
    #[arg(long, conflicts_with_all = ["pits", "seeds"])]
    pub position: Option<String>,
    /// The moves, e.g. 25-10-3.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Kalah rule set.
    #[arg(long, default_value = "default")]
    pub rules: String,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub vs: VsArgs,
}

/// Run `mancala play`.
pub fn run(mut args: PlayArgs) -> Result<ExitCode> {
    let rules = args.game.rules(&args.rules)?;
    args.pits = GameName::with(args.game.pits, args.pits, "pits per side")?;
    args.seeds = GameName::with(args.game.seeds, args.seeds, "seeds per pit")?;
    if args.position.is_some() && (args.pits.is_some() || args.seeds.is_some()) {
        return Err(Error::Conflict(
            "--position gives the board: drop the pits and seeds".into(),
        ));
    }
    if let Rules::Kalah(k) = rules {
        if let Some(pos) = wide_start(&args)? {
            return run_wide(k, pos, &args);
        }
    }
    with_rules!(rules, g => run_game(g, &args))
}

/// The start of a Kalah board too large for byte cells: `M N` with more
/// than [`MAX_SEEDS`] seeds, or a `--position` that only two-byte cells
/// hold. `None` for every board the byte engine holds.
fn wide_start(args: &PlayArgs) -> Result<Option<WidePosition>> {
    match (args.position.as_deref(), args.pits, args.seeds) {
        // Two-byte cells hold every board byte cells do: when the byte
        // engine refuses the text, the wide reading says why.
        (Some(text), _, _) => match Position::parse(text) {
            Ok(_) => Ok(None),
            Err(_) => WidePosition::parse(text).map(Some),
        },
        (None, Some(m), Some(n)) if 2 * m * n > MAX_SEEDS => Ok(Some(WidePosition::start(m, n)?)),
        _ => Ok(None),
    }
}

/// `play` on a wide Kalah board: the moves, then the position or a game
/// against `--vs`.
fn run_wide(rules: KalahRules, mut pos: WidePosition, args: &PlayArgs) -> Result<ExitCode> {
    let played = pos.play_line(&args.moves, rules)?.len();
    if args.vs.vs.is_some() {
        return arena::play_vs(State::from(KalahState::wide(pos, rules)), &args.vs);
    }
    let report = Report {
        game: "kalah",
        position: pos.to_string(),
        diagram: pos.board(),
        score: <KalahRules as Game>::SCORE,
        to_move: pos.to_move(),
        scores: pos.stores_by_side(),
        over: pos.is_game_over(rules),
        played,
    };
    report.print(args.json);
    Ok(ExitCode::SUCCESS)
}

/// The position `play` reached, for stdout.
struct Report {
    game: &'static str,
    position: String,
    diagram: String,
    score: &'static str,
    to_move: Side,
    scores: [u16; 2],
    over: bool,
    played: usize,
}

impl Report {
    fn print(&self, json: bool) {
        let scores = self.scores;
        if json {
            let out = json!({
                "game": self.game,
                "position": self.position,
                "to_move": self.to_move,
                "stores": scores,
                "game_over": self.over,
                "moves_played": self.played,
            });
            println!("{}", serde_json::to_string_pretty(&out).expect("json"));
        } else {
            println!("position: {}", self.position);
            print!("{}", self.diagram);
            println!("{}: South {} North {}", self.score, scores[0], scores[1]);
            if self.over {
                let verdict = match scores[0].cmp(&scores[1]) {
                    std::cmp::Ordering::Greater => "South wins",
                    std::cmp::Ordering::Less => "North wins",
                    std::cmp::Ordering::Equal => "draw",
                };
                println!("game over: {verdict}");
            } else {
                println!("{} to move", self.to_move);
            }
        }
    }
}

/// The position the arguments start from, with the moves played.
pub fn start_position<G: TableGame>(
    game: G,
    pits: Option<usize>,
    seeds: Option<usize>,
    position: Option<&str>,
    moves: &str,
    vs: bool,
) -> Result<(G::Position, usize)> {
    let mut pos = match (position, pits, seeds) {
        (Some(text), _, _) => game.parse(text)?,
        (None, Some(m), Some(n)) => game.start(m, n)?,
        _ => {
            let vs = if vs { " --vs AGENT" } else { "" };
            return Err(Error::Unsupported(format!(
                "give the board as `play {} M N{vs}` (pits per side, seeds per pit) or --position \"...\"",
                game.name()
            )));
        }
    };
    let played = game.play_line(&mut pos, moves)?;
    Ok((pos, played))
}

fn run_game<G: Playable + TableGame>(game: G, args: &PlayArgs) -> Result<ExitCode> {
    if args.vs.vs.is_some() {
        let (pos, _) = start_position(
            game,
            args.pits,
            args.seeds,
            args.position.as_deref(),
            &args.moves,
            true,
        )?;
        return arena::play_vs(game.state(pos), &args.vs);
    }
    let (mut pos, played) = start_position(
        game,
        args.pits,
        args.seeds,
        args.position.as_deref(),
        &args.moves,
        false,
    )?;
    // A set-up position may already be over: settle the seeds left.
    let over = game.settle(&mut pos);
    let report = Report {
        game: game.name(),
        position: pos.to_string(),
        diagram: pos.diagram(),
        score: G::SCORE,
        to_move: pos.to_move(),
        scores: pos.scores().map(u16::from),
        over,
        played,
    };
    report.print(args.json);
    Ok(ExitCode::SUCCESS)
}
