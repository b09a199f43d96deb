//! Kalah positions: notation, parsing, display, and lines of moves.
//!
//! A position is always seen from the side to move. Its notation lists the
//! cells counter-clockwise from the mover's first pit: the mover's pits, the
//! mover's store, the opponent's pits, the opponent's store. The start of
//! Kalah(6,4) is `4 4 4 4 4 4 0 4 4 4 4 4 4 0`.
//!
//! Moves use the published notation: pits are numbered `0..m` from the
//! mover's left, the moves of one turn are written together and a dash passes
//! the turn (`45-3`).

use crate::sow::MAX_PITS;
use std::fmt;

use crate::error::{Error, Result};
use crate::game::Board;
use crate::kalah::rules::{self, KalahRules};
use crate::moves::{Moves, PlayError, Step};
use crate::notation::{self, play_line_with, CountRules};
use crate::side::Side;

/// Most seeds a position may hold (pits and stores together).
pub const MAX_SEEDS: usize = 255;

/// A Kalah position seen from the side to move.
///
/// Invariants (checked by every constructor): `1 <= m <= MAX_PITS` and the
/// seeds on the board, stores included, number at most [`MAX_SEEDS`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    m: u8,
    to_move: Side,
    cells: [u8; 2 * MAX_PITS + 2],
}

impl Position {
    /// The start of Kalah(m, n): `n` seeds in every pit, empty stores, South
    /// to move.
    pub fn start(m: usize, n: usize) -> Result<Position> {
        check_pits(m)?;
        if 2 * m * n > MAX_SEEDS {
            return Err(Error::OutOfRange(format!(
                "Kalah({m},{n}) has {} seeds; the solver and the tables hold at most {MAX_SEEDS}: use fewer \
                 seeds per pit (boards of up to 1000 seeds a pit can be played, not solved)",
                2 * m * n
            )));
        }
        let mut cells = vec![n as u8; 2 * m + 2];
        cells[m] = 0;
        cells[2 * m + 1] = 0;
        Position::from_cells(&cells, Side::South)
    }

    /// A position from its cells in notation order (`2m + 2` of them).
    pub fn from_cells(cells: &[u8], to_move: Side) -> Result<Position> {
        if cells.len() < 4 || !cells.len().is_multiple_of(2) {
            return Err(Error::BadPosition {
                text: notation::join_counts(cells),
                reason: format!(
                    "{} numbers; a position has 2m+2 of them (m pits per side and two stores)",
                    cells.len()
                ),
            });
        }
        let m = cells.len() / 2 - 1;
        check_pits(m)?;
        let total: usize = cells.iter().map(|&c| c as usize).sum();
        if total > MAX_SEEDS {
            return Err(Error::OutOfRange(format!(
                "the position holds {total} seeds; the engine holds at most {MAX_SEEDS}"
            )));
        }
        let mut c = [0; 2 * MAX_PITS + 2];
        c[..cells.len()].copy_from_slice(cells);
        Ok(Position {
            m: m as u8,
            to_move,
            cells: c,
        })
    }

    /// Read a position in notation: `2m + 2` non-negative whole numbers
    /// separated by spaces or commas. The side to move is taken to be South.
    pub fn parse(text: &str) -> Result<Position> {
        let bad = |reason: String| notation::bad_position(text, reason);
        let cells: Vec<u8> = notation::read_counts(
            text,
            CountRules {
                brackets: false,
                max: MAX_SEEDS,
                hint: "write seed counts like `4 4 4 0 4 4 4 0`",
            },
        )?
        .iter()
        // `max` above keeps every value in a byte.
        .map(|c| c.value as u8)
        .collect();
        if cells.len() < 4 || !cells.len().is_multiple_of(2) {
            return Err(bad(format!(
                "{} entries; write 2m+2 numbers: the mover's m pits, the mover's store, the opponent's m pits, the opponent's store",
                cells.len()
            )));
        }
        let m = cells.len() / 2 - 1;
        if m > MAX_PITS {
            return Err(bad(format!(
                "{} entries means {m} pits per side; at most {MAX_PITS} are supported",
                cells.len()
            )));
        }
        Position::from_cells(&cells, Side::South)
    }

    /// The same position with another side named as the mover.
    pub fn with_to_move(mut self, side: Side) -> Position {
        self.to_move = side;
        self
    }

    /// Pits per side.
    pub fn pits_per_side(&self) -> usize {
        self.m as usize
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// All cells in notation order.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..2 * self.m as usize + 2]
    }

    /// The mover's pits, from the mover's left.
    pub fn mover_pits(&self) -> &[u8] {
        &self.cells[..self.m as usize]
    }

    /// The opponent's pits, from the opponent's left.
    pub fn opponent_pits(&self) -> &[u8] {
        let m = self.m as usize;
        &self.cells[m + 1..2 * m + 1]
    }

    /// The mover's store.
    pub fn mover_store(&self) -> u8 {
        self.cells[self.m as usize]
    }

    /// The opponent's store.
    pub fn opponent_store(&self) -> u8 {
        self.cells[2 * self.m as usize + 1]
    }

    /// Stores as `[south, north]`.
    pub fn stores(&self) -> [u8; 2] {
        match self.to_move {
            Side::South => [self.mover_store(), self.opponent_store()],
            Side::North => [self.opponent_store(), self.mover_store()],
        }
    }

    /// Seeds still in the pits ("active" seeds).
    pub fn active_seeds(&self) -> usize {
        self.mover_pits().iter().map(|&c| c as usize).sum::<usize>()
            + self
                .opponent_pits()
                .iter()
                .map(|&c| c as usize)
                .sum::<usize>()
    }

    /// Whether the game is over (no move is possible or the rules ended it).
    pub fn is_game_over(&self, rules: KalahRules) -> bool {
        let mover_empty = self.mover_pits().iter().all(|&c| c == 0);
        let opponent_empty = self.opponent_pits().iter().all(|&c| c == 0);
        match rules {
            KalahRules::EndWhenMoverEmpty => mover_empty,
            _ => mover_empty || opponent_empty,
        }
    }

    /// Final store difference (mover minus opponent) if the game ended now,
    /// each player taking the seeds of their own row.
    pub fn final_difference(&self) -> i32 {
        let mover: i32 = self.mover_pits().iter().map(|&c| c as i32).sum();
        let opponent: i32 = self.opponent_pits().iter().map(|&c| c as i32).sum();
        self.mover_store() as i32 + mover - self.opponent_store() as i32 - opponent
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

    /// Play `pit` and return what the move did. When the turn passes, the
    /// position turns to the other side's view. An illegal move is an error
    /// and leaves the position as it was.
    pub fn play(&mut self, pit: usize, rules: KalahRules) -> Result<Step, PlayError> {
        let m = self.m as usize;
        if self.is_game_over(rules) {
            return Err(PlayError::GameOver);
        }
        self.check_pit(pit)?;
        let mv = rules::kalah_move(&mut self.cells[..2 * m + 2], m, pit, rules);
        if !mv.extra_turn && !mv.game_over {
            rules::swap_sides(&mut self.cells[..2 * m + 2], m);
            self.to_move = self.to_move.other();
        }
        Ok(mv)
    }

    /// Play a line of moves in the published notation (`25-10-3`).
    ///
    /// Refuses an illegal move, a move after the turn passed without a dash,
    /// and a dash where the turn does not pass, naming the place in the line.
    /// Returns every move played with what it did.
    pub fn play_line(&mut self, line: &str, rules: KalahRules) -> Result<Vec<(usize, Step)>> {
        play_line_with(
            self,
            line,
            |p, pit| p.play(pit, rules),
            |p| p.is_game_over(rules),
            |mv| (mv.extra_turn, mv.game_over),
        )
    }

    /// The positions of this turn, breadth first: this one, then those its
    /// extra moves reach (the same player to move again, the game not
    /// over), each with the moves of the turn that reach it (empty for
    /// this one; by pit within a level).
    pub fn turn(&self, rules: KalahRules) -> Vec<(Position, Vec<usize>)> {
        let mut out = vec![(*self, Vec::new())];
        let mut i = 0;
        while i < out.len() {
            let (pos, after) = out[i].clone();
            for pit in pos.legal_moves(rules).collect::<Vec<_>>() {
                let mut c = pos;
                if c.play(pit, rules).is_ok()
                    && c.to_move() == pos.to_move()
                    && !c.is_game_over(rules)
                {
                    let mut a = after.clone();
                    a.push(pit);
                    out.push((c, a));
                }
            }
            i += 1;
        }
        out
    }

    /// Whether `pit` is one of the mover's pits and holds seeds (the reason
    /// when not).
    pub(crate) fn check_pit(&self, pit: usize) -> Result<(), PlayError> {
        let m = self.m as usize;
        if pit >= m {
            return Err(PlayError::NoSuchPit { pit, pits: m });
        }
        if self.cells[pit] == 0 {
            return Err(PlayError::EmptyPit { pit });
        }
        Ok(())
    }

    /// The cells in notation order, for the rules engines of the other
    /// games played on this board (Ohvalhu, Vai Lung Thlan). Their moves
    /// keep every seed, so the invariants hold.
    pub(crate) fn cells_mut(&mut self) -> &mut [u8] {
        let m = self.m as usize;
        &mut self.cells[..2 * m + 2]
    }

    /// Turn the position to the other side's view (the turn passes).
    pub(crate) fn turn_over(&mut self) {
        let m = self.m as usize;
        rules::swap_sides(&mut self.cells[..2 * m + 2], m);
        self.to_move = self.to_move.other();
    }

    /// A readable two-row board, the mover at the bottom.
    pub fn board(&self) -> String {
        diagram(
            self.to_move,
            self.mover_pits(),
            self.opponent_pits(),
            [self.mover_store(), self.opponent_store()],
        )
    }
}

/// The start of another game played on this board (Ohvalhu, Vai Lung
/// Thlan), `name` on `min..=MAX_PITS` pits a side.
pub(crate) fn start_of(name: &str, min: usize, m: usize, n: usize) -> Result<Position> {
    check_width(name, min, m)?;
    if 2 * m * n > MAX_SEEDS {
        return Err(Error::OutOfRange(format!(
            "{name}:{m}:{n} has {} seeds; the engine holds at most {MAX_SEEDS}",
            2 * m * n
        )));
    }
    Position::start(m, n)
}

/// Whether `name` is played on `m` pits a side (`min..=MAX_PITS`).
pub(crate) fn check_width(name: &str, min: usize, m: usize) -> Result<()> {
    if !(min..=MAX_PITS).contains(&m) {
        return Err(Error::OutOfRange(format!(
            "{m} pits per side: {name} is played on {min} to {MAX_PITS} pits per side"
        )));
    }
    Ok(())
}

/// The non-empty pits of the mover, none when `over`.
pub(crate) fn moves_of(pos: &Position, over: bool) -> Moves {
    let mut moves = Moves::default();
    if !over {
        for (pit, &c) in pos.mover_pits().iter().enumerate() {
            if c > 0 {
                moves.push(pit);
            }
        }
    }
    moves
}

/// A readable two-row board of either cell width, the mover at the bottom;
/// `stores` is the mover's, then the opponent's. Columns widen for counts
/// of more than three digits.
pub(crate) fn diagram<T: fmt::Display + Copy>(
    to_move: Side,
    mover: &[T],
    opponent: &[T],
    stores: [T; 2],
) -> String {
    let m = mover.len();
    let w = mover
        .iter()
        .chain(opponent)
        .chain(&stores)
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(0)
        .max(3);
    let row = |cells: &mut dyn Iterator<Item = String>| cells.collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    out.push_str(&format!("       {} (opponent)\n", to_move.other()));
    out.push_str(&format!(
        "       {}\n",
        row(&mut opponent.iter().rev().map(|v| format!("{v:>w$}")))
    ));
    out.push_str(&format!(
        "  {:>w$} {:width$} {:<w$}\n",
        stores[1],
        "",
        stores[0],
        width = (w + 1) * m - 1
    ));
    out.push_str(&format!(
        "       {}\n",
        row(&mut mover.iter().map(|v| format!("{v:>w$}")))
    ));
    out.push_str(&format!(
        "       {}  (pit numbers)\n",
        row(&mut (0..m).map(|i| format!("{i:>w$}")))
    ));
    out.push_str(&format!("       {to_move} (to move)\n"));
    out
}

impl fmt::Display for Position {
    /// The notation: cells in counter-clockwise order from the mover's first pit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&notation::join_counts(self.cells()))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} to move: {})", self.to_move, self)
    }
}

/// Write a line of turns in the published notation: the moves of one turn
/// together, turns separated by dashes (`[[2, 5], [1, 0]]` gives `25-10`).
pub fn format_line(turns: &[Vec<usize>]) -> String {
    notation::format_turns(turns)
}

fn check_pits(m: usize) -> Result<()> {
    if m == 0 || m > MAX_PITS {
        return Err(Error::OutOfRange(format!(
            "{m} pits per side: the engine plays 1 to {MAX_PITS} pits per side"
        )));
    }
    Ok(())
}

impl Board for Position {
    fn diagram(&self) -> String {
        self.board()
    }

    fn pits(&self) -> usize {
        self.pits_per_side()
    }

    fn to_move(&self) -> Side {
        Position::to_move(self)
    }

    fn scores(&self) -> [u8; 2] {
        self.stores()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trip() {
        let p = Position::start(6, 4).unwrap();
        assert_eq!(p.to_string(), "4 4 4 4 4 4 0 4 4 4 4 4 4 0");
        assert_eq!(Position::parse(&p.to_string()).unwrap(), p);
        assert_eq!(p.active_seeds(), 48);
    }

    #[test]
    fn parse_errors_name_the_problem() {
        for (text, needle) in [
            ("4 4 4", "entries"),
            ("4 4 x 0", "not a whole number"),
            ("4 -1 4 0", "negative"),
            (
                "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
                "at most 10",
            ),
            ("300 0 1 0", "more than"),
            ("200 0 100 0", "at most 255"),
        ] {
            let err = Position::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn play_line_follows_turns() {
        // Kalah(6,4): pit 2 sows 4 seeds into pits 3, 4, 5 and the store:
        // an extra turn.
        let mut p = Position::start(6, 4).unwrap();
        let played = p.play_line("25-", KalahRules::Default).unwrap();
        assert!(played[0].1.extra_turn);
        assert!(!played[1].1.extra_turn);
        assert_eq!(p.to_move(), Side::North);
        assert_eq!(p.stores(), [2, 0]);
    }

    #[test]
    fn play_line_refuses_bad_lines_with_place() {
        let start = Position::start(6, 4).unwrap();
        for (line, at) in [
            ("2-5", 2),  // extra turn after pit 2: no dash allowed
            ("25 3", 4), // turn passed: dash missing
            ("-2", 1),
            ("27", 2), // no pit 7
            ("x", 1),
        ] {
            let mut p = start;
            match p.play_line(line, KalahRules::Default) {
                Err(Error::BadMoves { at: got, .. }) => assert_eq!(got, at, "{line}"),
                other => panic!("{line}: {other:?}"),
            }
            assert_eq!(p, start, "a refused line leaves the position unchanged");
        }
    }

    #[test]
    fn format_line_joins_turns() {
        assert_eq!(format_line(&[vec![2, 5], vec![1, 0], vec![3]]), "25-10-3");
    }
}
