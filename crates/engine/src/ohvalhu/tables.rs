//! Ohvalhu's tables on the family core: [`TableGame`] for [`Ohvalhu`], and
//! its look-ups on a [`TableSet`].
//!
//! A table for `k` seeds holds, for every board with `k` seeds in the pits
//! whose mover row is not empty, the final difference of those seeds
//! (mover minus opponent) under perfect play; the stores add a constant. A
//! board whose mover row is empty ends the round (the opponent takes
//! every seed) and is valued directly.

use std::ops::RangeInclusive;

use crate::error::Result;
use crate::family::Rules;
use crate::kalah::position::Position;
use crate::ohvalhu::game::OHVALHU_MIN_PITS;
use crate::ohvalhu::Ohvalhu;
use crate::progress::Observer;
use crate::tablebase::{Builder, TableGame, TableSet};
use crate::tables::MAX_TABLE_PITS;

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

impl TableGame for Ohvalhu {
    const BUILDER: Builder = Builder::Levels;

    const ENTRY: &'static str = "positions";

    const VALUE_INCLUDES_SCORES: bool = true;

    const TABLE_SEEDS: &'static str = "seeds in play";

    fn table_pits_range(self) -> RangeInclusive<usize> {
        OHVALHU_MIN_PITS..=MAX_TABLE_PITS
    }

    fn table_game(self) -> Rules {
        Rules::Ohvalhu
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
