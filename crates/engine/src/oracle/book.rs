//! Answers from the opening books ([`crate::book`]): a Kalah position the
//! books hold, with every move's position held too (or ending the game),
//! is answered from them alone: exact, under a millisecond, `"source":
//! "book"` ([`from_book`]); one they hold in part is searched, and what
//! the books know narrows the search's answer ([`refine`]).

use crate::book::Books;
use crate::error::Result;
use crate::family::Rules;
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::play::state::GameSpec;

use std::sync::Arc;

use super::analysis::{
    banked, frame, unsearched, verdict, Analysis, MoveAnalysis, OnUpdate, Source,
};
use super::{parse_game, position_of, wide};

/// The analysis of `pos` from `books`, if they hold it and every move's
/// position.
pub fn from_book(books: &Books, rules: KalahRules, pos: &Position) -> Option<Analysis> {
    if pos.is_game_over(rules) {
        return None;
    }
    let value = books.value(rules, pos)?;
    let moves = crate::book::move_values(books, pos, rules)?;
    let mut a = frame(rules, pos, Source::Book);
    a.set_exact(value, value);
    for &(pit, v) in &moves {
        let mut child = *pos;
        let step = child.play(pit, rules).ok()?;
        a.moves.push(MoveAnalysis {
            pit,
            value: Some(v),
            exact: true,
            lower: v,
            upper: v,
            verdict: verdict(v, v),
            extra_turn: Some(step.extra_turn),
            captured: None,
        });
    }
    a.best_moves = moves.iter().filter(|m| m.1 == value).map(|m| m.0).collect();
    a.best_move = a.best_moves.first().copied();
    let (line, cut) = best_line(books, rules, pos);
    if !line.is_empty() {
        a.pv = Some(crate::kalah::position::format_line(&line));
        a.pv_cut = cut;
    }
    Some(a)
}

/// Narrow `a`, an analysis of `pos` from a search that did not prove every
/// value within its time, by what the books know: a move whose position a
/// book holds becomes exact; when a book holds `pos` itself, its value
/// becomes exact, no move can be worth more, and a move of that value is
/// proven best (`"source": "book"`, the moves the books do not hold keep
/// the search's bounds). A position a book still being proven holds
/// (Kalah(6,6) under `end-when-mover-empty`), or one of a book's last
/// turn (whose moves lie beyond it), is answered so. Nothing changes when
/// the books know nothing of `pos` or its moves; the answer says whether
/// they knew anything.
pub fn refine(books: &Books, rules: KalahRules, pos: &Position, a: &mut Analysis) -> bool {
    if pos.is_game_over(rules) {
        return false;
    }
    let known = crate::book::known_move_values(books, pos, rules);
    let value = books.value(rules, pos);
    let in_book = value.is_some();
    if !in_book && known.iter().all(|m| m.1.is_none()) {
        return false;
    }
    for m in &mut a.moves {
        if let Some(v) = known.iter().find(|k| k.0 == m.pit).and_then(|k| k.1) {
            (m.value, m.exact, m.lower, m.upper) = (Some(v), true, v, v);
        } else if let Some(v) = value {
            debug_assert!(m.lower <= v, "a search's bound above the book's value");
            m.upper = m.upper.min(v);
            m.lower = m.lower.min(m.upper);
            if m.lower == m.upper {
                (m.value, m.exact) = (Some(m.upper), true);
            }
        }
        m.verdict = verdict(m.lower, m.upper);
    }
    let best_known = a.moves.iter().filter_map(|m| m.value).max();
    let value = value.or_else(|| {
        a.moves
            .iter()
            .all(|m| m.exact)
            .then_some(best_known)
            .flatten()
    });
    let Some(value) = value else {
        // Only some moves known: the best of them bounds the position.
        if let Some(v) = best_known {
            a.lower = a.lower.max(v).min(a.upper);
            a.verdict = verdict(a.lower, a.upper);
        }
        return true;
    };
    a.set_exact(value, value);
    a.best_moves = a.moves_of_value(value);
    if let Some(&best) = a.best_moves.first() {
        a.best_move = Some(best);
    }
    if in_book {
        a.source = Source::Book;
        let (line, cut) = best_line(books, rules, pos);
        if !line.is_empty() {
            a.pv = Some(crate::kalah::position::format_line(&line));
            a.pv_cut = cut;
        }
    }
    true
}

/// What the books know of `pos` before any search, if they hold it or the
/// position after one of its moves: [`from_book`]'s whole answer, else
/// the position with nothing searched (every value within the seeds in
/// play of the stores' difference) narrowed by [`refine`]: the exact value
/// of a position a book still being proven holds, at once. Moves that end
/// the game alone are no book's knowledge: `None`, as for a position the
/// books know nothing of.
pub fn known_before_search(books: &Books, rules: KalahRules, pos: &Position) -> Option<Analysis> {
    if let Some(a) = from_book(books, rules, pos) {
        return Some(a);
    }
    let held = |p: &Position| !p.is_game_over(rules) && books.value(rules, p).is_some();
    let child_held = pos.legal_moves(rules).any(|pit| {
        let mut child = *pos;
        child.play(pit, rules).is_ok() && held(&child)
    });
    if !held(pos) && !child_held {
        return None;
    }
    let at_start = frame(rules, pos, Source::Search);
    let (banked, seeds) = (banked::<KalahRules>(pos), at_start.seeds_in_play as i32);
    let pits: Vec<usize> = pos.legal_moves(rules).collect();
    let extra_turn = |pit: usize| {
        let mut child = *pos;
        child.play(pit, rules).ok().map(|s| s.extra_turn)
    };
    let mut a = unsearched(&at_start, banked - seeds, banked + seeds, extra_turn, &pits);
    refine(books, rules, pos, &mut a).then_some(a)
}

/// The best line from `pos` as far as the books prove a best move of each
/// position on it (turns of moves), and whether it stops before the end
/// of the game.
fn best_line(books: &Books, rules: KalahRules, pos: &Position) -> (Vec<Vec<usize>>, bool) {
    let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
    let mut at = *pos;
    loop {
        if at.is_game_over(rules) {
            break;
        }
        let Some((pit, _)) = crate::book::best_move(books, &at, rules) else {
            if turns.last().is_some_and(Vec::is_empty) {
                turns.pop();
            }
            return (turns, true);
        };
        let before = at.to_move();
        if at.play(pit, rules).is_err() {
            break;
        }
        turns.last_mut().expect("a turn").push(pit);
        if at.to_move() != before && !at.is_game_over(rules) {
            turns.push(Vec::new());
        }
    }
    if turns.last().is_some_and(Vec::is_empty) {
        turns.pop();
    }
    (turns, false)
}

/// The Kalah rules and position of `position` of `spec` (the start when
/// `None`), if the books can hold it (a Kalah board of cells of one byte).
fn book_position(
    spec: &GameSpec,
    position: Option<&str>,
) -> Result<Option<(KalahRules, Position)>> {
    let Rules::Kalah(rules) = spec.rules else {
        return Ok(None);
    };
    if wide(spec).is_some() {
        return Ok(None);
    }
    Ok(Some((rules, position_of(rules, spec, position)?)))
}

/// The analysis of `position` of `game` (the start when `None`) from the
/// opening books compiled into the library, if they hold it and every
/// move's position (Kalah openings; `None` otherwise): exact, `"source":
/// "book"`, no table or search needed.
pub fn book_answer(game: &str, position: Option<&str>) -> Result<Option<Analysis>> {
    Ok(book_position(&parse_game(game)?, position)?
        .and_then(|(rules, pos)| from_book(Books::embedded(), rules, &pos)))
}

/// Narrow `a`, a search's analysis of `position` of `spec` that did not
/// prove everything, by what the opening books know of it and its moves
/// ([`refine`]; Kalah openings, nothing otherwise).
pub(super) fn refine_from_books(
    spec: &GameSpec,
    position: Option<&str>,
    a: &mut Analysis,
) -> Result<()> {
    if let Some((rules, pos)) = book_position(spec, position)? {
        refine(Books::embedded(), rules, &pos, a);
    }
    Ok(())
}

/// What the opening books compiled into the library know of `position`
/// of `game` (the start when `None`) without a search: their whole answer,
/// or the position's value and the moves they hold (`known_before_search`;
/// Kalah openings, `None` otherwise or when they know nothing of it).
pub fn book_known(game: &str, position: Option<&str>) -> Result<Option<Analysis>> {
    Ok(book_position(&parse_game(game)?, position)?
        .and_then(|(rules, pos)| known_before_search(Books::embedded(), rules, &pos)))
}

/// `on_update` telling what the books know besides what the search
/// proves: each analysis handed over is narrowed by [`refine`] first, and
/// what the books know before the search ([`known_before_search`]) is
/// handed over at once. `on_update` itself when the books know nothing of
/// `position` of `spec` or its moves.
pub(super) fn refining(
    spec: &GameSpec,
    position: Option<&str>,
    on_update: Option<&OnUpdate>,
) -> Result<Option<OnUpdate>> {
    let Some(on_update) = on_update else {
        return Ok(None);
    };
    let books = Books::embedded();
    let Some((rules, pos)) = book_position(spec, position)? else {
        return Ok(Some(on_update.clone()));
    };
    let Some(first) = known_before_search(books, rules, &pos) else {
        return Ok(Some(on_update.clone()));
    };
    on_update(&first);
    let inner = on_update.clone();
    Ok(Some(Arc::new(move |a: &Analysis| {
        let mut a = a.clone();
        refine(books, rules, &pos, &mut a);
        inner(&a);
    })))
}
