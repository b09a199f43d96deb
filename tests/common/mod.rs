//! Helpers shared by the tests: running the `mancala` binary, building
//! Kalah tables.

use std::path::Path;
use std::process::Command;

/// The task options of the small proofs of `mancala prove` tests: no
/// tables, every task not settled at once split, one thread, a small
/// transposition table.
#[allow(dead_code)] // not every test file that includes this module uses it
pub const SMALL_PROOF: [&str; 10] = [
    "--max-table-seeds",
    "0",
    "--task-seconds",
    "0",
    "--estimate-seconds",
    "0",
    "--threads",
    "1",
    "--tt-mb",
    "8",
];

/// Run `mancala` with `args` in `cwd`: exit code, stdout, stderr.
#[allow(dead_code)] // not every test file that includes this module uses it
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

/// Run `mancala` with `args`, writing `input` to its standard input (a
/// person's moves against `play --vs`): exit code, stdout, stderr.
#[allow(dead_code)] // not every test file that includes this module uses it
pub fn mancala_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mancala");
    // A run that refuses its arguments exits without reading its input:
    // the write then meets a closed pipe, which is not the test's failure
    // (the exit code and messages below are what the tests check).
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
    {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "write the moves: {e}"
        );
    }
    let out = child.wait_with_output().expect("wait for mancala");
    (
        out.status.code().expect("exit code, not a signal"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The Kalah tables (default rules) of `pits` pits for 1..=`max_seeds`
/// seeds, built into `dir`.
#[allow(dead_code)] // not every test file that includes this module uses it
pub fn kalah_tables(
    dir: &Path,
    pits: usize,
    max_seeds: usize,
) -> mancala_solver::tablebase::TableSet<mancala_solver::kalah::rules::KalahRules> {
    use mancala_solver::kalah::rules::KalahRules;
    mancala_solver::tablebase::build::build(&mancala_solver::tablebase::build::BuildOptions {
        dir: dir.to_path_buf(),
        game: KalahRules::Default,
        pits,
        max_seeds,
        threads: None,
        memory_budget: 1 << 33,
        group_bytes: None,
        progress: Default::default(),
    })
    .unwrap();
    mancala_solver::tablebase::TableSet::open(dir, KalahRules::Default, pits, max_seeds).unwrap()
}

/// The committed opening books and an oracle for the book tests.
#[allow(dead_code)] // only the book tests use it
pub mod books;

/// A `mancala serve` process and an HTTP client for the server tests.
#[allow(dead_code)] // only the server tests use it
pub mod server;

#[allow(dead_code)] // not every test file that includes this module uses it
pub mod sowing_reference;
