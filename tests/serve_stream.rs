//! `/api/v1/search` over real HTTP (issue 62): the search's proven bounds
//! streamed as server-sent events while they narrow, then the answer; one
//! event inside the tables; bad input refused before the stream; and a
//! stream its client closes stops its search and frees its slot. And the
//! page's own files and its links' parameters.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::server::{enc, Server};

/// One event: its name and data.
type Event = (String, serde_json::Value);

/// The events of a stream read to its end (the server closes it after
/// `done` or `error`), and its status.
fn events(s: &Server, path: &str) -> (u16, Vec<Event>) {
    let (status, body) = s.get(path);
    if status != 200 {
        return (status, Vec::new());
    }
    let mut out = Vec::new();
    for block in body.split("\n\n") {
        let mut name = None;
        let mut data = None;
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = Some(n.to_string());
            } else if let Some(d) = line.strip_prefix("data: ") {
                data = Some(serde_json::from_str(d).unwrap_or_else(|e| panic!("{e}: {d}")));
            }
        }
        if let (Some(n), Some(d)) = (name, data) {
            out.push((n, d));
        }
    }
    (status, out)
}

fn bounds(v: &serde_json::Value) -> (i64, i64) {
    (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap())
}

#[test]
fn a_search_streams_narrowing_bounds_then_the_queries_answer() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &["--build-limit", "0"]);
    // Kalah(4,4) above empty tables: the position, then each move.
    let (status, evs) = events(&s, "/api/v1/search?game=kalah:4:4&ms=20000");
    assert_eq!(status, 200);
    let (last, done) = evs.last().unwrap();
    assert_eq!(last, "done", "{evs:?}");
    assert_eq!(done["exact"], true, "{done}");
    let updates: Vec<&serde_json::Value> = evs
        .iter()
        .filter(|(n, _)| n == "update")
        .map(|(_, d)| d)
        .collect();
    assert!(updates.len() >= 5, "{} updates", updates.len());
    let value = done["value"].as_i64().unwrap();
    let mut prev: Option<&serde_json::Value> = None;
    for u in &updates {
        let (lo, hi) = bounds(u);
        assert!(lo <= value && value <= hi, "{u}");
        assert!(u["elapsed_ms"].is_u64(), "{u}");
        for (m, fm) in u["moves"]
            .as_array()
            .unwrap()
            .iter()
            .zip(done["moves"].as_array().unwrap())
        {
            let (lo, hi) = bounds(m);
            let v = fm["value"].as_i64().unwrap();
            assert!(lo <= v && v <= hi, "move {m} of {u}");
        }
        if let Some(p) = prev {
            let (plo, phi) = bounds(p);
            assert!(plo <= lo && hi <= phi, "widened: {p} then {u}");
        }
        prev = Some(u);
    }
    // The answer is /api/v1/query's, field for field (times aside).
    let (_, q) = s.json("/api/v1/query?game=kalah:4:4&ms=20000");
    let mut done = done.clone();
    done.as_object_mut().unwrap().remove("elapsed_ms");
    assert_eq!(done, q);

    // A finished game (no search): the answer is the one event.
    let over = enc("0 0 0 0 12 0 0 0 0 12");
    let (_, evs) = events(
        &s,
        &format!("/api/v1/search?game=kalah:4:3&position={over}"),
    );
    assert_eq!(evs.len(), 1, "{evs:?}");
    assert_eq!(evs[0].0, "done");
    assert_eq!(evs[0].1["source"], "game_over");
}

#[test]
fn a_search_of_a_position_a_book_holds_in_part_streams_the_books_value_first() {
    // Kalah(6,6) under capture-needs-opposite, after South's pit 0 (an
    // extra turn) and pit 2, the best line: the book holds the position
    // (-4 for North, to move) and North's best move (pit 3), not North's
    // other moves, which lie beyond the book's first turn. The board shows
    // the value at once, while the moves it does not hold are searched.
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &["--build-limit", "0"]);
    let path = "/api/v1/search?game=kalah:6:6:capture-needs-opposite\
                &position=7%207%207%206%206%206%200%200%207%200%208%208%208%202&ms=1000";
    let (status, evs) = events(&s, path);
    assert_eq!(status, 200);
    assert!(evs.len() >= 2, "{evs:?}");
    let (first, u) = &evs[0];
    assert_eq!(first, "update", "{evs:?}");
    assert!(u["elapsed_ms"].as_u64().unwrap() < 500, "{u}");
    for (_, e) in &evs {
        assert_eq!(
            (&e["source"], &e["value"]),
            (&"book".into(), &(-4).into()),
            "{e}"
        );
        assert_eq!(e["best_move"], 3, "{e}");
        let pit3 = e["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == 3);
        assert_eq!(pit3.unwrap()["value"], -4, "{e}");
    }
    assert_eq!(evs.last().unwrap().0, "done");
    // The start's answer is the book's alone: every opening move is held.
    let (status, evs) = events(
        &s,
        "/api/v1/search?game=kalah:6:6:capture-needs-opposite&ms=1000",
    );
    assert_eq!(status, 200);
    assert_eq!(evs.len(), 1, "{evs:?}");
    assert_eq!(evs[0].0, "done");
    assert_eq!(evs[0].1["source"], "book");
    let values: Vec<_> = evs[0].1["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [4, 2, 0, 0, 0, -2]);
}

#[test]
fn a_search_inside_the_tables_is_one_event_and_bad_input_is_refused_first() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    // Built on demand, then looked up: no update.
    let (status, evs) = events(&s, "/api/v1/search?game=kalah:3:2");
    assert_eq!(status, 200);
    let (_, evs2) = events(&s, "/api/v1/search?game=kalah:3:2");
    for evs in [&evs, &evs2] {
        assert_eq!(evs.last().unwrap().0, "done", "{evs:?}");
        assert_eq!(evs.last().unwrap().1["source"], "tables");
    }
    assert_eq!(evs2.len(), 1, "{evs2:?}");
    for (path, want) in [
        ("/api/v1/search?game=nope:6:4", "nope"),
        ("/api/v1/search?game=kalah:6:4&position=1%202", "position"),
        ("/api/v1/search?game=kalah:6:4&ms=abc", "ms \"abc\""),
        ("/api/v1/search?game=kalah:6:4&ms=0", "ms \"0\""),
        (
            "/api/v1/search?game=kalah:6:4&colour=red",
            "unknown parameter",
        ),
        ("/api/v1/search", "missing parameter \"game\""),
    ] {
        let (status, body) = s.json(path);
        assert_eq!(status, 400, "{path}: {body}");
        let msg = body["error"].as_str().unwrap();
        assert!(msg.contains(want), "{path}: {msg}");
    }
    // `max`: as long as the server allows (three quarters of
    // --timeout-ms); a game with no search says so as an error event.
    let (status, evs) = events(&s, "/api/v1/search?game=vai-lung-thlan:6:5&ms=max");
    assert_eq!(status, 200);
    assert_eq!(evs.len(), 1, "{evs:?}");
    assert_eq!(evs[0].0, "error");
    assert_eq!(evs[0].1["status"], 400);
    assert!(
        evs[0].1["error"]
            .as_str()
            .unwrap()
            .contains("no search above the tables"),
        "{evs:?}"
    );
}

#[test]
fn closing_a_stream_stops_its_search_and_frees_its_slot() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(
        dir.path(),
        &[
            "--build-limit",
            "0",
            "--max-solves",
            "1",
            "--queue-ms",
            "300",
        ],
    );
    let mut c = TcpStream::connect(&s.addr).unwrap();
    let head = format!(
        "GET /api/v1/search?game=kalah:6:7&ms=max HTTP/1.1\r\nHost: {}\r\n\r\n",
        s.addr
    );
    c.write_all(head.as_bytes()).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // Read until the first update: the search holds the only slot.
    let mut reader = BufReader::new(c.try_clone().unwrap());
    let mut line = String::new();
    while !line.starts_with("event: update") {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
    }
    let (status, body) = s.json("/api/v1/query?game=kalah:6:7&ms=100");
    assert_eq!(status, 503, "the slot should be taken: {body}");
    // The client goes: within a second the slot is free again.
    drop(reader);
    drop(c);
    let start = Instant::now();
    loop {
        let (status, body) = s.json("/api/v1/query?game=kalah:6:7&ms=100");
        if status == 200 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "the search went on after its stream was closed: {body}"
        );
    }
}

#[test]
fn a_stream_ends_by_the_requests_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    // A position of 17 seeds in play needs the 6-pit tables to 17 seeds
    // built on demand (about 45 million positions, seconds even on an idle
    // machine; 15 seeds took 0.45 s): longer than the request may take.
    let s = Server::start(
        dir.path(),
        &[
            "--solve-ms",
            "300",
            "--timeout-ms",
            "1000",
            "--build-limit",
            "100000000",
        ],
    );
    let position = enc("1 1 1 1 1 2 16 1 1 1 1 3 3 15");
    let start = Instant::now();
    let (status, evs) = events(
        &s,
        &format!("/api/v1/search?game=kalah:6:4&position={position}"),
    );
    assert_eq!(status, 200);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let (name, data) = evs.last().unwrap();
    assert_eq!(name, "error", "{evs:?}");
    assert_eq!(data["status"], 503);
    assert!(
        data["error"]
            .as_str()
            .unwrap()
            .contains("timed out after 1000 ms"),
        "{data}"
    );
}

#[test]
fn the_page_takes_its_links_parameters_and_serves_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start(dir.path(), &[]);
    // A link to the board (issue 59 refused its parameters: every link the
    // board wrote answered 400).
    let (status, page) = s.get("/?game=kalah:4:3&position=3%203%203%203%200%203%203%203%203%200&to_move=north&line=1-2&at=1&flip=1");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("<title>mancala analysis board</title>"));
    // Buttons that need a game on the board start disabled.
    for id in ["undo", "redo", "best-move", "think"] {
        let tag = page
            .split(&format!("id=\"{id}\""))
            .nth(1)
            .unwrap_or_else(|| panic!("no #{id}"));
        let tag = &tag[..tag.find('>').unwrap()];
        assert!(tag.contains("disabled"), "#{id} {tag}");
    }
    // Every file the page loads is served, with its type.
    for (file, kind) in [
        ("main.js", "text/javascript"),
        ("backend.js", "text/javascript"),
        ("board.css", "text/css"),
        ("rules.html", "text/html"),
        ("RULES.md", "text/markdown"),
    ] {
        let mut c = TcpStream::connect(&s.addr).unwrap();
        write!(
            c,
            "GET /page/{file} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = String::new();
        std::io::Read::read_to_string(&mut c, &mut raw).unwrap();
        assert!(raw.starts_with("HTTP/1.1 200"), "{file}: {raw:.80}");
        assert!(
            raw.to_ascii_lowercase()
                .contains(&format!("content-type: {kind}")),
            "{file}: {raw:.300}"
        );
    }
    for src in ["page/board.css", "page/main.js"] {
        assert!(page.contains(src), "{src}");
    }
    let (status, body) = s.json("/page/nope.js");
    assert_eq!(status, 404);
    assert!(
        body["error"].as_str().unwrap().contains("main.js"),
        "{body}"
    );
    let (status, body) = s.json("/?colour=red");
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("game, position"));
}
