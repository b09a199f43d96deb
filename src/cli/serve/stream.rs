//! `/api/v1/search`: the answer of `/api/v1/query`, with the search that
//! makes it shown as it goes, as server-sent events (`text/event-stream`):
//!
//! ```text
//! event: update     the proven bounds so far (an analysis), as they narrow
//! event: done       the answer (the analysis /api/v1/query gives)
//! event: error      {"error": "...", "status": N}, when the work fails
//! ```
//!
//! Every event's data is one line of JSON with `elapsed_ms`, the time since
//! the work started; `done` and `error` end the stream, by `--timeout-ms`
//! at the latest (an error, 503, as on every route). A comment line
//! (`: alive`) every [`HEARTBEAT`] keeps proxies from closing a quiet
//! stream and lets the server notice a client that has gone. The search
//! stops when its client closes the stream (the board's "stop"): the stop
//! flag of its work is raised when the answer's body is dropped, and the
//! slot is freed. Bad input is a plain 400 before any event, and a full
//! server a plain 503, as on every other route.
//!
//! A back end that runs the engine elsewhere (a Web Worker) offers the same
//! sequence: updates, then the answer or an error.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use hyper::body::Frame;
use tokio::sync::mpsc;

use mancala_solver::oracle::{Analysis, OnUpdate};
use mancala_solver::play::agents::Stop;

use super::{ApiError, App, Params, RaiseOnDrop};

/// How often a quiet stream sends a comment line.
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// Events waiting to be written; a client that does not read makes the
/// search skip updates, never wait.
const QUEUE: usize = 64;

/// One piece of the stream.
enum Piece {
    /// An event or a comment; more follow.
    More(Bytes),
    /// The last event.
    Last(Bytes),
}

/// An event of the stream: `name`, and `data` with `elapsed_ms` added.
fn event(name: &str, mut data: serde_json::Value, start: Instant) -> Bytes {
    if let Some(map) = data.as_object_mut() {
        map.insert(
            "elapsed_ms".into(),
            (start.elapsed().as_millis() as u64).into(),
        );
    }
    Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

fn analysis_json(a: &Analysis) -> serde_json::Value {
    serde_json::to_value(a).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("internal error: the answer cannot be written: {e}") })
    })
}

fn error_json(e: &ApiError) -> serde_json::Value {
    serde_json::json!({ "error": e.message, "status": e.status.as_u16() })
}

/// The body of a stream: its pieces as they come, then its end. Dropping
/// it (the client has gone) raises the work's stop flag.
struct EventBody {
    rx: mpsc::Receiver<Piece>,
    ended: bool,
    _stop: RaiseOnDrop,
}

impl hyper::body::Body for EventBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<std::result::Result<Frame<Bytes>, Self::Error>>> {
        if self.ended {
            return Poll::Ready(None);
        }
        match self.rx.poll_recv(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(None) => {
                self.ended = true;
                Poll::Ready(None)
            }
            Poll::Ready(Some(Piece::More(b))) => Poll::Ready(Some(Ok(Frame::data(b)))),
            Poll::Ready(Some(Piece::Last(b))) => {
                self.ended = true;
                Poll::Ready(Some(Ok(Frame::data(b))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.ended
    }
}

fn stream_response(body: EventBody) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::new(body),
    )
        .into_response()
}

/// A stream of one event: the answer, known at once (the tables).
fn answered(a: &Analysis, start: Instant) -> Response {
    let (tx, rx) = mpsc::channel(1);
    let _ = tx.try_send(Piece::Last(event("done", analysis_json(a), start)));
    stream_response(EventBody {
        rx,
        ended: false,
        _stop: RaiseOnDrop(Stop::raisable()),
    })
}

/// The search time asked for: `ms` milliseconds (at most three quarters
/// of `--timeout-ms`), `max` for that limit, `--solve-ms` when omitted.
fn search_time(app: &App, ms: Option<&str>) -> std::result::Result<Duration, ApiError> {
    match ms {
        None => Ok(app.oracle.config().search.time),
        Some("max") => Ok(app.work_time()),
        Some(ms) => app.search_time(ms),
    }
}

/// `GET /api/v1/search?game=G&position=P[&ms=T|max]`.
pub async fn search(
    State(app): State<App>,
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> std::result::Result<Response, ApiError> {
    let p = Params::read(q, &["game", "position", "ms"])?;
    let game = p.need("game")?.to_string();
    let position = p.get("position").map(str::to_string);
    let time = search_time(&app, p.get("ms"))?;
    let start = Instant::now();
    // Bad input is refused before the stream; inside the tables the
    // answer is the one event.
    let (g, pos) = (game.clone(), position.clone());
    let from_tables = app
        .run(false, move |o, _| {
            o.play(&g, pos.as_deref(), "")?;
            o.query_from_tables(&g, pos.as_deref())
        })
        .await?;
    if let Some(a) = from_tables {
        return Ok(answered(&a, start));
    }
    let permit = app.slot().await?;
    let stop = Stop::raisable().until(Instant::now() + app.work_time());
    let (tx, rx) = mpsc::channel(QUEUE);
    let updates = tx.clone();
    let on_update: OnUpdate = std::sync::Arc::new(move |a: &Analysis| {
        // A full queue (a client that does not read) drops the update:
        // the next one carries everything it said.
        let _ = updates.try_send(Piece::More(event("update", analysis_json(a), start)));
    });
    let oracle = app.oracle.clone();
    let work_stop = stop.clone();
    let answer = tx.clone();
    tokio::task::spawn_blocking(move || {
        let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            oracle.query_observed(
                &game,
                position.as_deref(),
                time,
                &work_stop,
                Some(&on_update),
            )
        }));
        drop(permit);
        let last = match out {
            Ok(Ok(a)) => event("done", analysis_json(&a), start),
            Ok(Err(e)) => event("error", error_json(&ApiError::from(e)), start),
            Err(p) => event("error", error_json(&super::internal_error(&*p)), start),
        };
        let _ = answer.blocking_send(Piece::Last(last));
    });
    // The heartbeat, and the end of the stream at the request's time limit
    // or when the server stops.
    let mut shutdown = app.shutdown.subscribe();
    let timeout = app.timeout;
    tokio::spawn(async move {
        let mut beat = tokio::time::interval(HEARTBEAT);
        beat.tick().await;
        let limit = tokio::time::sleep(timeout);
        tokio::pin!(limit);
        loop {
            tokio::select! {
                () = &mut limit => {
                    let e = ApiError::unavailable(format!("timed out after {} ms", timeout.as_millis()));
                    let _ = tx.send(Piece::Last(event("error", error_json(&e), start))).await;
                    return;
                }
                _ = beat.tick() => {
                    if tx.send(Piece::More(Bytes::from_static(b": alive\n\n"))).await.is_err() {
                        return;
                    }
                }
                stopping = async { shutdown.wait_for(|&stopping| stopping).await.is_ok() } => {
                    if !stopping {
                        return;
                    }
                    let e = ApiError::unavailable(
                        "the server is shutting down; try again when it is back",
                    );
                    let _ = tx.send(Piece::Last(event("error", error_json(&e), start))).await;
                    return;
                }
                () = tx.closed() => return,
            }
        }
    });
    Ok(stream_response(EventBody {
        rx,
        ended: false,
        _stop: RaiseOnDrop(stop),
    }))
}
