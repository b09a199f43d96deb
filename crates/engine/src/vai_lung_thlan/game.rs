//! Vai Lung Thlan's rules on the family core: [`Game`] for
//! [`VaiLungThlan`](struct@VaiLungThlan) (its boards on Kalah's [`Position`], the stores holding
//! the captures).

use std::ops::RangeInclusive;

use crate::error::Result;
use crate::game::Game;
use crate::kalah::position::{check_width, moves_of, start_of, Position};
use crate::moves::{Moves, PlayError, Step};
use crate::sow::MAX_PITS;
use crate::tables::index::Layout;
use crate::vai_lung_thlan::{VaiLungThlan, VltReading};

/// Fewest pits per side of a Vai Lung Thlan board.
pub const VLT_MIN_PITS: usize = 2;

/// The captured difference, mover minus opponent.
pub fn banked(pos: &Position) -> i32 {
    pos.mover_store() as i32 - pos.opponent_store() as i32
}

fn check_pits(pits: usize) -> Result<()> {
    check_width("Vai Lung Thlan", VLT_MIN_PITS, pits)
}

impl Game for VaiLungThlan {
    type Position = Position;

    const SCORE: &'static str = "captured";

    fn name(self) -> &'static str {
        VaiLungThlan::NAME
    }

    fn rules_name(self) -> Option<&'static str> {
        self.reading.map(VltReading::name)
    }

    fn pits_range(self) -> RangeInclusive<usize> {
        VLT_MIN_PITS..=MAX_PITS
    }

    fn default_size(self) -> (usize, usize) {
        (6, 5)
    }

    fn can_repeat(self) -> bool {
        true
    }

    fn table_ids(self) -> (u8, u8) {
        (VaiLungThlan::ID, self.reading.map_or(0, VltReading::id))
    }

    fn table_layout(self) -> Layout {
        Layout::MoverRowNonEmpty
    }

    fn value_scale(self) -> i32 {
        1
    }

    fn start(self, pits: usize, seeds: usize) -> Result<Position> {
        start_of(self.name(), VLT_MIN_PITS, pits, seeds)
    }

    fn parse(self, text: &str) -> Result<Position> {
        let mut pos = Position::parse(text)?;
        check_pits(pos.pits_per_side())?;
        self.normalize(&mut pos);
        Ok(pos)
    }

    fn position_from_counts(self, counts: &[u8]) -> Result<Position> {
        let mut pos = Position::from_cells(counts, crate::side::Side::South)?;
        check_pits(pos.pits_per_side())?;
        self.normalize(&mut pos);
        Ok(pos)
    }

    fn is_over(self, pos: &Position) -> bool {
        self.ends(pos)
    }

    fn legal_moves(self, pos: &Position) -> Moves {
        moves_of(pos, self.ends(pos))
    }

    fn play(self, pos: &mut Position, pit: usize) -> std::result::Result<Step, PlayError> {
        self.play_move(pos, pit)
    }

    fn settle(self, pos: &mut Position) -> bool {
        self.normalize(pos);
        self.ends(pos)
    }
}
