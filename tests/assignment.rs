//! The course assignment's program: the document's sample log, golden files
//! worked by hand, alpha-beta against minimax, wide boards and bad input.

mod common;

use std::time::Duration;

use mancala_solver::assignment::{decide, Input, Reading, Task};
use mancala_solver::rng::seeded;
use rand::Rng;

/// The sample traverse log printed in the assignment (minimax, cut-off
/// depth 2, a 2 x 3 board), as published.
const SAMPLE_LOG: &str = "Node,Depth,Value
B2,1,Infinity
B3,1,Infinity
A2,2,1
B3,1,1
A3,2,1
B3,1,1
A4,2,1
B3,1,1
B2,1,1
B4,1,Infinity
A2,2,1
B4,1,1
A3,2,1
B4,1,1
A4,2,1
B4,1,1
B2,1,1
root,0,1
B3,1,Infinity
A2,2,0
B3,1,0
A3,2,0
B3,1,0
A4,2,0
B3,1,0
root,0,1
B4,1,Infinity
A2,2,0
B4,1,0
A3,2,0
B4,1,0
A4,2,0
B4,1,0
root,0,1
";

fn run(text: &str, reading: Reading) -> (String, String) {
    let input = Input::parse(text).unwrap();
    let mut log = Vec::new();
    let d = decide(&input, reading, &mut log, Duration::from_millis(200)).unwrap();
    (d.next_state(), String::from_utf8(log).unwrap())
}

/// Every 2 x 3 minimax input with pits of 0 to 4 stones and equal mancalas
/// of 0 to 2 (the log shows differences only) whose log is the sample.
fn reproducing(reading: Reading) -> Vec<String> {
    let mut found = Vec::new();
    for code in 0..5u32.pow(6) {
        let p: Vec<u32> = (0..6).map(|i| code / 5u32.pow(i) % 5).collect();
        if p[3..].iter().all(|&c| c == 0) {
            continue;
        }
        for store in 0..3 {
            let text = format!(
                "2\n1\n2\n{} {} {}\n{} {} {}\n{store}\n{store}\n",
                p[0], p[1], p[2], p[3], p[4], p[5]
            );
            if run(&text, reading).1 == SAMPLE_LOG {
                found.push(format!(
                    "{} {} {} / {} {} {} / {store} {store}",
                    p[0], p[1], p[2], p[3], p[4], p[5]
                ));
            }
        }
    }
    found
}

#[test]
fn the_sample_log_is_reproduced_under_the_sample_reading_only() {
    let (next, log) = run("2\n1\n2\n3 3 3\n3 3 3\n0\n0\n", Reading::Sample);
    assert_eq!(log, SAMPLE_LOG);
    assert_eq!(next, "3 4 4\n0 0 5\n0\n2\n");
    let found = reproducing(Reading::Sample);
    assert!(found.contains(&"3 3 3 / 3 3 3 / 0 0".to_string()));
    if std::env::var_os("MANCALA_LIST_SAMPLES").is_some() {
        eprintln!("{} inputs:\n{}", found.len(), found.join("\n"));
    }
    assert_eq!(found.len(), 162, "the list in docs/ASSIGNMENT.md");
    assert!(reproducing(Reading::Textbook).is_empty());
}

/// Boards worked by hand (docs/ASSIGNMENT.md walks through each).
#[test]
fn golden_files_worked_by_hand() {
    // Task 1, a capture: B2 sows its one stone into the empty B3 and takes
    // A3's two (3 in all); B4 only banks one.
    let (next, log) = run("1\n1\n9\n1 2 3\n1 0 2\n0\n0\n", Reading::Sample);
    assert_eq!(next, "1 0 3\n0 0 2\n0\n3\n");
    assert!(log.is_empty(), "greedy writes no log");
    // Task 2 at depth 1, extra-turn chains: B3 then B4 banks 2; B4, B3, B4
    // banks 3 but empties player 1's row on an extra turn, which ends the
    // game with player 2 taking its 3 stones.
    let (next, log) = run("2\n1\n1\n1 1 1\n0 2 1\n0\n0\n", Reading::Sample);
    assert_eq!(next, "1 1 2\n0 0 0\n0\n2\n");
    assert_eq!(
        log,
        "Node,Depth,Value\nB3,1,Infinity\nB4,1,2\nB3,1,2\nroot,0,2\nB4,1,Infinity\n\
         B3,1,Infinity\nB4,1,0\nB3,1,0\nB4,1,0\nroot,0,2\n"
    );
    // Task 3 for player 2: captures with a full and with an empty opposite
    // pit, an extra turn at the cut-off depth, and a move that ends the game.
    let (next, log) = run("3\n2\n2\n0 1 2\n1 1 1\n0\n0\n", Reading::Sample);
    assert_eq!(next, "0 2 0\n0 1 1\n2\n0\n");
    assert_eq!(
        log,
        "Node,Depth,Value,Alpha,Beta\n\
         A3,1,Infinity,-Infinity,Infinity\n\
         B3,2,2,-Infinity,Infinity\n\
         A3,1,2,-Infinity,2\n\
         B4,2,-Infinity,-Infinity,2\n\
         B3,2,-2,-Infinity,2\n\
         B4,2,-2,-2,2\n\
         A3,1,-2,-Infinity,-2\n\
         root,0,-2,-2,Infinity\n\
         A4,1,Infinity,-2,Infinity\n\
         B3,2,2,-2,Infinity\n\
         A4,1,2,-2,2\n\
         B4,2,-Infinity,-2,2\n\
         B3,2,0,-2,2\n\
         B4,2,0,0,2\n\
         A4,1,0,-2,0\n\
         root,0,0,0,Infinity\n"
    );
    // Task 3 for player 1: the best turn is B4 then B2 (an extra turn, then
    // a capture); one line ends the game when player 1 is left to move with
    // an empty row.
    let (next, log) = run("3\n1\n2\n1 1 1\n1 0 1\n0\n0\n", Reading::Sample);
    assert_eq!(next, "1 0 1\n0 0 0\n0\n3\n");
    assert_eq!(log.lines().count(), 19);
    assert!(log.ends_with("B4,1,1,0,1\nroot,0,1,1,Infinity\n"));
}

/// Alpha-beta finds minimax's value and turn, and logs no more nodes, on
/// random boards of every width, under both readings.
#[test]
fn alpha_beta_agrees_with_minimax() {
    let mut rng = seeded(3);
    let mut pruned = 0;
    for _ in 0..400 {
        let n = rng.gen_range(3..=6);
        let row = |rng: &mut mancala_solver::rng::SeededRng| {
            (0..n)
                .map(|_| rng.gen_range(0..=4).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (a, b) = (row(&mut rng), row(&mut rng));
        let player = rng.gen_range(1..=2);
        let depth = rng.gen_range(1..=3);
        let body = format!(
            "{player}\n{depth}\n{a}\n{b}\n{}\n{}\n",
            rng.gen_range(0..5),
            rng.gen_range(0..5)
        );
        if Input::parse(&format!("2\n{body}")).is_err() {
            continue; // the player has no stone
        }
        for reading in [Reading::Sample, Reading::Textbook] {
            let (next_mm, log_mm) = run(&format!("2\n{body}"), reading);
            let (next_ab, log_ab) = run(&format!("3\n{body}"), reading);
            assert_eq!(next_mm, next_ab, "{body}");
            let last = |log: &str| {
                log.lines()
                    .last()
                    .unwrap()
                    .split(',')
                    .nth(2)
                    .unwrap()
                    .to_string()
            };
            assert_eq!(last(&log_mm), last(&log_ab), "{body}");
            assert!(log_ab.lines().count() <= log_mm.lines().count());
            pruned += usize::from(log_ab.lines().count() < log_mm.lines().count());
        }
    }
    assert!(pruned > 100, "alpha-beta pruned in only {pruned} searches");
}

#[test]
fn wide_boards_and_the_competition() {
    // Ten pits of 1000 stones: every task runs and keeps the 20,000 stones.
    for task in 1..=4 {
        let row = ["1000"; 10].join(" ");
        let input = Input::parse(&format!("{task}\n2\n2\n{row}\n{row}\n0\n0\n")).unwrap();
        let mut log = Vec::new();
        let d = decide(
            &input,
            Reading::Sample,
            &mut log,
            Duration::from_millis(300),
        )
        .unwrap();
        let total: u64 = d
            .next_state()
            .split_whitespace()
            .map(|w| w.parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 20_000, "task {task}");
        assert!(!d.moves.is_empty());
        assert!(d.moves.iter().all(|m| m.starts_with('A')));
    }
    // On a board the solver holds, the competition plays the exact best
    // turn: Kalah(3,3) under these rules is solved in well under a second.
    let input = Input::parse("4\n1\n1\n3 3 3\n3 3 3\n0\n0\n").unwrap();
    assert_eq!(input.task, Task::Competition);
    let d = decide(
        &input,
        Reading::Sample,
        &mut Vec::new(),
        Duration::from_secs(5),
    )
    .unwrap();
    let narrow = input.position.narrow().unwrap();
    let options = mancala_solver::SolveOptions {
        rules: mancala_solver::KalahRules::EndWhenMoverEmpty,
        ..Default::default()
    };
    let exact = mancala_solver::solve(&narrow, None, &options).unwrap();
    assert_eq!(d.value, exact.value);
    let names: Vec<String> = exact
        .best_turn()
        .iter()
        .map(|p| format!("B{}", p + 2))
        .collect();
    assert_eq!(d.moves, names);
}

#[test]
fn the_command_writes_the_files_and_refuses_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let input = dir.join("input.txt");
    std::fs::write(&input, "2\n1\n2\n3 3 3\n3 3 3\n0\n0\n").unwrap();
    let out = dir.join("out");
    let (code, _, err) = common::mancala(
        &[
            "assignment",
            input.to_str().unwrap(),
            "--out-dir",
            out.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("traverse_log.txt")).unwrap(),
        SAMPLE_LOG
    );
    assert_eq!(
        std::fs::read_to_string(out.join("next_state.txt")).unwrap(),
        "3 4 4\n0 0 5\n0\n2\n"
    );
    // Bad input: exit 2, one line naming the line, nothing written.
    for (text, line) in [
        ("2\n1\n2\n3 3 3\n3 3 3\n0\n", "line 7"),
        ("2\n1\n2\n3 3\n3 3 3\n0\n0\n", "line 4"),
        ("2\n1\n2\n3 3 3\n0 0 0\n0\n0\n", "line 5"),
        (
            "2\n1\n2\n3 3 3 3 3 3 3 3 3 3 3\n3 3 3 3 3 3 3 3 3 3 3\n0\n0\n",
            "line 4",
        ),
        ("2\n1\n2\n3 3 3\n3 -1 3\n0\n0\n", "line 5"),
        ("2\n1\n2\n3 3 3\n3 5000 3\n0\n0\n", "line 5"),
        ("7\n1\n2\n3 3 3\n3 3 3\n0\n0\n", "line 1"),
    ] {
        std::fs::write(&input, text).unwrap();
        let fresh = dir.join("fresh");
        let (code, _, err) = common::mancala(
            &[
                "assignment",
                input.to_str().unwrap(),
                "--out-dir",
                fresh.to_str().unwrap(),
            ],
            &dir,
        );
        assert_eq!(code, 2, "{text:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(line), "{text:?}: {err}");
        assert!(!fresh.exists(), "nothing is written for bad input");
    }
    let (code, _, err) = common::mancala(&["assignment", "missing.txt"], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("missing.txt"), "{err}");
}
