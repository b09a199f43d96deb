//! The random agent: a uniformly random legal move.

use crate::rng::SeededRng;
use rand::Rng;

use super::{Agent, Choice};
use crate::play::state::State;

/// Plays a uniformly random legal move (spec `random`).
#[derive(Debug)]
pub struct RandomAgent {
    rng: SeededRng,
}

impl RandomAgent {
    /// A random agent drawing from `rng`.
    pub fn new(rng: SeededRng) -> RandomAgent {
        RandomAgent { rng }
    }
}

/// A uniformly random legal move of `state` (which must not be over).
pub fn random_move(state: &State, rng: &mut SeededRng) -> usize {
    let (list, n) = state.moves();
    assert!(n > 0, "random_move asked for a move in a finished game");
    list[rng.gen_range(0..n)]
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, state: &State) -> Choice {
        Choice::bare(random_move(state, &mut self.rng))
    }
}
