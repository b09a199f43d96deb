//! What a game type gives the agents: its state ([`GameState`]), the
//! children of a state ([`StateChildren`]) and how a position of the game
//! becomes one ([`PlayGame`]). Each game implements them in its own folder
//! (`src/<game>/state.rs`); [`super::State`] is generated from the
//! registry's list of game types ([`crate::for_each_game!`]) and delegates
//! every operation to them.

use std::fmt;
use std::hash::Hash;

use crate::error::Result;
use crate::family::Rules;
use crate::game::Game;
use crate::moves::{PlayError, Step};
use crate::play::pits::Pits;
use crate::play::state::State;
use crate::side::Side;
use crate::sow::MAX_PITS;

/// What a match compares to find a position that comes back: the cells
/// (board and scores) and the side to move.
pub type RepetitionKey = ([u8; 2 * MAX_PITS + 2], Side);

/// A position of one game type and the rule set it is played under, seen
/// from the side to move, with the operations the agents and the match
/// runner need (see [`super::State`], which hands each call to its game's
/// state).
pub trait GameState: Clone + PartialEq + Eq + Hash + fmt::Display + fmt::Debug {
    /// The children of a state, played when asked for.
    type Children: StateChildren<State = Self>;
    /// The rule set.
    fn rules(&self) -> Rules;
    /// The side to move.
    fn to_move(&self) -> Side;
    /// Pits per side.
    fn pits_per_side(&self) -> usize;
    /// The mover's pits, from the mover's left.
    fn mover_pits(&self) -> Pits<'_>;
    /// The opponent's pits, from the opponent's left.
    fn opponent_pits(&self) -> Pits<'_>;
    /// Whether the board is held on two-byte cells (no tables or exact
    /// solver play it).
    fn is_wide(&self) -> bool {
        false
    }
    /// Whether the game is over by the rules.
    fn is_over(&self) -> bool;
    /// The scores `[south, north]`.
    fn scores(&self) -> [u16; 2];
    /// The legal pits in increasing order and their number.
    #[inline]
    fn moves(&self) -> ([usize; MAX_PITS], usize) {
        let ch = self.children();
        let mut out = [0; MAX_PITS];
        for (i, o) in out.iter_mut().enumerate().take(ch.len()) {
            *o = ch.pit(i);
        }
        (out, ch.len())
    }
    /// The children, one per legal move in increasing pit order.
    fn children(&self) -> Self::Children;
    /// Play `pit`; an illegal move is refused with the reason and leaves
    /// the state as it was.
    fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError>;
    /// What a match compares to find a position that comes back, in the
    /// games where positions can repeat; `None` in the others.
    fn repetition_key(&self) -> Option<RepetitionKey> {
        None
    }
}

/// The children of a [`GameState`], allocation-free.
pub trait StateChildren: Copy + fmt::Debug {
    /// The state of a child.
    type State;
    /// The number of legal moves.
    fn len(&self) -> usize;
    /// Whether there is no legal move.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The pit of the `i`-th child.
    fn pit(&self, i: usize) -> usize;
    /// The pit of the `i`-th child, its state and what the move did.
    fn get(&self, i: usize) -> (usize, Self::State, Step);
}

/// A game type the agents play: the type of its states and how one is
/// made. Implemented in the game's folder; [`super::Playable`] follows.
pub trait PlayGame: Game {
    /// The game's state.
    type State: GameState + Into<State>;
    /// `pos` played under this rule set.
    fn state_of(self, pos: Self::Position) -> Self::State;
    /// The position held by `state`, when it is one of this game's
    /// position type (`None` for a board the game's tables and searches do
    /// not read, as Kalah's two-byte cells).
    fn position_of(state: &Self::State) -> Option<Self::Position>;
    /// The start with `pits` pits per side and `seeds` seeds per pit,
    /// South to move, as the generic state (a game may start on a state
    /// of its own other than [`PlayGame::State`], as Kalah's two-byte
    /// board).
    fn start_state(self, pits: usize, seeds: usize) -> Result<State> {
        Ok(self.state_of(self.start(pits, seeds)?).into())
    }
}

/// A board a game holds besides its position type, played by the agents
/// as a state of its own (Kalah's two-byte cells, for more than 255
/// seeds): the registry names the board after its game type
/// ([`crate::for_each_game!`]) and [`super::State`] gets a variant of this
/// state, so that the game's usual state reads one tag.
pub trait PlayBoard {
    /// The state that holds the board.
    type State: GameState + Into<State>;
}
