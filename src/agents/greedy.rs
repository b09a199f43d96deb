//! The greedy agent: the best store difference after the move, following an
//! extra turn.

use super::{moves, store_difference, Agent, Choice};
use crate::position::Position;
use crate::rules::KalahRules;

/// Plays the move that maximises its own store minus the opponent's at the
/// end of its turn (spec `greedy`). When a move gives an extra turn, the
/// agent follows it with its best continuation, so a turn of several moves
/// is judged as a whole. Ties go to the leftmost pit, so the agent is
/// deterministic.
#[derive(Debug)]
pub struct GreedyAgent {
    rules: KalahRules,
}

impl GreedyAgent {
    /// The greedy agent.
    pub fn new(rules: KalahRules) -> GreedyAgent {
        GreedyAgent { rules }
    }
}

/// The greedy move of `pos` and the mover's store difference at the end of
/// the turn it starts (extra turns followed greedily). `pos` must not be
/// over.
pub fn greedy_move(pos: &Position, rules: KalahRules) -> (usize, i32) {
    let me = pos.to_move();
    let (list, n) = moves(pos, rules);
    assert!(n > 0, "greedy_move asked for a move in a finished game");
    let mut best = (list[0], i32::MIN);
    for &pit in &list[..n] {
        let mut child = *pos;
        let mv = child.play(pit, rules).expect("legal move");
        let value = if mv.extra_turn {
            greedy_move(&child, rules).1
        } else {
            store_difference(&child, me)
        };
        if value > best.1 {
            best = (pit, value);
        }
    }
    best
}

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, pos: &Position) -> Choice {
        let (pit, value) = greedy_move(pos, self.rules);
        Choice {
            pit,
            value: Some(value as f64),
            value_kind: "store difference at the end of the turn",
        }
    }
}
