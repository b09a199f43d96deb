//! How a valued position reads for a person, by its game's published
//! convention ([`crate::tablebase::TableGame::value_text`]): the value
//! line, one line a move, the best move. The front ends print the
//! position, its board ([`crate::game::Board::diagram`]) and the
//! principal variation around it; JSON is the oracle's, the same in every
//! game.

use std::fmt::Write;

use crate::tablebase::MoveValue;

/// A valued position, for [`crate::tablebase::TableGame::value_text`].
#[derive(Clone, Copy, Debug)]
pub struct Valued<'a> {
    /// The final score difference for the side to move, scores banked
    /// included.
    pub value: i32,
    /// Whether the game is over.
    pub over: bool,
    /// The value of each move (same convention as `value`).
    pub moves: &'a [MoveValue],
    /// The best move where the tables name one.
    pub best_move: Option<usize>,
}

/// `win`, `draw` or `loss` for a value of the side to move.
pub fn verdict(v: i32) -> &'static str {
    match v.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// The default text: final store differences, stores included, an extra
/// turn marked (Kalah, Ohvalhu).
pub fn with_stores(v: &Valued) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "value: {:+} ({} for the side to move; final store difference, stores included)",
        v.value,
        verdict(v.value)
    );
    if v.over {
        out.push_str("the game is over\n");
    }
    for mv in v.moves {
        let _ = writeln!(
            out,
            "  pit {}: {:+}{}{}",
            mv.pit,
            mv.value,
            if mv.extra_turn == Some(true) {
                "  (extra turn)"
            } else {
                ""
            },
            if mv.value == v.value { "  best" } else { "" }
        );
    }
    out
}
