//! The A3C agent: its weights file, its training, the shipped network's
//! play, and the `train` command's checks.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::mancala;
use mancala_solver::error::Error;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::learn::a3c::{self, Stop, TrainOptions};
use mancala_solver::learn::net::{Layout, Weights, HEADER_BYTES};
use mancala_solver::play::agents::a3c::{shipped, A3cAgent};
use mancala_solver::play::agents::Agent;
use mancala_solver::play::state::{GameSpec, State};

fn small_weights(seed: u64) -> Weights {
    let layout = Layout::new(KalahRules::Default, 6, 4, [16, 8], 4).unwrap();
    Weights::random(layout, &mut mancala_solver::rng::seeded(seed))
}

#[test]
fn weights_file_round_trips_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.bin");
    let mut w = small_weights(1);
    w.episodes = 12_345;
    w.save(&path).unwrap();
    assert_eq!(Weights::load(&path).unwrap(), w);
    // Overwriting leaves no temporary file behind.
    small_weights(2).save(&path).unwrap();
    assert_eq!(Weights::load(&path).unwrap(), small_weights(2));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

#[test]
fn bad_weights_files_are_refused_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let good = small_weights(3).to_bytes();
    let mut flipped = good.clone();
    flipped[HEADER_BYTES + 17] ^= 1;
    // Another layer size with a valid checksum.
    let mut resized = good.clone();
    resized[28..32].copy_from_slice(&9u32.to_le_bytes());
    let body = resized.len() - 4;
    let crc = crc32fast::hash(&resized[..body]);
    resized[body..].copy_from_slice(&crc.to_le_bytes());
    let cases: [(&str, Vec<u8>, &str); 6] = [
        ("empty", vec![], "not an A3C weights file"),
        (
            "text",
            b"0.5, 0.25, nan\n".to_vec(),
            "not an A3C weights file",
        ),
        ("short", good[..40].to_vec(), "truncated"),
        (
            "cut",
            good[..good.len() - 8].to_vec(),
            "truncated or corrupt",
        ),
        ("flipped", flipped, "checksum"),
        ("resized", resized, "parameters where layers"),
    ];
    for (name, bytes, says) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        match Weights::load(&path) {
            Err(e @ Error::BadWeights { .. }) => {
                assert!(e.to_string().contains(says), "{name}: {e}")
            }
            other => panic!("{name}: {other:?}"),
        }
        // The command line says so in one line, exit code 1 (bad data).
        let spec = format!("a3c:{}", path.display());
        let (code, _, err) = mancala(&["match", &spec, "random", "--games", "2"], dir.path());
        assert_eq!(code, 1, "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
    }
    assert!(matches!(
        Weights::load(&dir.path().join("missing")),
        Err(Error::Io { .. })
    ));
}

fn tiny_run(seed: u64) -> (Weights, a3c::TrainReport) {
    let opts = TrainOptions {
        workers: 1,
        seed,
        stop: Stop::Episodes(240),
        hidden: [32, 32],
        batch: 4,
        eval_every: 120,
        eval_games: 10,
        ..TrainOptions::default()
    };
    let mut points = Vec::new();
    let report = a3c::train(&opts, &mut |p, w| {
        assert_eq!(p.episodes, w.episodes);
        points.push(*p);
        Ok(())
    })
    .unwrap();
    assert_eq!(points, report.curve);
    let initial = {
        let layout = Layout::new(
            KalahRules::Default,
            6,
            4,
            [32, 32],
            TrainOptions::default().unary,
        )
        .unwrap();
        // The same draw as train() makes for its initial weights.
        Weights::random(
            layout,
            &mut mancala_solver::rng::seeded(mancala_solver::play::arena::mix(seed)),
        )
    };
    (initial, report)
}

#[test]
fn a_tiny_seeded_run_changes_the_weights_deterministically() {
    let (initial, a) = tiny_run(7);
    let (_, b) = tiny_run(7);
    let (_, c) = tiny_run(8);
    assert_eq!(a.episodes, 240);
    assert_eq!(a.weights.episodes, 240);
    assert_eq!(
        a.curve.iter().map(|p| p.episodes).collect::<Vec<_>>(),
        [120, 240]
    );
    assert_eq!(a.curve[0].vs_random.games(), 10);
    assert_ne!(a.weights.params, initial.params, "training changed nothing");
    assert_eq!(a.weights, b.weights, "one worker, one seed: one result");
    // The same curve but for the wall-clock seconds.
    let timeless = |r: &a3c::TrainReport| {
        r.curve
            .iter()
            .map(|p| a3c::EvalPoint { seconds: 0.0, ..*p })
            .collect::<Vec<_>>()
    };
    assert_eq!(timeless(&a), timeless(&b));
    assert_ne!(a.weights.params, c.weights.params);
}

#[test]
fn training_resumes_and_counts_on() {
    let (_, first) = tiny_run(3);
    let opts = TrainOptions {
        workers: 2,
        stop: Stop::Episodes(40),
        batch: 4,
        eval_every: 1000,
        eval_games: 4,
        resume: Some(first.weights.clone()),
        ..TrainOptions::default()
    };
    let r = a3c::train(&opts, &mut |_, _| Ok(())).unwrap();
    assert_eq!(r.episodes, 40);
    assert_eq!(r.weights.episodes, 280);
    assert_eq!(r.weights.layout, first.weights.layout);
    assert_eq!(r.curve.len(), 1, "the final evaluation");
}

#[test]
fn bad_training_options_are_refused() {
    for opts in [
        TrainOptions {
            workers: 0,
            ..TrainOptions::default()
        },
        TrainOptions {
            learning_rate: -0.1,
            ..TrainOptions::default()
        },
        TrainOptions {
            learning_rate: f64::NAN,
            ..TrainOptions::default()
        },
        TrainOptions {
            gamma: 1.5,
            ..TrainOptions::default()
        },
        TrainOptions {
            stop: Stop::Episodes(0),
            ..TrainOptions::default()
        },
        TrainOptions {
            hidden: [0, 8],
            ..TrainOptions::default()
        },
    ] {
        let e = a3c::train(&opts, &mut |_, _| Ok(())).unwrap_err();
        assert!(e.is_usage(), "{e}");
    }
}

#[test]
fn the_shipped_agent_plays_legal_moves_to_the_end() {
    let weights = shipped().unwrap();
    assert_eq!(weights.layout.game_name(), "kalah:6:4");
    let mut agent = A3cAgent::new(weights, "a3c".into());
    let mut rng = mancala_solver::rng::seeded(5);
    for game in 0..20 {
        let mut state: State = "kalah:6:4".parse::<GameSpec>().unwrap().start();
        let mut plies = 0;
        while !state.is_over() {
            // The agent plays South in even games, North in odd ones;
            // the other side plays at random.
            let agent_moves = (plies % 2 == 0) == (game % 2 == 0);
            let pit = if agent_moves {
                agent.choose(&state).pit
            } else {
                mancala_solver::play::agents::random::random_move(&state, &mut rng)
            };
            state.play(pit).expect("a legal move");
            plies += 1;
        }
    }
}

#[test]
fn the_shipped_agent_beats_random_and_refuses_other_games() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = mancala(
        &[
            "match",
            "a3c",
            "random",
            "--game",
            "kalah:6:4",
            "--games",
            "50",
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let wins = v["a_wins"].as_u64().unwrap();
    assert!(wins >= 45, "a3c won only {wins} of 50 games against random");
    for game in [
        "kalah:4:3",
        "kalah:6:5",
        "kalah:6:4:capture-needs-opposite",
        "awari:6:4",
    ] {
        let (code, _, err) = mancala(&["match", "a3c", "random", "--game", game], dir.path());
        assert_eq!(code, 2, "{game}: {err}");
        assert!(err.contains("trained for kalah:6:4 only"), "{game}: {err}");
        assert_eq!(err.lines().count(), 1, "{game}: {err}");
    }
}

#[test]
fn train_command_writes_weights_curve_and_plot_and_refuses_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (code, out, err) = mancala(
        &[
            "train",
            "a3c",
            "--games",
            "64",
            "--workers",
            "1",
            "--batch",
            "4",
            "--hidden",
            "16,16",
            "--eval-every",
            "32",
            "--eval-games",
            "4",
            "--out",
            "w.bin",
            "--curve",
            "c.csv",
            "--plot",
            "c.svg",
            "--quiet",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("trained 64 games"), "{out}");
    let w = Weights::load(&d.join("w.bin")).unwrap();
    assert_eq!((w.episodes, w.layout.hidden), (64, [16, 16]));
    let csv = std::fs::read_to_string(d.join("c.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    let svg = std::fs::read_to_string(d.join("c.svg")).unwrap();
    assert!(svg.contains("<polyline class=\"vs-random\""));
    // Resuming appends to the curve; the plot command redraws it.
    let (code, _, err) = mancala(
        &[
            "train",
            "a3c",
            "--games",
            "32",
            "--workers",
            "1",
            "--batch",
            "4",
            "--resume",
            "w.bin",
            "--out",
            "w2.bin",
            "--eval-every",
            "32",
            "--eval-games",
            "4",
            "--curve",
            "c.csv",
            "--quiet",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(Weights::load(&d.join("w2.bin")).unwrap().episodes, 96);
    let csv = std::fs::read_to_string(d.join("c.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    let (code, _, err) = mancala(&["train", "plot", "c.csv", "--out", "p.svg"], d);
    assert_eq!(code, 0, "{err}");
    assert!(Path::new(&d.join("p.svg")).exists());
    // The weights play as a3c:FILE.
    let (code, _, err) = mancala(&["match", "a3c:w2.bin", "random", "--games", "4"], d);
    assert_eq!(code, 0, "{err}");

    for args in [
        vec!["--games", "10", "--workers", "0"],
        vec!["--games", "10", "--lr", "-0.5"],
        vec!["--games", "10", "--lr", "1e9"],
        vec!["--games", "10", "--lr", "fast"],
        vec!["--games", "0"],
        vec!["--minutes", "0"],
        vec!["--minutes", "-3"],
        vec!["--games", "10", "--gamma", "2"],
        vec!["--games", "10", "--hidden", "64"],
        vec!["--games", "10", "--n-step", "0"],
        vec![],
    ] {
        let mut full = vec!["train", "a3c", "--out", "x.bin"];
        full.extend(&args);
        let (code, _, err) = mancala(&full, d);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
        assert!(!d.join("x.bin").exists());
    }
    // A file that is not weights, resumed from: bad data, exit code 1.
    std::fs::write(d.join("junk.bin"), "not weights").unwrap();
    let (code, _, err) = mancala(
        &[
            "train", "a3c", "--games", "4", "--resume", "junk.bin", "--out", "x.bin",
        ],
        d,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not an A3C weights file"), "{err}");
}

#[test]
fn agents_share_the_shipped_weights() {
    let a = shipped().unwrap();
    let b = shipped().unwrap();
    assert!(Arc::ptr_eq(&a, &b));
}

#[test]
fn a_served_oracle_plays_a3c_but_reads_no_file_a_request_names() {
    use mancala_solver::oracle::{Oracle, OracleConfig, SearchBudget};
    use mancala_solver::play::agents::Stop as StopFlag;
    let dir = tempfile::tempdir().unwrap();
    let oracle = Oracle::new(OracleConfig {
        dir: dir.path().to_path_buf(),
        search: SearchBudget {
            time: std::time::Duration::from_millis(100),
            tt_mb: 1,
        },
        build_limit: 0,
        agent_time: std::time::Duration::from_millis(100),
        build_threads: Some(1),
    });
    let m = oracle
        .agent_move("kalah:6:4", None, "a3c", 1, &StopFlag::never())
        .unwrap();
    assert!(m.agent == "a3c");
    let e = oracle
        .agent_move(
            "kalah:6:4",
            None,
            "a3c:/etc/hostname",
            1,
            &StopFlag::never(),
        )
        .unwrap_err();
    assert!(
        e.to_string().contains("only the shipped a3c weights"),
        "{e}"
    );
    let e = oracle
        .agent_move("kalah:4:3", None, "a3c", 1, &StopFlag::never())
        .unwrap_err();
    assert!(e.to_string().contains("trained for kalah:6:4 only"), "{e}");
}
