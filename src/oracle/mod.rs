//! The oracle: positions, values and agents' moves for any game of the
//! family, by name, as the HTTP server (`mancala serve`) answers them.
//!
//! An [`Oracle`] holds a table directory and keeps the table sets it has
//! opened, so that a look-up inside the tables costs a few memory reads.
//! Its answers are plain serialisable data ([`PositionReport`],
//! [`Analysis`], [`AgentMove`], [`GameInfo`]); `mancala query --json`
//! prints the same [`Analysis`]. Work that can take long is bounded:
//! tables are built on demand only up to [`OracleConfig::build_limit`]
//! entries, a Kalah position above the tables is searched within
//! [`OracleConfig::search`]'s time, and agents are refused budgets above
//! [`OracleConfig::agent_time`]. A Kalah game of more than 255 seeds
//! (`kalah:10:1000`) is played on two-byte cells: its positions and the
//! moves of agents that need no tables or solve, never values. The oracle
//! itself runs on the caller's thread; how many calls run at once is the
//! caller's choice.

pub mod analysis;
mod batch;

use std::any::Any;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::family::Rules;
use crate::game::{Board, Game};
use crate::tablebase::TableGame;

use crate::kalah::position::MAX_SEEDS;
use crate::kalah::rules::KalahRules;
use crate::kalah::wide::WidePosition;
use crate::play::agents::{rovaris, AgentSpec, Budget, Stop};
use crate::play::state::GameSpec;
use crate::play::state::{Playable, State};
use crate::side::Side;
use crate::tablebase::SharedTables;
use crate::tablebase::{BuildSettings, OnDemand, TableSet};
use crate::tables::index::MAX_INDEX_SEEDS;
use crate::with_rules;

pub use analysis::{Analysis, MoveAnalysis, SearchBudget, Source};

/// Limits and places of an [`Oracle`].
#[derive(Clone, Debug)]
pub struct OracleConfig {
    /// The table directory.
    pub dir: PathBuf,
    /// Time and memory for a Kalah position above the tables.
    pub search: SearchBudget,
    /// Missing tables are built on demand when they hold at most this many
    /// entries in all (0: never build).
    pub build_limit: u64,
    /// Longest time budget per move an agent may ask for.
    pub agent_time: Duration,
    /// Threads of an on-demand build (`None`: all cores).
    pub build_threads: Option<usize>,
}

/// Deepest search an agent may ask the oracle for (`minimax` one less:
/// it does not prune).
pub const MAX_AGENT_DEPTH: u32 = 12;
/// Most iterations per move an agent may ask the oracle for.
pub const MAX_AGENT_ITERATIONS: u64 = 200_000;

/// A position and what can be played from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionReport {
    /// The game as named (`kalah:6:4`, `awari:6:4`), rules included.
    pub spec: String,
    /// The game's name.
    pub game: &'static str,
    /// The rule set, for games with several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<&'static str>,
    /// Pits per side.
    pub pits: usize,
    /// The position in the game's notation, from the side to move.
    pub position: String,
    /// The side to move.
    pub to_move: Side,
    /// South's pits, from South's left (pit 0) to its store.
    pub south: Vec<u16>,
    /// North's pits, from North's left (pit 0) to its store.
    pub north: Vec<u16>,
    /// The scores `[south, north]`: stores in Kalah, seeds captured in
    /// Awari and Oware.
    pub stores: [u16; 2],
    /// Whether the game is over (the seeds left settled by the rules).
    pub game_over: bool,
    /// The legal moves of the side to move, from its left.
    pub legal_moves: Vec<usize>,
    /// How many moves of the given line were played.
    pub moves_played: usize,
}

/// An agent's move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentMove {
    /// The agent, as its spec.
    pub agent: String,
    /// The pit it plays, from the mover's left.
    #[serde(rename = "move")]
    pub pit: usize,
    /// Its own value of the move, when it has one.
    pub value: Option<f64>,
    /// What `value` means.
    pub value_kind: &'static str,
    /// The position after the move.
    pub after: PositionReport,
}

/// A game the oracle serves, for menus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    /// Its name.
    pub name: &'static str,
    /// Pits per side it plays.
    pub pits: [usize; 2],
    /// Pits per side with tables, first and last; `None` (JSON `null`)
    /// for a game without tables (Awale).
    pub table_pits: Option<[usize; 2]>,
    /// Its rule sets (empty when it has one).
    pub rules: Vec<&'static str>,
    /// Whether positions write the stores (captured totals) in brackets,
    /// `3 0 2 [5] 1 1 0 [4]`.
    pub stores_in_brackets: bool,
    /// Whether a value counts the stores already filled (Kalah, Ohvalhu),
    /// or only the seeds still to win from the board (Awari, Oware, Vai
    /// Lung Thlan; [`Analysis::final_difference`] adds the stores).
    pub value_includes_scores: bool,
}

/// Every game the registry knows, for menus.
pub fn games() -> Vec<GameInfo> {
    Rules::game_names()
        .into_iter()
        .filter_map(|name| Rules::from_name(name, None).ok())
        .map(|rules| {
            with_rules!(rules, g => {
                let (p, t) = (g.pits_range(), g.table_pits_range());
                GameInfo {
                    name: Game::name(g),
                    pits: [*p.start(), *p.end()],
                    table_pits: (!t.is_empty()).then(|| [*t.start(), *t.end()]),
                    rules: Rules::rule_names(rules.game_name()),
                    stores_in_brackets: g.stores_in_brackets(),
                    value_includes_scores: value_includes_scores(g),
                }
            })
        })
        .fold(Vec::new(), |mut out: Vec<GameInfo>, info| {
            // Aliases (awale) name a game already listed.
            if !out.iter().any(|o| o.name == info.name) {
                out.push(info);
            }
            out
        })
}

fn value_includes_scores<G: TableGame>(_g: G) -> bool {
    G::VALUE_INCLUDES_SCORES
}

type Key = (Rules, usize);

/// What the oracle knows of one game's tables at one width.
#[derive(Default)]
struct Cached {
    /// The set, opened once, for look-ups and the agents alike.
    set: Option<SharedTables>,
    /// The fewest seeds an on-demand build was refused for.
    refused: Option<usize>,
}

/// See the module documentation.
pub struct Oracle {
    config: OracleConfig,
    cache: Mutex<HashMap<Key, Cached>>,
}

impl Oracle {
    /// An oracle over the tables of `config.dir`.
    pub fn new(config: OracleConfig) -> Oracle {
        Oracle {
            config,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// Its limits.
    pub fn config(&self) -> &OracleConfig {
        &self.config
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Cached>> {
        // A panic elsewhere never leaves the map half-written.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The tables of `g` at `pits` on disk, opened once.
    fn tables<G: TableGame>(&self, g: G, pits: usize) -> Result<Arc<TableSet<G>>> {
        let key = (g.table_game(), pits);
        if let Some(set) = self.cache().get(&key).and_then(|c| c.set.clone()) {
            return set.get(g, pits);
        }
        let set = if g.table_pits_range().contains(&pits) {
            TableSet::open_available(&self.config.dir, g, pits)?
        } else {
            TableSet::empty(&self.config.dir, g, pits)?
        };
        let set = Arc::new(set);
        self.cache().entry(key).or_default().set = Some(SharedTables::new(set.clone()));
        Ok(set)
    }

    /// The tables of `g` at `pits` with `seeds`, built on demand within the
    /// limit; `None` when they are beyond it, or when no table can hold
    /// `seeds` (more than [`MAX_INDEX_SEEDS`]): the answer then comes from
    /// above the tables there are, whatever was asked before.
    fn tables_for<G: TableGame>(
        &self,
        g: G,
        pits: usize,
        seeds: usize,
    ) -> Result<Option<Arc<TableSet<G>>>> {
        let set = self.tables(g, pits)?;
        if set.max_seeds() >= seeds {
            return Ok(Some(set));
        }
        let key = (g.table_game(), pits);
        let refused = self.cache().get(&key).and_then(|c| c.refused);
        if !g.table_pits_range().contains(&pits)
            || seeds > MAX_INDEX_SEEDS
            || self.config.build_limit == 0
            || refused.is_some_and(|r| seeds >= r)
        {
            return Ok(None);
        }
        let settings = BuildSettings {
            threads: self.config.build_threads,
            ..BuildSettings::default()
        };
        let policy = OnDemand::UpTo(self.config.build_limit);
        match TableSet::open_or_build(&self.config.dir, g, pits, seeds, &policy, &settings) {
            Ok(set) => {
                let set = Arc::new(set);
                let mut cache = self.cache();
                let c = cache.entry(key).or_default();
                c.set = Some(SharedTables::new(set.clone()));
                Ok(Some(set))
            }
            Err(
                Error::BeyondTables { .. }
                | Error::MissingTable { .. }
                | Error::BuildTooLarge { .. },
            ) => {
                let mut cache = self.cache();
                let c = cache.entry(key).or_default();
                c.refused = Some(c.refused.map_or(seeds, |r| r.min(seeds)));
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The start position of `game` (`kalah:6:4`, `awari:6:4`, ...).
    pub fn start(&self, game: &str) -> Result<PositionReport> {
        self.play(game, None, "")
    }

    /// The position after `moves` (the game's notation) from `position`
    /// (the start when `None`).
    pub fn play(&self, game: &str, position: Option<&str>, moves: &str) -> Result<PositionReport> {
        let spec = parse_game(game)?;
        if let Some(rules) = wide(&spec) {
            let mut pos = wide_position(&spec, position)?;
            let played = pos.play_line(moves, rules)?.len();
            return Ok(wide_report(rules, &spec, &pos, played));
        }
        with_rules!(spec.rules, g => {
            let mut pos = position_of(g, &spec, position)?;
            let played = g.play_line(&mut pos, moves)?;
            g.settle(&mut pos);
            Ok(report(g, &spec, &pos, played))
        })
    }

    /// The analysis of `position` (the start when `None`) from the tables
    /// already open, or `None` when it needs a build or a search (see
    /// [`Oracle::query`]). Fast: a few look-ups per move.
    pub fn query_from_tables(
        &self,
        game: &str,
        position: Option<&str>,
    ) -> Result<Option<Analysis>> {
        let spec = parse_game(game)?;
        if wide(&spec).is_some() {
            return Err(no_values(&spec, position));
        }
        with_rules!(spec.rules, g => {
            let pos = position_of(g, &spec, position)?;
            let set = self.tables(g, spec.pits)?;
            if g.is_over(&pos) || seeds_of(g, &pos) <= set.max_seeds() {
                return Ok(analysis::from_tables(&set, &pos));
            }
            Ok(None)
        })
    }

    /// The analysis of `position` (the start when `None`): from the tables,
    /// built on demand within [`OracleConfig::build_limit`]; above them, in
    /// Kalah, from the solver within [`OracleConfig::search`]'s time
    /// (exact when it finishes, else proven bounds); in the other games an
    /// error saying the tables are missing; on a Kalah board of more than
    /// 255 seeds an error saying a value needs a solve.
    pub fn query(&self, game: &str, position: Option<&str>) -> Result<Analysis> {
        self.query_within(game, position, self.config.search.time)
    }

    /// [`Oracle::query`] with `time` for a search above the tables in
    /// place of [`OracleConfig::search`]'s (a board's "think longer").
    pub fn query_within(
        &self,
        game: &str,
        position: Option<&str>,
        time: Duration,
    ) -> Result<Analysis> {
        if let Some(a) = self.query_from_tables(game, position)? {
            return Ok(a);
        }
        let spec = parse_game(game)?;
        with_rules!(spec.rules, g => {
            let pos = position_of(g, &spec, position)?;
            let seeds = seeds_of(g, &pos);
            if let Some(set) = self.tables_for(g, spec.pits, seeds)? {
                if let Some(a) = analysis::from_tables(&set, &pos) {
                    return Ok(a);
                }
            }
            let budget = SearchBudget {
                time,
                ..self.config.search
            };
            self.beyond_tables(g, &spec, &pos, &budget)
        })
    }

    /// A position above the tables: the solver where the game has one.
    fn beyond_tables<G: TableGame>(
        &self,
        g: G,
        spec: &GameSpec,
        pos: &G::Position,
        budget: &SearchBudget,
    ) -> Result<Analysis> {
        let set = self.tables(g, spec.pits)?;
        if let Rules::Kalah(rules) = spec.rules {
            let kalah_set = (&set as &dyn Any).downcast_ref::<Arc<TableSet<KalahRules>>>();
            let kalah_pos = (pos as &dyn Any).downcast_ref::<crate::kalah::position::Position>();
            if let (Some(set), Some(pos)) = (kalah_set, kalah_pos) {
                let tables = (set.max_seeds() > 0).then_some(&**set);
                return analysis::from_search(rules, pos, tables, budget);
            }
        }
        Err(Error::Unsupported(format!(
            "{} {} in this position: the {} tables in {} go up to {} (building more on demand \
             is above this oracle's limit of {} entries), and {} has no search above the tables",
            seeds_of(g, pos),
            G::TABLE_SEEDS,
            g.name(),
            self.config.dir.display(),
            set.max_seeds(),
            self.config.build_limit,
            g.name()
        )))
    }

    /// The move `agent` (a spec such as `alphabeta:6`, `mcts:2000`,
    /// `perfect:500ms`) chooses in `position` (the start when `None`),
    /// seeded with `seed`. The agent's thinking ends early once `stop` is
    /// raised (by another thread: the caller's time limit has passed, its
    /// client has gone), and the answer is then [`Error::Stopped`].
    pub fn agent_move(
        &self,
        game: &str,
        position: Option<&str>,
        agent: &str,
        seed: u64,
        stop: &Stop,
    ) -> Result<AgentMove> {
        let spec = parse_game(game)?;
        let agent = self.served_agent(agent)?;
        if let Some(rules) = wide(&spec) {
            return wide_agent_move(rules, &spec, position, &agent, seed, stop);
        }
        with_rules!(spec.rules, g => self.agent_move_in(g, &spec, position, &agent, seed, stop))
    }

    /// Whether `agent` can play `game` here, before any move: the spec
    /// parses, is within this oracle's limits, suits the game and is built
    /// at its start as for a move (with the tables it needs, none built).
    /// The spec as the oracle writes it.
    pub fn check_agent_spec(&self, game: &str, agent: &str) -> Result<String> {
        let spec = parse_game(game)?;
        let agent = self.served_agent(agent)?;
        let stop = Stop::raisable();
        if let Some(rules) = wide(&spec) {
            let state = State::KalahWide(Box::new(wide_position(&spec, None)?), rules);
            agent.check_start(&state)?;
            agent.build_with_stop(spec.rules, None, 1, stop)?;
        } else {
            with_rules!(spec.rules, g => {
                let pos = g.start(spec.pits, spec.seeds)?;
                agent.check_start(&g.state(pos))?;
                let tables = if agent.uses_tables() {
                    self.agent_tables(g, spec.pits)?
                } else {
                    None
                };
                agent.build_with_stop(spec.rules, tables, 1, stop)?;
            });
        }
        Ok(agent.to_string())
    }

    /// `agent` parsed, within this oracle's limits. Parsing `weights=FILE`
    /// reads the file: a served oracle reads no file a request names, so
    /// such a spec is refused unparsed.
    fn served_agent(&self, agent: &str) -> Result<AgentSpec> {
        if agent.contains("weights=") {
            return Err(Error::Unsupported(format!(
                "agent {}: this oracle reads no weights file; use heuristic10:D, :run=N or :w=W1,...,W10",
                crate::error::clip(agent)
            )));
        }
        let agent: AgentSpec = agent.parse()?;
        self.check_agent(&agent)?;
        Ok(agent)
    }

    fn agent_move_in<G: Playable + TableGame>(
        &self,
        g: G,
        spec: &GameSpec,
        position: Option<&str>,
        agent: &AgentSpec,
        seed: u64,
        stop: &Stop,
    ) -> Result<AgentMove> {
        let mut pos = position_of(g, spec, position)?;
        if g.settle(&mut pos) {
            return Err(Error::Unsupported(format!(
                "the game is over in position \"{pos}\": there is no move to choose"
            )));
        }
        let state = g.state(pos);
        agent.check_start(&state)?;
        let tables = if agent.uses_tables() {
            self.agent_tables(g, spec.pits)?
        } else {
            None
        };
        let choice = agent
            .build_with_stop(spec.rules, tables, seed, stop.clone())?
            .choose(&state);
        if stop.is_raised() {
            // The move of an agent cut short is not its choice.
            return Err(Error::Stopped(format!("agent {agent}'s move")));
        }
        let mut after = pos;
        g.play(&mut after, choice.pit)
            .map_err(|reason| Error::IllegalMove {
                agent: agent.to_string(),
                pit: choice.pit,
                reason,
                position: pos.to_string(),
                side: pos.to_move(),
            })?;
        g.settle(&mut after);
        Ok(AgentMove {
            agent: agent.to_string(),
            pit: choice.pit,
            value: choice.value,
            value_kind: choice.value_kind,
            after: report(g, spec, &after, 1),
        })
    }

    /// The tables for the agents: the set the look-ups use, opened once;
    /// `None` when it holds no table.
    fn agent_tables<G: TableGame>(&self, g: G, pits: usize) -> Result<Option<SharedTables>> {
        let set = self.tables(g, pits)?;
        Ok((set.max_seeds() > 0).then(|| SharedTables::new(set)))
    }

    /// Refuse agents whose budget is above the oracle's limits. The match
    /// names every kind of agent, so that a new one must say its bound here.
    fn check_agent(&self, agent: &AgentSpec) -> Result<()> {
        let limit = self.config.agent_time;
        let time = |t: Duration| {
            if t > limit {
                Err(Error::Unsupported(format!(
                    "agent {agent}: {} a move is above this oracle's limit of {}",
                    crate::play::agents::format_duration(t),
                    crate::play::agents::format_duration(limit)
                )))
            } else {
                Ok(())
            }
        };
        let depth = |d: u32, max: u32, why: &str| {
            if d > max {
                Err(Error::Unsupported(format!(
                    "agent {agent}: depth {d} is above this oracle's limit of {max}{why}"
                )))
            } else {
                Ok(())
            }
        };
        let budget = |b: Budget| match b {
            Budget::Time(t) => time(t),
            Budget::Iterations(n) if n > MAX_AGENT_ITERATIONS => Err(Error::Unsupported(format!(
                "agent {agent}: {n} iterations a move is above this oracle's limit of \
                 {MAX_AGENT_ITERATIONS}"
            ))),
            Budget::Iterations(_) => Ok(()),
        };
        match *agent {
            // One look at each move: nothing to bound.
            AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::Max
            | AgentSpec::RovarisGreedy(_)
            | AgentSpec::EpsGreedy(_) => Ok(()),
            // One pass through the shipped network.
            AgentSpec::A3c(None) => Ok(()),
            // A served oracle reads no file a request names.
            AgentSpec::A3c(Some(_)) => Err(Error::Unsupported(format!(
                "agent {agent}: this oracle plays only the shipped a3c weights (spec a3c)"
            ))),
            AgentSpec::Minimax(d) => depth(d, MAX_AGENT_DEPTH - 4, " (minimax does not prune)"),
            AgentSpec::AlphaBeta(d)
            | AgentSpec::Heuristic(d)
            | AgentSpec::Heuristic10 { depth: d, .. }
            | AgentSpec::RovarisHeuristic {
                depth: d,
                h6: rovaris::H6::Store,
            } => depth(d, MAX_AGENT_DEPTH, ""),
            AgentSpec::RovarisHeuristic { depth: d, .. } => depth(
                d,
                MAX_AGENT_DEPTH - 1,
                " (its H6 looks one ply past the horizon)",
            ),
            AgentSpec::Mcts { budget: b, .. }
            | AgentSpec::StudyMcts { budget: b, .. }
            | AgentSpec::RovarisUct { budget: b, .. } => budget(b),
            AgentSpec::Perfect(t) => time(t),
        }
    }
}

/// The rules of a Kalah game of more than [`MAX_SEEDS`] seeds
/// (`kalah:10:1000`), played on two-byte cells ([`WidePosition`]): its
/// positions and the moves of agents that need no tables or solve, within
/// the oracle's limits; no values.
fn wide(spec: &GameSpec) -> Option<KalahRules> {
    match spec.rules {
        Rules::Kalah(r) if 2 * spec.pits * spec.seeds > MAX_SEEDS => Some(r),
        _ => None,
    }
}

/// Why a position of a game of more than [`MAX_SEEDS`] seeds has no value
/// here, and what can be asked instead.
fn no_values(spec: &GameSpec, position: Option<&str>) -> Error {
    let seeds = match position.map(WidePosition::parse) {
        Some(Ok(pos)) => pos.total_seeds(),
        _ => 2 * spec.pits * spec.seeds,
    };
    Error::Unsupported(format!(
        "{spec}: valuing a position of {seeds} seeds needs a solve, and the tables hold at most \
         {MAX_INDEX_SEEDS} seeds and the solver {MAX_SEEDS}; this game can be played, and agents \
         that need no tables or solve (greedy, alphabeta:D, heuristic:D, mcts:BUDGET, ...) \
         choose moves in it"
    ))
}

/// `text` as a position of the wide game `spec`, or its start.
fn wide_position(spec: &GameSpec, text: Option<&str>) -> Result<WidePosition> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return WidePosition::start(spec.pits, spec.seeds);
    };
    let pos = WidePosition::parse(text)?;
    if pos.pits_per_side() != spec.pits {
        return Err(crate::notation::bad_position(
            text,
            format!(
                "it has {} pits per side where {spec} has {}",
                pos.pits_per_side(),
                spec.pits
            ),
        ));
    }
    Ok(pos)
}

/// The move of `agent` in a position of the wide game `spec`: agents that
/// need tables or a solve are refused, saying so
/// ([`AgentSpec::check_start`]).
fn wide_agent_move(
    rules: KalahRules,
    spec: &GameSpec,
    position: Option<&str>,
    agent: &AgentSpec,
    seed: u64,
    stop: &Stop,
) -> Result<AgentMove> {
    let pos = wide_position(spec, position)?;
    if pos.is_game_over(rules) {
        return Err(Error::Unsupported(format!(
            "the game is over in position \"{pos}\": there is no move to choose"
        )));
    }
    let state = State::KalahWide(Box::new(pos), rules);
    agent.check_start(&state)?;
    let choice = agent
        .build_with_stop(spec.rules, None, seed, stop.clone())?
        .choose(&state);
    if stop.is_raised() {
        return Err(Error::Stopped(format!("agent {agent}'s move")));
    }
    let mut after = pos;
    after
        .play(choice.pit, rules)
        .map_err(|reason| Error::IllegalMove {
            agent: agent.to_string(),
            pit: choice.pit,
            reason,
            position: pos.to_string(),
            side: pos.to_move(),
        })?;
    Ok(AgentMove {
        agent: agent.to_string(),
        pit: choice.pit,
        value: choice.value,
        value_kind: choice.value_kind,
        after: wide_report(rules, spec, &after, 1),
    })
}

fn wide_report(
    rules: KalahRules,
    spec: &GameSpec,
    pos: &WidePosition,
    played: usize,
) -> PositionReport {
    let (mover, opponent) = (pos.mover_pits().to_vec(), pos.opponent_pits().to_vec());
    let (south, north) = match pos.to_move() {
        Side::South => (mover, opponent),
        Side::North => (opponent, mover),
    };
    PositionReport {
        spec: spec.to_string(),
        game: spec.rules.game_name(),
        rules: spec.rules.rules_name(),
        pits: spec.pits,
        position: pos.to_string(),
        to_move: pos.to_move(),
        south,
        north,
        stores: pos.stores_by_side(),
        game_over: pos.is_game_over(rules),
        legal_moves: pos.legal_moves(rules).collect(),
        moves_played: played,
    }
}

/// The seeds a table indexes `pos` by.
fn seeds_of<G: TableGame>(_g: G, pos: &G::Position) -> usize {
    G::table_seeds(pos)
}

/// A game named as `kalah:6:4[:RULES]`, `awari:6:4`, ...
pub fn parse_game(text: &str) -> Result<GameSpec> {
    text.parse()
}

/// `text` as a position of `spec`'s game and width, or its start.
fn position_of<G: TableGame>(g: G, spec: &GameSpec, text: Option<&str>) -> Result<G::Position> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return g.start(spec.pits, spec.seeds);
    };
    let pos = g.parse(text)?;
    if pos.pits() != spec.pits {
        return Err(crate::notation::bad_position(
            text,
            format!(
                "it has {} pits per side where {spec} has {}",
                pos.pits(),
                spec.pits
            ),
        ));
    }
    Ok(pos)
}

fn report<G: Playable + TableGame>(
    g: G,
    spec: &GameSpec,
    pos: &G::Position,
    played: usize,
) -> PositionReport {
    let state = g.state(*pos);
    let mover: Vec<u16> = state.mover_pits().iter().collect();
    let opponent: Vec<u16> = state.opponent_pits().iter().collect();
    let (south, north) = match pos.to_move() {
        Side::South => (mover, opponent),
        Side::North => (opponent, mover),
    };
    PositionReport {
        spec: spec.to_string(),
        game: g.name(),
        rules: spec.rules.rules_name(),
        pits: spec.pits,
        position: pos.to_string(),
        to_move: pos.to_move(),
        south,
        north,
        stores: pos.scores().map(u16::from),
        game_over: g.is_over(pos),
        legal_moves: g.legal_moves(pos).iter().collect(),
        moves_played: played,
    }
}
