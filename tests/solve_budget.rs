//! The solver under a time budget: a deadline or a stop flag ends the
//! search with proven bounds and a legal move, never an estimate as a value;
//! the perfect agent built on it moves at once on a tiny budget and
//! perfectly on a large one.

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::{solve, SolveOptions};
use rand::{Rng, SeedableRng};

fn opts() -> SolveOptions {
    SolveOptions {
        tt_mb: 16,
        ..SolveOptions::default()
    }
}

/// The exact value after `pit` from `pos`, for the side to move in `pos`.
fn move_value(pos: &Position, pit: usize) -> i32 {
    let mut child = *pos;
    let mv = child.play(pit, KalahRules::Default).unwrap();
    if mv.game_over {
        return child.final_difference();
    }
    let v = solve(&child, None, &opts()).unwrap().value;
    if mv.extra_turn {
        v
    } else {
        -v
    }
}

#[test]
fn a_deadline_stops_the_solver_with_proven_bounds_and_a_legal_move() {
    // Kalah(6,6) from the start cannot be solved in a few milliseconds.
    let start = Position::start(6, 6).unwrap();
    for id_step in [0, 2] {
        let t = std::time::Instant::now();
        let sol = solve(
            &start,
            None,
            &SolveOptions {
                deadline: Some(t + std::time::Duration::from_millis(30)),
                id_step,
                ..opts()
            },
        )
        .unwrap();
        assert!(
            t.elapsed() < std::time::Duration::from_secs(3),
            "{:?}",
            t.elapsed()
        );
        assert!(!sol.exact);
        assert!(-72 <= sol.lower && sol.lower <= sol.value, "{sol:?}");
        assert!(sol.value <= sol.upper && sol.upper <= 72, "{sol:?}");
        let pit = sol.best_move.expect("a move");
        assert!(start.legal_moves(KalahRules::Default).any(|p| p == pit));
        assert_eq!(sol.pv_turns, vec![vec![pit]]);
    }
    // Kalah(4,4) (+2) stopped at various times: the proven bounds hold the
    // value, and a move backing a proven lower bound reaches it.
    let start = Position::start(4, 4).unwrap();
    for ms in [1u64, 3, 10, 30] {
        let sol = solve(
            &start,
            None,
            &SolveOptions {
                deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(ms)),
                ..opts()
            },
        )
        .unwrap();
        assert!(sol.lower <= 2 && 2 <= sol.upper, "{ms} ms: {sol:?}");
        if sol.exact {
            assert_eq!(sol.value, 2);
            continue;
        }
        if sol.lower > -32 {
            assert!(
                move_value(&start, sol.best_move.unwrap()) >= sol.lower,
                "{sol:?}"
            );
        }
    }
    // A deadline far away changes nothing.
    let sol = solve(
        &start,
        None,
        &SolveOptions {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(600)),
            ..opts()
        },
    )
    .unwrap();
    assert!(sol.exact && sol.value == 2 && sol.lower == 2 && sol.upper == 2);
}

#[test]
fn a_stop_flag_ends_the_search_after_the_first_iteration() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let start = Position::start(5, 5).unwrap();
    let stop = Arc::new(AtomicBool::new(true));
    for (id_step, depth) in [(0, 0), (3, 3)] {
        let sol = solve(
            &start,
            None,
            &SolveOptions {
                stop: Some(stop.clone()),
                id_step,
                threads: 2,
                ..opts()
            },
        )
        .unwrap();
        assert!(!sol.exact);
        assert_eq!(sol.depth, depth, "only the first iteration ran");
        assert!(sol.best_move.is_some());
        assert_eq!((sol.lower, sol.upper), (-50, 50), "nothing proven");
    }
}

#[test]
fn the_perfect_agent_moves_at_once_on_a_tiny_budget_and_perfectly_on_a_large_one() {
    use mancala_solver::play::agents::perfect::PerfectAgent;
    use mancala_solver::play::agents::Agent;
    use std::time::{Duration, Instant};
    let rules = KalahRules::Default;
    // Kalah(6,6) from the start, no tables, 1 ms a move: legal and quick.
    let mut agent = PerfectAgent::new(rules, None, Duration::from_millis(1), "p".into()).unwrap();
    let mut pos = Position::start(6, 6).unwrap();
    for _ in 0..6 {
        let t = Instant::now();
        let c = agent.choose(&mancala_solver::play::state::Playable::state(rules, pos));
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
        assert!(pos.legal_moves(rules).any(|p| p == c.pit));
        pos.play(c.pit, rules).unwrap();
    }
    // A large budget on small games: the solver's value, with a best move.
    let mut agent = PerfectAgent::new(rules, None, Duration::from_secs(60), "p".into()).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for (m, n) in [(3, 3), (4, 3), (4, 4)] {
        let mut pos = Position::start(m, n).unwrap();
        for _ in 0..rng.gen_range(0..6) {
            if pos.is_game_over(rules) {
                break;
            }
            let moves: Vec<usize> = pos.legal_moves(rules).collect();
            pos.play(moves[rng.gen_range(0..moves.len())], rules)
                .unwrap();
        }
        if pos.is_game_over(rules) || pos.legal_moves(rules).count() < 2 {
            continue;
        }
        let sol = solve(&pos, None, &opts()).unwrap();
        let c = agent.choose(&mancala_solver::play::state::Playable::state(rules, pos));
        assert_eq!(c.value, Some(sol.value as f64), "{pos}");
        assert_eq!(move_value(&pos, c.pit), sol.value, "{pos}: pit {}", c.pit);
    }
}
