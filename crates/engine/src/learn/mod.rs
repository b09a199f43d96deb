//! Learning to play by self-play: an A3C (asynchronous advantage
//! actor-critic) agent for Kalah(6,4), after the seed study's section 5.6
//! (Hunter 2021).
//!
//! - [`net`]: the network's weights as plain numbers, the weights file
//!   (magic, version, layer sizes, CRC-32; written atomically) and the
//!   forward pass the agent plays with;
//! - [`model`]: the training side in plain Rust: the batched forward pass,
//!   n-step returns, the A3C loss, its gradient by back-propagation and
//!   the Adam optimiser;
//! - [`a3c`]: the training: workers on threads, the shared global network
//!   and its Adam optimiser, periodic evaluation;
//! - [`eval`]: the evaluation, the network greedily by policy against
//!   `random` and `greedy`.
//!
//! The agent itself is [`crate::play::agents::a3c`] (spec `a3c`, or
//! `a3c:FILE` for other weights); `mancala train a3c` trains it;
//! `docs/a3c.md` has the network, the loss, the hyper-parameters, the
//! training command and the measured strength.

pub mod a3c;
pub mod eval;
pub mod model;
pub mod net;

use crate::kalah::rules::KalahRules;

/// The rule set the A3C agent is trained for.
pub const RULES: KalahRules = KalahRules::Default;
/// Pits per side of the game the A3C agent is trained for.
pub const PITS: usize = 6;
/// Seeds per pit at the start of the game the A3C agent is trained for.
pub const SEEDS: usize = 4;
