//! Agents and matches: legality over thousands of random positions, the
//! perfect agent against every other agent, the published match results
//! that must hold with fixed seeds, reproducibility, and the command line.

mod common;

use mancala_solver::side::Side;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use mancala_solver::error::Error;
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::play::agents::search::{alphabeta, minimax, Eval, MinimaxAgent};
use mancala_solver::play::agents::{Agent, AgentSpec, Choice};
use mancala_solver::play::arena::{play_agents, run_match, MatchOptions};
use mancala_solver::play::state::{Playable, Rules, State};
use mancala_solver::tablebase::build::{build, BuildOptions};
use mancala_solver::tablebase::SharedTables;
use mancala_solver::tablebase::TableSet;
use rand::Rng;

const TABLE_SEEDS: usize = 14;

/// 6-pit tables up to 14 seeds, built once per test run (the builder keeps
/// sound tables already on disk).
fn tables() -> Arc<TableSet<KalahRules>> {
    static TB: OnceLock<Arc<TableSet<KalahRules>>> = OnceLock::new();
    TB.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("agents-tables");
        build(&BuildOptions {
            dir: dir.clone(),
            game: KalahRules::Default,
            pits: 6,
            max_seeds: TABLE_SEEDS,
            threads: None,
            memory_budget: 1 << 32,
            group_bytes: None,
            progress: Default::default(),
        })
        .unwrap();
        Arc::new(TableSet::open(&dir, KalahRules::Default, 6, TABLE_SEEDS).unwrap())
    })
    .clone()
}

/// Positions met in random games of Kalah(m, n) (not over), `count` of them.
fn random_positions(
    m: usize,
    n: usize,
    rules: KalahRules,
    count: usize,
    seed: u64,
) -> Vec<Position> {
    let mut rng = mancala_solver::rng::seeded(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::start(m, n).unwrap();
        while !pos.is_game_over(rules) && out.len() < count {
            if rng.gen_bool(0.3) {
                out.push(pos);
            }
            let moves: Vec<usize> = pos.legal_moves(rules).collect();
            pos.play(moves[rng.gen_range(0..moves.len())], rules)
                .unwrap();
        }
    }
    out
}

fn check_legal(agent: &mut dyn Agent, positions: &[Position], rules: KalahRules) {
    for pos in positions {
        let Choice { pit, .. } = agent.choose(&rules.state(*pos));
        let legal: Vec<usize> = pos.legal_moves(rules).collect();
        assert!(
            legal.contains(&pit),
            "{} chose pit {pit} in {pos:?}, legal {legal:?}",
            agent.name()
        );
    }
}

#[test]
fn every_agent_plays_only_legal_moves() {
    let tb = tables();
    let boards = [
        (6, 4),
        (6, 6),
        (4, 3),
        (3, 2),
        (1, 4),
        (2, 5),
        (8, 4),
        (10, 3),
    ];
    let mut seed = 0;
    for rules in KalahRules::ALL {
        // The tables are for the default rules: other rule sets get none
        // (tables of other rules are refused, see tests/family.rs).
        let tables = (rules == KalahRules::Default).then(|| SharedTables::new(tb.clone()));
        for &(m, n) in &boards {
            seed += 1;
            let cheap = random_positions(m, n, rules, 250, seed);
            let costly = &cheap[..60];
            for text in [
                "random",
                "greedy",
                "minimax:3",
                "alphabeta:5",
                "alphabeta:4:ties=random",
                "heuristic:3",
            ] {
                let spec: AgentSpec = text.parse().unwrap();
                assert_eq!(spec.to_string(), text, "the spec prints as it parses");
                let mut agent = spec
                    .build(Rules::Kalah(rules), tables.clone(), seed)
                    .unwrap();
                check_legal(agent.as_mut(), &cheap, rules);
            }
            for text in [
                "mcts:40",
                "mcts:40:playout=heavy",
                "mcts:40:playout=eps-greedy:eps=0.2",
                "mcts:1ms",
                "perfect:2ms",
            ] {
                let spec: AgentSpec = text.parse().unwrap();
                let mut agent = spec
                    .build(Rules::Kalah(rules), tables.clone(), seed)
                    .unwrap();
                check_legal(agent.as_mut(), costly, rules);
            }
        }
    }
}

#[test]
fn alphabeta_plays_exactly_like_minimax() {
    let rules = KalahRules::Default;
    let positions = random_positions(6, 4, rules, 300, 99);
    for depth in 1..=4 {
        let mm = MinimaxAgent::new(depth, false, "minimax".into());
        let ab = MinimaxAgent::new(depth, true, "alphabeta".into());
        for pos in &positions {
            let state = rules.state(*pos);
            assert_eq!(mm.best(&state), ab.best(&state), "depth {depth} {pos:?}");
            let me = pos.to_move();
            let full = minimax(&state, depth, me, Eval::Store, 0);
            let pruned = alphabeta(
                &state,
                depth,
                f64::NEG_INFINITY,
                f64::INFINITY,
                me,
                Eval::Store,
                0,
            );
            assert_eq!(full, pruned);
        }
    }
}

/// Random positions within the tables: `k` seeds in play, random stores.
fn table_positions(count: usize, seed: u64) -> Vec<Position> {
    let tb = tables();
    let mut rng = mancala_solver::rng::seeded(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let k = rng.gen_range(4..=TABLE_SEEDS);
        let table = tb.table(k).unwrap();
        let index = rng.gen_range(0..table.len());
        let mut cells = [0u8; 14];
        let (mover, rest) = cells.split_at_mut(6);
        table.indexer().unrank(index, mover, &mut rest[1..7]);
        let stored = 48 - k as u8;
        let south = rng.gen_range(0..=stored);
        cells[6] = south;
        cells[13] = stored - south;
        out.push(Position::from_cells(&cells, Side::South).unwrap());
    }
    out
}

#[test]
fn perfect_never_spoils_a_position_within_the_tables() {
    let tb = tables();
    let rules = KalahRules::Default;
    let opponents = [
        "random",
        "greedy",
        "alphabeta:6",
        "heuristic:4",
        "mcts:200",
        "perfect:10ms",
    ];
    let mut games = 0;
    let mut won = 0;
    for (o, text) in opponents.iter().enumerate() {
        let spec: AgentSpec = text.parse().unwrap();
        for (i, start) in table_positions(60, 1000 + o as u64).into_iter().enumerate() {
            let mut perfect = AgentSpec::Perfect(Duration::from_millis(10))
                .build(Rules::Kalah(rules), Some(SharedTables::new(tb.clone())), 1)
                .unwrap();
            let mut other = spec
                .build(
                    Rules::Kalah(rules),
                    Some(SharedTables::new(tb.clone())),
                    i as u64,
                )
                .unwrap();
            // Half the games the perfect agent moves first, half the other.
            let perfect_side = if i % 2 == 0 { Side::South } else { Side::North };
            // Guaranteed result for the perfect agent, from the tables.
            let v = tb.value(&start).unwrap();
            let guaranteed = if perfect_side == Side::South { v } else { -v };
            let mut pos = start;
            while !pos.is_game_over(rules) {
                if pos.to_move() == perfect_side {
                    let before = tb.value(&pos).unwrap();
                    let choice = perfect.choose(&rules.state(pos));
                    let values = tb.move_values(&pos).unwrap();
                    let chosen = values.iter().find(|m| m.pit == choice.pit).unwrap();
                    assert_eq!(chosen.value, before, "{pos:?}: perfect gave away value");
                    assert_eq!(choice.value, Some(before as f64));
                    pos.play(choice.pit, rules).unwrap();
                } else {
                    let pit = other.choose(&rules.state(pos)).pit;
                    pos.play(pit, rules).unwrap();
                }
            }
            let s = pos.stores();
            let diff = s[0] as i32 - s[1] as i32;
            let result = if perfect_side == Side::South {
                diff
            } else {
                -diff
            };
            assert!(
                result >= guaranteed,
                "perfect v {text} from {start:?}: guaranteed {guaranteed}, got {result}"
            );
            if guaranteed > 0 {
                games += 1;
                won += usize::from(result > 0);
            }
        }
    }
    assert!(games > 50, "too few won starts ({games}) to mean anything");
    assert_eq!(won, games, "perfect won every won start");
}

#[test]
fn perfect_wins_full_kalah_6_4_games_against_weak_agents() {
    // Kalah(6,4) from the start, both sides, no random opening: the tables
    // reach 14 seeds, above them the agent searches a fixed time per move.
    // As North the agent is in a lost game (the start is a win for South)
    // and wins on the opponent's mistakes; against mcts:200 50 ms was not
    // always enough to find them when the test binaries share two cores, so
    // that opponent gets 200 ms.
    let tb = tables();
    for (o, (text, time)) in [
        ("random", "50ms"),
        ("greedy", "50ms"),
        ("mcts:200", "200ms"),
    ]
    .iter()
    .enumerate()
    {
        let opts = MatchOptions {
            game: "kalah:6:4".parse().unwrap(),
            a: format!("perfect:{time}").parse().unwrap(),
            b: text.parse().unwrap(),
            games: 6,
            seed: 40 + o as u64,
            random_opening: Some(0),
            threads: None,
            progress: Default::default(),
            tables: Some(SharedTables::new(tb.clone())),
            max_plies: 500,
            repetition: Default::default(),
        };
        let (r, _) = run_match(&opts).unwrap();
        assert_eq!(r.a_wins, r.games, "perfect v {text}: {r:?}");
        assert!(r.average_difference > 10.0, "{r:?}");
    }
}

#[test]
fn greedy_beats_random_widely_and_fast() {
    let opts = MatchOptions {
        game: "kalah:6:4".parse().unwrap(),
        a: AgentSpec::Greedy,
        b: AgentSpec::Random,
        games: 200,
        seed: 2024,
        random_opening: None,
        threads: None,
        progress: Default::default(),
        tables: None,
        max_plies: 500,
        repetition: Default::default(),
    };
    let t0 = Instant::now();
    let (r, records) = run_match(&opts).unwrap();
    let elapsed = t0.elapsed();
    assert_eq!(r.games, 200);
    assert_eq!(records.len(), 200);
    assert_eq!(r.a_wins + r.draws + r.b_wins, 200);
    assert_eq!(r.random_opening, 0, "random is not deterministic");
    assert!(r.a_score >= 0.9, "{r:?}");
    assert!(r.p_value < 1e-20 && r.a_stronger, "{r:?}");
    assert!(r.a_score_ci95[0] < r.a_score && r.a_score < r.a_score_ci95[1]);
    assert!(
        elapsed < Duration::from_secs(1),
        "200 games took {elapsed:?}"
    );
    assert!(r.a_time.moves > 0 && r.b_time.moves > 0);
    assert!(r.a_time.max_seconds >= r.a_time.mean_seconds);
}

#[test]
fn alphabeta_8_beats_greedy() {
    let opts = MatchOptions {
        game: "kalah:6:4".parse().unwrap(),
        a: "alphabeta:8".parse().unwrap(),
        b: AgentSpec::Greedy,
        games: 200,
        seed: 8,
        random_opening: None,
        threads: None,
        progress: Default::default(),
        tables: None,
        max_plies: 500,
        repetition: Default::default(),
    };
    let (r, records) = run_match(&opts).unwrap();
    assert_eq!(r.random_opening, 10, "both deterministic: random opening");
    assert!(records.iter().all(|g| g.random_opening == 10));
    assert!(r.a_stronger && r.a_score > 0.6, "{r:?}");
}

#[test]
fn game_records_replay() {
    let opts = MatchOptions {
        game: "kalah:5:3".parse().unwrap(),
        a: "mcts:30".parse().unwrap(),
        b: AgentSpec::Greedy,
        games: 10,
        seed: 3,
        random_opening: Some(2),
        threads: None,
        progress: Default::default(),
        tables: None,
        max_plies: 500,
        repetition: Default::default(),
    };
    let (_, records) = run_match(&opts).unwrap();
    for g in &records {
        let mut pos = Position::start(5, 3).unwrap();
        pos.play_line(&g.moves, KalahRules::Default).unwrap();
        assert!(pos.is_game_over(KalahRules::Default));
        assert_eq!(pos.stores().map(u16::from), g.stores);
        assert_eq!(g.game_spec, "kalah:5:3");
    }
}

/// An agent with a bug: always plays its leftmost pit, empty or not.
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
fn an_illegal_move_stops_the_game_naming_agent_and_position() {
    let rules = KalahRules::Default;
    let mut greedy = AgentSpec::Greedy
        .build(Rules::Kalah(rules), None, 0)
        .unwrap();
    let mut rng = mancala_solver::rng::seeded(0);
    let err = play_agents(
        rules.state(Position::start(6, 4).unwrap()),
        &mut Leftmost,
        greedy.as_mut(),
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
            ..
        } => {
            assert_eq!(agent, "leftmost");
            assert_eq!(*pit, 0);
            let pos = Position::parse(position).unwrap();
            assert_eq!(pos.mover_pits()[0], 0, "the pit was empty");
        }
        other => panic!("{other:?}"),
    }
    assert!(!err.is_usage());
    assert!(err.to_string().contains("leftmost"));
}

fn mancala() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
}

#[test]
fn cli_refuses_bad_input_with_exit_2() {
    for args in [
        vec!["match", "greedy", "randm"],
        vec!["match", "greedy", "random", "--game", "kalah:6"],
        vec!["match", "greedy", "random", "--game", "awari:7:4"],
        vec!["match", "greedy", "random", "--games", "0"],
        vec!["tournament", "greedy", "mcts:0"],
        vec!["play", "kalah", "6", "4", "--vs", "alphabeta:x"],
        vec!["match", "alphabeta:4:ties=left", "random"],
    ] {
        let out = mancala().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        // One line (an unknown agent's is followed by the agents, one a
        // line: tests/faults_newcomer.rs).
        let message = err.split("; agents:\n").next().unwrap();
        assert_eq!(message.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn cli_match_json_and_games_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.jsonl");
    let out = mancala()
        .args([
            "match",
            "greedy",
            "random",
            "--game",
            "kalah:4:3",
            "--games",
            "20",
            "--json",
            "--seed",
            "9",
        ])
        .arg("--games-out")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["games", "a_wins", "draws", "b_wins", "a_score", "p_value"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["games"], 20);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20);
    let g: serde_json::Value = serde_json::from_str(lines[3]).unwrap();
    let moves = g["moves"].as_str().unwrap();
    let replay = mancala()
        .args(["play", "kalah", "4", "3", "--json", "--moves", moves])
        .output()
        .unwrap();
    assert!(replay.status.success());
    let p: serde_json::Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(p["stores"], g["stores"]);
    assert_eq!(p["game_over"], true);
}

#[test]
fn cli_play_against_an_agent() {
    // Malformed, out of range, then every pit in turn until the game ends
    // (empty pits are refused and the prompt comes back).
    let mut input = String::from("x\n7\n");
    for _ in 0..20 {
        input.push_str("0\n1\n2\n");
    }
    let (code, text, _) =
        common::mancala_with_input(&["play", "kalah", "3", "2", "--vs", "greedy"], &input);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("\"x\" is not a pit number"), "{text}");
    assert!(text.contains("refused: pit 7 does not exist"), "{text}");
    assert!(text.contains("greedy plays"), "{text}");
    assert!(text.contains("(value "), "{text}");
    assert!(text.contains("game over:"), "{text}");
}

#[test]
fn search_above_the_tables_proves_exact_values() {
    use mancala_solver::kalah::perfect::{search_beyond_tables, SearchCache};
    use mancala_solver::play::agents::Stop;
    let mut cache = SearchCache::new();
    let rules = KalahRules::Default;
    let full = tables();
    // The same directory opened only up to 9 seeds: positions with 10..=14
    // seeds are above these tables and must be solved by the search.
    let small = TableSet::open(full.dir(), rules, 6, 9).unwrap();
    let mut checked = 0;
    for pos in table_positions(400, 77) {
        if pos.active_seeds() <= 9 || pos.is_game_over(rules) {
            continue;
        }
        let out = search_beyond_tables(
            &pos,
            rules,
            Some(&small),
            Instant::now() + Duration::from_secs(60),
            &mut cache,
            &Stop::never(),
        );
        assert!(out.exact, "{pos:?}: {out:?}");
        assert_eq!(Some(out.value), full.value(&pos), "{pos:?}");
        let values = full.move_values(&pos).unwrap();
        assert_eq!(
            values.iter().find(|m| m.pit == out.pit).unwrap().value,
            out.value
        );
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
    // Without tables, against the independent minimax on a small board.
    let mut cache = SearchCache::new();
    let mut mm = mancala_solver::kalah::reference::Minimax::new(rules);
    for pos in random_positions(3, 3, rules, 300, 5) {
        let out = search_beyond_tables(
            &pos,
            rules,
            None,
            Instant::now() + Duration::from_secs(60),
            &mut cache,
            &Stop::never(),
        );
        assert!(out.exact);
        assert_eq!(out.value, mm.value(&pos), "{pos:?}");
    }
}

#[test]
fn mcts_and_heuristic_beat_random() {
    for (a, seed) in [
        ("mcts:300", 1),
        ("mcts:300:playout=heavy", 2),
        ("heuristic:4", 3),
    ] {
        let opts = MatchOptions {
            game: "kalah:6:4".parse().unwrap(),
            a: a.parse().unwrap(),
            b: AgentSpec::Random,
            games: 40,
            seed,
            random_opening: None,
            threads: None,
            progress: Default::default(),
            tables: None,
            max_plies: 500,
            repetition: Default::default(),
        };
        let (r, _) = run_match(&opts).unwrap();
        assert!(r.a_score >= 0.85 && r.a_stronger, "{a}: {r:?}");
    }
}

#[test]
fn cli_tournament_prints_cross_table_and_relation() {
    let out = mancala()
        .args([
            "tournament",
            "random",
            "greedy",
            "alphabeta:2",
            "--game",
            "kalah:4:3",
            "--games",
            "40",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("score of the row agent"), "{text}");
    assert!(
        text.contains("*"),
        "greedy beats random significantly: {text}"
    );
    assert!(text.contains("relation of the row agent"), "{text}");
    assert!(
        text.contains("order (every pair separated")
            || text.contains("cycle:")
            || text.contains("not separated at this sample size"),
        "{text}"
    );
    assert!(text.contains("time per move:"), "{text}");
}

/// A seeded match names the same games on every platform, every thread
/// count and every run: the first games of one are pinned here. If this
/// fails after a dependency update, published `--seed` results no longer
/// reproduce: find out why before changing the pins.
#[test]
fn a_seeded_match_is_pinned() {
    let run = |threads| {
        let opts = MatchOptions {
            game: "kalah:4:3".parse().unwrap(),
            a: AgentSpec::Random,
            b: "mcts:20".parse().unwrap(),
            games: 4,
            seed: 1,
            random_opening: Some(1),
            threads: Some(threads),
            progress: Default::default(),
            tables: None,
            max_plies: 500,
            repetition: Default::default(),
        };
        run_match(&opts).unwrap().1
    };
    let one = run(1);
    let two = run(2);
    let lines: Vec<&str> = one.iter().map(|g| g.moves.as_str()).collect();
    assert_eq!(
        lines,
        two.iter().map(|g| g.moves.as_str()).collect::<Vec<_>>()
    );
    assert_eq!(lines[..2], PINNED_GAMES, "{lines:#?}");
}

const PINNED_GAMES: [&str; 2] = [
    "0-3-2-01-1-2-3-3-0-1-2-231-3",
    "12-1-03-1-1-2-1-30-30-1-1-23",
];
