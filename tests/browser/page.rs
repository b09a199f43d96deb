//! The browser test's hands and eyes: starting ChromeDriver and Chromium,
//! reading and clicking the page, waiting for it to settle, the in-page
//! checks (value boxes, verdicts, accessibility, fit) and the API's view of
//! the same position to compare with.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use mancala_browser_test::server::{enc, Server};

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const CHROMIUM: &str = "/usr/bin/chromium";

pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub async fn connect() -> (Driver, Client) {
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
pub async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// Click the element with id `id`.
pub async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Whether the page shows all it will (`data-state="ready"` on the body:
/// no request out).
pub async fn is_ready(c: &Client) -> bool {
    c.execute("return document.body.dataset.state", vec![])
        .await
        .unwrap()
        == "ready"
}

/// Wait until the page is ready (at most 30 s).
pub async fn ready(c: &Client) {
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
pub async fn shown_values(c: &Client) -> Vec<(u64, String)> {
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
pub fn api_values(s: &Server, game: &str, position: &str) -> Vec<(u64, String)> {
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
pub async fn page_position(c: &Client, s: &Server, game: &str) -> String {
    page_state(c, s, game).await["position"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The API's report of the page's position: its URL's line played, up to
/// `at` moves when the board is back on it.
pub async fn page_state(c: &Client, s: &Server, game: &str) -> serde_json::Value {
    let url = c.current_url().await.unwrap();
    let param = |name: &str| {
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    let line = line_prefix(&param("line").unwrap_or_default(), param("at"));
    s.json(&format!("/api/v1/play?game={game}&moves={}", enc(&line)))
        .1
}

/// The first `at` moves of `line` (all of it when `None`), in the notation.
pub fn line_prefix(line: &str, at: Option<String>) -> String {
    let Some(at) = at.map(|a| a.parse::<usize>().unwrap()) else {
        return line.to_string();
    };
    let mut out = String::new();
    let mut moves = 0;
    for ch in line.chars() {
        if moves == at {
            break;
        }
        if ch.is_ascii_digit() {
            moves += 1;
        }
        out.push(ch);
    }
    out.trim_end_matches('-').to_string()
}

/// The line the page has played (its `data-line`, the game's notation).
pub async fn line_of(c: &Client) -> String {
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
pub async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.unwrap()
}

/// Each value box shown against its pit: it lies inside the pit's cell,
/// spans the pit's centre, and no two boxes overlap. Returns the problems.
pub const VALUE_BOXES: &str = r#"
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
pub const VERDICT_SIGNS: &str = r#"
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
pub const ACCESSIBILITY: &str = r#"
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
for (const s of document.querySelectorAll('.store')) if (!/^(North|South) (store|captured), \d+ seeds(, last seed landed here)?$/.test(s.getAttribute('aria-label') || '')) bad.push('store label ' + s.getAttribute('aria-label'));
if (document.getElementById('status').getAttribute('aria-live') !== 'polite') bad.push('status not announced');
return bad;
"#;

/// Whether the page fits the window: no horizontal scrolling, every pit and
/// store on screen.
pub const FITS: &str = r#"
const w = window.innerWidth;
const bad = [];
if (document.documentElement.scrollWidth > w) bad.push('scrolls: ' + document.documentElement.scrollWidth + ' > ' + w);
for (const e of document.querySelectorAll('.pit, .store')) { const r = e.getBoundingClientRect(); if (r.left < 0 || r.right > w) bad.push('off screen: ' + (e.getAttribute('aria-label') || '')); }
return bad;
"#;

pub async fn no_problems(c: &Client, script: &str, what: &str) {
    let bad = js(c, script).await;
    assert_eq!(bad, serde_json::json!([]), "{what}");
}

pub async fn goto_ready(c: &Client, s: &Server, query: &str) {
    c.goto(&format!("http://{}/?{query}", s.addr))
        .await
        .unwrap();
    ready(c).await;
}

pub async fn css(c: &Client, sel: &str) -> fantoccini::elements::Element {
    c.find(Locator::Css(sel))
        .await
        .unwrap_or_else(|e| panic!("{sel}: {e}"))
}

/// Click `sel` and wait until the line changes; the new line.
pub async fn click_and_wait(c: &Client, sel: &str) -> String {
    let before = line_of(c).await;
    css(c, sel).await.click().await.unwrap();
    wait_line_change(c, &before).await
}

pub async fn wait_line_change(c: &Client, before: &str) -> String {
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

pub const ARROW_RIGHT: &str = "\u{E014}";
pub const ENTER: &str = "\u{E007}";

/// A line of random moves from the start of `game` to its end (the API's
/// play), at most 400 moves.
pub fn finished_line(s: &Server, game: &str, seed: u64) -> String {
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

/// The widths the board's tools are checked at: a desktop and a phone.
pub const WIDTHS: [(u32, u32); 2] = [(1280, 900), (390, 844)];

/// Wait until `script` (a function body) returns true, at most 30 s.
pub async fn wait_js(c: &Client, script: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while js(c, script).await != true {
        if Instant::now() > deadline {
            let seen = js(
                c,
                "const t = (id) => { const e = document.getElementById(id); return e && e.textContent; }; \
                 return [t('status'), t('error')];",
            )
            .await;
            panic!("{what}: never so ({script}); status and error {seen}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The bounds the status shows (the page's proven `[lower, upper]`).
pub async fn shown_bounds(c: &Client) -> (i64, i64) {
    let v = js(c, "const s = document.getElementById('status').dataset; return [Number(s.lower), Number(s.upper)]").await;
    (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
}

/// Watch a search stream its bounds onto the page, from `first`, until
/// the status has counted at least two updates (and, when `narrowed`, the
/// bounds narrowed at least once), at most 120 s (generous: a debug
/// binary on a loaded machine). Fails when the bounds ever widen. The
/// bounds seen, in order, each differing from the one before.
pub async fn watch_bounds(
    c: &Client,
    first: (i64, i64),
    narrowed: bool,
    what: &str,
) -> Vec<(i64, i64)> {
    let mut seen = vec![first];
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let b = shown_bounds(c).await;
        let last = *seen.last().unwrap();
        assert!(
            last.0 <= b.0 && b.1 <= last.1,
            "{what}: widened from {last:?} to {b:?}"
        );
        if b != last {
            seen.push(b);
        }
        let updates = js(
            c,
            "return Number(document.getElementById('status').dataset.updates)",
        )
        .await;
        if updates.as_u64().unwrap() >= 2 && (!narrowed || seen.len() >= 2) {
            return seen;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: {} updates, bounds {seen:?}",
            updates
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Send `keys` to the focused element (the page's body when none is).
pub async fn press(c: &Client, keys: &str) {
    c.active_element()
        .await
        .unwrap()
        .send_keys(keys)
        .await
        .unwrap();
}

/// Press `keys` and wait until the line to the board's position changes
/// and the page is ready; the new line.
pub async fn press_and_wait(c: &Client, keys: &str) -> String {
    let before = line_of(c).await;
    press(c, keys).await;
    wait_line_change(c, &before).await
}

/// Click `sel` and wait until the line is `want` and the page is ready.
pub async fn click_until_line(c: &Client, sel: &str, want: &str) {
    css(c, sel).await.click().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while line_of(c).await != want || !is_ready(c).await {
        let now = line_of(c).await;
        assert!(
            Instant::now() < deadline,
            "{sel}: the line stayed {now:?}, not {want:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The query parameter `name` of the page's URL.
pub async fn url_param(c: &Client, name: &str) -> Option<String> {
    c.current_url()
        .await
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// The bounding box of the first element matching `sel`: [left, top,
/// right, bottom].
pub async fn rect(c: &Client, sel: &str) -> [f64; 4] {
    let v = js(
        c,
        &format!(
            "const r = document.querySelector({sel:?}).getBoundingClientRect(); \
             return [r.left, r.top, r.right, r.bottom];"
        ),
    )
    .await;
    let a: Vec<f64> = v
        .as_array()
        .unwrap_or_else(|| panic!("{sel}: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    [a[0], a[1], a[2], a[3]]
}

pub const ARROW_LEFT: &str = "\u{E012}";
pub const HOME: &str = "\u{E011}";
pub const END: &str = "\u{E010}";

/// Type `text` into the paste box and open it.
pub async fn paste(c: &Client, text: &str, mover: &str) {
    css(c, "#paste").await.click().await.unwrap();
    let field = css(c, "#paste-text").await;
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
    css(c, "#paste-mover")
        .await
        .select_by_value(mover)
        .await
        .unwrap();
    css(c, "#paste-apply").await.click().await.unwrap();
}
