//! What the oracle says about a position: [`Analysis`], from the tables
//! ([`from_tables`]) or, for Kalah above them, from the solver with a time
//! budget ([`from_search`]). A search can report what it has proved so far
//! as it goes ([`from_search_observed`], [`OnUpdate`]).

use crate::clock::Instant;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::game::Board;
use crate::tablebase::TableGame;

use crate::awari::position::AwariPosition;
use crate::awari::rules::{AwariGame, AwariTurn};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::play::agents::Stop;
use crate::progress::{Event, Observer};
use crate::search::awari::solve_awari;
use crate::search::cyclic::{CyclicOptions, Wanted};
use crate::search::{solve, SolveOptions, TransTable};
use crate::side::Side;
use crate::tablebase::{PvEnd, TableSet};

/// Where an analysis comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The game is over: the value is the final score difference.
    GameOver,
    /// The endgame tables: exact.
    Tables,
    /// The solver (MTD(f) with table probes), exact when every move's
    /// solve finished within the budget, else proven bounds.
    Search,
    /// An opening book ([`crate::book`]): exact, from ledger lines.
    Book,
}

/// One legal move and what is known of its value, for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveAnalysis {
    /// The pit played, from the mover's left.
    #[serde(rename = "move")]
    pub pit: usize,
    /// The exact value of the move (same convention as
    /// [`Analysis::value`]); `None` when only bounds are proven.
    pub value: Option<i32>,
    /// Whether `value` is proven.
    pub exact: bool,
    /// Proven lower bound of the value.
    pub lower: i32,
    /// Proven upper bound of the value.
    pub upper: i32,
    /// `win`, `draw` or `loss` for the side to move once proven by the
    /// bounds, else `None`.
    pub verdict: Option<&'static str>,
    /// Whether the move gives an extra turn (games with extra turns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra_turn: Option<bool>,
    /// Seeds the move captures (games that capture into a player's hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured: Option<u32>,
}

/// A valued position: the answer of `mancala query --json` and of the HTTP
/// oracle's `/api/v1/query`.
///
/// Values follow each game's published convention, for the side to move:
/// in Kalah the final store difference, stores included; in Awari and
/// Oware the seeds still to be won from the board minus the opponent's
/// (endless play counting 0), with [`Analysis::final_difference`] adding
/// the seeds already captured. Verdicts are on the final difference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The game's name (`kalah`, `awari`, `oware`).
    pub game: &'static str,
    /// The rule set, for games with several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<&'static str>,
    /// The position, in the game's notation, from the side to move.
    pub position: String,
    /// The side to move.
    pub to_move: Side,
    /// Seeds in the pits (Kalah calls them in play).
    pub seeds_in_play: usize,
    /// The same count, by the name Awari and Oware use.
    pub seeds_on_board: usize,
    /// The exact value; `None` when only bounds are proven.
    pub value: Option<i32>,
    /// Whether `value` is proven.
    pub exact: bool,
    /// Proven lower bound of the value.
    pub lower: i32,
    /// Proven upper bound of the value.
    pub upper: i32,
    /// The final score difference for the side to move, when exact.
    pub final_difference: Option<i32>,
    /// `win`, `draw` or `loss` for the side to move once proven.
    pub verdict: Option<&'static str>,
    /// Whether the game is over.
    pub game_over: bool,
    /// Every legal move, left to right.
    pub moves: Vec<MoveAnalysis>,
    /// The moves that keep the value (when exact).
    pub best_moves: Vec<usize>,
    /// The move to play: the best one when exact (in games with cycles one
    /// that makes progress), else the one with the best proven lower bound.
    pub best_move: Option<usize>,
    /// Best moves for both sides to the end, in the game's notation (when
    /// exact).
    pub pv: Option<String>,
    /// How the principal variation ends (games where positions repeat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_end: Option<PvEnd>,
    /// The principal variation stops before its end: the search's time ran
    /// out while it was read (games where positions repeat).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pv_cut: bool,
    /// Where the analysis comes from.
    pub source: Source,
}

/// `win`, `draw` or `loss` from proven bounds on a final difference.
pub fn verdict(lower: i32, upper: i32) -> Option<&'static str> {
    if lower > 0 {
        Some("win")
    } else if upper < 0 {
        Some("loss")
    } else if lower == 0 && upper == 0 {
        Some("draw")
    } else {
        None
    }
}

/// What the side to move has banked over the opponent (stores or seeds
/// captured).
fn banked<G: TableGame>(pos: &G::Position) -> i32 {
    let [south, north] = pos.scores().map(i32::from);
    match pos.to_move() {
        Side::South => south - north,
        Side::North => north - south,
    }
}

/// The shown value of a final difference `v` (see [`Analysis`]).
pub(super) fn shown<G: TableGame>(pos: &G::Position, v: i32) -> i32 {
    if G::VALUE_INCLUDES_SCORES {
        v
    } else {
        v - banked::<G>(pos)
    }
}

pub(super) fn frame<G: TableGame>(game: G, pos: &G::Position, source: Source) -> Analysis {
    let seeds = G::table_seeds(pos);
    Analysis {
        game: game.name(),
        rules: game.table_game().rules_name(),
        position: pos.to_string(),
        to_move: pos.to_move(),
        seeds_in_play: seeds,
        seeds_on_board: seeds,
        value: None,
        exact: false,
        lower: 0,
        upper: 0,
        final_difference: None,
        verdict: None,
        game_over: game.is_over(pos),
        moves: Vec::new(),
        best_moves: Vec::new(),
        best_move: None,
        pv: None,
        pv_end: None,
        pv_cut: false,
        source,
    }
}

/// The analysis of `pos` from `set`, which must hold the tables for its
/// seeds (any set does for a position whose game is over); `None` when a
/// table it needs is missing.
pub fn from_tables<G: TableGame>(set: &TableSet<G>, pos: &G::Position) -> Option<Analysis> {
    let game = set.game();
    let over = game.is_over(pos);
    let mut a = frame(
        game,
        pos,
        if over {
            Source::GameOver
        } else {
            Source::Tables
        },
    );
    let v = set.value(pos)?;
    let value = shown::<G>(pos, v);
    a.value = Some(value);
    a.exact = true;
    (a.lower, a.upper) = (value, value);
    a.final_difference = Some(v);
    a.verdict = verdict(v, v);
    a.moves = set
        .move_values(pos)?
        .into_iter()
        .map(|mv| {
            let value = shown::<G>(pos, mv.value);
            MoveAnalysis {
                pit: mv.pit,
                value: Some(value),
                exact: true,
                lower: value,
                upper: value,
                verdict: verdict(mv.value, mv.value),
                extra_turn: mv.extra_turn,
                captured: mv.captured,
            }
        })
        .collect();
    a.best_moves = a
        .moves
        .iter()
        .filter(|m| m.value == Some(value))
        .map(|m| m.pit)
        .collect();
    a.best_move = set.best_move(pos).map(|(pit, _)| pit);
    if let Some(line) = set.principal_variation(pos).filter(|l| l.plies > 0) {
        a.pv = Some(line.moves);
        if game.table_game().can_repeat() {
            a.pv_end = Some(line.end);
        }
    }
    Some(a)
}

/// How [`from_search`] searches.
#[derive(Clone, Debug)]
pub struct SearchBudget {
    /// Wall-clock time for the whole analysis, shared out between the moves.
    pub time: Duration,
    /// Transposition-table size in MiB, shared by the moves' solves.
    pub tt_mb: usize,
}

/// Receives an analysis each time a search has proved more
/// ([`from_search_observed`], [`crate::oracle::Oracle::query_observed`]):
/// called on the searching thread (or the solver's progress thread), so it
/// should be quick.
pub type OnUpdate = Arc<dyn Fn(&Analysis) + Send + Sync>;

/// What a search has proved so far, handed to an [`OnUpdate`] as it
/// narrows: the position's own bounds (its root search) and each move's.
#[derive(Clone)]
struct Known(Option<Arc<KnownInner>>);

struct KnownInner {
    on_update: OnUpdate,
    state: Mutex<KnownState>,
}

struct KnownState {
    /// The analysis as far as it is proved; moves in pit order.
    analysis: Analysis,
    /// The root search's bounds.
    root: (i32, i32),
}

impl Known {
    /// Nothing proved yet of `frame`'s position: every value within
    /// `low..=high`; `extra_turn(pit)` says whether a move gives an extra
    /// turn, when the game has them.
    fn new(
        frame: &Analysis,
        low: i32,
        high: i32,
        on_update: Option<&OnUpdate>,
        extra_turn: impl Fn(usize) -> Option<bool>,
        pits: &[usize],
    ) -> Known {
        let Some(on_update) = on_update else {
            return Known(None);
        };
        let mut analysis = frame.clone();
        analysis.moves = pits
            .iter()
            .map(|&pit| MoveAnalysis {
                pit,
                value: None,
                exact: false,
                lower: low,
                upper: high,
                verdict: verdict(low, high),
                extra_turn: extra_turn(pit),
                captured: None,
            })
            .collect();
        (analysis.lower, analysis.upper) = (low, high);
        analysis.verdict = verdict(low, high);
        Known(Some(Arc::new(KnownInner {
            on_update: on_update.clone(),
            state: Mutex::new(KnownState {
                analysis,
                root: (low, high),
            }),
        })))
    }

    /// An observer of the root's search (`child` `None`) or of a move's
    /// (its pit, and whether it gives an extra turn), narrowing what is
    /// known on each of its [`Event::Search`]s.
    fn observer(&self, child: Option<(usize, bool)>) -> Observer {
        let Some(inner) = self.0.clone() else {
            return Observer::silent();
        };
        let known = Known(Some(inner));
        Observer::new(move |e: &Event<'_>| {
            if let Event::Search { lower, upper, .. } = *e {
                match child {
                    None => known.root(lower, upper),
                    Some((pit, extra)) => known.child(pit, extra, lower, upper),
                }
            }
        })
    }

    /// The root's search has proved `lower..=upper`.
    fn root(&self, lower: i32, upper: i32) {
        self.narrow(|st| {
            st.root = (st.root.0.max(lower), st.root.1.min(upper));
        });
    }

    /// Move `pit`'s search has proved `lower..=upper` for the side to move
    /// after it (the same side after an extra turn).
    fn child(&self, pit: usize, extra_turn: bool, lower: i32, upper: i32) {
        let (lower, upper) = if extra_turn {
            (lower, upper)
        } else {
            (-upper, -lower)
        };
        self.narrow(|st| {
            if let Some(m) = st.analysis.moves.iter_mut().find(|m| m.pit == pit) {
                m.lower = m.lower.max(lower);
                m.upper = m.upper.min(upper);
            }
        });
    }

    /// Apply `change`, combine the position's bounds with its moves' (no
    /// move is worth more than the position, which is worth its best
    /// move), and hand the result over.
    fn narrow(&self, change: impl FnOnce(&mut KnownState)) {
        let Some(inner) = &self.0 else {
            return;
        };
        let a = {
            let mut st = inner.state.lock().unwrap_or_else(|e| e.into_inner());
            change(&mut st);
            let (root_lower, root_upper) = st.root;
            let a = &mut st.analysis;
            for m in &mut a.moves {
                m.upper = m.upper.min(root_upper).max(m.lower);
                m.exact = m.lower == m.upper;
                m.value = m.exact.then_some(m.lower);
                m.verdict = verdict(m.lower, m.upper);
            }
            let best_lower = a.moves.iter().map(|m| m.lower).max();
            let best_upper = a.moves.iter().map(|m| m.upper).max();
            a.lower = a.lower.max(root_lower).max(best_lower.unwrap_or(i32::MIN));
            a.upper = a.upper.min(root_upper).min(best_upper.unwrap_or(i32::MAX));
            a.upper = a.upper.max(a.lower);
            a.exact = a.lower == a.upper;
            a.value = a.exact.then_some(a.lower);
            a.verdict = verdict(a.lower, a.upper);
            a.clone()
        };
        (inner.on_update)(&a);
    }
}

/// When a search started at `start` within `budget` ends: its time, or
/// `stop`'s deadline when that comes first.
fn ends(start: Instant, budget: &SearchBudget, stop: &Stop) -> Instant {
    let own = start + budget.time;
    stop.deadline().map_or(own, |d| d.min(own))
}

/// The analysis of a Kalah position by the solver (one thread, one
/// transposition table, the tables in `tables` probed): first the position
/// itself within the budget (its value, best move and principal
/// variation), then each legal move's child with an equal share of the
/// time left, on the warm transposition table. What does not finish in
/// time keeps the bounds it proved; the position's bounds combine its own
/// with its moves'. The search ends early at `stop`'s deadline (with the
/// bounds proved by then); raising `stop`'s flag ends it at once with
/// [`Error::Stopped`].
pub fn from_search(
    rules: KalahRules,
    pos: &Position,
    tables: Option<&TableSet<KalahRules>>,
    budget: &SearchBudget,
    stop: &Stop,
) -> Result<Analysis> {
    from_search_observed(rules, pos, tables, budget, stop, None)
}

/// [`from_search`], telling `on_update` what it has proved as it goes:
/// the position's bounds about once a second while it is searched, then
/// each move's as its search narrows them and when it ends. Every
/// analysis handed over holds proven bounds only (a move not searched yet
/// has the game's widest, capped by the position's upper bound); the last
/// one is not the answer, which is returned.
pub fn from_search_observed(
    rules: KalahRules,
    pos: &Position,
    tables: Option<&TableSet<KalahRules>>,
    budget: &SearchBudget,
    stop: &Stop,
    on_update: Option<&OnUpdate>,
) -> Result<Analysis> {
    let start = Instant::now();
    let end = ends(start, budget, stop);
    let mut a = frame(rules, pos, Source::Search);
    if pos.is_game_over(rules) {
        let set = TableSet::empty(std::path::Path::new("."), rules, pos.pits_per_side())?;
        return Ok(from_tables(&set, pos).expect("a finished game needs no table"));
    }
    let tt = Arc::new(TransTable::try_with_kib(budget.tt_mb.max(1) << 10)?);
    let pits: Vec<usize> = pos.legal_moves(rules).collect();
    // What is known before any search: every final difference within the
    // seeds in play of the stores' difference.
    let (low, high) = (
        banked::<KalahRules>(pos) - a.seeds_in_play as i32,
        banked::<KalahRules>(pos) + a.seeds_in_play as i32,
    );
    let extra_turn = |pit: usize| {
        let mut child = *pos;
        child.play(pit, rules).ok().map(|s| s.extra_turn)
    };
    let known = Known::new(&a, low, high, on_update, extra_turn, &pits);
    let options = |deadline: Instant, progress: Observer| SolveOptions {
        rules,
        threads: 1,
        deadline: Some(deadline),
        shared_tt: Some(tt.clone()),
        stop: stop.flag(),
        progress,
        ..SolveOptions::default()
    };
    let stopped = || Error::Stopped("the search of this position".into());
    let root = solve(pos, tables, &options(end, known.observer(None)))?;
    known.root(root.lower, root.upper);
    // The root's best move is worth the root's value (given as for the
    // same side to move: no negation).
    if let (true, Some(best)) = (root.exact, root.best_move) {
        known.child(best, true, root.value, root.value);
    }
    for (i, &pit) in pits.iter().enumerate() {
        let mut child = *pos;
        let step = child.play(pit, rules).expect("a legal move plays");
        let left = end.saturating_duration_since(Instant::now());
        let share = left / (pits.len() - i) as u32;
        if stop.is_raised() {
            return Err(stopped());
        }
        let observer = known.observer(Some((pit, step.extra_turn)));
        let sol = solve(&child, tables, &options(Instant::now() + share, observer))?;
        // The child's value is for its side to move: the same side after
        // an extra turn, else the opponent.
        let (mut lower, mut upper) = if step.extra_turn {
            (sol.lower, sol.upper)
        } else {
            (-sol.upper, -sol.lower)
        };
        // No move is worth more than the position; the best one is worth
        // what the position is.
        upper = upper.min(root.upper);
        if root.exact && root.best_move == Some(pit) {
            (lower, upper) = (root.value, root.value);
        }
        let exact = lower == upper;
        a.moves.push(MoveAnalysis {
            pit,
            value: exact.then_some(lower),
            exact,
            lower,
            upper,
            verdict: verdict(lower, upper),
            extra_turn: Some(step.extra_turn),
            captured: None,
        });
        known.child(pit, step.extra_turn, sol.lower, sol.upper);
    }
    if stop.is_raised() {
        return Err(stopped());
    }
    let best_lower = a.moves.iter().map(|m| m.lower).max().expect("a move");
    let best_upper = a.moves.iter().map(|m| m.upper).max().expect("a move");
    a.lower = root.lower.max(best_lower);
    a.upper = root.upper.min(best_upper);
    a.exact = a.lower == a.upper;
    a.verdict = verdict(a.lower, a.upper);
    if a.exact {
        a.value = Some(a.lower);
        a.final_difference = Some(a.lower);
        a.best_moves = a
            .moves
            .iter()
            .filter(|m| m.value == Some(a.lower))
            .map(|m| m.pit)
            .collect();
    }
    // The root's own best move when it finished, else the move with the
    // best proven lower bound (leftmost among equals).
    a.best_move = if root.exact {
        root.best_move
    } else {
        a.moves
            .iter()
            .enumerate()
            .max_by_key(|(i, m)| (m.lower, std::cmp::Reverse(*i)))
            .map(|(_, m)| m.pit)
    };
    if root.exact {
        a.pv = Some(root.pv.clone()).filter(|pv| !pv.is_empty());
    }
    Ok(a)
}

/// The analysis of an Awari or Oware position above the tables by the exact
/// search ([`crate::search::awari`], the tables in `tables` probed): the
/// position and each legal move within the budget (the position gets half
/// the time, the moves share the rest); what does not finish keeps the
/// bounds it proved; as [`from_search`], `stop`'s deadline ends it early
/// and its raised flag with [`Error::Stopped`].
pub fn from_awari_search(
    game: AwariGame,
    pos: &AwariPosition,
    tables: Option<&TableSet<AwariGame>>,
    budget: &SearchBudget,
    stop: &Stop,
) -> Result<Analysis> {
    from_awari_search_observed(game, pos, tables, budget, stop, None)
}

/// [`from_awari_search`], telling `on_update` the position's proven bounds
/// after each pass of its search (the moves keep the game's widest bounds,
/// capped by the position's upper bound, until the answer).
pub fn from_awari_search_observed(
    game: AwariGame,
    pos: &AwariPosition,
    tables: Option<&TableSet<AwariGame>>,
    budget: &SearchBudget,
    stop: &Stop,
    on_update: Option<&OnUpdate>,
) -> Result<Analysis> {
    let mut a = frame(game, pos, Source::Search);
    // Values shown count the seeds still to win from the board.
    let seeds = a.seeds_on_board as i32;
    let pits: Vec<usize> = match pos.turn(game) {
        AwariTurn::Play(moves) => moves.as_slice().iter().map(|mv| mv.pit as usize).collect(),
        AwariTurn::Over { .. } => Vec::new(),
    };
    let known = Known::new(&a, -seeds, seeds, on_update, |_| None, &pits);
    let options = CyclicOptions {
        tt_mb: budget.tt_mb.max(1),
        deadline: Some(ends(Instant::now(), budget, stop)),
        stop: stop.flag(),
        progress: known.observer(None),
        ..CyclicOptions::default()
    };
    let sol = solve_awari(game, pos, tables, None, Wanted::ALL, &options)?;
    if stop.is_raised() {
        return Err(Error::Stopped("the search of this position".into()));
    }
    let b = banked::<AwariGame>(pos);
    let captured = |pit: usize| match pos.turn(game) {
        AwariTurn::Play(moves) => moves
            .find(pit)
            .map(|mv| mv.captured as u32 + mv.end_gain as u32),
        AwariTurn::Over { .. } => None,
    };
    a.moves = sol
        .moves
        .iter()
        .map(|m| {
            let exact = m.lower == m.upper;
            MoveAnalysis {
                pit: m.pit,
                value: exact.then_some(m.lower - b),
                exact,
                lower: m.lower - b,
                upper: m.upper - b,
                verdict: verdict(m.lower, m.upper),
                extra_turn: None,
                captured: captured(m.pit),
            }
        })
        .collect();
    (a.lower, a.upper) = (sol.lower - b, sol.upper - b);
    a.exact = sol.value.is_some();
    a.verdict = verdict(sol.lower, sol.upper);
    if let Some(v) = sol.value {
        a.value = Some(v - b);
        a.final_difference = Some(v);
        a.best_moves = a
            .moves
            .iter()
            .filter(|m| m.value == Some(v - b))
            .map(|m| m.pit)
            .collect();
        a.best_move = sol.best_move;
        a.pv = Some(sol.pv.clone()).filter(|pv| !pv.is_empty());
        a.pv_end = sol.pv_end;
        a.pv_cut = a.pv.is_some() && sol.pv_end.is_none();
    } else {
        a.best_move = a
            .moves
            .iter()
            .enumerate()
            .max_by_key(|(i, m)| (m.lower, std::cmp::Reverse(*i)))
            .map(|(_, m)| m.pit);
    }
    Ok(a)
}
