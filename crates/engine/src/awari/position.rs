//! Awari and Oware positions: notation, parsing, display, and lines of moves.
//!
//! A position is a board seen from the side to move (the order of
//! [`crate::awari::rules`]: the mover's pits from the mover's left, then the
//! opponent's pits from the opponent's left), the seeds each player has
//! captured so far, the side to move and the number of pits per side.
//!
//! # Notation
//!
//! - Board only, `2m` numbers (captured totals 0): the start of Awari is
//!   `4 4 4 4 4 4 4 4 4 4 4 4`.
//! - With the captured totals in the places of the Kalah stores, in square
//!   brackets (`2m + 2` numbers: the mover's pits, `[the mover's captured]`,
//!   the opponent's pits, `[the opponent's captured]`):
//!   `0 1 3 [20] 2 0 0 [22]`. The brackets tell this form from a board of
//!   one more pit per side; [`AwariPosition::parse_with_pits`] also reads it
//!   without brackets when the number of pits is known.
//!
//! A position is shown in the board-only form when nothing has been
//! captured, else in the bracketed form; both parse back to it.
//!
//! Moves are the mover's pit numbers `0..m` from the mover's left. There are
//! no extra turns in Awari, so a line has one move per turn, separated by
//! dashes: `2-5-0`.
//!
//! When the game ends (a forced grand slam, a player who cannot feed the
//! opponent, or a mover with an empty row) the seeds left on the board go to
//! the players as the rules say, the board is left empty and the captured
//! totals are the final score.

use crate::side::Side;
use std::fmt;

use crate::awari::rules::{
    awari_turn, AwariGame, AwariMove, AwariMoves, AwariTurn, AWARI_MAX_PITS, AWARI_MIN_PITS,
};
use crate::error::{Error, Result};
use crate::game::Board;
use crate::moves::{Moves, PlayError, Step};
use crate::notation::{self, CountRules, Token};

/// The pits of a list of moves.
fn pits_of(moves: &AwariMoves) -> Moves {
    let mut pits = Moves::default();
    for mv in moves.as_slice() {
        pits.push(mv.pit as usize);
    }
    pits
}

/// Most seeds an Awari position may hold (board and captured together).
pub const AWARI_MAX_SEEDS: usize = 255;

/// An Awari or Oware position seen from the side to move.
///
/// Invariants (checked by every constructor): `2 <= m <= 6`; the seeds on
/// the board and captured number at most [`AWARI_MAX_SEEDS`]; cells past
/// `2m` are 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AwariPosition {
    m: u8,
    to_move: Side,
    board: [u8; 12],
    /// Captured so far by the mover and by the opponent.
    captured: [u8; 2],
}

impl AwariPosition {
    /// The start of a game with `m` pits per side and `n` seeds per pit,
    /// nothing captured, South to move.
    pub fn start(m: usize, n: usize) -> Result<AwariPosition> {
        check_pits(m)?;
        if 2 * m * n > AWARI_MAX_SEEDS {
            return Err(Error::OutOfRange(format!(
                "{m} pits of {n} seeds per side make {} seeds; the engine holds at most {AWARI_MAX_SEEDS}: use fewer seeds per pit",
                2 * m * n
            )));
        }
        let mut board = [0u8; 12];
        board[..2 * m].fill(n as u8);
        Ok(AwariPosition {
            m: m as u8,
            to_move: Side::South,
            board,
            captured: [0, 0],
        })
    }

    /// A position from its board (`2m` cells, from the side to move), the
    /// captured totals `[mover, opponent]` and the side to move.
    pub fn from_board(cells: &[u8], captured: [u8; 2], to_move: Side) -> Result<AwariPosition> {
        if !cells.len().is_multiple_of(2) {
            return Err(Error::BadPosition {
                text: notation::join_counts(cells),
                reason: format!(
                    "{} cells; a board has 2m of them (m pits per side)",
                    cells.len()
                ),
            });
        }
        let m = cells.len() / 2;
        check_pits(m)?;
        let total: usize = cells.iter().chain(&captured).map(|&c| c as usize).sum();
        if total > AWARI_MAX_SEEDS {
            return Err(Error::OutOfRange(format!(
                "the position holds {total} seeds; the engine holds at most {AWARI_MAX_SEEDS}"
            )));
        }
        let mut board = [0u8; 12];
        board[..2 * m].copy_from_slice(cells);
        Ok(AwariPosition {
            m: m as u8,
            to_move,
            board,
            captured,
        })
    }

    /// Read a position in notation (see the module docs): `2m` numbers, or
    /// `2m + 2` with the captured totals in square brackets. South is taken
    /// to be the side to move.
    pub fn parse(text: &str) -> Result<AwariPosition> {
        AwariPosition::parse_inner(text, None)
    }

    /// Read a position of `m` pits per side: `2m` numbers (board only), or
    /// `2m + 2` with the captured totals in the places of the Kalah stores,
    /// brackets optional.
    pub fn parse_with_pits(text: &str, m: usize) -> Result<AwariPosition> {
        check_pits(m)?;
        AwariPosition::parse_inner(text, Some(m))
    }

    fn parse_inner(text: &str, pits: Option<usize>) -> Result<AwariPosition> {
        let bad = |reason: String| notation::bad_position(text, reason);
        let counts = notation::read_counts(
            text,
            CountRules {
                brackets: true,
                max: AWARI_MAX_SEEDS,
                hint: "write seed counts like `4 4 4 4 4 4` (captured totals as `[12]`)",
            },
        )?;
        // `max` above keeps every value in a byte.
        let values: Vec<u8> = counts.iter().map(|c| c.value as u8).collect();
        let bracketed: Vec<bool> = counts.iter().map(|c| c.bracketed).collect();
        let count = values.len();
        let form_help = "write 2m numbers (the mover's m pits, then the opponent's m pits), or 2m+2 with the captured totals in brackets: `3 0 2 [5] 1 1 0 [4]`";
        let with_stores = match (bracketed.iter().any(|&b| b), pits) {
            (true, _) => true,
            (false, Some(m)) if count == 2 * m + 2 => true,
            (false, Some(m)) if count == 2 * m => false,
            (false, Some(m)) => {
                return Err(bad(format!(
                    "{count} entries; {m} pits per side take {} numbers (board only) or {} (with the captured totals)",
                    2 * m,
                    2 * m + 2
                )))
            }
            (false, None) => false,
        };
        if with_stores {
            if count < 2 * AWARI_MIN_PITS + 2 || !count.is_multiple_of(2) {
                return Err(bad(format!(
                    "{count} entries with captured totals; {form_help}"
                )));
            }
            let m = count / 2 - 1;
            if let Some(want) = pits.filter(|&want| want != m) {
                return Err(bad(format!(
                    "{count} entries with captured totals means {m} pits per side, not {want}"
                )));
            }
            if bracketed.iter().any(|&b| b)
                && bracketed
                    .iter()
                    .enumerate()
                    .any(|(i, &b)| b != (i == m || i == 2 * m + 1))
            {
                return Err(bad(format!(
                    "the bracketed captured totals must be entries {} and {} (after each row of {m} pits)",
                    m + 1,
                    2 * m + 2
                )));
            }
            if m > AWARI_MAX_PITS {
                return Err(bad(format!(
                    "{count} entries means {m} pits per side; at most {AWARI_MAX_PITS} are supported"
                )));
            }
            let mut cells = values[..m].to_vec();
            cells.extend_from_slice(&values[m + 1..2 * m + 1]);
            AwariPosition::from_board(&cells, [values[m], values[2 * m + 1]], Side::South)
        } else {
            if count < 2 * AWARI_MIN_PITS || !count.is_multiple_of(2) {
                return Err(bad(format!("{count} entries; {form_help}")));
            }
            if count > 2 * AWARI_MAX_PITS {
                return Err(bad(format!(
                    "{count} entries means {} pits per side; at most {AWARI_MAX_PITS} are supported",
                    count / 2
                )));
            }
            AwariPosition::from_board(&values, [0, 0], Side::South)
        }
    }

    /// The same position with another side named as the mover.
    pub fn with_to_move(mut self, side: Side) -> AwariPosition {
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

    /// The board from the side to move (`2m` cells).
    pub fn board(&self) -> &[u8] {
        &self.board[..2 * self.m as usize]
    }

    /// The board in the fixed-size form of [`crate::awari::rules`].
    pub fn cells(&self) -> [u8; 12] {
        self.board
    }

    /// The mover's pits, from the mover's left.
    pub fn mover_pits(&self) -> &[u8] {
        &self.board[..self.m as usize]
    }

    /// The opponent's pits, from the opponent's left.
    pub fn opponent_pits(&self) -> &[u8] {
        let m = self.m as usize;
        &self.board[m..2 * m]
    }

    /// Seeds captured so far as `[mover, opponent]`.
    pub fn captured_by_mover_opponent(&self) -> [u8; 2] {
        self.captured
    }

    /// Seeds captured so far as `[south, north]`.
    pub fn captured(&self) -> [u8; 2] {
        match self.to_move {
            Side::South => self.captured,
            Side::North => [self.captured[1], self.captured[0]],
        }
    }

    /// Seeds on the board.
    pub fn seeds_on_board(&self) -> usize {
        self.board().iter().map(|&c| c as usize).sum()
    }

    /// The legal moves or the end of the game, from [`awari_turn`].
    pub fn turn(&self, game: AwariGame) -> AwariTurn {
        if let Some(goal) = game.capture_goal() {
            if self.captured.iter().any(|&c| c >= goal) {
                // Awale: the game is won; the seeds left count for nobody.
                return AwariTurn::Over {
                    mover_gain: 0,
                    opponent_gain: 0,
                };
            }
        }
        awari_turn(&self.board, self.m as usize, game)
    }

    /// Whether the game is over: the mover cannot move (see
    /// [`AwariTurn::Over`]); an empty board is over.
    pub fn is_game_over(&self, game: AwariGame) -> bool {
        matches!(self.turn(game), AwariTurn::Over { .. })
    }

    /// The legal moves (pits), none when the game is over.
    pub fn legal_moves(&self, game: AwariGame) -> Moves {
        match self.turn(game) {
            AwariTurn::Play(moves) => pits_of(&moves),
            AwariTurn::Over { .. } => Moves::default(),
        }
    }

    /// Play `pit`. The position turns to the other side's view; when the game
    /// ends, the seeds left go to the players as the rules say and the board
    /// is left empty. An illegal move is an error naming the reason and
    /// leaves the position as it was.
    pub fn play(&mut self, pit: usize, game: AwariGame) -> Result<Step, PlayError> {
        let m = self.m as usize;
        let moves = match self.turn(game) {
            AwariTurn::Over { .. } => return Err(PlayError::GameOver),
            AwariTurn::Play(moves) => moves,
        };
        if pit >= m {
            return Err(PlayError::NoSuchPit { pit, pits: m });
        }
        let Some(&mv) = moves.find(pit) else {
            return Err(self.why_illegal(pit, &moves));
        };
        self.apply(&mv);
        Ok(Step {
            captured: mv.captured.into(),
            extra_turn: false,
            game_over: mv.game_over || self.finish(game),
        })
    }

    // Out of line: only a refused move needs the reason.
    #[cold]
    #[inline(never)]
    fn why_illegal(&self, pit: usize, moves: &AwariMoves) -> PlayError {
        if self.board[pit] == 0 {
            return PlayError::EmptyPit { pit };
        }
        if self.opponent_pits().iter().all(|&c| c == 0) {
            return PlayError::DoesNotFeed {
                pit,
                feeding: pits_of(moves),
            };
        }
        PlayError::GrandSlam {
            pit,
            legal: pits_of(moves),
        }
    }

    fn apply(&mut self, mv: &AwariMove) {
        *self = self.after(mv);
    }

    /// The position after `mv`, a legal move of this one, before the end
    /// of the game is settled: the move's board, the seeds it captured
    /// (and took at a forced grand slam's end) added to the mover's, the
    /// other side to move. No check is needed: a move keeps the seeds, and
    /// its board's cells past `2m` are 0.
    #[inline]
    pub(crate) fn after(&self, mv: &AwariMove) -> AwariPosition {
        let gain = mv.captured + mv.end_gain;
        AwariPosition {
            m: self.m,
            to_move: self.to_move.other(),
            board: mv.board,
            captured: [self.captured[1], self.captured[0] + gain],
        }
    }

    /// Settle a finished game: when the mover cannot move, give the seeds
    /// left on the board to the players as the rules say and empty the
    /// board. Returns whether the game is over. [`AwariPosition::play`] does
    /// this after every move; call it on a set-up position that may be over.
    pub fn finish(&mut self, game: AwariGame) -> bool {
        match self.turn(game) {
            AwariTurn::Play(_) => false,
            AwariTurn::Over {
                mover_gain,
                opponent_gain,
            } => {
                self.captured[0] += mover_gain;
                self.captured[1] += opponent_gain;
                self.board = [0; 12];
                true
            }
        }
    }

    /// Play a line of moves in the published notation, one move per turn,
    /// separated by dashes (`2-5-0`; spaces are ignored).
    ///
    /// Refuses an illegal move, two moves without a dash, a dash not between
    /// two moves, and a move after the end of the game, naming the place in
    /// the line (1-based character); the position is then left as it was.
    /// Returns every move played.
    pub fn play_line(&mut self, line: &str, game: AwariGame) -> Result<Vec<Step>> {
        let start = *self;
        let mut played: Vec<Step> = Vec::new();
        // Whether the next non-space character must be a dash.
        let mut need_dash = false;
        let mut last_dash = None;
        let fail = |pos: &mut AwariPosition, at: usize, reason: String| {
            *pos = start;
            Err(notation::bad_moves(line, at, reason))
        };
        for (at, token) in notation::move_tokens(line) {
            match token {
                Ok(Token::Dash) => {
                    if !need_dash {
                        let reason = if played.is_empty() {
                            "a dash separates two moves, but no move was played yet"
                        } else {
                            "two dashes in a row: write one move between dashes"
                        };
                        return fail(self, at, reason.to_string());
                    }
                    need_dash = false;
                    last_dash = Some(at);
                }
                Ok(Token::Pit(pit)) => {
                    if need_dash {
                        return fail(
                            self,
                            at,
                            "one move per turn in Awari: write a dash between moves (`2-5-0`)"
                                .to_string(),
                        );
                    }
                    match self.play(pit, game) {
                        Ok(p) => played.push(p),
                        Err(refused) => return fail(self, at, refused.to_string()),
                    }
                    need_dash = true;
                }
                Err(reason) => return fail(self, at, reason),
            }
        }
        if let (false, Some(at)) = (need_dash, last_dash) {
            return fail(
                self,
                at,
                "the line ends with a dash: a move must follow it".to_string(),
            );
        }
        Ok(played)
    }

    /// A readable two-row board, the mover at the bottom: the opponent's
    /// pits right to left on top (sowing goes counter-clockwise), captured
    /// totals at the sides (the opponent's on the left, the mover's on the
    /// right).
    pub fn board_diagram(&self) -> String {
        let m = self.m as usize;
        let cell = |v: &u8| format!("{v:>3}");
        let top: Vec<String> = self.opponent_pits().iter().rev().map(cell).collect();
        let bottom: Vec<String> = self.mover_pits().iter().map(cell).collect();
        let labels: Vec<String> = (0..m).map(|i| format!("{i:>3}")).collect();
        let mut out = String::new();
        out.push_str(&format!("       {} (opponent)\n", self.to_move.other()));
        out.push_str(&format!("       {}\n", top.join(" ")));
        out.push_str(&format!(
            "  {:>3} {:width$} {:<3}  (captured)\n",
            self.captured[1],
            "",
            self.captured[0],
            width = 4 * m - 1
        ));
        out.push_str(&format!("       {}\n", bottom.join(" ")));
        out.push_str(&format!("       {}  (pit numbers)\n", labels.join(" ")));
        out.push_str(&format!("       {} (to move)\n", self.to_move));
        out
    }
}

impl fmt::Display for AwariPosition {
    /// The notation: the board from the side to move, with the captured
    /// totals in brackets when any seed has been captured.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.captured == [0, 0] {
            f.write_str(&notation::join_counts(self.board()))
        } else {
            write!(
                f,
                "{} [{}] {} [{}]",
                notation::join_counts(self.mover_pits()),
                self.captured[0],
                notation::join_counts(self.opponent_pits()),
                self.captured[1]
            )
        }
    }
}

impl fmt::Debug for AwariPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AwariPosition({} to move: {})", self.to_move, self)
    }
}

/// Write a line of moves in the published notation: `[2, 5, 0]` gives
/// `2-5-0`.
pub fn format_awari_line(pits: &[usize]) -> String {
    let turns: Vec<[usize; 1]> = pits.iter().map(|&p| [p]).collect();
    notation::format_turns(&turns)
}

fn check_pits(m: usize) -> Result<()> {
    if !(AWARI_MIN_PITS..=AWARI_MAX_PITS).contains(&m) {
        return Err(Error::OutOfRange(format!(
            "{m} pits per side: Awari and Oware are played on {AWARI_MIN_PITS} to {AWARI_MAX_PITS} pits per side"
        )));
    }
    Ok(())
}

impl Board for AwariPosition {
    fn diagram(&self) -> String {
        self.board_diagram()
    }

    fn pits(&self) -> usize {
        self.pits_per_side()
    }

    fn to_move(&self) -> Side {
        AwariPosition::to_move(self)
    }

    fn scores(&self) -> [u8; 2] {
        self.captured()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: AwariGame = AwariGame::Awari;

    #[test]
    fn notation_round_trips() {
        let p = AwariPosition::start(6, 4).unwrap();
        assert_eq!(p.to_string(), "4 4 4 4 4 4 4 4 4 4 4 4");
        assert_eq!(AwariPosition::parse(&p.to_string()).unwrap(), p);
        let q = AwariPosition::parse("0 1 3 [20] 2 0 0 [22]").unwrap();
        assert_eq!(q.pits_per_side(), 3);
        assert_eq!(q.board(), &[0, 1, 3, 2, 0, 0]);
        assert_eq!(q.captured(), [20, 22]);
        assert_eq!(q.to_string(), "0 1 3 [20] 2 0 0 [22]");
        assert_eq!(AwariPosition::parse(&q.to_string()).unwrap(), q);
        // Without brackets, the pits per side decide.
        assert_eq!(
            AwariPosition::parse_with_pits("0 1 3 20 2 0 0 22", 3).unwrap(),
            q
        );
        let r = AwariPosition::parse_with_pits("0 1 3 20 2 0 0 22", 4).unwrap();
        assert_eq!(r.board(), &[0, 1, 3, 20, 2, 0, 0, 22]);
        assert_eq!(AwariPosition::parse("0 1 3 20 2 0 0 22").unwrap(), r);
    }

    #[test]
    fn parse_errors_name_the_problem() {
        for (text, needle) in [
            ("4 4 4", "3 entries"),
            ("4", "1 entries"),
            ("", "0 entries"),
            ("4 4 x 0", "not a whole number"),
            ("4 -1 4 0", "negative"),
            ("1 1 1 1 1 1 1 1 1 1 1 1 1 1", "at most 6"),
            ("1 1 1 1 1 1 1 [0] 1 1 1 1 1 1 1 [0]", "at most 6"),
            ("300 0 1 0", "more than the 255"),
            ("200 0 100 0", "at most 255"),
            ("100 0 [100] 1 0 [100]", "at most 255"),
            ("1 1 [0 1 1 [0]", "does not close"),
            ("1 [1] 0 1 1 [0]", "entries 3 and 6"),
            ("1 1 [1] 0 1 1 0 0", "entries 4 and 8"),
            ("1 1 1 [1] 0 1 [1]", "7 entries"),
        ] {
            let err = AwariPosition::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
        let err = AwariPosition::parse_with_pits("1 1 1 1 1", 2)
            .unwrap_err()
            .to_string();
        assert!(err.contains("4 numbers (board only) or 6"), "{err}");
        assert!(AwariPosition::start(7, 4).is_err());
        assert!(AwariPosition::start(1, 4).is_err());
        assert!(AwariPosition::start(6, 22).is_err());
    }

    #[test]
    fn play_line_moves_and_captures() {
        // Awari(2,2): 2 2 | 2 2. Pit 1 sows cells 2, 3 -> 3 3: the chain
        // takes 3 (cell 3) and 3 (cell 2) — a grand slam, illegal since pit
        // 0 is a quiet move. Pit 0 sows pits 1 and 2: 0 3 | 3 2, last seed in
        // cell 2 holding 3: captured.
        let mut p = AwariPosition::start(2, 2).unwrap();
        assert_eq!(p.legal_moves(A).iter().collect::<Vec<_>>(), vec![0]);
        let err = { p }.play(1, A).unwrap_err();
        assert!(matches!(err, PlayError::GrandSlam { pit: 1, .. }), "{err}");
        assert!(err.to_string().contains("grand slam"), "{err}");
        let played = p.play_line("0", A).unwrap();
        assert_eq!(played[0].captured, 3);
        assert_eq!(p.to_move(), Side::North);
        assert_eq!(p.captured(), [3, 0]);
        // North's view: its pits 0 2, South's 0 3.
        assert_eq!(p.board(), &[0, 2, 0, 3]);
        assert_eq!(p.to_string(), "0 2 [0] 0 3 [3]");
        // North's pit 1 (2 seeds) sows South's pits 0, 1 -> 1 4: no capture.
        p.play(1, A).unwrap();
        assert_eq!(p.board(), &[1, 4, 0, 0]);
        assert_eq!(p.captured(), [3, 0]);
    }

    #[test]
    fn game_end_gives_the_seeds_left() {
        // A forced grand slam: 0 5 | 0 1 (see rules::awari): South captures 5
        // and takes the 1 left in its own row.
        let mut p = AwariPosition::from_board(&[0, 5, 0, 1], [10, 7], Side::South).unwrap();
        let played = p.play_line("1", A).unwrap();
        assert!(played[0].game_over);
        assert_eq!(p.captured(), [16, 7]);
        assert_eq!(p.seeds_on_board(), 0);
        assert!(p.is_game_over(A));
        // A move after the end is refused, with its place.
        let mut q = AwariPosition::from_board(&[0, 5, 0, 1], [0, 0], Side::South).unwrap();
        match q.play_line("1-0", A) {
            Err(Error::BadMoves { at, reason, .. }) => {
                assert_eq!(at, 3);
                assert!(reason.contains("over"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        // 0 1 | 1 0: South's only move makes North's pit 0 hold 2 and takes
        // it: a forced grand slam with nothing left in South's row.
        let mut r = AwariPosition::from_board(&[0, 1, 1, 0], [0, 0], Side::South).unwrap();
        let played = r.play_line("1", A).unwrap();
        assert_eq!(played[0].captured, 2);
        assert!(played[0].game_over);
        assert_eq!(r.captured(), [2, 0]);
        // 0 1 | 0 0: South must feed and does (pit 1 into North's pit 0).
        // North's only seed then sows into its own pit 1, which does not feed
        // South's empty row: the game ends and North takes that seed.
        let mut s = AwariPosition::from_board(&[0, 1, 0, 0], [0, 0], Side::South).unwrap();
        let played = s.play_line("1", A).unwrap();
        assert_eq!(played[0].captured, 0);
        assert!(played[0].game_over);
        assert_eq!(s.captured(), [0, 1]);
        assert_eq!(s.to_move(), Side::North);
        assert_eq!(s.seeds_on_board(), 0);
    }

    #[test]
    fn play_line_refuses_bad_lines_with_place() {
        let start = AwariPosition::start(6, 4).unwrap();
        for (line, at, needle) in [
            ("25", 2, "dash between moves"),
            ("-2", 1, "no move was played"),
            ("2--5", 3, "two dashes"),
            ("2-5-", 4, "ends with a dash"),
            ("7", 1, "pit 7 does not exist"),
            ("2-x", 3, "neither"),
            ("0-0-0", 5, "pit 0 is empty"),
        ] {
            let mut p = start;
            match p.play_line(line, A) {
                Err(Error::BadMoves {
                    at: got, reason, ..
                }) => {
                    assert_eq!(got, at, "{line}: {reason}");
                    assert!(reason.contains(needle), "{line}: {reason}");
                }
                other => panic!("{line}: {other:?}"),
            }
            assert_eq!(p, start, "a refused line leaves the position unchanged");
        }
        // Feeding: South 1 0 1 | 0 0 0 — pit 0 does not feed.
        let mut p = AwariPosition::from_board(&[1, 0, 1, 0, 0, 0], [0, 0], Side::South).unwrap();
        let err = p.play(0, A).unwrap_err().to_string();
        assert!(
            err.contains("does not feed") && err.contains("moves that do: 2"),
            "{err}"
        );
    }

    #[test]
    fn a_line_alternates_sides() {
        let mut p = AwariPosition::start(6, 4).unwrap();
        p.play_line("2-5-0", A).unwrap();
        assert_eq!(p.to_move(), Side::North);
        assert_eq!(
            p.seeds_on_board() + p.captured().iter().map(|&c| c as usize).sum::<usize>(),
            48
        );
        assert_eq!(format_awari_line(&[2, 5, 0]), "2-5-0");
        assert!(p.board_diagram().contains("North (to move)"));
    }
}
