//! The value of every move of the root's turn: each move's child is
//! proven as a position of its own in the same ledger, its questions asked
//! of the child, so the lines the root's proof already holds about the
//! children count. The root's turn is its opening moves and, where a move
//! ends in the mover's store (an extra turn), the moves after it, until
//! the turn passes: "every opening move" of a game whose best move is an
//! extra turn means its continuations too.

use serde::Serialize;

use super::{children, Entry, Ledger, Question};
use crate::error::Result;

/// What the ledger proves of one move of the root's turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The moves of the same turn before this one (empty for an opening
    /// move; `[0]` for a move after the extra turn of pit 0).
    pub after: Vec<usize>,
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
        self.moves_from(&self.header.root, &[])
    }

    /// Every move of the root's turn with its bounds: the opening moves in
    /// pit order, then the moves after each extra turn (by the opening
    /// moves' pits, then pit order), breadth first.
    pub fn turn_moves(&self) -> Result<Vec<MoveValue>> {
        let mut out = Vec::new();
        for (pos, after) in self.root().turn(self.rules) {
            out.extend(self.moves_from(&pos.to_string(), &after)?);
        }
        Ok(out)
    }

    /// The moves from `position` (one of the root's turn, reached by the
    /// moves `after`), in pit order.
    fn moves_from(&self, position: &str, after: &[usize]) -> Result<Vec<MoveValue>> {
        let parent = Question {
            position: position.to_string(),
            at_least: 0,
        };
        let rules = self.rules;
        Ok(children(&parent, rules)?
            .into_iter()
            .map(|c| {
                let (lo, hi) = match c.over {
                    Some(v) => (v, v),
                    None => self.bounds(&c.question.position),
                };
                let (lower, upper) = if c.negated { (-hi, -lo) } else { (lo, hi) };
                MoveValue {
                    after: after.to_vec(),
                    pit: c.pit,
                    position: c.question.position,
                    turn_passes: c.negated,
                    lower,
                    upper,
                }
            })
            .collect())
    }

    /// The pits of `position`'s moves in the order of its latest split
    /// (best estimate first); empty without one.
    fn split_order(&self, position: &str) -> Vec<usize> {
        match self
            .split_lines
            .get(position)
            .and_then(|lines| lines.last())
        {
            Some(&i) => match &self.entries[i] {
                Entry::Split(s) => s.order.clone(),
                _ => Vec::new(),
            },
            None => Vec::new(),
        }
    }

    /// The next question towards every move's exact value (`None` once
    /// each is proven): of the first move not yet exact, the opening moves
    /// first, then the moves after each extra turn (breadth first, the
    /// extra turns by pit); among the moves from one position, in the
    /// order of its latest split (best estimate first; pit order without
    /// one). The question starts from `guess` for the move (the root's
    /// value), asked of the child from its side to move.
    pub fn next_move_question(&self, guess: i32) -> Result<Option<Question>> {
        for (pos, after) in self.root().turn(self.rules) {
            let position = pos.to_string();
            let mut moves = self.moves_from(&position, &after)?;
            let order = self.split_order(&position);
            let rank = |pit: usize| order.iter().position(|&p| p == pit).unwrap_or(usize::MAX);
            moves.sort_by_key(|m| (rank(m.pit), m.pit));
            if let Some(m) = moves.iter().find(|m| !m.exact()) {
                let g = if m.turn_passes { -guess } else { guess };
                return Ok(self.next_value_question(&m.position, g));
            }
        }
        Ok(None)
    }
}
