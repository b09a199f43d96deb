//! The perfect agent's engine in the games played on Kalah's board through
//! [`Game`] alone (Ohvalhu, Vai Lung Thlan): the tables within their range,
//! an iterative-deepening alpha-beta (negamax) with table probes above it.
//!
//! Values are final score differences for the side to move (stores in
//! Ohvalhu, captures in Vai Lung Thlan), the scores already banked
//! included. A node the tables cover is exact; at the horizon a position
//! counts its score difference as it stands (the seeds on the board count
//! for nobody). Extra turns (and, in Vai Lung Thlan, a pass of the
//! opponent) keep the sign. When no line reaches the horizon the value is
//! proven and the search stops early; in Vai Lung Thlan a position from
//! which play can cycle never proves, so the agent then uses its budget.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::time::Instant;

use super::{deepen, BoardHasher, PerfectPlay};
use crate::tablebase::TableGame;

use crate::kalah::position::Position;
use crate::ohvalhu::Ohvalhu;
use crate::play::agents::{Choice, Stop};
use crate::play::state::State;
use crate::tablebase::TableSet;
use crate::vai_lung_thlan::VaiLungThlan;

/// Most transposition-table entries kept during one search (then it is
/// cleared).
const TT_LIMIT: usize = 1 << 20;

/// Deepest iteration of the search.
const MAX_SEARCH_DEPTH: u32 = 200;

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Remaining depth the bounds hold for (`u32::MAX` when proved).
    depth: u32,
    lower: i32,
    upper: i32,
    best: u8,
}

type Tt = HashMap<Position, Entry, BuildHasherDefault<BoardHasher>>;

/// What the search keeps from one move to the next: bounds on position
/// values.
#[derive(Default)]
pub struct FamilyEngine {
    tt: Tt,
}

impl std::fmt::Debug for FamilyEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FamilyEngine({} entries)", self.tt.len())
    }
}

/// The score difference of `pos` for its side to move, the game settled.
fn settled_difference<G: TableGame<Position = Position>>(g: G, pos: &Position) -> i32 {
    let mut p = *pos;
    g.settle(&mut p);
    p.mover_store() as i32 - p.opponent_store() as i32
}

struct Searcher<'a, G: TableGame<Position = Position>> {
    game: G,
    tables: Option<&'a TableSet<G>>,
    tt: &'a mut Tt,
    deadline: Instant,
    stop: &'a Stop,
    can_abort: bool,
    aborted: bool,
    horizon: bool,
    nodes: u64,
}

impl<G: TableGame<Position = Position>> Searcher<'_, G> {
    /// The value of `pos` for its mover, searched `depth` plies.
    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.can_abort
            && self.nodes.is_multiple_of(1024)
            && (Instant::now() >= self.deadline || self.stop.is_raised())
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if self.game.is_over(pos) {
            return settled_difference(self.game, pos);
        }
        if let Some(t) = self.tables {
            if G::table_seeds(pos) <= t.max_seeds() {
                if let Some(v) = G::table_value(t, pos) {
                    return v;
                }
            }
        }
        if depth == 0 {
            self.horizon = true;
            return pos.mover_store() as i32 - pos.opponent_store() as i32;
        }
        let mut first = None;
        if let Some(e) = self.tt.get(pos) {
            if e.depth >= depth {
                if e.lower == e.upper || e.lower >= beta {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
            }
            first = Some(e.best as usize);
        }
        let moves = self.game.legal_moves(pos);
        let order = first
            .into_iter()
            .filter(|p| moves.iter().any(|q| q == *p))
            .chain(moves.iter().filter(|&q| Some(q) != first));
        let (alpha0, horizon0) = (alpha, self.horizon);
        self.horizon = false;
        let mut best = (i32::MIN, 0);
        for pit in order {
            let mut child = *pos;
            let step = self.game.play(&mut child, pit).expect("legal move");
            let v = if step.extra_turn || step.game_over {
                self.negamax(&child, depth - 1, alpha, beta)
            } else {
                -self.negamax(&child, depth - 1, -beta, -alpha)
            };
            if self.aborted {
                return 0;
            }
            if v > best.0 {
                best = (v, pit);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let proved = !self.horizon;
        self.horizon |= horizon0;
        if self.tt.len() >= TT_LIMIT {
            self.tt.clear();
        }
        let (lower, upper) = if best.0 <= alpha0 {
            (i32::MIN, best.0)
        } else if best.0 >= beta {
            (best.0, i32::MAX)
        } else {
            (best.0, best.0)
        };
        self.tt.insert(
            *pos,
            Entry {
                depth: if proved { u32::MAX } else { depth },
                lower,
                upper,
                best: best.1 as u8,
            },
        );
        best.0
    }
}

fn search<G: TableGame<Position = Position>>(
    game: G,
    engine: &mut FamilyEngine,
    tables: Option<&TableSet<G>>,
    pos: &Position,
    deadline: Instant,
    stop: &Stop,
) -> Choice {
    let mut searcher = Searcher {
        game,
        tables,
        tt: &mut engine.tt,
        deadline,
        stop,
        can_abort: false,
        aborted: false,
        horizon: false,
        nodes: 0,
    };
    let moves = game.legal_moves(pos);
    let out = deepen(MAX_SEARCH_DEPTH, |depth, prev| {
        searcher.horizon = false;
        let order = prev
            .into_iter()
            .chain(moves.iter().filter(|&q| Some(q) != prev));
        let mut best: Option<(usize, i32)> = None;
        for pit in order {
            let mut child = *pos;
            let step = game.play(&mut child, pit).expect("legal move");
            let alpha = best.map_or(-1000, |b| b.1);
            let v = if step.extra_turn || step.game_over {
                searcher.negamax(&child, depth - 1, alpha, 1000)
            } else {
                -searcher.negamax(&child, depth - 1, -1000, -alpha)
            };
            if searcher.aborted {
                return None;
            }
            if best.is_none_or(|b| v > b.1) {
                best = Some((pit, v));
            }
        }
        searcher.can_abort = true;
        let (pit, value) = best.expect("a legal move");
        Some((pit, value, searcher.horizon))
    });
    Choice {
        pit: out.pit,
        value: Some(out.value as f64),
        value_kind: match (out.exact, tables.is_some()) {
            (true, true) => "exact final score difference (search with table probes)",
            (true, false) => "exact final score difference (search; no tables)",
            (false, true) => "final score difference estimated by search with table probes",
            (false, false) => "final score difference estimated by search (no tables)",
        },
    }
}

macro_rules! perfect_play {
    ($game:ty, $variant:ident) => {
        impl PerfectPlay for $game {
            type Engine = FamilyEngine;

            fn position(state: &State) -> Option<Position> {
                match state {
                    State::$variant(p) => Some(*p),
                    _ => None,
                }
            }

            fn table_choice(self, tables: &TableSet<Self>, pos: &Position) -> Option<Choice> {
                if <$game as TableGame>::table_seeds(pos) > tables.max_seeds() {
                    return None;
                }
                let (pit, value) = <$game as TableGame>::best_move(tables, pos)?;
                Some(Choice {
                    pit,
                    value: Some(value as f64),
                    value_kind: "exact final score difference (tables)",
                })
            }

            fn search_choice(
                self,
                engine: &mut FamilyEngine,
                tables: Option<&TableSet<Self>>,
                pos: &Position,
                deadline: Instant,
                stop: &Stop,
            ) -> Choice {
                search(self, engine, tables, pos, deadline, stop)
            }
        }
    };
}

perfect_play!(Ohvalhu, Ohvalhu);
perfect_play!(VaiLungThlan, VaiLungThlan);
