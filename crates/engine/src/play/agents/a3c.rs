//! The A3C agent: a policy-value network trained by self-play
//! ([`crate::learn`]), playing the legal move its policy likes best.
//!
//! Spec `a3c` plays the weights shipped in the repository
//! (`crates/engine/weights/a3c-kalah-6-4.bin`, compiled into the binary so that it works
//! from any directory); `a3c:FILE` plays the weights in FILE (e.g. from
//! `mancala train a3c --out FILE`). The network was trained for one game:
//! the agent refuses any other ([`check_state`]).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::{Agent, Choice};
use crate::error::Result;
use crate::kalah::state::KalahState;
use crate::learn::net::Weights;
use crate::play::state::State;

/// The shipped weights' file, relative to the repository.
pub const SHIPPED_FILE: &str = "crates/engine/weights/a3c-kalah-6-4.bin";

/// The shipped weights' bytes, compiled in.
static SHIPPED_BYTES: &[u8] = include_bytes!("../../../weights/a3c-kalah-6-4.bin");

/// The shipped weights, read once.
pub fn shipped() -> Result<Arc<Weights>> {
    static SHIPPED: OnceLock<std::result::Result<Arc<Weights>, String>> = OnceLock::new();
    SHIPPED
        .get_or_init(|| {
            Weights::from_bytes(SHIPPED_BYTES, Path::new(SHIPPED_FILE))
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|reason| crate::error::Error::BadWeights {
            path: SHIPPED_FILE.into(),
            reason,
        })
}

/// The weights of spec `a3c` (`None`: the shipped ones) or `a3c:FILE`.
pub fn weights_of(file: Option<&Path>) -> Result<Arc<Weights>> {
    match file {
        None => shipped(),
        Some(path) => Weights::load(path).map(Arc::new),
    }
}

/// Whether `weights` can play `state`: a Kalah position under the rules,
/// board width and seed count they were trained for. An
/// [`crate::error::Error::Unsupported`] naming their game if not.
pub fn check_state(weights: &Weights, state: &State) -> Result<()> {
    let total = state.seeds_on_board() + state.scores().iter().map(|&s| s as usize).sum::<usize>();
    match state {
        State::Kalah(KalahState { rules, .. }) => {
            weights.check_game(*rules, state.pits_per_side(), total)
        }
        _ => Err(crate::error::Error::Unsupported(format!(
            "the a3c agent's network was trained for {} only; it cannot play {}",
            weights.layout.game_name(),
            state.rules().name()
        ))),
    }
}

/// Plays the legal move of highest policy probability (ties to the
/// leftmost pit): deterministic.
#[derive(Debug)]
pub struct A3cAgent {
    weights: Arc<Weights>,
    name: String,
}

impl A3cAgent {
    /// The agent playing `weights`, named `name` in messages.
    pub fn new(weights: Arc<Weights>, name: String) -> A3cAgent {
        A3cAgent { weights, name }
    }
}

impl Agent for A3cAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &State) -> Choice {
        let (pos, rules) = match state {
            State::Kalah(KalahState { pos, rules })
                if check_state(&self.weights, state).is_ok() =>
            {
                (pos, *rules)
            }
            // Refused before any game starts (check_state); a legal move
            // rather than a panic if a caller skipped the check.
            _ => return Choice::bare(state.moves().0[0]),
        };
        debug_assert_eq!(rules, self.weights.layout.rules);
        let (probs, value) = self.weights.policy(pos);
        let mut best = None;
        for pit in pos.legal_moves(rules) {
            if best.is_none_or(|b: usize| probs[pit] > probs[b]) {
                best = Some(pit);
            }
        }
        Choice {
            pit: best.unwrap_or(0),
            value: Some(f64::from(value)),
            value_kind: "network's value of the position for the mover (-1 loss to +1 win)",
        }
    }
}
