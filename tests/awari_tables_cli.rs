//! `mancala build|query|solve|verify awari|oware` through the binary: values
//! of small games, the forcing check catching a table that rests on a cycle,
//! resumed builds, and one-line errors with the right exit code for bad
//! input and bad tables.

use std::path::Path;

mod common;
use common::mancala;

use mancala_solver::awari::rules::{awari_turn, AwariGame, AwariTurn};
use mancala_solver::awari::tables::awari_spec;
use mancala_solver::tables::{write_table, Table};

fn ok_json(args: &[&str], cwd: &Path) -> serde_json::Value {
    let (code, out, err) = mancala(args, cwd);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

fn expect_error(args: &[&str], cwd: &Path, code: i32, needle: &str) {
    let (got, out, err) = mancala(args, cwd);
    assert_eq!(got, code, "{args:?}: stdout {out} stderr {err}");
    assert!(err.contains(needle), "{args:?}: {err} lacks {needle:?}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    let last = err.trim_end().lines().last().unwrap_or("");
    assert!(last.starts_with("error: "), "{args:?}: {err}");
}

/// Values of the start positions (first player's captures minus the
/// second's), from the reference solver (tests/awari_reference.rs).
#[test]
fn solve_small_games_prints_values_and_opening_moves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    solve_start_positions(
        &[
            ("awari", "2", "2", 2),
            ("awari", "3", "2", 3),
            ("oware", "2", "4", -10),
            ("oware", "3", "3", 11),
        ],
        d,
    );
    // The text form names the value and every opening move.
    let (code, out, err) = mancala(&["solve", "oware", "3", "3"], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value: +11"), "{out}");
    assert!(out.contains("pit 0: +10  (takes 4)"), "{out}");
    assert!(out.contains("pit 1: +11  (takes 8)  best"), "{out}");
    // The tables were built into db/ on first use.
    assert!(d.join("db").join("oware-m3-k18.tbl").exists());
}

/// The 8-pit games: two 24-seed table sets, about 8 s of CPU.
#[test]
#[ignore = "slow, about 8 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn solve_eight_pit_games_prints_values_and_opening_moves() {
    let dir = tempfile::tempdir().unwrap();
    solve_start_positions(
        &[("awari", "4", "3", -1), ("oware", "4", "3", 5)],
        dir.path(),
    );
}

/// `mancala solve GAME M N --json` gives `value` at the start, a best
/// opening move of that value, and a principal variation that, replayed,
/// ends with it.
fn solve_start_positions(games: &[(&str, &str, &str, i64)], d: &Path) {
    for &(game, m, n, value) in games {
        let v = ok_json(&["solve", game, m, n, "--json"], d);
        assert_eq!(v["value"], value, "{game}({m},{n})");
        let moves = v["moves"].as_array().unwrap();
        assert!(!moves.is_empty());
        let best = moves.iter().map(|mv| mv["value"].as_i64().unwrap()).max();
        assert_eq!(best, Some(value), "the best opening move has the value");
        // The principal variation, replayed, ends with the value: by the
        // rules, or by a repetition that splits the seeds left evenly.
        let pv = v["pv"].as_str().unwrap();
        let first: usize = pv.split('-').next().unwrap().parse().unwrap();
        assert_eq!(v["best_move"], first);
        let end = ok_json(&["play", game, m, n, "--moves", pv, "--json"], d);
        let stores = end["stores"].as_array().unwrap();
        let diff = stores[0].as_i64().unwrap() - stores[1].as_i64().unwrap();
        assert_eq!(diff, value, "{game}({m},{n}) pv {pv}");
        match v["pv_end"].as_str().unwrap() {
            "game_over" => assert_eq!(end["game_over"], true, "{pv}"),
            "repetition" => assert_eq!(end["game_over"], false, "{pv}"),
            other => panic!("pv_end {other}"),
        }
    }
}

#[test]
fn query_uses_the_captured_totals_and_agrees_with_play() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 0 1 | 1 0: a forced grand slam worth 2.
    let v = ok_json(&["query", "awari", "0 1 1 0", "--json"], d);
    assert_eq!(v["value"], 2);
    assert_eq!(v["moves"][0]["move"], 1);
    assert_eq!(v["moves"][0]["captured"], 2);
    // With captured totals, the final difference adds them.
    let v = ok_json(&["query", "awari", "0 1 [3] 1 0 [7]", "--json"], d);
    assert_eq!(v["value"], 2);
    assert_eq!(v["final_difference"], -2);
    assert_eq!(v["verdict"], "loss");
    // A board that is over: the opponent takes the 3 seeds.
    let v = ok_json(&["query", "oware", "0 0 1 2", "--json"], d);
    assert_eq!(v["value"], -3);
    assert_eq!(v["game_over"], true);
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
}

/// The four boards of the forced endless cycle that starts at 1 0 | 1 0:
/// every board has exactly one move, a quiet one.
fn endless_cycle() -> Vec<[u8; 12]> {
    let mut b = [0u8; 12];
    b[..4].copy_from_slice(&[1, 0, 1, 0]);
    let mut out = vec![];
    while !out.contains(&b) {
        out.push(b);
        let AwariTurn::Play(moves) = awari_turn(&b, 2, AwariGame::Awari) else {
            panic!("over")
        };
        assert_eq!(moves.len(), 1);
        assert_eq!(moves.as_slice()[0].captured, 0);
        b = moves.as_slice()[0].board;
    }
    out
}

#[test]
fn verify_catches_values_resting_on_a_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let dbs = db.to_str().unwrap();
    let build = [
        "build",
        "awari",
        "--pits",
        "2",
        "--max-seeds",
        "2",
        "--db",
        dbs,
    ];
    assert_eq!(mancala(&build, d).0, 0);
    let verify = [
        "verify", "awari", "--pits", "2", "--seeds", "2", "--db", dbs, "--json",
    ];
    let v = ok_json(&verify, d);
    assert_eq!(v["mismatches"], 0);
    assert_eq!(v["unforced"], 0);
    assert_eq!(v["checked"], v["positions"]);
    // Claim +1, -1, +1, -1 around the cycle: every board is still the best
    // of its (single) move, but no side can force the win it claims.
    let cycle = endless_cycle();
    assert_eq!(cycle.len(), 4);
    let spec = awari_spec(AwariGame::Awari, 2, 2);
    let table = Table::open(&db, spec).unwrap();
    let ix = table.indexer().clone();
    let mut shares: Vec<u8> = (0..table.len())
        .map(|i| (table.value(i) + 2) as u8)
        .collect();
    drop(table);
    let mut on_cycle = vec![false; shares.len()];
    for (i, b) in cycle.iter().enumerate() {
        let at = ix.rank(&b[..2], &b[2..4]).unwrap() as usize;
        assert_eq!(shares[at], 2, "the cycle is worth 0");
        shares[at] = if i % 2 == 0 { 3 } else { 1 };
        on_cycle[at] = true;
    }
    // The boards leading into the cycle take their best move through the
    // new values (with 2 seeds every capture ends the game, so no smaller
    // table is needed), so that the Bellman equation holds everywhere.
    for i in 0..shares.len() {
        if on_cycle[i] {
            continue;
        }
        let mut b = [0u8; 12];
        let (mover, rest) = b.split_at_mut(2);
        ix.unrank(i as u64, mover, &mut rest[..2]);
        let best = match awari_turn(&b, 2, AwariGame::Awari) {
            AwariTurn::Over {
                mover_gain,
                opponent_gain,
            } => mover_gain as i32 - opponent_gain as i32,
            AwariTurn::Play(moves) => moves
                .as_slice()
                .iter()
                .map(|mv| {
                    let child = if mv.game_over {
                        0
                    } else {
                        let c = ix.rank(&mv.board[..2], &mv.board[2..4]).unwrap() as usize;
                        assert!(on_cycle[c], "with 2 seeds, quiet moves lead into the cycle");
                        shares[c] as i32 - 2
                    };
                    mv.value(child)
                })
                .max()
                .unwrap(),
        };
        shares[i] = (best + 2) as u8;
    }
    write_table(&db, spec, &shares).unwrap();
    let (code, out, _) = mancala(&verify, d);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["mismatches"], 0, "the Bellman equation alone misses it");
    // The four cycle boards and the two boards claiming +1 through them.
    assert_eq!(v["unforced"], 6);
    // A wrong value that breaks the Bellman equation.
    shares.iter_mut().for_each(|s| *s = 2);
    write_table(&db, spec, &shares).unwrap();
    let (code, out, _) = mancala(&verify, d);
    assert_eq!(code, 1);
    assert!(out.contains("mismatches"), "{out}");
}

#[test]
fn a_killed_awari_build_resumes_and_bad_tables_are_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let dbs = d.join("db");
    let db = dbs.to_str().unwrap();
    let build = |k: &str| {
        ok_json(
            &[
                "build",
                "oware",
                "--pits",
                "3",
                "--max-seeds",
                k,
                "--db",
                db,
                "--json",
            ],
            d,
        )
    };
    let first = build("6");
    assert!(first["tables"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["found"] == false));
    // As if killed after 6 seeds, with a corrupt table 4 and a temporary
    // file left behind.
    let four = dbs.join("oware-m3-k4.tbl");
    let mut bytes = std::fs::read(&four).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&four, &bytes).unwrap();
    std::fs::write(dbs.join(".oware-m3-k7.tbl.tmp-1"), b"partial").unwrap();
    let second = build("8");
    let found: Vec<bool> = second["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["found"].as_bool().unwrap())
        .collect();
    assert_eq!(found, [true, true, true, false, true, true, false, false]);
    assert!(!dbs.join(".oware-m3-k7.tbl.tmp-1").exists());
    let v = ok_json(
        &[
            "verify", "oware", "--pits", "3", "--seeds", "8", "--db", db, "--json",
        ],
        d,
    );
    assert_eq!(
        (v["mismatches"].as_u64(), v["unforced"].as_u64()),
        (Some(0), Some(0))
    );
}

#[test]
fn bad_input_and_bad_tables_get_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let dbs = db.to_str().unwrap();
    // Usage errors: exit code 2.
    expect_error(
        &[
            "build",
            "awari",
            "--pits",
            "7",
            "--max-seeds",
            "4",
            "--db",
            dbs,
        ],
        d,
        2,
        "2 to 6 pits",
    );
    expect_error(
        &[
            "build",
            "awari",
            "--pits",
            "1",
            "--max-seeds",
            "4",
            "--db",
            dbs,
        ],
        d,
        2,
        "2 to 6 pits",
    );
    expect_error(
        &[
            "build",
            "oware",
            "--pits",
            "3",
            "--max-seeds",
            "0",
            "--db",
            dbs,
        ],
        d,
        2,
        "--max-seeds 0",
    );
    expect_error(
        &[
            "build",
            "oware",
            "--pits",
            "3",
            "--max-seeds",
            "4",
            "--rules",
            "capture-needs-opposite",
        ],
        d,
        2,
        "unknown rules \"capture-needs-opposite\" for oware: use default, grand-slam-captures-nothing",
    );
    // A game with one rule set: the option has nothing to choose.
    expect_error(
        &[
            "build",
            "ohvalhu",
            "--pits",
            "3",
            "--max-seeds",
            "4",
            "--rules",
            "capture-needs-opposite",
        ],
        d,
        2,
        "leave --rules out",
    );
    expect_error(
        &["query", "awari", "1 2 x 4", "--db", dbs],
        d,
        2,
        "bad position",
    );
    expect_error(
        &["query", "awari", "1 2 3", "--db", dbs],
        d,
        2,
        "bad position",
    );
    expect_error(
        &["query", "awari", "1 -2 3 4", "--db", dbs],
        d,
        2,
        "bad position",
    );
    expect_error(
        &[
            "query",
            "awari",
            "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
            "--db",
            dbs,
        ],
        d,
        2,
        "pits",
    );
    // Beyond any table: the exact search answers within --time.
    let (code, out, err) = mancala(
        &[
            "query",
            "awari",
            "40 40 0 0",
            "--db",
            dbs,
            "--no-build",
            "--time",
            "0.3",
        ],
        d,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("80 seeds on the board"), "{err}");
    assert!(out.contains("exact search"), "{out}");
    expect_error(
        &["solve", "oware", "3", "x", "--db", dbs],
        d,
        2,
        "whole number",
    );
    expect_error(&["solve", "oware", "8", "2", "--db", dbs], d, 2, "pits");
    expect_error(
        &[
            "verify", "awari", "--pits", "9", "--seeds", "3", "--db", dbs,
        ],
        d,
        2,
        "2 to 6 pits",
    );
    expect_error(
        &[
            "build",
            "awari",
            "--pits",
            "6",
            "--max-seeds",
            "24",
            "--db",
            dbs,
            "--memory",
            "100M",
        ],
        d,
        1,
        "over the budget",
    );
    // Beyond what the builder can index: nothing is built, the exact search
    // answers with proven bounds within its time.
    let (code, out, err) = mancala(&["solve", "awari", "6", "3", "--db", dbs, "--time", "1"], d);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("proven bounds") || out.contains("value:"),
        "{out}"
    );
    assert!(!db.join("awari-m6-k1.tbl").exists());
    for seeds in ["0", "65"] {
        for game in ["awari", "kalah"] {
            expect_error(
                &["verify", game, "--pits", "3", "--seeds", seeds, "--db", dbs],
                d,
                2,
                &format!("--seeds {seeds}"),
            );
        }
    }
    // Data errors: exit code 1, with the command that fixes them.
    expect_error(
        &["query", "awari", "3 3 3 3", "--db", dbs, "--no-build"],
        d,
        1,
        "mancala build awari --pits 2 --max-seeds 12",
    );
    expect_error(
        &[
            "verify", "oware", "--pits", "2", "--seeds", "3", "--db", dbs,
        ],
        d,
        1,
        "missing table",
    );
    let build = [
        "build",
        "awari",
        "--pits",
        "2",
        "--max-seeds",
        "6",
        "--db",
        dbs,
    ];
    assert_eq!(mancala(&build, d).0, 0);
    let query = ["query", "awari", "1 2 2 1", "--db", dbs, "--no-build"];
    assert_eq!(mancala(&query, d).0, 0);
    let path = db.join("awari-m2-k6.tbl");
    let good = std::fs::read(&path).unwrap();
    std::fs::write(&path, &good[..good.len() - 2]).unwrap();
    expect_error(&query, d, 1, "truncated");
    let mut bad = good.clone();
    bad[70] ^= 0x11;
    std::fs::write(&path, &bad).unwrap();
    expect_error(&query, d, 1, "checksum");
    // An Oware table where the Awari one should be: refused by its header.
    let oware = [
        "build",
        "oware",
        "--pits",
        "2",
        "--max-seeds",
        "6",
        "--db",
        dbs,
    ];
    assert_eq!(mancala(&oware, d).0, 0);
    std::fs::copy(db.join("oware-m2-k6.tbl"), &path).unwrap();
    expect_error(&query, d, 1, "built for oware, wanted awari");
    // Another format version (header checksum recomputed).
    let mut other = good.clone();
    other[8] = 7;
    let crc = crc32fast::hash(&other[..60]);
    other[60..64].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &other).unwrap();
    expect_error(&query, d, 1, "format version 7");
    std::fs::write(&path, &good).unwrap();
    assert_eq!(mancala(&query, d).0, 0);
}
