//! `mancala serve`: the HTTP oracle and the analysis board in the browser
//! (its files: `assets`; its search streamed as it goes: `stream`).
//!
//! Every answer comes from [`mancala_solver::oracle::Oracle`], the same
//! library API the CLI uses; the handlers only read parameters, bound the
//! work and render JSON. Work that can take long (a search above the
//! tables, an on-demand build, an agent's move) runs on blocking threads,
//! at most `--max-solves` at once; a request that waits longer than
//! `--queue-ms` for a slot gets 503. An agent's work polls a stop flag
//! that the request raises when it ends for any reason (answered, timed
//! out, client gone, server stopping), so its slot is freed promptly.
//!
//! Connections are served by hyper's HTTP/1 connection builder rather than
//! `axum::serve`, which has no header-read timeout: `conn` bounds the
//! connections, the time a client may leave one idle (a request head not
//! sent, an answer not read), and the wait at shutdown.

mod assets;
mod conn;
mod stream;

use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use clap::Args;
use serde::Serialize;
use tokio::sync::{watch, Semaphore};

use mancala_solver::error::{Error, Result};
use mancala_solver::oracle::{self, Oracle, OracleConfig, SearchBudget};
use mancala_solver::play::agents::Stop;

/// Longest query string accepted, in bytes.
const MAX_QUERY_BYTES: usize = 4096;

/// Longest request body accepted, in bytes (the API reads none).
const MAX_BODY_BYTES: usize = 1024;

/// Arguments of `mancala serve`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "Examples:\n  mancala serve   # interactive: serves until Ctrl-C\n  \
mancala serve --addr 127.0.0.1:9000 --solve-ms 5000   # interactive\n  \
curl 'http://127.0.0.1:8080/api/v1/query?game=kalah:6:4&position=0%203%200%202%201%204%2020%201%200%202%203%200%202%2010'\n\n\
API (GET, JSON): /api/v1/query?game=G&position=P, /api/v1/start?game=G, \
/api/v1/play?game=G&position=P&moves=L, /api/v1/agent?game=G&position=P&agent=A[&seed=S], \
/api/v1/games; /api/v1/search?game=G&position=P[&ms=T|max]: the query's search streamed as \
server-sent events (updates, then done). G like kalah:6:4, kalah:6:4:capture-needs-opposite, \
awari:6:4; P in the published notation (the start when omitted). Errors: 400 with \
{\"error\": \"...\"}."
)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub tables: crate::cli::TablesArg,
    /// Time for a Kalah position above the tables, in milliseconds: the
    /// answer is exact when the search finishes, else proven bounds.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub solve_ms: u64,
    /// Searches, builds and agent moves running at once (default: the
    /// number of cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub max_solves: Option<u64>,
    /// How long a request waits for a free slot before a 503, in
    /// milliseconds.
    #[arg(long, default_value_t = 5000)]
    pub queue_ms: u64,
    /// Build missing tables on demand when they hold at most this many
    /// positions in all (0: never build; use `mancala build`).
    #[arg(long, default_value_t = 20_000_000)]
    pub build_limit: u64,
    /// Transposition table of each search, in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,
    /// Longest time any request may take, in milliseconds (503 after it);
    /// above --solve-ms. An agent thinks at most three quarters of it, then
    /// answers its best move so far.
    #[arg(long, default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub timeout_ms: u64,
    /// Longest time a client may leave its connection idle, in
    /// milliseconds: to send a whole request head after the opening or the
    /// previous answer (a half-sent request, an idle keep-alive connection),
    /// or to read an answer being written. The connection is closed after
    /// it.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub idle_timeout_ms: u64,
    /// Connections open at once; one more is answered 503 and closed.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub max_connections: u64,
}

/// What every handler shares.
#[derive(Clone)]
struct App {
    oracle: Arc<Oracle>,
    slots: Arc<Semaphore>,
    max_solves: usize,
    queue: Duration,
    timeout: Duration,
    /// The longest a client may leave its connection idle.
    idle: Duration,
    /// Set to true when the server stops: requests under way end with 503.
    shutdown: Arc<watch::Sender<bool>>,
}

/// Raises its flag when dropped: whatever ends a request (its answer, its
/// time limit, the client going away, the server stopping) stops its work.
struct RaiseOnDrop(Stop);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.raise();
    }
}

/// An error answer: a status and a one-line message.
#[derive(Debug)]
struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        // Bad input and positions beyond what this server can value are the
        // client's to change; damaged tables and I/O are the server's.
        let status = if e.is_callers() {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::INTERNAL_SERVER_ERROR
        };
        ApiError {
            status,
            message: e.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
        }
        (
            self.status,
            Json(Body {
                error: self.message,
            }),
        )
            .into_response()
    }
}

type Answer<T> = std::result::Result<Json<T>, ApiError>;

/// The query parameters, checked against the ones an endpoint takes.
struct Params(HashMap<String, String>);

impl Params {
    fn read(
        raw: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
        allowed: &[&str],
    ) -> std::result::Result<Params, ApiError> {
        let Query(raw) = raw.map_err(|e| ApiError::bad(format!("bad query string: {e}")))?;
        let mut out = HashMap::new();
        for (k, v) in raw {
            if !allowed.contains(&k.as_str()) {
                let takes = if allowed.is_empty() {
                    "no parameters".to_string()
                } else {
                    allowed.join(", ")
                };
                return Err(ApiError::bad(format!(
                    "unknown parameter \"{}\": this endpoint takes {takes}",
                    mancala_solver::error::clip(&k),
                )));
            }
            if out.insert(k.clone(), v).is_some() {
                return Err(ApiError::bad(format!("parameter \"{k}\" given twice")));
            }
        }
        Ok(Params(out))
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    fn need(&self, name: &str) -> std::result::Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| ApiError::bad(format!("missing parameter \"{name}\"")))
    }
}

impl App {
    /// Run `work` on a blocking thread, holding a slot when `slot`, within
    /// the request's time; `work` should end soon once its stop flag is
    /// raised, which happens when the request ends for any reason. A
    /// server that stops answers 503 at once.
    async fn run<T: Send + 'static>(
        &self,
        slot: bool,
        work: impl FnOnce(&Oracle, &Stop) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        let mut shutdown = self.shutdown.subscribe();
        tokio::select! {
            out = self.run_until_done(slot, work) => out,
            _ = shutdown.wait_for(|&stopping| stopping) => Err(ApiError::unavailable(
                "the server is shutting down; try again when it is back",
            )),
        }
    }

    async fn run_until_done<T: Send + 'static>(
        &self,
        slot: bool,
        work: impl FnOnce(&Oracle, &Stop) -> Result<T> + Send + 'static,
    ) -> std::result::Result<T, ApiError> {
        let permit = if slot { Some(self.slot().await?) } else { None };
        let oracle = self.oracle.clone();
        // The work's deadline, within the request's time (an agent answers
        // its best move so far then); its flag, raised when the request
        // ends for any reason.
        let stop = Stop::raisable().until(Instant::now() + self.work_time());
        let _stop_on_end = RaiseOnDrop(stop.clone());
        // The permit moves into the task: the slot stays taken until the
        // work ends, which the stop flag hastens once the request is over.
        let task = tokio::task::spawn_blocking(move || {
            let out = work(&oracle, &stop);
            drop(permit);
            out
        });
        match tokio::time::timeout(self.timeout, task).await {
            Err(_) => Err(ApiError::unavailable(format!(
                "timed out after {} ms",
                self.timeout.as_millis()
            ))),
            Ok(Err(e)) => Err(match e.try_into_panic() {
                Ok(p) => internal_error(&*p),
                Err(e) => ApiError {
                    status: StatusCode::INTERNAL_SERVER_ERROR,
                    message: format!("internal error: {e}"),
                },
            }),
            Ok(Ok(out)) => out.map_err(ApiError::from),
        }
    }
}

impl App {
    /// A slot for work, waiting at most `--queue-ms` for one (503 after).
    async fn slot(&self) -> std::result::Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        let wait = tokio::time::timeout(self.queue, self.slots.clone().acquire_owned()).await;
        match wait {
            Ok(Ok(p)) => Ok(p),
            _ => Err(ApiError::unavailable(format!(
                "busy: {} searches already running and none finished within {} ms; try again",
                self.max_solves,
                self.queue.as_millis()
            ))),
        }
    }

    /// The longest a request's work may think: three quarters of the
    /// request's time limit, leaving time to answer.
    fn work_time(&self) -> Duration {
        (self.timeout * 3 / 4).max(Duration::from_millis(1))
    }

    /// The `ms` parameter of a query: a search time within the request's
    /// time limit ([`App::work_time`]).
    fn search_time(&self, ms: &str) -> std::result::Result<Duration, ApiError> {
        let max = self.work_time().as_millis() as u64;
        match ms.parse::<u64>() {
            Ok(n) if (1..=max).contains(&n) => Ok(Duration::from_millis(n)),
            _ => Err(ApiError::bad(format!(
                "ms \"{}\": a search time from 1 to {max} milliseconds on this server \
                 (three quarters of its --timeout-ms)",
                mancala_solver::error::clip(ms)
            ))),
        }
    }
}

/// The 500 answer for a panic, with its message.
fn internal_error(p: &(dyn std::any::Any + Send)) -> ApiError {
    let text = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a handler panicked".into());
    ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("internal error: {text}"),
    }
}

async fn games(
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer<Vec<oracle::GameInfo>> {
    Params::read(q, &[])?;
    Ok(Json(oracle::games()))
}

async fn start(
    State(app): State<App>,
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer<oracle::PositionReport> {
    let p = Params::read(q, &["game"])?;
    let game = p.need("game")?.to_string();
    Ok(Json(app.run(false, move |o, _| o.start(&game)).await?))
}

async fn play(
    State(app): State<App>,
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer<oracle::PositionReport> {
    let p = Params::read(q, &["game", "position", "moves"])?;
    let game = p.need("game")?.to_string();
    let position = p.get("position").map(str::to_string);
    let moves = p.get("moves").unwrap_or("").to_string();
    Ok(Json(
        app.run(false, move |o, _| {
            o.play(&game, position.as_deref(), &moves)
        })
        .await?,
    ))
}

async fn query(
    State(app): State<App>,
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer<oracle::Analysis> {
    let p = Params::read(q, &["game", "position", "ms"])?;
    let game = p.need("game")?.to_string();
    let position = p.get("position").map(str::to_string);
    let time = match p.get("ms") {
        None => app.oracle.config().search.time,
        Some(ms) => app.search_time(ms)?,
    };
    // Inside the tables: no slot, a few look-ups.
    let (g, pos) = (game.clone(), position.clone());
    if let Some(a) = app
        .run(false, move |o, _| o.query_from_tables(&g, pos.as_deref()))
        .await?
    {
        return Ok(Json(a));
    }
    Ok(Json(
        app.run(true, move |o, stop| {
            o.query_until(&game, position.as_deref(), time, stop)
        })
        .await?,
    ))
}

async fn agent(
    State(app): State<App>,
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer<oracle::AgentMove> {
    let p = Params::read(q, &["game", "position", "agent", "seed"])?;
    let game = p.need("game")?.to_string();
    let position = p.get("position").map(str::to_string);
    let agent = p.need("agent")?.to_string();
    let seed = match p.get("seed") {
        None => 1,
        Some(s) => s.parse::<u64>().map_err(|_| {
            ApiError::bad(format!(
                "seed \"{}\" is not a whole number",
                mancala_solver::error::clip(s)
            ))
        })?,
    };
    Ok(Json(
        app.run(true, move |o, stop| {
            o.agent_move(&game, position.as_deref(), &agent, seed, stop)
        })
        .await?,
    ))
}

async fn agent_check(
    State(app): State<App>,
    q: std::result::Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Answer<serde_json::Value> {
    let p = Params::read(q, &["game", "agent"])?;
    let game = p.need("game")?.to_string();
    let agent = p.need("agent")?.to_string();
    let spec = app
        .run(false, move |o, _| o.check_agent_spec(&game, &agent))
        .await?;
    Ok(Json(serde_json::json!({ "agent": spec })))
}

async fn not_found(req: Request) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!(
            "no such path {}: the API is /api/v1/query, /api/v1/search, /api/v1/start, \
             /api/v1/play, /api/v1/agent, /api/v1/agent-check and /api/v1/games; the board is /",
            mancala_solver::error::clip(req.uri().path())
        ),
    }
}

/// Refuse overlong query strings before any handler reads them.
async fn limit_query(req: Request, next: Next) -> Response {
    match req.uri().query() {
        Some(q) if q.len() > MAX_QUERY_BYTES => ApiError {
            status: StatusCode::URI_TOO_LONG,
            message: format!(
                "query string of {} bytes: at most {MAX_QUERY_BYTES}",
                q.len()
            ),
        }
        .into_response(),
        _ => next.run(req).await,
    }
}

/// Refuse request bodies over [`MAX_BODY_BYTES`] (the API is GET only and
/// reads none): by their declared length, else as they arrive, each part
/// within `idle` of the last.
async fn limit_body(State(idle): State<Duration>, req: Request, next: Next) -> Response {
    let too_large = |size: String| {
        ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!(
                "request body of {size} bytes: at most {MAX_BODY_BYTES} (the API is GET only \
                 and reads no body)"
            ),
        }
        .into_response()
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if let Some(n) = declared.filter(|&n| n > MAX_BODY_BYTES as u64) {
        return too_large(n.to_string());
    }
    if declared.is_some() || axum::body::HttpBody::is_end_stream(req.body()) {
        return next.run(req).await;
    }
    // A body of no declared length (chunked): read it, within the limit.
    let (parts, mut body) = req.into_parts();
    let mut kept = Vec::new();
    loop {
        let frame = std::future::poll_fn(|cx| {
            axum::body::HttpBody::poll_frame(std::pin::Pin::new(&mut body), cx)
        });
        match tokio::time::timeout(idle, frame).await {
            Ok(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    kept.extend_from_slice(data);
                }
                if kept.len() > MAX_BODY_BYTES {
                    return too_large(format!("more than {MAX_BODY_BYTES}"));
                }
            }
            Ok(None) => break,
            Ok(Some(Err(_))) | Err(_) => {
                return ApiError::bad("the request body was not sent whole").into_response()
            }
        }
    }
    let req = Request::from_parts(parts, axum::body::Body::from(kept));
    next.run(req).await
}

fn panic_response(p: Box<dyn std::any::Any + Send + 'static>) -> Response {
    internal_error(&*p).into_response()
}

/// The routes.
fn routes() -> Router<App> {
    Router::new()
        .route("/", get(assets::page))
        .route("/page/{name}", get(assets::file))
        .route("/api/v1/games", get(games))
        .route("/api/v1/start", get(start))
        .route("/api/v1/play", get(play))
        .route("/api/v1/query", get(query))
        .route("/api/v1/search", get(stream::search))
        .route("/api/v1/agent", get(agent))
        .route("/api/v1/agent-check", get(agent_check))
        .fallback(not_found)
}

/// The server: the routes over `app`, with the limits every request gets.
fn router(app: App) -> Router {
    let idle = app.idle;
    layered(routes().with_state(app), idle)
}

/// `routes` with the limits every request gets; `idle`: the longest pause
/// in a request body.
fn layered(routes: Router, idle: Duration) -> Router {
    routes
        .layer(middleware::from_fn(limit_query))
        .layer(middleware::from_fn_with_state(idle, limit_body))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            panic_response,
        ))
}

fn app_from(args: &ServeArgs) -> Result<App> {
    if args.solve_ms >= args.timeout_ms {
        return Err(Error::Conflict(format!(
            "--solve-ms {} is not below --timeout-ms {}: a search must end before its request's \
             time is up; give a shorter --solve-ms or a longer --timeout-ms",
            args.solve_ms, args.timeout_ms
        )));
    }
    let cores = mancala_solver::threads::resolve(None)?;
    let max_solves = args.max_solves.map_or(cores, |n| n as usize);
    let oracle = Oracle::new(OracleConfig {
        dir: args.tables.db.clone(),
        search: SearchBudget {
            time: Duration::from_millis(args.solve_ms),
            tt_mb: args.tt_mb as usize,
        },
        build_limit: args.build_limit,
        agent_time: Duration::from_millis(args.solve_ms),
        build_threads: None,
    });
    Ok(App {
        oracle: Arc::new(oracle),
        slots: Arc::new(Semaphore::new(max_solves)),
        max_solves,
        queue: Duration::from_millis(args.queue_ms),
        timeout: Duration::from_millis(args.timeout_ms),
        idle: Duration::from_millis(args.idle_timeout_ms),
        shutdown: Arc::new(watch::channel(false).0),
    })
}

/// Write `line` on `stream`, ignoring errors: a server whose standard
/// output or error is a closed pipe goes on serving (`mancala serve |
/// head -1`) instead of panicking on a failed print.
fn say(mut stream: impl Write, line: std::fmt::Arguments<'_>) {
    let _ = stream.write_fmt(line).and_then(|()| stream.flush());
}

/// Resolve on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    say(
        std::io::stderr(),
        format_args!("shutting down: stopping the work under way\n"),
    );
}

/// Run `mancala serve` until SIGINT or SIGTERM.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    let app = app_from(&args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(app.max_solves + 64)
        .build()
        .map_err(|e| Error::io("the server's runtime", e))?;
    let limits = conn::Limits {
        idle_timeout: Duration::from_millis(args.idle_timeout_ms),
        max_connections: args.max_connections as usize,
    };
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| Error::io(format!("address {}", args.addr), e))?;
        let local = listener
            .local_addr()
            .map_err(|e| Error::io(format!("address {}", args.addr), e))?;
        say(
            std::io::stdout(),
            format_args!("listening on http://{local}/\n"),
        );
        say(
            std::io::stderr(),
            format_args!(
                "tables in {}; {} searches at once, {} ms each; stop with Ctrl-C\n",
                args.tables.db.display(),
                app.max_solves,
                args.solve_ms
            ),
        );
        let shutdown = app.shutdown.clone();
        conn::serve(listener, router(app), limits, shutdown, shutdown_signal()).await;
        Ok::<(), Error>(())
    });
    // Work still running on blocking threads (an on-demand build) does not
    // hold the process: its request has been answered or dropped.
    runtime.shutdown_timeout(Duration::from_millis(100));
    served?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests;
