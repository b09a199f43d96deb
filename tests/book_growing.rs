//! The Kalah(6,6) books grown with their proofs (docs/books.md, "Grown
//! with its proof"): capture-needs-opposite's and end-when-mover-empty's,
//! both whole now. What a book holds answers at
//! once, what it does not is searched, and its lines are the proof
//! ledger's.

mod common;

use std::path::Path;

use common::books::{committed, oracle_in, start};
use common::mancala;
use mancala_solver::book::Books;
use mancala_solver::kalah::KalahRules;

/// The book of Kalah(6,6) under capture-needs-opposite holds its whole
/// first turn (since 2026-12-01): the start (+4), every opening move (+4,
/// +2, 0, 0, 0, -2) and, after pit 0's extra turn, the position (+4) and
/// every move (+2, +4, 0, 0, -2; pit 2 the best). A query of either
/// position is the book's whole answer, at once, with no table built.
/// The perfect agent plays the book's moves and `book show` prints them.
#[test]
fn the_capture_needs_opposite_kalah_6_6_book_answers_its_first_turn() {
    first_turn_answered(
        KalahRules::CaptureNeedsOpposite,
        "kalah:6:6:capture-needs-opposite",
        FirstTurn {
            start: 4,
            best: 0,
            opening: [4, 2, 0, 0, 0, -2],
            after_best: 2,
            after_pit_0: [2, 4, 0, 0, -2],
        },
    );
}

/// The values of a Kalah(6,6) book's first turn: the start's, its best
/// move and every opening move's; after pit 0 (an extra turn: its six
/// seeds end in the store) the best move and the values of pits 1 to 5.
/// Pit 0 then is worth the start's value (the book's best opening move).
struct FirstTurn {
    start: i32,
    best: usize,
    opening: [i32; 6],
    after_best: usize,
    after_pit_0: [i32; 5],
}

/// Checks that the committed 6-seed book of `rules` holds its whole first
/// turn with the values of `turn`, and that every way in answers it from
/// the book at once: the library's look-ups, the oracle's query, the
/// command line's `query` and `book show`, the perfect agent; with no
/// table built.
fn first_turn_answered(rules: KalahRules, game: &str, turn: FirstTurn) {
    use mancala_solver::oracle::analysis::Source;
    use std::time::{Duration, Instant};
    let book = committed(rules, 6);
    let root = start(6);
    assert_eq!(book.value(&root), Some(turn.start));
    assert_eq!(book.coverage(), (12, 12));
    let books = Books::new(vec![book.clone()]);
    assert_eq!(
        mancala_solver::book::best_move(&books, &root, rules),
        Some((turn.best, turn.start))
    );
    let opening: Vec<_> = (0..6).map(|p| (p, Some(turn.opening[p]))).collect();
    assert_eq!(
        mancala_solver::book::known_move_values(&books, &root, rules),
        opening
    );
    let mut after = root;
    after.play(0, rules).unwrap();
    assert_eq!(after.cells(), [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0]);
    let after_value = turn.opening[0];
    assert_eq!(book.value(&after), Some(after_value));
    assert_eq!(
        mancala_solver::book::best_move(&books, &after, rules),
        Some((turn.after_best, after_value))
    );
    let after_values: Vec<_> = (1..6).map(|p| (p, Some(turn.after_pit_0[p - 1]))).collect();
    assert_eq!(
        mancala_solver::book::known_move_values(&books, &after, rules),
        after_values
    );
    assert_eq!(
        mancala_solver::book::known_continuations(&books, &root, rules),
        after_values
            .iter()
            .map(|&(pit, v)| (vec![0], pit, v))
            .collect::<Vec<_>>()
    );

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let oracle = oracle_in(d, 300);
    let after_words = after.to_string();
    let after_words = after_words.as_str();
    let opening: Vec<_> = (0..6).map(|p| (p, turn.opening[p])).collect();
    let after_moves: Vec<_> = (1..6).map(|p| (p, turn.after_pit_0[p - 1])).collect();
    let both = [
        (None, turn.best, turn.start, &opening),
        (
            Some(after_words),
            turn.after_best,
            after_value,
            &after_moves,
        ),
    ];
    // Both positions: every move from the book, no search.
    for &(position, best, value, moves) in &both {
        let started = Instant::now();
        let a = oracle.query(game, position).unwrap();
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(a.source, Source::Book);
        assert_eq!(
            (a.value, a.exact, a.best_move),
            (Some(value), true, Some(best))
        );
        let values: Vec<_> = a
            .moves
            .iter()
            .map(|m| (m.pit, m.value.unwrap(), m.exact))
            .collect();
        assert_eq!(
            values,
            moves.iter().map(|&(p, v)| (p, v, true)).collect::<Vec<_>>()
        );
    }
    // The command line says the answer is the book's.
    for &(position, best, value, moves) in &both {
        let mut args = vec!["query", game];
        args.extend(position);
        args.extend(["--time", "0.2", "--no-build"]);
        let (code, out, err) = mancala(&args, d);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("from the opening book (exact"), "{out}");
        assert!(
            out.contains(&format!("pit {best}: {value:+}  best")),
            "{out}"
        );
        let last = moves.last().unwrap();
        assert!(out.contains(&format!("pit 5: {:+}\n", last.1)), "{out}");
    }
    let (code, out, err) = mancala(&["book", "show", game], d);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("within its turn: all 12 positions"), "{out}");
    let listed = |moves: &[(usize, i32)]| {
        let words: Vec<_> = moves.iter().map(|(p, v)| format!("{p}:{v:+}")).collect();
        words.join(" ")
    };
    assert!(
        out.contains(&format!("moves {}", listed(&opening))),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "moves after 0 (the extra turn) {}",
            listed(&after_moves)
        )),
        "{out}"
    );
    // The perfect agent plays the book's best move without a search.
    for (position, best) in [(None, turn.best), (Some(after_words), turn.after_best)] {
        let started = Instant::now();
        let mv = oracle
            .agent_move(
                game,
                position,
                "perfect:300ms",
                1,
                &mancala_solver::play::agents::Stop::never(),
            )
            .unwrap();
        assert_eq!(mv.pit, best, "{mv:?}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    assert!(!d.join("db").exists(), "no table was built");
}

/// What a book holds of a position is known at once, without a search
/// (`Oracle::query_book_known`, which Python's `Oracle.value` reads
/// first), and a front end streaming a search (the server's
/// `/api/v1/search`, the board) gets it as its first update, before the
/// search, and in every update after. The position is one the book holds
/// in part: after South's pit 0 (an extra turn) and pit 2, the best line,
/// North is to move; the book holds the position (-4 for North) and
/// North's best move (pit 3), not North's other five moves, which lie
/// beyond the book's first turn.
#[test]
fn a_position_a_book_holds_in_part_is_known_at_once_and_streamed_first() {
    use mancala_solver::oracle::{analysis::Source, Analysis, OnUpdate};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let game = "kalah:6:6:capture-needs-opposite";
    let oracle = oracle_in(dir.path(), 300);
    // The start's book answer is whole: every opening move is held.
    assert_eq!(
        serde_json::to_value(oracle.query_book_known(game, None).unwrap()).unwrap(),
        serde_json::to_value(oracle.query_from_book(game, None).unwrap()).unwrap()
    );
    let cno = KalahRules::CaptureNeedsOpposite;
    let mut position = start(6);
    position.play(0, cno).unwrap();
    position.play(2, cno).unwrap();
    let after = position.to_string();
    assert_eq!(after, "7 7 7 6 6 6 0 0 7 0 8 8 8 2", "seen from North");
    let after = after.as_str();
    let started = Instant::now();
    let k = oracle
        .query_book_known(game, Some(after))
        .unwrap()
        .expect("the book holds the position after pit 0 and pit 2");
    assert!(started.elapsed() < Duration::from_millis(100));
    assert_eq!(k.source, Source::Book);
    assert_eq!((k.value, k.exact, k.best_move), (Some(-4), true, Some(3)));
    assert_eq!(k.moves.len(), 6);
    // The move the book holds is exact; nothing searched of the others:
    // at least the worst the seeds allow (North's empty store less the 70
    // seeds on the board and South's 2), at most the position's value.
    let books = Books::new(vec![committed(cno, 6).clone()]);
    let known = mancala_solver::book::known_move_values(&books, &position, cno);
    assert_eq!(
        known,
        [
            (0, None),
            (1, None),
            (2, None),
            (3, Some(-4)),
            (4, None),
            (5, None)
        ]
    );
    for m in &k.moves {
        match known.iter().find(|n| n.0 == m.pit).unwrap().1 {
            Some(v) => assert!(m.exact && (m.lower, m.upper) == (v, v), "{m:?}"),
            None => assert!(!m.exact && m.lower == -72 && m.upper == -4, "{m:?}"),
        }
    }
    // A complete book's position is its whole answer; a position the
    // books know nothing of, or another game's, has none.
    assert_eq!(
        serde_json::to_value(oracle.query_book_known("kalah:6:4", None).unwrap()).unwrap(),
        serde_json::to_value(oracle.query_from_book("kalah:6:4", None).unwrap()).unwrap()
    );
    for other in ["kalah:4:4", "kalah:6:7", "awari"] {
        assert!(
            oracle.query_book_known(other, None).unwrap().is_none(),
            "{other}"
        );
    }
    assert!(oracle.query_book_known("kalah:6:6:nonsense", None).is_err());
    // Nor does a position whose every move ends the game: that is the
    // rules' knowledge, not a book's (the search proves it at once).
    let last = oracle
        .query_book_known("kalah:6:7", Some("0 0 0 0 0 1 30 9 9 9 9 9 6 0"))
        .unwrap();
    assert!(last.is_none(), "{last:?}");

    let seen: Arc<Mutex<Vec<(Duration, Analysis)>>> = Arc::default();
    let sink = seen.clone();
    let t0 = Instant::now();
    let on: OnUpdate = Arc::new(move |a: &Analysis| {
        sink.lock().unwrap().push((t0.elapsed(), a.clone()));
    });
    let stop = mancala_solver::play::agents::Stop::never();
    let time = Duration::from_millis(1200);
    let a = oracle
        .query_observed(game, Some(after), time, &stop, Some(&on))
        .unwrap();
    let seen = seen.lock().unwrap();
    assert!(seen.len() >= 2, "the book's, then the search's");
    assert!(seen[0].0 < Duration::from_millis(100), "{:?}", seen[0].0);
    assert_eq!(
        serde_json::to_value(&seen[0].1).unwrap(),
        serde_json::to_value(&k).unwrap()
    );
    for (_, u) in seen.iter().chain([&(Duration::ZERO, a)]) {
        assert_eq!((u.value, u.exact, u.source), (Some(-4), true, Source::Book));
        assert_eq!(u.best_move, Some(3));
        assert!(u.moves.iter().all(|m| m.upper <= -4), "{:?}", u.moves);
    }
    // A game the books do not hold streams the search alone.
    let seen: Arc<Mutex<Vec<Analysis>>> = Arc::default();
    let sink = seen.clone();
    let on: OnUpdate = Arc::new(move |a: &Analysis| sink.lock().unwrap().push(a.clone()));
    let time = Duration::from_millis(300);
    oracle
        .query_observed("kalah:6:7", None, time, &stop, Some(&on))
        .unwrap();
    assert!(seen
        .lock()
        .unwrap()
        .iter()
        .all(|u| u.source == Source::Search));
}

/// The three Kalah(6,6) books are recorded from the proof ledgers of
/// docs/kalah-6-6/ (`mancala book build --from ... --no-search`): every
/// line of a book ledger after the header is a line of its proof ledger,
/// in the same order, so a book holds nothing its proof does not. Each
/// book holds its whole proof, each done with its first turn.
#[test]
fn the_kalah_6_6_books_are_the_proof_ledgers_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lines = |path: &str| -> Vec<String> {
        let text = std::fs::read_to_string(root.join(path)).unwrap();
        text.lines().skip(1).map(str::to_string).collect()
    };
    for (proof, book, least) in [
        (
            "docs/kalah-6-6/capture-needs-opposite.jsonl",
            "crates/engine/books/kalah-6-6-capture-needs-opposite.jsonl",
            634,
        ),
        (
            "docs/kalah-6-6/ledger.jsonl",
            "crates/engine/books/kalah-6-6-default.jsonl",
            130,
        ),
        (
            "docs/kalah-6-6/end-when-mover-empty.jsonl",
            "crates/engine/books/kalah-6-6-end-when-mover-empty.jsonl",
            181,
        ),
    ] {
        let (proof, book) = (lines(proof), lines(book));
        assert!(book.len() >= least, "{} lines", book.len());
        assert_eq!(book, proof);
    }
}

/// The Kalah(6,6) book of end-when-mover-empty, grown with its proof
/// (docs/kalah-6-6.md, "Under end-when-mover-empty"), holds its whole
/// first turn (since 2026-12-01): the start (+4, where the default
/// rules' is +2), every opening move (+4, +2, 0, 0, 0, -2) and, after
/// pit 0's extra turn, the position (+4) and every move (+4, +2, 0, 0, 0;
/// pit 1 the best).
#[test]
fn the_end_when_mover_empty_kalah_6_6_book_answers_its_first_turn() {
    first_turn_answered(
        KalahRules::EndWhenMoverEmpty,
        "kalah:6:6:end-when-mover-empty",
        FirstTurn {
            start: 4,
            best: 0,
            opening: [4, 2, 0, 0, 0, -2],
            after_best: 1,
            after_pit_0: [4, 2, 0, 0, 0],
        },
    );
}
