//! The notation every game shares: a position is a list of seed counts
//! separated by spaces or commas (stores or captured totals in the places
//! of the Kalah stores, optionally in square brackets where a game allows
//! it), and a line of moves is a string of pit digits `0..=9` (from the
//! mover's left) and dashes. Each game gives the grammar of its own lines
//! (Kalah writes the moves of one turn together; Awari writes one move per
//! turn) on top of [`move_tokens`].

use crate::error::{Error, Result};

/// One number of a position, and whether it was written in brackets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The seed count (at most [`CountRules::max`]).
    pub value: u16,
    /// Written as `[value]`.
    pub bracketed: bool,
}

/// How a game reads the numbers of a position.
#[derive(Clone, Copy, Debug)]
pub struct CountRules<'a> {
    /// Whether `[n]` is allowed.
    pub brackets: bool,
    /// The most seeds one number may hold (at most `u16::MAX`).
    pub max: usize,
    /// How to write the numbers, for error messages (e.g. "write seed
    /// counts like `4 4 4 0 4 4 4 0`").
    pub hint: &'a str,
}

/// An error in the position `text`.
pub fn bad_position(text: &str, reason: String) -> Error {
    Error::BadPosition {
        text: text.to_string(),
        reason,
    }
}

/// Read the numbers of a position: whole numbers from 0 to `rules.max`,
/// separated by spaces or commas, each in brackets where allowed.
pub fn read_counts(text: &str, rules: CountRules<'_>) -> Result<Vec<Count>> {
    let bad = |reason: String| bad_position(text, reason);
    let mut out = Vec::new();
    // A position pasted from a file may start with the file's byte-order
    // mark.
    for (i, word) in crate::files::strip_bom(text)
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let (inner, bracketed) = match word.strip_prefix('[').filter(|_| rules.brackets) {
            Some(rest) => match rest.strip_suffix(']') {
                Some(inner) => (inner, true),
                None => {
                    return Err(bad(format!(
                        "entry {} (\"{}\") opens a bracket it does not close; write a captured total as `[12]`",
                        i + 1,
                        crate::error::clip(word)
                    )))
                }
            },
            None => (word, false),
        };
        let value: i64 = inner.parse().map_err(|_| {
            bad(format!(
                "entry {} (\"{}\") is not a whole number; {}",
                i + 1,
                crate::error::clip(word),
                rules.hint
            ))
        })?;
        if value < 0 {
            return Err(bad(format!(
                "entry {} is negative ({value}); seed counts are 0 or more",
                i + 1
            )));
        }
        if value > rules.max as i64 {
            return Err(bad(format!(
                "entry {} ({value}) is more than the {} seeds a position may hold",
                i + 1,
                rules.max
            )));
        }
        out.push(Count {
            value: value as u16,
            bracketed,
        });
    }
    Ok(out)
}

/// One token of a line of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// A pit digit.
    Pit(usize),
    /// A dash.
    Dash,
}

/// The tokens of a line of moves with their 1-based places, spaces
/// skipped; any other character is an error at its place.
pub fn move_tokens(line: &str) -> impl Iterator<Item = (usize, Result<Token, String>)> + '_ {
    line.chars()
        .enumerate()
        .filter(|&(_, ch)| ch != ' ')
        .map(|(i, ch)| {
            let token = match ch {
                '-' => Ok(Token::Dash),
                '0'..='9' => Ok(Token::Pit(ch as usize - '0' as usize)),
                other => Err(format!("'{other}' is neither a pit digit nor a dash")),
            };
            (i + 1, token)
        })
}

/// An error at character `at` (1-based) of the move line `line`.
pub fn bad_moves(line: &str, at: usize, reason: String) -> Error {
    Error::BadMoves {
        line: line.to_string(),
        at,
        reason,
    }
}

/// Numbers separated by single spaces: `4 4 0`.
pub fn join_counts(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line of turns in the published notation: the moves of one turn
/// written together, turns separated by dashes (`[[2, 5], [1]]` gives
/// `25-1`); with one move per turn this is Awari's `2-5-0`.
pub fn format_turns<T: AsRef<[usize]>>(turns: &[T]) -> String {
    turns
        .iter()
        .map(|t| t.as_ref().iter().map(|p| p.to_string()).collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// Play a line of moves in the Kalah-style grammar (the moves of one turn
/// written together, a dash where the turn passes) on any board: `play` plays one pit,
/// `is_over` says whether the game is over and `turn` what a move did
/// (extra turn, game over). On an error the board is as it was.
pub(crate) fn play_line_with<P: Copy, M>(
    pos: &mut P,
    line: &str,
    mut play: impl FnMut(&mut P, usize) -> std::result::Result<M, crate::moves::PlayError>,
    is_over: impl Fn(&P) -> bool,
    turn: impl Fn(&M) -> (bool, bool),
) -> Result<Vec<(usize, M)>> {
    #[derive(PartialEq)]
    enum Expect {
        Move,
        Dash,
    }
    let start = *pos;
    let mut expect = Expect::Move;
    let mut played = Vec::new();
    let mut any_move = false;
    let fail = |pos: &mut P, at: usize, reason: String| {
        *pos = start;
        Err(bad_moves(line, at, reason))
    };
    for (at, token) in move_tokens(line) {
        match token {
            Ok(Token::Dash) => {
                if expect != Expect::Dash {
                    let reason = if !any_move {
                        "a dash passes the turn, but no move was played yet".to_string()
                    } else if is_over(pos) {
                        "the game is over".to_string()
                    } else {
                        "the turn does not pass here (the last move gave an extra turn)".to_string()
                    };
                    return fail(pos, at, reason);
                }
                expect = Expect::Move;
            }
            Ok(Token::Pit(pit)) => {
                if expect == Expect::Dash {
                    return fail(
                        pos,
                        at,
                        "the turn passed after the last move: write a dash before this move"
                            .to_string(),
                    );
                }
                match play(pos, pit) {
                    Ok(mv) => {
                        any_move = true;
                        let (extra_turn, game_over) = turn(&mv);
                        played.push((pit, mv));
                        if game_over {
                            // Nothing may follow but the end of the line.
                            expect = Expect::Move;
                        } else if !extra_turn {
                            expect = Expect::Dash;
                        }
                    }
                    Err(refused) => return fail(pos, at, refused.to_string()),
                }
            }
            Err(reason) => return fail(pos, at, reason),
        }
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KALAH: CountRules = CountRules {
        brackets: false,
        max: 255,
        hint: "write seed counts like `4 4 4 0 4 4 4 0`",
    };

    #[test]
    fn counts_and_their_errors() {
        let c = read_counts(
            "1, 2  [3]",
            CountRules {
                brackets: true,
                ..KALAH
            },
        )
        .unwrap();
        assert_eq!(c.iter().map(|c| c.value).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(c[2].bracketed && !c[0].bracketed);
        for (text, needle) in [
            ("1 [2]", "not a whole number"),
            ("1 -2", "negative"),
            ("256", "more than the 255"),
        ] {
            let e = read_counts(text, KALAH).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        let e = read_counts(
            "[2",
            CountRules {
                brackets: true,
                ..KALAH
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("does not close"));
    }

    #[test]
    fn tokens_and_lines() {
        let t: Vec<_> = move_tokens("2 5-x").collect();
        assert_eq!(t[0], (1, Ok(Token::Pit(2))));
        assert_eq!(t[1], (3, Ok(Token::Pit(5))));
        assert_eq!(t[2], (4, Ok(Token::Dash)));
        assert!(t[3].1.is_err() && t[3].0 == 5);
        assert_eq!(format_turns(&[vec![2, 5], vec![1]]), "25-1");
        assert_eq!(format_turns(&[[2], [5], [0]]), "2-5-0");
        assert_eq!(join_counts(&[4, 0, 12]), "4 0 12");
    }
}
