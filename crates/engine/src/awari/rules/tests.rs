//! The move generator's tests: captures, grand slams, feeding, the rule
//! sets' names and ids.

use super::*;

fn board(cells: &[u8]) -> [u8; 12] {
    let mut b = [0u8; 12];
    b[..cells.len()].copy_from_slice(cells);
    b
}

fn play(cells: &[u8], m: usize, game: AwariGame) -> Vec<AwariMove> {
    match awari_turn(cells, m, game) {
        AwariTurn::Play(moves) => {
            assert!(!moves.is_empty());
            moves.as_slice().to_vec()
        }
        AwariTurn::Over { .. } => panic!("game over on {cells:?}"),
    }
}

fn over(cells: &[u8], m: usize, game: AwariGame) -> (u8, u8) {
    match awari_turn(cells, m, game) {
        AwariTurn::Over {
            mover_gain,
            opponent_gain,
        } => (mover_gain, opponent_gain),
        AwariTurn::Play(moves) => panic!("moves {moves:?} on {cells:?}"),
    }
}

#[test]
fn names_and_ids() {
    for g in AwariGame::ALL {
        assert_eq!(AwariGame::from_ids(g.ids()), Some(g));
        match g.rules_name() {
            None => {
                assert_eq!(AwariGame::from_name(g.name()), Some(g));
                assert_eq!(g.to_string(), g.name());
            }
            Some(rules) => {
                assert_eq!(g.to_string(), format!("{}:{rules}", g.name()));
                assert_eq!(
                    AwariGame::from_name(g.name()).map(|b| b.ids().0),
                    Some(g.ids().0)
                );
            }
        }
    }
    assert_eq!(AwariGame::Awari.ids(), (2, 0));
    assert_eq!(AwariGame::Oware.ids(), (3, 0));
    assert_eq!(AwariGame::OwareGrandSlamCapturesNothing.ids(), (3, 1));
    assert_eq!(AwariGame::from_ids((1, 0)), None);
    assert_eq!(AwariGame::from_name("kalah"), None);
    assert_eq!("oware".parse::<AwariGame>().unwrap(), AwariGame::Oware);
    let err = "kalah".parse::<AwariGame>().unwrap_err().to_string();
    assert!(err.contains("use awari, oware or awale"), "{err}");
    // Awale is played, not tabled: no table id resolves to it.
    assert_eq!(AwariGame::from_name("awale"), Some(AwariGame::Awale));
    assert_eq!(AwariGame::from_ids(AwariGame::Awale.ids()), None);
    assert!(!AwariGame::Awale.has_tables());
}

#[test]
fn start_moves_of_awari_6_4() {
    let moves = play(&awari_start(6, 4), 6, AwariGame::Awari);
    assert_eq!(moves.len(), 6);
    // Pit 0 sows cells 1..=4: nothing reaches the opponent.
    assert_eq!(moves[0].board, [4, 4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4]);
    for mv in &moves {
        assert_eq!(mv.captured, 0);
        assert!(!mv.game_over);
    }
}

#[test]
fn origin_is_skipped() {
    // m = 2: pit 0 holds 4 = the 3 other cells + 1: the fourth seed
    // skips the origin and lands in pit 1.
    let moves = play(&[4, 0, 1, 0], 2, AwariGame::Awari);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].captured, 0);
    // After sowing: [0, 2, 2, 1]; rotated for the opponent.
    assert_eq!(moves[0].board, board(&[2, 1, 0, 2]));
    // m = 6, 12 seeds from pit 0: one to each of the 11 other cells, the
    // twelfth to pit 1 (own row: no capture although opponents hold 2).
    let moves = play(&[12, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], 6, AwariGame::Awari);
    assert_eq!(moves[0].captured, 0);
    assert_eq!(moves[0].board, board(&[2, 1, 1, 1, 1, 1, 0, 2, 1, 1, 1, 1]));
}

#[test]
fn capture_chain_stops_at_a_non_capturable_pit() {
    // Pit 3 holds 5: sows cells 4, 5, 6, 7, 8. The opponent's 1 3 1 become
    // 2 4 2. Awari takes the 2 in cell 8 and stops at the 4 in cell 7.
    let cells = [0, 0, 0, 5, 0, 1, 1, 3, 1, 0, 0, 5];
    let moves = play(&cells, 6, AwariGame::Awari);
    let mv = moves.iter().find(|mv| mv.pit == 3).unwrap();
    assert_eq!(mv.captured, 2);
    assert_eq!(mv.board, board(&[2, 4, 0, 0, 0, 5, 0, 0, 0, 0, 1, 2]));
    // Oware also takes the 4 and the 2 in cell 6, then meets the row
    // boundary: the mover's own pit 5 holding 2 is never taken.
    let moves = play(&cells, 6, AwariGame::Oware);
    let mv = moves.iter().find(|mv| mv.pit == 3).unwrap();
    assert_eq!(mv.captured, 8);
    assert_eq!(mv.board, board(&[0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 1, 2]));
}

#[test]
fn capture_chain_stops_at_an_empty_or_single_pit() {
    // m = 3: pit 2 holds 3: sows cells 3, 4, 5. Opponent 0 1 2 -> 1 2 3:
    // takes 3 (cell 5) and 2 (cell 4), stops at the 1 in cell 3.
    let moves = play(&[0, 0, 3, 0, 1, 2], 3, AwariGame::Awari);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].captured, 5);
    assert_eq!(moves[0].board, board(&[1, 0, 0, 0, 0, 0]));
    // The last seed in a pit that holds 1 (or 5) captures nothing, even
    // when the pits before it hold 2.
    let moves = play(&[0, 0, 3, 1, 1, 0], 3, AwariGame::Awari);
    assert_eq!(moves[0].captured, 0);
    assert_eq!(moves[0].board, board(&[2, 2, 1, 0, 0, 0]));
    let moves = play(&[0, 0, 1, 1, 0, 4], 3, AwariGame::Oware);
    assert_eq!(moves[0].captured, 2, "Oware takes 2 in cell 3");
    let moves = play(&[0, 0, 2, 1, 3, 1], 3, AwariGame::Oware);
    assert_eq!(moves[0].captured, 6, "Oware takes 4 then 2");
    assert_eq!(moves[0].board, board(&[0, 0, 1, 0, 0, 0]));
}

#[test]
fn oware_takes_fours_and_awari_does_not() {
    // m = 2: pit 1 holds 1 and sows into cell 2, which then holds 4.
    let cells = [1, 1, 3, 1];
    let awari = play(&cells, 2, AwariGame::Awari);
    let oware = play(&cells, 2, AwariGame::Oware);
    assert_eq!(awari[1].captured, 0);
    assert_eq!(oware[1].captured, 4);
    assert_eq!(oware[1].board, board(&[0, 1, 1, 0]));
    // 5 is never taken.
    assert_eq!(play(&[1, 1, 4, 1], 2, AwariGame::Oware)[1].captured, 0);
}

#[test]
fn grand_slam_is_illegal_when_another_move_exists() {
    // m = 2: pit 1 (5 seeds) sows 2, 3, 0, 2, 3 (skipping itself):
    // the opponent's 0 1 become 2 3, both taken: a grand slam. Pit 0
    // sows into pit 1 and is legal, so pit 1 is not.
    let moves = play(&[1, 5, 0, 1], 2, AwariGame::Awari);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].pit, 0);
    assert_eq!(moves[0].board, board(&[0, 1, 0, 6]));
    assert!(!moves[0].game_over);
}

#[test]
fn grand_slam_is_played_when_forced_and_ends_the_game() {
    // Same, without the pit-0 alternative: the mover takes 2 + 3 and the
    // seed sown into pit 0.
    let moves = play(&[0, 5, 0, 1], 2, AwariGame::Awari);
    assert_eq!(moves.len(), 1);
    let mv = moves[0];
    assert_eq!((mv.pit, mv.captured, mv.end_gain), (1, 5, 1));
    assert!(mv.game_over);
    assert_eq!(mv.board, [0; 12]);
    assert_eq!(mv.value(99), 6);
    // m = 3: the two seeds of pit 2 make 2 and 2 of the opponent's 1 1 0.
    let moves = play(&[0, 0, 2, 1, 1, 0], 3, AwariGame::Awari);
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].captured, moves[0].end_gain), (4, 0));
    assert!(moves[0].game_over);
    // With a quiet alternative in pit 0, only pit 0 is legal.
    let moves = play(&[1, 0, 2, 1, 1, 0], 3, AwariGame::Awari);
    assert_eq!(moves.iter().map(|mv| mv.pit).collect::<Vec<_>>(), vec![0]);
}

#[test]
fn oware_grand_slam_with_fours() {
    // 17 seeds from pit 5 (m = 6): 11 to the other cells, then 6 more to
    // the opponent's row: each opponent pit gets 2. 0 0 0 0 2 0 becomes
    // 2 2 2 2 4 2: Awari takes the last 2 only (stops at 4), Oware takes
    // everything: a grand slam, illegal because pit 0 can move.
    let cells = [1, 0, 0, 0, 0, 17, 0, 0, 0, 0, 2, 0];
    let awari = play(&cells, 6, AwariGame::Awari);
    assert_eq!(awari.len(), 2);
    assert_eq!(awari[1].captured, 2);
    assert_eq!(awari[1].board, board(&[2, 2, 2, 2, 4, 0, 2, 1, 1, 1, 1, 0]));
    let oware = play(&cells, 6, AwariGame::Oware);
    assert_eq!(oware.iter().map(|mv| mv.pit).collect::<Vec<_>>(), vec![0]);
}

#[test]
fn a_grand_slam_captures_nothing_in_owares_variant() {
    // The Oware grand slam above is legal in the variant and captures
    // nothing: both moves, the slam leaving the opponent's row sown.
    let cells = [1, 0, 0, 0, 0, 17, 0, 0, 0, 0, 2, 0];
    let moves = play(&cells, 6, AwariGame::OwareGrandSlamCapturesNothing);
    assert_eq!(
        moves.iter().map(|mv| mv.pit).collect::<Vec<_>>(),
        vec![0, 5]
    );
    let slam = moves[1];
    assert_eq!(
        (slam.captured, slam.game_over, slam.end_gain),
        (0, false, 0)
    );
    assert_eq!(slam.board, board(&[2, 2, 2, 2, 4, 2, 2, 1, 1, 1, 1, 0]));
    // Forced (no other move): still played, still no capture, and the
    // game goes on.
    let moves = play(&[0, 5, 0, 1], 2, AwariGame::OwareGrandSlamCapturesNothing);
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].captured, moves[0].game_over), (0, false));
    assert_eq!(moves[0].board, board(&[2, 3, 1, 0]));
    // A capture that leaves a seed in the opponent's row is taken.
    let moves = play(
        &[0, 5, 0, 1, 0, 0],
        3,
        AwariGame::OwareGrandSlamCapturesNothing,
    );
    assert!(moves.iter().all(|mv| !mv.game_over));
    assert_eq!(
        "oware:grand-slam-captures-nothing".to_string(),
        AwariGame::OwareGrandSlamCapturesNothing.to_string()
    );
}

#[test]
fn feeding_is_required() {
    // m = 3, opponent row empty: pit 0 sows into pit 1 (no feed), pit 2
    // sows into cell 3 (feeds): only pit 2.
    let moves = play(&[1, 0, 1, 0, 0, 0], 3, AwariGame::Awari);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].pit, 2);
    assert_eq!(moves[0].board, board(&[1, 0, 0, 1, 0, 0]));
}

#[test]
fn feeding_before_grand_slam() {
    // m = 2, opponent row empty. Pit 0 does not feed. Pit 1 (5 seeds)
    // sows 2, 3, 0, 2, 3: the opponent's row gets 2 2, all taken. It is
    // the only feeding move, so the grand slam is forced: the mover takes
    // 4 and the 2 seeds left in pit 0; the game ends.
    let moves = play(&[1, 5, 0, 0], 2, AwariGame::Awari);
    assert_eq!(moves.len(), 1);
    let mv = moves[0];
    assert_eq!(
        (mv.pit, mv.captured, mv.end_gain, mv.game_over),
        (1, 4, 2, true)
    );
}

#[test]
fn no_feeding_move_ends_the_game() {
    assert_eq!(over(&[1, 1, 0, 0, 0, 0], 3, AwariGame::Awari), (2, 0));
    assert_eq!(over(&[2, 1, 0, 0, 0, 0, 0, 0], 4, AwariGame::Oware), (3, 0));
}

#[test]
fn empty_mover_row_ends_the_game() {
    assert_eq!(over(&[0, 0, 0, 1, 2, 0], 3, AwariGame::Awari), (0, 3));
    assert_eq!(over(&[0, 0, 0, 0], 2, AwariGame::Oware), (0, 0));
}

#[test]
fn only_the_first_2m_cells_are_read() {
    let a = play(&[1, 2, 3, 4, 9, 9], 2, AwariGame::Awari);
    let b = play(&[1, 2, 3, 4], 2, AwariGame::Awari);
    assert_eq!(a, b);
}

#[test]
fn turned_boards_put_the_opponent_first() {
    for m in AWARI_MIN_PITS..=AWARI_MAX_PITS {
        let mut b = [0u8; 12];
        for (i, c) in b[..2 * m].iter_mut().enumerate() {
            *c = 10 + i as u8;
        }
        let mut want = [0u8; 12];
        want[..m].copy_from_slice(&b[m..2 * m]);
        want[m..2 * m].copy_from_slice(&b[..m]);
        assert_eq!(turned(&b, m), want, "{m} pits");
    }
}
