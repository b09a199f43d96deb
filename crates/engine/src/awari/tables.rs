//! The Awari or Oware tables of one board width: the tables for 0..=K seeds
//! on the board, opened by memory map, and board-level look-ups.
//!
//! A table for k seeds holds every board with k seeds whose mover row is
//! non-empty ([`crate::tables::index::Layout::MoverRowNonEmpty`]); a board whose
//! mover row is empty ends the game (the opponent takes every seed) and is
//! valued directly. Values follow [`crate::awari::rules`]: seeds the mover
//! will still capture or take minus those the opponent will, perfect play,
//! endless play adding 0.

use std::collections::HashMap;
use std::fmt::Write;

use crate::awari::position::AwariPosition;
use crate::awari::rules::{awari_turn, AwariGame, AwariTurn, AWARI_MAX_PITS, AWARI_MIN_PITS};
use crate::error::Result;
use crate::family::Rules;
use crate::tablebase::TableSet;
use crate::tablebase::{MoveValue, PvEnd};
use crate::tables::TableSpec;
use std::ops::RangeInclusive;

use crate::awari::game::banked;
use crate::awari::position::format_awari_line;
use crate::progress::Observer;
use crate::tablebase::{text, Builder, Line, TableGame};

/// The spec of one Awari or Oware table.
pub fn awari_spec(game: AwariGame, pits: usize, seeds: usize) -> TableSpec {
    TableSpec {
        game: Rules::Awari(game),
        pits,
        seeds,
    }
}

impl TableSet<AwariGame> {
    /// The value of a board (`cells`, at least 2m entries, seen from the side
    /// to move), or `None` when it holds more seeds than the loaded tables.
    pub fn board_value(&self, cells: &[u8]) -> Option<i32> {
        let m = self.pits();
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
    pub fn board_move_values(&self, cells: &[u8]) -> Option<Vec<MoveValue>> {
        let mut out = Vec::new();
        if let AwariTurn::Play(moves) = awari_turn(cells, self.pits(), self.game()) {
            for mv in moves.as_slice() {
                let child = if mv.game_over {
                    0
                } else {
                    self.board_value(&mv.board)?
                };
                out.push(MoveValue {
                    pit: mv.pit as usize,
                    value: mv.value(child),
                    extra_turn: None,
                    captured: Some(mv.captured as u32 + mv.end_gain as u32),
                });
            }
        }
        Some(out)
    }

    /// A best move of a board, and its value, when the tables cover it
    /// (`None` otherwise, or when the game is over).
    ///
    /// A move of the best value is not enough where boards repeat: from a
    /// board worth `v > 0`, a quiet move to a board worth `-v` keeps the
    /// value, but the opponent may answer back into the first board, and a
    /// line of best values that goes round for ever is worth 0. So when the
    /// value is positive the move returned is one from which the mover can
    /// force, within the fewest plies, a capture or a game end worth at
    /// least `v` (an AND-OR search over the table values, by iterative
    /// deepening; a table that says `v > 0` guarantees such a line exists).
    /// Otherwise it is the lowest pit among the moves of the best value.
    pub fn best_board_move(&self, cells: &[u8]) -> Option<(usize, i32)> {
        let moves = self.board_move_values(cells)?;
        let best = moves.iter().map(|mv| mv.value).max()?;
        let first = moves.iter().find(|mv| mv.value == best)?.pit;
        if best <= 0 {
            return Some((first, best));
        }
        let mut board = [0u8; 12];
        board[..2 * self.pits()].copy_from_slice(&cells[..2 * self.pits()]);
        let mut prover = Prover {
            tb: self,
            target: best,
            failed: HashMap::new(),
        };
        for depth in (1..=MAX_PROOF_PLIES).step_by(2) {
            if let Some(pit) = prover.winning_move(&board, depth) {
                return Some((pit, best));
            }
        }
        // Not reached with sound tables; the best value is still kept.
        Some((first, best))
    }

    /// A principal variation from `pos`: [`TableSet::best_board_move`] for
    /// both sides until the game ends or a position repeats (then the seeds
    /// left are split evenly and the line is endless). `None` when the
    /// tables do not cover the position or it has another board width.
    /// Replayed, it ends with the captured difference `value` plus what was
    /// captured before.
    pub fn board_line(&self, pos: &AwariPosition) -> Option<(Vec<usize>, PvEnd)> {
        if pos.pits_per_side() != self.pits() {
            return None;
        }
        let mut p = *pos;
        let mut seen = std::collections::HashSet::new();
        seen.insert((p.cells(), p.to_move()));
        let mut line = Vec::new();
        loop {
            if p.finish(self.game()) {
                return Some((line, PvEnd::GameOver));
            }
            let (pit, _) = self.best_board_move(&p.cells())?;
            p.play(pit, self.game()).ok()?;
            line.push(pit);
            if !seen.insert((p.cells(), p.to_move())) {
                return Some((line, PvEnd::Repetition));
            }
        }
    }
}

/// Deepest forcing line [`TableSet::best_board_move`] looks for, in plies.
const MAX_PROOF_PLIES: u32 = 255;

/// The AND-OR search behind [`TableSet::best_board_move`]: can the mover
/// force an exit (a capture or a game end) worth at least `target`?
struct Prover<'a> {
    tb: &'a TableSet<AwariGame>,
    target: i32,
    /// Boards from which no forcing line of the given length (or shorter)
    /// was found.
    failed: HashMap<[u8; 12], u32>,
}

impl Prover<'_> {
    /// A move of `board` (mover to move, worth `>= target` to it) from which
    /// the mover forces an exit worth `>= target` within `depth` plies.
    fn winning_move(&mut self, board: &[u8; 12], depth: u32) -> Option<usize> {
        if depth == 0 || self.failed.get(board).is_some_and(|&d| d >= depth) {
            return None;
        }
        let m = self.tb.pits();
        let AwariTurn::Play(moves) = awari_turn(board, m, self.tb.game()) else {
            return None;
        };
        // Exits first: they end the search at once.
        for mv in moves.as_slice() {
            if mv.game_over || mv.captured > 0 {
                let child = if mv.game_over {
                    0
                } else {
                    self.tb.board_value(&mv.board)?
                };
                if mv.value(child) >= self.target {
                    return Some(mv.pit as usize);
                }
            }
        }
        if depth >= 3 {
            for mv in moves.as_slice() {
                if mv.game_over || mv.captured > 0 {
                    continue;
                }
                if -self.tb.board_value(&mv.board)? >= self.target
                    && self.holds(&mv.board, depth - 1)
                {
                    return Some(mv.pit as usize);
                }
            }
        }
        self.failed.insert(*board, depth);
        None
    }

    /// Whether every move of the opponent at `board` leads to an exit worth
    /// `>= target` to the mover, or to a board where the mover forces one
    /// within `depth - 1` plies.
    fn holds(&mut self, board: &[u8; 12], depth: u32) -> bool {
        let m = self.tb.pits();
        match awari_turn(board, m, self.tb.game()) {
            AwariTurn::Over {
                mover_gain,
                opponent_gain,
            } => opponent_gain as i32 - mover_gain as i32 >= self.target,
            AwariTurn::Play(moves) => moves.as_slice().iter().all(|mv| {
                if mv.game_over || mv.captured > 0 {
                    let child = if mv.game_over {
                        Some(0)
                    } else {
                        self.tb.board_value(&mv.board)
                    };
                    child.is_some_and(|c| -mv.value(c) >= self.target)
                } else {
                    self.winning_move(&mv.board, depth - 1).is_some()
                }
            }),
        }
    }
}

impl TableGame for AwariGame {
    const BUILDER: Builder = Builder::Retrograde;

    const ENTRY: &'static str = "boards";

    const VALUE_INCLUDES_SCORES: bool = false;

    const TABLE_SEEDS: &'static str = "seeds on the board";

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

    /// Awari's published convention: the value of the seeds still on the
    /// board, the captured totals apart; then the final score difference.
    fn value_text(pos: &AwariPosition, v: &text::Valued) -> String {
        let b = banked(pos);
        let board_value = v.value - b;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "value: {board_value:+} (seeds still to be won from the board, side to move minus opponent; endless play counts 0)"
        );
        let _ = writeln!(
            out,
            "final score difference with the seeds already captured: {:+} ({} for the side to move)",
            v.value,
            text::verdict(v.value)
        );
        if v.over {
            out.push_str("the game is over\n");
        }
        for mv in v.moves {
            let value = mv.value - b;
            let takes = mv.captured.unwrap_or(0);
            let _ = writeln!(
                out,
                "  pit {}: {:+}{}{}",
                mv.pit,
                value,
                if takes > 0 {
                    format!("  (takes {takes})")
                } else {
                    String::new()
                },
                if value == board_value { "  best" } else { "" }
            );
        }
        if let Some(p) = v.best_move {
            let _ = writeln!(out, "best move: pit {p}");
        }
        out
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
