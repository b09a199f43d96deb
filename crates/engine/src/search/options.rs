//! What a solve is asked to do ([`SolveOptions`]) and what it returns
//! ([`Solution`], [`SearchStats`]).

use crate::clock::Instant;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::Serialize;

use super::checkpoint::{Checkpoint, Checkpointing};
use super::profile::SearchProfile;
use super::tt::TransTable;
use crate::kalah::rules::KalahRules;
use crate::progress::Observer;

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
    /// Stop as soon as the proven bounds settle whether the value (stores
    /// included, for the side to move) is at least this: the null-window
    /// question of a proof task ([`super::prove`]). The full-depth search
    /// asks it first; the [`Solution`] is then not exact, its bounds answer
    /// the question. `None`: solve to the exact value.
    pub at_least: Option<i32>,
    /// Worker threads (1: single-threaded; 0: all cores).
    pub threads: usize,
    /// Split the search between threads only at nodes this many plies or
    /// fewer from the root.
    pub split_plies: u32,
    /// Where the search's status goes, about once a second (silent by
    /// default).
    pub progress: Observer,
    /// Stop searching at this instant and return the best result so far
    /// ([`Solution::exact`] false). See "Time budget" in the module
    /// documentation.
    pub deadline: Option<Instant>,
    /// Stop after about this many nodes (all threads together, counted
    /// every 1024 nodes of each thread), like a passed
    /// [`SolveOptions::deadline`]: a budget of work that does not depend on
    /// the machine's speed or load.
    pub node_limit: Option<u64>,
    /// Stop searching when this flag becomes true (set by another thread),
    /// like a passed [`SolveOptions::deadline`].
    pub stop: Option<Arc<AtomicBool>>,
    /// Use this transposition table instead of allocating one of
    /// [`SolveOptions::tt_mb`]: its entries survive from one solve to the
    /// next (an agent playing a game reuses them move after move). Only
    /// share it between solves under the same rules, tables and options.
    pub shared_tt: Option<Arc<TransTable>>,
    /// Save checkpoints of the solve: periodically while it runs, and once
    /// more when it stops or finishes (see [`super::checkpoint`]).
    pub checkpoint: Option<Checkpointing>,
    /// Go on from this checkpoint: its proven bounds, iterative-deepening
    /// state, opening-move bounds and transposition entries (or, for a
    /// finished one, return its result at once). It must be for the same
    /// position, rules and tables ([`Error::WrongCheckpoint`] if not).
    ///
    /// [`Error::WrongCheckpoint`]: crate::error::Error::WrongCheckpoint
    pub resume: Option<Arc<Checkpoint>>,
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
            at_least: None,
            threads: 1,
            split_plies: 12,
            progress: Observer::silent(),
            deadline: None,
            node_limit: None,
            stop: None,
            shared_tt: None,
            checkpoint: None,
            resume: None,
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
    /// Searches futility saved: a node whose window lies outside the seeds
    /// in play, or a child left unsearched (or cutting its parent) because
    /// the seeds in play alone put its value on one side of the window.
    pub futility_cutoffs: u64,
    /// Nodes cut by an enhanced transposition cut-off, before any child
    /// search (those futility alone decides count as futility's).
    pub etc_cutoffs: u64,
    /// MTD(f) zero-window passes at the root, all iterations.
    pub mtdf_passes: u64,
    /// Iterative-deepening iterations (the final full-depth one included).
    pub iterations: u64,
    /// Subtrees searched in parallel at split nodes.
    pub parallel_tasks: u64,
    /// Where the nodes went, by MTD(f) pass and by seeds in play: only in
    /// builds with the cargo feature `search-profile`, on one thread
    /// ([`SearchProfile`]); `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<Box<SearchProfile>>,
}

impl SearchStats {
    pub(super) fn add(&mut self, o: &SearchStats) {
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
    /// The value, when it is proven ([`Solution::exact`]); `None` for a
    /// stopped search, whose [`Solution::value`] is only an estimate.
    pub fn proven_value(&self) -> Option<i32> {
        self.exact.then_some(self.value)
    }

    /// "win", "draw" or "loss" for the side to move, when the proven
    /// bounds settle it (a stopped search may prove a win or a loss
    /// without the exact value); `None` when they do not.
    pub fn verdict(&self) -> Option<&'static str> {
        if self.lower > 0 {
            Some("win")
        } else if self.upper < 0 {
            Some("loss")
        } else if self.lower == 0 && self.upper == 0 {
            Some("draw")
        } else {
            None
        }
    }

    /// The best first turn (the moves played before the turn passes).
    pub fn best_turn(&self) -> &[usize] {
        self.pv_turns.first().map_or(&[], |t| t.as_slice())
    }
}
