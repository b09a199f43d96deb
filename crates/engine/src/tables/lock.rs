//! Cooperation between processes building tables in one directory.
//!
//! A table is built only under an exclusive advisory lock on its lock file
//! (`.NAME.lock` beside `NAME`, never deleted: deleting a lock file while
//! another process waits on it would let two builders in). The operating
//! system releases the lock when its process ends, however it ends, so a
//! killed build never leaves a stale lock. Temporary files of a table
//! (`.NAME.tmp-*`) are written only under its lock, so whoever holds the
//! lock may delete the ones it finds: they belong to a process that is
//! gone.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use super::spec::TableSpec;
use crate::error::{Error, Result};

/// An exclusive lock on building one table; released when dropped.
#[derive(Debug)]
pub struct TableLock {
    file: File,
    path: PathBuf,
}

/// The lock file of the table `spec` in `dir`.
pub fn lock_path(dir: &Path, spec: TableSpec) -> PathBuf {
    dir.join(format!(".{}.lock", spec.file_name()))
}

/// Prefix of the temporary files of the table `spec`.
pub(crate) fn temporary_prefix(spec: TableSpec) -> String {
    format!(".{}.tmp-", spec.file_name())
}

/// The lock file of `spec` in `dir`, created when missing (and never
/// truncated or deleted).
fn open_lock_file(dir: &Path, spec: TableSpec) -> Result<(PathBuf, File)> {
    let path = lock_path(dir, spec);
    // A regular file only, opened without blocking: a named pipe in its
    // place would block the open until a reader came.
    let file = crate::files::open_regular_with(
        &path,
        OpenOptions::new().create(true).truncate(false).write(true),
    )
    .map_err(|e| match e {
        Error::NotAFile { kind, .. } => Error::BadTable {
            path: path.clone(),
            reason: format!("its lock file is {kind}, not a regular file"),
            table: spec.label(),
        },
        e => e,
    })?;
    Ok((path, file))
}

impl TableLock {
    /// Take the lock on building `spec` in `dir`; when another process
    /// holds it, call `waiting` once and wait for it.
    pub fn acquire(dir: &Path, spec: TableSpec, waiting: impl FnOnce(&Path)) -> Result<TableLock> {
        let (path, file) = open_lock_file(dir, spec)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                waiting(&path);
                file.lock().map_err(|e| Error::io(&path, e))?;
            }
            Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
        }
        Ok(TableLock { file, path })
    }

    /// Take the lock shared, waiting while a process holds it exclusively:
    /// for the tasks that build groups of one table at once (each its own
    /// partial file), so that the builder or assembler of the whole table,
    /// which holds it exclusively, never removes a group's temporary file
    /// while it is written.
    pub fn acquire_shared(dir: &Path, spec: TableSpec) -> Result<TableLock> {
        let (path, file) = open_lock_file(dir, spec)?;
        file.lock_shared().map_err(|e| Error::io(&path, e))?;
        Ok(TableLock { file, path })
    }

    /// Take the lock only if no other process holds it.
    pub fn try_acquire(dir: &Path, spec: TableSpec) -> Result<Option<TableLock>> {
        let (path, file) = open_lock_file(dir, spec)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(TableLock { file, path })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(e)) => Err(Error::io(&path, e)),
        }
    }

    /// Delete the temporary files the table's earlier builders left
    /// (they are dead: a live one would hold this lock).
    pub fn remove_temporaries(&self, dir: &Path, spec: TableSpec) {
        let prefix = temporary_prefix(spec);
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(&prefix) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TableLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Rules;
    use crate::kalah::rules::KalahRules;

    #[test]
    fn one_holder_at_a_time_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let spec = TableSpec {
            game: Rules::Kalah(KalahRules::Default),
            pits: 3,
            seeds: 4,
        };
        let held = TableLock::acquire(dir.path(), spec, |_| panic!("free")).unwrap();
        assert!(held.path().exists());
        // Another open file description (as another process has) is refused.
        assert!(TableLock::try_acquire(dir.path(), spec).unwrap().is_none());
        let tmp = dir.path().join(format!("{}999-0", temporary_prefix(spec)));
        std::fs::write(&tmp, b"left by a dead builder").unwrap();
        held.remove_temporaries(dir.path(), spec);
        assert!(!tmp.exists());
        drop(held);
        assert!(TableLock::try_acquire(dir.path(), spec).unwrap().is_some());
    }
}
