//! The engine in the browser: the oracle of `mancala serve`
//! ([`mancala_solver::oracle::Oracle`]) behind a few functions that
//! JavaScript calls, each answering one JSON text, the same objects as the
//! HTTP API (docs/serve.md) since they are the same serialised structs:
//!
//! ```text
//! {"ok": VALUE}                       the answer (GameInfo list, PositionReport,
//!                                     Analysis, AgentMove, {"agent": spec})
//! {"error": "...", "status": N}       a failure in words, N as the API's:
//!                                     400 the caller's input, 500 the engine's
//! ```
//!
//! A search reports what it has proved as it goes (an [`Analysis`] with
//! narrower bounds) by calling the global JavaScript function
//! `mancalaUpdate(json)`, which the Web Worker defines (it posts the update
//! to the page). The browser build has no threads and no files: searches
//! run on the caller's thread (the worker's), with no endgame tables; the
//! opening books compiled into the engine answer their openings at once.
//! A search is stopped by ending its worker.
//!
//! Everything but the `#[wasm_bindgen]` glue is plain Rust ([`Engine`]'s
//! `*_json` methods), tested natively.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use mancala_solver::error::{Error, Result};
use mancala_solver::oracle::{self, Analysis, OnUpdate, Oracle, OracleConfig, SearchBudget};
use mancala_solver::play::agents::Stop;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A search's time when the page names none, as `mancala serve`'s default
/// `--solve-ms`.
pub const DEFAULT_SEARCH_MS: u32 = 2000;
/// The longest search the page may ask for (`ms=max`, "think longer"):
/// ten minutes (the server's limit is its request time; here the player
/// stops it).
pub const MAX_SEARCH_MS: u32 = 600_000;
/// Transposition table of a search, in MiB (the server's default is 64;
/// the browser's memory is the page's).
pub const TT_MB: usize = 32;

#[wasm_bindgen]
extern "C" {
    /// The worker's `mancalaUpdate(json)`: an update of a search under way.
    #[wasm_bindgen(js_name = mancalaUpdate)]
    fn mancala_update(json: &str);
}

/// The oracle of the browser build: no tables, no on-demand builds; the
/// books and the searches.
#[wasm_bindgen]
pub struct Engine {
    oracle: Oracle,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

/// `{"ok": value}` or `{"error": ..., "status": ...}`.
fn answer<T: Serialize>(out: Result<T>) -> String {
    let body = match out {
        Ok(v) => serde_json::json!({ "ok": v }),
        Err(e) => {
            let status = if e.is_callers() { 400 } else { 500 };
            serde_json::json!({ "error": e.to_string(), "status": status })
        }
    };
    body.to_string()
}

/// An empty text is no position (the start), as the API's omitted one.
fn given(position: &str) -> Option<&str> {
    Some(position).filter(|p| !p.trim().is_empty())
}

/// The `ms` of a query: 0 for the default, else 1 to [`MAX_SEARCH_MS`].
fn search_time(ms: u32) -> Result<Duration> {
    match ms {
        0 => Ok(Duration::from_millis(DEFAULT_SEARCH_MS as u64)),
        1..=MAX_SEARCH_MS => Ok(Duration::from_millis(ms as u64)),
        _ => Err(Error::Unsupported(format!(
            "a search time of {ms} ms: from 1 to {MAX_SEARCH_MS} milliseconds in the browser"
        ))),
    }
}

#[wasm_bindgen]
impl Engine {
    /// The oracle with the browser's limits.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Engine {
        Engine {
            oracle: Oracle::new(OracleConfig {
                // No file system: every table is missing, and none is built.
                dir: PathBuf::from("the browser (no tables)"),
                search: SearchBudget {
                    time: Duration::from_millis(DEFAULT_SEARCH_MS as u64),
                    tt_mb: TT_MB,
                },
                build_limit: 0,
                agent_time: Duration::from_millis(DEFAULT_SEARCH_MS as u64),
                build_threads: Some(1),
            }),
        }
    }

    /// `/api/v1/games`.
    pub fn games(&self) -> String {
        answer(Ok(oracle::games()))
    }

    /// `/api/v1/play`: the position after `moves` from `position` (empty:
    /// the start).
    pub fn play(&self, game: &str, position: &str, moves: &str) -> String {
        answer(self.oracle.play(game, given(position), moves))
    }

    /// `/api/v1/query` (`ms` 0: the default time), telling
    /// `mancalaUpdate` what the search proves as it goes when `stream`
    /// (`/api/v1/search`).
    pub fn query(&self, game: &str, position: &str, ms: u32, stream: bool) -> String {
        let on_update: Option<OnUpdate> =
            stream.then(|| Arc::new(|a: &Analysis| send_update(a)) as OnUpdate);
        answer(self.query_with(game, position, ms, on_update.as_ref()))
    }

    /// What the books and tables answer at once (`null` when the position
    /// needs a search): the first step of a query, on a worker that does
    /// not search.
    pub fn known(&self, game: &str, position: &str) -> String {
        answer(self.known_now(game, position))
    }

    /// `/api/v1/agent`: the move `agent` plays (its seed `seed`).
    pub fn agent(&self, game: &str, position: &str, agent: &str, seed: u32) -> String {
        answer(
            self.oracle
                .agent_move(game, given(position), agent, seed as u64, &Stop::never()),
        )
    }

    /// `/api/v1/agent-check`: `{"agent": spec}`, or why the agent cannot
    /// play `game` here.
    #[wasm_bindgen(js_name = checkAgent)]
    pub fn check_agent(&self, game: &str, agent: &str) -> String {
        #[derive(Serialize)]
        struct Checked {
            agent: String,
        }
        answer(
            self.oracle
                .check_agent_spec(game, agent)
                .map(|agent| Checked { agent }),
        )
    }
}

impl Engine {
    /// [`Engine::known`]'s answer.
    pub fn known_now(&self, game: &str, position: &str) -> Result<Option<Analysis>> {
        if let Some(a) = self.oracle.query_from_book(game, given(position))? {
            return Ok(Some(a));
        }
        self.oracle.query_from_tables(game, given(position))
    }

    /// [`Engine::query`] with updates going to `on_update`.
    pub fn query_with(
        &self,
        game: &str,
        position: &str,
        ms: u32,
        on_update: Option<&OnUpdate>,
    ) -> Result<Analysis> {
        let time = search_time(ms)?;
        self.oracle
            .query_observed(game, given(position), time, &Stop::never(), on_update)
    }
}

#[cfg(target_arch = "wasm32")]
fn send_update(a: &Analysis) {
    if let Ok(json) = serde_json::to_string(a) {
        mancala_update(&json);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn send_update(_: &Analysis) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn ok(text: &str) -> serde_json::Value {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        assert!(v.get("error").is_none(), "{text}");
        v["ok"].clone()
    }

    #[test]
    fn answers_are_the_apis_objects() {
        let e = Engine::new();
        let server = Oracle::new(OracleConfig {
            dir: std::env::temp_dir().join("mancala-wasm-no-tables"),
            search: SearchBudget {
                time: Duration::from_secs(2),
                tt_mb: 8,
            },
            build_limit: 0,
            agent_time: Duration::from_secs(2),
            build_threads: Some(1),
        });
        assert_eq!(
            ok(&e.games()),
            serde_json::to_value(oracle::games()).unwrap()
        );
        assert_eq!(
            ok(&e.play("kalah:6:4", "", "1-2")),
            serde_json::to_value(server.play("kalah:6:4", None, "1-2").unwrap()).unwrap()
        );
        // The default game's start: from the book, exact.
        let a = ok(&e.query("kalah:6:4", "", 0, false));
        assert_eq!(a["source"], "book");
        assert_eq!(a["exact"], true);
        assert_eq!(
            a,
            serde_json::to_value(server.query("kalah:6:4", None).unwrap()).unwrap()
        );
        assert_eq!(ok(&e.check_agent("kalah:6:4", "greedy"))["agent"], "greedy");
    }

    #[test]
    fn errors_say_what_is_wrong_with_the_apis_status() {
        let e = Engine::new();
        let v: serde_json::Value = serde_json::from_str(&e.play("kalah:6:4", "", "9")).unwrap();
        assert_eq!(v["status"], 400);
        assert!(v["error"].as_str().unwrap().contains('9'), "{v}");
        let v: serde_json::Value =
            serde_json::from_str(&e.query("nosuch:6:4", "", 0, false)).unwrap();
        assert_eq!(v["status"], 400);
        let v: serde_json::Value =
            serde_json::from_str(&e.query("kalah:6:4", "", 9_999_999, false)).unwrap();
        assert_eq!(v["status"], 400);
        assert!(v["error"].as_str().unwrap().contains("600000"), "{v}");
    }

    #[test]
    fn a_search_without_tables_streams_narrowing_bounds() {
        let e = Engine::new();
        let seen: Arc<Mutex<Vec<(i32, i32)>>> = Arc::default();
        let s2 = seen.clone();
        let on: OnUpdate =
            Arc::new(move |a: &Analysis| s2.lock().unwrap().push((a.lower, a.upper)));
        // Kalah(5,3): no book holds it, no table is open, the search
        // values it.
        let a = e.query_with("kalah:5:3", "", 20_000, Some(&on)).unwrap();
        assert_eq!(serde_json::to_value(&a).unwrap()["source"], "search");
        let seen = seen.lock().unwrap();
        assert!(!seen.is_empty());
        for w in seen.windows(2) {
            assert!(w[1].0 >= w[0].0 && w[1].1 <= w[0].1, "{seen:?}");
        }
        // A small Awari game is searched without tables.
        let a = ok(&e.query("awari:3:2", "", 0, false));
        assert_eq!(a["exact"], true, "{a}");
    }
}
