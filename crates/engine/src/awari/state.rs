//! An Awari, Oware or Awale position for the agents ([`AwariState`]),
//! the game's [`GameState`], and its children.

use std::fmt;

use crate::awari::position::AwariPosition;
use crate::awari::rules::{
    AwariGame, AwariMove, AwariMoves, AwariTurn, AWARI_MAX_PITS, AWARI_MIN_PITS,
};
use crate::error::{Error, Result};
use crate::family::Rules;
use crate::moves::{PlayError, Step};
use crate::play::pits::Pits;
use crate::play::state::{GameState, PlayGame, RepetitionKey, State, StateChildren};
use crate::side::{side_index, Side};
use crate::sow::MAX_PITS;

/// An Awari or Oware position for play and search: the rules engine's
/// [`AwariPosition`] (board, captured totals, side to move; its notation),
/// the game it is played under, and whether the game is over, so that
/// asking costs nothing.
///
/// Invariant (kept by every constructor and by [`AwariState::play`]): when
/// the rules end the game (the mover's row is empty, no move can feed the
/// opponent's empty row, or a forced grand slam was played) the seeds left
/// have been given to the players as the rules say ([`AwariPosition::finish`]),
/// the board is empty and [`AwariState::is_over`] holds. So the captured
/// totals of a finished game are its final score.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AwariState {
    game: AwariGame,
    over: bool,
    pos: AwariPosition,
}

impl AwariState {
    /// The start of `game` with `m` pits per side and `n` seeds per pit,
    /// South to move.
    pub fn start(game: AwariGame, m: usize, n: usize) -> Result<AwariState> {
        if !(AWARI_MIN_PITS..=AWARI_MAX_PITS).contains(&m) {
            return Err(Error::OutOfRange(format!(
                "{m} pits per side: {game} is played on {AWARI_MIN_PITS} to {AWARI_MAX_PITS} pits per side"
            )));
        }
        Ok(AwariState::new(AwariPosition::start(m, n)?, game))
    }

    /// `pos` played under `game`; when the rules say the game is over
    /// there, the seeds left are given to the players at once.
    pub fn new(mut pos: AwariPosition, game: AwariGame) -> AwariState {
        let over = pos.finish(game);
        AwariState { game, over, pos }
    }

    /// A position from its pits (`2m` of them, from the side to move: the
    /// mover's from the mover's left, then the opponent's from the
    /// opponent's left), the side to move and the seeds captured so far
    /// (South's, North's).
    pub fn from_board(
        game: AwariGame,
        pits: &[u8],
        to_move: Side,
        captured: [u8; 2],
    ) -> Result<AwariState> {
        let i = side_index(to_move);
        let pos = AwariPosition::from_board(pits, [captured[i], captured[1 - i]], to_move)?;
        Ok(AwariState::new(pos, game))
    }

    /// The state after legal move `mv` of this state.
    #[inline]
    fn after(&self, mv: &AwariMove) -> AwariState {
        let pos = self.pos.after(mv);
        if mv.game_over {
            return AwariState {
                game: self.game,
                over: true,
                pos,
            };
        }
        // With seeds in both rows the mover always has a move (if only a
        // forced grand slam): only an empty row, or Awale's capture goal,
        // can end the game here.
        if pos.mover_pits().iter().all(|&c| c == 0)
            || pos.opponent_pits().iter().all(|&c| c == 0)
            || self.game.capture_goal().is_some()
        {
            AwariState::new(pos, self.game)
        } else {
            AwariState {
                game: self.game,
                over: false,
                pos,
            }
        }
    }

    /// Awari or Oware.
    pub fn game(&self) -> AwariGame {
        self.game
    }

    /// The position.
    pub fn position(&self) -> &AwariPosition {
        &self.pos
    }

    /// Pits per side.
    pub fn pits_per_side(&self) -> usize {
        self.pos.pits_per_side()
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.pos.to_move()
    }

    /// The `2m` pits from the side to move.
    pub fn board(&self) -> &[u8] {
        self.pos.board()
    }

    /// The whole 12-cell board (cells past `2m` are 0), as the rules take it.
    pub fn cells(&self) -> [u8; 12] {
        self.pos.cells()
    }

    /// Seeds captured (or taken at the end), `[south, north]`.
    pub fn captured(&self) -> [u8; 2] {
        self.pos.captured()
    }

    /// Whether the game is over by the rules.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The legal moves with what they do; `None` when the game is over.
    pub fn moves(&self) -> Option<AwariMoves> {
        if self.over {
            return None;
        }
        match self.pos.turn(self.game) {
            AwariTurn::Play(moves) => Some(moves),
            AwariTurn::Over { .. } => unreachable!("a settled state that is not over has moves"),
        }
    }

    /// Play `pit`; an illegal move is refused with the reason and leaves the
    /// state as it was.
    pub fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError> {
        if self.over {
            return Err(PlayError::GameOver);
        }
        let step = self.pos.play(pit, self.game)?;
        self.over = step.game_over;
        Ok(step)
    }
}

impl fmt::Display for AwariState {
    /// The position in the notation of [`crate::awari::position`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pos)
    }
}

impl fmt::Debug for AwariState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({} to move: {})", self.game, self.to_move(), self)
    }
}

impl GameState for AwariState {
    type Children = AwariChildren;

    fn rules(&self) -> Rules {
        Rules::Awari(self.game)
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
        self.over
    }

    #[inline(always)]
    fn scores(&self) -> [u16; 2] {
        self.captured().map(u16::from)
    }

    #[inline]
    fn moves(&self) -> ([usize; MAX_PITS], usize) {
        let mut out = [0; MAX_PITS];
        let mut n = 0;
        if let Some(moves) = AwariState::moves(self) {
            for mv in moves.as_slice() {
                out[n] = mv.pit as usize;
                n += 1;
            }
        }
        (out, n)
    }

    #[inline(always)]
    fn children(&self) -> AwariChildren {
        AwariChildren {
            parent: *self,
            moves: AwariState::moves(self),
        }
    }

    #[inline]
    fn play(&mut self, pit: usize) -> std::result::Result<Step, PlayError> {
        AwariState::play(self, pit)
    }

    fn repetition_key(&self) -> Option<RepetitionKey> {
        let mut key = [0u8; 2 * MAX_PITS + 2];
        key[..12].copy_from_slice(&self.cells());
        Some((key, self.to_move()))
    }
}

/// The children of an [`AwariState`], from one call of the rules.
#[derive(Clone, Copy, Debug)]
pub struct AwariChildren {
    parent: AwariState,
    /// `None` when the game is over.
    moves: Option<AwariMoves>,
}

impl StateChildren for AwariChildren {
    type State = AwariState;

    #[inline(always)]
    fn len(&self) -> usize {
        self.moves.as_ref().map_or(0, |m| m.len())
    }

    #[inline(always)]
    fn pit(&self, i: usize) -> usize {
        self.moves.as_ref().expect("a move").as_slice()[i].pit as usize
    }

    #[inline(always)]
    fn get(&self, i: usize) -> (usize, AwariState, Step) {
        let mv = &self.moves.as_ref().expect("a move").as_slice()[i];
        let state = self.parent.after(mv);
        let step = Step {
            captured: mv.captured.into(),
            extra_turn: false,
            game_over: state.over,
        };
        (mv.pit as usize, state, step)
    }
}

impl PlayGame for AwariGame {
    type State = AwariState;

    fn state_of(self, pos: AwariPosition) -> AwariState {
        AwariState::new(pos, self)
    }

    fn position_of(state: &AwariState) -> Option<AwariPosition> {
        Some(state.pos)
    }

    fn start_state(self, pits: usize, seeds: usize) -> Result<State> {
        Ok(State::from(AwariState::start(self, pits, seeds)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(GameState::moves(&s).1, 0);
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
}
