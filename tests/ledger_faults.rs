//! A proof ledger cannot be made to lie or to lose work (issue 59): lines
//! that contradict each other or cannot be right are refused by the engine
//! as by the independent audit (`dist/ledger_audit.py`), and nothing is
//! ever dropped to make them agree; two writers on one ledger keep each
//! other's lines; a forged line consistent with the rest is found by
//! proving it again, and reported in words; a write stopped by the file
//! size limit leaves no temporary file.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::mancala;
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::KalahRules;
use mancala_solver::search::prove::{prove_value, Entry, Ledger, Proof, ProveOptions, Question};
use mancala_solver::search::SolveOptions;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/ledger_audit.py")
}

/// The audit's exit code, stdout and stderr.
fn audit(args: &[&str]) -> (i32, String, String) {
    let out = Command::new("python3")
        .arg(script())
        .args(args)
        .output()
        .expect("python3 runs the ledger audit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Kalah(3,3) (worth +2) proven by the command line in tasks of 60 nodes
/// (some 35 lines): the ledger and its lines.
fn proven_3_3(dir: &Path) -> (PathBuf, Vec<String>) {
    let path = dir.join("k33.jsonl");
    let (code, _, err) = mancala(
        &[
            "prove",
            "kalah:3:3",
            "--ledger",
            path.to_str().unwrap(),
            "--task-nodes",
            "60",
            "--max-table-seeds",
            "0",
            "--quiet",
        ],
        dir,
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text.lines().map(str::to_string).collect())
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn proof_of(root: &str, at_least: i32, answer: bool, lower: i32, upper: i32) -> Entry {
    Entry::Proof(Proof {
        question: Question {
            position: root.to_string(),
            at_least,
        },
        answer,
        lower,
        upper,
        table_seeds: 0,
        nodes: 1,
        seconds: 0.0,
        threads: 1,
        program: "forged".into(),
    })
}

fn status(path: &Path, dir: &Path) -> (i32, String, String) {
    mancala(
        &[
            "prove",
            "kalah:3:3",
            "--ledger",
            path.to_str().unwrap(),
            "--status",
        ],
        dir,
    )
}

/// A copy of a proof line with its answer and bounds changed (its checksum
/// made anew), put before the genuine one: the engine took the forged line
/// as "the" proof of its question, dropped the genuine one as a duplicate,
/// reported +4 (the value is +2) and saved the ledger without it. Now it
/// refuses, naming both lines, and the file is left as it was.
#[test]
fn a_ledger_that_contradicts_itself_is_refused_never_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (path, mut lines) = proven_3_3(d);
    let (code, out, _) = status(&path, d);
    assert_eq!(code, 0);
    assert!(out.contains("value +2 (proven)"), "{out}");
    // A proof line with its answer turned round.
    let k = lines
        .iter()
        .position(|l| l.contains("\"kind\":\"proof\""))
        .expect("a proof line");
    let Entry::Proof(mut forged) = Entry::from_line(&lines[k]).unwrap() else {
        unreachable!()
    };
    let t = forged.question.at_least;
    (forged.answer, forged.lower, forged.upper) = if forged.answer {
        (false, -18, t - 1)
    } else {
        (true, t, 18)
    };
    lines.insert(k, Entry::Proof(forged).to_line());
    write_lines(&path, &lines);
    let before = std::fs::read(&path).unwrap();

    let (code, out, err) = mancala(
        &[
            "prove",
            "kalah:3:3",
            "--ledger",
            path.to_str().unwrap(),
            "--task-seconds",
            "0",
            "--max-table-seeds",
            "0",
            "--quiet",
        ],
        d,
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("contradict"), "{err}");
    assert!(
        err.contains(&format!("line {}", k + 1)) && err.contains(&(k + 2).to_string()),
        "both lines named: {err}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is untouched"
    );
    let (code, _, err) = status(&path, d);
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = audit(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("contradict"), "{err}");
}

/// Two root proofs, [-18, 0] and [4, 18]: `--status` printed "value in
/// [+4, +0] (proven bounds)" and exit 0; a bound of +100 in an 18-seed game
/// was accepted. Both are refused, by the engine and by the audit.
#[test]
fn impossible_and_contradictory_root_proofs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let root = Position::start(3, 3).unwrap();
    let header = Entry::Header(Ledger::new(&root, KalahRules::Default).header).to_line();
    let r = root.to_string();
    let cases = [
        (
            "two.jsonl",
            vec![proof_of(&r, 1, false, -18, 0), proof_of(&r, 4, true, 4, 18)],
            "contradict",
        ),
        (
            "hundred.jsonl",
            vec![proof_of(&r, 4, true, 4, 100)],
            "not bounds of a value of this game",
        ),
        (
            "parity.jsonl",
            vec![proof_of(&r, 1, true, 1, 1)],
            "contradict",
        ),
    ];
    for (name, entries, why) in cases {
        let path = d.join(name);
        let mut lines = vec![header.clone()];
        lines.extend(entries.iter().map(Entry::to_line));
        write_lines(&path, &lines);
        let (code, out, err) = status(&path, d);
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert!(err.contains(why), "{name}: {err}");
        let (code, _, err) = audit(&[path.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: the audit: {err}");
        assert!(
            err.contains(why) || err.contains("no value fits"),
            "{name}: {err}"
        );
    }
}

/// `--record` of a line that contradicts the ledger said "0 new lines
/// recorded" and exit 0; it is refused (exit 1), and nothing is written.
#[test]
fn recording_a_contradicting_line_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (path, _) = proven_3_3(d);
    let before = std::fs::read(&path).unwrap();
    let liar = proof_of("3 3 3 0 3 3 3 0", 4, true, 4, 18).to_line();
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "prove",
            "kalah:3:3",
            "--ledger",
            path.to_str().unwrap(),
            "--record",
        ])
        .current_dir(d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(liar.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("contradict"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

fn small_tasks(rules: KalahRules) -> ProveOptions {
    ProveOptions {
        search: SolveOptions {
            rules,
            tt_mb: 1,
            threads: 1,
            ..SolveOptions::default()
        },
        task_seconds: f64::INFINITY,
        task_nodes: Some(300),
        estimate_seconds: f64::INFINITY,
        estimate_nodes: Some(30),
        split_again_at_once: true,
    }
}

/// Two writers of one ledger, each with the ledger it read: each used to
/// rewrite the whole file from its memory, so the second writer's save
/// dropped the first's lines. Now every write reads the file again under
/// the ledger's lock and adds to it.
#[test]
fn two_writers_keep_each_others_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.jsonl");
    let root = Position::start(4, 3).unwrap();
    let opts = small_tasks(KalahRules::Default);
    // Both open the same (missing) ledger.
    let mut a = Ledger::open_or_new(&path, &root, KalahRules::Default).unwrap();
    let mut b = Ledger::open_or_new(&path, &root, KalahRules::Default).unwrap();
    // A proves the exact value; B, with its stale copy, then a question
    // of its own.
    let value = prove_value(&mut a, &path, 0, None, &opts, &mut |_, _| {}).unwrap();
    let a_lines = a.entries.len();
    assert!(a_lines > 2);
    let q = Question {
        position: root.to_string(),
        at_least: value + 4,
    };
    mancala_solver::search::prove::prove(&mut b, &path, &q, None, &opts, &mut |_, _| {}).unwrap();
    let on_disk = Ledger::read(&path).unwrap();
    for e in &a.entries {
        assert!(on_disk.entries.contains(e), "A's line lost: {e:?}");
    }
    for e in &b.entries {
        assert!(on_disk.entries.contains(e), "B's line lost");
    }
    assert!(on_disk.entries.len() > a_lines);
    assert_eq!(on_disk.root_bounds(), (value, value));
}

/// `--record` of another run's lines while a prover runs on the same
/// ledger: the recorded lines used to vanish at the prover's next save.
#[test]
fn lines_recorded_during_a_run_survive_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = |ledger: &str, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "prove",
            "kalah:5:3",
            "--ledger",
            ledger,
            "--max-table-seeds",
            "0",
            "--threads",
            "1",
            "--tt-mb",
            "8",
            "--quiet",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    // Lines of every move's value, proven apart.
    let other = d.join("other.jsonl");
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        mancala(&a, d)
    };
    let (code, _, err) = run(args(
        other.to_str().unwrap(),
        &["--every-move", "--task-nodes", "30000"],
    ));
    assert_eq!(code, 0, "{err}");
    let recorded: Vec<String> = std::fs::read_to_string(&other)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    assert!(recorded.len() > 10, "{} lines", recorded.len());

    // A prover of many small tasks on the shared ledger, and the record
    // as soon as it has written its first line.
    let shared = d.join("shared.jsonl");
    let mut prover = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args(shared.to_str().unwrap(), &["--task-nodes", "200"]))
        .current_dir(d)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&shared).map_or(0, |t| t.lines().count()) < 2 {
        assert!(start.elapsed().as_secs() < 60, "the prover wrote nothing");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let mut rec = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args(shared.to_str().unwrap(), &["--record"]))
        .current_dir(d)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = rec.stdin.take().unwrap();
        stdin
            .write_all((recorded.join("\n") + "\n").as_bytes())
            .unwrap();
    }
    assert!(rec.wait().unwrap().success());
    let still_running = prover.try_wait().unwrap().is_none();
    assert!(prover.wait().unwrap().success());
    let text = std::fs::read_to_string(&shared).unwrap();
    let kept: std::collections::HashSet<&str> = text.lines().collect();
    let lost = recorded
        .iter()
        .filter(|l| !kept.contains(l.as_str()))
        .count();
    assert_eq!(
        lost, 0,
        "{lost} recorded lines lost (the prover was still running after the record: {still_running})"
    );
}

/// A forged line that contradicts nothing (the root "not at least 2",
/// alone in its ledger) passes the audit's reading; `--check` finds it and
/// says so in words (it printed a Rust debug dump), and so does the
/// audit's own `--reprove`.
#[test]
fn a_forged_line_is_found_by_proving_it_again_and_told_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let path = d.join("forged.jsonl");
    let root = Position::start(3, 3).unwrap();
    let header = Entry::Header(Ledger::new(&root, KalahRules::Default).header).to_line();
    write_lines(
        &path,
        &[
            header,
            proof_of(&root.to_string(), 2, false, -18, 0).to_line(),
        ],
    );
    let (code, out, _) = audit(&[path.to_str().unwrap()]);
    assert_eq!(code, 0, "consistent: the reading alone cannot tell");
    assert!(
        out.contains("value in") || out.contains("value [-18,+0]"),
        "{out}"
    );

    let (code, out, err) = mancala(
        &[
            "prove",
            "kalah:3:3",
            "--ledger",
            path.to_str().unwrap(),
            "--check",
            "0",
            "--max-table-seeds",
            "0",
            "--quiet",
        ],
        d,
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("MISMATCH"), "{err}");
    assert!(
        err.contains("the ledger says no") && err.contains("the search says yes"),
        "{err}"
    );
    assert!(
        !err.contains("Proof {") && !err.contains("question:"),
        "{err}"
    );
    assert!(out.contains("1 differ"), "{out}");

    let (code, out, err) = audit(&[
        path.to_str().unwrap(),
        "--reprove",
        "0",
        "--mancala",
        env!("CARGO_BIN_EXE_mancala"),
        "--",
        "--max-table-seeds",
        "0",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 differ") && out.contains("DIFFERS"), "{out}");

    // On a genuine ledger the same re-proof agrees.
    let (good, _) = proven_3_3(d);
    let (code, out, err) = audit(&[
        good.to_str().unwrap(),
        "--reprove",
        "3",
        "--mancala",
        env!("CARGO_BIN_EXE_mancala"),
        "--",
        "--max-table-seeds",
        "0",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("3 proof lines proven again: 3 agree, 0 differ"),
        "{out}"
    );
}

/// The engine's `--status` and the audit print the same bounds: on a
/// ledger of the root's moves alone (no line about the root) the audit
/// derived the root's value from its moves and `--status` did not.
#[test]
fn status_and_audit_print_the_same_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (full, _) = proven_3_3(d);
    let (code, _, err) = mancala(
        &[
            "prove",
            "kalah:3:3",
            "--ledger",
            full.to_str().unwrap(),
            "--every-move",
            "--task-nodes",
            "60",
            "--max-table-seeds",
            "0",
            "--quiet",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    // Keep only the lines about positions other than the root.
    let text = std::fs::read_to_string(&full).unwrap();
    let mut lines = text.lines();
    let mut kept = vec![lines.next().unwrap().to_string()];
    kept.extend(
        lines
            .filter(|l| !l.contains("\"position\":\"3 3 3 0 3 3 3 0\""))
            .map(str::to_string),
    );
    let moves_only = d.join("moves-only.jsonl");
    write_lines(&moves_only, &kept);
    for path in [&full, &moves_only] {
        let (code, engine, err) = status(path, d);
        assert_eq!(code, 0, "{err}");
        let (code, audited, err) = audit(&[path.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let first = |t: &str| t.lines().take(3).collect::<Vec<_>>().join("\n");
        assert_eq!(first(&engine), first(&audited), "{}", path.display());
        assert!(engine.contains("value +2 (proven)"), "{engine}");
    }
}

/// A ledger whose write runs into the file size limit (`ulimit -f`): the
/// process was killed by SIGXFSZ and left `.NAME.tmp-PID` behind. Now the
/// write fails, the temporary file is removed, and the error says why.
#[cfg(target_os = "linux")]
#[test]
fn a_write_past_the_file_size_limit_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let path = d.join("big.jsonl");
    let script = format!(
        "ulimit -f 2; exec '{}' prove kalah:4:4 --ledger '{}' --task-seconds 0 --max-table-seeds 0 --quiet",
        env!("CARGO_BIN_EXE_mancala"),
        path.display()
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .current_dir(d)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "killed by a signal? {err}");
    assert!(err.contains("File too large"), "{err}");
    let left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // What was written before is a sound ledger.
    Ledger::read(&path).unwrap();
}
