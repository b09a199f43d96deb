//! Agents and matches in Awari and Oware: legality over thousands of random
//! positions, the repetition rule and the ply cap on hand-made positions,
//! reproducibility, greedy against random, the search-only perfect agent,
//! and the command line.

mod common;

use mancala_solver::side::Side;
use std::process::Command;
use std::sync::Arc;

use mancala_solver::awari::rules::AwariGame;
use mancala_solver::awari::AwariState;
use mancala_solver::error::Error;
use mancala_solver::game::PlayError;
use mancala_solver::play::agents::{Agent, AgentSpec, Choice};
use mancala_solver::play::arena::GameSpec;
use mancala_solver::play::arena::{play_agents, run_match, MatchOptions};
use mancala_solver::play::report::GameEnd;
use mancala_solver::play::state::{Rules, State};
use mancala_solver::tablebase::build::{build, BuildOptions};
use mancala_solver::tablebase::SharedTables;
use mancala_solver::tablebase::TableSet;
use rand::Rng;

/// Positions met in random games of `spec` (not over), `count` of them.
fn random_states(spec: &str, count: usize, seed: u64) -> Vec<State> {
    let game: GameSpec = spec.parse().unwrap();
    let mut rng = mancala_solver::rng::seeded(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut s = game.start();
        let mut plies = 0;
        while !s.is_over() && out.len() < count && plies < 300 {
            if rng.gen_bool(0.3) {
                out.push(s.clone());
            }
            let (moves, n) = s.moves();
            s.play(moves[rng.gen_range(0..n)]).unwrap();
            plies += 1;
        }
    }
    out
}

fn check_legal(agent: &mut dyn Agent, states: &[State]) {
    for s in states {
        let Choice { pit, .. } = agent.choose(s);
        let (moves, n) = s.moves();
        assert!(
            moves[..n].contains(&pit),
            "{} chose pit {pit} in {s:?}, legal {:?}",
            agent.name(),
            &moves[..n]
        );
    }
}

fn opts(game: &str, a: &str, b: &str, games: usize, seed: u64) -> MatchOptions {
    MatchOptions {
        game: game.parse().unwrap(),
        a: a.parse().unwrap(),
        b: b.parse().unwrap(),
        games,
        seed,
        random_opening: None,
        threads: None,
        progress: Default::default(),
        tables: None,
        max_plies: 500,
        repetition: Default::default(),
    }
}

#[test]
fn every_agent_plays_only_legal_moves_in_awari_and_oware() {
    let mut seed = 0;
    let mut checked = 0;
    for game in ["awari", "oware"] {
        for (m, n) in [(6, 4), (6, 2), (5, 3), (4, 3), (3, 2), (2, 3)] {
            seed += 1;
            let spec = format!("{game}:{m}:{n}");
            let rules = spec.parse::<GameSpec>().unwrap().rules();
            let cheap = random_states(&spec, 250, seed);
            let costly = &cheap[..50];
            for text in [
                "random",
                "greedy",
                "minimax:3",
                "alphabeta:5",
                "heuristic:3",
            ] {
                let mut agent = text
                    .parse::<AgentSpec>()
                    .unwrap()
                    .build(rules, None, seed)
                    .unwrap();
                check_legal(agent.as_mut(), &cheap);
                checked += cheap.len();
            }
            for text in [
                "mcts:40",
                "mcts:40:playout=heavy",
                "mcts:40:playout=eps-greedy:eps=0.2",
                "mcts:1ms",
                "perfect:2ms",
            ] {
                let mut agent = text
                    .parse::<AgentSpec>()
                    .unwrap()
                    .build(rules, None, seed)
                    .unwrap();
                check_legal(agent.as_mut(), costly);
                checked += costly.len();
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// South 1 0 | North 1 0 (m = 2): every position of the line has exactly
/// one legal move, and after four plies the start comes back.
fn cycling_start(captured: [u8; 2]) -> State {
    State::Awari(
        AwariState::from_board(AwariGame::Awari, &[1, 0, 1, 0], Side::South, captured).unwrap(),
    )
}

#[test]
fn a_repeated_position_ends_the_game_with_the_seeds_left_split() {
    for (captured, winner_diff) in [([5, 3], 2), ([4, 4], 0), ([2, 6], -4)] {
        for a in ["random", "greedy", "alphabeta:4", "mcts:20", "perfect:5ms"] {
            let spec: AgentSpec = a.parse().unwrap();
            let rules = Rules::Awari(AwariGame::Awari);
            let mut x = spec.build(rules, None, 1).unwrap();
            let mut y = spec.build(rules, None, 2).unwrap();
            let mut rng = mancala_solver::rng::seeded(0);
            let g = play_agents(
                cycling_start(captured),
                x.as_mut(),
                y.as_mut(),
                Side::South,
                0,
                500,
                &mut rng,
            )
            .unwrap();
            assert_eq!(g.reason, GameEnd::Repetition, "{a}");
            assert_eq!(g.plies, 4, "{a}");
            assert_eq!(g.turns, vec![vec![0], vec![0], vec![1], vec![1]]);
            assert_eq!(g.end, cycling_start(captured), "the start came back");
            assert_eq!(g.end.scores(), captured.map(u16::from));
            assert_eq!(g.end.seeds_on_board(), 2);
            assert_eq!(g.end.difference(Side::South), winner_diff);
        }
    }
}

#[test]
fn the_ply_cap_ends_the_game_and_scores_the_captures() {
    // South 0 0 1 | North 1 0 1 (m = 3): South's only move takes the two
    // seeds of North's first pit; with a cap of one ply the game ends there.
    let start = State::Awari(
        AwariState::from_board(AwariGame::Awari, &[0, 0, 1, 1, 0, 1], Side::South, [3, 4]).unwrap(),
    );
    let rules = Rules::Awari(AwariGame::Awari);
    let mut a = AgentSpec::Greedy.build(rules, None, 0).unwrap();
    let mut b = AgentSpec::Greedy.build(rules, None, 0).unwrap();
    let mut rng = mancala_solver::rng::seeded(0);
    let g = play_agents(
        start.clone(),
        a.as_mut(),
        b.as_mut(),
        Side::South,
        0,
        1,
        &mut rng,
    )
    .unwrap();
    assert_eq!(g.reason, GameEnd::PlyCap);
    assert_eq!(g.plies, 1);
    assert_eq!(g.end.scores(), [5, 4], "South took 2");
    assert_eq!(g.end.seeds_on_board(), 1, "left on the board, split evenly");
    // Without the cap the game goes on by the rules: North must play its
    // only seed and South takes the rest at some point or it repeats.
    let mut rng = mancala_solver::rng::seeded(0);
    let g = play_agents(start, a.as_mut(), b.as_mut(), Side::South, 0, 500, &mut rng).unwrap();
    assert_ne!(g.reason, GameEnd::PlyCap);
    // A whole match with a small cap: every game ends at the cap or by
    // repetition or by the rules, and the result follows the captures.
    let mut o = opts("awari:6:4", "greedy", "random", 40, 3);
    o.max_plies = 30;
    let (r, records) = run_match(&o).unwrap();
    assert_eq!(r.max_plies, Some(30));
    assert!(r.ended_by_ply_cap > 20, "{r:?}");
    for g in &records {
        assert!(g.plies <= 30);
        if g.end == GameEnd::PlyCap {
            assert_eq!(g.plies, 30);
        }
        let total = g.stores[0] as usize + g.stores[1] as usize + g.left_on_board as usize;
        assert_eq!(total, 48, "{g:?}");
        let diff = g.stores[0] as i32 - g.stores[1] as i32;
        let expected = match diff.signum() {
            1 => "south",
            -1 => "north",
            _ => "draw",
        };
        assert_eq!(g.winner, expected);
        let a_diff = if g.a_side == Side::South { diff } else { -diff };
        assert_eq!(g.a_difference, a_diff);
    }
    assert_eq!(
        r.ended_by_ply_cap as usize,
        records.iter().filter(|g| g.end == GameEnd::PlyCap).count()
    );
}

#[test]
fn greedy_beats_random_in_awari_and_oware() {
    for (game, seed) in [("awari:6:4", 2024), ("oware:6:4", 2025)] {
        let (r, _) = run_match(&opts(game, "greedy", "random", 200, seed)).unwrap();
        eprintln!(
            "{game}: greedy v random {}-{}-{} (score {:.3}, p {:.2e}, repetition {}, cap {})",
            r.a_wins,
            r.draws,
            r.b_wins,
            r.a_score,
            r.p_value,
            r.ended_by_repetition,
            r.ended_by_ply_cap
        );
        assert_eq!(r.games, 200);
        assert_eq!(r.a_wins + r.draws + r.b_wins, 200);
        assert!(r.a_score >= 0.8, "{game}: {r:?}");
        assert!(r.p_value < 1e-15 && r.a_stronger, "{game}: {r:?}");
        assert!(r.average_difference > 5.0, "{game}: {r:?}");
        assert_eq!(r.perfect_mode, None);
    }
}

#[test]
fn perfect_plays_awari_by_search_alone_and_says_so() {
    let (r, _) = run_match(&opts("awari:6:4", "perfect:20ms", "random", 6, 1)).unwrap();
    assert_eq!(r.perfect_mode, Some("search only"));
    assert_eq!(r.a_wins, r.games, "{r:?}");
    // Against another deterministic agent the games open with random moves
    // (10 per side), so no result is guaranteed: only the mode is checked.
    let (r, _) = run_match(&opts("oware:4:3", "greedy", "perfect:10ms", 4, 1)).unwrap();
    assert_eq!(r.perfect_mode, Some("search only"));
    assert_eq!(r.random_opening, 10);
}

/// An agent with a bug: always plays its leftmost pit.
struct Leftmost;

impl Agent for Leftmost {
    fn name(&self) -> String {
        "leftmost".into()
    }
    fn choose(&mut self, _state: &State) -> Choice {
        Choice::bare(0)
    }
}

#[test]
fn an_illegal_awari_move_stops_the_game_naming_agent_and_position() {
    // North's row is empty and South's pit 0 cannot reach it.
    let start = State::Awari(
        AwariState::from_board(AwariGame::Oware, &[1, 0, 2, 0, 0, 0], Side::South, [0, 0]).unwrap(),
    );
    let mut other = AgentSpec::Random
        .build(Rules::Awari(AwariGame::Oware), None, 0)
        .unwrap();
    let mut rng = mancala_solver::rng::seeded(0);
    let err = play_agents(
        start,
        &mut Leftmost,
        other.as_mut(),
        Side::South,
        0,
        500,
        &mut rng,
    )
    .unwrap_err();
    match &err {
        Error::IllegalMove {
            agent,
            position,
            pit,
            reason,
            ..
        } => {
            assert_eq!(agent, "leftmost");
            assert_eq!(*pit, 0);
            assert!(position.starts_with("1 0 2 0 0 0"), "{position}");
            assert!(
                matches!(reason, PlayError::DoesNotFeed { pit: 0, .. }),
                "{reason:?}"
            );
            assert!(reason.to_string().contains("does not feed"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

fn mancala() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
}

#[test]
fn cli_awari_match_json_games_file_and_perfect_note() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.jsonl");
    let out = mancala()
        .args([
            "match",
            "perfect:5ms",
            "random",
            "--game",
            "awari:6:4",
            "--games",
            "4",
            "--json",
            "--max-plies",
            "200",
        ])
        // No tables in this directory, whatever the work tree's db/ holds.
        .arg("--db")
        .arg(dir.path())
        .arg("--games-out")
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(
        err.matches("search alone").count(),
        1,
        "one note on stderr: {err}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "awari:6:4");
    assert_eq!(v["perfect_mode"], "search only");
    assert_eq!(v["max_plies"], 200);
    assert_eq!(v["games"], 4);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    for line in lines {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let moves = g["moves"].as_str().unwrap();
        assert!(moves.split('-').all(|m| m.len() == 1), "{moves}");
        assert_eq!(
            g["replay"].as_str().unwrap(),
            format!("mancala play awari 6 4 --moves {moves}")
        );
        // The record replays with `mancala play awari`.
        let out = mancala()
            .args(["play", "awari", "6", "4", "--json", "--moves", moves])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let p: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(p["stores"], g["stores"], "{moves}");
        assert_eq!(p["game_over"], g["end"] == "rules", "{moves}");
    }
    // Text output says it too, and a tournament accepts the game.
    let out = mancala()
        .args([
            "match",
            "greedy",
            "perfect:2ms",
            "--game",
            "oware:4:3",
            "--games",
            "2",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("perfect agent: search only"), "{text}");
    assert!(
        text.contains("games ended by a repeated position"),
        "{text}"
    );
    let out = mancala()
        .args([
            "tournament",
            "random",
            "greedy",
            "--game",
            "oware:6:4",
            "--games",
            "10",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (args, needle) in [
        (vec!["--game", "awari:7:4"], "7 pits per side"),
        (
            vec!["--game", "awari:6:4:capture-needs-opposite"],
            "unknown rules \"capture-needs-opposite\" for awari: use default, grand-slam-captures-nothing",
        ),
        (vec!["--game", "awari:6:4", "--max-plies", "0"], "max-plies"),
    ] {
        let out = mancala()
            .args(["match", "greedy", "random"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn cli_play_oware_against_an_agent() {
    // Malformed, out of range, then every pit in turn until the game ends
    // (by the rules or by a repeated position; illegal pits are refused and
    // the prompt comes back).
    let mut input = String::from("x\n7\n");
    for _ in 0..200 {
        input.push_str("0\n1\n2\n");
    }
    let (code, text, err) =
        common::mancala_with_input(&["play", "oware", "3", "2", "--vs", "perfect:5ms"], &input);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("\"x\" is not a pit number"), "{text}");
    assert!(text.contains("refused: pit 7 does not exist"), "{text}");
    assert!(text.contains("perfect:5ms plays"), "{text}");
    assert!(text.contains("game over:"), "{text}");
    assert!(err.contains("search alone"), "{err}");
}

/// Awari tables of `m` pits up to `k` seeds, built once per test into a
/// temporary directory.
fn awari_tables(game: AwariGame, m: usize, k: usize) -> (tempfile::TempDir, SharedTables) {
    let dir = tempfile::tempdir().unwrap();
    build(&BuildOptions {
        dir: dir.path().to_path_buf(),
        game,
        pits: m,
        max_seeds: k,
        threads: None,
        memory_budget: 4 << 30,
        group_bytes: None,
        progress: Default::default(),
    })
    .unwrap();
    let tb = TableSet::open(dir.path(), game, m, k).unwrap();
    (dir, SharedTables::new(Arc::new(tb)))
}

#[test]
fn perfect_with_awari_tables_never_gives_value_away() {
    for game in AwariGame::ALL {
        let (_dir, tables) = awari_tables(game, 4, 16);
        let tb = &tables.typed::<AwariGame>().unwrap();
        let rules = Rules::Awari(game);
        let mut agent = AgentSpec::Perfect(std::time::Duration::from_millis(5))
            .build(rules, Some(tables.clone()), 1)
            .unwrap();
        let mut checked = 0;
        for s in random_states(&format!("{game}:4:2"), 2000, 7) {
            let State::Awari(a) = &s else { unreachable!() };
            let board = a.cells();
            let value = tb.board_value(&board).unwrap();
            let choice = agent.choose(&s);
            let moves = tb.board_move_values(&board).unwrap();
            let chosen = moves.iter().find(|mv| mv.pit == choice.pit).unwrap();
            assert_eq!(chosen.value, value, "{game}: {s:?} pit {}", choice.pit);
            if moves.len() > 1 {
                assert_eq!(choice.value, Some(value as f64));
                checked += 1;
            }
        }
        assert!(checked > 200, "{checked}");
    }
}

#[test]
fn perfect_reports_table_play_and_beats_random_in_awari() {
    let (_dir, tables) = awari_tables(AwariGame::Awari, 3, 12);
    let mut o = opts("awari:3:2", "perfect:5ms", "random", 40, 3);
    o.tables = Some(tables);
    let (r, _) = run_match(&o).unwrap();
    assert_eq!(r.perfect_mode, Some("tables, then search"));
    assert!(r.a_score > 0.85, "{r:?}");
    // Above the tables' range (awari:3:3 has 18 seeds) it searches with
    // table probes and still plays legal moves only.
    let mut o = opts("awari:3:3", "perfect:5ms", "greedy", 6, 3);
    let (_dir2, small) = awari_tables(AwariGame::Awari, 3, 12);
    o.tables = Some(small);
    let (r, _) = run_match(&o).unwrap();
    assert_eq!(r.games, 6);
}

/// From boards the tables value at `v > 0` for the side to move, the perfect
/// agent (playing that side) really gets at least `v`: against perfect play
/// exactly `v`, against random play at least `v`. Boards can repeat, so
/// this needs more than picking a move of the best value: a line of best
/// values can go round a cycle for ever (worth 0).
#[test]
fn perfect_with_awari_tables_realises_won_values() {
    use mancala_solver::play::arena::play_agents;
    for game in AwariGame::ALL {
        let (_dir, tables) = awari_tables(game, 4, 14);
        let tb = &tables.typed::<AwariGame>().unwrap();
        let rules = Rules::Awari(game);
        let spec = AgentSpec::Perfect(std::time::Duration::from_millis(5));
        let mut rng = mancala_solver::rng::seeded(11);
        let mut checked = 0;
        for s in random_states(&format!("{game}:4:3"), 3000, 5) {
            let State::Awari(a) = &s else { unreachable!() };
            if a.position().seeds_on_board() > 14 {
                continue;
            }
            let v = tb.board_value(&a.cells()).unwrap();
            if v <= 0 {
                continue;
            }
            // Set the board up afresh: nothing captured, South to move.
            let start = State::Awari(
                AwariState::from_board(game, &a.cells()[..8], Side::South, [0, 0]).unwrap(),
            );
            for opponent in ["perfect:5ms", "random"] {
                let mut p = spec.build(rules, Some(tables.clone()), 1).unwrap();
                let mut o = opponent
                    .parse::<AgentSpec>()
                    .unwrap()
                    .build(rules, Some(tables.clone()), 2)
                    .unwrap();
                let g = play_agents(
                    start.clone(),
                    p.as_mut(),
                    o.as_mut(),
                    Side::South,
                    0,
                    500,
                    &mut rng,
                )
                .unwrap();
                let State::Awari(end) = g.end else {
                    unreachable!()
                };
                let c = end.captured();
                let diff = c[0] as i32 - c[1] as i32;
                if opponent == "random" {
                    assert!(
                        diff >= v,
                        "{game} {s:?}: value {v}, got {diff} ({:?})",
                        g.reason
                    );
                } else {
                    assert_eq!(diff, v, "{game} {s:?}: ({:?}) {:?}", g.reason, g.turns);
                }
            }
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }
}
