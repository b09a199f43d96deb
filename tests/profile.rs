//! The search profile (`SearchStats::profile`): collected only with the
//! cargo feature `search-profile` (`cargo test --features search-profile
//! --test suite profile::`, which `.ci/run` runs) and only on one thread; its
//! counts add up to the solve's and its perfect-ordering estimate is
//! consistent with the late cut-offs it saw.

use mancala_solver::kalah::position::Position;
use mancala_solver::search::{solve, Solution, SolveOptions};

mod common;

fn solve_on(position: &Position, threads: usize, tables: Option<usize>) -> Solution {
    let dir = tempfile::tempdir().unwrap();
    let tb = tables.map(|k| common::kalah_tables(dir.path(), position.pits_per_side(), k));
    let opts = SolveOptions {
        tt_mb: 16,
        threads,
        ..SolveOptions::default()
    };
    solve(position, tb.as_ref(), &opts).unwrap()
}

/// No profile on two threads, nor on one without the feature.
#[test]
fn no_profile_on_two_threads_or_without_the_feature() {
    for threads in [1, 2] {
        if threads == 1 && cfg!(feature = "search-profile") {
            continue;
        }
        let sol = solve_on(&Position::start(4, 3).unwrap(), threads, None);
        assert!(sol.stats.profile.is_none(), "{threads} thread(s)");
    }
}

#[cfg(feature = "search-profile")]
#[test]
fn the_profile_adds_up() {
    let cases = [
        (Position::start(4, 3).unwrap(), None),
        (Position::start(3, 4).unwrap(), None),
        (Position::start(4, 4).unwrap(), Some(10)),
    ];
    for (position, tables) in cases {
        let sol = solve_on(&position, 1, tables);
        let p = sol
            .stats
            .profile
            .as_deref()
            .unwrap_or_else(|| panic!("{position}: no profile on one thread"));
        let level_nodes: u64 = p.by_seeds.iter().map(|l| l.nodes).sum();
        assert_eq!(level_nodes, sol.stats.nodes, "{position}: nodes by seeds");
        let pass_nodes: u64 = p.passes.iter().map(|x| x.nodes).sum();
        assert!(pass_nodes <= sol.stats.nodes, "{position}: passes' nodes");
        assert_eq!(p.passes.len() as u64, sol.stats.mtdf_passes, "{position}");
        // A start has equal stores: its value is the active value the
        // passes return.
        let last = p.passes.last().unwrap();
        assert!(last.depth.is_none(), "{position}: the last pass is exact");
        assert_eq!(last.value, sol.value, "{position}: the last pass's value");
        for (i, l) in p.by_seeds.iter().enumerate() {
            assert_eq!(l.seeds as usize, i);
            assert!(l.late_cuts <= l.searched_cuts, "{position}: {l:?}");
            assert!(
                l.searched_cuts + l.fail_lows <= l.nodes,
                "{position}: {l:?}"
            );
            assert_eq!(
                l.late_cuts == 0,
                l.nodes_before_late_cuts == 0,
                "{position}: {l:?}"
            );
        }
        assert!(
            p.by_seeds.iter().any(|l| l.fail_lows > 0),
            "{position}: an upper bound needs nodes that fail low"
        );
        // What perfect ordering saves is at most what the late cuts spent
        // before their cutting child (the principal variation's extraction
        // included).
        let before: u64 = p.by_seeds.iter().map(|l| l.nodes_before_late_cuts).sum();
        let mut saved = 0;
        for x in &p.passes {
            assert!(
                (1..=x.nodes).contains(&x.nodes_if_cut_first),
                "{position}: {x:?}"
            );
            saved += x.nodes - x.nodes_if_cut_first;
        }
        assert!(saved <= before, "{position}: saved {saved}, spent {before}");
        assert!(saved > 0, "{position}: no late cut-off to measure");
    }
}

/// The command line shows the profile: as `stats.profile` in `--json`, as
/// two tables in the text output; never on two threads.
#[cfg(feature = "search-profile")]
#[test]
fn the_command_line_shows_the_profile() {
    let dir = tempfile::tempdir().unwrap();
    let solve = [
        "solve",
        "kalah",
        "4",
        "3",
        "--max-table-seeds",
        "0",
        "--threads",
    ];
    let args = [&solve[..], &["1"]].concat();
    let (code, out, err) = common::mancala(&[&args[..], &["--json"]].concat(), dir.path());
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let profile = &json["stats"]["profile"];
    let passes = profile["passes"].as_array().expect("passes");
    assert_eq!(
        passes.len() as u64,
        json["stats"]["mtdf_passes"].as_u64().unwrap()
    );
    let nodes: u64 = profile["by_seeds"]
        .as_array()
        .expect("by_seeds")
        .iter()
        .map(|l| l["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(nodes, json["stats"]["nodes"].as_u64().unwrap());

    let (code, out, err) = common::mancala(&args, dir.path());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("profile, MTD(f) passes"), "{out}");
    assert!(out.contains("profile, nodes by seeds in play"), "{out}");

    let two = [&solve[..], &["2", "--json"]].concat();
    let (code, out, err) = common::mancala(&two, dir.path());
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json["stats"].get("profile").is_none(), "{out}");
}
