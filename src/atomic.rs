//! Whole files written atomically: a temporary file beside the target,
//! synced, then renamed over it, so that a reader sees the old file or the
//! new one, never half of one.

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

/// Write `bytes` to `path` atomically; the temporary file is removed on
/// any failure.
pub fn write(path: &Path, bytes: &[u8], fallback: &str) -> Result<()> {
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
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}
