//! The evaluations the fixed-depth searches ([`super::search`]) call at
//! their horizon, and the path flags they read: the store difference, the
//! published six-term heuristic, and the flags H5 and H7 that the studies'
//! own evaluations ([`super::rovaris`], [`super::hunter`]) share.

use crate::play::state::State;
use crate::side::{side_index, Side};

/// The weights of the six heuristics H1..H6 of the heuristic agent.
pub const HEURISTIC_WEIGHTS: [f64; 6] = [0.198649, 0.190084, 0.370793, 1.0, 0.418841, -0.565937];

/// Own store (captured seeds in Awari) minus the opponent's: the
/// evaluation of `minimax:D` and `alphabeta:D`.
pub fn store_eval(state: &State, me: Side) -> f64 {
    state.difference(me) as f64
}

/// The published weighted heuristic of `heuristic:D`, for the agent `me`:
/// H1 seeds in the agent's leftmost pit, H2 seeds in all the agent's pits,
/// H3 the agent's non-empty pits, H4 the agent's store, H5 1 when `h5` (see
/// [`super::search::Eval::child_flags`]), H6 the opponent's store. In Awari and Oware the
/// stores are the seeds captured.
pub fn heuristic_eval(state: &State, me: Side, h5: bool) -> f64 {
    let scores = state.scores();
    heuristic_terms(state, me, h5, scores[1 - side_index(me)])
}

/// H1..H6 weighted by [`HEURISTIC_WEIGHTS`], with H6 given.
pub(crate) fn heuristic_terms(state: &State, me: Side, h5: bool, h6: u16) -> f64 {
    let mine = if state.to_move() == me {
        state.mover_pits()
    } else {
        state.opponent_pits()
    };
    let my_store = state.scores()[side_index(me)];
    let h = [
        mine.get(0) as f64,
        mine.sum() as f64,
        mine.non_empty() as f64,
        my_store as f64,
        if h5 { 1.0 } else { 0.0 },
        h6 as f64,
    ];
    h.iter().zip(HEURISTIC_WEIGHTS).map(|(h, w)| h * w).sum()
}

/// Flags of the path to a node that the heuristics read ([`H5`], [`H7`]).
pub type Flags = u8;

/// Flag: the heuristic's H5 is 1 (the move that led to the node was the
/// agent's own, from its rightmost pit; [`super::search::Eval::child_flags`] says which
/// move each evaluation means).
pub const H5: Flags = 1;

/// Flag: the move that led to the node was the agent's own and earned it
/// another move (H7 of `heuristic10:D`).
pub const H7: Flags = 2;
