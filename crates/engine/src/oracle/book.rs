//! Answers from the opening books ([`crate::book`]): a Kalah position the
//! books hold, with every move's position held too (or ending the game),
//! is answered from them alone: exact, under a millisecond, `"source":
//! "book"`.

use crate::book::Books;
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;

use super::analysis::{frame, verdict, Analysis, MoveAnalysis, Source};

/// The analysis of `pos` from `books`, if they hold it and every move's
/// position.
pub fn from_book(books: &Books, rules: KalahRules, pos: &Position) -> Option<Analysis> {
    if pos.is_game_over(rules) {
        return None;
    }
    let value = books.value(rules, pos)?;
    let moves = crate::book::move_values(books, pos, rules)?;
    let mut a = frame(rules, pos, Source::Book);
    a.value = Some(value);
    a.exact = true;
    (a.lower, a.upper) = (value, value);
    a.final_difference = Some(value);
    a.verdict = verdict(value, value);
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

/// The best line from `pos` as far as the books answer every move of each
/// position on it (turns of moves), and whether it stops before the end
/// of the game.
fn best_line(books: &Books, rules: KalahRules, pos: &Position) -> (Vec<Vec<usize>>, bool) {
    let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
    let mut at = *pos;
    loop {
        if at.is_game_over(rules) {
            break;
        }
        let (Some(value), Some(moves)) = (
            books.value(rules, &at),
            crate::book::move_values(books, &at, rules),
        ) else {
            if turns.last().is_some_and(Vec::is_empty) {
                turns.pop();
            }
            return (turns, true);
        };
        let Some(&(pit, _)) = moves.iter().find(|m| m.1 == value) else {
            break;
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
