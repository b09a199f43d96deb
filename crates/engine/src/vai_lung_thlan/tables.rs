//! Vai Lung Thlan's tables on the family core: [`TableGame`] for
//! [`VaiLungThlan`](struct@VaiLungThlan), and its look-ups on a [`TableSet`].
//!
//! A table for `k` seeds holds, for every board with `k` seeds whose mover
//! row is not empty, the seeds the mover will still capture minus the
//! opponent's when play goes on to the empty board (the early end
//! dropped, endless play adding 0). A board whose mover row is empty is
//! the other side's board with the sign turned (the mover passes).

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::ops::RangeInclusive;

use crate::error::Result;
use crate::family::Rules;
use crate::kalah::position::{format_line, Position};
use crate::progress::Observer;
use crate::sow::MAX_PITS;
use crate::tablebase::{text, Builder, Line, MoveValue, PvEnd, TableGame, TableSet};
use crate::tables::MAX_TABLE_PITS;
use crate::vai_lung_thlan::game::{banked, VLT_MIN_PITS};
use crate::vai_lung_thlan::play;
use crate::vai_lung_thlan::{is_over, play_on, ring_of, sow_and_capture, VaiLungThlan};

impl TableSet<VaiLungThlan> {
    /// The value of a board given by its rows (mover's view, captures
    /// apart; play on to the empty board), or `None` when it holds more
    /// seeds than the loaded tables.
    pub fn rows_value(&self, mover: &[u8], opponent: &[u8]) -> Option<i32> {
        let a: usize = mover.iter().map(|&c| c as usize).sum();
        let b: usize = opponent.iter().map(|&c| c as usize).sum();
        if a + b == 0 {
            return Some(0);
        }
        if a == 0 {
            return self.rows_value(opponent, mover).map(|v| -v);
        }
        let table = self.table(a + b)?;
        Some(table.value(table.indexer().rank_with_sum(mover, opponent, a)))
    }

    /// The value of a position when play goes on to the empty board (the
    /// early end dropped): captured difference plus the board's value.
    pub fn value_played_on(&self, pos: &Position) -> Option<i32> {
        if pos.pits_per_side() != self.pits() {
            return None;
        }
        let board = self.rows_value(pos.mover_pits(), pos.opponent_pits())?;
        Some(board + banked(pos))
    }

    /// A best move of `pos` (play on to the empty board) and its value.
    /// When the value is positive the move is one from which the mover
    /// forces, in the fewest plies, captures worth it (a best value alone
    /// can go round a cycle); otherwise the lowest pit of the best value.
    pub fn best_move_played_on(&self, pos: &Position) -> Option<(usize, i32)> {
        let moves = move_values_played_on(self, pos)?;
        let best = moves.iter().map(|mv| mv.value).max()?;
        let first = moves.iter().find(|mv| mv.value == best)?.pit;
        let gain = best - banked(pos);
        if gain <= 0 {
            return Some((first, best));
        }
        let mut prover = Prover {
            set: self,
            target: gain,
            failed: HashMap::new(),
        };
        let (ring, _) = ring_of(pos);
        for depth in (1..=MAX_PROOF_PLIES).step_by(2) {
            if let Some(pit) = prover.winning_move(&ring, depth) {
                return Some((pit, best));
            }
        }
        Some((first, best))
    }
}

fn move_values_played_on(set: &TableSet<VaiLungThlan>, pos: &Position) -> Option<Vec<MoveValue>> {
    let mut out = Vec::new();
    if pos.active_seeds() == 0 {
        return Some(out);
    }
    for (pit, &c) in pos.mover_pits().iter().enumerate() {
        if c == 0 {
            continue;
        }
        let mut child = *pos;
        let step = play_on(&mut child, pit).expect("legal move");
        let v = set.value_played_on(&child)?;
        out.push(MoveValue {
            pit,
            value: if step.extra_turn || step.game_over {
                v
            } else {
                -v
            },
            extra_turn: Some(step.extra_turn),
            captured: Some(step.captured as u32),
        });
    }
    Some(out)
}

/// Deepest forcing line the best move looks for, in plies.
const MAX_PROOF_PLIES: u32 = 255;

/// Can the mover force captures worth `target` (board values, the
/// seeds captured from here on)? An AND-OR search over table values by
/// iterative deepening, as for Awari.
struct Prover<'a> {
    set: &'a TableSet<VaiLungThlan>,
    target: i32,
    failed: HashMap<([u8; 2 * MAX_PITS], bool), u32>,
}

/// One move of a board (mover's view): the seeds captured, the board after
/// it from the next mover's view, and whether the same player moves next.
fn board_move(ring: &[u8; 2 * MAX_PITS], m: usize, pit: usize) -> (i32, [u8; 2 * MAX_PITS], bool) {
    let mut r = *ring;
    let c = sow_and_capture(&mut r[..2 * m], pit) as i32;
    let opp_empty = r[m..2 * m].iter().all(|&x| x == 0);
    if opp_empty {
        return (c, r, true);
    }
    let mut s = [0u8; 2 * MAX_PITS];
    s[..m].copy_from_slice(&r[m..2 * m]);
    s[m..2 * m].copy_from_slice(&r[..m]);
    (c, s, false)
}

impl Prover<'_> {
    fn value(&self, ring: &[u8; 2 * MAX_PITS]) -> Option<i32> {
        let m = self.set.pits();
        self.set.rows_value(&ring[..m], &ring[m..2 * m])
    }

    /// The value to the player who moved of a move's outcome.
    fn outcome(&self, c: i32, child: &[u8; 2 * MAX_PITS], same: bool) -> Option<i32> {
        let v = self.value(child)?;
        Some(if same { c + v } else { c - v })
    }

    /// A move of `ring` from which its mover forces captures worth
    /// `target` within `depth` plies.
    fn winning_move(&mut self, ring: &[u8; 2 * MAX_PITS], depth: u32) -> Option<usize> {
        let m = self.set.pits();
        if depth == 0 || self.failed.get(&(*ring, true)).is_some_and(|&d| d >= depth) {
            return None;
        }
        let pits: Vec<usize> = (0..m).filter(|&p| ring[p] > 0).collect();
        for &pit in &pits {
            let (c, child, same) = board_move(ring, m, pit);
            if (c > 0 || child[..2 * m].iter().all(|&x| x == 0))
                && self.outcome(c, &child, same)? >= self.target
            {
                return Some(pit);
            }
        }
        if depth >= 2 {
            for &pit in &pits {
                let (c, child, same) = board_move(ring, m, pit);
                if c > 0 || self.outcome(c, &child, same)? < self.target {
                    continue;
                }
                let ok = if same {
                    self.winning_move(&child, depth - 1).is_some()
                } else {
                    self.holds(&child, depth - 1)
                };
                if ok {
                    return Some(pit);
                }
            }
        }
        self.failed.insert((*ring, true), depth);
        None
    }

    /// Whether every move of the opponent (to move at `ring`) leads to
    /// captures worth `target` to the mover, forced within `depth` plies.
    fn holds(&mut self, ring: &[u8; 2 * MAX_PITS], depth: u32) -> bool {
        let m = self.set.pits();
        if depth == 0
            || self
                .failed
                .get(&(*ring, false))
                .is_some_and(|&d| d >= depth)
        {
            return false;
        }
        let ok = (0..m).filter(|&p| ring[p] > 0).all(|pit| {
            let (c, child, same) = board_move(ring, m, pit);
            if c > 0 || child[..2 * m].iter().all(|&x| x == 0) {
                return self
                    .outcome(c, &child, same)
                    .is_some_and(|v| -v >= self.target);
            }
            if same {
                self.holds(&child, depth - 1)
            } else {
                self.winning_move(&child, depth - 1).is_some()
            }
        });
        if !ok {
            self.failed.insert((*ring, false), depth);
        }
        ok
    }
}

impl TableGame for VaiLungThlan {
    const BUILDER: Builder = Builder::Retrograde;

    const ENTRY: &'static str = "boards";

    const VALUE_INCLUDES_SCORES: bool = false;

    const TABLE_SEEDS: &'static str = "seeds on the board";

    fn table_pits_range(self) -> RangeInclusive<usize> {
        match self.reading {
            // Only the default reading has tables: the builder and the
            // look-ups play its rules.
            #[allow(clippy::reversed_empty_ranges)] // no board has tables
            Some(_) => 1..=0,
            None => VLT_MIN_PITS..=MAX_TABLE_PITS,
        }
    }

    fn no_tables_reason(self) -> &'static str {
        "only the default reading of Vai Lung Thlan's rules has tables"
    }

    /// Final capture differences, captures included; a move's captures
    /// and the opponent's pass marked.
    fn value_text(_: &Position, v: &text::Valued) -> String {
        let mut out = String::new();
        if v.over {
            let _ = writeln!(
                out,
                "value: {:+} ({} for the side to move; the game is over: final capture difference)",
                v.value,
                text::verdict(v.value)
            );
            return out;
        }
        let _ = writeln!(
            out,
            "value: {:+} ({} for the side to move; final capture difference, captures included, \
             play going on to the empty board (the early end past half dropped: same winner); \
             endless play splits the seeds left)",
            v.value,
            text::verdict(v.value)
        );
        for mv in v.moves {
            let takes = mv.captured.unwrap_or(0);
            let _ = writeln!(
                out,
                "  pit {}: {:+}{}{}{}",
                mv.pit,
                mv.value,
                if takes > 0 {
                    format!("  (takes {takes})")
                } else {
                    String::new()
                },
                if mv.extra_turn == Some(true) {
                    "  (the opponent passes)"
                } else {
                    ""
                },
                if mv.value == v.value { "  best" } else { "" }
            );
        }
        if let Some(p) = v.best_move {
            let _ = writeln!(out, "best move: pit {p}");
        }
        out
    }

    fn table_game(self) -> Rules {
        Rules::from(self)
    }

    fn table_seeds(pos: &Position) -> usize {
        pos.active_seeds()
    }

    fn table_value(set: &TableSet<Self>, pos: &Position) -> Option<i32> {
        if is_over(pos) {
            return Some(banked(pos));
        }
        set.value_played_on(pos)
    }

    fn move_values(set: &TableSet<Self>, pos: &Position) -> Option<Vec<MoveValue>> {
        if is_over(pos) {
            return Some(Vec::new());
        }
        move_values_played_on(set, pos)
    }

    fn best_move(set: &TableSet<Self>, pos: &Position) -> Option<(usize, i32)> {
        if is_over(pos) {
            return None;
        }
        set.best_move_played_on(pos)
    }

    /// Best moves for both sides (best by the played-on values) until the
    /// game ends by the rules, early end included, or a position repeats:
    /// a line that can be played as it is. It ends with the same winner as
    /// the value, whose margin counts play on to the empty board.
    fn principal_variation(set: &TableSet<Self>, pos: &Position) -> Option<Line> {
        let mut p = *pos;
        let mut seen = HashSet::new();
        seen.insert(p);
        let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
        let mut plies = 0;
        let end = loop {
            if is_over(&p) {
                break PvEnd::GameOver;
            }
            let (pit, _) = set.best_move_played_on(&p)?;
            let step = play(&mut p, pit).expect("legal move");
            turns.last_mut().expect("a turn").push(pit);
            plies += 1;
            if !step.extra_turn && !step.game_over {
                turns.push(Vec::new());
            }
            if !seen.insert(p) {
                break PvEnd::Repetition;
            }
        };
        turns.retain(|t| !t.is_empty());
        Some(Line {
            moves: format_line(&turns),
            plies,
            end,
        })
    }

    fn build_memory(
        self,
        pits: usize,
        max_seeds: usize,
        _limits: &crate::tables::driver::BuildLimits,
    ) -> Result<u64> {
        crate::vai_lung_thlan::build::estimate_peak_memory(pits, max_seeds)
    }

    fn build_layer(set: &TableSet<Self>, k: usize, progress: &Observer) -> Result<Vec<u8>> {
        crate::vai_lung_thlan::build::build_layer(set, k, progress)
    }

    fn check_entry(set: &TableSet<Self>, k: usize, index: u64) -> (String, i32, i32) {
        let pos = crate::vai_lung_thlan::build::position_at(set, k, index);
        let stored = set.table(k).expect("table loaded").value(index);
        let derived = move_values_played_on(set, &pos)
            .expect("children within the tables")
            .iter()
            .map(|mv| mv.value)
            .max()
            .expect("a board of a table has a move");
        (pos.to_string(), stored, derived)
    }
}
