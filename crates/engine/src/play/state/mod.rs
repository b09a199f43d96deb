//! A game any agent can play: Kalah and Awari/Oware positions behind one
//! small enum, so that the agents and the match runner are written once.
//!
//! - [`GameSpec`]: a game and its start as named on the command line
//!   (`kalah:6:4`, `kalah:6:4:capture-needs-opposite`, `awari:6:4`,
//!   `oware:5:3`);
//! - [`State`]: a position of any of the games, seen from the side to move,
//!   with the handful of operations the agents need: legal moves, children,
//!   play, game over, scores. Kalah boards of more than
//!   [`MAX_SEEDS`] seeds (`kalah:6:100`) are played on two-byte cells
//!   ([`WidePosition`]); the agents see the same operations;
//! - [`AwariState`]: an Awari or Oware position ([`AwariPosition`]) with
//!   its game, built on [`crate::awari::rules`].
//!
//! "Score" means a player's store in Kalah and the seeds a player has
//! captured (or taken at the end of the game) in Awari and Oware. When an
//! Awari or Oware game is over by the rules, the seeds left on the board have
//! already been given to their owner (see [`AwariState`]), so the scores are
//! final; when a match ends a game by repetition or at its ply cap, the seeds
//! left on the board are split evenly and add nothing to the difference
//! (`docs/RULES.md`, Awari rule 6).

use crate::side::{side_index, Side};
use crate::sow::MAX_PITS;
use std::fmt;

use crate::awari::position::AwariPosition;
use crate::awari::rules::{AwariGame, AwariMoves};
use crate::error::Result;
use crate::game::Game;
use crate::kalah::position::{Position, MAX_SEEDS};
use crate::kalah::rules::KalahRules;
use crate::kalah::wide::WidePosition;
pub use crate::moves::{PlayError, Step};
use crate::ohvalhu::Ohvalhu;
use crate::vai_lung_thlan::VaiLungThlan;

pub use crate::family::Rules;

pub use crate::play::pits::Pits;

mod awari;
mod spec;
pub use awari::AwariState;
pub use spec::GameSpec;

/// A game whose positions the agents and the match runner play: how one
/// of its positions becomes a [`State`]. Every game of the registry
/// implements it (here, beside the [`State`] variants).
pub trait Playable: Game {
    /// The position as a state for the agents and the match runner.
    fn state(self, pos: Self::Position) -> State;
}

impl Playable for KalahRules {
    fn state(self, pos: Position) -> State {
        State::Kalah(pos, self)
    }
}

impl Playable for AwariGame {
    fn state(self, pos: AwariPosition) -> State {
        State::Awari(AwariState::new(pos, self))
    }
}

impl Playable for Ohvalhu {
    fn state(self, pos: Position) -> State {
        State::Ohvalhu(pos)
    }
}

impl Playable for VaiLungThlan {
    fn state(self, mut pos: Position) -> State {
        self.normalize(&mut pos);
        State::VaiLungThlan(pos, self)
    }
}

/// A position of any game, seen from the side to move.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum State {
    /// A Kalah position and the rule set it is played under.
    Kalah(Position, KalahRules),
    /// A Kalah position on two-byte cells (a game of more than
    /// [`MAX_SEEDS`] seeds) and its rule set. No tables or solver.
    KalahWide(Box<WidePosition>, KalahRules),
    /// An Awari or Oware position.
    Awari(AwariState),
    /// An Ohvalhu position (Kalah's board).
    Ohvalhu(Position),
    /// A Vai Lung Thlan position (Kalah's board, the stores holding the
    /// captures), never with an empty mover row unless the game is over,
    /// and the reading of the rules it is played under.
    VaiLungThlan(Position, VaiLungThlan),
}

impl State {
    /// The start of the game `rules` with `pits` pits per side and `seeds`
    /// seeds per pit, South to move.
    /// A Kalah game of more than [`MAX_SEEDS`] seeds is played on two-byte
    /// cells ([`State::KalahWide`]).
    pub fn start(rules: Rules, pits: usize, seeds: usize) -> Result<State> {
        Ok(match rules {
            Rules::Kalah(r) if 2 * pits * seeds > MAX_SEEDS => {
                State::KalahWide(Box::new(WidePosition::start(pits, seeds)?), r)
            }
            Rules::Kalah(r) => State::Kalah(Position::start(pits, seeds)?, r),
            Rules::Awari(g) => State::Awari(AwariState::start(g, pits, seeds)?),
            Rules::Ohvalhu => State::Ohvalhu(Ohvalhu.start(pits, seeds)?),
            Rules::VaiLungThlan => {
                State::VaiLungThlan(VaiLungThlan.start(pits, seeds)?, VaiLungThlan)
            }
            Rules::VaiLungThlanReading(r) => {
                let g = VaiLungThlan::read_as(r);
                State::VaiLungThlan(g.start(pits, seeds)?, g)
            }
        })
    }

    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        match self {
            State::Kalah(_, r) | State::KalahWide(_, r) => Rules::Kalah(*r),
            State::Awari(s) => Rules::Awari(s.game),
            State::Ohvalhu(_) => Rules::Ohvalhu,
            State::VaiLungThlan(_, g) => Rules::from(*g),
        }
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Side {
        match self {
            State::Kalah(p, _) | State::Ohvalhu(p) | State::VaiLungThlan(p, _) => p.to_move(),
            State::KalahWide(p, _) => p.to_move(),
            State::Awari(s) => s.to_move(),
        }
    }

    /// Pits per side.
    #[inline]
    pub fn pits_per_side(&self) -> usize {
        match self {
            State::Kalah(p, _) | State::Ohvalhu(p) | State::VaiLungThlan(p, _) => p.pits_per_side(),
            State::KalahWide(p, _) => p.pits_per_side(),
            State::Awari(s) => s.pits_per_side(),
        }
    }

    /// The mover's pits, from the mover's left.
    #[inline]
    pub fn mover_pits(&self) -> Pits<'_> {
        match self {
            State::Kalah(p, _) | State::Ohvalhu(p) | State::VaiLungThlan(p, _) => {
                Pits::Narrow(p.mover_pits())
            }
            State::KalahWide(p, _) => Pits::Wide(p.mover_pits()),
            State::Awari(s) => Pits::Narrow(s.pos.mover_pits()),
        }
    }

    /// The opponent's pits, from the opponent's left.
    #[inline]
    pub fn opponent_pits(&self) -> Pits<'_> {
        match self {
            State::Kalah(p, _) | State::Ohvalhu(p) | State::VaiLungThlan(p, _) => {
                Pits::Narrow(p.opponent_pits())
            }
            State::KalahWide(p, _) => Pits::Wide(p.opponent_pits()),
            State::Awari(s) => Pits::Narrow(s.pos.opponent_pits()),
        }
    }

    /// Whether the board is held on two-byte cells ([`State::KalahWide`]):
    /// no tables or exact solver play it.
    pub fn is_wide(&self) -> bool {
        matches!(self, State::KalahWide(..))
    }

    /// Seeds still in the pits.
    pub fn seeds_on_board(&self) -> usize {
        (self.mover_pits().sum() + self.opponent_pits().sum()) as usize
    }

    /// Whether the game is over by the rules.
    #[inline]
    pub fn is_over(&self) -> bool {
        match self {
            State::Kalah(p, r) => p.is_game_over(*r),
            State::KalahWide(p, r) => p.is_game_over(*r),
            State::Awari(s) => s.over,
            State::Ohvalhu(p) => crate::ohvalhu::is_over(p),
            State::VaiLungThlan(p, g) => g.ends(p),
        }
    }

    /// The scores `[south, north]`: stores in Kalah, seeds captured (or
    /// taken at the end) in Awari and Oware.
    #[inline(always)]
    pub fn scores(&self) -> [u16; 2] {
        match self {
            State::Kalah(p, _) | State::Ohvalhu(p) | State::VaiLungThlan(p, _) => {
                p.stores().map(u16::from)
            }
            State::KalahWide(p, _) => p.stores_by_side(),
            State::Awari(s) => s.captured().map(u16::from),
        }
    }

    /// The seeds in each row, `[south, north]`.
    pub fn row_sums(&self) -> [u16; 2] {
        let mover = self.mover_pits().sum() as u16;
        let other = self.opponent_pits().sum() as u16;
        match self.to_move() {
            Side::South => [mover, other],
            Side::North => [other, mover],
        }
    }

    /// `side`'s score minus the other's.
    #[inline(always)]
    pub fn difference(&self, side: Side) -> i32 {
        let s = self.scores();
        let i = side_index(side);
        s[i] as i32 - s[1 - i] as i32
    }

    /// The legal pits in increasing order, in a small stack array, and their
    /// number (0 when the game is over).
    #[inline]
    pub fn moves(&self) -> ([usize; MAX_PITS], usize) {
        let mut out = [0; MAX_PITS];
        let mut n = 0;
        match self {
            State::Kalah(p, r) => {
                for pit in p.legal_moves(*r) {
                    out[n] = pit;
                    n += 1;
                }
            }
            State::KalahWide(p, r) => {
                for pit in p.legal_moves(*r) {
                    out[n] = pit;
                    n += 1;
                }
            }
            State::Awari(s) => {
                if let Some(moves) = s.moves() {
                    for mv in moves.as_slice() {
                        out[n] = mv.pit as usize;
                        n += 1;
                    }
                }
            }
            State::Ohvalhu(_) | State::VaiLungThlan(..) => {
                let moves = self.family_moves();
                for pit in moves.iter() {
                    out[n] = pit;
                    n += 1;
                }
            }
        }
        (out, n)
    }

    /// The children, one per legal move in increasing pit order. Kalah
    /// children are played only when asked for ([`Children::get`]); Awari
    /// ones come from one call of the rules.
    #[inline(always)]
    pub fn children(&self) -> Children {
        match self {
            State::Kalah(pos, rules) => {
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
                Children(ChildList::Kalah {
                    pos: *pos,
                    rules: *rules,
                    pits,
                    len: len as u8,
                })
            }
            State::KalahWide(pos, rules) => wide_children(pos, *rules),
            State::Awari(s) => Children(ChildList::Awari {
                parent: *s,
                moves: s.moves(),
            }),
            State::Ohvalhu(pos) | State::VaiLungThlan(pos, _) => Children(ChildList::Family {
                rules: self.rules(),
                pos: *pos,
                pits: self.family_moves(),
            }),
        }
    }

    /// Play `pit`. An illegal move is refused with the reason and leaves the
    /// state as it was. When the turn passes, the state turns to the other
    /// side's view.
    #[inline]
    pub fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError> {
        match self {
            State::Kalah(p, r) => p.play(pit, *r),
            State::KalahWide(p, r) => p.play(pit, *r),
            State::Awari(s) => s.play(pit),
            State::Ohvalhu(p) => Ohvalhu.play(p, pit),
            State::VaiLungThlan(p, g) => g.play_move(p, pit),
        }
    }

    /// What a match compares to find a position that comes back (the
    /// board, the scores and the side to move) in the games where
    /// positions can repeat; `None` in the others.
    pub fn repetition_key(&self) -> Option<([u8; 2 * MAX_PITS + 2], Side)> {
        let mut key = [0u8; 2 * MAX_PITS + 2];
        match self {
            State::Awari(s) => key[..12].copy_from_slice(&s.cells()),
            State::VaiLungThlan(p, _) => key[..p.cells().len()].copy_from_slice(p.cells()),
            _ => return None,
        }
        Some((key, self.to_move()))
    }

    /// The legal moves of the games played through [`Game`] alone.
    #[inline]
    fn family_moves(&self) -> crate::moves::Moves {
        match self {
            State::Ohvalhu(p) => Ohvalhu.legal_moves(p),
            State::VaiLungThlan(p, g) => g.legal_moves(p),
            _ => unreachable!("a game with a move list of its own"),
        }
    }
}

impl fmt::Display for State {
    /// The position in its game's notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Kalah(p, _) | State::Ohvalhu(p) | State::VaiLungThlan(p, _) => write!(f, "{p}"),
            State::KalahWide(p, _) => write!(f, "{p}"),
            State::Awari(s) => write!(f, "{s}"),
        }
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Kalah(p, r) => write!(f, "{p:?} [{r}]"),
            State::KalahWide(p, r) => write!(f, "{p:?} [{r}]"),
            State::Awari(s) => write!(f, "{s:?}"),
            State::Ohvalhu(p) => write!(f, "{p:?} [ohvalhu]"),
            State::VaiLungThlan(p, g) => write!(f, "{p:?} [{g}]"),
        }
    }
}

/// One child of a state.
#[derive(Clone, Debug)]
pub struct Child {
    /// The pit played.
    pub pit: usize,
    /// The state after the move.
    pub state: State,
    /// What the move did.
    pub step: Step,
}

// The wide Kalah board's moves, out of line: the byte boards' search loops
// inline `State::children` and `Children::get`, and stay as small as before.
#[cold]
#[inline(never)]
fn wide_children(pos: &WidePosition, rules: KalahRules) -> Children {
    let mut pits = [0u8; MAX_PITS];
    let mut len = 0;
    for pit in pos.legal_moves(rules) {
        pits[len] = pit as u8;
        len += 1;
    }
    Children(ChildList::KalahWide {
        pos: *pos,
        rules,
        pits,
        len: len as u8,
    })
}

#[cold]
#[inline(never)]
fn wide_child(pos: &WidePosition, rules: KalahRules, pit: usize) -> Child {
    let mut child = *pos;
    let step = child.play(pit, rules).expect("legal move");
    Child {
        pit,
        state: State::KalahWide(Box::new(child), rules),
        step,
    }
}

#[derive(Clone, Copy, Debug)]
enum ChildList {
    Kalah {
        pos: Position,
        rules: KalahRules,
        pits: [u8; MAX_PITS],
        len: u8,
    },
    KalahWide {
        pos: WidePosition,
        rules: KalahRules,
        pits: [u8; MAX_PITS],
        len: u8,
    },
    Awari {
        parent: AwariState,
        /// `None` when the game is over.
        moves: Option<AwariMoves>,
    },
    /// A game played through [`Game`] alone: its children are played
    /// when asked for.
    Family {
        rules: Rules,
        pos: Position,
        pits: crate::moves::Moves,
    },
}

/// The children of a state ([`State::children`]), allocation-free.
#[derive(Clone, Copy, Debug)]
pub struct Children(ChildList);

impl Children {
    /// The number of legal moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        match &self.0 {
            ChildList::Kalah { len, .. } | ChildList::KalahWide { len, .. } => *len as usize,
            ChildList::Awari { moves, .. } => moves.as_ref().map_or(0, |m| m.len()),
            ChildList::Family { pits, .. } => pits.len(),
        }
    }

    /// Whether there is no legal move (the game is over).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pit of the `i`-th child.
    #[inline(always)]
    pub fn pit(&self, i: usize) -> usize {
        match &self.0 {
            ChildList::Kalah { pits, .. } | ChildList::KalahWide { pits, .. } => pits[i] as usize,
            ChildList::Awari { moves, .. } => {
                moves.as_ref().expect("a move").as_slice()[i].pit as usize
            }
            ChildList::Family { pits, .. } => pits.pit(i),
        }
    }

    /// The `i`-th child (`i < len()`).
    #[inline(always)]
    pub fn get(&self, i: usize) -> Child {
        match &self.0 {
            ChildList::Kalah {
                pos, rules, pits, ..
            } => {
                let pit = pits[i] as usize;
                let mut child = *pos;
                let step = child.play(pit, *rules).expect("legal move");
                Child {
                    pit,
                    state: State::Kalah(child, *rules),
                    step,
                }
            }
            ChildList::KalahWide {
                pos, rules, pits, ..
            } => wide_child(pos, *rules, pits[i] as usize),
            ChildList::Awari { parent, moves } => {
                let mv = &moves.as_ref().expect("a move").as_slice()[i];
                let state = parent.after(mv);
                Child {
                    pit: mv.pit as usize,
                    state: State::Awari(state),
                    step: Step {
                        captured: mv.captured.into(),
                        extra_turn: false,
                        game_over: state.over,
                    },
                }
            }
            ChildList::Family { rules, pos, pits } => {
                let pit = pits.pit(i);
                let mut state = match rules {
                    Rules::Ohvalhu => State::Ohvalhu(*pos),
                    Rules::VaiLungThlanReading(r) => {
                        State::VaiLungThlan(*pos, VaiLungThlan::read_as(*r))
                    }
                    _ => State::VaiLungThlan(*pos, VaiLungThlan),
                };
                let step = state.play(pit).expect("legal move");
                Child { pit, state, step }
            }
        }
    }

    /// Every child in increasing pit order.
    pub fn iter(&self) -> impl Iterator<Item = Child> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::awari::rules::AwariGame;

    #[test]
    fn awari_state_plays_and_refuses_with_reasons() {
        let mut s = AwariState::start(AwariGame::Awari, 6, 4).unwrap();
        assert_eq!(s.to_string(), "4 4 4 4 4 4 4 4 4 4 4 4");
        s.play(5).unwrap();
        assert_eq!(s.to_move(), Side::North);
        assert_eq!(s.board(), &[5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 0]);
        assert!(s
            .play(6)
            .unwrap_err()
            .to_string()
            .contains("does not exist"));
        // Feeding: opponent's row empty, pit 0 does not reach it.
        let mut s =
            AwariState::from_board(AwariGame::Awari, &[1, 0, 1, 0, 0, 0], Side::South, [10, 12])
                .unwrap();
        let before = s;
        assert!(s.play(0).unwrap_err().to_string().contains("does not feed"));
        assert!(s.play(1).unwrap_err().to_string().contains("empty"));
        assert_eq!(s, before);
        // Grand slam refused while another move exists.
        let mut s =
            AwariState::from_board(AwariGame::Awari, &[1, 5, 0, 1], Side::South, [0, 0]).unwrap();
        assert!(s.play(1).unwrap_err().to_string().contains("grand slam"));
    }

    #[test]
    fn awari_game_end_gives_the_seeds_left_to_their_owner() {
        // No move feeds the opponent's empty row: the mover (North) takes 2.
        let s = AwariState::from_board(AwariGame::Awari, &[1, 1, 0, 0, 0, 0], Side::North, [20, 3])
            .unwrap();
        assert!(s.is_over());
        assert_eq!(s.captured(), [20, 5]);
        assert_eq!(State::Awari(s).moves().1, 0);
        // A forced grand slam: the mover takes 2 + 3 and its own seed.
        let mut s =
            AwariState::from_board(AwariGame::Awari, &[0, 5, 0, 1], Side::South, [0, 0]).unwrap();
        let step = s.play(1).unwrap();
        assert!(step.game_over && s.is_over());
        assert_eq!(step.captured, 5);
        assert_eq!(s.captured(), [6, 0]);
        assert_eq!(s.board(), &[0, 0, 0, 0]);
        assert!(s.play(0).unwrap_err().to_string().contains("over"));
    }

    #[test]
    fn children_match_play() {
        for spec in [
            "kalah:6:4",
            "kalah:3:3:end-when-mover-empty",
            "kalah:6:100",
            "kalah:4:1000:capture-needs-opposite",
            "awari:6:4",
            "oware:4:3",
            "vai-lung-thlan:6:5",
            "vai-lung-thlan:3:2",
            "ohvalhu:8:8",
            "ohvalhu:4:3",
        ] {
            let mut s = spec.parse::<GameSpec>().unwrap().start();
            let mut k = 0usize;
            while !s.is_over() && k < 300 {
                let ch = s.children();
                let (pits, n) = s.moves();
                assert_eq!(ch.len(), n);
                for (i, c) in ch.iter().enumerate() {
                    assert_eq!(c.pit, pits[i]);
                    assert_eq!(ch.pit(i), pits[i]);
                    let mut t = s.clone();
                    assert_eq!(t.play(c.pit).unwrap(), c.step);
                    assert_eq!(t, c.state);
                }
                s = ch.get((k * 7 + 3) % n).state;
                k += 1;
            }
        }
    }
}
