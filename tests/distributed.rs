//! The Dask drivers on a local cluster of two worker processes: split
//! proofs (`dist/dask_prove.py`), whose ledger proves the solver's value,
//! and table builds (`dist/dask_build.py`), whose files are byte for byte
//! a build's in one piece. Needs a Python with `dask[distributed]`, named by
//! `MANCALA_DASK_PYTHON` (`.ci/run` installs one in a virtual environment
//! under target/); ignored by a plain `cargo test`.

use std::process::Command;

mod common;
use common::SMALL_PROOF;

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
        .args(SMALL_PROOF)
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

/// The Python with Dask that the tests below run the drivers with.
fn dask_python() -> String {
    std::env::var("MANCALA_DASK_PYTHON").expect(
        "set MANCALA_DASK_PYTHON to a Python with dask[distributed] \
         (python3 -m venv v && v/bin/pip install 'dask[distributed]'; .ci/run does this)",
    )
}

/// A driver of dist/ (`script`) under `python` with `driver` options, then
/// `--` and `args`.
fn driver(python: &str, script: &str, driver: &[&str], args: &[&str]) -> Command {
    let mut c = Command::new(python);
    c.arg(format!("{}/dist/{script}", env!("CARGO_MANIFEST_DIR")))
        .args(driver)
        .arg("--")
        .args(args);
    c
}

/// `cmd`'s output, or a failed test when it has not ended within `secs`
/// (it is killed then): a driver that hangs must not hang the suite.
fn output_within(mut cmd: Command, secs: u64) -> std::process::Output {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pipe = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = pipe(Box::new(child.stdout.take().unwrap()));
    let err = pipe(Box::new(child.stderr.take().unwrap()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} did not end within {secs} s (killed)");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// A `mancala` for `--mancala` that runs the real binary, except that a
/// `prove --run-task` call kills itself (SIGKILL) when `dies` (a shell
/// condition over `$task`, the task, and `$state`, a directory of its own)
/// holds: a worker's process lost in the middle of its task.
fn dying_mancala(dir: &std::path::Path, dies: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let state = dir.join("state");
    std::fs::create_dir_all(&state).unwrap();
    let script = format!(
        "#!/bin/sh\n\
         real='{real}'\n\
         state='{state}'\n\
         task=''\n\
         prev=''\n\
         for a in \"$@\"; do\n\
           if [ \"$prev\" = --run-task ]; then task=$a; fi\n\
           prev=$a\n\
         done\n\
         if [ -n \"$task\" ] && {{ {dies}; }}; then kill -9 $$; fi\n\
         exec \"$real\" \"$@\"\n",
        real = env!("CARGO_BIN_EXE_mancala"),
        state = state.display(),
    );
    let path = dir.join("mancala-dies");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The last line of a driver's stdout, its JSON report.
fn report(out: &std::process::Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A `--run-task` process killed in the middle of its task (its first
/// call: the root's) is run again and the proof goes on to the value; it
/// used to end the driver with a Python traceback, the other tasks
/// abandoned.
#[test]
#[ignore = "needs Python with dask[distributed] in MANCALA_DASK_PYTHON (.ci/run sets it up)"]
fn dask_prove_runs_a_killed_task_again() {
    let python = dask_python();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.jsonl");
    let fake = dying_mancala(dir.path(), "mkdir \"$state/killed\" 2>/dev/null");
    let mut args = vec!["kalah:3:2", "--guess", "0", "--ledger"];
    args.push(ledger.to_str().unwrap());
    args.extend(SMALL_PROOF);
    let out = output_within(
        driver(
            &python,
            "dask_prove.py",
            &["--workers", "2", "--mancala", fake.to_str().unwrap()],
            &args,
        ),
        300,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("Traceback"), "{stderr}");
    assert!(
        stderr.contains("killed by SIGKILL") && stderr.contains("running it again"),
        "{stderr}"
    );
    let status = report(&out);
    let v = solve(
        &Position::start(3, 2).unwrap(),
        None,
        &SolveOptions::default(),
    )
    .unwrap()
    .value;
    assert_eq!(
        (&status["exact"], &status["lower"]),
        (&true.into(), &v.into()),
        "{status}"
    );
    assert_eq!(status["driver"]["retries"], 1, "{status}");
    assert_eq!(
        status["driver"]["given_up"],
        serde_json::json!([]),
        "{status}"
    );
    assert_eq!(Ledger::read(&ledger).unwrap().root_bounds(), (v, v));
}

/// A task that dies every time it runs is given up after its retries, the
/// other tasks go on and their lines are recorded; the driver says which
/// task it gave up and ends with exit code 1 (not a traceback), and the
/// same command with a sound binary finishes the proof from the ledger.
/// "At least v + 1" is refuted: every move of the root must be refuted, so
/// the task given up (one of them) is needed.
#[test]
#[ignore = "needs Python with dask[distributed] in MANCALA_DASK_PYTHON (.ci/run sets it up)"]
fn dask_prove_gives_up_a_task_that_keeps_dying_and_records_the_others() {
    let python = dask_python();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.jsonl");
    // The first task (the root's) runs; the second distinct one dies at
    // every run; the others run.
    let fake = dying_mancala(
        dir.path(),
        "key=$(printf %s \"$task\" | cksum | cut -d' ' -f1); \
         if [ -d \"$state/doomed-$key\" ]; then true; \
         elif mkdir \"$state/first\" 2>/dev/null; then false; \
         elif mkdir \"$state/doomed\" 2>/dev/null; then mkdir \"$state/doomed-$key\"; \
         else false; fi",
    );
    let v = solve(
        &Position::start(3, 2).unwrap(),
        None,
        &SolveOptions::default(),
    )
    .unwrap()
    .value;
    let t = (v + 1).to_string();
    let mut args = vec!["kalah:3:2", "--at-least", &t, "--ledger"];
    args.push(ledger.to_str().unwrap());
    args.extend(SMALL_PROOF);
    let out = output_within(
        driver(
            &python,
            "dask_prove.py",
            &["--workers", "2", "--mancala", fake.to_str().unwrap()],
            &args,
        ),
        300,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("Traceback"), "{stderr}");
    assert!(
        stderr.contains("failed 3 times") && stderr.contains("given up"),
        "{stderr}"
    );
    let status = report(&out);
    let given_up = status["driver"]["given_up"].as_array().unwrap();
    assert_eq!(given_up.len(), 1, "{status}");
    assert!(
        status["open_tasks"]
            .as_array()
            .unwrap()
            .contains(&given_up[0]["task"]),
        "{status}"
    );
    assert_eq!(status["driver"]["retries"], 2, "{status}");
    // Every task that finished is in the ledger: the root's split and its
    // other moves' answers at least.
    let lines = std::fs::read_to_string(&ledger).unwrap().lines().count() - 1;
    assert_eq!(status["driver"]["tasks_run"], lines, "{status}");
    assert!(lines >= 3, "{status}");
    // The real binary goes on from the ledger to the answer.
    let out = output_within(
        driver(
            &python,
            "dask_prove.py",
            &["--workers", "2", "--mancala", env!("CARGO_BIN_EXE_mancala")],
            &args,
        ),
        300,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status = report(&out);
    assert_eq!(status["answer"], false, "{status}");
    assert!(
        status["driver"]["tasks_run"].as_u64().unwrap() >= 1,
        "{status}"
    );
}

/// `--json` among `mancala prove`'s arguments: the driver prints JSON
/// anyway; it used to run the whole proof and then fail on its
/// own `--status --json`.
#[test]
#[ignore = "needs Python with dask[distributed] in MANCALA_DASK_PYTHON (.ci/run sets it up)"]
fn dask_prove_takes_json_among_the_proof_options() {
    let python = dask_python();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.jsonl");
    let mut args = vec!["kalah:3:2", "--at-least", "0", "--json", "--ledger"];
    args.push(ledger.to_str().unwrap());
    args.extend(SMALL_PROOF);
    let out = output_within(
        driver(
            &python,
            "dask_prove.py",
            &["--workers", "1", "--mancala", env!("CARGO_BIN_EXE_mancala")],
            &args,
        ),
        300,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status = report(&out);
    assert_eq!(status["answer"], true, "{status}");
}

/// Bad driver arguments are refused at once with exit code 2 and a
/// message, before a cluster is started or a ledger or table written: a
/// local cluster of 0 or -1 workers (which waited for ever), a --mancala
/// that does not exist (a Python traceback), a call that is the driver's
/// to make, a `mancala prove` option that does not exist.
#[test]
#[ignore = "needs Python with dask[distributed] in MANCALA_DASK_PYTHON (.ci/run sets it up)"]
fn dask_drivers_refuse_bad_arguments_at_once() {
    let python = dask_python();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.jsonl");
    let db = dir.path().join("db");
    let bin = env!("CARGO_BIN_EXE_mancala");
    let missing = dir.path().join("no-such-mancala");
    let missing = missing.to_str().unwrap();
    let prove = ["kalah:3:2", "--ledger", ledger.to_str().unwrap()];
    let build = ["kalah:3", "--max-seeds", "4", "--db", db.to_str().unwrap()];
    let cases: Vec<(&str, Vec<&str>, Vec<&str>, &str)> = vec![
        (
            "dask_prove.py",
            vec!["--workers", "0", "--mancala", bin],
            prove.to_vec(),
            "--workers 0",
        ),
        (
            "dask_prove.py",
            vec!["--workers=-1", "--mancala", bin],
            prove.to_vec(),
            "--workers -1",
        ),
        (
            "dask_prove.py",
            vec!["--mancala", missing],
            prove.to_vec(),
            "no-such-mancala",
        ),
        (
            "dask_prove.py",
            vec!["--mancala", bin],
            [&prove[..], &["--tasks"]].concat(),
            "--tasks",
        ),
        (
            "dask_prove.py",
            vec!["--mancala", bin],
            [&prove[..], &["--bogus"]].concat(),
            "--bogus",
        ),
        (
            "dask_build.py",
            vec!["--workers", "0", "--mancala", bin],
            build.to_vec(),
            "--workers 0",
        ),
        (
            "dask_build.py",
            vec!["--workers=-1", "--mancala", bin],
            build.to_vec(),
            "--workers -1",
        ),
        (
            "dask_build.py",
            vec!["--mancala", missing],
            build.to_vec(),
            "no-such-mancala",
        ),
    ];
    for (script, opts, args, named) in cases {
        let out = output_within(driver(&python, script, &opts, &args), 60);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{script} {opts:?} {args:?}: {stderr}"
        );
        assert!(stderr.contains(named), "{script} {opts:?}: {stderr}");
        assert!(!stderr.contains("Traceback"), "{script} {opts:?}: {stderr}");
        assert!(!ledger.exists() && !db.exists(), "{script} {opts:?} wrote");
    }
}
