//! `mancala play|build|query|solve|verify awari|oware`: lines of moves, and
//! the Awari and Oware tables.

use std::path::Path;
use std::process::ExitCode;

use serde_json::json;

use super::progress;
use mancala::awari::build::{build_awari, check_awari_build, AwariBuildOptions};
use mancala::awari::position::{format_awari_line, AwariPosition};
use mancala::awari::rules::{AwariGame, AwariTurn};
use mancala::awari::tables::{awari_spec, check_awari_pits, AwariMoveValue, AwariTablebase, PvEnd};
use mancala::awari::verify::verify_awari;
use mancala::error::{Error, Result};
use mancala::tables::index::MAX_INDEX_SEEDS;

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

/// Largest number of boards `query` builds on demand (about a minute).
const ON_DEMAND_BOARDS: u64 = 300_000_000;

/// Boards in the tables for 1..=k seeds of `m` pits per side.
fn boards_up_to(game: AwariGame, m: usize, k: usize) -> Result<u64> {
    let mut n = 0;
    for s in 1..=k {
        n += awari_spec(game, m, s).indexer()?.count();
    }
    Ok(n)
}

/// `mancala build awari|oware`.
pub fn build(opts: &AwariBuildOptions, json: bool) -> Result<ExitCode> {
    let report = build_awari(opts)?;
    super::print_build_report(
        &report,
        &format!(
            "{} tables for 1..={} seeds, {} pits",
            opts.game, opts.max_seeds, opts.pits
        ),
        "boards",
        &opts.dir,
        json,
    );
    Ok(ExitCode::SUCCESS)
}

/// Open the tables covering `k` seeds, building the missing ones when
/// allowed (`limit`: the most boards to build without being asked).
fn tables_for(
    dir: &Path,
    game: AwariGame,
    m: usize,
    k: usize,
    no_build: bool,
    limit: Option<u64>,
) -> Result<AwariTablebase> {
    let tb = AwariTablebase::open_available(dir, game, m)?;
    if tb.max_seeds() >= k {
        return Ok(tb);
    }
    let needed = boards_up_to(game, m, k)?;
    if no_build || limit.is_some_and(|l| needed > l) {
        return Err(Error::MissingTable {
            path: awari_spec(game, m, tb.max_seeds() + 1).path(dir),
            table: awari_spec(game, m, k).label(),
        });
    }
    let opts = AwariBuildOptions {
        dir: dir.to_path_buf(),
        game,
        pits: m,
        max_seeds: k,
        threads: None,
        memory_budget: mancala::tables::driver::default_memory_budget(),
        progress: progress::observer(false),
    };
    check_awari_build(&opts)?;
    eprintln!(
        "building the missing {m}-pit {game} tables up to {k} seeds in {} (first use; {needed} boards, kept for later)",
        dir.display()
    );
    build_awari(&opts)?;
    AwariTablebase::open(dir, game, m, k)
}

fn verdict(v: i32) -> &'static str {
    match v.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// The value of a position and of its moves, from the tables.
struct Valued {
    pos: AwariPosition,
    value: i32,
    moves: Vec<AwariMoveValue>,
    over: bool,
    /// The best move (making progress towards a won value).
    best_move: Option<usize>,
    /// A principal variation and how it ends.
    pv: Option<(Vec<usize>, PvEnd)>,
}

fn value_position(
    game: AwariGame,
    pos: AwariPosition,
    dir: &Path,
    no_build: bool,
    limit: Option<u64>,
) -> Result<Valued> {
    let m = pos.pits_per_side();
    let k = pos.seeds_on_board();
    if k > MAX_INDEX_SEEDS {
        return Err(Error::Unsupported(format!(
            "{k} seeds on the board: the tables go up to {MAX_INDEX_SEEDS} seeds"
        )));
    }
    let cells = pos.cells();
    let over = pos.is_game_over(game);
    let tb = if over || k == 0 {
        AwariTablebase::empty(dir, game, m)
    } else {
        tables_for(dir, game, m, k, no_build, limit)?
    };
    let value = match pos.turn(game) {
        AwariTurn::Over {
            mover_gain,
            opponent_gain,
        } => mover_gain as i32 - opponent_gain as i32,
        AwariTurn::Play(_) => tb.value(&cells).expect("tables loaded"),
    };
    let moves = tb.move_values(&cells).expect("tables loaded");
    let best_move = tb.best_move(&cells).map(|(pit, _)| pit);
    let pv = tb.principal_variation(&pos);
    Ok(Valued {
        pos,
        value,
        moves,
        over,
        best_move,
        pv,
    })
}

fn print_valued(game: AwariGame, v: &Valued, json: bool) {
    let [mine, theirs] = v.pos.captured_by_mover_opponent();
    let total = v.value + mine as i32 - theirs as i32;
    let best: Vec<usize> = v
        .moves
        .iter()
        .filter(|mv| mv.value == v.value)
        .map(|mv| mv.pit)
        .collect();
    if json {
        let out = json!({
            "game": game.name(),
            "position": v.pos.to_string(),
            "seeds_on_board": v.pos.seeds_on_board(),
            "value": v.value,
            "final_difference": total,
            "verdict": verdict(total),
            "game_over": v.over,
            "moves": v.moves,
            "best_moves": best,
            "best_move": v.best_move,
            "pv": v.pv.as_ref().map(|(line, _)| format_awari_line(line)),
            "pv_end": v.pv.as_ref().map(|(_, end)| *end),
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    } else {
        println!("position: {}", v.pos);
        print!("{}", v.pos.board_diagram());
        println!(
            "value: {:+} (seeds still to be won from the board, side to move minus opponent; endless play counts 0)",
            v.value
        );
        println!(
            "final score difference with the seeds already captured: {total:+} ({} for the side to move)",
            verdict(total)
        );
        if v.over {
            println!("the game is over");
        }
        for mv in &v.moves {
            println!(
                "  pit {}: {:+}{}{}",
                mv.pit,
                mv.value,
                if mv.captured > 0 {
                    format!("  (takes {})", mv.captured)
                } else {
                    String::new()
                },
                if mv.value == v.value { "  best" } else { "" }
            );
        }
        if let Some(p) = v.best_move {
            println!("best move: pit {p}");
        }
        if let Some((line, end)) = v.pv.as_ref().filter(|(line, _)| !line.is_empty()) {
            println!(
                "principal variation: {} ({})",
                format_awari_line(line),
                match end {
                    PvEnd::GameOver => "the game ends",
                    PvEnd::Repetition =>
                        "a position repeats: endless play, the seeds left split evenly",
                }
            );
        }
    }
}

/// `mancala query awari|oware "<board>"`.
pub fn query(
    game: AwariGame,
    text: &str,
    dir: &Path,
    no_build: bool,
    json: bool,
) -> Result<ExitCode> {
    let pos = AwariPosition::parse(text)?;
    let v = value_position(game, pos, dir, no_build, Some(ON_DEMAND_BOARDS))?;
    print_valued(game, &v, json);
    Ok(ExitCode::SUCCESS)
}

/// `mancala solve awari|oware M N` (or a position): the value of the start
/// and of every opening move, from the tables, built when missing.
pub fn solve(
    game: AwariGame,
    board: &[String],
    dir: &Path,
    no_build: bool,
    json: bool,
) -> Result<ExitCode> {
    let pos = match board {
        [text] => AwariPosition::parse(text)?,
        [m, n] => {
            let num = |t: &String, what: &str| {
                t.parse::<usize>().map_err(|_| {
                    Error::Unsupported(format!(
                        "{what} \"{t}\" is not a whole number: write `solve {game} M N` or \
                         `solve {game} \"<board>\"`"
                    ))
                })
            };
            AwariPosition::start(num(m, "pits per side")?, num(n, "seeds per pit")?)?
        }
        _ => {
            return Err(Error::Unsupported(format!(
                "write `solve {game} M N` or `solve {game} \"<board>\"`"
            )))
        }
    };
    let v = value_position(game, pos, dir, no_build, None)?;
    print_valued(game, &v, json);
    Ok(ExitCode::SUCCESS)
}

/// `mancala verify awari|oware --pits M --seeds K`.
pub fn verify(
    game: AwariGame,
    pits: usize,
    seeds: usize,
    sample: Option<u64>,
    seed: u64,
    dir: &Path,
    json: bool,
) -> Result<ExitCode> {
    check_awari_pits(pits)?;
    let report = verify_awari(
        dir,
        game,
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
            "{game} table {pits} pits, {seeds} seeds: checked {} of {} entries, {} mismatches; {}",
            report.checked,
            report.positions,
            report.mismatches,
            match report.unforced {
                Some(u) => format!(
                    "{u} values resting on a cycle (forcing check, {} sweeps)",
                    report.sweeps
                ),
                None => "forcing check not run (it needs the whole table and no mismatch)".into(),
            }
        );
        for m in &report.examples {
            println!(
                "  index {}: {}  stored {} derived {}",
                m.index, m.position, m.stored, m.derived
            );
        }
    }
    Ok(if report.is_sound() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
