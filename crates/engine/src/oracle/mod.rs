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

mod agents;
pub mod analysis;
mod batch;
mod book;
mod loaded;
pub mod proven;
mod work;

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
use crate::progress::Observer;
use crate::side::Side;
use crate::tablebase::SharedTables;
use crate::tablebase::{BuildSettings, OnDemand, TableSet};
use crate::tables::index::MAX_INDEX_SEEDS;
use crate::with_rules;

pub use analysis::{Analysis, MoveAnalysis, OnUpdate, SearchBudget, Source};
pub use batch::{ValueBounds, ValueSource};
pub use book::{book_answer, book_known};
use book::{refine_from_books, refining};
pub use work::{SolveReport, SolveRequest, TablePlan, PLAN_POSITIONS};

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
    /// Whether the caller's deadline ([`Stop::until`]) came while the
    /// agent was still thinking: the move is the best it had found by then
    /// (a search to a fixed depth: the deepest it completed), not the one
    /// its whole budget would give.
    pub cut_short: bool,
    /// Whether the move is proven best, and `value` (when given) the
    /// exact value of the position: the perfect agent's move from the
    /// tables or from a search that finished, or the only legal move; false
    /// for every other agent and for a perfect move whose search ran out of
    /// time (its best move so far, `value` an estimate).
    pub exact: bool,
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
    /// Those of its rule sets that have tables (all of `rules` but Vai
    /// Lung Thlan's other readings; empty when it has one rule set).
    pub table_rules: Vec<&'static str>,
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
                    table_rules: table_rules(rules.game_name()),
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

/// The rule sets of the game named `game` that have tables, when it has
/// several.
fn table_rules(game: &str) -> Vec<&'static str> {
    let names = Rules::rule_names(game);
    Rules::of_game(game)
        .into_iter()
        .zip(names)
        .filter(|&(r, _)| with_rules!(r, g => !g.table_pits_range().is_empty()))
        .map(|(_, name)| name)
        .collect()
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
///
/// Values, positions and agents' moves of any game, by name, as the HTTP
/// server and the Python package answer them:
///
/// ```
/// use std::time::Duration;
/// use mancala_solver::oracle::{Oracle, OracleConfig, SearchBudget};
/// use mancala_solver::play::agents::Stop;
///
/// let dir = tempfile::tempdir().unwrap();
/// let oracle = Oracle::new(OracleConfig {
///     dir: dir.path().to_path_buf(),
///     search: SearchBudget { time: Duration::from_secs(2), tt_mb: 16 },
///     build_limit: 1_000_000, // build missing tables of up to a million entries
///     agent_time: Duration::from_secs(1),
///     build_threads: Some(1),
/// });
/// // Kalah(3,2) from its start: the tables are built on first use.
/// let a = oracle.query("kalah:3:2", None)?;
/// assert!(a.exact);
/// let value = a.value.unwrap();
/// assert!(a.moves.iter().all(|m| m.value.is_none_or(|v| v <= value)));
///
/// // A position after a line of moves, and an agent's move there.
/// let p = oracle.play("awari:3:2", None, "0")?;
/// assert_eq!(p.moves_played, 1);
/// let m = oracle.agent_move("awari:3:2", Some(&p.position), "alphabeta:2", 7, &Stop::never())?;
/// assert!(p.legal_moves.contains(&m.pit));
///
/// assert!(oracle.query("kalah:3", None).is_err()); // a bad name, said in words
/// # Ok::<(), mancala_solver::Error>(())
/// ```
pub struct Oracle {
    config: OracleConfig,
    cache: Mutex<HashMap<Key, Cached>>,
    /// Positions proven by a search, kept for every later request.
    proven: proven::Proven,
}

impl Oracle {
    /// An oracle over the tables of `config.dir`.
    pub fn new(config: OracleConfig) -> Oracle {
        Oracle {
            config,
            cache: Mutex::new(HashMap::new()),
            proven: proven::Proven::default(),
        }
    }

    /// Its limits.
    pub fn config(&self) -> &OracleConfig {
        &self.config
    }

    /// Positions proven by a search so far and kept (at most
    /// [`proven::PROVEN_ENTRIES`]).
    pub fn proven_kept(&self) -> usize {
        self.proven.len()
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
        self.tables_for_observed(g, pits, seeds, &Observer::silent())
    }

    /// [`Oracle::tables_for`], an on-demand build reporting to `progress`
    /// (and stopping on its flag).
    fn tables_for_observed<G: TableGame>(
        &self,
        g: G,
        pits: usize,
        seeds: usize,
        progress: &Observer,
    ) -> Result<Option<Arc<TableSet<G>>>> {
        let set = self.tables(g, pits)?;
        if set.max_seeds() >= seeds {
            return Ok(Some(set));
        }
        let key = (g.table_game(), pits);
        let refused = self.cache().get(&key).and_then(|c| c.refused);
        let unlimited = crate::tables::driver::BuildLimits {
            memory_budget: u64::MAX,
            group_bytes: None,
        };
        if !g.table_pits_range().contains(&pits)
            || seeds > MAX_INDEX_SEEDS
            || self.config.build_limit == 0
            || g.build_memory(pits, seeds, &unlimited).is_err()
            || refused.is_some_and(|r| seeds >= r)
        {
            return Ok(None);
        }
        let settings = BuildSettings {
            threads: self.config.build_threads,
            progress: progress.clone(),
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

    /// The analysis of `position` (the start when `None`) from the opening
    /// books compiled into the library, if they hold it and every move's
    /// position (Kalah openings; `None` otherwise).
    pub fn query_from_book(&self, game: &str, position: Option<&str>) -> Result<Option<Analysis>> {
        book_answer(game, position)
    }

    /// What the opening books know of `position` (the start when `None`)
    /// without a search: [`Oracle::query_from_book`]'s answer, or the
    /// value of a position a book holds without all its moves (exact) and
    /// the moves it holds, the others within the seeds in play; `None`
    /// when the books know nothing of it or its moves.
    pub fn query_book_known(&self, game: &str, position: Option<&str>) -> Result<Option<Analysis>> {
        book_known(game, position)
    }

    /// The analysis of `position` (the start when `None`): from the books
    /// ([`Oracle::query_from_book`]), then the tables,
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
        self.query_until(game, position, time, &Stop::never())
    }

    /// [`Oracle::query_within`], ending early: a search above the tables
    /// at `stop`'s deadline (with the bounds proved by then), and any work
    /// once its flag is raised (an on-demand build stops before its next
    /// table, every table written whole; a search at once): the answer is
    /// then [`Error::Stopped`].
    pub fn query_until(
        &self,
        game: &str,
        position: Option<&str>,
        time: Duration,
        stop: &Stop,
    ) -> Result<Analysis> {
        self.query_observed(game, position, time, stop, None)
    }

    /// [`Oracle::query_until`], telling `on_update` what a search above the
    /// tables has proved as it goes ([`crate::kalah::oracle::from_search_observed`]):
    /// proven bounds that narrow, about once a second and after each move's
    /// search; nothing when the tables answer. The answer is returned, as
    /// by [`Oracle::query_until`]. A front end streams these to show a
    /// search at work (the server's `/api/v1/search`). What the books know
    /// ([`Oracle::query_book_known`]) comes first, at once, and narrows
    /// every update.
    pub fn query_observed(
        &self,
        game: &str,
        position: Option<&str>,
        time: Duration,
        stop: &Stop,
        on_update: Option<&OnUpdate>,
    ) -> Result<Analysis> {
        if let Some(a) = self.query_from_book(game, position)? {
            return Ok(a);
        }
        if let Some(a) = self.query_from_tables(game, position)? {
            return Ok(a);
        }
        let spec = parse_game(game)?;
        let observer = match stop.flag() {
            Some(flag) => Observer::silent().with_stop(flag),
            None => Observer::silent(),
        };
        with_rules!(spec.rules, g => {
            let pos = position_of(g, &spec, position)?;
            let seeds = seeds_of(g, &pos);
            if let Some(set) = self.tables_for_observed(g, spec.pits, seeds, &observer)? {
                if let Some(a) = analysis::from_tables(&set, &pos) {
                    return Ok(a);
                }
            }
            let key = spec.to_string();
            if let Some(a) = self.proven.get(&key, &pos.to_string()) {
                return Ok(a);
            }
            let budget = SearchBudget {
                time,
                ..self.config.search
            };
            let on_update = refining(&spec, position, on_update)?;
            let mut a = self.beyond_tables(g, &pos, &budget, stop, on_update.as_ref())?;
            if !a.exact || a.moves.iter().any(|m| !m.exact) {
                refine_from_books(&spec, position, &mut a)?;
            }
            self.proven.keep(&key, &a);
            Ok(a)
        })
    }

    /// A position above the tables: the game's search where it has one
    /// ([`SearchAbove`]).
    fn beyond_tables<G: SearchAbove>(
        &self,
        g: G,
        pos: &G::Position,
        budget: &SearchBudget,
        stop: &Stop,
        on_update: Option<&OnUpdate>,
    ) -> Result<Analysis> {
        let set = self.tables(g, pos.pits())?;
        let tables = (set.max_seeds() > 0).then_some(&*set);
        if let Some(answer) = g.search_above(pos, tables, budget, stop, on_update) {
            return answer;
        }
        let more = match self.config.build_limit {
            0 => "this oracle builds no tables on demand".to_string(),
            n => format!("building more on demand is above this oracle's limit of {n} entries"),
        };
        Err(Error::OutOfRange(format!(
            "{} {} in this position: the {} tables in {} go up to {} ({more}), and {} has no \
             search above the tables",
            seeds_of(g, pos),
            G::TABLE_SEEDS,
            g.name(),
            self.config.dir.display(),
            set.max_seeds(),
            g.name()
        )))
    }
}

/// A game's exact search above its tables, as the oracle runs it: the
/// capability of the game type (no downcast picks it). `None`: the game
/// has none, its tables are all there is.
pub trait SearchAbove: TableGame {
    /// The analysis of `pos` by the game's search within `budget`, the
    /// tables probed where given, `on_update` told what it has proved as
    /// it goes. By default none: the game answers inside its tables.
    fn search_above(
        self,
        pos: &Self::Position,
        tables: Option<&TableSet<Self>>,
        budget: &SearchBudget,
        stop: &Stop,
        on_update: Option<&OnUpdate>,
    ) -> Option<Result<Analysis>> {
        let _ = (pos, tables, budget, stop, on_update);
        None
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
    Error::OutOfRange(format!(
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
