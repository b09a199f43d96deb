//! What a solve reports besides its value: the search counters, and the
//! fields of a stopped (unproven) solve. Both were once wrong (futility
//! cut-offs always 0; an estimate printed as the value).

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::{solve, SolveOptions};
use mancala_solver::tablebase::TableSet;

mod common;
use common::kalah_tables as tables;

fn opts() -> SolveOptions {
    SolveOptions {
        tt_mb: 16,
        ..SolveOptions::default()
    }
}

/// Run `mancala` in a scratch directory.
fn mancala(args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    common::mancala(args, dir.path())
}

/// Every search counter counts what it names: switching a technique off
/// zeroes its counter and changes the tree, tables answer probes only when
/// given. (A solve once reported 0 futility cut-offs while switching
/// futility off grew the tree.)
#[test]
fn search_counters_count_what_they_name() {
    let start = Position::start(4, 4).unwrap();
    let one = |o: SolveOptions, tb: Option<&TableSet<KalahRules>>| {
        let sol = solve(&start, tb, &SolveOptions { threads: 1, ..o }).unwrap();
        assert_eq!(sol.value, 2, "Kalah(4,4), as published");
        sol.stats
    };
    let all = one(opts(), None);
    assert!(all.futility_cutoffs > 0 && all.etc_cutoffs > 0, "{all:?}");
    assert!(all.tt_hits > 0 && all.tt_cutoffs > 0, "{all:?}");
    assert_eq!(all.table_hits, 0, "no tables given: {all:?}");
    let no_futility = one(
        SolveOptions {
            use_futility: false,
            ..opts()
        },
        None,
    );
    assert_eq!(no_futility.futility_cutoffs, 0, "{no_futility:?}");
    assert!(no_futility.nodes > all.nodes, "{no_futility:?} v {all:?}");
    let no_etc = one(
        SolveOptions {
            use_etc: false,
            ..opts()
        },
        None,
    );
    assert_eq!(no_etc.etc_cutoffs, 0, "{no_etc:?}");
    assert!(no_etc.futility_cutoffs > 0, "{no_etc:?}");
    let dir = tempfile::tempdir().unwrap();
    let tb = tables(dir.path(), 4, 10);
    let with_tables = one(opts(), Some(&tb));
    assert!(with_tables.table_hits > 0, "{with_tables:?}");
    assert!(with_tables.nodes < all.nodes, "{with_tables:?} v {all:?}");
}

/// A stopped solve proves bounds, not a value: its JSON leaves `value`,
/// `best_move`, `best_turn` and `pv` null and says `estimate` and
/// `best_move_so_far` (a program reading `value` was once told "6, win"
/// beside bounds [-72, 72]).
#[test]
fn a_stopped_solve_does_not_report_an_estimate_as_its_value() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let (code, out, err) = mancala(&[
        "solve",
        "kalah",
        "6",
        "5",
        "--db",
        db,
        "--no-build",
        "--time",
        "0.3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["exact"], false, "{v}");
    for key in ["value", "best_move", "best_turn", "pv"] {
        assert!(v[key].is_null(), "{key} filled by an unproven search: {v}");
    }
    let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
    let estimate = v["estimate"].as_i64().unwrap();
    assert!(lo <= estimate && estimate <= hi && lo < hi, "{v}");
    assert!(v["best_move_so_far"].as_u64().unwrap() < 6, "{v}");
    match v["verdict"].as_str() {
        None => assert!(lo <= 0 && hi >= 0, "{v}"),
        Some("win") => assert!(lo > 0, "{v}"),
        Some(other) => panic!("verdict {other} with bounds {lo}..{hi}"),
    }
    let (code, out, _) = mancala(&[
        "solve",
        "kalah",
        "6",
        "5",
        "--db",
        db,
        "--no-build",
        "--time",
        "0.3",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("not proven") && out.contains("best move so far"),
        "{out}"
    );
}
