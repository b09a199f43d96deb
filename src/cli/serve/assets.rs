//! The analysis board's files, embedded in the binary: the page (`/`) and
//! what it loads (`/page/NAME`): its style, its JavaScript modules (the
//! back end behind one module, `backend.js`, so that the same files can
//! run on another back end) and the rules page, which renders
//! `docs/RULES.md`. No build step: the files in `page/` are served as they
//! are; dist/site.sh copies the same files, with the engine compiled for
//! the browser, into a folder a static host serves (docs/site.md).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};

use super::{ApiError, Params};

/// The page: `index.html`.
pub const PAGE: &str = include_str!("page/index.html");

/// The parameters of the page's own links (read by the page, not the
/// server): the game, a set-up position and its side to move, the line
/// shown, where the board is on it, and a flipped board.
pub const PAGE_PARAMETERS: &[&str] = &["game", "position", "to_move", "line", "at", "flip"];

const JS: &str = "text/javascript; charset=utf-8";

/// Every file under `/page/`: name, content type, content.
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "board.css",
        "text/css; charset=utf-8",
        include_str!("page/board.css"),
    ),
    ("backend.js", JS, include_str!("page/backend.js")),
    // The back ends' failure (an Error with a status), apart so that
    // backend.js and wasmBackend.js do not import each other.
    ("backendError.js", JS, include_str!("page/backendError.js")),
    // The engine in the browser (a page built by dist/site.sh, or
    // `?backend=wasm` where its module is served): backend.js imports it.
    ("wasmBackend.js", JS, include_str!("page/wasmBackend.js")),
    ("engineWorker.js", JS, include_str!("page/engineWorker.js")),
    ("state.js", JS, include_str!("page/state.js")),
    ("notation.js", JS, include_str!("page/notation.js")),
    ("tree.js", JS, include_str!("page/tree.js")),
    ("trace.js", JS, include_str!("page/trace.js")),
    ("board.js", JS, include_str!("page/board.js")),
    ("editor.js", JS, include_str!("page/editor.js")),
    ("review.js", JS, include_str!("page/review.js")),
    ("main.js", JS, include_str!("page/main.js")),
    (
        "rules.html",
        "text/html; charset=utf-8",
        include_str!("page/rules.html"),
    ),
    ("rules.js", JS, include_str!("page/rules.js")),
    (
        "RULES.md",
        "text/markdown; charset=utf-8",
        include_str!("../../../docs/RULES.md"),
    ),
];

/// `GET /`: the page; it takes its own links' parameters.
pub async fn page(
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> std::result::Result<impl IntoResponse, ApiError> {
    Params::read(q, PAGE_PARAMETERS)?;
    Ok(([(header::CACHE_CONTROL, "no-cache")], Html(PAGE)))
}

/// `GET /page/NAME`: one of [`FILES`].
pub async fn file(
    Path(name): Path<String>,
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> std::result::Result<Response, ApiError> {
    Params::read(q, &[])?;
    let Some((_, kind, body)) = FILES.iter().find(|(n, _, _)| *n == name) else {
        let names: Vec<&str> = FILES.iter().map(|(n, _, _)| *n).collect();
        return Err(ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!(
                "no such file /page/{}: the page's files are {}",
                mancala_solver::error::clip(&name),
                names.join(", ")
            ),
        });
    };
    Ok((
        [
            (header::CONTENT_TYPE, *kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        *body,
    )
        .into_response())
}
