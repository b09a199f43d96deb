//! The value of every move from the root: each move's child is proven as
//! a position of its own in the same ledger, its questions asked of the
//! child, so the lines the root's proof already holds about the children
//! count.

use serde::Serialize;

use super::{children, Ledger, Question};
use crate::error::Result;

/// What the ledger proves of one move from the root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The move (pit from the mover's left, from 0).
    pub pit: usize,
    /// The position after it, from its side to move.
    pub position: String,
    /// The turn passes with the move (the child's values are the
    /// opponent's, negated here).
    pub turn_passes: bool,
    /// The move's value bounds for the root's mover.
    pub lower: i32,
    /// ... upper.
    pub upper: i32,
}

impl MoveValue {
    /// The bounds meet.
    pub fn exact(&self) -> bool {
        self.lower == self.upper
    }
}

impl Ledger {
    /// Every move from the root with the bounds the ledger proves of it,
    /// in pit order.
    pub fn moves(&self) -> Result<Vec<MoveValue>> {
        let root = Question {
            position: self.header.root.clone(),
            at_least: 0,
        };
        Ok(children(&root, self.rules)?
            .into_iter()
            .map(|c| {
                let (lo, hi) = match c.over {
                    Some(v) => (v, v),
                    None => self.bounds(&c.question.position),
                };
                let (lower, upper) = if c.negated { (-hi, -lo) } else { (lo, hi) };
                MoveValue {
                    pit: c.pit,
                    position: c.question.position,
                    turn_passes: c.negated,
                    lower,
                    upper,
                }
            })
            .collect())
    }

    /// The next question towards every move's exact value (`None` once
    /// each is proven): of the first move not yet exact in the order of
    /// the root's latest split (best estimate first; pit order without
    /// one), starting from `guess` for the move (the root's value), asked
    /// of the child from its side to move.
    pub fn next_move_question(&self, guess: i32) -> Result<Option<Question>> {
        let order: Vec<usize> = self
            .entries
            .iter()
            .rev()
            .find_map(|e| match e {
                super::Entry::Split(s) if s.question.position == self.header.root => {
                    Some(s.order.clone())
                }
                _ => None,
            })
            .unwrap_or_default();
        let rank = |pit: usize| order.iter().position(|&p| p == pit).unwrap_or(usize::MAX);
        let mut moves = self.moves()?;
        moves.sort_by_key(|m| (rank(m.pit), m.pit));
        Ok(moves.into_iter().find(|m| !m.exact()).and_then(|m| {
            let g = if m.turn_passes { -guess } else { guess };
            self.next_value_question(&m.position, g)
        }))
    }
}
