//! Cross-checking a table against the search with smaller tables
//! (`mancala verify kalah --by-search K`): sound tables agree on every
//! sampled entry under every rule set; a table whose values were altered
//! (and rewritten with a valid header and checksum, so only the values are
//! wrong) is caught; bad arguments are refused.

use std::path::Path;
use std::process::Command;

use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::cross_check::{cross_check, CrossCheck};
use mancala_solver::tablebase::build::{build as build_tables, BuildOptions};
use mancala_solver::tablebase::TableSet;
use mancala_solver::tables::writer::write_table;

fn build(dir: &Path, rules: KalahRules, pits: usize, max_seeds: usize) -> TableSet<KalahRules> {
    build_tables(&BuildOptions {
        dir: dir.to_path_buf(),
        game: rules,
        pits,
        max_seeds,
        threads: None,
        memory_budget: 1 << 32,
        group_bytes: None,
        progress: Default::default(),
    })
    .unwrap();
    TableSet::open(dir, rules, pits, max_seeds).unwrap()
}

fn check(seeds: usize, probe_seeds: usize, sample: u64) -> CrossCheck {
    CrossCheck {
        seeds,
        probe_seeds,
        sample,
        seed: 7,
        limit: std::time::Duration::from_secs(60),
        tt_mb: 4,
    }
}

#[test]
fn sound_tables_agree_with_the_search_on_smaller_tables() {
    for rules in [
        KalahRules::Default,
        KalahRules::CaptureNeedsOpposite,
        KalahRules::EndWhenMoverEmpty,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let set = build(dir.path(), rules, 4, 14);
        for (k, probe) in [(14, 6), (14, 0), (12, 11)] {
            let r = cross_check(&set, &check(k, probe, 400), &Default::default()).unwrap();
            assert_eq!(
                (r.sampled, r.checked, r.skipped, r.mismatches),
                (400, 400, 0, 0),
                "{rules:?} k={k} probe={probe}: {:?}",
                r.examples
            );
            assert!(r.is_sound() && r.nodes > 400);
        }
    }
}

#[test]
fn altered_values_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let set = build(dir.path(), KalahRules::Default, 4, 12);
    let table = set.table(12).unwrap();
    // Every 10th entry's share of the seeds moves by one: the file is
    // rewritten with a valid header and checksum.
    let shares: Vec<u8> = (0..table.len())
        .map(|i| {
            let j = table.share(i);
            match (i % 10, j) {
                (0, 0) => 1,
                (0, j) => j - 1,
                (_, j) => j,
            }
        })
        .collect();
    let spec = table.spec();
    drop(set);
    write_table(dir.path(), spec, &shares).unwrap();
    let set = TableSet::open(dir.path(), KalahRules::Default, 4, 12).unwrap();
    let r = cross_check(&set, &check(12, 8, 300), &Default::default()).unwrap();
    assert_eq!(r.checked, 300);
    assert!(r.mismatches > 10 && !r.is_sound(), "{r:?}");
    for m in &r.examples {
        assert_eq!(m.index % 10, 0, "{m:?}");
        assert_eq!((m.stored - m.derived).abs(), 2, "{m:?}");
    }

    // The command says so and exits 1.
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["verify", "kalah", "--pits", "4", "--seeds", "12"])
        .args(["--by-search", "8", "--sample", "300", "--db"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("300 of 300 sampled entries"), "{stdout}");
    assert!(!stdout.contains(" 0 mismatches"), "{stdout}");
}

#[test]
fn bad_cross_checks_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), KalahRules::Default, 4, 6);
    for (args, says) in [
        (
            vec!["kalah", "--seeds", "6", "--by-search", "6"],
            "up to 5 seeds",
        ),
        (vec!["kalah", "--seeds", "9", "--by-search", "4"], "missing"),
        (
            vec!["kalah", "--seeds", "6", "--by-search", "4", "--sample", "0"],
            "0",
        ),
        (
            vec!["kalah", "--seeds", "6", "--by-search", "4", "--limit", "0"],
            "positive",
        ),
        (
            vec!["vai-lung-thlan", "--seeds", "6", "--by-search", "4"],
            "only Kalah, Awari and Oware",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .arg("verify")
            .args(&args)
            .args(["--pits", "4", "--db"])
            .arg(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(
            stderr.lines().count() <= 3 && stderr.contains(says),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
