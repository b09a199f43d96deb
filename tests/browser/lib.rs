//! Helpers of the browser test (`browser.rs`): the engine's `mancala`
//! binary, built on demand, and the test server of the engine's own tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The engine's test server and HTTP client (`tests/common/server.rs`).
#[path = "../common/server.rs"]
pub mod server;

/// The repository's root (the engine's package).
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `mancala` binary: `MANCALA_BIN` when set (`.ci/run` names the one
/// its `cargo test` built), else this checkout's, built with the test
/// profile (a minute on a fresh clone). Panics, with cargo's message on
/// stderr, when the build fails.
pub fn mancala_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("MANCALA_BIN") {
        return PathBuf::from(bin);
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--profile", "test", "--bin", "mancala"])
        .arg("--manifest-path")
        .arg(repository().join("Cargo.toml"))
        .status()
        .expect("run cargo build for the mancala binary");
    assert!(status.success(), "cargo build --bin mancala failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repository().join("target"));
    target.join("debug").join("mancala")
}
