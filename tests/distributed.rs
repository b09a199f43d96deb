//! The Dask drivers on a local cluster of two worker processes: split
//! proofs (`dist/dask_prove.py`), whose ledger proves the solver's value,
//! and table builds (`dist/dask_build.py`), whose files are byte for byte
//! a build's in one piece. Needs a Python with `dask[distributed]`, named by
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
    // dist/dask_prove.py on a local cluster of two workers.
    let dask_prove = || {
        let mut c = Command::new(&python);
        c.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/dist/dask_prove.py"))
            .args([
                "--workers",
                "2",
                "--mancala",
                env!("CARGO_BIN_EXE_mancala"),
                "--",
            ]);
        c
    };
    let out = dask_prove()
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
    // Going on from the same ledger with --every-move: every opening
    // move's value, as tasks on the cluster, each an exact solve's.
    let out = dask_prove()
        .args(["kalah:3:2", "--every-move", "--ledger"])
        .arg(&ledger)
        .args(["--max-table-seeds", "0", "--task-nodes", "200"])
        .args(["--threads", "1", "--tt-mb", "8"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let status: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let rules = mancala_solver::kalah::KalahRules::Default;
    let moves = status["moves"].as_array().unwrap();
    assert_eq!(moves.len(), root.legal_moves(rules).count(), "{status}");
    for m in moves {
        let mut child = root;
        child
            .play(m["pit"].as_u64().unwrap() as usize, rules)
            .unwrap();
        let cv = if child.is_game_over(rules) {
            child.final_difference()
        } else {
            solve(&child, None, &SolveOptions::default()).unwrap().value
        };
        let want = if child.to_move() != root.to_move() {
            -cv
        } else {
            cv
        };
        assert_eq!(
            (&m["lower"], &m["upper"]),
            (&want.into(), &want.into()),
            "{status}"
        );
    }
}

/// The tables as tasks on a two-worker Dask cluster (`dist/dask_build.py`):
/// the larger tables split into groups built by the workers and assembled;
/// every file byte for byte the one a build in one piece writes.
#[test]
#[ignore = "needs Python with dask[distributed] in MANCALA_DASK_PYTHON (.ci/run sets it up)"]
fn a_two_worker_dask_table_build_is_byte_identical() {
    let python = std::env::var("MANCALA_DASK_PYTHON").expect(
        "set MANCALA_DASK_PYTHON to a Python with dask[distributed] \
         (python3 -m venv v && v/bin/pip install 'dask[distributed]'; .ci/run does this)",
    );
    let dir = tempfile::tempdir().unwrap();
    let (whole, split) = (dir.path().join("whole"), dir.path().join("split"));
    let bin = env!("CARGO_BIN_EXE_mancala");
    let build = |db: &std::path::Path| {
        let out = Command::new(bin)
            .args(["build", "kalah:4", "--max-seeds", "12", "--db"])
            .arg(db)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    build(&whole);
    let out = Command::new(&python)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/dist/dask_build.py"))
        .args(["--workers", "2", "--mancala", bin, "--"])
        .args(["kalah:4", "--max-seeds", "12", "--group-size", "2K"])
        .args(["--threads", "1", "--db"])
        .arg(&split)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let report: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(report["driver"]["workers"], 2, "{report}");
    let tables = report["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 12, "{report}");
    let grouped = tables.iter().filter(|t| t.get("groups").is_some()).count();
    assert!(
        grouped >= 3,
        "the larger tables are built in groups: {report}"
    );
    // The same files, and nothing else left in the directory but locks.
    let files = |db: &std::path::Path| {
        let mut out = std::collections::BTreeMap::new();
        for e in std::fs::read_dir(db).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if !name.ends_with(".lock") {
                out.insert(name.clone(), std::fs::read(db.join(&name)).unwrap());
            }
        }
        out
    };
    let (a, b) = (files(&whole), files(&split));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    assert!(a == b, "the tables differ");
    // Run again: every table found, no task.
    let again = Command::new(&python)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/dist/dask_build.py"))
        .args(["--workers", "2", "--mancala", bin, "--"])
        .args(["kalah:4", "--max-seeds", "12", "--group-size", "2K", "--db"])
        .arg(&split)
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let stdout = String::from_utf8(again.stdout).unwrap();
    let report: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(report["driver"]["tasks_run"], 0, "{report}");
}
