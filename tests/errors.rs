//! Errors by kind (issue 64): a usage error exits 2 with a message naming
//! its cause; a game's name is read by one grammar, the engine's, so that
//! the command line and the library's `GameSpec` say the same about a bad
//! one. (An internal error's exit 1 and HTTP 500 are unit tests of the
//! mappings: src/cli/render.rs, src/cli/serve/tests.rs; Python's
//! `InternalError` is in python/tests/test_api.py.)

mod common;

use common::mancala;
use mancala_solver::GameSpec;

/// Representative usage errors, one of each kind: exit 2, the cause in
/// words, no panic and no debug dump.
#[test]
fn usage_errors_exit_2_and_name_their_cause() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        // A bad game name, each part of it.
        (&["play", "chess:8:8"], "bad game \"chess:8:8\": unknown game \"chess\""),
        (
            &["play", "kalah:x:4"],
            "bad game \"kalah:x:4\": pits per side \"x\" is not a whole number",
        ),
        (
            &["play", "kalah:6:4:5"],
            "bad game \"kalah:6:4:5\": too many parts for kalah",
        ),
        (&["play", "kalah:6:4:nonesuch"], "unknown rules \"nonesuch\""),
        // Things given twice that disagree.
        (
            &["play", "kalah:4:3", "5", "3"],
            "the game says 4 and pits per side 5: give one",
        ),
        (
            &[
                "build",
                "kalah:4:capture-needs-opposite",
                "--rules",
                "end-when-mover-empty",
                "--max-seeds",
                "1",
                "--db",
                db,
            ],
            "the game names the rules capture-needs-opposite and --rules end-when-mover-empty: give one",
        ),
        (
            &["solve", "kalah:4:3", "4", "3", "--db", db],
            "the game's name gives the board (kalah:M:N): drop the board after it",
        ),
        // A board beyond the game's range.
        (
            &["play", "awari:9:4"],
            "9 pits per side: Awari and Oware are played on",
        ),
        // Tables for a game that has none.
        (
            &["build", "awale", "--pits", "3", "--max-seeds", "1", "--db", db],
            "awale has no endgame tables",
        ),
        // An option out of its range.
        (
            &["solve", "kalah", "4", "3", "--max-table-seeds", "99", "--db", db],
            "--max-table-seeds 99: tables go up to",
        ),
    ];
    for (args, words) in cases {
        let (code, out, err) = mancala(args, d);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(words), "{args:?}: {err}");
        for dump in [
            "panicked",
            "Unsupported(",
            "OutOfRange(",
            "Conflict(",
            " { ",
        ] {
            assert!(!err.contains(dump), "{args:?}: {err}");
        }
    }
}

/// The command line's game names and the library's `GameSpec` are read by
/// one parser: a bad name gets the same message from both.
#[test]
fn a_bad_game_name_has_one_message_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "chess:8:8",
        "kalah:x:4",
        "kalah:6:y:default",
        "kalah:-3",
        "kalah:6:4:5",
        "kalah:6:4:nonesuch",
        "awale:6:4:capture-needs-opposite",
    ] {
        let engine = name.parse::<GameSpec>().unwrap_err().to_string();
        assert!(
            engine.starts_with(&format!("bad game \"{name}\": ")),
            "{engine}"
        );
        let (code, _, err) = mancala(&["play", name], dir.path());
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains(&engine),
            "{name}:\ncli: {err}\nengine: {engine}"
        );
        let (code, _, err) = mancala(&["match", "greedy", "random", "--game", name], dir.path());
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains(&engine),
            "{name}:\nmatch: {err}\nengine: {engine}"
        );
    }
}
