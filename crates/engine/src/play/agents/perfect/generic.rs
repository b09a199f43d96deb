//! The perfect agent's search for any game, through [`Game`] and
//! [`TableGame`] alone: the tables within their range, an
//! iterative-deepening alpha-beta (negamax) with table probes above it.
//! Ohvalhu and Vai Lung Thlan play with it, and so does a newly registered
//! game; Kalah keeps its own searches (`crate::kalah::perfect`: the MTD(f) solver
//! up to 6 pits, an alpha-beta with capture-first ordering and seed-count
//! bounds on wider boards) and Awari its search on bare boards
//! (`crate::awari::perfect`), because they pay: 17-33x, 3.2-4.3x and 22 proofs against 0
//! on the positions of `faster_paths_pay` (tests/perfect_paths.rs).
//!
//! Values are final score differences for the side to move, the scores
//! already banked included (stores or captures, [`Board::scores`]). A node
//! the tables cover is exact; at the horizon a position counts its score
//! difference as it stands (the seeds on the board count for nobody). A
//! child whose mover is the same side (an extra turn, a pass of the
//! opponent) keeps the sign; the others flip it. When no line reaches the
//! horizon the value is proven and the search stops early; in a game
//! whose positions can repeat, a position from which play can cycle never
//! proves, so the agent then uses its budget.

use crate::clock::Instant;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::{deepen, BoardHasher, Budget, SearchOutcome};
use crate::game::{Board, Game};
use crate::play::agents::{Choice, Stop};
use crate::side::Side;
use crate::tablebase::{TableGame, TableSet};

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

type Tt<P> = HashMap<P, Entry, BuildHasherDefault<BoardHasher>>;

/// What the search keeps from one move to the next: bounds on position
/// values.
pub struct Engine<G: Game> {
    tt: Tt<G::Position>,
}

impl<G: Game> Default for Engine<G> {
    fn default() -> Engine<G> {
        Engine { tt: Tt::default() }
    }
}

impl<G: Game> std::fmt::Debug for Engine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Engine({} entries)", self.tt.len())
    }
}

/// The score difference of `pos` for `side` (stores or captures).
fn difference<P: Board>(pos: &P, side: Side) -> i32 {
    let [south, north] = pos.scores().map(i32::from);
    match side {
        Side::South => south - north,
        Side::North => north - south,
    }
}

/// The score difference of `pos` for its side to move, the game settled.
fn settled_difference<G: Game>(g: G, pos: &G::Position) -> i32 {
    let side = pos.to_move();
    let mut p = *pos;
    g.settle(&mut p);
    difference(&p, side)
}

struct Searcher<'a, G: TableGame> {
    game: G,
    tables: Option<&'a TableSet<G>>,
    tt: &'a mut Tt<G::Position>,
    budget: Budget<'a>,
    horizon: bool,
}

impl<G: TableGame> Searcher<'_, G> {
    /// The value of `pos` for its mover, searched `depth` plies.
    fn negamax(&mut self, pos: &G::Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.budget.spend::<1024>() {
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
            return difference(pos, pos.to_move());
        }
        let mut first = None;
        if let Some(e) = self.tt.get(pos) {
            if e.depth >= depth {
                let cut = if e.lower == e.upper || e.lower >= beta {
                    Some(e.lower)
                } else if e.upper <= alpha {
                    Some(e.upper)
                } else {
                    None
                };
                if let Some(v) = cut {
                    // Bounds found by a search that met its horizon prove
                    // nothing beyond it.
                    if e.depth != u32::MAX {
                        self.horizon = true;
                    }
                    return v;
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
        let mover = pos.to_move();
        for pit in order {
            let mut child = *pos;
            self.game.play(&mut child, pit).expect("legal move");
            let v = if child.to_move() == mover {
                self.negamax(&child, depth - 1, alpha, beta)
            } else {
                -self.negamax(&child, depth - 1, -beta, -alpha)
            };
            if self.budget.is_out() {
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

/// Search `pos` (not over) until `deadline` or `stop`, at most
/// `max_depth` plies deep, probing `tables`: the best move of the last
/// completed depth and its value. The first depth always completes.
pub fn search_outcome<G: TableGame>(
    game: G,
    engine: &mut Engine<G>,
    tables: Option<&TableSet<G>>,
    pos: &G::Position,
    deadline: Instant,
    stop: &Stop,
    max_depth: u32,
) -> SearchOutcome {
    let mut searcher = Searcher {
        game,
        tables,
        tt: &mut engine.tt,
        budget: Budget::new(deadline, stop),
        horizon: false,
    };
    let moves = game.legal_moves(pos);
    let mover = pos.to_move();
    deepen(max_depth, |depth, prev| {
        searcher.horizon = false;
        let order = prev
            .into_iter()
            .chain(moves.iter().filter(|&q| Some(q) != prev));
        let mut best: Option<(usize, i32)> = None;
        for pit in order {
            let mut child = *pos;
            game.play(&mut child, pit).expect("legal move");
            let alpha = best.map_or(-1000, |b| b.1);
            let v = if child.to_move() == mover {
                searcher.negamax(&child, depth - 1, alpha, 1000)
            } else {
                -searcher.negamax(&child, depth - 1, -1000, -alpha)
            };
            if searcher.budget.is_out() {
                return None;
            }
            if best.is_none_or(|b| v > b.1) {
                best = Some((pit, v));
            }
        }
        searcher.budget.arm(true);
        let (pit, value) = best.expect("a legal move");
        Some((pit, value, searcher.horizon))
    })
}

/// The perfect agent's move above the tables, by [`search_outcome`].
pub fn search<G: TableGame>(
    game: G,
    engine: &mut Engine<G>,
    tables: Option<&TableSet<G>>,
    pos: &G::Position,
    deadline: Instant,
    stop: &Stop,
) -> Choice {
    let out = search_outcome(game, engine, tables, pos, deadline, stop, MAX_SEARCH_DEPTH);
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

/// A best move by the tables when they cover `pos` (the game's
/// [`TableGame::best_move`], which makes progress in games with cycles).
pub fn table_choice<G: TableGame>(tables: &TableSet<G>, pos: &G::Position) -> Option<Choice> {
    if G::table_seeds(pos) > tables.max_seeds() {
        return None;
    }
    let (pit, value) = G::best_move(tables, pos)?;
    Some(Choice {
        pit,
        value: Some(value as f64),
        value_kind: "exact final score difference (tables)",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::awari::position::AwariPosition;
    use crate::awari::reference::awari_value;
    use crate::awari::rules::AwariGame;
    use crate::kalah::position::Position;
    use crate::kalah::reference::Minimax;
    use crate::kalah::rules::KalahRules;
    use rand::Rng;
    use std::time::Duration;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    /// A random Kalah position with `m` pits a side and at most `most`
    /// seeds a pit, stores included, South to move.
    fn kalah_position(rng: &mut impl Rng, m: usize, most: u8) -> Position {
        let mut cells = vec![0u8; 2 * m + 2];
        for c in cells.iter_mut() {
            *c = rng.gen_range(0..=most);
        }
        Position::from_cells(&cells, Side::South).unwrap()
    }

    #[test]
    fn proven_kalah_values_match_plain_minimax() {
        let mut rng = crate::rng::seeded(5);
        let mut proved = 0;
        for rules in KalahRules::ALL {
            let mut reference = Minimax::new(rules);
            let mut engine = Engine::default();
            for _ in 0..150 {
                let m = rng.gen_range(1..=4);
                let pos = kalah_position(&mut rng, m, 2);
                if rules.is_over(&pos) {
                    continue;
                }
                let out =
                    search_outcome(rules, &mut engine, None, &pos, far(), &Stop::never(), 200);
                // Kalah ends: with no depth limit the search proves.
                assert!(out.exact, "{rules:?} {pos}: {out:?}");
                assert_eq!(out.value, reference.value(&pos), "{rules:?} {pos}");
                proved += 1;
            }
        }
        assert!(proved > 300, "{proved}");
    }

    #[test]
    fn proven_awari_values_match_the_reference_solver() {
        // Awari's positions can repeat (endless play worth 0): the search
        // must agree with the reference whenever it claims a proof.
        let mut rng = crate::rng::seeded(9);
        let (mut proved, mut unproved) = (0, 0);
        for game in AwariGame::PLAYED {
            let mut engine = Engine::default();
            for _ in 0..200 {
                let m = rng.gen_range(2..=4);
                let cells: Vec<u8> = (0..2 * m).map(|_| rng.gen_range(0..=2)).collect();
                let pos = AwariPosition::from_board(&cells, [0, 0], Side::South).unwrap();
                if game.is_over(&pos) {
                    continue;
                }
                let deadline = Instant::now() + Duration::from_millis(5);
                let out =
                    search_outcome(game, &mut engine, None, &pos, deadline, &Stop::never(), 200);
                if out.exact {
                    proved += 1;
                    assert_eq!(out.value, awari_value(&cells, m, game), "{game} {pos}");
                } else {
                    unproved += 1;
                }
            }
        }
        assert!(proved > 100 && unproved > 10, "{proved} {unproved}");
    }
}
