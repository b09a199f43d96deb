//! What the oracle says about a position: [`Analysis`], from the tables
//! ([`from_tables`]) or, above them, from the game's search with a time
//! budget (each game's [`crate::oracle::SearchAbove`], in its folder:
//! `crate::kalah::oracle`, `crate::awari::oracle`). A search can report what
//! it has proved so far as it goes ([`OnUpdate`], through `Known`).

use crate::clock::Instant;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;

use crate::game::Board;
use crate::tablebase::TableGame;

use crate::play::agents::Stop;
use crate::progress::{Event, Observer};
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

impl Analysis {
    /// Make the value exact: `value` in the game's convention, `last` the
    /// final score difference it stands for (the verdict's basis).
    pub(crate) fn set_exact(&mut self, value: i32, last: i32) {
        self.value = Some(value);
        self.exact = true;
        (self.lower, self.upper) = (value, value);
        self.final_difference = Some(last);
        self.verdict = verdict(last, last);
    }

    /// The moves whose exact value is `value`.
    pub(crate) fn moves_of_value(&self, value: i32) -> Vec<usize> {
        self.moves
            .iter()
            .filter(|m| m.value == Some(value))
            .map(|m| m.pit)
            .collect()
    }
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
pub(crate) fn banked<G: TableGame>(pos: &G::Position) -> i32 {
    let [south, north] = pos.scores().map(i32::from);
    match pos.to_move() {
        Side::South => south - north,
        Side::North => north - south,
    }
}

/// The shown value of a final difference `v` (see [`Analysis`]).
pub(crate) fn shown<G: TableGame>(pos: &G::Position, v: i32) -> i32 {
    if G::VALUE_INCLUDES_SCORES {
        v
    } else {
        v - banked::<G>(pos)
    }
}

pub(crate) fn frame<G: TableGame>(game: G, pos: &G::Position, source: Source) -> Analysis {
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
    a.set_exact(value, v);
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
    a.best_moves = a.moves_of_value(value);
    a.best_move = set.best_move(pos).map(|(pit, _)| pit);
    if let Some(line) = set.principal_variation(pos).filter(|l| l.plies > 0) {
        a.pv = Some(line.moves);
        if game.table_game().can_repeat() {
            a.pv_end = Some(line.end);
        }
    }
    Some(a)
}

/// How a search above the tables searches (Kalah's
/// [`crate::kalah::oracle::from_search`], Awari's
/// [`crate::awari::oracle::from_awari_search`]).
#[derive(Clone, Debug)]
pub struct SearchBudget {
    /// Wall-clock time for the whole analysis, shared out between the moves.
    pub time: Duration,
    /// Transposition-table size in MiB, shared by the moves' solves.
    pub tt_mb: usize,
}

/// Receives an analysis each time a search has proved more
/// ([`crate::kalah::oracle::from_search_observed`],
/// [`crate::oracle::Oracle::query_observed`]):
/// called on the searching thread (or the solver's progress thread), so it
/// should be quick.
pub type OnUpdate = Arc<dyn Fn(&Analysis) + Send + Sync>;

/// What a search has proved so far, handed to an [`OnUpdate`] as it
/// narrows: the position's own bounds (its root search) and each move's.
#[derive(Clone)]
pub(crate) struct Known(Option<Arc<KnownInner>>);

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
    pub(crate) fn new(
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
        let analysis = unsearched(frame, low, high, extra_turn, pits);
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
    pub(crate) fn observer(&self, child: Option<(usize, bool)>) -> Observer {
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
    pub(crate) fn root(&self, lower: i32, upper: i32) {
        self.narrow(|st| {
            st.root = (st.root.0.max(lower), st.root.1.min(upper));
        });
    }

    /// Move `pit`'s search has proved `lower..=upper` for the side to move
    /// after it (the same side after an extra turn).
    pub(crate) fn child(&self, pit: usize, extra_turn: bool, lower: i32, upper: i32) {
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

/// `frame`'s position before any search: it and its moves `pits` worth
/// `low..=high`; `extra_turn(pit)` says whether a move gives an extra
/// turn, when the game has them.
pub(crate) fn unsearched(
    frame: &Analysis,
    low: i32,
    high: i32,
    extra_turn: impl Fn(usize) -> Option<bool>,
    pits: &[usize],
) -> Analysis {
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
    analysis
}

/// When a search started at `start` within `budget` ends: its time, or
/// `stop`'s deadline when that comes first.
pub(crate) fn ends(start: Instant, budget: &SearchBudget, stop: &Stop) -> Instant {
    let own = start + budget.time;
    stop.deadline().map_or(own, |d| d.min(own))
}
