//! The ledger file shared by several writers: every write takes the
//! ledger's lock, reads the file again and adds to what is there, so that
//! no finished line is ever lost (the module's "The ledger file").

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use super::{written_line, Entry, Ledger};
use crate::error::{Error, Result};

/// An exclusive lock on writing one ledger; released when dropped (or when
/// its process ends, however it ends).
struct LedgerLock {
    _file: File,
}

/// The lock file of the ledger at `path` (`.NAME.lock` beside it; never
/// deleted, so that two writers can never hold two different files).
fn lock_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "ledger".into());
    path.with_file_name(format!(".{name}.lock"))
}

impl LedgerLock {
    fn acquire(path: &Path) -> Result<LedgerLock> {
        let lock = lock_path(path);
        let file = crate::files::open_regular_with(
            &lock,
            OpenOptions::new().create(true).truncate(false).write(true),
        )?;
        file.lock().map_err(|e| Error::io(&lock, e))?;
        Ok(LedgerLock { _file: file })
    }
}

/// Remove the temporary files of the ledger at `path` that a writer left
/// when it was killed: every write of the ledger holds its lock, so under
/// the lock any temporary file of it is a dead writer's.
fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!(".{}.tmp-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        if is_file && e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

impl Ledger {
    /// Record `new` lines in the ledger file at `path`, with every line the
    /// file holds (other writers' included) and every line of this ledger
    /// not yet written: under the ledger's lock, the file is read again,
    /// the lines it lacks are added after its own, the whole is checked
    /// (the module's rule, "What a ledger proves": a line that cannot be right or contradicts the
    /// others refuses the write, which then changes nothing), and the file
    /// is replaced atomically. This ledger becomes what was written.
    /// Returns how many of `new` were in neither.
    pub fn record(&mut self, path: &Path, new: Vec<Entry>) -> Result<usize> {
        let path = &crate::atomic::target(path)?;
        let _lock = LedgerLock::acquire(path)?;
        remove_stale_temporaries(path);
        let on_disk = std::fs::symlink_metadata(path).is_ok();
        let mut merged = if on_disk {
            let disk = Ledger::read(path)?;
            disk.same_proof_as(self, path)?;
            disk
        } else {
            Ledger::with_book(&self.root, self.rules, self.header.book_turns)
        };
        let written = merged.entries.len();
        let fault = |line: usize, reason: String| Error::BadLedger {
            path: path.clone(),
            line,
            reason,
        };
        for e in self.entries.iter().cloned() {
            let line = written_line(merged.entries.len());
            merged.insert(e).map_err(|r| fault(line, r))?;
        }
        let mut added = 0;
        for e in new {
            let line = written_line(merged.entries.len());
            added += usize::from(
                merged
                    .insert(e)
                    .map_err(|r| fault(line, format!("{r} (a line being recorded)")))?,
            );
        }
        merged.check().map_err(|f| f.error(path, written_line))?;
        if merged.entries.len() > written || !on_disk {
            merged.write(path)?;
        }
        *self = merged;
        Ok(added)
    }

    /// Write every line of this ledger not yet in the file at `path`
    /// ([`Ledger::record`] with no new lines).
    pub fn save(&mut self, path: &Path) -> Result<()> {
        self.record(path, Vec::new()).map(|_| ())
    }

    /// Write the whole ledger to `path`, atomically (under its lock).
    fn write(&self, path: &Path) -> Result<()> {
        let mut text = Entry::Header(self.header.clone()).to_line();
        text.push('\n');
        for e in &self.entries {
            text.push_str(&e.to_line());
            text.push('\n');
        }
        crate::atomic::write(path, text.as_bytes(), "ledger.jsonl")
    }
}
