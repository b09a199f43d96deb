//! Faults a probe of the command line with bad input found (2026-11-28),
//! each failing on the code before its fix: input that was read as
//! something else, accepted values that ran without end, statistics of
//! games no agent played, and messages that pointed the wrong way.

use std::path::Path;

mod common;
use common::mancala;

/// Expect exit `code`, no panic, and every one of `has` in stderr.
fn fails(args: &[&str], cwd: &Path, code: i32, has: &[&str]) -> String {
    let (got, out, err) = mancala(args, cwd);
    assert_eq!(got, code, "{args:?}: exit {got}: {out}{err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    for h in has {
        assert!(err.contains(h), "{args:?}: no {h:?} in {err}");
    }
    err
}

/// `query kalah:5:4 POSITION` read a 3-pit position as if the name said
/// nothing of the board; now the name's pits and seeds must fit it.
#[test]
fn query_checks_the_board_its_game_name_gives() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    let three = "1 0 2 0 1 0 2 0";
    fails(
        &["query", "kalah:5:4", three, "--db", db],
        d,
        2,
        &["3 pits per side", "kalah:5"],
    );
    fails(
        &["query", "awari:3", "1 1 1 1", "--db", db],
        d,
        2,
        &["2 pits per side"],
    );
    // More seeds than the named start holds.
    fails(
        &["query", "kalah:3:1", "2 0 2 0 1 0 2 0", "--db", db],
        d,
        2,
        &["holds 7 seeds", "kalah:3:1 starts with 6"],
    );
    // A name that fits is read as before.
    let (code, out, err) = mancala(&["query", "kalah:3:1", three, "--db", db, "--json"], d);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = mancala(&["query", "kalah", three, "--db", db, "--json"], d);
    assert_eq!(code, 0, "{out}{err}");
}

/// `prove --ledger` in a missing directory failed only when the ledger
/// was first written, naming an internal temporary file; `--run-task`
/// proved a position of another board for the ledger.
#[test]
fn prove_refuses_a_ledger_nowhere_and_a_task_of_another_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    let ledger = d.join("k33.jsonl");
    let ledger = ledger.to_str().unwrap();
    let nowhere = d.join("no-such-dir").join("x.jsonl");
    let err = fails(
        &[
            "prove",
            "kalah:3:3",
            "--ledger",
            nowhere.to_str().unwrap(),
            "--db",
            db,
        ],
        d,
        2,
        &["does not exist"],
    );
    assert!(!err.contains(".x.jsonl.tmp"), "{err}");
    assert!(!nowhere.parent().unwrap().exists());
    // A 2-pit task for a 3-pit ledger, then a 3-pit one with other seeds.
    for (task, needle) in [
        (
            r#"{"position":"1 1 0 1 1 0","at_least":0}"#,
            "2 pits per side",
        ),
        (
            r#"{"position":"1 1 1 0 1 1 1 0","at_least":0}"#,
            "holds 6 seeds",
        ),
    ] {
        fails(
            &[
                "prove",
                "kalah:3:3",
                "--ledger",
                ledger,
                "--db",
                db,
                "--max-table-seeds",
                "0",
                "--run-task",
                task,
            ],
            d,
            2,
            &["--run-task", needle],
        );
    }
    // A task of the ledger's game runs.
    let (code, out, err) = mancala(
        &[
            "prove",
            "kalah:3:3",
            "--ledger",
            ledger,
            "--db",
            db,
            "--max-table-seeds",
            "0",
            "--run-task",
            r#"{"position":"3 3 3 0 3 3 3 0","at_least":0}"#,
        ],
        d,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\"answer\""), "{out}");
}

/// A match whose random opening plays every game out reported scores, an
/// interval and a p-value of agents that never chose a move; now the
/// report counts such games and the text warns.
#[test]
fn a_match_says_when_the_random_opening_played_the_games_out() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "match",
        "greedy",
        "alphabeta:2",
        "--game",
        "kalah:2:1",
        "--games",
        "4",
        "--random-opening",
        "50",
    ];
    let (code, out, err) = mancala(&[&args[..], &["--json"]].concat(), d);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ended_in_opening"], 4, "{out}");
    let (code, out, err) = mancala(&args, d);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("warning: 4 of 4 games were over before either agent chose a move"),
        "{out}"
    );
    // With no random opening the agents play, and nothing is said.
    let (code, out, err) = mancala(
        &[
            "match",
            "greedy",
            "alphabeta:2",
            "--game",
            "kalah:3:3",
            "--games",
            "2",
            "--random-opening",
            "0",
            "--json",
        ],
        d,
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ended_in_opening"], 0, "{out}");
}

/// `solve awari POSITION --max-table-seeds K` over a directory without
/// those tables searched over none, silently; now it builds them (as for
/// Kalah) or, with `--no-build`, says which table is missing.
#[test]
fn solve_awari_builds_or_names_the_tables_max_table_seeds_asks_for() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    let pos = "3 3 3 3 3 3";
    fails(
        &[
            "solve",
            "awari",
            pos,
            "--db",
            db,
            "--max-table-seeds",
            "6",
            "--no-build",
            "--time",
            "5",
        ],
        d,
        1,
        &["awari-m3-k1.tbl"],
    );
    let (code, out, err) = mancala(
        &[
            "solve",
            "awari",
            pos,
            "--db",
            db,
            "--max-table-seeds",
            "6",
            "--time",
            "60",
            "--json",
        ],
        d,
    );
    assert_eq!(code, 0, "{out}{err}");
    for k in 1..=6 {
        assert!(
            Path::new(db).join(format!("awari-m3-k{k}.tbl")).is_file(),
            "table {k}: {err}"
        );
    }
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["source"], "search", "{out}");
}

/// The assignment's program advised `--max-log-size 16777216T` for a log
/// no disk holds, a value its own parser refuses.
#[test]
fn the_assignment_gives_no_advice_its_parser_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("input.txt");
    let row = ["9"; 10].join(" ");
    std::fs::write(&input, format!("2\n1\n64\n{row}\n{row}\n0\n0\n")).unwrap();
    let err = fails(
        &["assignment", input.to_str().unwrap(), "--out-dir", "out"],
        d,
        2,
        &["lower the cut-off depth"],
    );
    assert!(!err.contains("--max-log-size 1"), "{err}");
    assert!(!d.join("out").join("traverse_log.txt").exists());
}

/// `kalah:-3` and `kalah:3:x` were read as rule sets named "-3" and "x";
/// a number that is not a count now says what the name's numbers are.
#[test]
fn a_game_name_with_a_number_that_is_not_a_count_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["kalah:-3", "kalah:3:2.5", "awari:4:-1"] {
        let err = fails(&["play", name, "--json"], d, 2, &["whole numbers"]);
        assert!(!err.contains("unknown rules"), "{err}");
    }
    // A rule set's name is still read as one.
    fails(&["play", "kalah:3:3:nonesuch"], d, 2, &["nonesuch"]);
}

/// A ledger line with a valid checksum but a negative or endless time of
/// search is refused (`--status` summed it into a negative total).
#[test]
fn a_ledger_line_with_a_time_that_is_not_a_duration_is_refused() {
    use mancala_solver::kalah::position::Position;
    use mancala_solver::kalah::KalahRules;
    use mancala_solver::search::prove::{Entry, Ledger, Proof, Question};
    let root = Position::start(2, 2).unwrap();
    let mut ledger = Ledger::new(&root, KalahRules::Default);
    let proof = |seconds: f64| {
        Entry::Proof(Proof {
            question: Question {
                position: root.to_string(),
                at_least: 0,
            },
            answer: true,
            lower: 0,
            upper: 0,
            table_seeds: 0,
            nodes: 1,
            seconds,
            threads: 1,
            program: "test".into(),
        })
    };
    for bad in [-1e300, f64::NAN, f64::INFINITY] {
        let e = ledger.add(proof(bad)).unwrap_err();
        assert!(e.contains("not a duration"), "{e}");
    }
    assert_eq!(ledger.add(proof(0.5)), Ok(true));
}

/// Bad usage that ran into a failed build or search (exit 1) is now
/// refused as usage (exit 2) with the flag's value named: a memory size of
/// nothing, a position limit of 0, a transposition table of 0 MiB (whose
/// message named `--search-ms` too).
#[test]
fn sizes_of_nothing_are_refused_as_usage() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    let build = [
        "build",
        "kalah",
        "--pits",
        "2",
        "--max-seeds",
        "2",
        "--db",
        db,
    ];
    for flag in ["--memory", "--group-size"] {
        let mut args = build.to_vec();
        args.extend([flag, "0"]);
        fails(&args, d, 2, &["\"0\" is no memory at all"]);
    }
    assert!(!d.join("db").exists());
    fails(
        &["graph", "kalah", "3", "3", "--max-positions", "0"],
        d,
        2,
        &["--max-positions"],
    );
    let err = fails(
        &["grade", "greedy", "--game", "kalah:3:3", "--tt-mb", "0"],
        d,
        2,
        &["--tt-mb 0: give 1 to 16384"],
    );
    assert!(!err.contains("--search-ms"), "{err}");
    fails(
        &["grade", "greedy", "--game", "kalah:3:3", "--search-ms", "0"],
        d,
        2,
        &["--search-ms 0"],
    );
}

/// `train plot` drew win rates of 150% and negative game counts; and
/// `train a3c --resume --curve FILE` replaced a FILE that was not a curve.
#[test]
fn training_curves_are_checked_and_never_replace_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let header = "episodes,seconds,win_pct_vs_random,draw_pct_vs_random,\
win_pct_vs_greedy,draw_pct_vs_greedy,value_loss,policy_loss,entropy";
    let plot = ["train", "plot", "c.csv", "--out", "c.svg"];
    for (row, has) in [
        ("100,5,150,0,50,0,0.1,0.2,1.0", "win_pct_vs_random is 150"),
        ("100,5,50,0,50,-1,0.1,0.2,1.0", "draw_pct_vs_greedy is -1"),
        ("-100,5,50,0,50,0,0.1,0.2,1.0", "episodes is -100"),
        ("100,5,50,0,50,0,NaN,0.2,1.0", "value_loss is NaN"),
        ("100,5,50,0,50,0,0.1,inf,1.0", "policy_loss is inf"),
    ] {
        std::fs::write(d.join("c.csv"), format!("{header}\n{row}\n")).unwrap();
        fails(&plot, d, 2, &["c.csv", "line 2", has]);
        assert!(!d.join("c.svg").exists());
    }
    std::fs::write(
        d.join("c.csv"),
        format!("{header}\n100,5,60,2,40,1,0.1,-0.02,1.0\n"),
    )
    .unwrap();
    let (code, _, err) = mancala(&plot, d);
    assert_eq!(code, 0, "{err}");
    // The committed curves (negative policy losses among them) still plot.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in [
        "a3c-training.csv",
        "a3c-training-capture-needs-opposite.csv",
    ] {
        std::fs::copy(root.join("docs").join(name), d.join("c.csv")).unwrap();
        let (code, _, err) = mancala(&plot, d);
        assert_eq!(code, 0, "{name}: {err}");
    }

    let train = |extra: &[&str]| {
        let mut args = vec![
            "train",
            "a3c",
            "--games",
            "4",
            "--workers",
            "1",
            "--batch",
            "4",
            "--hidden",
            "8,8",
            "--eval-every",
            "4",
            "--eval-games",
            "2",
            "--quiet",
        ];
        args.extend(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        mancala(&args, d)
    };
    let (code, _, err) = run(train(&["--out", "w.bin"]));
    assert_eq!(code, 0, "{err}");
    let notes = "my notes, not a curve\n";
    std::fs::write(d.join("notes.txt"), notes).unwrap();
    // Resume the run of w.bin with this curve file.
    let resume = |curve: &str| {
        run(train(&[
            "--resume", "w.bin", "--out", "w2.bin", "--curve", curve,
        ]))
    };
    let (code, out, err) = resume("notes.txt");
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("not a training curve"), "{err}");
    assert_eq!(std::fs::read_to_string(d.join("notes.txt")).unwrap(), notes);
    // An empty file starts a new curve.
    std::fs::write(d.join("empty.csv"), "").unwrap();
    let (code, _, err) = resume("empty.csv");
    assert_eq!(code, 0, "{err}");
    let csv = std::fs::read_to_string(d.join("empty.csv")).unwrap();
    assert!(csv.starts_with("episodes,"), "{csv}");
}

/// `prove --max-table-seeds K` over a directory holding larger tables
/// probed all of them and wrote their count into every ledger line (found
/// when the 6-pit tables grew from 32 to 34 seeds): the run's tables are
/// now cut at K, for the tasks as for `solve`, and a table above K is not
/// opened at all.
#[test]
fn prove_probes_no_table_above_max_table_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (code, _, err) = mancala(
        &[
            "build",
            "kalah",
            "--pits",
            "3",
            "--max-seeds",
            "6",
            "--db",
            "db",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    let common = [
        "--db",
        "db",
        "--no-build",
        "--threads",
        "1",
        "--tt-mb",
        "8",
        "--quiet",
    ];
    let mut args = vec![
        "prove",
        "kalah:3:3",
        "--ledger",
        "k.jsonl",
        "--max-table-seeds",
        "4",
    ];
    args.extend(common);
    let (code, out, err) = mancala(&args, d);
    assert_eq!(code, 0, "{out}{err}");
    let ledger = std::fs::read_to_string(d.join("k.jsonl")).unwrap();
    let proofs: Vec<&str> = ledger.lines().filter(|l| l.contains("\"proof\"")).collect();
    assert!(!proofs.is_empty(), "{ledger}");
    for line in proofs {
        assert!(line.contains("\"table_seeds\":4,"), "{line}");
    }
    // One task of the ledger, run with the tables up to `k`.
    let run_task = |k: &str| {
        let task = r#"{"position":"3 3 3 0 3 3 3 0","at_least":0}"#;
        let mut args = vec![
            "prove",
            "kalah:3:3",
            "--ledger",
            "k.jsonl",
            "--run-task",
            task,
        ];
        args.extend(["--max-table-seeds", k]);
        args.extend(common);
        mancala(&args, d)
    };
    for (k, has) in [("4", "\"table_seeds\":4,"), ("6", "\"table_seeds\":6,")] {
        let (code, out, err) = run_task(k);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains(has), "--max-table-seeds {k}: {out}");
    }
    // A table above K is not even opened: damaged, it stops only the runs
    // that ask for it (its checksum was read, and refused, by every run).
    let path = d.join("db").join("kalah-default-m3-k6.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, bytes).unwrap();
    for (k, code) in [("4", 0), ("6", 1)] {
        let (got, out, err) = run_task(k);
        assert_eq!(got, code, "--max-table-seeds {k}: {out}{err}");
        if code != 0 {
            assert!(err.contains("corrupted"), "{err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
}
