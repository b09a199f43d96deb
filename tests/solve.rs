//! The solver against the published results (docs/SOLVER.md, "Published
//! results the tests check"), the endgame
//! tables and the plain minimax; every enhancement switched off must give
//! the same values; principal variations replay to the stated value; the
//! `solve` command's output and errors. The time budget is in solve_budget.rs.

use mancala_solver::side::Side;
use std::process::Command;

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::reference::Minimax;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::{solve, MoveOrder, Solution, SolveOptions};
use mancala_solver::tablebase::TableSet;
use proptest::prelude::*;
use rand::Rng;

mod common;
use common::kalah_tables as tables;

fn opts() -> SolveOptions {
    SolveOptions {
        tt_mb: 16,
        ..SolveOptions::default()
    }
}

/// The PV replayed from `start` ends the game with the stated value.
fn check_pv(start: &Position, sol: &Solution, rules: KalahRules) {
    let mut end = *start;
    end.play_line(&sol.pv, rules)
        .unwrap_or_else(|e| panic!("{start}: pv {} does not replay: {e}", sol.pv));
    assert!(
        end.is_game_over(rules),
        "{start}: pv {} stops early",
        sol.pv
    );
    let [south, north] = end.stores();
    let diff = south as i32 - north as i32;
    let want = match start.to_move() {
        Side::South => sol.value,
        Side::North => -sol.value,
    };
    assert_eq!(diff, want, "{start}: pv {} ends at {diff}", sol.pv);
    assert_eq!(sol.best_move, sol.pv_turns.first().map(|t| t[0]));
}

/// Published win/draw/loss for South (docs/SOLVER.md), rows m = 1..=6.
const WDL: [&str; 6] = ["DLWLWD", "WLLLWW", "DWWWWL", "WWWWWD", "DDWWWW", "WWWWW?"];

fn verdict_letter(v: i32) -> char {
    match v.signum() {
        1 => 'W',
        0 => 'D',
        _ => 'L',
    }
}

#[test]
fn published_results_up_to_four_pits_without_tables() {
    let exact = [
        (4, 1, 2),
        (4, 2, 6),
        (4, 3, 8),
        (4, 4, 2),
        (4, 5, 2),
        (4, 6, 0),
    ];
    for m in 1..=4 {
        for n in 1..=6 {
            let start = Position::start(m, n).unwrap();
            let sol = solve(&start, None, &opts()).unwrap();
            let want = WDL[m - 1].as_bytes()[n - 1] as char;
            assert_eq!(verdict_letter(sol.value), want, "Kalah({m},{n})");
            if let Some(&(_, _, v)) = exact.iter().find(|e| (e.0, e.1) == (m, n)) {
                assert_eq!(sol.value, v, "Kalah({m},{n})");
            }
            check_pv(&start, &sol, KalahRules::Default);
        }
    }
}

#[test]
fn published_results_five_and_six_pits() {
    let dir5 = tempfile::tempdir().unwrap();
    let tb5 = tables(dir5.path(), 5, 16);
    for (n, v) in [(1, 0), (2, 0), (3, 8), (4, 12)] {
        let start = Position::start(5, n).unwrap();
        let sol = solve(&start, Some(&tb5), &opts()).unwrap();
        assert_eq!(sol.value, v, "Kalah(5,{n})");
        assert_eq!(verdict_letter(v), WDL[4].as_bytes()[n - 1] as char);
        check_pv(&start, &sol, KalahRules::Default);
    }
    let dir6 = tempfile::tempdir().unwrap();
    let tb6 = tables(dir6.path(), 6, 14);
    for (n, v) in [(1, 2), (2, 10), (3, 2)] {
        let start = Position::start(6, n).unwrap();
        let sol = solve(&start, Some(&tb6), &opts()).unwrap();
        assert_eq!(sol.value, v, "Kalah(6,{n})");
        assert!(sol.table_seeds == 14);
        check_pv(&start, &sol, KalahRules::Default);
    }
}

/// 5-pit table size for the Kalah(5,5) test.
const SEEDS55: usize = 24;

/// Kalah(6,4) (+10) with the 6-pit tables up to 20 seeds, the table size
/// of the first study, and Kalah(5,5) (+2) with the 5-pit tables up to
/// SEEDS55 seeds: the largest published results that solve within the CI
/// budget (about a minute each in the test profile).
#[test]
#[ignore = "slow, about 50 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn published_results_kalah_6_4_and_5_5() {
    let big = SolveOptions {
        tt_mb: 256,
        ..SolveOptions::default()
    };
    let dir6 = tempfile::tempdir().unwrap();
    let tb6 = tables(dir6.path(), 6, 20);
    let start = Position::start(6, 4).unwrap();
    let sol = solve(&start, Some(&tb6), &big).unwrap();
    assert_eq!(sol.value, 10, "Kalah(6,4)");
    check_pv(&start, &sol, KalahRules::Default);
    drop(tb6);
    drop(dir6);
    let dir5 = tempfile::tempdir().unwrap();
    let tb5 = tables(dir5.path(), 5, SEEDS55);
    let start = Position::start(5, 5).unwrap();
    let sol = solve(&start, Some(&tb5), &big).unwrap();
    assert_eq!(sol.value, 2, "Kalah(5,5)");
    check_pv(&start, &sol, KalahRules::Default);
}

fn random_position(rng: &mut impl Rng, m: usize, seeds: usize) -> Position {
    loop {
        let mut cells = vec![0u8; 2 * m + 2];
        for _ in 0..seeds {
            let mut i = rng.gen_range(0..2 * m);
            if i >= m {
                i += 1;
            }
            cells[i] += 1;
        }
        cells[m] = rng.gen_range(0..10);
        cells[2 * m + 1] = rng.gen_range(0..10);
        let pos = Position::from_cells(&cells, Side::South).unwrap();
        if !pos.is_game_over(KalahRules::Default) {
            return pos;
        }
    }
}

#[test]
fn random_positions_agree_with_tables_and_minimax() {
    random_positions_agree(30, 8);
}

#[test]
#[ignore = "slow, about 50 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn many_random_positions_agree_with_tables_and_minimax() {
    random_positions_agree(150, 40);
}

/// `against_tables` random 6-pit positions solved with smaller tables (or
/// none) than they need, against the tables; `against_minimax` positions
/// of other widths for each rule set, against the plain minimax.
fn random_positions_agree(against_tables: usize, against_minimax: usize) {
    let dir = tempfile::tempdir().unwrap();
    let tb = tables(dir.path(), 6, 14);
    let mut rng = mancala_solver::rng::seeded(7);
    // Against the tables: solve with smaller tables (or none) than the position needs.
    for i in 0..against_tables {
        let seeds = rng.gen_range(2..=14);
        let pos = random_position(&mut rng, 6, seeds);
        let o = SolveOptions {
            max_table_seeds: Some(i % 8),
            threads: 1 + i % 2,
            ..opts()
        };
        let sol = solve(&pos, Some(&tb), &o).unwrap();
        assert_eq!(Some(sol.value), tb.value(&pos), "{pos}");
        let best = sol.best_move.unwrap();
        let mv = tb.move_values(&pos).unwrap();
        assert_eq!(
            mv.iter().find(|x| x.pit == best).unwrap().value,
            sol.value,
            "{pos}: best move {best}"
        );
        check_pv(&pos, &sol, KalahRules::Default);
    }
    // Against the plain minimax on other widths and rule sets (the 6-pit
    // default-rule tables would be refused there: see tests/family.rs).
    for rules in KalahRules::ALL {
        let mut mm = Minimax::new(rules);
        for _ in 0..against_minimax {
            let m = rng.gen_range(3..=5);
            let seeds = rng.gen_range(10..=20);
            let pos = random_position(&mut rng, m, seeds);
            if pos.is_game_over(rules) {
                continue;
            }
            let sol = solve(&pos, None, &SolveOptions { rules, ..opts() }).unwrap();
            assert_eq!(sol.value, mm.value(&pos), "{rules}: {pos}");
            check_pv(&pos, &sol, rules);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// Switching any enhancement off (or changing the search schedule, the
    /// move order or the thread count) never changes the value.
    #[test]
    fn enhancements_never_change_values(
        cells in proptest::collection::vec(0u8..5, 10),
        stores in (0u8..20, 0u8..20),
        mask in 0u32..256,
        guess in -30i32..30,
    ) {
        let m = 4;
        let mut c = vec![0u8; 10];
        c[..4].copy_from_slice(&cells[..4]);
        c[4] = stores.0;
        c[5..9].copy_from_slice(&cells[4..8]);
        c[9] = stores.1;
        let pos = Position::from_cells(&c, Side::South).unwrap();
        let full = solve(&pos, None, &opts()).unwrap();
        let o = SolveOptions {
            use_tt: mask & 1 == 0,
            use_futility: mask & 2 == 0,
            use_etc: mask & 4 == 0,
            etc_main_tt: mask & 32 != 0,
            id_step: if mask & 8 == 0 { 0 } else { 3 },
            id_jump: 12,
            guess: Some(guess),
            threads: if mask & 16 == 0 { 1 } else { 2 },
            split_plies: 3,
            order: if mask & 64 == 0 { MoveOrder::Banked } else { MoveOrder::Published },
            // A near transposition table of a single KiB (16 buckets, so
            // entries are replaced all the time), or none.
            near_tt_kb: if mask & 128 == 0 { 0 } else { 1 },
            near_seeds: 8,
            ..opts()
        };
        let sol = solve(&pos, None, &o).unwrap();
        prop_assert_eq!(sol.value, full.value, "{} mask {}", pos, mask);
        prop_assert_eq!(pos.pits_per_side(), m);
        if !pos.is_game_over(KalahRules::Default) {
            check_pv(&pos, &sol, KalahRules::Default);
        } else {
            prop_assert!(sol.pv.is_empty() && sol.best_move.is_none());
        }
    }
}

#[test]
fn tables_switched_off_give_the_same_values() {
    let dir = tempfile::tempdir().unwrap();
    let tb = tables(dir.path(), 6, 12);
    let mut rng = mancala_solver::rng::seeded(3);
    for _ in 0..20 {
        let seeds = rng.gen_range(14..=20);
        let pos = random_position(&mut rng, 6, seeds);
        let with = solve(&pos, Some(&tb), &opts()).unwrap();
        let without = solve(
            &pos,
            Some(&tb),
            &SolveOptions {
                use_tables: false,
                ..opts()
            },
        )
        .unwrap();
        assert_eq!(with.value, without.value, "{pos}");
        assert!(with.stats.table_hits > 0);
        assert_eq!(without.stats.table_hits, 0);
        // The enhanced transposition cut-off reading the main transposition
        // table too (positions 7 or more seeds above the tables live there).
        let main_etc = solve(
            &pos,
            Some(&tb),
            &SolveOptions {
                etc_main_tt: true,
                ..opts()
            },
        )
        .unwrap();
        assert_eq!(main_etc.value, with.value, "{pos}");
    }
}

/// Tables decoded into memory read the same as from their files, the
/// budget is honoured largest table first, and the solver finds the same
/// values with either, with or without the near transposition table.
#[test]
fn tables_in_memory_give_the_same_values() {
    let dir = tempfile::tempdir().unwrap();
    let mapped = tables(dir.path(), 6, 12);
    let mut part = TableSet::open(dir.path(), KalahRules::Default, 6, 12).unwrap();
    let (b12, b11) = (
        part.table(12).unwrap().memory_bytes(),
        part.table(11).unwrap().memory_bytes(),
    );
    // A budget for the two largest tables but not the third.
    let used = part.load_into_memory(12, b12 + b11 + 100).unwrap();
    assert_eq!(used, b12 + b11);
    assert!(part.table(12).unwrap().in_memory() && part.table(11).unwrap().in_memory());
    assert!(!part.table(10).unwrap().in_memory());
    // 4 bits per position for 12 seeds (shares 0..=12), whole chunks of 512.
    assert_eq!(
        b12,
        mapped.table(12).unwrap().len().div_ceil(512) * 512 * 4 / 8 + 8
    );
    let mut all = TableSet::open(dir.path(), KalahRules::Default, 6, 12).unwrap();
    let used = all.load_into_memory(usize::MAX, u64::MAX).unwrap();
    assert_eq!(
        used,
        (2..=12)
            .map(|k| all.table(k).unwrap().memory_bytes())
            .sum::<u64>()
    );
    for k in 2..=12 {
        let (a, b) = (mapped.table(k).unwrap(), all.table(k).unwrap());
        assert!(b.in_memory() && !a.in_memory());
        for i in 0..a.len() {
            assert_eq!(a.share(i), b.share(i), "k={k} index {i}");
        }
    }
    let mut rng = mancala_solver::rng::seeded(11);
    for i in 0..30 {
        let seeds = rng.gen_range(13..=18);
        let pos = random_position(&mut rng, 6, seeds);
        let o = SolveOptions {
            near_tt_kb: if i % 2 == 0 { 0 } else { 4 },
            threads: 1 + i % 2,
            ..opts()
        };
        let from_files = solve(&pos, Some(&mapped), &o).unwrap();
        let in_memory = solve(&pos, Some(&all), &o).unwrap();
        assert_eq!(from_files.value, in_memory.value, "{pos}");
        assert!(in_memory.stats.table_hits > 0);
        check_pv(&pos, &in_memory, KalahRules::Default);
    }
}

fn mancala(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn solve_command_json_and_pv_replay_with_play() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let (code, out, err) = mancala(&[
        "solve",
        "kalah",
        "6",
        "2",
        "--db",
        db,
        "--max-table-seeds",
        "10",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("building the 6-pit kalah endgame tables up to 10 seeds"));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], 10);
    assert_eq!(v["verdict"], "win");
    let pv = v["pv"].as_str().unwrap().to_string();
    assert_eq!(
        v["best_move"].as_u64().unwrap(),
        pv[..1].parse::<u64>().unwrap()
    );
    let (code, out, err) = mancala(&["play", "kalah", "6", "2", "--moves", &pv, "--json"]);
    assert_eq!(code, 0, "{err}");
    let p: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(p["game_over"], true);
    assert_eq!(
        p["stores"][0].as_i64().unwrap() - p["stores"][1].as_i64().unwrap(),
        10
    );

    // A position, text output, tables now found on disk (no build message).
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "kalah",
            "1 0 2 0 0 3 5 0 1 0 1 2 0 4",
            "--db",
            db,
            "--max-table-seeds",
            "10",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = mancala(&args);
        assert_eq!(code, 0, "{err}");
        (out, err)
    };
    let (out, err) = run(&[]);
    assert!(!err.contains("building"));
    for needle in [
        "value:",
        "best first turn:",
        "principal variation:",
        "nodes",
        "table hits",
        "transposition hits",
        "futility cut-offs",
        "ETC cut-offs",
        "to solve",
        "to decode the tables into memory",
        "KiB per thread near the tables",
    ] {
        assert!(out.contains(needle), "missing {needle}: {out}");
    }
    assert!(err.contains("tables decoded into memory"), "{err}");

    // The same position with the tables read from their files and one
    // transposition table: the same value, nothing in memory.
    let json = |extra: &[&str]| {
        let args: Vec<&str> = ["--json"].iter().chain(extra).copied().collect();
        serde_json::from_str::<serde_json::Value>(&run(&args).0).unwrap()
    };
    let memory = json(&[]);
    let files = json(&["--table-memory-mb", "0", "--near-tt-kb", "0"]);
    assert_eq!(memory["value"], files["value"]);
    assert!(memory["table_memory_bytes"].as_u64().unwrap() > 0);
    assert_eq!(files["table_memory_bytes"], 0);
    assert_eq!(memory["near_tt_kb"], 256);
    assert_eq!(files["near_tt_kb"], 0);
}

#[test]
fn solve_command_errors() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    for (args, code, needle) in [
        (vec!["solve", "kalah", "1 2 3"], 2, "bad position"),
        (vec!["solve", "kalah", "7", "1"], 2, "1 to 6 pits"),
        (vec!["solve", "kalah", "x", "1"], 2, "not a whole number"),
        (
            vec![
                "solve",
                "kalah",
                "6",
                "3",
                "--db",
                db,
                "--max-table-seeds",
                "8",
                "--no-build",
            ],
            1,
            "missing table",
        ),
        (vec!["solve", "kalah", "6", "3", "--tt-mb", "0"], 2, "tt-mb"),
    ] {
        let (got, out, err) = mancala(&args);
        assert_eq!(got, code, "{args:?}: {out}{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
    // Transposition tables too big to allocate: a clear error, no panic.
    for flag in ["--tt-mb", "--near-tt-kb"] {
        let args = ["solve", "kalah", "4", "3", "--max-table-seeds", "0", flag];
        let (got, out, err) = mancala(&[&args[..], &["18446744073709551615"]].concat());
        assert_eq!(got, 1, "{flag}: {out}{err}");
        assert!(
            err.contains("cannot allocate a transposition table")
                && (err.contains("more than the address space")
                    || err.contains("more than the machine's")),
            "{flag}: {err}"
        );
        assert!(!err.contains("panicked"));
    }
    // An unknown move order is refused by the argument parser, naming the
    // accepted ones.
    let (got, out, err) = mancala(&["solve", "kalah", "4", "3", "--order", "bogus"]);
    assert_eq!(got, 2, "{out}{err}");
    assert!(
        err.contains("unknown move order 'bogus': use banked or published"),
        "{err}"
    );
}

/// The first Kalah study's Table 9: every published perfect game replays
/// under the default rules and ends with the published value (South's store
/// minus North's), except Kalah(4,6)'s, which breaks at its 26th character
/// (docs/SOLVER.md, "Table 9"; `benches/kalah2000/table9.py`).
#[test]
fn table_9_perfect_games_replay_to_their_values() {
    use mancala_solver::game::Board;
    use mancala_solver::{Game, KalahRules};
    const TABLE9: [(usize, usize, i32, &str); 17] = [
        (4, 1, 2, "32-32-1"),
        (4, 2, 6, "3-3-230-231-1323"),
        (4, 3, 8, "13-1-032-2-3-0-1320-3-0-2"),
        (4, 4, 2, "02-2-3-0-2-21-303231-0-32-1-0"),
        (
            4,
            5,
            2,
            "0-2-1-3-0-2-1-0-32-3-021-2-0-02-2-1-3-3-313032-13031-1-2-2-3",
        ),
        (
            4,
            6,
            0,
            "1-0-2-3-1330-01-2-2-21-201-2-23-3-23-230-32-32-12-1-0-32",
        ),
        (5, 1, 0, "43-43-2-2"),
        (5, 2, 0, "31-32-24-0-0-31-3"),
        (5, 3, 8, "24-3-3-03-41-1-04342-3-3-2-2-4-414342-3"),
        (5, 4, 12, "12-04-03-2-20-41-1-42-32-3-2-40-0-1"),
        (5, 5, 2, "03-2-2-1-1-23-24-2-0-34414340-4240-2-14342"),
        (
            5,
            6,
            2,
            "2-0-0-3-3-0-2-1-440-4-42-2-121-12-3-1-4-20-0-34-24-324-1-3-3-1-41-43-2-2-3",
        ),
        (6, 1, 2, "54-54-3-3-2"),
        (6, 2, 10, "42-42-30-0-1-1-4-5"),
        (6, 3, 2, "4-5-35-250-2-154-451535452-53-3-54-2"),
        (
            6,
            4,
            10,
            "25-10-3-3-5153-1-4-5-045-4-535452-53-4-1-3-2-0-54-1-3",
        ),
        (
            6,
            5,
            12,
            "12-02-05-2-4-51-53-3-45-20-3-2-2-345-5-4-351-0-54-1-52-354-4-254-3-3",
        ),
    ];
    let g = KalahRules::Default;
    for (m, n, value, line) in TABLE9 {
        let mut pos = g.start(m, n).unwrap();
        let played = g.play_line(&mut pos, line);
        if (m, n) == (4, 6) {
            let e = played.unwrap_err().to_string();
            assert!(e.contains("at character 26"), "{e}");
            continue;
        }
        played.unwrap_or_else(|e| panic!("Kalah({m},{n}): {e}"));
        assert!(g.is_over(&pos), "Kalah({m},{n}): the line ends the game");
        let [south, north] = pos.scores().map(i32::from);
        assert_eq!(south - north, value, "Kalah({m},{n})");
    }
}
