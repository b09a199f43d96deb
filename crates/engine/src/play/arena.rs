//! Matches and tournaments between agents, with honest statistics.
//!
//! A match plays N games with the agents alternating sides (A is South in
//! the even-numbered games). Game `i` draws everything random (both agents'
//! seeds, the random opening) from a generator derived from the match seed
//! and `i` alone, so a match is reproducible bit for bit from its seed with
//! any number of threads (as long as no agent has a *time* budget: those
//! depend on the machine's speed). Games run in parallel with rayon; each
//! game builds fresh agents, so agents never see each other's state.
//!
//! When both agents are deterministic (greedy, minimax, alpha-beta,
//! perfect), every game would be one of two, so, as in the published
//! studies, the first 10 single moves (pit plays, extra-turn moves included)
//! of each side are drawn at random unless `random_opening` says otherwise.
//!
//! Statistics: A's score counts a win 1 and a draw 1/2. The 95% interval is
//! the Wilson score interval on the score fraction. The p-value is the
//! one-sided binomial test of "A is stronger than B": the chance that a
//! fair coin gives at least A's score (rounded down to whole points) in N
//! tosses; 32 of 50 gives p = 0.0325, the published criterion.
//!
//! Games: Kalah, Awari and Oware ([`GameSpec`]). Awari and Oware positions
//! can repeat, so there a game also ends when a position repeats (same
//! board, same side to move) or after [`MatchOptions::max_plies`] plies
//! (default [`DEFAULT_MAX_PLIES`]); the seeds left on the board are then
//! split evenly and add nothing to the difference (`docs/RULES.md`, Awari rule
//! 6): the result is decided by the seeds captured, equal is a draw. Kalah
//! positions never repeat and Kalah games always end by the rules.

use crate::clock::Instant;
use crate::progress::{Event, Observer};
use crate::side::side_index;
use crate::side::Side;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::rng::SeededRng;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::kalah::position::format_line;
use crate::play::agents::random::random_move;
use crate::play::agents::{Agent, AgentSpec};
use crate::play::report::{MatchReport, MatchTally};
pub use crate::play::state::GameSpec;
use crate::play::state::State;
use crate::tablebase::SharedTables;

/// Random moves of each side at the start of a match between two
/// deterministic agents, as in the published studies.
pub const DEFAULT_RANDOM_OPENING: usize = 10;

/// Significance level of the "stronger" relation.
pub const SIGNIFICANCE: f64 = 0.05;

/// Default ply cap of Awari and Oware games in a match (`docs/RULES.md`).
pub const DEFAULT_MAX_PLIES: usize = 500;

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
    fn add(&mut self, d: Duration) {
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

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// The game.
    pub game: GameSpec,
    /// Agent A.
    pub a: AgentSpec,
    /// Agent B.
    pub b: AgentSpec,
    /// Number of games (A is South in the even-numbered ones).
    pub games: usize,
    /// The match seed.
    pub seed: u64,
    /// Random single moves of each side at the start; `None`: the
    /// published default when both agents are deterministic, else none.
    pub random_opening: Option<usize>,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Where progress goes (silent by default).
    pub progress: Observer,
    /// Endgame tables for the perfect agent.
    pub tables: Option<SharedTables>,
    /// Ply cap of games whose positions can repeat (Awari, Oware); Kalah
    /// games always end by the rules and ignore it.
    pub max_plies: usize,
    /// What the seeds left on the board score when a game ends on a
    /// repeated position.
    pub repetition: RepetitionScore,
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

impl MatchOptions {
    /// How the perfect agent plays in this match, if one of the agents is
    /// perfect: "tables, then search" with tables, else "search only".
    pub fn perfect_mode(&self) -> Option<&'static str> {
        let tables = self.tables.is_some();
        self.a
            .perfect_mode(tables)
            .or_else(|| self.b.perfect_mode(tables))
    }

    /// Random single moves of each side at the start of every game.
    pub fn effective_random_opening(&self) -> usize {
        self.random_opening
            .unwrap_or(if self.a.is_deterministic() && self.b.is_deterministic() {
                DEFAULT_RANDOM_OPENING
            } else {
                0
            })
    }
}

/// SplitMix64: a well-mixed 64-bit value from `x`.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of game `game` of the match seeded `seed`.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    mix(mix(seed) ^ mix(game.wrapping_add(0x5eed)))
}

/// A game played out between two agents.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The moves of each turn, in order.
    pub turns: Vec<Vec<usize>>,
    /// Single moves played.
    pub plies: usize,
    /// The final position.
    pub end: State,
    /// How the game ended.
    pub reason: GameEnd,
    /// Thinking times of A and B.
    pub times: [TimeStats; 2],
}

/// Play a game from `start` to its end: agent `a` plays `a_side`, `b` the
/// other side; the first `opening` single moves of each side are drawn at
/// random from `opening_rng`. When positions can repeat (Awari, Oware) the
/// game also ends when a position (board and side to move) comes back, or
/// after `max_plies` single moves. An illegal move from an agent is an
/// [`Error::IllegalMove`] naming the agent and the position.
pub fn play_agents(
    start: State,
    a: &mut dyn Agent,
    b: &mut dyn Agent,
    a_side: Side,
    opening: usize,
    max_plies: usize,
    opening_rng: &mut SeededRng,
) -> Result<PlayedGame> {
    let mut times = [TimeStats::default(); 2]; // A, B
    let mut played = [0usize; 2]; // South, North
    let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
    let mut pos = start;
    // Positions seen, for the repetition rule (Awari and Oware only).
    let mut seen = match pos.repetition_key() {
        Some(key) if pos.rules().ends_on_repetition() => {
            let mut seen = std::collections::HashSet::new();
            seen.insert(key);
            Some(seen)
        }
        _ => None,
    };
    let capped = pos.rules().can_repeat();
    let mut plies = 0;
    let mut reason = GameEnd::Rules;
    while !pos.is_over() {
        if capped && plies >= max_plies {
            reason = GameEnd::PlyCap;
            break;
        }
        let side = pos.to_move();
        let is_a = side == a_side;
        let pit = if played[side_index(side)] < opening {
            random_move(&pos, opening_rng)
        } else {
            let t0 = Instant::now();
            let choice = if is_a { a.choose(&pos) } else { b.choose(&pos) };
            times[usize::from(!is_a)].add(t0.elapsed());
            choice.pit
        };
        played[side_index(side)] += 1;
        let before = pos.clone();
        let mv = pos.play(pit).map_err(|reason| Error::IllegalMove {
            agent: if is_a { a.name() } else { b.name() },
            position: before.to_string(),
            side,
            pit,
            reason,
        })?;
        plies += 1;
        turns.last_mut().expect("a turn").push(pit);
        if !mv.extra_turn && !mv.game_over {
            turns.push(Vec::new());
        }
        if let (Some(seen), Some(key)) = (&mut seen, pos.repetition_key()) {
            if !pos.is_over() && !seen.insert(key) {
                reason = GameEnd::Repetition;
                break;
            }
        }
    }
    if turns.last().is_some_and(|t| t.is_empty()) {
        turns.pop();
    }
    Ok(PlayedGame {
        turns,
        plies,
        end: pos,
        reason,
        times,
    })
}

/// Play game `game` of the match.
pub fn play_game(opts: &MatchOptions, game: usize) -> Result<GameRecord> {
    let rules = opts.game.rules();
    let gs = game_seed(opts.seed, game as u64);
    let a_side = if game.is_multiple_of(2) {
        Side::South
    } else {
        Side::North
    };
    // The caller's stop flag ends the agents' thinking at once; the game
    // is then not reported (below).
    let stop = || crate::play::agents::Stop::from_flag(opts.progress.stop_flag());
    let mut a = opts
        .a
        .build_with_stop(rules, opts.tables.clone(), mix(gs ^ 1), stop())?;
    let mut b = opts
        .b
        .build_with_stop(rules, opts.tables.clone(), mix(gs ^ 2), stop())?;
    let mut opening_rng = crate::rng::seeded(mix(gs ^ 3));
    let opening = opts.effective_random_opening();
    let PlayedGame {
        turns,
        plies,
        end,
        reason,
        times,
    } = play_agents(
        opts.game.start(),
        a.as_mut(),
        b.as_mut(),
        a_side,
        opening,
        opts.max_plies,
        &mut opening_rng,
    )?;
    if opts.progress.should_stop() {
        return Err(Error::Stopped("the match stopped".into()));
    }
    let mut stores = end.scores();
    if reason == GameEnd::Repetition && opts.repetition == RepetitionScore::OwnSide {
        let rows = end.row_sums();
        stores[0] += rows[0];
        stores[1] += rows[1];
    }
    let moves = format_line(&turns);
    let a_difference = {
        // Awale scores a game stopped at the cap a draw, whatever the
        // captures.
        let draw = reason == GameEnd::PlyCap && rules.cap_is_draw();
        let d = if draw {
            0
        } else {
            stores[0] as i32 - stores[1] as i32
        };
        if a_side == Side::South {
            d
        } else {
            -d
        }
    };
    let (south, north) = if a_side == Side::South {
        (opts.a.to_string(), opts.b.to_string())
    } else {
        (opts.b.to_string(), opts.a.to_string())
    };
    Ok(GameRecord {
        game,
        game_spec: opts.game.to_string(),
        south,
        north,
        a_side,
        moves,
        plies,
        end: reason,
        random_opening: opening,
        stores,
        left_on_board: end.seeds_on_board() as u16,
        winner: match stores[0].cmp(&stores[1]) {
            std::cmp::Ordering::Greater => "south",
            std::cmp::Ordering::Less => "north",
            std::cmp::Ordering::Equal => "draw",
        },
        a_difference,
        a_time: times[0],
        b_time: times[1],
    })
}

/// Games played at once between two hand-overs of their records: what a
/// match holds in memory whatever its number of games (a few MB of
/// records), and enough for every core to stay busy.
pub const GAMES_PER_BATCH: usize = 4096;

/// Play a match; the report and one record per game, in game order. The
/// records are kept, all of them (a few hundred bytes a game): a large
/// match hands them on as they finish with [`run_match_each`] instead.
pub fn run_match(opts: &MatchOptions) -> Result<(MatchReport, Vec<GameRecord>)> {
    let mut records = Vec::new();
    let report = run_match_each(opts, &mut |r| {
        records.push(r);
        Ok(())
    })?;
    Ok((report, records))
}

/// Play a match, handing each game's record to `on_game` in game order as
/// the games finish (in batches of [`GAMES_PER_BATCH`], played in
/// parallel), and keeping only the running counts and sums of the report:
/// memory does not grow with the number of games. An error of `on_game`
/// ends the match with that error.
pub fn run_match_each(
    opts: &MatchOptions,
    on_game: &mut dyn FnMut(GameRecord) -> Result<()>,
) -> Result<MatchReport> {
    let start = opts.game.start();
    opts.a.check_start(&start)?;
    opts.b.check_start(&start)?;
    let pool = crate::threads::pool(opts.threads)?;
    let progress = &opts.progress;
    progress.event(&Event::Start {
        stage: &format!("{} v {}", opts.a, opts.b),
        total: Some(opts.games as u64),
    });
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let mut tally = MatchTally::default();
    let mut first = 0;
    while first < opts.games {
        let end = first.saturating_add(GAMES_PER_BATCH).min(opts.games);
        let batch: Vec<GameRecord> = pool.install(|| {
            (first..end)
                .into_par_iter()
                .map(|i| {
                    if progress.should_stop() {
                        return Err(Error::Stopped("the match stopped".into()));
                    }
                    let r = play_game(opts, i);
                    progress.advance(done.fetch_add(1, Ordering::Relaxed) + 1);
                    r
                })
                .collect::<Result<Vec<_>>>()
        })?;
        for r in batch {
            tally.add(&r);
            on_game(r)?;
        }
        first = end;
    }
    progress.event(&Event::Finish);
    Ok(tally.report(opts, start.elapsed().as_secs_f64()))
}

pub use crate::play::stats::{binomial_p_value, wilson_interval};
