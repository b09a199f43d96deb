//! Batch look-ups (`Oracle::table_values` and `table_move_values`, the Python package's numpy
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
            g.table_rules.clone()
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
        let mut move_values = vec![0; 3 * positions.len()];
        o.table_move_values(&game, &flat, &mut move_values, i32::MIN)
            .unwrap();
        for ((p, v), mvs) in positions.iter().zip(&values).zip(move_values.chunks(3)) {
            let a = o.query(&game, Some(p)).unwrap();
            assert_eq!(Some(*v), a.value, "{game} {p}");
            let mut want = [i32::MIN; 3];
            for m in &a.moves {
                want[m.pit] = m.value.unwrap();
            }
            assert_eq!(mvs, want, "{game} {p}: every move's value");
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
    let mut moves = [0; 8];
    o.table_move_values("kalah:4:3", &flat, &mut moves, -9)
        .unwrap();
    assert_eq!(moves, [-9; 8], "beyond the tables and game over: no moves");
    let e = o
        .table_move_values("kalah:4:3", &flat, &mut moves[..7], 0)
        .unwrap_err();
    assert!(e.to_string().contains("7 values"), "{e}");
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

/// Long work by game name (`oracle::work`): a raised stop flag stops a
/// build before its next table, a match and a grading before their next
/// game, and a solve with its proven bounds; what was written is kept.
#[test]
fn long_work_by_name_stops_on_its_flag_and_keeps_what_it_wrote() {
    use mancala_solver::error::Error;
    use mancala_solver::oracle::SolveRequest;
    use mancala_solver::progress::{Event, Observer};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path());
    // Stop once the third table is written.
    let stop = Arc::new(AtomicBool::new(false));
    let raise = stop.clone();
    let obs = Observer::new(move |e: &Event<'_>| {
        if let Event::TableBuilt { seeds: 3, .. } = e {
            raise.store(true, Ordering::Relaxed);
        }
    })
    .with_stop(stop.clone());
    let e = o.build_tables("kalah:3:2", 8, Some(1), obs).unwrap_err();
    assert!(matches!(e, Error::Stopped(_)), "{e}");
    assert!(e.to_string().contains("up to 3 seeds"), "{e}");
    let r = o
        .build_tables("kalah:3:2", 8, Some(1), Observer::silent())
        .unwrap();
    let found: Vec<bool> = r.tables.iter().map(|t| t.found).collect();
    assert_eq!(found, [true, true, true, false, false, false, false, false]);
    // A raised flag: no game played, no position graded, the solve stopped.
    let raised = || Observer::silent().with_stop(Arc::new(AtomicBool::new(true)));
    let e = o
        .run_match("kalah:3:2", "greedy", "random", 10, 1, raised())
        .unwrap_err();
    assert!(matches!(e, Error::Stopped(_)), "{e}");
    let e = o
        .grade(
            "kalah:3:2",
            "greedy",
            10,
            1,
            Duration::from_millis(50),
            raised(),
        )
        .unwrap_err();
    assert!(matches!(e, Error::Stopped(_)), "{e}");
    let s = o
        .solve("kalah:6:4", None, &SolveRequest::default(), raised())
        .unwrap();
    assert!(s.stopped && !s.solution.exact);
    assert!(s.solution.lower <= s.solution.upper);
    // Unstopped: the match is played and the solve exact.
    let m = o
        .run_match("kalah:3:2", "greedy", "random", 10, 1, Observer::silent())
        .unwrap();
    assert_eq!(m.a_wins + m.draws + m.b_wins, 10);
    // The tables to 8 seeds are there; the solve builds the rest (to 12)
    // and says so.
    let built = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = built.clone();
    let obs = Observer::new(move |e: &Event<'_>| {
        if let Event::TableBuilt { seeds, .. } = e {
            seen.lock().unwrap().push(*seeds);
        }
    });
    let s = o
        .solve("kalah:3:2", None, &SolveRequest::default(), obs)
        .unwrap();
    assert!(s.solution.exact && !s.stopped);
    assert_eq!(*built.lock().unwrap(), [9, 10, 11, 12]);
    let e = o
        .solve(
            "awari:3:2",
            None,
            &SolveRequest::default(),
            Observer::silent(),
        )
        .unwrap_err();
    assert!(e.is_usage(), "{e}");
}
