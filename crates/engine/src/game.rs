//! The rules of a game of the family: what a rule set implements so that
//! positions can be parsed, shown and played, and so that the registry
//! ([`crate::family::Rules`]), the agents, the match runner and every front
//! end serve it.
//!
//! A rule set is a small `Copy` value ([`crate::kalah::KalahRules`],
//! [`crate::awari::AwariGame`], [`crate::ohvalhu::Ohvalhu`],
//! [`VaiLungThlan`](struct@crate::vai_lung_thlan::VaiLungThlan)) implementing [`Game`]: the
//! board widths it plays, its start position, its moves (extra turns,
//! passes, multi-lap sowing, forced moves), the end of the game and its
//! score, its notation, and what the registry and the table files know of
//! it (names, default board, ids, index layout). What its endgame tables
//! add (look-ups, builder, checks) is the second trait,
//! [`crate::tablebase::TableGame`], as a position trait and a tablebase
//! trait are split in the chess tablebase crates.

use std::fmt;
use std::hash::Hash;
use std::ops::RangeInclusive;

use crate::error::Result;
use crate::side::Side;
use crate::tables::index::Layout;

pub use crate::moves::{Moves, PlayError, Step};

/// What every position shows without knowing the rule set: its board, its
/// width, the side to move and the scores. Each game's position type
/// implements it once ([`crate::kalah::Position`], which Ohvalhu and Vai
/// Lung Thlan play on too, and [`crate::awari::AwariPosition`]).
pub trait Board {
    /// A readable board, the mover at the bottom.
    fn diagram(&self) -> String;
    /// Pits per side.
    fn pits(&self) -> usize;
    /// The side to move.
    fn to_move(&self) -> Side;
    /// The scores `[south, north]` (stores, or seeds captured).
    fn scores(&self) -> [u8; 2];
}

/// A rule set of the mancala family. See the module documentation.
///
/// Values are always from the view of the side to move. Code written once
/// over `Game` plays every game of the family:
///
/// ```
/// use mancala_solver::game::Board;
/// use mancala_solver::{AwariGame, Game, KalahRules};
///
/// /// Plays the leftmost legal pit for both sides to the end: the plies and
/// /// the final scores `[south, north]`.
/// fn leftmost_to_the_end<G: Game>(game: G, pits: usize, seeds: usize) -> (usize, [u8; 2]) {
///     let mut pos = game.start(pits, seeds).unwrap();
///     let mut plies = 0;
///     while !game.is_over(&pos) && plies < 500 {
///         let pit = game.legal_moves(&pos).pit(0);
///         game.play(&mut pos, pit).expect("a legal move");
///         plies += 1;
///     }
///     game.settle(&mut pos);
///     (plies, pos.scores())
/// }
///
/// let (_, [south, north]) = leftmost_to_the_end(KalahRules::Default, 4, 3);
/// assert_eq!(south as usize + north as usize, 24); // every seed ends in a store
/// let (plies, _) = leftmost_to_the_end(AwariGame::Oware, 3, 2);
/// assert!(plies > 0);
///
/// // A position in the game's notation, and a line of moves.
/// let rules = KalahRules::Default;
/// let mut pos = rules.parse("1 0 2 0 3 1 0 0")?;
/// assert_eq!(rules.play_line(&mut pos, "0")?, 1);
/// assert!(rules.play(&mut pos, 7).is_err()); // no pit 7: refused in words
/// # Ok::<(), mancala_solver::Error>(())
/// ```
pub trait Game: Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// A position, seen from the side to move.
    type Position: Board + Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync;

    /// What a player's score is called (`stores`, `captured`).
    const SCORE: &'static str;

    /// The game's name on the command line and in table files (`kalah`,
    /// `awari`, `oware`).
    fn name(self) -> &'static str;
    /// The rule set's name when the game has several (`default`,
    /// `capture-needs-opposite`, ...); `None` when it has one.
    fn rules_name(self) -> Option<&'static str>;
    /// Pits per side the rules engine plays.
    fn pits_range(self) -> RangeInclusive<usize>;
    /// The board a bare game name means: pits per side and seeds per pit
    /// (Kalah(6,4); Vai Lung Thlan 6 of 5; Ohvalhu 8 of 8).
    fn default_size(self) -> (usize, usize) {
        (6, 4)
    }
    /// Whether positions can repeat, so that a match needs a ply cap.
    fn can_repeat(self) -> bool;
    /// Whether a match ends a game when a position comes back (with the
    /// same side to move).
    fn ends_on_repetition(self) -> bool {
        self.can_repeat()
    }
    /// Whether a game stopped at the match's ply cap is a draw whatever the
    /// scores; otherwise the seeds left are split evenly and the scores
    /// decide.
    fn cap_is_draw(self) -> bool {
        false
    }
    /// Whether an exact search ([`crate::search`]) values positions above
    /// the tables (Kalah's MTD(f) solver; Awari's and Oware's search over
    /// boards with repetitions).
    fn has_exact_search(self) -> bool {
        false
    }

    /// The ids the rule set's table files carry in their header: the game's
    /// and the rule set's (0 when the game has one).
    fn table_ids(self) -> (u8, u8);
    /// Which positions the game's tables index ([`Layout`]).
    fn table_layout(self) -> Layout;
    /// How many value units one step of a stored share is worth: 2 when
    /// every seed ends in a store, so that a value has the parity of the
    /// seeds (Kalah, Ohvalhu); 1 otherwise.
    fn value_scale(self) -> i32;

    /// The start with `pits` pits per side and `seeds` seeds per pit.
    fn start(self, pits: usize, seeds: usize) -> Result<Self::Position>;
    /// A position in the game's notation, South to move.
    fn parse(self, text: &str) -> Result<Self::Position>;
    /// A position from its counts in the notation's order (the mover's
    /// pits and store, then the opponent's), South to move: what
    /// [`Game::parse`] reads, without the text (batch look-ups).
    fn position_from_counts(self, counts: &[u8]) -> Result<Self::Position>;
    /// Whether the notation writes the stores (captured totals) in square
    /// brackets, `3 0 2 [5] 1 1 0 [4]` (Awari, Oware), rather than as plain
    /// numbers in the stores' places (Kalah and the rest).
    fn stores_in_brackets(self) -> bool {
        false
    }
    /// Whether the game is over by the rules.
    fn is_over(self, pos: &Self::Position) -> bool;
    /// The legal moves (none when the game is over).
    fn legal_moves(self, pos: &Self::Position) -> Moves;
    /// Play `pit`; an illegal move is refused with the reason
    /// ([`PlayError`]) and leaves the position as it was. When the turn
    /// passes the position turns to the other side's view; when the game
    /// ends the seeds left go where the rules say.
    fn play(self, pos: &mut Self::Position, pit: usize) -> std::result::Result<Step, PlayError>;
    /// Play a line of moves in the game's notation; the number of moves
    /// played. A bad line leaves the position as it was. By default the
    /// Kalah-style grammar (the moves of one turn written together, a dash
    /// where the turn passes) over [`Game::play`].
    fn play_line(self, pos: &mut Self::Position, line: &str) -> Result<usize> {
        crate::notation::play_line_with(
            pos,
            line,
            |p, pit| self.play(p, pit),
            |p| self.is_over(p),
            |s: &Step| (s.extra_turn, s.game_over),
        )
        .map(|played| played.len())
    }
    /// Settle a position that is over by the rules (the seeds left go where
    /// the rules say); whether the game is over.
    fn settle(self, pos: &mut Self::Position) -> bool {
        self.is_over(pos)
    }
}
