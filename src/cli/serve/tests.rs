//! The server's behaviour that needs a route of its own: panics and busy
//! slots. The endpoints are tested over real HTTP in `tests/serve.rs`.

use super::*;
use axum::body::Body;
use axum::http::Request as HttpRequest;
use tower::ServiceExt;

fn test_app(dir: &std::path::Path, max_solves: usize, queue_ms: u64) -> App {
    let args = ServeArgs {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: dir.to_path_buf(),
        solve_ms: 200,
        max_solves: Some(max_solves as u64),
        queue_ms,
        build_limit: 0,
        tt_mb: 1,
        timeout_ms: 5000,
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
                        .run(true, |_| -> Result<()> {
                            panic!("boom on a blocking thread")
                        })
                        .await
                        .map(|()| Json(()))
                }),
            )
            .with_state(app.clone()),
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
