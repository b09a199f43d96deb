//! The opening books as the book tests read them.

use std::path::Path;

use mancala_solver::book::{Book, Books};
use mancala_solver::kalah::KalahRules;

/// The start of a 6-pit Kalah game of `seeds` a pit.
pub fn start(seeds: u8) -> mancala_solver::kalah::position::Position {
    mancala_solver::kalah::position::Position::start(6, usize::from(seeds)).unwrap()
}

/// The committed book of `rules` and `seeds` a pit, from the library.
pub fn committed(rules: KalahRules, seeds: u8) -> &'static Book {
    let root = start(seeds);
    Books::embedded()
        .books()
        .iter()
        .find(|b| b.rules() == rules && b.root() == root)
        .unwrap_or_else(|| panic!("no book of {rules:?} with {seeds} seeds a pit"))
}

/// An oracle that searches `ms` milliseconds above the tables and builds
/// none, in `dir`.
pub fn oracle_in(dir: &Path, ms: u64) -> mancala_solver::oracle::Oracle {
    mancala_solver::oracle::Oracle::new(mancala_solver::oracle::OracleConfig {
        dir: dir.join("db"),
        search: mancala_solver::oracle::SearchBudget {
            time: std::time::Duration::from_millis(ms),
            tt_mb: 8,
        },
        build_limit: 0,
        agent_time: std::time::Duration::from_millis(ms),
        build_threads: None,
    })
}
