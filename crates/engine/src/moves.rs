//! What a move did and the legal moves of a position: the one move record
//! every game, the agents and the front ends share.

use crate::sow::MAX_PITS;

/// What one move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Seeds captured by the move (Kalah: the capturing seed included;
    /// two bytes, for boards of more than 255 seeds).
    pub captured: u16,
    /// The mover moves again (Kalah only).
    pub extra_turn: bool,
    /// The move ended the game.
    pub game_over: bool,
}

/// The legal moves of a position, in increasing pit order, allocation-free.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    pits: [u8; MAX_PITS],
    len: u8,
}

impl Moves {
    /// Add a pit (in increasing order).
    #[inline]
    pub fn push(&mut self, pit: usize) {
        self.pits[self.len as usize] = pit as u8;
        self.len += 1;
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th pit.
    #[inline]
    pub fn pit(&self, i: usize) -> usize {
        self.pits[i] as usize
    }

    /// The pits.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.pits[..self.len as usize].iter().map(|&p| p as usize)
    }
}
