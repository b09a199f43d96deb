//! The endgame tables of a game: what a rule set adds to its rules
//! ([`crate::game::Game`]) so that its tables can be built, verified and
//! looked up ([`TableGame`]), the table set of one rule set and board width
//! ([`TableSet`], opened by memory map or built on demand), the generic
//! build ([`build`]) and verification ([`verify`]).
//!
//! Generic code is written once over `G: TableGame` and monomorphised; the
//! registry ([`crate::family`]) names every rule set for the front ends.

use std::ops::RangeInclusive;
use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::family::Rules;
use crate::game::{Board, Game};
use crate::progress::Observer;
use crate::side::Side;
use crate::tables::driver::BuildLimits;
use crate::tables::{write_table, WriteInfo};

pub mod build;
pub mod set;
pub mod shared;
pub mod text;
pub mod verify;

pub use set::{BuildSettings, OnDemand, TableSet, DEFAULT_ON_DEMAND};
pub use shared::SharedTables;

/// The value of one legal move, as a query reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The pit played, from the mover's left.
    #[serde(rename = "move")]
    pub pit: usize,
    /// The final score difference for the side to move (before the move)
    /// when this move is played and both sides play perfectly afterwards.
    /// Kalah: stores included. Awari and Oware: the seeds still to be won
    /// from the board (endless play counting 0), plus what the move
    /// captures.
    pub value: i32,
    /// Whether the move gives an extra turn (games with extra turns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra_turn: Option<bool>,
    /// Seeds the move captures, or takes when it ends the game (games that
    /// capture into a player's hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured: Option<u32>,
}

/// How a principal variation from the tables ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PvEnd {
    /// The game ends by the rules.
    GameOver,
    /// A position comes back with the same side to move: endless play, the
    /// seeds left split evenly.
    Repetition,
}

/// A principal variation read from the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves, in the game's notation.
    pub moves: String,
    /// The number of single moves.
    pub plies: usize,
    /// How it ends.
    pub end: PvEnd,
}

/// Which table builder solves a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builder {
    /// No cycles: each table is filled level by level in one pass, every
    /// child finished before its parent (Kalah).
    Levels,
    /// Positions repeat: retrograde analysis of each table with endless
    /// play worth 0 (Awari, Oware).
    Retrograde,
}

/// A rule set with endgame tables: how a position maps to a table entry,
/// what the stores or captured seeds add to it, the look-ups, the builder
/// and the entry checks. See the module documentation.
///
/// Values are always from the view of the side to move: the final score
/// difference (its score minus the opponent's) under perfect play. Tables
/// hold the part of it still to be decided by the seeds in play; the part
/// already banked (stores, captured seeds) is added by the look-ups.
pub trait TableGame: Game {
    /// Which builder solves the game's tables.
    const BUILDER: Builder;
    /// What a table entry is called in messages ("positions", "boards").
    const ENTRY: &'static str;
    /// What the tables count (`seeds in play`, `seeds on the board`).
    const TABLE_SEEDS: &'static str;
    /// Whether the game's published values include the scores already
    /// banked (Kalah: the final store difference) or only what is still
    /// to be won from the board (Awari and Oware).
    const VALUE_INCLUDES_SCORES: bool;

    /// Pits per side the tables and builders handle (empty: no tables).
    fn table_pits_range(self) -> RangeInclusive<usize>;
    /// A valued position as text, by the game's published convention (the
    /// lines after the position and its board: the value, one line a move,
    /// the best move). By default final store differences, stores included
    /// ([`text::with_stores`]).
    fn value_text(pos: &Self::Position, valued: &text::Valued) -> String {
        let _ = pos;
        text::with_stores(valued)
    }
    /// Why a rule set whose [`TableGame::table_pits_range`] is empty has
    /// no tables, for the message that refuses them.
    fn no_tables_reason(self) -> &'static str {
        "its end depends on more than the board"
    }
    /// Which tables the game uses (identity in the file header, layout).
    fn table_game(self) -> Rules;

    /// The seeds a table indexes the position by (in play, on the board).
    fn table_seeds(pos: &Self::Position) -> usize;
    /// The value of a position from the tables (`None` when a table it
    /// needs is not in `set`).
    fn table_value(set: &TableSet<Self>, pos: &Self::Position) -> Option<i32>;
    /// The value of every legal move from the tables. By default each move
    /// is played by the rules and its child read from the tables (a child
    /// whose mover is the same side keeps the sign; a move that ends the
    /// game is worth the final score difference).
    fn move_values(set: &TableSet<Self>, pos: &Self::Position) -> Option<Vec<MoveValue>> {
        let game = set.game();
        let mover = pos.to_move();
        let mut out = Vec::new();
        for pit in game.legal_moves(pos).iter() {
            let mut child = *pos;
            let step = game.play(&mut child, pit).expect("legal move");
            let value = if step.game_over {
                let [south, north] = child.scores().map(i32::from);
                match mover {
                    Side::South => south - north,
                    Side::North => north - south,
                }
            } else {
                let v = Self::table_value(set, &child)?;
                if child.to_move() == mover {
                    v
                } else {
                    -v
                }
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
    /// A best move and its value. Games with cycles must return a move
    /// that makes progress towards the value, not only one that keeps it.
    fn best_move(set: &TableSet<Self>, pos: &Self::Position) -> Option<(usize, i32)> {
        let moves = Self::move_values(set, pos)?;
        let best = moves.iter().map(|m| m.value).max()?;
        moves
            .iter()
            .find(|m| m.value == best)
            .map(|m| (m.pit, m.value))
    }
    /// A principal variation: best moves for both sides to the end of the
    /// game, or until a position repeats. By default [`TableGame::best_move`]
    /// played to the end of the game, the moves of one turn written
    /// together (for games whose positions cannot repeat).
    fn principal_variation(set: &TableSet<Self>, pos: &Self::Position) -> Option<Line> {
        let game = set.game();
        let mut p = *pos;
        let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
        let mut plies = 0;
        while !game.is_over(&p) {
            let (pit, _) = Self::best_move(set, &p)?;
            let step = game.play(&mut p, pit).expect("legal move");
            turns.last_mut().expect("a turn").push(pit);
            plies += 1;
            if !step.extra_turn && !step.game_over {
                turns.push(Vec::new());
            }
        }
        turns.retain(|t| !t.is_empty());
        Some(Line {
            moves: crate::notation::format_turns(&turns),
            plies,
            end: PvEnd::GameOver,
        })
    }

    /// Check that tables for 1..=`max_seeds` seeds of `pits` pits can be
    /// built within `limits`; the estimated peak memory in bytes.
    fn build_memory(self, pits: usize, max_seeds: usize, limits: &BuildLimits) -> Result<u64>;
    /// The shares of table `k` given the finished smaller tables in `set`.
    fn build_layer(set: &TableSet<Self>, k: usize, progress: &Observer) -> Result<Vec<u8>>;
    /// Build table `k` given the finished smaller tables in `set` and write
    /// it atomically into `dir`, within `limits` (the caller holds the
    /// table's lock). By default [`TableGame::build_layer`], then the writer.
    fn build_table(
        set: &TableSet<Self>,
        k: usize,
        dir: &Path,
        limits: &BuildLimits,
        progress: &Observer,
    ) -> Result<WriteInfo> {
        let _ = limits;
        let shares = Self::build_layer(set, k, progress)?;
        write_table(dir, set.spec(k), &shares)
    }

    /// The groups of mover sums table `k` is built in within `limits`, each
    /// a task of its own in a split build ([`build::plan_tasks`]); one
    /// group: the table is built in one piece. By default one group (the
    /// games whose tables are not built in groups).
    fn table_groups(self, pits: usize, k: usize, limits: &BuildLimits) -> Result<Vec<Vec<usize>>> {
        let _ = (pits, k, limits);
        Ok(vec![Vec::new()])
    }

    /// Build the group `sums` of table `k` (the smaller tables in `set`)
    /// into its partial file in `dir`, unless a sound one is there; whether
    /// it was built now. By default refused: the game's tables are built in
    /// one piece.
    fn build_group(
        set: &TableSet<Self>,
        k: usize,
        sums: &[usize],
        dir: &Path,
        limits: &BuildLimits,
        progress: &Observer,
    ) -> Result<bool> {
        let _ = (k, sums, dir, limits, progress);
        Err(Error::Unsupported(format!(
            "{} tables are built in one piece, not in groups of blocks",
            set.game().name()
        )))
    }

    /// Assemble table `k` from the partial files of its groups in `dir`
    /// (the caller holds the table's lock). By default refused, as
    /// [`TableGame::build_group`].
    fn assemble_table(
        set: &TableSet<Self>,
        k: usize,
        dir: &Path,
        progress: &Observer,
    ) -> Result<WriteInfo> {
        let _ = (k, dir, progress);
        Err(Error::Unsupported(format!(
            "{} tables are built in one piece, not in groups of blocks",
            set.game().name()
        )))
    }

    /// Table `k`'s entry `index` re-derived from its children: the
    /// position in notation, the stored value and the derived one.
    fn check_entry(set: &TableSet<Self>, k: usize, index: u64) -> (String, i32, i32);
    /// For games with cycles: the entries of table `k` whose non-zero value
    /// no finite forcing strategy backs, and the sweeps the check took.
    fn forcing_check(
        _set: &TableSet<Self>,
        _k: usize,
        _progress: &Observer,
    ) -> Option<(Vec<u64>, u32)> {
        None
    }
}
