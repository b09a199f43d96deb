//! Ohvalhu on the family core: [`Game`] for [`Ohvalhu`], and its
//! look-ups on a [`TableSet`].
//!
//! A table for `k` seeds holds, for every board with `k` seeds in the pits
//! whose mover row is not empty, the final difference of those seeds
//! (mover minus opponent) under perfect play; the stores add a constant. A
//! board whose mover row is empty ends the round (the opponent takes
//! every seed) and is valued directly.

use std::ops::RangeInclusive;

use crate::error::Result;
use crate::family::Rules;
use crate::game::{Builder, Game, Line, MoveValue, Moves, PvEnd, Step, TableSet};
use crate::kalah::position::{
    check_width, format_line, moves_of, play_line_with, start_of, Position,
};
use crate::ohvalhu::{final_difference, is_over, ohvalhu_move, settle, Ohvalhu};
use crate::progress::Observer;
use crate::side::Side;
use crate::sow::MAX_PITS;
use crate::tables::MAX_TABLE_PITS;

/// Fewest pits per side of an Ohvalhu board.
pub const OHVALHU_MIN_PITS: usize = 2;

impl TableSet<Ohvalhu> {
    /// The value of the seeds in play of a board given by its rows (mover's
    /// view, stores apart), or `None` when it holds more seeds than the
    /// loaded tables.
    pub fn rows_value(&self, mover: &[u8], opponent: &[u8]) -> Option<i32> {
        let a: usize = mover.iter().map(|&c| c as usize).sum();
        let b: usize = opponent.iter().map(|&c| c as usize).sum();
        if a == 0 {
            return Some(-(b as i32));
        }
        let table = self.table(a + b)?;
        Some(table.value(table.indexer().rank_with_sum(mover, opponent, a)))
    }
}

/// Play `pit` of `pos`: the rules of [`crate::ohvalhu`], the view turned
/// when the turn passes.
pub fn play(pos: &mut Position, pit: usize) -> std::result::Result<Step, String> {
    if is_over(pos) {
        return Err("the round is over".to_string());
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

    const BUILDER: Builder = Builder::Levels;
    const ENTRY: &'static str = "positions";
    const SCORE: &'static str = "stores";
    const VALUE_INCLUDES_SCORES: bool = true;
    const TABLE_SEEDS: &'static str = "seeds in play";

    fn name(self) -> &'static str {
        Ohvalhu::NAME
    }

    fn rules_name(self) -> Option<&'static str> {
        None
    }

    fn pits_range(self) -> RangeInclusive<usize> {
        OHVALHU_MIN_PITS..=MAX_PITS
    }

    fn table_pits_range(self) -> RangeInclusive<usize> {
        OHVALHU_MIN_PITS..=MAX_TABLE_PITS
    }

    fn table_game(self) -> Rules {
        Rules::Ohvalhu
    }

    fn start(self, pits: usize, seeds: usize) -> Result<Position> {
        start_of(self.name(), OHVALHU_MIN_PITS, pits, seeds)
    }

    fn parse(self, text: &str) -> Result<Position> {
        let pos = Position::parse(text)?;
        check_pits(pos.pits_per_side())?;
        Ok(pos)
    }

    // Board access, moves and move lines through this module's `is_over`
    // and `play`.
    crate::kalah::position::kalah_board_methods!();

    fn settle(self, pos: &mut Position) -> bool {
        settle(pos)
    }

    fn table_seeds(pos: &Position) -> usize {
        pos.active_seeds()
    }

    fn table_value(set: &TableSet<Self>, pos: &Position) -> Option<i32> {
        if pos.pits_per_side() != set.pits() {
            return None;
        }
        let board = set.rows_value(pos.mover_pits(), pos.opponent_pits())?;
        Some(board + pos.mover_store() as i32 - pos.opponent_store() as i32)
    }

    fn move_values(set: &TableSet<Self>, pos: &Position) -> Option<Vec<MoveValue>> {
        let mut out = Vec::new();
        for pit in Ohvalhu.legal_moves(pos).iter() {
            let mut child = *pos;
            let step = play(&mut child, pit).expect("legal move");
            let value = if step.game_over {
                final_difference(&child)
            } else if step.extra_turn {
                Self::table_value(set, &child)?
            } else {
                -Self::table_value(set, &child)?
            };
            out.push(MoveValue {
                pit,
                value,
                extra_turn: Some(step.extra_turn),
                captured: None,
            });
        }
        Some(out)
    }

    fn principal_variation(set: &TableSet<Self>, pos: &Position) -> Option<Line> {
        let mut p = *pos;
        let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
        let mut plies = 0;
        while !is_over(&p) {
            let (pit, _) = Self::best_move(set, &p)?;
            let step = play(&mut p, pit).expect("legal move");
            turns.last_mut().expect("a turn").push(pit);
            plies += 1;
            if !step.extra_turn && !step.game_over {
                turns.push(Vec::new());
            }
        }
        turns.retain(|t| !t.is_empty());
        Some(Line {
            moves: format_line(&turns),
            plies,
            end: PvEnd::GameOver,
        })
    }

    fn build_memory(
        self,
        pits: usize,
        max_seeds: usize,
        _limits: &crate::tables::driver::BuildLimits,
    ) -> Result<u64> {
        crate::ohvalhu::build::estimate_peak_memory(pits, max_seeds)
    }

    fn build_layer(set: &TableSet<Self>, k: usize, progress: &Observer) -> Result<Vec<u8>> {
        crate::ohvalhu::build::build_layer(set, k, progress)
    }

    fn check_entry(set: &TableSet<Self>, k: usize, index: u64) -> (String, i32, i32) {
        let pos = crate::ohvalhu::build::position_at(set, k, index);
        let stored = set.table(k).expect("table loaded").value(index);
        let derived = Self::move_values(set, &pos)
            .expect("children within the tables")
            .iter()
            .map(|mv| mv.value)
            .max()
            .expect("a position of a table has a move");
        (pos.to_string(), stored, derived)
    }
}
