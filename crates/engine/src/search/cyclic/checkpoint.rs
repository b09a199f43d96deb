//! Checkpoints of the exact search for games with cycles: what a stopped
//! solve proved (the root's bounds, the next MTD(f) guess) and its
//! transposition table's path-independent entries, so that a later solve
//! of the same board under the same rules and tables goes on from there.
//!
//! Only the table's path-independent bounds are saved: they are facts about
//! a board whatever line led to it (the module docs of [`super`]), so they
//! hold in any later search. The path-dependent entries and pending
//! failures belong to the line being searched and are dropped.
//!
//! The file: a first line `mancala cyclic checkpoint 1`, a second line of
//! JSON (what the checkpoint is for, the bounds, the guess, the nodes so far,
//! the number of entries), the entries (25 bytes each, little-endian: key
//! u128, lower i16, upper i16, best move u8, work u32), and the CRC-32 of
//! everything before it (4 bytes). Written atomically.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::table::{CyclicTable, Slot};
use crate::error::{Error, Result};

/// The first line of a checkpoint file.
const MAGIC: &str = "mancala cyclic checkpoint 1\n";

/// Bytes of one entry in the file.
const ENTRY_BYTES: usize = 25;

/// Largest checkpoint read (entries of a 16 GiB table and more).
const MAX_BYTES: u64 = 1 << 34;

/// What a checkpoint says besides its entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointHead {
    /// What it is for: the game, rule set, board width, tables probed and
    /// the root board, as the caller names them (a resume must ask for the
    /// same).
    pub identity: String,
    /// Proven lower bound on the root's value (seeds still to win).
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// The next MTD(f) guess.
    pub guess: i32,
    /// Nodes searched by the solves that led to it.
    pub nodes: u64,
    /// Entries that follow.
    pub entries: u64,
}

/// A checkpoint: its head and the transposition entries.
#[derive(Clone, Debug)]
pub struct CyclicCheckpoint {
    /// Bounds, guess and identity.
    pub head: CheckpointHead,
    pub(super) entries: Vec<Slot>,
    /// The file it was read from (empty for one made in memory), for the
    /// errors that name it.
    source: std::path::PathBuf,
}

impl CyclicCheckpoint {
    /// A checkpoint of `table` with `head`'s bounds (its entry count set
    /// here).
    pub(super) fn of(mut head: CheckpointHead, table: &CyclicTable) -> CyclicCheckpoint {
        let entries: Vec<Slot> = table.used().collect();
        head.entries = entries.len() as u64;
        CyclicCheckpoint {
            head,
            entries,
            source: std::path::PathBuf::new(),
        }
    }

    /// Transposition entries saved.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no entry was saved.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Refuse a checkpoint made for another solve than `identity`.
    pub fn check(&self, identity: &str) -> Result<()> {
        if self.head.identity == identity {
            Ok(())
        } else {
            Err(Error::WrongCheckpoint {
                saved: self.head.identity.clone(),
                asked: identity.to_string(),
            })
        }
    }

    /// Refuse a checkpoint whose bounds or guess lie outside the range of
    /// a board of `seeds` seeds (`-seeds..=seeds`, the seeds still to win):
    /// made for another board, or by a wrong writer.
    pub fn check_range(&self, seeds: i32) -> Result<()> {
        let h = &self.head;
        let range = -seeds..=seeds;
        if [h.lower, h.upper, h.guess]
            .iter()
            .all(|v| range.contains(v))
        {
            return Ok(());
        }
        Err(Error::BadCheckpoint {
            path: self.source.clone(),
            reason: format!(
                "its bounds {:+}..={:+} (next guess {:+}) lie outside the board's range \
                 {:+}..={:+} (seeds still to win): it was not written by this solve",
                h.lower, h.upper, h.guess, -seeds, seeds
            ),
        })
    }

    /// The file's bytes.
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(256 + self.entries.len() * ENTRY_BYTES);
        out.extend_from_slice(MAGIC.as_bytes());
        out.extend_from_slice(
            serde_json::to_string(&self.head)
                .expect("a head is JSON")
                .as_bytes(),
        );
        out.push(b'\n');
        for s in &self.entries {
            out.extend_from_slice(&s.key.to_le_bytes());
            out.extend_from_slice(&s.lower.to_le_bytes());
            out.extend_from_slice(&s.upper.to_le_bytes());
            out.push(s.best);
            out.extend_from_slice(&s.work.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Write it to `path` atomically.
    pub fn write(&self, path: &Path) -> Result<()> {
        crate::atomic::write(path, &self.encode(), "checkpoint")
    }

    /// Read a checkpoint file; a file that is not one, damaged or
    /// truncated is [`Error::BadCheckpoint`].
    pub fn read(path: &Path) -> Result<CyclicCheckpoint> {
        let bad = |reason: &str| Error::BadCheckpoint {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        };
        let mut file = crate::files::open_regular(path)?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        if len > MAX_BYTES {
            return Err(bad("larger than any checkpoint"));
        }
        let mut bytes = Vec::with_capacity(len as usize);
        std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|e| Error::io(path, e))?;
        if !bytes.starts_with(MAGIC.as_bytes()) {
            return Err(bad(
                "not a checkpoint of the search with repetitions (Awari, Oware)",
            ));
        }
        if bytes.len() < MAGIC.len() + 4 {
            return Err(bad("truncated"));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(bad("its checksum does not match (damaged or truncated)"));
        }
        let rest = &body[MAGIC.len()..];
        let nl = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| bad("no head line"))?;
        let head: CheckpointHead = serde_json::from_slice(&rest[..nl])
            .map_err(|e| bad(&format!("its head is not readable: {e}")))?;
        if head.lower > head.upper {
            return Err(bad(&format!(
                "its bounds cross (lower bound {:+} above upper bound {:+})",
                head.lower, head.upper
            )));
        }
        let data = &rest[nl + 1..];
        if data.len() as u64 != head.entries.saturating_mul(ENTRY_BYTES as u64) {
            return Err(bad("its entries do not match its head"));
        }
        let entries = data
            .chunks_exact(ENTRY_BYTES)
            .map(|c| Slot {
                key: u128::from_le_bytes(c[..16].try_into().expect("16 bytes")),
                lower: i16::from_le_bytes([c[16], c[17]]),
                upper: i16::from_le_bytes([c[18], c[19]]),
                best: c[20],
                used: true,
                work: u32::from_le_bytes(c[21..25].try_into().expect("4 bytes")),
            })
            .collect();
        Ok(CyclicCheckpoint {
            head,
            entries,
            source: path.to_path_buf(),
        })
    }
}

/// A solve's checkpointing state.
pub(super) struct Saving {
    to: super::CheckpointTo,
    last: crate::clock::Instant,
    /// Nodes of the solves before this one (from the checkpoint resumed).
    pub(super) prior_nodes: u64,
    /// Checkpoints written.
    pub(super) written: u32,
    /// Why the last one failed, if it did.
    pub(super) error: Option<String>,
}

impl Saving {
    pub(super) fn new(to: super::CheckpointTo) -> Saving {
        Saving {
            to,
            last: crate::clock::Instant::now(),
            prior_nodes: 0,
            written: 0,
            error: None,
        }
    }
}

impl<G: super::CyclicGame> super::Searcher<'_, G> {
    /// Save a checkpoint of the root's `proven` bounds and next `guess`:
    /// when `force`, or when the last one is `every` old.
    pub(super) fn save_checkpoint(&mut self, proven: super::Proven, guess: i32, force: bool) {
        let nodes = self.stats.nodes;
        let Some(saving) = &mut self.saving else {
            return;
        };
        if !force && saving.last.elapsed() < saving.to.every {
            return;
        }
        let head = CheckpointHead {
            identity: saving.to.identity.clone(),
            lower: proven.lower,
            upper: proven.upper,
            guess,
            nodes: saving.prior_nodes + nodes,
            entries: 0,
        };
        match CyclicCheckpoint::of(head, self.tt).write(&saving.to.path) {
            Ok(()) => {
                saving.written += 1;
                saving.error = None;
            }
            Err(e) => saving.error = Some(e.to_string()),
        }
        saving.last = crate::clock::Instant::now();
    }

    /// Checkpoints written, and why the last one failed (if it did).
    pub(super) fn checkpoint_outcome(&self) -> (u32, Option<String>) {
        self.saving
            .as_ref()
            .map_or((0, None), |s| (s.written, s.error.clone()))
    }
}
