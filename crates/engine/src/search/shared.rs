//! What the searching threads share: options, tables, transposition
//! tables, counters, bounds and stop flags, and the chain of stop flags of
//! split nodes.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::kalah::rules::KalahRules;
use crate::tablebase::TableSet;

use super::options::SolveOptions;
use super::tt::TransTable;

/// Everything the threads share.
pub(super) struct Shared<'t> {
    pub(super) rules: KalahRules,
    pub(super) opts: SolveOptions,
    pub(super) tt: Option<Arc<TransTable>>,
    /// The near transposition tables ([`SolveOptions::near_tt_kb`]), one
    /// per thread: shared, their cache lines would bounce between the cores.
    pub(super) near: Vec<TransTable>,
    /// Positions with at most this many seeds in play use `near`.
    pub(super) near_max: i32,
    pub(super) tb: Option<&'t TableSet<KalahRules>>,
    pub(super) tmax: i32,
    /// Some loaded table is read from its file (not decoded into memory):
    /// its look-ups need the second prefetch stage.
    pub(super) mapped: bool,
    pub(super) threads: usize,
    pub(super) nodes: AtomicU64,
    /// The deadline and stop flag are honoured (after the first iteration).
    pub(super) stop_ready: AtomicBool,
    /// The deadline has passed or the stop flag was seen.
    pub(super) stopped: AtomicBool,
    pub(super) bound_lo: AtomicI32,
    pub(super) bound_hi: AtomicI32,
    pub(super) depth: AtomicU32,
    pub(super) store_diff: i32,
    /// Where the driver stands, for checkpoints.
    pub(super) state: Mutex<DriveState>,
    /// Where a resumed solve starts ([`super::SolveOptions::resume`]).
    pub(super) resume: Option<DriveState>,
    /// When the solve started (the browser build's reports).
    pub(super) started: Instant,
}

/// Where the driver stands, in active values (stores excluded): what a
/// checkpoint saves and a resumed solve starts from.
#[derive(Clone, Copy, Debug)]
pub(super) struct DriveState {
    /// Deepest completed iterative-deepening iteration (0: none).
    pub(super) depth: u32,
    /// The next pass's first guess.
    pub(super) guess: i32,
    /// Best root move known (`NO_MOVE`: none).
    pub(super) best: u8,
    /// The exact search has started; `lower` and `upper` are its bounds.
    pub(super) exact_started: bool,
    pub(super) lower: i32,
    pub(super) upper: i32,
    /// Proven bounds on the root's value through each pit (the exact
    /// search's; `(-s, s)` when nothing is known).
    pub(super) root: [(i32, i32); 6],
}

impl DriveState {
    /// Nothing known about a root with `s` seeds in play, first guess `guess`.
    pub(super) fn new(s: i32, guess: i32) -> DriveState {
        DriveState {
            depth: 0,
            guess,
            best: super::tt::NO_MOVE,
            exact_started: false,
            lower: -s,
            upper: s,
            root: [(-s, s); 6],
        }
    }
}

impl Shared<'_> {
    /// Whether the deadline has passed, the node limit is reached or the
    /// stop flag is set (checked every 1024 nodes); always false before the
    /// first iteration is done.
    pub(super) fn stop_requested(&self) -> bool {
        if !self.stop_ready.load(Ordering::Relaxed) {
            return false;
        }
        if self.stopped.load(Ordering::Relaxed) {
            return true;
        }
        let o = &self.opts;
        let stop = o.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
            || o.deadline.is_some_and(|d| Instant::now() >= d)
            || o.node_limit
                .is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n);
        if stop {
            self.stopped.store(true, Ordering::Relaxed);
        }
        stop
    }
}

impl Shared<'_> {
    /// Record proven bounds `lo..=hi` on the root's value through `pit`
    /// (from the exact search).
    pub(super) fn record_root(&self, pit: u8, lo: i32, hi: i32) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let b = &mut st.root[pit as usize];
        b.0 = b.0.max(lo);
        b.1 = b.1.min(hi);
    }

    /// Record the fail-soft result `v` of the exact search of the root's
    /// move `pit` against the window `gamma`: a lower bound when
    /// `v >= gamma`, else an upper bound.
    pub(super) fn record_root_result(&self, pit: u8, v: i32, gamma: i32) {
        if v >= gamma {
            self.record_root(pit, v, i32::MAX);
        } else {
            self.record_root(pit, i32::MIN, v);
        }
    }
}

/// A chain of stop flags: a subtree searched at a split node stops when its
/// own flag or any ancestor split's flag is set.
pub(super) struct Cancel<'a> {
    pub(super) flag: &'a AtomicBool,
    pub(super) parent: Option<&'a Cancel<'a>>,
}

impl Cancel<'_> {
    pub(super) fn is_set(&self) -> bool {
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
