//! The Awari and Oware tables against the plain reference solver
//! (`mancala_solver::awari::reference`, which shares nothing with the builder but
//! the rules): every board of every small layer, for both games.

use mancala_solver::awari::reference::{awari_boards, AwariReference};
use mancala_solver::awari::rules::{awari_start, AwariGame};
use mancala_solver::tablebase::build::{build as build_tables, BuildOptions};
use mancala_solver::tablebase::TableSet;
use mancala_solver::tables::index::binomial;

fn build(dir: &std::path::Path, game: AwariGame, pits: usize, max_seeds: usize, threads: usize) {
    build_tables(&BuildOptions {
        dir: dir.to_path_buf(),
        game,
        pits,
        max_seeds,
        threads: Some(threads),
        memory_budget: 8 << 30,
        group_bytes: None,
        progress: Default::default(),
    })
    .unwrap();
}

/// Every board with `k` seeds on `m` pits, the table against the reference.
fn check_layer(tb: &TableSet<AwariGame>, m: usize, k: usize) -> usize {
    let roots = awari_boards(m, k);
    let r = AwariReference::solve_many(roots.iter().copied(), m, tb.game());
    for board in &roots {
        let want = r.value(board).unwrap();
        let got = tb.board_value(board).unwrap();
        assert_eq!(
            got,
            want,
            "{} m={m} k={k} board {:?}",
            tb.game(),
            &board[..2 * m]
        );
    }
    roots.len()
}

#[test]
fn every_board_of_small_layers_matches_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    for game in AwariGame::ALL {
        for (m, max_k) in [(2, 14), (3, 10), (4, 7), (5, 6), (6, 8)] {
            build(dir.path(), game, m, max_k, 2);
            let tb = TableSet::open(dir.path(), game, m, max_k).unwrap();
            let mut boards = 0;
            for k in 1..=max_k {
                boards += check_layer(&tb, m, k);
            }
            assert_eq!(
                boards as u64,
                binomial(max_k + 2 * m, 2 * m) - 1,
                "all boards checked"
            );
        }
    }
}

#[test]
fn whole_small_games_match_the_reference() {
    whole_games_match_the_reference(&[
        (2, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (3, 1),
        (3, 2),
        (3, 3),
        (4, 1),
    ]);
}

/// The 8-pit boards (4 pits a side) of 16 seeds: about 8 s of CPU.
#[test]
#[ignore = "slow, about 8 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn whole_eight_pit_games_match_the_reference() {
    whole_games_match_the_reference(&[(4, 2)]);
}

/// Every board reachable from the start of each game (`m` pits a side,
/// `n` seeds a pit) under both rule sets: the table's value is the
/// reference solver's.
fn whole_games_match_the_reference(sizes: &[(usize, usize)]) {
    let dir = tempfile::tempdir().unwrap();
    for game in AwariGame::ALL {
        for &(m, n) in sizes {
            let k = 2 * m * n;
            build(dir.path(), game, m, k, 2);
            let tb = TableSet::open(dir.path(), game, m, k).unwrap();
            let start = awari_start(m, n as u8);
            let r = AwariReference::solve(&start, m, game);
            for (board, v) in r.iter() {
                assert_eq!(tb.board_value(board), Some(v), "{game}({m},{n}) {board:?}");
            }
        }
    }
}

#[test]
fn the_build_does_not_depend_on_the_threads() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    build(one.path(), AwariGame::Oware, 4, 9, 1);
    build(two.path(), AwariGame::Oware, 4, 9, 2);
    for k in 1..=9 {
        let name = format!("oware-m4-k{k}.tbl");
        let a = std::fs::read(one.path().join(&name)).unwrap();
        let b = std::fs::read(two.path().join(&name)).unwrap();
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
}
