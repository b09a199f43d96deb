//! Awari and Oware on the family core: [`Game`] for [`AwariGame`].
//!
//! A position is an [`AwariPosition`] (board, captured totals, side to
//! move). Tables hold, for every board with `k` seeds whose mover row is not
//! empty, the seeds the mover will still win from the board minus the
//! opponent's under perfect play (endless play splitting the seeds left
//! evenly); a position's value adds the captured difference.

use std::ops::RangeInclusive;

use crate::awari::position::AwariPosition;
use crate::awari::rules::{AwariGame, AwariTurn, AWARI_MAX_PITS, AWARI_MIN_PITS};
use crate::error::{Error, Result};
use crate::game::{Game, Moves, PlayError, Step};

use crate::tables::index::Layout;

/// Check that `pits` is a board width Awari and Oware are played on.
pub fn check_awari_pits(pits: usize) -> Result<()> {
    if !(AWARI_MIN_PITS..=AWARI_MAX_PITS).contains(&pits) {
        return Err(Error::OutOfRange(format!(
            "{pits} pits per side: Awari and Oware are played on {AWARI_MIN_PITS} to {AWARI_MAX_PITS} pits per side"
        )));
    }
    Ok(())
}

/// The captured difference, mover minus opponent.
pub fn banked(pos: &AwariPosition) -> i32 {
    let [mine, theirs] = pos.captured_by_mover_opponent();
    mine as i32 - theirs as i32
}

impl Game for AwariGame {
    type Position = AwariPosition;

    const SCORE: &'static str = "captured";

    fn name(self) -> &'static str {
        AwariGame::name(self)
    }

    fn rules_name(self) -> Option<&'static str> {
        AwariGame::rules_name(self)
    }

    fn can_repeat(self) -> bool {
        true
    }

    fn ends_on_repetition(self) -> bool {
        AwariGame::ends_on_repetition(self)
    }

    fn cap_is_draw(self) -> bool {
        self == AwariGame::Awale
    }

    fn has_exact_search(self) -> bool {
        self.has_tables()
    }

    fn table_ids(self) -> (u8, u8) {
        self.ids()
    }

    fn table_layout(self) -> Layout {
        Layout::MoverRowNonEmpty
    }

    fn value_scale(self) -> i32 {
        1
    }

    fn pits_range(self) -> RangeInclusive<usize> {
        AWARI_MIN_PITS..=AWARI_MAX_PITS
    }

    fn start(self, pits: usize, seeds: usize) -> Result<AwariPosition> {
        check_awari_pits(pits)?;
        AwariPosition::start(pits, seeds)
    }

    fn parse(self, text: &str) -> Result<AwariPosition> {
        AwariPosition::parse(text)
    }

    fn position_from_counts(self, counts: &[u8]) -> Result<AwariPosition> {
        let n = counts.len();
        if n < 2 * AWARI_MIN_PITS + 2 || !n.is_multiple_of(2) || n > 2 * AWARI_MAX_PITS + 2 {
            return Err(crate::notation::bad_position(
                &crate::notation::join_counts(counts),
                format!(
                    "{} counts; a position has 2m+2 of them, m from {AWARI_MIN_PITS} to {AWARI_MAX_PITS}",
                    counts.len()
                ),
            ));
        }
        let m = n / 2 - 1;
        let mut board = counts[..m].to_vec();
        board.extend_from_slice(&counts[m + 1..2 * m + 1]);
        AwariPosition::from_board(
            &board,
            [counts[m], counts[2 * m + 1]],
            crate::side::Side::South,
        )
    }

    fn stores_in_brackets(self) -> bool {
        true
    }

    fn is_over(self, pos: &AwariPosition) -> bool {
        pos.is_game_over(self)
    }

    fn legal_moves(self, pos: &AwariPosition) -> Moves {
        let mut moves = Moves::default();
        if let AwariTurn::Play(list) = pos.turn(self) {
            for mv in list.as_slice() {
                moves.push(mv.pit as usize);
            }
        }
        moves
    }

    fn play(self, pos: &mut AwariPosition, pit: usize) -> std::result::Result<Step, PlayError> {
        pos.play(pit, self)
    }

    fn play_line(self, pos: &mut AwariPosition, line: &str) -> Result<usize> {
        pos.play_line(line, self).map(|played| played.len())
    }

    fn settle(self, pos: &mut AwariPosition) -> bool {
        pos.finish(self)
    }
}
