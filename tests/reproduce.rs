//! `benches/reproduce.sh DOC --quick` for each of the five documents
//! (docs/REPRODUCTION.md): it exits 0 and prints the document's heading and
//! figures its parts reproduce, with the built binary; a bad document name
//! is refused with exit code 2. Python 3 (stdlib only) runs the parts, as
//! for the study scripts (`.ci/run` installs it).

use std::path::Path;
use std::process::Command;

/// Runs the script with `args` (the binary from this build, its outputs in
/// a scratch directory): exit code, stdout, stderr.
fn reproduce(name: &str, args: &[&str]) -> (i32, String, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("reproduce")
        .join(name);
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new("bash")
        .arg(Path::new(root).join("benches/reproduce.sh"))
        .args(args)
        .env("BIN", env!("CARGO_BIN_EXE_mancala"))
        .env("SKIP_BUILD", "1")
        .env("OUT", &out)
        .current_dir(root)
        .output()
        .expect("bash runs benches/reproduce.sh");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The quick run of `doc` exits 0 and prints every line of `expected`.
fn check(doc: &str, expected: &[&str]) {
    let (code, out, err) = reproduce(doc, &[doc, "--quick"]);
    assert_eq!(code, 0, "reproduce.sh {doc} --quick failed\n{out}\n{err}");
    for line in expected {
        assert!(
            out.contains(line),
            "reproduce.sh {doc} --quick: no {line:?} in\n{out}"
        );
    }
    assert!(
        out.contains(&format!("{doc}: every part ran")),
        "reproduce.sh {doc} --quick\n{out}"
    );
}

#[test]
fn solving_kalah_quick() {
    check(
        "solving-kalah",
        &[
            "# Solving Kalah (Irving, Donkers, Uiterwijk, 2000), reproduced (quick)",
            // Table 2's two misprints, Table 8's largest table.
            "| (2,5) | 106,206 | 106,260 | differs |",
            "| (6,2) | 7.12e+10 | 7,124,934,600 | differs |",
            "| 30 | 11,054,221,305 | 11,054,221,305 | 5271 | 5271.1 | agrees |",
            // Tables 3 and 5 on the small graphs, Kalah(2,5) not reproduced.
            "| (3,3) | 24,936 | 24,936 | 2.6% | 2.59% | W | W (+2) | 46/40/14 | 45.7/40.3/14.0 | agrees |",
            "| (2,5) | 58 | 48 |",
            // Table 1 on 10 games, Table 4's closest convention.
            "| (3,3) | 13.35 | 14.10 | 12.00 | 2.04 | 2.23 |",
            "moves    all 1.233+-0.953",
            // Table 6, the anomalies, Table 7 without tables, Table 9.
            "28 of 28 subgraphs agree (84 of 84 numbers)",
            "anomalies in l(6) to l(10): 86.5% of the 184,898 positions",
            "| (6,3) | 0 | 1,186,236 | 1,619,897 | 26.8% |",
            "| (6,5) | 12 | yes | True | 12 | agrees |",
            "| (4,6) | 0 | no:",
            "pairs of edits in characters 18-36: 17232 lines, 0 replay to the end of a game",
        ],
    );
}

#[test]
fn five_games_quick() {
    check(
        "five-games",
        &[
            "# The five-game study (Rovaris, 2016), reproduced (quick)",
            "15 rows in 3 tables, seed 1",
            "### Table 5.40: HMM1 v greedy",
            "| Awari | 86 (S 91, N 81) v 13.5 | 90.0 (S 90, N 90) v 10.0 |",
            "### Table 5.4: the time greedy takes for a game (20 games of greedy v greedy)",
            "### Table 5.33: time saved by alpha-beta, BMM4 v ABMM4 (20 games, one thread)",
            "| Kalah | 20 | 12.5% |",
            "| HMM8 | Ohvalhu | always |",
        ],
    );
}

#[test]
fn awale_mcts_quick() {
    check(
        "awale-mcts",
        &[
            "# The Awale MCTS study (Marchant, 2021), reproduced (quick)",
            "published: N = 49. recomputed: N = 49 (powerBinom's default test); 42 with the one-sided test",
            "at 50 games: stronger from 32 points (p = 0.0325)",
            "| 0.05 | 0.48 | 0.425 (41/3/56) | 0.33..0.52 | undecided |",
            "| 1 | 0.040 (50) | 0.020 (2/0/98) | 0.006-0.070 | 0.474 | agrees |",
            "8 published figures compared: 8 agree, 0 differ at 5%",
        ],
    );
}

#[test]
fn assignment_quick() {
    check(
        "assignment",
        &[
            "# The course assignment, reproduced (quick)",
            "| sample | 34 | 34 of 34 | 34 | yes |",
            "| textbook | 34 | 0 of 35 | 33 | no |",
            "E(B5) = 1, E(B2) = 0, B4 earns another move: yes",
        ],
    );
}

#[test]
fn kalah_agents_quick() {
    check(
        "kalah-agents",
        &[
            "# The Kalah agents study (Hunter, 2021), reproduced (quick)",
            "- table 1: 32 published cells compared;",
            "| Random | 51.3 / 50.0 [30-70] |",
            "With H10's weight -1 (the text's sign):",
            "| `heuristic10:4` | 54.5 | 31.0 (31/5/64) | 22.8-40.6 | 1.8e-05 | differs |",
            "tuned weights W1..W10: ",
        ],
    );
}

#[test]
fn a_bad_document_is_refused() {
    let (code, out, err) = reproduce("bad", &["solving-kalahh"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("unknown document \"solving-kalahh\": use one of solving-kalah, five-games, awale-mcts, assignment, kalah-agents"),
        "{err}"
    );
    let (code, _, err) = reproduce("none", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("which document?"), "{err}");
    let (code, out, _) = reproduce("help", &["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("kalah-agents   Hunter (2021)"), "{out}");
}
