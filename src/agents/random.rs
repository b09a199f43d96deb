//! The random agent: a uniformly random legal move.

use rand::rngs::SmallRng;
use rand::Rng;

use super::{moves, Agent, Choice};
use crate::position::Position;
use crate::rules::KalahRules;

/// Plays a uniformly random legal move (spec `random`).
#[derive(Debug)]
pub struct RandomAgent {
    rules: KalahRules,
    rng: SmallRng,
}

impl RandomAgent {
    /// A random agent drawing from `rng`.
    pub fn new(rules: KalahRules, rng: SmallRng) -> RandomAgent {
        RandomAgent { rules, rng }
    }
}

/// A uniformly random legal move of `pos` (which must not be over).
pub fn random_move(pos: &Position, rules: KalahRules, rng: &mut SmallRng) -> usize {
    let (list, n) = moves(pos, rules);
    assert!(n > 0, "random_move asked for a move in a finished game");
    list[rng.gen_range(0..n)]
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, pos: &Position) -> Choice {
        Choice::bare(random_move(pos, self.rules, &mut self.rng))
    }
}
