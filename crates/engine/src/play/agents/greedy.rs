//! The greedy agent: the best score difference after the move, following an
//! extra turn.

use super::{Agent, Choice};
use crate::play::state::State;

/// Plays the move that maximises its own score minus the opponent's at the
/// end of its turn (spec `greedy`): stores in Kalah, captured seeds in Awari
/// and Oware. When a move gives an extra turn, the agent follows it with
/// its best continuation, so a turn of several moves is judged as a whole,
/// within [`TURN_BUDGET`] positions a decision (Ohvalhu's relay sowing
/// gives turns of twenty moves and more; past the budget a move is judged
/// by the difference right after it). Ties go to the leftmost pit, so the
/// agent is deterministic.
#[derive(Debug, Default)]
pub struct GreedyAgent;

impl GreedyAgent {
    /// The greedy agent.
    pub fn new() -> GreedyAgent {
        GreedyAgent
    }
}

/// Positions a greedy decision may look at while following extra turns.
/// Kalah's turns stay far below it; it bounds Ohvalhu's, whose full turns
/// can be exponentially many.
pub const TURN_BUDGET: u32 = 100_000;

/// The greedy move of `state` and the mover's score difference at the end
/// of the turn it starts (extra turns followed greedily, within
/// [`TURN_BUDGET`] positions). `state` must not be over.
pub fn greedy_move(state: &State) -> (usize, i32) {
    let mut budget = TURN_BUDGET;
    turn_best(state, &mut budget)
}

fn turn_best(state: &State, budget: &mut u32) -> (usize, i32) {
    let me = state.to_move();
    let children = state.children();
    *budget = budget.saturating_sub(children.len() as u32);
    assert!(
        !children.is_empty(),
        "greedy_move asked for a move in a finished game"
    );
    let mut best = (children.pit(0), i32::MIN);
    for i in 0..children.len() {
        let child = children.get(i);
        let value = if child.step.extra_turn && *budget > 0 {
            turn_best(&child.state, budget).1
        } else {
            child.state.difference(me)
        };
        if value > best.1 {
            best = (child.pit, value);
        }
    }
    best
}

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, state: &State) -> Choice {
        let (pit, value) = greedy_move(state);
        Choice {
            pit,
            value: Some(value as f64),
            value_kind: "score difference at the end of the turn",
        }
    }
}
