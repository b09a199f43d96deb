//! The course assignment's program (a 2 x N Kalah board, greedy, minimax
//! and alpha-beta with traverse logs): its `input.txt`, its
//! `next_state.txt` and `traverse_log.txt`, byte for byte.
//!
//! - [`Input::parse`] reads the input file (task, player, cut-off depth,
//!   the two rows, the two mancalas), refusing a malformed one with the
//!   line at fault;
//! - [`decide`] runs the task: greedy (minimax to depth 1), minimax or
//!   alpha-beta writing the traverse log to any writer, or the competition
//!   move ([`competition`]);
//! - [`Decision::next_state`] is the text of `next_state.txt`;
//! - [`estimate_log_bytes`] estimates the traverse log's size before the
//!   search, and [`LimitedLog`] bounds it while the search writes it;
//! - [`output`] writes `next_state.txt` and `traverse_log.txt`, both or
//!   neither.
//!
//! The rules are Kalah's with the `end-when-mover-empty` end (the game ends
//! when the player to move has no stone; the other takes the stones left
//! in its row) on two-byte cells ([`crate::kalah::wide`]). Pit names:
//! player 1 (South) has B2..B(N+1) from left to right and mancala B(N+2);
//! player 2 (North) has A2..A(N+1) from left to right as seen from South,
//! and mancala A1. `docs/ASSIGNMENT.md` has the file formats and the
//! reading of the traverse log ([`Reading`]).

pub mod competition;
pub mod input;
pub mod output;
pub mod tree;

pub use input::{Input, Task};
pub use output::Outputs;
pub use tree::{estimate_log_bytes, Decision, LimitedLog, Reading};

use std::io::Write;
use std::time::Duration;

use crate::error::Result;

/// Run the input's task. Tasks 2 and 3 write their traverse log (header
/// included) to `log`; task 4 searches for at most `time`.
pub fn decide(
    input: &Input,
    reading: Reading,
    log: &mut dyn Write,
    time: Duration,
) -> Result<Decision> {
    match input.task {
        Task::Greedy => tree::search(input, 1, false, reading, &mut std::io::sink()),
        Task::Minimax => tree::search(input, input.cutoff, false, reading, log),
        Task::AlphaBeta => tree::search(input, input.cutoff, true, reading, log),
        Task::Competition => Ok(competition::choose(input, time)),
    }
}
