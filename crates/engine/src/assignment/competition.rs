//! Task 4, the competition: the strongest turn the project finds within a
//! time limit.
//!
//! Boards the solver holds (at most 6 pits a side and 255 stones) go to
//! [`crate::search::solve`] under the assignment's rules, without tables:
//! the exact best turn when it finishes in time, else its best move so
//! far, one move at a time through extra turns. Larger boards get an
//! iterative-deepening alpha-beta on the final store difference (the
//! evaluation of the assignment), each move of the turn searched until its
//! share of the time is spent; the deepest finished iteration decides.

use crate::clock::Instant;
use std::time::Duration;

use super::input::{pit_name, Input, RULES};
use super::tree::Decision;
use crate::kalah::wide::WidePosition;
use crate::search::{solve, SolveOptions};
use crate::tables::MAX_TABLE_PITS;

/// The turn chosen for `input` within `time` (a move is always chosen,
/// however short the time).
pub fn choose(input: &Input, time: Duration) -> Decision {
    let start = Instant::now();
    let deadline = start + time;
    let me = input.position.to_move();
    let n = input.position.pits_per_side();
    let mut pos = input.position;
    let mut moves = Vec::new();
    let mut value = None;
    while !pos.is_game_over(RULES) && pos.to_move() == me {
        let (pit, v) = best_move(&pos, deadline);
        value.get_or_insert(v);
        moves.push(pit_name(me, pit, n));
        pos.play(pit, RULES).expect("the search plays legal moves");
    }
    Decision {
        next: pos,
        moves,
        value: value.unwrap_or(0),
    }
}

/// A best move of `pos` and its value (an estimate if the time ran out).
fn best_move(pos: &WidePosition, deadline: Instant) -> (usize, i32) {
    if let Some(narrow) = pos
        .narrow()
        .filter(|_| pos.pits_per_side() <= MAX_TABLE_PITS)
    {
        let options = SolveOptions {
            rules: RULES,
            deadline: Some(deadline),
            threads: crate::threads::cores(),
            ..SolveOptions::default()
        };
        if let Ok(s) = solve(&narrow, None, &options) {
            if let Some(pit) = s.best_move {
                return (pit, s.value);
            }
        }
    }
    deepening(pos, deadline)
}

/// Iterative-deepening alpha-beta (negamax, extra turns keep the sign) on
/// the store difference, to the deadline.
fn deepening(pos: &WidePosition, deadline: Instant) -> (usize, i32) {
    let first = pos.legal_moves(RULES).next().expect("the game is not over");
    let mut best = (first, 0);
    let mut nodes = 0u64;
    for depth in 1..=200u32 {
        let mut alpha = -i32::MAX;
        let mut found = None;
        for pit in pos.legal_moves(RULES).collect::<Vec<_>>() {
            let mut child = *pos;
            child.play(pit, RULES).expect("legal");
            let Some(v) = negamax(&child, depth - 1, -i32::MAX, i32::MAX, deadline, &mut nodes)
            else {
                return best;
            };
            // The view turns only when the turn passes.
            let v = if child.to_move() == pos.to_move() {
                v
            } else {
                -v
            };
            if found.is_none() || v > alpha {
                alpha = v;
                found = Some((pit, v));
            }
        }
        best = found.expect("a move was searched");
        if Instant::now() >= deadline {
            break;
        }
    }
    best
}

/// The value of `pos` for its mover to `depth` plies; `None` when the
/// deadline passed.
fn negamax(
    pos: &WidePosition,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    deadline: Instant,
    nodes: &mut u64,
) -> Option<i32> {
    *nodes += 1;
    if nodes.is_multiple_of(4096) && Instant::now() >= deadline {
        return None;
    }
    let [mine, theirs] = pos.stores();
    let diff = mine as i32 - theirs as i32;
    if depth == 0 || pos.is_game_over(RULES) {
        return Some(diff);
    }
    let mut best = -i32::MAX;
    for pit in pos.legal_moves(RULES).collect::<Vec<_>>() {
        let mut child = *pos;
        child.play(pit, RULES).expect("legal");
        let same = child.to_move() == pos.to_move();
        let v = if same {
            negamax(&child, depth - 1, alpha, beta, deadline, nodes)?
        } else {
            -negamax(&child, depth - 1, -beta, -alpha, deadline, nodes)?
        };
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}
