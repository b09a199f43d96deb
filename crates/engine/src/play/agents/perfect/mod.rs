//! The perfect agent, `perfect[:TIME]`, for every game: exact play from the
//! endgame tables within their range, and the game's own search above it.
//!
//! Within the tables' range the agent plays a best move by the tables
//! ([`PerfectPlay::table_choice`]), so it never gives away any of the value
//! of the position; above it, the game's search ([`PerfectPlay::search_choice`]:
//! one iterative-deepening alpha-beta with table probes for any game in
//! [`generic`], with two faster paths kept because they pay, each in its
//! game's folder: Kalah's MTD(f) solver on packed boards
//! (`crate::kalah::perfect`) and Awari's exact search with repetitions,
//! then an alpha-beta on bare boards (`crate::awari::perfect`)) thinks TIME
//! per move and plays its best move so far; when the search finishes in
//! time the value is proven and the move is perfect too. Tables of another
//! board width are never used on this one.

use crate::clock::Instant;
use std::sync::Arc;
use std::time::Duration;

use super::{Agent, Choice, Stop};
use crate::error::Result;
use crate::game::Board;
use crate::play::state::{Playable, State};
use crate::progress::Observer;
use crate::search::cross_check::{CrossCheck, CrossCheckReport};
use crate::search::TransTable;
use crate::tablebase::TableGame;
use crate::tablebase::{SharedTables, TableSet};

pub mod generic;

/// The value kind of the perfect agent's move where it has no other: a
/// forced move, proven best without a value.
pub const ONLY_MOVE: &str = "the only legal move";

/// A fast FxHash-style hasher for the boards the searches key their
/// transposition tables by (a few bytes of seed counts).
#[derive(Default)]
pub(crate) struct BoardHasher(u64);

impl std::hash::Hasher for BoardHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play.
    pub pit: usize,
    /// Its value: the final score difference for the side to move (stores or captures), exact when
    /// [`SearchOutcome::exact`], else the value at the search horizon
    /// (the scores at the horizon, table values where the tables reach).
    pub value: i32,
    /// Depth (plies) of the last completed iteration.
    pub depth: u32,
    /// Whether the value is proved.
    pub exact: bool,
}

/// Iterative deepening at the root, shared by the games' searches:
/// `pass(depth, best pit of the previous depth)` searches every root move
/// to `depth` and returns the best pit, its value and whether a line was
/// cut at the horizon, or `None` when the deadline stopped it. The result
/// of the last completed depth; the deepening stops early once a pass
/// reaches no horizon (its value is then proven). The first depth must
/// always complete.
pub(crate) fn deepen(
    max_depth: u32,
    mut pass: impl FnMut(u32, Option<usize>) -> Option<(usize, i32, bool)>,
) -> SearchOutcome {
    let mut result: Option<SearchOutcome> = None;
    for depth in 1..=max_depth {
        let Some((pit, value, horizon)) = pass(depth, result.map(|r| r.pit)) else {
            break;
        };
        result = Some(SearchOutcome {
            pit,
            value,
            depth,
            exact: !horizon,
        });
        if !horizon {
            break;
        }
    }
    result.expect("depth 1 always completes")
}

/// The clock of a search that plays against a deadline, shared by the
/// games' searches: it counts the nodes entered and, once armed, looks at
/// the deadline and at `stop` every `EVERY` nodes (reading the clock costs
/// more than a node). Once it has run out it stays so.
pub(crate) struct Budget<'a> {
    deadline: Instant,
    stop: &'a Stop,
    armed: bool,
    out: bool,
    nodes: u64,
}

impl<'a> Budget<'a> {
    /// A budget until `deadline` or `stop`, not armed yet.
    pub(crate) fn new(deadline: Instant, stop: &'a Stop) -> Self {
        Budget {
            deadline,
            stop,
            armed: false,
            out: false,
            nodes: 0,
        }
    }

    /// Arms the clock or not: a deepening's first iteration must
    /// complete, so it runs unarmed.
    pub(crate) fn arm(&mut self, armed: bool) {
        self.armed = armed;
    }

    /// Counts a node; whether the search must stop.
    #[inline(always)]
    pub(crate) fn spend<const EVERY: u64>(&mut self) -> bool {
        self.nodes += 1;
        if self.armed
            && self.nodes.is_multiple_of(EVERY)
            && (Instant::now() >= self.deadline || self.stop.is_raised())
        {
            self.out = true;
        }
        self.out
    }

    /// Whether the search has run out of time (or was stopped).
    #[inline(always)]
    pub(crate) fn is_out(&self) -> bool {
        self.out
    }
}

/// What the perfect agent needs from a game beyond [`crate::game::Game`]: its search
/// above the tables, and how to read its tables for a move. Each game
/// implements it in its own folder (`src/<game>/perfect.rs` or `agents.rs`).
pub trait PerfectPlay: TableGame + Playable {
    /// What the search keeps from one move to the next (transposition
    /// tables).
    type Engine: Default + Send + std::fmt::Debug;
    /// A best move by the tables when they cover `pos` (by default the
    /// game's [`TableGame::best_move`], [`generic::table_choice`]).
    fn table_choice(self, tables: &TableSet<Self>, pos: &Self::Position) -> Option<Choice> {
        generic::table_choice(tables, pos)
    }
    /// The loss of the move `pit` in `pos` above the tables by the game's
    /// exact search within `time` (`tt`: the transposition table a solver
    /// may reuse; `tt_mb`: the size of a search's own), for `grade`:
    /// [`SearchLoss::Unknown`] by default, a game without an exact search.
    #[allow(clippy::too_many_arguments)]
    fn search_loss(
        self,
        pos: &Self::Position,
        pit: usize,
        tables: Option<&TableSet<Self>>,
        time: Duration,
        tt: &Arc<TransTable>,
        tt_mb: usize,
    ) -> Result<SearchLoss> {
        let _ = (pos, pit, tables, time, tt, tt_mb);
        Ok(SearchLoss::Unknown)
    }
    /// The game's exact search as a check of its tables (`cross_check`
    /// samples entries of one table and solves them probing only the
    /// smaller tables, on `threads` threads where the search uses more
    /// than one), or `None` for a game without an exact search (the
    /// default).
    fn exact_cross_check(self) -> Option<CrossCheckFn<Self>> {
        None
    }
    /// A move by the game's search until `deadline` (or until `stop` is
    /// raised), probing `tables`.
    fn search_choice(
        self,
        engine: &mut Self::Engine,
        tables: Option<&TableSet<Self>>,
        pos: &Self::Position,
        deadline: Instant,
        stop: &Stop,
    ) -> Choice;
}

/// A game's cross-check of a table against its exact search
/// ([`PerfectPlay::exact_cross_check`]): the table set, what to check, the
/// threads, and where progress goes.
pub type CrossCheckFn<G> =
    fn(&TableSet<G>, &CrossCheck, usize, &Observer) -> Result<CrossCheckReport>;

/// The loss of a move found by a game's exact search above the tables
/// ([`PerfectPlay::search_loss`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLoss {
    /// The value of the best move minus the move's, from an opening book.
    Book(i32),
    /// The same, proven by the search.
    Search(i32),
    /// Not proven in time, or the game has no exact search.
    Unknown,
}

/// The agent `perfect[:TIME]` for a game under `rules`, reading `tables`
/// (tables of another game or rule set are refused,
/// [`crate::Error::WrongTables`]).
pub fn build(
    rules: crate::family::Rules,
    tables: Option<SharedTables>,
    time: Duration,
    name: String,
    stop: Stop,
) -> Result<Box<dyn Agent>> {
    fn agent<G: PerfectPlay>(
        game: G,
        tables: Option<SharedTables>,
        time: Duration,
        name: String,
        stop: Stop,
    ) -> Result<Box<dyn Agent>> {
        let tables = match tables {
            None => None,
            Some(t) => Some(t.get(game, t.pits())?),
        };
        Ok(Box::new(
            PerfectAgent::new(game, tables, time, name)?.with_stop(stop),
        ))
    }
    crate::with_rules!(rules, g => agent(g, tables, time, name, stop.clone()))
}

/// The agent `perfect[:TIME]` of the game `G`.
#[derive(Debug)]
pub struct PerfectAgent<G: PerfectPlay> {
    game: G,
    tables: Option<Arc<TableSet<G>>>,
    time: Duration,
    name: String,
    engine: G::Engine,
    stop: Stop,
}

impl<G: PerfectPlay> PerfectAgent<G> {
    /// A perfect agent for `game` reading `tables` and thinking `time` per
    /// move above them. Tables built under other rules are refused
    /// ([`crate::Error::WrongTables`]).
    pub fn new(
        game: G,
        tables: Option<Arc<TableSet<G>>>,
        time: Duration,
        name: String,
    ) -> Result<PerfectAgent<G>> {
        if let Some(t) = &tables {
            t.check(game, t.pits())?;
        }
        Ok(PerfectAgent {
            game,
            tables: tables.filter(|t| t.max_seeds() > 0),
            time,
            name,
            engine: G::Engine::default(),
            stop: Stop::never(),
        })
    }

    /// The same agent, ending its search early once `stop` is raised.
    pub fn with_stop(mut self, stop: Stop) -> PerfectAgent<G> {
        self.stop = stop;
        self
    }

    /// The largest number of seeds the agent reads from tables for `pits`
    /// pits per side (0 when none are loaded).
    pub fn table_seeds(&self, pits: usize) -> usize {
        match &self.tables {
            Some(t) if t.pits() == pits => t.max_seeds(),
            _ => 0,
        }
    }
}

impl<G: PerfectPlay> Agent for PerfectAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &State) -> Choice {
        let Some(pos) = G::position_in(state) else {
            panic!(
                "the {} perfect agent was asked to play {state:?}",
                self.game
            );
        };
        let start = Instant::now();
        let tables = self.tables.as_deref().filter(|t| t.pits() == pos.pits());
        if let Some(choice) = tables.and_then(|t| self.game.table_choice(t, &pos)) {
            return choice;
        }
        let moves = self.game.legal_moves(&pos);
        assert!(!moves.is_empty(), "asked for a move in a finished game");
        if moves.len() == 1 {
            return Choice {
                pit: moves.pit(0),
                value: None,
                value_kind: ONLY_MOVE,
            };
        }
        // Its own time, or the stop's deadline when that comes first.
        let deadline = (start + self.time).min(self.stop.deadline().unwrap_or(start + self.time));
        self.game
            .search_choice(&mut self.engine, tables, &pos, deadline, &self.stop)
    }
}
