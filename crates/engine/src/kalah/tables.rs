//! Kalah's tables on the family core: [`TableGame`] for [`KalahRules`], and the Kalah
//! look-ups on a [`TableSet`] (the solver reads rows straight from it).
//!
//! A Kalah table for `k` seeds holds, for every position with `k` seeds in
//! the pits, the final difference of those seeds (mover minus opponent)
//! under perfect play; the stores only add a constant.

use std::ops::RangeInclusive;

use crate::error::Result;
use crate::family::Rules;
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::progress::Observer;
use crate::tablebase::{Builder, TableGame, TableSet};
use crate::tables::{TableSpec, MAX_TABLE_PITS};

/// The spec of one Kalah table.
pub fn spec(rules: KalahRules, pits: usize, seeds: usize) -> TableSpec {
    TableSpec {
        game: Rules::Kalah(rules),
        pits,
        seeds,
    }
}

impl TableSet<KalahRules> {
    /// Value of the seeds in play of a non-terminal position given by its
    /// rows (`k` seeds in all, the mover's row holding `mover_sum`), or
    /// `None` when `k` is above the loaded tables.
    #[inline]
    pub fn rows_value(
        &self,
        mover: &[u8],
        opponent: &[u8],
        mover_sum: usize,
        k: usize,
    ) -> Option<i32> {
        let table = self.table(k)?;
        let index = table.indexer().rank_with_sum(mover, opponent, mover_sum);
        Some(table.value(index))
    }

    /// Final difference (mover minus opponent) of the seeds in play under
    /// perfect play: from the tables, or directly when the game is over.
    /// `None` when the position needs a table that is not loaded.
    pub fn active_value(&self, pos: &Position) -> Option<i32> {
        if pos.pits_per_side() != self.pits() {
            return None;
        }
        if pos.is_game_over(self.game()) {
            return Some(
                pos.final_difference() - pos.mover_store() as i32 + pos.opponent_store() as i32,
            );
        }
        let mover = pos.mover_pits();
        let a: usize = mover.iter().map(|&x| x as usize).sum();
        self.rows_value(mover, pos.opponent_pits(), a, pos.active_seeds())
    }
}

impl TableGame for KalahRules {
    const BUILDER: Builder = Builder::Levels;

    const ENTRY: &'static str = "positions";

    const VALUE_INCLUDES_SCORES: bool = true;

    const TABLE_SEEDS: &'static str = "seeds in play";

    fn table_pits_range(self) -> RangeInclusive<usize> {
        1..=MAX_TABLE_PITS
    }

    fn table_game(self) -> Rules {
        Rules::Kalah(self)
    }

    fn table_seeds(pos: &Position) -> usize {
        pos.active_seeds()
    }

    fn table_value(set: &TableSet<Self>, pos: &Position) -> Option<i32> {
        Some(set.active_value(pos)? + pos.mover_store() as i32 - pos.opponent_store() as i32)
    }

    fn build_memory(
        self,
        pits: usize,
        max_seeds: usize,
        limits: &crate::tables::driver::BuildLimits,
    ) -> Result<u64> {
        crate::kalah::partition::estimate_peak_memory(self, pits, max_seeds, limits)
    }

    fn build_table(
        set: &TableSet<Self>,
        k: usize,
        dir: &std::path::Path,
        limits: &crate::tables::driver::BuildLimits,
        progress: &Observer,
    ) -> Result<crate::tables::WriteInfo> {
        crate::kalah::partition::build_table(set, k, dir, limits, progress)
    }

    fn build_layer(set: &TableSet<Self>, k: usize, progress: &Observer) -> Result<Vec<u8>> {
        crate::kalah::build::build_layer(set, k, &[], progress)
    }

    fn table_groups(
        self,
        pits: usize,
        k: usize,
        limits: &crate::tables::driver::BuildLimits,
    ) -> Result<Vec<Vec<usize>>> {
        crate::kalah::partition::table_groups(self, pits, k, limits)
    }

    fn build_group(
        set: &TableSet<Self>,
        k: usize,
        sums: &[usize],
        dir: &std::path::Path,
        limits: &crate::tables::driver::BuildLimits,
        progress: &Observer,
    ) -> Result<bool> {
        crate::kalah::partition::build_group(set, k, sums, dir, limits, progress)
    }

    fn assemble_table(
        set: &TableSet<Self>,
        k: usize,
        dir: &std::path::Path,
        progress: &Observer,
    ) -> Result<crate::tables::WriteInfo> {
        crate::kalah::partition::assemble_table(set, k, dir, progress)
    }

    fn check_entry(set: &TableSet<Self>, k: usize, index: u64) -> (String, i32, i32) {
        let pos = crate::kalah::verify::position_at(set, k, index);
        let stored = set.table(k).expect("table loaded").value(index);
        let derived = crate::kalah::verify::derive(set, &pos).expect("children within the tables");
        (pos.to_string(), stored, derived)
    }
}
