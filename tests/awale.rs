//! Awale as the MCTS study plays it, its agents and its relations.

use mancala_solver::awari::AwariState;
use mancala_solver::play::agents::AgentSpec;
use mancala_solver::play::arena::{play_game, MatchOptions};
use mancala_solver::play::report::GameEnd;
use mancala_solver::play::state::State;
use mancala_solver::{AwariGame, GameSpec, Side};

fn options(a: &str, b: &str, games: usize, max_plies: usize) -> MatchOptions {
    MatchOptions {
        game: "awale:6:4".parse().unwrap(),
        a: a.parse().unwrap(),
        b: b.parse().unwrap(),
        games,
        seed: 1,
        random_opening: Some(0),
        threads: None,
        progress: Default::default(),
        tables: None,
        max_plies,
        repetition: Default::default(),
    }
}

fn awale(pits: &[u8], to_move: Side, captured: [u8; 2]) -> AwariState {
    AwariState::from_board(AwariGame::Awale, pits, to_move, captured).unwrap()
}

#[test]
fn rules_as_the_study_writes_them() {
    // The start; South plays its fourth pit.
    let mut s = "awale:6:4".parse::<GameSpec>().unwrap().start();
    s.play(3).unwrap();
    assert_eq!(s.to_string(), "5 5 4 4 4 4 4 4 4 0 5 5");
    // A capture chain of 2 and 3 stops at the empty origin side.
    let mut s = awale(&[0, 0, 0, 1, 0, 2, 1, 2, 0, 0, 0, 3], Side::South, [5, 5]);
    assert_eq!(s.play(5).unwrap().captured, 5);
    assert_eq!(s.captured(), [10, 5]);
    // No feeding rule: a move that leaves the opponent's row empty is legal,
    // and a capture of the whole row is played like any other (no grand
    // slam rule); the opponent then has no move: over, and the seeds left
    // count for nobody.
    let mut s = awale(&[0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0], Side::South, [20, 20]);
    let step = s.play(5).unwrap();
    assert_eq!(step.captured, 2);
    assert!(s.is_over());
    assert_eq!(s.captured(), [22, 20]);
    let mut t = AwariState::from_board(
        AwariGame::Awari,
        &[0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0],
        Side::South,
        [20, 20],
    )
    .unwrap();
    assert!(t.play(5).is_err(), "Awari refuses the grand slam");
    // A mover with an empty row: over at once, nothing awarded.
    let s = awale(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4], Side::South, [20, 24]);
    assert!(s.is_over());
    assert_eq!(s.captured(), [20, 24]);
    // 25 captures end the game; the seeds left count for nobody.
    let mut s = awale(&[0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0], Side::South, [24, 10]);
    s.play(5).unwrap();
    assert!(s.is_over());
    assert_eq!(s.captured(), [27, 10]);
    assert_eq!(State::Awari(s).moves().1, 0);
}

#[test]
fn the_move_cap_is_a_draw_and_positions_may_repeat() {
    // Two random agents with a cap of 10 plies: every game stops at the cap
    // and is a draw whatever the captures.
    let opts = options("random", "random", 8, 10);
    for g in 0..8 {
        let r = play_game(&opts, g).unwrap();
        assert_eq!(r.end, GameEnd::PlyCap);
        assert_eq!(r.a_difference, 0, "game {g}");
    }
}

#[test]
fn the_study_agents_parse_and_play() {
    for text in [
        "eps-greedy:0.95",
        "awale-mcts:100",
        "awale-uct:100",
        "awale-uct:2s:c=1.5",
        "awale-heavy:100",
        "awale-mcts:1000:keep",
        "awale-uct:100:c=1.5:keep",
        "awale-heavy:2s:keep",
    ] {
        let spec: AgentSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), text);
    }
    // Options in any order; written in one.
    let spec: AgentSpec = "awale-uct:100:keep:c=1.5".parse().unwrap();
    assert_eq!(spec.to_string(), "awale-uct:100:c=1.5:keep");
    for bad in [
        "eps-greedy",
        "eps-greedy:2",
        "awale-mcts",
        "awale-mcts:0",
        "awale-mcts:10:c=1",
        "awale-uct:10:c=-1",
        "awale-uct:10:x=1",
        "awale-mcts:10:keep:keep",
        "awale-mcts:10:keep=1",
        "eps-greedy:0.5:keep",
    ] {
        let e = bad.parse::<AgentSpec>().unwrap_err();
        assert!(e.is_usage(), "{bad}");
    }
    // The greedy member of the family beats random.
    assert!(score("eps-greedy:0", "random", 40) >= 32.0);
}

/// Points of `a` against `b` over `games` games (a win 1, a draw 1/2).
fn score(a: &str, b: &str, games: usize) -> f64 {
    let opts = options(a, b, games, 500);
    let mut points = 0.0;
    for g in 0..games {
        let d = play_game(&opts, g).unwrap().a_difference;
        points += match d.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
    }
    points
}

/// UCT beats plain MCTS, as in the study.
#[test]
#[ignore = "slow, about 9 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn uct_beats_plain_mcts() {
    assert!(score("awale-uct:300", "awale-mcts:300", 20) >= 13.0);
}
