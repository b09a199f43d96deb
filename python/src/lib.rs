//! The native module of the Python package `mancala_solver`
//! (`mancala_solver._native`): the library's one API, the
//! [`Oracle`](mancala_solver::oracle::Oracle), bound with pyo3. Answers
//! cross as the JSON of `mancala ... --json` (the same fields), which the
//! Python side (`python/mancala_solver/__init__.py`) turns into dicts; errors
//! cross as the library's messages with a kind that picks the Python
//! exception class.
//!
//! Every call that may take time releases the GIL, runs on a scoped thread
//! and polls for Ctrl-C: a `KeyboardInterrupt` raises the work's stop flag
//! (agents stop within milliseconds; a search ends within its time budget)
//! and waits for it, so nothing is left running or half written.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use mancala_solver::error::Error;
use mancala_solver::oracle::{self, Oracle as Inner, OracleConfig, SearchBudget};
use mancala_solver::play::agents::Stop;
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

/// The exception class (in `mancala_solver.errors`) for `e`.
fn kind(e: &Error) -> &'static str {
    match e {
        Error::Memory { .. } => "OutOfMemoryBudget",
        Error::MissingTable { .. }
        | Error::BadTable { .. }
        | Error::WrongTables { .. }
        | Error::BeyondTables { .. }
        | Error::BuildTooLarge { .. } => "TablesError",
        Error::IllegalMove { .. } => "BadInput",
        Error::Stopped(_) => "Stopped",
        e if e.is_usage() => "BadInput",
        _ => "MancalaError",
    }
}

/// `e` as the Python exception of its kind, with the library's message.
fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let message = e.to_string();
    match py
        .import("mancala_solver.errors")
        .and_then(|m| m.getattr(kind(&e)))
    {
        Ok(class) => PyErr::from_value(
            class
                .call1((message.clone(),))
                .unwrap_or_else(|err| err.into_value(py).into_bound(py).into_any()),
        ),
        Err(_) => PyException::new_err(message),
    }
}

/// Run `work` without the GIL on a scoped thread, polling for Ctrl-C every
/// 50 ms; on an interrupt, raise `stop` (when the work has one), wait for
/// the work to end and raise `KeyboardInterrupt`.
fn run<T: Send>(
    py: Python<'_>,
    stop: Option<&Stop>,
    work: impl FnOnce() -> mancala_solver::Result<T> + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel();
        scope.spawn(move || {
            let _ = tx.send(work());
        });
        loop {
            // The receiver goes into the GIL-free closure and comes back.
            let (got, back) = py.allow_threads(move || {
                let got = rx.recv_timeout(Duration::from_millis(50));
                (got, rx)
            });
            rx = back;
            match got {
                Ok(out) => return out.map_err(|e| to_py(py, e)),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyException::new_err("the engine's worker thread panicked"))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = py.check_signals() {
                        if let Some(stop) = stop {
                            stop.raise();
                        }
                        let _ = py.allow_threads(move || rx.recv());
                        return Err(interrupt);
                    }
                }
            }
        }
    })
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("answers serialise")
}

/// The engine over a directory of tables: positions, values, searches,
/// agents (`mancala_solver.Oracle` wraps it).
#[pyclass(frozen, module = "mancala_solver._native")]
struct Oracle {
    inner: Inner,
}

#[pymethods]
impl Oracle {
    #[new]
    #[pyo3(signature = (db = PathBuf::from("db"), solve_ms = 2000, build_limit = 20_000_000, tt_mb = 64, agent_ms = 2000))]
    fn new(db: PathBuf, solve_ms: u64, build_limit: u64, tt_mb: usize, agent_ms: u64) -> Self {
        Oracle {
            inner: Inner::new(OracleConfig {
                dir: db,
                search: SearchBudget {
                    time: Duration::from_millis(solve_ms),
                    tt_mb,
                },
                build_limit,
                agent_time: Duration::from_millis(agent_ms),
                build_threads: None,
            }),
        }
    }

    /// The position after `moves` from `position` (the start when None),
    /// as JSON.
    #[pyo3(signature = (game, position = None, moves = ""))]
    fn play(
        &self,
        py: Python<'_>,
        game: &str,
        position: Option<&str>,
        moves: &str,
    ) -> PyResult<String> {
        run(py, None, || self.inner.play(game, position, moves)).map(|r| json(&r))
    }

    /// The analysis of `position`, as JSON: from the tables, or a search
    /// of `time_ms` (the oracle's `solve_ms` when None) above them.
    #[pyo3(signature = (game, position = None, time_ms = None))]
    fn query(
        &self,
        py: Python<'_>,
        game: &str,
        position: Option<&str>,
        time_ms: Option<u64>,
    ) -> PyResult<String> {
        let time = time_ms.map_or(self.inner.config().search.time, Duration::from_millis);
        run(py, None, || self.inner.query_within(game, position, time)).map(|a| json(&a))
    }

    /// The move `agent` chooses in `position`, as JSON.
    #[pyo3(signature = (game, agent, position = None, seed = 1))]
    fn agent_move(
        &self,
        py: Python<'_>,
        game: &str,
        agent: &str,
        position: Option<&str>,
        seed: u64,
    ) -> PyResult<String> {
        let stop = Stop::raisable();
        run(py, Some(&stop), || {
            self.inner.agent_move(game, position, agent, seed, &stop)
        })
        .map(|m| json(&m))
    }

    /// The values of the positions in `counts` (one position a row, `2m + 2`
    /// counts in the notation's order) from the tables: `missing` where
    /// they do not cover a position.
    fn table_values<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        counts: PyReadonlyArray2<'py, u8>,
        missing: i32,
    ) -> PyResult<Bound<'py, PyArray1<i32>>> {
        let rows = counts.shape()[0];
        let counts = counts.as_slice().map_err(|_| {
            pyo3::exceptions::PyValueError::new_err("the counts must be a C-contiguous array")
        })?;
        let mut values = vec![0i32; rows];
        run(py, None, || {
            self.inner.table_values(game, counts, &mut values, missing)
        })?;
        Ok(PyArray1::from_vec(py, values))
    }

    /// `agent` as the oracle writes it, or the error it would give.
    fn check_agent(&self, py: Python<'_>, game: &str, agent: &str) -> PyResult<String> {
        run(py, None, || self.inner.check_agent_spec(game, agent))
    }
}

/// The games of the registry, as JSON.
#[pyfunction]
fn games() -> String {
    json(&oracle::games())
}

/// The engine's version.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Oracle>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
