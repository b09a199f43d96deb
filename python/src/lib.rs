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
//! (agents stop within milliseconds; a search ends within its time budget;
//! a table build before its next table) and waits for it, so nothing is
//! left running or half written. Long work's progress events are queued by
//! the engine's threads and handed to the Python callback on the calling
//! thread at each poll.
//!
//! Parallel work runs on a rayon pool of this module's own ([`pool`]),
//! never rayon's global one: a process forked from one that used the
//! module (multiprocessing's workers on Linux, PyTorch's DataLoader) has
//! none of its parent's threads, so work handed to a pool made before the
//! fork would wait forever. The pool remembers the process that made it,
//! and a child makes its own.

use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use mancala_solver::error::Error;
use mancala_solver::oracle::{self, Oracle as Inner, OracleConfig, SearchBudget};
use mancala_solver::play::agents::Stop;
use mancala_solver::progress::{Event, Observer};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use serde_json::json;

mod events;
use events::{event_json, Pending};

/// The pool this process's native calls run their parallel work in, and
/// the process that made it.
static POOL: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// The pool of this process: made on first use, and made again in a
/// process forked from the one that made it. The parent's pool is
/// forgotten there, not dropped: its threads do not exist in the child,
/// and dropping it would signal them.
fn pool() -> mancala_solver::Result<Arc<rayon::ThreadPool>> {
    let pid = std::process::id();
    let mut slot = POOL.lock().unwrap_or_else(|e| e.into_inner());
    match slot.take() {
        Some((owner, pool)) if owner == pid => {
            *slot = Some((owner, pool.clone()));
            return Ok(pool);
        }
        Some(inherited) => std::mem::forget(inherited),
        None => {}
    }
    let pool = Arc::new(mancala_solver::threads::pool(None)?);
    *slot = Some((pid, pool.clone()));
    Ok(pool)
}

/// The exception class (in `mancala_solver.errors`) for `e`.
fn kind(e: &Error) -> &'static str {
    match e {
        Error::Memory { .. } => "OutOfMemoryBudget",
        Error::BadCheckpoint { .. } | Error::WrongCheckpoint { .. } => "CheckpointError",
        Error::MissingTable { .. }
        | Error::BadTable { .. }
        | Error::WrongTables { .. }
        | Error::BeyondTables { .. }
        | Error::BuildTooLarge { .. } => "TablesError",
        Error::IllegalMove { .. } => "BadInput",
        Error::Stopped(_) => "Stopped",
        Error::Internal(_) => "InternalError",
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

/// Run `work` without the GIL on a scoped thread, in this process's
/// [`pool`], polling for Ctrl-C every 50 ms; on an interrupt, raise `stop`
/// (when the work has one), wait for the work to end and raise
/// `KeyboardInterrupt`.
fn run<T: Send>(
    py: Python<'_>,
    stop: Option<&Stop>,
    work: impl FnOnce() -> mancala_solver::Result<T> + Send,
) -> PyResult<T> {
    run_draining(py, stop, None, work)
}

/// [`run`], calling `drain` on this thread (with the GIL) at every poll and
/// once the work is done: it hands the work's queued progress events to
/// the Python callback.
fn run_draining<T: Send>(
    py: Python<'_>,
    stop: Option<&Stop>,
    drain: Option<&dyn Fn(Python<'_>)>,
    work: impl FnOnce() -> mancala_solver::Result<T> + Send,
) -> PyResult<T> {
    let pool = pool().map_err(|e| to_py(py, e))?;
    std::thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel();
        scope.spawn(move || {
            let _ = tx.send(pool.install(work));
        });
        loop {
            // The receiver goes into the GIL-free closure and comes back.
            let (got, back) = py.allow_threads(move || {
                let got = rx.recv_timeout(Duration::from_millis(50));
                (got, rx)
            });
            rx = back;
            if let Some(drain) = drain {
                drain(py);
            }
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

/// Run long work with an optional progress callback (a Python callable
/// taking one JSON string). The work's observer queues the events and
/// carries the stop flag that Ctrl-C raises; the callback runs on the
/// calling thread between polls. The first exception it raises stops the
/// work and is raised in place of the result (a Ctrl-C wins over it); the
/// callback is not called again after it.
fn run_observed<T: Send>(
    py: Python<'_>,
    callback: Option<PyObject>,
    work: impl FnOnce(Observer) -> mancala_solver::Result<T> + Send,
) -> PyResult<T> {
    let stop = Stop::raisable();
    let flag = stop.flag().expect("a raisable stop flag");
    let Some(callback) = callback else {
        return run(py, Some(&stop), move || {
            work(Observer::silent().with_stop(flag))
        });
    };
    let pending = Arc::new(Mutex::new(Pending::default()));
    let queue = pending.clone();
    let obs = Observer::new(move |e: &Event<'_>| {
        let mut p = queue.lock().unwrap_or_else(|e| e.into_inner());
        match e {
            Event::Advance { done } => p.advance = Some(p.advance.map_or(*done, |d| d.max(*done))),
            e => {
                p.flush_advance();
                p.events.push(event_json(e).to_string());
            }
        }
    })
    .with_stop(flag);
    let failed: Mutex<Option<PyErr>> = Mutex::new(None);
    let drain = |py: Python<'_>| {
        let events = {
            let mut p = pending.lock().unwrap_or_else(|e| e.into_inner());
            p.flush_advance();
            std::mem::take(&mut p.events)
        };
        let mut slot = failed.lock().unwrap_or_else(|e| e.into_inner());
        for text in events {
            if slot.is_some() {
                return;
            }
            if let Err(err) = callback.call1(py, (text,)) {
                stop.raise();
                *slot = Some(err);
            }
        }
    };
    let out = run_draining(py, Some(&stop), Some(&drain), move || work(obs));
    let raised = failed.lock().unwrap_or_else(|e| e.into_inner()).take();
    match (out, raised) {
        (Err(e), _) if e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) => Err(e),
        (_, Some(err)) => Err(err),
        (out, None) => out,
    }
}

/// A batch look-up of the rows of `counts`, `per_row` values each, without
/// the GIL.
fn batch(
    py: Python<'_>,
    counts: &PyReadonlyArray2<'_, u8>,
    per_row: usize,
    look_up: impl FnOnce(&[u8], &mut [i32]) -> mancala_solver::Result<()> + Send,
) -> PyResult<Vec<i32>> {
    let rows = counts.shape()[0];
    let counts = counts.as_slice().map_err(|_| {
        pyo3::exceptions::PyValueError::new_err("the counts must be a C-contiguous array")
    })?;
    let mut values = vec![0i32; rows * per_row];
    run(py, None, || look_up(counts, &mut values))?;
    Ok(values)
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
        let stop = Stop::raisable();
        run(py, Some(&stop), || {
            self.inner.query_until(game, position, time, &stop)
        })
        .map(|a| json(&a))
    }

    /// What the opening books know of `position` without a search, as
    /// JSON (`None` when they know nothing of it or its moves).
    #[pyo3(signature = (game, position = None))]
    fn book_known(
        &self,
        py: Python<'_>,
        game: &str,
        position: Option<&str>,
    ) -> PyResult<Option<String>> {
        run(py, None, || self.inner.query_book_known(game, position)).map(|a| a.map(|a| json(&a)))
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
        let values = batch(py, &counts, 1, |counts, values| {
            self.inner.table_values(game, counts, values, missing)
        })?;
        Ok(PyArray1::from_vec(py, values))
    }

    /// The values of the positions in `counts` (as for `table_values`)
    /// from the opening books compiled into the engine and the tables:
    /// `missing` where neither holds a position.
    fn exact_values<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        counts: PyReadonlyArray2<'py, u8>,
        missing: i32,
    ) -> PyResult<Bound<'py, PyArray1<i32>>> {
        let values = batch(py, &counts, 1, |counts, values| {
            self.inner.exact_values(game, counts, values, missing)
        })?;
        Ok(PyArray1::from_vec(py, values))
    }

    /// What is proven of one position's value (its `2m + 2` counts):
    /// `(lower, upper, source)`, from the books or tables, else from a
    /// search of the value alone within `time_ms` (none when 0) and a
    /// transposition table of `tt_mb` MiB. With no search and no build to
    /// make (an oracle of `build_limit` 0), a look-up of microseconds: run
    /// here, without the GIL, rather than handed to a worker thread (a
    /// busy machine is slow to wake one).
    fn value_bounds(
        &self,
        py: Python<'_>,
        game: &str,
        counts: Vec<u8>,
        time_ms: u64,
        tt_mb: usize,
    ) -> PyResult<(i32, i32, &'static str)> {
        let budget = SearchBudget {
            time: Duration::from_millis(time_ms),
            tt_mb,
        };
        let stop = Stop::raisable();
        let b = if time_ms == 0 && self.inner.config().build_limit == 0 {
            py.allow_threads(|| self.inner.value_bounds(game, &counts, &budget, &stop))
                .map_err(|e| to_py(py, e))?
        } else {
            run(py, Some(&stop), || {
                self.inner.value_bounds(game, &counts, &budget, &stop)
            })?
        };
        Ok((b.lower, b.upper, b.source.name()))
    }

    /// The tables that make `game` fast to answer, what is on disk and
    /// what is left to build, as JSON.
    fn table_plan(&self, py: Python<'_>, game: &str) -> PyResult<String> {
        run(py, None, || self.inner.table_plan(game)).map(|p| json(&p))
    }

    /// Every move's value for the positions in `counts` (as for
    /// `table_values`), an `N x m` array: `missing` for a pit that is not a
    /// legal move or a position the tables do not cover.
    fn table_move_values<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        counts: PyReadonlyArray2<'py, u8>,
        missing: i32,
    ) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let pits = oracle::parse_game(game).map_err(|e| to_py(py, e))?.pits;
        let values = batch(py, &counts, pits, |counts, values| {
            self.inner.table_move_values(game, counts, values, missing)
        })?;
        let rows = counts.shape()[0];
        PyArray1::from_vec(py, values).reshape([rows, pits])
    }

    /// Build the tables of `game` up to `max_seeds` seeds, as JSON (the
    /// report of `mancala build --json`); `progress` gets each event.
    #[pyo3(signature = (game, max_seeds, threads = None, progress = None))]
    fn build_tables(
        &self,
        py: Python<'_>,
        game: &str,
        max_seeds: usize,
        threads: Option<usize>,
        progress: Option<PyObject>,
    ) -> PyResult<String> {
        run_observed(py, progress, |obs| {
            self.inner.build_tables(game, max_seeds, threads, obs)
        })
        .map(|r| json(&r))
    }

    /// Solve a Kalah position, as JSON; stopped (time, Ctrl-C) with
    /// proven bounds and its checkpoint written when asked. A last
    /// checkpoint that was not written raises `CheckpointError`, the
    /// report as its `result`.
    #[pyo3(signature = (game, position = None, time_ms = None, checkpoint = None, resume = None, threads = None, progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        game: &str,
        position: Option<&str>,
        time_ms: Option<u64>,
        checkpoint: Option<PathBuf>,
        resume: Option<PathBuf>,
        threads: Option<usize>,
        progress: Option<PyObject>,
    ) -> PyResult<String> {
        let request = oracle::SolveRequest {
            time: time_ms.map(Duration::from_millis),
            checkpoint,
            resume,
            threads,
        };
        // A report whose last checkpoint failed, kept for the error even
        // when Ctrl-C ended the solve (the interrupt drops the answer).
        let unsaved: Mutex<Option<oracle::SolveReport>> = Mutex::new(None);
        let out = run_observed(py, progress, |obs| {
            let report = self.inner.solve(game, position, &request, obs)?;
            if report.checkpoint_error.is_some() {
                *unsaved.lock().unwrap_or_else(|e| e.into_inner()) = Some(report.clone());
            }
            Ok(report)
        });
        let unsaved = unsaved.into_inner().unwrap_or_else(|e| e.into_inner());
        match (out, unsaved) {
            (Ok(report), None) => Ok(solve_json(&report).to_string()),
            (out, Some(report)) => Err(checkpoint_not_written(
                py,
                request.checkpoint.as_deref(),
                &report,
                out.err(),
            )),
            (Err(e), None) => Err(e),
        }
    }

    /// A match between two agents, as JSON (the report of `mancala match
    /// --json`).
    #[pyo3(signature = (game, a, b, games, seed = 1, progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn run_match(
        &self,
        py: Python<'_>,
        game: &str,
        a: &str,
        b: &str,
        games: usize,
        seed: u64,
        progress: Option<PyObject>,
    ) -> PyResult<String> {
        run_observed(py, progress, |obs| {
            self.inner.run_match(game, a, b, games, seed, obs)
        })
        .map(|r| json(&r))
    }

    /// An agent graded against perfect play, as JSON (the report of
    /// `mancala grade --json`).
    #[pyo3(signature = (game, agent, positions, seed = 1, search_ms = 2000, progress = None))]
    #[allow(clippy::too_many_arguments)]
    fn grade(
        &self,
        py: Python<'_>,
        game: &str,
        agent: &str,
        positions: usize,
        seed: u64,
        search_ms: u64,
        progress: Option<PyObject>,
    ) -> PyResult<String> {
        run_observed(py, progress, |obs| {
            self.inner.grade(
                game,
                agent,
                positions,
                seed,
                Duration::from_millis(search_ms),
                obs,
            )
        })
        .map(|r| json(&r))
    }

    /// `agent` as the oracle writes it, or the error it would give.
    fn check_agent(&self, py: Python<'_>, game: &str, agent: &str) -> PyResult<String> {
        run(py, None, || self.inner.check_agent_spec(game, agent))
    }
}

/// A solve's report as JSON. A stopped solve proves bounds, not a value,
/// as `mancala solve --json` says it: `value`, `best_move`, `pv` and
/// `pv_turns` are null, and `estimate` and `best_move_so_far` say what it
/// found (never given as proven).
fn solve_json(report: &oracle::SolveReport) -> serde_json::Value {
    let mut v = serde_json::to_value(report).expect("answers serialise");
    let s = &report.solution;
    let exact = s.exact;
    let solution = &mut v["solution"];
    solution["estimate"] = if exact {
        serde_json::Value::Null
    } else {
        json!(s.value)
    };
    solution["best_move_so_far"] = json!(s.best_move);
    if !exact {
        for field in ["value", "best_move", "pv", "pv_turns"] {
            solution[field] = serde_json::Value::Null;
        }
    }
    v
}

/// The `CheckpointError` of a solve whose last checkpoint (at its end or
/// stop) was not written: the message says why, its `result` holds the
/// solve's report (the bounds are not lost), and what stopped the solve
/// (Ctrl-C's `KeyboardInterrupt`, the progress callback's exception) is
/// its cause.
fn checkpoint_not_written(
    py: Python<'_>,
    path: Option<&std::path::Path>,
    report: &oracle::SolveReport,
    stopped_by: Option<PyErr>,
) -> PyErr {
    let why = report.checkpoint_error.as_deref().unwrap_or("unknown");
    let path = path.map_or(String::new(), |p| format!(" {}", p.display()));
    let message = if let Some(e) = &stopped_by {
        let by = if e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
            "interrupted".to_string()
        } else {
            format!(
                "stopped by the progress callback's {}",
                e.get_type(py)
                    .name()
                    .map_or("exception".to_string(), |n| n.to_string())
            )
        };
        format!("the solve was {by}, and its checkpoint{path} was not written: {why}")
    } else {
        format!(
            "the solve ended, but its last checkpoint{path} was not written: {why} (the \
             solution is in this error's `result`)"
        )
    };
    let made = py
        .import("mancala_solver.errors")
        .and_then(|m| m.getattr("CheckpointError"))
        .and_then(|class| class.call1((message.clone(), solve_json(report).to_string())));
    let err = match made {
        Ok(value) => PyErr::from_value(value),
        Err(_) => PyException::new_err(message),
    };
    if let Some(cause) = stopped_by {
        err.set_cause(py, Some(cause));
    }
    err
}

/// The games of the registry, as JSON.
#[pyfunction]
fn games() -> String {
    json(&oracle::games())
}

/// The opening books compiled into the engine, as JSON: each one's game,
/// turns from the start and positions.
#[pyfunction]
fn books() -> String {
    let list: Vec<_> = mancala_solver::book::Books::embedded()
        .books()
        .iter()
        .map(|b| {
            let seeds = b
                .root()
                .cells()
                .iter()
                .map(|&c| usize::from(c))
                .sum::<usize>();
            let rules = b.rules().name();
            let mut game = format!("kalah:{}:{}", b.pits(), seeds / (2 * b.pits()).max(1));
            if b.rules() != mancala_solver::kalah::KalahRules::Default {
                game = format!("{game}:{rules}");
            }
            let (held, within) = b.coverage();
            json!({
                "game": game,
                "rules": rules,
                "pits": b.pits(),
                "turns": b.turns(),
                "positions": b.len(),
                "within_turns": within,
                "held_within_turns": held,
                "complete": held == within,
                "root": b.root().to_string(),
            })
        })
        .collect();
    json(&list)
}

/// The engine's version.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// A test hook: raise the exception an engine error of `kind` raises
/// (`internal`: a fault of the engine, such as a failed worker thread,
/// which no input can provoke at will; `usage`: bad input), so that the
/// tests check the mapping of each kind.
#[pyfunction]
fn _raise_error_of_kind(py: Python<'_>, kind: &str) -> PyResult<()> {
    let e = match kind {
        "internal" => Error::Internal("a search thread failed (raised by the test hook)".into()),
        "usage" => Error::Conflict("the game says 4 and --pits 5: give one".into()),
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unknown kind \"{other}\": internal or usage"
            )))
        }
    };
    Err(to_py(py, e))
}

/// Most worker threads a call may ask for on this machine.
#[pyfunction]
fn max_threads() -> usize {
    mancala_solver::threads::max_threads()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Oracle>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(books, m)?)?;
    m.add_function(wrap_pyfunction!(max_threads, m)?)?;
    m.add_function(wrap_pyfunction!(_raise_error_of_kind, m)?)?;
    m.add(
        "MAX_TABLE_SEEDS",
        mancala_solver::tables::index::MAX_INDEX_SEEDS,
    )?;
    Ok(())
}
