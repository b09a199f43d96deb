//! Awari and Oware rules (`docs/RULES.md`, sections "Awari" and "Oware"), on
//! boards of [`AWARI_MIN_PITS`]`..=`[`AWARI_MAX_PITS`] pits per side.
//!
//! # Boards
//!
//! A board is always seen from the side to move: `cells[0..m]` are the
//! mover's pits from the mover's left (sowing goes to higher indices),
//! `cells[m..2m]` the opponent's pits from the opponent's left; sowing
//! follows index order modulo `2m`. Captured seeds are not on the board.
//! A board is held in a `[u8; 12]` whose cells past `2m` are 0. The seeds on
//! a board must total at most 255 (every count is a `u8`).
//!
//! # Rules, as implemented
//!
//! - A move sows a non-empty pit of the mover with the shared sowing core
//!   [`sow`], skipping the origin pit on every lap.
//! - If the last seed lands in an opponent pit that now holds 2 or 3 seeds
//!   (Oware: 2, 3 or 4), they are captured, then the pit before it, and so
//!   on while the pits are the opponent's and capturable. The chain stops at
//!   the first pit that is not, and never enters the mover's row.
//! - Feeding: when the opponent's row is empty, only moves that put at least
//!   one seed into it are legal. If no move does, the game is over before the
//!   move and the mover takes every seed on the board
//!   ([`AwariTurn::Over`]).
//! - Grand slam: a move that captures every seed of the opponent's row is
//!   illegal, unless every legal move is one. Then they are all legal; each is
//!   played, captures as usual, and ends the game, the mover taking the seeds
//!   left in their own row ([`AwariMove::end_gain`]).
//! - A mover with an empty row (only in set-up positions: after a legal
//!   move the opponent always has seeds) ends the game before moving; the
//!   opponent takes the seeds left on the board.
//! - Endless play splits the seeds left on the board evenly: it adds 0 to the
//!   score difference.
//!
//! Where the rules are silent, the choice made is:
//!
//! - **Feeding before grand slam.** "Every legal move" in the grand-slam
//!   rule means every move that satisfies the feeding rule. So when the
//!   opponent's row is empty and every feeding move captures all the seeds it
//!   feeds, the grand slam is forced and ends the game; a non-feeding move
//!   never makes a grand slam illegal. This is what a careful player expects:
//!   the feeding rule decides which moves may be played at all, the
//!   grand-slam rule then picks among them.
//! - A capture is "every seed of the opponent's row" when the opponent's row
//!   is empty after the capture (seeds sown there by the move included).
//!
//! # Values
//!
//! Every engineer's code uses one convention: the value of a board is
//! (seeds the mover will still capture or take) − (seeds the opponent
//! will), with perfect play by both, endless play adding 0. Seeds already
//! captured are not part of it. For a legal move `mv` of a board,
//!
//! ```text
//! value via mv = mv.captured + mv.end_gain - (if mv.game_over { 0 } else { value(mv.board) })
//! ```
//!
//! ([`AwariMove::value`]), the value of a board is the best of its moves, and
//! a board whose turn is [`AwariTurn::Over`] is worth
//! `mover_gain - opponent_gain`.
//!
//! ```
//! use mancala_solver::awari::rules::{awari_start, awari_turn, AwariGame, AwariTurn};
//!
//! let board = awari_start(6, 4);
//! let AwariTurn::Play(moves) = awari_turn(&board, 6, AwariGame::Awari) else { unreachable!() };
//! assert_eq!(moves.len(), 6);
//! // Pit 5 sows into the opponent's first four pits; the opponent moves next.
//! let mv = moves.as_slice()[5];
//! assert_eq!(mv.board, [5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 0]);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::sow::sow;

/// Fewest pits per side of an Awari or Oware board.
pub const AWARI_MIN_PITS: usize = 2;

/// Most pits per side of an Awari or Oware board.
pub const AWARI_MAX_PITS: usize = 6;

/// Which game of the Awari family: Awari captures 2-3, Oware 2-4; Awale
/// is Awari as the MCTS study plays it (no feeding, no grand-slam rule, the
/// game ends at [`AWALE_GOAL`] captures; no tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AwariGame {
    /// Awari (Computer-Olympiad rules): captures pits holding 2 or 3.
    Awari,
    /// Oware: captures pits holding 2, 3 or 4.
    Oware,
    /// Awale as in the MCTS study: Awari's sowing and captures without the
    /// feeding and grand-slam rules; the game ends when a player has
    /// captured [`AWALE_GOAL`] or when the mover's row is empty (the seeds
    /// left count for nobody). Matches add the study's 500-move cap, scored
    /// a draw.
    Awale,
    /// Oware as several rule books and engines play it: a move that would
    /// capture every seed of the opponent's row is legal, and captures
    /// nothing (instead of being refused unless forced).
    OwareGrandSlamCapturesNothing,
    /// Awari (captures of 2 or 3) with Oware's variant grand slam: a move
    /// that would capture every seed of the opponent's row is legal and
    /// captures nothing. OpenSpiel's `oware` plays it.
    AwariGrandSlamCapturesNothing,
}

/// Captures that end a game of Awale (more than half of 48 seeds).
pub const AWALE_GOAL: u8 = 25;

impl AwariGame {
    /// The games with endgame tables.
    pub const ALL: [AwariGame; 4] = [
        AwariGame::Awari,
        AwariGame::Oware,
        AwariGame::OwareGrandSlamCapturesNothing,
        AwariGame::AwariGrandSlamCapturesNothing,
    ];

    /// Every game of the family, the table-less Awale included.
    pub const PLAYED: [AwariGame; 5] = [
        AwariGame::Awari,
        AwariGame::Oware,
        AwariGame::Awale,
        AwariGame::OwareGrandSlamCapturesNothing,
        AwariGame::AwariGrandSlamCapturesNothing,
    ];

    /// The name used on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            AwariGame::Awari | AwariGame::AwariGrandSlamCapturesNothing => "awari",
            AwariGame::Oware | AwariGame::OwareGrandSlamCapturesNothing => "oware",
            AwariGame::Awale => "awale",
        }
    }

    /// The rule set's name where the game has several (the grand-slam
    /// variants); `None` for the game's own rules.
    pub fn rules_name(self) -> Option<&'static str> {
        match self {
            AwariGame::OwareGrandSlamCapturesNothing | AwariGame::AwariGrandSlamCapturesNothing => {
                Some("grand-slam-captures-nothing")
            }
            _ => None,
        }
    }

    /// Whether a move that would capture the whole opponent row is played
    /// and captures nothing (else it is refused unless forced).
    #[inline(always)]
    pub fn grand_slam_captures_nothing(self) -> bool {
        matches!(
            self,
            AwariGame::OwareGrandSlamCapturesNothing | AwariGame::AwariGrandSlamCapturesNothing
        )
    }

    /// The ids stored in table headers: the game's (1 is Kalah; Awale has
    /// no tables, its id only names it) and the rule set's (0 for the
    /// game's own rules, 1 for `grand-slam-captures-nothing`).
    pub fn ids(self) -> (u8, u8) {
        match self {
            AwariGame::Awari => (2, 0),
            AwariGame::Oware => (3, 0),
            AwariGame::Awale => (4, 0),
            AwariGame::OwareGrandSlamCapturesNothing => (3, 1),
            AwariGame::AwariGrandSlamCapturesNothing => (2, 1),
        }
    }

    /// Whether the game has endgame tables (not Awale, whose end at
    /// [`AWALE_GOAL`] captures depends on the seeds captured so far).
    pub fn has_tables(self) -> bool {
        self != AwariGame::Awale
    }

    /// Whether a move must feed an empty opponent row, and a move capturing
    /// the whole opponent row is refused unless forced (Awari, Oware).
    #[inline(always)]
    pub fn feeds(self) -> bool {
        self != AwariGame::Awale
    }

    /// The captures that end the game, if any (Awale: [`AWALE_GOAL`]).
    #[inline(always)]
    pub fn capture_goal(self) -> Option<u8> {
        (self == AwariGame::Awale).then_some(AWALE_GOAL)
    }

    /// Whether a match ends the game when a position comes back (Awari,
    /// Oware); Awale has no repetition rule, only the move cap.
    pub fn ends_on_repetition(self) -> bool {
        self != AwariGame::Awale
    }

    /// The game with header ids `ids`, if it has tables.
    pub fn from_ids(ids: (u8, u8)) -> Option<AwariGame> {
        AwariGame::ALL.into_iter().find(|g| g.ids() == ids)
    }

    /// The game called `s` ("awari", "oware" or "awale"), if any.
    pub fn from_name(s: &str) -> Option<AwariGame> {
        AwariGame::PLAYED.into_iter().find(|g| g.name() == s)
    }

    /// The largest pit content captured: 3 for Awari, 4 for Oware (the
    /// smallest is 2 for both).
    #[inline(always)]
    pub fn max_capture(self) -> u8 {
        match self {
            AwariGame::Awari | AwariGame::Awale | AwariGame::AwariGrandSlamCapturesNothing => 3,
            AwariGame::Oware | AwariGame::OwareGrandSlamCapturesNothing => 4,
        }
    }
}

impl FromStr for AwariGame {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        AwariGame::from_name(s).ok_or_else(|| {
            Error::Unsupported(format!("unknown game \"{s}\": use awari, oware or awale"))
        })
    }
}

impl fmt::Display for AwariGame {
    /// The game, with its rule set when not the game's own (`oware`,
    /// `oware:grand-slam-captures-nothing`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rules_name() {
            Some(r) => write!(f, "{}:{r}", self.name()),
            None => f.write_str(self.name()),
        }
    }
}

/// One legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AwariMove {
    /// The pit sown, `0..m` from the mover's left.
    pub pit: u8,
    /// Seeds the mover captures with this move.
    pub captured: u8,
    /// The board after the move seen from the new side to move (the
    /// opponent): rotated, so its `cells[0..m]` are the opponent's pits.
    /// All zero when the game ends with the move.
    pub board: [u8; 12],
    /// The game ends with this move (a forced grand slam).
    pub game_over: bool,
    /// When `game_over`: the seeds the mover takes besides `captured` (those
    /// left in their own row). 0 otherwise.
    pub end_gain: u8,
}

impl AwariMove {
    /// The value of the board the move was played from, through this move,
    /// given the value of the board it leads to (ignored when the game ends
    /// with the move). See the module docs for the convention.
    #[inline(always)]
    pub fn value(&self, child_value: i32) -> i32 {
        let gain = self.captured as i32 + self.end_gain as i32;
        if self.game_over {
            gain
        } else {
            gain - child_value
        }
    }
}

/// The legal moves of a board, in increasing pit order, allocation-free.
#[derive(Clone, Copy, Debug)]
pub struct AwariMoves {
    moves: [AwariMove; AWARI_MAX_PITS],
    len: u8,
}

const NO_MOVE: AwariMove = AwariMove {
    pit: 0,
    captured: 0,
    board: [0; 12],
    game_over: false,
    end_gain: 0,
};

impl AwariMoves {
    const EMPTY: AwariMoves = AwariMoves {
        moves: [NO_MOVE; AWARI_MAX_PITS],
        len: 0,
    };

    #[inline(always)]
    fn push(&mut self, mv: AwariMove) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// The number of legal moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no move (never the case inside [`AwariTurn::Play`]).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[AwariMove] {
        &self.moves[..self.len as usize]
    }

    /// The move sowing pit `pit`, if it is legal.
    pub fn find(&self, pit: usize) -> Option<&AwariMove> {
        self.as_slice().iter().find(|mv| mv.pit as usize == pit)
    }
}

/// What the side to move can do.
#[derive(Clone, Copy, Debug)]
pub enum AwariTurn {
    /// The mover has at least one legal move.
    Play(AwariMoves),
    /// The game is over before the mover moves (empty mover row, or nothing
    /// can feed an empty opponent row): the seeds left on the board that go
    /// to each side.
    Over {
        /// Seeds the mover takes.
        mover_gain: u8,
        /// Seeds the opponent takes.
        opponent_gain: u8,
    },
}

/// The start board of a game with `m` pits per side and `n` seeds per pit
/// (the caller keeps `2 * m * n <= 255`).
pub fn awari_start(m: usize, n: u8) -> [u8; 12] {
    let mut b = [0u8; 12];
    b[..2 * m].fill(n);
    b
}

/// `board` (`2m` cells, 0 past them) seen from the other side: the
/// opponent's `m` pits first, then the mover's. The ring turned by `m`
/// cells as one 128-bit word, without a copy of run-time length.
#[inline(always)]
fn turned(board: &[u8; 12], m: usize) -> [u8; 12] {
    let mut word = [0u8; 16];
    word[..12].copy_from_slice(board);
    let x = u128::from_le_bytes(word);
    let ring = (1u128 << (16 * m)) - 1;
    let y = ((x >> (8 * m)) | (x << (8 * m))) & ring;
    let mut out = [0u8; 12];
    out.copy_from_slice(&y.to_le_bytes()[..12]);
    out
}

/// Legal moves (or game end) of `cells` (`len >= 2m`, seeds totalling at most
/// 255) with `m` pits per side under `game`. Allocation-free.
///
/// # Panics
/// When `m` is not in `AWARI_MIN_PITS..=AWARI_MAX_PITS` or `cells` is
/// shorter than `2m`.
#[inline]
pub fn awari_turn(cells: &[u8], m: usize, game: AwariGame) -> AwariTurn {
    assert!(
        (AWARI_MIN_PITS..=AWARI_MAX_PITS).contains(&m),
        "{m} pits per side: Awari is played on {AWARI_MIN_PITS} to {AWARI_MAX_PITS}"
    );
    let n = 2 * m;
    let cells = &cells[..n];
    let mover: u32 = cells[..m].iter().map(|&c| c as u32).sum();
    let opponent: u32 = cells[m..].iter().map(|&c| c as u32).sum();
    debug_assert!(mover + opponent <= 255, "more than 255 seeds on the board");
    if mover == 0 {
        return AwariTurn::Over {
            mover_gain: 0,
            // Awale: the seeds left count for nobody.
            opponent_gain: if game.feeds() { opponent as u8 } else { 0 },
        };
    }
    let feeds = game.feeds();
    let max_capture = game.max_capture();
    let mut moves = AwariMoves::EMPTY;
    let mut slams = AwariMoves::EMPTY;
    // The board in a fixed-size array, 0 past `2m`: each move copies it
    // whole (a copy of a length known only at run time is a call to the
    // C library's memcpy, which cost a tenth of an MCTS agent's time).
    let mut start = [0u8; 12];
    start[..n].copy_from_slice(cells);
    for (pit, &seeds) in cells[..m].iter().enumerate() {
        if seeds == 0 {
            continue;
        }
        let mut b = start;
        let last = sow(&mut b[..n], pit, true);
        if feeds && opponent == 0 && b[m..n].iter().all(|&c| c == 0) {
            // Does not feed the empty opponent row: not legal.
            continue;
        }
        // The pits the capture takes, `first..=last` (none when the last
        // seed fell in the mover's row), counted before any is emptied.
        let mut captured = 0u8;
        let mut first = last + 1;
        while first > m && (2..=max_capture).contains(&b[first - 1]) {
            first -= 1;
            captured += b[first];
        }
        let slam = captured > 0
            && b[m..first].iter().all(|&c| c == 0)
            && b[last + 1..n].iter().all(|&c| c == 0);
        if slam && game.grand_slam_captures_nothing() {
            // A grand slam is played and captures nothing.
            captured = 0;
        } else if first <= last {
            b[first..=last].fill(0);
        }
        if feeds && slam && captured > 0 {
            // Grand slam: legal only if every legal move is one.
            slams.push(AwariMove {
                pit: pit as u8,
                captured,
                board: [0; 12],
                game_over: true,
                end_gain: b[..m].iter().sum(),
            });
            continue;
        }
        moves.push(AwariMove {
            pit: pit as u8,
            captured,
            board: turned(&b, m),
            game_over: false,
            end_gain: 0,
        });
    }
    if !moves.is_empty() {
        AwariTurn::Play(moves)
    } else if !slams.is_empty() {
        AwariTurn::Play(slams)
    } else {
        // The opponent's row is empty and no move feeds it.
        AwariTurn::Over {
            mover_gain: mover as u8,
            opponent_gain: 0,
        }
    }
}

#[cfg(test)]
mod tests;
