//! Progress of long work, reported to the caller: the library never prints.
//!
//! Builders, verifiers, the graph enumerator, the match runner and the
//! solver send [`Event`]s to an [`Observer`] as they go; the command-line
//! tool renders them (progress bars on a terminal, a plain line every few
//! seconds otherwise), a server or a test may record or ignore them. The
//! default observer is silent.
//!
//! ```
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use std::sync::Arc;
//! use mancala_solver::progress::{Event, Observer};
//!
//! let advances = Arc::new(AtomicU64::new(0));
//! let seen = advances.clone();
//! let observer = Observer::new(move |e: &Event<'_>| {
//!     if let Event::Advance { .. } = e {
//!         seen.fetch_add(1, Ordering::Relaxed);
//!     }
//! });
//! observer.event(&Event::Start { stage: "k=3", total: Some(10) });
//! observer.event(&Event::Advance { done: 10 });
//! observer.event(&Event::Finish);
//! assert_eq!(advances.load(Ordering::Relaxed), 1);
//! ```

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::error::Error;

/// One thing that happened during long work.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A stage of counted work starts: `stage` names it (`k=12` for a
    /// table, `games` for a match), `total` is its number of units when
    /// known.
    Start {
        /// What the stage is.
        stage: &'a str,
        /// Units of work in the stage, if known.
        total: Option<u64>,
    },
    /// Units of the current stage done so far (a running total).
    Advance {
        /// Units done.
        done: u64,
    },
    /// What the current stage is doing now (`threshold 3`, `forcing`,
    /// `depth 12, frontier 4000`).
    Phase {
        /// A short description.
        what: &'a str,
    },
    /// The current stage is over.
    Finish,
    /// A table build starts.
    BuildPlan {
        /// What is built (`Kalah tables (default rules, 6 pits, 1..=20 seeds)`).
        title: &'a str,
        /// The table directory.
        dir: &'a Path,
        /// Estimated peak memory in bytes.
        peak_memory: u64,
        /// The memory budget in bytes.
        memory_budget: u64,
        /// Worker threads.
        threads: usize,
    },
    /// A table on disk cannot be used and is built again.
    Rebuilding {
        /// Why it cannot be used.
        error: &'a Error,
    },
    /// Another process is building a table this build needs: wait for it
    /// (then use its table).
    WaitingForTable {
        /// The table file.
        path: &'a Path,
    },
    /// A table was built and written.
    TableBuilt {
        /// Seeds of the table.
        seeds: usize,
        /// Entries in the table.
        entries: u64,
        /// What an entry is called (`positions`, `boards`).
        unit: &'a str,
        /// Seconds it took.
        seconds: f64,
        /// Bytes on disk.
        bytes: u64,
    },
    /// Missing tables are built before the work asked for can start.
    BuildingMissing {
        /// The game (`kalah`, `awari`).
        game: &'a str,
        /// Pits per side.
        pits: usize,
        /// The tables are built up to this many seeds.
        seeds: usize,
        /// Entries to build.
        entries: u64,
        /// What an entry is called (`positions`, `boards`).
        unit: &'a str,
        /// The table directory.
        dir: &'a Path,
    },
    /// Where a running solve stands (about once a second).
    Search {
        /// Seconds since the search started.
        seconds: f64,
        /// The depth of the current iteration (`None`: the exact, unlimited
        /// search).
        depth: Option<u32>,
        /// Proven lower bound on the value.
        lower: i32,
        /// Proven upper bound on the value.
        upper: i32,
        /// Nodes searched so far.
        nodes: u64,
        /// Nodes per second over the last second.
        rate: f64,
    },
    /// A solve saved a checkpoint.
    CheckpointSaved {
        /// Why: `periodic`, `stopped` or `finished`.
        reason: &'a str,
        /// Transposition-table entries in it.
        entries: u64,
        /// Bytes written.
        bytes: u64,
        /// Seconds spent copying the transposition table while the search
        /// went on.
        snapshot_seconds: f64,
        /// Seconds spent compressing and writing it.
        write_seconds: f64,
    },
    /// A solve could not save a checkpoint (it goes on, or returns, all
    /// the same).
    CheckpointFailed {
        /// What went wrong.
        error: &'a Error,
    },
}

/// Receives [`Event`]s. Implemented for every `Fn(&Event) + Send + Sync`.
pub trait Progress: Send + Sync {
    /// Handle one event. Called from worker threads; keep it short.
    fn event(&self, event: &Event<'_>);
}

impl<F: Fn(&Event<'_>) + Send + Sync> Progress for F {
    fn event(&self, event: &Event<'_>) {
        self(event)
    }
}

/// A shareable handle on a [`Progress`], or nothing (silent, the default),
/// and the caller's stop flag, if any: long work that reports progress
/// also asks [`Observer::should_stop`] between its units (a table, a game)
/// and returns [`Error::Stopped`] with what it kept.
#[derive(Clone, Default)]
pub struct Observer {
    progress: Option<Arc<dyn Progress>>,
    stop: Option<Arc<AtomicBool>>,
}

impl Observer {
    /// An observer that drops every event.
    pub fn silent() -> Observer {
        Observer::default()
    }

    /// An observer that hands every event to `progress`.
    pub fn new(progress: impl Progress + 'static) -> Observer {
        Observer {
            progress: Some(Arc::new(progress)),
            stop: None,
        }
    }

    /// This observer, with a stop flag that another thread may raise.
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Observer {
        self.stop = Some(stop);
        self
    }

    /// Whether the caller asked the work to stop.
    #[inline]
    pub fn should_stop(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The stop flag, for work that polls its own (the solver's stop
    /// option).
    pub fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        self.stop.clone()
    }

    /// Whether events go anywhere (work may skip computing them if not).
    pub fn is_active(&self) -> bool {
        self.progress.is_some()
    }

    /// Send one event.
    #[inline]
    pub fn event(&self, event: &Event<'_>) {
        if let Some(p) = &self.progress {
            p.event(event);
        }
    }

    /// Send [`Event::Advance`].
    #[inline]
    pub fn advance(&self, done: u64) {
        self.event(&Event::Advance { done });
    }
}

impl fmt::Debug for Observer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.progress.is_some() {
            "Observer(active)"
        } else {
            "Observer(silent)"
        })
    }
}
