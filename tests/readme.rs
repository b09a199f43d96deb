//! Every command in README.md works: each `cargo run --release -- ...` and
//! `mancala ...` line of its shell blocks is run with the built binary, in
//! one scratch directory (so `db/` is created there), and must exit 0.
//! Lines marked `# long` (documented measurements) or `# interactive` are
//! not run here.

use std::process::Command;

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

fn readme_commands() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
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
        let args = if let Some(rest) = cmd.strip_prefix("cargo run --release -- ") {
            rest
        } else if let Some(rest) = cmd.strip_prefix("mancala ") {
            rest
        } else {
            continue;
        };
        out.push((t.to_string(), split_words(args)));
    }
    out
}

#[test]
fn readme_starts_with_the_main_job_and_the_tests() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
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
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    let test_cmd = first_block[1].split(" #").next().unwrap().trim();
    assert!(ci.contains(test_cmd), ".ci/run runs `{test_cmd}`");
}

#[test]
#[ignore = "slow, about 85 s of CPU: `cargo test -- --ignored` runs it, and .ci/run does"]
fn every_readme_command_runs() {
    let dir = tempfile::tempdir().unwrap();
    // The assignment's sample input, which the README's example reads.
    std::fs::write(
        dir.path().join("input.txt"),
        "2\n1\n2\n3 3 3\n3 3 3\n0\n0\n",
    )
    .unwrap();
    let commands = readme_commands();
    assert!(
        commands.len() >= 5,
        "README lists its commands: {commands:?}"
    );
    for (line, args) in commands {
        let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README command failed: {line}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
