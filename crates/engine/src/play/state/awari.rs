//! An Awari, Oware or Awale position for the agents ([`AwariState`]).

use std::fmt;

use super::{PlayError, Step};
use crate::awari::position::AwariPosition;
use crate::awari::rules::{
    AwariGame, AwariMove, AwariMoves, AwariTurn, AWARI_MAX_PITS, AWARI_MIN_PITS,
};
use crate::error::{Error, Result};
use crate::side::{side_index, Side};

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
    pub(super) game: AwariGame,
    pub(super) over: bool,
    pub(super) pos: AwariPosition,
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
    pub(super) fn after(&self, mv: &AwariMove) -> AwariState {
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
