//! `mancala play awari|oware`: apply a line of moves and print the position
//! reached with the captured totals.

use std::process::ExitCode;

use serde_json::json;

use mancala::awari_position::AwariPosition;
use mancala::error::{Error, Result};
use mancala::rules::awari::AwariGame;

/// Play `moves` from the start of (`pits`, `seeds`) or from `position`.
pub fn play(
    game: AwariGame,
    pits: Option<usize>,
    seeds: Option<usize>,
    position: Option<String>,
    moves: &str,
    json: bool,
) -> Result<ExitCode> {
    let mut pos = match (position, pits, seeds) {
        (Some(text), _, _) => AwariPosition::parse(&text)?,
        (None, Some(m), Some(n)) => AwariPosition::start(m, n)?,
        _ => {
            return Err(Error::Unsupported(format!(
                "give the board as `play {game} M N` (pits per side, seeds per pit) or --position \"...\""
            )))
        }
    };
    let played = pos.play_line(moves, game)?;
    // A set-up position may already be over: settle the seeds left.
    let over = pos.finish(game);
    let stores = pos.captured();
    if json {
        let out = json!({
            "game": game.name(),
            "position": pos.to_string(),
            "to_move": pos.to_move(),
            "stores": stores,
            "game_over": over,
            "moves_played": played.len(),
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    } else {
        println!("position: {pos}");
        print!("{}", pos.board_diagram());
        println!("captured: South {} North {}", stores[0], stores[1]);
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
