//! Tables given to the oracle as bytes, for a front end without a table
//! directory (the browser, which fetches table files from its folder):
//! which files a position would read ([`Oracle::tables_wanted`]) and each
//! one added once fetched ([`Oracle::add_table`]), checked as a file on
//! disk is (header, rules, sizes, checksums).

use std::sync::Arc;

use super::{book_answer, parse_game, position_of, seeds_of, wide, Oracle};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::tablebase::{SharedTables, TableGame};
use crate::tables::index::MAX_INDEX_SEEDS;
use crate::tables::{Table, TableSpec};
use crate::with_rules;

impl Oracle {
    /// The names of the table files ([`TableSpec::file_name`]) a query of
    /// `position` (the start when `None`) in `game` would read and that
    /// are not open yet, from the fewest seeds up: every table from the
    /// largest open one up to the position's seeds (the tables answer it
    /// when all are there; a search above them probes the smaller ones).
    /// Empty when the books answer, the game is over, or the game has no
    /// tables at that width.
    pub fn tables_wanted(&self, game: &str, position: Option<&str>) -> Result<Vec<String>> {
        let spec = parse_game(game)?;
        if wide(&spec).is_some() || book_answer(game, position)?.is_some() {
            return Ok(Vec::new());
        }
        with_rules!(spec.rules, g => {
            let pos = position_of(g, &spec, position)?;
            if !g.table_pits_range().contains(&spec.pits) || g.is_over(&pos) {
                return Ok(Vec::new());
            }
            let set = self.tables(g, spec.pits)?;
            let seeds = seeds_of(g, &pos).min(MAX_INDEX_SEEDS);
            Ok((set.max_seeds() + 1..=seeds)
                .map(|k| set.spec(k).file_name())
                .collect())
        })
    }

    /// Add the table file `name` ([`TableSpec::file_name`]) from its
    /// `bytes`, checked as [`Table::open`] checks a file: it must be the
    /// next table of its set (the one after the largest open), and no
    /// query may be running on that set.
    pub fn add_table(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let spec = TableSpec::from_file_name(name).ok_or_else(|| {
            Error::Unsupported(format!(
                "{name:?} is not the name of a table file (GAME-mPITS-kSEEDS.tbl, \
                 such as kalah-default-m6-k12.tbl)"
            ))
        })?;
        let table = Table::from_bytes(self.config.dir.join(name), spec, bytes)?;
        with_rules!(spec.game, g => self.add_open_table(g, table))
    }

    /// [`Oracle::add_table`] for the game type `G`.
    fn add_open_table<G: TableGame>(&self, g: G, table: Table) -> Result<()> {
        let pits = table.spec().pits;
        let set = self.tables(g, pits)?;
        let mut cache = self.cache();
        let cached = cache.entry((g.table_game(), pits)).or_default();
        // The cache's handle dropped, the set is this call's alone unless
        // a query holds it.
        cached.set = None;
        let mut owned = match Arc::try_unwrap(set) {
            Ok(owned) => owned,
            Err(set) => {
                cached.set = Some(SharedTables::new(set));
                return Err(Error::Unsupported(format!(
                    "the {} tables on {pits} pits a side are in use by a query: add a table \
                     between queries",
                    g.name()
                )));
            }
        };
        let added = owned.add(table);
        cached.set = Some(SharedTables::new(Arc::new(owned)));
        cached.refused = None;
        added
    }
}
