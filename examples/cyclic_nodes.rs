//! Nodes and time of the exact Awari search on every board of one layer,
//! without tables (a measurement of the search's handling of cycles):
//! `cargo run --release --example cyclic_nodes -- PITS SEEDS`.
use mancala_solver::awari::reference::awari_boards;
use mancala_solver::awari::rules::AwariGame;
use mancala_solver::search::awari::AwariBoards;
use mancala_solver::search::cyclic::{solve_board, CyclicOptions, Wanted};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let (pits, k) = (args[0], args[1]);
    let search = AwariBoards::new(AwariGame::Awari, pits, None, None).expect("pits");
    let options = CyclicOptions {
        tt_mb: 16,
        ..CyclicOptions::default()
    };
    let t = std::time::Instant::now();
    let (mut nodes, mut sum) = (0u64, 0i64);
    let all = awari_boards(pits, k);
    for b in &all {
        let sol = solve_board(search, b, Wanted::VALUE, &options);
        nodes += sol.stats.nodes;
        sum += sol.proven.exact().expect("finished") as i64;
    }
    println!(
        "{} boards of {pits} pits, {k} seeds: {nodes} nodes, {:.2} s, sum of values {sum}",
        all.len(),
        t.elapsed().as_secs_f64()
    );
}
