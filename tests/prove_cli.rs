//! `mancala prove` on the command line: the scheduler protocol (--tasks,
//! --run-task, --record, --check) reaches the same value as the
//! one-process run and refuses foreign lines, and --task-nodes is read
//! and checked.

use std::process::Command;

mod common;
use common::SMALL_PROOF;

use mancala_solver::kalah::position::Position;
use mancala_solver::search::prove::{Entry, Ledger, Question};
use mancala_solver::search::{solve, SolveOptions};

fn mancala() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
}

#[test]
fn the_scheduler_protocol_reaches_the_same_value() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.jsonl");
    let parts = dir.path().join("parts.jsonl");
    // `mancala prove kalah:2:4 ARGS --ledger LEDGER` with the options above.
    let prove = |args: &[&str], ledger: &std::path::Path| {
        let mut c = mancala();
        c.args(["prove", "kalah:2:4"])
            .args(args)
            .arg("--ledger")
            .arg(ledger)
            .args(SMALL_PROOF)
            .arg("--quiet");
        c
    };
    let out = prove(&["--status", "--json"], &whole).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let out = prove(&["--guess", "0", "--json"], &whole).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["exact"], true, "{status}");
    let v = status["lower"].as_i64().unwrap();
    let exact = solve(
        &Position::start(2, 4).unwrap(),
        None,
        &SolveOptions::default(),
    )
    .unwrap();
    assert_eq!(v, i64::from(exact.value));
    // What a scheduler does: list the open tasks, run each (anywhere),
    // record the lines, until none is open.
    for round in 0.. {
        assert!(round < 200, "the protocol does not converge");
        let out = prove(&["--guess", "0", "--tasks"], &parts)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let tasks: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        if tasks.is_empty() {
            break;
        }
        let mut lines = String::new();
        for t in &tasks {
            let out = prove(&["--run-task", t], &parts).output().unwrap();
            assert!(out.status.success(), "{out:?}");
            lines.push_str(&String::from_utf8(out.stdout).unwrap());
        }
        let mut rec = prove(&["--record"], &parts)
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        rec.stdin
            .take()
            .unwrap()
            .write_all(lines.as_bytes())
            .unwrap();
        assert!(rec.wait().unwrap().success());
    }
    let l = Ledger::read(&parts).unwrap();
    assert_eq!(l.root_bounds(), (exact.value, exact.value));
    // A worker's task about a position the ledger split already, for
    // another threshold, is split at once: a split line of no nodes.
    let split = l
        .entries
        .iter()
        .find_map(|e| match e {
            Entry::Split(s) => Some(s.question.clone()),
            _ => None,
        })
        .expect("the protocol split some task");
    let again = Question {
        at_least: split.at_least + 2,
        ..split.clone()
    };
    let again = serde_json::to_string(&again).unwrap();
    let out = prove(&["--run-task", &again], &parts).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["entry"]["kind"], "split", "{line}");
    assert_eq!(line["entry"]["position"], split.position.as_str(), "{line}");
    assert_eq!(line["entry"]["nodes"], 0, "{line}");
    // --check re-proves the proof lines: they agree.
    let out = prove(&["--check", "0", "--json"], &parts).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let c: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(c["differ"], 0, "{c}");
    assert!(c["agree"].as_u64().unwrap() > 0, "{c}");
    // A record of a line for another board is refused.
    let foreign = Entry::Proof(mancala_solver::search::prove::Proof {
        question: Question {
            position: "1 1 1 0 1 1 1 0".into(),
            at_least: 0,
        },
        answer: true,
        lower: 0,
        upper: 2,
        table_seeds: 0,
        nodes: 1,
        seconds: 0.0,
        threads: 1,
        program: "test".into(),
    });
    let mut rec = prove(&["--record"], &parts)
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(rec.stdin.take().unwrap(), "{}", foreign.to_line()).unwrap();
    let out = rec.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pits per side"));
}

#[test]
fn task_nodes_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("k32.jsonl");
    let out = mancala()
        .args([
            "prove",
            "kalah:3:2",
            "--max-table-seeds",
            "0",
            "--threads",
            "1",
        ])
        .args([
            "--tt-mb",
            "8",
            "--quiet",
            "--json",
            "--task-nodes",
            "2e3",
            "--ledger",
        ])
        .arg(&ledger)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let exact = solve(
        &Position::start(3, 2).unwrap(),
        None,
        &SolveOptions::default(),
    )
    .unwrap();
    assert_eq!(status["exact"], true, "{status}");
    assert_eq!(status["lower"].as_i64(), Some(i64::from(exact.value)));
    // The tree of the last question, as text.
    let out = mancala()
        .args(["prove", "kalah:3:2", "--outline", "--ledger"])
        .arg(&ledger)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("at least ") && first.contains(" 0 open"),
        "{text}"
    );
    assert!(
        text.lines().nth(1).is_some_and(|l| l.contains(": yes")),
        "{text}"
    );
    for bad in ["0", "1.5", "-3", "many"] {
        let out = mancala()
            .args([
                "prove",
                "kalah:3:2",
                &format!("--task-nodes={bad}"),
                "--ledger",
            ])
            .arg(&ledger)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--task-nodes {bad}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not a count of nodes"), "{err}");
    }
}
