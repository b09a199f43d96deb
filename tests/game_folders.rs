//! A game type lives in its folder: its names are used only there, in the
//! registry (`crates/engine/src/family.rs`), and in the few generic places
//! written down below with their reason.
//!
//! The State of the agents, the perfect agent's search, the oracle's search
//! above the tables and the match runner reach a game through the
//! registry (`Rules`, `with_rules!`, `for_each_game!`) and the traits its
//! folder implements (`Game`, `TableGame`, `PlayGame`, `PerfectPlay`,
//! `SearchAbove`). This test reads the code of the library and of the
//! command-line tool (without comments, strings and `#[cfg(test)]` items,
//! as the layers test reads it) and fails, naming the file and line, when a
//! game type's name is used anywhere else.

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const ENGINE: &str = "crates/engine/src";

/// Each game type's folder (under the engine's sources) and the names of
/// its types: its rule set, positions, states, moves.
const GAMES: &[(&str, &[&str])] = &[
    (
        "kalah",
        &[
            "KalahRules",
            "WidePosition",
            "KalahState",
            "KalahChildren",
            "WideKalahState",
            "WideKalahChildren",
            "BoardState",
            "BoardChildren",
        ],
    ),
    (
        "awari",
        &[
            "AwariGame",
            "AwariPosition",
            "AwariState",
            "AwariChildren",
            "AwariMove",
            "AwariMoves",
            "AwariTurn",
            "AwariEngine",
        ],
    ),
    ("ohvalhu", &["Ohvalhu", "OhvalhuMove"]),
    ("vai_lung_thlan", &["VaiLungThlan", "VltReading"]),
];

/// Games played on another game's board, which may name that game's
/// board types: (game folder, the folder whose names it uses, why).
const BOARDS: &[(&str, &str, &str)] = &[
    (
        "ohvalhu",
        "kalah",
        "Ohvalhu is played on Kalah's board (kalah::Position, BoardState)",
    ),
    (
        "vai_lung_thlan",
        "kalah",
        "Vai Lung Thlan is played on Kalah's board (kalah::Position, BoardState)",
    ),
];

/// The places outside the game folders that may name a game type: the
/// path (ending in `/` for a folder), the names it may use, and why.
const ALLOWED: &[(&str, &[&str], &str)] = &[
    (
        "crates/engine/src/lib.rs",
        &["KalahRules", "AwariGame", "AwariPosition"],
        "the crate's re-exports and its example",
    ),
    (
        "crates/engine/src/search/",
        &["KalahRules", "AwariGame", "AwariPosition", "AwariTurn"],
        "Kalah's MTD(f) solver, its checkpoints and proofs, and Awari's exact search with \
         repetitions (search::awari): searches of one game each, not yet in their folders",
    ),
    (
        "crates/engine/src/book/",
        &["KalahRules"],
        "the opening books, Kalah's alone",
    ),
    (
        "crates/engine/src/oracle/book.rs",
        &["KalahRules"],
        "the oracle's look-up in Kalah's opening books",
    ),
    (
        "crates/engine/src/assignment/",
        &["KalahRules", "WidePosition"],
        "the course assignment's program, Kalah's alone",
    ),
    (
        "crates/engine/src/learn/",
        &["KalahRules"],
        "the A3C network, trained on Kalah",
    ),
    (
        "crates/engine/src/play/agents/a3c.rs",
        &["KalahState"],
        "the agent of the A3C network, trained on Kalah",
    ),
    (
        "crates/engine/src/oracle/mod.rs",
        &["KalahRules", "WidePosition"],
        "Kalah's two-byte board (more than 255 seeds), which no table or search reads, \
         parsed for the oracle",
    ),
    (
        "crates/engine/src/oracle/agents.rs",
        &["KalahRules", "KalahState"],
        "an agent's move on Kalah's two-byte board",
    ),
    (
        "src/cli/play.rs",
        &["KalahRules", "KalahState", "WidePosition"],
        "`play` on Kalah's two-byte board",
    ),
    (
        "src/cli/solve_tables.rs",
        &["AwariGame", "AwariPosition"],
        "`solve awari|oware`: the front end of Awari's exact search (search::awari)",
    ),
    (
        "src/cli/prove.rs",
        &["KalahRules"],
        "`prove`: Kalah's proofs (search::prove)",
    ),
    (
        "src/cli/tasks.rs",
        &["KalahRules"],
        "`prove`'s tasks: Kalah's proofs",
    ),
    (
        "src/cli/book.rs",
        &["KalahRules"],
        "`book`: Kalah's opening books",
    ),
    (
        "src/cli/graph.rs",
        &["KalahRules"],
        "`graph`: Kalah's game graphs",
    ),
];

/// The names `file` may use by [`ALLOWED`].
fn allowed(file: &str) -> &'static [&'static str] {
    ALLOWED
        .iter()
        .find(|(p, _, _)| match p.strip_suffix('/') {
            Some(dir) => file.starts_with(&format!("{dir}/")),
            None => file == *p,
        })
        .map_or(&[], |(_, names, _)| names)
}

/// Whether `word` occurs in `line` as an identifier, not as a variant of
/// the registry (`Rules::Ohvalhu`) or of `State`.
fn names(line: &str, word: &str) -> bool {
    let bytes = line.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut from = 0;
    while let Some(i) = line[from..].find(word) {
        let start = from + i;
        let end = start + word.len();
        from = end;
        if start > 0 && ident(bytes[start - 1]) {
            continue;
        }
        if end < bytes.len() && ident(bytes[end]) {
            continue;
        }
        let before = &line[..start];
        if before.ends_with("Rules::") || before.ends_with("State::") {
            continue;
        }
        return true;
    }
    false
}

/// `text` without its comments and the contents of its strings (which
/// may run over several lines), newlines kept so that line numbers hold.
fn blank_strings_and_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                    }
                    if last == '*' && d == '/' {
                        break;
                    }
                    last = d;
                }
            }
            '"' => {
                out.push('"');
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        '\n' => out.push('\n'),
                        _ => {}
                    }
                }
                out.push('"');
            }
            '\'' => {
                // A char literal ('"', '\\'', '{') or a lifetime ('a).
                let ahead: Vec<char> = chars.clone().take(3).collect();
                if ahead.first() == Some(&'\\') {
                    let n = ahead
                        .iter()
                        .skip(2)
                        .position(|&d| d == '\'')
                        .map_or(3, |i| i + 3);
                    for _ in 0..n {
                        chars.next();
                    }
                    out.push_str("' '");
                } else if ahead.get(1) == Some(&'\'') {
                    chars.next();
                    chars.next();
                    out.push_str("' '");
                } else {
                    out.push('\'');
                }
            }
            'r' if matches!(chars.peek(), Some('#')) => {
                // A raw string r#"..."#: none holds a game's name here, so
                // skip to its end.
                let mut hashes = 0;
                while chars.peek() == Some(&'#') {
                    chars.next();
                    hashes += 1;
                }
                if chars.peek() != Some(&'"') {
                    out.push('r');
                    out.push_str(&"#".repeat(hashes));
                    continue;
                }
                chars.next();
                let close = format!("\"{}", "#".repeat(hashes));
                let mut body = String::new();
                for d in chars.by_ref() {
                    body.push(d);
                    if d == '\n' {
                        out.push('\n');
                    }
                    if body.ends_with(&close) {
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            _ => out.push(c),
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p
                .strip_prefix(ROOT)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push(rel);
        }
    }
}

/// Every use of a game type's name outside the places that may name it,
/// as `file:line: name`.
fn strays() -> Vec<String> {
    let mut files = Vec::new();
    walk(&Path::new(ROOT).join(ENGINE), &mut files);
    walk(&Path::new(ROOT).join("src"), &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in &files {
        if file == &format!("{ENGINE}/family.rs") {
            continue;
        }
        let may = allowed(file);
        let folder = file
            .strip_prefix(&format!("{ENGINE}/"))
            .and_then(|f| f.split_once('/'))
            .map(|(d, _)| d);
        let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
        let code = blank_strings_and_comments(&text);
        for (n, line) in crate::layers::code_lines(&code).iter().enumerate() {
            for (game, words) in GAMES {
                let own = folder == Some(*game)
                    || BOARDS
                        .iter()
                        .any(|(g, board, _)| folder == Some(*g) && board == game);
                if own {
                    continue;
                }
                for word in *words {
                    if !may.contains(word) && names(line, word) {
                        out.push(format!("{file}:{}: {word}", n + 1));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn game_types_are_named_only_in_their_folders_and_the_registry() {
    let strays = strays();
    assert!(
        strays.is_empty(),
        "a game type is named outside its folder, the registry and the allowed places of \
         tests/game_folders.rs (move the code into the game's folder, or reach the game \
         through the registry and its traits):\n  {}",
        strays.join("\n  ")
    );
}

#[test]
fn the_checker_sees_names() {
    assert!(names("let g = AwariGame::Awari;", "AwariGame"));
    assert!(names("fn f(p: &WidePosition)", "WidePosition"));
    assert!(!names("Rules::Ohvalhu => 1,", "Ohvalhu"));
    assert!(!names("State::Kalah(s) => 1,", "Kalah"));
    assert!(!names("let x = AwariGameX;", "AwariGame"));
    let code = blank_strings_and_comments(
        "let s = \"Ohvalhu \\\" and\nOhvalhu\"; // Ohvalhu\n/* Ohvalhu\n */ Ohvalhu",
    );
    assert_eq!(code, "let s = \"\n\"; \n\n Ohvalhu");
    let code = blank_strings_and_comments("if c == '\"' || c == '\\'' { f::<'a>(Ohvalhu) }");
    assert_eq!(code, "if c == ' ' || c == ' ' { f::<'a>(Ohvalhu) }");
    // Every allowed place exists.
    for (p, _, why) in ALLOWED {
        assert!(
            Path::new(ROOT).join(p).exists(),
            "tests/game_folders.rs allows {p} ({why}), which is gone: remove it"
        );
    }
}
