//! The server's behaviour that needs a route of its own: panics, busy
//! slots, work stopped when its request ends. The endpoints are tested over
//! real HTTP in `tests/serve.rs`.

use super::*;
use axum::body::Body;
use axum::http::Request as HttpRequest;
use tower::ServiceExt;

fn test_app(dir: &std::path::Path, max_solves: usize, queue_ms: u64) -> App {
    let args = ServeArgs {
        addr: "127.0.0.1:0".parse().unwrap(),
        tables: crate::cli::TablesArg {
            db: dir.to_path_buf(),
        },
        solve_ms: 200,
        max_solves: Some(max_solves as u64),
        queue_ms,
        build_limit: 0,
        tt_mb: 1,
        timeout_ms: 5000,
        idle_timeout_ms: 10_000,
        max_connections: 256,
    };
    app_from(&args).unwrap()
}

async fn call(router: &Router, uri: &str) -> (StatusCode, serde_json::Value) {
    let response = router
        .clone()
        .oneshot(HttpRequest::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn a_panicking_handler_answers_500_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let app = test_app(dir.path(), 2, 100);
    let blocking = app.clone();
    let r = layered(
        routes()
            .route(
                "/boom",
                get(|| async {
                    if true {
                        panic!("boom in a handler");
                    }
                    "unreached"
                }),
            )
            .route(
                "/boom-blocking",
                get(move || async move {
                    blocking
                        .run(true, |_, _| -> Result<()> {
                            panic!("boom on a blocking thread")
                        })
                        .await
                        .map(|()| Json(()))
                }),
            )
            .with_state(app.clone()),
        app.idle,
    );
    let (status, body) = call(&r, "/boom").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("boom in a handler"));
    let (status, body) = call(&r, "/boom-blocking").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("boom on a blocking thread"));
    // The slot the panicking work held is free again, and the server answers.
    assert_eq!(app.slots.available_permits(), 2);
    let (status, body) = call(&r, "/api/v1/start?game=kalah:4:3").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["position"], "3 3 3 3 0 3 3 3 3 0");
}

#[tokio::test]
async fn a_request_that_finds_no_free_slot_gets_503() {
    let dir = tempfile::tempdir().unwrap();
    let app = test_app(dir.path(), 1, 50);
    // Take the only slot, as a long search would.
    let held = app.slots.clone().acquire_owned().await.unwrap();
    let r = router(app.clone());
    let (status, body) = call(&r, "/api/v1/agent?game=kalah:4:3&agent=greedy").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        body["error"].as_str().unwrap().starts_with("busy"),
        "{body}"
    );
    // Table look-ups and plays need no slot.
    let (status, _) = call(&r, "/api/v1/play?game=kalah:4:3&moves=0").await;
    assert_eq!(status, StatusCode::OK);
    drop(held);
    let (status, body) = call(&r, "/api/v1/agent?game=kalah:4:3&agent=greedy").await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// A router with `/wait`: work that runs until its stop flag is raised (at
/// most 10 s; its deadline aside), then sends how long it ran.
fn waiting_route(app: &App) -> (Router, std::sync::mpsc::Receiver<Duration>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = app.clone();
    let r = layered(
        routes()
            .route(
                "/wait",
                get(move || {
                    let (worker, tx) = (worker.clone(), tx.clone());
                    async move {
                        worker
                            .run(true, move |_, stop| -> Result<()> {
                                let t = std::time::Instant::now();
                                while !stop.is_flag_raised()
                                    && t.elapsed() < Duration::from_secs(10)
                                {
                                    std::thread::sleep(Duration::from_millis(1));
                                }
                                let _ = tx.send(t.elapsed());
                                Ok(())
                            })
                            .await
                            .map(|()| Json(()))
                    }
                }),
            )
            .with_state(app.clone()),
        app.idle,
    );
    (r, rx)
}

/// Wait up to a second for every slot of `app` to be free again.
async fn slots_all_free(app: &App) -> bool {
    for _ in 0..100 {
        if app.slots.available_permits() == app.max_solves {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn a_request_that_times_out_stops_its_work_and_frees_its_slot() {
    let dir = tempfile::tempdir().unwrap();
    let app = App {
        timeout: Duration::from_millis(200),
        ..test_app(dir.path(), 1, 50)
    };
    let (r, ran) = waiting_route(&app);
    let (status, body) = call(&r, "/wait").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        body["error"].as_str().unwrap().contains("timed out"),
        "{body}"
    );
    let ran = ran
        .recv_timeout(Duration::from_secs(2))
        .expect("the work ended");
    assert!(ran < Duration::from_secs(1), "{ran:?}");
    assert!(slots_all_free(&app).await);
}

#[tokio::test]
async fn a_stopping_server_answers_503_and_stops_the_work_under_way() {
    let dir = tempfile::tempdir().unwrap();
    let app = test_app(dir.path(), 1, 50);
    let (r, ran) = waiting_route(&app);
    let request = tokio::spawn({
        let r = r.clone();
        async move { call(&r, "/wait").await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    app.shutdown.send_replace(true);
    let (status, body) = request.await.unwrap();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        body["error"].as_str().unwrap().contains("shutting down"),
        "{body}"
    );
    let ran = ran
        .recv_timeout(Duration::from_secs(2))
        .expect("the work ended");
    assert!(ran < Duration::from_secs(1), "{ran:?}");
    assert!(slots_all_free(&app).await);
}

/// A fault of the server's program (a failed search thread) answers 500,
/// not 400: the request was not at fault. Bad input answers 400.
#[test]
fn an_internal_error_answers_500_and_bad_input_400() {
    let e = ApiError::from(Error::Internal("a search thread failed".into()));
    assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        e.message
            .starts_with("internal error: a search thread failed"),
        "{}",
        e.message
    );
    let e = ApiError::from(Error::Conflict("give one".into()));
    assert_eq!(e.status, StatusCode::BAD_REQUEST);
}
