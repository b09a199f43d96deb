//! The oracle's long work as the Python package drives it: a query's
//! search ended at once by a stop flag (Ctrl-C there), and a solve's
//! checkpoint that cannot be written refused before any search.

use std::time::{Duration, Instant};

use mancala_solver::error::Error;
use mancala_solver::oracle::{Oracle, OracleConfig, SearchBudget, SolveRequest};
use mancala_solver::play::agents::Stop;
use mancala_solver::progress::Observer;

fn oracle(dir: &std::path::Path) -> Oracle {
    Oracle::new(OracleConfig {
        dir: dir.to_path_buf(),
        search: SearchBudget {
            time: Duration::from_millis(100),
            tt_mb: 8,
        },
        build_limit: 0,
        agent_time: Duration::from_millis(100),
        build_threads: None,
    })
}

#[test]
fn a_raised_stop_ends_a_query_search_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path());
    let stop = Stop::raisable();
    let start = Instant::now();
    let answer = std::thread::scope(|s| {
        let raiser = stop.clone();
        s.spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            raiser.raise();
        });
        o.query_until("kalah:6:7", None, Duration::from_secs(30), &stop)
    });
    assert!(
        matches!(answer, Err(Error::Stopped(_))),
        "{:?}",
        answer.map(|a| a.exact)
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // Never raised: the search's bounds within its time, as before.
    let a = o
        .query_until("kalah:6:7", None, Duration::from_millis(50), &Stop::never())
        .unwrap();
    assert!(!a.exact && a.lower <= a.upper);
}

#[test]
fn a_checkpoint_that_cannot_be_written_is_refused_before_the_solve() {
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path());
    let solve = |path: std::path::PathBuf| {
        let request = SolveRequest {
            time: Some(Duration::from_secs(30)),
            checkpoint: Some(path),
            threads: Some(1),
            ..SolveRequest::default()
        };
        let start = Instant::now();
        let out = o.solve("kalah:6:4", None, &request, Observer::silent());
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        match out {
            Err(e @ Error::BadCheckpoint { .. }) => e.to_string(),
            other => panic!("{:?}", other.map(|r| r.solution.exact)),
        }
    };
    let missing = solve(dir.path().join("no").join("c.ckpt"));
    assert!(missing.contains("does not exist"), "{missing}");
    let a_dir = solve(dir.path().to_path_buf());
    assert!(a_dir.contains("is a directory"), "{a_dir}");
    std::fs::write(dir.path().join("file"), b"x").unwrap();
    let under_a_file = solve(dir.path().join("file").join("c.ckpt"));
    assert!(
        under_a_file.contains("is not a directory"),
        "{under_a_file}"
    );
    // Nothing was left behind by the tries.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["file"]);
    // A writable place is taken.
    let ok = o
        .solve(
            "kalah:2:2",
            None,
            &SolveRequest {
                checkpoint: Some(dir.path().join("c.ckpt")),
                ..SolveRequest::default()
            },
            Observer::silent(),
        )
        .unwrap();
    assert!(ok.solution.exact && ok.checkpoint_error.is_none());
    assert!(dir.path().join("c.ckpt").exists());
}

/// A position a search proved is kept: the next query of it (any request)
/// answers at once with the same analysis, without searching again.
#[test]
fn a_position_proven_once_answers_at_once_afterwards() {
    let dir = tempfile::tempdir().unwrap();
    let o = Oracle::new(OracleConfig {
        dir: dir.path().to_path_buf(),
        search: SearchBudget {
            time: Duration::from_secs(20),
            tt_mb: 8,
        },
        build_limit: 0,
        agent_time: Duration::from_millis(100),
        build_threads: None,
    });
    assert_eq!(o.proven_kept(), 0);
    let first = o.query("kalah:4:3", None).unwrap();
    assert!(first.exact, "Kalah(4,3) is solved within 20 s");
    assert_eq!(o.proven_kept(), 1);
    let start = Instant::now();
    // Ended at once if it searched again: only the kept answer is exact.
    let again = o
        .query_until("kalah:4:3", None, Duration::ZERO, &Stop::never())
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_millis(50),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        serde_json::to_value(&again).unwrap(),
        serde_json::to_value(&first).unwrap()
    );
}

/// The updates of a query that searches: proven bounds that only narrow,
/// that hold the answer's exact values, and that end at the answer's.
fn check_updates(game: &str, position: Option<&str>, time: Duration, least: usize) {
    use mancala_solver::oracle::{Analysis, OnUpdate};
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path());
    let seen: Arc<Mutex<Vec<Analysis>>> = Arc::default();
    let sink = seen.clone();
    let on_update: OnUpdate = Arc::new(move |a: &Analysis| sink.lock().unwrap().push(a.clone()));
    let a = o
        .query_observed(game, position, time, &Stop::never(), Some(&on_update))
        .unwrap();
    assert!(a.exact, "{game}: not solved in {time:?}");
    let seen = seen.lock().unwrap();
    assert!(seen.len() >= least, "{game}: {} updates", seen.len());
    let value = a.value.unwrap();
    let mut last: Option<&Analysis> = None;
    for u in seen.iter() {
        assert!(u.lower <= value && value <= u.upper, "{game}: {u:?}");
        assert_eq!(u.moves.len(), a.moves.len(), "{game}");
        for (m, final_move) in u.moves.iter().zip(&a.moves) {
            assert_eq!(m.pit, final_move.pit);
            let v = final_move.value.unwrap();
            assert!(m.lower <= v && v <= m.upper, "{game}: move {m:?}");
            assert_eq!(m.exact, m.lower == m.upper);
        }
        if let Some(p) = last {
            assert!(p.lower <= u.lower && u.upper <= p.upper, "{game}: widened");
            for (x, y) in p.moves.iter().zip(&u.moves) {
                assert!(x.lower <= y.lower && y.upper <= x.upper, "{game}: widened");
            }
        }
        last = Some(u);
    }
}

#[test]
fn a_query_reports_its_search_as_its_bounds_narrow() {
    // Kalah above empty tables: the position, then each of its 4 moves.
    check_updates("kalah:4:4", None, Duration::from_secs(60), 5);
    // Awari without tables: the position's bounds after its passes.
    check_updates("awari:3:2", None, Duration::from_secs(60), 1);
    // The tables answer at once: nothing to report.
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path());
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let c = count.clone();
    let on_update: mancala_solver::oracle::OnUpdate = std::sync::Arc::new(move |_| {
        c.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    let over = "0 0 0 3 0 0 0 3";
    let a = o
        .query_observed(
            "kalah:3:1",
            Some(over),
            Duration::from_secs(1),
            &Stop::never(),
            Some(&on_update),
        )
        .unwrap();
    assert!(a.exact && a.game_over);
    assert_eq!(count.load(std::sync::atomic::Ordering::Relaxed), 0);
}
