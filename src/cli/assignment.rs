//! `mancala assignment`: the course assignment's program. Reads its
//! `input.txt`, writes `next_state.txt` (and `traverse_log.txt` for tasks 2
//! and 3) into the output directory, both or neither
//! ([`mancala_solver::assignment::output`]): nothing is written when the
//! input is bad, the search fails, the disk is full or a signal stops it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use serde_json::json;

use mancala_solver::assignment::{
    decide, estimate_log_bytes, output, Input, LimitedLog, Outputs, Reading, Task,
};
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
    /// Largest traverse log to write (tasks 2 and 3), e.g. 500M or 4G. A
    /// minimax log estimated larger is refused before the search; a log
    /// that reaches it stops the search, and nothing is written.
    #[arg(long, default_value = "1G", value_name = "SIZE", value_parser = render::parse_memory)]
    pub max_log_size: u64,
    /// Print what was done as JSON.
    #[arg(long)]
    pub json: bool,
}

/// An estimated log at least this large is announced before the search.
const ANNOUNCE_LOG_BYTES: u64 = 64 << 20;

/// Paths of temporary files to remove if the process is stopped by a
/// signal before they are renamed into place.
type Pending = Arc<Mutex<Vec<PathBuf>>>;

/// On SIGINT or SIGTERM, remove the temporary files still pending and end
/// the process (exit code 128 + the signal). The renames hold the same
/// lock, so a signal during them waits until both files are in place.
fn remove_on_signal(pending: Pending, out_dir: &Path) -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .map_err(|e| Error::io(out_dir, e))?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let paths = pending.lock().unwrap_or_else(|e| e.into_inner());
            for p in paths.iter() {
                let _ = fs::remove_file(p);
            }
            if !paths.is_empty() {
                eprintln!(
                    "interrupted: nothing written, the temporary files removed ({} and {} are as they were)",
                    output::NEXT_STATE,
                    output::TRAVERSE_LOG
                );
            }
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// Run `mancala assignment`.
pub fn run(args: AssignmentArgs) -> Result<ExitCode> {
    let input = Input::read(&args.input)?;
    let logged = matches!(input.task, Task::Minimax | Task::AlphaBeta);
    if logged {
        let estimate = estimate_log_bytes(&input, args.reading);
        // Alpha-beta's log is at most the minimax tree's, usually far
        // less: only the writing bounds it.
        if input.task == Task::Minimax && estimate > args.max_log_size {
            return Err(Error::LogTooLarge {
                bytes: estimate,
                max: args.max_log_size,
                estimated: true,
            });
        }
        if estimate >= ANNOUNCE_LOG_BYTES {
            eprintln!(
                "the traverse log will take {} {} (estimated; the limit, --max-log-size, is {})",
                if input.task == Task::Minimax {
                    "about"
                } else {
                    "at most about"
                },
                render::human_bytes(estimate),
                render::human_bytes(args.max_log_size)
            );
        }
    }
    mancala_solver::files::create_dir(&args.out_dir)?;
    // The handler first, then the temporaries, created under its lock: a
    // signal in between found the default action and left them behind.
    let pending: Pending = Arc::new(Mutex::new(Vec::new()));
    remove_on_signal(pending.clone(), &args.out_dir)?;
    let mut outputs = {
        let mut paths = pending.lock().unwrap_or_else(|e| e.into_inner());
        let outputs = Outputs::create(&args.out_dir, logged)?;
        *paths = outputs.temporaries();
        outputs
    };
    let time = if logged {
        Duration::ZERO
    } else {
        Duration::from_secs_f64(args.time)
    };
    let decision = {
        let mut log = LimitedLog::new(outputs.log(), args.max_log_size);
        decide(&input, args.reading, &mut log, time)?
    };
    let ready = outputs.finish(&decision.next_state())?;
    {
        let mut pending = pending.lock().unwrap_or_else(|e| e.into_inner());
        ready.commit()?;
        pending.clear();
    }
    let state_path = args.out_dir.join(output::NEXT_STATE);
    let log_path = args.out_dir.join(output::TRAVERSE_LOG);
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
