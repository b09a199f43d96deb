//! Kalah's search above the tables for the oracle ([`SearchAbove`]): the
//! MTD(f) solver with table probes, reporting its bounds as it narrows them.

use std::sync::Arc;

use crate::clock::Instant;
use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::oracle::analysis::{
    banked, ends, frame, from_tables, verdict, Analysis, Known, MoveAnalysis, OnUpdate,
    SearchBudget, Source,
};
use crate::oracle::SearchAbove;
use crate::play::agents::Stop;
use crate::progress::Observer;
use crate::search::{solve, SolveOptions, TransTable};
use crate::tablebase::TableSet;

impl SearchAbove for KalahRules {
    fn search_above(
        self,
        pos: &Position,
        tables: Option<&TableSet<Self>>,
        budget: &SearchBudget,
        stop: &Stop,
        on_update: Option<&OnUpdate>,
    ) -> Option<Result<Analysis>> {
        Some(from_search_observed(
            self, pos, tables, budget, stop, on_update,
        ))
    }
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
