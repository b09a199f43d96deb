//! The independent ledger audit (`dist/ledger_audit.py`, Python 3 and its
//! standard library only, no code shared with the engine) reads the same
//! values out of a proof ledger as the engine: the committed Kalah(6,6)
//! ledger, and small ledgers proven under each rule set (which it can only
//! follow if its own sowing plays every position as the engine's does). A
//! damaged line, a line the tree does not reach and a ledger that
//! contradicts itself are refused with exit code 1.

use std::path::{Path, PathBuf};
use std::process::Command;

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::KalahRules;
use mancala_solver::search::prove::{prove_moves, Entry, Ledger, ProveOptions};
use mancala_solver::search::SolveOptions;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/ledger_audit.py")
}

/// The audit's exit code and its `--json` report (if it printed one), or
/// its stderr.
fn audit(ledger: &Path) -> (i32, serde_json::Value, String) {
    let out = Command::new("python3")
        .arg(script())
        .arg(ledger)
        .arg("--json")
        .output()
        .expect("python3 runs the ledger audit (.ci/run installs it)");
    let report = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (
        out.status.code().unwrap_or(-1),
        report,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The committed Kalah(6,6) ledger of `rules` (docs/kalah-6-6/RULES.jsonl)
/// as the audit reports it and as the engine reads it: the audit passes,
/// reaches every line from the root, and counts the engine's proofs,
/// splits and nodes.
fn audited_in_full(rules: &str) -> (serde_json::Value, Ledger) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("docs/kalah-6-6/{rules}.jsonl"));
    let (code, report, err) = audit(&path);
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["unreached_lines"], serde_json::json!([]));
    let ledger = Ledger::read(&path).unwrap();
    let totals = ledger.totals();
    assert_eq!(report["proofs"], totals.proofs as u64);
    assert_eq!(report["splits"], totals.splits as u64);
    assert_eq!(report["nodes"], totals.nodes);
    (report, ledger)
}

/// The standard output of `command`, which must succeed.
fn stdout_of(command: &mut Command) -> Vec<u8> {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// What a reading of a ledger proves: the root's bounds, and each move's
/// (pit, lower, upper).
type Reading = ((i64, i64), Vec<(i64, i64, i64)>);

/// The audit's reading.
fn audited(report: &serde_json::Value) -> Reading {
    let v = &report["value"];
    let moves = report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["pit"].as_i64().unwrap(),
                m["lower"].as_i64().unwrap(),
                m["upper"].as_i64().unwrap(),
            )
        })
        .collect();
    ((v[0].as_i64().unwrap(), v[1].as_i64().unwrap()), moves)
}

/// The moves after the extra turns of the root's turn, as the audit reads
/// them: (the moves before, pit, lower, upper).
fn audited_continuations(report: &serde_json::Value) -> Vec<(Vec<i64>, i64, i64, i64)> {
    report["continuations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let after = m["after"].as_array().unwrap();
            (
                after.iter().map(|p| p.as_i64().unwrap()).collect(),
                m["pit"].as_i64().unwrap(),
                m["lower"].as_i64().unwrap(),
                m["upper"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// ... and as the engine reads them.
fn engine_continuations(ledger: &Ledger) -> Vec<(Vec<i64>, i64, i64, i64)> {
    ledger
        .turn_moves()
        .unwrap()
        .iter()
        .filter(|m| !m.after.is_empty())
        .map(|m| {
            let after = m.after.iter().map(|&p| p as i64).collect();
            (after, m.pit as i64, m.lower as i64, m.upper as i64)
        })
        .collect()
}

/// The engine's reading of the same file.
fn engine(ledger: &Ledger) -> Reading {
    let (lo, hi) = ledger.root_bounds();
    let moves = ledger
        .moves()
        .unwrap()
        .iter()
        .map(|m| (m.pit as i64, m.lower as i64, m.upper as i64))
        .collect();
    ((lo as i64, hi as i64), moves)
}

#[test]
fn the_audit_reads_the_committed_kalah_6_6_ledger_as_the_engine_does() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/kalah-6-6/ledger.jsonl");
    let (code, report, err) = audit(&path);
    assert_eq!(code, 0, "{err}");
    assert_eq!(report["unreached_lines"], serde_json::json!([]));
    let ledger = Ledger::read(&path).unwrap();
    assert_eq!(audited(&report), engine(&ledger));
    // The moves after pit 0's extra turn, every one exact (since
    // 2026-11-30), as both readings have it.
    let after = audited_continuations(&report);
    assert_eq!(after, engine_continuations(&ledger));
    // The published value, read by the second reading too.
    assert_eq!(audited(&report).0, (2, 2));
    // Wikipedia's table of these rules' opening moves (revision of 14
    // November 2015; docs/kalah-6-6.md): every opening move's value, and
    // every value after pit 0 (pit 0 then pit 1 to 5: +2, +2, 0, 0, 0), is
    // the published one.
    assert_eq!(
        audited(&report).1,
        [
            (0, 2, 2),
            (1, 2, 2),
            (2, 0, 0),
            (3, 0, 0),
            (4, 0, 0),
            (5, -2, -2)
        ]
    );
    assert_eq!(
        after,
        [
            (vec![0], 1, 2, 2),
            (vec![0], 2, 2, 2),
            (vec![0], 3, 0, 0),
            (vec![0], 4, 0, 0),
            (vec![0], 5, 0, 0)
        ]
    );
    let totals = ledger.totals();
    assert_eq!(report["proofs"], totals.proofs as u64);
    assert_eq!(report["splits"], totals.splits as u64);
    assert_eq!(report["nodes"], totals.nodes);
    // Its text says what `prove --status --every-move` says, line for line
    // (the root, its value, the moves, those after pit 0's extra turn).
    let text = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let s = String::from_utf8(out.stdout).unwrap();
        s.lines()
            .take_while(|l| {
                ["root ", "value ", "moves "]
                    .iter()
                    .any(|w| l.starts_with(w))
            })
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let ours = text(
        Command::new("python3")
            .arg(script())
            .arg(&path)
            .output()
            .unwrap(),
    );
    let cli = text(
        Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(["prove", "kalah:6:6", "--status", "--every-move", "--ledger"])
            .arg(&path)
            .output()
            .unwrap(),
    );
    assert_eq!(ours, cli);
}

/// The capture-needs-opposite Kalah(6,6) proof, committed as it grows
/// (docs/kalah-6-6.md, "Under capture-needs-opposite"): both readings
/// agree on it, every line is reached from the root, and it proves the
/// start worth exactly +4, which the published "first player wins by at
/// least 4" allows, through pit 0 (+4), every other opening move at most
/// +4, pit 1 exactly +2, pits 2, 3 and 4 exactly 0, pit 5 exactly -2;
/// after pit 0's extra turn pits 1 to 5 exactly +2, +4, 0, 0 and -2 (pits
/// 1, 3 and 4 their twins' values under the default rules): the whole
/// first turn.
/// Wikipedia's table of these rules (revision of 17 December 2015) bounds
/// pit 5 by "a loss by at least 2" and pits 1 and 2 after pit 0 by "a win
/// by at least 2" and "at least 4": each bound is the value proven here.
#[test]
fn the_audit_reads_the_capture_needs_opposite_ledger_as_the_engine_does() {
    let (report, ledger) = audited_in_full("capture-needs-opposite");
    assert_eq!(ledger.header.rules, "capture-needs-opposite");
    let reading = audited(&report);
    assert_eq!(reading, engine(&ledger));
    assert_eq!(reading.0, (4, 4), "root bounds");
    // After pit 0's extra turn: pit 2 worth +4 (the best line), every
    // other move less, as both readings have it.
    let after = audited_continuations(&report);
    assert_eq!(after, engine_continuations(&ledger));
    assert_eq!(after.len(), 5);
    assert!(after.contains(&(vec![0], 2, 4, 4)), "{after:?}");
    assert!(after.iter().all(|m| m.0 == [0] && m.3 <= 4), "{after:?}");
    // Pit 0 then pit 1: +2, the published "a win by at least 2" met
    // exactly; then pits 3 and 4: 0 each, and pit 5: -2 (2026-12-01).
    assert_eq!(after[0], (vec![0], 1, 2, 2), "{after:?}");
    assert_eq!(after[2], (vec![0], 3, 0, 0), "{after:?}");
    assert_eq!(after[3], (vec![0], 4, 0, 0), "{after:?}");
    assert_eq!(after[4], (vec![0], 5, -2, -2), "{after:?}");
    let (_, moves) = &reading;
    assert_eq!(moves[0], (0, 4, 4), "{moves:?}");
    assert!(moves.iter().all(|m| m.2 <= 4), "{moves:?}");
    assert_eq!(moves[1], (1, 2, 2), "{moves:?}");
    assert_eq!(moves[2], (2, 0, 0), "{moves:?}");
    assert_eq!(moves[3], (3, 0, 0), "{moves:?}");
    assert_eq!(moves[4], (4, 0, 0), "{moves:?}");
    assert_eq!(moves[5], (5, -2, -2), "{moves:?}");
}

/// The end-when-mover-empty Kalah(6,6) proof, committed as it grew
/// (docs/kalah-6-6.md, "Under end-when-mover-empty"): both readings agree
/// on it, every line is reached from the root, and its lines are this
/// rule set's (its values are asserted by the book's test,
/// book_growing.rs).
#[test]
fn the_audit_reads_the_end_when_mover_empty_ledger_as_the_engine_does() {
    let (report, ledger) = audited_in_full("end-when-mover-empty");
    assert_eq!(ledger.header.rules, "end-when-mover-empty");
    assert_eq!(ledger.header.root, "6 6 6 6 6 6 0 6 6 6 6 6 6 0");
    assert!(!ledger.entries.is_empty(), "a line after the header");
    assert_eq!(audited(&report), engine(&ledger));
    assert_eq!(
        audited_continuations(&report),
        engine_continuations(&ledger)
    );
}

/// `benches/kalah66/remaining.py` (docs/kalah-6-6.md, "What is left")
/// prices every open task of a ledger, as `mancala prove --status --json`
/// lists them, against the default rules' finished ledger: one row a
/// task, and a twin's cost where the same position was proven under the
/// default rules. Run on the two other rule sets' ledgers, both done with
/// their first turn (no open task), and on end-when-mover-empty's as it
/// stood part-way (its first 63 lines, 2026-12-01 08:02 UTC: open tasks).
#[test]
fn the_remaining_cost_lists_every_open_task_of_a_ledger() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let part_way = dir.path().join("end-when-mover-empty-63.jsonl");
    let ewme = root.join("docs/kalah-6-6/end-when-mover-empty.jsonl");
    let text = std::fs::read_to_string(&ewme).unwrap();
    let first: Vec<&str> = text.lines().take(64).collect();
    std::fs::write(&part_way, first.join("\n") + "\n").unwrap();
    for (rules, ledger, guess, open_tasks) in [
        ("end-when-mover-empty", part_way, "2", true),
        ("end-when-mover-empty", ewme, "2", false),
        (
            "capture-needs-opposite",
            root.join("docs/kalah-6-6/capture-needs-opposite.jsonl"),
            "4",
            false,
        ),
    ] {
        let status = stdout_of(
            Command::new(env!("CARGO_BIN_EXE_mancala"))
                .args(["prove", &format!("kalah:6:6:{rules}"), "--ledger"])
                .arg(&ledger)
                .args(["--guess", guess, "--status", "--every-move", "--json"]),
        );
        let report: serde_json::Value = serde_json::from_slice(&status).unwrap();
        let open = report["open_tasks"].as_array().unwrap();
        assert_eq!(!open.is_empty(), open_tasks, "{rules}: {open:?}");
        let dir = tempfile::tempdir().unwrap();
        let status_file = dir.path().join("status.json");
        std::fs::write(&status_file, &status).unwrap();
        let priced = stdout_of(
            Command::new("python3")
                .arg(root.join("benches/kalah66/remaining.py"))
                .arg(&ledger)
                .arg("--status")
                .arg(&status_file)
                .arg("--twin")
                .arg(root.join("docs/kalah-6-6/ledger.jsonl"))
                .arg("--json"),
        );
        let priced: serde_json::Value = serde_json::from_slice(&priced).unwrap();
        let rows = priced["open_tasks"].as_array().unwrap();
        assert_eq!(rows.len(), open.len());
        for (row, task) in rows.iter().zip(open) {
            assert_eq!(row["position"], task["position"]);
            assert!(row["basis"].as_str().unwrap().len() > 4, "{row}");
        }
        // The root was split first, and the default rules' ledger holds
        // it: its twin's cost is that whole ledger's, every line of which
        // is reached from the start (the audit test above).
        let splits = priced["splits"].as_array().unwrap();
        let start = splits
            .iter()
            .find(|r| r["position"] == "6 6 6 6 6 6 0 6 6 6 6 6 6 0")
            .expect("the start is split");
        let twin = Ledger::read(&root.join("docs/kalah-6-6/ledger.jsonl")).unwrap();
        assert_eq!(start["twin_nodes"], twin.totals().nodes);
    }
}

/// Tasks of 3,000 nodes on one thread under `rules`: Kalah(4,3) becomes a
/// tree of 12 to 24 splits (Kalah(3,3), a few proofs of the root's
/// children).
fn tasks(rules: KalahRules) -> ProveOptions {
    ProveOptions {
        search: SolveOptions {
            rules,
            threads: 1,
            ..SolveOptions::default()
        },
        task_seconds: f64::INFINITY,
        task_nodes: Some(3000),
        estimate_seconds: 0.0,
        estimate_nodes: Some(100),
        split_again_at_once: true,
    }
}

#[test]
fn the_audit_follows_small_ledgers_under_every_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    for rules in KalahRules::ALL {
        let mut splits = 0;
        for (m, n) in [(3, 3), (4, 3)] {
            let root = Position::start(m, n).unwrap();
            let path = dir.path().join(format!("{m}-{n}-{}.jsonl", rules.name()));
            let mut ledger = Ledger::new(&root, rules);
            prove_moves(&mut ledger, &path, 0, None, &tasks(rules), &mut |_, _| {}).unwrap();
            splits += ledger.totals().splits;
            let (code, report, err) = audit(&path);
            assert_eq!(code, 0, "Kalah({m},{n}) {rules:?}: {err}");
            let (value, moves) = audited(&report);
            assert_eq!((value, moves.clone()), engine(&ledger), "{rules:?}");
            assert_eq!(value.0, value.1, "Kalah({m},{n}) {rules:?}");
            assert!(moves.iter().all(|&(_, lo, hi)| lo == hi));
            // The moves after an extra turn (Kalah(3,3)'s pit 0, Kalah(4,3)'s
            // pit 1), proven too, and read alike: the positions of the
            // root's turn are expanded by both readings, split or not.
            let after = audited_continuations(&report);
            assert!(!after.is_empty(), "Kalah({m},{n}) {rules:?}");
            assert_eq!(after, engine_continuations(&ledger), "{rules:?}");
            assert!(after.iter().all(|m| m.2 == m.3), "{rules:?}: {after:?}");
        }
        assert!(splits > 0, "{rules:?}: no question was split");
    }
}

#[test]
fn the_audit_refuses_a_damaged_foreign_or_contradictory_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let root = Position::start(3, 3).unwrap();
    let path = dir.path().join("good.jsonl");
    let mut ledger = Ledger::new(&root, KalahRules::Default);
    let opts = tasks(KalahRules::Default);
    prove_moves(&mut ledger, &path, 0, None, &opts, &mut |_, _| {}).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let write = |name: &str, lines: &[String]| {
        let p = dir.path().join(name);
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
        p
    };
    let proof = lines
        .iter()
        .position(|l| l.contains("\"kind\":\"proof\""))
        .unwrap();

    // A digit changed inside a line: its checksum fails.
    let mut damaged: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    damaged[proof] = damaged[proof].replacen("\"nodes\":", "\"nodes\":9", 1);
    let (code, _, err) = audit(&write("damaged.jsonl", &damaged));
    assert_eq!(code, 1);
    assert!(err.contains("checksum mismatch"), "{err}");

    // The same lines under another root (Kalah(3,4)): the tree from that
    // root reaches none of them; the audit names them.
    let Entry::Proof(p) = &ledger.entries[proof - 1] else {
        panic!("line {proof} is a proof");
    };
    let mut foreign: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let other = Ledger::new(&Position::start(3, 4).unwrap(), KalahRules::Default);
    foreign[0] = Entry::Header(other.header).to_line();
    let (code, _, err) = audit(&write("foreign.jsonl", &foreign));
    assert_eq!(code, 1, "{err}");

    // A proof of the right position with bounds that cannot hold beside
    // the others: the value of a child above its parent's upper bound.
    let mut liar = p.clone();
    liar.lower = liar.upper.max(liar.question.at_least) + 1;
    liar.upper = liar.lower;
    liar.answer = true;
    let mut contradictory: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    contradictory.push(Entry::Proof(liar).to_line());
    let (code, _, err) = audit(&write("contradictory.jsonl", &contradictory));
    assert_eq!(code, 1);
    assert!(err.contains("contradict"), "{err}");
}
