//! The Awari or Oware tables of one board width: the tables for 0..=K seeds
//! on the board, opened by memory map, and board-level look-ups.
//!
//! A table for k seeds holds every board with k seeds whose mover row is
//! non-empty ([`crate::index::Layout::MoverRowNonEmpty`]); a board whose
//! mover row is empty ends the game (the opponent takes every seed) and is
//! valued directly. Values follow [`crate::rules::awari`]: seeds the mover
//! will still capture or take minus those the opponent will, perfect play,
//! endless play adding 0.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::rules::awari::{awari_turn, AwariGame, AwariTurn, AWARI_MAX_PITS, AWARI_MIN_PITS};
use crate::table::{Table, TableGame, TableSpec};

/// The value of one legal move of a board, as the query prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AwariMoveValue {
    /// The pit played, from the mover's left.
    #[serde(rename = "move")]
    pub pit: usize,
    /// Seeds the mover captures with it (and takes, when it ends the game).
    pub captured: u32,
    /// The value of the board through this move, for the side to move.
    pub value: i32,
}

/// The tables of one game and board width for every seed count from 1 up to
/// [`AwariTablebase::max_seeds`].
#[derive(Debug)]
pub struct AwariTablebase {
    dir: PathBuf,
    game: AwariGame,
    pits: usize,
    /// `tables[k]` for k seeds; `tables[0]` is always `None` (no board with
    /// 0 seeds has a non-empty mover row).
    tables: Vec<Option<Table>>,
}

/// The spec of one Awari or Oware table.
pub fn awari_spec(game: AwariGame, pits: usize, seeds: usize) -> TableSpec {
    TableSpec {
        game: TableGame::Awari(game),
        pits,
        seeds,
    }
}

/// Check that `pits` is a board width the Awari tables support.
pub fn check_awari_pits(pits: usize) -> Result<()> {
    if !(AWARI_MIN_PITS..=AWARI_MAX_PITS).contains(&pits) {
        return Err(Error::Unsupported(format!(
            "{pits} pits per side: Awari and Oware are played on {AWARI_MIN_PITS} to {AWARI_MAX_PITS} pits per side"
        )));
    }
    Ok(())
}

impl AwariTablebase {
    /// Open the tables for 1..=`max_seeds` seeds from `dir`; every one must be
    /// present and sound.
    pub fn open(dir: &Path, game: AwariGame, pits: usize, max_seeds: usize) -> Result<Self> {
        check_awari_pits(pits)?;
        let mut tb = AwariTablebase::empty(dir, game, pits);
        for k in 1..=max_seeds {
            tb.push(Table::open(dir, awari_spec(game, pits, k))?);
        }
        Ok(tb)
    }

    /// Open as many consecutive tables from 1 seed upwards as `dir` holds
    /// (possibly none). A table that is present but unusable is an error.
    pub fn open_available(dir: &Path, game: AwariGame, pits: usize) -> Result<Self> {
        check_awari_pits(pits)?;
        let mut tb = AwariTablebase::empty(dir, game, pits);
        for k in 1..=crate::index::MAX_INDEX_SEEDS {
            match Table::open(dir, awari_spec(game, pits, k)) {
                Ok(t) => tb.push(t),
                Err(Error::MissingTable { .. }) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(tb)
    }

    /// An empty set (no tables): enough for boards that are over; the
    /// builder fills it.
    pub fn empty(dir: &Path, game: AwariGame, pits: usize) -> Self {
        AwariTablebase {
            dir: dir.to_path_buf(),
            game,
            pits,
            tables: vec![None],
        }
    }

    /// Add the table for the next seed count (used by the builder).
    pub(crate) fn push(&mut self, table: Table) {
        debug_assert_eq!(table.spec().seeds, self.tables.len());
        self.tables.push(Some(table));
    }

    /// Largest seed count covered.
    pub fn max_seeds(&self) -> usize {
        self.tables.len() - 1
    }

    /// The game.
    pub fn game(&self) -> AwariGame {
        self.game
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

    /// Total bytes of the loaded table files.
    pub fn total_bytes(&self) -> u64 {
        self.tables.iter().flatten().map(|t| t.file_len()).sum()
    }

    /// The value of a board (`cells`, at least 2m entries, seen from the side
    /// to move), or `None` when it holds more seeds than the loaded tables.
    pub fn value(&self, cells: &[u8]) -> Option<i32> {
        let m = self.pits;
        let (mover, opponent) = (&cells[..m], &cells[m..2 * m]);
        let a: usize = mover.iter().map(|&x| x as usize).sum();
        let b: usize = opponent.iter().map(|&x| x as usize).sum();
        if a == 0 {
            // The mover cannot move: the opponent takes every seed.
            return Some(-(b as i32));
        }
        let table = self.table(a + b)?;
        Some(table.value(table.indexer().rank_with_sum(mover, opponent, a)))
    }

    /// The value of every legal move of a board, from the side to move's
    /// view, or `None` when a child is beyond the loaded tables. Empty when
    /// the game is over before the mover moves.
    pub fn move_values(&self, cells: &[u8]) -> Option<Vec<AwariMoveValue>> {
        let mut out = Vec::new();
        if let AwariTurn::Play(moves) = awari_turn(cells, self.pits, self.game) {
            for mv in moves.as_slice() {
                let child = if mv.game_over {
                    0
                } else {
                    self.value(&mv.board)?
                };
                out.push(AwariMoveValue {
                    pit: mv.pit as usize,
                    captured: mv.captured as u32 + mv.end_gain as u32,
                    value: mv.value(child),
                });
            }
        }
        Some(out)
    }

    /// The command that builds the tables needed for `k` seeds.
    pub fn build_command(&self, k: usize) -> String {
        awari_spec(self.game, self.pits, k).build_command(&self.dir)
    }
}
