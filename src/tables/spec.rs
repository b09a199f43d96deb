//! Which table a file holds: game and rules, pits per side, seeds.

use std::path::{Path, PathBuf};

use crate::awari::rules::AwariGame;
use crate::error::{Result, TableLabel};
use crate::kalah::rules::KalahRules;
use crate::tables::index::{Indexer, Layout};

/// Which game and rules a table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableGame {
    /// Kalah under the given rules.
    Kalah(KalahRules),
    /// Awari or Oware (boards without stores, values from the seeds on the
    /// board, endless play counting 0).
    Awari(AwariGame),
}

impl TableGame {
    pub(crate) fn game_id(self) -> u8 {
        match self {
            TableGame::Kalah(_) => 1,
            TableGame::Awari(g) => g.id(),
        }
    }

    pub(crate) fn rules_id(self) -> u8 {
        match self {
            TableGame::Kalah(r) => r.id(),
            TableGame::Awari(_) => 0,
        }
    }

    /// The index layout the game's tables use. Awari and Oware tables hold
    /// every board whose mover row is non-empty (a board with an empty
    /// mover row ends the game: the opponent takes every seed).
    pub fn layout(self) -> Layout {
        match self {
            TableGame::Kalah(r) if r.plays_on_with_empty_opponent_row() => Layout::MoverRowNonEmpty,
            TableGame::Kalah(_) => Layout::BothRowsNonEmpty,
            TableGame::Awari(_) => Layout::MoverRowNonEmpty,
        }
    }

    /// Short name used in file names and messages.
    pub fn name(self) -> String {
        match self {
            TableGame::Kalah(r) => format!("kalah-{}", r.name()),
            TableGame::Awari(g) => g.name().to_string(),
        }
    }

    /// The largest share stored for `k` seeds: `k` for Kalah, `2k` for
    /// Awari and Oware.
    pub fn max_share(self, k: usize) -> usize {
        match self {
            TableGame::Kalah(_) => k,
            TableGame::Awari(_) => 2 * k,
        }
    }

    /// How many value units one share step is worth: `value = scale * j - k`.
    pub(crate) fn value_scale(self) -> i32 {
        match self {
            TableGame::Kalah(_) => 2,
            TableGame::Awari(_) => 1,
        }
    }

    /// The share stored for `value` with `k` seeds (the value must be one
    /// the game can have: `-k..=k`, and of k's parity for Kalah).
    pub fn share_of_value(self, value: i32, k: usize) -> u8 {
        let j = (value + k as i32) / self.value_scale();
        debug_assert!((0..=self.max_share(k) as i32).contains(&j));
        j as u8
    }

    pub(crate) fn describe(game: u8, rules: u8) -> String {
        if let Some(g) = AwariGame::from_id(game) {
            return g.name().to_string();
        }
        match (game, KalahRules::from_id(rules)) {
            (1, Some(r)) => format!("kalah under {r} rules"),
            (1, None) => format!("kalah under unknown rules id {rules}"),
            _ => format!("unknown game id {game}"),
        }
    }
}

/// Identifies one table: game and rules, pits per side, seeds in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableSpec {
    /// Game and rules.
    pub game: TableGame,
    /// Pits per side.
    pub pits: usize,
    /// Seeds in play.
    pub seeds: usize,
}

impl TableSpec {
    /// File name inside the table directory, e.g. `kalah-default-m6-k20.tbl`.
    pub fn file_name(&self) -> String {
        format!("{}-m{}-k{}.tbl", self.game.name(), self.pits, self.seeds)
    }

    /// Full path inside `dir`.
    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(self.file_name())
    }

    /// The table as plain data, for errors: the game's name, the rule
    /// set's name when not the default, pits and seeds.
    pub fn label(&self) -> TableLabel {
        let (game, rules) = match self.game {
            TableGame::Kalah(r) => ("kalah", (r != KalahRules::Default).then(|| r.name())),
            TableGame::Awari(g) => (g.name(), None),
        };
        TableLabel {
            game,
            rules,
            pits: self.pits,
            seeds: self.seeds,
        }
    }

    /// The indexer of this table.
    pub fn indexer(&self) -> Result<Indexer> {
        Indexer::new(self.pits, self.seeds, self.game.layout())
    }
}
