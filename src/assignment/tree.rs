//! Greedy, minimax and alpha-beta to a cut-off depth, logging every node as
//! the assignment's `traverse_log.txt` does.
//!
//! The tree: a node is a move, named after its pit (`B2`, `A3`), or the
//! root. Its depth is the root's 0 plus one for each change of player: a
//! move that earns an extra turn keeps the depth, so the next move of the
//! same player has the same depth. A node is a leaf when the game is over
//! after it, or when it is at the cut-off depth and passes the turn; a
//! node at the cut-off depth that earns an extra turn has children. A leaf's
//! value is the searching player's mancala minus the opponent's.
//! Children are expanded in positional order (B2, B3, ... for player 1;
//! A2, A3, ... for player 2), and of equal values the first is kept.
//!
//! A node is logged when the search reaches it (a leaf with its value, any
//! other node with its start value, `-Infinity` for a max node, `Infinity`
//! for a min node) and again each time a child returns its value. Alpha-beta
//! logs alpha and beta as they are after the update (or, at a cut-off,
//! before it), and returns as soon as the value reaches beta (max) or alpha
//! (min).

use std::io::Write;

use super::input::{board_text, pit_name, Input, RULES};
use crate::error::{Error, Result};
use crate::kalah::wide::WidePosition;

/// How the printed sample log is read where the text is silent; see
/// `docs/ASSIGNMENT.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reading {
    /// The reading that reproduces the document's sample log: the root is
    /// the decision of AIMA's figure 5.3 (logged only when a child returns,
    /// with the best value so far), and a node reached by a move of the
    /// searching player is a min node, one reached by an opponent's move a
    /// max node, extra turn or not.
    #[default]
    Sample,
    /// The textbook reading: the root is logged when the search starts, and
    /// a node belongs to the player who moves next (a move that earns an
    /// extra turn leads to a node of the same player).
    Textbook,
}

impl std::str::FromStr for Reading {
    type Err = Error;
    fn from_str(s: &str) -> Result<Reading> {
        match s {
            "sample" => Ok(Reading::Sample),
            "textbook" => Ok(Reading::Textbook),
            _ => Err(Error::Unsupported(format!(
                "unknown reading \"{}\": sample or textbook",
                crate::error::clip(s)
            ))),
        }
    }
}

/// What the program decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The board after the chosen turn (every move of it, the extra turns
    /// included), or after the end of the game it caused.
    pub next: WidePosition,
    /// The pits played, by name (`B2`, `B4`).
    pub moves: Vec<String>,
    /// The root's value (for the competition, the search's estimate).
    pub value: i32,
}

impl Decision {
    /// The text of `next_state.txt`.
    pub fn next_state(&self) -> String {
        board_text(&self.next)
    }
}

/// Larger than any evaluation: printed as `Infinity`.
const INF: i32 = 1 << 24;

fn show(v: i32) -> String {
    if v >= INF {
        "Infinity".to_string()
    } else if v <= -INF {
        "-Infinity".to_string()
    } else {
        v.to_string()
    }
}

struct Search<'a> {
    me: crate::side::Side,
    n: usize,
    cutoff: u32,
    alpha_beta: bool,
    reading: Reading,
    log: &'a mut dyn Write,
    failed: Option<std::io::Error>,
}

/// What a node's search returns: its value, and the board at the end of
/// the turn it starts (its chosen child's, through extra turns).
struct Outcome {
    value: i32,
    end: WidePosition,
    moves: Vec<String>,
}

impl Search<'_> {
    fn line(&mut self, name: &str, depth: u32, value: i32, alpha: i32, beta: i32) {
        if self.failed.is_some() {
            return;
        }
        let r = if self.alpha_beta {
            writeln!(
                self.log,
                "{name},{depth},{},{},{}",
                show(value),
                show(alpha),
                show(beta)
            )
        } else {
            writeln!(self.log, "{name},{depth},{}", show(value))
        };
        if let Err(e) = r {
            self.failed = Some(e);
        }
    }

    fn evaluate(&self, pos: &WidePosition) -> i32 {
        let [mover, opponent] = pos.stores();
        let d = mover as i32 - opponent as i32;
        if pos.to_move() == self.me {
            d
        } else {
            -d
        }
    }

    /// Search the node `name` at `depth`, whose position is `pos` (the
    /// player to move next is `pos.to_move()`); `extra` when the move into
    /// it earned an extra turn.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        name: &str,
        pos: &WidePosition,
        depth: u32,
        extra: bool,
        maximise: bool,
        mut alpha: i32,
        mut beta: i32,
    ) -> Outcome {
        let root = depth == 0;
        if pos.is_game_over(RULES) || (!root && !extra && depth >= self.cutoff) {
            let value = self.evaluate(pos);
            self.line(name, depth, value, alpha, beta);
            return Outcome {
                value,
                end: *pos,
                moves: Vec::new(),
            };
        }
        let mut value = if maximise { -INF } else { INF };
        if !root || self.reading == Reading::Textbook {
            self.line(name, depth, value, alpha, beta);
        }
        let mover = pos.to_move();
        let child_depth = if extra { depth } else { depth + 1 };
        let pits: Vec<usize> = match mover {
            crate::side::Side::South => (0..self.n).collect(),
            crate::side::Side::North => (0..self.n).rev().collect(),
        };
        let mut best: Option<Outcome> = None;
        for pit in pits {
            if pos.mover_pits()[pit] == 0 {
                continue;
            }
            let mut child = *pos;
            let mv = child.play(pit, RULES).expect("a non-empty pit is legal");
            let child_name = pit_name(mover, pit, self.n);
            let child_max = match self.reading {
                Reading::Sample => mover != self.me,
                Reading::Textbook => child.to_move() == self.me,
            };
            let out = self.node(
                &child_name,
                &child,
                child_depth,
                mv.extra_turn,
                child_max,
                alpha,
                beta,
            );
            let better = if maximise {
                out.value > value
            } else {
                out.value < value
            };
            if better {
                value = out.value;
                let mut moves = vec![child_name];
                let end = if mv.extra_turn {
                    moves.extend(out.moves);
                    out.end
                } else {
                    child
                };
                best = Some(Outcome { value, end, moves });
            }
            if self.alpha_beta {
                if maximise {
                    if value >= beta {
                        self.line(name, depth, value, alpha, beta);
                        break;
                    }
                    alpha = alpha.max(value);
                } else {
                    if value <= alpha {
                        self.line(name, depth, value, alpha, beta);
                        break;
                    }
                    beta = beta.min(value);
                }
            }
            self.line(name, depth, value, alpha, beta);
        }
        let mut out = best.expect("a node that is not over has a move");
        out.value = value;
        out
    }
}

/// Search `input`'s position to `cutoff`, with alpha-beta pruning or not,
/// writing the traverse log (header first) to `log`.
pub fn search(
    input: &Input,
    cutoff: u32,
    alpha_beta: bool,
    reading: Reading,
    log: &mut dyn Write,
) -> Result<Decision> {
    let header = if alpha_beta {
        "Node,Depth,Value,Alpha,Beta"
    } else {
        "Node,Depth,Value"
    };
    let mut s = Search {
        me: input.position.to_move(),
        n: input.position.pits_per_side(),
        cutoff,
        alpha_beta,
        reading,
        log,
        failed: None,
    };
    if let Err(e) = writeln!(s.log, "{header}") {
        s.failed = Some(e);
    }
    let out = s.node("root", &input.position, 0, false, true, -INF, INF);
    if let Some(e) = s.failed {
        return Err(Error::io("traverse_log.txt", e));
    }
    Ok(Decision {
        next: out.end,
        moves: out.moves,
        value: out.value,
    })
}
