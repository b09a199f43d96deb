//! `mancala play awari|oware`: positions reached, captured totals, the end
//! of the game, and one-line usage errors (exit code 2) for bad input.

mod common;
use common::mancala;

fn json(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = mancala(args, dir.path());
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn play_awari_prints_the_position_reached() {
    // Worked by hand: South's pit 2 sows 4 seeds into its pits 3-5 and
    // North's pit 0; North's pit 5 sows South's pits 0-3 (the last lands on
    // 6: no capture); South's pit 0 sows its pits 1-5. North to move sees
    // its row 5 4 4 4 4 0 and South's 0 6 2 7 6 6.
    let v = json(&["play", "awari", "6", "4", "--moves", "2-5-0", "--json"]);
    assert_eq!(v["position"], "5 4 4 4 4 0 0 6 2 7 6 6");
    assert_eq!(v["to_move"], "north");
    assert_eq!(v["stores"], serde_json::json!([0, 0]));
    assert_eq!(v["game_over"], false);
    assert_eq!(v["game"], "awari");
}

#[test]
fn play_captures_and_game_end() {
    // Awari(2,2): pit 0 makes North's first pit 3 and takes it (pit 1 would
    // be a grand slam, illegal here).
    let v = json(&["play", "awari", "2", "2", "--moves", "0", "--json"]);
    assert_eq!(v["stores"], serde_json::json!([3, 0]));
    assert_eq!(v["position"], "0 2 [0] 0 3 [3]");
    // North's pit 1 sows South's pits 0 and 1, which then hold 1 and 4:
    // Awari takes nothing; Oware takes the 4, and South's pit 0 holding 1
    // stops the chain. Then South's single seed cannot reach North's empty
    // row: the game ends and South takes it, 4-4.
    let a = json(&["play", "awari", "2", "2", "--moves", "0-1", "--json"]);
    assert_eq!(a["stores"], serde_json::json!([3, 0]));
    assert_eq!(a["position"], "1 4 [3] 0 0 [0]");
    let o = json(&["play", "oware", "2", "2", "--moves", "0-1", "--json"]);
    assert_eq!(o["stores"], serde_json::json!([4, 4]));
    assert_eq!(o["position"], "0 0 [4] 0 0 [4]");
    assert_eq!(o["game_over"], true);
    assert_eq!(a["game_over"], false);
    // A forced grand slam ends the game: the mover takes 5 and its last seed.
    let v = json(&[
        "play",
        "awari",
        "--position",
        "0 5 [10] 0 1 [7]",
        "--moves",
        "1",
        "--json",
    ]);
    assert_eq!(v["stores"], serde_json::json!([16, 7]));
    assert_eq!(v["game_over"], true);
    assert_eq!(v["position"], "0 0 [7] 0 0 [16]");
    // A set-up position whose mover has an empty row is over: North takes
    // the seeds left.
    let v = json(&["play", "oware", "--position", "0 0 1 2", "--json"]);
    assert_eq!(v["game_over"], true);
    assert_eq!(v["stores"], serde_json::json!([0, 3]));
    // The text form names the winner.
    let dir = tempfile::tempdir().unwrap();
    let (code, out, _) = mancala(&["play", "oware", "--position", "0 0 1 2"], dir.path());
    assert_eq!(code, 0);
    assert!(out.contains("game over: North wins"), "{out}");
    assert!(out.contains("captured: South 0 North 3"), "{out}");
}

#[test]
fn bad_awari_input_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: &[(&[&str], &str)] = &[
        (
            &["play", "awari", "6", "4", "--moves", "25"],
            "dash between moves",
        ),
        (
            &["play", "awari", "6", "4", "--moves", "2-5-"],
            "ends with a dash",
        ),
        (
            &["play", "awari", "6", "4", "--moves", "2-x"],
            "character 3",
        ),
        (
            &["play", "awari", "6", "4", "--moves", "6"],
            "pit 6 does not exist",
        ),
        (
            &["play", "oware", "6", "4", "--moves", "0-0-0"],
            "pit 0 is empty",
        ),
        (&["play", "awari", "2", "2", "--moves", "1"], "grand slam"),
        (
            &["play", "awari", "--position", "1 0 1 0 0 0", "--moves", "0"],
            "does not feed",
        ),
        (&["play", "awari", "7", "4"], "2 to 6 pits"),
        (&["play", "oware", "1", "4"], "2 to 6 pits"),
        (&["play", "awari", "6", "22"], "at most 255"),
        (&["play", "awari"], "give the board"),
        (&["play", "awari", "--position", "4 4 4"], "3 entries"),
        (
            &["play", "awari", "--position", "4 x 4 4"],
            "not a whole number",
        ),
        (&["play", "awari", "--position", "4 -1 4 4"], "negative"),
        (
            &["play", "awari", "--position", "256 0 0 0"],
            "more than the 255",
        ),
        (
            &["play", "awari", "--position", "1 1 1 1 1 1 1 1 1 1 1 1 1 1"],
            "at most 6",
        ),
        (
            &["play", "awari", "6", "4", "--vs", "randm"],
            "unknown agent \"randm\"",
        ),
    ];
    for (args, needle) in cases {
        let (code, _out, err) = mancala(args, d);
        assert_eq!(code, 2, "{args:?}: exit {code}, stderr: {err}");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        assert!(
            err.contains(needle),
            "{args:?}: stderr lacks \"{needle}\": {err}"
        );
        // (An unknown agent's message is followed by the agents, one a
        // line: tests/faults_newcomer.rs.)
        let message = err.split("; agents:\n").next().unwrap();
        let lines: Vec<_> = message.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), 1, "{args:?}: one error line expected: {err}");
    }
}
