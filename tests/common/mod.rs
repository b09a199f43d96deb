//! Helpers shared by the tests that run the `mancala` binary.

use std::path::Path;
use std::process::Command;

/// Run `mancala` with `args` in `cwd`: exit code, stdout, stderr.
pub fn mancala(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run mancala");
    (
        out.status.code().expect("exit code, not a signal"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
