//! Checkpoints of a solve: what the search has proven so far, saved so
//! that a stopped solve can go on later ([`SolveOptions::checkpoint`],
//! [`SolveOptions::resume`]).
//!
//! A [`Checkpoint`] holds the identity of the solve (position, rules, board
//! width, the tables probed), the search's state (the deepest completed
//! iterative-deepening iteration and its value, the bounds the exact
//! MTD(f) search has proven, the bounds proven on every opening move, or
//! the finished result) and the most valuable entries of the
//! transposition table. Its file format is in the module `search::checkpoint_file`.
//!
//! [`SolveOptions::checkpoint`]: super::SolveOptions::checkpoint
//! [`SolveOptions::resume`]: super::SolveOptions::resume

use std::sync::Arc;
use std::time::Duration;

use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::tablebase::TableSet;

use super::tt::{Entry, Key, NO_MOVE};

/// What a checkpoint is for: a checkpoint is only resumed by a solve of the
/// same position, under the same rules, probing the same tables. Nothing
/// else changes a value: the transposition table's size, the enhancements,
/// the move order, the iterative-deepening schedule and the thread count
/// only change how fast it is found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The position solved, in notation from the side to move.
    pub position: String,
    /// The rule set.
    pub rules: KalahRules,
    /// Pits per side.
    pub pits: usize,
    /// Largest seed count probed in the tables (0: none).
    pub table_seeds: usize,
    /// CRC-32 over the data checksums of the tables probed (0: none): two
    /// builds of the same tables give the same fingerprint, a damaged or
    /// different table another.
    pub table_fingerprint: u32,
}

impl Identity {
    /// The identity of a solve of `position` under `rules`, probing the
    /// tables of `tables` up to `table_seeds` seeds.
    pub fn of(
        position: &Position,
        rules: KalahRules,
        tables: Option<&TableSet<KalahRules>>,
        table_seeds: usize,
    ) -> Identity {
        let mut fingerprint = 0;
        if let Some(tb) = tables.filter(|_| table_seeds > 0) {
            let mut h = crc32fast::Hasher::new();
            for k in 1..=table_seeds {
                h.update(&(k as u32).to_le_bytes());
                let crc = tb.table(k).map_or(0, |t| t.data_checksum());
                h.update(&crc.to_le_bytes());
            }
            fingerprint = h.finalize();
        }
        Identity {
            position: position.to_string(),
            rules,
            pits: position.pits_per_side(),
            table_seeds,
            table_fingerprint: fingerprint,
        }
    }

    /// `Ok` when a checkpoint made for `self` may be resumed by the solve
    /// `asked`; else [`Error::WrongCheckpoint`] naming the first difference.
    pub fn check(&self, asked: &Identity) -> Result<()> {
        let wrong = |saved: String, wanted: String| {
            Err(Error::WrongCheckpoint {
                saved,
                asked: wanted,
            })
        };
        if self.pits != asked.pits {
            return wrong(
                format!("a board of {} pits per side", self.pits),
                format!("{} pits", asked.pits),
            );
        }
        if self.position != asked.position {
            return wrong(
                format!("the position \"{}\"", self.position),
                format!("\"{}\"", asked.position),
            );
        }
        if self.rules != asked.rules {
            return wrong(
                format!("{} rules", self.rules.name()),
                asked.rules.name().to_string(),
            );
        }
        let tables = |seeds: usize| match seeds {
            0 => "a solve without endgame tables".to_string(),
            k => format!("a solve with endgame tables up to {k} seeds"),
        };
        if self.table_seeds != asked.table_seeds {
            return wrong(tables(self.table_seeds), tables(asked.table_seeds));
        }
        if self.table_fingerprint != asked.table_fingerprint {
            return wrong(
                format!("other tables (fingerprint {:08x})", self.table_fingerprint),
                format!("these (fingerprint {:08x})", asked.table_fingerprint),
            );
        }
        Ok(())
    }
}

/// Proven bounds on the value of one opening move (the value of the
/// position when that move is played first), stores included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The pit, from the mover's left.
    pub pit: usize,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound (equal to `lower` when the move is fully valued).
    pub upper: i32,
}

/// A finished solve's result, as a checkpoint keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The exact value (stores included).
    pub value: i32,
    /// The principal variation, turn by turn.
    pub pv_turns: Vec<Vec<usize>>,
}

/// Where the search stood. Values include the stores.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchState {
    /// The deepest completed iterative-deepening iteration (0: none).
    pub depth: u32,
    /// The next MTD(f) pass's first guess: the deepest iteration's value,
    /// or in the exact search the last pass's value.
    pub guess: i32,
    /// The best first move known (see [`super::Solution::best_move`]).
    pub best_move: Option<usize>,
    /// Whether the exact (unlimited-depth) search has started; then
    /// `lower` and `upper` are what its passes proved.
    pub exact_started: bool,
    /// Proven lower bound on the value.
    pub lower: i32,
    /// Proven upper bound on the value.
    pub upper: i32,
    /// Proven bounds on each legal opening move, from the exact search.
    pub root_moves: Vec<RootMove>,
    /// Nodes searched so far, over every run of this solve.
    pub nodes: u64,
    /// Seconds of search so far, over every run of this solve.
    pub seconds: f64,
    /// The result, when the solve is finished (resuming it returns it at
    /// once).
    pub finished: Option<Finished>,
}

/// Why a checkpoint is being saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckpointReason {
    /// The period ([`Checkpointing::every`]) has passed.
    Periodic,
    /// The search was stopped (deadline or stop flag): the last checkpoint
    /// before the solve returns.
    Stopped,
    /// The solve is finished: the checkpoint holds the result.
    Finished,
}

impl CheckpointReason {
    /// A word for reports.
    pub fn name(self) -> &'static str {
        match self {
            CheckpointReason::Periodic => "periodic",
            CheckpointReason::Stopped => "stopped",
            CheckpointReason::Finished => "finished",
        }
    }
}

/// Saves a checkpoint somewhere (a file, usually with
/// [`Checkpoint::write`]) and returns the bytes written.
pub type CheckpointSink = Arc<dyn Fn(&Checkpoint, CheckpointReason) -> Result<u64> + Send + Sync>;

/// When and how a solve saves checkpoints.
#[derive(Clone)]
pub struct Checkpointing {
    /// Time between two periodic checkpoints.
    pub every: Duration,
    /// At most this many transposition-table entries go into a checkpoint
    /// (the most valuable: full-depth entries of the largest subtrees
    /// first).
    pub max_entries: usize,
    /// Where each checkpoint goes: called from a helper thread while the
    /// search runs (periodic; the thread runs at a lowered scheduling
    /// priority, so on a busy machine checkpoints come somewhat later than
    /// [`Checkpointing::every`]), and once more when the solve stops or
    /// finishes.
    pub save: CheckpointSink,
}

impl std::fmt::Debug for Checkpointing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpointing")
            .field("every", &self.every)
            .field("max_entries", &self.max_entries)
            .finish_non_exhaustive()
    }
}

/// What a solve has proven so far, to save and to resume from.
#[derive(Clone)]
pub struct Checkpoint {
    /// What it is for.
    pub identity: Identity,
    /// Where the search stood.
    pub state: SearchState,
    /// Transposition-table entries (key and bounds on the active value):
    /// a solve's and a file's are sorted by key, each key once.
    pub entries: Vec<(Key, Entry)>,
}

/// The identity, the state and the number of entries (not the millions
/// of entries themselves).
impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoint")
            .field("identity", &self.identity)
            .field("state", &self.state)
            .field("entries", &self.entries.len())
            .finish()
    }
}

/// Two checkpoints are equal when their identity, state and entries are:
/// the entries compared whatever their order (a caller's own list may be
/// in any order).
impl PartialEq for Checkpoint {
    fn eq(&self, o: &Checkpoint) -> bool {
        let sorted = |c: &Checkpoint| {
            let mut e: Vec<([u8; 12], u32)> = c
                .entries
                .iter()
                .map(|(k, e)| (k.pits(), e.pack()))
                .collect();
            e.sort_unstable();
            e
        };
        self.identity == o.identity
            && self.state == o.state
            && self.entries.len() == o.entries.len()
            && sorted(self) == sorted(o)
    }
}

impl Checkpoint {
    /// Whether the solve is finished (resuming returns its result).
    pub fn is_finished(&self) -> bool {
        self.state.finished.is_some()
    }
    // `write` and `read` are in `super::checkpoint_file`, with the format.
}

/// Whether `key` and `entry` could be an entry of a solve whose root has
/// `total` seeds in play on `pits` pits per side: the pits beyond the
/// board are empty, the seeds in play are between 1 and `total`, the share
/// bounds are ordered and within the seeds, and the best move is a pit of
/// the board (or none).
pub fn plausible(key: Key, entry: Entry, pits: usize, total: i32) -> bool {
    let p = key.pits();
    if p[2 * pits..].iter().any(|&x| x != 0) {
        return false;
    }
    let s: i32 = p.iter().map(|&x| x as i32).sum();
    s >= 1
        && s <= total
        && entry.lo_share <= entry.hi_share
        && entry.hi_share as i32 <= s
        && (entry.best == NO_MOVE || (entry.best as usize) < pits)
}
