//! The exact search for games with cycles (`search::cyclic`, Awari and Oware
//! through `search::awari`) against the tables, which the retrograde builder
//! made and which share nothing with the search but the rules:
//! - every board of small layers solved with no table at all (every cycle
//!   met by the search's repetition rule, none by a table);
//! - whole solves: value, every move's value, a principal variation that
//!   replays to the value, and a stopped search that reports bounds only;
//! - the front ends above the tables: `grade`'s loss of every move of
//!   random games by the search against the tables', and the perfect agent's
//!   moves, proven by the search, keeping the tables' value.

use std::sync::Arc;
use std::time::Duration;

mod common;
use common::mancala;

use mancala_solver::awari::position::AwariPosition;
use mancala_solver::awari::reference::awari_boards;
use mancala_solver::awari::rules::AwariGame;
use mancala_solver::family::Rules;
use mancala_solver::play::agents::perfect::PerfectAgent;
use mancala_solver::play::agents::Agent;
use mancala_solver::play::grade::{loss, Graded, ValueSource};
use mancala_solver::play::state::State;
use mancala_solver::search::awari::{solve_awari, AwariBoards};
use mancala_solver::search::cyclic::{solve_board, CyclicOptions, Wanted};
use mancala_solver::search::TransTable;
use mancala_solver::tablebase::build::{build as build_tables, BuildOptions};
use mancala_solver::tablebase::SharedTables;
use mancala_solver::tablebase::TableSet;

fn build(dir: &std::path::Path, game: AwariGame, pits: usize, max_seeds: usize) {
    build_tables(&BuildOptions {
        dir: dir.to_path_buf(),
        game,
        pits,
        max_seeds,
        threads: Some(2),
        memory_budget: 8 << 30,
        group_bytes: None,
        progress: Default::default(),
    })
    .unwrap();
}

fn small() -> CyclicOptions {
    CyclicOptions {
        tt_mb: 4,
        ..CyclicOptions::default()
    }
}

#[test]
fn every_small_board_solved_without_tables_matches_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    for game in AwariGame::ALL {
        let mut boards = 0;
        for (m, max_k) in [(2, 12), (3, 8), (4, 3)] {
            build(dir.path(), game, m, max_k);
            let tb = TableSet::open(dir.path(), game, m, max_k).unwrap();
            let search = AwariBoards::new(game, m, None, None).unwrap();
            for k in 1..=max_k {
                for board in awari_boards(m, k) {
                    let sol = solve_board(search, &board, Wanted::VALUE, &small());
                    let want = tb.board_value(&board).unwrap();
                    assert_eq!(
                        sol.proven.exact(),
                        Some(want),
                        "{game} m={m} board {:?}",
                        &board[..2 * m]
                    );
                    boards += 1;
                }
            }
        }
        assert!(boards > 4500, "{game}: {boards} boards");
    }
}

#[test]
fn a_solve_gives_every_move_and_a_line_that_replays_to_the_value() {
    let dir = tempfile::tempdir().unwrap();
    for game in AwariGame::ALL {
        build(dir.path(), game, 3, 4);
        let tb = TableSet::open(dir.path(), game, 3, 4).unwrap();
        // 3 pits, 2 seeds a pit: 12 seeds, 8 above the tables.
        let start = AwariPosition::start(3, 2).unwrap();
        let sol = solve_awari(game, &start, Some(&tb), None, Wanted::ALL, &small()).unwrap();
        let v = sol.value.expect("exact");
        assert_eq!((sol.lower, sol.upper), (v, v));
        let best = sol.moves.iter().map(|m| m.lower).max().unwrap();
        assert_eq!(best, v, "{game}: the best move has the value");
        assert!(sol.moves.iter().all(|m| m.lower == m.upper));
        let pit = sol.best_move.expect("a best move");
        let mv = sol.moves.iter().find(|m| m.pit == pit).unwrap();
        assert_eq!(mv.lower, v, "{game}: the best move keeps the value");
        // The line replays to the value: captured difference at its end,
        // plus 0 for the seeds left if it ends in a repetition.
        let mut end = start;
        end.play_line(&sol.pv, game)
            .unwrap_or_else(|e| panic!("{game}: {} does not replay: {e}", sol.pv));
        end.finish(game);
        let [south, north] = end.captured();
        assert_eq!(south as i32 - north as i32, v, "{game}: {}", sol.pv);
        // The same start solved with no table at all agrees.
        let bare = solve_awari(game, &start, None, None, Wanted::LINE, &small()).unwrap();
        assert_eq!(bare.value, Some(v), "{game}");
    }
}

#[test]
fn a_stopped_search_reports_proven_bounds_and_no_value() {
    let game = AwariGame::Awari;
    let start = AwariPosition::start(6, 4).unwrap();
    let options = CyclicOptions {
        deadline: Some(std::time::Instant::now() + Duration::from_millis(200)),
        ..small()
    };
    let sol = solve_awari(game, &start, None, None, Wanted::LINE, &options).unwrap();
    assert_eq!(sol.value, None);
    assert!(sol.lower < sol.upper);
    assert!(-48 <= sol.lower && sol.upper <= 48);
    assert!(sol.pv.is_empty());
}

#[test]
fn verify_by_search_and_solve_above_the_tables_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    let db = db.to_str().unwrap();
    for game in ["awari", "oware"] {
        let (code, _, err) = mancala(
            &["build", game, "--pits", "3", "--max-seeds", "7", "--db", db],
            d,
        );
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = mancala(
            &[
                "verify",
                game,
                "--pits",
                "3",
                "--seeds",
                "7",
                "--sample",
                "400",
                "--by-search",
                "4",
                "--db",
                db,
            ],
            d,
        );
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("400 of 400 sampled entries"), "{out}");
        assert!(out.contains("0 skipped, 0 mismatches"), "{out}");
    }
    // Awari(6,4) is beyond the tables built on first use: the search, and
    // proven bounds when --time runs out.
    let (code, out, err) = mancala(
        &["solve", "awari", "6", "4", "--db", db, "--time", "0.5"],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("exact search"), "{out}");
    assert!(out.contains("proven bounds"), "{out}");
    // --no-build: the search over the tables on disk (7 seeds; Awari(3,3)
    // has 18), with a checkpoint; resumed from it, the value at once; a
    // checkpoint of another game is refused.
    let solve = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "awari",
            "3",
            "3",
            "--db",
            db,
            "--no-build",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        mancala(&args, d)
    };
    let (code, out, err) = solve(&["--checkpoint", "a33.ck"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--no-build: solving by the exact search"),
        "{err}"
    );
    assert!(err.contains("checkpoint a33.ck written"), "{err}");
    let value = out
        .lines()
        .find(|l| l.starts_with("value:"))
        .unwrap()
        .to_string();
    let (code, out, err) = solve(&["--resume", "a33.ck"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&value), "{out}");
    let (code, _, err) = mancala(
        &[
            "solve",
            "oware",
            "3",
            "3",
            "--db",
            db,
            "--no-build",
            "--resume",
            "a33.ck",
        ],
        d,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the checkpoint was made for awari"), "{err}");
    let (code, _, err) = mancala(
        &[
            "solve",
            "vai-lung-thlan",
            "6",
            "1",
            "--db",
            db,
            "--checkpoint",
            "v.ck",
        ],
        d,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("apply to the exact searches"), "{err}");
}

/// The search against the tables on 10,000 sampled entries per rule set,
/// each solved probing only smaller tables: one level above them (3 pits,
/// 10 seeds over 9; 2 pits, 14 over 13) and several levels above (3 pits,
/// 12 seeds over 8; 2 pits, 20 over 12, where captures of every size are
/// searched before a table is reached). No entry may be skipped or differ.
#[test]
#[ignore = "slow, about 40 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn ten_thousand_entries_per_rule_set_agree_with_the_tables() {
    use mancala_solver::progress::Observer;
    use mancala_solver::search::awari::cross_check_awari;
    use mancala_solver::search::cross_check::CrossCheck;
    let dir = tempfile::tempdir().unwrap();
    for game in AwariGame::ALL {
        let mut checked = 0;
        for (pits, seeds, probe, sample) in [
            (3, 10, 9, 2500),
            (3, 12, 8, 2500),
            (2, 14, 13, 2500),
            (2, 20, 12, 2500),
        ] {
            build(dir.path(), game, pits, seeds);
            let set = TableSet::open(dir.path(), game, pits, seeds).unwrap();
            let check = CrossCheck {
                seeds,
                probe_seeds: probe,
                sample,
                seed: 41,
                limit: Duration::from_secs(60),
                tt_mb: 8,
            };
            let report = cross_check_awari(&set, &check, 2, &Observer::silent()).unwrap();
            assert_eq!(report.mismatches, 0, "{game} {report:?}");
            assert_eq!(report.skipped, 0, "{game} {report:?}");
            checked += report.checked;
        }
        assert_eq!(checked, 10_000, "{game}");
    }
}

/// Positions of random games of `game` on `pits` pits, `seeds` a pit.
fn random_positions(game: AwariGame, pits: usize, seeds: usize, games: u64) -> Vec<State> {
    use rand::{Rng, SeedableRng};
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = rand::rngs::StdRng::seed_from_u64(g);
        let mut s = State::start(Rules::Awari(game), pits, seeds).unwrap();
        for _ in 0..40 {
            if s.is_over() {
                break;
            }
            out.push(s.clone());
            let (moves, n) = s.moves();
            s.play(moves[rng.gen_range(0..n)]).unwrap();
        }
    }
    out
}

#[test]
fn grading_above_the_tables_agrees_with_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full"), dir.path().join("part"));
    let tt = Arc::new(TransTable::try_with_kib(1 << 10).unwrap());
    let time = Duration::from_secs(30);
    for game in [AwariGame::Awari, AwariGame::Oware] {
        build(&full, game, 3, 12);
        build(&part, game, 3, 5);
        let all = SharedTables::new(Arc::new(TableSet::open(&full, game, 3, 12).unwrap()));
        let few = SharedTables::new(Arc::new(TableSet::open(&part, game, 3, 5).unwrap()));
        let (mut searched, mut lossy) = (0, 0);
        for s in random_positions(game, 3, 2, 24) {
            let (moves, n) = s.moves();
            for &pit in &moves[..n] {
                let want = loss(&s, pit, Some(&all), time, &tt, 4).unwrap();
                let got = loss(&s, pit, Some(&few), time, &tt, 4).unwrap();
                let Graded::Loss(w, ValueSource::Tables) = want else {
                    panic!("{game}: the full tables do not cover {s:?}: {want:?}");
                };
                // The small tables value a board of 6 seeds whose every
                // move captures; the search values the rest.
                let Graded::Loss(l, source) = got else {
                    panic!("{game}: {s:?} pit {pit} not graded: {got:?}");
                };
                assert_eq!(l, w, "{game}: {s:?} pit {pit}");
                if source == ValueSource::Search {
                    assert!(s.seeds_on_board() > 5, "{s:?}");
                    searched += 1;
                    lossy += usize::from(w > 0);
                }
            }
        }
        assert!(
            searched > 300 && lossy > 50,
            "{game}: {searched} moves, {lossy} losing"
        );
    }
}

#[test]
fn the_perfect_agent_plays_proven_moves_above_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    for game in [AwariGame::Awari, AwariGame::Oware] {
        build(dir.path(), game, 3, 12);
        build(&dir.path().join("few"), game, 3, 4);
        let all = TableSet::open(dir.path(), game, 3, 12).unwrap();
        let few = Arc::new(TableSet::open(&dir.path().join("few"), game, 3, 4).unwrap());
        let mut agent =
            PerfectAgent::new(game, Some(few), Duration::from_secs(20), "perfect".into()).unwrap();
        let mut exact = 0;
        for s in random_positions(game, 3, 2, 12) {
            let State::Awari(a) = &s else { unreachable!() };
            if s.seeds_on_board() <= 4 || s.moves().1 < 2 {
                continue;
            }
            let c = agent.choose(&s);
            // The small tables cover a board whose every move captures.
            if !c.value_kind.contains("(tables)") {
                assert!(c.value_kind.contains("exact search"), "{}", c.value_kind);
                exact += 1;
            }
            // The move keeps the tables' value of the position.
            let values = all.move_values(a.position()).unwrap();
            let best = values.iter().map(|m| m.value).max().unwrap();
            let chosen = values.iter().find(|m| m.pit == c.pit).unwrap().value;
            assert_eq!(chosen, best, "{game}: {s:?} pit {}", c.pit);
        }
        assert!(exact > 40, "{game}: {exact} positions");
    }
}

#[test]
fn a_stopped_search_goes_on_from_its_checkpoint() {
    use mancala_solver::error::Error;
    use mancala_solver::progress::{Event, Observer};
    use mancala_solver::search::cyclic::{CheckpointTo, CyclicCheckpoint};
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let game = AwariGame::Awari;
    build(dir.path(), game, 3, 4);
    let tb = TableSet::open(dir.path(), game, 3, 4).unwrap();
    // Awari(3,3), 18 seeds over the 4-seed tables, MTD(f) from far above
    // the value: several passes.
    let start = AwariPosition::start(3, 3).unwrap();
    let far = CyclicOptions {
        guess: 9,
        ..small()
    };
    let full = solve_awari(game, &start, Some(&tb), None, Wanted::VALUE, &far).unwrap();
    let v = full.value.expect("solved");
    // Stopped right after the root's first MTD(f) pass.
    let stop = Arc::new(AtomicBool::new(false));
    let raise = stop.clone();
    let path = dir.path().join("awari.ck");
    let to = CheckpointTo {
        path: path.clone(),
        identity: String::new(),
        every: Duration::ZERO,
    };
    let options = CyclicOptions {
        guess: 9,
        stop: Some(stop),
        progress: Observer::new(move |e: &Event<'_>| {
            if matches!(e, Event::Search { .. }) {
                raise.store(true, Ordering::Relaxed);
            }
        }),
        checkpoint: Some(to.clone()),
        ..small()
    };
    let cut = solve_awari(game, &start, Some(&tb), None, Wanted::VALUE, &options).unwrap();
    assert_eq!(cut.value, None, "the search was not stopped");
    assert!(cut.checkpoints >= 1 && cut.checkpoint_error.is_none());
    let ck = CyclicCheckpoint::read(&path).unwrap();
    assert!(!ck.is_empty());
    assert_eq!(ck.head.nodes, cut.stats.nodes);
    // Its bounds are the stopped solve's, on the seeds still to win.
    assert_eq!((ck.head.lower, ck.head.upper), (cut.lower, cut.upper));
    assert!(ck.head.lower <= v && v <= ck.head.upper);
    // Resumed, with a checkpoint again: the same value, and a finished
    // checkpoint counting both solves' nodes.
    let passes = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let count = passes.clone();
    let options = CyclicOptions {
        progress: Observer::new(move |e: &Event<'_>| {
            if matches!(e, Event::Search { .. }) {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }),
        resume: Some(Arc::new(ck)),
        checkpoint: Some(to),
        ..small()
    };
    let again = solve_awari(game, &start, Some(&tb), None, Wanted::VALUE, &options).unwrap();
    assert_eq!(again.value, Some(v));
    assert!(passes.load(Ordering::Relaxed) >= 1);
    // (Fewer nodes than the whole solve is not promised: this search's
    // cost swings with the order of MTD(f)'s passes, and the
    // path-dependent entries are not saved.)
    let done = CyclicCheckpoint::read(&path).unwrap();
    assert_eq!((done.head.lower, done.head.upper), (v, v));
    assert_eq!(done.head.nodes, cut.stats.nodes + again.stats.nodes);
    // Another board, rule set or table set: refused.
    let resume = Some(Arc::new(done.clone()));
    let other = AwariPosition::start(3, 2).unwrap();
    for (g, p, t) in [
        (game, &other, Some(&tb)),
        (AwariGame::Oware, &start, None),
        (game, &start, None),
    ] {
        let o = CyclicOptions {
            resume: resume.clone(),
            ..small()
        };
        let e = solve_awari(g, p, t, None, Wanted::VALUE, &o).unwrap_err();
        assert!(matches!(e, Error::WrongCheckpoint { .. }), "{e}");
    }
    // A damaged or truncated file: refused with its reason.
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = CyclicCheckpoint::read(&path).unwrap_err();
    assert!(e.to_string().contains("checksum"), "{e}");
    std::fs::write(&path, &bytes[..n / 3]).unwrap();
    assert!(matches!(
        CyclicCheckpoint::read(&path),
        Err(Error::BadCheckpoint { .. })
    ));
    std::fs::write(&path, b"not a checkpoint").unwrap();
    let e = CyclicCheckpoint::read(&path).unwrap_err();
    assert!(e.to_string().contains("not a checkpoint"), "{e}");
}

/// `solve --time T` ends near T even where the principal variation is the
/// hard part: each ply of the line is a search with the line so far on the
/// path, and a line searched with no deadline once ran for minutes past
/// `--time 5` (this board, 59,000 plies deep). `--max-table-seeds` below
/// the board's seeds solves by the search although a table holds it.
#[test]
fn a_timed_solve_ends_on_time_even_when_its_line_is_hard() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), AwariGame::Awari, 6, 12);
    let db = dir.path().to_str().unwrap();
    let board = "2 0 1 0 3 0 0 1 0 2 1 2";
    let (code, out, err) = mancala(&["solve", "awari", board, "--db", db, "--json"], dir.path());
    assert_eq!(code, 0, "{err}");
    let table: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(table["source"], "tables", "{out}");
    let value = table["value"].as_i64().unwrap();
    let started = std::time::Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "solve",
            "awari",
            board,
            "--db",
            db,
            "--max-table-seeds",
            "11",
        ])
        .args(["--time", "2", "--threads", "1", "--json", "--quiet"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let elapsed = started.elapsed();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    assert!(
        elapsed < Duration::from_secs(12),
        "--time 2 took {elapsed:?}"
    );
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["source"], "search", "{s}");
    let sol = &s["solution"];
    let (lo, hi) = (
        sol["lower"].as_i64().unwrap(),
        sol["upper"].as_i64().unwrap(),
    );
    assert!(lo <= value && value <= hi, "[{lo}, {hi}] against {value}");
}
