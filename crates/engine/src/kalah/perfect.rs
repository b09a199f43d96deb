//! The perfect agent in Kalah: exact play from the endgame tables (a move
//! of the best value, the leftmost of them), and a search on final store
//! difference above them.
//!
//! Positions with more seeds in play than the loaded tables cover are
//! searched by [`search_beyond_tables`]: the project's MTD(f) solver
//! ([`crate::search::solve`]) with iterative deepening, table probes and a
//! deadline per move, playing its best move so far when time runs out
//! (boards wider than 6 pits, beyond the solver, keep a plain
//! iterative-deepening alpha-beta).

use crate::clock::Instant;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::play::agents::perfect::{
    deepen, Budget, CrossCheckFn, PerfectPlay, SearchLoss, SearchOutcome,
};
use crate::play::agents::{Choice, Stop};
use crate::search::cross_check::cross_check;
use crate::search::{solve, SolveOptions, TransTable};
use crate::sow::MAX_PITS;
use crate::tablebase::TableSet;
use std::time::Duration;

/// The legal moves of a Kalah position in a small stack array (at most
/// 10), for the Kalah perfect agent's search.
fn moves(pos: &Position, rules: KalahRules) -> ([usize; MAX_PITS], usize) {
    let mut out = [0; MAX_PITS];
    let mut n = 0;
    for pit in pos.legal_moves(rules) {
        out[n] = pit;
        n += 1;
    }
    (out, n)
}

/// Most transposition-table entries kept during one search (then it is
/// cleared), about 40 bytes each. The table is allocated at this size up
/// front, so it never rehashes in the middle of a timed search.
const TT_LIMIT: usize = 1 << 20;

/// A transposition-table entry: bounds on the value of the seeds in play
/// (stores excluded, so positions differing only in their stores share it).
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Remaining depth the bounds hold for (`u32::MAX` when proved).
    depth: u32,
    lower: i32,
    upper: i32,
    best: u8,
}

/// The pits of a position, mover's first (the key of the table).
type Key = [u8; 2 * crate::sow::MAX_PITS];

fn key(pos: &Position) -> Key {
    let mut k = [0; 2 * crate::sow::MAX_PITS];
    let m = pos.pits_per_side();
    k[..m].copy_from_slice(pos.mover_pits());
    k[m..2 * m].copy_from_slice(pos.opponent_pits());
    k
}

type Tt = std::collections::HashMap<
    Key,
    Entry,
    std::hash::BuildHasherDefault<crate::play::agents::perfect::BoardHasher>,
>;

/// Size (MiB) of the solver's transposition table kept by a [`SearchCache`]
/// (memory is only taken as the table fills).
const SOLVER_TT_MB: usize = 32;

/// What the search remembers between calls (its transposition table).
/// Entries hold bounds on the value of the seeds in play, so they stay
/// valid from one move to the next of the same game, rules and tables;
/// reusing one cache over a game makes each move's search cheaper.
pub struct SearchCache {
    tt: Tt,
    /// The solver's transposition table (boards of up to 6 pits).
    solver_tt: Arc<crate::search::TransTable>,
}

impl SearchCache {
    /// An empty cache (about 70 MB of address space, touched as it fills).
    pub fn new() -> SearchCache {
        SearchCache {
            tt: Tt::with_capacity_and_hasher(TT_LIMIT, Default::default()),
            solver_tt: Arc::new(crate::search::TransTable::new(SOLVER_TT_MB)),
        }
    }
}

impl Default for SearchCache {
    fn default() -> SearchCache {
        SearchCache::new()
    }
}

impl std::fmt::Debug for SearchCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchCache({} entries)", self.tt.len())
    }
}

const INF: i32 = i32::MAX / 4;

/// Deepest iteration of the search.
const MAX_SEARCH_DEPTH: u32 = 500;

struct Searcher<'a> {
    rules: KalahRules,
    tt: &'a mut Tt,
    tables: Option<&'a TableSet<KalahRules>>,
    table_seeds: usize,
    budget: Budget<'a>,
    horizon: bool,
}

impl Searcher<'_> {
    /// Children of `pos` ordered: extra turns, then captures by size, then
    /// right to left; `first` (if legal) before all.
    fn ordered(
        &self,
        pos: &Position,
        first: Option<usize>,
    ) -> Vec<(usize, Position, crate::moves::Step)> {
        let (list, n) = moves(pos, self.rules);
        let mut out: Vec<_> = list[..n]
            .iter()
            .map(|&pit| {
                let mut child = *pos;
                let mv = child.play(pit, self.rules).expect("legal move");
                (pit, child, mv)
            })
            .collect();
        out.sort_by_key(|(pit, _, mv)| {
            (
                Some(*pit) != first,
                !mv.extra_turn,
                std::cmp::Reverse(mv.captured),
                std::cmp::Reverse(*pit),
            )
        });
        out
    }

    /// Value of a move's result from the view of the player who made it.
    fn after(
        &mut self,
        child: &Position,
        mv: crate::moves::Step,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if mv.game_over {
            child.final_difference()
        } else if mv.extra_turn {
            self.negamax(child, depth, alpha, beta)
        } else {
            -self.negamax(child, depth, -beta, -alpha)
        }
    }

    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if self.budget.spend::<256>() {
            return 0;
        }
        let active = pos.active_seeds();
        if active <= self.table_seeds {
            if let Some(v) = self.tables.and_then(|t| t.value(pos)) {
                return v;
            }
        }
        let base = pos.mover_store() as i32 - pos.opponent_store() as i32;
        let active = active as i32;
        // The final difference lies in base - active ..= base + active.
        if base + active <= alpha {
            return base + active;
        }
        if base - active >= beta {
            return base - active;
        }
        let k = key(pos);
        let mut tt_move = None;
        let mut beta = beta;
        if let Some(e) = self.tt.get(&k) {
            tt_move = Some(e.best as usize);
            if e.depth >= depth {
                let (lo, hi) = (e.lower + base, e.upper + base);
                let proved = e.depth == u32::MAX;
                if lo >= beta || hi <= alpha || lo == hi {
                    if !proved {
                        self.horizon = true;
                    }
                    return if lo >= beta { lo } else { hi };
                }
                if !proved {
                    // The narrowed window rests on a horizon value.
                    self.horizon = true;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
        }
        if depth == 0 {
            self.horizon = true;
            return base;
        }
        let (alpha0, beta0) = (alpha, beta);
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let mut best = i32::MIN;
        let mut best_pit = 0;
        for (pit, child, mv) in self.ordered(pos, tt_move) {
            let v = self.after(&child, mv, depth - 1, alpha, beta);
            if self.budget.is_out() {
                return 0;
            }
            if v > best {
                best = v;
                best_pit = pit;
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
        self.tt.insert(
            k,
            Entry {
                depth: if below { depth } else { u32::MAX },
                lower: if best > alpha0 { best - base } else { -INF },
                upper: if best < beta0 { best - base } else { INF },
                best: best_pit as u8,
            },
        );
        best
    }
}

/// Search `pos` (not over, above the tables) until `deadline` with the
/// project's MTD(f) solver ([`crate::search::solve`], one thread): iterative
/// deepening in steps of [`SOLVER_ID_STEP`] plies up to [`SOLVER_ID_JUMP`],
/// then the exact full-depth search, probing `tables` wherever the seeds in
/// play fall within them. The first iteration always completes; when the
/// deadline passes, the best move so far is returned (the move that proved
/// the best lower bound of the full-depth search, else the best move of the
/// deepest completed iteration). When the solver finishes, the value is
/// exact and the move is a best move. `cache` keeps the solver's
/// transposition table from one call to the next and must only be shared
/// between searches under the same rules and tables.
///
/// Boards wider than the solver handles (7 to 10 pits per side) are searched
/// by the plain iterative-deepening alpha-beta of this module instead.
pub fn search_beyond_tables(
    pos: &Position,
    rules: KalahRules,
    tables: Option<&TableSet<KalahRules>>,
    deadline: Instant,
    cache: &mut SearchCache,
    stop: &Stop,
) -> SearchOutcome {
    // An opening the books hold: the leftmost move they prove best (its
    // value the position's; other moves may be unknown to them).
    if let Some((pit, value)) = crate::book::best_move(crate::book::Books::embedded(), pos, rules) {
        return SearchOutcome {
            pit,
            value,
            depth: 0,
            exact: true,
        };
    }
    if pos.pits_per_side() <= crate::tables::MAX_TABLE_PITS {
        let opts = crate::search::SolveOptions {
            rules,
            threads: 1,
            id_step: SOLVER_ID_STEP,
            id_jump: SOLVER_ID_JUMP,
            deadline: Some(deadline),
            stop: stop.flag(),
            shared_tt: Some(cache.solver_tt.clone()),
            ..Default::default()
        };
        // Tables for another board width (the agent may play several) are
        // not used on this one.
        let tables = tables.filter(|t| t.pits() == pos.pits_per_side());
        let sol = crate::search::solve(pos, tables, &opts)
            .expect("the solver handles every board of up to 6 pits per side");
        return SearchOutcome {
            pit: sol.best_move.expect("a position not over has a move"),
            value: sol.value,
            depth: sol.depth,
            exact: sol.exact,
        };
    }
    let table_seeds = match tables {
        Some(t) if t.pits() == pos.pits_per_side() && t.game() == rules => t.max_seeds(),
        _ => 0,
    };
    let mut s = Searcher {
        rules,
        tables,
        table_seeds,
        tt: &mut cache.tt,
        budget: Budget::new(deadline, stop),
        horizon: false,
    };
    deepen(MAX_SEARCH_DEPTH, |depth, first| {
        s.budget.arm(depth > 1);
        s.horizon = false;
        let mut alpha = -i32::MAX;
        let mut best: Option<(usize, i32)> = None;
        for (pit, child, mv) in s.ordered(pos, first) {
            let v = s.after(&child, mv, depth - 1, alpha, i32::MAX);
            if s.budget.is_out() {
                return None;
            }
            if best.is_none_or(|b| v > b.1) {
                best = Some((pit, v));
                alpha = alpha.max(v);
            }
        }
        let (pit, value) = best.expect("a position not over has a move");
        Some((pit, value, s.horizon))
    })
}

/// Iterative-deepening step (plies) of the solver in [`search_beyond_tables`].
pub const SOLVER_ID_STEP: u32 = 2;

/// Last limited depth (plies) of the solver's iterative deepening in
/// [`search_beyond_tables`] before the exact full-depth search.
pub const SOLVER_ID_JUMP: u32 = 24;

impl PerfectPlay for KalahRules {
    type Engine = SearchCache;

    /// The solver, on one thread a solve.
    fn exact_cross_check(self) -> Option<CrossCheckFn<Self>> {
        Some(|set, check, _threads, progress| cross_check(set, check, progress))
    }

    fn table_choice(self, tables: &TableSet<Self>, pos: &Position) -> Option<Choice> {
        let (pit, value) = tables.best_move(pos)?;
        Some(Choice {
            pit,
            value: Some(value as f64),
            value_kind: "exact final store difference (tables)",
        })
    }

    /// The opening books first, then the solver: the position's value
    /// minus the move's, when both are proven within `time`.
    fn search_loss(
        self,
        pos: &Position,
        pit: usize,
        tables: Option<&TableSet<Self>>,
        time: Duration,
        tt: &Arc<TransTable>,
        _: usize,
    ) -> Result<SearchLoss> {
        // The position's value and the chosen move's, from the books (the
        // other moves need not be known to them).
        let books = crate::book::Books::embedded();
        let known = crate::book::known_move_values(books, pos, self);
        let chosen = known.iter().find(|m| m.0 == pit).and_then(|m| m.1);
        let best = books.value(self, pos).or_else(|| {
            let all: Option<Vec<i32>> = known.iter().map(|m| m.1).collect();
            all.and_then(|v| v.into_iter().max())
        });
        if let (Some(best), Some(chosen)) = (best, chosen) {
            return Ok(SearchLoss::Book(best - chosen));
        }
        let deadline = Instant::now() + time;
        let options = SolveOptions {
            rules: self,
            threads: 1,
            deadline: Some(deadline),
            shared_tt: Some(tt.clone()),
            ..SolveOptions::default()
        };
        let root = solve(pos, tables, &options)?;
        if !root.exact {
            return Ok(SearchLoss::Unknown);
        }
        if root.best_move == Some(pit) {
            return Ok(SearchLoss::Search(0));
        }
        let mut child = *pos;
        let step = child
            .play(pit, self)
            .map_err(|e| Error::Internal(format!("graded an illegal move: {e}")))?;
        let sol = solve(&child, tables, &options)?;
        if !sol.exact {
            return Ok(SearchLoss::Unknown);
        }
        let chosen = if step.extra_turn {
            sol.value
        } else {
            -sol.value
        };
        Ok(SearchLoss::Search(root.value - chosen))
    }

    fn search_choice(
        self,
        engine: &mut SearchCache,
        tables: Option<&TableSet<Self>>,
        pos: &Position,
        deadline: Instant,
        stop: &Stop,
    ) -> Choice {
        let out = search_beyond_tables(pos, self, tables, deadline, engine, stop);
        Choice {
            pit: out.pit,
            value: Some(out.value as f64),
            value_kind: if out.exact {
                "exact final store difference (search)"
            } else {
                "final store difference estimated by search"
            },
        }
    }
}
