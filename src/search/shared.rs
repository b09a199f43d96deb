//! What the searching threads share: options, tables, transposition
//! tables, counters, bounds and stop flags, and the chain of stop flags of
//! split nodes.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::game::TableSet;
use crate::kalah::rules::KalahRules;

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
}

impl Shared<'_> {
    /// Whether the deadline has passed or the stop flag is set (checked
    /// every 1024 nodes); always false before the first iteration is done.
    pub(super) fn stop_requested(&self) -> bool {
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
