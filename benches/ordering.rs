//! Move ordering: total solver nodes and search time over random Kalah
//! positions with each [`MoveOrder`], in the same run.
//!
//! Run with `benches/solve.sh ordering` (builds the tables first), or
//! `DB=dir cargo bench --bench ordering` when `dir` holds the 6-pit and the
//! 5-pit tables up to 20 seeds. The positions are reached by 4 random plies
//! from the start of Kalah(6,4) and of Kalah(5,5) (fixed seed; positions
//! with too few seeds to need a search are skipped), solved on one thread
//! with tables up to 20 seeds and a 256 MiB transposition table.

use std::path::PathBuf;
use std::time::Instant;

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::{solve, MoveOrder, SolveOptions};
use mancala_solver::tablebase::TableSet;
use rand::Rng;

/// `count` positions reached by `plies` random plies from Kalah(m, n).
fn positions(m: usize, n: usize, plies: usize, count: usize, seed: u64) -> Vec<Position> {
    let rules = KalahRules::Default;
    let mut rng = mancala_solver::rng::seeded(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Position::start(m, n).expect("a valid start");
        for _ in 0..plies {
            let moves: Vec<usize> = p.legal_moves(rules).collect();
            if moves.is_empty() {
                break;
            }
            p.play(moves[rng.gen_range(0..moves.len())], rules)
                .expect("a legal move");
        }
        if !p.is_game_over(rules) && p.active_seeds() > 22 {
            out.push(p);
        }
    }
    out
}

fn main() {
    // `cargo bench` passes "--bench"; nothing else is expected.
    let db = PathBuf::from(std::env::var("DB").unwrap_or_else(|_| "db".to_string()));
    for (m, n) in [(6, 4), (5, 5)] {
        let tb = match TableSet::open(&db, KalahRules::Default, m, 20) {
            Ok(tb) => tb,
            Err(e) => {
                eprintln!(
                    "{e}\nthe ordering benchmark needs the {m}-pit tables up to 20 seeds in {}: \
                     run `mancala build kalah --pits {m} --max-seeds 20 --db {}` or \
                     `benches/solve.sh ordering`",
                    db.display(),
                    db.display()
                );
                std::process::exit(1);
            }
        };
        let set = positions(m, n, 4, 20, 7);
        let mut values: Option<Vec<i32>> = None;
        for order in [MoveOrder::Published, MoveOrder::Banked] {
            let opts = SolveOptions {
                order,
                tt_mb: 256,
                threads: 1,
                ..SolveOptions::default()
            };
            let start = Instant::now();
            let mut nodes = 0;
            let mut vals = Vec::new();
            for p in &set {
                let sol = solve(p, Some(&tb), &opts).expect("a solvable position");
                nodes += sol.stats.nodes;
                vals.push(sol.value);
            }
            let secs = start.elapsed().as_secs_f64();
            match &values {
                None => values = Some(vals),
                Some(v) => assert_eq!(v, &vals, "the orders disagree on a value"),
            }
            println!(
                "Kalah({m},{n}) 20 positions after 4 random plies, K=20, order {:<9} {:>12} nodes {:>8.2} s",
                order.name(),
                nodes,
                secs
            );
        }
    }
}
