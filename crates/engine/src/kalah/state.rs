//! Kalah's states for the agents ([`KalahState`] on byte cells, and
//! [`WideKalahState`] on two-byte cells for a game of more than
//! [`MAX_SEEDS`] seeds: two variants of the generic state, so that the
//! byte board's hot path reads one tag), and the state of any game played
//! on Kalah's board through its `Game` alone ([`BoardState`], Ohvalhu's
//! and Vai Lung Thlan's).

use std::fmt;

use crate::error::Result;
use crate::family::Rules;
use crate::game::Game;
use crate::kalah::position::{Position, MAX_SEEDS};
use crate::kalah::rules::KalahRules;
use crate::kalah::wide::WidePosition;
use crate::moves::{Moves, PlayError, Step};
use crate::play::pits::Pits;
use crate::play::state::{GameState, PlayBoard, PlayGame, RepetitionKey, State, StateChildren};
use crate::side::Side;
use crate::sow::MAX_PITS;

/// A Kalah position on byte cells and the rule set it is played under:
/// what the tables, the solver and the perfect agent read.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KalahState {
    /// The position.
    pub pos: Position,
    /// The rule set.
    pub rules: KalahRules,
}

/// A Kalah position on two-byte cells (a game of more than [`MAX_SEEDS`]
/// seeds) and its rule set: no tables or solver read it. The registry
/// names the two-byte board in Kalah's entry ([`crate::for_each_game!`]),
/// and this is its state ([`PlayBoard`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct WideKalahState {
    pos: Box<WidePosition>,
    rules: KalahRules,
}

impl PlayBoard for WidePosition {
    type State = WideKalahState;
}

impl KalahState {
    /// A position on two-byte cells under `rules`.
    pub fn wide(pos: WidePosition, rules: KalahRules) -> WideKalahState {
        WideKalahState {
            pos: Box::new(pos),
            rules,
        }
    }
}

impl PlayGame for KalahRules {
    type State = KalahState;

    #[inline]
    fn state_of(self, pos: Position) -> KalahState {
        KalahState { pos, rules: self }
    }

    fn position_of(state: &KalahState) -> Option<Position> {
        Some(state.pos)
    }

    /// A game of more than [`MAX_SEEDS`] seeds starts on two-byte cells.
    fn start_state(self, pits: usize, seeds: usize) -> Result<State> {
        Ok(if 2 * pits * seeds > MAX_SEEDS {
            State::from(KalahState::wide(WidePosition::start(pits, seeds)?, self))
        } else {
            State::from(self.state_of(Position::start(pits, seeds)?))
        })
    }
}

impl GameState for KalahState {
    type Children = KalahChildren;

    fn rules(&self) -> Rules {
        Rules::Kalah(self.rules)
    }

    #[inline(always)]
    fn to_move(&self) -> Side {
        self.pos.to_move()
    }

    #[inline]
    fn pits_per_side(&self) -> usize {
        self.pos.pits_per_side()
    }

    #[inline]
    fn mover_pits(&self) -> Pits<'_> {
        Pits::Narrow(self.pos.mover_pits())
    }

    #[inline]
    fn opponent_pits(&self) -> Pits<'_> {
        Pits::Narrow(self.pos.opponent_pits())
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.pos.is_game_over(self.rules)
    }

    #[inline(always)]
    fn scores(&self) -> [u16; 2] {
        self.pos.stores().map(u16::from)
    }

    #[inline]
    fn moves(&self) -> ([usize; MAX_PITS], usize) {
        let mut out = [0; MAX_PITS];
        let mut n = 0;
        for pit in self.pos.legal_moves(self.rules) {
            out[n] = pit;
            n += 1;
        }
        (out, n)
    }

    /// Kalah's children are played only when asked for.
    #[inline(always)]
    fn children(&self) -> KalahChildren {
        // Written in place: the list is the generic children's payload.
        let mut ch = KalahChildren {
            parent: *self,
            pits: [0u8; MAX_PITS],
            len: 0,
        };
        if !self.pos.is_game_over(self.rules) {
            for (i, &c) in self.pos.mover_pits().iter().enumerate() {
                if c > 0 {
                    ch.pits[ch.len as usize] = i as u8;
                    ch.len += 1;
                }
            }
        }
        ch
    }

    #[inline]
    fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError> {
        self.pos.play(pit, self.rules)
    }
}

impl GameState for WideKalahState {
    type Children = WideKalahChildren;

    fn rules(&self) -> Rules {
        Rules::Kalah(self.rules)
    }

    fn to_move(&self) -> Side {
        self.pos.to_move()
    }

    fn pits_per_side(&self) -> usize {
        self.pos.pits_per_side()
    }

    fn mover_pits(&self) -> Pits<'_> {
        Pits::Wide(self.pos.mover_pits())
    }

    fn opponent_pits(&self) -> Pits<'_> {
        Pits::Wide(self.pos.opponent_pits())
    }

    fn is_wide(&self) -> bool {
        true
    }

    fn is_over(&self) -> bool {
        self.pos.is_game_over(self.rules)
    }

    fn scores(&self) -> [u16; 2] {
        self.pos.stores_by_side()
    }

    fn moves(&self) -> ([usize; MAX_PITS], usize) {
        let mut out = [0; MAX_PITS];
        let mut n = 0;
        for pit in self.pos.legal_moves(self.rules) {
            out[n] = pit;
            n += 1;
        }
        (out, n)
    }

    // The wide board's moves stay out of line: the byte boards' search
    // loops inline `State::children` and `Children::get`.
    #[inline(never)]
    fn children(&self) -> WideKalahChildren {
        let (pits, len) = self.moves();
        WideKalahChildren {
            pos: *self.pos,
            rules: self.rules,
            pits: pits.map(|p| p as u8),
            len: len as u8,
        }
    }

    fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError> {
        self.pos.play(pit, self.rules)
    }
}

impl fmt::Display for KalahState {
    /// The position in Kalah's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pos)
    }
}

impl fmt::Debug for KalahState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} [{}]", self.pos, self.rules)
    }
}

impl fmt::Display for WideKalahState {
    /// The position in Kalah's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pos)
    }
}

impl fmt::Debug for WideKalahState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} [{}]", self.pos, self.rules)
    }
}

/// The children of a [`KalahState`], played when asked for.
#[derive(Clone, Copy, Debug)]
pub struct KalahChildren {
    parent: KalahState,
    pits: [u8; MAX_PITS],
    len: u8,
}

impl StateChildren for KalahChildren {
    type State = KalahState;

    #[inline(always)]
    fn len(&self) -> usize {
        self.len as usize
    }

    #[inline(always)]
    fn pit(&self, i: usize) -> usize {
        self.pits[i] as usize
    }

    #[inline(always)]
    fn get(&self, i: usize) -> (usize, KalahState, Step) {
        let pit = self.pits[i] as usize;
        // The rules are read from the parent, not from the copy just
        // written: reading them back from the fresh copy stalls on the
        // store (a match of greedy against random ran 10% slower).
        let rules = self.parent.rules;
        let mut pos = self.parent.pos;
        let step = pos.play(pit, rules).expect("legal move");
        (pit, KalahState { pos, rules }, step)
    }
}

/// The children of a [`WideKalahState`], played when asked for.
#[derive(Clone, Copy, Debug)]
pub struct WideKalahChildren {
    pos: WidePosition,
    rules: KalahRules,
    pits: [u8; MAX_PITS],
    len: u8,
}

impl StateChildren for WideKalahChildren {
    type State = WideKalahState;

    fn len(&self) -> usize {
        self.len as usize
    }

    fn pit(&self, i: usize) -> usize {
        self.pits[i] as usize
    }

    #[inline(never)]
    fn get(&self, i: usize) -> (usize, WideKalahState, Step) {
        let pit = self.pits[i] as usize;
        let mut child = self.pos;
        let step = child.play(pit, self.rules).expect("legal move");
        (pit, KalahState::wide(child, self.rules), step)
    }
}

/// A position of a game played on Kalah's board through its [`Game`]
/// alone (Ohvalhu, Vai Lung Thlan), and the rule set: the stores hold the
/// game's score. A game whose positions can repeat
/// ([`Game::can_repeat`]) gives its cells as the repetition key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardState<G> {
    pos: Position,
    game: G,
}

impl<G: Game<Position = Position>> BoardState<G> {
    /// `pos` played under `game`, as it is.
    pub fn new(pos: Position, game: G) -> BoardState<G> {
        BoardState { pos, game }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

impl<G: Game<Position = Position> + Into<Rules>> GameState for BoardState<G> {
    type Children = BoardChildren<G>;

    fn rules(&self) -> Rules {
        self.game.into()
    }

    #[inline]
    fn to_move(&self) -> Side {
        self.pos.to_move()
    }

    #[inline]
    fn pits_per_side(&self) -> usize {
        self.pos.pits_per_side()
    }

    #[inline]
    fn mover_pits(&self) -> Pits<'_> {
        Pits::Narrow(self.pos.mover_pits())
    }

    #[inline]
    fn opponent_pits(&self) -> Pits<'_> {
        Pits::Narrow(self.pos.opponent_pits())
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.game.is_over(&self.pos)
    }

    #[inline(always)]
    fn scores(&self) -> [u16; 2] {
        self.pos.stores().map(u16::from)
    }

    #[inline]
    fn children(&self) -> BoardChildren<G> {
        BoardChildren {
            parent: *self,
            pits: self.game.legal_moves(&self.pos),
        }
    }

    #[inline]
    fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError> {
        self.game.play(&mut self.pos, pit)
    }

    fn repetition_key(&self) -> Option<RepetitionKey> {
        if !self.game.can_repeat() {
            return None;
        }
        let mut key = [0u8; 2 * MAX_PITS + 2];
        let cells = self.pos.cells();
        key[..cells.len()].copy_from_slice(cells);
        Some((key, self.to_move()))
    }
}

impl<G> fmt::Display for BoardState<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pos)
    }
}

impl<G: fmt::Display> fmt::Debug for BoardState<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} [{}]", self.pos, self.game)
    }
}

/// The children of a [`BoardState`], played when asked for.
#[derive(Clone, Copy)]
pub struct BoardChildren<G> {
    parent: BoardState<G>,
    pits: Moves,
}

impl<G: fmt::Display> fmt::Debug for BoardChildren<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "children of {:?}: {:?}", self.parent, self.pits)
    }
}

impl<G: Game<Position = Position> + Into<Rules>> StateChildren for BoardChildren<G> {
    type State = BoardState<G>;

    #[inline]
    fn len(&self) -> usize {
        self.pits.len()
    }

    #[inline]
    fn pit(&self, i: usize) -> usize {
        self.pits.pit(i)
    }

    #[inline]
    fn get(&self, i: usize) -> (usize, BoardState<G>, Step) {
        let pit = self.pits.pit(i);
        let mut state = self.parent;
        let step = state.play(pit).expect("legal move");
        (pit, state, step)
    }
}
