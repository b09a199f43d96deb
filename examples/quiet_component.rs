//! How many boards an Awari board reaches by moves that capture nothing
//! (its quiet component, whose cycles the exact search must resolve), for
//! random boards of one layer: `cargo run --release --example
//! quiet_component -- PITS SEEDS BOARDS CAP` (the walk stops at CAP boards).
use std::collections::{HashSet, VecDeque};

use mancala_solver::awari::rules::AwariGame;
use mancala_solver::search::awari::AwariBoards;
use mancala_solver::search::cyclic::{Children, CyclicGame};
use rand::{Rng, SeedableRng};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a whole number"))
        .collect();
    let [pits, k, n, cap] = args[..] else {
        eprintln!("usage: quiet_component PITS SEEDS BOARDS CAP");
        std::process::exit(2);
    };
    let game = AwariBoards::new(AwariGame::Awari, pits, None, None).expect("2 to 6 pits");
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..n {
        let mut board = [0u8; 12];
        for _ in 0..k {
            board[rng.gen_range(0..2 * pits)] += 1;
        }
        let mut seen = HashSet::from([board]);
        let mut queue = VecDeque::from([board]);
        let mut exits = 0u64;
        while let Some(b) = queue.pop_front() {
            if seen.len() >= cap {
                break;
            }
            let mut moves = Children::new();
            if game.expand(&b, &mut moves).is_some() {
                continue;
            }
            for c in moves.as_slice() {
                match c.board {
                    Some(next) if c.gain == 0 && game.seeds(&next) as usize == k => {
                        if seen.insert(next) {
                            queue.push_back(next);
                        }
                    }
                    _ => exits += 1,
                }
            }
        }
        println!(
            "{:?}: {} boards{} reached without a capture, {exits} moves out (captures and ends)",
            &board[..2 * pits],
            seen.len(),
            if seen.len() >= cap {
                " (stopped at the cap)"
            } else {
                ""
            },
        );
    }
}
