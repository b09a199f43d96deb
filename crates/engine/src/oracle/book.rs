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

use super::analysis::{frame, verdict, Analysis, MoveAnalysis, Source};
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
/// (Kalah(6,6) under `capture-needs-opposite`), or one of a book's last
/// turn (whose moves lie beyond it), is answered so. Nothing changes when
/// the books know nothing of `pos` or its moves.
pub fn refine(books: &Books, rules: KalahRules, pos: &Position, a: &mut Analysis) {
    if pos.is_game_over(rules) {
        return;
    }
    let known = crate::book::known_move_values(books, pos, rules);
    let value = books.value(rules, pos);
    let in_book = value.is_some();
    if !in_book && known.iter().all(|m| m.1.is_none()) {
        return;
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
        return;
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

/// The analysis of `position` of `game` (the start when `None`) from the
/// opening books compiled into the library, if they hold it and every
/// move's position (Kalah openings; `None` otherwise): exact, `"source":
/// "book"`, no table or search needed.
pub fn book_answer(game: &str, position: Option<&str>) -> Result<Option<Analysis>> {
    let spec = parse_game(game)?;
    let Rules::Kalah(rules) = spec.rules else {
        return Ok(None);
    };
    if wide(&spec).is_some() {
        return Ok(None);
    }
    let pos = position_of(rules, &spec, position)?;
    Ok(from_book(crate::book::Books::embedded(), rules, &pos))
}

/// Narrow `a`, a search's analysis of `position` of `spec` that did not
/// prove everything, by what the opening books know of it and its moves
/// ([`refine`]; Kalah openings, nothing otherwise).
pub(super) fn refine_from_books(
    spec: &GameSpec,
    position: Option<&str>,
    a: &mut Analysis,
) -> Result<()> {
    let Rules::Kalah(rules) = spec.rules else {
        return Ok(());
    };
    if wide(spec).is_some() {
        return Ok(());
    }
    let pos = position_of(rules, spec, position)?;
    refine(crate::book::Books::embedded(), rules, &pos, a);
    Ok(())
}
