//! Vai Lung Thlan's other readings of its rules (`skip-origin`,
//! `chain-own-row`, `play-to-end`): each changes its one rule on a
//! hand-made position and nothing else, the default reading plays as
//! before, and tables for the other readings are refused in words.

mod common;

use common::mancala;
use mancala_solver::game::Game;
use mancala_solver::play::state::State;
use mancala_solver::vai_lung_thlan::{VaiLungThlan, VltReading};
use mancala_solver::{GameSpec, Rules};

/// Play `pit` of `text` under `game`: the seeds captured, the position
/// after it and whether the game is over.
fn after(game: VaiLungThlan, text: &str, pit: usize) -> (u32, String, bool) {
    let mut pos = game.parse(text).unwrap();
    let step = game.play(&mut pos, pit).unwrap();
    (step.captured.into(), pos.to_string(), step.game_over)
}

#[test]
fn the_readings_are_named_rule_sets_of_the_game() {
    for (name, reading) in [
        ("skip-origin", VltReading::SkipOrigin),
        ("chain-own-row", VltReading::ChainOwnRow),
        ("play-to-end", VltReading::PlayToEnd),
    ] {
        let spec: GameSpec = format!("vai-lung-thlan:6:5:{name}").parse().unwrap();
        assert_eq!(spec.rules, Rules::VaiLungThlanReading(reading));
        assert_eq!(spec.to_string(), format!("vai-lung-thlan:6:5:{name}"));
        assert_eq!(
            Rules::from_name("vai-lung-thlan", Some(name)).unwrap(),
            spec.rules
        );
        // A match state plays under the reading it was started with.
        let state = State::start(spec.rules, 6, 5).unwrap();
        assert_eq!(state.rules(), spec.rules);
    }
    // The default is the game as it was: the same name and rules.
    let spec: GameSpec = "vai-lung-thlan:6:5".parse().unwrap();
    assert_eq!(spec.rules, Rules::VaiLungThlan);
    assert_eq!(
        Rules::from_name("vai-lung-thlan", Some("default")).unwrap(),
        Rules::VaiLungThlan
    );
    // A name that is no reading is refused, naming the readings.
    let err = Rules::from_name("vai-lung-thlan", Some("skip")).unwrap_err();
    assert!(err.is_usage());
    let text = err.to_string();
    assert!(
        text.contains("skip-origin") && text.contains("play-to-end"),
        "{text}"
    );
    assert!(!text.contains("Kalah"), "{text}");
}

#[test]
fn skip_origin_leaves_the_origin_out_of_a_lap() {
    // 2 pits a side, `4 0 | 0 0`: pit 0's 4 seeds go round the board.
    // Default: the origin takes the fourth seed, an empty pit: all four
    // single seeds are captured and the game is over.
    assert_eq!(
        after(VaiLungThlan, "4 0 0 0 0 0", 0),
        (4, "0 0 4 0 0 0".to_string(), true)
    );
    // skip-origin: the fourth seed skips the origin and falls in pit 1,
    // which holds one already: nothing is captured.
    let skip = VaiLungThlan::read_as(VltReading::SkipOrigin);
    // North moves next: its row (1 1), then South's (0 2).
    assert_eq!(
        after(skip, "4 0 0 0 0 0", 0),
        (0, "1 1 0 0 2 0".to_string(), false)
    );
    // Without a lap it plays as the default.
    assert_eq!(
        after(skip, "3 0 0 0 0 2 5 0", 0),
        after(VaiLungThlan, "3 0 0 0 0 2 5 0", 0)
    );
}

#[test]
fn chain_own_row_keeps_the_capture_chain_in_one_row() {
    // 3 pits a side: pit 0 (3 seeds) sows into the mover's pits 1 and 2
    // and the opponent's empty pit 0. Default: that seed, then the single
    // seeds of the mover's pits 2 and 1 (3).
    assert_eq!(
        after(VaiLungThlan, "3 0 0 0 0 2 5 0", 0),
        (3, "0 2 5 0 0 0 0 3".to_string(), false)
    );
    // chain-own-row: the chain stops at the edge of the opponent's row.
    let own = VaiLungThlan::read_as(VltReading::ChainOwnRow);
    assert_eq!(
        after(own, "3 0 0 0 0 2 5 0", 0),
        (1, "0 2 5 0 0 1 1 1".to_string(), false)
    );
    // Within one row it runs back as in the default: pit 2's 3 seeds make
    // the opponent's row 2 1 1, the last in its empty pit 2: pits 2 and 1
    // are taken, up to the pit of 2.
    for game in [own, VaiLungThlan] {
        assert_eq!(
            after(game, "0 0 3 0 1 0 0 0", 2),
            (2, "2 0 0 0 0 0 0 2".to_string(), false)
        );
    }
}

#[test]
fn play_to_end_does_not_stop_past_half() {
    // 6 seeds; South's capture makes 4 of 6: the default ends the game.
    let (c, _, over) = after(VaiLungThlan, "1 0 0 3 1 1 0 0", 0);
    assert_eq!((c, over), (1, true));
    // play-to-end plays on: North moves next.
    let end = VaiLungThlan::read_as(VltReading::PlayToEnd);
    let (c, pos, over) = after(end, "1 0 0 3 1 1 0 0", 0);
    assert_eq!((c, over), (1, false));
    assert_eq!(pos, "1 1 0 0 0 0 0 4");
    let mut p = end.parse("1 0 0 3 1 1 0 0").unwrap();
    end.play(&mut p, 0).unwrap();
    assert!(!end.is_over(&p) && VaiLungThlan.is_over(&p));
}

#[test]
fn the_readings_have_no_tables_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["skip-origin", "chain-own-row", "play-to-end"] {
        let game = format!("vai-lung-thlan:3:2:{name}");
        let (code, out, err) = mancala(
            &["solve", &game, "--db", dir.path().to_str().unwrap()],
            dir.path(),
        );
        assert_ne!(code, 0, "{out}{err}");
        assert!(
            err.contains(&format!("vai-lung-thlan:{name} has no endgame tables"))
                && err.contains("only the default reading"),
            "{err}"
        );
        assert!(!err.contains("panicked") && !err.contains("{"), "{err}");
        // Matches play it.
        let (code, out, err) = mancala(
            &[
                "match", "random", "greedy", "--game", &game, "--games", "4", "--seed", "1",
            ],
            dir.path(),
        );
        assert_eq!(code, 0, "{out}{err}");
    }
}
