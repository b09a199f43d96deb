//! Awari and Oware on the family core: [`Game`] for [`AwariGame`].
//!
//! A position is an [`AwariPosition`] (board, captured totals, side to
//! move). Tables hold, for every board with `k` seeds whose mover row is not
//! empty, the seeds the mover will still win from the board minus the
//! opponent's under perfect play (endless play splitting the seeds left
//! evenly); a position's value adds the captured difference.

use std::ops::RangeInclusive;

use crate::awari::position::{format_awari_line, AwariPosition};
use crate::awari::rules::{AwariGame, AwariTurn, AWARI_MAX_PITS, AWARI_MIN_PITS};
use crate::error::Result;
use crate::family::Rules;
use crate::game::TableSet;
use crate::game::{Builder, Game, Line, MoveValue, Moves, Step};
use crate::progress::Observer;
use crate::side::Side;

/// The captured difference, mover minus opponent.
pub fn banked(pos: &AwariPosition) -> i32 {
    let [mine, theirs] = pos.captured_by_mover_opponent();
    mine as i32 - theirs as i32
}

impl Game for AwariGame {
    type Position = AwariPosition;

    const BUILDER: Builder = Builder::Retrograde;
    const ENTRY: &'static str = "boards";
    const SCORE: &'static str = "captured";
    const VALUE_INCLUDES_SCORES: bool = false;
    const TABLE_SEEDS: &'static str = "seeds on the board";

    fn name(self) -> &'static str {
        AwariGame::name(self)
    }

    fn rules_name(self) -> Option<&'static str> {
        None
    }

    fn pits_range(self) -> RangeInclusive<usize> {
        AWARI_MIN_PITS..=AWARI_MAX_PITS
    }

    fn table_pits_range(self) -> RangeInclusive<usize> {
        if self.has_tables() {
            AWARI_MIN_PITS..=AWARI_MAX_PITS
        } else {
            #[allow(clippy::reversed_empty_ranges)] // no board has tables
            {
                1..=0
            }
        }
    }

    fn table_game(self) -> Rules {
        Rules::Awari(self)
    }

    fn start(self, pits: usize, seeds: usize) -> Result<AwariPosition> {
        crate::awari::tables::check_awari_pits(pits)?;
        AwariPosition::start(pits, seeds)
    }

    fn parse(self, text: &str) -> Result<AwariPosition> {
        AwariPosition::parse(text)
    }

    fn diagram(pos: &AwariPosition) -> String {
        pos.board_diagram()
    }

    fn pits(pos: &AwariPosition) -> usize {
        pos.pits_per_side()
    }

    fn to_move(pos: &AwariPosition) -> Side {
        pos.to_move()
    }

    fn scores(pos: &AwariPosition) -> [u8; 2] {
        pos.captured()
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

    fn play(self, pos: &mut AwariPosition, pit: usize) -> std::result::Result<Step, String> {
        pos.play(pit, self)
    }

    fn play_line(self, pos: &mut AwariPosition, line: &str) -> Result<usize> {
        pos.play_line(line, self).map(|played| played.len())
    }

    fn settle(self, pos: &mut AwariPosition) -> bool {
        pos.finish(self)
    }

    fn table_seeds(pos: &AwariPosition) -> usize {
        pos.seeds_on_board()
    }

    fn table_value(set: &TableSet<Self>, pos: &AwariPosition) -> Option<i32> {
        let board = match pos.turn(set.game()) {
            AwariTurn::Over {
                mover_gain,
                opponent_gain,
            } => mover_gain as i32 - opponent_gain as i32,
            AwariTurn::Play(_) => set.board_value(&pos.cells())?,
        };
        Some(board + banked(pos))
    }

    fn move_values(set: &TableSet<Self>, pos: &AwariPosition) -> Option<Vec<MoveValue>> {
        let b = banked(pos);
        let mut moves = set.board_move_values(&pos.cells())?;
        for mv in &mut moves {
            mv.value += b;
        }
        Some(moves)
    }

    fn best_move(set: &TableSet<Self>, pos: &AwariPosition) -> Option<(usize, i32)> {
        let (pit, v) = set.best_board_move(&pos.cells())?;
        Some((pit, v + banked(pos)))
    }

    fn principal_variation(set: &TableSet<Self>, pos: &AwariPosition) -> Option<Line> {
        let (pits, end) = set.board_line(pos)?;
        Some(Line {
            moves: format_awari_line(&pits),
            plies: pits.len(),
            end,
        })
    }

    fn build_memory(
        self,
        pits: usize,
        max_seeds: usize,
        _limits: &crate::tables::driver::BuildLimits,
    ) -> Result<u64> {
        crate::awari::build::check_awari_build(self, pits, max_seeds)
    }

    fn build_layer(set: &TableSet<Self>, k: usize, progress: &Observer) -> Result<Vec<u8>> {
        crate::awari::build::build_awari_layer(set, k, progress)
    }

    fn check_entry(set: &TableSet<Self>, k: usize, index: u64) -> (String, i32, i32) {
        crate::awari::verify::check_entry(set, k, index)
    }

    fn forcing_check(
        set: &TableSet<Self>,
        k: usize,
        progress: &Observer,
    ) -> Option<(Vec<u64>, u32)> {
        Some(crate::awari::verify::forcing_check(set, k, progress))
    }
}
