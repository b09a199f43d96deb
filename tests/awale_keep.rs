//! The Awale study's MCTS agents with `:keep`: the tree of a move is kept
//! for the next one, and only within one game.

use mancala_solver::play::agents::awale_study::{StudyMcts, TreePolicy};
use mancala_solver::play::agents::{Agent, Budget};
use mancala_solver::play::arena::{play_agents, play_game, MatchOptions};
use mancala_solver::play::state::State;
use mancala_solver::rng::seeded;
use mancala_solver::{GameSpec, Side};
use rand::Rng;

fn agent(budget: u64, tree: TreePolicy, seed: u64, keep: bool) -> StudyMcts {
    StudyMcts::new(
        Budget::Iterations(budget),
        tree,
        false,
        seeded(seed),
        "test".into(),
    )
    .keeping_tree(keep)
}

fn start(game: &str) -> State {
    game.parse::<GameSpec>().unwrap().start()
}

/// The play-outs under the root after a search: every iteration passes
/// through one of its children.
fn root_playouts(children: &[(usize, u32, f64)]) -> u32 {
    children.iter().map(|c| c.1).sum()
}

#[test]
fn the_subtree_of_the_moves_played_is_searched_on() {
    for tree in [TreePolicy::Random, TreePolicy::Uct(0.7)] {
        let mut a = agent(1000, tree, 7, true);
        let mut pos = start("awale:6:4");
        let mine = a.choose(&pos).pit;
        assert_eq!(a.reused_playouts(), 0, "the first move starts afresh");
        pos.play(mine).unwrap();
        // Each of the six replies was explored by 1000 iterations.
        pos.play(pos.moves().0[0]).unwrap();
        let children = a.search(&pos);
        let reused = a.reused_playouts();
        assert!(reused > 0 && reused < 1000, "{tree:?}: {reused}");
        // The kept root's play-outs include the one made when it was added
        // as a leaf, below none of its children.
        assert_eq!(root_playouts(&children), reused - 1 + 1000, "{tree:?}");

        // Without :keep, every search starts afresh.
        let mut b = agent(1000, tree, 7, false);
        let mut pos = start("awale:6:4");
        let mine = b.choose(&pos).pit;
        pos.play(mine).unwrap();
        pos.play(pos.moves().0[0]).unwrap();
        let children = b.search(&pos);
        assert_eq!(b.reused_playouts(), 0);
        assert_eq!(root_playouts(&children), 1000);
    }
}

#[test]
fn a_position_not_below_the_move_played_starts_afresh() {
    let mut a = agent(300, TreePolicy::Random, 3, true);
    let s = start("awale:6:4");
    let mine = a.choose(&s).pit;
    // A position below another move of ours.
    let other = s.moves().0[..s.moves().1]
        .iter()
        .copied()
        .find(|&p| p != mine)
        .unwrap();
    let mut pos = s.clone();
    pos.play(other).unwrap();
    pos.play(pos.moves().0[0]).unwrap();
    let children = a.search(&pos);
    assert_eq!(a.reused_playouts(), 0);
    assert_eq!(root_playouts(&children), 300);
    // The position before our move: not below it either.
    let mut a = agent(300, TreePolicy::Random, 3, true);
    a.choose(&s);
    assert_eq!(root_playouts(&a.search(&s)), 300);
    assert_eq!(a.reused_playouts(), 0);
}

/// One game of `a` (South) against a seeded random North, from `game`'s
/// start: the moves and the play-outs reused at each of `a`'s moves, with
/// whether the move before it was `a`'s own.
fn game(a: &mut StudyMcts, game: &str, seed: u64) -> (Vec<usize>, Vec<(u32, bool)>) {
    let mut rng = seeded(seed);
    let mut pos = start(game);
    let (mut moves, mut reused) = (Vec::new(), Vec::new());
    let mut last = Side::North;
    for _ in 0..400 {
        if pos.is_over() {
            break;
        }
        let side = pos.to_move();
        let pit = if side == Side::South {
            let pit = a.choose(&pos).pit;
            reused.push((a.reused_playouts(), last == Side::South));
            pit
        } else {
            let (list, n) = pos.moves();
            list[rng.gen_range(0..n)]
        };
        pos.play(pit).unwrap();
        moves.push(pit);
        last = side;
    }
    (moves, reused)
}

#[test]
fn kept_trees_are_reproducible_and_follow_extra_turns() {
    // Awale: the same seed, the same game and the same reuse.
    let one = game(
        &mut agent(200, TreePolicy::Random, 11, true),
        "awale:6:4",
        5,
    );
    let two = game(
        &mut agent(200, TreePolicy::Random, 11, true),
        "awale:6:4",
        5,
    );
    assert_eq!(one, two);
    assert!(one.1.iter().skip(1).any(|r| r.0 > 0), "{:?}", one.1);
    // Kalah, where a move can earn another: the agent's next move is in
    // the child it played, which its search visited.
    let (_, reused) = game(
        &mut agent(200, TreePolicy::Uct(0.7), 2, true),
        "kalah:6:4",
        9,
    );
    let after_own: Vec<u32> = reused.iter().filter(|r| r.1).map(|r| r.0).collect();
    assert!(!after_own.is_empty(), "no extra turn in this game");
    assert!(after_own.iter().all(|&r| r > 0), "{reused:?}");
}

#[test]
fn a_kept_tree_does_not_outlive_its_game() {
    // The same agent asked for the start after a whole game starts afresh.
    let mut a = agent(200, TreePolicy::Random, 4, true);
    let mut b = agent(200, TreePolicy::Random, 5, true);
    let mut opening = seeded(1);
    let played = play_agents(
        start("awale:6:4"),
        &mut a,
        &mut b,
        Side::South,
        0,
        500,
        &mut opening,
    )
    .unwrap();
    assert!(played.plies > 10);
    let children = a.search(&start("awale:6:4"));
    assert_eq!(a.reused_playouts(), 0);
    assert_eq!(root_playouts(&children), 200);
    // A match builds fresh agents for each game: a game is the same whether
    // or not the games before it were played.
    let opts = MatchOptions {
        game: "awale:6:4".parse().unwrap(),
        a: "awale-mcts:100:keep".parse().unwrap(),
        b: "awale-uct:100:keep".parse().unwrap(),
        games: 3,
        seed: 1,
        random_opening: Some(0),
        threads: None,
        progress: Default::default(),
        tables: None,
        max_plies: 500,
        repetition: Default::default(),
    };
    let alone = play_game(&opts, 2).unwrap();
    for g in 0..2 {
        play_game(&opts, g).unwrap();
    }
    let after = play_game(&opts, 2).unwrap();
    assert_eq!(
        (alone.moves, alone.plies, alone.a_difference),
        (after.moves, after.plies, after.a_difference)
    );
}
