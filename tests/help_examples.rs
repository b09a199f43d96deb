//! Every example of the command line's help runs as written (issue 61:
//! `mancala query --help` showed `query kalah "1 0 2 0 3 1 0"`, a position
//! of seven numbers, refused). The help of every command and subcommand
//! is read from the binary, and each line of its "Examples:" (or
//! "Example:") section is run by the shell, in order, in one scratch
//! directory (where the tables are built), and must exit 0. Lines marked
//! `# long` (minutes, or gigabytes of tables) or `# interactive` (a server
//! until Ctrl-C) are not run, nor a `curl` against a running server; any
//! other line that is not a `mancala` command or a comment fails the
//! test, so no example goes untested without a mark.
//!
//! `every_help_example_is_run_or_marked` reads the help texts only (part
//! of `cargo test`); `every_help_example_runs` runs the examples (about
//! five minutes here on busy cores, most of it building the 6-pit tables
//! and grading; `cargo test -- --ignored` runs it, and .ci/run does).

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The help text of `mancala ARGS --help`.
fn help(args: &[String]) -> String {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.push("--help");
    let (code, out, err) = common::mancala(&all, &std::env::temp_dir());
    assert_eq!(code, 0, "mancala {} --help: {err}", args.join(" "));
    out
}

/// The lines of the indented list after a line that is one of
/// `headings`, up to a blank line.
fn section(text: &str, headings: &[&str]) -> Vec<String> {
    text.lines()
        .skip_while(|l| !headings.contains(&l.trim()))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

/// Every command path (`["book", "build"]`) with its help text, the
/// program's own (`[]`) included.
fn every_help(args: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let text = help(&args);
    for line in section(&text, &["Commands:"]) {
        let name = line.split_whitespace().next().unwrap().to_string();
        if name != "help" {
            let mut sub = args.clone();
            sub.push(name);
            every_help(sub, out);
        }
    }
    out.push((args, text));
}

/// An example to run, or why it is not run.
#[derive(Debug, PartialEq)]
enum Example {
    Run(String),
    Skip(&'static str),
}

/// What to do with one line of an "Examples:" section.
fn example(line: &str) -> Result<Example, String> {
    if line.starts_with('#') {
        return Ok(Example::Skip("a comment"));
    }
    let (cmd, note) = match line.split_once(" # ") {
        Some((c, n)) => (c.trim(), n.trim()),
        None => (line.trim(), ""),
    };
    if note.starts_with("long") {
        return Ok(Example::Skip("long"));
    }
    if note.starts_with("interactive") {
        return Ok(Example::Skip("interactive"));
    }
    if cmd.starts_with("mancala ") {
        return Ok(Example::Run(cmd.to_string()));
    }
    if cmd.starts_with("curl 'http://127.0.0.1:8080/api/v1/") {
        return Ok(Example::Skip("a request to a running server"));
    }
    Err(format!(
        "`{line}` is neither a `mancala` command nor a comment: write it as a command, or mark it \
         `# long` or `# interactive`"
    ))
}

/// The examples of every help text: (the command whose help it is, the
/// line, what to do with it).
fn every_example() -> Vec<(String, String, Result<Example, String>)> {
    let mut all = Vec::new();
    every_help(Vec::new(), &mut all);
    let mut out = Vec::new();
    for (args, text) in &all {
        for line in section(text, &["Examples:", "Example:"]) {
            let what = example(&line);
            out.push((format!("mancala {}", args.join(" ")), line, what));
        }
    }
    out
}

#[test]
fn example_lines_are_read_as_commands_or_marked() {
    assert_eq!(
        example("mancala solve kalah 6 4").unwrap(),
        Example::Run("mancala solve kalah 6 4".into())
    );
    assert_eq!(
        example("mancala graph kalah 2 6 --csv > layers.csv   # a file").unwrap(),
        Example::Run("mancala graph kalah 2 6 --csv > layers.csv".into())
    );
    assert_eq!(
        example("mancala solve kalah 6 5   # long: minutes").unwrap(),
        Example::Skip("long")
    );
    assert_eq!(
        example("mancala serve   # interactive").unwrap(),
        Example::Skip("interactive")
    );
    assert_eq!(
        example("# the study's settings:").unwrap(),
        Example::Skip("a comment")
    );
    // Prose in an example's place (the play example's note was once in
    // parentheses, which the shell refuses) is not a command.
    assert!(example("cargo run -- solve kalah 6 4").is_err());
    assert!(example("(boards of more than 255 seeds)").is_err());
}

#[test]
fn every_help_example_is_run_or_marked() {
    let all = every_example();
    let bad: Vec<String> = all
        .iter()
        .filter_map(|(cmd, _, what)| what.as_ref().err().map(|e| format!("{cmd} --help: {e}")))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let run = all
        .iter()
        .filter(|(_, _, w)| matches!(w, Ok(Example::Run(_))))
        .count();
    // Most examples run (43 of the 58 lines here: the others are marked
    // long or interactive, a comment, or a request to a server).
    assert!(run >= 40, "{run} of {} run", all.len());
}

/// Run one example line with the shell in `dir`, the built binary first on
/// the PATH: how long it took, or what went wrong (a failure, or no end
/// within `limit`: a server or a prompt that waits, killed with its
/// children).
fn run_example(line: &str, dir: &Path, limit: Duration) -> Result<Duration, String> {
    use std::os::unix::process::CommandExt;
    let bin = Path::new(env!("CARGO_BIN_EXE_mancala"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = dir.join(".example-out");
    let err = dir.join(".example-err");
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(line)
        .env("PATH", &path)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .process_group(0)
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let said = format!(
        "stdout: {}\nstderr: {}",
        std::fs::read_to_string(&out).unwrap_or_default(),
        std::fs::read_to_string(&err).unwrap_or_default()
    );
    match status {
        Some(s) if s.success() => Ok(start.elapsed()),
        Some(s) => Err(format!("`{line}` failed ({s})\n{said}")),
        None => Err(format!(
            "`{line}` did not end within {} s: mark it `# interactive` or `# long`\n{said}",
            limit.as_secs()
        )),
    }
}

#[test]
fn a_broken_example_fails() {
    let dir = tempfile::tempdir().unwrap();
    let limit = Duration::from_secs(5);
    assert!(run_example("mancala play kalah 6 4 --moves 25-10-3", dir.path(), limit).is_ok());
    // `mancala query --help`'s example before issue 61: seven numbers.
    let e = run_example(
        r#"mancala query kalah "1 0 2 0 3 1 0" --json"#,
        dir.path(),
        limit,
    )
    .unwrap_err();
    assert!(e.contains("failed") && e.contains("stderr: "), "{e}");
    // `mancala play --help`'s note in parentheses, which the shell refuses.
    let e = run_example(
        "mancala play kalah 6 100 --moves 0 (boards of more than 255 seeds)",
        dir.path(),
        limit,
    )
    .unwrap_err();
    assert!(e.contains("failed"), "{e}");
    // A server left unmarked would wait for ever: it is stopped and failed.
    let e = run_example(
        "mancala serve --addr 127.0.0.1:0",
        dir.path(),
        Duration::from_secs(2),
    )
    .unwrap_err();
    assert!(e.contains("did not end within 2 s"), "{e}");
}

#[test]
#[ignore = "slow, minutes of building, solving and grading: `cargo test -- --ignored` runs it, and .ci/run does"]
fn every_help_example_runs() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The files the examples name, at the paths they give.
    std::fs::create_dir_all(dir.path().join("docs/kalah-6-6")).unwrap();
    std::fs::create_dir_all(dir.path().join("books")).unwrap();
    for (from, to) in [
        ("docs/kalah-6-6/ledger.jsonl", "docs/kalah-6-6/ledger.jsonl"),
        ("docs/input.txt", "input.txt"),
        // The ledger `book build kalah:6:4 --turns 3` (long) writes, for
        // `book compile`.
        (
            "crates/engine/books/kalah-6-4-default.jsonl",
            "books/kalah-6-4-default.jsonl",
        ),
    ] {
        std::fs::copy(root.join(from), dir.path().join(to)).unwrap();
    }
    let mut ran = 0;
    for (cmd, _, what) in every_example() {
        let line = match what {
            Ok(Example::Run(line)) => line,
            Ok(Example::Skip(_)) => continue,
            Err(e) => panic!("{cmd} --help: {e}"),
        };
        match run_example(&line, dir.path(), Duration::from_secs(900)) {
            Ok(took) => eprintln!("{:7.1} s  {line}", took.as_secs_f64()),
            Err(e) => panic!("{cmd} --help: {e}"),
        }
        ran += 1;
    }
    assert!(ran >= 40, "{ran} examples run");
}
