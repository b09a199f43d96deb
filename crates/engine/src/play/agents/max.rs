//! The Kalah agents study's max agent (Hunter, 2021, Algorithm 2; spec
//! `max[:ties=last|first|random][:extra=follow|stop]`).

use std::fmt;

use crate::side::side_index;

use super::{Agent, Choice};
use crate::play::state::State;

/// The study's max agent (Algorithm 2, spec `max`): the move that leaves
/// the most seeds in the agent's *own* store at the end of its turn (an
/// extra turn is followed with its best continuation, within
/// [`super::greedy::TURN_BUDGET`] positions), the opponent's store ignored
/// (`greedy` maximises the difference). Of equal moves it keeps the last
/// one scanned from the mover's left, as Algorithm 2's `>=` does.
///
/// Algorithm 2 is not one program (its `evaluate` calls itself on the same
/// move, its `chosenMove += m` collects moves), so its open choices are
/// options ([`MaxOptions`]): `max:ties=first|random` keeps the first of
/// equal moves or a random one, `max:extra=stop` does not follow an extra
/// turn (the store after the move itself).
#[derive(Debug, Default)]
pub struct MaxAgent {
    options: MaxOptions,
    rng: Option<crate::rng::SeededRng>,
}

/// The max agent's readings of Algorithm 2 (`max[:ties=...][:extra=...]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MaxOptions {
    /// Which of equal moves it plays.
    pub ties: MaxTies,
    /// Whether an extra turn is followed.
    pub extra: MaxExtra,
}

/// Which of equally valued moves the max agent plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaxTies {
    /// The last scanned from the mover's left (Algorithm 2's `>=`; the
    /// default).
    #[default]
    Last,
    /// The first scanned (`ties=first`).
    First,
    /// A random one (`ties=random`).
    Random,
}

/// Whether the max agent follows an extra turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaxExtra {
    /// Valued by the best continuation of the turn (the default).
    #[default]
    Follow,
    /// Valued by the store after the move alone (`extra=stop`).
    Stop,
}

impl MaxOptions {
    /// Parse the options after `max`.
    pub fn parse(options: &[&str]) -> std::result::Result<MaxOptions, String> {
        let mut o = MaxOptions::default();
        let mut seen = Vec::new();
        for one in options {
            let key = one.split_once('=').map_or(*one, |(k, _)| k);
            if seen.contains(&key) {
                return Err(format!("max takes {key}= once"));
            }
            seen.push(key);
            match *one {
                "ties=last" => o.ties = MaxTies::Last,
                "ties=first" => o.ties = MaxTies::First,
                "ties=random" => o.ties = MaxTies::Random,
                "extra=follow" => o.extra = MaxExtra::Follow,
                "extra=stop" => o.extra = MaxExtra::Stop,
                _ => {
                    return Err(format!(
                    "unknown max option \"{one}\": use ties=last|first|random, extra=follow|stop"
                ))
                }
            }
        }
        Ok(o)
    }

    /// Whether the agent always plays the same move in a position.
    pub fn is_deterministic(&self) -> bool {
        self.ties != MaxTies::Random
    }
}

impl fmt::Display for MaxOptions {
    /// The spec: `max` and the options not at their default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("max")?;
        match self.ties {
            MaxTies::Last => {}
            MaxTies::First => f.write_str(":ties=first")?,
            MaxTies::Random => f.write_str(":ties=random")?,
        }
        if self.extra == MaxExtra::Stop {
            f.write_str(":extra=stop")?;
        }
        Ok(())
    }
}

/// The max agent's move in `state` and the store it reaches.
pub fn max_move(state: &State) -> (usize, u16) {
    let mut budget = super::greedy::TURN_BUDGET;
    max_turn(state, &mut budget)
}

fn max_turn(state: &State, budget: &mut u32) -> (usize, u16) {
    let me = side_index(state.to_move());
    let children = state.children();
    *budget = budget.saturating_sub(children.len() as u32);
    let mut best = (children.pit(0), 0);
    for i in 0..children.len() {
        let child = children.get(i);
        let value = if child.step.extra_turn && !child.step.game_over && *budget > 0 {
            max_turn(&child.state, budget).1
        } else {
            child.state.scores()[me]
        };
        if value >= best.1 {
            best = (child.pit, value);
        }
    }
    best
}

impl MaxAgent {
    /// The max agent under `options`, drawing among equal moves from `rng`
    /// (used by `ties=random` only).
    pub fn new(options: MaxOptions, rng: crate::rng::SeededRng) -> MaxAgent {
        MaxAgent {
            options,
            rng: Some(rng),
        }
    }

    /// The move under the agent's options, and the store it reaches.
    fn choose_move(&mut self, state: &State) -> (usize, u16) {
        if self.options == MaxOptions::default() {
            return max_move(state);
        }
        let me = side_index(state.to_move());
        let children = state.children();
        let mut budget = super::greedy::TURN_BUDGET.saturating_sub(children.len() as u32);
        let values: Vec<(usize, u16)> = (0..children.len())
            .map(|i| {
                let child = children.get(i);
                let follow = self.options.extra == MaxExtra::Follow;
                let value =
                    if follow && child.step.extra_turn && !child.step.game_over && budget > 0 {
                        max_turn(&child.state, &mut budget).1
                    } else {
                        child.state.scores()[me]
                    };
                (child.pit, value)
            })
            .collect();
        let top = values.iter().map(|v| v.1).max().expect("a legal move");
        let equal: Vec<(usize, u16)> = values.into_iter().filter(|v| v.1 == top).collect();
        match self.options.ties {
            MaxTies::First => equal[0],
            MaxTies::Last => equal[equal.len() - 1],
            MaxTies::Random => {
                use rand::Rng;
                let rng = self.rng.as_mut().expect("a random max agent has its draws");
                equal[rng.gen_range(0..equal.len())]
            }
        }
    }
}

impl Agent for MaxAgent {
    fn name(&self) -> String {
        self.options.to_string()
    }

    fn choose(&mut self, state: &State) -> Choice {
        let (pit, value) = self.choose_move(state);
        Choice {
            pit,
            value: Some(value as f64),
            value_kind: "own store at the end of the turn",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::position::Position;
    use crate::kalah::rules::KalahRules;
    use crate::play::state::Playable;
    use crate::side::Side;

    #[test]
    fn max_agent_takes_its_own_store_and_the_last_tie() {
        // South: pits 0 0 1 2 (store 0); North 0 0 0 9 (store 0). Pit 2
        // sows into pit 3 (no seed stored); pit 3 sows 2: store +1 and North.
        let p = Position::from_cells(&[0, 0, 1, 2, 0, 0, 0, 0, 9, 0], Side::South).unwrap();
        let s = KalahRules::Default.state(p);
        assert_eq!(max_move(&s).0, 3);
        // Every move equal (no capture without an opposite seed): the last
        // one scanned.
        let p = Position::from_cells(&[1, 1, 0, 0, 5, 0, 0, 0, 1, 0], Side::South).unwrap();
        let s = KalahRules::CaptureNeedsOpposite.state(p);
        assert_eq!(max_move(&s), (1, 5));
    }
}
