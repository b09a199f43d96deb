//! What the Python bridge's MCTS evaluator and first use rest on (issue
//! 61): values of many positions from the opening books and the tables
//! (`Oracle::exact_values`), one position's value alone by a short search
//! (`Oracle::value_bounds`), the tables a game needs (`Oracle::table_plan`)
//! and whether an agent's move is proven (`AgentMove::exact`).

mod common;

use std::path::Path;
use std::time::Duration;

use common::mancala;
use mancala_solver::book::{Book, Books};
use mancala_solver::oracle::{Oracle, OracleConfig, SearchBudget, ValueSource};
use mancala_solver::play::agents::Stop;

fn oracle(dir: &Path, build_limit: u64) -> Oracle {
    Oracle::new(OracleConfig {
        dir: dir.to_path_buf(),
        search: SearchBudget {
            time: Duration::from_millis(2000),
            tt_mb: 4,
        },
        build_limit,
        agent_time: Duration::from_millis(2000),
        build_threads: None,
    })
}

/// A position's `2m + 2` counts from its notation (brackets dropped).
fn counts(position: &str) -> Vec<u8> {
    position
        .split_whitespace()
        .map(|c| c.trim_matches(|c| c == '[' || c == ']').parse().unwrap())
        .collect()
}

fn budget(ms: u64) -> SearchBudget {
    SearchBudget {
        time: Duration::from_millis(ms),
        tt_mb: 2,
    }
}

#[test]
fn book_positions_have_exact_values_where_the_tables_have_none() {
    // A book of Kalah(4,3)'s first two turns, proven by the command line
    // (a book built here cannot be compiled into the library: it is given).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (code, _, err) = mancala(
        &[
            "book",
            "build",
            "kalah:4:3",
            "--turns",
            "2",
            "--max-table-seeds",
            "0",
            "--threads",
            "1",
            "--tt-mb",
            "8",
            "--quiet",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(d.join("books/kalah-4-3-default.book")).unwrap();
    let book = Book::from_bytes(&bytes, "kalah-4-3-default").unwrap();
    let books = Books::new(vec![book.clone()]);
    // No tables and none built: only the book answers.
    let o = oracle(&d.join("db"), 0);
    let mut rows = Vec::new();
    let mut want = Vec::new();
    for (pos, v) in book.entries() {
        rows.extend_from_slice(pos.cells());
        want.push(v);
    }
    // A position the book does not hold (not reachable in two turns).
    rows.extend_from_slice(&counts("0 0 0 3 10 1 0 7 3 0"));
    want.push(i32::MIN);
    let mut got = vec![0; want.len()];
    o.table_values("kalah:4:3", &rows, &mut got, i32::MIN)
        .unwrap();
    assert!(got.iter().all(|&v| v == i32::MIN), "no tables");
    o.exact_values_from(&books, "kalah:4:3", &rows, &mut got, i32::MIN)
        .unwrap();
    assert_eq!(got, want);
    // Another rule set on the same board is not answered by this book.
    o.exact_values_from(
        &books,
        "kalah:4:3:capture-needs-opposite",
        &rows,
        &mut got,
        i32::MIN,
    )
    .unwrap();
    assert!(got.iter().all(|&v| v == i32::MIN));
    // With the tables, the tables answer first, and agree with the book.
    let o = oracle(&d.join("db"), 20_000_000);
    o.exact_values_from(&books, "kalah:4:3", &rows, &mut got, i32::MIN)
        .unwrap();
    let mut tables = vec![0; want.len()];
    o.table_values("kalah:4:3", &rows, &mut tables, i32::MIN)
        .unwrap();
    assert_eq!(&got[..want.len() - 1], &want[..want.len() - 1]);
    assert_eq!(got, tables);
}

#[test]
fn the_embedded_books_answer_the_batch_and_one_position() {
    // Whatever books the library embeds (none before they are proven).
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path(), 0);
    for book in Books::embedded().books() {
        let game = format!(
            "kalah:{}:{}:{}",
            book.pits(),
            book.root()
                .cells()
                .iter()
                .map(|&c| c as usize)
                .sum::<usize>()
                / (2 * book.pits()),
            book.rules().name()
        );
        for (pos, v) in book.entries().take(50) {
            let mut got = [0];
            o.exact_values(&game, pos.cells(), &mut got, i32::MIN)
                .unwrap();
            assert_eq!(got[0], v, "{game} {pos}");
            let b = o
                .value_bounds(&game, pos.cells(), &budget(0), &Stop::never())
                .unwrap();
            assert_eq!((b.lower, b.upper, b.source), (v, v, ValueSource::Book));
        }
    }
}

#[test]
fn one_positions_value_comes_from_the_tables_or_a_short_search() {
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path(), 20_000_000);
    let never = Stop::never();
    // Inside the tables (built on demand within the limit).
    let b = o
        .value_bounds(
            "kalah:4:3",
            &counts("3 3 3 3 0 3 3 3 3 0"),
            &budget(0),
            &never,
        )
        .unwrap();
    assert_eq!((b.lower, b.upper, b.source), (8, 8, ValueSource::Tables));
    assert_eq!(b.value(), Some(8));
    // A finished game.
    let b = o
        .value_bounds(
            "kalah:4:3",
            &counts("0 0 0 0 10 1 2 3 4 4"),
            &budget(0),
            &never,
        )
        .unwrap();
    assert_eq!((b.lower, b.source), (10 - 14, ValueSource::GameOver));
    // Above the tables (none, and none built): no time, the bounds of any
    // game from there (8 seeds in play, stores level); time, the search's
    // exact value, the query's.
    let o0 = oracle(&dir.path().join("none"), 0);
    let pos = "0 1 0 2 1 0 20 1 0 2 0 1 0 20";
    let b = o0
        .value_bounds("kalah:6:4", &counts(pos), &budget(0), &never)
        .unwrap();
    assert_eq!((b.lower, b.upper, b.source), (-8, 8, ValueSource::None));
    let b = o0
        .value_bounds("kalah:6:4", &counts(pos), &budget(5000), &never)
        .unwrap();
    let q = o0.query("kalah:6:4", Some(pos)).unwrap();
    assert_eq!(b.source, ValueSource::Search);
    assert_eq!(b.value(), q.value);
    // Awari above its tables, captured seeds apart, as the query shows it.
    let pos = "1 0 2 [20] 1 1 0 [19]";
    let b = o0
        .value_bounds("awari:3:8", &counts(pos), &budget(5000), &never)
        .unwrap();
    let q = o0.query("awari:3:8", Some(pos)).unwrap();
    assert_eq!((b.source, b.value()), (ValueSource::Search, q.value));
    // A search stopped before its end keeps proven bounds around the value.
    let b = o0
        .value_bounds(
            "kalah:6:7",
            &counts("7 7 7 7 7 7 0 7 7 7 7 7 7 0"),
            &budget(20),
            &never,
        )
        .unwrap();
    assert!(
        -84 <= b.lower && b.lower < b.upper && b.upper <= 84,
        "{b:?}"
    );
    // Bad rows are named; games without a search say so above their tables.
    let e = o0
        .value_bounds("kalah:4:3", &counts("3 3 3"), &budget(0), &never)
        .unwrap_err();
    assert!(e.to_string().contains("counts"), "{e}");
    let e = o0
        .value_bounds(
            "ohvalhu:3:2",
            &counts("2 2 2 0 2 2 2 0"),
            &budget(10),
            &never,
        )
        .unwrap_err();
    assert!(e.to_string().contains("no search"), "{e}");
}

#[test]
fn a_games_table_plan_is_what_its_first_use_builds() {
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path(), 0);
    // OpenSpiel's mancala: the 6-pit tables up to 20 seeds, as `solve`.
    let p = o.table_plan("kalah:6:4:capture-needs-opposite").unwrap();
    assert_eq!((p.pits, p.seeds, p.game_seeds, p.on_disk), (6, 20, 48, 0));
    assert_eq!(p.positions, 225_332_381);
    assert_eq!(p.rules, Some("capture-needs-opposite"));
    assert!(!p.ready);
    // Narrow boards: every seed count the game has.
    let p = o.table_plan("kalah:3:3").unwrap();
    assert_eq!((p.seeds, p.game_seeds), (18, 18));
    o.build_tables(&p.game, p.seeds, None, Default::default())
        .unwrap();
    let p = o.table_plan("kalah:3:3").unwrap();
    assert!(p.ready && p.positions == 0 && p.on_disk == 18);
    // Awari at 6 pits: what fits in 300 million positions.
    let p = o
        .table_plan("awari:6:4:grand-slam-captures-nothing")
        .unwrap();
    assert_eq!((p.seeds, p.game_seeds), (20, 48));
    assert!(p.positions <= mancala_solver::oracle::PLAN_POSITIONS);
    let e = o.table_plan("kalah:10:4").unwrap_err();
    assert!(e.to_string().contains("no endgame tables"), "{e}");
}

#[test]
fn an_agents_move_says_whether_it_is_proven() {
    let dir = tempfile::tempdir().unwrap();
    let o = oracle(dir.path(), 2_000_000);
    let never = Stop::never();
    let m = o
        .agent_move("kalah:4:3", None, "perfect", 1, &never)
        .unwrap();
    assert!(m.exact && m.value == Some(8.0), "{m:?}");
    // Above the tables, too little time: the best move so far.
    let m = o
        .agent_move("kalah:6:7", None, "perfect:20ms", 1, &never)
        .unwrap();
    assert!(!m.exact, "{m:?}");
    // A forced move is proven; the other agents never claim a proof.
    let m = o
        .agent_move(
            "kalah:6:7",
            Some("0 0 0 0 0 1 30 9 9 9 9 9 6 0"),
            "perfect:20ms",
            1,
            &never,
        )
        .unwrap();
    assert!(m.exact && m.pit == 5, "{m:?}");
    let m = o
        .agent_move("kalah:4:3", None, "alphabeta:4", 1, &never)
        .unwrap();
    assert!(!m.exact);
}

/// Above its tables, a game without a search says why it has no answer,
/// in words that fit the oracle: one that builds no tables on demand (the
/// browser's) says so, not "a limit of 0 entries".
#[test]
fn a_position_above_the_tables_of_a_game_without_search_says_why() {
    let dir = tempfile::tempdir().unwrap();
    for (limit, want) in [
        (0, "this oracle builds no tables on demand"),
        (
            10,
            "building more on demand is above this oracle's limit of 10 entries",
        ),
    ] {
        let e = oracle(dir.path(), limit)
            .query("vai-lung-thlan:6:5", None)
            .unwrap_err();
        assert!(matches!(e, mancala_solver::Error::OutOfRange(_)), "{e}");
        let msg = e.to_string();
        assert!(msg.contains(want), "{msg}");
        assert!(msg.contains("has no search above the tables"), "{msg}");
        assert!(!msg.contains("limit of 0"), "{msg}");
    }
}
