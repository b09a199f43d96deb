//! A refused move is a typed error in every game ([`PlayError`]), so that a
//! front end can tell its cause without reading the words; its words are
//! the ones the front ends always showed, and the position is left as it
//! was. Run over the registry, so that a registered game cannot skip it.

use mancala_solver::awari::AwariState;
use mancala_solver::game::{Game, PlayError};
use mancala_solver::play::state::State;
use mancala_solver::{with_rules, AwariGame, AwariPosition, Error, Rules, Side};

/// A position of `game` (4 pits a side) whose mover's pit 0 is empty.
fn with_empty_pit<G: Game>(game: G) -> G::Position {
    game.position_from_counts(&[0, 3, 3, 3, 0, 3, 3, 3, 3, 0])
        .unwrap()
}

/// A finished game of `game` (4 pits a side): the board empty, 24 seeds
/// in the stores.
fn finished<G: Game>(game: G) -> G::Position {
    let pos = game
        .position_from_counts(&[0, 0, 0, 0, 10, 0, 0, 0, 0, 14])
        .unwrap();
    assert!(game.is_over(&pos), "{game}: an empty board is not over");
    pos
}

fn refusals_are_typed<G: Game>(game: G) {
    let start = game.start(4, 3).unwrap();

    let mut pos = start;
    let err = game.play(&mut pos, 4).unwrap_err();
    assert_eq!(err, PlayError::NoSuchPit { pit: 4, pits: 4 }, "{game}");
    assert_eq!(err.pit(), Some(4));
    assert_eq!(
        err.to_string(),
        "pit 4 does not exist: pits are numbered 0..3 from the mover's left",
        "{game}"
    );
    assert_eq!(pos, start, "{game}: a refused move changed the position");

    let empty = with_empty_pit(game);
    let mut pos = empty;
    let err = game.play(&mut pos, 0).unwrap_err();
    assert_eq!(err, PlayError::EmptyPit { pit: 0 }, "{game}");
    assert_eq!(err.to_string(), "pit 0 is empty", "{game}");
    assert_eq!(pos, empty, "{game}: a refused move changed the position");

    let over = finished(game);
    let mut pos = over;
    let err = game.play(&mut pos, 0).unwrap_err();
    assert_eq!(err.pit(), None, "{game}");
    if game.name() == "ohvalhu" {
        assert_eq!(err, PlayError::RoundOver);
        assert_eq!(err.to_string(), "the round is over");
    } else {
        assert_eq!(err, PlayError::GameOver, "{game}");
        assert_eq!(err.to_string(), "the game is over", "{game}");
    }
    assert_eq!(pos, over, "{game}: a refused move changed the position");

    // A line names the refusal in the same words, with its place.
    let mut pos = empty;
    match game.play_line(&mut pos, "0") {
        Err(Error::BadMoves { at, reason, .. }) => {
            assert_eq!(at, 1, "{game}");
            assert_eq!(reason, "pit 0 is empty", "{game}");
        }
        other => panic!("{game}: {other:?}"),
    }
}

#[test]
fn every_game_refuses_a_move_with_a_typed_reason() {
    for &rules in Rules::ALL {
        with_rules!(rules, g => refusals_are_typed(g));
    }
}

#[test]
fn awari_names_the_moves_that_feed_and_refuses_a_grand_slam() {
    let a = AwariGame::Awari;
    // South 1 0 1 | 0 0 0: only pit 2 reaches the opponent's empty row.
    let start = AwariPosition::from_board(&[1, 0, 1, 0, 0, 0], [0, 0], Side::South).unwrap();
    let mut pos = start;
    let err = a.play(&mut pos, 0).unwrap_err();
    let PlayError::DoesNotFeed { pit: 0, feeding } = err else {
        panic!("{err:?}");
    };
    assert_eq!(feeding.iter().collect::<Vec<_>>(), vec![2]);
    assert_eq!(
        err.to_string(),
        "pit 0 does not feed the opponent's empty row (moves that do: 2)"
    );
    assert_eq!(pos, start);
    // Awari(2,2) at the start: pit 1 captures both opponent pits, a grand
    // slam refused while pit 0 is quiet.
    let start = AwariPosition::start(2, 2).unwrap();
    let mut pos = start;
    let err = a.play(&mut pos, 1).unwrap_err();
    let PlayError::GrandSlam { pit: 1, legal } = err else {
        panic!("{err:?}");
    };
    assert_eq!(legal.iter().collect::<Vec<_>>(), vec![0]);
    assert!(err.to_string().contains("(a grand slam)"), "{err}");
    assert_eq!(pos, start);
    // The inherent moves are the game's, allocation-free.
    assert_eq!(start.legal_moves(a), a.legal_moves(&start));
    // Under the variant rule the same move is legal and captures nothing.
    let g = AwariGame::AwariGrandSlamCapturesNothing;
    let mut pos = start;
    assert_eq!(g.play(&mut pos, 1).unwrap().captured, 0);
}

#[test]
fn the_agents_state_refuses_with_the_same_typed_reason() {
    let mut s = State::Awari(
        AwariState::from_board(AwariGame::Awari, &[1, 0, 1, 0, 0, 0], Side::South, [0, 0]).unwrap(),
    );
    let before = s.clone();
    assert!(matches!(
        s.play(0),
        Err(PlayError::DoesNotFeed { pit: 0, .. })
    ));
    assert_eq!(s.play(1), Err(PlayError::EmptyPit { pit: 1 }));
    assert_eq!(s.play(7), Err(PlayError::NoSuchPit { pit: 7, pits: 3 }));
    assert_eq!(s, before);
    let mut k = "kalah:6:4"
        .parse::<mancala_solver::GameSpec>()
        .unwrap()
        .start();
    assert_eq!(k.play(6), Err(PlayError::NoSuchPit { pit: 6, pits: 6 }));
}
