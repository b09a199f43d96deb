//! Kalah tables built in groups of blocks (forced small with a group size)
//! are byte-identical to tables built in one piece; an interrupted
//! partitioned build resumes from its partial files, and a damaged partial
//! file is built again.

mod common;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::{Arc, Mutex};

use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::progress::{Event, Observer};
use mancala_solver::tablebase::build::{build, BuildOptions};

fn options(
    dir: &Path,
    rules: KalahRules,
    pits: usize,
    max_seeds: usize,
    group_bytes: Option<u64>,
    progress: Observer,
) -> BuildOptions<KalahRules> {
    BuildOptions {
        dir: dir.to_path_buf(),
        game: rules,
        pits,
        max_seeds,
        threads: None,
        memory_budget: 1 << 33,
        group_bytes,
        progress,
    }
}

/// The table files of `dir` by name; fails on any other file but locks.
fn tables(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".lock") {
            continue;
        }
        assert!(
            name.ends_with(".tbl") && !name.starts_with('.'),
            "left over: {name}"
        );
        out.insert(name.clone(), std::fs::read(dir.join(&name)).unwrap());
    }
    out
}

/// An observer that records the stages, phases and rebuilds it is told of,
/// and panics (a stand-in for a killed process) at the stage `stop_at`.
fn recorder(log: Arc<Mutex<Vec<String>>>, stop_at: Option<&'static str>) -> Observer {
    Observer::new(move |e: &Event<'_>| {
        let line = match e {
            Event::Start { stage, .. } => format!("start {stage}"),
            Event::Phase { what } => format!("phase {what}"),
            Event::Rebuilding { error } => format!("rebuilding {error}"),
            _ => return,
        };
        log.lock().unwrap().push(line.clone());
        if let Some(stop) = stop_at {
            if line == format!("start {stop}") {
                panic!("stopped at {stop}");
            }
        }
    })
}

fn partials(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tbl.part-"))
        .collect();
    names.sort();
    names
}

#[test]
fn partitioned_builds_are_byte_identical_to_builds_in_one_piece() {
    for (rules, pits, k, group) in [
        (KalahRules::Default, 4, 12, 8000),
        (KalahRules::Default, 6, 9, 20_000),
        (KalahRules::Default, 3, 12, 1),
        (KalahRules::CaptureNeedsOpposite, 4, 11, 3000),
        (KalahRules::EndWhenMoverEmpty, 4, 11, 3000),
    ] {
        let whole = tempfile::tempdir().unwrap();
        build(&options(
            whole.path(),
            rules,
            pits,
            k,
            None,
            Observer::silent(),
        ))
        .unwrap();
        let parted = tempfile::tempdir().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let progress = recorder(log.clone(), None);
        build(&options(
            parted.path(),
            rules,
            pits,
            k,
            Some(group),
            progress,
        ))
        .unwrap();
        let log = log.lock().unwrap();
        assert!(
            log.iter()
                .any(|l| l.starts_with(&format!("start k={k} group 2/"))),
            "{rules} {pits} {k}: not built in groups: {log:?}"
        );
        let (a, b) = (tables(whole.path()), tables(parted.path()));
        assert_eq!(a.len(), k, "{rules} {pits} {k}");
        assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
        for (name, bytes) in &a {
            assert!(
                bytes == &b[name],
                "{rules}: {name} differs when built in groups"
            );
        }
    }
}

#[test]
fn an_interrupted_partitioned_build_resumes_and_rebuilds_a_damaged_partial() {
    let (rules, pits, k, group) = (KalahRules::Default, 4, 12, 8000);
    let whole = tempfile::tempdir().unwrap();
    build(&options(
        whole.path(),
        rules,
        pits,
        k,
        None,
        Observer::silent(),
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    // Stopped as the third group of table 12 starts: two partial files.
    let log = Arc::new(Mutex::new(Vec::new()));
    let progress = recorder(log.clone(), Some("k=12 group 3/6"));
    let stopped = catch_unwind(AssertUnwindSafe(|| {
        build(&options(d, rules, pits, k, Some(group), progress))
    }));
    assert!(stopped.is_err(), "the build was not stopped: {log:?}");
    assert!(!d.join("kalah-default-m4-k12.tbl").exists());
    let parts = partials(d);
    assert_eq!(parts.len(), 2, "{parts:?}");

    // Resumed: both groups reused, the rest built, the same table.
    let log = Arc::new(Mutex::new(Vec::new()));
    build(&options(
        d,
        rules,
        pits,
        k,
        Some(group),
        recorder(log.clone(), None),
    ))
    .unwrap();
    let seen = log.lock().unwrap().clone();
    for g in ["1/6", "2/6"] {
        assert!(
            seen.contains(&format!("phase k=12 group {g}: found on disk")),
            "{seen:?}"
        );
        assert!(!seen.contains(&format!("start k=12 group {g}")), "{seen:?}");
    }
    assert!(
        seen.contains(&"start k=12 group 3/6".to_string()),
        "{seen:?}"
    );
    assert_eq!(tables(d), tables(whole.path()));

    // Stopped again, and one partial file damaged: it is built again, with
    // a message, and the table is still the same.
    std::fs::remove_file(d.join("kalah-default-m4-k12.tbl")).unwrap();
    let progress = recorder(Arc::new(Mutex::new(Vec::new())), Some("k=12 group 3/6"));
    let stopped = catch_unwind(AssertUnwindSafe(|| {
        build(&options(d, rules, pits, k, Some(group), progress))
    }));
    assert!(stopped.is_err());
    let parts = partials(d);
    assert_eq!(parts.len(), 2, "{parts:?}");
    let damaged = d.join(&parts[0]);
    let mut bytes = std::fs::read(&damaged).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x24;
    std::fs::write(&damaged, &bytes).unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    build(&options(
        d,
        rules,
        pits,
        k,
        Some(group),
        recorder(log.clone(), None),
    ))
    .unwrap();
    let seen = log.lock().unwrap().clone();
    let rebuilt: Vec<_> = seen
        .iter()
        .filter(|l| l.starts_with("rebuilding"))
        .collect();
    assert_eq!(rebuilt.len(), 1, "{seen:?}");
    assert!(rebuilt[0].contains(&parts[0]), "{rebuilt:?}");
    assert!(rebuilt[0].contains("checksum"), "{rebuilt:?}");
    assert_eq!(tables(d), tables(whole.path()));
}

#[test]
fn the_cli_builds_in_groups_and_refuses_what_cannot_fit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (whole, parted) = (d.join("whole"), d.join("parted"));
    let run = |db: &Path, extra: &[&str]| {
        let mut args = vec!["build", "kalah", "--pits", "4", "--max-seeds", "10"];
        args.extend_from_slice(&["--db", db.to_str().unwrap()]);
        args.extend_from_slice(extra);
        common::mancala(&args, d)
    };
    let (code, _, err) = run(&whole, &[]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&parted, &["--group-size", "2K"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(tables(&whole), tables(&parted));
    // A budget below the smallest group: one clear line, no panic.
    let (code, _, err) = run(&d.join("none"), &["--memory", "1M", "--group-size", "1K"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("even in groups") && err.contains("--memory"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// A build split into tasks as `dist/dask_build.py` runs it, by separate
/// processes: `--plan`, each table's groups built at once (two processes),
/// `--assemble`; the tables are byte-identical to a build in one piece.
/// Refused with a message: a group not closed under `a -> k - a`, an
/// assembly before every group is built, groups of Awari tables.
#[test]
fn a_build_split_into_tasks_by_processes_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (whole, split) = (d.join("whole"), d.join("split"));
    let run = |db: &Path, k: usize, extra: &[&str]| {
        let k = k.to_string();
        let mut args = vec!["build", "kalah:4", "--max-seeds", &k, "--group-size", "2K"];
        args.extend_from_slice(&["--db", db.to_str().unwrap()]);
        args.extend_from_slice(extra);
        common::mancala(&args, d)
    };
    let (code, _, err) = run(&whole, 11, &[]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&split, 11, &["--plan", "--json"]);
    assert_eq!(code, 0, "{err}");
    let plan: serde_json::Value = serde_json::from_str(&out).unwrap();
    let plan = plan["tables"].as_array().unwrap();
    assert_eq!(plan.len(), 11);
    let mut split_tables = 0;
    for t in plan {
        assert_eq!(t["found"], false, "{t}");
        let k = t["seeds"].as_u64().unwrap() as usize;
        let groups: Vec<String> = t["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let sums: Vec<String> = g
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.to_string())
                    .collect();
                sums.join("+")
            })
            .collect();
        if groups.len() == 1 {
            let (code, _, err) = run(&split, k, &[]);
            assert_eq!(code, 0, "{err}");
            continue;
        }
        split_tables += 1;
        if k == 11 {
            // Too early: every group is missing.
            let (code, _, err) = run(&split, k, &["--assemble"]);
            assert_ne!(code, 0);
            assert!(err.contains("cannot be assembled yet"), "{err}");
        }
        // The groups in two processes at once.
        let bin = env!("CARGO_BIN_EXE_mancala");
        let children: Vec<_> = groups
            .iter()
            .map(|g| {
                std::process::Command::new(bin)
                    .args(["build", "kalah:4", "--max-seeds", &k.to_string()])
                    .args(["--group-size", "2K", "--group", g, "--json", "--db"])
                    .arg(&split)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{err}");
            let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(r["built"], true, "{r}");
        }
        // A group again: found, not rebuilt.
        let (code, out, err) = run(&split, k, &["--group", &groups[0], "--json"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("\"built\":false"), "{out}");
        let (code, out, err) = run(&split, k, &["--assemble", "--json"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("\"found\":false"), "{out}");
    }
    assert!(split_tables >= 3, "the group size splits the larger tables");
    assert_eq!(tables(&whole), tables(&split));
    // A stray partial file naming a mover sum table 12 does not hold.
    let stray = split.join(format!(
        ".kalah-default-m4-k12.tbl.part-{:016x}",
        1u64 << 39
    ));
    std::fs::write(&stray, b"not a partial file").unwrap();
    let (code, _, err) = run(&split, 12, &["--assemble"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not this table's"), "{err}");
    std::fs::remove_file(&stray).unwrap();
    // Groups that cannot be built alone, and games built in one piece.
    let (code, _, err) = run(&split, 12, &["--group", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs its pair 11"), "{err}");
    let (code, _, err) = run(&split, 12, &["--group", "11+1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("increasing order"), "{err}");
    let (code, _, err) = common::mancala(
        &[
            "build",
            "awari:3",
            "--max-seeds",
            "1",
            "--group",
            "1",
            "--db",
            "x",
        ],
        d,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("built in one piece"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
