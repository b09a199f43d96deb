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
//! split evenly and add nothing to the difference (`RULES.md`, Awari rule
//! 6): the result is decided by the seeds captured, equal is a draw. Kalah
//! positions never repeat and Kalah games always end by the rules.

use crate::progress::{Event, Observer};
use crate::side::side_index;
use crate::side::Side;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;
use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::kalah::position::format_line;
use crate::play::agents::random::random_move;
use crate::play::agents::{Agent, AgentSpec, Tables};
pub use crate::play::state::GameSpec;
use crate::play::state::State;

/// Random moves of each side at the start of a match between two
/// deterministic agents, as in the published studies.
pub const DEFAULT_RANDOM_OPENING: usize = 10;

/// Significance level of the "stronger" relation.
pub const SIGNIFICANCE: f64 = 0.05;

/// Default ply cap of Awari and Oware games in a match (`RULES.md`).
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

    fn merge(&mut self, o: &TimeStats) {
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
    /// taken at the end) in Awari and Oware.
    pub stores: [u8; 2],
    /// Seeds left on the board when the game ended by repetition or at the
    /// ply cap: split evenly, so they change nothing in the result (0 when
    /// the game ended by the rules).
    pub left_on_board: u8,
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
    pub tables: Option<Tables>,
    /// Ply cap of games whose positions can repeat (Awari, Oware); Kalah
    /// games always end by the rules and ignore it.
    pub max_plies: usize,
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
    /// Games ended at the ply cap.
    pub ended_by_ply_cap: u64,
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
    opening_rng: &mut SmallRng,
) -> Result<PlayedGame> {
    let mut times = [TimeStats::default(); 2]; // A, B
    let mut played = [0usize; 2]; // South, North
    let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
    let mut pos = start;
    // Positions seen, for the repetition rule (Awari and Oware only).
    let mut seen = match pos {
        State::Awari(s) => {
            let mut seen = std::collections::HashSet::new();
            seen.insert((s.cells(), s.to_move()));
            Some(seen)
        }
        State::Kalah(..) => None,
    };
    let mut plies = 0;
    let mut reason = GameEnd::Rules;
    while !pos.is_over() {
        if seen.is_some() && plies >= max_plies {
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
        let before = pos;
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
        if let (Some(seen), State::Awari(s)) = (&mut seen, &pos) {
            if !s.is_over() && !seen.insert((s.cells(), s.to_move())) {
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
    let a_side = if game % 2 == 0 {
        Side::South
    } else {
        Side::North
    };
    let mut a = opts.a.build(rules, opts.tables.clone(), mix(gs ^ 1))?;
    let mut b = opts.b.build(rules, opts.tables.clone(), mix(gs ^ 2))?;
    let mut opening_rng = SmallRng::seed_from_u64(mix(gs ^ 3));
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
    let stores = end.scores();
    let moves = format_line(&turns);
    let a_difference = {
        let d = stores[0] as i32 - stores[1] as i32;
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
        left_on_board: end.seeds_on_board() as u8,
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

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let n = threads.unwrap_or(0);
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start {n} threads: {e}")))
}

/// Play a match; the report and one record per game, in game order.
pub fn run_match(opts: &MatchOptions) -> Result<(MatchReport, Vec<GameRecord>)> {
    let pool = pool(opts.threads)?;
    let progress = &opts.progress;
    progress.event(&Event::Start {
        stage: &format!("{} v {}", opts.a, opts.b),
        total: Some(opts.games as u64),
    });
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let records: Vec<GameRecord> = pool.install(|| {
        (0..opts.games)
            .into_par_iter()
            .map(|i| {
                let r = play_game(opts, i);
                progress.advance(done.fetch_add(1, Ordering::Relaxed) + 1);
                r
            })
            .collect::<Result<Vec<_>>>()
    })?;
    progress.event(&Event::Finish);
    let seconds = start.elapsed().as_secs_f64();
    Ok((summarize(opts, &records, seconds), records))
}

/// The report of a match from its game records.
pub fn summarize(opts: &MatchOptions, records: &[GameRecord], seconds: f64) -> MatchReport {
    let mut south = SideResults::default();
    let mut north = SideResults::default();
    let mut a_time = TimeStats::default();
    let mut b_time = TimeStats::default();
    let mut diff_sum = 0i64;
    let mut repetitions = 0;
    let mut capped = 0;
    for r in records {
        match r.end {
            GameEnd::Rules => {}
            GameEnd::Repetition => repetitions += 1,
            GameEnd::PlyCap => capped += 1,
        }
        let side = if r.a_side == Side::South {
            &mut south
        } else {
            &mut north
        };
        match r.a_difference.signum() {
            1 => side.wins += 1,
            0 => side.draws += 1,
            _ => side.losses += 1,
        }
        diff_sum += r.a_difference as i64;
        a_time.merge(&r.a_time);
        b_time.merge(&r.b_time);
    }
    let games = records.len() as u64;
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
        ended_by_repetition: repetitions,
        ended_by_ply_cap: capped,
        perfect_mode: opts.perfect_mode(),
        a_wins,
        draws,
        b_wins,
        a_as_south: south,
        a_as_north: north,
        average_difference: if games == 0 {
            0.0
        } else {
            diff_sum as f64 / games as f64
        },
        a_score,
        a_score_ci95: [lo, hi],
        p_value,
        a_stronger: p_value < SIGNIFICANCE,
        a_time: a_time.into(),
        b_time: b_time.into(),
        seconds,
    }
}

/// P(X >= floor(points)) for X binomial(n, 1/2): the one-sided p-value of
/// "A is stronger" when A scored `points` in `n` games.
pub fn binomial_p_value(n: u64, points: f64) -> f64 {
    let k = points.floor().max(0.0) as u64;
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    // Sum the upper tail in log space: ln C(n, j) - n ln 2.
    let ln2 = std::f64::consts::LN_2;
    let mut ln_pmf = -(n as f64) * ln2; // j = 0
    let mut terms = Vec::with_capacity((n - k + 1) as usize);
    for j in 0..n {
        if j >= k {
            terms.push(ln_pmf);
        }
        ln_pmf += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
    }
    terms.push(ln_pmf); // j = n
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = terms.iter().map(|t| (t - max).exp()).sum();
    (max + sum.ln()).exp().min(1.0)
}

/// Wilson score interval of a proportion: `points` successes in `n` trials
/// (draws counted as half points), `z` the normal quantile (1.96 for 95%).
pub fn wilson_interval(points: f64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = points / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Everything a tournament needs.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    /// The game.
    pub game: GameSpec,
    /// The agents (at least two).
    pub agents: Vec<AgentSpec>,
    /// Games per pairing.
    pub games: usize,
    /// The tournament seed (each pairing gets its own match seed from it).
    pub seed: u64,
    /// As in [`MatchOptions::random_opening`].
    pub random_opening: Option<usize>,
    /// Worker threads.
    pub threads: Option<usize>,
    /// Where progress goes (silent by default).
    pub progress: Observer,
    /// Endgame tables for the perfect agent.
    pub tables: Option<Tables>,
    /// As in [`MatchOptions::max_plies`].
    pub max_plies: usize,
}

/// The outcome of a tournament.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentReport {
    /// The game.
    pub game: String,
    /// The agents, in the order given.
    pub agents: Vec<String>,
    /// Games per pairing.
    pub games: usize,
    /// `score[i][j]`: agent i's score fraction against agent j (`None` on
    /// the diagonal).
    pub score: Vec<Vec<Option<f64>>>,
    /// `p_value[i][j]`: p-value of "i is stronger than j".
    pub p_value: Vec<Vec<Option<f64>>>,
    /// `stronger[i][j]`: i is significantly stronger than j.
    pub stronger: Vec<Vec<bool>>,
    /// An order of the agents (indices, strongest first) consistent with
    /// every significant result, when one exists.
    pub order: Option<Vec<usize>>,
    /// Otherwise a cycle of the "stronger" relation (each stronger than the
    /// next, the last stronger than the first).
    pub cycle: Option<Vec<usize>>,
    /// Per-move times of each agent over all its games.
    pub times: Vec<TimeReport>,
    /// Every pairing's match report.
    pub matches: Vec<MatchReport>,
}

/// Play every pairing of a tournament.
pub fn run_tournament(opts: &TournamentOptions) -> Result<TournamentReport> {
    let n = opts.agents.len();
    if n < 2 {
        return Err(Error::Unsupported(
            "a tournament needs at least two agents".into(),
        ));
    }
    let mut score = vec![vec![None; n]; n];
    let mut p = vec![vec![None; n]; n];
    let mut times = vec![TimeStats::default(); n];
    let mut matches = Vec::new();
    let mut pair = 0u64;
    for i in 0..n {
        for j in i + 1..n {
            let m = MatchOptions {
                game: opts.game,
                a: opts.agents[i].clone(),
                b: opts.agents[j].clone(),
                games: opts.games,
                seed: mix(opts.seed ^ mix(pair)),
                random_opening: opts.random_opening,
                threads: opts.threads,
                progress: opts.progress.clone(),
                tables: opts.tables.clone(),
                max_plies: opts.max_plies,
            };
            pair += 1;
            let (report, records) = run_match(&m)?;
            for r in &records {
                times[i].merge(&r.a_time);
                times[j].merge(&r.b_time);
            }
            let b_points = report.b_wins as f64 + report.draws as f64 / 2.0;
            score[i][j] = Some(report.a_score);
            score[j][i] = Some(1.0 - report.a_score);
            p[i][j] = Some(report.p_value);
            p[j][i] = Some(binomial_p_value(report.games, b_points));
            matches.push(report);
        }
    }
    let stronger: Vec<Vec<bool>> = p
        .iter()
        .map(|row| {
            row.iter()
                .map(|v| v.is_some_and(|v| v < SIGNIFICANCE))
                .collect()
        })
        .collect();
    let (order, cycle) = match order_or_cycle(&stronger) {
        Ok(o) => (Some(o), None),
        Err(c) => (None, Some(c)),
    };
    Ok(TournamentReport {
        game: opts.game.to_string(),
        agents: opts.agents.iter().map(|a| a.to_string()).collect(),
        games: opts.games,
        score,
        p_value: p,
        stronger,
        order,
        cycle,
        times: times.into_iter().map(TimeReport::from).collect(),
        matches,
    })
}

/// An order of the agents, strongest first, in which every agent comes
/// before each agent it is stronger than (`stronger[i][j]`); or, when the
/// relation has a cycle, one cycle `c` with `c[0]` stronger than `c[1]`, ...,
/// and the last stronger than `c[0]`. Among agents the relation does not
/// separate, the given order is kept.
pub fn order_or_cycle(stronger: &[Vec<bool>]) -> std::result::Result<Vec<usize>, Vec<usize>> {
    let n = stronger.len();
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<usize> = Vec::new();
    fn visit(
        v: usize,
        g: &[Vec<bool>],
        state: &mut [u8],
        post: &mut Vec<usize>,
        stack: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        state[v] = 1;
        stack.push(v);
        for w in 0..g.len() {
            if !g[v][w] {
                continue;
            }
            match state[w] {
                1 => {
                    let at = stack.iter().position(|&x| x == w).expect("on stack");
                    return Some(stack[at..].to_vec());
                }
                0 => {
                    if let Some(c) = visit(w, g, state, post, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state[v] = 2;
        post.push(v);
        None
    }
    // Visit in reverse so that the reversed post-order keeps the given order
    // among unrelated agents.
    for v in (0..n).rev() {
        if state[v] == 0 {
            if let Some(c) = visit(v, stronger, &mut state, &mut post, &mut stack) {
                return Err(c);
            }
        }
    }
    post.reverse();
    Ok(post)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_binomial_criterion() {
        // "A is stronger if it scores at least 32 of 50 (p = 0.0325)".
        let p = binomial_p_value(50, 32.0);
        assert!((p - 0.0325).abs() < 0.0005, "{p}");
        assert!(binomial_p_value(50, 31.5) > SIGNIFICANCE);
        assert!((binomial_p_value(1, 1.0) - 0.5).abs() < 1e-12);
        assert_eq!(binomial_p_value(10, 0.0), 1.0);
        assert!((binomial_p_value(10, 10.0) - 1.0 / 1024.0).abs() < 1e-12);
    }

    #[test]
    fn wilson_interval_contains_the_score() {
        let (lo, hi) = wilson_interval(32.0, 50, 1.96);
        assert!(lo < 0.64 && 0.64 < hi);
        assert!(
            (lo - 0.4995).abs() < 0.002 && (hi - 0.7604).abs() < 0.002,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_interval(0.0, 10, 1.96);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35);
    }

    #[test]
    fn order_and_cycles() {
        let t = true;
        let f = false;
        // 2 > 0 > 1.
        let g = vec![vec![f, t, f], vec![f, f, f], vec![t, f, f]];
        assert_eq!(order_or_cycle(&g), Ok(vec![2, 0, 1]));
        // Nothing significant: the given order.
        let g = vec![vec![f; 3]; 3];
        assert_eq!(order_or_cycle(&g), Ok(vec![0, 1, 2]));
        // 0 > 1 > 2 > 0.
        let g = vec![vec![f, t, f], vec![f, f, t], vec![t, f, f]];
        let c = order_or_cycle(&g).unwrap_err();
        assert_eq!(c.len(), 3);
        for k in 0..3 {
            assert!(g[c[k]][c[(k + 1) % 3]]);
        }
    }
}
