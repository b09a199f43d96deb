//! A game any agent can play: a position of any game of the registry
//! behind one enum, so that the agents and the match runner are written
//! once.
//!
//! - [`GameSpec`]: a game and its start as named on the command line
//!   (`kalah:6:4`, `kalah:6:4:capture-needs-opposite`, `awari:6:4`,
//!   `oware:5:3`);
//! - [`State`]: a position of any of the games, seen from the side to move,
//!   with the handful of operations the agents need: legal moves, children,
//!   play, game over, scores. Its variants, one a game type, and its
//!   delegation are generated from the registry's list of game types
//!   ([`crate::for_each_game!`]); each game's state ([`GameState`]) is in
//!   the game's own folder (`src/<game>/state.rs`), so a Kalah board of
//!   more than 255 seeds on two-byte cells is Kalah's own affair.
//!
//! "Score" means a player's store in Kalah and the seeds a player has
//! captured (or taken at the end of the game) in Awari and Oware. When an
//! Awari or Oware game is over by the rules, the seeds left on the board have
//! already been given to their owner, so the scores are final; when a match
//! ends a game by repetition or at its ply cap, the seeds left on the board
//! are split evenly and add nothing to the difference (`docs/RULES.md`,
//! Awari rule 6).

use crate::side::{side_index, Side};
use crate::sow::MAX_PITS;
use std::fmt;

use crate::error::Result;
pub use crate::moves::{PlayError, Step};

pub use crate::family::Rules;

pub use crate::play::pits::Pits;

mod game_state;
mod spec;
pub use game_state::{GameState, PlayBoard, PlayGame, RepetitionKey, StateChildren};
pub use spec::GameSpec;

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

/// [`State`], its children and [`Playable`] for every game type the
/// registry lists, each operation handed to the game's [`GameState`]. A
/// game type's entry may name further boards of its own (`[Variant =>
/// board type]`, as Kalah's two-byte cells): the state of each
/// ([`PlayBoard::State`]) is a variant of [`State`] beside the game's
/// [`PlayGame::State`], so that a state reads one tag.
macro_rules! states_of_games {
    ($($v:ident => $g:ty $([$($w:ident => $ws:ty),* $(,)?])?,)*) => {
        states_of_games! {
            @games [$($v => $g,)*]
            @states [$($v => <$g as PlayGame>::State, $($($w => <$ws as PlayBoard>::State,)*)?)*]
        }
    };
    (@games [$($v:ident => $g:ty,)*] @states [$($s:ident => $t:ty,)*]) => {
        /// A position of any game, seen from the side to move: one variant
        /// a state of a game type of the registry.
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub enum State {
            $(
                #[doc = concat!("A position held as `", stringify!($t), "`.")]
                $s($t),
            )*
        }

        #[derive(Clone, Copy, Debug)]
        enum ChildList {
            $($s(<$t as GameState>::Children),)*
        }

        $(
            impl From<$t> for State {
                #[inline(always)]
                fn from(s: $t) -> State {
                    State::$s(s)
                }
            }
        )*

        $(
            impl Playable for $g {
                #[inline]
                fn state(self, pos: Self::Position) -> State {
                    State::$v(self.state_of(pos))
                }

                fn position_in(state: &State) -> Option<Self::Position> {
                    match state {
                        State::$v(s) => <$g as PlayGame>::position_of(s),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )*

        impl State {
            /// The rules of the game.
            pub fn rules(&self) -> Rules {
                match self { $(State::$s(s) => GameState::rules(s),)* }
            }

            /// The side to move.
            #[inline]
            pub fn to_move(&self) -> Side {
                match self { $(State::$s(s) => GameState::to_move(s),)* }
            }

            /// Pits per side.
            #[inline]
            pub fn pits_per_side(&self) -> usize {
                match self { $(State::$s(s) => GameState::pits_per_side(s),)* }
            }

            /// The mover's pits, from the mover's left.
            #[inline]
            pub fn mover_pits(&self) -> Pits<'_> {
                match self { $(State::$s(s) => GameState::mover_pits(s),)* }
            }

            /// The opponent's pits, from the opponent's left.
            #[inline]
            pub fn opponent_pits(&self) -> Pits<'_> {
                match self { $(State::$s(s) => GameState::opponent_pits(s),)* }
            }

            /// Whether the board is held on two-byte cells (a Kalah game of
            /// more than 255 seeds): no tables or exact solver play it.
            pub fn is_wide(&self) -> bool {
                match self { $(State::$s(s) => GameState::is_wide(s),)* }
            }

            /// Whether the game is over by the rules.
            #[inline]
            pub fn is_over(&self) -> bool {
                match self { $(State::$s(s) => GameState::is_over(s),)* }
            }

            /// The scores `[south, north]`: stores in Kalah, seeds captured
            /// (or taken at the end) in Awari and Oware.
            #[inline(always)]
            pub fn scores(&self) -> [u16; 2] {
                match self { $(State::$s(s) => GameState::scores(s),)* }
            }

            /// The legal pits in increasing order, in a small stack array,
            /// and their number (0 when the game is over).
            #[inline]
            pub fn moves(&self) -> ([usize; MAX_PITS], usize) {
                match self { $(State::$s(s) => GameState::moves(s),)* }
            }

            /// The children, one per legal move in increasing pit order,
            /// played when asked for ([`Children::get`]).
            #[inline(always)]
            pub fn children(&self) -> Children {
                match self { $(State::$s(s) => Children(ChildList::$s(GameState::children(s))),)* }
            }

            /// Play `pit`. An illegal move is refused with the reason and
            /// leaves the state as it was. When the turn passes, the state
            /// turns to the other side's view.
            #[inline]
            pub fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError> {
                match self { $(State::$s(s) => GameState::play(s, pit),)* }
            }

            /// What a match compares to find a position that comes back
            /// (the board, the scores and the side to move) in the games
            /// where positions can repeat; `None` in the others.
            pub fn repetition_key(&self) -> Option<RepetitionKey> {
                match self { $(State::$s(s) => GameState::repetition_key(s),)* }
            }
        }

        impl fmt::Display for State {
            /// The position in its game's notation.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self { $(State::$s(s) => fmt::Display::fmt(s, f),)* }
            }
        }

        impl fmt::Debug for State {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self { $(State::$s(s) => fmt::Debug::fmt(s, f),)* }
            }
        }

        impl Children {
            /// The number of legal moves.
            #[inline(always)]
            pub fn len(&self) -> usize {
                match &self.0 { $(ChildList::$s(c) => StateChildren::len(c),)* }
            }

            /// The pit of the `i`-th child.
            #[inline(always)]
            pub fn pit(&self, i: usize) -> usize {
                match &self.0 { $(ChildList::$s(c) => StateChildren::pit(c, i),)* }
            }

            /// The `i`-th child (`i < len()`).
            #[inline(always)]
            pub fn get(&self, i: usize) -> Child {
                match &self.0 {
                    $(ChildList::$s(c) => {
                        let (pit, state, step) = StateChildren::get(c, i);
                        Child { pit, state: State::$s(state), step }
                    })*
                }
            }
        }
    };
}

crate::for_each_game!(states_of_games);

/// A game whose positions the agents and the match runner play: how one
/// of its positions becomes a [`State`] and back. Every game type of the
/// registry has it, generated with [`State`] from its [`PlayGame`].
pub trait Playable: PlayGame {
    /// The position as a state for the agents and the match runner.
    fn state(self, pos: Self::Position) -> State;
    /// The position of this game in `state` (`None` for another game, or
    /// a board this game's position type does not hold).
    fn position_in(state: &State) -> Option<Self::Position>;
}

impl State {
    /// The start of the game `rules` with `pits` pits per side and `seeds`
    /// seeds per pit, South to move (a Kalah game of more than 255 seeds
    /// on two-byte cells).
    pub fn start(rules: Rules, pits: usize, seeds: usize) -> Result<State> {
        crate::with_rules!(rules, g => g.start_state(pits, seeds))
    }

    /// Seeds still in the pits.
    pub fn seeds_on_board(&self) -> usize {
        (self.mover_pits().sum() + self.opponent_pits().sum()) as usize
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
}

/// The children of a state ([`State::children`]), allocation-free.
#[derive(Clone, Copy, Debug)]
pub struct Children(ChildList);

impl Children {
    /// Whether there is no legal move (the game is over).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every child in increasing pit order.
    pub fn iter(&self) -> impl Iterator<Item = Child> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::state::KalahState;
    use crate::kalah::KalahRules;

    /// Kalah's two-byte board is a variant of its own, named in the
    /// registry's entry for Kalah, so that a byte board's state and its
    /// children sit one tag deep (a nested tag cost the matches 7 to 12%).
    #[test]
    fn kalahs_two_byte_board_is_a_state_of_its_own() {
        let narrow = State::start(Rules::Kalah(KalahRules::Default), 6, 4).unwrap();
        assert!(matches!(narrow, State::Kalah(KalahState { .. })));
        assert!(!narrow.is_wide());
        let child = narrow.children().get(0).state;
        assert!(matches!(child, State::Kalah(_)), "{child:?}");
        let wide = State::start(Rules::Kalah(KalahRules::Default), 6, 100).unwrap();
        assert!(matches!(wide, State::KalahWide(_)), "{wide:?}");
        assert!(wide.is_wide());
        assert_eq!(wide.rules(), Rules::Kalah(KalahRules::Default));
        let child = wide.children().get(0).state;
        assert!(matches!(child, State::KalahWide(_)), "{child:?}");
        assert_eq!(KalahRules::position_in(&wide), None);
        assert!(KalahRules::position_in(&narrow).is_some());
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
