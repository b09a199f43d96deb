//! Kalah's rules on the family core: [`Game`] for [`KalahRules`] (positions
//! on [`Position`]).

use std::ops::RangeInclusive;

use crate::error::Result;
use crate::game::Game;
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::moves::{Moves, PlayError, Step};
use crate::sow::MAX_PITS;
use crate::tables::index::Layout;

impl Game for KalahRules {
    type Position = Position;

    const SCORE: &'static str = "stores";

    fn name(self) -> &'static str {
        "kalah"
    }

    fn rules_name(self) -> Option<&'static str> {
        Some(KalahRules::name(self))
    }

    fn pits_range(self) -> RangeInclusive<usize> {
        1..=MAX_PITS
    }

    fn can_repeat(self) -> bool {
        false
    }

    fn has_exact_search(self) -> bool {
        true
    }

    fn table_ids(self) -> (u8, u8) {
        (1, self.id())
    }

    fn table_layout(self) -> Layout {
        if self.plays_on_with_empty_opponent_row() {
            Layout::MoverRowNonEmpty
        } else {
            Layout::BothRowsNonEmpty
        }
    }

    fn value_scale(self) -> i32 {
        2
    }

    fn start(self, pits: usize, seeds: usize) -> Result<Position> {
        Position::start(pits, seeds)
    }

    fn parse(self, text: &str) -> Result<Position> {
        Position::parse(text)
    }

    fn position_from_counts(self, counts: &[u8]) -> Result<Position> {
        if counts.len() > 2 * MAX_PITS + 2 {
            return Err(crate::notation::bad_position(
                &crate::notation::join_counts(counts),
                format!(
                    "{} counts: at most {MAX_PITS} pits per side are supported",
                    counts.len()
                ),
            ));
        }
        Position::from_cells(counts, crate::side::Side::South)
    }

    fn is_over(self, pos: &Position) -> bool {
        pos.is_game_over(self)
    }

    fn settle(self, pos: &mut Position) -> bool {
        let over = pos.is_game_over(self);
        if over {
            let m = pos.pits_per_side();
            crate::kalah::rules::sweep(pos.cells_mut(), m);
        }
        over
    }

    fn legal_moves(self, pos: &Position) -> Moves {
        let mut moves = Moves::default();
        for pit in pos.legal_moves(self) {
            moves.push(pit);
        }
        moves
    }

    fn play(self, pos: &mut Position, pit: usize) -> std::result::Result<Step, PlayError> {
        pos.play(pit, self)
    }

    fn play_line(self, pos: &mut Position, line: &str) -> Result<usize> {
        pos.play_line(line, self).map(|played| played.len())
    }
}
