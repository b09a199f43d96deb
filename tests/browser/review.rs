//! Game review, the search that shows its work, and what the trial found
//! (issue 62), at a desktop's and a phone's width; and the README's
//! screenshots.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use mancala_browser_test::server::{enc, Server};
use mancala_browser_test::{mancala_bin, repository};

use crate::page::*;

/// What the API says each ply of `line` gave away: (loss, whether it
/// changed the result, the mover on the board).
fn api_losses(s: &Server, game: &str, line: &str) -> Vec<(i64, bool, String)> {
    let plies = line.chars().filter(|c| c.is_ascii_digit()).count();
    (0..plies)
        .map(|i| {
            let before = line_prefix(line, Some(i.to_string()));
            let (_, r) = s.json(&format!("/api/v1/play?game={game}&moves={}", enc(&before)));
            let pos = r["position"].as_str().unwrap();
            let (_, a) = s.json(&format!("/api/v1/query?game={game}&position={}", enc(pos)));
            assert_eq!(a["exact"], true, "{game} {before}");
            let pit = line_prefix(line, Some((i + 1).to_string()))
                .chars()
                .last()
                .unwrap()
                .to_digit(10)
                .unwrap() as u64;
            let moves = a["moves"].as_array().unwrap();
            let best = moves
                .iter()
                .map(|m| m["value"].as_i64().unwrap())
                .max()
                .unwrap();
            let played = moves.iter().find(|m| m["move"] == pit).unwrap();
            let loss = best - played["value"].as_i64().unwrap();
            let changes = a["verdict"] != played["verdict"];
            (loss, changes, r["to_move"].as_str().unwrap().to_string())
        })
        .collect()
}

async fn review_rows(c: &Client) -> Vec<(String, String, bool)> {
    let v = js(
        c,
        "return [...document.querySelectorAll('#review-body tr')].map((r) => [r.dataset.lossLower, r.dataset.lossUpper, r.classList.contains('changes-result')])",
    )
    .await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap().to_string(),
                r[1].as_str().unwrap().to_string(),
                r[2].as_bool().unwrap(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_gives_every_moves_loss_the_changes_of_result_and_a_graph() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &["--solve-ms", "300"]);
    let game = "kalah:3:3";
    for (k, (w, h)) in WIDTHS.into_iter().enumerate() {
        c.set_window_size(w, h).await.unwrap();
        // A game pasted, then reviewed.
        let line = finished_line(&s, game, 11 + k as u64);
        goto_ready(&c, &s, &format!("game={game}")).await;
        assert!(
            js(
                &c,
                "return document.getElementById('review-start').disabled"
            )
            .await
                == true
        );
        paste(&c, &line, "south").await;
        wait_js(
            &c,
            &format!("return document.getElementById('line').dataset.line === {line:?} && document.body.dataset.state === 'ready'"),
            "the pasted game",
        )
        .await;
        css(&c, "#review-start").await.click().await.unwrap();
        wait_js(
            &c,
            "return document.getElementById('review-status').textContent.startsWith('Reviewed')",
            "the review",
        )
        .await;
        ready(&c).await;
        let want = api_losses(&s, game, &line);
        let rows = review_rows(&c).await;
        assert_eq!(rows.len(), want.len(), "{w}");
        for (i, ((lo, hi, changes), (loss, want_changes, _))) in rows.iter().zip(&want).enumerate()
        {
            assert_eq!(
                (lo.as_str(), hi.as_str()),
                (loss.to_string().as_str(), loss.to_string().as_str()),
                "{w}: move {}",
                i + 1
            );
            assert_eq!(
                changes,
                want_changes,
                "{w}: move {} changes the result",
                i + 1
            );
        }
        // Each player's share of perfect moves.
        for side in ["south", "north"] {
            let mine: Vec<_> = want.iter().filter(|x| x.2 == side).collect();
            if mine.is_empty() {
                continue;
            }
            let perfect = mine.iter().filter(|x| x.0 == 0).count();
            let p = css(&c, &format!("#review-summary p[data-side=\"{side}\"]")).await;
            assert_eq!(
                p.attr("data-perfect").await.unwrap(),
                Some(perfect.to_string()),
                "{w} {side}"
            );
            assert_eq!(
                p.attr("data-valued").await.unwrap(),
                Some(mine.len().to_string()),
                "{w} {side}"
            );
            let text = p.text().await.unwrap();
            assert!(
                text.contains(&format!("{perfect} of {}", mine.len())),
                "{w}: {text}"
            );
        }
        // The graph: a point for every position, a mark for every change
        // of result.
        let points = js(&c, "return document.querySelector('#review-graph polyline').getAttribute('points').trim().split(' ').length").await;
        assert_eq!(points, want.len() as u64 + 1, "{w}");
        let marks = c
            .find_all(Locator::Css("#review-graph line.turn"))
            .await
            .unwrap()
            .len();
        assert_eq!(marks, want.iter().filter(|x| x.1).count(), "{w}");
        no_problems(&c, FITS, "review").await;
        no_problems(&c, ACCESSIBILITY, "review").await;
        // A row goes to its move.
        let third = line_prefix(&line, Some("3".into()));
        click_until_line(&c, "#review-body tr[data-ply=\"2\"] button", &third).await;
        assert!(
            js(
                &c,
                "return !!document.querySelector('#review-graph line.at')"
            )
            .await
                == true
        );
    }
    // Above the tables in little time: losses as bounds, those not proven
    // counted apart.
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(
        &mancala_bin(),
        dir.path(),
        &["--solve-ms", "200", "--build-limit", "0"],
    );
    // (Kalah(6,5): no opening book answers it.)
    goto_ready(&c, &s, "game=kalah:6:5&line=0-1").await;
    css(&c, "#review-start").await.click().await.unwrap();
    wait_js(
        &c,
        "return document.getElementById('review-status').textContent.startsWith('Reviewed')",
        "the review",
    )
    .await;
    let rows = review_rows(&c).await;
    assert_eq!(rows.len(), 2);
    let open = rows.iter().filter(|r| r.0 != r.1).count();
    let status = text_of(&c, "review-status").await;
    let summary = text_of(&c, "review-summary").await;
    if open > 0 {
        assert!(status.contains("not proven"), "{status}");
        assert!(
            summary.contains("not valued") || rows.iter().any(|r| r.0 != "0"),
            "{summary}"
        );
    }
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn think_longer_streams_narrowing_bounds_and_stops() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(
        &mancala_bin(),
        dir.path(),
        &[
            "--solve-ms",
            "200",
            "--build-limit",
            "0",
            "--max-solves",
            "1",
            "--queue-ms",
            "500",
        ],
    );
    // About 16 s of search for its value alone on two idle cores (the
    // debug binary), its bounds narrowing twice on the way; its moves take
    // longer: the search is still on when the test steps back and stops.
    let position = "4 4 4 4 5 5 0 4 4 4 4 3 3 0";
    for (w, h) in WIDTHS {
        c.set_window_size(w, h).await.unwrap();
        goto_ready(
            &c,
            &s,
            &format!("game=kalah:6:4&position={}", enc(position)),
        )
        .await;
        let first = shown_bounds(&c).await;
        assert!(first.0 < first.1, "{w}: solved in 200 ms? {first:?}");
        css(&c, "#think").await.click().await.unwrap();
        wait_js(
            &c,
            "return !document.getElementById('stop').hidden",
            "the stop button",
        )
        .await;
        assert!(!is_ready(&c).await);
        assert!(text_of(&c, "status").await.contains("Thinking"));
        // The bounds narrow on screen as the updates come, never widen:
        // narrowed at least once, over several updates.
        let seen = watch_bounds(&c, first, true, &format!("{w}")).await;
        // The last answer's suggestion stands while updates come.
        assert!(
            js(&c, "return document.getElementById('best-move').disabled").await == false,
            "{w}"
        );
        // The board still plays while it thinks: a move, then back to the
        // position, whose bounds are kept.
        let narrowed = *seen.last().unwrap();
        let before = line_of(&c).await;
        // (A click by script: the board is redrawn at each update.)
        js(
            &c,
            "document.querySelector('.pit.playable').click(); return true",
        )
        .await;
        let deadline = Instant::now() + Duration::from_secs(5);
        while line_of(&c).await == before {
            assert!(
                Instant::now() < deadline,
                "{w}: the move waited for the search"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        click_until_line(&c, "#step-back", "").await;
        let kept = shown_bounds(&c).await;
        assert!(
            narrowed.0 <= kept.0 && kept.1 <= narrowed.1,
            "{w}: {narrowed:?} then {kept:?}"
        );
        // Think again and stop: the page is ready at once, says so, keeps
        // the bounds, and the server's only slot is free.
        css(&c, "#think").await.click().await.unwrap();
        wait_js(
            &c,
            "return Number(document.getElementById('status').dataset.updates) >= 1",
            "an update",
        )
        .await;
        let at_stop = shown_bounds(&c).await;
        css(&c, "#stop").await.click().await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(2);
        while !is_ready(&c).await {
            assert!(Instant::now() < deadline, "{w}: the stop did not stop");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let status = text_of(&c, "status").await;
        assert!(status.contains("Stopped after"), "{w}: {status}");
        assert!(js(&c, "return document.getElementById('stop').hidden").await == true);
        let after = shown_bounds(&c).await;
        assert!(at_stop.0 <= after.0 && after.1 <= at_stop.1, "{w}");
        let start = Instant::now();
        loop {
            let (code, body) = s.json("/api/v1/query?game=kalah:6:4&ms=100");
            if code == 200 {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(3),
                "{w}: the search went on: {body}"
            );
        }
        no_problems(&c, FITS, "thinking").await;
    }
    c.close().await.unwrap();
}

/// Whether the elements `sel` all stand on one line.
async fn one_line(c: &Client, sel: &str) -> bool {
    js(
        c,
        &format!(
            "const t = [...document.querySelectorAll({sel:?})].map((e) => Math.round(e.getBoundingClientRect().top)); \
             return t.length > 0 && t.every((x) => x === t[0]);"
        ),
    )
    .await
        == true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_trial_found_and_the_legend() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(&mancala_bin(), dir.path(), &["--solve-ms", "300"]);
    for (w, h) in WIDTHS {
        c.set_window_size(w, h).await.unwrap();
        // A bad game in a link: the default game, with a message.
        goto_ready(&c, &s, "game=foo:6:4&line=123").await;
        assert_eq!(url_param(&c, "game").await.as_deref(), Some("kalah:6:4"));
        let err = text_of(&c, "error").await;
        assert!(
            err.contains("foo:6:4") && err.contains("kalah:6:4"),
            "{w}: {err}"
        );
        assert_eq!(
            page_position(&c, &s, "kalah:6:4").await,
            "4 4 4 4 4 4 0 4 4 4 4 4 4 0"
        );
        for id in ["undo", "redo"] {
            assert!(
                js(
                    &c,
                    &format!("return document.getElementById('{id}').disabled")
                )
                .await
                    == true,
                "{w}: #{id}"
            );
        }
        assert!(
            js(&c, "return document.getElementById('best-move').disabled").await == false,
            "{w}"
        );
        // Each row on one line, values at least 12 pixels.
        assert!(
            one_line(&c, ".cell.top").await && one_line(&c, ".cell.bottom").await,
            "{w}: the board's rows"
        );
        assert!(one_line(&c, ".steps button").await, "{w}: the step buttons");
        let small = js(&c, "return [...document.querySelectorAll('[data-move-value]')].map((v) => parseFloat(getComputedStyle(v).fontSize)).filter((px) => px < 12)").await;
        assert_eq!(small, serde_json::json!([]), "{w}: values under 12 px");
        assert!(!c
            .find_all(Locator::Css("[data-move-value]"))
            .await
            .unwrap()
            .is_empty());
        // The source of the values: the opening book here (the default
        // game's start), the tables below.
        assert_eq!(
            js(
                &c,
                "return document.getElementById('source').dataset.source"
            )
            .await,
            "book"
        );

        // The editor: stores placed and labelled as on the board, each
        // row on one line; a mended field clears its error.
        for flipped in [false, true] {
            let flip = if flipped { "&flip=1" } else { "" };
            goto_ready(&c, &s, &format!("game=kalah:6:4{flip}")).await;
            css(&c, "#edit").await.click().await.unwrap();
            let (left, right) = if flipped {
                ("south", "north")
            } else {
                ("north", "south")
            };
            let ls = rect(&c, &format!("[data-edit-store=\"{left}\"]")).await;
            let rs = rect(&c, &format!("[data-edit-store=\"{right}\"]")).await;
            let top_row = rect(&c, &format!("[data-edit-pit=\"{left}-0\"]")).await;
            let bottom_row = rect(&c, &format!("[data-edit-pit=\"{right}-0\"]")).await;
            let pits = js(&c, "return [...document.querySelectorAll('[data-edit-pit]')].map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })").await;
            for p in pits.as_array().unwrap() {
                assert!(
                    ls[2] <= p[0].as_f64().unwrap() + 0.5,
                    "{w}: {left}'s store left of every pit"
                );
                assert!(
                    rs[0] >= p[1].as_f64().unwrap() - 0.5,
                    "{w}: {right}'s store right of every pit"
                );
            }
            for st in [ls, rs] {
                let mid = (st[1] + st[3]) / 2.0;
                assert!(
                    top_row[1] < mid && mid < bottom_row[3],
                    "{w}: a store between the rows"
                );
            }
            assert!(
                top_row[3] <= bottom_row[1] + 0.5,
                "{w}: {left}'s row on top"
            );
            let label = js(&c, &format!("return document.querySelector('[data-edit-store=\"{left}\"]').closest('label').textContent")).await;
            let want = format!("{}{} store", left[..1].to_uppercase(), &left[1..]);
            assert_eq!(label.as_str().unwrap().trim(), want, "{w}");
            assert!(
                one_line(&c, &format!("[data-edit-pit^=\"{left}-\"]")).await,
                "{w}: the top row"
            );
            assert!(
                one_line(&c, &format!("[data-edit-pit^=\"{right}-\"]")).await,
                "{w}: the bottom row"
            );
            no_problems(&c, FITS, "editor").await;
            no_problems(&c, ACCESSIBILITY, "editor").await;
            let field = css(&c, "[data-edit-pit=\"south-0\"]").await;
            field.clear().await.unwrap();
            field.send_keys("x").await.unwrap();
            assert!(
                text_of(&c, "edit-error").await.contains("South pit 0"),
                "{w}"
            );
            field.clear().await.unwrap();
            field.send_keys("300").await.unwrap();
            assert_eq!(
                text_of(&c, "edit-error").await,
                "",
                "{w}: the mended field's error stays"
            );
            assert_eq!(
                field.attr("aria-invalid").await.unwrap().as_deref(),
                Some("false")
            );
            css(&c, "#edit-apply").await.click().await.unwrap();
            wait_js(
                &c,
                "return document.getElementById('edit-error').textContent.includes('300')",
                "the engine's refusal",
            )
            .await;
            field.clear().await.unwrap();
            field.send_keys("4").await.unwrap();
            assert_eq!(
                text_of(&c, "edit-error").await,
                "",
                "{w}: the refusal stays after a valid edit"
            );
            css(&c, "#edit-cancel").await.click().await.unwrap();
        }

        // The legend, and the rules of the game on screen.
        goto_ready(&c, &s, "game=kalah:3:3").await;
        assert_eq!(
            js(
                &c,
                "return document.getElementById('source').dataset.source"
            )
            .await,
            "tables"
        );
        css(&c, "#legend summary").await.click().await.unwrap();
        let legend = text_of(&c, "legend").await;
        assert!(
            legend.contains("a dash where the turn passes"),
            "{w}: {legend}"
        );
        no_problems(&c, ACCESSIBILITY, "legend").await;
        for (game, anchor, heading) in [
            ("kalah:3:3", "#kalah", "Kalah(m, n)"),
            (
                "kalah:3:3:capture-needs-opposite",
                "#variant-capture-needs-opposite",
                "Variant capture-needs-opposite",
            ),
            ("awari:3:2", "#awari", "Awari"),
            ("vai-lung-thlan:3:2", "#vai-lung-thlan", "Vai Lung Thlan"),
            (
                "vai-lung-thlan:3:2:chain-own-row",
                "#variant-chain-own-row",
                "Variant chain-own-row",
            ),
        ] {
            goto_ready(&c, &s, &format!("game={game}")).await;
            let href = js(&c, "return document.getElementById('rules-link').href").await;
            let href = href.as_str().unwrap().to_string();
            assert!(href.ends_with(anchor), "{w} {game}: {href}");
            c.goto(&href).await.unwrap();
            wait_js(
                &c,
                "return document.getElementById('rules').dataset.state === 'ready'",
                "the rules",
            )
            .await;
            let target = js(&c, "const t = document.querySelector('.target'); const r = t.getBoundingClientRect(); return [t.textContent, r.top >= -1 && r.top < innerHeight]").await;
            assert!(
                target[0].as_str().unwrap().starts_with(heading),
                "{w} {game}: {target}"
            );
            assert_eq!(target[1], true, "{w} {game}: the heading is on screen");
            no_problems(&c, FITS, "rules").await;
        }
    }
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readme_screenshots_show_proven_values() {
    let (_driver, c) = connect().await;
    let dir = tempfile::tempdir().unwrap();
    let s = Server::start_with(
        &mancala_bin(),
        dir.path(),
        &["--solve-ms", "20000", "--build-limit", "0"],
    );
    let out = repository().join("target/screenshots");
    std::fs::create_dir_all(&out).unwrap();
    // A Kalah(6,4) game from the start to a position the search proves
    // in a few seconds, a variation tried, and the last moves reviewed.
    let game = "kalah:6:4";
    let line = SCREENSHOT_LINE;
    for (w, h, file) in [
        (1280, 1100, "board-desktop.png"),
        (390, 844, "board-phone.png"),
    ] {
        c.set_window_size(w, h).await.unwrap();
        goto_ready(
            &c,
            &s,
            &format!("game={game}&line={}&at={SCREENSHOT_AT}", enc(line)),
        )
        .await;
        // A variation two moves back, then back to the main line.
        let here = line_of(&c).await;
        let at = |n: usize| line_prefix(line, Some(n.to_string()));
        click_until_line(&c, "#step-back", &at(SCREENSHOT_AT - 1)).await;
        click_until_line(&c, "#step-back", &at(SCREENSHOT_AT - 2)).await;
        let main_pit = at(SCREENSHOT_AT - 1).chars().last().unwrap();
        let before = line_of(&c).await;
        js(&c, &format!("[...document.querySelectorAll('.pit.playable')].find((p) => p.dataset.pit !== '{main_pit}').click(); return true")).await;
        wait_line_change(&c, &before).await;
        let node = js(
            &c,
            &format!(
                "return document.querySelectorAll('#line > button')[{}].dataset.node",
                SCREENSHOT_AT - 1
            ),
        )
        .await;
        let node = node.as_str().unwrap().to_string();
        click_until_line(&c, &format!("#line button[data-node=\"{node}\"]"), &here).await;
        assert_eq!(
            c.find_all(Locator::Css("#line .variation"))
                .await
                .unwrap()
                .len(),
            1
        );
        let a = js(&c, "return document.getElementById('source').textContent").await;
        assert!(a.as_str().unwrap().contains("exact"), "{w}: {a}");
        let bounds = c.find_all(Locator::Css(".val .lo")).await.unwrap().len();
        assert_eq!(bounds, 0, "{w}: every move's value proven");
        assert!(!c
            .find_all(Locator::Css(".pit.best"))
            .await
            .unwrap()
            .is_empty());
        if w > 1000 {
            css(&c, "#review-start").await.click().await.unwrap();
            wait_js(&c, "return document.getElementById('review-status').textContent.startsWith('Reviewed')", "the review").await;
            ready(&c).await;
        }
        no_problems(&c, VALUE_BOXES, file).await;
        no_problems(&c, FITS, file).await;
        std::fs::write(out.join(file), c.screenshot().await.unwrap()).unwrap();
    }
    c.close().await.unwrap();
}

/// The README's game: Kalah(6,4), `heuristic:6` (South) against
/// `alphabeta:4`, the board after its 27th move (24 seeds in the pits,
/// every move's value proven in well under a second), six more moves
/// ahead on the line.
const SCREENSHOT_LINE: &str = "5-10-4-2-53-3-52-4-31-5-0-051-35-30-250-4-154-0-53-5";
const SCREENSHOT_AT: usize = 27;
