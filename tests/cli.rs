//! The binary over bad input: every case gets a one-line error naming the
//! problem, exit code 2 (usage) or 1 (data), and never a panic.

use std::path::Path;

mod common;
use common::mancala;

fn expect_error(args: &[&str], cwd: &Path, code: i32, needle: &str) {
    let (got, _out, err) = mancala(args, cwd);
    assert_eq!(got, code, "{args:?}: exit {got}, stderr: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(
        err.to_lowercase().contains(&needle.to_lowercase()),
        "{args:?}: stderr lacks \"{needle}\": {err}"
    );
    if code == 1 || !err.starts_with("error: invalid value") {
        let lines: Vec<_> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert!(
            lines.iter().filter(|l| l.starts_with("error:")).count() == 1,
            "{args:?}: one error line expected: {err}"
        );
    }
}

#[test]
fn bad_positions_and_arguments_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: &[(&[&str], &str)] = &[
        (&["query", "kalah", "4 4 4"], "3 entries"),
        (&["query", "kalah", "4 4 x 0"], "not a whole number"),
        (&["query", "kalah", "4 -1 4 0"], "negative"),
        (&["query", "kalah", ""], "0 entries"),
        (
            &[
                "query",
                "kalah",
                "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
            ],
            "at most 10",
        ),
        (
            &["query", "kalah", "1 1 1 1 1 1 1 0 1 1 1 1 1 1 1 0"],
            "tables exist for 1 to 6 pits",
        ),
        (&["query", "kalah", "300 0 1 0"], "more than the 255"),
        (&["query", "kalah", "40 0 30 0", "--time", "0"], "--time 0"),
        (
            &["query", "kalah", "40 0 30 0", "--tt-mb", "0"],
            "--tt-mb 0",
        ),
        (
            &["query", "kalah", "1 0 1 0", "--rules", "nonsense"],
            "nonsense",
        ),
        (
            &["build", "kalah", "--pits", "7", "--max-seeds", "3"],
            "1 to 6 pits",
        ),
        (
            &["build", "kalah", "--pits", "6", "--max-seeds", "0"],
            "1 to 64 seeds",
        ),
        (
            &["build", "kalah", "--pits", "six", "--max-seeds", "3"],
            "invalid value",
        ),
        (
            &[
                "build",
                "kalah",
                "--pits",
                "6",
                "--max-seeds",
                "3",
                "--memory",
                "lots",
            ],
            "memory size",
        ),
        (
            &["play", "kalah", "6", "4", "--moves", "2-5"],
            "does not pass",
        ),
        (
            &["play", "kalah", "6", "4", "--moves", "25-10-x"],
            "character 7",
        ),
        (
            &["play", "kalah", "6", "4", "--moves", "7"],
            "pit 7 does not exist",
        ),
        (
            &["play", "kalah", "6", "4", "--moves", "25-3-2"],
            "pit 2 is empty",
        ),
        (&["play", "kalah", "11", "4"], "1 to 10 pits"),
        (&["solve", "kalah", "6", "30"], "at most 255"),
        (&["play", "kalah", "6", "1001"], "at most 1000"),
        (&["play", "kalah"], "give the board"),
        (
            &["verify", "kalah", "--pits", "9", "--seeds", "3"],
            "1 to 6 pits",
        ),
        (&["frobnicate"], "unrecognized subcommand"),
    ];
    for (args, needle) in cases {
        expect_error(args, d, 2, needle);
    }
}

#[test]
fn table_problems_are_data_errors_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let dbs = db.to_str().unwrap();
    let (code, _, err) = mancala(
        &[
            "build",
            "kalah",
            "--pits",
            "3",
            "--max-seeds",
            "8",
            "--db",
            dbs,
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    let query = [
        "query",
        "kalah",
        "2 2 0 0 1 2 1 0",
        "--db",
        dbs,
        "--no-build",
    ];
    let (code, out, err) = mancala(&query, d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value"));
    let path = db.join("kalah-default-m3-k8.tbl");
    let good = std::fs::read(&path).unwrap();

    // More seeds than the tables hold, without building.
    expect_error(
        &[
            "query",
            "kalah",
            "5 5 0 0 1 2 1 0",
            "--db",
            dbs,
            "--no-build",
        ],
        d,
        1,
        "mancala build kalah --pits 3 --max-seeds 14",
    );
    // Truncated.
    std::fs::write(&path, &good[..good.len() - 3]).unwrap();
    expect_error(&query, d, 1, "truncated");
    // Corrupted data.
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    std::fs::write(&path, &bad).unwrap();
    expect_error(&query, d, 1, "checksum");
    // Another format version (header checksum recomputed, as a real newer
    // file would have).
    let mut other = good.clone();
    other[8] = 99;
    let crc = crc32fast::hash(&other[..60]);
    other[60..64].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &other).unwrap();
    expect_error(&query, d, 1, "format version 99");
    // Not a table at all.
    std::fs::write(&path, b"hello").unwrap();
    expect_error(&query, d, 1, "shorter than");
    // Built under other rules: copy a capture-needs-opposite table over it.
    std::fs::write(&path, &good).unwrap();
    let (code, _, err) = mancala(
        &[
            "build",
            "kalah",
            "--pits",
            "3",
            "--max-seeds",
            "8",
            "--db",
            dbs,
            "--rules",
            "capture-needs-opposite",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    std::fs::copy(db.join("kalah-capture-needs-opposite-m3-k8.tbl"), &path).unwrap();
    expect_error(
        &query,
        d,
        1,
        "built for kalah under capture-needs-opposite rules",
    );
    // Verify a missing table.
    expect_error(
        &[
            "verify", "kalah", "--pits", "4", "--seeds", "5", "--db", dbs,
        ],
        d,
        1,
        "missing table",
    );
    // A memory budget too small.
    expect_error(
        &[
            "build",
            "kalah",
            "--pits",
            "6",
            "--max-seeds",
            "20",
            "--db",
            dbs,
            "--memory",
            "10M",
        ],
        d,
        1,
        "over the budget",
    );
}

#[test]
fn a_killed_build_resumes_from_finished_tables() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let dbs = d.join("db");
    let dbs = dbs.to_str().unwrap();
    let (code, _, err) = mancala(
        &[
            "build",
            "kalah",
            "--pits",
            "4",
            "--max-seeds",
            "10",
            "--db",
            dbs,
            "--json",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    // Simulate a build killed while writing table 10 and with table 9
    // corrupted on disk: a stale temporary file and a bad checksum.
    let db = d.join("db");
    std::fs::remove_file(db.join("kalah-default-m4-k10.tbl")).unwrap();
    std::fs::write(db.join(".kalah-default-m4-k10.tbl.tmp-12345"), b"partial").unwrap();
    let p9 = db.join("kalah-default-m4-k9.tbl");
    let mut bytes = std::fs::read(&p9).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&p9, &bytes).unwrap();
    let (code, out, err) = mancala(
        &[
            "build",
            "kalah",
            "--pits",
            "4",
            "--max-seeds",
            "10",
            "--db",
            dbs,
            "--json",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<bool> = report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["found"].as_bool().unwrap())
        .collect();
    assert_eq!(found.len(), 10);
    assert!(
        found[..8].iter().all(|&f| f),
        "tables 1..=8 reused: {found:?}"
    );
    assert!(!found[8] && !found[9], "tables 9 and 10 rebuilt: {found:?}");
    assert!(
        err.contains("checksum"),
        "says why table 9 is rebuilt: {err}"
    );
    assert!(!db.join(".kalah-default-m4-k10.tbl.tmp-12345").exists());
    let (code, _, err) = mancala(
        &[
            "verify", "kalah", "--pits", "4", "--seeds", "9", "--db", dbs,
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn play_prints_the_position_reached() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = mancala(
        &["play", "kalah", "6", "4", "--moves", "25-10-3", "--json"],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 2: 4 4 0 5 5 5 1 | 5: store and North's first four pits... replayed
    // by hand below with the library for the exact figures.
    let mut p = mancala_solver::kalah::position::Position::start(6, 4).unwrap();
    p.play_line("25-10-3", mancala_solver::kalah::rules::KalahRules::Default)
        .unwrap();
    assert_eq!(v["position"], p.to_string());
    assert_eq!(v["to_move"], "north");
    assert_eq!(v["stores"][0], p.stores()[0] as u64);
    assert_eq!(v["game_over"], false);
}
