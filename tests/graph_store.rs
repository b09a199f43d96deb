//! The bitset store of the game-graph enumerator against a plain,
//! independent one: a sequential breadth-first search over a hash set of
//! positions (the way the graphs were enumerated before the bitsets), on
//! small instances under every terminal convention, with decided positions
//! as leaves and expanded, and under two rule sets. Then the memory check
//! of `mancala graph`.

mod common;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use mancala_solver::kalah::graph::{
    configurations, graph, is_decided, memory_needed, seeds_needed, successors, GraphOptions,
    GraphReport, Layer, Terminals,
};
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::side::Side;
use mancala_solver::tablebase::build::{build, BuildOptions};
use mancala_solver::tablebase::TableSet;

/// The tables of `rules` for `m` pits covering Kalah(m, n), built into `dir`.
fn tables(dir: &Path, rules: KalahRules, m: usize, n: usize) -> TableSet<KalahRules> {
    let k = seeds_needed(m, n);
    build(&BuildOptions {
        dir: dir.to_path_buf(),
        game: rules,
        pits: m,
        max_seeds: k,
        threads: None,
        memory_budget: 1 << 33,
        group_bytes: None,
        progress: Default::default(),
    })
    .unwrap();
    TableSet::open(dir, rules, m, k).unwrap()
}

/// The report of a sequential breadth-first enumeration with a hash set
/// of positions, level by level (the fields the enumerator computes, all
/// but the time).
fn reference(
    m: usize,
    n: usize,
    tb: &TableSet<KalahRules>,
    terminals: Terminals,
    decided_leaves: bool,
) -> GraphReport {
    let rules = tb.game();
    let start = Position::start(m, n).unwrap();
    let mut seen = HashSet::from([start]);
    let mut level = vec![start];
    let (mut positions, mut terminal, mut decided, mut moves, mut moves_sq) = (0u64, 0, 0, 0, 0);
    let mut layers: BTreeMap<(u32, u32), [u64; 3]> = BTreeMap::new();
    let mut depth = 0;
    let mut children = Vec::new();
    loop {
        let mut next = Vec::new();
        for pos in &level {
            positions += 1;
            let v = tb.value(pos).unwrap();
            let south = if pos.to_move() == Side::South { v } else { -v };
            let [p, q] = pos.stores();
            layers.entry((p as u32, q as u32)).or_default()[match south.signum() {
                1 => 0,
                -1 => 1,
                _ => 2,
            }] += 1;
            let over = pos.is_game_over(rules);
            if decided_leaves && !over && is_decided(pos, m * n) {
                decided += 1;
                continue;
            }
            children.clear();
            let k = successors(pos, rules, terminals, &mut children) as u64;
            if k == 0 {
                terminal += u64::from(over);
            }
            moves += k;
            moves_sq += k * k;
            for &child in &children {
                if seen.insert(child) {
                    next.push(child);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        depth += 1;
        level = next;
    }
    let mut layers: Vec<Layer> = layers
        .into_iter()
        .map(|((p, q), [win, loss, draw])| Layer {
            p,
            q,
            positions: win + loss + draw,
            win,
            loss,
            draw,
        })
        .collect();
    layers.sort_by_key(|l| (l.p + l.q, l.p));
    let inner = (positions - terminal - decided) as f64;
    let mean = moves as f64 / inner;
    let configurations = configurations(m, n).unwrap();
    GraphReport {
        pits: m,
        seeds: n,
        rules: rules.name().to_string(),
        terminals,
        positions,
        terminal_positions: terminal,
        decided_positions: decided,
        decided_leaves,
        moves,
        configurations,
        share_of_configurations: positions as f64 / configurations as f64,
        branching_mean: mean,
        branching_sd: (moves_sq as f64 / inner - mean * mean).max(0.0).sqrt(),
        win: layers.iter().map(|l| l.win).sum(),
        loss: layers.iter().map(|l| l.loss).sum(),
        draw: layers.iter().map(|l| l.draw).sum(),
        start_value: tb.value(&start).unwrap(),
        depth,
        layers,
        seconds: 0.0,
    }
}

fn assert_same(got: &GraphReport, want: &GraphReport, what: &str) {
    assert_eq!(got.positions, want.positions, "{what}: positions");
    assert_eq!(got.terminal_positions, want.terminal_positions, "{what}");
    assert_eq!(got.decided_positions, want.decided_positions, "{what}");
    assert_eq!(got.moves, want.moves, "{what}: moves");
    assert_eq!(got.depth, want.depth, "{what}: depth");
    assert_eq!(
        [got.win, got.loss, got.draw],
        [want.win, want.loss, want.draw],
        "{what}: W/L/D"
    );
    assert_eq!(got.layers, want.layers, "{what}: layers");
    assert_eq!(got.start_value, want.start_value, "{what}");
    assert_eq!(got.configurations, want.configurations, "{what}");
    assert_eq!(got.share_of_configurations, want.share_of_configurations);
    assert!(
        (got.branching_mean - want.branching_mean).abs() < 1e-12,
        "{what}"
    );
    assert!(
        (got.branching_sd - want.branching_sd).abs() < 1e-9,
        "{what}"
    );
    assert_eq!(
        (got.pits, got.seeds, got.terminals, got.decided_leaves),
        (want.pits, want.seeds, want.terminals, want.decided_leaves)
    );
    assert_eq!(got.rules, want.rules);
}

fn compare(rules: KalahRules, instances: &[(usize, usize)]) {
    let dir = tempfile::tempdir().unwrap();
    for &(m, n) in instances {
        let tb = tables(dir.path(), rules, m, n);
        for terminals in Terminals::ALL {
            for decided_leaves in [true, false] {
                let mut opts = GraphOptions::new(m, n);
                opts.terminals = terminals;
                opts.decided_leaves = decided_leaves;
                let got = graph(&opts, &tb).unwrap();
                let want = reference(m, n, &tb, terminals, decided_leaves);
                let what = format!(
                    "Kalah({m},{n}) {rules:?} terminals {terminals}, decided leaves {decided_leaves}"
                );
                assert_same(&got, &want, &what);
            }
        }
    }
}

#[test]
fn bitset_store_matches_a_hash_set_one() {
    compare(
        KalahRules::Default,
        &[
            (1, 4),
            (2, 1),
            (2, 3),
            (2, 6),
            (3, 2),
            (3, 3),
            (4, 1),
            (5, 1),
        ],
    );
}

#[test]
fn bitset_store_matches_a_hash_set_one_under_other_rules() {
    compare(KalahRules::CaptureNeedsOpposite, &[(2, 4), (3, 2)]);
    compare(KalahRules::EndWhenMoverEmpty, &[(2, 3), (4, 1)]);
}

#[test]
fn memory_is_three_bits_per_configuration() {
    let c = configurations(4, 3).unwrap();
    assert_eq!(memory_needed(4, 3), Some(3 * c.div_ceil(64) * 8));
    // Kalah(6,5) needs about 98 TiB: refused, and the message says so.
    let err = mancala_solver::kalah::graph::check_memory(6, 5, 1 << 34).unwrap_err();
    assert!(err.to_string().contains("over the budget"), "{err}");
}

#[test]
fn a_graph_over_the_memory_budget_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let args = [
        "graph",
        "kalah",
        "3",
        "3",
        "--db",
        db.to_str().unwrap(),
        "--quiet",
        "--memory",
        "100K",
    ];
    let (code, stdout, stderr) = common::mancala(&args, dir.path());
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    // 3 bitsets of 2 C(25, 7) = 961,400 bits: 360,528 bytes.
    assert_eq!(memory_needed(3, 3), Some(360_528));
    for needle in [
        "error: ",
        "Kalah(3,3) needs 353 KiB",
        "over the budget of 100 KiB",
        "--memory",
    ] {
        assert!(stderr.contains(needle), "{needle}: {stderr}");
    }
    // Refused before the tables were built.
    assert!(!db.exists());
    // Within the budget it runs.
    let (code, stdout, stderr) = common::mancala(&[&args[..8], &["8M"]].concat(), dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("positions: 24936 "), "{stdout}");
}
