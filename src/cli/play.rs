//! `mancala play GAME`: apply a line of moves and print the position
//! reached, or play an agent in the terminal (`--vs`).

use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use mancala_solver::error::{Error, Result};
use mancala_solver::family::{Rules, GAME_NAMES};
use mancala_solver::game::Game;
use mancala_solver::with_rules;

use super::arena::{self, VsArgs};

/// Arguments of `mancala play`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "Examples:\n  mancala play kalah 6 4 --moves 25-10-3\n  \
mancala play kalah --position \"1 2 0 3 1 0 2 0\" --moves 1 --json\n  \
mancala play awari 6 4 --moves 2-5-0\n  \
mancala play oware --position \"0 1 3 [20] 2 0 0 [22]\" --moves 2\n\n\
Moves: pits 0..m-1 from the mover's left. Kalah: the moves of one turn written together, \
a dash passes the turn. Awari and Oware: one move per turn, separated by dashes.\n\
Awari/Oware positions: 2m numbers from the side to move, or 2m+2 with the captured \
totals in brackets in the places of the Kalah stores.")]
pub struct PlayArgs {
    /// The game: kalah, awari or oware.
    #[arg(value_parser = GAME_NAMES)]
    pub game: String,
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
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let rules = Rules::from_name(&args.game, Some(&args.rules))?;
    with_rules!(rules, g => run_game(g, &args))
}

/// The position the arguments start from, with the moves played.
pub fn start_position<G: Game>(
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

fn run_game<G: Game>(game: G, args: &PlayArgs) -> Result<ExitCode> {
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
    let scores = G::scores(&pos);
    if args.json {
        let out = json!({
            "game": game.name(),
            "position": pos.to_string(),
            "to_move": G::to_move(&pos),
            "stores": scores,
            "game_over": over,
            "moves_played": played,
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    } else {
        println!("position: {pos}");
        print!("{}", G::diagram(&pos));
        println!("{}: South {} North {}", G::SCORE, scores[0], scores[1]);
        if over {
            let verdict = match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => "South wins",
                std::cmp::Ordering::Less => "North wins",
                std::cmp::Ordering::Equal => "draw",
            };
            println!("game over: {verdict}");
        } else {
            println!("{} to move", G::to_move(&pos));
        }
    }
    Ok(ExitCode::SUCCESS)
}
