//! Faults of the match runner and the server found by a hostile probe
//! (issue 59): a match whose memory grew with its games.

use std::path::Path;
use std::process::Command;

/// Run `mancala args` in `dir` with its data (heap and private mappings)
/// limited to `kib` KiB: exit code, stdout, stderr.
fn mancala_within(kib: u64, args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -d {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run sh");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A match (and a tournament) of 250,000 games in 48 MiB of data: their
/// results are counted as the games finish, the `--games-out` records
/// written as they come. Kept, the records took about 370 bytes a game
/// (94 MB here; 3.7 GB for ten million games, and `--games 10^12` aborted).
#[test]
fn a_match_needs_the_same_memory_whatever_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let games = "250000";
    for command in ["match", "tournament"] {
        let out = dir.path().join(format!("{command}.jsonl.zst"));
        let (code, json, err) = mancala_within(
            48 << 10,
            &[
                command,
                "random",
                "random",
                "--game",
                "kalah:2:1",
                "--games",
                games,
                "--threads",
                "2",
                "--json",
                "--games-out",
                out.to_str().unwrap(),
            ],
            dir.path(),
        );
        assert_eq!(code, 0, "{command}: {err}");
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        let report = if command == "match" {
            report
        } else {
            report["matches"][0].clone()
        };
        assert_eq!(report["games"], 250_000, "{command}");
        let counted: u64 = ["a_wins", "draws", "b_wins"]
            .iter()
            .map(|k| report[k].as_u64().unwrap())
            .sum();
        assert_eq!(counted, 250_000, "{command}");
        // Every record was written, in game order.
        let text = zstd::decode_all(std::fs::File::open(&out).unwrap()).unwrap();
        let lines: Vec<&[u8]> = text
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines.len(), 250_000, "{command}");
        for (i, line) in [(0, lines[0]), (249_999, lines[249_999])] {
            let r: serde_json::Value = serde_json::from_slice(line).unwrap();
            assert_eq!(r["game"], i, "{command}");
        }
    }
}
