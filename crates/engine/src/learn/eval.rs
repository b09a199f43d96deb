//! Measuring a network's strength during training: the `a3c` agent on
//! its weights against `random` and `greedy`.

use std::sync::Arc;

use super::net::Weights;
use crate::error::Result;
use crate::play::agents::a3c::A3cAgent;
use crate::play::agents::greedy::GreedyAgent;
use crate::play::agents::random::RandomAgent;
use crate::play::agents::Agent;
use crate::play::arena::{game_seed, mix, play_agents, DEFAULT_RANDOM_OPENING};
use crate::play::state::State;
use crate::side::Side;

/// The results of a number of games against one opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Score {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Wins in percent of the games.
    pub fn win_percent(&self) -> f64 {
        100.0 * f64::from(self.wins) / f64::from(self.games().max(1))
    }
}

/// Play `weights` greedily by policy (the `a3c` agent) `games` games
/// against `random` and `games` against `greedy`, on alternate sides;
/// against `greedy`, both deterministic, each side first plays 10 random
/// moves as in `mancala match`. The same `seed` gives the same openings and
/// random moves to every network evaluated.
pub fn evaluate(weights: &Arc<Weights>, games: usize, seed: u64) -> Result<(Score, Score)> {
    let l = weights.layout;
    let start = State::start(crate::family::Rules::Kalah(l.rules), l.pits, l.seeds)?;
    let mut scores = [Score::default(); 2];
    for (k, score) in scores.iter_mut().enumerate() {
        for game in 0..games {
            let gs = game_seed(seed ^ (0xe7a1 + k as u64), game as u64);
            let mut me = A3cAgent::new(weights.clone(), "a3c".into());
            let mut other: Box<dyn Agent> = if k == 0 {
                Box::new(RandomAgent::new(crate::rng::seeded(mix(gs ^ 2))))
            } else {
                Box::new(GreedyAgent::new())
            };
            let side = if game % 2 == 0 {
                Side::South
            } else {
                Side::North
            };
            let opening = if k == 0 { 0 } else { DEFAULT_RANDOM_OPENING };
            let mut rng = crate::rng::seeded(mix(gs ^ 3));
            let played = play_agents(
                start.clone(),
                &mut me,
                other.as_mut(),
                side,
                opening,
                1000,
                &mut rng,
            )?;
            match played.end.difference(side).signum() {
                1 => score.wins += 1,
                0 => score.draws += 1,
                _ => score.losses += 1,
            }
        }
    }
    Ok((scores[0], scores[1]))
}
