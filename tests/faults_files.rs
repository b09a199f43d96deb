//! Faults 5 to 8 and 10 of issue 43, reproduced before they were fixed:
//! files the tool reads that never end or block (devices, named pipes,
//! huge files), the assignment's two files, damaged tuning runs, and
//! output files left empty by a failed write.
//!
//! Every child process runs under a time limit (a read that blocks or never
//! ends fails the test instead of hanging it) and, where a fault would read
//! without bound, under a limit on its address space.

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

/// Limits of a child process.
#[derive(Clone, Copy, Default)]
struct Limits {
    /// Largest file it may write (RLIMIT_FSIZE; SIGXFSZ ignored, so a
    /// write beyond it fails with EFBIG as a write to a full disk fails).
    file_size: Option<u64>,
    /// Its address space (RLIMIT_AS).
    memory: Option<u64>,
}

/// Start `mancala` with `args` in `cwd` under `limits`.
fn spawn(args: &[&str], cwd: &Path, limits: Limits) -> Child {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mancala"));
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls (setrlimit, signal) between
    // fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let set = |resource, n: u64| {
                let l = libc::rlimit {
                    rlim_cur: n,
                    rlim_max: n,
                };
                if libc::setrlimit(resource, &l) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            };
            if let Some(n) = limits.file_size {
                set(libc::RLIMIT_FSIZE, n)?;
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            }
            if let Some(n) = limits.memory {
                set(libc::RLIMIT_AS, n)?;
            }
            Ok(())
        });
    }
    cmd.spawn().expect("run mancala")
}

/// Wait for `child` at most `limit`: its exit code (or `128 + signal`),
/// stdout and stderr; `None` (the child killed) if it ran longer.
fn finish(mut child: Child, limit: Duration) -> Option<(i32, String, String)> {
    use std::os::unix::process::ExitStatusExt;
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let code = out
        .status
        .code()
        .unwrap_or_else(|| 128 + out.status.signal().unwrap_or(0));
    Some((
        code,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// Run `mancala` under `limits` for at most `limit`.
fn run(args: &[&str], cwd: &Path, limits: Limits, limit: Duration) -> (i32, String, String) {
    finish(spawn(args, cwd, limits), limit)
        .unwrap_or_else(|| panic!("{args:?} still ran after {limit:?}: killed"))
}

/// Run and expect a refusal: exit `code`, no panic, stderr containing
/// every one of `needles`, within 20 s and 4 GiB of address space.
fn refused(args: &[&str], cwd: &Path, code: i32, needles: &[&str]) -> String {
    let limits = Limits {
        memory: Some(4 << 30),
        ..Limits::default()
    };
    let (got, _, err) = run(args, cwd, limits, Duration::from_secs(20));
    assert_eq!(got, code, "{args:?}: exit {got}, stderr: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: stderr lacks \"{n}\": {err}");
    }
    err
}

/// Make a named pipe at `path`.
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

/// A sparse file of 16 GiB at `path` starting with `head`.
fn sparse(path: &Path, head: &[u8]) {
    std::fs::write(path, head).unwrap();
    let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.set_len(1 << 34).unwrap();
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Fault 5: every file the tool reads is refused at once when it is a
/// device, a named pipe or far larger than its kind (a checkpoint, an
/// assignment input, weights of either kind, a training curve, a tuning
/// run): before, `/dev/zero` was read until memory ran out and a named
/// pipe blocked for ever.
#[test]
fn files_that_never_end_or_block_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo");
    mkfifo(&fifo);
    let huge = d.join("huge");
    sparse(&huge, b"not the start of any file of the tool");
    let zero = Path::new("/dev/zero");
    for file in [zero, &fifo, &huge] {
        let f = s(file);
        let what = if file == huge {
            "larger than"
        } else if file == zero {
            "a character device, not a regular file"
        } else {
            "a named pipe, not a regular file"
        };
        let checkpoint = if file == huge {
            "not a checkpoint file"
        } else {
            what
        };
        let (bad_file, weights) = if file == huge {
            (1, "far too large")
        } else {
            (2, what)
        };
        let code = if file == huge { 1 } else { 2 };
        refused(
            &["solve", "kalah", "4", "6", "--no-tables", "--resume", f],
            d,
            code,
            &[f, checkpoint],
        );
        refused(&["assignment", f, "--out-dir", "out"], d, 2, &[f, what]);
        refused(
            &["match", &format!("a3c:{f}"), "random"],
            d,
            bad_file,
            &[weights],
        );
        refused(
            &["match", &format!("heuristic10:2:weights={f}"), "random"],
            d,
            2,
            &[what],
        );
        refused(&["train", "plot", f, "--out", "plot.svg"], d, 2, &[f, what]);
    }
    assert!(!d.join("out").exists() && !d.join("plot.svg").exists());
    // The tuning run's file is OUT.state.json.
    for (target, what) in [
        (zero, "a character device"),
        (fifo.as_path(), "a named pipe"),
    ] {
        let state = d.join("w.txt.state.json");
        let _ = std::fs::remove_file(&state);
        std::os::unix::fs::symlink(target, &state).unwrap();
        refused(
            &["tune", "heuristic10", "--out", "w.txt", "--resume"],
            d,
            2,
            &[what],
        );
    }
}

/// Fault 6: a named pipe in place of a table file (or of its lock file)
/// is refused at once by every command that opens tables; `build`
/// replaces it. Before, each blocked for ever in `open`.
#[test]
fn a_named_pipe_in_place_of_a_table_never_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("db");
    common::kalah_tables(&db, 2, 4);
    let table = db.join("kalah-default-m2-k4.tbl");
    std::fs::remove_file(&table).unwrap();
    mkfifo(&table);
    let t = s(&table);
    let dbs = s(&db);
    let limits = Limits::default();
    let limit = Duration::from_secs(30);
    for args in [
        &["query", "kalah", "1 1 0 1 1 0", "--db", dbs][..],
        &["solve", "kalah", "1 1 0 1 1 0", "--db", dbs],
        &[
            "verify", "kalah", "--pits", "2", "--seeds", "4", "--db", dbs,
        ],
        &[
            "match",
            "perfect",
            "random",
            "--game",
            "kalah:2:1",
            "--games",
            "2",
            "--db",
            dbs,
        ],
    ] {
        let (code, _, err) = run(args, d, limits, limit);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains(t) && err.contains("a named pipe, not a table file"),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = common::mancala_with_input(
        &["play", "kalah", "2", "1", "--vs", "perfect", "--vs-db", dbs],
        "q\n",
    );
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("a named pipe, not a table file"), "{err}");
    // `build` rebuilds the table over the pipe.
    let build = [
        "build",
        "kalah",
        "--pits",
        "2",
        "--max-seeds",
        "4",
        "--db",
        dbs,
    ];
    let (code, _, err) = run(&build, d, limits, limit);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::metadata(&table).unwrap().is_file());
    // A named pipe in place of a lock file.
    let lock = db.join(".kalah-default-m2-k5.tbl.lock");
    mkfifo(&lock);
    let build5 = [
        "build",
        "kalah",
        "--pits",
        "2",
        "--max-seeds",
        "5",
        "--db",
        dbs,
    ];
    let (code, _, err) = run(&build5, d, limits, limit);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("its lock file is a named pipe"), "{err}");
}

/// The assignment's input of task `task` on `pits` pits of `seeds`
/// stones to the cut-off depth `depth`.
fn input(dir: &Path, task: u32, depth: u32, pits: usize, seeds: u32) -> PathBuf {
    let row = vec![seeds.to_string(); pits].join(" ");
    let path = dir.join(format!("input-{task}-{depth}-{pits}-{seeds}.txt"));
    std::fs::write(&path, format!("{task}\n1\n{depth}\n{row}\n{row}\n0\n0\n")).unwrap();
    path
}

/// Old files of an earlier run in `out`.
fn old_files(out: &Path) {
    std::fs::create_dir_all(out).unwrap();
    std::fs::write(out.join("traverse_log.txt"), "old log\n").unwrap();
    std::fs::write(out.join("next_state.txt"), "old state\n").unwrap();
}

fn read(p: PathBuf) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// Fault 7: the assignment's two files are written both or neither,
/// checked before any work, and no temporary file outlives its run.
#[test]
fn the_assignment_writes_both_files_or_neither() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("out");
    let o = s(&out);
    let none = Limits::default();
    let t = Duration::from_secs(60);
    // next_state.txt a directory: refused before the search; the old log
    // stays and nothing else is left.
    std::fs::create_dir_all(out.join("next_state.txt")).unwrap();
    std::fs::write(out.join("traverse_log.txt"), "old log\n").unwrap();
    let minimax = input(d, 2, 2, 3, 3);
    let (code, _, err) = run(&["assignment", s(&minimax), "--out-dir", o], d, none, t);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a directory"), "{err}");
    assert_eq!(read(out.join("traverse_log.txt")), "old log\n");
    assert_eq!(names(&out), ["next_state.txt", "traverse_log.txt"]);
    std::fs::remove_dir(out.join("next_state.txt")).unwrap();
    // A task without a log leaves no older log beside its next_state.txt.
    old_files(&out);
    let greedy = input(d, 1, 2, 3, 3);
    let (code, _, err) = run(&["assignment", s(&greedy), "--out-dir", o], d, none, t);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names(&out), ["next_state.txt"]);
    // A log beyond the limit: a minimax log estimated past it is refused
    // at once (a 10-pit depth-10 log is hundreds of gigabytes)...
    old_files(&out);
    let deep = input(d, 2, 10, 10, 4);
    let (code, _, err) = run(&["assignment", s(&deep), "--out-dir", o], d, none, t);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the traverse log would take about")
            && err.contains("TiB (estimated), more than the limit of 1.0 GiB")
            && err.contains("--max-log-size"),
        "{err}"
    );
    // ... and a log that reaches it stops the search.
    let alpha_beta = input(d, 3, 6, 6, 4);
    let args = [
        "assignment",
        s(&alpha_beta),
        "--out-dir",
        o,
        "--max-log-size",
        "10K",
    ];
    let (code, _, err) = run(&args, d, none, t);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("reached the limit of 10.0 KiB") && err.contains("nothing was written"),
        "{err}"
    );
    assert_eq!(read(out.join("traverse_log.txt")), "old log\n");
    assert_eq!(names(&out), ["next_state.txt", "traverse_log.txt"]);
    // A full disk (here a file-size limit: writes fail as on a full disk)
    // stops the search at once and is reported; nothing is replaced.
    let big = input(d, 2, 10, 6, 4);
    let args = [
        "assignment",
        s(&big),
        "--out-dir",
        o,
        "--max-log-size",
        "1T",
    ];
    let full = Limits {
        file_size: Some(1 << 20),
        ..Limits::default()
    };
    let (code, _, err) = run(&args, d, full, Duration::from_secs(20));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(read(out.join("traverse_log.txt")), "old log\n");
    assert_eq!(names(&out), ["next_state.txt", "traverse_log.txt"]);
    // SIGINT and SIGTERM: the temporaries are removed, the old files kept.
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let child = spawn(&args, d, none);
        let tmp = out.join(format!(".traverse_log.txt.tmp-{}", child.id()));
        let start = Instant::now();
        while !tmp.exists() {
            assert!(start.elapsed() < Duration::from_secs(20), "no temporary");
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: a signal to the child this test started.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let (got, _, err) = finish(child, Duration::from_secs(20)).expect("stopped");
        assert_eq!(got, code, "{err}");
        assert!(err.contains("nothing written"), "{err}");
        assert_eq!(read(out.join("traverse_log.txt")), "old log\n");
        assert_eq!(names(&out), ["next_state.txt", "traverse_log.txt"]);
    }
    // SIGKILL cannot be caught: the next run removes what it left.
    let mut child = spawn(&args, d, none);
    let tmp = out.join(format!(".traverse_log.txt.tmp-{}", child.id()));
    let start = Instant::now();
    while !tmp.exists() {
        assert!(start.elapsed() < Duration::from_secs(20), "no temporary");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(tmp.exists());
    let (code, _, err) = run(&["assignment", s(&minimax), "--out-dir", o], d, none, t);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names(&out), ["next_state.txt", "traverse_log.txt"]);
    assert!(read(out.join("traverse_log.txt")).starts_with("Node,Depth,Value\n"));
}

/// Fault 8: a damaged or inconsistent tuning run is refused, with a
/// message that names what is wrong; options are named by the command
/// line, not the library.
#[test]
fn a_damaged_tuning_run_is_refused() {
    use mancala_solver::play::tune::{TuneOptions, TuneState};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tune = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            "heuristic10",
            "--game",
            "kalah:4:3",
            "--population",
            "4",
            "--generations",
            "2",
            "--depth",
            "1",
            "--threads",
            "1",
            "--out",
            "w.txt",
        ];
        args.extend_from_slice(extra);
        run(&args, d, Limits::default(), Duration::from_secs(120))
    };
    let (code, _, err) = tune(&[]);
    assert_eq!(code, 0, "{err}");
    let state = d.join("w.txt.state.json");
    let good = read(state.clone());
    let (code, _, err) = tune(&["--resume"]);
    assert_eq!(code, 0, "{err}");
    // Changed by hand: a weight's digit, the generations done.
    let weights = good.find("\"population\":[[").unwrap();
    let digit = weights + good[weights..].find('.').unwrap() + 1;
    let mut flipped = good.clone().into_bytes();
    flipped[digit] = if flipped[digit] == b'1' { b'2' } else { b'1' };
    for text in [
        String::from_utf8(flipped).unwrap(),
        good.replace("\"done\":2", "\"done\":31"),
    ] {
        assert_ne!(text, good);
        std::fs::write(&state, text).unwrap();
        let (code, _, err) = tune(&["--resume"]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("(damaged") && err.contains("start afresh without --resume"),
            "{err}"
        );
    }
    // Inconsistent under a sound checksum: fewer candidates than its
    // settings say is not "other options".
    let mut s = TuneState::load(&d.join("nonexistent"))
        .map(|_| ())
        .unwrap_err();
    assert!(s.to_string().contains("nonexistent"));
    std::fs::write(&state, &good).unwrap();
    let mut st = TuneState::load(&state).unwrap();
    st.population.truncate(3);
    st.save(&state).unwrap();
    let (code, _, err) = tune(&["--resume"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("it holds 3 candidates where its settings say 4") && !err.contains("options"),
        "{err}"
    );
    // Other settings: named, with the options that resume the run.
    std::fs::write(&state, &good).unwrap();
    let (code, _, err) = tune(&["--resume", "--games", "4", "--seed", "9"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("games 2 (asked: 4), seed 1 (asked: 9)") && err.contains("--games 2 --seed 1"),
        "{err}"
    );
    // The library's own messages name no option.
    let opts = TuneOptions {
        game: "kalah:4:3".parse().unwrap(),
        population: 1,
        generations: 1,
        games: 2,
        depth: 1,
        mutation: 0.1,
        sigma: 0.1,
        random_opening: 0,
        seed: 1,
        readings: Default::default(),
        threads: None,
        progress: Default::default(),
    };
    s = opts.check().unwrap_err();
    assert!(!s.to_string().contains("--"), "{s}");
    let (code, _, err) = run(
        &["tune", "heuristic10", "--population", "1", "--out", "w.txt"],
        d,
        Limits::default(),
        Duration::from_secs(20),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--population 1: give 2 to 1000"), "{err}");
}

/// Fault 10: `graph --plot`, `train plot --out` and `train a3c --curve`
/// write through temporary files: a write that fails (a full disk; here a
/// file-size limit) leaves the old file whole and no temporary behind.
/// Before, each truncated the old file first.
#[test]
fn a_failed_write_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let old = "old contents, to be kept\n";
    let full = Limits {
        file_size: Some(40),
        ..Limits::default()
    };
    let t = Duration::from_secs(120);
    let db = d.join("db");
    common::kalah_tables(&db, 2, 8);
    let tables: Vec<String> = names(&db);
    let check = |name: &str, code: i32, err: &str| {
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.contains("File too large"), "{name}: {err}");
        assert_eq!(read(d.join(name)), old, "{name} was damaged");
        assert!(
            !names(d).iter().any(|n| n.contains(".tmp-")),
            "{:?}",
            names(d)
        );
    };
    std::fs::write(d.join("graph.svg"), old).unwrap();
    let args = [
        "graph",
        "kalah",
        "2",
        "2",
        "--db",
        s(&db),
        "--no-build",
        "--plot",
        "graph.svg",
    ];
    let (code, _, err) = run(&args, d, full, t);
    check("graph.svg", code, &err);
    assert_eq!(names(&db), tables);

    let curve = d.join("curve.csv");
    std::fs::write(
        &curve,
        format!(
            "{}\n10,1,50,0,40,0,0.1,0.2,0.3\n20,2,60,0,50,0,0.1,0.2,0.3\n",
            "episodes,seconds,win_pct_vs_random,draw_pct_vs_random,win_pct_vs_greedy,\
             draw_pct_vs_greedy,value_loss,policy_loss,entropy"
        ),
    )
    .unwrap();
    std::fs::write(d.join("plot.svg"), old).unwrap();
    let (code, _, err) = run(
        &["train", "plot", "curve.csv", "--out", "plot.svg"],
        d,
        full,
        t,
    );
    check("plot.svg", code, &err);

    std::fs::write(d.join("a3c.csv"), old).unwrap();
    let args = [
        "train",
        "a3c",
        "--games",
        "4",
        "--eval-every",
        "2",
        "--eval-games",
        "2",
        "--hidden",
        "4,4",
        "--workers",
        "1",
        "--quiet",
        "--out",
        "a3c.bin",
        "--curve",
        "a3c.csv",
    ];
    let (code, _, err) = run(&args, d, full, t);
    check("a3c.csv", code, &err);
    // Without the limit the same commands write their files whole.
    let (code, _, err) = run(&args, d, Limits::default(), t);
    assert_eq!(code, 0, "{err}");
    assert!(read(d.join("a3c.csv")).starts_with("episodes,"));
    let (code, _, err) = run(
        &["train", "plot", "a3c.csv", "--out", "plot.svg"],
        d,
        Limits::default(),
        t,
    );
    assert_eq!(code, 0, "{err}");
    assert!(read(d.join("plot.svg")).contains("<svg"));
}
