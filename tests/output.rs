//! What the binary prints for a person: the top-level help names every
//! game, a build's per-table lines, the board against an agent.

use mancala_solver::family::Rules;

mod common;
use common::{mancala, mancala_with_input};

/// A game's name as the help writes it: `vai-lung-thlan` is "Vai Lung Thlan".
fn title(name: &str) -> String {
    name.split('-')
        .map(|w| w[..1].to_uppercase() + &w[1..])
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_top_level_help_names_every_game() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["-h", "--help"] {
        let (code, out, err) = mancala(&[flag], dir.path());
        assert_eq!(code, 0, "{err}");
        // The description (first paragraph), not only the games list below.
        let about = out.split("\n\n").next().unwrap();
        for name in Rules::game_names() {
            assert!(
                about.contains(&title(name)),
                "`mancala {flag}` does not name {}: {about}",
                title(name)
            );
        }
    }
}

#[test]
fn an_empty_table_gets_no_bits_per_position() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = mancala(
        &[
            "build",
            "kalah",
            "--pits",
            "2",
            "--max-seeds",
            "3",
            "--db",
            "t",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    // Kalah with 1 seed: every position has an empty row, so the table
    // holds none (both rows must be non-empty).
    let k1 = err.lines().find(|l| l.starts_with("k= 1:")).expect(&err);
    assert!(k1.contains(" 0 positions"), "{k1}");
    assert!(!k1.contains("bits each") && !k1.contains("M/s"), "{k1}");
    let k2 = err.lines().find(|l| l.starts_with("k= 2:")).expect(&err);
    assert!(k2.contains("bits each"), "{k2}");
}

#[test]
fn the_board_against_an_agent_numbers_both_rows() {
    // North plays first (you are North), so the agent's move is printed
    // before your first prompt.
    let (code, out, err) = mancala_with_input(
        &[
            "play", "kalah", "3", "2", "--vs", "greedy", "--you", "north",
        ],
        "q\n",
    );
    assert_eq!(code, 0, "{err}");
    let numbers = |label: &str| -> Vec<String> {
        let line = out
            .lines()
            .find(|l| l.ends_with(label))
            .unwrap_or_else(|| panic!("no line ending in {label}: {out}"));
        line.trim_end_matches(label)
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    // Each player counts its pits from its own left: the agent's row runs
    // right to left on the screen.
    assert_eq!(numbers("(agent's pit numbers)"), ["2", "1", "0"], "{out}");
    assert_eq!(numbers("(your pit numbers)"), ["0", "1", "2"], "{out}");
}

#[test]
fn a_plain_progress_log_ends_each_stage_at_its_end() {
    // Not a terminal: plain lines, here one for every step, and each stage
    // that showed lines shows where it ended before the report.
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "grade",
            "greedy",
            "--game",
            "kalah:3:2",
            "--positions",
            "20",
        ])
        .env("MANCALA_PROGRESS_SECONDS", "0")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    for stage in ["games: ", "positions: "] {
        let last = err
            .lines()
            .rfind(|l| l.starts_with(stage))
            .unwrap_or_else(|| panic!("no {stage} line: {err}"));
        assert!(last.ends_with("(100%)"), "{stage} ends at {last}: {err}");
    }
}

#[test]
fn play_against_perfect_takes_db_like_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t");
    let db = db.to_str().unwrap();
    let (code, _, err) = mancala(
        &[
            "build",
            "kalah",
            "--pits",
            "2",
            "--max-seeds",
            "4",
            "--db",
            db,
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = mancala_with_input(
        &["play", "kalah", "2", "1", "--vs", "perfect", "--db", db],
        "q\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("tables up to 4 seeds from {db}")),
        "{out}"
    );
}
