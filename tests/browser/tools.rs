//! The players' tools (issue 62), at a desktop's and a phone's width:
//! stepping through a game with the buttons and the keys, variations kept
//! as a tree, a flipped board, pasting a line, a position or a link, the
//! last seed and the captures shown on the board.

use std::time::{Duration, Instant};

use fantoccini::Locator;
use mancala_browser_test::mancala_bin;
use mancala_browser_test::server::{enc, Server};

use crate::page::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stepping_keys_variations_and_a_flipped_board() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &["--solve-ms", "300"]);
    let game = "kalah:3:3";
    for (w, h) in WIDTHS {
        c.set_window_size(w, h).await.unwrap();
        goto_ready(&c, &s, &format!("game={game}")).await;
        // Four moves by clicks; the line after each.
        let mut lines = vec![String::new()];
        for _ in 0..4 {
            lines.push(click_and_wait(&c, ".pit.playable").await);
        }
        let end = lines[4].clone();
        // The buttons: back, forward, start, end; the URL keeps the whole
        // line and where the board is on it.
        click_until_line(&c, "#step-back", &lines[3]).await;
        assert_eq!(url_param(&c, "line").await.as_deref(), Some(end.as_str()));
        assert_eq!(url_param(&c, "at").await.as_deref(), Some("3"));
        assert_eq!(page_position(&c, &s, game).await, {
            let (_, r) = s.json(&format!(
                "/api/v1/play?game={game}&moves={}",
                enc(&lines[3])
            ));
            r["position"].as_str().unwrap().to_string()
        });
        click_until_line(&c, "#step-start", "").await;
        assert!(js(&c, "return document.getElementById('step-back').disabled").await == true);
        click_until_line(&c, "#step-forward", &lines[1]).await;
        click_until_line(&c, "#step-end", &end).await;
        assert!(
            js(
                &c,
                "return document.getElementById('step-forward').disabled"
            )
            .await
                == true
        );
        assert_eq!(url_param(&c, "at").await, None, "{w}: at the end");
        // The keys: arrows step, Home and End go to the start and the end
        // (focus on a button, not a pit, whose arrows move between pits).
        js(&c, "document.getElementById('flip').focus(); return true").await;
        assert_eq!(press_and_wait(&c, ARROW_LEFT).await, lines[3], "{w}: ←");
        js(&c, "document.getElementById('flip').focus(); return true").await;
        assert_eq!(press_and_wait(&c, ARROW_LEFT).await, lines[2], "{w}: ←");
        js(&c, "document.getElementById('flip').focus(); return true").await;
        assert_eq!(press_and_wait(&c, ARROW_RIGHT).await, lines[3], "{w}: →");
        js(&c, "document.getElementById('flip').focus(); return true").await;
        assert_eq!(press_and_wait(&c, HOME).await, "", "{w}: Home");
        js(&c, "document.getElementById('flip').focus(); return true").await;
        assert_eq!(press_and_wait(&c, END).await, end, "{w}: End");

        // A variation: back to after the first move, another move there.
        click_until_line(&c, "#line button[data-node]", &lines[1]).await;
        let main_next = lines[2].chars().last().unwrap().to_string();
        let other = js(
            &c,
            &format!(
                "const p = [...document.querySelectorAll('.pit.playable')].find((p) => p.dataset.pit !== '{main_next}'); \
                 return p ? p.dataset.pit : null;"
            ),
        )
        .await;
        let other = other.as_str().expect("a second move to try").to_string();
        let sel = format!(".pit.playable[data-pit=\"{other}\"]");
        let variation = click_and_wait(&c, &sel).await;
        assert!(variation.ends_with(&other), "{w}: {variation}");
        // Both lines are in the tree: the main line's four moves and the
        // variation in brackets after the move it replaces.
        let buttons = c.find_all(Locator::Css("#line button")).await.unwrap();
        assert_eq!(buttons.len(), 5, "{w}");
        let in_brackets = c
            .find_all(Locator::Css("#line .variation button"))
            .await
            .unwrap();
        assert_eq!(in_brackets.len(), 1, "{w}");
        assert!(
            text_of(&c, "line").await.contains('('),
            "{w}: {}",
            text_of(&c, "line").await
        );
        assert_eq!(
            in_brackets[0]
                .attr("aria-current")
                .await
                .unwrap()
                .as_deref(),
            Some("step")
        );
        // Back and forward again follow the variation; the main line's end
        // is a click away.
        click_until_line(&c, "#step-back", &lines[1]).await;
        click_until_line(&c, "#step-forward", &variation).await;
        let last_main = js(
            &c,
            "const b = document.querySelectorAll('#line > button'); return b[b.length - 1].dataset.node;",
        )
        .await;
        let last_main = last_main.as_str().unwrap();
        click_until_line(
            &c,
            &format!("#line button[data-node=\"{last_main}\"]"),
            &end,
        )
        .await;
        click_until_line(&c, "#step-back", &lines[3]).await;

        // Flip: South's row on top, its store at the left; values still
        // stand in their columns; the link keeps it.
        css(&c, "#flip").await.click().await.unwrap();
        wait_js(
            &c,
            "return location.search.includes('flip=1')",
            "flip in the URL",
        )
        .await;
        let south = rect(&c, ".pit[data-side=\"south\"]").await;
        let north = rect(&c, ".pit[data-side=\"north\"]").await;
        assert!(south[1] < north[1], "{w}: South's pits above North's");
        let (ss, ns) = (
            rect(&c, ".store[data-store=\"south\"]").await,
            rect(&c, ".store[data-store=\"north\"]").await,
        );
        assert!(ss[0] < ns[0], "{w}: South's store at the left");
        // South's pit 0 is at the right of its row when on top.
        let s0 = rect(&c, ".pit[data-side=\"south\"][data-pit=\"0\"]").await;
        let s2 = rect(&c, ".pit[data-side=\"south\"][data-pit=\"2\"]").await;
        assert!(s0[0] > s2[0], "{w}: South's pits right to left on top");
        no_problems(&c, VALUE_BOXES, "flipped").await;
        no_problems(&c, FITS, "flipped").await;
        let link = c.current_url().await.unwrap();
        c.goto(link.as_str()).await.unwrap();
        ready(&c).await;
        assert_eq!(line_of(&c).await, lines[3], "{w}: the link's position");
        let south = rect(&c, ".pit[data-side=\"south\"]").await;
        let north = rect(&c, ".pit[data-side=\"north\"]").await;
        assert!(south[1] < north[1], "{w}: the link keeps the board flipped");
        css(&c, "#flip").await.click().await.unwrap();
        wait_js(
            &c,
            "return !location.search.includes('flip=1')",
            "unflipped",
        )
        .await;
    }
    c.close().await.unwrap();
}

/// `line` (the notation) as the page writes its moves: `1. S2 S5 2. N1`.
fn numbered(line: &str) -> String {
    line.split('-')
        .enumerate()
        .map(|(t, turn)| {
            let side = if t % 2 == 0 { 'S' } else { 'N' };
            let moves: Vec<String> = turn.chars().map(|p| format!("{side}{p}")).collect();
            format!("{}. {}", t + 1, moves.join(" "))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paste_a_line_a_position_or_a_link() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &["--solve-ms", "300"]);
    let game = "kalah:3:3";
    for (k, (w, h)) in WIDTHS.into_iter().enumerate() {
        c.set_window_size(w, h).await.unwrap();
        goto_ready(&c, &s, &format!("game={game}")).await;
        // A whole game in the notation: the board goes to its end.
        let line = finished_line(&s, game, 5 + k as u64);
        paste(&c, &line, "south").await;
        wait_js(
            &c,
            &format!("return document.getElementById('line').dataset.line === {line:?} && document.body.dataset.state === 'ready'"),
            "the pasted line",
        )
        .await;
        assert!(text_of(&c, "status").await.starts_with("Game over"), "{w}");
        assert!(js(&c, "return document.getElementById('paste-box').hidden").await == true);
        // The same as the page writes it, from another game's start.
        goto_ready(&c, &s, &format!("game={game}")).await;
        paste(&c, &numbered(&line), "south").await;
        wait_js(
            &c,
            &format!("return document.getElementById('line').dataset.line === {line:?}"),
            "the numbered line",
        )
        .await;
        ready(&c).await;
        // Nonsense and an illegal line are refused in words; the board
        // stays as it was.
        let url = c.current_url().await.unwrap();
        paste(&c, "12x", "south").await;
        wait_js(
            &c,
            "return document.getElementById('paste-error').textContent.length > 0",
            "an error",
        )
        .await;
        let err = text_of(&c, "paste-error").await;
        assert!(err.contains("12x"), "{w}: {err}");
        assert!(js(&c, "return document.getElementById('paste-box').hidden").await == false);
        css(&c, "#paste-cancel").await.click().await.unwrap();
        paste(&c, "9", "south").await;
        wait_js(
            &c,
            "return document.getElementById('paste-error').textContent.length > 0",
            "an error",
        )
        .await;
        let err = text_of(&c, "paste-error").await;
        assert!(err.contains('9'), "{w}: {err}");
        assert_eq!(c.current_url().await.unwrap(), url);
        css(&c, "#paste-cancel").await.click().await.unwrap();
        // A position, North to move.
        let position = "2 0 4 1 3 3 3 2";
        paste(&c, position, "north").await;
        wait_js(
            &c,
            "return location.search.includes('to_move=north')",
            "the pasted position",
        )
        .await;
        ready(&c).await;
        assert_eq!(url_param(&c, "position").await.as_deref(), Some(position));
        assert_eq!(
            js(&c, "return document.querySelector('.mid').textContent").await,
            "North to move"
        );
        assert_eq!(line_of(&c).await, "");
        // A link: the board it describes.
        goto_ready(&c, &s, "game=awari:3:2").await;
        paste(&c, url.as_str(), "south").await;
        wait_js(
            &c,
            &format!("return document.getElementById('line').dataset.line === {line:?} && location.search.includes('game=kalah')"),
            "the pasted link",
        )
        .await;
        ready(&c).await;
        assert_eq!(c.current_url().await.unwrap(), url, "{w}");
        no_problems(&c, FITS, "after paste").await;
    }
    c.close().await.unwrap();
}

/// The marks of the last move: (side, pit) of the pit or store ("store")
/// marked as where the last seed landed, and (side, pit, seeds) of each
/// capture.
async fn marks(c: &fantoccini::Client) -> (Vec<(String, String)>, Vec<(String, String, String)>) {
    let v = js(
        c,
        "return [[...document.querySelectorAll('.landed')].map((e) => [e.dataset.side || e.dataset.store, e.dataset.pit || 'store']), \
         [...document.querySelectorAll('.took')].map((t) => { const p = t.parentElement.querySelector('.pit'); return [p.dataset.side, p.dataset.pit, t.dataset.took]; })]",
    )
    .await;
    let pairs = |x: &serde_json::Value| -> Vec<Vec<String>> {
        x.as_array()
            .unwrap()
            .iter()
            .map(|p| {
                p.as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect()
            })
            .collect()
    };
    let landed = pairs(&v[0])
        .into_iter()
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect();
    let mut took: Vec<(String, String, String)> = pairs(&v[1])
        .into_iter()
        .map(|p| (p[0].clone(), p[1].clone(), p[2].clone()))
        .collect();
    took.sort();
    (landed, took)
}

fn owned(v: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    let mut out: Vec<_> = v
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    out.sort();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_last_seed_and_the_captures_are_shown() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(
        &mancala_bin(),
        dir.path(),
        &["--solve-ms", "300", "--build-limit", "200000"],
    );
    // The examples of docs/RULES.md: (game, position, line, landed, took,
    // words of the last move).
    type Case<'a> = (
        &'a str,
        &'a str,
        &'a str,
        (&'a str, &'a str),
        Vec<(&'a str, &'a str, &'a str)>,
        &'a str,
    );
    let cases: Vec<Case> = vec![
        // Three seeds from pit 0: the last one in the store, an extra turn.
        (
            "kalah:3:3",
            "",
            "0",
            ("south", "store"),
            vec![],
            "last seed in South's store",
        ),
        // One seed into empty pit 1: it and North's pit 1 (3) captured.
        (
            "kalah:3:3",
            "1 0 3 0 3 3 3 0",
            "0",
            ("south", "1"),
            vec![("south", "1", "1"), ("north", "1", "3")],
            "captures 4",
        ),
        // Awari: North's pit 2 made 2, taken; the chain stops at 4.
        (
            "awari:6:4",
            "0 0 0 5 0 1 1 3 1 0 0 5",
            "3",
            ("north", "2"),
            vec![("north", "2", "2")],
            "captures 2",
        ),
        // Oware takes 2, 4 and 2.
        (
            "oware:6:4",
            "0 0 0 5 0 1 1 3 1 0 0 5",
            "3",
            ("north", "2"),
            vec![
                ("north", "0", "2"),
                ("north", "1", "4"),
                ("north", "2", "2"),
            ],
            "captures 8",
        ),
        // Ohvalhu: a relay from pit 2, ending in North's empty pit 0.
        (
            "ohvalhu:3:2",
            "2 0 1 0 0 3 1 0",
            "0",
            ("north", "0"),
            vec![],
            "last seed in North pit 0",
        ),
        // Vai Lung Thlan: the last seed in an empty pit, then the single
        // seeds behind it.
        (
            "vai-lung-thlan:3:2",
            "3 0 0 0 0 2 5 0",
            "0",
            ("north", "0"),
            vec![
                ("north", "0", "1"),
                ("south", "1", "1"),
                ("south", "2", "1"),
            ],
            "captures 3",
        ),
    ];
    for (w, h) in WIDTHS {
        c.set_window_size(w, h).await.unwrap();
        for (game, position, line, landed, took, words) in &cases {
            let pos = if position.is_empty() {
                String::new()
            } else {
                format!("&position={}", enc(position))
            };
            goto_ready(&c, &s, &format!("game={game}{pos}&line={line}")).await;
            wait_js(&c, "return !!document.querySelector('.landed')", game).await;
            let (l, t) = marks(&c).await;
            assert_eq!(
                l,
                vec![(landed.0.to_string(), landed.1.to_string())],
                "{w} {game}"
            );
            assert_eq!(t, owned(took), "{w} {game}");
            let text = text_of(&c, "last-move").await;
            assert!(text.contains(words), "{w} {game}: {text}");
            no_problems(&c, ACCESSIBILITY, game).await;
            no_problems(&c, FITS, game).await;
        }
    }
    // Every game and rule set, a few moves each: every move that does not
    // end the game shows its landing, and the page's sowing never
    // disagrees with the engine's position.
    let (_, games) = s.json("/api/v1/games");
    for g in games.as_array().unwrap() {
        let name = g["name"].as_str().unwrap();
        let mut rules: Vec<String> = g["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| format!(":{}", r.as_str().unwrap()))
            .collect();
        if rules.is_empty() {
            rules.push(String::new());
        }
        for r in rules {
            let game = format!("{name}:4:3{r}");
            goto_ready(&c, &s, &format!("game={game}")).await;
            for k in 0..6 {
                if c.find_all(Locator::Css(".pit.playable"))
                    .await
                    .unwrap()
                    .is_empty()
                {
                    break;
                }
                let pits = c.find_all(Locator::Css(".pit.playable")).await.unwrap();
                let before = line_of(&c).await;
                pits[k % pits.len()].click().await.unwrap();
                wait_line_change(&c, &before).await;
                let deadline = Instant::now() + Duration::from_secs(10);
                let over = text_of(&c, "status").await.starts_with("Game over");
                while !over && marks(&c).await.0.is_empty() {
                    assert!(
                        Instant::now() < deadline,
                        "{game}: no landing shown after {}",
                        line_of(&c).await
                    );
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            let mismatches = js(&c, "return window.mancalaTraceMismatches || 0").await;
            assert_eq!(
                mismatches, 0,
                "{game}: the page's sowing disagreed with the engine"
            );
        }
    }
    c.close().await.unwrap();
}
