//! The analysis board in a real browser: headless Chromium driven through
//! ChromeDriver (fantoccini). Open the page, check that the move values it
//! shows are the API's and stand in their pits' columns, play every game by
//! clicks and by keyboard, undo against an agent, recover from bad
//! positions and agents, fit a phone's width, pass contrast and label
//! checks, and keep screenshots under `target/screenshots/`. The players'
//! tools are checked in `tools.rs` (stepping, variations, flip, paste, the
//! last seed), the review, the streamed search and the trial's findings in
//! `review.rs`; the static folder of `dist/site.sh`, with no server, in
//! `site.rs`.
//!
//! Needs Debian's `chromium` and `chromium-driver`, so it is a package of
//! its own that the engine's `cargo test` leaves out:
//! `cargo test -p mancala-browser-test` runs it, and `.ci/run` does
//! (installing them when missing). Run without them it fails, naming what
//! to install.

mod page;
mod review;
mod site;
mod tools;

use std::time::{Duration, Instant};

use fantoccini::Locator;
use mancala_browser_test::server::{enc, Server};
use mancala_browser_test::{mancala_bin, repository};
use page::*;

/// A fresh server's default page (the start of Kalah(6,4)) shows every
/// move's exact value at once, from the opening book, with nothing to
/// think longer about; so does the position after the best move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_page_shows_exact_values_from_the_book() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(
        &mancala_bin(),
        dir.path(),
        &["--solve-ms", "200", "--build-limit", "0"],
    );
    let game = "kalah:6:4";
    c.goto(&format!("http://{}/", s.addr)).await.unwrap();
    let start = page_position(&c, &s, game).await;
    assert_eq!(start, "4 4 4 4 4 4 0 4 4 4 4 4 4 0");
    for _ in 0..2 {
        let pos = page_position(&c, &s, game).await;
        let shown = shown_values(&c).await;
        // api_values takes exact values only.
        assert_eq!(shown, api_values(&s, game, &pos), "{pos}");
        assert_eq!(text_of(&c, "source").await, "the opening book (exact)");
        assert!(css(&c, "#think")
            .await
            .attr("disabled")
            .await
            .unwrap()
            .is_some());
        let r = page_state(&c, &s, game).await;
        let side = r["to_move"].as_str().unwrap().to_string();
        let (_, a) = s.json(&format!("/api/v1/query?game={game}&position={}", enc(&pos)));
        let best = a["best_move"].as_u64().unwrap();
        let before = line_of(&c).await;
        css(
            &c,
            &format!(".pit[data-side=\"{side}\"][data-pit=\"{best}\"]"),
        )
        .await
        .click()
        .await
        .unwrap();
        wait_line_change(&c, &before).await;
    }
    c.close().await.unwrap();
}

/// A position a book holds in part (Kalah(6,6) under
/// capture-needs-opposite after South's pit 0, an extra turn, and pit 2:
/// the book holds North's best move, not the others, which lie beyond its
/// first turn): the board shows the book's exact value while the search of
/// the other moves still runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_shows_a_books_value_while_it_searches_the_other_moves() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(
        &mancala_bin(),
        dir.path(),
        &["--solve-ms", "20000", "--build-limit", "0"],
    );
    let t = Instant::now();
    c.goto(&format!(
        "http://{}/?game=kalah:6:6:capture-needs-opposite&line=02",
        s.addr
    ))
    .await
    .unwrap();
    wait_js(
        &c,
        "const s = document.getElementById('status').dataset; return s.lower === '-4' && s.upper === '-4'",
        "the book's value",
    )
    .await;
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
    assert_eq!(text_of(&c, "source").await, "the opening book (exact)");
    let status = text_of(&c, "status").await;
    assert!(status.contains("Thinking"), "{status}");
    let stop_hidden = css(&c, "#stop").await.attr("hidden").await.unwrap();
    assert!(stop_hidden.is_none(), "the search still runs");
    c.close().await.unwrap();
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
    // Stepping back to where the agent is to move does not make it move
    // again: the line goes on from there already.
    let agent_reply = line.clone();
    css(&c, "#step-back").await.click().await.unwrap();
    let back = wait_line_change(&c, &agent_reply).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    ready(&c).await;
    assert_eq!(line_of(&c).await, back, "the agent moved on a step back");
    css(&c, "#step-forward").await.click().await.unwrap();
    let line = wait_line_change(&c, &back).await;
    assert_eq!(line, agent_reply);
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
        (1280, 900, "values-desktop.png"),
        (390, 844, "values-phone.png"),
        (360, 740, "values-360.png"),
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
        // "Think longer": review.rs, think_longer_streams_narrowing_bounds_and_stops.
        // Every game's start fits too.
        for game in ["kalah:10:4", "ohvalhu:8:8", "awari:6:4"] {
            goto_ready(&c, &s, &format!("game={game}")).await;
            no_problems(&c, FITS, game).await;
        }
    }
    c.close().await.unwrap();
}
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_say_who_won_and_a_refused_game_keeps_the_board() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    // No table build of a minute when the board switches to Ohvalhu(4,3):
    // it plays there without values.
    let s = Server::start_with(
        &mancala_bin(),
        dir.path(),
        &["--solve-ms", "300", "--build-limit", "1000000"],
    );
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
