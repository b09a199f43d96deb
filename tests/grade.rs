//! `mancala grade`: agents against perfect play.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{kalah_tables, mancala};
use mancala_solver::play::agents::AgentSpec;
use mancala_solver::play::grade::{self, GradeOptions, Graded};
use mancala_solver::progress::Observer;
use mancala_solver::search::TransTable;
use mancala_solver::tablebase::SharedTables;

fn options(game: &str, positions: usize, tables: Option<SharedTables>) -> GradeOptions {
    GradeOptions {
        game: game.parse().unwrap(),
        positions,
        seed: 7,
        opponents: ["random", "greedy"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect(),
        search_time: Duration::from_secs(30),
        tt_mb: 16,
        threads: Some(2),
        tables,
        max_seeds: None,
        progress: Observer::default(),
    }
}

/// The solver's losses agree with the tables' on every position both can
/// value: two independent ways of reaching the same figure.
#[test]
fn solver_and_tables_give_the_same_losses() {
    let dir = tempfile::tempdir().unwrap();
    let set = Arc::new(kalah_tables(dir.path(), 4, 12));
    let tables = Some(SharedTables::new(set));
    for agent in ["greedy", "random", "heuristic10:2"] {
        let spec: AgentSpec = agent.parse().unwrap();
        let opts = options("kalah:4:3", 150, tables.clone());
        let (decisions, _) = grade::sample(&spec, &opts).unwrap();
        assert_eq!(decisions.len(), 150);
        let tt = Arc::new(TransTable::try_with_kib(16 << 10).unwrap());
        let (mut compared, mut lossy) = (0, 0);
        for d in &decisions {
            let by_tables = grade::loss(&d.state, d.pit, tables.as_ref(), opts.search_time, &tt, 8);
            let by_solver = grade::loss(&d.state, d.pit, None, opts.search_time, &tt, 8).unwrap();
            let Graded::Loss(s, _) = by_solver else {
                panic!("the solver finishes Kalah(4,3) positions in 30 s")
            };
            if let Graded::Loss(t, grade::ValueSource::Tables) = by_tables.unwrap() {
                assert_eq!(t, s, "{agent} at {}: pit {}", d.state, d.pit);
                compared += 1;
            }
            assert!(s >= 0);
            lossy += usize::from(s > 0);
        }
        assert!(compared > 30, "{agent}: {compared} positions compared");
        if agent == "random" {
            assert!(lossy > 20, "random loses value often: {lossy}");
        }
    }
}

/// The perfect agent keeps the value with every move.
#[test]
fn the_perfect_agent_grades_100_percent() {
    let dir = tempfile::tempdir().unwrap();
    // Tables to 12 seeds: above them both the agent and the grader search.
    kalah_tables(dir.path(), 4, 12);
    let db = dir.path().to_str().unwrap();
    let (code, out, err) = mancala(
        &[
            "grade",
            "perfect:10s",
            "--game",
            "kalah:4:3",
            "--positions",
            "300",
            "--search-ms",
            "10000",
            "--json",
            "--db",
            db,
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["from_search"].as_u64().unwrap() > 30, "{v}");
    assert_eq!(v["positions"], 300);
    assert_eq!(v["skipped"], 0);
    assert_eq!(v["optimal_share"]["value"], 1.0);
    assert_eq!(v["mean_loss"]["value"], 0.0);
    assert_eq!(v["by_phase"].as_array().unwrap().len(), 6);
}

/// The report's figures hang together, and the same seed grades the same
/// positions whatever the thread count.
#[test]
fn grade_report_is_reproducible_and_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let plot = dir.path().join("loss.svg");
    let run = |threads: &str| {
        let (code, out, err) = mancala(
            &[
                "grade",
                "greedy",
                "--game",
                "kalah:4:3",
                "--positions",
                "200",
                "--search-ms",
                "5000",
                "--threads",
                threads,
                "--json",
                "--db",
                db,
                "--plot",
                plot.to_str().unwrap(),
            ],
            dir.path(),
        );
        assert_eq!(code, 0, "{err}");
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let positions = one["positions"].as_u64().unwrap();
    assert_eq!(positions + one["skipped"].as_u64().unwrap(), 200);
    let by_loss: u64 = one["losses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["moves"].as_u64().unwrap())
        .sum();
    assert_eq!(by_loss, positions);
    let by_phase: u64 = one["by_phase"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(by_phase, positions);
    let share = one["optimal_share"]["value"].as_f64().unwrap();
    assert!(share > 0.3 && share < 1.0, "{share}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(roxmltree::Document::parse(&svg).is_ok());
    assert!(svg.contains("class=\"phase\""));
}

#[test]
fn bad_grade_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["grade", "grandmaster"][..],
        &["grade", "greedy", "--positions", "0"],
        &["grade", "greedy", "--game", "kalah:6:x"],
        &["grade", "heuristic10:4:w=1,2,3"],
        &[
            "grade",
            "greedy",
            "--game",
            "vai-lung-thlan:6:4",
            "--db",
            "nowhere",
        ],
    ] {
        let (code, _, err) = mancala(args, dir.path());
        assert_eq!(code, 2, "{args:?}: {err}");
        // One line (an unknown agent's is followed by the agents, one a
        // line: tests/faults_newcomer.rs).
        let message = err.split("; agents:\n").next().unwrap();
        assert_eq!(message.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// Awari is graded from its tables within their range and by the exact
/// search above them: every position drawn, none capped at the tables.
#[test]
fn awari_is_graded_by_its_tables_and_the_search_above() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let (code, _, err) = mancala(
        &[
            "build",
            "awari",
            "--pits",
            "3",
            "--max-seeds",
            "8",
            "--db",
            db,
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = mancala(
        &[
            "grade",
            "greedy",
            "--game",
            "awari:3:3",
            "--positions",
            "200",
            "--search-ms",
            "20000",
            "--db",
            db,
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["max_seeds"], serde_json::Value::Null);
    assert_eq!(v["positions"], 200, "{v}");
    let (tables, search) = (
        v["from_tables"].as_u64().unwrap(),
        v["from_search"].as_u64().unwrap(),
    );
    assert_eq!(tables + search, 200);
    assert!(
        search > 50 && tables > 20,
        "{tables} from the tables, {search} by search"
    );
    let above: u64 = v["by_phase"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["seeds_low"].as_u64().unwrap() > 8)
        .map(|p| p["positions"].as_u64().unwrap())
        .sum();
    assert!(above > 50, "{above} graded above the tables");
    let share = v["optimal_share"]["value"].as_f64().unwrap();
    assert!(share > 0.3 && share < 1.0, "{share}");
}
