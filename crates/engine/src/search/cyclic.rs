//! An exact search for games whose positions repeat (Awari, Oware and
//! their rule sets): MTD(f) over a fail-soft null-window alpha-beta search
//! with a transposition table, futility pruning, enhanced transposition
//! cut-offs and endgame-table probes, written over the small board trait
//! [`CyclicGame`].
//!
//! # Values
//!
//! A board's value is the difference, mover minus opponent, of the seeds the
//! two sides will still win from it under perfect play, **endless play
//! adding 0** (the tables' semantics). A move that wins `gain` seeds (a
//! capture, or the seeds taken when it ends the game) is worth
//! `gain - value(child)`; with `s` seeds on the board a value lies in
//! `[-s, s]` (the futility bound).
//!
//! # Repetitions and the graph-history interaction
//!
//! The search walks a tree over a graph with cycles. A board that comes
//! back on the current path with the same side to move (the same board an
//! even number of plies up) is scored 0 there: no seed was won on the way
//! round (a capture changes the seeds on the board, so it cannot lie on a
//! cycle), and going round for ever is worth 0. With that rule the
//! minimax value of the root is its exact value: for a threshold `t > 0` the
//! mover reaches `>= t` only by forcing, in finitely many plies, a capture or
//! an end worth it (a finite proof tree, whose leaves the rule never
//! touches, is a strategy; and a winning strategy exists that never repeats
//! a board, so the search finds it); for `t <= 0` the same holds for the
//! opponent forcing `< t`. See docs/AWARI.md.
//!
//! A result that used the rule depends on the path that led to the node
//! (the graph-history interaction problem): reused at the same board reached
//! another way, it could be wrong. So every search returns, with its bound,
//! the shallowest ply on the path whose board it met again (`dep`). A result
//! whose `dep` lies above the node (a smaller ply) is path-dependent and is
//! never stored in the transposition table; once the search returns to the
//! ply of that board the dependence is resolved (the node is the root of its
//! own search). A fail-high depends only on the move that cut, so a cut by a
//! path-independent move is stored even if earlier moves met repetitions.
//! Transposition entries, table values and game ends are exact facts about a
//! board, true on every path, so the search may use them anywhere.
//!
//! # Stopping
//!
//! [`CyclicOptions::deadline`] and [`CyclicOptions::stop`] are checked every
//! 1024 nodes; a stopped search returns the bounds its completed MTD(f)
//! passes proved and never an estimate as a value.

use crate::clock::Instant;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Most moves of a board the search handles (Awari: 6).
pub const MAX_MOVES: usize = 8;

/// One move of a board, as the search sees it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Child<B> {
    /// The move (pit from the mover's left).
    pub pit: u8,
    /// Seeds the mover wins with it (captured, or taken at the end).
    pub gain: i32,
    /// The board after it, seen from the opponent; `None` when the move
    /// ends the game.
    pub board: Option<B>,
}

/// The moves of a board, allocation-free.
#[derive(Clone, Copy, Debug)]
pub struct Children<B> {
    items: [Child<B>; MAX_MOVES],
    len: usize,
}

impl<B: Copy + Default> Children<B> {
    /// No moves.
    pub fn new() -> Children<B> {
        Children {
            items: [Child::default(); MAX_MOVES],
            len: 0,
        }
    }

    /// Add a move (at most [`MAX_MOVES`]).
    pub fn push(&mut self, child: Child<B>) {
        self.items[self.len] = child;
        self.len += 1;
    }

    /// The moves.
    pub fn as_slice(&self) -> &[Child<B>] {
        &self.items[..self.len]
    }
}

impl<B: Copy + Default> Default for Children<B> {
    fn default() -> Self {
        Children::new()
    }
}

/// What the search needs of a game with cycles: boards seen from the side
/// to move, their moves and ends, and table look-ups.
pub trait CyclicGame: Copy + Send + Sync {
    /// A board seen from the side to move.
    type Board: Copy + Eq + Hash + Default + std::fmt::Debug;
    /// The board as one number, the same for equal boards only (the
    /// transposition table and the repetition check compare keys).
    fn key(&self, board: &Self::Board) -> u128;
    /// Seeds on the board: the value lies in `[-seeds, seeds]`.
    fn seeds(&self, board: &Self::Board) -> i32;
    /// The board's value when the game is over before the mover moves;
    /// otherwise `None` and its moves pushed to `out`.
    fn expand(&self, board: &Self::Board, out: &mut Children<Self::Board>) -> Option<i32>;
    /// The board's exact value from the endgame tables, when they cover it.
    fn probe(&self, board: &Self::Board) -> Option<i32>;
}

/// What a search proved about a board (values from the mover's view,
/// seeds still to win only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
}

impl Proven {
    /// The value, when the bounds meet.
    pub fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// Counters of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct CyclicStats {
    /// Nodes visited (boards searched, probed or cut).
    pub nodes: u64,
    /// Boards valued by the endgame tables.
    pub probes: u64,
    /// Boards met again on the path (scored 0).
    pub repetitions: u64,
    /// Cut-offs from the transposition table.
    pub tt_cuts: u64,
    /// Cut-offs from the children's bounds before any child was searched.
    pub etc_cuts: u64,
    /// Results that depended on the path (kept only under a guard).
    pub path_dependent: u64,
    /// Cut-offs from path-dependent bounds still valid on the path.
    pub cond_cuts: u64,
    /// Path-dependent failures written to the transposition table once the
    /// boards they met again were settled.
    pub settled: u64,
    /// MTD(f) passes.
    pub passes: u64,
    /// The search met a line of [`MAX_PLY`] plies and stopped there, as
    /// at a deadline (its bounds hold; the stack allows no deeper line).
    pub too_deep: bool,
}

/// Deepest line searched: a line without captures can run through most of
/// its layer, and each ply is a frame on the search thread's stack (512
/// MiB in `search::awari`); deeper, the search stops with the bounds it
/// proved instead of overflowing.
pub const MAX_PLY: usize = 100_000;

/// The repetitions a result relied on: the plies of the path (above the
/// node) whose boards it met again lie in `min..=max` (a conservative
/// range); `min == NONE` when there are none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dep {
    min: u32,
    max: u32,
}

/// "No repetition met": deeper than any ply.
const NONE: u32 = u32::MAX;

const FREE: Dep = Dep { min: NONE, max: 0 };

impl Dep {
    fn at(ply: usize) -> Dep {
        Dep {
            min: ply as u32,
            max: ply as u32,
        }
    }

    fn is_free(self) -> bool {
        self.min == NONE
    }

    fn join(self, other: Dep) -> Dep {
        Dep {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Seen from the node at `ply`: repetitions of it or of boards below it
    /// are its own search's business.
    fn above(self, ply: usize) -> Dep {
        let ply = ply as u32;
        if self.min >= ply {
            FREE
        } else {
            Dep {
                min: self.min,
                max: self.max.min(ply - 1),
            }
        }
    }
}

/// A null-window searcher over one board trait, its table and its path.
///
/// Path-dependent results are kept too, under a guard. A result that
/// failed low with `beta > 0` relied on repetitions only as failures of the
/// mover (a repetition scores 0, below every positive threshold, on both
/// sides' plies of the segment without capture); met again at the same
/// board with more boards on the path, the mover can only fail more. So
/// `value <= max(u, 0)` (`u` its fail-soft bound) holds wherever the boards
/// it met again are still on the path at the same plies and the board
/// stands at a ply of the same parity: guaranteed while the path keeps the
/// same visit at ply `dep.max`. Symmetrically a fail-high with `beta <= 0`
/// gives `value >= min(l, 0)`. A cut by such an entry carries its
/// dependence on.
pub struct Searcher<'t, G: CyclicGame> {
    game: G,
    tt: &'t mut CyclicTable,
    /// The boards from the root to the current node: key, seeds, visit.
    path: Vec<(u128, i32, u64)>,
    /// The plies of the boards on the path, by key and ply parity (a board
    /// stands on the path at most once with each side to move: met again,
    /// it is a repetition and is not searched). Lines without captures
    /// can be thousands of plies long; a scan of the path at every node
    /// would cost as much.
    on_path: std::collections::HashMap<(u128, u8), u32, PathHasher>,
    /// Path-dependent failures of the attacking side waiting for the
    /// search to climb back to the boards they met again (see
    /// [`Pending`]).
    pending: Vec<Pending>,
    visits: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    /// Where the root's passes are reported, while `report` is set.
    progress: crate::progress::Observer,
    report: Option<Instant>,
    /// Checkpoints of the root's passes, and their state.
    saving: Option<checkpoint::Saving>,
    /// MTD(f)'s next guess at the root (for a checkpoint).
    root_guess: i32,
    /// Counters.
    pub stats: CyclicStats,
}

/// The search was stopped (deadline or flag) before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// A board whose null-window search failed for the attacking side (the
/// side needing a positive result, for which a repetition is a failure)
/// while relying on repetitions of boards above it.
///
/// Such a result is a fact about the board once every board it met again
/// is known to be a failure for the attacker too: the boards of the
/// failing subtree then form a set the defender never has to leave (each
/// defender board has a move into it, each attacker move stays in it or
/// leaves it for a child bounded on every path), so the attacker cannot
/// force reaching the threshold from any of them. This holds when the
/// search climbs back to the board all the repetitions lead to and that
/// board fails for the attacker as well, with no dependence left above
/// it: the failures of its subtree still pending are then written to the
/// transposition table, bounded by the threshold (not by their fail-soft
/// values, which counted a repetition as 0 although play may go on from
/// the board met again). A failure is dropped as soon as a board between
/// it and that board succeeds for the attacker.
#[derive(Clone, Copy)]
struct Pending {
    key: u128,
    lower: i16,
    upper: i16,
    best: u8,
}

/// Most pending failures kept (about 64 MiB); beyond it new ones are not
/// recorded, which only loses reuse.
const MAX_PENDING: usize = 1 << 21;

impl<'t, G: CyclicGame> Searcher<'t, G> {
    /// A searcher with an empty path.
    pub fn new(game: G, tt: &'t mut CyclicTable, options: &CyclicOptions) -> Self {
        Searcher {
            game,
            tt,
            path: Vec::with_capacity(256),
            on_path: Default::default(),
            pending: Vec::new(),
            visits: 0,
            deadline: options.deadline,
            stop: options.stop.clone(),
            stopped: false,
            progress: options.progress.clone(),
            report: None,
            saving: options.checkpoint.clone().map(checkpoint::Saving::new),
            root_guess: options.guess,
            stats: CyclicStats::default(),
        }
    }

    /// Put `boards` on the path (the line that led to the board searched
    /// next, oldest first): a search then scores them 0 when they come
    /// back.
    pub fn set_path(&mut self, boards: &[G::Board]) {
        self.truncate_path(0);
        for b in boards {
            self.push_path(self.game.key(b), self.game.seeds(b));
        }
    }

    fn push_path(&mut self, key: u128, seeds: i32) {
        self.visits += 1;
        let ply = self.path.len();
        self.on_path.insert((key, (ply & 1) as u8), ply as u32);
        self.path.push((key, seeds, self.visits));
    }

    fn truncate_path(&mut self, ply: usize) {
        while self.path.len() > ply {
            let (key, _, _) = self.path.pop().expect("longer than ply");
            let at = self.path.len();
            self.on_path.remove(&(key, (at & 1) as u8));
        }
    }

    fn check_stop(&mut self) -> bool {
        if self.stats.nodes & 1023 == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let flagged = self
                .stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed));
            if late || flagged {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The ply on the path where `key` stands with the same side to move
    /// as the node at `ply`, if any. (Seeds never come back, so a board
    /// met again on the path has no capture between.)
    fn repeated(&self, key: u128, ply: usize) -> Option<usize> {
        self.on_path
            .get(&(key, (ply & 1) as u8))
            .map(|&at| at as usize)
            .filter(|&at| at < ply)
    }

    /// A path-dependent bound on `key` at `ply` that holds on this path.
    fn cond_get(&self, key: u128, ply: usize) -> Option<CondSlot> {
        let c = self.tt.cond[hash(key) & (self.tt.cond.len() - 1)];
        let guard = c.max as usize;
        (c.key == key
            && c.visit != 0
            && c.parity == (ply & 1) as u8
            && guard < ply
            && self.path[guard].2 == c.visit)
            .then_some(c)
    }

    fn cond_put(&mut self, key: u128, ply: usize, dep: Dep, lower: i32, upper: i32) {
        let guard = dep.max as usize;
        let c = CondSlot {
            key,
            visit: self.path[guard].2,
            min: dep.min,
            max: dep.max,
            parity: (ply & 1) as u8,
            lower: lower as i16,
            upper: upper as i16,
        };
        let i = hash(key) & (self.tt.cond.len() - 1);
        self.tt.cond[i] = c;
    }

    /// Record a path-dependent failure of the attacker at `key`.
    fn pend(&mut self, key: u128, lower: i32, upper: i32, best: u8) {
        if self.pending.len() < MAX_PENDING {
            self.pending.push(Pending {
                key,
                lower: lower as i16,
                upper: upper as i16,
                best,
            });
        }
    }

    /// A board that failed for the attacker with no dependence left above
    /// it: its subtree's pending failures are facts now.
    fn settle(&mut self, mark: usize) {
        let mark = mark.min(self.pending.len());
        for i in mark..self.pending.len() {
            let p = self.pending[i];
            self.tt
                .put(p.key, p.lower as i32, p.upper as i32, p.best, 1);
            self.stats.settled += 1;
        }
        self.pending.truncate(mark);
    }

    /// MTD(f) from the board at the end of the path: its exact value under
    /// the path (see the module docs), or the bounds proven when stopped.
    pub fn mtdf(&mut self, board: &G::Board, guess: i32) -> std::result::Result<i32, Proven> {
        let s = self.game.seeds(board);
        self.mtdf_within(
            board,
            guess,
            Proven {
                lower: -s,
                upper: s,
            },
        )
    }

    /// [`Searcher::mtdf`] from bounds already proven on the board's value
    /// under the path.
    pub fn mtdf_within(
        &mut self,
        board: &G::Board,
        guess: i32,
        known: Proven,
    ) -> std::result::Result<i32, Proven> {
        let s = self.game.seeds(board);
        let (mut lower, mut upper) = (known.lower.max(-s), known.upper.min(s));
        let mut f = guess.clamp(lower, upper);
        if self.report.is_some() {
            self.root_guess = f;
        }
        while lower < upper {
            let beta = if f == lower { f + 1 } else { f };
            self.stats.passes += 1;
            let Ok((g, _)) = self.search(board, beta) else {
                return Err(Proven { lower, upper });
            };
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
            f = g;
            if let Some(start) = self.report {
                let seconds = start.elapsed().as_secs_f64();
                self.progress.event(&crate::progress::Event::Search {
                    seconds,
                    depth: None,
                    lower,
                    upper,
                    nodes: self.stats.nodes,
                    rate: self.stats.nodes as f64 / seconds.max(1e-9),
                });
                self.root_guess = f;
                self.save_checkpoint(Proven { lower, upper }, f, false);
            }
        }
        Ok(lower)
    }

    /// Whether the board (at the end of the path) is worth at least `beta`:
    /// a fail-soft bound (`>= beta` is a lower bound, `< beta` an upper
    /// bound) and the repetitions it relied on.
    pub fn search(
        &mut self,
        board: &G::Board,
        beta: i32,
    ) -> std::result::Result<(i32, Dep), Stopped> {
        let ply = self.path.len();
        self.nws(board, beta, ply)
    }

    fn nws(
        &mut self,
        board: &G::Board,
        beta: i32,
        ply: usize,
    ) -> std::result::Result<(i32, Dep), Stopped> {
        self.stats.nodes += 1;
        if self.check_stop() {
            return Err(Stopped);
        }
        if ply >= MAX_PLY {
            self.stats.too_deep = true;
            self.stopped = true;
            return Err(Stopped);
        }
        let game = self.game;
        if let Some(v) = game.probe(board) {
            self.stats.probes += 1;
            return Ok((v, FREE));
        }
        let s = game.seeds(board);
        if beta > s {
            return Ok((s, FREE));
        }
        if beta <= -s {
            return Ok((-s, FREE));
        }
        let key = game.key(board);
        let entry = self.tt.get(key);
        if let Some(e) = entry {
            if e.lower as i32 >= beta {
                self.stats.tt_cuts += 1;
                return Ok((e.lower as i32, FREE));
            }
            if (e.upper as i32) < beta {
                self.stats.tt_cuts += 1;
                return Ok((e.upper as i32, FREE));
            }
        }
        self.truncate_path(ply);
        if let Some(at) = self.repeated(key, ply) {
            self.stats.repetitions += 1;
            return Ok((0, Dep::at(at)));
        }
        if let Some(c) = self.cond_get(key, ply) {
            let dep = Dep {
                min: c.min,
                max: c.max,
            };
            if c.lower as i32 >= beta {
                self.stats.cond_cuts += 1;
                return Ok((c.lower as i32, dep));
            }
            if (c.upper as i32) < beta {
                self.stats.cond_cuts += 1;
                return Ok((c.upper as i32, dep));
            }
        }
        let mut moves = Children::new();
        if let Some(v) = game.expand(board, &mut moves) {
            return Ok((v, FREE));
        }
        let moves = order(&moves, entry.map(|e| e.best));
        let list = moves.as_slice();
        // Enhanced transposition cut-off: the children's known bounds
        // (game ends, tables, transposition entries), before any search.
        let mut all_below = true;
        let mut best_known = i32::MIN;
        for c in list {
            let (lo, hi) = match &c.board {
                None => (c.gain, c.gain),
                Some(b) => match game.probe(b) {
                    Some(v) => (c.gain - v, c.gain - v),
                    None => match self.tt.get(game.key(b)) {
                        Some(e) => (c.gain - e.upper as i32, c.gain - e.lower as i32),
                        None => {
                            let cs = game.seeds(b);
                            (c.gain - cs, c.gain + cs)
                        }
                    },
                },
            };
            if lo >= beta {
                self.stats.etc_cuts += 1;
                self.tt.put(key, lo, s, c.pit, 1);
                return Ok((lo, FREE));
            }
            all_below &= hi < beta;
            best_known = best_known.max(hi);
        }
        if all_below {
            self.stats.etc_cuts += 1;
            self.tt.put(key, -s, best_known, list[0].pit, 1);
            return Ok((best_known, FREE));
        }
        let nodes_before = self.stats.nodes;
        let mark = self.pending.len();
        self.push_path(key, s);
        let mut best = i32::MIN;
        let mut best_pit = list[0].pit;
        let mut dep = FREE;
        for c in list {
            let (v, d) = match &c.board {
                None => (c.gain, FREE),
                Some(b) => {
                    let (cv, d) = self.nws(b, c.gain - beta + 1, ply + 1)?;
                    (c.gain - cv, d)
                }
            };
            if v >= beta {
                self.truncate_path(ply);
                let d = d.above(ply);
                // A fail-high at `beta > 0` is the attacker's success (it
                // never relies on a repetition); at `beta <= 0` it is the
                // defender's.
                if d.is_free() {
                    let work = (self.stats.nodes - nodes_before).min(u32::MAX as u64) as u32;
                    self.tt.put(key, v, s, c.pit, work);
                    if beta > 0 {
                        self.pending.truncate(mark.min(self.pending.len()));
                    } else {
                        self.settle(mark);
                    }
                } else {
                    self.stats.path_dependent += 1;
                    if beta <= 0 {
                        self.cond_put(key, ply, d, v.min(0), s);
                        self.pend(key, beta, s, c.pit);
                    } else {
                        self.pending.truncate(mark.min(self.pending.len()));
                    }
                }
                return Ok((v, d));
            }
            dep = dep.join(d);
            if v > best {
                best = v;
                best_pit = c.pit;
            }
        }
        self.truncate_path(ply);
        let dep = dep.above(ply);
        if dep.is_free() {
            let work = (self.stats.nodes - nodes_before).min(u32::MAX as u64) as u32;
            self.tt.put(key, -s, best, best_pit, work);
            if beta > 0 {
                self.settle(mark);
            } else {
                self.pending.truncate(mark.min(self.pending.len()));
            }
        } else {
            self.stats.path_dependent += 1;
            if beta > 0 {
                self.cond_put(key, ply, dep, -s, best.max(0));
                self.pend(key, -s, beta - 1, best_pit);
            } else {
                self.pending.truncate(mark.min(self.pending.len()));
            }
        }
        Ok((best, dep))
    }
}

/// The moves in search order: the transposition table's best move, then
/// game ends and captures by size, then the rest in pit order.
fn order<B: Copy + Default>(moves: &Children<B>, first: Option<u8>) -> Children<B> {
    let mut out = moves.to_owned();
    let list = &mut out.items[..out.len];
    let rank = |c: &Child<B>| -> i32 {
        if Some(c.pit) == first {
            i32::MIN
        } else {
            -c.gain
        }
    };
    // Stable: equal ranks keep pit order.
    list.sort_by_key(rank);
    out
}

pub mod checkpoint;
mod options;
mod solve;
mod table;
pub use checkpoint::{CheckpointHead, CyclicCheckpoint};
pub use options::{CheckpointTo, CyclicOptions};
pub use solve::{solve_board, CyclicSolution, Wanted};
pub use table::CyclicTable;
use table::{hash, CondSlot, PathHasher};
