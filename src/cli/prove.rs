//! `mancala prove`: a Kalah proof split into tasks, with a ledger of the
//! finished ones (`search::prove`).

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use super::tasks::TaskArgs;
use super::{progress, GameName, GameNameFlags};
use mancala_solver::error::{Error, Result};
use mancala_solver::family::Rules;
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::KalahRules;
use mancala_solver::rng::seeded;
use mancala_solver::search::prove::{self, Entry, Ledger, NodeState, ProveOptions, Question};

/// Arguments of `mancala prove`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "Examples:\n  \
mancala prove kalah:5:4 --ledger k54.jsonl   # long: about a minute of CPU\n  \
mancala prove kalah:6:6 --ledger docs/kalah-6-6/ledger.jsonl --at-least 2 --max-table-seeds 30   # long\n  \
mancala prove kalah:6:6 --ledger docs/kalah-6-6/ledger.jsonl --status\n  \
mancala prove kalah:4:3 --ledger k43.jsonl --every-move\n  \
mancala prove kalah:5:4 --ledger k54.jsonl --check 20   # long: after the proof above\n\n\
A proof asks null-window questions, \"is the value (final store difference for the side to \
move, stores included) at least T?\". A question the search settles within --task-seconds (or \
--task-nodes) is a proof; a larger one is split into one question a move. Every finished task is one line of the \
ledger (JSON lines, a checksum each, rewritten atomically), so a stopped or killed run loses \
only the task under way and any machine goes on from the ledger. Without --at-least the \
questions close in on the exact value. For a scheduler: --tasks lists the open tasks (JSON \
lines), --run-task proves one and prints its ledger line, --record adds such lines (from \
stdin) to the ledger.")]
pub struct ProveArgs {
    /// The game, kalah:M:N[:RULES] (the start of Kalah(M,N)), or kalah
    /// followed by a quoted position from the side to move.
    #[arg(value_parser = GameName::parse)]
    pub game: GameName,
    /// A position (2m+2 numbers), when the game's name gives no board.
    pub position: Option<String>,
    /// The ledger file (created when missing; its directory must exist).
    #[arg(long, value_name = "FILE", value_parser = super::render::parse_output_file)]
    pub ledger: PathBuf,
    /// Prove or refute "the value is at least T" only; default: the exact
    /// value.
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub at_least: Option<i32>,
    /// After the root's exact value, prove the exact value of every move
    /// of its turn: the opening moves, then the moves after an extra turn
    /// (each move's position a question of its own in the same ledger).
    #[arg(long, conflicts_with = "at_least")]
    pub every_move: bool,
    /// The first question when proving the exact value (default: a short
    /// search's estimate).
    #[arg(long, allow_hyphen_values = true)]
    pub guess: Option<i32>,
    #[command(flatten)]
    pub task: TaskArgs,
    /// Print what the ledger proves and the open tasks; search nothing.
    #[arg(long, conflicts_with_all = ["check", "tasks", "run_task", "record"])]
    pub status: bool,
    /// Print the tree of questions below the one under way (or --at-least
    /// T): what the ledger says of each, what it cost, the open tasks and
    /// those waiting their turn; search nothing.
    #[arg(long, conflicts_with_all = ["status", "check", "tasks", "run_task", "record"])]
    pub outline: bool,
    /// Re-prove N proof lines drawn at random (0: all) and compare.
    #[arg(long, value_name = "N", conflicts_with_all = ["tasks", "run_task", "record"])]
    pub check: Option<usize>,
    /// Print the open tasks, one JSON line each (for a scheduler).
    #[arg(long, conflicts_with_all = ["run_task", "record"])]
    pub tasks: bool,
    /// Run one task (a JSON line of --tasks) and print its ledger line;
    /// the ledger is read, not written.
    #[arg(long, value_name = "JSON", conflicts_with = "record")]
    pub run_task: Option<String>,
    /// Add ledger lines read from stdin (from --run-task) to the ledger.
    #[arg(long)]
    pub record: bool,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

fn root_of(args: &ProveArgs) -> Result<(Position, KalahRules)> {
    let rules = match args.game.rules("default")? {
        Rules::Kalah(rules) => rules,
        _ => {
            return Err(Error::Unsupported(format!(
                "{}: proofs split into tasks are for Kalah (the other games are solved from their tables)",
                args.game.name
            )))
        }
    };
    let pos = match (&args.position, args.game.pits, args.game.seeds) {
        (Some(text), None, None) => Position::parse(text)?,
        (None, Some(m), Some(n)) => Position::start(m, n)?,
        _ => {
            return Err(Error::Unsupported(
                "give kalah:M:N (the start) or kalah \"<position>\"".into(),
            ))
        }
    };
    Ok((pos, rules))
}

/// Run `mancala prove`.
pub fn run(args: ProveArgs) -> Result<ExitCode> {
    let (root, rules) = root_of(&args)?;
    args.task.check()?;
    let mut ledger = Ledger::open_or_new(&args.ledger, &root, rules)?;
    if args.status {
        return status(&args, &ledger);
    }
    if args.outline {
        return outline(&args, &ledger);
    }
    if args.tasks {
        for q in open_tasks(&args, &ledger) {
            println!(
                "{}",
                serde_json::to_string(&q).expect("questions serialise")
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.record {
        let mut entries = Vec::new();
        for (i, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.map_err(|e| Error::io(std::path::Path::new("<stdin>"), e))?;
            if line.trim().is_empty() {
                continue;
            }
            let bad = |reason: String| Error::BadLedger {
                path: "<stdin>".into(),
                line: i + 1,
                reason,
            };
            entries.push(Entry::from_line(&line).map_err(bad)?);
        }
        // Under the ledger's lock, with what other writers recorded; a
        // line that contradicts the ledger refuses the whole record.
        let added = ledger.record(&args.ledger, entries)?;
        if !args.task.quiet {
            eprintln!("{added} new lines recorded in {}", args.ledger.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let stop = super::stop_on_signals(&args.ledger)?;
    let (prepared, opts) = args.task.prepare(&root, rules, stop)?;
    let tables = prepared.tables();
    if let Some(text) = &args.run_task {
        let q: Question = serde_json::from_str(text).map_err(|e| {
            Error::Unsupported(format!(
                "--run-task: not a task ({e}); give one JSON line of --tasks"
            ))
        })?;
        ledger.position_of(&q).map_err(|e| {
            Error::Unsupported(format!(
                "--run-task: {e}; give a task of this ledger's game (from --tasks)"
            ))
        })?;
        let entry = prove::run_ledger_task(&ledger, &q, tables.as_deref(), &opts)?;
        progress::end_status(&opts.search.progress);
        println!("{}", entry.to_line());
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(n) = args.check {
        return check(&args, &ledger, tables.as_deref(), &opts, n);
    }
    let quiet = args.task.quiet;
    let observer = opts.search.progress.clone();
    let mut on_entry = |e: &Entry, l: &Ledger| {
        if !quiet {
            progress::end_status(&observer);
            eprintln!("{}", describe(e, l));
        }
    };
    let result = match args.at_least {
        Some(t) => {
            let q = Question {
                position: ledger.header.root.clone(),
                at_least: t,
            };
            prove::prove(
                &mut ledger,
                &args.ledger,
                &q,
                tables.as_deref(),
                &opts,
                &mut on_entry,
            )
            .map(|_| ())
        }
        None => {
            let guess = match args.guess {
                Some(g) => g,
                None => estimate(&root, tables.as_deref(), &opts)?,
            };
            let tables = tables.as_deref();
            let (ledger, path) = (&mut ledger, &args.ledger);
            if args.every_move {
                prove::prove_moves(ledger, path, guess, tables, &opts, &mut on_entry).map(|_| ())
            } else {
                prove::prove_value(ledger, path, guess, tables, &opts, &mut on_entry).map(|_| ())
            }
        }
    };
    progress::end_status(&opts.search.progress);
    match result {
        Err(Error::Stopped(_)) => {
            if !args.task.quiet {
                eprintln!(
                    "stopped: the ledger {} keeps every finished task; run the same command to go on",
                    args.ledger.display()
                );
            }
            status(&args, &ledger)?;
            Ok(ExitCode::from(130))
        }
        Err(e) => Err(e),
        Ok(()) => status(&args, &ledger),
    }
}

/// A short search's estimate of the root's value.
fn estimate(
    root: &Position,
    tables: Option<&mancala_solver::tablebase::TableSet<KalahRules>>,
    opts: &ProveOptions,
) -> Result<i32> {
    let mut e = opts.search.clone();
    e.deadline = std::time::Duration::try_from_secs_f64(opts.estimate_seconds)
        .ok()
        .and_then(|d| std::time::Instant::now().checked_add(d));
    e.node_limit = opts.estimate_nodes;
    Ok(mancala_solver::search::solve(root, tables, &e)?.value)
}

/// The open tasks: of the question asked, or of the exact value's next
/// question.
fn open_tasks(args: &ProveArgs, ledger: &Ledger) -> Vec<Question> {
    match current_question(args, ledger) {
        Some(q) => ledger.pending(&q),
        None => Vec::new(),
    }
}

/// The question under way: --at-least T, or the exact value's next
/// question, then with --every-move the next question of a move's value
/// (`None` once all is proven).
fn current_question(args: &ProveArgs, ledger: &Ledger) -> Option<Question> {
    if let Some(t) = args.at_least {
        return Some(Question {
            position: ledger.header.root.clone(),
            at_least: t,
        });
    }
    let guess = args.guess.unwrap_or(0);
    let root = ledger.next_value_question(&ledger.header.root, guess);
    if root.is_some() || !args.every_move {
        return root;
    }
    ledger
        .next_move_question(ledger.root_bounds().0)
        .ok()
        .flatten()
}

/// One line about a new ledger entry.
fn describe(e: &Entry, l: &Ledger) -> String {
    let (lo, hi) = l.root_bounds();
    let root = if lo == hi {
        format!("root = {lo:+}")
    } else {
        format!("root in [{lo:+}, {hi:+}]")
    };
    match e {
        Entry::Proof(p) => format!(
            "proved \"{}\" {} {}: {} ({} nodes, {:.1} s); {root}",
            p.question.position,
            if p.answer { ">=" } else { "<" },
            p.question.at_least,
            if p.answer { "yes" } else { "no" },
            p.nodes,
            p.seconds
        ),
        Entry::Split(s) => format!(
            "split \"{}\" at {} into {} moves (estimates {:?}, {:.1} s spent); {root}",
            s.question.position,
            s.question.at_least,
            s.order.len(),
            s.estimates,
            s.seconds
        ),
        Entry::Header(_) => String::new(),
    }
}

/// `--status`: what the ledger proves, its totals, the open tasks.
fn status(args: &ProveArgs, ledger: &Ledger) -> Result<ExitCode> {
    let (lo, hi) = ledger.root_bounds();
    let totals = ledger.totals();
    let open = open_tasks(args, ledger);
    let question = args.at_least.map(|t| {
        ledger.answer(&Question {
            position: ledger.header.root.clone(),
            at_least: t,
        })
    });
    let (moves, continuations): (Vec<_>, Vec<_>) = ledger
        .turn_moves()?
        .into_iter()
        .partition(|m| m.after.is_empty());
    if args.json {
        println!(
            "{}",
            json!({
                "root": ledger.header.root,
                "rules": ledger.header.rules,
                "lower": lo,
                "upper": hi,
                "exact": lo == hi,
                "at_least": args.at_least,
                "answer": question.flatten(),
                "moves": moves,
                "continuations": continuations,
                "totals": totals,
                "open_tasks": open,
            })
        );
    } else {
        println!(
            "root {} ({} rules)",
            ledger.header.root, ledger.header.rules
        );
        if lo == hi {
            println!("value {lo:+} (proven)");
        } else {
            println!("value in [{lo:+}, {hi:+}] (proven bounds)");
        }
        if let (Some(t), Some(a)) = (args.at_least, question) {
            let a = match a {
                Some(true) => "proven",
                Some(false) => "refuted",
                None => "open",
            };
            println!("at least {t:+}: {a}");
        }
        println!(
            "moves (pit: value or proven bounds) {}",
            shown_moves(&moves)
        );
        for group in continuations.chunk_by(|a, b| a.after == b.after) {
            let after: Vec<String> = group[0].after.iter().map(usize::to_string).collect();
            println!(
                "moves after {} (the extra turn) {}",
                after.join(" then "),
                shown_moves(group)
            );
        }
        println!(
            "{} proofs, {} splits, {} nodes, {:.0} s of search ({:.0} CPU s in proofs)",
            totals.proofs, totals.splits, totals.nodes, totals.seconds, totals.cpu_seconds
        );
        println!("{} open tasks", open.len());
        for q in open.iter().take(10) {
            println!("  \"{}\" at least {}", q.position, q.at_least);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Moves as `pit:value`, or `pit:[lower,upper]` where not exact.
fn shown_moves(moves: &[prove::MoveValue]) -> String {
    let shown: Vec<String> = moves
        .iter()
        .map(|m| match (m.lower, m.upper) {
            (lo, hi) if lo == hi => format!("{}:{lo:+}", m.pit),
            (lo, hi) => format!("{}:[{lo:+},{hi:+}]", m.pit),
        })
        .collect();
    shown.join(" ")
}

/// `--outline`: the tree of the question under way.
fn outline(args: &ProveArgs, ledger: &Ledger) -> Result<ExitCode> {
    // Once the value is proven, the tree of its last question ("at least
    // v").
    let q = current_question(args, ledger).unwrap_or_else(|| Question {
        position: ledger.header.root.clone(),
        at_least: ledger.root_bounds().0,
    });
    let t = q.at_least;
    let tree = ledger.outline(&q);
    let count = |s: NodeState| tree.iter().filter(|n| n.state == s).count();
    if args.json {
        println!("{}", json!({ "question": q, "tree": tree }));
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "at least {t:+} from {}: {} questions; {} yes, {} no, {} split and open, {} open, {} waiting",
        q.position,
        tree.len(),
        count(NodeState::Yes),
        count(NodeState::No),
        count(NodeState::Split),
        count(NodeState::Open),
        count(NodeState::Waiting)
    );
    for n in &tree {
        let state = match (n.state, n.split) {
            (NodeState::Yes, true) => "yes, by its moves",
            (NodeState::No, true) => "no, by its moves",
            (NodeState::Yes, false) => "yes",
            (NodeState::No, false) => "no",
            (NodeState::Split, _) => "split, open",
            (NodeState::Open, _) => "open",
            (NodeState::Waiting, _) => "waiting",
        };
        let cost = if n.nodes > 0 {
            format!(" ({:.2e} nodes, {:.0} s)", n.nodes as f64, n.seconds)
        } else {
            String::new()
        };
        println!(
            "{:indent$}{}\"{}\" at least {:+}: {state}{cost}",
            "",
            n.pit.map_or(String::new(), |p| format!("pit {p}: ")),
            n.question.position,
            n.question.at_least,
            indent = 2 * n.depth
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `--check N`: re-prove proof lines and compare their answers.
fn check(
    args: &ProveArgs,
    ledger: &Ledger,
    tables: Option<&mancala_solver::tablebase::TableSet<KalahRules>>,
    opts: &ProveOptions,
    n: usize,
) -> Result<ExitCode> {
    use rand::seq::SliceRandom;
    let mut proofs: Vec<&prove::Proof> = ledger
        .entries
        .iter()
        .filter_map(|e| match e {
            Entry::Proof(p) => Some(p),
            _ => None,
        })
        .collect();
    if n > 0 && n < proofs.len() {
        proofs.shuffle(&mut seeded(0x5eed));
        proofs.truncate(n);
    }
    // Re-proved without a task limit: a check must settle.
    let opts = ProveOptions {
        task_seconds: f64::INFINITY,
        task_nodes: None,
        ..opts.clone()
    };
    let (mut agree, mut differ) = (0, 0);
    let mut mismatches = Vec::new();
    for p in &proofs {
        let again = prove::run_task(&p.question, tables, &opts)?;
        let yes_no = |a: bool| if a { "yes" } else { "no" };
        let search = match &again {
            Entry::Proof(a) if a.answer == p.answer => None,
            Entry::Proof(a) => Some(format!(
                "the search says {} (bounds [{:+}, {:+}])",
                yes_no(a.answer),
                a.lower,
                a.upper
            )),
            _ => Some("the search did not settle it".to_string()),
        };
        match search {
            None => agree += 1,
            Some(search) => {
                differ += 1;
                let line = format!(
                    "\"{}\" at least {:+}: the ledger says {} (bounds [{:+}, {:+}]), {search}",
                    p.question.position,
                    p.question.at_least,
                    yes_no(p.answer),
                    p.lower,
                    p.upper
                );
                if !args.json {
                    progress::end_status(&opts.search.progress);
                    eprintln!("MISMATCH: {line}");
                }
                mismatches.push(line);
            }
        }
    }
    progress::end_status(&opts.search.progress);
    if args.json {
        println!(
            "{}",
            json!({"checked": proofs.len(), "agree": agree, "differ": differ, "mismatches": mismatches})
        );
    } else {
        println!(
            "{} proof lines re-proved: {agree} agree, {differ} differ{}",
            proofs.len(),
            if differ > 0 {
                ": the ledger holds a false line (it was forged, or made by a faulty \
                 program); do not trust its values"
            } else {
                ""
            }
        );
    }
    Ok(if differ == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
