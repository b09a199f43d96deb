//! `mancala assignment`: the course assignment's program. Reads its
//! `input.txt`, writes `next_state.txt` (and `traverse_log.txt` for tasks 2
//! and 3) into the output directory, atomically: nothing is written when
//! the input is bad or the search fails.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use serde_json::json;

use mancala_solver::assignment::{decide, Input, Reading, Task};
use mancala_solver::error::{Error, Result};

use super::render;

/// Arguments of `mancala assignment`.
#[derive(Args)]
#[command(
    after_help = "Example:\n  mancala assignment input.txt --out-dir out\n\n\
The input has seven lines: task (1 greedy, 2 minimax, 3 alpha-beta, 4 competition), \
player (1 or 2), cut-off depth, player 2's pits (A2..), player 1's pits (B2..), \
player 2's mancala, player 1's mancala. See docs/ASSIGNMENT.md."
)]
pub struct AssignmentArgs {
    /// The input file (the assignment's input.txt).
    pub input: PathBuf,
    /// Directory for next_state.txt and traverse_log.txt (created if missing).
    #[arg(long, default_value = ".")]
    pub out_dir: PathBuf,
    /// How to read the traverse log where the document is silent: sample
    /// (reproduces the document's sample log) or textbook.
    #[arg(long, default_value = "sample")]
    pub reading: Reading,
    /// Task 4: seconds to search for the move.
    #[arg(long, default_value = "1", value_parser = render::parse_seconds)]
    pub time: f64,
    /// Print what was done as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The temporary file in `dir` that becomes `name` once complete.
fn temporary(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.tmp-{}", std::process::id()))
}

/// Run `mancala assignment`.
pub fn run(args: AssignmentArgs) -> Result<ExitCode> {
    let input = Input::read(&args.input)?;
    fs::create_dir_all(&args.out_dir).map_err(|e| Error::io(&args.out_dir, e))?;
    let logged = matches!(input.task, Task::Minimax | Task::AlphaBeta);
    let log_tmp = temporary(&args.out_dir, "traverse_log.txt");
    let state_tmp = temporary(&args.out_dir, "next_state.txt");
    let result = (|| -> Result<_> {
        let decision = if logged {
            let file = fs::File::create(&log_tmp).map_err(|e| Error::io(&log_tmp, e))?;
            let mut w = BufWriter::new(file);
            let d = decide(&input, args.reading, &mut w, Duration::ZERO)?;
            w.flush().map_err(|e| Error::io(&log_tmp, e))?;
            d
        } else {
            let time = Duration::from_secs_f64(args.time);
            decide(&input, args.reading, &mut std::io::sink(), time)?
        };
        fs::write(&state_tmp, decision.next_state()).map_err(|e| Error::io(&state_tmp, e))?;
        Ok(decision)
    })();
    let decision = match result {
        Ok(d) => d,
        Err(e) => {
            let _ = fs::remove_file(&log_tmp);
            let _ = fs::remove_file(&state_tmp);
            return Err(e);
        }
    };
    let state_path = args.out_dir.join("next_state.txt");
    let log_path = args.out_dir.join("traverse_log.txt");
    if logged {
        fs::rename(&log_tmp, &log_path).map_err(|e| Error::io(&log_path, e))?;
    }
    fs::rename(&state_tmp, &state_path).map_err(|e| Error::io(&state_path, e))?;
    let task = match input.task {
        Task::Greedy => "greedy",
        Task::Minimax => "minimax",
        Task::AlphaBeta => "alpha-beta",
        Task::Competition => "competition",
    };
    let player = match input.player {
        mancala_solver::Side::South => 1,
        mancala_solver::Side::North => 2,
    };
    if args.json {
        let out = json!({
            "task": task,
            "player": player,
            "moves": decision.moves,
            "value": decision.value,
            "next_state": state_path,
            "traverse_log": logged.then_some(&log_path),
        });
        println!("{out}");
    } else {
        println!(
            "{task}, player {player}: {} (value {})",
            decision.moves.join(" then "),
            decision.value
        );
        println!("wrote {}", state_path.display());
        if logged {
            println!("wrote {}", log_path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
