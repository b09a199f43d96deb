//! The analysis board in a real browser: headless Chromium driven through
//! ChromeDriver (fantoccini). Open the page, check that the move values it
//! shows are the API's and stand in their pits' columns, play every game by
//! clicks and by keyboard, undo against an agent, recover from bad
//! positions and agents, fit a phone's width, pass contrast and label
//! checks, and keep screenshots under `target/screenshots/`.
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

/// Whether the page shows all it will (`data-state="ready"` on the body:
/// no request out).
async fn is_ready(c: &Client) -> bool {
    c.execute("return document.body.dataset.state", vec![])
        .await
        .unwrap()
        == "ready"
}

/// Wait until the page is ready (at most 30 s).
async fn ready(c: &Client) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !is_ready(c).await {
        let status = text_of(c, "status").await;
        assert!(
            Instant::now() < deadline,
            "the page never settled: status {status:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The move values the page shows: (pit, text), once the analysis is in.
async fn shown_values(c: &Client) -> Vec<(u64, String)> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let status = text_of(c, "status").await;
        if is_ready(c).await {
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
    let line = line_of(&c).await;
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
        let now = line_of(&c).await;
        if now != line {
            assert!(
                line.starts_with(now.trim_end_matches('-')),
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

/// The line the page has played (its `data-line`, the game's notation).
async fn line_of(c: &Client) -> String {
    c.execute(
        "return document.getElementById('line').dataset.line",
        vec![],
    )
    .await
    .unwrap()
    .as_str()
    .unwrap()
    .to_string()
}

/// Run `script` (a function body) and return its value.
async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.unwrap()
}

/// Each value box shown against its pit: it lies inside the pit's cell,
/// spans the pit's centre, and no two boxes overlap. Returns the problems.
const VALUE_BOXES: &str = r#"
const bad = [];
const rects = [];
for (const v of document.querySelectorAll('[data-move-value]')) {
  const cell = v.closest('.cell');
  const pit = cell && cell.querySelector('.pit');
  if (!pit || pit.dataset.pit !== v.dataset.moveValue) { bad.push('value ' + v.dataset.moveValue + ' outside its cell'); continue; }
  const a = v.getBoundingClientRect(), c = cell.getBoundingClientRect(), p = pit.getBoundingClientRect();
  const mid = (p.left + p.right) / 2;
  if (a.left < c.left - 0.5 || a.right > c.right + 0.5) bad.push('value ' + v.dataset.moveValue + ' wider than its column');
  if (a.left > mid || a.right < mid) bad.push('value ' + v.dataset.moveValue + ' not under its pit');
  if (v.scrollWidth > v.clientWidth + 1) bad.push('value ' + v.dataset.moveValue + ' overflows: ' + v.textContent);
  rects.push(a);
}
rects.sort((x, y) => x.left - y.left);
for (let i = 1; i < rects.length; i++) if (rects[i].left < rects[i - 1].right - 0.5 && rects[i].top < rects[i - 1].bottom && rects[i - 1].top < rects[i].bottom) bad.push('value boxes overlap');
return bad;
"#;

/// Every exact value shown agrees with its colour's verdict (a win is
/// positive, a loss negative, a draw 0): values are final results.
const VERDICT_SIGNS: &str = r#"
const bad = [];
for (const v of document.querySelectorAll('[data-move-value]')) {
  if (v.querySelector('.lo')) continue;
  const n = Number(v.textContent.trim());
  const ok = v.classList.contains('win') ? n > 0 : v.classList.contains('loss') ? n < 0 : v.classList.contains('draw') ? n === 0 : true;
  if (!ok) bad.push('pit ' + v.dataset.moveValue + ': ' + v.textContent + ' shown as ' + v.className);
}
return bad;
"#;

/// WCAG AA contrast of every visible text (4.5:1, 3:1 for large text;
/// disabled controls exempt), a name on every control, descriptive pit
/// labels, no unplayable pit in the tab order. Returns the problems.
const ACCESSIBILITY: &str = r#"
const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null; const p = m[1].split(',').map(Number); return { rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
const lum = (rgb) => { const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const bg = (el) => { for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c.rgb; } return [255, 255, 255]; };
const bad = [];
for (const el of document.querySelectorAll('body *')) {
  if (el.closest('[hidden]') || el.disabled || !el.getClientRects().length) continue;
  if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
  const cs = getComputedStyle(el);
  const L1 = lum(parse(cs.color).rgb), L2 = lum(bg(el));
  const ratio = (Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05);
  const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
  const large = size >= 24 || (bold && size >= 18.66);
  if (ratio < (large ? 3 : 4.5)) bad.push('contrast ' + ratio.toFixed(2) + ': ' + el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 20) + '"');
}
for (const el of document.querySelectorAll('button, input, select')) {
  if (el.closest('[hidden]')) continue;
  const name = el.getAttribute('aria-label') || (el.labels && el.labels.length && el.labels[0].textContent.trim()) || el.textContent.trim() || el.title;
  if (!name) bad.push('no name: ' + el.outerHTML.slice(0, 60));
}
for (const p of document.querySelectorAll('.pit')) {
  if (!/^(North|South) pit \d+, \d+ seeds?/.test(p.getAttribute('aria-label') || '')) bad.push('pit label ' + p.getAttribute('aria-label'));
  if (!p.classList.contains('playable') && !p.disabled && p.tabIndex >= 0) bad.push('unplayable pit in the tab order');
}
for (const s of document.querySelectorAll('.store')) if (!/^(North|South) (store|captured), \d+ seeds$/.test(s.getAttribute('aria-label') || '')) bad.push('store label ' + s.getAttribute('aria-label'));
if (document.getElementById('status').getAttribute('aria-live') !== 'polite') bad.push('status not announced');
return bad;
"#;

/// Whether the page fits the window: no horizontal scrolling, every pit and
/// store on screen.
const FITS: &str = r#"
const w = window.innerWidth;
const bad = [];
if (document.documentElement.scrollWidth > w) bad.push('scrolls: ' + document.documentElement.scrollWidth + ' > ' + w);
for (const e of document.querySelectorAll('.pit, .store')) { const r = e.getBoundingClientRect(); if (r.left < 0 || r.right > w) bad.push('off screen: ' + (e.getAttribute('aria-label') || '')); }
return bad;
"#;

async fn no_problems(c: &Client, script: &str, what: &str) {
    let bad = js(c, script).await;
    assert_eq!(bad, serde_json::json!([]), "{what}");
}

async fn goto_ready(c: &Client, s: &Server, query: &str) {
    c.goto(&format!("http://{}/?{query}", s.addr))
        .await
        .unwrap();
    ready(c).await;
}

async fn css(c: &Client, sel: &str) -> fantoccini::elements::Element {
    c.find(Locator::Css(sel))
        .await
        .unwrap_or_else(|e| panic!("{sel}: {e}"))
}

/// Click `sel` and wait until the line changes; the new line.
async fn click_and_wait(c: &Client, sel: &str) -> String {
    let before = line_of(c).await;
    css(c, sel).await.click().await.unwrap();
    wait_line_change(c, &before).await
}

async fn wait_line_change(c: &Client, before: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now = line_of(c).await;
        if now != before && is_ready(c).await {
            return now;
        }
        let err = text_of(c, "error").await;
        assert!(
            Instant::now() < deadline,
            "the line stayed {before:?}: error {err:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

const ARROW_RIGHT: &str = "\u{E014}";
const ENTER: &str = "\u{E007}";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_plays_by_click_and_keyboard_edits_and_settles() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &["--solve-ms", "300"]);
    let (_, games) = s.json("/api/v1/games");
    let games = games.as_array().unwrap().clone();
    assert!(games.len() >= 6, "{games:?}");
    for g in &games {
        let name = g["name"].as_str().unwrap();
        let game = format!("{name}:3:2");
        goto_ready(&c, &s, &format!("game={game}")).await;
        let status = text_of(&c, "status").await;
        assert!(!status.contains("thinking"), "{game}: {status}");
        no_problems(&c, VALUE_BOXES, &game).await;
        no_problems(&c, ACCESSIBILITY, &game).await;
        // The controls follow the game: its rule sets, its widths.
        let rules_disabled = js(&c, "return document.getElementById('rules').disabled").await;
        assert_eq!(
            rules_disabled,
            g["rules"].as_array().unwrap().is_empty(),
            "{game}"
        );
        let max = js(&c, "return Number(document.getElementById('pits').max)").await;
        assert_eq!(max, g["pits"][1], "{game}");

        // A click plays the first playable pit; a few more moves bring
        // captures, and values stay final results.
        let line = click_and_wait(&c, ".pit.playable").await;
        assert!(!line.is_empty(), "{game}");
        for _ in 0..3 {
            if c.find_all(Locator::Css(".pit.playable"))
                .await
                .unwrap()
                .is_empty()
            {
                break;
            }
            click_and_wait(&c, ".pit.playable").await;
            no_problems(&c, VERDICT_SIGNS, &game).await;
        }
        // The keyboard: the arrow moves to the next playable pit, Enter plays it.
        let pits = c.find_all(Locator::Css(".pit.playable")).await.unwrap();
        if pits.len() >= 2 {
            let second = pits[1].attr("data-pit").await.unwrap().unwrap();
            pits[0].send_keys(ARROW_RIGHT).await.unwrap();
            let focused = js(&c, "return document.activeElement.dataset.pit").await;
            assert_eq!(focused, second.as_str(), "{game}: the arrow key");
            let outline = js(
                &c,
                "return getComputedStyle(document.activeElement).outlineStyle",
            )
            .await;
            assert_ne!(outline, "none", "{game}: no visible focus");
            let before = line_of(&c).await;
            c.active_element()
                .await
                .unwrap()
                .send_keys(ENTER)
                .await
                .unwrap();
            let after = wait_line_change(&c, &before).await;
            assert!(
                after.ends_with(second.as_str()),
                "{game}: {before} then {after}"
            );
            // The focus stays on the board for the next move.
            let focused = js(
                &c,
                "return document.activeElement.classList.contains('pit')",
            )
            .await;
            let over = js(&c, "return !document.querySelector('.pit.playable')").await;
            assert!(
                focused == true || over == true,
                "{game}: the focus left the board"
            );
        }

        // The editor: its own position, unchanged, sets up (stores written
        // as the game writes them), a bad field is marked and kept, a
        // position the server refuses leaves the editor open and the board
        // as it was.
        let url = c.current_url().await.unwrap();
        css(&c, "#edit").await.click().await.unwrap();
        let first = css(&c, "[data-edit-pit=\"south-0\"]").await;
        first.clear().await.unwrap();
        first.send_keys("x").await.unwrap();
        css(&c, "#edit-apply").await.click().await.unwrap();
        let err = text_of(&c, "edit-error").await;
        assert!(err.contains("South pit 0"), "{game}: {err}");
        assert_eq!(
            first.attr("aria-invalid").await.unwrap().as_deref(),
            Some("true")
        );
        assert_eq!(c.current_url().await.unwrap(), url, "{game}");
        first.clear().await.unwrap();
        first.send_keys("70000").await.unwrap();
        css(&c, "#edit-apply").await.click().await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !text_of(&c, "edit-error").await.contains("70000") {
            assert!(
                Instant::now() < deadline,
                "{game}: {}",
                text_of(&c, "edit-error").await
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(first.prop("value").await.unwrap().as_deref(), Some("70000"));
        assert!(!js(&c, "return document.getElementById('editor').hidden")
            .await
            .as_bool()
            .unwrap());
        assert_eq!(c.current_url().await.unwrap(), url, "{game}");
        // The last valid position stays playable.
        css(&c, "#edit-cancel").await.click().await.unwrap();
        click_and_wait(&c, ".pit.playable").await;
        // A good position with North to move (a seed in North's pit 0).
        css(&c, "#edit").await.click().await.unwrap();
        let first = css(&c, "[data-edit-pit=\"north-0\"]").await;
        first.clear().await.unwrap();
        first.send_keys("1").await.unwrap();
        css(&c, "#edit-mover")
            .await
            .select_by_value("north")
            .await
            .unwrap();
        css(&c, "#edit-apply").await.click().await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !c
            .current_url()
            .await
            .unwrap()
            .as_str()
            .contains("to_move=north")
        {
            let err = text_of(&c, "edit-error").await;
            assert!(
                Instant::now() < deadline,
                "{game}: the edited position was refused: {err}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ready(&c).await;
        let mid = js(&c, "return document.querySelector('.mid').textContent").await;
        assert!(
            mid == "North to move" || mid == "game over",
            "{game}: {mid}"
        );

        // At the default size analysis ends, with values or "play only".
        goto_ready(&c, &s, &format!("game={name}:6:4")).await;
        let status = text_of(&c, "status").await;
        assert!(!status.contains("thinking"), "{name}:6:4: {status}");
    }
    for pits in [8, 10] {
        goto_ready(&c, &s, &format!("game=kalah:{pits}:4")).await;
        let status = text_of(&c, "status").await;
        assert!(!status.contains("thinking"), "kalah:{pits}:4: {status}");
        no_problems(&c, VALUE_BOXES, "kalah wide").await;
    }
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_against_an_agent_takes_back_a_turn_and_bad_agents_are_refused() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &[]);
    goto_ready(&c, &s, "game=kalah:4:3").await;
    css(&c, "#agent").await.clear().await.unwrap();
    css(&c, "#agent").await.send_keys("greedy").await.unwrap();
    css(&c, "#agent-side")
        .await
        .select_by_value("north")
        .await
        .unwrap();
    ready(&c).await;
    // South's pit 0 ends in South's pit 3: no extra turn, North replies.
    let line = click_and_wait(&c, ".pit[data-side=\"south\"][data-pit=\"0\"]").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut line = line;
    while !line.contains('-') || !is_ready(&c).await {
        assert!(Instant::now() < deadline, "the agent never replied: {line}");
        tokio::time::sleep(Duration::from_millis(50)).await;
        line = line_of(&c).await;
    }
    assert!(line.starts_with("0-"), "{line}");
    // The agent's last move is highlighted.
    assert_eq!(
        c.find_all(Locator::Css(".pit.last[data-side=\"north\"]"))
            .await
            .unwrap()
            .len(),
        1
    );
    css(&c, "#undo").await.click().await.unwrap();
    wait_line_change(&c, &line).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    ready(&c).await;
    assert_eq!(
        line_of(&c).await,
        "",
        "undo took back the agent's reply and South's move"
    );

    // A bad agent is refused before play: short message, nobody plays for it.
    css(&c, "#agent").await.clear().await.unwrap();
    css(&c, "#agent").await.send_keys("foo").await.unwrap();
    css(&c, "#agent-side")
        .await
        .select_by_value("south")
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while text_of(&c, "error").await.is_empty() {
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let err = text_of(&c, "error").await;
    assert!(err.contains("foo") && err.chars().count() < 200, "{err}");
    assert_eq!(
        js(&c, "return document.getElementById('agent-side').value").await,
        ""
    );
    assert!(!text_of(&c, "status").await.contains("thinking"));
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_stand_in_their_columns_bounds_read_as_bounds_and_a_phone_fits() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &["--solve-ms", "200"]);
    let out = repository().join("target/screenshots");
    std::fs::create_dir_all(&out).unwrap();
    // The position of the report: the best pit holds 1 seed.
    let position = "4 3 6 2 5 1 5 3 4 2 7 0 3 3";
    for (w, h, file) in [
        (1280, 900, "board-desktop.png"),
        (390, 844, "board-phone.png"),
        (360, 740, "board-360.png"),
    ] {
        c.set_window_size(w, h).await.unwrap();
        goto_ready(
            &c,
            &s,
            &format!("game=kalah:6:4&position={}", enc(position)),
        )
        .await;
        no_problems(&c, VALUE_BOXES, file).await;
        no_problems(&c, FITS, file).await;
        no_problems(&c, ACCESSIBILITY, file).await;
        let (_, a) = s.json(&format!(
            "/api/v1/query?game=kalah:6:4&position={}",
            enc(position)
        ));
        // A ringed pit is a proven best move, and only then.
        let proven = a["best_moves"].as_array().unwrap().len();
        assert_eq!(
            c.find_all(Locator::Css(".pit.best")).await.unwrap().len(),
            proven
        );
        // Bounds are shown as bounds.
        let bounded = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["exact"] == false)
            .count();
        assert_eq!(
            c.find_all(Locator::Css(".val .lo")).await.unwrap().len(),
            bounded
        );
        // The move table lists every move, best first.
        let rows = c.find_all(Locator::Css("#moves-body tr")).await.unwrap();
        assert_eq!(rows.len(), a["moves"].as_array().unwrap().len());
        std::fs::write(out.join(file), c.screenshot().await.unwrap()).unwrap();
        if w > 1000 && bounded > 0 {
            // "Think longer" searches again with more time, and settles.
            css(&c, "#think").await.click().await.unwrap();
            let status = text_of(&c, "status").await;
            assert!(status.starts_with("thinking for 4 s"), "{status}");
            ready(&c).await;
            let status = text_of(&c, "status").await;
            assert!(status.starts_with("South to move."), "{status}");
        }
        // Every game's start fits too.
        for game in ["kalah:10:4", "ohvalhu:8:8", "awari:6:4"] {
            goto_ready(&c, &s, &format!("game={game}")).await;
            no_problems(&c, FITS, game).await;
        }
    }
    c.close().await.unwrap();
}

/// A line of random moves from the start of `game` to its end (the API's
/// play), at most 400 moves.
fn finished_line(s: &Server, game: &str, seed: u64) -> String {
    let mut line = String::new();
    let mut last_side = serde_json::Value::Null;
    let mut x = seed;
    for _ in 0..400 {
        let (status, r) = s.json(&format!("/api/v1/play?game={game}&moves={}", enc(&line)));
        assert_eq!(status, 200, "{game} {line}: {r}");
        if r["game_over"] == true {
            return line;
        }
        let legal = r["legal_moves"].as_array().unwrap();
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal[(x >> 33) as usize % legal.len()].as_u64().unwrap();
        // A dash where the turn passes: one turn's moves are written together.
        if !line.is_empty() && r["to_move"] != last_side {
            line.push('-');
        }
        last_side = r["to_move"].clone();
        line.push_str(&mv.to_string());
    }
    panic!("{game}: no end in 400 moves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_say_who_won_and_a_refused_game_keeps_the_board() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &["--solve-ms", "300"]);
    for game in [
        "kalah:3:2",
        "awari:3:2",
        "awale:3:2",
        "vai-lung-thlan:3:2",
        "ohvalhu:3:2",
        "kalah:8:1",
    ] {
        let line = finished_line(&s, game, 3);
        let line = line.as_str();
        goto_ready(&c, &s, &format!("game={game}&line={}", enc(line))).await;
        let (_, r) = s.json(&format!("/api/v1/play?game={game}&moves={}", enc(line)));
        assert_eq!(r["game_over"], true, "{game} {line}");
        let (south, north) = (
            r["stores"][0].as_i64().unwrap(),
            r["stores"][1].as_i64().unwrap(),
        );
        let want = match south.cmp(&north) {
            std::cmp::Ordering::Greater => format!("South wins {south}-{north}"),
            std::cmp::Ordering::Less => format!("North wins {north}-{south}"),
            std::cmp::Ordering::Equal => format!("a draw, {south}-{north}"),
        };
        let status = text_of(&c, "status").await;
        assert!(
            status.contains(&want),
            "{game} {line}: {status} (want {want})"
        );
    }
    // A game the engine refuses: the error is short, the board and the
    // URL stay, and the board still plays.
    goto_ready(&c, &s, "game=kalah:4:3").await;
    css(&c, "#game")
        .await
        .select_by_value("ohvalhu")
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !c.current_url().await.unwrap().as_str().contains("ohvalhu") {
        assert!(Instant::now() < deadline, "switching to ohvalhu");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ready(&c).await;
    let url = c.current_url().await.unwrap();
    css(&c, "#pits").await.clear().await.unwrap();
    css(&c, "#pits").await.send_keys("10").await.unwrap();
    css(&c, "#seeds").await.clear().await.unwrap();
    css(&c, "#seeds").await.send_keys("20").await.unwrap();
    css(&c, "#new").await.click().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while text_of(&c, "error").await.is_empty() {
        assert!(Instant::now() < deadline, "no error for ohvalhu:10:20");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let err = text_of(&c, "error").await;
    assert!(err.chars().count() <= 180, "{err}");
    assert_eq!(c.current_url().await.unwrap(), url);
    click_and_wait(&c, ".pit.playable").await;
    c.close().await.unwrap();
}
