//! Opening books (`mancala book`, `book::Book`): every entry of a book
//! proven by the command line equals the exact value an independent solve
//! gives; the book file compiles again from its ledger byte for byte; the
//! ledger passes the independent audit; a run goes on from its ledger; a
//! damaged book is refused; every book under books/ is compiled into the
//! program and agrees with its ledger.

mod common;

use std::path::Path;

use common::books::{committed, oracle_in, start};
use common::mancala;
use mancala_solver::book::{Book, Books};
use mancala_solver::kalah::KalahRules;
use mancala_solver::search::prove::Ledger;
use mancala_solver::search::{solve, SolveOptions};

fn build(dir: &Path, game: &str, turns: &str) -> (i32, String, String) {
    mancala(
        &[
            "book",
            "build",
            game,
            "--turns",
            turns,
            "--max-table-seeds",
            "0",
            "--task-nodes",
            "200000",
            "--threads",
            "1",
            "--tt-mb",
            "8",
            "--quiet",
            "--json",
        ],
        dir,
    )
}

#[test]
fn a_book_holds_exact_values_that_an_independent_solve_confirms() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (game, name, rules) in [
        ("kalah:4:3", "kalah-4-3-default", KalahRules::Default),
        (
            "kalah:4:3:capture-needs-opposite",
            "kalah-4-3-capture-needs-opposite",
            KalahRules::CaptureNeedsOpposite,
        ),
        (
            "kalah:4:2:end-when-mover-empty",
            "kalah-4-2-end-when-mover-empty",
            KalahRules::EndWhenMoverEmpty,
        ),
    ] {
        let (code, out, err) = build(d, game, "2");
        assert_eq!(code, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let p = &report["progress"];
        assert_eq!(p["exact"], p["positions"], "{out}");
        let ledger_path = d.join(format!("books/{name}.jsonl"));
        let book_path = d.join(format!("books/{name}.book"));
        let bytes = std::fs::read(&book_path).unwrap();
        let book = Book::from_bytes(&bytes, name).unwrap();
        assert_eq!(book.rules(), rules);
        assert!(book.len() > 10, "{}", book.len());
        // Each entry against a plain exact solve (no tables, no ledger).
        let opts = SolveOptions {
            rules,
            ..SolveOptions::default()
        };
        for (pos, v) in book.entries() {
            let s = solve(&pos, None, &opts).unwrap();
            assert!(s.exact);
            assert_eq!(s.value, v, "{game}: {pos}");
        }
        // The start's moves from the book, against the solve of each.
        let start = book.root();
        let books = Books::new(vec![book.clone()]);
        let moves = mancala_solver::book::move_values(&books, &start, rules).unwrap();
        assert_eq!(
            moves.iter().map(|m| m.1).max(),
            book.value(&start),
            "{game}"
        );
        // The book compiles again from its ledger, byte for byte.
        let ledger = Ledger::read(&ledger_path).unwrap();
        assert_eq!(Book::from_ledger(&ledger).to_bytes(), bytes);
        let again = d.join("again.book");
        let (code, _, err) = mancala(
            &[
                "book",
                "compile",
                ledger_path.to_str().unwrap(),
                "--out",
                again.to_str().unwrap(),
            ],
            d,
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(std::fs::read(&again).unwrap(), bytes);
        // A second run has nothing left to prove.
        let (code, out, err) = build(d, game, "2");
        assert_eq!(code, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["progress"]["lines"], 0, "{out}");
        // The independent audit reads the same book.
        let audit = std::process::Command::new("python3")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/ledger_audit.py"))
            .arg(&ledger_path)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            audit.status.success(),
            "{}",
            String::from_utf8_lossy(&audit.stderr)
        );
        let a: serde_json::Value = serde_json::from_slice(&audit.stdout).unwrap();
        assert_eq!(a["book"]["exact"], a["book"]["positions"]);
        assert_eq!(a["book"]["positions"], p["positions"]);
    }
}

#[test]
fn a_damaged_or_foreign_book_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (code, _, err) = build(d, "kalah:3:2", "1");
    assert_eq!(code, 0, "{err}");
    let path = d.join("books/kalah-3-2-default.book");
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let k = bad.len() - 6;
    bad[k] ^= 1;
    let e = Book::from_bytes(&bad, "x").unwrap_err();
    assert!(e.to_string().contains("checksum"), "{e}");
    let e = Book::from_bytes(b"not a book", "x").unwrap_err();
    assert!(e.to_string().contains("not an opening book"), "{e}");
    std::fs::write(&path, &bad).unwrap();
    let (code, _, err) = mancala(&["book", "show", path.to_str().unwrap()], d);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("checksum"), "{err}");
    // A proof ledger (no book turns) is not compiled as a book.
    let proof = d.join("p.jsonl");
    let (code, _, err) = mancala(
        &[
            "prove",
            "kalah:3:2",
            "--ledger",
            proof.to_str().unwrap(),
            "--max-table-seeds",
            "0",
            "--quiet",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = mancala(&["book", "compile", proof.to_str().unwrap()], d);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a book ledger"), "{err}");
}

/// Every book under books/ is compiled into the program, reads, and is
/// what its ledger compiles to.
#[test]
fn the_committed_books_are_embedded_and_agree_with_their_ledgers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(
        Books::embedded_faults().is_empty(),
        "{:?}",
        Books::embedded_faults()
    );
    let embedded = Books::embedded().books();
    let mut files = 0;
    for e in std::fs::read_dir(root.join("crates/engine/books"))
        .unwrap()
        .flatten()
    {
        let path = e.path();
        if path.extension().is_none_or(|x| x != "book") {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(&path).unwrap();
        let book = Book::from_bytes(&bytes, &path.display().to_string()).unwrap();
        assert!(
            embedded.contains(&book),
            "{} is not compiled into the program: list it in crates/engine/src/book/embedded.rs",
            path.display()
        );
        let ledger = Ledger::read(&path.with_extension("jsonl")).unwrap();
        assert_eq!(
            Book::from_ledger(&ledger).to_bytes(),
            bytes,
            "{} is not what its ledger compiles to",
            path.display()
        );
        // Every book holds all its turns: those of 6 seeds their first
        // turn, twelve positions (the start, the six opening moves' and
        // the five after pit 0's extra turn; docs/books.md).
        let (held, within) = book.coverage();
        let seeds: usize = book.root().cells().iter().map(|&c| usize::from(c)).sum();
        if seeds / 12 == 6 {
            assert_eq!((held, within), (12, 12), "{}", path.display());
        }
        assert_eq!(held, within, "{}", path.display());
    }
    assert_eq!(files, embedded.len());
}

/// The committed books against the published openings of another program
/// (CMancala's README, "Discoveries", capture-needs-opposite rules, its
/// pits numbered from 1): three seeds a pit, the first player wins by 2,
/// best first move IDX 5 (pit 4 here); four seeds, by 8, IDX 3 (pit 2);
/// five seeds, by 10, IDX 2 (pit 1).
/// Kalah(6,6) under the default rules is this project's own proof
/// (docs/kalah-6-6.md): +2, moves 0 and 1 the best, move 5 -2, and every
/// move after pit 0's extra turn the published value.
#[test]
fn the_committed_books_give_the_published_openings() {
    let cno = KalahRules::CaptureNeedsOpposite;
    for (seeds, value, best) in [(3, 2, 4), (4, 8, 2), (5, 10, 1)] {
        let book = committed(cno, seeds);
        assert_eq!(book.value(&book.root()), Some(value), "{seeds} seeds");
        let books = Books::new(vec![book.clone()]);
        let moves = mancala_solver::book::move_values(&books, &book.root(), cno).unwrap();
        let top: Vec<usize> = moves.iter().filter(|m| m.1 == value).map(|m| m.0).collect();
        assert_eq!(top, vec![best], "{seeds} seeds: {moves:?}");
    }
    // The default rules: Solving Kalah's values of Kalah(6,3), Kalah(6,4)
    // and Kalah(6,5) (+2, +10 and +12, docs/REPRODUCTION.md, Table 10).
    for (seeds, value) in [(3, 2), (4, 10), (5, 12)] {
        let book = committed(KalahRules::Default, seeds);
        assert_eq!(book.value(&book.root()), Some(value), "{seeds} seeds");
    }
    // Every rule set has its 3-, 4- and 5-seed books; end-when-mover-empty's
    // 5-seed start is this project's own proof (+12, pit 1 the only best
    // move, as under the default rules).
    for rules in [
        KalahRules::CaptureNeedsOpposite,
        KalahRules::Default,
        KalahRules::EndWhenMoverEmpty,
    ] {
        for seeds in [3, 4, 5] {
            assert!(committed(rules, seeds).value(&start(seeds)).is_some());
        }
    }
    let ewme = KalahRules::EndWhenMoverEmpty;
    let book = committed(ewme, 5);
    let books = Books::new(vec![book.clone()]);
    assert_eq!(
        mancala_solver::book::move_values(&books, &book.root(), ewme),
        Some(vec![(0, -10), (1, 12), (2, 2), (3, 0), (4, 0), (5, 0)])
    );
    let book = committed(KalahRules::Default, 6);
    assert_eq!(book.value(&book.root()), Some(2));
    let books = Books::new(vec![book.clone()]);
    let moves = mancala_solver::book::move_values(&books, &book.root(), KalahRules::Default);
    assert_eq!(
        moves,
        Some(vec![(0, 2), (1, 2), (2, 0), (3, 0), (4, 0), (5, -2)])
    );
    // And after pit 0's extra turn, the published +2, +2, 0, 0, 0 for
    // pits 1 to 5 (Wikipedia, "Kalah", revision of 14 November 2015).
    let mut after = book.root();
    after.play(0, KalahRules::Default).unwrap();
    let moves = mancala_solver::book::move_values(&books, &after, KalahRules::Default);
    assert_eq!(moves, Some(vec![(1, 2), (2, 2), (3, 0), (4, 0), (5, 0)]));
}

/// A sample of the committed Kalah(6,3) books (the start and every 60th entry, the last
/// turn's and those its rule derives) solved again with no tables and no
/// ledger: the book was proven with 28-seed tables and a split search.
#[test]
fn the_committed_books_agree_with_a_solve_without_tables_on_a_sample() {
    for rules in [
        KalahRules::CaptureNeedsOpposite,
        KalahRules::Default,
        KalahRules::EndWhenMoverEmpty,
    ] {
        let book = committed(rules, 3);
        let opts = SolveOptions {
            rules,
            ..SolveOptions::default()
        };
        let mut checked = 0;
        let root = (book.root(), book.value(&book.root()).unwrap());
        for (pos, v) in book.entries().step_by(60).chain([root]) {
            let s = solve(&pos, None, &opts).unwrap();
            assert!(s.exact);
            assert_eq!(s.value, v, "{rules:?}: {pos}");
            checked += 1;
        }
        assert!(checked >= 15, "{checked}");
    }
}

/// The committed book ledgers pass the independent audit, which derives
/// every book position's value from the lines by the written rule.
#[test]
fn the_committed_book_ledgers_pass_the_independent_audit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut audited = 0;
    for e in std::fs::read_dir(root.join("crates/engine/books"))
        .unwrap()
        .flatten()
    {
        let path = e.path();
        if path.extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        let audit = std::process::Command::new("python3")
            .arg(root.join("dist/ledger_audit.py"))
            .arg(&path)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            audit.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&audit.stderr)
        );
        let a: serde_json::Value = serde_json::from_slice(&audit.stdout).unwrap();
        // The same count of the turns' positions and of those proven exact
        // by the engine's reading of the ledger.
        let out = root.join("target/tmp");
        std::fs::create_dir_all(&out).unwrap();
        let tmp = tempfile::tempdir_in(&out).unwrap();
        let again = tmp.path().join("again.book");
        let (code, report, err) = mancala(
            &[
                "book",
                "compile",
                path.to_str().unwrap(),
                "--out",
                again.to_str().unwrap(),
                "--json",
            ],
            tmp.path(),
        );
        assert_eq!(code, 0, "{err}");
        let r: serde_json::Value = serde_json::from_str(&report).unwrap();
        assert_eq!(
            a["book"]["positions"], r["progress"]["positions"],
            "{report}"
        );
        assert_eq!(a["book"]["exact"], r["progress"]["exact"], "{report}");
        audited += 1;
    }
    assert!(audited >= 3, "{audited}");
}

/// On a fresh directory (no tables), the start of Kalah(6,4) and the
/// position after each of South's moves are answered exactly from the
/// books, under every rule set, by `mancala query` and by the server, each
/// look-up well under a tenth of a second.
#[test]
fn kalah_6_4_openings_answer_from_the_books_on_a_fresh_directory() {
    use common::server::{enc, Server};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let server = Server::start(&d.join("served"), &[]);
    let oracle = mancala_solver::oracle::Oracle::new(mancala_solver::oracle::OracleConfig {
        dir: d.join("db"),
        search: mancala_solver::oracle::SearchBudget {
            time: std::time::Duration::ZERO,
            tt_mb: 8,
        },
        build_limit: 0,
        agent_time: std::time::Duration::from_millis(100),
        build_threads: None,
    });
    for rules in ["default", "capture-needs-opposite", "end-when-mover-empty"] {
        let game = format!("kalah:6:4:{rules}");
        let (code, out, err) = mancala(&["query", &game, "--json", "--no-build"], d);
        assert_eq!(code, 0, "{err}");
        let a: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(a["source"], "book", "{out}");
        assert!(a["exact"].as_bool().unwrap(), "{out}");
        let moves = a["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 6);
        for m in moves {
            assert!(m["exact"].as_bool().unwrap(), "{game}: {m}");
            let after = oracle
                .play(&game, None, &m["move"].to_string())
                .unwrap()
                .position;
            let start = std::time::Instant::now();
            let (status, b) = server.json(&format!(
                "/api/v1/query?game={game}&position={}",
                enc(&after)
            ));
            assert_eq!(status, 200, "{b}");
            assert!(start.elapsed() < std::time::Duration::from_millis(100));
            assert_eq!(b["source"], "book", "{game} {after}: {b}");
            assert_eq!(b["exact"], true);
            // The position's value for its mover, against the move's.
            let sign = if m["extra_turn"].as_bool().unwrap() {
                1
            } else {
                -1
            };
            assert_eq!(
                b["value"].as_i64().unwrap() * sign,
                m["value"].as_i64().unwrap()
            );
        }
    }
    assert!(!d.join("db").exists(), "no table was built");
}

/// A position of a complete book's last turn (its value in the book, its
/// moves' positions beyond it) that the search does not finish in its
/// time gets the book's exact value; the moves keep the search's bounds,
/// each at most that value.
#[test]
fn a_last_turn_position_gets_the_books_value_when_the_search_runs_out() {
    let rules = KalahRules::Default;
    let book = committed(rules, 4);
    let books = Books::new(vec![book.clone()]);
    let (pos, value) = book
        .entries()
        .find(|(p, _)| {
            mancala_solver::book::move_values(&books, p, rules).is_none() && p.active_seeds() > 40
        })
        .expect("a last-turn position");
    let dir = tempfile::tempdir().unwrap();
    let oracle = oracle_in(dir.path(), 0);
    let a = oracle.query("kalah:6:4", Some(&pos.to_string())).unwrap();
    assert_eq!((a.value, a.exact), (Some(value), true), "{pos}: {a:?}");
    assert_eq!(a.source, mancala_solver::oracle::analysis::Source::Book);
    for m in &a.moves {
        assert!(m.upper <= value, "{pos}: {m:?}");
    }
    // An exact solve agrees.
    let s = solve(
        &pos,
        None,
        &SolveOptions {
            rules,
            ..SolveOptions::default()
        },
    )
    .unwrap();
    assert_eq!(s.value, value);
}
