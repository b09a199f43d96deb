//! An independent, deliberately plain solver used to check the tables:
//! memoized minimax over [`Position`]s, following the rules move by move.
//! It shares nothing with the builder but the rules themselves.
//!
//! [`crate::awari::reference`] is the Awari and Oware counterpart: every reachable board
//! enumerated and solved layer by layer with explicit cycle handling.

use std::collections::HashMap;

use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;

/// Plain minimax with a memo keyed on the pit contents (seen from the side
/// to move). Slow and memory-hungry; for tests and spot checks.
#[derive(Debug, Default)]
pub struct Minimax {
    rules: KalahRules,
    memo: HashMap<Vec<u8>, i32>,
}

impl Minimax {
    /// A solver for the given rules.
    pub fn new(rules: KalahRules) -> Minimax {
        Minimax {
            rules,
            memo: HashMap::new(),
        }
    }

    /// Positions remembered so far.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Final store difference for the side to move under perfect play,
    /// stores included.
    pub fn value(&mut self, pos: &Position) -> i32 {
        self.active_value(pos) + pos.mover_store() as i32 - pos.opponent_store() as i32
    }

    /// The same, counting only the seeds still in the pits.
    pub fn active_value(&mut self, pos: &Position) -> i32 {
        if pos.is_game_over(self.rules) {
            let mover: i32 = pos.mover_pits().iter().map(|&x| x as i32).sum();
            let opp: i32 = pos.opponent_pits().iter().map(|&x| x as i32).sum();
            return mover - opp;
        }
        let m = pos.pits_per_side();
        let key: Vec<u8> = pos
            .mover_pits()
            .iter()
            .chain(pos.opponent_pits())
            .copied()
            .collect();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        // Strip the stores: the value counts only what happens from here.
        let mut cells = vec![0u8; 2 * m + 2];
        cells[..m].copy_from_slice(pos.mover_pits());
        cells[m + 1..2 * m + 1].copy_from_slice(pos.opponent_pits());
        let bare = Position::from_cells(&cells, pos.to_move()).expect("valid");
        let mut best = i32::MIN;
        for pit in 0..m {
            let mut child = bare;
            let Ok(mv) = child.play(pit, self.rules) else {
                continue;
            };
            let v = if mv.game_over {
                child.final_difference()
            } else if mv.extra_turn {
                child.mover_store() as i32 - child.opponent_store() as i32
                    + self.active_value(&child)
            } else {
                // The turn passed: the child is seen from the opponent.
                -(child.mover_store() as i32 - child.opponent_store() as i32
                    + self.active_value(&child))
            };
            best = best.max(v);
        }
        self.memo.insert(key, best);
        best
    }
}
