//! Proofs split into tasks (`search::prove`, `mancala prove`): a split
//! proof gives the solver's value, every proof line agrees with an exact
//! solve, a damaged ledger is refused by line, a stopped proof loses only
//! its task (the scheduler protocol and the command line's options are in
//! prove_cli.rs).

use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use mancala_solver::error::Error;
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::KalahRules;
use mancala_solver::search::prove::{
    prove, prove_moves, prove_value, run_task, Entry, Ledger, NodeState, ProveOptions, Question,
};
use mancala_solver::search::{solve, SolveOptions};

fn mancala() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
}

/// Tasks of no time at all: every question the short iterations do not
/// settle is split, so even a small game makes a tree of tasks.
fn tiny_tasks() -> ProveOptions {
    ProveOptions {
        search: SolveOptions {
            threads: 1,
            ..SolveOptions::default()
        },
        task_seconds: 0.0,
        task_nodes: None,
        estimate_seconds: 0.0,
        estimate_nodes: None,
        split_again_at_once: true,
    }
}

#[test]
fn a_split_proof_gives_the_solvers_value() {
    let dir = tempfile::tempdir().unwrap();
    for (m, n, rules) in [
        (3, 2, KalahRules::Default),
        (2, 4, KalahRules::Default),
        (3, 2, KalahRules::CaptureNeedsOpposite),
    ] {
        let root = Position::start(m, n).unwrap();
        let path = dir.path().join(format!("{m}-{n}-{}.jsonl", rules.name()));
        let mut ledger = Ledger::new(&root, rules);
        let opts = ProveOptions {
            search: SolveOptions {
                rules,
                ..tiny_tasks().search
            },
            ..tiny_tasks()
        };
        let v = prove_value(&mut ledger, &path, 0, None, &opts, &mut |_, _| {}).unwrap();
        let exact = solve(
            &root,
            None,
            &SolveOptions {
                rules,
                ..SolveOptions::default()
            },
        )
        .unwrap();
        assert_eq!(v, exact.value, "Kalah({m},{n}) {rules:?}");
        assert!(
            ledger.totals().splits > 0,
            "Kalah({m},{n}): the proof was never split"
        );
        // The file alone gives the value.
        let again = Ledger::read(&path).unwrap();
        assert_eq!(again.root_bounds(), (v, v));
        assert_eq!(again.entries, ledger.entries);
    }
}

/// The value of every move of the root's turn (the opening moves, and the
/// moves after an extra turn: Kalah(3,2)'s pit 1, Kalah(3,3)'s pit 0 and
/// Kalah(4,2)'s pit 2 end in the store), proven as tasks in the root's
/// ledger, equals an exact solve of the position after the move (negated
/// when the turn passes); the CLI's --every-move and --status say the same.
#[test]
fn every_moves_value_is_proven_from_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    for (m, n) in [(3, 2), (3, 3), (4, 2)] {
        let root = Position::start(m, n).unwrap();
        let rules = KalahRules::Default;
        let path = dir.path().join(format!("moves-{m}-{n}.jsonl"));
        let mut ledger = Ledger::new(&root, rules);
        // Tasks of 1,000 nodes: not a tree of hundreds of lines (each line
        // rewrites the ledger, synced to disk).
        let opts = ProveOptions {
            task_seconds: f64::INFINITY,
            task_nodes: Some(1000),
            estimate_nodes: Some(100),
            ..tiny_tasks()
        };
        let moves = prove_moves(&mut ledger, &path, 0, None, &opts, &mut |_, _| {}).unwrap();
        let exact_opts = SolveOptions::default();
        let value = solve(&root, None, &exact_opts).unwrap().value;
        assert_eq!(ledger.root_bounds(), (value, value));
        let legal: Vec<usize> = root.legal_moves(rules).collect();
        let opening: Vec<usize> = moves
            .iter()
            .filter(|m| m.after.is_empty())
            .map(|m| m.pit)
            .collect();
        assert_eq!(opening, legal);
        let mut continuations = 0;
        for mv in &moves {
            // Replay the turn: the moves before this one keep the mover.
            let mut parent = root;
            for &p in &mv.after {
                parent.play(p, rules).unwrap();
                assert_eq!(parent.to_move(), root.to_move());
            }
            continuations += usize::from(!mv.after.is_empty());
            let mut child = parent;
            child.play(mv.pit, rules).unwrap();
            let v = if child.is_game_over(rules) {
                child.final_difference()
            } else {
                solve(&child, None, &exact_opts).unwrap().value
            };
            let v = if child.to_move() != root.to_move() {
                -v
            } else {
                v
            };
            assert_eq!(
                (mv.lower, mv.upper),
                (v, v),
                "Kalah({m},{n}) pit {} after {:?}",
                mv.pit,
                mv.after
            );
            assert!(mv.upper <= value);
        }
        assert!(continuations > 0, "Kalah({m},{n}) has an extra turn");
        assert!(moves.iter().any(|mv| mv.lower == value));
        // The file alone says it, and nothing is left to do.
        let again = Ledger::read(&path).unwrap();
        assert_eq!(again.turn_moves().unwrap(), moves);
        assert_eq!(again.next_move_question(value).unwrap(), None);
    }
    // The CLI: --every-move on a fresh ledger, then --status --json.
    let path = dir.path().join("cli-3-3.jsonl");
    let out = mancala()
        .args([
            "prove",
            "kalah:3:3",
            "--every-move",
            "--quiet",
            "--task-nodes",
            "1000",
            "--max-table-seeds",
            "0",
            "--ledger",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = mancala()
        .args(["prove", "kalah:3:3", "--status", "--json", "--ledger"])
        .arg(&path)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert!(moves.iter().all(|m| m["lower"] == m["upper"]), "{v}");
    // Pit 0 is an extra turn: the two moves after it are proven too.
    let after = v["continuations"].as_array().unwrap();
    assert_eq!(after.len(), 2, "{v}");
    assert!(
        after
            .iter()
            .all(|m| m["lower"] == m["upper"] && m["after"] == serde_json::json!([0])),
        "{v}"
    );
    assert!(moves.iter().any(|m| m["lower"] == v["lower"]), "{v}");
    // The text names the moves as the JSON does, by pits 0..m-1 as every
    // command does: Kalah(3,3)'s pits 0 and 1 are worth +2, pit 2 -6.
    let want: Vec<String> = moves
        .iter()
        .map(|m| format!("{}:{:+}", m["pit"], m["lower"].as_i64().unwrap()))
        .collect();
    assert_eq!(want, ["0:+2", "1:+2", "2:-6"]);
    let out = mancala()
        .args(["prove", "kalah:3:3", "--status", "--ledger"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "moves (pit: value or proven bounds) {}",
            want.join(" ")
        )),
        "{text}"
    );
    let after: Vec<String> = after
        .iter()
        .map(|m| format!("{}:{:+}", m["pit"], m["lower"].as_i64().unwrap()))
        .collect();
    assert!(
        text.contains(&format!(
            "moves after 0 (the extra turn) {}",
            after.join(" ")
        )),
        "{text}"
    );
}

/// A proof line may prove more than its question asked (the search's
/// bounds): the value's next question must count that, or it would be
/// one the ledger already answers, asked forever.
#[test]
fn a_proof_that_proves_more_than_asked_closes_the_value() {
    let root = Position::start(3, 3).unwrap();
    let v = solve(&root, None, &SolveOptions::default()).unwrap().value;
    let mut ledger = Ledger::new(&root, KalahRules::Default);
    let asked = Question {
        position: root.to_string(),
        at_least: v - 10,
    };
    ledger
        .add(Entry::Proof(mancala_solver::search::prove::Proof {
            question: asked,
            answer: true,
            lower: v,
            upper: v,
            table_seeds: 0,
            nodes: 1,
            seconds: 0.0,
            threads: 1,
            program: mancala_solver::search::prove::program(),
        }))
        .unwrap();
    assert_eq!(ledger.root_bounds(), (v, v));
    assert_eq!(ledger.next_value_question(&root.to_string(), v + 4), None);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("more.jsonl");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let got = prove_value(
            &mut ledger,
            &path,
            v + 4,
            None,
            &tiny_tasks(),
            &mut |_, _| {},
        );
        tx.send((got.unwrap(), ledger.entries.len())).unwrap();
    });
    let (got, lines) = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("prove_value came back");
    assert_eq!((got, lines), (v, 1));
}

#[test]
fn every_proof_line_agrees_with_an_exact_solve() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.jsonl");
    let root = Position::start(3, 2).unwrap();
    let mut ledger = Ledger::new(&root, KalahRules::Default);
    prove_value(&mut ledger, &path, 0, None, &tiny_tasks(), &mut |_, _| {}).unwrap();
    // Every question of the ledger, proven or split, that the ledger
    // answers has the exact solve's answer.
    let mut checked = 0;
    for e in &ledger.entries {
        let q = e.question().unwrap();
        let pos = Position::parse(&q.position).unwrap();
        let v = solve(&pos, None, &SolveOptions::default()).unwrap().value;
        // (A split left open when a sibling settled its parent has none.)
        if let Some(a) = ledger.answer(q) {
            assert_eq!(a, v >= q.at_least, "{q:?}: value {v}");
            checked += 1;
        }
        if let Entry::Proof(p) = e {
            assert_eq!(v >= q.at_least, p.answer, "{q:?}: value {v}");
            assert!(p.lower <= v && v <= p.upper, "{p:?}: value {v}");
        }
    }
    assert!(checked >= 10, "only {checked} lines");
}

#[test]
fn a_damaged_or_foreign_ledger_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.jsonl");
    let root = Position::start(2, 4).unwrap();
    let mut ledger = Ledger::new(&root, KalahRules::Default);
    prove_value(&mut ledger, &path, 0, None, &tiny_tasks(), &mut |_, _| {}).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 4);
    // An edited answer on line 3: its checksum no longer matches.
    let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    edited[2] = if edited[2].contains("\"answer\":true") {
        edited[2].replace("\"answer\":true", "\"answer\":false")
    } else {
        edited[2].replace("\"at_least\":", "\"at_least\":1")
    };
    assert_ne!(edited[2], lines[2]);
    std::fs::write(&path, edited.join("\n")).unwrap();
    match Ledger::read(&path) {
        Err(Error::BadLedger { line, reason, .. }) => {
            assert_eq!(line, 3);
            assert!(reason.contains("checksum"), "{reason}");
        }
        other => panic!("an edited line was accepted: {other:?}"),
    }
    // No header; not a ledger; empty.
    std::fs::write(&path, lines[1..].join("\n")).unwrap();
    assert!(matches!(
        Ledger::read(&path),
        Err(Error::BadLedger { line: 1, .. })
    ));
    std::fs::write(&path, "hello\n").unwrap();
    assert!(matches!(
        Ledger::read(&path),
        Err(Error::BadLedger { line: 1, .. })
    ));
    std::fs::write(&path, "").unwrap();
    assert!(matches!(
        Ledger::read(&path),
        Err(Error::BadLedger { line: 0, .. })
    ));
    // Another root: refused by name.
    std::fs::write(&path, lines.join("\n")).unwrap();
    let other = Position::start(3, 3).unwrap();
    assert!(matches!(
        Ledger::open_or_new(&path, &other, KalahRules::Default),
        Err(Error::WrongLedger { .. })
    ));
    // Not a regular file.
    assert!(matches!(
        Ledger::read(dir.path()),
        Err(Error::NotAFile { .. })
    ));
    // The command line: one line on stderr, exit code 1, no panic.
    std::fs::write(&path, edited.join("\n")).unwrap();
    let out = mancala()
        .args(["prove", "kalah:2:4", "--status", "--ledger"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3") && err.contains("checksum"), "{err}");
}

#[test]
fn a_stopped_proof_loses_only_its_task() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.jsonl");
    let root = Position::start(3, 2).unwrap();
    let mut ledger = Ledger::new(&root, KalahRules::Default);
    let stop = Arc::new(AtomicBool::new(false));
    let mut opts = tiny_tasks();
    opts.search.stop = Some(stop.clone());
    let q = Question {
        position: root.to_string(),
        at_least: 2,
    };
    // Stop after the tenth line.
    let mut lines = 0;
    let r = prove(&mut ledger, &path, &q, None, &opts, &mut |_, _| {
        lines += 1;
        if lines == 10 {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    assert!(matches!(r, Err(Error::Stopped(_))), "{r:?}");
    // Every finished task is in the file (a task that settled before it
    // saw the flag too), nothing else.
    let saved = Ledger::read(&path).unwrap();
    assert!(saved.entries.len() >= 10, "{}", saved.entries.len());
    assert_eq!(saved.entries, ledger.entries);
    // Going on from the file finishes the proof with the solver's answer.
    let mut saved = saved;
    stop.store(false, std::sync::atomic::Ordering::Relaxed);
    let a = prove(&mut saved, &path, &q, None, &opts, &mut |_, _| {}).unwrap();
    let v = solve(&root, None, &SolveOptions::default()).unwrap().value;
    assert_eq!(a, v >= 2);
    // A task alone: its line, nothing written.
    let e = run_task(&q, None, &tiny_tasks()).unwrap();
    assert!(e.question() == Some(&q));
}

/// The Kalah(6,6) ledger committed as the proof goes on
/// (docs/kalah-6-6/ledger.jsonl) reads back: every line's checksum, a
/// header for the start of Kalah(6,6) under the default rules, and bounds
/// that hold the published value, +2. `mancala prove --status` reads it.
#[test]
fn the_committed_kalah_6_6_ledger_reads() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/kalah-6-6/ledger.jsonl");
    let l = Ledger::read(&path).unwrap();
    assert_eq!(l.header.root, Position::start(6, 6).unwrap().to_string());
    assert_eq!((l.header.rules.as_str(), l.header.pits), ("default", 6));
    assert!(!l.entries.is_empty());
    // The ledger alone proves the published value, +2.
    let (lo, hi) = l.root_bounds();
    assert_eq!((lo, hi), (2, 2));
    assert!(l.moves().unwrap().iter().all(|m| m.upper <= 2));
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["prove", "kalah:6:6", "--status", "--json", "--ledger"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["lower"], lo, "{status}");
}

#[test]
fn a_node_budget_stops_a_solve_and_splits_tasks() {
    // The search alone: a budget of a tenth of the nodes an exact solve
    // takes stops it with bounds, not a value.
    let root = Position::start(4, 3).unwrap();
    let one = SolveOptions {
        threads: 1,
        ..SolveOptions::default()
    };
    let full = solve(&root, None, &one).unwrap();
    assert!(full.exact);
    let limit = full.stats.nodes / 10;
    let cut = solve(
        &root,
        None,
        &SolveOptions {
            node_limit: Some(limit),
            ..one.clone()
        },
    )
    .unwrap();
    assert!(!cut.exact, "a solve of {limit} nodes finished");
    assert!(cut.lower <= full.value && full.value <= cut.upper);
    assert!(
        cut.stats.nodes < full.stats.nodes / 2,
        "{:?}",
        cut.stats.nodes
    );
    // Tasks of a twentieth of that and no time limit: split, and the
    // ledger still gives the solver's value.
    let budget = full.stats.nodes / 20;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k43.jsonl");
    let mut ledger = Ledger::new(&root, KalahRules::Default);
    let opts = ProveOptions {
        search: one.clone(),
        task_seconds: f64::INFINITY,
        task_nodes: Some(budget),
        estimate_seconds: f64::INFINITY,
        estimate_nodes: Some(budget / 10),
        split_again_at_once: true,
    };
    let v = prove_value(&mut ledger, &path, 0, None, &opts, &mut |_, _| {}).unwrap();
    assert_eq!(v, full.value);
    let totals = ledger.totals();
    assert!(totals.splits > 0, "no task was split");
    for e in &ledger.entries {
        if let Entry::Proof(p) = e {
            // A proof may overrun its budget by the first iteration and
            // the 1024-node check interval, not by more.
            assert!(p.nodes < budget + 50_000, "{p:?}");
        }
    }
    // A position split once is split again at once for the next
    // thresholds (a split line of no nodes); without that, every split
    // searched first. Both give the solver's value.
    let searched_first = |entries: &[Entry]| -> Vec<(bool, bool)> {
        let mut seen = std::collections::HashSet::new();
        entries
            .iter()
            .filter_map(|e| match e {
                Entry::Split(s) => Some((!seen.insert(s.question.position.clone()), s.nodes > 0)),
                _ => None,
            })
            .collect()
    };
    let splits = searched_first(&ledger.entries);
    assert!(
        splits.iter().any(|&(again, _)| again),
        "no position was split twice: {splits:?}"
    );
    assert!(
        splits.iter().all(|&(again, searched)| again != searched),
        "{splits:?}"
    );
    let old = dir.path().join("k43-search-first.jsonl");
    let mut old_ledger = Ledger::new(&root, KalahRules::Default);
    let search_first = ProveOptions {
        split_again_at_once: false,
        ..opts
    };
    let again = prove_value(
        &mut old_ledger,
        &old,
        0,
        None,
        &search_first,
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(again, full.value);
    let splits = searched_first(&old_ledger.entries);
    assert!(splits.iter().all(|&(_, searched)| searched), "{splits:?}");
}

#[test]
fn the_outline_shows_the_tree_its_open_tasks_and_what_waits() {
    let root = Position::start(3, 3).unwrap();
    let mut ledger = Ledger::new(&root, KalahRules::Default);
    let q = Question {
        position: root.to_string(),
        at_least: 2,
    };
    let opts = tiny_tasks();
    let mut waited = 0;
    for step in 0.. {
        assert!(step < 500, "the proof does not end");
        let tree = ledger.outline(&q);
        assert_eq!(tree[0].question, q);
        assert_eq!(tree[0].depth, 0);
        assert!(tree.windows(2).all(|w| w[1].depth <= w[0].depth + 1));
        let mut open: Vec<Question> = tree
            .iter()
            .filter(|n| n.state == NodeState::Open)
            .map(|n| n.question.clone())
            .collect();
        let mut pending = ledger.pending(&q);
        open.sort_by(|a, b| (&a.position, a.at_least).cmp(&(&b.position, b.at_least)));
        pending.sort_by(|a, b| (&a.position, a.at_least).cmp(&(&b.position, b.at_least)));
        assert_eq!(open, pending, "step {step}");
        waited += tree
            .iter()
            .filter(|n| n.state == NodeState::Waiting)
            .count();
        if let Some(a) = ledger.answer(&q) {
            let want = if a { NodeState::Yes } else { NodeState::No };
            assert_eq!(tree[0].state, want);
            assert!(tree.iter().all(|n| n.state != NodeState::Open));
            // Every line's cost is on its question's node.
            let listed: u64 = tree.iter().map(|n| n.nodes).sum();
            assert!(listed > 0 && listed <= ledger.totals().nodes);
            break;
        }
        let e = run_task(&pending[0], None, &opts).unwrap();
        ledger.add(e).unwrap();
    }
    assert!(waited > 0, "no question ever waited its turn");
}
