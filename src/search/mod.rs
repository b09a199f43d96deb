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
//! horizon (the stores only: the seeds in play split evenly, the odd one to
//! the opponent so that the value keeps the parity of the seeds in play),
//! then jumps to unlimited depth, the only search whose value is exact. Each
//! iteration's value is the next one's first guess. By default
//! ([`SolveOptions::id_step`] 10, [`SolveOptions::id_jump`] 20) two shallow
//! iterations (10 and 20 plies) provide the first guess of the exact
//! search: with the banked move order they cost less than the MTD(f) passes
//! they save on full-size games (Kalah(6,4) with 20-seed tables: 7.8 M
//! nodes instead of 19.5 M; Kalah(5,5): 9.9 M instead of 15.4 M), while the
//! published schedule (step 3, jump 30) costs more than it saves
//! (`benches/solve.sh enhancements`). With `id_step` 0 the first guess is
//! [`SolveOptions::guess`] or 0. Iterative deepening is also what gives a
//! move under a time budget.
//!
//! # Time budget
//!
//! [`SolveOptions::deadline`] (an [`Instant`]) and [`SolveOptions::stop`]
//! (an `Arc<AtomicBool>` another thread may set) stop the search; they are
//! checked every 1024 nodes, and honoured once the first iterative-deepening
//! iteration is complete (at once without iterative deepening), so a
//! stopped solve always has a move backed by a search when
//! [`SolveOptions::id_step`] is set. A stopped solve returns
//! [`Solution::exact`] false with the bounds the full-depth MTD(f) passes
//! proved ([`Solution::lower`], [`Solution::upper`]; `-s..=s` around the
//! stores when none), the best move so far and, as `value`, an estimate (see
//! [`Solution::best_move`] and [`Solution::value`]). A solve that finishes
//! before the deadline is exact, and its principal variation is extracted
//! whatever the clock says. [`SolveOptions::shared_tt`] lets successive
//! solves (an agent's moves) share one transposition table.
//!
//! # Enhancements
//!
//! Every enhancement can be switched off in [`SolveOptions`] and is counted in
//! [`SearchStats`]:
//! - transposition table ([`tt`]): bounds and best move per position; the
//!   positions within [`SolveOptions::near_seeds`] seeds of the tables use
//!   a small table per thread that stays in the cache
//!   ([`SolveOptions::near_tt_kb`]);
//! - futility pruning: a node whose window lies outside `[-s, s]` is cut;
//! - enhanced transposition cut-off (ETC): before searching any child, the
//!   bounds every child already has (from the game end, the tables, the
//!   near transposition table and its futility range) are combined; a child
//!   bound at or above the window cuts at once, and when every child's upper
//!   bound is below the window the node fails low without a search. The
//!   children's entries in the main transposition table are read only with
//!   [`SolveOptions::etc_main_tt`]: that table does not fit in the cache,
//!   and waiting for every child's entry before the first child is searched
//!   costs more time than its cut-offs save (`benches/solve.sh
//!   enhancements`); without it a child's entry is read when the child is
//!   searched, and a bound there cuts at once;
//! - table probes: a position whose seeds in play are within the loaded
//!   endgame tables is looked up (one read when the tables were decoded
//!   into memory, [`Tablebase::load_into_memory`]).
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
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::position::{format_line, Position};
use crate::rules::{packed, KalahRules, MAX_TABLE_PITS};
use crate::tablebase::Tablebase;
pub use tt::TransTable;
use tt::{Entry, Key, FULL_DEPTH, NO_MOVE};

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Rules to play under. Tables are only probed when built under them.
    pub rules: KalahRules,
    /// Size of the transposition table in mebibytes (default 32: with the
    /// near table, enough for Kalah(6,4), and the pages the kernel zeroes
    /// on first touch cost search time on a virtual machine; give bigger
    /// solves more).
    pub tt_mb: usize,
    /// Size of the near transposition table in kibibytes (0: none). The
    /// positions within [`SolveOptions::near_seeds`] seeds of the largest
    /// loaded table are most of the nodes, and few of them are ever seen
    /// twice; they get a table of their own, small enough to stay in the
    /// processor's cache, so that probing and storing them costs no cache
    /// miss and does not evict the entries of the big table.
    pub near_tt_kb: usize,
    /// Positions with at most this many seeds in play above the largest
    /// loaded table use the near transposition table.
    pub near_seeds: u32,
    /// Use the transposition table.
    pub use_tt: bool,
    /// Use futility pruning.
    pub use_futility: bool,
    /// Use enhanced transposition cut-offs.
    pub use_etc: bool,
    /// Let the enhanced transposition cut-off read the children's bounds
    /// from the main transposition table too, not only from the near one
    /// (default off). The main table is far larger than the processor's
    /// caches: reading every child's entry before searching any of them
    /// waits on memory at each node, and on Kalah(6,4), (5,5) and (5,6)
    /// that wait costs more than the cut-offs it finds (on Kalah(6,5) with
    /// an 8 GiB table it is a wash; a child's own search still reads its
    /// entry first and cuts there). See
    /// "Enhancements" in the module documentation.
    pub etc_main_tt: bool,
    /// Probe the endgame tables.
    pub use_tables: bool,
    /// Move ordering after the transposition move.
    pub order: MoveOrder,
    /// Probe tables only up to this many seeds in play (`None`: all loaded).
    pub max_table_seeds: Option<usize>,
    /// Iterative-deepening step in plies (default 10; 0: no iterative
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
    /// Stop searching at this instant and return the best result so far
    /// ([`Solution::exact`] false). See "Time budget" in the module
    /// documentation.
    pub deadline: Option<Instant>,
    /// Stop searching when this flag becomes true (set by another thread),
    /// like a passed [`SolveOptions::deadline`].
    pub stop: Option<Arc<AtomicBool>>,
    /// Use this transposition table instead of allocating one of
    /// [`SolveOptions::tt_mb`]: its entries survive from one solve to the
    /// next (an agent playing a game reuses them move after move). Only
    /// share it between solves under the same rules, tables and options.
    pub shared_tt: Option<Arc<TransTable>>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            rules: KalahRules::Default,
            tt_mb: 32,
            near_tt_kb: 256,
            near_seeds: 6,
            use_tt: true,
            use_futility: true,
            use_etc: true,
            etc_main_tt: false,
            use_tables: true,
            order: MoveOrder::Banked,
            max_table_seeds: None,
            id_step: 10,
            id_jump: 20,
            guess: None,
            threads: 1,
            split_plies: 12,
            progress: false,
            deadline: None,
            stop: None,
            shared_tt: None,
        }
    }
}

/// How the children of a node are ordered after the transposition move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveOrder {
    /// Extra turns, then the other moves by the seeds they bank for the
    /// mover, most first; ties: fewest seeds sown into the opponent's pits,
    /// then the smallest pit, then right to left.
    #[default]
    Banked,
    /// The first published solver's order: extra turns, then captures, then
    /// right to left.
    Published,
}

impl MoveOrder {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            MoveOrder::Banked => "banked",
            MoveOrder::Published => "published",
        }
    }
}

impl std::str::FromStr for MoveOrder {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        [MoveOrder::Banked, MoveOrder::Published]
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| format!("unknown move order '{s}': use banked or published"))
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
    /// stores included, when [`Solution::exact`]. When the search was
    /// stopped: an estimate, the value of the deepest completed
    /// iterative-deepening iteration (or the first guess) brought within
    /// the proven bounds.
    pub value: i32,
    /// Whether the value is proven (the search ran to its end). False when a
    /// [`SolveOptions::deadline`] or [`SolveOptions::stop`] ended it first.
    pub exact: bool,
    /// Proven lower bound on the value (stores included; equal to `value`
    /// when exact).
    pub lower: i32,
    /// Proven upper bound on the value (stores included; equal to `value`
    /// when exact).
    pub upper: i32,
    /// Plies of the deepest completed iterative-deepening iteration (0: none;
    /// the full-depth search is not counted).
    pub depth: u32,
    /// A best first move (pit from the mover's left); `None` when the game
    /// is over. When not exact, the best move found so far: the move that
    /// proved [`Solution::lower`] if the full-depth search proved a lower
    /// bound, else the best move of the deepest completed iteration, else
    /// the first move in the search order.
    pub best_move: Option<usize>,
    /// The principal variation to the end of the game, turn by turn (the
    /// moves of one turn together, as in `25-10-3`). When not exact, only
    /// the best move.
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
        rules: options.rules,
        opts: options.clone(),
        tt: if options.use_tt {
            Some(match &options.shared_tt {
                Some(tt) => tt.clone(),
                None => Arc::new(TransTable::try_with_kib(
                    options.tt_mb.max(1).saturating_mul(1 << 10),
                )?),
            })
        } else {
            None
        },
        near: if options.use_tt && options.near_tt_kb > 0 {
            (0..threads)
                .map(|_| TransTable::try_with_kib(options.near_tt_kb))
                .collect::<Result<Vec<_>>>()?
        } else {
            Vec::new()
        },
        near_max: tmax as i32 + options.near_seeds.min(1000) as i32,
        tb,
        tmax: tmax as i32,
        mapped: tb
            .is_some_and(|tb| (1..=tmax).any(|k| tb.table(k).is_some_and(|t| !t.in_memory()))),
        threads,
        nodes: AtomicU64::new(0),
        bound_lo: AtomicI32::new(-s + store_diff),
        bound_hi: AtomicI32::new(s + store_diff),
        depth: AtomicU32::new(0),
        store_diff,
        stop_ready: AtomicBool::new(options.id_step == 0),
        stopped: AtomicBool::new(false),
    };

    if position.is_game_over(options.rules) {
        let v = position.final_difference();
        return Ok(Solution {
            value: v,
            exact: true,
            lower: v,
            upper: v,
            depth: 0,
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

    let done = AtomicBool::new(false);
    let start = Instant::now();
    let run = std::thread::scope(|scope| -> Result<Run> {
        if options.progress {
            let sh = &sh;
            let done = &done;
            scope.spawn(move || progress(sh, done, start));
        }
        let go = || match m {
            1 => run::<1>(&sh, &root, s, start),
            2 => run::<2>(&sh, &root, s, start),
            3 => run::<3>(&sh, &root, s, start),
            4 => run::<4>(&sh, &root, s, start),
            5 => run::<5>(&sh, &root, s, start),
            _ => run::<6>(&sh, &root, s, start),
        };
        let out = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| Error::Unsupported(format!("cannot start {threads} threads: {e}")));
            pool.map(|pool| pool.install(go))
        } else {
            // One thread never splits: no pool needed.
            Ok(go())
        };
        done.store(true, Ordering::Relaxed);
        out
    })?;
    let mut stats = run.stats;
    stats.nodes = stats.nodes.max(sh.nodes.load(Ordering::Relaxed));
    let best_move = run.pv_turns.first().and_then(|t| t.first()).copied();
    let o = &run.outcome;
    let (value, lower, upper) = match o.exact {
        Some(v) => (v, v, v),
        None => (o.estimate, o.lower, o.upper),
    };
    Ok(Solution {
        value: value + store_diff,
        exact: o.exact.is_some(),
        lower: lower + store_diff,
        upper: upper + store_diff,
        depth: o.depth,
        best_move,
        pv: format_line(&run.pv_turns),
        pv_turns: run.pv_turns,
        stats,
        solve_seconds: run.solve_seconds,
        pv_seconds: run.pv_seconds,
        threads,
        table_seeds: tmax,
    })
}

/// What [`run`] returns.
struct Run {
    outcome: Outcome,
    stats: SearchStats,
    solve_seconds: f64,
    pv_turns: Vec<Vec<usize>>,
    pv_seconds: f64,
}

/// Solve from `root` on boards of `M` pits, then extract the principal
/// variation (or, when stopped, the best move so far).
fn run<const M: usize>(sh: &Shared<'_>, root: &[u8; 12], s: i32, start: Instant) -> Run {
    let mut searcher = Searcher::<M>::new(sh, None);
    let root = packed::word(root);
    let outcome = searcher.drive(root, s);
    let solve_seconds = start.elapsed().as_secs_f64();
    let pv_start = Instant::now();
    searcher.aborted = false;
    // The principal variation is extracted to the end, whatever the clock.
    searcher.stoppable = false;
    let pv_turns = match outcome.exact {
        Some(v) => searcher.principal_variation(root, s, v),
        None => {
            let best = if outcome.best != NO_MOVE {
                outcome.best
            } else {
                searcher.first_move(root, s)
            };
            vec![vec![best as usize]]
        }
    };
    searcher.flush();
    Run {
        outcome,
        stats: searcher.stats,
        solve_seconds,
        pv_turns,
        pv_seconds: pv_start.elapsed().as_secs_f64(),
    }
}

/// What the driver found: the exact active value, or (when stopped) the
/// proven bounds and the best move so far.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    exact: Option<i32>,
    lower: i32,
    upper: i32,
    /// Best move so far (`NO_MOVE`: none known).
    best: u8,
    estimate: i32,
    depth: u32,
}

/// The result of one MTD(f) run at one depth.
struct Mtd {
    lower: i32,
    upper: i32,
    /// The value when it converged.
    value: Option<i32>,
    /// The root move that proved `lower` (`NO_MOVE` if none did).
    lower_move: u8,
    /// The root move of the last completed pass.
    last_move: u8,
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
    rules: KalahRules,
    opts: SolveOptions,
    tt: Option<Arc<TransTable>>,
    /// The near transposition tables ([`SolveOptions::near_tt_kb`]), one
    /// per thread: shared, their cache lines would bounce between the cores.
    near: Vec<TransTable>,
    /// Positions with at most this many seeds in play use `near`.
    near_max: i32,
    tb: Option<&'t Tablebase>,
    tmax: i32,
    /// Some loaded table is read from its file (not decoded into memory):
    /// its look-ups need the second prefetch stage.
    mapped: bool,
    threads: usize,
    nodes: AtomicU64,
    /// The deadline and stop flag are honoured (after the first iteration).
    stop_ready: AtomicBool,
    /// The deadline has passed or the stop flag was seen.
    stopped: AtomicBool,
    bound_lo: AtomicI32,
    bound_hi: AtomicI32,
    depth: AtomicU32,
    store_diff: i32,
}

impl Shared<'_> {
    /// Whether the deadline has passed or the stop flag is set (checked
    /// every 1024 nodes); always false before the first iteration is done.
    fn stop_requested(&self) -> bool {
        if !self.stop_ready.load(Ordering::Relaxed) {
            return false;
        }
        if self.stopped.load(Ordering::Relaxed) {
            return true;
        }
        let o = &self.opts;
        let stop = o.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
            || o.deadline.is_some_and(|d| Instant::now() >= d);
        if stop {
            self.stopped.store(true, Ordering::Relaxed);
        }
        stop
    }
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
    /// The child's pits as a [`packed::word`], seen from its side to move.
    pits: u128,
    /// The child's index in its endgame table when its seeds in play are
    /// within the tables, else its transposition bucket; [`NO_SLOT`]: not
    /// computed.
    slot: u64,
    /// Bounds on the parent's value through this child.
    lo: i32,
    hi: i32,
    /// Seeds the move banked for the mover minus the opponent's
    /// ([`Child::delta`]).
    banked: i16,
    /// Seeds in play in the child ([`Child::seeds`]).
    in_play: i16,
    /// The child's transposition entry, when ETC probed it (`probed`): the
    /// child's own search starts from it instead of probing again.
    entry: Option<Entry>,
    probed: bool,
    pit: u8,
    extra: bool,
    over: bool,
}

impl Child {
    /// Seeds the move banked for the mover minus the opponent's: sown into
    /// the store, captured, and swept in when the game ends.
    #[inline(always)]
    fn delta(&self) -> i32 {
        self.banked as i32
    }

    /// Seeds in play in the child.
    #[inline(always)]
    fn seeds(&self) -> i32 {
        self.in_play as i32
    }

    /// What is known of the child's transposition entry: the entry and
    /// bucket ETC found if it probed, else the bucket computed when the
    /// child was generated (a child above the tables), else nothing.
    #[inline]
    fn probed(&self) -> Option<Probed> {
        if self.probed || self.slot != NO_SLOT {
            Some(Probed {
                entry: self.entry,
                bucket: self.slot as usize,
                done: self.probed,
            })
        } else {
            None
        }
    }
}

/// A position's transposition bucket and, when `done`, the entry a probe
/// found there.
#[derive(Clone, Copy)]
struct Probed {
    entry: Option<Entry>,
    bucket: usize,
    /// The bucket was probed (`entry` is what it held).
    done: bool,
}

/// "No bucket computed" in [`Searcher::store`].
const NO_BUCKET: usize = usize::MAX;

/// Bit 7 of every byte.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
/// Bit 0 of every byte.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// "Not computed" in [`Child::slot`].
const NO_SLOT: u64 = u64::MAX;

const EMPTY_CHILD: Child = Child {
    pits: 0,
    slot: NO_SLOT,
    lo: 0,
    hi: 0,
    banked: 0,
    in_play: 0,
    entry: None,
    probed: false,
    pit: 0,
    extra: false,
    over: false,
};

struct Searcher<'s, const M: usize> {
    sh: &'s Shared<'s>,
    cancel: Option<&'s Cancel<'s>>,
    stats: SearchStats,
    aborted: bool,
    flushed: u64,
    /// Whether the deadline and stop flag apply (not while extracting the
    /// principal variation of a finished solve).
    stoppable: bool,
    /// Best move of the root found by the last pass (`NO_MOVE` if none).
    root_move: u8,
    /// This thread's near transposition table, if any.
    near: Option<&'s TransTable>,
    /// Positions with at most this many seeds in play use `near`
    /// (`i32::MIN` without one).
    near_max: i32,
    /// The shared transposition table, if any.
    main: Option<&'s TransTable>,
    /// Positions with more seeds in play than this are not looked up in
    /// the transposition table by the enhanced transposition cut-off
    /// (`i32::MAX` with [`SolveOptions::etc_main_tt`], else `near_max`).
    etc_tt_max: i32,
}

/// The search order of a move that sowed `sown` seeds (lower first; ties
/// keep the right-to-left order of generation), after the transposition
/// move: the extra turns first; then,
/// with [`MoveOrder::Banked`], the other moves by the seeds they bank for the
/// mover (sown into the store, captured, or swept at the end, minus what the
/// opponent sweeps), most first, which also puts first the moves that take
/// the game closest to the endgame tables; among those, fewest seeds sown
/// into the opponent's pits first, then the smallest pit. With
/// [`MoveOrder::Published`]: captures, then the rest. Measured with
/// `benches/solve.sh ordering` (random positions), banking halves the tree
/// of the published order and the two tie-breaks take another quarter.
#[inline]
fn order_rank(mv: &packed::PackedMove, sown: u8, order: MoveOrder) -> u32 {
    if mv.extra_turn {
        1
    } else if order == MoveOrder::Published {
        if mv.captured > 0 {
            2
        } else {
            3
        }
    } else {
        let banked = (1024 - mv.delta).clamp(0, 2047) as u32;
        2 + (banked << 16 | (mv.given as u32) << 8 | sown as u32)
    }
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

impl<'s, const M: usize> Searcher<'s, M> {
    fn new(sh: &'s Shared<'s>, cancel: Option<&'s Cancel<'s>>) -> Searcher<'s, M> {
        let near = sh
            .near
            .get(rayon::current_thread_index().unwrap_or(0))
            .or(sh.near.first());
        let near_max = if near.is_some() {
            sh.near_max
        } else {
            i32::MIN
        };
        Searcher {
            sh,
            cancel,
            stats: SearchStats::default(),
            aborted: false,
            flushed: 0,
            stoppable: true,
            root_move: NO_MOVE,
            near,
            near_max,
            main: sh.tt.as_deref(),
            etc_tt_max: if sh.opts.etc_main_tt {
                i32::MAX
            } else {
                near_max
            },
        }
    }

    /// The transposition table of the positions with `s` seeds in play.
    #[inline(always)]
    fn tt(&self, s: i32) -> Option<&'s TransTable> {
        if s <= self.near_max {
            self.near
        } else {
            self.main
        }
    }

    fn flush(&mut self) {
        self.sh
            .nodes
            .fetch_add(self.stats.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.stats.nodes;
    }

    /// Iterative deepening around MTD(f): the exact active value, or what
    /// was found when the search was stopped.
    fn drive(&mut self, root: u128, s: i32) -> Outcome {
        let sh = self.sh;
        let o = &sh.opts;
        let mut guess = o.guess.map_or(0, |g| g - sh.store_diff).clamp(-s, s);
        let mut out = Outcome {
            exact: None,
            lower: -s,
            upper: s,
            best: NO_MOVE,
            estimate: guess,
            depth: 0,
        };
        if o.id_step > 0 {
            let mut d = o.id_step;
            while d <= o.id_jump.min(FULL_DEPTH as u32 - 1) {
                let r = self.mtdf(root, s, d as u8, guess);
                let Some(v) = r.value else {
                    return out;
                };
                guess = v;
                out.estimate = v;
                out.depth = d;
                out.best = if r.lower_move != NO_MOVE {
                    r.lower_move
                } else {
                    r.last_move
                };
                // From now on the deadline and the stop flag are honoured.
                sh.stop_ready.store(true, Ordering::Relaxed);
                if self.stoppable && sh.stop_requested() {
                    return out;
                }
                d += o.id_step;
            }
        }
        sh.stop_ready.store(true, Ordering::Relaxed);
        if o.id_step > 0 && self.stoppable && sh.stop_requested() {
            return out;
        }
        let r = self.mtdf(root, s, FULL_DEPTH, guess);
        if let Some(v) = r.value {
            out.exact = Some(v);
            return out;
        }
        out.lower = r.lower.max(-s);
        out.upper = r.upper.min(s);
        if r.lower_move != NO_MOVE {
            out.best = r.lower_move;
        }
        out.estimate = out.estimate.clamp(out.lower, out.upper);
        out
    }

    fn mtdf(&mut self, root: u128, s: i32, depth: u8, guess: i32) -> Mtd {
        self.stats.iterations += 1;
        self.sh.depth.store(depth as u32, Ordering::Relaxed);
        let mut r = Mtd {
            lower: -s - 1,
            upper: s + 1,
            value: None,
            lower_move: NO_MOVE,
            last_move: NO_MOVE,
        };
        let mut g = guess;
        while r.lower < r.upper {
            let beta = if g <= r.lower {
                r.lower + 1
            } else {
                g.min(r.upper)
            };
            self.stats.mtdf_passes += 1;
            self.root_move = NO_MOVE;
            g = self.search(root, s, depth, 0, beta, None);
            if self.aborted {
                return r;
            }
            r.last_move = self.root_move;
            if g < beta {
                r.upper = g;
            } else {
                r.lower = g;
                r.lower_move = self.root_move;
            }
            if depth == FULL_DEPTH {
                let sd = self.sh.store_diff;
                self.sh
                    .bound_lo
                    .store(r.lower.max(-s) + sd, Ordering::Relaxed);
                self.sh
                    .bound_hi
                    .store(r.upper.min(s) + sd, Ordering::Relaxed);
            }
        }
        r.value = Some(g);
        r
    }

    /// The first move of `root` in the search order (transposition move
    /// first).
    fn first_move(&self, root: u128, s: i32) -> u8 {
        let tt_move = self
            .tt(s)
            .and_then(|tt| tt.probe(Key::from_word(root)))
            .map_or(NO_MOVE, |e| e.best);
        let mut kids = [EMPTY_CHILD; 6];
        let mut order = [0u8; 6];
        let n = self.children(root, s, tt_move, &mut kids, &mut order, false);
        debug_assert!(n > 0);
        kids[order[0] as usize].pit
    }

    /// Whether this search must stop: a sibling split cut off, or the
    /// deadline or the stop flag (once honoured).
    #[inline]
    fn cancelled(&self) -> bool {
        (self.stoppable && self.sh.stop_requested()) || self.cancel.is_some_and(|c| c.is_set())
    }

    /// Index of a position in play (a [`packed::word`]) in its table, if
    /// loaded.
    #[inline]
    fn table_index(&self, pits: u128, s: i32) -> Option<u64> {
        if s > self.sh.tmax {
            return None;
        }
        let b = packed::unword(pits);
        self.sh
            .tb?
            .table(s as usize)?
            .indexer()
            .rank_rows::<M>(b[..M].try_into().unwrap(), b[M..2 * M].try_into().unwrap())
    }

    /// The loaded table of `s` seeds in play (`s` within the loaded tables).
    #[inline]
    fn table(&self, s: i32) -> &'s crate::table::Table {
        self.sh
            .tb
            .and_then(|tb| tb.table(s as usize))
            .expect("a loaded table")
    }

    /// Exact active value of a position in play from the tables, if loaded.
    #[inline]
    fn probe_table(&self, pits: u128, s: i32) -> Option<i32> {
        self.table_index(pits, s).map(|ix| self.table(s).value(ix))
    }

    /// The children of the position in play `pits` (a [`packed::word`])
    /// with `s` seeds in play, in `out` in the order of generation (right
    /// to left), and the order to search them in `order` (the transposition
    /// move first, then by [`order_rank`]). With `prefetch`, each child's
    /// transposition bucket, or its table index and the table's data,
    /// starts loading as soon as the child is made, so the cache misses of
    /// the enhanced transposition cut-off overlap with generating and
    /// ordering the others.
    #[inline]
    fn children(
        &self,
        pits: u128,
        s: i32,
        tt_move: u8,
        out: &mut [Child; 6],
        order: &mut [u8; 6],
        prefetch: bool,
    ) -> usize {
        let sh = self.sh;
        let ring = packed::pack_word::<M>(pits);
        let mut n = 0;
        let mut key = [0u32; 6];
        // The mover's non-empty pits, one bit each (bit 7 of each byte).
        let own = pits as u64 & packed::row_mask::<M>();
        let mut nonempty =
            ((own | ((own | HIGH_BITS) - LOW_BITS)) & HIGH_BITS) & packed::row_mask::<M>();
        while nonempty != 0 {
            let bit = 63 - nonempty.leading_zeros();
            nonempty &= !(1u64 << bit);
            let pit = (bit / 8) as usize;
            let sown = (own >> (8 * pit)) as u8;
            let mv = packed::packed_move::<M>(ring, s, pit, sh.rules);
            let (lo, hi) = if mv.game_over {
                (mv.delta, mv.delta)
            } else {
                (i32::MIN / 4, i32::MAX / 4)
            };
            let mut slot = NO_SLOT;
            if prefetch && !mv.game_over {
                if mv.seeds > sh.tmax {
                    if let Some(tt) = self.tt(mv.seeds) {
                        let bucket = tt.bucket(Key::from_word(mv.next));
                        tt.prefetch_at(bucket);
                        slot = bucket as u64;
                    }
                } else if let Some(ix) = self.table_index(mv.next, mv.seeds) {
                    self.table(mv.seeds).prefetch_start(ix);
                    slot = ix;
                }
            }
            out[n] = Child {
                pits: mv.next,
                slot,
                lo,
                hi,
                banked: mv.delta as i16,
                in_play: mv.seeds as i16,
                entry: None,
                probed: false,
                pit: pit as u8,
                extra: mv.extra_turn,
                over: mv.game_over,
            };
            let rank = if pit as u8 == tt_move {
                0
            } else {
                order_rank(&mv, sown, sh.opts.order)
            };
            key[n] = rank << 3 | n as u32;
            n += 1;
        }
        // Insertion sort of the ranks; the child's place in the low bits
        // keeps it stable (right to left within a rank).
        for i in 1..n {
            let k = key[i];
            let mut j = i;
            while j > 0 && key[j - 1] > k {
                key[j] = key[j - 1];
                j -= 1;
            }
            key[j] = k;
        }
        for i in 0..n {
            order[i] = (key[i] & 7) as u8;
        }
        n
    }

    /// Bounds on the parent's value through child `c`, from the tables, the
    /// transposition table (the near one only, unless
    /// [`SolveOptions::etc_main_tt`]) and futility.
    #[inline]
    fn child_bounds(&mut self, c: &mut Child, depth: u8) {
        if c.over {
            return;
        }
        let o = &self.sh.opts;
        let d = c.delta();
        let to_parent = |lo: i32, hi: i32| {
            if c.extra {
                (d + lo, d + hi)
            } else {
                (d - hi, d - lo)
            }
        };
        if c.seeds() <= self.sh.tmax {
            let table_value = if c.slot != NO_SLOT {
                Some(self.table(c.seeds()).value(c.slot))
            } else {
                self.probe_table(c.pits, c.seeds())
            };
            if let Some(v) = table_value {
                self.stats.table_hits += 1;
                (c.lo, c.hi) = to_parent(v, v);
                return;
            }
        }
        let (mut lo, mut hi) = if o.use_futility {
            (-c.seeds(), c.seeds())
        } else {
            (i32::MIN / 4, i32::MAX / 4)
        };
        if c.seeds() > self.etc_tt_max {
            // Read when the child is searched (SolveOptions::etc_main_tt).
        } else if let Some(tt) = self.tt(c.seeds()) {
            let key = Key::from_word(c.pits);
            let bucket = if c.slot == NO_SLOT {
                tt.bucket(key)
            } else {
                c.slot as usize
            };
            let entry = tt.probe_at(bucket, key);
            c.slot = bucket as u64;
            c.entry = entry;
            c.probed = true;
            if let Some(e) = entry {
                self.stats.tt_hits += 1;
                if e.depth >= dec(depth) {
                    lo = lo.max(e.lower(c.seeds()));
                    hi = hi.min(e.upper(c.seeds()));
                }
            }
        }
        (c.lo, c.hi) = to_parent(lo, hi);
    }

    #[inline]
    fn child_value(&mut self, c: &Child, depth: u8, ply: u32, gamma: i32) -> i32 {
        let d = c.delta();
        if c.extra {
            d + self.search(
                c.pits,
                c.seeds(),
                dec(depth),
                ply + 1,
                gamma - d,
                c.probed(),
            )
        } else {
            d - self.search(
                c.pits,
                c.seeds(),
                dec(depth),
                ply + 1,
                d - gamma + 1,
                c.probed(),
            )
        }
    }

    /// Store the result `best` of a search with window `gamma` of the
    /// position `pits` (a [`packed::word`]; in `bucket` of its table,
    /// [`NO_BUCKET`]: not computed).
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        pits: u128,
        bucket: usize,
        s: i32,
        depth: u8,
        gamma: i32,
        best: i32,
        mv: u8,
        work: u64,
    ) {
        if let Some(tt) = self.tt(s) {
            let (lo_share, hi_share) = if best >= gamma {
                (share_ceil(best, s), s as u8)
            } else {
                (0, share_floor(best, s))
            };
            let key = Key::from_word(pits);
            let bucket = if bucket == NO_BUCKET {
                tt.bucket(key)
            } else {
                bucket
            };
            tt.store_at(
                bucket,
                key,
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
    /// in play `pits` (a [`packed::word`], mover's row then opponent's) with
    /// `s` seeds in play. `probed` is the position's transposition entry and
    /// bucket when the caller has just probed it, or only its bucket
    /// ([`Probed::done`] false; `None`: nothing known).
    fn search(
        &mut self,
        pits: u128,
        s: i32,
        depth: u8,
        ply: u32,
        gamma: i32,
        probed: Option<Probed>,
    ) -> i32 {
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
            // The horizon evaluation: the stores only, i.e. the seeds in
            // play split evenly (the odd one to the opponent, for parity).
            return -(s & 1);
        }
        let mut tt_move = NO_MOVE;
        let mut bucket = NO_BUCKET;
        if let Some(tt) = self.tt(s) {
            let probed = match probed {
                Some(p) if p.done => p,
                hint => {
                    let key = Key::from_word(pits);
                    let bucket = hint.map_or_else(|| tt.bucket(key), |p| p.bucket);
                    debug_assert_eq!(bucket, tt.bucket(key));
                    let entry = tt.probe_at(bucket, key);
                    self.stats.tt_hits += entry.is_some() as u64;
                    Probed {
                        entry,
                        bucket,
                        done: true,
                    }
                }
            };
            bucket = probed.bucket;
            if let Some(e) = probed.entry {
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
        let mut kids = [EMPTY_CHILD; 6];
        let mut order = [0u8; 6];
        let n = self.children(pits, s, tt_move, &mut kids, &mut order, o.use_etc);
        if o.use_etc {
            // The children's transposition buckets and table data were
            // prefetched as they were generated; a table read from its file
            // needs a second dependent load, the code.
            if sh.mapped {
                for c in kids[..n].iter() {
                    if c.seeds() <= sh.tmax && c.slot != NO_SLOT && !c.over {
                        self.table(c.seeds()).prefetch_code(c.slot);
                    }
                }
            }
            let mut max_hi = i32::MIN;
            let mut max_hi_move = NO_MOVE;
            for &k in order[..n].iter() {
                let c = &mut kids[k as usize];
                self.child_bounds(c, depth);
                if c.lo >= gamma {
                    self.stats.etc_cutoffs += 1;
                    let (lo, pit) = (c.lo, c.pit);
                    if ply == 0 {
                        self.root_move = pit;
                    }
                    self.store(pits, bucket, s, depth, gamma, lo, pit, 1);
                    return lo;
                }
                if c.hi > max_hi {
                    max_hi = c.hi;
                    max_hi_move = c.pit;
                }
            }
            if max_hi < gamma {
                self.stats.etc_cutoffs += 1;
                if ply == 0 {
                    self.root_move = max_hi_move;
                }
                self.store(pits, bucket, s, depth, gamma, max_hi, max_hi_move, 1);
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
            let c = &kids[order[i] as usize];
            i += 1;
            let v = if c.hi < gamma || c.lo == c.hi {
                c.hi
            } else {
                let v = self.child_value(c, depth, ply, gamma);
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
                let rest: Vec<Child> = order[i..n].iter().map(|&k| kids[k as usize]).collect();
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
        if ply == 0 {
            self.root_move = best_move;
        }
        self.store(
            pits,
            bucket,
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
        let stoppable = self.stoppable;
        let cancel_ref = &cancel;
        let flag_ref = &flag;
        let results: Vec<(i32, u8, SearchStats, bool)> = rest
            .par_iter()
            .map(|c| {
                if c.hi < gamma || c.lo == c.hi {
                    return (c.hi, c.pit, SearchStats::default(), false);
                }
                let mut sub = Searcher::<M>::new(sh, Some(cancel_ref));
                sub.stoppable = stoppable;
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
    fn principal_variation(&mut self, root: u128, s: i32, v: i32) -> Vec<Vec<usize>> {
        let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
        let (mut pits, mut s, mut v) = (root, s, v);
        loop {
            let tt_move = self
                .tt(s)
                .and_then(|tt| tt.probe(Key::from_word(pits)))
                .map_or(NO_MOVE, |e| e.best);
            let mut kids = [EMPTY_CHILD; 6];
            let mut order = [0u8; 6];
            let n = self.children(pits, s, tt_move, &mut kids, &mut order, false);
            let mut chosen = None;
            for c in order[..n].iter().map(|&k| &kids[k as usize]) {
                let d = c.delta();
                let reaches = if c.over {
                    d == v
                } else if let Some(cv) = self.probe_table(c.pits, c.seeds()) {
                    (if c.extra { d + cv } else { d - cv }) == v
                } else if c.extra {
                    self.search(c.pits, c.seeds(), FULL_DEPTH, 1, v - d, None) >= v - d
                } else {
                    self.search(c.pits, c.seeds(), FULL_DEPTH, 1, d - v + 1, None) < d - v + 1
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
                v -= c.delta();
            } else {
                v = c.delta() - v;
                turns.push(Vec::new());
            }
            pits = c.pits;
            s = c.seeds();
        }
        turns
    }
}
