//! The faults found by attacking the tool (malformed, corrupted, concurrent
//! and resource-starved runs), each reproduced here before it was fixed.

use std::path::Path;
use std::time::{Duration, Instant};

mod common;
use common::mancala;

/// Run and expect failure with `code`, a one-line message containing
/// `needle`, and no panic; returns stderr.
fn fails(args: &[&str], cwd: &Path, code: i32, needle: &str) -> String {
    let (got, _, err) = mancala(args, cwd);
    assert_eq!(got, code, "{args:?}: exit {got}, stderr: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(
        err.to_lowercase().contains(&needle.to_lowercase()),
        "{args:?}: stderr lacks \"{needle}\": {err}"
    );
    err
}

/// Fault 2: `--threads` has one meaning (0 or omitted: all cores) and a
/// bound, refused before any work.
#[test]
fn thread_counts_are_bounded_and_mean_the_same_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    let t0 = Instant::now();
    for args in [
        &[
            "match",
            "greedy",
            "random",
            "--threads",
            "100000",
            "--games",
            "10",
        ][..],
        &["solve", "kalah", "6", "4", "--threads", "10000", "--db", db],
        &[
            "build",
            "kalah",
            "--pits",
            "3",
            "--max-seeds",
            "4",
            "--threads",
            "5000",
            "--db",
            db,
        ],
        &["tournament", "greedy", "random", "--threads", "999"],
    ] {
        fails(args, d, 2, "0 for all cores");
    }
    assert!(t0.elapsed() < Duration::from_secs(10), "refused at once");
    assert!(!d.join("db").exists(), "nothing built before refusing");
    // 0 means all cores everywhere (it was an error in `match` and one
    // thread in `build`).
    for args in [
        &[
            "match",
            "greedy",
            "random",
            "--threads",
            "0",
            "--games",
            "4",
        ][..],
        &["solve", "kalah", "3", "2", "--threads", "0", "--db", db],
        &[
            "build",
            "kalah",
            "--pits",
            "3",
            "--max-seeds",
            "4",
            "--threads",
            "0",
            "--db",
            db,
            "--json",
        ],
    ] {
        let (code, out, err) = mancala(args, d);
        assert_eq!(code, 0, "{args:?}: {err}");
        if args[0] == "build" {
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            assert_eq!(v["threads"], cores as u64, "{v}");
        }
    }
}

/// Fault 3: every argument and output path is checked before the work
/// (a bad `--time` once built 103 MB of tables first).
#[test]
fn arguments_and_output_paths_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    for time in ["nan", "-1", "inf", "1e300", "soon"] {
        let arg = format!("--time={time}");
        fails(
            &["solve", "kalah", "6", "4", &arg, "--db", db],
            d,
            2,
            "--time",
        );
    }
    fails(
        &[
            "solve",
            "kalah",
            "6",
            "4",
            "--tt-mb",
            "100000000",
            "--db",
            db,
        ],
        d,
        1,
        "transposition table",
    );
    let t0 = Instant::now();
    fails(
        &[
            "graph",
            "kalah",
            "3",
            "3",
            "--plot",
            "/nonexistent/x.svg",
            "--db",
            db,
        ],
        d,
        2,
        "/nonexistent",
    );
    fails(
        &[
            "match",
            "greedy",
            "random",
            "--games-out",
            "/nonexistent/g.jsonl",
        ],
        d,
        2,
        "/nonexistent",
    );
    assert!(t0.elapsed() < Duration::from_secs(5), "refused at once");
    assert!(!d.join("db").exists(), "nothing built before refusing");
}

/// Fault 5: messages say what is wrong in words a user can act on.
#[test]
fn messages_name_the_real_problem() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let dbs = db.to_str().unwrap();
    let build = [
        "build",
        "kalah",
        "--pits",
        "3",
        "--max-seeds",
        "6",
        "--db",
        dbs,
    ];
    let (code, _, err) = mancala(&build, d);
    assert_eq!(code, 0, "{err}");
    let query = [
        "query",
        "kalah",
        "2 1 0 0 1 2 0 0",
        "--db",
        dbs,
        "--no-build",
    ];
    let path = db.join("kalah-default-m3-k6.tbl");
    let good = std::fs::read(&path).unwrap();
    // A table cut to half its size (it said "inconsistent code size").
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    fails(&query, d, 1, "truncated");
    // A directory in place of a table (it said "No such device").
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    fails(&query, d, 1, "is a directory");
    std::fs::remove_dir(&path).unwrap();
    // A 120 KB move line is not echoed whole.
    let long = "1-".repeat(60_000);
    let err = fails(
        &["play", "kalah", "6", "4", "--moves", &long],
        d,
        2,
        "characters in all",
    );
    assert!(err.len() < 1000, "{} bytes of message", err.len());
    let long_board = "4 ".repeat(60_000) + "x";
    let err = fails(&["query", "kalah", &long_board], d, 2, "characters in all");
    assert!(err.len() < 1000, "{} bytes of message", err.len());
    let err = fails(
        &["match", &"x".repeat(100_000), "random"],
        d,
        2,
        "characters in all",
    );
    // The input clipped, then the list of every agent with its form.
    assert!(err.len() < 2500, "{} bytes of message", err.len());
    assert!(err.matches("characters in all").count() == 1, "{err}");
    // A sample of nothing is refused (it reported success).
    fails(
        &[
            "verify", "kalah", "--pits", "3", "--seeds", "6", "--sample", "0", "--db", dbs,
        ],
        d,
        2,
        "--sample",
    );
}

/// Fault 1: a build starting in a `--db` where another process is writing
/// a table deleted that process's temporary file, and its long build died.
/// Now a table is built only under its lock, and only the lock holder
/// removes the table's temporaries.
#[test]
fn builders_in_one_directory_cooperate() {
    use mancala_solver::family::Rules;
    use mancala_solver::tables::lock::TableLock;
    use mancala_solver::tables::TableSpec;
    use std::process::{Command, Stdio};

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    std::fs::create_dir_all(&db).unwrap();
    let dbs = db.to_str().unwrap();
    let spec = TableSpec {
        game: Rules::from_name("kalah", None).unwrap(),
        pits: 3,
        seeds: 5,
    };
    // "Another process" (this test) is writing table 5.
    let held = TableLock::acquire(&db, spec, |_| panic!("free")).unwrap();
    let live = db.join(".kalah-default-m3-k5.tbl.tmp-4242-0");
    std::fs::write(&live, b"being written").unwrap();
    // A build of other tables leaves it alone.
    let (code, _, err) = mancala(
        &[
            "build",
            "kalah",
            "--pits",
            "3",
            "--max-seeds",
            "4",
            "--db",
            dbs,
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(live.exists(), "a live temporary was deleted");
    // A build that needs table 5 waits for the holder, then builds it
    // (the holder died without finishing) and removes its temporary.
    let child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "build",
            "kalah",
            "--pits",
            "3",
            "--max-seeds",
            "6",
            "--db",
            dbs,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(live.exists(), "deleted while its writer held the lock");
    assert!(
        !spec.path(&db).exists(),
        "built while another held the lock"
    );
    drop(held);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("another process is building"), "{err}");
    assert!(!live.exists(), "a dead builder's temporary is left");
    let (code, _, err) = mancala(
        &[
            "verify", "kalah", "--pits", "3", "--seeds", "5", "--db", dbs,
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");

    // Two real builders of the same tables at once: both succeed, and the
    // files are sound.
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args([
                "build",
                "kalah",
                "--pits",
                "5",
                "--max-seeds",
                "14",
                "--db",
                dbs,
                "--threads",
                "1",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (run(), run());
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for k in [13, 14] {
        let k = k.to_string();
        let (code, _, err) = mancala(
            &[
                "verify", "kalah", "--pits", "5", "--seeds", &k, "--db", dbs, "--sample", "20000",
            ],
            d,
        );
        assert_eq!(code, 0, "{err}");
    }
    let names: Vec<String> = std::fs::read_dir(&db)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains(".tmp-")), "{names:?}");
}

/// Fault 4: a position beyond the tables this machine can build got the
/// advice to build them (1.1 TiB); now the message says so and gives the
/// command that works.
#[test]
fn positions_beyond_buildable_tables_get_advice_that_works() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    // (Not a start: the opening books answer those.)
    let start = "5 4 4 4 4 4 0 4 4 4 4 4 4 0";
    // Above the tables: the note says why, the search answers within
    // --time (proven bounds here), and the note names the solve that goes
    // to the end.
    let (code, out, err) = mancala(&["query", "kalah", start, "--db", db, "--time", "0.2"], d);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("beyond this machine"), "{err}");
    assert!(!err.contains("mancala build"), "{err}");
    let cmd = format!("mancala solve kalah \"{start}\"");
    assert!(err.contains(&cmd), "{err}");
    assert!(out.contains("exact search"), "{out}");
    // The advice runs (stopped early here).
    let (code, out, err) = mancala(
        &[
            "solve",
            "kalah",
            start,
            "--db",
            db,
            "--no-build",
            "--time",
            "0.2",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("between"), "{out}");
    // Awari's start is beyond any table the builder indexes: the exact
    // search answers with what it proves in time.
    let (code, out, err) = mancala(
        &[
            "query",
            "awari",
            "4 4 4 4 4 4 4 4 4 4 4 4",
            "--db",
            db,
            "--time",
            "0.2",
            "--json",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("6-pit tables go up to"), "{err}");
    let a: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(a["source"], "search", "{out}");
    assert_eq!(a["moves"].as_array().unwrap().len(), 6, "{out}");
    let (lo, hi) = (a["lower"].as_i64().unwrap(), a["upper"].as_i64().unwrap());
    assert!(-48 <= lo && lo <= hi && hi <= 48, "{out}");
    // A game with no search keeps the tables' message.
    fails(
        &[
            "query",
            "vai-lung-thlan",
            "5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5",
            "--db",
            db,
        ],
        d,
        2,
        "tables go up to",
    );
    // A bad --time is a usage error.
    fails(
        &["query", "kalah", start, "--db", db, "--time", "0"],
        d,
        2,
        "--time 0",
    );
}

/// Newcomer items 10-12: live status only on a terminal, every game in the
/// top-level help, the tournament's relation matrix instead of a linear
/// order the matches did not show, shell completions and a man page.
#[test]
fn a_newcomer_gets_what_a_rust_cli_offers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    // 10: a solve and a build with stderr redirected write no `\r`.
    for args in [
        &["solve", "kalah", "4", "3", "--db", db][..],
        &[
            "build",
            "kalah",
            "--pits",
            "5",
            "--max-seeds",
            "12",
            "--db",
            db,
        ],
    ] {
        let (code, _, err) = mancala(args, d);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains('\r'), "{args:?}: carriage returns in {err:?}");
    }
    // 9: the solve built the cheap 4-pit tables on first use, and said so.
    assert!(
        std::path::Path::new(db)
            .join("kalah-default-m4-k24.tbl")
            .exists(),
        "4-pit tables built on first use"
    );
    let (code, _, err) = mancala(
        &["solve", "kalah", "5", "3", "--db", "empty", "--no-build"],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("mancala build kalah --pits 5 --max-seeds 30 --db empty"),
        "{err}"
    );
    // 11: the top-level help names every game of the registry.
    let (code, out, _) = mancala(&["--help"], d);
    assert_eq!(code, 0);
    for game in mancala_solver::family::Rules::game_names() {
        assert!(
            out.contains(&format!("{game}:M:N")),
            "{game} missing from --help: {out}"
        );
    }
    for rules in mancala_solver::kalah::KalahRules::ALL {
        assert!(out.contains(rules.name()), "{}", rules.name());
    }
    // 11: the tournament prints the relation, and no linear order when a
    // pair is not separated.
    let (code, out, err) = mancala(
        &[
            "tournament",
            "random",
            "greedy",
            "alphabeta:2",
            "--game",
            "kalah:3:3",
            "--games",
            "20",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("relation of the row agent"), "{out}");
    assert!(
        out.contains("not separated at this sample size: random ~ alphabeta:2"),
        "{out}"
    );
    assert!(!out.contains("greedy > alphabeta:2"), "{out}");
    // 12: completions and a man page.
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, err) = mancala(&["completions", shell], d);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("tournament") && out.contains("max-seeds"),
            "{shell}"
        );
    }
    let (code, out, _) = mancala(&["man"], d);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(".ie") || out.contains(".TH mancala"),
        "{}",
        &out[..200.min(out.len())]
    );
}

/// A reader that stops early (`mancala ... | head`) ends the command
/// quietly, as it does other Unix tools: no panic about a broken pipe.
#[test]
#[cfg(target_os = "linux")]
fn a_closed_standard_output_is_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["solve", "kalah", "4", "4", "--no-tables", "--json"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    assert_ne!(out.status.code(), Some(0));
}
