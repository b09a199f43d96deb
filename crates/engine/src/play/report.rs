//! What a match leaves: each game's record ([`GameRecord`]: its moves, how
//! it ended, its agents' thinking times) and the match's figures
//! ([`MatchReport`], the `--json` output), plain data. [`crate::play::arena`]
//! plays the games and counts them into a report; this module imports
//! nothing from it.

use std::time::Duration;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::side::Side;

/// How a game of a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameEnd {
    /// By the rules of the game.
    Rules,
    /// A position repeated with the same side to move (Awari, Oware).
    Repetition,
    /// The match's ply cap was reached (Awari, Oware).
    PlyCap,
}

impl GameEnd {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::Rules => "rules",
            GameEnd::Repetition => "repetition",
            GameEnd::PlyCap => "ply-cap",
        }
    }
}

/// Thinking times of one agent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct TimeStats {
    /// Moves the agent chose (random opening moves excluded).
    pub moves: u64,
    /// Total seconds.
    pub total_seconds: f64,
    /// Longest move, seconds.
    pub max_seconds: f64,
}

impl TimeStats {
    pub(crate) fn add(&mut self, d: Duration) {
        let s = d.as_secs_f64();
        self.moves += 1;
        self.total_seconds += s;
        self.max_seconds = self.max_seconds.max(s);
    }

    pub(crate) fn merge(&mut self, o: &TimeStats) {
        self.moves += o.moves;
        self.total_seconds += o.total_seconds;
        self.max_seconds = self.max_seconds.max(o.max_seconds);
    }

    /// Mean seconds per move (0 without moves).
    pub fn mean_seconds(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_seconds / self.moves as f64
        }
    }
}

/// One game of a match, enough to replay it with `mancala play`.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// Game number in the match (0-based).
    pub game: usize,
    /// The game played.
    pub game_spec: String,
    /// Spec of the agent playing South.
    pub south: String,
    /// Spec of the agent playing North.
    pub north: String,
    /// Which side agent A played.
    pub a_side: Side,
    /// Every move in the published notation (Awari and Oware: one pit per
    /// move, moves separated by dashes).
    pub moves: String,
    /// Single moves (plies) played.
    pub plies: usize,
    /// How the game ended.
    pub end: GameEnd,
    /// Single moves of each side played at random at the start.
    pub random_opening: usize,
    /// Final scores, South then North: stores in Kalah, seeds captured (or
    /// taken at the end) in Awari and Oware, plus each side's own seeds
    /// when a repeated position ended the game under
    /// [`RepetitionScore::OwnSide`].
    pub stores: [u16; 2],
    /// Seeds left on the board when the game ended by repetition or at the
    /// ply cap (0 when the game ended by the rules): split evenly, so they
    /// change nothing in the result, unless [`RepetitionScore::OwnSide`]
    /// gave them to their owners.
    pub left_on_board: u16,
    /// "south", "north" or "draw".
    pub winner: &'static str,
    /// A's final score minus B's.
    pub a_difference: i32,
    /// Thinking times of A in this game.
    pub a_time: TimeStats,
    /// Thinking times of B in this game.
    pub b_time: TimeStats,
}

/// What the seeds left on the board score when a match ends a game on a
/// repeated position (Awari, Oware, Vai Lung Thlan). A game stopped at the
/// ply cap is scored as before whatever this says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepetitionScore {
    /// Split evenly, adding nothing to the difference: the convention the
    /// tables' values use (`docs/RULES.md`, Awari rule 6). The default.
    #[default]
    Split,
    /// Each player takes the seeds on their own side, as the five-game
    /// study ends an Awari game on a repeated position.
    OwnSide,
}

impl RepetitionScore {
    /// The name `--repetition` takes.
    pub fn name(self) -> &'static str {
        match self {
            RepetitionScore::Split => "split",
            RepetitionScore::OwnSide => "own-side",
        }
    }
}

impl std::str::FromStr for RepetitionScore {
    type Err = Error;

    fn from_str(text: &str) -> Result<RepetitionScore> {
        match text {
            "split" => Ok(RepetitionScore::Split),
            "own-side" => Ok(RepetitionScore::OwnSide),
            other => Err(Error::Unsupported(format!(
                "unknown repetition scoring \"{}\": use split (the seeds left are shared \
                 evenly) or own-side (each player takes the seeds on their side)",
                crate::error::clip(other)
            ))),
        }
    }
}

/// Results of one side of the board for agent A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideResults {
    /// Games A won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
}

/// Per-move times of one agent over a match.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TimeReport {
    /// Moves chosen by the agent.
    pub moves: u64,
    /// Mean seconds per move.
    pub mean_seconds: f64,
    /// Longest move, seconds.
    pub max_seconds: f64,
}

impl From<TimeStats> for TimeReport {
    fn from(t: TimeStats) -> TimeReport {
        TimeReport {
            moves: t.moves,
            mean_seconds: t.mean_seconds(),
            max_seconds: t.max_seconds,
        }
    }
}

/// The figures of a match, under stable names (the `--json` output).
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    /// The game.
    pub game: String,
    /// Agent A's spec.
    pub a: String,
    /// Agent B's spec.
    pub b: String,
    /// Games played.
    pub games: u64,
    /// The match seed.
    pub seed: u64,
    /// Random single moves of each side at the start of every game.
    pub random_opening: usize,
    /// Ply cap of a game, for games whose positions can repeat (Awari,
    /// Oware); `None` in Kalah.
    pub max_plies: Option<usize>,
    /// Games ended by a repeated position.
    pub ended_by_repetition: u64,
    /// What the seeds left on the board scored in those games, for games
    /// whose positions can repeat; `None` in the others.
    pub repetition: Option<RepetitionScore>,
    /// Games ended at the ply cap.
    pub ended_by_ply_cap: u64,
    /// Games over before either agent chose a move (the random opening
    /// played them out): they say nothing of the agents.
    pub ended_in_opening: u64,
    /// How the perfect agent played, when one of the agents is `perfect`:
    /// "search only" (no tables) or "tables, then search"; `None`
    /// otherwise.
    pub perfect_mode: Option<&'static str>,
    /// Games A won.
    pub a_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games B won.
    pub b_wins: u64,
    /// A's results when playing South.
    pub a_as_south: SideResults,
    /// A's results when playing North.
    pub a_as_north: SideResults,
    /// Mean of A's final score minus B's.
    pub average_difference: f64,
    /// A's score fraction (win 1, draw 1/2, divided by the games).
    pub a_score: f64,
    /// 95% Wilson interval of A's score fraction.
    pub a_score_ci95: [f64; 2],
    /// One-sided binomial p-value of "A is stronger than B".
    pub p_value: f64,
    /// Whether `p_value` is below 5%.
    pub a_stronger: bool,
    /// Per-move times of A.
    pub a_time: TimeReport,
    /// Per-move times of B.
    pub b_time: TimeReport,
    /// Wall-clock seconds of the whole match.
    pub seconds: f64,
}
