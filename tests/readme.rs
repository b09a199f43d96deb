//! Every command in README.md and the pages its commands moved to
//! (docs/cli.md, docs/games.md), docs/STUDIES.md and docs/books.md works:
//! each `cargo run --release -- ...` and `mancala ...` line of their shell
//! blocks is run with the built binary (and each `python3
//! dist/ledger_audit.py` line with Python), in one scratch directory (so
//! `db/` is created there), in the order of `DOCS`, and must exit 0. Lines
//! marked `# long` (documented measurements) or `# interactive` are not run
//! here. The files they leave behind are covered by `.gitignore`. (The
//! links of every page: tests/doc_links.rs.)

use std::path::Path;
use std::process::Command;

/// The documents whose commands are run, in this order, from the root of
/// the clone: the README's first commands, then every command of the
/// command line's pages, then the studies' and the books'.
const DOCS: &[&str] = &[
    "README.md",
    "docs/cli.md",
    "docs/games.md",
    "docs/STUDIES.md",
    "docs/books.md",
];

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for ch in line.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(cur);
    }
    words
}

/// The `mancala` commands of `text`'s shell blocks, and its `python3`
/// commands of the scripts that take no packages (the ledger audit): (the
/// line, the program, its arguments).
fn commands_of(text: &str) -> Vec<(String, String, Vec<String>)> {
    let mut out = Vec::new();
    let mut in_shell = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_shell = !in_shell && (t == "```sh" || t == "```bash");
            continue;
        }
        if !in_shell || t.contains("# long") || t.contains("# interactive") {
            continue;
        }
        let cmd = t.split(" # ").next().unwrap().trim();
        let mancala = env!("CARGO_BIN_EXE_mancala").to_string();
        let (program, args) = if let Some(rest) = cmd.strip_prefix("cargo run --release -- ") {
            (mancala, split_words(rest))
        } else if let Some(rest) = cmd.strip_prefix("mancala ") {
            (mancala, split_words(rest))
        } else if let Some(rest) = cmd.strip_prefix("python3 dist/ledger_audit.py ") {
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/ledger_audit.py");
            let mut args = vec![script.to_string_lossy().into_owned()];
            args.extend(split_words(rest));
            ("python3".to_string(), args)
        } else {
            continue;
        };
        out.push((t.to_string(), program, args));
    }
    out
}

#[test]
fn readme_starts_with_the_main_job_and_the_tests() {
    let text = read("README.md");
    let first_block: Vec<&str> = text
        .split("```sh")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(
        first_block[0].starts_with("cargo run --release -- "),
        "{first_block:?}"
    );
    assert!(first_block[1].starts_with("cargo test"), "{first_block:?}");
    let ci = read(".ci/run");
    let test_cmd = first_block[1].split(" #").next().unwrap().trim();
    // The very command, on a line of its own (not a prefix of another).
    assert!(
        ci.lines()
            .any(|l| l.trim() == test_cmd || l.trim().starts_with(&format!("{test_cmd} 2>&1"))),
        ".ci/run runs `{test_cmd}`"
    );
}

/// Whether `path` (relative to the root of the clone, `/`-separated) is
/// ignored by `.gitignore`, for the kinds of patterns it uses: anchored
/// (`/name`, `/dir/*`) or not (`*.tbl`), `dir/` for directories only, `*`
/// within a component, and `!` to re-include; a path inside an ignored
/// directory is ignored.
fn ignored(gitignore: &str, path: &str, is_dir: bool) -> bool {
    fn glob(pattern: &str, text: &str) -> bool {
        match pattern.split_once('*') {
            None => pattern == text,
            Some((head, tail)) => {
                text.starts_with(head)
                    && (head.len()..=text.len())
                        .take_while(|&i| !text[head.len()..i].contains('/'))
                        .any(|i| glob(tail, &text[i..]))
            }
        }
    }
    let parts: Vec<&str> = path.split('/').collect();
    for i in 1..parts.len() {
        if ignored(gitignore, &parts[..i].join("/"), true) {
            return true;
        }
    }
    let mut out = false;
    for line in gitignore.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (negated, p) = match line.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, line),
        };
        let (dir_only, p) = match p.strip_suffix('/') {
            Some(p) => (true, p),
            None => (false, p),
        };
        if dir_only && !is_dir {
            continue;
        }
        let hit = if p.starts_with('/') || p.contains('/') {
            glob(p.trim_start_matches('/'), path)
        } else {
            glob(p, parts[parts.len() - 1])
        };
        if hit {
            out = !negated;
        }
    }
    out
}

#[test]
fn the_gitignore_matcher_reads_the_patterns_used() {
    let g = "/target\n/db/*\n!/db/README.md\n*.tbl\n/out/\n/*.ckpt\n";
    assert!(ignored(g, "target", true));
    assert!(ignored(g, "target/debug/x", false));
    assert!(ignored(g, "x.tbl", false));
    assert!(ignored(g, "sub/x.tbl", false));
    assert!(ignored(g, "out", true));
    assert!(!ignored(g, "out", false));
    assert!(ignored(g, "k46.ckpt", false));
    assert!(!ignored(g, "sub/k46.ckpt", false), "anchored");
    assert!(!ignored(g, "weights.txt", false));
    assert!(!ignored(g, "db", true), "only db's contents are ignored");
    assert!(ignored(g, "db/kalah-default-m6-k20.tbl", false));
    assert!(ignored(g, "db/.x.lock", false));
    assert!(!ignored(g, "db/README.md", false));
}

/// The files under `dir` (paths relative to it) that `.gitignore` does not
/// cover, descending into directories that are not ignored themselves.
fn not_ignored(gitignore: &str, dir: &Path, rel: &str, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir.join(rel)).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let is_dir = entry.file_type().unwrap().is_dir();
        if ignored(gitignore, &path, is_dir) {
            continue;
        }
        if is_dir {
            not_ignored(gitignore, dir, &path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
#[ignore = "slow, about 85 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn every_readme_command_runs() {
    let dir = tempfile::tempdir().unwrap();
    // The assignment's sample input, at the path the README names.
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    std::fs::write(dir.path().join("docs/input.txt"), read("docs/input.txt")).unwrap();
    let mut commands = Vec::new();
    for doc in DOCS {
        let found = commands_of(&read(doc));
        assert!(!found.is_empty(), "{doc} lists its commands: {found:?}");
        commands.extend(found.into_iter().map(|c| (*doc, c)));
    }
    // What a command says to do with its output (`tune`: "play it as
    // AGENT"), which the document's next command must do.
    let mut hint: Option<(String, String)> = None;
    for (doc, (line, program, args)) in commands {
        if let Some((by, agent)) = hint.take() {
            assert!(
                args.contains(&agent),
                "`{by}` says to play `{agent}`, but the next command is `{line}`"
            );
        }
        let out = Command::new(&program)
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "a command of {doc} failed: {line}\nstdout: {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some((_, rest)) = stdout.split_once("play it as ") {
            let agent = rest.split_whitespace().next().unwrap_or_default();
            hint = Some((line.clone(), agent.trim_matches('`').to_string()));
        }
    }
    // Run in a clone, the commands must leave nothing `git status` shows.
    let mut left = Vec::new();
    not_ignored(&read(".gitignore"), dir.path(), "", &mut left);
    left.retain(|p| p != "docs/input.txt"); // part of the clone
    assert!(
        left.is_empty(),
        "the documents' commands leave files that .gitignore does not cover: {left:?}"
    );
}
