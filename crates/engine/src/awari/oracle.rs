//! Awari's and Oware's search above the tables for the oracle
//! ([`SearchAbove`]): the exact search with repetitions
//! ([`crate::search::awari`]); Awale, without tables, is played, not valued.

use crate::awari::position::AwariPosition;
use crate::awari::rules::{AwariGame, AwariTurn};
use crate::clock::Instant;
use crate::error::{Error, Result};
use crate::oracle::analysis::{
    banked, ends, frame, verdict, Analysis, Known, MoveAnalysis, OnUpdate, SearchBudget, Source,
};
use crate::oracle::SearchAbove;
use crate::play::agents::Stop;
use crate::search::awari::solve_awari;
use crate::search::cyclic::{CyclicOptions, Wanted};
use crate::tablebase::TableSet;

impl SearchAbove for AwariGame {
    fn search_above(
        self,
        pos: &AwariPosition,
        tables: Option<&TableSet<Self>>,
        budget: &SearchBudget,
        stop: &Stop,
        on_update: Option<&OnUpdate>,
    ) -> Option<Result<Analysis>> {
        // Awale (no tables) is played, not valued.
        self.has_tables()
            .then(|| from_awari_search_observed(self, pos, tables, budget, stop, on_update))
    }
}

/// The analysis of an Awari or Oware position above the tables by the exact
/// search ([`crate::search::awari`], the tables in `tables` probed): the
/// position and each legal move within the budget (the position gets half
/// the time, the moves share the rest); what does not finish keeps the
/// bounds it proved; as [`crate::kalah::oracle::from_search`], `stop`'s
/// deadline ends it early and its raised flag with [`Error::Stopped`].
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
