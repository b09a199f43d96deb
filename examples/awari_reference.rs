//! Solve the start positions of small Awari and Oware games with the plain
//! reference solver (`mancala_solver::awari::reference`), as a cross-check for the
//! tables:
//!
//! ```sh
//! cargo run --release --example awari_reference            # m = 2..=4, n = 1..=3
//! cargo run --release --example awari_reference -- 5 2     # one game: m n
//! ```
//!
//! Prints, per game: the value of the start position for the first player
//! (seeds captured minus seeds conceded, endless play adding 0), the number
//! of boards reachable from it, and the time taken.

use std::time::Instant;

use mancala_solver::awari::reference::AwariReference;
use mancala_solver::awari::rules::{awari_start, AwariGame};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("arguments: pits per side, seeds per pit"))
        .collect();
    let games: Vec<(usize, usize)> = match args.as_slice() {
        [] => (2..=4).flat_map(|m| (1..=3).map(move |n| (m, n))).collect(),
        [m, n] => vec![(*m, *n)],
        _ => panic!("arguments: pits per side, seeds per pit (or none)"),
    };
    println!("game   m n  value  boards  seconds");
    for (m, n) in games {
        for game in AwariGame::ALL {
            let t = Instant::now();
            let r = AwariReference::solve(&awari_start(m, n as u8), m, game);
            println!(
                "{:<6} {m} {n}  {:+5}  {:>6}  {:.2}",
                game.name(),
                r.root_value(),
                r.len(),
                t.elapsed().as_secs_f64()
            );
        }
    }
}
