//! Messages that told the user something false or useless (issue 43,
//! fault 11): each says what is wrong and what to do, with a non-zero exit
//! code, or the input it refused is now read.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::mancala;
use common::server::{enc, Server};

/// Run `mancala` with `args` in `cwd`, killing it after `limit`: exit code,
/// stdout, stderr and the time it took. A command that outlives the limit
/// fails the test (it started work it should have refused).
fn mancala_within(args: &[&str], cwd: &Path, limit: Duration) -> (i32, String, String, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mancala");
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            child.kill().expect("kill");
            let out = child.wait_with_output().expect("output");
            panic!(
                "mancala {args:?} still running after {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = start.elapsed();
    let out = child.wait_with_output().expect("output");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        took,
    )
}

/// An error (stderr starting with "error: ") with exit code `code`,
/// containing every one of `has` and none of `lacks`.
fn expect_error(args: &[&str], cwd: &Path, code: i32, has: &[&str], lacks: &[&str]) -> String {
    let (got, out, err) = mancala(args, cwd);
    assert_eq!(got, code, "{args:?}: {out}{err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    for h in has {
        assert!(err.contains(h), "{args:?}: no {h:?} in {err}");
    }
    for l in lacks {
        assert!(!err.contains(l), "{args:?}: {l:?} in {err}");
    }
    err
}

#[test]
fn grade_says_a_kalah_board_of_7_pits_is_beyond_any_table() {
    let dir = tempfile::tempdir().unwrap();
    expect_error(
        &["grade", "greedy", "--game", "kalah:7:2", "--positions", "5"],
        dir.path(),
        2,
        &[
            "beyond any table",
            "1 to 6 pits",
            "--game kalah:6:2",
            "mancala match",
        ],
        &["mancala build", "note:"],
    );
}

#[test]
fn grade_says_awale_has_no_tables() {
    let dir = tempfile::tempdir().unwrap();
    expect_error(
        &["grade", "greedy", "--game", "awale:6:4", "--positions", "5"],
        dir.path(),
        2,
        &[
            "awale has no endgame tables",
            "mancala match greedy greedy --game awale:6:4",
        ],
        &["mancala build"],
    );
}

#[test]
fn grade_says_1200_seeds_are_beyond_any_table() {
    let dir = tempfile::tempdir().unwrap();
    expect_error(
        &[
            "grade",
            "greedy",
            "--game",
            "kalah:6:100",
            "--positions",
            "5",
        ],
        dir.path(),
        2,
        &["1200 seeds", "beyond any table", "mancala match"],
        &["mancala build", "no kalah tables"],
    );
}

#[test]
fn tune_plays_kalah_boards_of_two_byte_cells() {
    // kalah:6:22 (264 seeds) is Kalah: heuristic10 plays it, and the
    // tuner tunes it.
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = mancala(
        &[
            "tune",
            "heuristic10",
            "--game",
            "kalah:6:22",
            "--population",
            "2",
            "--generations",
            "1",
            "--depth",
            "1",
            "--out",
            "w.txt",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{out}{err}");
    let weights = std::fs::read_to_string(dir.path().join("w.txt")).unwrap();
    assert!(weights.contains("game=kalah:6:22"), "{weights}");
    // Another game is still refused, saying which games are.
    expect_error(
        &["tune", "heuristic10", "--game", "awari:6:4"],
        dir.path(),
        2,
        &["tuned on Kalah", "kalah:M:N"],
        &[],
    );
}

#[test]
fn verify_names_one_build_of_every_table_needed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("db")).unwrap();
    expect_error(
        &["verify", "kalah", "--pits", "3", "--seeds", "5"],
        dir.path(),
        1,
        &["mancala build kalah --pits 3 --max-seeds 5`"],
        &["--max-seeds 1`"],
    );
}

#[test]
fn a_file_given_for_a_folder_is_named_as_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("FILE"), "keep me").unwrap();
    std::fs::write(d.join("input.txt"), "1\n1\n2\n3 3 3\n3 3 3\n0\n0\n").unwrap();
    for args in [
        &[
            "build",
            "kalah",
            "--pits",
            "2",
            "--max-seeds",
            "2",
            "--db",
            "FILE",
        ][..],
        &[
            "build",
            "kalah",
            "--pits",
            "2",
            "--max-seeds",
            "2",
            "--db",
            "FILE/sub",
        ],
        &["assignment", "input.txt", "--out-dir", "FILE"],
        &["assignment", "input.txt", "--out-dir", "FILE/out"],
    ] {
        let err = expect_error(
            args,
            d,
            2,
            &["FILE is a file, not a folder"],
            &["os error", "File exists"],
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    assert_eq!(std::fs::read_to_string(d.join("FILE")).unwrap(), "keep me");
}

#[test]
fn a_byte_order_mark_is_read_or_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // An assignment input saved with a byte-order mark.
    std::fs::write(d.join("input.txt"), "\u{feff}1\n1\n2\n3 3 3\n3 3 3\n0\n0\n").unwrap();
    let (code, out, err) = mancala(&["assignment", "input.txt", "--out-dir", "out"], d);
    assert_eq!(code, 0, "{out}{err}");
    assert!(d.join("out/next_state.txt").is_file());
    // A weights file saved with one.
    std::fs::write(d.join("w.txt"), "\u{feff}1 0 0 0 0 0 0 0 0 0\n").unwrap();
    let (code, out, err) = mancala(
        &[
            "match",
            "heuristic10:1:weights=w.txt",
            "greedy",
            "--games",
            "2",
        ],
        d,
    );
    assert_eq!(code, 0, "{out}{err}");
    // A position pasted from such a file.
    let (code, out, err) = mancala(
        &["play", "kalah", "--position", "\u{feff}1 0 1 0 1 0 1 0"],
        d,
    );
    assert_eq!(code, 0, "{out}{err}");
    // Anywhere else it is named, not printed invisibly.
    std::fs::write(
        d.join("input2.txt"),
        "1\n\u{feff}1\n2\n3 3 3\n3 3 3\n0\n0\n",
    )
    .unwrap();
    expect_error(
        &["assignment", "input2.txt", "--out-dir", "out2"],
        d,
        2,
        &["line 2", "\"<U+FEFF>1\""],
        &["\u{feff}"],
    );
}

#[test]
fn an_empty_weights_file_is_not_blamed_on_line_0() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("empty.txt"), "").unwrap();
    std::fs::write(d.join("three.txt"), "# three\n0.1 0.2\n0.3\n").unwrap();
    expect_error(
        &["match", "heuristic10:2:weights=empty.txt", "greedy"],
        d,
        2,
        &["empty.txt: the file is empty", "ten numbers"],
        &["line 0"],
    );
    expect_error(
        &["match", "heuristic10:2:weights=three.txt", "greedy"],
        d,
        2,
        &["three.txt: 3 weights, not ten"],
        &["line 0"],
    );
}

#[test]
fn an_absurd_memory_size_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    expect_error(
        &[
            "build",
            "kalah",
            "--pits",
            "2",
            "--max-seeds",
            "2",
            "--memory",
            "99999999T",
        ],
        dir.path(),
        2,
        &["\"99999999T\" is too large", "1024T"],
        &["16777216"],
    );
    assert!(!dir.path().join("db").exists());
}

#[test]
fn the_server_plays_large_kalah_boards_with_agents_that_need_no_solve() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let (status, start) = s.json("/api/v1/start?game=kalah:10:1000");
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["south"][0], 1000);
    for agent in ["greedy", "alphabeta:2"] {
        let (status, mv) = s.json(&format!("/api/v1/agent?game=kalah:10:1000&agent={agent}"));
        assert_eq!(status, 200, "{agent}: {mv}");
        let pit = mv["move"].as_u64().unwrap();
        let (status, played) = s.json(&format!("/api/v1/play?game=kalah:10:1000&moves={pit}"));
        assert_eq!(status, 200, "{played}");
        assert_eq!(mv["after"], played, "{agent}");
    }
    // From a position given, too.
    let position = enc("0 900 900 0 1000 1000 1000 0");
    let (status, mv) = s.json(&format!(
        "/api/v1/agent?game=kalah:3:800&agent=greedy&position={position}"
    ));
    assert_eq!(status, 200, "{mv}");
    assert_ne!(mv["move"], 0, "pit 0 is empty: {mv}");
    assert_eq!(mv["after"]["moves_played"], 1);
    // What needs a solve says so.
    let (status, e) = s.json("/api/v1/agent?game=kalah:10:1000&agent=perfect");
    assert_eq!(status, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("255 seeds"), "{e}");
    let (status, e) = s.json("/api/v1/query?game=kalah:10:1000");
    assert_eq!(status, 400, "{e}");
    let e = e["error"].as_str().unwrap();
    assert!(e.contains("needs a solve") && e.contains("greedy"), "{e}");
    assert!(!e.contains("not solved"), "{e}");
}

#[test]
fn games_show_no_table_range_for_a_game_without_tables() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    let (status, games) = s.json("/api/v1/games");
    assert_eq!(status, 200);
    let game = |name: &str| {
        games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {games}"))
    };
    assert!(game("awale")["table_pits"].is_null(), "{games}");
    assert_eq!(game("kalah")["table_pits"], serde_json::json!([1, 6]));
}

#[test]
fn solve_refuses_a_large_build_and_names_its_size_and_command() {
    // 24 seeds on an Awari board: 1.25 billion boards to build (about
    // 0.6 GiB of disk, 2 GiB of memory, an hour on two cores).
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err, _) = mancala_within(
        &["solve", "awari", "0 0 2 2 2 2 2 2 2 2 4 4", "--time", "5"],
        dir.path(),
        Duration::from_secs(60),
    );
    // Not built: the note names the build, and the exact search answers
    // (a value or proven bounds within --time).
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("exact search"), "{out}");
    for needle in [
        "up to 24 seeds",
        "1251083925 boards",
        "GiB of memory",
        "`mancala build awari --pits 6 --max-seeds 24`",
    ] {
        assert!(err.contains(needle), "no {needle:?} in {err}");
    }
    assert!(!dir.path().join("db").join("awari-m6-k1.tbl").exists());
}

#[test]
fn solve_time_bounds_the_tables_built_on_first_use() {
    // 17 seeds: 52 million boards, built on first use (below the on-demand
    // limit), far longer than one second.
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err, took) = mancala_within(
        &["solve", "awari", "0 0 1 1 1 1 1 1 1 2 4 4", "--time", "1"],
        dir.path(),
        Duration::from_secs(30),
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    let last = err.trim().lines().last().unwrap();
    assert!(
        last.starts_with("error: --time 1 s ran out")
            && last.contains("`mancala build awari --pits 6 --max-seeds 17`"),
        "{err}"
    );
    // What was finished is kept and sound.
    assert!(dir.path().join("db").join("awari-m6-k1.tbl").exists());
}
