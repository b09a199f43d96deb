//! What the oracle says about a position: [`Analysis`], from the tables
//! ([`from_tables`]) or, for Kalah above them, from the solver with a time
//! budget ([`from_search`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::game::Board;
use crate::tablebase::TableGame;

use crate::awari::position::AwariPosition;
use crate::awari::rules::{AwariGame, AwariTurn};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::play::agents::Stop;
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
    let start = Instant::now();
    let end = ends(start, budget, stop);
    let mut a = frame(rules, pos, Source::Search);
    if pos.is_game_over(rules) {
        let set = TableSet::empty(std::path::Path::new("."), rules, pos.pits_per_side())?;
        return Ok(from_tables(&set, pos).expect("a finished game needs no table"));
    }
    let tt = Arc::new(TransTable::try_with_kib(budget.tt_mb.max(1) << 10)?);
    let options = |deadline: Instant| SolveOptions {
        rules,
        threads: 1,
        deadline: Some(deadline),
        shared_tt: Some(tt.clone()),
        stop: stop.flag(),
        ..SolveOptions::default()
    };
    let stopped = || Error::Stopped("the search of this position".into());
    let root = solve(pos, tables, &options(end))?;
    let pits: Vec<usize> = pos.legal_moves(rules).collect();
    for (i, &pit) in pits.iter().enumerate() {
        let mut child = *pos;
        let step = child.play(pit, rules).expect("a legal move plays");
        let left = end.saturating_duration_since(Instant::now());
        let share = left / (pits.len() - i) as u32;
        if stop.is_raised() {
            return Err(stopped());
        }
        let sol = solve(&child, tables, &options(Instant::now() + share))?;
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
    let mut a = frame(game, pos, Source::Search);
    let options = CyclicOptions {
        tt_mb: budget.tt_mb.max(1),
        deadline: Some(ends(Instant::now(), budget, stop)),
        stop: stop.flag(),
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
