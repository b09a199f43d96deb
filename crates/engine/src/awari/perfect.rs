//! The perfect agent's engine in Awari and Oware: the tables within their range, a
//! search with table probes above it.
//!
//! When the Awari (or Oware) tables of the board width cover the seeds on
//! the board, the agent plays a move of the best table value, and when that
//! value is positive one that forces progress towards it
//! ([`TableSet::best_board_move`]): it never gives away any of the value of
//! the position, and never lets a won position run round a cycle.
//!
//! Above the tables' range, the exact search ([`solve_awari`], repetitions
//! handled as the tables' semantics) gets the first [`EXACT_SHARE`]th of
//! the move's time: when it proves the value the agent plays the principal
//! variation's first move, a perfect move that makes progress. Otherwise
//! the rest of the time goes to an iterative-deepening alpha-beta (negamax)
//! on the seeds still to be captured (the value convention of
//! [`crate::awari::rules`]: the mover's future captures minus the
//! opponent's, endless play adding 0), with a transposition table keyed by
//! the board. It plays the best move of the last completed depth. At the
//! horizon the seeds left on the board count 0 to each side (they would be
//! split evenly), so a depth-D search maximises the captured difference D
//! plies ahead, captures and game ends counted exactly. When every line ends
//! by the rules before the horizon the value is proved and the search stops
//! early; a position from which play can cycle never proves there, so the
//! agent then uses its whole budget.
//!
//! The search reads the tables at every node they cover (an exact value,
//! no horizon); without tables, matches report the agent as "search only"
//! so that no result is mistaken for table play.

use crate::clock::Instant;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::awari::game::banked;
use crate::awari::position::AwariPosition;
use crate::awari::rules::{awari_turn, AwariGame, AwariMove, AwariTurn};
use crate::error::{Error, Result};
use crate::play::agents::perfect::{
    deepen, Budget, CrossCheckFn, PerfectPlay, SearchLoss, SearchOutcome,
};
use crate::play::agents::{Choice, Stop};
use crate::search::awari::{cross_check_awari, solve_awari};
use crate::search::cyclic::{CyclicOptions, Wanted};
use crate::search::TransTable;
use crate::tablebase::TableSet;
use std::sync::Arc;
use std::time::Duration;

/// Most transposition-table entries kept during one search (then it is
/// cleared), about 40 bytes each, allocated up front.
const TT_LIMIT: usize = 1 << 20;

/// Deepest iteration of the search.
const MAX_SEARCH_DEPTH: u32 = 300;

/// The exact value of `board` (pits from the side to move, `m` per side,
/// seeds captured so far not included) for the side to move, when `tables`
/// (of `m` pits) cover it.
#[inline(always)]
pub fn table_value(
    board: &[u8; 12],
    m: usize,
    tables: Option<&TableSet<AwariGame>>,
) -> Option<i32> {
    let tb = tables?;
    if tb.pits() != m {
        return None;
    }
    tb.board_value(board)
}

/// Bounds on a board's value found by a search.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Remaining depth the bounds hold for (`u32::MAX` when proved).
    depth: u32,
    lower: i32,
    upper: i32,
    best: u8,
}

type Tt = HashMap<[u8; 12], Entry, BuildHasherDefault<crate::play::agents::perfect::BoardHasher>>;

/// What the Awari search keeps from one move to the next: bounds on
/// board values (they depend on the board and the width only).
pub struct AwariEngine {
    tt: Tt,
    /// Pits per side of the boards in `tt` (a 12-cell board alone does not
    /// say: `1 1 0 2` is another board with 2 pits than with 3).
    tt_pits: usize,
}

impl Default for AwariEngine {
    fn default() -> AwariEngine {
        AwariEngine {
            tt: Tt::with_capacity_and_hasher(TT_LIMIT, Default::default()),
            tt_pits: 0,
        }
    }
}

impl std::fmt::Debug for AwariEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AwariEngine({} entries)", self.tt.len())
    }
}

impl AwariEngine {
    /// Search `board` (`m` pits per side, not over) of `game` until
    /// `deadline`, probing `tables`: the best move of the last completed
    /// depth and its value in seeds still to be captured (mover minus
    /// opponent). The first depth always completes.
    pub fn search(
        &mut self,
        game: AwariGame,
        tables: Option<&TableSet<AwariGame>>,
        board: &[u8; 12],
        m: usize,
        deadline: Instant,
        stop: &Stop,
    ) -> SearchOutcome {
        if m != self.tt_pits {
            self.tt.clear();
            self.tt_pits = m;
        }
        search_awari(board, m, game, tables, deadline, stop, &mut self.tt)
    }
}

/// The share of a move's time the exact search gets (1 / `EXACT_SHARE`).
pub const EXACT_SHARE: u32 = 4;

/// Most transposition table of the exact search, MiB (allocated for each
/// move: 1 MiB for every [`EXACT_MS_PER_MB`] ms of its time, so that a
/// short move is not spent clearing a table).
const EXACT_TT_MB: usize = 16;

/// Milliseconds of the exact search's time per MiB of its table.
const EXACT_MS_PER_MB: u128 = 16;

/// A perfect move by the exact search ([`solve_awari`]) when it proves
/// the value of `pos` within a [`EXACT_SHARE`]th of the time left before
/// `deadline`: the principal variation's first move, which makes progress
/// towards a won value. `None` when it does not finish, or for a rule set
/// without the search (Awale).
fn exact_choice(
    game: AwariGame,
    tables: Option<&TableSet<AwariGame>>,
    pos: &AwariPosition,
    deadline: Instant,
    stop: &Stop,
) -> Option<Choice> {
    if !game.has_tables() {
        return None;
    }
    let now = Instant::now();
    let time = deadline.saturating_duration_since(now) / EXACT_SHARE;
    let options = CyclicOptions {
        tt_mb: ((time.as_millis() / EXACT_MS_PER_MB) as usize).clamp(1, EXACT_TT_MB),
        deadline: Some(now + time),
        stop: stop.flag(),
        ..CyclicOptions::default()
    };
    let tables = tables.filter(|t| t.pits() == pos.pits_per_side());
    let sol = solve_awari(game, pos, tables, None, Wanted::MOVE, &options).ok()?;
    let (Some(value), Some(pit)) = (sol.value, sol.best_move) else {
        return None;
    };
    Some(Choice {
        pit,
        value: Some((value - banked(pos)) as f64),
        value_kind: if tables.is_some() {
            "exact difference of the seeds still to capture (exact search with table probes)"
        } else {
            "exact difference of the seeds still to capture (exact search; no Awari tables)"
        },
    })
}

struct Searcher<'a> {
    game: AwariGame,
    m: usize,
    tables: Option<&'a TableSet<AwariGame>>,
    tt: &'a mut Tt,
    budget: Budget<'a>,
    horizon: bool,
}

/// The seeds a move takes for the mover besides what follows.
#[inline(always)]
fn gain(mv: &AwariMove) -> i32 {
    mv.captured as i32 + mv.end_gain as i32
}

impl Searcher<'_> {
    /// Moves ordered: `first` (if legal), then by seeds taken, then right
    /// to left.
    fn ordered(&self, moves: &[AwariMove], first: Option<u8>) -> ([AwariMove; 6], usize) {
        let mut out = [moves[0]; 6];
        out[..moves.len()].copy_from_slice(moves);
        out[..moves.len()].sort_by_key(|mv| {
            (
                Some(mv.pit) != first,
                std::cmp::Reverse(gain(mv)),
                std::cmp::Reverse(mv.pit),
            )
        });
        (out, moves.len())
    }

    /// The value of `mv` for its mover, searching the board it leads to in
    /// the window (`alpha`, `beta`) of the mover's view.
    fn through(&mut self, mv: &AwariMove, depth: u32, alpha: i32, beta: i32) -> i32 {
        let g = gain(mv);
        if mv.game_over {
            g
        } else {
            g - self.negamax(&mv.board, depth, g - beta, g - alpha)
        }
    }

    fn negamax(&mut self, board: &[u8; 12], depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if self.budget.spend::<256>() {
            return 0;
        }
        if let Some(v) = table_value(board, self.m, self.tables) {
            return v;
        }
        let moves = match awari_turn(board, self.m, self.game) {
            AwariTurn::Over {
                mover_gain,
                opponent_gain,
            } => return mover_gain as i32 - opponent_gain as i32,
            AwariTurn::Play(moves) => moves,
        };
        // The value lies in -seeds ..= seeds.
        let seeds: i32 = board.iter().map(|&c| c as i32).sum();
        if seeds <= alpha {
            return seeds;
        }
        if -seeds >= beta {
            return -seeds;
        }
        let mut tt_move = None;
        if let Some(e) = self.tt.get(board) {
            tt_move = Some(e.best);
            if e.depth >= depth {
                let proved = e.depth == u32::MAX;
                if e.lower >= beta || e.upper <= alpha || e.lower == e.upper {
                    if !proved {
                        self.horizon = true;
                    }
                    return if e.lower >= beta { e.lower } else { e.upper };
                }
                if !proved {
                    self.horizon = true;
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
        }
        if depth == 0 {
            self.horizon = true;
            return 0;
        }
        let (alpha0, beta0) = (alpha, beta);
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let (list, n) = self.ordered(moves.as_slice(), tt_move);
        let mut best = i32::MIN;
        let mut best_pit = list[0].pit;
        for mv in &list[..n] {
            let v = self.through(mv, depth - 1, alpha, beta);
            if self.budget.is_out() {
                return 0;
            }
            if v > best {
                best = v;
                best_pit = mv.pit;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let below = self.horizon;
        self.horizon = outer_horizon || below;
        if self.tt.len() >= TT_LIMIT {
            self.tt.clear();
        }
        const INF: i32 = i32::MAX / 4;
        self.tt.insert(
            *board,
            Entry {
                depth: if below { depth } else { u32::MAX },
                lower: if best > alpha0 { best } else { -INF },
                upper: if best < beta0 { best } else { INF },
                best: best_pit,
            },
        );
        best
    }
}

fn search_awari(
    board: &[u8; 12],
    m: usize,
    game: AwariGame,
    tables: Option<&TableSet<AwariGame>>,
    deadline: Instant,
    stop: &Stop,
    tt: &mut Tt,
) -> SearchOutcome {
    let AwariTurn::Play(moves) = awari_turn(board, m, game) else {
        panic!("the perfect agent was asked for a move in a finished game");
    };
    let mut s = Searcher {
        game,
        m,
        tables,
        tt,
        budget: Budget::new(deadline, stop),
        horizon: false,
    };
    deepen(MAX_SEARCH_DEPTH, |depth, first| {
        s.budget.arm(depth > 1);
        s.horizon = false;
        let (list, n) = s.ordered(moves.as_slice(), first.map(|p| p as u8));
        let mut alpha = -i32::MAX / 2;
        let mut best: Option<(usize, i32)> = None;
        for mv in &list[..n] {
            let v = s.through(mv, depth - 1, alpha, i32::MAX / 2);
            if s.budget.is_out() {
                return None;
            }
            if best.is_none_or(|b| v > b.1) {
                best = Some((mv.pit as usize, v));
                alpha = alpha.max(v);
            }
        }
        let (pit, value) = best.expect("a position not over has a move");
        Some((pit, value, s.horizon))
    })
}

impl PerfectPlay for AwariGame {
    type Engine = AwariEngine;

    /// The exact search with repetitions, on every thread given (Awale
    /// has no tables to check).
    fn exact_cross_check(self) -> Option<CrossCheckFn<Self>> {
        self.has_tables()
            .then_some(cross_check_awari as CrossCheckFn<Self>)
    }

    /// A move of the best table value that also makes progress towards a
    /// won value ([`TableSet::best_board_move`]: a best value alone can go
    /// round a cycle); the value is the seeds still to capture.
    fn table_choice(self, tables: &TableSet<Self>, pos: &AwariPosition) -> Option<Choice> {
        let (pit, value) = tables.best_board_move(&pos.cells())?;
        Some(Choice {
            pit,
            value: Some(value as f64),
            value_kind: "exact difference of the seeds still to capture (tables)",
        })
    }

    /// The exact search with repetitions: the position's value minus the
    /// move's, when both are proven within `time` (Awale, without tables,
    /// is not graded).
    fn search_loss(
        self,
        pos: &AwariPosition,
        pit: usize,
        tables: Option<&TableSet<Self>>,
        time: Duration,
        _: &Arc<TransTable>,
        tt_mb: usize,
    ) -> Result<SearchLoss> {
        if !self.has_tables() {
            return Ok(SearchLoss::Unknown);
        }
        let options = CyclicOptions {
            tt_mb: tt_mb.max(1),
            deadline: Some(Instant::now() + time),
            ..CyclicOptions::default()
        };
        let wanted = Wanted {
            moves: true,
            line: 0,
        };
        let sol = solve_awari(self, pos, tables, None, wanted, &options)?;
        let Some(value) = sol.value else {
            return Ok(SearchLoss::Unknown);
        };
        let chosen =
            sol.moves.iter().find(|m| m.pit == pit).ok_or_else(|| {
                Error::Internal(format!("graded an illegal move: pit {}", pit + 1))
            })?;
        Ok(if chosen.lower >= value {
            SearchLoss::Search(0)
        } else if chosen.lower == chosen.upper {
            SearchLoss::Search(value - chosen.lower)
        } else {
            SearchLoss::Unknown
        })
    }

    /// The exact search first, for [`EXACT_SHARE`] of the time: a proven
    /// value gives a perfect move. Otherwise the alpha-beta search with
    /// what is left.
    fn search_choice(
        self,
        engine: &mut AwariEngine,
        tables: Option<&TableSet<Self>>,
        pos: &AwariPosition,
        deadline: Instant,
        stop: &Stop,
    ) -> Choice {
        if let Some(c) = exact_choice(self, tables, pos, deadline, stop) {
            return c;
        }
        let out = engine.search(
            self,
            tables,
            &pos.cells(),
            pos.pits_per_side(),
            deadline,
            stop,
        );
        Choice {
            pit: out.pit,
            value: Some(out.value as f64),
            value_kind: match (out.exact, tables.is_some()) {
                (true, true) => "exact difference of the seeds still to capture (search with table probes)",
                (true, false) => "exact difference of the seeds still to capture (search; no Awari tables)",
                (false, true) => "difference of the seeds still to capture, estimated by search with table probes",
                (false, false) => "difference of the seeds still to capture, estimated by search (no Awari tables)",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::awari::state::AwariState;
    use crate::side::Side;
    use std::time::Duration;

    /// Plain minimax on the value convention, for boards whose game tree is
    /// finite (no cycles): the independent check of the search.
    fn minimax(board: &[u8; 12], m: usize, game: AwariGame, depth: u32) -> Option<i32> {
        match awari_turn(board, m, game) {
            AwariTurn::Over {
                mover_gain,
                opponent_gain,
            } => Some(mover_gain as i32 - opponent_gain as i32),
            AwariTurn::Play(moves) => {
                if depth == 0 {
                    return None;
                }
                let mut best = i32::MIN;
                for mv in moves.as_slice() {
                    let v = if mv.game_over {
                        mv.value(0)
                    } else {
                        mv.value(minimax(&mv.board, m, game, depth - 1)?)
                    };
                    best = best.max(v);
                }
                Some(best)
            }
        }
    }

    #[test]
    fn proved_values_match_plain_minimax() {
        use rand::Rng;
        let mut rng = crate::rng::seeded(7);
        let mut proved = 0;
        for game in AwariGame::ALL {
            let mut agent = AwariEngine::default();
            for _ in 0..400 {
                let m = rng.gen_range(2..=3);
                let mut cells = [0u8; 12];
                for c in cells[..2 * m].iter_mut() {
                    *c = rng.gen_range(0..=2);
                }
                let s = AwariState::from_board(game, &cells[..2 * m], Side::South, [0, 0]).unwrap();
                if s.is_over() {
                    continue;
                }
                let Some(exact) = minimax(&s.cells(), m, game, 14) else {
                    continue;
                };
                let out = agent.search(
                    game,
                    None,
                    &s.cells(),
                    m,
                    Instant::now() + Duration::from_secs(5),
                    &Stop::never(),
                );
                // A tree that ends within 14 plies has no cycle: the search
                // must prove its value.
                assert!(out.exact, "{game} {s:?}: {out:?}");
                assert_eq!(out.value, exact, "{game} {s:?}");
                proved += 1;
            }
        }
        assert!(proved > 100, "{proved}");
    }

    #[test]
    fn proved_values_match_the_reference_solver_with_cycles() {
        // The reference solves cyclic positions exactly (endless play worth
        // 0); the search must agree whenever it claims a proof, and must
        // never claim one it cannot have.
        use crate::awari::reference::awari_value;
        use rand::Rng;
        let mut rng = crate::rng::seeded(11);
        let mut proved = 0;
        let mut unproved = 0;
        for game in AwariGame::ALL {
            let mut agent = AwariEngine::default();
            for _ in 0..300 {
                let m = rng.gen_range(2..=4);
                let mut cells = [0u8; 12];
                for c in cells[..2 * m].iter_mut() {
                    *c = rng.gen_range(0..=2);
                }
                let s = AwariState::from_board(game, &cells[..2 * m], Side::South, [0, 0]).unwrap();
                if s.is_over() {
                    continue;
                }
                let deadline = Instant::now() + Duration::from_millis(5);
                let out = agent.search(game, None, &s.cells(), m, deadline, &Stop::never());
                if out.exact {
                    proved += 1;
                    assert_eq!(out.value, awari_value(&s.cells(), m, game), "{game} {s:?}");
                } else {
                    unproved += 1;
                }
            }
        }
        assert!(proved > 100 && unproved > 10, "{proved} {unproved}");
    }
}
