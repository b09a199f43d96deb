//! Ohvalhu and Vai Lung Thlan: every table entry of small boards against
//! plain reference solvers written here, no endless sowing in Ohvalhu, the
//! perfect agent, and the command line (solve, play, query, bad input).

mod common;

use common::mancala;
use common::sowing_reference::{boards_with, vai_lung_thlan_values, OhvalhuReference};
use mancala_solver::kalah::position::Position;
use mancala_solver::ohvalhu::{ohvalhu_move, Ohvalhu};
use mancala_solver::vai_lung_thlan::VaiLungThlan;
use mancala_solver::{BuildSettings, OnDemand, Side, TableSet};

/// The Kalah-board position of a board (`2m` pits, mover first), stores
/// empty, South to move.
fn position(board: &[u8]) -> Position {
    let m = board.len() / 2;
    let mut cells = board[..m].to_vec();
    cells.push(0);
    cells.extend_from_slice(&board[m..]);
    cells.push(0);
    Position::from_cells(&cells, Side::South).unwrap()
}

#[test]
fn every_ohvalhu_table_entry_matches_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    for (m, k) in [(2, 12), (3, 12), (4, 8)] {
        let set = TableSet::open_or_build(
            dir.path(),
            Ohvalhu,
            m,
            k,
            &OnDemand::UpTo(u64::MAX),
            &BuildSettings::default(),
        )
        .unwrap();
        let mut reference = OhvalhuReference::new();
        let mut checked = 0;
        for s in 1..=k {
            for b in boards_with(2 * m, s) {
                if b[..m].iter().all(|&c| c == 0) {
                    continue;
                }
                let want = reference.value(&b[..m], &b[m..]);
                let got = set.value(&position(&b)).unwrap();
                assert_eq!(got, want, "ohvalhu {m} pits, board {b:?}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}

#[test]
fn every_vai_lung_thlan_table_entry_matches_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    for (m, k) in [(2, 10), (3, 9)] {
        let set = TableSet::open_or_build(
            dir.path(),
            VaiLungThlan,
            m,
            k,
            &OnDemand::UpTo(u64::MAX),
            &BuildSettings::default(),
        )
        .unwrap();
        let values = vai_lung_thlan_values(m, k);
        let (mut checked, mut nonzero) = (0, 0);
        for (b, &want) in &values {
            if b.iter().all(|&c| c == 0) {
                continue;
            }
            let got = set.rows_value(&b[..m], &b[m..]).unwrap();
            assert_eq!(got, want, "vai-lung-thlan {m} pits, board {b:?}");
            checked += 1;
            nonzero += usize::from(want != 0);
        }
        assert!(checked > 500 && nonzero > 100, "{checked} {nonzero}");
    }
}

#[test]
fn no_ohvalhu_sowing_is_endless() {
    // Every move of every board of up to 10 seeds on 2 to 4 pits a side
    // ends within the bound of the module documentation.
    let mut longest = 0;
    for m in 2..=4 {
        for s in 1..=10 {
            for b in boards_with(2 * m, s) {
                for pit in 0..m {
                    if b[pit] == 0 {
                        continue;
                    }
                    let mut cells = position(&b).cells().to_vec();
                    let mv = ohvalhu_move(&mut cells, m, pit);
                    assert!(
                        mv.steps <= (s as u32 + 1) * (2 * m as u32 + 1),
                        "{b:?} {pit}"
                    );
                    longest = longest.max(mv.steps);
                }
            }
        }
    }
    assert!(longest > 20, "relay sowing goes round: {longest}");
}

#[test]
fn the_perfect_agent_plays_the_table_move_and_wins_matches() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for (game, name) in [
        ("ohvalhu:3:2", "ohvalhu"),
        ("vai-lung-thlan:3:2", "vai-lung-thlan"),
    ] {
        // `solve` builds the tables the agent reads.
        let (code, _, err) = mancala(&["solve", name, "3", "2", "--db", d], dir.path());
        assert_eq!(code, 0, "{game}: {err}");
        let (code, out, err) = mancala(
            &[
                "match",
                "--game",
                game,
                "perfect:20ms",
                "random",
                "--games",
                "20",
                "--seed",
                "3",
                "--db",
                d,
                "--json",
            ],
            dir.path(),
        );
        assert_eq!(code, 0, "{game}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["perfect_mode"], "tables, then search", "{out}");
        // South's start is worth >= 0 in both: as South the perfect agent
        // never loses; as North it can lose when South plays well.
        assert_eq!(v["a_as_south"]["losses"], 0, "{game}: {out}");
        assert!(v["a_wins"].as_u64() > v["b_wins"].as_u64(), "{game}: {out}");
    }
}

#[test]
fn solve_prints_the_value_and_every_opening_move() {
    let dir = tempfile::tempdir().unwrap();
    for (game, value) in [("ohvalhu", 12), ("vai-lung-thlan", 0)] {
        let (code, out, err) = mancala(&["solve", game, "3", "3", "--json"], dir.path());
        assert_eq!(code, 0, "{game}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["value"], value, "{game}: {out}");
        assert_eq!(v["moves"].as_array().unwrap().len(), 3, "{out}");
        let best = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["value"].as_i64().unwrap())
            .max()
            .unwrap();
        assert_eq!(best, value);
        assert!(v["pv"].is_string() || v["pv"].is_object(), "{out}");
    }
}

#[test]
fn play_follows_turns_and_bad_input_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    // Ohvalhu: a move into the store gives an extra turn, written together.
    let (code, out, err) = mancala(
        &["play", "ohvalhu", "3", "1", "--moves", "2", "--json"],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_move"], "south", "{out}");
    for args in [
        vec!["play", "ohvalhu", "3", "1", "--moves", "2-1"],
        vec!["play", "vai-lung-thlan", "6", "5", "--moves", "7"],
        vec!["play", "vai-lung-thlan", "6", "5", "--moves", "0 x"],
        vec!["play", "ohvalhu", "1", "4"],
        vec!["play", "ohvalhu", "11", "4"],
        vec!["play", "vai-lung-thlan", "10", "13"],
        vec!["match", "--game", "ohvalhu:11:2", "random", "random"],
        vec!["match", "--game", "mancala:6:4", "random", "random"],
        vec!["query", "ohvalhu", "1 2 3"],
    ] {
        let (code, out, err) = mancala(&args, dir.path());
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    let (_, _, err) = mancala(
        &["match", "--game", "mancala:6:4", "random", "random"],
        dir.path(),
    );
    assert!(
        err.contains("vai-lung-thlan") && err.contains("ohvalhu"),
        "{err}"
    );
}
