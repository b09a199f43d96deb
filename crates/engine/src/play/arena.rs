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

use crate::rng::SeededRng;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::kalah::position::format_line;
use crate::play::agents::random::random_move;
use crate::play::agents::{Agent, AgentSpec};
use crate::play::report::{
    GameEnd, GameRecord, MatchReport, RepetitionScore, SideResults, TimeStats,
};
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

pub use crate::play::stats::{binomial_p_value, wilson_interval};
