//! The Dask driver of split proofs (`dist/dask_prove.py`) on a local
//! cluster of two worker processes: the ledger it writes proves the
//! solver's value. Needs a Python with `dask[distributed]`, named by
//! `MANCALA_DASK_PYTHON` (`.ci/run` installs one in a virtual environment
//! under target/); ignored by a plain `cargo test`.

use std::process::Command;

use mancala_solver::kalah::position::Position;
use mancala_solver::search::prove::Ledger;
use mancala_solver::search::{solve, SolveOptions};

#[test]
#[ignore = "needs Python with dask[distributed] in MANCALA_DASK_PYTHON (.ci/run sets it up)"]
fn a_two_worker_dask_proof_equals_solve() {
    let python = std::env::var("MANCALA_DASK_PYTHON").expect(
        "set MANCALA_DASK_PYTHON to a Python with dask[distributed] \
         (python3 -m venv v && v/bin/pip install 'dask[distributed]'; .ci/run does this)",
    );
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.jsonl");
    let out = Command::new(&python)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/dist/dask_prove.py"))
        .args([
            "--workers",
            "2",
            "--mancala",
            env!("CARGO_BIN_EXE_mancala"),
            "--",
        ])
        .args(["kalah:3:2", "--guess", "0", "--ledger"])
        .arg(&ledger)
        .args([
            "--max-table-seeds",
            "0",
            "--task-seconds",
            "0",
            "--estimate-seconds",
            "0",
        ])
        .args(["--threads", "1", "--tt-mb", "8"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let status: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let root = Position::start(3, 2).unwrap();
    let v = solve(&root, None, &SolveOptions::default()).unwrap().value;
    assert_eq!(status["exact"], true, "{status}");
    assert_eq!(status["lower"], v, "{status}");
    assert_eq!(status["driver"]["workers"], 2, "{status}");
    assert!(
        status["driver"]["tasks_run"].as_u64().unwrap() > 2,
        "{status}"
    );
    // The ledger alone gives the value.
    assert_eq!(Ledger::read(&ledger).unwrap().root_bounds(), (v, v));
}
