//! Which table a file holds: game and rules, pits per side, seeds.

use std::path::{Path, PathBuf};

use crate::error::{Result, TableLabel};
use crate::family::Rules;
use crate::tables::index::Indexer;

/// Identifies one table: game and rules, pits per side, seeds in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableSpec {
    /// Game and rules.
    pub game: Rules,
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

    /// The table a file of that name holds ([`TableSpec::file_name`]'s
    /// inverse): `None` when it names no table of a rule set with tables.
    pub fn from_file_name(name: &str) -> Option<TableSpec> {
        let rest = name.strip_suffix(".tbl")?;
        Rules::ALL.iter().find_map(|&game| {
            let (pits, seeds) = rest
                .strip_prefix(&game.name())?
                .strip_prefix("-m")?
                .split_once("-k")?;
            let spec = TableSpec {
                game,
                pits: pits.parse().ok()?,
                seeds: seeds.parse().ok()?,
            };
            (spec.file_name() == name).then_some(spec)
        })
    }

    /// Full path inside `dir`.
    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(self.file_name())
    }

    /// The table as plain data, for errors: the game's name, the rule
    /// set's name when not the default, pits and seeds.
    pub fn label(&self) -> TableLabel {
        let (game, rules) = match self.game {
            Rules::Kalah(_) => ("kalah", self.game.rules_name().filter(|&n| n != "default")),
            other => (other.game_name(), None),
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
