//! Ohvalhu's rules on the family core: [`Game`] for [`Ohvalhu`] (its
//! boards on Kalah's [`Position`]).

use std::ops::RangeInclusive;

use crate::error::Result;
use crate::game::Game;
use crate::kalah::position::{check_width, moves_of, start_of, Position};
use crate::moves::{Moves, PlayError, Step};
use crate::ohvalhu::{is_over, ohvalhu_move, settle, Ohvalhu};
use crate::sow::MAX_PITS;
use crate::tables::index::Layout;

/// Fewest pits per side of an Ohvalhu board.
pub const OHVALHU_MIN_PITS: usize = 2;

/// Play `pit` of `pos`: the rules of [`crate::ohvalhu`], the view turned
/// when the turn passes.
pub fn play(pos: &mut Position, pit: usize) -> std::result::Result<Step, PlayError> {
    if is_over(pos) {
        return Err(PlayError::RoundOver);
    }
    pos.check_pit(pit)?;
    let m = pos.pits_per_side();
    let mv = ohvalhu_move(pos.cells_mut(), m, pit);
    if !mv.extra_turn && !mv.game_over {
        pos.turn_over();
    }
    Ok(Step {
        captured: mv.captured.into(),
        extra_turn: mv.extra_turn,
        game_over: mv.game_over,
    })
}

fn check_pits(pits: usize) -> Result<()> {
    check_width("Ohvalhu", OHVALHU_MIN_PITS, pits)
}

impl Game for Ohvalhu {
    type Position = Position;

    const SCORE: &'static str = "stores";

    fn name(self) -> &'static str {
        Ohvalhu::NAME
    }

    fn rules_name(self) -> Option<&'static str> {
        None
    }

    fn pits_range(self) -> RangeInclusive<usize> {
        OHVALHU_MIN_PITS..=MAX_PITS
    }

    fn default_size(self) -> (usize, usize) {
        (8, 8)
    }

    fn can_repeat(self) -> bool {
        false
    }

    fn table_ids(self) -> (u8, u8) {
        (Ohvalhu::ID, 0)
    }

    fn table_layout(self) -> Layout {
        Layout::MoverRowNonEmpty
    }

    fn value_scale(self) -> i32 {
        2
    }

    fn start(self, pits: usize, seeds: usize) -> Result<Position> {
        start_of(self.name(), OHVALHU_MIN_PITS, pits, seeds)
    }

    fn parse(self, text: &str) -> Result<Position> {
        let pos = Position::parse(text)?;
        check_pits(pos.pits_per_side())?;
        Ok(pos)
    }

    fn position_from_counts(self, counts: &[u8]) -> Result<Position> {
        let pos = Position::from_cells(counts, crate::side::Side::South)?;
        check_pits(pos.pits_per_side())?;
        Ok(pos)
    }

    fn is_over(self, pos: &Position) -> bool {
        is_over(pos)
    }

    fn legal_moves(self, pos: &Position) -> Moves {
        moves_of(pos, is_over(pos))
    }

    fn play(self, pos: &mut Position, pit: usize) -> std::result::Result<Step, PlayError> {
        play(pos, pit)
    }

    fn settle(self, pos: &mut Position) -> bool {
        settle(pos)
    }
}
