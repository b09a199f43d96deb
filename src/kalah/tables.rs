//! A set of tables for one game and board width: the tables for 1..=K seeds
//! in play, opened by memory map, and the position-level look-ups on them.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::tables::{Table, TableGame, TableSpec};

/// The value of one legal move, as the query prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MoveValue {
    /// The pit played, from the mover's left.
    #[serde(rename = "move")]
    pub pit: usize,
    /// Final store difference for the side to move (before the move) when
    /// this move is played and both sides play perfectly afterwards, stores
    /// included.
    pub value: i32,
    /// Whether the move gives an extra turn.
    pub extra_turn: bool,
}

/// The tables for one (game, rules, pits per side), for every seed count from
/// 1 up to [`Tablebase::max_seeds`].
#[derive(Debug)]
pub struct Tablebase {
    dir: PathBuf,
    rules: KalahRules,
    pits: usize,
    tables: Vec<Option<Table>>,
}

impl Tablebase {
    /// Open the Kalah tables for 1..=`max_seeds` seeds from `dir`. Every one
    /// must be present and sound.
    pub fn open(dir: &Path, rules: KalahRules, pits: usize, max_seeds: usize) -> Result<Tablebase> {
        let mut tables = vec![None];
        for k in 1..=max_seeds {
            tables.push(Some(Table::open(dir, spec(rules, pits, k))?));
        }
        Ok(Tablebase {
            dir: dir.to_path_buf(),
            rules,
            pits,
            tables,
        })
    }

    /// Open as many consecutive tables from 1 seed upwards as `dir` holds
    /// (possibly none). A table that is present but unusable is an error.
    pub fn open_available(dir: &Path, rules: KalahRules, pits: usize) -> Result<Tablebase> {
        let mut tables = vec![None];
        for k in 1..=crate::tables::index::MAX_INDEX_SEEDS {
            match Table::open(dir, spec(rules, pits, k)) {
                Ok(t) => tables.push(Some(t)),
                Err(Error::MissingTable { .. }) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(Tablebase {
            dir: dir.to_path_buf(),
            rules,
            pits,
            tables,
        })
    }

    /// Add the table for the next seed count (used by the builder).
    pub(crate) fn push(&mut self, table: Table) {
        debug_assert_eq!(table.spec().seeds, self.tables.len());
        self.tables.push(Some(table));
    }

    /// An empty set (no tables), to be filled by the builder.
    pub(crate) fn empty(dir: &Path, rules: KalahRules, pits: usize) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            rules,
            pits,
            tables: vec![None],
        }
    }

    /// Largest seed count covered.
    pub fn max_seeds(&self) -> usize {
        self.tables.len() - 1
    }

    /// The rules the tables were built under.
    pub fn rules(&self) -> KalahRules {
        self.rules
    }

    /// Pits per side.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// The table directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The table for `k` seeds, if loaded.
    pub fn table(&self, k: usize) -> Option<&Table> {
        self.tables.get(k).and_then(|t| t.as_ref())
    }

    /// Decode tables into memory ([`Table::load_into_memory`]: one read per
    /// look-up instead of two), from the largest seed count up to
    /// `max_seeds` downwards, each one that still fits in `budget` bytes
    /// with those before it (tables without positions are left alone).
    /// Returns the bytes held in memory.
    pub fn load_into_memory(&mut self, max_seeds: usize, budget: u64) -> Result<u64> {
        let mut used = 0;
        for table in self
            .tables
            .iter_mut()
            .take(max_seeds.saturating_add(1))
            .rev()
            .flatten()
        {
            let bytes = table.memory_bytes();
            if !table.is_empty() && used + bytes <= budget {
                table.load_into_memory()?;
                used += bytes;
            }
        }
        Ok(used)
    }

    /// Total bytes of the loaded table files.
    pub fn total_bytes(&self) -> u64 {
        self.tables.iter().flatten().map(|t| t.file_len()).sum()
    }

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
        let table = self.tables.get(k)?.as_ref()?;
        let index = table.indexer().rank_with_sum(mover, opponent, mover_sum);
        Some(table.value(index))
    }

    /// Final difference (mover minus opponent) of the seeds in play under
    /// perfect play: from the tables, or directly when the game is over.
    /// `None` when the position needs a table that is not loaded.
    pub fn active_value(&self, pos: &Position) -> Option<i32> {
        if pos.pits_per_side() != self.pits {
            return None;
        }
        if pos.is_game_over(self.rules) {
            return Some(
                pos.final_difference() - pos.mover_store() as i32 + pos.opponent_store() as i32,
            );
        }
        let mover = pos.mover_pits();
        let a: usize = mover.iter().map(|&x| x as usize).sum();
        self.rows_value(mover, pos.opponent_pits(), a, pos.active_seeds())
    }

    /// Final store difference for the side to move under perfect play,
    /// stores included.
    pub fn value(&self, pos: &Position) -> Option<i32> {
        Some(self.active_value(pos)? + pos.mover_store() as i32 - pos.opponent_store() as i32)
    }

    /// The value of every legal move of `pos`, stores included, from the
    /// view of the side to move in `pos`.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<MoveValue>> {
        let mut out = Vec::new();
        for pit in pos.legal_moves(self.rules) {
            let mut child = *pos;
            let mv = child.play(pit, self.rules).expect("legal move");
            let value = if mv.game_over {
                child.final_difference()
            } else if mv.extra_turn {
                self.value(&child)?
            } else {
                -self.value(&child)?
            };
            out.push(MoveValue {
                pit,
                value,
                extra_turn: mv.extra_turn,
            });
        }
        Some(out)
    }
}

/// The spec of one Kalah table.
pub fn spec(rules: KalahRules, pits: usize, seeds: usize) -> TableSpec {
    TableSpec {
        game: TableGame::Kalah(rules),
        pits,
        seeds,
    }
}
