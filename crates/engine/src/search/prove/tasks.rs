//! Running tasks: one question proven or split ([`run_task`]), and whole
//! proofs from a ledger ([`prove`], [`prove_value`]).

use crate::clock::Instant;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{children, program, Entry, Ledger, Proof, Question, Split};
use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::search::options::SolveOptions;
use crate::tablebase::TableSet;

/// How tasks run.
#[derive(Clone, Debug)]
pub struct ProveOptions {
    /// The search's options (rules, transposition table, threads, stop
    /// flag, progress); its `at_least` and `deadline` are set per task.
    pub search: SolveOptions,
    /// A task not settled after this long is split (infinite: no limit).
    pub task_seconds: f64,
    /// A task not settled after this many nodes is split, whatever the
    /// clock says (`None`: no limit). Unlike seconds, a budget of nodes is
    /// the same on a loaded machine, where a low-priority task may get
    /// little of the processor, as on an idle one.
    pub task_nodes: Option<u64>,
    /// When a task is split, each move's value is estimated by a search of
    /// about this long (its deepest finished iteration).
    pub estimate_seconds: f64,
    /// ... and of at most this many nodes.
    pub estimate_nodes: Option<u64>,
    /// In [`prove`]: a question about a position the ledger split already
    /// (for another threshold) is split at once, its moves estimated
    /// without first searching the whole task: a search of that position
    /// ran out of budget once, and the questions that follow move towards
    /// its value, where they are harder. Measured in docs/kalah-6-6.md
    /// ("Splitting a position again at once").
    pub split_again_at_once: bool,
}

impl Default for ProveOptions {
    fn default() -> Self {
        ProveOptions {
            search: SolveOptions::default(),
            task_seconds: 600.0,
            task_nodes: None,
            estimate_seconds: 1.0,
            estimate_nodes: None,
            split_again_at_once: true,
        }
    }
}

/// Whether the stop flag of `search` is raised.
fn stopped(search: &SolveOptions) -> bool {
    search
        .stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::Relaxed))
}

/// The instant `seconds` from now (`None`: beyond any clock).
fn after(seconds: f64) -> Option<Instant> {
    Duration::try_from_secs_f64(seconds.max(0.0))
        .ok()
        .and_then(|d| Instant::now().checked_add(d))
}

/// Run one task: prove `q` within the task budget (a [`Proof`]), or split
/// it (a [`Split`], with each move's estimate). The stop flag of
/// `opts.search` ends it with [`Error::Stopped`] (nothing recorded).
pub fn run_task(
    q: &Question,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
) -> Result<Entry> {
    let pos = Position::parse(&q.position)?;
    let mut search = opts.search.clone();
    search.at_least = Some(q.at_least);
    search.checkpoint = None;
    search.resume = None;
    search.deadline = after(opts.task_seconds);
    search.node_limit = opts.task_nodes;
    let sol = crate::search::solve(&pos, tables, &search)?;
    if sol.lower >= q.at_least || sol.upper < q.at_least {
        return Ok(Entry::Proof(Proof {
            question: q.clone(),
            answer: sol.lower >= q.at_least,
            lower: sol.lower,
            upper: sol.upper,
            table_seeds: sol.table_seeds,
            nodes: sol.stats.nodes,
            seconds: sol.solve_seconds,
            threads: sol.threads,
            program: program(),
        }));
    }
    if stopped(&opts.search) {
        return Err(Error::Stopped(format!("the proof of {q:?}")));
    }
    split(q, tables, opts, sol.stats.nodes, sol.solve_seconds)
}

/// Run one task of `ledger` ([`run_task`]), or split it at once where the
/// ledger split its position already and
/// [`ProveOptions::split_again_at_once`] says so ([`split_task`]).
pub fn run_ledger_task(
    ledger: &Ledger,
    q: &Question,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
) -> Result<Entry> {
    if opts.split_again_at_once && ledger.was_split(&q.position) {
        split_task(q, tables, opts)
    } else {
        run_task(q, tables, opts)
    }
}

/// Split `q` without searching it whole first: its moves estimated, the
/// split line's nodes and seconds 0 (what [`prove`] records for a question
/// about a position the ledger split already, see
/// [`ProveOptions::split_again_at_once`]).
pub fn split_task(
    q: &Question,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
) -> Result<Entry> {
    split(q, tables, opts, 0, 0.0)
}

/// The split line of `q`: each move estimated and ordered best first,
/// after a search of `nodes` nodes and `seconds` that did not settle it.
fn split(
    q: &Question,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
    nodes: u64,
    seconds: f64,
) -> Result<Entry> {
    let mut est = Vec::new();
    for c in children(q, opts.search.rules)? {
        let v = match c.over {
            Some(v) => v,
            None => {
                let mut e = opts.search.clone();
                e.checkpoint = None;
                e.resume = None;
                e.deadline = after(opts.estimate_seconds);
                e.node_limit = opts.estimate_nodes;
                let child = Position::parse(&c.question.position)?;
                let v = crate::search::solve(&child, tables, &e)?.value;
                if c.negated {
                    -v
                } else {
                    v
                }
            }
        };
        if stopped(&opts.search) {
            return Err(Error::Stopped(format!("the split of {q:?}")));
        }
        est.push((c.pit, v));
    }
    // Best estimate first; ties in pit order.
    est.sort_by_key(|&(pit, v)| (std::cmp::Reverse(v), pit));
    Ok(Entry::Split(Split {
        question: q.clone(),
        expect: est.first().is_some_and(|&(_, v)| v >= q.at_least),
        order: est.iter().map(|e| e.0).collect(),
        estimates: est.iter().map(|e| e.1).collect(),
        nodes,
        seconds,
        program: program(),
    }))
}

/// Solve `pos` exactly within the task budget of `opts`: its proof line
/// (the question "at least v" answered with the bounds `[v, v]`), or `None`
/// when the budget ran out first.
pub fn run_exact(
    pos: &Position,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
) -> Result<Option<Entry>> {
    let mut search = opts.search.clone();
    search.at_least = None;
    search.checkpoint = None;
    search.resume = None;
    search.deadline = after(opts.task_seconds);
    search.node_limit = opts.task_nodes;
    let sol = crate::search::solve(pos, tables, &search)?;
    if !(sol.exact && sol.lower == sol.upper) {
        if stopped(&search) {
            return Err(Error::Stopped(format!("the solve of \"{pos}\"")));
        }
        return Ok(None);
    }
    Ok(Some(Entry::Proof(Proof {
        question: Question {
            position: pos.to_string(),
            at_least: sol.value,
        },
        answer: true,
        lower: sol.value,
        upper: sol.value,
        table_seeds: sol.table_seeds,
        nodes: sol.stats.nodes,
        seconds: sol.solve_seconds,
        threads: sol.threads,
        program: program(),
    })))
}

/// Prove `q` from the ledger at `path`: run its pending tasks one after
/// another (each with all of `opts`' threads; a position split already
/// is split again at once, see [`ProveOptions::split_again_at_once`]),
/// recording each finished one in the ledger file ([`Ledger::record`],
/// which also brings in the lines other writers recorded meanwhile), until
/// the ledger answers `q`. `on_entry` sees every new line. Stopped by the
/// stop flag: the task under way is lost, the ledger keeps every finished
/// one.
pub fn prove(
    ledger: &mut Ledger,
    path: &Path,
    q: &Question,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
    on_entry: &mut dyn FnMut(&Entry, &Ledger),
) -> Result<bool> {
    loop {
        if let Some(a) = ledger.answer(q) {
            return Ok(a);
        }
        let next = ledger
            .pending(q)
            .into_iter()
            .next()
            .expect("an open question has a pending task");
        let entry = run_ledger_task(ledger, &next, tables, opts)?;
        ledger.record(path, vec![entry.clone()])?;
        on_entry(&entry, ledger);
    }
}

/// The exact value of the root, proven question by question from the
/// ledger at `path` (each question as [`prove`] does), starting at
/// `guess`. Returns the value.
pub fn prove_value(
    ledger: &mut Ledger,
    path: &Path,
    guess: i32,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
    on_entry: &mut dyn FnMut(&Entry, &Ledger),
) -> Result<i32> {
    let root = ledger.header.root.clone();
    prove_value_of(ledger, path, &root, guess, tables, opts, on_entry)
}

/// The exact value of `position`, a position the ledger reaches, proven
/// question by question from the ledger at `path` as [`prove_value`]
/// proves the root's. Returns the value.
pub fn prove_value_of(
    ledger: &mut Ledger,
    path: &Path,
    position: &str,
    guess: i32,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
    on_entry: &mut dyn FnMut(&Entry, &Ledger),
) -> Result<i32> {
    while let Some(q) = ledger.next_value_question(position, guess) {
        settle(ledger, path, &q, tables, opts, on_entry)?;
    }
    Ok(ledger.bounds(position).0)
}

/// The exact value of the root and of every move of its turn, proven from
/// the ledger at `path`: the root's first ([`prove_value`] from `guess`),
/// then each move's in the order of [`Ledger::next_move_question`] (the
/// opening moves, then the moves after an extra turn), each from the
/// root's value (the best move's value is that, the others' at most that).
/// Returns the moves' values ([`Ledger::turn_moves`]).
pub fn prove_moves(
    ledger: &mut Ledger,
    path: &Path,
    guess: i32,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
    on_entry: &mut dyn FnMut(&Entry, &Ledger),
) -> Result<Vec<super::MoveValue>> {
    let value = prove_value(ledger, path, guess, tables, opts, on_entry)?;
    while let Some(q) = ledger.next_move_question(value)? {
        settle(ledger, path, &q, tables, opts, on_entry)?;
    }
    ledger.turn_moves()
}

/// [`prove`] one question towards a value, and check that its answer moved
/// the position's bounds (else the next question would be the same one,
/// forever).
fn settle(
    ledger: &mut Ledger,
    path: &Path,
    q: &Question,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
    on_entry: &mut dyn FnMut(&Entry, &Ledger),
) -> Result<()> {
    let before = ledger.bounds(&q.position);
    prove(ledger, path, q, tables, opts, on_entry)?;
    if ledger.bounds(&q.position) == before {
        return Err(Error::BadLedger {
            path: path.to_path_buf(),
            line: 0,
            reason: format!(
                "\"{}\" at least {} is answered, yet the position's bounds [{}, {}] do not move: \
                 lines of the ledger contradict each other; check it with --check 0",
                q.position, q.at_least, before.0, before.1
            ),
        });
    }
    Ok(())
}
