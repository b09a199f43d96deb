//! The measurement behind the perfect agent's fast paths: Kalah's and
//! Awari's own searches against `perfect::generic`, the one search over the
//! rules, on the same positions without tables.

use std::time::{Duration, Instant};

use mancala_solver::awari::perfect::AwariEngine;
use mancala_solver::awari::position::AwariPosition;
use mancala_solver::awari::rules::AwariGame;
use mancala_solver::game::Game;
use mancala_solver::kalah::perfect::{search_beyond_tables, SearchCache};
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::play::agents::perfect::generic::{search_outcome, Engine};
use mancala_solver::play::agents::perfect::SearchOutcome;
use mancala_solver::play::agents::Stop;
use mancala_solver::side::Side;
use rand::Rng;

fn far() -> Instant {
    Instant::now() + Duration::from_secs(60)
}

/// A random Kalah position with `m` pits a side and at most `most` seeds a
/// pit, stores included, South to move.
fn kalah_position(rng: &mut impl Rng, m: usize, most: u8) -> Position {
    let mut cells = vec![0u8; 2 * m + 2];
    for c in cells.iter_mut() {
        *c = rng.gen_range(0..=most);
    }
    Position::from_cells(&cells, Side::South).unwrap()
}

/// Seconds to prove every position of `positions` with the search
/// `fresh` makes (one engine for all of them, as a game's agent keeps
/// it), the median of three runs, each with a new engine.
fn seconds<P, F: FnMut(&P) -> SearchOutcome>(positions: &[P], mut fresh: impl FnMut() -> F) -> f64 {
    let mut runs: Vec<f64> = (0..3)
        .map(|_| {
            let mut solve = fresh();
            let start = Instant::now();
            for p in positions {
                assert!(solve(p).exact);
            }
            start.elapsed().as_secs_f64()
        })
        .collect();
    runs.sort_by(f64::total_cmp);
    runs[1]
}

/// Seeds in play in the wide-board positions of `faster_paths_pay`.
const WIDE_SEEDS: usize = 16;

/// A Kalah position with `m` pits a side and `seeds` seeds in play
/// dropped into random pits, empty stores, South to move.
fn kalah_scattered(rng: &mut impl Rng, m: usize, seeds: usize) -> Position {
    let mut cells = vec![0u8; 2 * m + 2];
    for _ in 0..seeds {
        let pit = rng.gen_range(0..2 * m);
        cells[if pit < m { pit } else { pit + 1 }] += 1;
    }
    Position::from_cells(&cells, Side::South).unwrap()
}

fn generic_kalah() -> impl FnMut(&Position) -> SearchOutcome {
    let mut engine = Engine::default();
    move |p| {
        let rules = KalahRules::default();
        search_outcome(rules, &mut engine, None, p, far(), &Stop::never(), 200)
    }
}

fn kalah_search() -> impl FnMut(&Position) -> SearchOutcome {
    let mut cache = SearchCache::new();
    move |p| {
        let rules = KalahRules::default();
        search_beyond_tables(p, rules, None, far(), &mut cache, &Stop::never())
    }
}

/// The measurement behind keeping Kalah's and Awari's own searches: the
/// time each takes to prove the same positions without tables, one
/// engine kept over all of them as an agent keeps it over a game,
/// against `perfect::generic`. Run it with
/// `cargo test --test suite perfect_paths:: -- --ignored --nocapture`
/// (the test profile is optimised; `--release` works too). Measured
/// 2026-11-26 on the 2-core machine, test profile with the dependencies
/// at opt-level 2, then 0: Kalah(6, <= 2 a pit) generic 0.80 s, 0.95 s,
/// MTD(f) solver 0.046 s, 0.029 s (17x, 33x); Kalah(8, 16 seeds in play)
/// generic 0.48 s, 0.48 s, Kalah's alpha-beta 0.15 s, 0.11 s (3.2x,
/// 4.3x); Awari(6, <= 1 a pit), 0.2 s each: generic proves 0 of 37, the
/// Awari search 22.
#[test]
#[ignore = "a measurement, about 15 s: cargo test --test suite perfect_paths:: -- --ignored --nocapture"]
fn faster_paths_pay() {
    let mut rng = mancala_solver::rng::seeded(21);
    let kalah: Vec<Position> = (0..40)
        .map(|_| kalah_position(&mut rng, 6, 2))
        .filter(|p| !KalahRules::default().is_over(p))
        .collect();
    let rules = KalahRules::default();
    let generic = seconds(&kalah, generic_kalah);
    let fast = seconds(&kalah, kalah_search);
    eprintln!(
        "Kalah(6, <=2 a pit), {} positions: generic {generic:.3} s, MTD(f) solver {fast:.3} s ({:.1}x)",
        kalah.len(),
        generic / fast
    );
    let wide: Vec<Position> = (0..40)
        .map(|_| kalah_scattered(&mut rng, 8, WIDE_SEEDS))
        .filter(|p| !rules.is_over(p))
        .collect();
    let generic = seconds(&wide, generic_kalah);
    let fast = seconds(&wide, kalah_search);
    eprintln!(
        "Kalah(8, {WIDE_SEEDS} seeds in play), {} positions: generic {generic:.3} s, Kalah alpha-beta {fast:.3} s ({:.1}x)",
        wide.len(),
        generic / fast
    );
    let game = AwariGame::Awari;
    let awari: Vec<(Vec<u8>, AwariPosition)> = (0..40)
        .map(|_| {
            let cells: Vec<u8> = (0..12).map(|_| rng.gen_range(0..=1)).collect();
            let pos = AwariPosition::from_board(&cells, [0, 0], Side::South).unwrap();
            (cells, pos)
        })
        .filter(|(_, p)| !game.is_over(p))
        .collect();
    let budget = || Instant::now() + Duration::from_millis(200);
    type Case = (Vec<u8>, AwariPosition);
    let count = |f: &mut dyn FnMut(&Case) -> SearchOutcome| {
        let start = Instant::now();
        let exact = awari.iter().filter(|p| f(p).exact).count();
        (exact, start.elapsed().as_secs_f64())
    };
    let (g_exact, g_secs) = count(&mut |(_, p)| {
        search_outcome(
            game,
            &mut Engine::default(),
            None,
            p,
            budget(),
            &Stop::never(),
            300,
        )
    });
    let (a_exact, a_secs) = count(&mut |(cells, _)| {
        let mut board = [0u8; 12];
        board[..12].copy_from_slice(cells);
        AwariEngine::default().search(game, None, &board, 6, budget(), &Stop::never())
    });
    eprintln!(
        "Awari(6, <=1 a pit), {} positions, 0.2 s each: generic proves {g_exact} in {g_secs:.2} s, Awari search {a_exact} in {a_secs:.2} s",
        awari.len()
    );
}
