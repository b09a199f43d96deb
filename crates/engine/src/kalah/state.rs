//! Kalah's state for the agents ([`KalahState`]: byte cells, or two-byte
//! cells for a game of more than [`MAX_SEEDS`] seeds), and the state of
//! any game played on Kalah's board through its `Game` alone
//! ([`BoardState`], Ohvalhu's and Vai Lung Thlan's).

use std::fmt;

use crate::error::Result;
use crate::family::Rules;
use crate::game::Game;
use crate::kalah::position::{Position, MAX_SEEDS};
use crate::kalah::rules::KalahRules;
use crate::kalah::wide::WidePosition;
use crate::moves::{Moves, PlayError, Step};
use crate::play::pits::Pits;
use crate::play::state::{GameState, PlayGame, RepetitionKey, StateChildren};
use crate::side::Side;
use crate::sow::MAX_PITS;

/// A Kalah position and the rule set it is played under.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum KalahState {
    /// Byte cells: what the tables, the solver and the perfect agent read.
    Narrow(Position, KalahRules),
    /// Two-byte cells (a game of more than [`MAX_SEEDS`] seeds). No tables
    /// or solver.
    Wide(Box<WidePosition>, KalahRules),
}

impl KalahState {
    /// A position on two-byte cells under `rules`.
    pub fn wide(pos: WidePosition, rules: KalahRules) -> KalahState {
        KalahState::Wide(Box::new(pos), rules)
    }
}

impl PlayGame for KalahRules {
    type State = KalahState;

    fn state_of(self, pos: Position) -> KalahState {
        KalahState::Narrow(pos, self)
    }

    fn position_of(state: &KalahState) -> Option<Position> {
        match state {
            KalahState::Narrow(pos, _) => Some(*pos),
            KalahState::Wide(..) => None,
        }
    }

    /// A game of more than [`MAX_SEEDS`] seeds starts on two-byte cells.
    fn start_state(self, pits: usize, seeds: usize) -> Result<KalahState> {
        Ok(if 2 * pits * seeds > MAX_SEEDS {
            KalahState::wide(WidePosition::start(pits, seeds)?, self)
        } else {
            KalahState::Narrow(Position::start(pits, seeds)?, self)
        })
    }
}

impl GameState for KalahState {
    type Children = KalahChildren;

    fn rules(&self) -> Rules {
        match self {
            KalahState::Narrow(_, r) | KalahState::Wide(_, r) => Rules::Kalah(*r),
        }
    }

    #[inline]
    fn to_move(&self) -> Side {
        match self {
            KalahState::Narrow(p, _) => p.to_move(),
            KalahState::Wide(p, _) => p.to_move(),
        }
    }

    #[inline]
    fn pits_per_side(&self) -> usize {
        match self {
            KalahState::Narrow(p, _) => p.pits_per_side(),
            KalahState::Wide(p, _) => p.pits_per_side(),
        }
    }

    #[inline]
    fn mover_pits(&self) -> Pits<'_> {
        match self {
            KalahState::Narrow(p, _) => Pits::Narrow(p.mover_pits()),
            KalahState::Wide(p, _) => Pits::Wide(p.mover_pits()),
        }
    }

    #[inline]
    fn opponent_pits(&self) -> Pits<'_> {
        match self {
            KalahState::Narrow(p, _) => Pits::Narrow(p.opponent_pits()),
            KalahState::Wide(p, _) => Pits::Wide(p.opponent_pits()),
        }
    }

    fn is_wide(&self) -> bool {
        matches!(self, KalahState::Wide(..))
    }

    #[inline]
    fn is_over(&self) -> bool {
        match self {
            KalahState::Narrow(p, r) => p.is_game_over(*r),
            KalahState::Wide(p, r) => p.is_game_over(*r),
        }
    }

    #[inline(always)]
    fn scores(&self) -> [u16; 2] {
        match self {
            KalahState::Narrow(p, _) => p.stores().map(u16::from),
            KalahState::Wide(p, _) => p.stores_by_side(),
        }
    }

    #[inline]
    fn moves(&self) -> ([usize; MAX_PITS], usize) {
        let mut out = [0; MAX_PITS];
        let mut n = 0;
        match self {
            KalahState::Narrow(p, r) => {
                for pit in p.legal_moves(*r) {
                    out[n] = pit;
                    n += 1;
                }
            }
            KalahState::Wide(p, r) => {
                for pit in p.legal_moves(*r) {
                    out[n] = pit;
                    n += 1;
                }
            }
        }
        (out, n)
    }

    /// Kalah's children are played only when asked for.
    #[inline(always)]
    fn children(&self) -> KalahChildren {
        match self {
            KalahState::Narrow(pos, rules) => {
                let mut pits = [0u8; MAX_PITS];
                let mut len = 0;
                if !pos.is_game_over(*rules) {
                    for (i, &c) in pos.mover_pits().iter().enumerate() {
                        if c > 0 {
                            pits[len] = i as u8;
                            len += 1;
                        }
                    }
                }
                KalahChildren::Narrow {
                    pos: *pos,
                    rules: *rules,
                    pits,
                    len: len as u8,
                }
            }
            KalahState::Wide(pos, rules) => wide_children(pos, *rules),
        }
    }

    #[inline]
    fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError> {
        match self {
            KalahState::Narrow(p, r) => p.play(pit, *r),
            KalahState::Wide(p, r) => p.play(pit, *r),
        }
    }
}

impl fmt::Display for KalahState {
    /// The position in Kalah's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KalahState::Narrow(p, _) => write!(f, "{p}"),
            KalahState::Wide(p, _) => write!(f, "{p}"),
        }
    }
}

impl fmt::Debug for KalahState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KalahState::Narrow(p, r) => write!(f, "{p:?} [{r}]"),
            KalahState::Wide(p, r) => write!(f, "{p:?} [{r}]"),
        }
    }
}

/// The children of a [`KalahState`], played when asked for.
#[derive(Clone, Copy, Debug)]
pub enum KalahChildren {
    /// Of a position on byte cells.
    Narrow {
        /// The parent.
        pos: Position,
        /// Its rules.
        rules: KalahRules,
        /// The legal pits.
        pits: [u8; MAX_PITS],
        /// How many.
        len: u8,
    },
    /// Of a position on two-byte cells.
    Wide {
        /// The parent.
        pos: WidePosition,
        /// Its rules.
        rules: KalahRules,
        /// The legal pits.
        pits: [u8; MAX_PITS],
        /// How many.
        len: u8,
    },
}

// The wide board's moves, out of line: the byte boards' search loops
// inline `State::children` and `Children::get`, and stay as small as before.
#[cold]
#[inline(never)]
fn wide_children(pos: &WidePosition, rules: KalahRules) -> KalahChildren {
    let mut pits = [0u8; MAX_PITS];
    let mut len = 0;
    for pit in pos.legal_moves(rules) {
        pits[len] = pit as u8;
        len += 1;
    }
    KalahChildren::Wide {
        pos: *pos,
        rules,
        pits,
        len: len as u8,
    }
}

#[cold]
#[inline(never)]
fn wide_child(pos: &WidePosition, rules: KalahRules, pit: usize) -> (usize, KalahState, Step) {
    let mut child = *pos;
    let step = child.play(pit, rules).expect("legal move");
    (pit, KalahState::wide(child, rules), step)
}

impl StateChildren for KalahChildren {
    type State = KalahState;

    #[inline(always)]
    fn len(&self) -> usize {
        match self {
            KalahChildren::Narrow { len, .. } | KalahChildren::Wide { len, .. } => *len as usize,
        }
    }

    #[inline(always)]
    fn pit(&self, i: usize) -> usize {
        match self {
            KalahChildren::Narrow { pits, .. } | KalahChildren::Wide { pits, .. } => {
                pits[i] as usize
            }
        }
    }

    #[inline(always)]
    fn get(&self, i: usize) -> (usize, KalahState, Step) {
        match self {
            KalahChildren::Narrow {
                pos, rules, pits, ..
            } => {
                let pit = pits[i] as usize;
                let mut child = *pos;
                let step = child.play(pit, *rules).expect("legal move");
                (pit, KalahState::Narrow(child, *rules), step)
            }
            KalahChildren::Wide {
                pos, rules, pits, ..
            } => wide_child(pos, *rules, pits[i] as usize),
        }
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
