//! The Kalah solver: MTD(f) over a zero-window alpha-beta search with a
//! transposition table, futility pruning, enhanced transposition cut-offs and
//! endgame-table probes, on one or more threads.
//!
//! # Values
//!
//! Inside the search every value is an *active value*: the final difference,
//! mover minus opponent, of the seeds still in the pits, from the view of the
//! side to move. The stores only add a constant, so the transposition table is
//! keyed on the pit contents alone. A move that puts `d` more seeds into the
//! mover's store than into the opponent's (sown, captured, or swept at the end
//! of the game) gives the value `d + v(child)` when the mover moves again
//! (extra turn, same view, no negation) and `d - v(child)` when the turn
//! passes. With `s` seeds in play the active value lies in `[-s, s]` and has
//! the parity of `s`: this is the futility bound.
//!
//! [`solve`] returns the full value (stores included) like the rest of the
//! library.
//!
//! # Depth
//!
//! Depth counts **plies**: every single sowing is one ply, including the
//! moves of an extra-turn chain. Iterative deepening searches depths
//! `step, 2 step, ...` up to the jump depth with a heuristic evaluation at the
//! horizon (the final difference if the game ended there: seeds in the
//! mover's row minus seeds in the opponent's), then jumps to unlimited depth,
//! the only search whose value is exact. Each iteration's value is the next
//! one's first guess. Iterative deepening is off by default
//! ([`SolveOptions::id_step`] 0): with this evaluation it tripled the nodes
//! of Kalah(5,4) (`benches/solve.sh enhancements`); the first guess is then
//! [`SolveOptions::guess`] or 0.
//!
//! # Enhancements
//!
//! Every enhancement can be switched off in [`SolveOptions`] and is counted in
//! [`SearchStats`]:
//! - transposition table ([`tt`]): bounds and best move per position;
//! - futility pruning: a node whose window lies outside `[-s, s]` is cut;
//! - enhanced transposition cut-off (ETC): before searching any child, the
//!   bounds every child already has (from the game end, the tables, the
//!   transposition table and its futility range) are combined; a child bound
//!   at or above the window cuts at once, and when every child's upper bound
//!   is below the window the node fails low without a search;
//! - table probes: a position whose seeds in play are within the loaded
//!   endgame tables is looked up.
//!
//! # Threads
//!
//! With more than one thread the search splits near the root in the
//! young-brothers-wait fashion: at a split node the first (best-ordered) child
//! is searched alone, then the remaining children are searched in parallel
//! (rayon), all threads sharing the lock-free transposition table; when one of
//! them cuts off, the others are told to stop.

pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::position::{format_line, Position};
use crate::rules::{kalah_move, KalahRules, MAX_TABLE_PITS};
use crate::tablebase::Tablebase;
use tt::{Entry, Key, TransTable, FULL_DEPTH, NO_MOVE};

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Rules to play under. Tables are only probed when built under them.
    pub rules: KalahRules,
    /// Size of the transposition table in mebibytes.
    pub tt_mb: usize,
    /// Use the transposition table.
    pub use_tt: bool,
    /// Use futility pruning.
    pub use_futility: bool,
    /// Use enhanced transposition cut-offs.
    pub use_etc: bool,
    /// Probe the endgame tables.
    pub use_tables: bool,
    /// Probe tables only up to this many seeds in play (`None`: all loaded).
    pub max_table_seeds: Option<usize>,
    /// Iterative-deepening step in plies (0, the default: no iterative
    /// deepening, search at full depth at once; the published solver used 3).
    pub id_step: u32,
    /// Last limited depth of iterative deepening; after it the search jumps
    /// to full depth.
    pub id_jump: u32,
    /// First guess of the value (stores included, for the side to move).
    pub guess: Option<i32>,
    /// Worker threads (1: single-threaded; 0: all cores).
    pub threads: usize,
    /// Split the search between threads only at nodes this many plies or
    /// fewer from the root.
    pub split_plies: u32,
    /// Print live progress on stderr (after the first second).
    pub progress: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            rules: KalahRules::Default,
            tt_mb: 64,
            use_tt: true,
            use_futility: true,
            use_etc: true,
            use_tables: true,
            max_table_seeds: None,
            id_step: 0,
            id_jump: 30,
            guess: None,
            threads: 1,
            split_plies: 6,
            progress: false,
        }
    }
}

/// What the search did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// Nodes visited (calls of the zero-window search).
    pub nodes: u64,
    /// Positions answered by an endgame-table probe.
    pub table_hits: u64,
    /// Transposition-table probes that found the position.
    pub tt_hits: u64,
    /// Nodes cut by a transposition-table bound.
    pub tt_cutoffs: u64,
    /// Nodes cut by futility (window outside the reachable range).
    pub futility_cutoffs: u64,
    /// Nodes cut by an enhanced transposition cut-off, before any child search.
    pub etc_cutoffs: u64,
    /// MTD(f) zero-window passes at the root, all iterations.
    pub mtdf_passes: u64,
    /// Iterative-deepening iterations (the final full-depth one included).
    pub iterations: u64,
    /// Subtrees searched in parallel at split nodes.
    pub parallel_tasks: u64,
}

impl SearchStats {
    fn add(&mut self, o: &SearchStats) {
        self.nodes += o.nodes;
        self.table_hits += o.table_hits;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.futility_cutoffs += o.futility_cutoffs;
        self.etc_cutoffs += o.etc_cutoffs;
        self.mtdf_passes += o.mtdf_passes;
        self.iterations += o.iterations;
        self.parallel_tasks += o.parallel_tasks;
    }
}

/// The solution of a position.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// Final store difference for the side to move under perfect play,
    /// stores included.
    pub value: i32,
    /// A best first move (pit from the mover's left); `None` when the game
    /// is over.
    pub best_move: Option<usize>,
    /// The principal variation to the end of the game, turn by turn (the
    /// moves of one turn together, as in `25-10-3`).
    pub pv_turns: Vec<Vec<usize>>,
    /// The principal variation in the published notation.
    pub pv: String,
    /// Search statistics.
    pub stats: SearchStats,
    /// Seconds spent solving (the value; the principal variation excluded).
    pub solve_seconds: f64,
    /// Seconds spent extracting the principal variation.
    pub pv_seconds: f64,
    /// Threads used.
    pub threads: usize,
    /// Largest seed count probed in the tables (0: none).
    pub table_seeds: usize,
}

impl Solution {
    /// "win", "draw" or "loss" for the side to move.
    pub fn verdict(&self) -> &'static str {
        match self.value.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        }
    }

    /// The best first turn (the moves played before the turn passes).
    pub fn best_turn(&self) -> &[usize] {
        self.pv_turns.first().map_or(&[], |t| t.as_slice())
    }
}

/// Solve `position` exactly.
///
/// `tables` are probed when they are for the same board width and rules
/// (see [`SolveOptions::use_tables`] and [`SolveOptions::max_table_seeds`]).
/// Boards of 1 to 6 pits per side are supported.
///
/// ```
/// use mancala::position::Position;
/// use mancala::search::{solve, SolveOptions};
///
/// // Kalah(4,3): a first-player win by 8.
/// let start = Position::start(4, 3).unwrap();
/// let sol = solve(&start, None, &SolveOptions::default()).unwrap();
/// assert_eq!(sol.value, 8);
/// assert_eq!(sol.verdict(), "win");
/// // The principal variation, replayed, ends with that difference.
/// let mut end = start;
/// end.play_line(&sol.pv, Default::default()).unwrap();
/// let [south, north] = end.stores();
/// assert_eq!(south as i32 - north as i32, 8);
/// ```
pub fn solve(
    position: &Position,
    tables: Option<&Tablebase>,
    options: &SolveOptions,
) -> Result<Solution> {
    let m = position.pits_per_side();
    if m > MAX_TABLE_PITS {
        return Err(Error::Unsupported(format!(
            "{m} pits per side: the solver handles 1 to {MAX_TABLE_PITS} pits per side"
        )));
    }
    let store_diff = position.mover_store() as i32 - position.opponent_store() as i32;
    let s = position.active_seeds() as i32;
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };
    let tb = tables.filter(|tb| {
        options.use_tables && tb.pits() == m && tb.rules() == options.rules && tb.max_seeds() > 0
    });
    let tmax = tb.map_or(0, |tb| {
        options
            .max_table_seeds
            .map_or(tb.max_seeds(), |k| k.min(tb.max_seeds()))
    });
    let tb = if tmax > 0 { tb } else { None };
    let sh = Shared {
        m,
        rules: options.rules,
        opts: options.clone(),
        tt: if options.use_tt {
            Some(TransTable::new(options.tt_mb))
        } else {
            None
        },
        tb,
        tmax: tmax as i32,
        threads,
        nodes: AtomicU64::new(0),
        bound_lo: AtomicI32::new(-s + store_diff),
        bound_hi: AtomicI32::new(s + store_diff),
        depth: AtomicU32::new(0),
        store_diff,
    };

    if position.is_game_over(options.rules) {
        return Ok(Solution {
            value: position.final_difference(),
            best_move: None,
            pv_turns: Vec::new(),
            pv: String::new(),
            stats: SearchStats::default(),
            solve_seconds: 0.0,
            pv_seconds: 0.0,
            threads,
            table_seeds: tmax,
        });
    }
    let mut root = [0u8; 12];
    root[..m].copy_from_slice(position.mover_pits());
    root[m..2 * m].copy_from_slice(position.opponent_pits());

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start {threads} threads: {e}")))?;
    let done = AtomicBool::new(false);
    let start = Instant::now();
    let (active, mut stats, solve_seconds, pv_turns, pv_seconds) = std::thread::scope(|scope| {
        if options.progress {
            let sh = &sh;
            let done = &done;
            scope.spawn(move || progress(sh, done, start));
        }
        let out = pool.install(|| {
            let mut searcher = Searcher::new(&sh, None);
            let active = searcher.drive(&root, s);
            let solve_seconds = start.elapsed().as_secs_f64();
            let pv_start = Instant::now();
            let pv = searcher.principal_variation(&root, s, active);
            searcher.flush();
            (
                active,
                searcher.stats,
                solve_seconds,
                pv,
                pv_start.elapsed().as_secs_f64(),
            )
        });
        done.store(true, Ordering::Relaxed);
        out
    });
    stats.nodes = stats.nodes.max(sh.nodes.load(Ordering::Relaxed));
    let best_move = pv_turns.first().and_then(|t| t.first()).copied();
    Ok(Solution {
        value: active + store_diff,
        best_move,
        pv: format_line(&pv_turns),
        pv_turns,
        stats,
        solve_seconds,
        pv_seconds,
        threads,
        table_seeds: tmax,
    })
}

fn progress(sh: &Shared<'_>, done: &AtomicBool, start: Instant) {
    let mut last_nodes = 0u64;
    let mut last_time = start;
    let mut printed = false;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        let now = Instant::now();
        if now.duration_since(last_time) < Duration::from_secs(1) {
            continue;
        }
        let nodes = sh.nodes.load(Ordering::Relaxed);
        let rate = (nodes - last_nodes) as f64 / now.duration_since(last_time).as_secs_f64();
        last_nodes = nodes;
        last_time = now;
        let depth = sh.depth.load(Ordering::Relaxed);
        let depth = if depth == FULL_DEPTH as u32 {
            "full".to_string()
        } else {
            depth.to_string()
        };
        eprint!(
            "\r[{:>7.1} s] MTD(f) depth {depth}: value in [{}, {}], {} nodes, {:.2} M nodes/s   ",
            now.duration_since(start).as_secs_f64(),
            sh.bound_lo.load(Ordering::Relaxed),
            sh.bound_hi.load(Ordering::Relaxed),
            nodes,
            rate / 1e6
        );
        printed = true;
    }
    if printed {
        eprintln!();
    }
}

/// Everything the threads share.
struct Shared<'t> {
    m: usize,
    rules: KalahRules,
    opts: SolveOptions,
    tt: Option<TransTable>,
    tb: Option<&'t Tablebase>,
    tmax: i32,
    threads: usize,
    nodes: AtomicU64,
    bound_lo: AtomicI32,
    bound_hi: AtomicI32,
    depth: AtomicU32,
    store_diff: i32,
}

/// A chain of stop flags: a subtree searched at a split node stops when its
/// own flag or any ancestor split's flag is set.
struct Cancel<'a> {
    flag: &'a AtomicBool,
    parent: Option<&'a Cancel<'a>>,
}

impl Cancel<'_> {
    fn is_set(&self) -> bool {
        let mut c = Some(self);
        while let Some(x) = c {
            if x.flag.load(Ordering::Relaxed) {
                return true;
            }
            c = x.parent;
        }
        false
    }
}

/// One child of a node, with the bounds already known on the parent's value
/// through it.
#[derive(Clone, Copy)]
struct Child {
    pit: u8,
    pits: [u8; 12],
    seeds: i32,
    delta: i32,
    extra: bool,
    over: bool,
    captured: u8,
    lo: i32,
    hi: i32,
}

struct Searcher<'s> {
    sh: &'s Shared<'s>,
    cancel: Option<&'s Cancel<'s>>,
    stats: SearchStats,
    aborted: bool,
    flushed: u64,
}

#[inline]
fn dec(depth: u8) -> u8 {
    if depth == FULL_DEPTH {
        FULL_DEPTH
    } else {
        depth - 1
    }
}

#[inline]
fn share_ceil(v: i32, s: i32) -> u8 {
    ((v + s + 1).div_euclid(2)).clamp(0, s) as u8
}

#[inline]
fn share_floor(v: i32, s: i32) -> u8 {
    ((v + s).div_euclid(2)).clamp(0, s) as u8
}

impl<'s> Searcher<'s> {
    fn new(sh: &'s Shared<'s>, cancel: Option<&'s Cancel<'s>>) -> Searcher<'s> {
        Searcher {
            sh,
            cancel,
            stats: SearchStats::default(),
            aborted: false,
            flushed: 0,
        }
    }

    fn flush(&mut self) {
        self.sh
            .nodes
            .fetch_add(self.stats.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.stats.nodes;
    }

    /// Iterative deepening around MTD(f); returns the exact active value.
    fn drive(&mut self, root: &[u8; 12], s: i32) -> i32 {
        let o = &self.sh.opts;
        let mut guess = o.guess.map_or(0, |g| g - self.sh.store_diff).clamp(-s, s);
        if o.id_step > 0 {
            let mut d = o.id_step;
            while d <= o.id_jump.min(FULL_DEPTH as u32 - 1) {
                guess = self.mtdf(root, s, d as u8, guess);
                d += o.id_step;
            }
        }
        self.mtdf(root, s, FULL_DEPTH, guess)
    }

    fn mtdf(&mut self, root: &[u8; 12], s: i32, depth: u8, guess: i32) -> i32 {
        self.stats.iterations += 1;
        self.sh.depth.store(depth as u32, Ordering::Relaxed);
        let (mut lower, mut upper) = (-s - 1, s + 1);
        let mut g = guess;
        while lower < upper {
            let beta = if g <= lower { lower + 1 } else { g.min(upper) };
            self.stats.mtdf_passes += 1;
            g = self.search(root, s, depth, 0, beta);
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
            if depth == FULL_DEPTH {
                let sd = self.sh.store_diff;
                self.sh
                    .bound_lo
                    .store(lower.max(-s) + sd, Ordering::Relaxed);
                self.sh.bound_hi.store(upper.min(s) + sd, Ordering::Relaxed);
            }
        }
        g
    }

    #[inline]
    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.is_set())
    }

    /// Exact active value of a position in play from the tables, if loaded.
    #[inline]
    fn probe_table(&self, pits: &[u8; 12], s: i32) -> Option<i32> {
        if s > self.sh.tmax {
            return None;
        }
        let tb = self.sh.tb?;
        let m = self.sh.m;
        let a: usize = pits[..m].iter().map(|&x| x as usize).sum();
        if !tb.table(s as usize)?.indexer().holds_mover_sum(a) {
            return None;
        }
        tb.rows_value(&pits[..m], &pits[m..2 * m], a, s as usize)
    }

    #[inline]
    fn make_child(&self, pits: &[u8; 12], s: i32, pit: usize) -> Child {
        let m = self.sh.m;
        let mut c = [0u8; 14];
        c[..m].copy_from_slice(&pits[..m]);
        c[m + 1..2 * m + 1].copy_from_slice(&pits[m..2 * m]);
        let mv = kalah_move(&mut c[..2 * m + 2], m, pit, self.sh.rules);
        let gained = c[m] as i32;
        let lost = c[2 * m + 1] as i32;
        let mut np = [0u8; 12];
        if mv.extra_turn || mv.game_over {
            np[..m].copy_from_slice(&c[..m]);
            np[m..2 * m].copy_from_slice(&c[m + 1..2 * m + 1]);
        } else {
            np[..m].copy_from_slice(&c[m + 1..2 * m + 1]);
            np[m..2 * m].copy_from_slice(&c[..m]);
        }
        let delta = gained - lost;
        let (lo, hi) = if mv.game_over {
            (delta, delta)
        } else {
            (i32::MIN / 4, i32::MAX / 4)
        };
        Child {
            pit: pit as u8,
            pits: np,
            seeds: s - gained - lost,
            delta,
            extra: mv.extra_turn,
            over: mv.game_over,
            captured: mv.captured,
            lo,
            hi,
        }
    }

    /// The children of a position in play, best-ordered: the transposition
    /// move, then extra turns, then captures, then right to left.
    #[inline]
    fn children(&self, pits: &[u8; 12], s: i32, tt_move: u8, out: &mut [Child; 6]) -> usize {
        let m = self.sh.m;
        let mut n = 0;
        let mut rank = [0u32; 6];
        for pit in (0..m).rev() {
            if pits[pit] == 0 {
                continue;
            }
            let c = self.make_child(pits, s, pit);
            rank[n] = if pit as u8 == tt_move {
                0
            } else if c.extra {
                1
            } else if c.captured > 0 {
                2
            } else {
                3
            };
            out[n] = c;
            n += 1;
        }
        // Insertion sort by rank; stable, so right-to-left within a rank.
        for i in 1..n {
            let mut j = i;
            while j > 0 && rank[j - 1] > rank[j] {
                rank.swap(j - 1, j);
                out.swap(j - 1, j);
                j -= 1;
            }
        }
        n
    }

    /// Bounds on the parent's value through child `c`, from the tables, the
    /// transposition table and futility.
    #[inline]
    fn child_bounds(&mut self, c: &mut Child, depth: u8) {
        if c.over {
            return;
        }
        let o = &self.sh.opts;
        let d = c.delta;
        let to_parent = |lo: i32, hi: i32| {
            if c.extra {
                (d + lo, d + hi)
            } else {
                (d - hi, d - lo)
            }
        };
        if o.use_tables {
            if let Some(v) = self.probe_table(&c.pits, c.seeds) {
                self.stats.table_hits += 1;
                (c.lo, c.hi) = to_parent(v, v);
                return;
            }
        }
        let (mut lo, mut hi) = if o.use_futility {
            (-c.seeds, c.seeds)
        } else {
            (i32::MIN / 4, i32::MAX / 4)
        };
        if let Some(tt) = &self.sh.tt {
            if let Some(e) = tt.probe(Key::new(&c.pits[..2 * self.sh.m])) {
                self.stats.tt_hits += 1;
                if e.depth >= dec(depth) {
                    lo = lo.max(e.lower(c.seeds));
                    hi = hi.min(e.upper(c.seeds));
                }
            }
        }
        (c.lo, c.hi) = to_parent(lo, hi);
    }

    #[inline]
    fn child_value(&mut self, c: &Child, depth: u8, ply: u32, gamma: i32) -> i32 {
        let d = c.delta;
        if c.extra {
            d + self.search(&c.pits, c.seeds, dec(depth), ply + 1, gamma - d)
        } else {
            d - self.search(&c.pits, c.seeds, dec(depth), ply + 1, d - gamma + 1)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn store(&self, pits: &[u8; 12], s: i32, depth: u8, gamma: i32, best: i32, mv: u8, work: u64) {
        if let Some(tt) = &self.sh.tt {
            let (lo_share, hi_share) = if best >= gamma {
                (share_ceil(best, s), s as u8)
            } else {
                (0, share_floor(best, s))
            };
            tt.store(
                Key::new(&pits[..2 * self.sh.m]),
                Entry {
                    lo_share,
                    hi_share,
                    depth,
                    best: mv,
                    work: (64 - work.leading_zeros()) as u8,
                },
            );
        }
    }

    /// Zero-window, fail-soft alpha-beta: a value `>= gamma` is a lower bound,
    /// a value `< gamma` an upper bound on the active value of the position
    /// in play `pits` (mover's row then opponent's) with `s` seeds in play.
    fn search(&mut self, pits: &[u8; 12], s: i32, depth: u8, ply: u32, gamma: i32) -> i32 {
        self.stats.nodes += 1;
        if self.stats.nodes & 0x3ff == 0 {
            self.flush();
            if self.cancelled() {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        let sh = self.sh;
        let o = &sh.opts;
        let m = sh.m;
        if o.use_futility {
            if gamma > s {
                self.stats.futility_cutoffs += 1;
                return s;
            }
            if gamma <= -s {
                self.stats.futility_cutoffs += 1;
                return -s;
            }
        }
        if let Some(v) = self.probe_table(pits, s) {
            self.stats.table_hits += 1;
            return v;
        }
        if depth == 0 {
            let a: i32 = pits[..m].iter().map(|&x| x as i32).sum();
            return 2 * a - s;
        }
        let mut tt_move = NO_MOVE;
        if let Some(tt) = &sh.tt {
            if let Some(e) = tt.probe(Key::new(&pits[..2 * m])) {
                self.stats.tt_hits += 1;
                tt_move = e.best;
                if e.depth >= depth {
                    let lo = e.lower(s);
                    if lo >= gamma {
                        self.stats.tt_cutoffs += 1;
                        return lo;
                    }
                    let hi = e.upper(s);
                    if hi < gamma {
                        self.stats.tt_cutoffs += 1;
                        return hi;
                    }
                }
            }
        }
        let nodes_before = self.stats.nodes;
        let mut kids = [Child {
            pit: 0,
            pits: [0; 12],
            seeds: 0,
            delta: 0,
            extra: false,
            over: false,
            captured: 0,
            lo: 0,
            hi: 0,
        }; 6];
        let n = self.children(pits, s, tt_move, &mut kids);
        if o.use_etc {
            if let Some(tt) = &sh.tt {
                for c in kids[..n].iter() {
                    if !c.over && c.seeds > sh.tmax {
                        tt.prefetch(Key::new(&c.pits[..2 * m]));
                    }
                }
            }
            let mut max_hi = i32::MIN;
            let mut max_hi_move = NO_MOVE;
            for c in kids[..n].iter_mut() {
                self.child_bounds(c, depth);
                if c.lo >= gamma {
                    self.stats.etc_cutoffs += 1;
                    self.store(pits, s, depth, gamma, c.lo, c.pit, 1);
                    return c.lo;
                }
                if c.hi > max_hi {
                    max_hi = c.hi;
                    max_hi_move = c.pit;
                }
            }
            if max_hi < gamma {
                self.stats.etc_cutoffs += 1;
                self.store(pits, s, depth, gamma, max_hi, max_hi_move, 1);
                return max_hi;
            }
        }
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        let split = sh.threads > 1
            && ply < o.split_plies
            && depth > 8
            && s > sh.tmax + 4
            && sh.tt.is_some();
        let mut i = 0;
        while i < n {
            let c = kids[i];
            i += 1;
            let v = if c.hi < gamma || c.lo == c.hi {
                c.hi
            } else {
                let v = self.child_value(&c, depth, ply, gamma);
                if self.aborted {
                    return 0;
                }
                v
            };
            if v > best {
                best = v;
                best_move = c.pit;
            }
            if best >= gamma {
                break;
            }
            if split && i < n {
                // Young brothers wait: the first child is done; the rest in parallel.
                let rest: Vec<Child> = kids[i..n].to_vec();
                i = n;
                let (v, mv) = self.parallel(&rest, depth, ply, gamma);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = mv;
                }
            }
        }
        self.store(
            pits,
            s,
            depth,
            gamma,
            best,
            best_move,
            self.stats.nodes - nodes_before,
        );
        best
    }

    /// Search `rest` in parallel; returns the best value and its move, or
    /// sets `aborted` when an ancestor split was cancelled.
    fn parallel(&mut self, rest: &[Child], depth: u8, ply: u32, gamma: i32) -> (i32, u8) {
        let flag = AtomicBool::new(false);
        let cancel = Cancel {
            flag: &flag,
            parent: self.cancel,
        };
        let sh = self.sh;
        let cancel_ref = &cancel;
        let flag_ref = &flag;
        let results: Vec<(i32, u8, SearchStats, bool)> = rest
            .par_iter()
            .map(|c| {
                if c.hi < gamma || c.lo == c.hi {
                    return (c.hi, c.pit, SearchStats::default(), false);
                }
                let mut sub = Searcher::new(sh, Some(cancel_ref));
                sub.stats.parallel_tasks = 1;
                let v = if cancel_ref.is_set() {
                    sub.aborted = true;
                    0
                } else {
                    sub.child_value(c, depth, ply, gamma)
                };
                if !sub.aborted && v >= gamma {
                    flag_ref.store(true, Ordering::Relaxed);
                }
                sub.flush();
                (v, c.pit, sub.stats, sub.aborted)
            })
            .collect();
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        let mut any_aborted = false;
        for (v, mv, st, aborted) in &results {
            // Sub-searchers flushed their own nodes to the shared counter.
            self.flushed += st.nodes;
            self.stats.add(st);
            if *aborted {
                any_aborted = true;
            } else if *v > best {
                best = *v;
                best_move = *mv;
            }
        }
        if self.cancelled() || (any_aborted && best < gamma) {
            self.aborted = true;
        }
        (best, best_move)
    }

    /// The principal variation from a position in play of active value `v`,
    /// turn by turn, to the end of the game.
    fn principal_variation(&mut self, root: &[u8; 12], s: i32, v: i32) -> Vec<Vec<usize>> {
        let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
        let (mut pits, mut s, mut v) = (*root, s, v);
        let m = self.sh.m;
        loop {
            let tt_move = self
                .sh
                .tt
                .as_ref()
                .and_then(|tt| tt.probe(Key::new(&pits[..2 * m])))
                .map_or(NO_MOVE, |e| e.best);
            let mut kids = [Child {
                pit: 0,
                pits: [0; 12],
                seeds: 0,
                delta: 0,
                extra: false,
                over: false,
                captured: 0,
                lo: 0,
                hi: 0,
            }; 6];
            let n = self.children(&pits, s, tt_move, &mut kids);
            let mut chosen = None;
            for c in kids[..n].iter() {
                let d = c.delta;
                let reaches = if c.over {
                    d == v
                } else if let Some(cv) = self.probe_table(&c.pits, c.seeds) {
                    (if c.extra { d + cv } else { d - cv }) == v
                } else if c.extra {
                    self.search(&c.pits, c.seeds, FULL_DEPTH, 1, v - d) >= v - d
                } else {
                    self.search(&c.pits, c.seeds, FULL_DEPTH, 1, d - v + 1) < d - v + 1
                };
                if reaches {
                    chosen = Some(*c);
                    break;
                }
            }
            let c = chosen.expect("some move reaches the value of the position");
            turns.last_mut().unwrap().push(c.pit as usize);
            if c.over {
                break;
            }
            if c.extra {
                v -= c.delta;
            } else {
                v = c.delta - v;
                turns.push(Vec::new());
            }
            pits = c.pits;
            s = c.seeds;
        }
        turns
    }
}
