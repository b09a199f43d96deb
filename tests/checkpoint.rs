//! Checkpoints of a solve: saved and read back unchanged, a chain of
//! stopped and resumed solves reaching the straight value, a solve killed
//! by SIGTERM and resumed, finished checkpoints answering at once, and
//! damaged checkpoints or checkpoints of other solves refused; `.zst`
//! games files of `match` and `tournament`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::{
    solve, Checkpoint, CheckpointReason, Checkpointing, SolveOptions, TransTable, CHECKPOINT_MAGIC,
};

mod common;
use common::mancala;

/// Checkpoints a solve saves, kept in memory with the reason of each.
type Saved = Arc<Mutex<Vec<(CheckpointReason, Checkpoint)>>>;

fn keeping(saved: &Saved) -> Checkpointing {
    let saved = saved.clone();
    Checkpointing {
        every: Duration::from_secs(3600),
        max_entries: usize::MAX,
        save: Arc::new(move |c, reason| {
            saved.lock().unwrap().push((reason, c.clone()));
            Ok(0)
        }),
    }
}

/// A chain of solves, each stopped as soon as the stop flag is honoured
/// (after the first iteration it completes, or after 1024 nodes of the
/// exact search) and resumed from the checkpoint the last one saved
/// through a file, reaches the value of a straight solve; every
/// checkpoint reads back equal to what was written, and its bounds hold
/// the value.
#[test]
fn stopped_and_resumed_solves_reach_the_straight_value() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chain.ckpt");
    for (rules, m, n) in [
        (KalahRules::Default, 3, 8),
        (KalahRules::CaptureNeedsOpposite, 4, 3),
    ] {
        let start = Position::start(m, n).unwrap();
        let base = SolveOptions {
            rules,
            tt_mb: 1,
            threads: 1,
            ..SolveOptions::default()
        };
        let straight = solve(&start, None, &base).unwrap();
        assert!(straight.exact);

        let stop = Arc::new(AtomicBool::new(true));
        let mut resume: Option<Arc<Checkpoint>> = None;
        let mut steps = 0;
        let mut stages = Vec::new();
        let value = loop {
            steps += 1;
            assert!(
                steps < 5000,
                "{rules:?} {m} {n}: no end after {steps} steps"
            );
            let saved: Saved = Arc::default();
            let o = SolveOptions {
                stop: Some(stop.clone()),
                checkpoint: Some(keeping(&saved)),
                resume: resume.clone(),
                ..base.clone()
            };
            let sol = solve(&start, None, &o).unwrap();
            let saved = std::mem::take(&mut *saved.lock().unwrap());
            assert_eq!(saved.len(), 1, "one checkpoint when the solve returns");
            let (reason, c) = &saved[0];
            c.write(&file).unwrap();
            let back = Checkpoint::read(&file).unwrap();
            assert!(&back == c, "the file reads back as written");
            let st = &back.state;
            assert!(st.lower <= straight.value && straight.value <= st.upper);
            if !st.root_moves.is_empty() {
                let best_lower = st.root_moves.iter().map(|r| r.lower).max().unwrap();
                let best_upper = st.root_moves.iter().map(|r| r.upper).max().unwrap();
                assert!(best_lower <= straight.value && straight.value <= best_upper);
            }
            stages.push((st.depth, st.exact_started));
            if sol.exact {
                assert_eq!(*reason, CheckpointReason::Finished);
                assert_eq!(st.finished.as_ref().map(|f| f.value), Some(sol.value));
                break sol.value;
            }
            assert_eq!(*reason, CheckpointReason::Stopped);
            resume = Some(Arc::new(back));
        };
        assert_eq!(value, straight.value, "{rules:?} Kalah({m},{n})");
        assert!(
            steps > 3,
            "the chain was stopped and resumed ({steps} steps)"
        );
        // Iterative deepening went on where it stopped, then the exact search.
        assert_eq!(stages[0], (10, false));
        assert_eq!(stages[1], (20, false));
        assert!(stages[2..].iter().all(|&(d, exact)| d == 20 && exact));

        // The finished checkpoint answers at once, with its principal variation.
        let fin = Arc::new(Checkpoint::read(&file).unwrap());
        let again = solve(
            &start,
            None,
            &SolveOptions {
                resume: Some(fin),
                ..base.clone()
            },
        )
        .unwrap();
        assert!(again.exact);
        assert_eq!(again.value, straight.value);
        assert_eq!(again.stats.nodes, 0);
        let fin_pv = &Checkpoint::read(&file)
            .unwrap()
            .state
            .finished
            .unwrap()
            .pv_turns;
        assert_eq!(&again.pv_turns, fin_pv);
    }
}

/// A checkpoint of one solve is refused by the library for another
/// position or rule set, before anything is searched.
#[test]
fn the_library_refuses_a_checkpoint_of_another_solve() {
    let saved: Saved = Arc::default();
    let start = Position::start(4, 3).unwrap();
    let o = SolveOptions {
        tt_mb: 1,
        threads: 1,
        deadline: Some(Instant::now()),
        checkpoint: Some(keeping(&saved)),
        ..SolveOptions::default()
    };
    solve(&start, None, &o).unwrap();
    let c = Arc::new(saved.lock().unwrap()[0].1.clone());
    let resumed = |pos: &Position, rules| {
        solve(
            pos,
            None,
            &SolveOptions {
                rules,
                resume: Some(c.clone()),
                ..SolveOptions::default()
            },
        )
    };
    let other = Position::start(4, 4).unwrap();
    let e = resumed(&other, KalahRules::Default).unwrap_err();
    assert!(e.to_string().contains("position"), "{e}");
    let e = resumed(&start, KalahRules::EndWhenMoverEmpty).unwrap_err();
    assert!(e.to_string().contains("end-when-mover-empty"), "{e}");
    assert!(resumed(&start, KalahRules::Default).unwrap().exact);
}

/// A resumed solve's checkpoint holds every entry of the checkpoint it
/// resumed from (issue 43): here the resumed solve's table (4,096
/// entries) is far too small for them, and before, its checkpoint held
/// only what the table kept, and overwriting the file it resumed from
/// lost the rest. Each entry is kept, or replaced by a deeper one.
#[test]
fn a_resumed_solves_checkpoint_keeps_the_entries_it_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k46.ckpt");
    let start = Position::start(4, 6).unwrap();
    let small = Arc::new(TransTable::try_with_kib(64).unwrap());
    let room = small.capacity();
    // A stopped solve with a big table, given work enough to fill it with
    // many times what the small one holds. A budget of nodes, not of time:
    // the whole solve takes about 2.2 million nodes (0.2 s on a fast
    // machine, where a deadline of 200 ms let it finish).
    let mut nodes = 200_000;
    let had = loop {
        let saved: Saved = Arc::default();
        let first = SolveOptions {
            tt_mb: 32,
            threads: 1,
            node_limit: Some(nodes),
            checkpoint: Some(keeping(&saved)),
            ..SolveOptions::default()
        };
        assert!(!solve(&start, None, &first).unwrap().exact, "{nodes} nodes");
        let (reason, c) = saved.lock().unwrap().pop().unwrap();
        assert_eq!(reason, CheckpointReason::Stopped);
        if c.entries.len() > 8 * room || nodes >= 1_600_000 {
            c.write(&file).unwrap();
            break Arc::new(Checkpoint::read(&file).unwrap());
        }
        nodes *= 2;
    };
    assert!(
        had.entries.len() > 8 * room,
        "more entries than the small table holds: {}",
        had.entries.len()
    );

    let saved: Saved = Arc::default();
    let resumed = SolveOptions {
        shared_tt: Some(small),
        threads: 1,
        stop: Some(Arc::new(AtomicBool::new(true))),
        resume: Some(had.clone()),
        checkpoint: Some(keeping(&saved)),
        ..SolveOptions::default()
    };
    assert!(!solve(&start, None, &resumed).unwrap().exact);
    let (reason, c) = saved.lock().unwrap().pop().unwrap();
    assert_eq!(reason, CheckpointReason::Stopped);
    c.write(&file).unwrap();
    let again = Checkpoint::read(&file).unwrap();
    let now: std::collections::HashMap<_, _> = again.entries.iter().copied().collect();
    let lost = had
        .entries
        .iter()
        .filter(|(k, e)| now.get(k).is_none_or(|n| n.depth < e.depth))
        .count();
    assert_eq!(
        lost,
        0,
        "{lost} of {} entries lost ({} in the new checkpoint)",
        had.entries.len(),
        again.entries.len()
    );
}

/// The JSON of a `solve` run.
fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// A solve stopped by SIGTERM once its first periodic checkpoint exists
/// (or after 0.2 s) exits with 130 after writing its last
/// checkpoint; resumed from it, the
/// solve reaches the value of a straight solve, and the checkpoint it then
/// leaves is finished.
#[test]
fn a_solve_killed_by_sigterm_resumes_to_the_straight_value() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("k.ckpt");
    // Kalah(4,8) without tables: about 5 s in the test profile, so that
    // the signal lands long before the end even when the first checkpoint
    // comes late on a busy machine (Kalah(4,7), 1 s, sometimes finished
    // first).
    let solve_args = ["solve", "kalah", "4", "8", "--no-tables", "--threads", "2"];
    let child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(solve_args)
        .args(["--quiet", "--json", "--checkpoint", "k.ckpt"])
        .args(["--checkpoint-every", "0.3"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The periodic checkpoints run at a lowered priority and may come
    // late on a busy machine: SIGTERM after the first one or 0.2 s,
    // whichever comes first (the solve takes seconds).
    let t = Instant::now();
    while !ckpt.exists() && t.elapsed() < Duration::from_millis(200) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let kill = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let stopped = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(stopped["exact"], false);
    assert_eq!(stopped["stopped_by_signal"], true);

    let (code, straight, err) = mancala(
        &[&solve_args[..], &["--quiet", "--json"]].concat(),
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let straight = json(&straight);

    let resume_args = [
        "--quiet",
        "--json",
        "--resume",
        "k.ckpt",
        "--checkpoint",
        "k.ckpt",
    ];
    let (code, resumed, err) = mancala(&[&solve_args[..], &resume_args].concat(), dir.path());
    assert_eq!(code, 0, "{err}");
    let resumed = json(&resumed);
    assert_eq!(resumed["resumed_from"]["finished"], false);
    assert!(resumed["resumed_from"]["entries"].as_u64().unwrap() > 0);
    assert_eq!(resumed["exact"], true);
    assert_eq!(resumed["value"], straight["value"]);

    // Now finished: resuming answers at once.
    let (code, again, err) = mancala(
        &[&solve_args[..], &["--json", "--resume", "k.ckpt"]].concat(),
        dir.path(),
    );
    assert_eq!(code, 0, "{err}");
    let again = json(&again);
    assert_eq!(again["resumed_from"]["finished"], true);
    assert_eq!(again["value"], straight["value"]);
    assert_eq!(again["stats"]["nodes"], 0);
    // No temporary file is left beside the checkpoint.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["k.ckpt"]);
}

/// A stopped checkpoint of Kalah(4,5) written by `solve --time 0` (it stops
/// after the first iteration) in `dir`, as bytes.
fn stopped_checkpoint(dir: &Path, extra: &[&str]) -> Vec<u8> {
    let args = [
        &[
            "solve",
            "kalah",
            "4",
            "5",
            "--time",
            "0",
            "--quiet",
            "--checkpoint",
            "c.ckpt",
        ][..],
        extra,
    ]
    .concat();
    let (code, out, err) = mancala(&args, dir);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::read(dir.join("c.ckpt")).unwrap()
}

/// Resume Kalah(4,5) (or what `args` says) from `bytes` written to a file:
/// the exit code and stderr.
fn resume_from(dir: &Path, bytes: &[u8], args: &[&str]) -> (i32, String) {
    std::fs::write(dir.join("r.ckpt"), bytes).unwrap();
    let (code, _, err) = mancala(&[args, &["--quiet", "--resume", "r.ckpt"]].concat(), dir);
    (code, err)
}

/// The one-line error of a refused resume names the file and the problem.
fn assert_refused(code: i32, err: &str, problem: &str) {
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains("checkpoint r.ckpt"), "{err}");
    assert!(err.contains(problem), "wanted \"{problem}\": {err}");
}

#[test]
fn damaged_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = stopped_checkpoint(d, &["--no-tables"]);
    let k45 = ["solve", "kalah", "4", "5", "--no-tables"];
    let (code, err) = resume_from(d, &good, &k45);
    assert_eq!(code, 0, "the undamaged file resumes: {err}");
    assert_eq!(&good[..8], &CHECKPOINT_MAGIC);

    let mut bad = good.clone();
    bad[0] ^= 0xff;
    let (code, err) = resume_from(d, &bad, &k45);
    assert_refused(code, &err, "magic");

    // The header: the position text (offset 22) changed.
    let mut bad = good.clone();
    bad[24] ^= 1;
    let (code, err) = resume_from(d, &bad, &k45);
    assert_refused(code, &err, "header checksum");

    let mut bad = good.clone();
    let last = bad.len() - 10;
    bad[last] ^= 0x40;
    let (code, err) = resume_from(d, &bad, &k45);
    assert_refused(code, &err, "payload checksum");

    let (code, err) = resume_from(d, &good[..good.len() - 100], &k45);
    assert_refused(code, &err, "truncated");
    let (code, err) = resume_from(d, &good[..30], &k45);
    assert_refused(code, &err, "truncated");
    let (code, err) = resume_from(d, &[], &k45);
    assert_refused(code, &err, "magic");

    // A payload that is not zstd, with a matching checksum.
    let pos_len = u16::from_le_bytes([good[20], good[21]]) as usize;
    let at = 22 + pos_len;
    let header_end = at + 20;
    let garbage = vec![0x5au8; 64];
    let mut bad = good[..header_end].to_vec();
    bad[at + 8..at + 16].copy_from_slice(&(garbage.len() as u64).to_le_bytes());
    bad[at + 16..at + 20].copy_from_slice(&crc32fast::hash(&garbage).to_le_bytes());
    let hcrc = crc32fast::hash(&bad);
    bad.extend_from_slice(&hcrc.to_le_bytes());
    bad.extend_from_slice(&garbage);
    let (code, err) = resume_from(d, &bad, &k45);
    assert_refused(code, &err, "does not decompress");
}

#[test]
fn checkpoints_of_other_solves_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plain = stopped_checkpoint(d, &["--no-tables"]);

    let (code, err) = resume_from(d, &plain, &["solve", "kalah", "4", "6", "--no-tables"]);
    assert_refused(code, &err, "position");
    let (code, err) = resume_from(d, &plain, &["solve", "kalah", "5", "5", "--no-tables"]);
    assert_refused(code, &err, "pits");
    let other_rules = [
        "solve",
        "kalah",
        "4",
        "5",
        "--no-tables",
        "--rules",
        "capture-needs-opposite",
    ];
    let (code, err) = resume_from(d, &plain, &other_rules);
    assert_refused(code, &err, "capture-needs-opposite");

    // Tables: made with the 4-pit tables up to 6 seeds, resumed without
    // tables or with tables up to 5 seeds.
    common::kalah_tables(&d.join("db"), 4, 6);
    let with6 = stopped_checkpoint(d, &["--db", "db", "--max-table-seeds", "6", "--no-build"]);
    let k45 = ["solve", "kalah", "4", "5", "--db", "db", "--no-build"];
    let (code, err) = resume_from(d, &with6, &[&k45[..], &["--max-table-seeds", "6"]].concat());
    assert_eq!(code, 0, "the same tables resume: {err}");
    let (code, err) = resume_from(d, &with6, &[&k45[..], &["--max-table-seeds", "5"]].concat());
    assert_refused(code, &err, "tables up to 6 seeds");
    let (code, err) = resume_from(d, &with6, &[&k45[..], &["--no-tables"]].concat());
    assert_refused(code, &err, "tables");
    let (code, err) = resume_from(d, &plain, &[&k45[..], &["--max-table-seeds", "6"]].concat());
    assert_refused(code, &err, "without endgame tables");

    // Awari's search has checkpoints of its own: a Kalah one is refused.
    let (code, _, err) = mancala(&["solve", "awari", "2", "2", "--resume", "r.ckpt"], d);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("not a checkpoint of the search with repetitions"),
        "{err}"
    );
    // Vai Lung Thlan has no search: the flags are refused as usage.
    let (code, _, err) = mancala(
        &["solve", "vai-lung-thlan", "6", "1", "--resume", "r.ckpt"],
        d,
    );
    assert_eq!(code, 2, "{err}");
}

/// The records of a `--games-out` file, read back (through zstd for
/// `.zst`), without their times.
fn records(path: &Path) -> Vec<serde_json::Value> {
    let bytes = std::fs::read(path).unwrap();
    let text = if path.extension().is_some_and(|e| e == "zst") {
        zstd::stream::decode_all(&bytes[..]).unwrap()
    } else {
        bytes
    };
    String::from_utf8(text)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            for k in ["a_time", "b_time"] {
                v.as_object_mut().unwrap().remove(k);
            }
            v
        })
        .collect()
}

#[test]
fn games_out_zst_holds_the_same_records() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (cmd, agents) in [
        ("match", &["greedy", "random"][..]),
        ("tournament", &["greedy", "random", "alphabeta:2"][..]),
    ] {
        let mut outs = Vec::new();
        for name in ["g.jsonl", "g.jsonl.zst"] {
            let args = [
                &[cmd][..],
                agents,
                &["--game", "kalah:4:3", "--games", "4", "--games-out", name],
            ]
            .concat();
            let (code, out, err) = mancala(&args, d);
            assert_eq!(code, 0, "{out}{err}");
            outs.push(records(&d.join(name)));
        }
        let pairings = agents.len() * (agents.len() - 1) / 2;
        assert_eq!(outs[0].len(), 4 * pairings, "{cmd}");
        assert_eq!(
            outs[0], outs[1],
            "{cmd}: the .zst file holds the same games"
        );
        assert!(outs[1][0]["replay"]
            .as_str()
            .unwrap()
            .starts_with("mancala play kalah 4 3"));
        let zst = std::fs::read(d.join("g.jsonl.zst")).unwrap();
        assert_eq!(&zst[..4], &[0x28, 0xb5, 0x2f, 0xfd], "a zstd frame");
    }
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["g.jsonl", "g.jsonl.zst"], "no temporary files left");
}
