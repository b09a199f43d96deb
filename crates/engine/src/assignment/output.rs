//! The program's two files, `next_state.txt` and `traverse_log.txt`:
//! both written or neither.
//!
//! [`Outputs::create`] checks, before any search, that neither name is a
//! directory, removes the temporary files that runs killed beyond catching
//! (SIGKILL, a crash) left behind, and creates this run's temporary files
//! (`.NAME.tmp-PID`), each under an exclusive advisory lock that the
//! operating system releases when the process ends, however it ends: a
//! temporary file nobody holds belongs to a dead run. The traverse log is
//! written to its temporary while the search runs; [`Outputs::finish`]
//! writes `next_state.txt`'s and flushes and syncs both, checking every
//! write; only then [`Ready::commit`] renames them into place, the log
//! first. A failure before the renames leaves the old files as they were
//! and removes the temporaries. A task that writes no log (1 and 4)
//! removes a `traverse_log.txt` left by an earlier run, so that a log
//! never lies beside a `next_state.txt` it does not belong to.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The board after the move.
pub const NEXT_STATE: &str = "next_state.txt";

/// The log of the search (tasks 2 and 3).
pub const TRAVERSE_LOG: &str = "traverse_log.txt";

/// The start of the name of a temporary file that becomes `name`.
fn temporary_prefix(name: &str) -> String {
    format!(".{name}.tmp-")
}

/// A temporary file of this run, locked while the run lives.
struct Temporary {
    path: PathBuf,
    file: BufWriter<File>,
}

impl Temporary {
    fn create(dir: &Path, name: &str) -> Result<Temporary> {
        let path = dir.join(format!("{}{}", temporary_prefix(name), std::process::id()));
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        file.try_lock().map_err(|e| {
            let _ = std::fs::remove_file(&path);
            let e = match e {
                TryLockError::Error(e) => e,
                TryLockError::WouldBlock => std::io::Error::other("held by another process"),
            };
            Error::io(&path, e)
        })?;
        Ok(Temporary {
            path,
            file: BufWriter::with_capacity(1 << 16, file),
        })
    }

    /// Flush and sync the file to the disk.
    fn sync(&mut self) -> Result<()> {
        let io = |e| Error::io(&self.path, e);
        self.file.flush().map_err(io)?;
        self.file.get_ref().sync_all().map_err(io)
    }
}

/// The two files of one run, being written.
pub struct Outputs {
    dir: PathBuf,
    log: Option<Temporary>,
    state: Option<Temporary>,
    sink: std::io::Sink,
}

/// Refuse `dir/name` if it is a directory (a file cannot be renamed over
/// it) or another special file (a named pipe or a device would be
/// replaced by a regular file).
fn check_target(dir: &Path, name: &str) -> Result<()> {
    let path = dir.join(name);
    match std::fs::symlink_metadata(&path) {
        Ok(m) if m.is_dir() => Err(Error::Unsupported(format!(
            "{} is a directory: the program writes its file {name} there; move the directory \
             away or write to another directory",
            path.display()
        ))),
        _ => crate::atomic::refuse_special(&path),
    }
}

/// Remove the temporary files of `name` in `dir` that no live run holds.
fn remove_stale(dir: &Path, name: &str) {
    let prefix = temporary_prefix(name);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if !e.file_name().to_string_lossy().starts_with(&prefix) {
            continue;
        }
        let path = e.path();
        // Never open anything but a regular file (a named pipe would block).
        if let Ok(f) = crate::files::open_regular(&path) {
            if f.try_lock().is_ok() {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

impl Outputs {
    /// Prepare a run's files in the existing directory `dir`: check that
    /// neither `next_state.txt` nor `traverse_log.txt` is a directory,
    /// remove the temporaries of dead runs, and create this run's (the
    /// log's only when `logged`, tasks 2 and 3).
    pub fn create(dir: &Path, logged: bool) -> Result<Outputs> {
        check_target(dir, NEXT_STATE)?;
        check_target(dir, TRAVERSE_LOG)?;
        remove_stale(dir, NEXT_STATE);
        remove_stale(dir, TRAVERSE_LOG);
        let mut out = Outputs {
            dir: dir.to_path_buf(),
            log: None,
            state: None,
            sink: std::io::sink(),
        };
        out.state = Some(Temporary::create(dir, NEXT_STATE)?);
        if logged {
            out.log = Some(Temporary::create(dir, TRAVERSE_LOG)?);
        }
        Ok(out)
    }

    /// The temporary files of this run (to remove on a signal).
    pub fn temporaries(&self) -> Vec<PathBuf> {
        [&self.log, &self.state]
            .into_iter()
            .flatten()
            .map(|t| t.path.clone())
            .collect()
    }

    /// The traverse log's writer (a sink when the run writes no log).
    pub fn log(&mut self) -> &mut dyn Write {
        match &mut self.log {
            Some(t) => &mut t.file,
            None => &mut self.sink,
        }
    }

    /// Write `next_state` and bring both files to the disk (every write,
    /// flush and sync checked); the files are renamed into place only by
    /// [`Ready::commit`]. On an error the temporaries are removed and the
    /// old files are untouched.
    pub fn finish(mut self, next_state: &str) -> Result<Ready> {
        if let Some(log) = &mut self.log {
            log.sync()?;
        }
        let state = self.state.as_mut().expect("created with the outputs");
        state
            .file
            .write_all(next_state.as_bytes())
            .map_err(|e| Error::io(&state.path, e))?;
        state.sync()?;
        Ok(Ready { outputs: self })
    }
}

impl Drop for Outputs {
    fn drop(&mut self) {
        for t in self.log.iter().chain(&self.state) {
            let _ = std::fs::remove_file(&t.path);
        }
    }
}

/// Both files written and synced to their temporaries, to be renamed into
/// place.
pub struct Ready {
    outputs: Outputs,
}

impl Ready {
    /// Rename the files into place: the log first (or, for a task without
    /// a log, remove an earlier run's), then `next_state.txt`. Returns the
    /// paths of the files written.
    pub fn commit(mut self) -> Result<Vec<PathBuf>> {
        let o = &mut self.outputs;
        let state_path = o.dir.join(NEXT_STATE);
        let log_path = o.dir.join(TRAVERSE_LOG);
        let mut written = Vec::new();
        match &o.log {
            Some(log) => {
                std::fs::rename(&log.path, &log_path).map_err(|e| Error::io(&log_path, e))?;
                o.log = None;
                written.push(log_path);
            }
            None => match std::fs::remove_file(&log_path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io(&log_path, e)),
            },
        }
        let state = o.state.as_ref().expect("created with the outputs");
        std::fs::rename(&state.path, &state_path).map_err(|e| Error::io(&state_path, e))?;
        o.state = None;
        written.insert(0, state_path);
        // The renames themselves to the disk (best effort: not every file
        // system syncs a directory).
        if let Ok(d) = File::open(&o.dir) {
            let _ = d.sync_all();
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn both_files_or_neither() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join(TRAVERSE_LOG), "old log").unwrap();
        std::fs::write(d.join(NEXT_STATE), "old state").unwrap();
        // A failure before the renames: the old files stay, nothing else.
        let mut o = Outputs::create(d, true).unwrap();
        o.log().write_all(b"new log").unwrap();
        drop(o);
        assert_eq!(names(d), [NEXT_STATE, TRAVERSE_LOG]);
        assert_eq!(
            std::fs::read_to_string(d.join(TRAVERSE_LOG)).unwrap(),
            "old log"
        );
        // A whole run.
        let mut o = Outputs::create(d, true).unwrap();
        o.log().write_all(b"new log").unwrap();
        let written = o.finish("new state").unwrap().commit().unwrap();
        assert_eq!(written, [d.join(NEXT_STATE), d.join(TRAVERSE_LOG)]);
        assert_eq!(names(d), [NEXT_STATE, TRAVERSE_LOG]);
        assert_eq!(
            std::fs::read_to_string(d.join(TRAVERSE_LOG)).unwrap(),
            "new log"
        );
        // A run without a log removes the earlier run's.
        let o = Outputs::create(d, false).unwrap();
        o.finish("third").unwrap().commit().unwrap();
        assert_eq!(names(d), [NEXT_STATE]);
        assert_eq!(
            std::fs::read_to_string(d.join(NEXT_STATE)).unwrap(),
            "third"
        );
    }

    #[test]
    fn stale_temporaries_are_removed_and_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // Left by a dead run: nobody holds it.
        let stale = d.join(".traverse_log.txt.tmp-999999999");
        std::fs::write(&stale, "half a log").unwrap();
        // A live run's (this test holds its lock).
        let live = d.join(".next_state.txt.tmp-999999998");
        let held = File::create(&live).unwrap();
        held.lock().unwrap();
        let o = Outputs::create(d, true).unwrap();
        assert!(!stale.exists());
        assert!(live.exists());
        drop(o);
        assert_eq!(names(d), [".next_state.txt.tmp-999999998"]);
    }

    #[test]
    fn a_directory_in_place_of_a_file_is_refused_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join(NEXT_STATE)).unwrap();
        let Err(e) = Outputs::create(d, true) else {
            panic!("a directory in place of next_state.txt was accepted")
        };
        let e = e.to_string();
        assert!(e.contains("is a directory"), "{e}");
        assert_eq!(names(d), [NEXT_STATE]);
    }
}
