//! Faults found by a hostile probe and by a newcomer's first hour (issue
//! 59): the Awari search's checkpoints (bounds that cross or lie outside
//! the board, a head that kept the root's old bounds), and the command
//! line's board words, messages and help texts.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

mod common;
use common::mancala;

use mancala_solver::awari::position::AwariPosition;
use mancala_solver::awari::rules::AwariGame;
use mancala_solver::error::Error;
use mancala_solver::search::awari::solve_awari;
use mancala_solver::search::cyclic::{CheckpointTo, CyclicCheckpoint, CyclicOptions, Wanted};

/// A board of 42 seeds whose last pit captures 2 (its one seed makes the
/// opponent's first pit 2).
const CAPTURE_BOARD: &str = "4 4 4 4 4 1 1 4 4 4 4 4";

/// A checkpoint of the search of `CAPTURE_BOARD` written into `dir`
/// (stopped at once, so its root bounds are the board's whole range), and
/// the options that wrote it.
fn stopped_checkpoint(dir: &std::path::Path, wanted: Wanted) -> (std::path::PathBuf, i32, i32) {
    let path = dir.join("awari.ck");
    let game = AwariGame::Awari;
    let pos = game_pos(CAPTURE_BOARD);
    let options = CyclicOptions {
        tt_mb: 4,
        stop: Some(Arc::new(AtomicBool::new(true))),
        checkpoint: Some(CheckpointTo {
            path: path.clone(),
            identity: String::new(),
            every: Duration::ZERO,
        }),
        ..CyclicOptions::default()
    };
    let sol = solve_awari(game, &pos, None, Some(0), wanted, &options).unwrap();
    assert_eq!(sol.value, None, "the search was stopped");
    assert!(sol.checkpoints >= 1 && sol.checkpoint_error.is_none());
    (path, sol.lower, sol.upper)
}

fn game_pos(text: &str) -> AwariPosition {
    use mancala_solver::game::Game;
    AwariGame::Awari.parse(text).unwrap()
}

/// The file at `path` with its head's bounds and guess replaced, its
/// checksum made right again (a file that only a wrong writer or a hand
/// could make).
fn rewrite_head(path: &std::path::Path, lower: i32, upper: i32, guess: i32) {
    let bytes = std::fs::read(path).unwrap();
    let body = &bytes[..bytes.len() - 4];
    let first = body.iter().position(|&b| b == b'\n').unwrap() + 1;
    let second = first + body[first..].iter().position(|&b| b == b'\n').unwrap();
    let mut head: serde_json::Value = serde_json::from_slice(&body[first..second]).unwrap();
    head["lower"] = lower.into();
    head["upper"] = upper.into();
    head["guess"] = guess.into();
    let mut out = body[..first].to_vec();
    out.extend_from_slice(head.to_string().as_bytes());
    out.extend_from_slice(&body[second..]);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    std::fs::write(path, out).unwrap();
}

/// A checkpoint whose checksum is right but whose head's bounds cross
/// (lower above upper) or lie outside the board's seeds is refused with a
/// message, by the library and by `mancala solve --resume`; the search
/// used to panic in `clamp` (`min > max`).
#[test]
fn an_awari_checkpoint_with_impossible_bounds_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _, _) = stopped_checkpoint(dir.path(), Wanted::VALUE);
    let game = AwariGame::Awari;
    let pos = game_pos(CAPTURE_BOARD);
    // 42 seeds on the board: bounds within -42..=42.
    for (lower, upper, guess) in [
        (1000, 1000, 0),
        (5, -5, 0),
        (-43, 0, 0),
        (0, 43, 0),
        (0, 2, 99),
    ] {
        rewrite_head(&path, lower, upper, guess);
        let how = format!("bounds {lower}..{upper}, guess {guess}");
        let refused = match CyclicCheckpoint::read(&path) {
            Err(e) => e,
            Ok(ck) => {
                let options = CyclicOptions {
                    tt_mb: 4,
                    resume: Some(Arc::new(ck)),
                    ..CyclicOptions::default()
                };
                solve_awari(game, &pos, None, Some(0), Wanted::VALUE, &options).unwrap_err()
            }
        };
        assert!(
            matches!(refused, Error::BadCheckpoint { .. }),
            "{how}: {refused}"
        );
        let (code, _, err) = mancala(
            &[
                "solve",
                "awari",
                CAPTURE_BOARD,
                "--no-tables",
                "--time",
                "5",
                "--tt-mb",
                "4",
                "--resume",
                path.to_str().unwrap(),
            ],
            dir.path(),
        );
        assert_eq!(code, 1, "{how}: {err}");
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("error: ") && last.contains("bounds") && !err.contains("panicked"),
            "{how}: {err}"
        );
    }
}

/// The checkpoint written at the end of a solve holds the bounds the solve
/// reports: the moves' values narrow the root's bounds after its own
/// search stopped, and the head used to keep the root's old ones (the
/// whole range, -42..42 here, where the solve proved -38 at least).
#[test]
fn an_awari_checkpoint_keeps_the_bounds_the_moves_proved() {
    let dir = tempfile::tempdir().unwrap();
    let (path, lower, upper) = stopped_checkpoint(dir.path(), Wanted::ALL);
    // Pit 5 captures 2 of the 42 seeds: the board is worth at least
    // 2 - 40.
    assert!(lower >= -38, "{lower}");
    let ck = CyclicCheckpoint::read(&path).unwrap();
    assert_eq!((ck.head.lower, ck.head.upper), (lower, upper));
    assert!(ck.head.lower <= ck.head.guess && ck.head.guess <= ck.head.upper);
}

/// `query` takes a position as separate words, as `solve` does (the two
/// share one parser), and `M N` for the start; `query kalah 1 0 2 ...`
/// said "unexpected argument '0'".
#[test]
fn query_takes_a_position_as_words_like_solve() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let db = db.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--db", db, "--json"]);
        let (code, out, err) = mancala(&all, dir.path());
        assert_eq!(code, 0, "{args:?}: {err}");
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
        untimed(&mut v);
        v
    };
    for (command, game, board) in [
        ("query", "kalah", "1 0 2 0 3 1 0 0"),
        ("solve", "kalah", "1 0 2 0 3 1 0 0"),
        ("query", "oware", "0 1 3 [20] 2 0 0 [22]"),
        ("solve", "oware", "0 1 3 [20] 2 0 0 [22]"),
    ] {
        let quoted = run(&[command, game, board]);
        let mut words = vec![command, game];
        words.extend(board.split(' '));
        assert_eq!(run(&words), quoted, "{command} {game} {board} as words");
    }
    // M N: the start of the game, as `solve kalah 3 2` names it.
    assert_eq!(
        run(&["query", "kalah", "3", "2"]),
        run(&["query", "kalah", "2 2 2 0 2 2 2 0"])
    );
    assert_eq!(
        run(&["query", "kalah:3:2"]),
        run(&["query", "kalah", "2 2 2 0 2 2 2 0"])
    );
}

/// `v` without its times (the keys that end in "seconds").
fn untimed(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            map.retain(|k, _| !k.ends_with("seconds"));
            map.values_mut().for_each(untimed);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(untimed),
        _ => {}
    }
}

/// The pits without the seeds (`solve kalah 6`) asks for the seeds per
/// pit and shows the form; it said `bad position "6": 1 entries`.
#[test]
fn pits_without_seeds_ask_for_the_seeds() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["solve", "kalah", "6"][..],
        &["solve", "awari", "4"],
        &["query", "kalah", "6"],
        &["query", "oware", "5"],
        &["query", "kalah:6"],
    ] {
        let (code, _, err) = mancala(args, dir.path());
        assert_eq!(code, 2, "{args:?}: {err}");
        let (command, game) = (args[0], args[1].split(':').next().unwrap());
        let pits = args.last().unwrap().rsplit(':').next().unwrap();
        assert!(
            err.contains("seeds per pit")
                && err.contains(&format!("`{command} {game} {pits} N`"))
                && !err.contains("entries"),
            "{args:?}: {err}"
        );
    }
    assert!(!std::path::Path::new(&dir.path().join("db")).exists());
}

/// An unknown agent's message lists the agents one a line (it was one line
/// of some 600 characters), and `play -h`, `match -h` and `tournament -h`
/// list every agent of the registry (`play -h` listed none).
#[test]
fn the_agents_are_listed_one_a_line_in_errors_and_help() {
    use mancala_solver::play::agents::{agent_line, AGENTS};
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["match", "foo", "random", "--games", "2"][..],
        &["tournament", "random", "foo", "--games", "2"],
        &["play", "kalah", "3", "2", "--vs", "foo"],
    ] {
        let (code, _, err) = mancala(args, dir.path());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("unknown agent \"foo\""), "{err}");
        for a in AGENTS {
            assert!(
                err.contains(&agent_line(a)),
                "{args:?}: {} missing: {err}",
                a.form
            );
        }
        assert!(
            err.lines().all(|l| l.chars().count() <= 120),
            "{args:?}: {err}"
        );
    }
    for command in ["play", "match", "tournament"] {
        let (code, out, err) = mancala(&[command, "-h"], dir.path());
        assert_eq!(code, 0, "{err}");
        for a in AGENTS {
            assert!(
                out.contains(&agent_line(a)),
                "{command} -h: {} missing: {out}",
                a.form
            );
        }
    }
}

/// What a newcomer needs before the first command is in the README: the
/// Rust version Cargo.toml asks for, and a C compiler when a dependency
/// compiles C (zstd's library, through the `cc` crate).
#[test]
fn the_readme_says_what_building_needs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap();
    let (readme, manifest, lock) = (read("README.md"), read("Cargo.toml"), read("Cargo.lock"));
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("Cargo.toml has a rust-version")
        .trim_matches('"');
    let needs = readme
        .split("## Install")
        .nth(1)
        .expect("README has the section \"Install\"")
        .split("\n## ")
        .next()
        .unwrap();
    assert!(
        needs.contains(&format!("Rust {version} or newer")),
        "README does not give the Rust version of Cargo.toml ({version})"
    );
    if lock.contains("name = \"zstd-sys\"") {
        assert!(
            needs.contains("a C compiler"),
            "README does not say a C compiler is needed"
        );
    }
    assert!(
        needs.contains("GB of disk"),
        "README does not give the disk needed"
    );
}
