//! The Kalah agents study (seed 004): heuristic10:D, its weights files and
//! `mancala tune heuristic10`.

mod common;

use common::mancala;

fn score(a: &str, b: &str, game: &str, games: &str) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = mancala(
        &["match", a, b, "--game", game, "--games", games, "--json"],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["a_score"].as_f64().unwrap()
}

#[test]
fn heuristic10_beats_random_and_greedy() {
    let game = "kalah:6:4:capture-needs-opposite";
    assert!(score("heuristic10:4", "random", game, "40") > 0.9);
    // The study: heuristic minimax first v max 90.2%, max first v it 12.5%.
    assert!(score("heuristic10:4", "greedy", game, "100") > 0.65);
}

#[test]
fn h4_alone_beats_h3_alone() {
    // Table 2: H4 (own store) won every match, H3 (non-empty pits) none.
    let h = |k: usize| {
        let w: Vec<&str> = (0..10).map(|i| if i == k { "1" } else { "0" }).collect();
        format!("heuristic10:4:w={}", w.join(","))
    };
    assert!(score(&h(3), &h(2), "kalah:6:4:capture-needs-opposite", "40") > 0.7);
}

#[test]
fn tune_writes_weights_the_agent_loads_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "tune",
        "heuristic10",
        "--population",
        "6",
        "--generations",
        "2",
        "--depth",
        "1",
        "--game",
        "kalah:4:3",
        "--out",
        "w.txt",
        "--json",
    ];
    let (code, out, err) = mancala(&args, dir.path());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["generations"].as_array().unwrap().len(), 2);
    let weights = std::fs::read_to_string(dir.path().join("w.txt")).unwrap();
    assert!(weights.starts_with("# heuristic10 weights"));
    assert!(dir.path().join("w.txt.state.json").exists());
    // The file plays.
    let (code, _, err) = mancala(
        &[
            "match",
            "heuristic10:2:weights=w.txt",
            "random",
            "--games",
            "4",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    // A finished run resumed changes nothing; other options are refused.
    let mut resume = args.to_vec();
    resume.push("--resume");
    let (code, out2, err) = mancala(&resume, dir.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, out2);
    resume[5] = "3";
    let (code, _, err) = mancala(&resume, dir.path());
    assert_eq!(code, 2);
    assert!(
        err.contains("generations 2 (asked: 3)") && err.contains("--generations 2"),
        "{err}"
    );
}

#[test]
fn bad_weights_and_tuning_options_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("short.txt"), "1 2 3\n").unwrap();
    std::fs::write(dir.path().join("words.txt"), "1 2 3 4 5 six 7 8 9 10\n").unwrap();
    std::fs::write(dir.path().join("state.txt.state.json"), "{not json").unwrap();
    for args in [
        &["match", "heuristic10:4:weights=short.txt", "random"][..],
        &["match", "heuristic10:4:weights=words.txt", "random"],
        &["match", "heuristic10:4:weights=missing.txt", "random"],
        &["match", "heuristic10:4:run=0", "random"],
        &["tune", "heuristic10", "--population", "1"],
        &["tune", "heuristic10", "--games", "3"],
        &["tune", "heuristic10", "--mutation", "1.5"],
        &["tune", "heuristic10", "--sigma", "0"],
        &["tune", "heuristic10", "--depth", "0"],
        &["tune", "heuristic10", "--game", "awari:6:4"],
    ] {
        let (code, _, err) = mancala(args, dir.path());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    // A damaged saved run is bad data on disk (exit 1), as a damaged
    // checkpoint is.
    let args = ["tune", "heuristic10", "--out", "state.txt", "--resume"];
    let (code, _, err) = mancala(&args, dir.path());
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("start afresh without --resume"), "{err}");
    // What to tune is a clap value: its own usage message, exit 2.
    assert_eq!(mancala(&["tune", "heuristic9"], dir.path()).0, 2);
}
