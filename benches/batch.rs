//! The batch look-ups (`Oracle::table_values`, `table_move_values`) from
//! Rust: the rates the Python package's are measured against
//! (`benches/batch.py` times the same work from Python;
//! docs/python.md has both).
//!
//! Run with `cargo bench --bench batch`. It builds the 4-pit Kalah tables up
//! to 24 seeds into `target/bench-db` first (a second), then looks up
//! 2,000,000 positions (each pit 0 to 3 seeds, stores 0 to 20) seven times
//! and prints the median rate; then every move's value of the same
//! positions, the same way.

use std::time::Instant;

use mancala_solver::oracle::{Oracle, OracleConfig, SearchBudget};
use rand::Rng;

const ROWS: usize = 2_000_000;
const WIDTH: usize = 10;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return; // `cargo test --benches` runs benches without it: nothing to time.
    }
    let db = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-db");
    let o = Oracle::new(OracleConfig {
        dir: db,
        search: SearchBudget {
            time: std::time::Duration::from_millis(100),
            tt_mb: 1,
        },
        build_limit: 100_000_000,
        agent_time: std::time::Duration::from_millis(100),
        build_threads: None,
    });
    let mut rng = mancala_solver::rng::seeded(1);
    let counts: Vec<u8> = (0..ROWS * WIDTH)
        .map(|i| match i % WIDTH {
            4 | 9 => rng.gen_range(0..=20),
            _ => rng.gen_range(0..=3),
        })
        .collect();
    let mut values = vec![0; ROWS];
    // The first call builds the tables and opens them.
    o.table_values("kalah:4:3", &counts, &mut values, i32::MIN)
        .unwrap();
    let rates = median_of_seven(|| {
        o.table_values("kalah:4:3", &counts, &mut values, i32::MIN)
            .unwrap()
    });
    let missing = values.iter().filter(|&&v| v == i32::MIN).count();
    println!(
        "table_values kalah:4:3, {ROWS} positions ({missing} not covered): median {:.1} M positions/s (min {:.1}, max {:.1})",
        rates[3] / 1e6,
        rates[0] / 1e6,
        rates[6] / 1e6
    );
    let mut moves = vec![0; 4 * ROWS];
    let rates = median_of_seven(|| {
        o.table_move_values("kalah:4:3", &counts, &mut moves, i32::MIN)
            .unwrap()
    });
    println!(
        "table_move_values kalah:4:3, {ROWS} positions x 4 moves: median {:.1} M positions/s (min {:.1}, max {:.1})",
        rates[3] / 1e6,
        rates[0] / 1e6,
        rates[6] / 1e6
    );
}

/// The rates (positions a second) of seven runs of `work`, sorted.
fn median_of_seven(mut work: impl FnMut()) -> Vec<f64> {
    let mut rates: Vec<f64> = (0..7)
        .map(|_| {
            let t = Instant::now();
            work();
            ROWS as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates
}
