//! Whole files written atomically: a temporary file beside the target,
//! synced, then renamed over it, so that a reader sees the old file or the
//! new one, never half of one.
//!
//! Only a regular file is ever replaced: a path naming a named pipe, a
//! device, a socket or a directory is refused with [`Error::NotAFile`]
//! before anything is written (renaming over `/dev/full` or a FIFO would
//! replace the special file with a regular one). A symbolic link is
//! followed: the file it names is replaced and the link kept.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The temporary file beside `path` that an atomic write goes through
/// (`.NAME.tmp-PID`; `fallback` names it when `path` has no file name).
pub fn temp_path(path: &Path, fallback: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| fallback.to_string());
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// The file an atomic write of `path` replaces: `path` itself, or the
/// file a symbolic link there names; [`Error::NotAFile`] when that is
/// anything but a regular file or nothing yet (a link to nothing included).
pub fn target(path: &Path) -> Result<PathBuf> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(path.to_path_buf());
    };
    if meta.file_type().is_symlink() {
        let resolved = std::fs::canonicalize(path).map_err(|_| Error::NotAFile {
            path: path.to_path_buf(),
            kind: "a symbolic link to nothing",
        })?;
        let meta = std::fs::metadata(&resolved).map_err(|e| Error::io(&resolved, e))?;
        if !meta.is_file() {
            return Err(Error::NotAFile {
                path: path.to_path_buf(),
                kind: crate::files::describe(&meta.file_type()),
            });
        }
        return Ok(resolved);
    }
    if !meta.is_file() {
        return Err(Error::NotAFile {
            path: path.to_path_buf(),
            kind: crate::files::describe(&meta.file_type()),
        });
    }
    Ok(path.to_path_buf())
}

/// Refuse a `path` that names (or links to) anything but a regular file;
/// nothing there, or a link to nothing, is fine: a rename replaces it.
/// For files written under a fixed name into a user's directory (the
/// assignment's outputs), where [`target`]'s resolving of links is not
/// wanted. (The table directory is the tool's own: a builder replaces
/// whatever lies in a table's place, and says so.)
pub fn refuse_special(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(Error::NotAFile {
            path: path.to_path_buf(),
            kind: crate::files::describe(&meta.file_type()),
        }),
        _ => Ok(()),
    }
}

/// Write `bytes` to `path` atomically; the temporary file is removed on
/// any failure. A `path` that is not a regular file is refused
/// ([`target`]).
pub fn write(path: &Path, bytes: &[u8], fallback: &str) -> Result<()> {
    let path = &target(path)?;
    let tmp = temp_path(path, fallback);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(&tmp, e));
    }
    // The target may have been replaced by something else meanwhile.
    if let Err(e) = target(path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused_and_links_followed() {
        let dir = tempfile::tempdir().unwrap();
        let e = write(dir.path(), b"x", "f").unwrap_err();
        assert!(
            matches!(
                e,
                Error::NotAFile {
                    kind: "a directory",
                    ..
                }
            ),
            "{e}"
        );
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::FileTypeExt;
            let fifo = dir.path().join("fifo");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
            let e = write(&fifo, b"x", "f").unwrap_err();
            assert!(
                matches!(
                    e,
                    Error::NotAFile {
                        kind: "a named pipe",
                        ..
                    }
                ),
                "{e}"
            );
            assert!(std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo());
            let real = dir.path().join("real");
            std::fs::write(&real, b"old").unwrap();
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&real, &link).unwrap();
            write(&link, b"new", "f").unwrap();
            assert!(std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(std::fs::read(&real).unwrap(), b"new");
            let dangling = dir.path().join("dangling");
            std::os::unix::fs::symlink(dir.path().join("nothing"), &dangling).unwrap();
            let e = write(&dangling, b"x", "f").unwrap_err();
            assert!(matches!(e, Error::NotAFile { .. }), "{e}");
            let to_fifo = dir.path().join("to-fifo");
            std::os::unix::fs::symlink(&fifo, &to_fifo).unwrap();
            let e = write(&to_fifo, b"x", "f").unwrap_err();
            assert!(
                matches!(
                    e,
                    Error::NotAFile {
                        kind: "a named pipe",
                        ..
                    }
                ),
                "{e}"
            );
        }
        let f = dir.path().join("new");
        write(&f, b"1", "f").unwrap();
        write(&f, b"2", "f").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"2");
    }
}
