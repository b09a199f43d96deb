//! The assignment's `input.txt`: seven lines.
//!
//! ```text
//! 2          task: 1 greedy, 2 minimax, 3 alpha-beta, 4 competition
//! 1          the player to move: 1 (South, row B) or 2 (North, row A)
//! 2          the cut-off depth (read but not used by tasks 1 and 4)
//! 3 3 3      player 2's pits A2..A(N+1), left to right as seen from South
//! 3 3 3      player 1's pits B2..B(N+1), left to right
//! 0          player 2's mancala (A1)
//! 0          player 1's mancala (B(N+2))
//! ```

use std::path::Path;

use crate::error::{Error, Result};
use crate::kalah::rules::KalahRules;
use crate::kalah::wide::{WidePosition, MAX_SEEDS_PER_PIT};
use crate::side::Side;

/// Fewest pits per player of the assignment's board.
pub const MIN_N: usize = 3;
/// Most pits per player of the assignment's board.
pub const MAX_N: usize = 10;
/// Largest cut-off depth accepted (the log of a deeper minimax on the
/// smallest board would already hold billions of lines).
pub const MAX_CUTOFF: u32 = 64;

/// Largest input file read: seven short lines, with room for spaces.
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

/// The assignment's rules.
pub const RULES: KalahRules = KalahRules::EndWhenMoverEmpty;

/// What the input asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Task 1: the move with the best evaluation one move ahead.
    Greedy,
    /// Task 2: minimax to the cut-off depth, with a traverse log.
    Minimax,
    /// Task 3: alpha-beta to the cut-off depth, with a traverse log.
    AlphaBeta,
    /// Task 4: the strongest move found within a time limit.
    Competition,
}

/// A parsed `input.txt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    /// The task.
    pub task: Task,
    /// The player to move (and to maximise): South is player 1.
    pub player: Side,
    /// The cut-off depth (line 3).
    pub cutoff: u32,
    /// The board, seen from the player to move.
    pub position: WidePosition,
}

impl Input {
    /// Read an input file; `path` names it in messages. Only a regular
    /// file of at most [`MAX_INPUT_BYTES`] is read.
    pub fn read(path: &Path) -> Result<Input> {
        let bytes = crate::files::read_limited(path, MAX_INPUT_BYTES, "an assignment input")?;
        let text = String::from_utf8(bytes).map_err(|_| Error::BadInputFile {
            path: path.to_path_buf(),
            line: 1,
            reason: "the file is not text (UTF-8)".to_string(),
        })?;
        Input::parse(crate::files::strip_bom(&text)).map_err(|(line, reason)| Error::BadInputFile {
            path: path.to_path_buf(),
            line,
            reason,
        })
    }

    /// Parse the text of an input file; an error names the line (from 1)
    /// and what is wrong with it.
    pub fn parse(text: &str) -> std::result::Result<Input, (usize, String)> {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        // Blank lines after the seventh are harmless; the first line with
        // text after it is the one named.
        if let Some(extra) = lines.iter().skip(7).position(|l| !l.is_empty()) {
            return Err((
                8 + extra,
                "unexpected text after the seventh line (the file has seven lines)".into(),
            ));
        }
        let line = |i: usize, what: &str| -> std::result::Result<&str, (usize, String)> {
            match lines.get(i - 1) {
                Some(l) if !l.is_empty() => Ok(l),
                _ => Err((i, format!("missing: expected {what}"))),
            }
        };
        let number =
            |i: usize, text: &str, what: &str| -> std::result::Result<u64, (usize, String)> {
                if let Some(rest) = text.strip_prefix('-') {
                    if rest.parse::<u64>().is_ok() {
                        return Err((i, format!("{what} is {text}: it cannot be negative")));
                    }
                }
                text.parse::<u64>().map_err(|_| {
                    (
                        i,
                        format!(
                            "{what} \"{}\" is not a whole number",
                            crate::error::clip(text)
                        ),
                    )
                })
            };
        let task = match number(1, line(1, "the task (1, 2, 3 or 4)")?, "the task")? {
            1 => Task::Greedy,
            2 => Task::Minimax,
            3 => Task::AlphaBeta,
            4 => Task::Competition,
            t => return Err((1, format!("the task is {t}: it must be 1, 2, 3 or 4"))),
        };
        let player = match number(2, line(2, "the player (1 or 2)")?, "the player")? {
            1 => Side::South,
            2 => Side::North,
            p => return Err((2, format!("the player is {p}: it must be 1 or 2"))),
        };
        let cutoff = number(3, line(3, "the cut-off depth")?, "the cut-off depth")?;
        if matches!(task, Task::Minimax | Task::AlphaBeta)
            && !(1..=MAX_CUTOFF as u64).contains(&cutoff)
        {
            return Err((
                3,
                format!("the cut-off depth is {cutoff}: it must be 1 to {MAX_CUTOFF}"),
            ));
        }
        let row = |i: usize, who: &str| -> std::result::Result<Vec<u16>, (usize, String)> {
            let text = line(i, &format!("{who}'s pits, separated by spaces"))?;
            let mut row = Vec::new();
            for word in text.split_whitespace() {
                let v = number(i, word, "a pit")?;
                if v > MAX_SEEDS_PER_PIT as u64 {
                    return Err((
                        i,
                        format!("a pit holds {v} stones: at most {MAX_SEEDS_PER_PIT}"),
                    ));
                }
                row.push(v as u16);
            }
            if !(MIN_N..=MAX_N).contains(&row.len()) {
                return Err((
                    i,
                    format!("{} pits: a row has {MIN_N} to {MAX_N} pits", row.len()),
                ));
            }
            Ok(row)
        };
        let north = row(4, "player 2")?;
        let south = row(5, "player 1")?;
        if south.len() != north.len() {
            return Err((
                5,
                format!(
                    "{} pits where player 2's row (line 4) has {}",
                    south.len(),
                    north.len()
                ),
            ));
        }
        let n = south.len();
        let store = |i: usize, who: &str| -> std::result::Result<u16, (usize, String)> {
            let v = number(i, line(i, &format!("{who}'s mancala"))?, "a mancala")?;
            u16::try_from(v)
                .ok()
                .filter(|&v| v as usize <= crate::kalah::wide::MAX_WIDE_SEEDS)
                .ok_or_else(|| {
                    (
                        i,
                        format!(
                            "a mancala holds {v} stones: the board holds at most {}",
                            crate::kalah::wide::MAX_WIDE_SEEDS
                        ),
                    )
                })
        };
        let north_store = store(6, "player 2")?;
        let south_store = store(7, "player 1")?;
        // The stones are counted over four lines, so no one line is blamed.
        let total: usize = north
            .iter()
            .chain(&south)
            .map(|&c| c as usize)
            .sum::<usize>()
            + north_store as usize
            + south_store as usize;
        if total > crate::kalah::wide::MAX_WIDE_SEEDS {
            return Err((
                0,
                format!(
                    "the board (lines 4 to 7) holds {total} stones: at most {}",
                    crate::kalah::wide::MAX_WIDE_SEEDS
                ),
            ));
        }
        // South's view: B2..B(N+1), B(N+2), then North's pits from North's
        // left (A(N+1)..A2), A1.
        let mut cells: Vec<u16> = south.clone();
        cells.push(south_store);
        cells.extend(north.iter().rev());
        cells.push(north_store);
        let south_view =
            WidePosition::from_cells(&cells, Side::South).map_err(|e| (7, e.to_string()))?;
        let position = match player {
            Side::South => south_view,
            Side::North => {
                let mut c = cells.clone();
                c.rotate_left(n + 1);
                WidePosition::from_cells(&c, Side::North).map_err(|e| (7, e.to_string()))?
            }
        };
        if position.mover_pits().iter().all(|&c| c == 0) {
            let (line, who) = match player {
                Side::South => (5, 1),
                Side::North => (4, 2),
            };
            return Err((
                line,
                format!("player {who} has no stone in its row, so no legal move"),
            ));
        }
        Ok(Input {
            task,
            player,
            cutoff: cutoff.min(MAX_CUTOFF as u64) as u32,
            position,
        })
    }
}

/// The four lines of a board in the assignment's layout: player 2's pits
/// (A2..A(N+1)), player 1's pits (B2..B(N+1)), player 2's mancala, player
/// 1's mancala, each line ending in a newline.
pub fn board_text(position: &WidePosition) -> String {
    let cells = position.cells();
    let m = position.pits_per_side();
    let (south, north): (&[u16], &[u16]) = match position.to_move() {
        Side::South => (&cells[..m + 1], &cells[m + 1..]),
        Side::North => (&cells[m + 1..], &cells[..m + 1]),
    };
    let join =
        |v: &mut dyn Iterator<Item = &u16>| v.map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
    format!(
        "{}\n{}\n{}\n{}\n",
        join(&mut north[..m].iter().rev()),
        join(&mut south[..m].iter()),
        north[m],
        south[m]
    )
}

/// The name of pit `pit` (from its owner's left) of `side`: `B2..` for
/// South, `A..` for North (A2 is North's rightmost pit, seen by North).
pub fn pit_name(side: Side, pit: usize, n: usize) -> String {
    match side {
        Side::South => format!("B{}", pit + 2),
        Side::North => format!("A{}", n + 1 - pit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_sample_layout() {
        let i = Input::parse("2\n1\n2\n3 3 4\n3 3 3\n0\n1\n").unwrap();
        assert_eq!(i.task, Task::Minimax);
        assert_eq!(i.player, Side::South);
        assert_eq!(i.cutoff, 2);
        // South's view: B2 B3 B4 | B5 | A4 A3 A2 | A1.
        assert_eq!(i.position.to_string(), "3 3 3 1 4 3 3 0");
        assert_eq!(board_text(&i.position), "3 3 4\n3 3 3\n0\n1\n");
        let j = Input::parse("1\r\n2\r\n5\r\n1 2 3\r\n4 5 6\r\n7\r\n8\r\n\r\n").unwrap();
        assert_eq!(j.position.to_move(), Side::North);
        assert_eq!(j.position.to_string(), "3 2 1 7 4 5 6 8");
        assert_eq!(board_text(&j.position), "1 2 3\n4 5 6\n7\n8\n");
        assert_eq!(pit_name(Side::North, 0, 3), "A4");
        assert_eq!(pit_name(Side::South, 0, 3), "B2");
    }

    #[test]
    fn names_the_line_at_fault() {
        for (text, line) in [
            ("", 1),
            ("5\n1\n2\n3 3 3\n3 3 3\n0\n0", 1),
            ("2\n3\n2\n3 3 3\n3 3 3\n0\n0", 2),
            ("2\n1\n0\n3 3 3\n3 3 3\n0\n0", 3),
            ("2\n1\nx\n3 3 3\n3 3 3\n0\n0", 3),
            ("2\n1\n2\n3 3\n3 3\n0\n0", 4),
            ("2\n1\n2\n3 3 3 3 3 3 3 3 3 3 3\n3 3 3\n0\n0", 4),
            ("2\n1\n2\n3 3 3\n3 3 3 3\n0\n0", 5),
            ("2\n1\n2\n3 3 3\n3 -3 3\n0\n0", 5),
            ("2\n1\n2\n3 3 3\n3 1001 3\n0\n0", 5),
            ("2\n1\n2\n3 3 3\n0 0 0\n0\n0", 5),
            ("2\n2\n2\n0 0 0\n3 3 3\n0\n0", 4),
            ("2\n1\n2\n3 3 3\n3 3 3\n0", 7),
            ("2\n1\n2\n3 3 3\n3 3 3\n0\n99999", 7),
            ("2\n1\n2\n3 3 3\n3 3 3\n0\n0\n1", 8),
            ("2\n1\n2\n3 3 3\n3 3 3\n0\n0\n\n \n1\n", 10),
            // Too many stones in all: no one line holds the fault.
            ("2\n1\n2\n3 3 3\n3 3 3\n15000\n15000", 0),
        ] {
            let e = Input::parse(text).unwrap_err();
            assert_eq!(e.0, line, "{text:?}: {}", e.1);
        }
        // The cut-off depth is not read by greedy.
        assert!(Input::parse("1\n1\n0\n3 3 3\n3 3 3\n0\n0").is_ok());
    }
}
