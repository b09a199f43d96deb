//! Kalah on boards too large for the byte cells of [`super::position`]: up
//! to [`MAX_SEEDS_PER_PIT`] seeds a pit at the start and
//! [`MAX_WIDE_SEEDS`] on the board, as in the course assignment (2 x N,
//! 3 <= N <= 10, up to 1000 stones a pit). Play only: no tables or solver
//! above 255 seeds.
//!
//! The moves are the family's: the sowing core ([`crate::sow::sow`], on
//! two-byte cells) and [`KalahRules`]' capture and end rules. The tests
//! check every move against [`super::position::Position`] on boards both
//! can hold.

use std::fmt;

use crate::error::{Error, Result};
use crate::kalah::position::{diagram, Position, MAX_SEEDS};
use crate::kalah::rules::KalahRules;
use crate::moves::{PlayError, Step};
use crate::notation::play_line_with;
use crate::notation::{self, CountRules};
use crate::side::Side;
use crate::sow::{sow, MAX_PITS};

/// Most seeds a pit may hold at the start of a wide game.
pub const MAX_SEEDS_PER_PIT: usize = 1000;

/// Most seeds a wide board may hold, stores included (two rows of ten pits
/// of [`MAX_SEEDS_PER_PIT`]).
pub const MAX_WIDE_SEEDS: usize = 2 * MAX_PITS * MAX_SEEDS_PER_PIT;

/// A Kalah position with two-byte cells, seen from the side to move; the
/// same cell order as [`Position`] (mover's pits, mover's store,
/// opponent's pits, opponent's store).
///
/// Invariants (checked by every constructor): `1 <= m <= MAX_PITS` and at
/// most [`MAX_WIDE_SEEDS`] seeds on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct WidePosition {
    m: u8,
    to_move: Side,
    cells: [u16; 2 * MAX_PITS + 2],
}

impl WidePosition {
    /// The start of Kalah(m, n), South to move.
    pub fn start(m: usize, n: usize) -> Result<WidePosition> {
        if n > MAX_SEEDS_PER_PIT {
            return Err(Error::OutOfRange(format!(
                "{n} seeds per pit: the engine plays at most {MAX_SEEDS_PER_PIT}"
            )));
        }
        let mut cells = vec![n as u16; 2 * m + 2];
        if m > 0 {
            cells[m] = 0;
        }
        cells[2 * m + 1] = 0;
        WidePosition::from_cells(&cells, Side::South)
    }

    /// A position from its `2m + 2` cells in notation order.
    pub fn from_cells(cells: &[u16], to_move: Side) -> Result<WidePosition> {
        let bad = |reason: String| Error::BadPosition {
            text: cells
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            reason,
        };
        if cells.len() < 4 || !cells.len().is_multiple_of(2) {
            return Err(bad(format!(
                "{} numbers; a position has 2m+2 of them (m pits per side and two stores)",
                cells.len()
            )));
        }
        let m = cells.len() / 2 - 1;
        if m > MAX_PITS {
            return Err(bad(format!(
                "{m} pits per side; the engine plays 1 to {MAX_PITS}"
            )));
        }
        let total: usize = cells.iter().map(|&c| c as usize).sum();
        if total > MAX_WIDE_SEEDS {
            return Err(bad(format!(
                "{total} seeds; the engine holds at most {MAX_WIDE_SEEDS}"
            )));
        }
        let mut c = [0u16; 2 * MAX_PITS + 2];
        c[..cells.len()].copy_from_slice(cells);
        Ok(WidePosition {
            m: m as u8,
            to_move,
            cells: c,
        })
    }

    /// Read a position in notation (`2m + 2` whole numbers separated by
    /// spaces or commas, as [`Position::parse`]), South to move.
    pub fn parse(text: &str) -> Result<WidePosition> {
        let cells: Vec<u16> = notation::read_counts(
            text,
            CountRules {
                brackets: false,
                max: MAX_WIDE_SEEDS,
                hint: "write seed counts like `100 100 100 0 100 100 100 0`",
            },
        )?
        .iter()
        .map(|c| c.value)
        .collect();
        WidePosition::from_cells(&cells, Side::South).map_err(|e| match e {
            Error::BadPosition { reason, .. } => notation::bad_position(text, reason),
            other => other,
        })
    }

    /// Play a line of moves in the published notation (`25-10-3`), as
    /// [`Position::play_line`]; on an error the position is as it was.
    pub fn play_line(&mut self, line: &str, rules: KalahRules) -> Result<Vec<(usize, Step)>> {
        play_line_with(
            self,
            line,
            |p, pit| p.play(pit, rules),
            |p| p.is_game_over(rules),
            |mv| (mv.extra_turn, mv.game_over),
        )
    }

    /// A readable two-row board, the mover at the bottom (as
    /// [`Position::board`]).
    pub fn board(&self) -> String {
        let [mine, theirs] = self.stores();
        diagram(
            self.to_move,
            self.mover_pits(),
            self.opponent_pits(),
            [mine, theirs],
        )
    }

    /// Stores as `[south, north]`.
    pub fn stores_by_side(&self) -> [u16; 2] {
        let [mine, theirs] = self.stores();
        match self.to_move {
            Side::South => [mine, theirs],
            Side::North => [theirs, mine],
        }
    }

    /// The same position with byte cells, when it holds at most
    /// [`MAX_SEEDS`] seeds (for the solver and the tables).
    pub fn narrow(&self) -> Option<Position> {
        if self.total_seeds() > MAX_SEEDS {
            return None;
        }
        let cells: Vec<u8> = self.cells().iter().map(|&c| c as u8).collect();
        Position::from_cells(&cells, self.to_move).ok()
    }

    /// Pits per side.
    pub fn pits_per_side(&self) -> usize {
        self.m as usize
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The cells in notation order.
    pub fn cells(&self) -> &[u16] {
        &self.cells[..2 * self.m as usize + 2]
    }

    /// The mover's pits, from the mover's left.
    pub fn mover_pits(&self) -> &[u16] {
        &self.cells[..self.m as usize]
    }

    /// The opponent's pits, from the opponent's left.
    pub fn opponent_pits(&self) -> &[u16] {
        let m = self.m as usize;
        &self.cells[m + 1..2 * m + 1]
    }

    /// The stores: the mover's, then the opponent's.
    pub fn stores(&self) -> [u16; 2] {
        let m = self.m as usize;
        [self.cells[m], self.cells[2 * m + 1]]
    }

    /// Every seed on the board, stores included.
    pub fn total_seeds(&self) -> usize {
        self.cells().iter().map(|&c| c as usize).sum()
    }

    /// Seeds still in the pits.
    pub fn active_seeds(&self) -> usize {
        self.total_seeds() - self.stores().iter().map(|&c| c as usize).sum::<usize>()
    }

    /// Whether the game is over under `rules`.
    pub fn is_game_over(&self, rules: KalahRules) -> bool {
        let mover_empty = self.mover_pits().iter().all(|&c| c == 0);
        let opponent_empty = self.opponent_pits().iter().all(|&c| c == 0);
        match rules {
            KalahRules::EndWhenMoverEmpty => mover_empty,
            _ => mover_empty || opponent_empty,
        }
    }

    /// The legal moves (non-empty pits of the mover), none if the game is over.
    pub fn legal_moves(&self, rules: KalahRules) -> impl Iterator<Item = usize> + '_ {
        let over = self.is_game_over(rules);
        self.mover_pits()
            .iter()
            .enumerate()
            .filter(move |&(_, &c)| c > 0 && !over)
            .map(|(i, _)| i)
    }

    /// Play `pit` (from the mover's left). When the turn passes the position
    /// turns to the other side's view; when the game ends each row goes to
    /// its owner's store. An illegal move is an error and changes nothing.
    pub fn play(&mut self, pit: usize, rules: KalahRules) -> std::result::Result<Step, PlayError> {
        let m = self.m as usize;
        if self.is_game_over(rules) {
            return Err(PlayError::GameOver);
        }
        if pit >= m {
            return Err(PlayError::NoSuchPit { pit, pits: m });
        }
        if self.cells[pit] == 0 {
            return Err(PlayError::EmptyPit { pit });
        }
        // The ring: the mover's pits, the mover's store, the opponent's pits
        // (the opponent's store is passed over).
        let cells = &mut self.cells[..2 * m + 2];
        let last = sow(&mut cells[..2 * m + 1], pit, false);
        let mut captured = 0;
        if last < m && cells[last] == 1 {
            let across = 2 * m - last;
            if rules.captures(u8::from(cells[across] > 0)) {
                captured = cells[across] + 1;
                cells[last] = 0;
                cells[across] = 0;
                cells[m] += captured;
            }
        }
        let mover_empty = cells[..m].iter().all(|&c| c == 0);
        let opponent_empty = cells[m + 1..2 * m + 1].iter().all(|&c| c == 0);
        let landed_in_store = last == m;
        let game_over = rules.ends(landed_in_store, mover_empty, opponent_empty);
        if game_over {
            let mover: u16 = cells[..m].iter().sum();
            let opponent: u16 = cells[m + 1..2 * m + 1].iter().sum();
            cells[..m].fill(0);
            cells[m + 1..2 * m + 1].fill(0);
            cells[m] += mover;
            cells[2 * m + 1] += opponent;
        } else if !landed_in_store {
            // The two sides' halves swapped (as `rules::swap_sides`).
            let (mine, theirs) = cells.split_at_mut(m + 1);
            mine.swap_with_slice(theirs);
            self.to_move = self.to_move.other();
        }
        Ok(Step {
            captured,
            extra_turn: landed_in_store && !game_over,
            game_over,
        })
    }
}

impl fmt::Display for WidePosition {
    /// The notation: the cells from the mover's first pit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cells().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for WidePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WidePosition({self}, {:?} to move)", self.to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;
    use rand::Rng;

    /// Every move of random games on boards both types hold is the same.
    #[test]
    fn plays_as_the_byte_engine() {
        let mut rng = seeded(7);
        for game in 0..3000 {
            let rules = KalahRules::ALL[game % 3];
            let m = rng.gen_range(1..=MAX_PITS);
            let n = rng.gen_range(1..=(MAX_SEEDS / (2 * m)).min(12));
            let mut narrow = Position::start(m, n).unwrap();
            let mut wide = WidePosition::start(m, n).unwrap();
            loop {
                assert_eq!(wide.narrow().unwrap(), narrow);
                let moves: Vec<usize> = narrow.legal_moves(rules).collect();
                let wide_moves: Vec<usize> = wide.legal_moves(rules).collect();
                assert_eq!(moves, wide_moves);
                if moves.is_empty() {
                    break;
                }
                let pit = moves[rng.gen_range(0..moves.len())];
                let a = narrow.play(pit, rules).unwrap();
                let b = wide.play(pit, rules).unwrap();
                assert_eq!(
                    (a.captured as u16, a.extra_turn, a.game_over),
                    (b.captured, b.extra_turn, b.game_over)
                );
            }
        }
    }

    #[test]
    fn holds_a_thousand_seeds_a_pit() {
        let mut p = WidePosition::start(10, 1000).unwrap();
        assert_eq!(p.total_seeds(), 20_000);
        assert!(p.narrow().is_none());
        // 1000 seeds from pit 0 over a ring of 21 cells: 47 laps and 13 more.
        p.play(0, KalahRules::EndWhenMoverEmpty).unwrap();
        assert_eq!(p.total_seeds(), 20_000);
        assert!(WidePosition::start(6, 1001).is_err());
        assert!(WidePosition::from_cells(&[60000, 0, 0, 0], Side::South).is_err());
        assert!(WidePosition::from_cells(&[1, 0, 0], Side::South).is_err());
    }
}
