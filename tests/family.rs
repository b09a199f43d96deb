//! The contracts every game of the family keeps, written once and run for
//! every registered rule set: notation round trips, bad lines leave the
//! position as it was, the tables (built on demand) agree with each game's
//! plain reference solver, move values, best moves and principal variations
//! agree with the value, the on-demand policy, verification, and tables of
//! other rules or widths are refused; matches are reproducible from their
//! seed and replay, and tournaments give a consistent cross table.

use std::path::Path;

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use mancala_solver::awari::reference::awari_value;
use mancala_solver::game::Board;
use mancala_solver::kalah::reference::Minimax;
use mancala_solver::ohvalhu::Ohvalhu;
use mancala_solver::tablebase::verify::verify;
use mancala_solver::tablebase::PvEnd;
use mancala_solver::tablebase::TableGame;
use mancala_solver::vai_lung_thlan::VaiLungThlan;
use mancala_solver::{
    with_rules, AwariGame, BuildSettings, Error, Game, KalahRules, OnDemand, Rules, Side, TableSet,
};

/// A position reached from the start of (`pits`, `seeds`) by random legal
/// moves (at most `plies`), and whether it is over.
fn random_position<G: TableGame>(
    game: G,
    pits: usize,
    seeds: usize,
    plies: usize,
    rng: &mut StdRng,
) -> G::Position {
    let mut pos = game.start(pits, seeds).unwrap();
    for _ in 0..rng.gen_range(0..=plies) {
        let moves = game.legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let pit = moves.pit(rng.gen_range(0..moves.len()));
        game.play(&mut pos, pit).unwrap();
    }
    pos
}

/// Final score difference for the side to move in `start` once the game
/// has reached `end`.
fn score_difference<G: TableGame>(start: &G::Position, end: &G::Position) -> i32 {
    let s = end.scores();
    let d = s[0] as i32 - s[1] as i32;
    match start.to_move() {
        Side::South => d,
        Side::North => -d,
    }
}

fn notation_round_trips<G: TableGame>(game: G, pits: usize, seeds: usize) {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..300 {
        let pos = random_position(game, pits, seeds, 40, &mut rng);
        let back = game.parse(&pos.to_string()).unwrap();
        // Notation carries no side to move: compare the board as written.
        assert_eq!(back.to_string(), pos.to_string(), "{game}");
        assert_eq!(back.pits(), pits);
    }
}

fn bad_lines_leave_the_position_as_it_was<G: TableGame>(game: G, pits: usize, seeds: usize) {
    let start = game.start(pits, seeds).unwrap();
    for line in ["x", "0 0", "-0", "0--1", "9"] {
        let mut pos = start;
        let err = game.play_line(&mut pos, line).unwrap_err();
        assert!(
            matches!(err, Error::BadMoves { .. }),
            "{game} {line}: {err}"
        );
        assert_eq!(pos, start, "{game} {line}: the position changed");
    }
}

/// The tables of `game` on `pits` pits up to `k` seeds against `reference`
/// on random positions, with move values, best moves and principal
/// variations consistent with the values.
fn tables_agree_with_the_reference<G: TableGame>(
    game: G,
    dir: &Path,
    pits: usize,
    seeds: usize,
    exact_pv: bool,
    mut reference: impl FnMut(&G::Position) -> i32,
) {
    let k = 2 * pits * seeds;
    let set = TableSet::open_or_build(
        dir,
        game,
        pits,
        k,
        &OnDemand::UpTo(50_000_000),
        &BuildSettings::default(),
    )
    .unwrap();
    let mut rng = StdRng::seed_from_u64(2);
    let mut checked = 0;
    for _ in 0..400 {
        let pos = random_position(game, pits, seeds, 30, &mut rng);
        let value = set.value(&pos).expect("tables cover the game");
        assert_eq!(value, reference(&pos), "{game} {pos}");
        let moves = set.move_values(&pos).unwrap();
        if game.is_over(&pos) {
            assert!(moves.is_empty(), "{game} {pos}");
            continue;
        }
        let best = moves.iter().map(|m| m.value).max().unwrap();
        assert_eq!(best, value, "{game} {pos}: best move value");
        let (pit, v) = set.best_move(&pos).unwrap();
        assert_eq!(v, value);
        assert_eq!(moves.iter().find(|m| m.pit == pit).unwrap().value, value);
        let line = set.principal_variation(&pos).unwrap();
        let mut end = pos;
        let played = game.play_line(&mut end, &line.moves).unwrap();
        assert_eq!(played, line.plies, "{game} {pos}: {}", line.moves);
        if line.end == PvEnd::GameOver {
            game.settle(&mut end);
            assert!(game.is_over(&end), "{game} {pos}: {}", line.moves);
            let d = score_difference::<G>(&pos, &end);
            if exact_pv {
                assert_eq!(d, value, "{game} {pos}: {}", line.moves);
            } else {
                // Vai Lung Thlan: the line stops at the early end, the
                // value plays on; the winner is the same.
                assert_eq!(d.signum(), value.signum(), "{game} {pos}: {}", line.moves);
            }
        }
        checked += 1;
    }
    assert!(checked > 100, "{game}: only {checked} positions in play");
    for s in 1..=k.min(10) {
        let report = verify(&set, s, None, 1, &Default::default()).unwrap();
        assert!(report.is_sound(), "{game} k={s}: {report:?}");
    }
}

fn on_demand_policy_and_wrong_tables<G: TableGame>(game: G, other: Option<G>, pits: usize) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let settings = BuildSettings::default();
    // Never build: the first missing table is named, with the tables needed.
    match TableSet::open_or_build(d, game, pits, 4, &OnDemand::Never, &settings) {
        Err(Error::MissingTable { path, table }) => {
            assert!(path.ends_with(TableSet::empty(d, game, pits).unwrap().spec(1).file_name()));
            assert_eq!(
                (table.game, table.pits, table.seeds),
                (game.name(), pits, 4)
            );
        }
        other => panic!("{game}: {other:?}"),
    }
    // Too large for the policy: the size, nothing built.
    match TableSet::open_or_build(d, game, pits, 4, &OnDemand::UpTo(1), &settings) {
        Err(Error::BuildTooLarge {
            table,
            entries,
            limit: 1,
            ..
        }) => {
            assert_eq!((table.pits, table.seeds), (pits, 4));
            assert!(entries > 1);
        }
        other => panic!("{game}: {other:?}"),
    }
    assert_eq!(
        TableSet::open_available(d, game, pits).unwrap().max_seeds(),
        0
    );
    let set =
        TableSet::open_or_build(d, game, pits, 4, &OnDemand::UpTo(1 << 30), &settings).unwrap();
    assert_eq!(set.max_seeds(), 4);
    assert!(set.check(game, pits).is_ok());
    if let Some(other) = other {
        assert!(matches!(
            set.check(other, pits),
            Err(Error::WrongTables { .. })
        ));
    }
    assert!(matches!(
        set.check(game, pits + 1),
        Err(Error::WrongTables { .. })
    ));
}

/// The rule sets of the registry with endgame tables: every contract test
/// runs over the registry, so a registered game cannot skip them.
fn with_tables() -> Vec<Rules> {
    Rules::ALL
        .iter()
        .copied()
        .filter(|&r| with_rules!(r, g => !g.table_pits_range().is_empty()))
        .collect()
}

/// Another rule set of the registry with tables, of the same type as
/// `game` (Kalah's other rules, Awari's Oware), if there is one.
fn other_of<G: TableGame>(game: G) -> Option<G> {
    with_tables().into_iter().find_map(|r| {
        with_rules!(r, h => (&h as &dyn std::any::Any).downcast_ref::<G>().copied())
            .filter(|&o| o != game)
    })
}

#[test]
fn notation_round_trips_for_every_game() {
    for &rules in Rules::ALL {
        with_rules!(rules, g => notation_round_trips(g, 4, 3));
    }
}

#[test]
fn bad_lines_leave_the_position_as_it_was_for_every_game() {
    for &rules in Rules::ALL {
        with_rules!(rules, g => bad_lines_leave_the_position_as_it_was(g, 4, 3));
    }
}

#[test]
fn tables_agree_with_each_games_reference_solver() {
    let dir = tempfile::tempdir().unwrap();
    // No wildcard: a new kind of game does not compile here until it has
    // a reference solver.
    for rules in with_tables() {
        match rules {
            Rules::Kalah(rules) => {
                let mut mm = Minimax::new(rules);
                tables_agree_with_the_reference(rules, dir.path(), 3, 3, true, |p| mm.value(p));
            }
            Rules::Awari(game) => {
                tables_agree_with_the_reference(game, dir.path(), 3, 2, true, |p| {
                    let [mine, theirs] = p.captured_by_mover_opponent();
                    awari_value(&p.cells(), 3, game) + mine as i32 - theirs as i32
                });
            }
            Rules::Ohvalhu => {
                let mut ohvalhu = common::sowing_reference::OhvalhuReference::new();
                tables_agree_with_the_reference(Ohvalhu, dir.path(), 3, 3, true, |p| {
                    let banked = p.mover_store() as i32 - p.opponent_store() as i32;
                    banked + ohvalhu.value(p.mover_pits(), p.opponent_pits())
                });
            }
            Rules::VaiLungThlan => {
                let vlt = common::sowing_reference::vai_lung_thlan_values(3, 12);
                tables_agree_with_the_reference(VaiLungThlan, dir.path(), 3, 2, false, |p| {
                    let banked = p.mover_store() as i32 - p.opponent_store() as i32;
                    if VaiLungThlan.is_over(p) {
                        return banked;
                    }
                    let board: Vec<u8> = p
                        .mover_pits()
                        .iter()
                        .chain(p.opponent_pits())
                        .copied()
                        .collect();
                    banked + vlt[&board]
                });
            }
            // Not in with_tables(): only the default reading has tables.
            Rules::VaiLungThlanReading(r) => panic!("{r:?} has no tables"),
        }
    }
}

#[test]
fn the_on_demand_policy_and_wrong_tables_for_every_game() {
    for rules in with_tables() {
        with_rules!(rules, g => on_demand_policy_and_wrong_tables(g, other_of(g), 3));
    }
}

#[test]
fn the_solver_and_the_perfect_agent_refuse_tables_of_other_rules() {
    use mancala_solver::play::agents::AgentSpec;
    use mancala_solver::tablebase::SharedTables;
    use mancala_solver::{solve, SolveOptions};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let set = TableSet::open_or_build(
        dir.path(),
        KalahRules::Default,
        3,
        6,
        &OnDemand::UpTo(1 << 30),
        &BuildSettings::default(),
    )
    .unwrap();
    let pos = KalahRules::CaptureNeedsOpposite.start(3, 1).unwrap();
    let opts = SolveOptions {
        rules: KalahRules::CaptureNeedsOpposite,
        ..SolveOptions::default()
    };
    let err = solve(&pos, Some(&set), &opts).unwrap_err();
    assert!(matches!(err, Error::WrongTables { .. }), "{err}");
    assert!(err.to_string().contains("capture-needs-opposite"), "{err}");
    let tables = Some(SharedTables::new(Arc::new(set)));
    let perfect: AgentSpec = "perfect".parse().unwrap();
    let err = perfect
        .build(
            Rules::Kalah(KalahRules::EndWhenMoverEmpty),
            tables.clone(),
            1,
        )
        .err()
        .expect("refused");
    assert!(matches!(err, Error::WrongTables { .. }), "{err}");
    for rules in [
        Rules::Awari(AwariGame::Awari),
        Rules::Ohvalhu,
        Rules::VaiLungThlan,
    ] {
        let err = perfect
            .build(rules, tables.clone(), 1)
            .err()
            .expect("refused");
        assert!(matches!(err, Error::WrongTables { .. }), "{err}");
    }
}

/// A match's records, replayed with the game's own line reader from the
/// start of `spec`: the scores and the end match the record.
fn replays<G: TableGame>(
    game: G,
    spec: &mancala_solver::GameSpec,
    record: &mancala_solver::play::report::GameRecord,
) {
    use mancala_solver::play::report::GameEnd;
    let mut pos = game.start(spec.pits, spec.seeds).unwrap();
    game.play_line(&mut pos, &record.moves).unwrap();
    let over = game.settle(&mut pos);
    assert_eq!(
        over,
        record.end == GameEnd::Rules,
        "{spec} {}",
        record.moves
    );
    // Vai Lung Thlan ends past half with seeds left for nobody (every
    // reading but play-to-end).
    if record.end == GameEnd::Rules && spec.rules.game_name() != "vai-lung-thlan" {
        assert_eq!(record.left_on_board, 0);
    }
    assert_eq!(
        pos.scores().map(u16::from),
        record.stores,
        "{spec} {}",
        record.moves
    );
}

#[test]
#[ignore = "slow, about 25 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn a_match_is_reproducible_from_its_seed_with_1_and_2_threads_in_every_game() {
    use mancala_solver::play::arena::{run_match, MatchOptions};
    use mancala_solver::GameSpec;
    for &rules in Rules::ALL {
        let (pits, seeds) = rules.default_size();
        let game = GameSpec { rules, pits, seeds };
        let spec = game.to_string();
        let spec = spec.as_str();
        for (a, b) in [
            ("heuristic:2", "mcts:50:playout=heavy"),
            ("greedy", "alphabeta:2"),
        ] {
            let run = |threads: usize, seed: u64| {
                let opts = MatchOptions {
                    game,
                    a: a.parse().unwrap(),
                    b: b.parse().unwrap(),
                    games: 16,
                    seed,
                    random_opening: None,
                    threads: Some(threads),
                    progress: Default::default(),
                    tables: None,
                    max_plies: 500,
                    repetition: Default::default(),
                };
                run_match(&opts).unwrap().1
            };
            let key = |records: &[mancala_solver::play::report::GameRecord]| {
                records
                    .iter()
                    .map(|g| (g.moves.clone(), g.stores, g.a_side, g.end, g.left_on_board))
                    .collect::<Vec<_>>()
            };
            let one = run(1, 5);
            assert_eq!(key(&one), key(&run(2, 5)), "{spec} {a} v {b}");
            assert_ne!(key(&one), key(&run(2, 6)), "{spec} {a} v {b}: another seed");
            let distinct: std::collections::HashSet<_> = one.iter().map(|g| &g.moves).collect();
            assert!(distinct.len() > 8, "{spec} {a} v {b}: games should differ");
            for record in &one {
                assert_eq!(record.game_spec, spec);
                with_rules!(game.rules, g => replays(g, &game, record));
            }
        }
    }
}

#[test]
fn tournament_cross_tables_in_every_game() {
    use mancala_solver::play::agents::AgentSpec;
    use mancala_solver::play::tournament::{run_tournament, TournamentOptions};
    for (spec, searcher, games) in [
        ("kalah:6:4", "alphabeta:4", 60),
        ("oware:6:4", "alphabeta:3", 40),
    ] {
        let opts = TournamentOptions {
            game: spec.parse().unwrap(),
            agents: vec![
                AgentSpec::Random,
                AgentSpec::Greedy,
                searcher.parse().unwrap(),
            ],
            games,
            seed: 11,
            random_opening: None,
            threads: None,
            progress: Default::default(),
            tables: None,
            max_plies: 500,
            repetition: Default::default(),
        };
        let r = run_tournament(&opts).unwrap();
        assert_eq!(r.matches.len(), 3);
        for i in 0..3 {
            assert_eq!(r.score[i][i], None);
            for j in 0..3 {
                if i != j {
                    let s = r.score[i][j].unwrap() + r.score[j][i].unwrap();
                    assert!((s - 1.0).abs() < 1e-12);
                    assert!(!(r.stronger[i][j] && r.stronger[j][i]));
                }
            }
        }
        assert!(
            r.stronger[1][0] && r.stronger[2][0],
            "{spec}: {:?}",
            r.score
        );
        use mancala_solver::play::tournament::Relation;
        assert_eq!(r.relation[0][1], Relation::Weaker, "{spec}");
        assert_eq!(r.relation[2][0], Relation::Stronger, "{spec}");
        assert!(r.cycle.is_none());
        // An order only when every pair is separated.
        assert_eq!(r.order.is_some(), r.undecided.is_empty(), "{spec}: {r:?}");
        if let Some(order) = &r.order {
            assert_eq!(order.last(), Some(&0), "{spec}: random is last: {order:?}");
        }
        assert!(r.times.iter().all(|t| t.moves > 0));
    }
}
