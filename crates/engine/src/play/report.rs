//! A match's report: what a match keeps of its games ([`MatchTally`],
//! counts and sums, the same size whatever the number of games) and the
//! figures it gives ([`MatchReport`], the `--json` output), with the
//! score's interval and p-value ([`crate::play::stats`]).

use serde::Serialize;

use crate::play::arena::{
    GameEnd, GameRecord, MatchOptions, RepetitionScore, TimeStats, SIGNIFICANCE,
};
use crate::play::stats::{binomial_p_value, wilson_interval};
use crate::side::Side;

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

/// What a match keeps of its games for its report: counts and sums, the
/// same size whatever the number of games. Games are added in game order
/// (the sums of times are then the same to the last bit as
/// [`summarize`]'s).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchTally {
    south: SideResults,
    north: SideResults,
    a_time: TimeStats,
    b_time: TimeStats,
    diff_sum: i64,
    repetitions: u64,
    capped: u64,
    in_opening: u64,
    games: u64,
}

impl MatchTally {
    /// Count one more game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        if r.a_time.moves + r.b_time.moves == 0 {
            self.in_opening += 1;
        }
        match r.end {
            GameEnd::Rules => {}
            GameEnd::Repetition => self.repetitions += 1,
            GameEnd::PlyCap => self.capped += 1,
        }
        let side = if r.a_side == Side::South {
            &mut self.south
        } else {
            &mut self.north
        };
        match r.a_difference.signum() {
            1 => side.wins += 1,
            0 => side.draws += 1,
            _ => side.losses += 1,
        }
        self.diff_sum += r.a_difference as i64;
        self.a_time.merge(&r.a_time);
        self.b_time.merge(&r.b_time);
    }

    /// The report of the match `opts` from the games counted, which took
    /// `seconds`.
    pub fn report(&self, opts: &MatchOptions, seconds: f64) -> MatchReport {
        let (south, north, games) = (self.south, self.north, self.games);
        let a_wins = south.wins + north.wins;
        let draws = south.draws + north.draws;
        let b_wins = south.losses + north.losses;
        let points = a_wins as f64 + draws as f64 / 2.0;
        let a_score = if games == 0 {
            0.0
        } else {
            points / games as f64
        };
        let (lo, hi) = wilson_interval(points, games, 1.959_963_984_540_054);
        let p_value = binomial_p_value(games, points);
        MatchReport {
            game: opts.game.to_string(),
            a: opts.a.to_string(),
            b: opts.b.to_string(),
            games,
            seed: opts.seed,
            random_opening: opts.effective_random_opening(),
            max_plies: opts.game.can_repeat().then_some(opts.max_plies),
            ended_by_repetition: self.repetitions,
            repetition: opts.game.can_repeat().then_some(opts.repetition),
            ended_by_ply_cap: self.capped,
            ended_in_opening: self.in_opening,
            perfect_mode: opts.perfect_mode(),
            a_wins,
            draws,
            b_wins,
            a_as_south: south,
            a_as_north: north,
            average_difference: if games == 0 {
                0.0
            } else {
                self.diff_sum as f64 / games as f64
            },
            a_score,
            a_score_ci95: [lo, hi],
            p_value,
            a_stronger: p_value < SIGNIFICANCE,
            a_time: self.a_time.into(),
            b_time: self.b_time.into(),
            seconds,
        }
    }
}

/// The report of a match from its game records.
pub fn summarize(opts: &MatchOptions, records: &[GameRecord], seconds: f64) -> MatchReport {
    let mut tally = MatchTally::default();
    for r in records {
        tally.add(r);
    }
    tally.report(opts, seconds)
}
