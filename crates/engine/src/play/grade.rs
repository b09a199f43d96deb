//! Grading an agent against perfect play: of the moves it chooses in its
//! own games, how many keep the position's value, and how much value the
//! others give away.
//!
//! 1. **Sampling** ([`sample`]). The agent plays games against itself and
//!    a fixed set of opponents ([`DEFAULT_OPPONENTS`]), the opponent and the
//!    agent's side taking turns game by game; every position where the agent
//!    chose a move is a decision. When both players are deterministic the
//!    first [`OPENING_MOVES`] moves of each side are random (and not
//!    graded), so that the games differ. Games are played until there are
//!    [`POOL_FACTOR`] times as many decisions as positions asked for; the
//!    positions are drawn from that pool uniformly without replacement.
//!    Everything derives from the seed: the same seed grades the same
//!    positions, whatever the number of threads.
//! 2. **Valuing** ([`loss`]). A decision's loss is the value of the best
//!    move minus the value of the move chosen, both exact: from the
//!    endgame tables within their range, from the exact search probing the
//!    tables above it (Kalah's MTD(f) solver; Awari's and Oware's search
//!    with repetitions), with a time budget per position. A position the
//!    search does not finish in its budget, or that no table covers in a
//!    game without a search, is *skipped* and counted.
//! 3. **Summing up** ([`GradeReport`]): the share of moves that keep the
//!    value (Wilson 95% interval), the mean loss (percentile-bootstrap 95%
//!    interval), how many moves lost how much, and both by game phase (the
//!    seeds still on the board).
//!
//! Values are in the game's own unit: the final score difference (Kalah:
//! the stores; Awari and Oware: the seeds captured), so a loss of 2 is two
//! seeds of final margin given away.

use crate::clock::Instant;
use std::sync::Arc;
use std::time::Duration;

use rand::seq::index::sample as sample_indices;
use rand::Rng;
use rayon::prelude::*;
use serde::Serialize;

use super::agents::perfect::{PerfectPlay, SearchLoss};
use super::agents::{Agent, AgentSpec, Choice};
use super::arena::{game_seed, mix, play_agents};
use super::state::{GameSpec, State};
use super::stats::wilson_interval;
use crate::error::Result;
use crate::game::Board;
use crate::progress::{Event, Observer};
use crate::search::TransTable;
use crate::side::Side;
use crate::tablebase::SharedTables;
use crate::tablebase::TableSet;

/// The opponents the agent's games are played against, besides itself.
pub const DEFAULT_OPPONENTS: [&str; 3] = ["random", "greedy", "alphabeta:4"];

/// Random single moves of each side at the start of a game between two
/// deterministic agents.
pub const OPENING_MOVES: usize = 2;

/// Decisions played per position asked for: positions are drawn from a
/// pool this many times larger, so that few come from the same game.
pub const POOL_FACTOR: usize = 2;

/// Most games played to collect decisions.
pub const MAX_GAMES: usize = 2000;

/// Game phases the report is broken into (equal bands of seeds on the
/// board).
pub const PHASES: usize = 6;

/// How to grade.
#[derive(Clone, Debug)]
pub struct GradeOptions {
    /// The game.
    pub game: GameSpec,
    /// Positions to grade.
    pub positions: usize,
    /// The seed every game and every draw derives from.
    pub seed: u64,
    /// The opponents besides the agent itself.
    pub opponents: Vec<AgentSpec>,
    /// The solver's time per position above the tables.
    pub search_time: Duration,
    /// Transposition table per worker thread, MiB.
    pub tt_mb: usize,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Endgame tables of the game (for the agent when it reads them, and
    /// for the values).
    pub tables: Option<SharedTables>,
    /// Only positions with at most this many seeds on the board are
    /// collected (`None`: all). Games without an exact search above their
    /// tables set it to the tables' largest seed count ([`seeds_limit`]).
    pub max_seeds: Option<usize>,
    /// Where progress goes.
    pub progress: Observer,
}

/// [`GradeOptions::max_seeds`] for a game under `rules` with `tables`:
/// the tables' range when no exact search values the positions above it.
pub fn seeds_limit(rules: crate::family::Rules, tables: Option<&SharedTables>) -> Option<usize> {
    match tables {
        Some(t) if !rules.has_exact_search() => Some(t.max_seeds()),
        _ => None,
    }
}

/// A position where the agent chose a move.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The position, the agent to move.
    pub state: State,
    /// The pit the agent played.
    pub pit: usize,
    /// The game it comes from.
    pub game: usize,
}

/// An agent that writes down every position it is asked about.
struct Recorder<'a> {
    inner: &'a mut dyn Agent,
    seen: Vec<(State, usize)>,
}

impl Agent for Recorder<'_> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn choose(&mut self, state: &State) -> Choice {
        let choice = self.inner.choose(state);
        self.seen.push((state.clone(), choice.pit));
        choice
    }
}

/// The decisions of game `game`: the agent against the opponent its number
/// gives, on the side its number gives.
fn play_one(spec: &AgentSpec, opts: &GradeOptions, game: usize) -> Result<Vec<Decision>> {
    let rules = opts.game.rules();
    let gs = game_seed(opts.seed, game as u64);
    let n = opts.opponents.len() + 1;
    let opponent = match game % n {
        0 => spec,
        i => &opts.opponents[i - 1],
    };
    let side = if (game / n).is_multiple_of(2) {
        Side::South
    } else {
        Side::North
    };
    // The caller's stop flag ends the agents' thinking at once; the
    // grading then stops (in `sample`).
    let stop = || crate::play::agents::Stop::from_flag(opts.progress.stop_flag());
    let mut agent = spec.build_with_stop(rules, opts.tables.clone(), mix(gs ^ 1), stop())?;
    let mut other = opponent.build_with_stop(rules, opts.tables.clone(), mix(gs ^ 2), stop())?;
    let mut rng = crate::rng::seeded(mix(gs ^ 3));
    let opening = if spec.is_deterministic() && opponent.is_deterministic() {
        OPENING_MOVES
    } else {
        0
    };
    let mut recorder = Recorder {
        inner: agent.as_mut(),
        seen: Vec::new(),
    };
    let start = opts.game.start();
    if std::ptr::eq(opponent, spec) {
        // Against itself: both sides' choices are the agent's.
        let mut twin = Recorder {
            inner: other.as_mut(),
            seen: Vec::new(),
        };
        play_agents(
            start,
            &mut recorder,
            &mut twin,
            side,
            opening,
            500,
            &mut rng,
        )?;
        recorder.seen.append(&mut twin.seen);
    } else {
        play_agents(
            start,
            &mut recorder,
            other.as_mut(),
            side,
            opening,
            500,
            &mut rng,
        )?;
    }
    let limit = opts.max_seeds.unwrap_or(usize::MAX);
    Ok(recorder
        .seen
        .into_iter()
        .filter(|(state, _)| state.seeds_on_board() <= limit)
        .map(|(state, pit)| Decision { state, pit, game })
        .collect())
}

/// Play the agent's games and draw `opts.positions` of its decisions (or
/// all of them when fewer are played in [`MAX_GAMES`] games); the games
/// played are returned too.
pub fn sample(spec: &AgentSpec, opts: &GradeOptions) -> Result<(Vec<Decision>, usize)> {
    spec.check_start(&opts.game.start())?;
    let pool = crate::threads::pool(opts.threads)?;
    let want = opts.positions * POOL_FACTOR;
    let mut decisions: Vec<Decision> = Vec::new();
    let mut games = 0;
    let batch = 16;
    opts.progress.event(&Event::Start {
        stage: "games",
        total: Some(want as u64),
    });
    while decisions.len() < want && games < MAX_GAMES {
        if opts.progress.should_stop() {
            return Err(crate::error::Error::Stopped("the grading stopped".into()));
        }
        let played: Vec<Result<Vec<Decision>>> = pool.install(|| {
            (games..games + batch)
                .into_par_iter()
                .map(|g| play_one(spec, opts, g))
                .collect()
        });
        if opts.progress.should_stop() {
            return Err(crate::error::Error::Stopped("the grading stopped".into()));
        }
        for d in played {
            decisions.extend(d?);
        }
        games += batch;
        opts.progress.event(&Event::Advance {
            done: decisions.len().min(want) as u64,
        });
    }
    opts.progress.event(&Event::Finish);
    let mut rng = crate::rng::seeded(mix(opts.seed ^ 0x0067_5261_6465));
    let n = opts.positions.min(decisions.len());
    let mut picked: Vec<usize> = sample_indices(&mut rng, decisions.len(), n).into_vec();
    picked.sort_unstable();
    let out = picked.into_iter().map(|i| decisions[i].clone()).collect();
    Ok((out, games))
}

/// What is known of one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Graded {
    /// Value of the best move minus value of the move chosen, and where the
    /// values come from.
    Loss(i32, ValueSource),
    /// Not valued: the solver ran out of time, or nothing covers it.
    Skipped,
}

/// Where a decision's values come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueSource {
    /// The endgame tables.
    Tables,
    /// An opening book ([`crate::book`]).
    Book,
    /// The exact search above the tables.
    Search,
}

/// The loss of `state` when `pit` is played, when `set` covers it.
fn table_loss<G: PerfectPlay>(set: &TableSet<G>, state: &State, pit: usize) -> Option<i32> {
    let pos = G::position_in(state)?;
    let values = set.move_values(&pos)?;
    let best = values.iter().map(|m| m.value).max()?;
    let chosen = values.iter().find(|m| m.pit == pit)?.value;
    Some(best - chosen)
}

/// The loss of the move `pit` in `state`: from the tables when they cover
/// it, else from the game's exact search within `time`
/// ([`PerfectPlay::search_loss`]: Kalah's solver reusing `tt`; Awari's and
/// Oware's search with a table of `tt_mb` MiB).
pub fn loss(
    state: &State,
    pit: usize,
    tables: Option<&SharedTables>,
    time: Duration,
    tt: &Arc<TransTable>,
    tt_mb: usize,
) -> Result<Graded> {
    fn typed_loss<G: PerfectPlay>(
        _: G,
        t: &SharedTables,
        state: &State,
        pit: usize,
    ) -> Option<i32> {
        table_loss(&*t.typed::<G>()?, state, pit)
    }
    fn search_loss<G: PerfectPlay>(
        game: G,
        state: &State,
        pit: usize,
        tables: Option<&SharedTables>,
        time: Duration,
        tt: &Arc<TransTable>,
        tt_mb: usize,
    ) -> Result<Graded> {
        let Some(pos) = G::position_in(state) else {
            return Ok(Graded::Skipped);
        };
        let set = tables
            .and_then(|t| t.typed::<G>())
            .filter(|t| t.pits() == pos.pits());
        Ok(
            match game.search_loss(&pos, pit, set.as_deref(), time, tt, tt_mb)? {
                SearchLoss::Book(l) => Graded::Loss(l, ValueSource::Book),
                SearchLoss::Search(l) => Graded::Loss(l, ValueSource::Search),
                SearchLoss::Unknown => Graded::Skipped,
            },
        )
    }
    let from_tables =
        tables.and_then(|t| crate::with_rules!(t.rules(), g => typed_loss(g, t, state, pit)));
    if let Some(l) = from_tables {
        return Ok(Graded::Loss(l, ValueSource::Tables));
    }
    crate::with_rules!(state.rules(), g => search_loss(g, state, pit, tables, time, tt, tt_mb))
}

/// A proportion or mean with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// How many graded moves lost exactly `loss`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LossCount {
    /// Value given away.
    pub loss: i32,
    /// Moves that gave it away.
    pub moves: usize,
}

/// The grade of one band of seeds on the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phase {
    /// Fewest seeds on the board in the band.
    pub seeds_low: usize,
    /// Most seeds on the board in the band.
    pub seeds_high: usize,
    /// Positions graded.
    pub positions: usize,
    /// Positions sampled but not valued.
    pub skipped: usize,
    /// Share of moves keeping the value (`None` when none graded).
    pub optimal_share: Option<Estimate>,
    /// Mean loss per move (`None` when none graded).
    pub mean_loss: Option<Estimate>,
}

/// The grade of an agent: `mancala grade --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradeReport {
    /// The agent's spec.
    pub agent: String,
    /// The game.
    pub game: String,
    /// The seed.
    pub seed: u64,
    /// The opponents of its games besides itself.
    pub opponents: Vec<String>,
    /// Games played to sample from.
    pub games: usize,
    /// Positions drawn.
    pub sampled: usize,
    /// Positions graded (valued exactly).
    pub positions: usize,
    /// Positions drawn but not valued (the solver's budget ran out).
    pub skipped: usize,
    /// Only positions with at most this many seeds on the board were
    /// drawn (games graded from their tables alone).
    pub max_seeds: Option<usize>,
    /// Graded positions valued from the tables.
    pub from_tables: usize,
    /// Graded positions valued by the solver.
    pub from_search: usize,
    /// The solver's time per position, milliseconds.
    pub search_ms: u64,
    /// Share of moves keeping the position's value.
    pub optimal_share: Option<Estimate>,
    /// Mean value given away per move.
    pub mean_loss: Option<Estimate>,
    /// How many moves gave away how much.
    pub losses: Vec<LossCount>,
    /// The same by bands of seeds on the board, fewest first.
    pub by_phase: Vec<Phase>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Value every decision (in parallel, one transposition table per thread).
pub fn grade_decisions(decisions: &[Decision], opts: &GradeOptions) -> Result<Vec<Graded>> {
    let pool = crate::threads::pool(opts.threads)?;
    let done = std::sync::atomic::AtomicU64::new(0);
    opts.progress.event(&Event::Start {
        stage: "positions",
        total: Some(decisions.len() as u64),
    });
    let tt_kib = opts.tt_mb.max(1) << 10;
    let graded: Vec<Result<Graded>> = pool.install(|| {
        decisions
            .par_iter()
            .map_init(
                || TransTable::try_with_kib(tt_kib).map(Arc::new),
                |tt, d| {
                    if opts.progress.should_stop() {
                        return Err(crate::error::Error::Stopped("the grading stopped".into()));
                    }
                    let tt = tt.as_ref().map_err(|e| crate::error::Error::Memory {
                        message: format!("no memory for the transposition table: {e}"),
                        kind: crate::error::MemoryUse::TranspositionTable,
                    })?;
                    let g = loss(
                        &d.state,
                        d.pit,
                        opts.tables.as_ref(),
                        opts.search_time,
                        tt,
                        opts.tt_mb,
                    );
                    let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    opts.progress.event(&Event::Advance { done: n });
                    g
                },
            )
            .collect()
    });
    opts.progress.event(&Event::Finish);
    graded.into_iter().collect()
}

/// Grade `spec`: sample, value, sum up.
pub fn grade(spec: &AgentSpec, opts: &GradeOptions) -> Result<GradeReport> {
    let t0 = Instant::now();
    let (decisions, games) = sample(spec, opts)?;
    let graded = grade_decisions(&decisions, opts)?;
    let total = opts.game.start().seeds_on_board();
    let mut report = summarize(spec, opts, &decisions, &graded, total);
    report.games = games;
    report.seconds = t0.elapsed().as_secs_f64();
    Ok(report)
}

/// The share of zeros in `losses` and their mean, with intervals.
fn estimates(losses: &[i32], seed: u64) -> (Option<Estimate>, Option<Estimate>) {
    if losses.is_empty() {
        return (None, None);
    }
    let n = losses.len();
    let zeros = losses.iter().filter(|&&l| l == 0).count();
    let (low, high) = wilson_interval(zeros as f64, n as u64, 1.96);
    let share = Estimate {
        value: zeros as f64 / n as f64,
        low,
        high,
    };
    let mean = losses.iter().map(|&l| l as f64).sum::<f64>() / n as f64;
    // Percentile bootstrap: losses are skewed (mostly 0, a long tail).
    let mut rng = crate::rng::seeded(mix(seed ^ 0xb007));
    let mut means: Vec<f64> = (0..1000)
        .map(|_| {
            let s: i64 = (0..n).map(|_| losses[rng.gen_range(0..n)] as i64).sum();
            s as f64 / n as f64
        })
        .collect();
    means.sort_by(|a, b| a.total_cmp(b));
    let mean = Estimate {
        value: mean,
        low: means[25],
        high: means[974],
    };
    (Some(share), Some(mean))
}

/// The report of graded decisions; `total` is the seeds of the game.
pub fn summarize(
    spec: &AgentSpec,
    opts: &GradeOptions,
    decisions: &[Decision],
    graded: &[Graded],
    total: usize,
) -> GradeReport {
    let losses: Vec<i32> = graded
        .iter()
        .filter_map(|g| match g {
            Graded::Loss(l, _) => Some(*l),
            Graded::Skipped => None,
        })
        .collect();
    let (optimal_share, mean_loss) = estimates(&losses, opts.seed);
    let mut counts = std::collections::BTreeMap::new();
    for &l in &losses {
        *counts.entry(l).or_insert(0) += 1;
    }
    let width = total.div_ceil(PHASES).max(1);
    let by_phase = (0..PHASES)
        .map(|p| {
            let (lo, hi) = (p * width + 1, ((p + 1) * width).min(total));
            let mut phase_losses = Vec::new();
            let mut skipped = 0;
            for (d, g) in decisions.iter().zip(graded) {
                let s = d.state.seeds_on_board();
                if s < lo || s > hi {
                    continue;
                }
                match g {
                    Graded::Loss(l, _) => phase_losses.push(*l),
                    Graded::Skipped => skipped += 1,
                }
            }
            let (optimal_share, mean_loss) = estimates(&phase_losses, opts.seed ^ p as u64);
            Phase {
                seeds_low: lo,
                seeds_high: hi,
                positions: phase_losses.len(),
                skipped,
                optimal_share,
                mean_loss,
            }
        })
        .collect();
    let source_count = |s: ValueSource| {
        graded
            .iter()
            .filter(|g| matches!(g, Graded::Loss(_, src) if *src == s))
            .count()
    };
    GradeReport {
        agent: spec.to_string(),
        game: opts.game.to_string(),
        seed: opts.seed,
        opponents: opts.opponents.iter().map(|o| o.to_string()).collect(),
        games: 0,
        sampled: decisions.len(),
        positions: losses.len(),
        skipped: graded.len() - losses.len(),
        max_seeds: opts.max_seeds,
        from_tables: source_count(ValueSource::Tables),
        from_search: source_count(ValueSource::Search),
        search_ms: opts.search_time.as_millis() as u64,
        optimal_share,
        mean_loss,
        losses: counts
            .into_iter()
            .map(|(loss, moves)| LossCount { loss, moves })
            .collect(),
        by_phase,
        seconds: 0.0,
    }
}
