//! Throughput of the Awari move generator (`rules::awari::awari_turn`):
//! every board of 6 pits per side with K seeds (default 12), generated once,
//! then `awari_turn` called on each, several passes; prints the best pass.
//!
//! ```sh
//! cargo run --release --example awari_turn_speed            # K = 12: 1,352,078 boards
//! cargo run --release --example awari_turn_speed -- 16
//! ```

use std::hint::black_box;
use std::time::Instant;

use mancala_solver::awari::reference::awari_boards;
use mancala_solver::awari::rules::{awari_turn, AwariGame, AwariTurn};

fn main() {
    let k: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("argument: seeds on the board"))
        .unwrap_or(12);
    let boards = awari_boards(6, k);
    for game in AwariGame::ALL {
        let mut best = f64::INFINITY;
        let mut moves = 0u64;
        for _ in 0..5 {
            let t = Instant::now();
            moves = 0;
            for b in &boards {
                if let AwariTurn::Play(m) = awari_turn(black_box(b), 6, game) {
                    moves += m.len() as u64;
                }
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{game}: {} boards with {k} seeds, {moves} moves: {:.1} ns per board, {:.1} ns per move (best of 5)",
            boards.len(),
            best * 1e9 / boards.len() as f64,
            best * 1e9 / moves as f64
        );
    }
}
