//! Kalah on wide cells (more than 255 seeds, up to 1000 a pit, as in the
//! course assignment) for the agents, `match`, `tournament` and `play`:
//! every agent plays the same moves on a wide board as on the byte board
//! of the same position, and whole games on large boards keep every seed.

mod common;

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::kalah::state::KalahState;
use mancala_solver::kalah::wide::WidePosition;
use mancala_solver::play::agents::AgentSpec;
use mancala_solver::play::state::{GameSpec, Playable, Rules, State};
use rand::Rng;

fn widen(pos: &Position) -> WidePosition {
    let cells: Vec<u16> = pos.cells().iter().map(|&c| c.into()).collect();
    WidePosition::from_cells(&cells, pos.to_move()).unwrap()
}

/// Every agent but the perfect one, with budgets small enough for a test.
const AGENTS: [&str; 10] = [
    "random",
    "greedy",
    "minimax:3",
    "alphabeta:4",
    "heuristic:3",
    "mcts:100",
    "mcts:100:playout=heavy",
    "eps-greedy:0.2",
    "awale-uct:60",
    "awale-heavy:60",
];

/// The same agent, seeded alike, on the byte board and on the wide board of
/// the same position: the same move and the same value, along random games
/// of every rule set.
#[test]
fn agents_play_alike_on_both_cell_widths() {
    let mut rng = mancala_solver::rng::seeded(3);
    for (g, rules) in KalahRules::ALL.into_iter().enumerate() {
        for (m, n) in [(6, 4), (4, 3), (3, 3)] {
            let mut pos = Position::start(m, n).unwrap();
            let mut ply = 0u64;
            while !pos.is_game_over(rules) {
                let narrow = rules.state(pos);
                let wide = State::from(KalahState::wide(widen(&pos), rules));
                assert_eq!(narrow.scores(), wide.scores());
                assert_eq!(narrow.moves(), wide.moves());
                let row = |p: mancala_solver::play::state::Pits| p.iter().collect::<Vec<u16>>();
                assert_eq!(row(narrow.mover_pits()), row(wide.mover_pits()));
                assert_eq!(row(narrow.opponent_pits()), row(wide.opponent_pits()));
                for spec in AGENTS {
                    let spec: AgentSpec = spec.parse().unwrap();
                    let seed = 1000 * g as u64 + ply;
                    let a = spec
                        .build(Rules::Kalah(rules), None, seed)
                        .unwrap()
                        .choose(&narrow);
                    let b = spec
                        .build(Rules::Kalah(rules), None, seed)
                        .unwrap()
                        .choose(&wide);
                    assert_eq!(
                        (a.pit, a.value),
                        (b.pit, b.value),
                        "{spec} in {pos:?} under {rules}"
                    );
                }
                let moves: Vec<usize> = pos.legal_moves(rules).collect();
                let pit = moves[rng.gen_range(0..moves.len())];
                let mut w = wide.clone();
                let step = w.play(pit).unwrap();
                let mv = pos.play(pit, rules).unwrap();
                assert_eq!(step.captured, mv.captured);
                assert_eq!(w, State::from(KalahState::wide(widen(&pos), rules)));
                ply += 1;
            }
        }
    }
}

/// Games on the assignment's largest board and a 6-pit board of 100 seeds a
/// pit: legal moves only, every seed kept, the game ends.
#[test]
fn agents_finish_games_on_large_boards() {
    for (game, agents) in [
        ("kalah:6:100", &AGENTS[..]),
        (
            "kalah:10:1000:end-when-mover-empty",
            &["random", "greedy", "alphabeta:2", "mcts:20"][..],
        ),
    ] {
        let spec: GameSpec = game.parse().unwrap();
        let start = spec.start();
        assert!(start.is_wide(), "{game}");
        let total = 2 * spec.pits * spec.seeds;
        for (i, a) in agents.iter().enumerate() {
            let a: AgentSpec = a.parse().unwrap();
            let mut agent = a.build(spec.rules(), None, i as u64).unwrap();
            let mut other = AgentSpec::Random.build(spec.rules(), None, 9).unwrap();
            let mut s = start.clone();
            let mut plies = 0;
            while !s.is_over() {
                let me = plies % 2 == 0;
                let pit = if me {
                    agent.choose(&s)
                } else {
                    other.choose(&s)
                }
                .pit;
                let (legal, n) = s.moves();
                assert!(legal[..n].contains(&pit), "{a}: pit {pit} in {s:?}");
                s.play(pit).unwrap();
                plies += 1;
                let sc = s.scores();
                assert_eq!(s.seeds_on_board() + sc[0] as usize + sc[1] as usize, total);
            }
        }
    }
}

#[test]
fn cli_match_and_tournament_on_a_wide_board() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = common::mancala(
        &[
            "match",
            "alphabeta:2",
            "random",
            "--game",
            "kalah:6:100",
            "--games",
            "4",
            "--json",
            "--games-out",
            "games.jsonl",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["game"], "kalah:6:100");
    let games = std::fs::read_to_string(dir.path().join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 4);
    for line in games.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let stores = g["stores"].as_array().unwrap();
        let sum: u64 = stores.iter().map(|s| s.as_u64().unwrap()).sum();
        assert_eq!(sum + g["left_on_board"].as_u64().unwrap(), 1200, "{line}");
    }
    let (code, out, err) = common::mancala(
        &[
            "tournament",
            "greedy",
            "random",
            "mcts:30",
            "--game",
            "kalah:10:1000",
            "--games",
            "2",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("greedy"), "{out}");
    // The perfect agent cannot: a clear error, exit 2.
    for args in [
        &[
            "match",
            "perfect",
            "random",
            "--game",
            "kalah:6:100",
            "--games",
            "2",
        ][..],
        &["play", "kalah", "6", "100", "--vs", "perfect"][..],
    ] {
        let (code, _, err) = common::mancala(args, dir.path());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("1200-seed board") && err.contains("at most 255"),
            "{err}"
        );
    }
}

#[test]
fn cli_play_on_a_wide_board() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = common::mancala(
        &["play", "kalah", "6", "100", "--moves", "0", "--json"],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let p: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 100 seeds from pit 0 over a ring of 13: 7 laps and 9 more.
    assert_eq!(
        p["position"],
        "108 108 108 107 107 107 0 7 108 108 108 108 108 8"
    );
    assert_eq!(p["to_move"], "north");
    assert_eq!(p["stores"], serde_json::json!([8, 0]));
    // A set-up position beyond a byte, and the diagram widening its columns.
    let (code, out, err) = common::mancala(
        &[
            "play",
            "kalah",
            "--position",
            "1000 2 0 1 3 0 0 5",
            "--moves",
            "1",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("position: "), "{out}");
    assert!(out.contains("1000"), "{out}");
    // Bad input: too many seeds a pit, a malformed wide position.
    for (args, needle) in [
        (&["play", "kalah", "6", "1001"][..], "at most 1000"),
        (
            &["play", "kalah", "--position", "1000 x 0 0"][..],
            "not a whole number",
        ),
        (
            &["play", "kalah", "--position", "70000 0 0 0"][..],
            "more than the",
        ),
        (
            &["play", "kalah", "6", "100", "--moves", "6"][..],
            "does not exist",
        ),
    ] {
        let (code, _, err) = common::mancala(args, dir.path());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // Against an agent in the terminal, every pit in turn until the end.
    let mut input = String::new();
    for _ in 0..400 {
        input.push_str("0\n1\n2\n");
    }
    let (code, text, _) =
        common::mancala_with_input(&["play", "kalah", "3", "100", "--vs", "greedy"], &input);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("greedy plays"), "{text}");
    assert!(text.contains("game over:"), "{text}");
}
