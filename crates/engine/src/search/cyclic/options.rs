//! How a search runs ([`CyclicOptions`]) and where it saves its
//! checkpoints ([`CheckpointTo`]).

use crate::clock::Instant;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::CyclicCheckpoint;

/// How to run a search.
#[derive(Clone, Debug)]
pub struct CyclicOptions {
    /// Transposition table, in mebibytes (at least 1).
    pub tt_mb: usize,
    /// Stop at this instant (the bounds proven so far are returned).
    pub deadline: Option<Instant>,
    /// Stop when another thread sets this flag.
    pub stop: Option<Arc<AtomicBool>>,
    /// First guess of MTD(f).
    pub guess: i32,
    /// Told the root's proven bounds after each MTD(f) pass
    /// ([`crate::progress::Event::Search`]).
    pub progress: crate::progress::Observer,
    /// Save checkpoints of the root's solve ([`super::checkpoint`]).
    pub checkpoint: Option<CheckpointTo>,
    /// Go on from this checkpoint: its entries fill the table, its bounds
    /// and guess start the root's MTD(f). The caller checks that it is for
    /// the same solve ([`CyclicCheckpoint::check`]).
    pub resume: Option<Arc<CyclicCheckpoint>>,
}

/// Where and how often a solve saves its checkpoints: after an MTD(f)
/// pass of the root at most every `every`, and once more when the root's
/// search stops or ends.
#[derive(Clone, Debug)]
pub struct CheckpointTo {
    /// The file (written atomically).
    pub path: std::path::PathBuf,
    /// What the solve is (the checkpoint head's identity).
    pub identity: String,
    /// Least time between two checkpoints after passes.
    pub every: std::time::Duration,
}

impl Default for CyclicOptions {
    fn default() -> Self {
        CyclicOptions {
            tt_mb: 64,
            deadline: None,
            stop: None,
            guess: 0,
            progress: crate::progress::Observer::silent(),
            checkpoint: None,
            resume: None,
        }
    }
}
