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
//! run on the caller's thread (the worker's); the opening books compiled
//! into the engine answer their openings at once; the endgame tables are
//! files of the folder (`page/tables/*.tbl.gz`) that the worker fetches
//! when a position needs them ([`Engine::tables_wanted`] names them) and
//! hands over as bytes ([`Engine::add_table`], checked as a file on disk
//! is). A search is stopped by ending its worker.
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

/// Where the folder's tables are, relative to its `index.html` (for
/// messages: the browser reads no directory).
pub const TABLES_DIR: &str = "page/tables";

/// The oracle of the browser build: no on-demand builds; the books, the
/// tables the worker hands over, and the searches.
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
                // No file system: the tables are added as bytes
                // (`add_table`), and none is built.
                dir: PathBuf::from(TABLES_DIR),
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

    /// The table files (`kalah-default-m6-k9.tbl`, ...) a query of
    /// `position` would read that are not added yet, from the fewest
    /// seeds up: `{"ok": [names]}` (empty when none is needed).
    #[wasm_bindgen(js_name = tablesWanted)]
    pub fn tables_wanted(&self, game: &str, position: &str) -> String {
        answer(self.oracle.tables_wanted(game, given(position)))
    }

    /// Add the table file `name` from its bytes (decompressed), checked
    /// as a file on disk is: `{"ok": null}`, or why it is refused (a
    /// corrupt or truncated file, another table than its name says, not
    /// the next one of its set).
    #[wasm_bindgen(js_name = addTable)]
    pub fn add_table(&self, name: &str, bytes: &[u8]) -> String {
        answer(self.oracle.add_table(name, bytes))
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

    /// The server's oracle over `dir`, building tables of up to a million
    /// entries on demand.
    fn server(dir: &std::path::Path) -> Oracle {
        Oracle::new(OracleConfig {
            dir: dir.to_path_buf(),
            search: SearchBudget {
                time: Duration::from_secs(2),
                tt_mb: 8,
            },
            build_limit: 1_000_000,
            agent_time: Duration::from_secs(2),
            build_threads: Some(1),
        })
    }

    /// The answer's error and status.
    fn refused(text: &str) -> (String, u64) {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        let error = v["error"].as_str().unwrap_or_else(|| panic!("{text}"));
        (error.to_string(), v["status"].as_u64().unwrap())
    }

    fn wanted(e: &Engine, game: &str, position: &str) -> Vec<String> {
        serde_json::from_value(ok(&e.tables_wanted(game, position))).unwrap()
    }

    #[test]
    fn tables_given_as_bytes_answer_as_the_servers() {
        let dir = tempfile::tempdir().unwrap();
        let server = server(dir.path());
        // Kalah(3,2): 12 seeds; the server builds its tables 1..=12.
        let want = server.query("kalah:3:2", None).unwrap();
        assert_eq!(serde_json::to_value(&want).unwrap()["source"], "tables");
        let e = Engine::new();
        assert_eq!(e.known_now("kalah:3:2", "").unwrap(), None);
        let names = wanted(&e, "kalah:3:2", "");
        let all: Vec<String> = (1..=12)
            .map(|k| format!("kalah-default-m3-k{k}.tbl"))
            .collect();
        assert_eq!(names, all);
        for (i, name) in names.iter().enumerate() {
            let bytes = std::fs::read(dir.path().join(name)).unwrap();
            assert_eq!(ok(&e.add_table(name, &bytes)), serde_json::Value::Null);
            assert_eq!(wanted(&e, "kalah:3:2", ""), names[i + 1..]);
        }
        let got = e
            .known_now("kalah:3:2", "")
            .unwrap()
            .expect("from the tables");
        assert_eq!(
            serde_json::to_value(&got).unwrap(),
            serde_json::to_value(&want).unwrap()
        );
        // The books' positions and a game without tables want none.
        assert!(wanted(&e, "kalah:6:4", "").is_empty());
        assert!(wanted(&e, "awale:3:2", "").is_empty());
        // A Vai Lung Thlan reading without tables wants none either.
        assert!(wanted(&e, "vai-lung-thlan:3:2:play-to-end", "").is_empty());
    }

    #[test]
    fn a_corrupt_or_misnamed_table_is_refused_in_words() {
        let dir = tempfile::tempdir().unwrap();
        server(dir.path()).query("ohvalhu:2:2", None).unwrap();
        let e = Engine::new();
        let names = wanted(&e, "ohvalhu:2:2", "");
        assert_eq!(names.len(), 8, "{names:?}");
        let read = |k: usize| std::fs::read(dir.path().join(&names[k - 1])).unwrap();
        // One byte of the data changed: the data checksum says so.
        let mut bad = read(1);
        let last = bad.len() - 1;
        bad[last] ^= 1;
        let (error, status) = refused(&e.add_table(&names[0], &bad));
        assert_eq!(status, 500);
        assert!(error.contains("page/tables/ohvalhu-m2-k1.tbl"), "{error}");
        assert!(error.contains("checksum"), "{error}");
        // Cut short: the header's size says so.
        let (error, _) = refused(&e.add_table(&names[0], &read(1)[..40]));
        assert!(error.contains("shorter than the 64-byte header"), "{error}");
        // Another table's bytes under this name.
        let (error, _) = refused(&e.add_table(&names[0], &read(2)));
        assert!(error.contains("holds 2 pits and 2 seeds"), "{error}");
        // Not the next one of its set.
        let (error, _) = refused(&e.add_table(&names[1], &read(2)));
        assert!(error.contains("ohvalhu-m2-k1.tbl next"), "{error}");
        // No table's name.
        let (error, status) = refused(&e.add_table("kalah-m6-k3.tbl", &read(1)));
        assert_eq!(status, 400);
        assert!(error.contains("not the name of a table file"), "{error}");
        // Nothing was added: the set still wants all of them.
        assert_eq!(wanted(&e, "ohvalhu:2:2", ""), names);
        for (k, name) in names.iter().enumerate() {
            assert_eq!(
                ok(&e.add_table(name, &read(k + 1))),
                serde_json::Value::Null
            );
        }
        let a = ok(&e.known("ohvalhu:2:2", ""));
        assert_eq!(a["source"], "tables");
        assert_eq!(a["exact"], true);
    }
}
