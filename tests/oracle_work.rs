//! The oracle's long work as the Python package drives it: a query's
//! search ended at once by a stop flag (Ctrl-C there).

use std::time::{Duration, Instant};

use mancala_solver::error::Error;
use mancala_solver::oracle::{Oracle, OracleConfig, SearchBudget};
use mancala_solver::play::agents::Stop;

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
        o.query_until("kalah:6:6", None, Duration::from_secs(30), &stop)
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
        .query_until("kalah:6:6", None, Duration::from_millis(50), &Stop::never())
        .unwrap();
    assert!(!a.exact && a.lower <= a.upper);
}
