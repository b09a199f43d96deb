//! Property tests of the Awari and Oware rules: seed conservation, the
//! origin pit emptied, the just-moved row holding an empty pit, and
//! agreement with a plain seed-by-seed implementation of `RULES.md` written
//! here, independently of `mancala_solver::kalah::rules`.

use mancala_solver::awari::rules::{awari_turn, AwariGame, AwariTurn};
use proptest::prelude::*;

/// What the plain implementation says about one pit of a board.
#[derive(Debug, PartialEq)]
enum Plain {
    /// Not legal (empty, does not feed, or an unforced grand slam).
    Illegal,
    /// Legal: captured seeds, the board after (mover's view, not rotated),
    /// whether it ends the game and the seeds the mover then takes.
    Legal(u8, Vec<u8>, bool, u8),
}

/// Seed-by-seed sowing and capture, straight from `RULES.md`.
/// Returns the board after the move, the seeds captured, and whether any seed
/// went into the opponent's row.
fn plain_sow(cells: &[u8], m: usize, pit: usize, game: AwariGame) -> (Vec<u8>, u8, bool) {
    let mut b = cells.to_vec();
    let mut seeds = b[pit];
    b[pit] = 0;
    let mut at = pit;
    let mut fed = false;
    while seeds > 0 {
        at = (at + 1) % (2 * m);
        if at == pit {
            continue;
        }
        b[at] += 1;
        seeds -= 1;
        fed |= at >= m;
    }
    let top = if matches!(
        game,
        AwariGame::Awari | AwariGame::AwariGrandSlamCapturesNothing
    ) {
        3
    } else {
        4
    };
    let sown = b.clone();
    let mut captured = 0;
    while at >= m && b[at] >= 2 && b[at] <= top {
        captured += b[at];
        b[at] = 0;
        at -= 1;
    }
    if game.grand_slam_captures_nothing() && captured > 0 && b[m..].iter().all(|&c| c == 0) {
        // This rule set plays the grand slam and captures nothing.
        return (sown, 0, fed);
    }
    (b, captured, fed)
}

/// All pits' verdicts, or the end of the game with (mover, opponent) gains.
fn plain_turn(cells: &[u8], m: usize, game: AwariGame) -> Result<Vec<Plain>, (u8, u8)> {
    let mover: u8 = cells[..m].iter().sum();
    let opponent: u8 = cells[m..].iter().sum();
    if mover == 0 {
        return Err((0, opponent));
    }
    let mut out = Vec::new();
    let mut feeding = Vec::new();
    for pit in 0..m {
        let (b, captured, fed) = plain_sow(cells, m, pit, game);
        let ok = cells[pit] > 0 && (opponent > 0 || fed);
        feeding.push(ok);
        let slam = ok && captured > 0 && b[m..].iter().all(|&c| c == 0);
        out.push((b, captured, slam));
    }
    if !feeding.iter().any(|&f| f) {
        return Err((mover, 0));
    }
    let all_slams = (0..m).filter(|&p| feeding[p]).all(|p| out[p].2);
    Ok((0..m)
        .map(|p| {
            let (b, captured, slam) = &out[p];
            if !feeding[p] || (*slam && !all_slams) {
                Plain::Illegal
            } else if *slam {
                Plain::Legal(*captured, vec![0; 2 * m], true, b[..m].iter().sum())
            } else {
                Plain::Legal(*captured, b.clone(), false, 0)
            }
        })
        .collect())
}

/// Every rule set of the family with tables (a new one is tested here as
/// soon as it is added to `AwariGame::ALL`).
fn games() -> impl Strategy<Value = AwariGame> {
    proptest::sample::select(AwariGame::ALL.to_vec())
}

/// A board of m pits per side: mostly small pits, sometimes a big one (for
/// laps), total at most 255.
fn boards() -> impl Strategy<Value = (usize, Vec<u8>)> {
    (2usize..=6).prop_flat_map(|m| {
        (
            Just(m),
            proptest::collection::vec(prop_oneof![4 => 0u8..=4, 1 => 0u8..=30], 2 * m),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    /// The engine agrees with the plain implementation on every pit, and its
    /// moves conserve seeds, empty the origin, and leave the just-moved row
    /// (the last m cells of the child board) with an empty pit.
    #[test]
    fn engine_matches_plain_rules((m, cells) in boards(), game in games()) {
        let total: u32 = cells.iter().map(|&c| c as u32).sum();
        prop_assume!(total <= 255);
        let plain = plain_turn(&cells, m, game);
        match awari_turn(&cells, m, game) {
            AwariTurn::Over { mover_gain, opponent_gain } => {
                prop_assert_eq!(plain, Err((mover_gain, opponent_gain)));
                prop_assert_eq!(mover_gain as u32 + opponent_gain as u32, total);
            }
            AwariTurn::Play(moves) => {
                let plain = plain.unwrap();
                prop_assert!(!moves.is_empty());
                let legal: Vec<usize> = (0..m).filter(|&p| plain[p] != Plain::Illegal).collect();
                let pits: Vec<usize> = moves.as_slice().iter().map(|mv| mv.pit as usize).collect();
                prop_assert_eq!(&pits, &legal);
                for mv in moves.as_slice() {
                    let pit = mv.pit as usize;
                    let Plain::Legal(captured, b, over, gain) = &plain[pit] else { unreachable!() };
                    prop_assert_eq!(mv.captured, *captured);
                    prop_assert_eq!(mv.game_over, *over);
                    prop_assert_eq!(mv.end_gain, *gain);
                    // The board comes rotated to the opponent's view.
                    let mut rotated = b[m..].to_vec();
                    rotated.extend_from_slice(&b[..m]);
                    prop_assert_eq!(&mv.board[..2 * m], &rotated[..]);
                    prop_assert!(mv.board[2 * m..].iter().all(|&c| c == 0));
                    let left: u32 = mv.board.iter().map(|&c| c as u32).sum();
                    prop_assert_eq!(left + mv.captured as u32 + mv.end_gain as u32, total);
                    if !mv.game_over {
                        prop_assert_eq!(mv.board[m + pit], 0, "origin pit emptied");
                        prop_assert!(mv.board[m..2 * m].contains(&0));
                        prop_assert!(mv.board[..m].iter().any(|&c| c > 0), "opponent can move");
                        prop_assert_eq!(mv.end_gain, 0);
                    } else {
                        prop_assert!(mv.board.iter().all(|&c| c == 0));
                    }
                    if mv.captured > 0 {
                        prop_assert!(mv.captured >= 2);
                    }
                }
            }
        }
    }
}

/// Exhaustively, every board of 2 pits per side with at most 6 seeds per pit,
/// and of 3 pits per side with at most 3 seeds per pit, in both games.
#[test]
fn engine_matches_plain_rules_exhaustively_on_small_boards() {
    for (m, top) in [(2usize, 6u8), (3, 3)] {
        let n = 2 * m;
        let mut cells = vec![0u8; n];
        loop {
            for game in AwariGame::ALL {
                let plain = plain_turn(&cells, m, game);
                match awari_turn(&cells, m, game) {
                    AwariTurn::Over {
                        mover_gain,
                        opponent_gain,
                    } => assert_eq!(plain, Err((mover_gain, opponent_gain)), "{cells:?}"),
                    AwariTurn::Play(moves) => {
                        let plain = plain.unwrap();
                        for (p, verdict) in plain.iter().enumerate() {
                            match (verdict, moves.find(p)) {
                                (Plain::Illegal, None) => {}
                                (Plain::Legal(c, _, over, gain), Some(mv)) => {
                                    assert_eq!(
                                        (mv.captured, mv.game_over, mv.end_gain),
                                        (*c, *over, *gain)
                                    );
                                }
                                (a, b) => panic!("{cells:?} pit {p}: plain {a:?}, engine {b:?}"),
                            }
                        }
                    }
                }
            }
            // Next board in odometer order.
            let mut i = 0;
            while i < n && cells[i] == top {
                cells[i] = 0;
                i += 1;
            }
            if i == n {
                break;
            }
            cells[i] += 1;
        }
    }
}
