//! The Kalah agents study's open readings, as options that leave the
//! defaults as they were: the max agent's choices in Algorithm 2
//! (`max:ties=...:extra=...`), H9 and H10 of the ten-term heuristic
//! (`heuristic10:D:h9=...:h10=...`, `tune --h9 --h10`), random ties for the
//! deterministic agents (`heuristic10:D:ties=random`) and MCTS's
//! epsilon-greedy expansion (`mcts:B:expand=E`).

mod common;

use common::mancala;
use mancala_solver::play::agents::hunter::{self, Readings, H10, H9};
use mancala_solver::play::agents::mcts::MctsAgent;
use mancala_solver::play::agents::{greedy::greedy_move, AgentSpec, Budget, Playout};
use mancala_solver::play::state::{GameSpec, Playable, State};
use mancala_solver::side::Side;

fn start(game: &str) -> State {
    game.parse::<GameSpec>().unwrap().start()
}

#[test]
fn the_readings_are_options_and_print_back() {
    for text in [
        "max",
        "max:ties=first",
        "max:ties=random:extra=stop",
        "heuristic10:4:h9=prose",
        "heuristic10:4:run=3:h10=minus:ties=random",
        "mcts:4000:playout=eps-greedy:eps=0.1:expand=0.1",
    ] {
        let spec: AgentSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), text);
    }
    // The defaults, written out, are the plain specs.
    for (long, short) in [
        ("max:ties=last:extra=follow", "max"),
        (
            "heuristic10:4:h9=formula:h10=plus:ties=left",
            "heuristic10:4",
        ),
    ] {
        assert_eq!(long.parse::<AgentSpec>().unwrap().to_string(), short);
    }
    assert!("max".parse::<AgentSpec>().unwrap().is_deterministic());
    assert!(!"max:ties=random"
        .parse::<AgentSpec>()
        .unwrap()
        .is_deterministic());
    assert!(!"heuristic10:4:ties=random"
        .parse::<AgentSpec>()
        .unwrap()
        .is_deterministic());
}

#[test]
fn bad_readings_are_usage_errors_naming_the_choices() {
    for (text, says) in [
        ("max:ties=middle", "ties=last|first|random"),
        ("max:ties=first:ties=last", "ties= once"),
        ("heuristic10:4:h9=both", "h9=formula or prose"),
        ("heuristic10:4:h10=zero", "h10=plus or minus"),
        ("heuristic10:4:run=2:w=1,1,1,1,1,1,1,1,1,1", "one of run=N"),
        ("mcts:100:expand=2", "expand=2"),
        ("rovaris-uct:100:expand=0.5", "unknown rovaris-uct option"),
    ] {
        let err = text.parse::<AgentSpec>().unwrap_err();
        assert!(err.is_usage(), "{text}");
        assert!(err.to_string().contains(says), "{text}: {err}");
    }
}

#[test]
fn h9_and_h10_read_both_ways() {
    // The position of hunter.rs's own test: South 2 0 3 store 5, North
    // 1 1 0 store 6, South to move.
    let p = mancala_solver::kalah::position::Position::from_cells(
        &[2, 0, 3, 5, 1, 1, 0, 6],
        Side::South,
    )
    .unwrap();
    let s = mancala_solver::kalah::rules::KalahRules::Default.state(p);
    let formula = hunter::terms(&s, Side::South, 0);
    assert_eq!((formula[8], formula[9]), (-14.0, 1.5));
    let read = |h9, h10| hunter::terms_read(&s, Side::South, 0, Readings { h9, h10 });
    assert_eq!(read(H9::Formula, H10::Plus), formula);
    let other = read(H9::Prose, H10::Minus);
    // Prose: 5 - 1.5 x 6; minus: -(1.5 x 5 - 6).
    assert_eq!((other[8], other[9]), (-4.0, -1.5));
    assert_eq!(other[..8], formula[..8]);
}

#[test]
fn max_reads_algorithm_2_three_ways() {
    // South 1 1 0 0 (store 5), North 0 0 0 1 (store 0), the study's
    // capture rule: no move stores a seed, so every move is worth 5.
    let p = mancala_solver::kalah::position::Position::from_cells(
        &[1, 1, 0, 0, 5, 0, 0, 0, 1, 0],
        Side::South,
    )
    .unwrap();
    let s = mancala_solver::kalah::rules::KalahRules::CaptureNeedsOpposite.state(p);
    let pit = |spec: &str, seed: u64| {
        let spec: AgentSpec = spec.parse().unwrap();
        let mut agent = spec.build(s.rules(), None, seed).unwrap();
        agent.choose(&s).pit
    };
    assert_eq!(pit("max", 1), 1, "the last of equal moves");
    assert_eq!(pit("max:ties=first", 1), 0);
    let drawn: std::collections::BTreeSet<usize> =
        (0..40).map(|k| pit("max:ties=random", k)).collect();
    assert_eq!(drawn.into_iter().collect::<Vec<_>>(), vec![0, 1]);
    // Kalah(6,4)'s start: pit 2 ends in the store (an extra turn). Followed,
    // the turn's best continuation stores more than any single move; not
    // followed, pit 2 and the moves past it each store one seed and the
    // last of them, pit 5, is played.
    let k = start("kalah:6:4");
    let play = |spec: &str| {
        let spec: AgentSpec = spec.parse().unwrap();
        spec.build(k.rules(), None, 1).unwrap().choose(&k)
    };
    let follow = play("max");
    let stop = play("max:extra=stop");
    assert_eq!(follow.pit, 2);
    assert!(follow.value.unwrap() > 1.0, "{follow:?}");
    assert_eq!((stop.pit, stop.value), (5, Some(1.0)));
}

#[test]
fn random_ties_draw_among_the_best_root_moves() {
    // Kalah(6,4)'s start at depth 1: pits 2 to 5 each store one seed.
    let k = start("kalah:6:4");
    let drawn: std::collections::BTreeSet<usize> = (0..60)
        .map(|seed| {
            let spec: AgentSpec = "heuristic10:1:w=0,0,0,1,0,0,0,0,0,0:ties=random"
                .parse()
                .unwrap();
            spec.build(k.rules(), None, seed).unwrap().choose(&k).pit
        })
        .collect();
    assert_eq!(drawn.into_iter().collect::<Vec<_>>(), vec![2, 3, 4, 5]);
    let spec: AgentSpec = "heuristic10:1:w=0,0,0,1,0,0,0,0,0,0".parse().unwrap();
    assert_eq!(spec.build(k.rules(), None, 1).unwrap().choose(&k).pit, 2);
}

#[test]
fn epsilon_greedy_expansion_expands_the_greedy_move_first() {
    let k = start("kalah:6:4");
    let greedy = greedy_move(&k).0;
    for seed in 0..20 {
        // One iteration expands one root move: with epsilon 0, the greedy one.
        let mut m = MctsAgent::new(
            Budget::Iterations(1),
            std::f64::consts::FRAC_1_SQRT_2,
            Playout::Random,
            mancala_solver::rng::seeded(seed),
            "m".into(),
        )
        .with_expand(Some(0.0));
        let children = m.search(&k);
        assert_eq!(children.len(), 1);
        assert_eq!(children[0].0, greedy, "seed {seed}");
    }
    // The default expands a random untried move: over 20 seeds, several.
    let pits: std::collections::BTreeSet<usize> = (0..20)
        .map(|seed| {
            let mut m = MctsAgent::new(
                Budget::Iterations(1),
                std::f64::consts::FRAC_1_SQRT_2,
                Playout::Random,
                mancala_solver::rng::seeded(seed),
                "m".into(),
            );
            m.search(&k)[0].0
        })
        .collect();
    assert!(pits.len() > 2, "{pits:?}");
}

#[test]
fn tune_under_the_texts_readings_says_so_and_resumes_only_so() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "tune",
        "heuristic10",
        "--population",
        "4",
        "--generations",
        "1",
        "--depth",
        "1",
        "--game",
        "kalah:4:3",
        "--out",
        "w.txt",
        "--h9",
        "prose",
        "--h10",
        "minus",
    ];
    let (code, out, err) = mancala(&args, dir.path());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("play it as heuristic10:1:weights=w.txt:h9=prose:h10=minus"),
        "{out}"
    );
    let weights = std::fs::read_to_string(dir.path().join("w.txt")).unwrap();
    assert!(weights.contains("seed=1 h9=prose h10=minus"), "{weights}");
    // The run resumes under its readings, and not under Algorithm 4's.
    let mut resume = args.to_vec();
    resume.push("--resume");
    let (code, _, err) = mancala(&resume, dir.path());
    assert_eq!(code, 0, "{err}");
    let plain: Vec<&str> = resume
        .iter()
        .copied()
        .filter(|a| !["--h9", "prose", "--h10", "minus"].contains(a))
        .collect();
    let (code, _, err) = mancala(&plain, dir.path());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("h9") && err.contains("h10"), "{err}");
}
