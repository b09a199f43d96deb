//! Batch look-ups (`Oracle::table_values`, the Python package's numpy
//! arrays): the same values as one query at a time, for every rule set with
//! tables, and bad rows named.

use mancala_solver::oracle::{games, Oracle, OracleConfig, SearchBudget};
use rand::Rng;
use std::time::Duration;

fn oracle(dir: &std::path::Path) -> Oracle {
    Oracle::new(OracleConfig {
        dir: dir.to_path_buf(),
        search: SearchBudget {
            time: Duration::from_millis(100),
            tt_mb: 1,
        },
        build_limit: 20_000_000,
        agent_time: Duration::from_millis(100),
        build_threads: None,
    })
}

/// Every game and rule set with tables, as names of `pits` pits and `seeds`
/// seeds a pit.
fn rule_sets(pits: usize, seeds: usize) -> Vec<String> {
    let mut out = Vec::new();
    for g in games().into_iter().filter(|g| g.table_pits.is_some()) {
        let rules = if g.rules.is_empty() {
            vec!["default"]
        } else {
            g.rules.clone()
        };
        for r in rules {
            let tail = if r == "default" {
                String::new()
            } else {
                format!(":{r}")
            };
            out.push(format!("{}:{pits}:{seeds}{tail}", g.name));
        }
    }
    out
}

/// The `2m + 2` counts of a position in the notation (brackets dropped;
/// Awari's board-only form given its captured totals of 0).
fn counts(position: &str, m: usize) -> Vec<u8> {
    let mut out: Vec<u8> = position
        .split_whitespace()
        .map(|c| c.trim_matches(|c| c == '[' || c == ']').parse().unwrap())
        .collect();
    if out.len() == 2 * m {
        out.insert(m, 0);
        out.push(0);
    }
    out
}

#[test]
fn batch_values_are_the_queries_values_for_every_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path());
    let mut rng = mancala_solver::rng::seeded(5);
    for game in rule_sets(3, 3) {
        // Positions of random games from the start, the start among them.
        let mut positions = Vec::new();
        while positions.len() < 300 {
            let mut r = o.start(&game).unwrap();
            for _ in 0..rng.gen_range(0..40) {
                if r.game_over {
                    break;
                }
                let mv = r.legal_moves[rng.gen_range(0..r.legal_moves.len())];
                r = o.play(&game, Some(&r.position), &mv.to_string()).unwrap();
            }
            positions.push(r.position);
        }
        let flat: Vec<u8> = positions.iter().flat_map(|p| counts(p, 3)).collect();
        let mut values = vec![0; positions.len()];
        o.table_values(&game, &flat, &mut values, i32::MIN).unwrap();
        for (p, v) in positions.iter().zip(&values) {
            let a = o.query(&game, Some(p)).unwrap();
            assert_eq!(Some(*v), a.value, "{game} {p}");
        }
    }
}

#[test]
fn positions_beyond_the_tables_are_missing_and_bad_rows_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let o = Oracle::new(OracleConfig {
        build_limit: 0,
        ..oracle(dir.path()).config().clone()
    });
    // No tables and none built: every position but a finished one is missing.
    let flat = [3, 3, 3, 3, 0, 3, 3, 3, 3, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 7];
    let mut values = [0; 2];
    o.table_values("kalah:4:3", &flat, &mut values, -999)
        .unwrap();
    assert_eq!(values, [-999, -2]);
    let e = o
        .table_values("kalah:4:3", &flat[..19], &mut values, 0)
        .unwrap_err();
    assert!(e.to_string().contains("each position takes 10"), "{e}");
    let mut bad = flat;
    bad[12] = 250;
    let e = o
        .table_values("kalah:4:3", &bad, &mut values, 0)
        .unwrap_err();
    assert!(e.to_string().contains("row 1"), "{e}");
    // Wider than any table: missing.
    let wide = vec![1u8; 2 * 8 + 2];
    let mut one = [0];
    o.table_values("kalah:8:1", &wide, &mut one, -1).unwrap();
    assert_eq!(one, [-1]);
}
