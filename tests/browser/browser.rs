//! The analysis board in a real browser: headless Chromium driven through
//! ChromeDriver (fantoccini). Open the page, check that the move values it
//! shows are the API's, play moves by clicking pits, undo, and keep a
//! screenshot under `target/screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver`, so it is a package of
//! its own that the engine's `cargo test` leaves out:
//! `cargo test -p mancala-browser-test` runs it, and `.ci/run` does
//! (installing them when missing). Run without them it fails, naming what
//! to install.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use mancala_browser_test::server::{enc, Server};
use mancala_browser_test::{mancala_bin, repository};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn connect() -> (Driver, Client) {
    assert!(
        Path::new(CHROMEDRIVER).exists() && Path::new(CHROMIUM).exists(),
        "{CHROMEDRIVER} or {CHROMIUM} missing: apt-get install chromium chromium-driver"
    );
    let port = free_port();
    let driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--window-size=1100,800"],
        }),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match ClientBuilder::native()
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(c) => return (driver, c),
            Err(e) if Instant::now() > deadline => panic!("chromedriver: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// The text of the element with id `id`.
async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// Click the element with id `id`.
async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The move values the page shows: (pit, text), once the analysis is in.
async fn shown_values(c: &Client) -> Vec<(u64, String)> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let status = text_of(c, "status").await;
        if status.starts_with("value") || status.starts_with("game over") {
            let mut out = Vec::new();
            for e in c.find_all(Locator::Css("[data-move-value]")).await.unwrap() {
                let pit = e.attr("data-move-value").await.unwrap().unwrap();
                out.push((pit.parse().unwrap(), e.text().await.unwrap()));
            }
            // North's row runs right to left on the screen.
            out.sort();
            return out;
        }
        assert!(
            Instant::now() < deadline,
            "the page never showed a value: {status}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The API's move values for the page's current position, as the page
/// writes them.
fn api_values(s: &Server, game: &str, position: &str) -> Vec<(u64, String)> {
    let (status, a) = s.json(&format!(
        "/api/v1/query?game={game}&position={}",
        enc(position)
    ));
    assert_eq!(status, 200, "{a}");
    a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let v = m["value"].as_i64().unwrap();
            let text = if v > 0 {
                format!("+{v}")
            } else {
                v.to_string()
            };
            (m["move"].as_u64().unwrap(), text)
        })
        .collect()
}

/// The position the page shows, read back from its URL through the API.
async fn page_position(c: &Client, s: &Server, game: &str) -> String {
    page_state(c, s, game).await["position"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The API's report of the page's position (its URL's line played).
async fn page_state(c: &Client, s: &Server, game: &str) -> serde_json::Value {
    let url = c.current_url().await.unwrap();
    let line = url
        .query_pairs()
        .find(|(k, _)| k == "line")
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default();
    s.json(&format!("/api/v1/play?game={game}&moves={}", enc(&line)))
        .1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_plays_by_clicks_and_shows_the_apis_values() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &[]);
    let game = "kalah:4:3";
    c.goto(&format!("http://{}/?game={game}", s.addr))
        .await
        .unwrap();

    let start = page_position(&c, &s, game).await;
    assert_eq!(start, "3 3 3 3 0 3 3 3 3 0");
    let shown = shown_values(&c).await;
    assert_eq!(shown, api_values(&s, game, &start));
    assert_eq!(shown.len(), 4);

    // Play the best move three times by clicking the side to move's pit.
    for _ in 0..3 {
        let r = page_state(&c, &s, game).await;
        let pos = r["position"].as_str().unwrap().to_string();
        let (_, a) = s.json(&format!("/api/v1/query?game={game}&position={}", enc(&pos)));
        // Positions are seen from the side to move: which side that is
        // comes from the line.
        let side = r["to_move"].as_str().unwrap();
        let best = a["best_move"].as_u64().unwrap();
        let sel = format!(".pit[data-side=\"{side}\"][data-pit=\"{best}\"]");
        c.find(Locator::Css(&sel))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        // Wait for the new position's values.
        let deadline = Instant::now() + Duration::from_secs(20);
        while page_position(&c, &s, game).await == pos {
            if Instant::now() > deadline {
                let err = text_of(&c, "error").await;
                let url = c.current_url().await.unwrap();
                panic!("clicking {sel} in {pos} changed nothing: url {url}, error {err:?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let now = page_position(&c, &s, game).await;
        let shown = shown_values(&c).await;
        assert_eq!(
            shown,
            api_values(&s, game, &now),
            "after clicking {best} in {pos}"
        );
    }
    let line = text_of(&c, "line").await;
    let url = c.current_url().await.unwrap();
    assert!(url.as_str().contains("line="), "{url}");
    // The best line keeps the value: 8 for South at the start, so the
    // value shown is still a win for whoever South is.
    let status = text_of(&c, "status").await;
    assert!(
        status.contains("win") || status.contains("loss"),
        "{status}"
    );

    // Undo takes one move back.
    click(&c, "undo").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let now = text_of(&c, "line").await;
        if now != line {
            assert!(
                line.starts_with(now.trim_end_matches('-')) || now == "(none)",
                "{line} -> {now}"
            );
            break;
        }
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    shown_values(&c).await;

    // A link reproduces the board.
    let link = c.current_url().await.unwrap();
    c.goto(link.as_str()).await.unwrap();
    shown_values(&c).await;
    assert_eq!(c.current_url().await.unwrap(), link);

    let shot = c.screenshot().await.unwrap();
    let out = repository().join("target/screenshots");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("board.png"), shot).unwrap();
    c.close().await.unwrap();
}
