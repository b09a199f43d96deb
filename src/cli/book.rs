//! `mancala book`: opening books proven as ledger lines and compiled into
//! compact book files (`book`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::json;

use super::tasks::TaskArgs;
use super::{progress, GameName, GameNameFlags};
use mancala_solver::book::{build_book, Book, BookProgress, Books};
use mancala_solver::error::{Error, Result};
use mancala_solver::family::Rules;
use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::KalahRules;
use mancala_solver::search::prove::{Entry, Ledger, MAX_BOOK_TURNS};

/// Arguments of `mancala book`.
#[derive(Args, Clone, Debug)]
#[command(after_help = "Examples:\n  \
mancala book build kalah:6:4 --turns 3   # long: the proof, minutes\n  \
mancala book build kalah:6:4:capture-needs-opposite --turns 3 --max-table-seeds 24   # long\n  \
mancala book build kalah:6:6 --turns 1 --from docs/kalah-6-6/ledger.jsonl --no-search\n  \
mancala book compile books/kalah-6-4-default.jsonl\n  \
mancala book show kalah:6:4\n\n\
A book is the exact value of every position within the first turns of a Kalah start (a turn: \
one player's moves, extra moves included). `build` proves it as lines of a book ledger \
(books/NAME.jsonl by default: every position of the last turn solved, those before it \
following from their moves; resumable, as `mancala prove`), then compiles the ledger into the \
book file (books/NAME.book), which every front end reads first. The books of books/ are \
compiled into the program.")]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

/// What `mancala book` does.
#[derive(Subcommand, Clone, Debug)]
pub enum BookCommand {
    /// Prove a book (or go on with one) and compile it.
    Build(Box<BuildArgs>),
    /// Compile a book ledger into its book file.
    Compile(CompileArgs),
    /// What a book holds: its start, positions, and the values of the
    /// start's moves.
    Show(ShowArgs),
}

/// `mancala book build`.
#[derive(Args, Clone, Debug)]
pub struct BuildArgs {
    /// The start, kalah:M:N[:RULES].
    #[arg(value_parser = GameName::parse)]
    pub game: GameName,
    /// Turns from the start the book covers.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_BOOK_TURNS as i64))]
    pub turns: u32,
    /// The book ledger (default: books/kalah-M-N-RULES.jsonl).
    #[arg(long, value_name = "FILE", value_parser = super::render::parse_output_file)]
    pub ledger: Option<PathBuf>,
    /// The book file written (default: the ledger's name with .book).
    #[arg(long, value_name = "FILE", value_parser = super::render::parse_output_file)]
    pub out: Option<PathBuf>,
    /// First record the lines of this proof ledger of the same start and
    /// rules (what they prove counts).
    #[arg(long, value_name = "LEDGER")]
    pub from: Option<PathBuf>,
    /// Search nothing: record the --from lines and compile what the ledger
    /// proves (for books whose last turn costs hours a position).
    #[arg(long)]
    pub no_search: bool,
    #[command(flatten)]
    pub task: TaskArgs,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `mancala book compile`.
#[derive(Args, Clone, Debug)]
pub struct CompileArgs {
    /// The book ledger.
    pub ledger: PathBuf,
    /// The book file written (default: the ledger's name with .book).
    #[arg(long, value_name = "FILE", value_parser = super::render::parse_output_file)]
    pub out: Option<PathBuf>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `mancala book show`.
#[derive(Args, Clone, Debug)]
pub struct ShowArgs {
    /// A book file, or a start (kalah:M:N[:RULES]) whose book is compiled
    /// into the program.
    pub book: String,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Run `mancala book`.
pub fn run(args: BookArgs) -> Result<ExitCode> {
    match args.command {
        BookCommand::Build(a) => build(*a),
        BookCommand::Compile(a) => compile(a),
        BookCommand::Show(a) => show(a),
    }
}

/// The start and rules a game name gives.
fn start_of(game: &GameName) -> Result<(Position, KalahRules)> {
    let rules = match game.rules("default")? {
        Rules::Kalah(rules) => rules,
        _ => {
            return Err(Error::Unsupported(format!(
                "{}: opening books are for Kalah; give kalah:M:N[:RULES]",
                game.name
            )))
        }
    };
    match (game.pits, game.seeds) {
        (Some(m), Some(n)) => Ok((Position::start(m, n)?, rules)),
        _ => Err(Error::Unsupported(format!(
            "{}: give the start as kalah:M:N[:RULES], e.g. kalah:6:4",
            game.name
        ))),
    }
}

/// `books/kalah-M-N-RULES.jsonl`.
fn default_ledger(root: &Position, rules: KalahRules) -> PathBuf {
    let m = root.pits_per_side();
    let n = root.cells()[0];
    PathBuf::from(format!("books/kalah-{m}-{n}-{}.jsonl", rules.name()))
}

fn book_path(ledger: &Path, out: Option<&PathBuf>) -> PathBuf {
    out.cloned()
        .unwrap_or_else(|| ledger.with_extension("book"))
}

fn build(args: BuildArgs) -> Result<ExitCode> {
    let (root, rules) = start_of(&args.game)?;
    args.task.check()?;
    let path = args
        .ledger
        .clone()
        .unwrap_or_else(|| default_ledger(&root, rules));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        mancala_solver::files::create_dir(dir)?;
    }
    let mut ledger = Ledger::open_or_new_book(&path, &root, rules, args.turns)?;
    if let Some(from) = &args.from {
        let other = Ledger::read(from)?;
        if other.root() != root || other.rules() != rules {
            return Err(Error::WrongLedger {
                path: from.clone(),
                saved: format!(
                    "{} under the {} rules",
                    other.header.root, other.header.rules
                ),
                asked: format!("{root} under the {} rules", rules.name()),
            });
        }
        let lines: Vec<Entry> = other.entries.clone();
        let added = ledger.record(&path, lines)?;
        if !args.task.quiet {
            eprintln!(
                "{added} lines of {} recorded in {}",
                from.display(),
                path.display()
            );
        }
    }
    if args.no_search {
        let out = book_path(&path, args.out.as_ref());
        let book = Book::from_ledger(&ledger);
        mancala_solver::atomic::write(&out, &book.to_bytes(), "book")?;
        report(&book, &out, Some(&ledger.book_progress()), args.json);
        return Ok(ExitCode::SUCCESS);
    }
    let stop = super::stop_on_signals(&path)?;
    let (prepared, opts) = args.task.prepare(&root, rules, stop)?;
    let tables = prepared.tables();
    let quiet = args.task.quiet;
    // A line a second on a terminal, every half minute in a log.
    let every = if std::io::stderr().is_terminal() {
        1.0
    } else {
        30.0
    };
    let observer = opts.search.progress.clone();
    let mut shown = std::time::Instant::now();
    let mut on_progress = |p: &BookProgress| {
        if !quiet && shown.elapsed().as_secs_f64() >= every {
            shown = std::time::Instant::now();
            progress::end_status(&observer);
            eprintln!(
                "book: {} of {} positions of the last turn exact ({} of {} in all), {} lines, {:.0} s",
                p.frontier_exact, p.frontier, p.exact, p.positions, p.lines, p.seconds
            );
        }
    };
    let result = build_book(
        &mut ledger,
        &path,
        tables.as_deref(),
        &opts,
        &mut on_progress,
    );
    progress::end_status(&opts.search.progress);
    let done = match result {
        Ok(p) => p,
        Err(Error::Stopped(_)) => {
            if !args.task.quiet {
                eprintln!(
                    "stopped: the ledger {} keeps every finished position; run the same command to go on",
                    path.display()
                );
            }
            return Ok(ExitCode::from(130));
        }
        Err(e) => return Err(e),
    };
    let out = book_path(&path, args.out.as_ref());
    let book = Book::from_ledger(&ledger);
    mancala_solver::atomic::write(&out, &book.to_bytes(), "book")?;
    report(&book, &out, Some(&done), args.json);
    Ok(ExitCode::SUCCESS)
}

fn compile(args: CompileArgs) -> Result<ExitCode> {
    let ledger = Ledger::read(&args.ledger)?;
    if ledger.header.book_turns == 0 {
        return Err(Error::Unsupported(format!(
            "{} is a proof ledger, not a book ledger (it has no book turns): its exact positions \
             are the root's line only; start a book with `mancala book build --from {}`",
            args.ledger.display(),
            args.ledger.display()
        )));
    }
    let out = book_path(&args.ledger, args.out.as_ref());
    let book = Book::from_ledger(&ledger);
    mancala_solver::atomic::write(&out, &book.to_bytes(), "book")?;
    report(&book, &out, Some(&ledger.book_progress()), args.json);
    Ok(ExitCode::SUCCESS)
}

fn show(args: ShowArgs) -> Result<ExitCode> {
    let book = if Path::new(&args.book).exists() {
        let bytes =
            mancala_solver::files::read_limited(Path::new(&args.book), 1 << 30, "an opening book")?;
        Book::from_bytes(&bytes, &args.book)?
    } else {
        let game = GameName::parse(&args.book)
            .map_err(|e| Error::Unsupported(format!("{}: no such file, and {e}", args.book)))?;
        let (root, rules) = start_of(&game)?;
        Books::embedded()
            .books()
            .iter()
            .find(|b| b.root() == root && b.rules() == rules)
            .cloned()
            .ok_or_else(|| {
                Error::Unsupported(format!(
                    "no book of {root} under the {} rules is compiled into this program \
                     (`mancala book build` proves one)",
                    rules.name()
                ))
            })?
    };
    report(&book, Path::new(&args.book), None, args.json);
    Ok(ExitCode::SUCCESS)
}

/// Moves as `pit:value`, `pit:?` where the book does not hold the value.
fn shown_values(moves: &[(usize, Option<i32>)]) -> String {
    let shown: Vec<String> = moves
        .iter()
        .map(|(pit, v)| match v {
            Some(v) => format!("{pit}:{v:+}"),
            None => format!("{pit}:?"),
        })
        .collect();
    shown.join(" ")
}

/// Print what a book holds.
fn report(book: &Book, path: &Path, progress: Option<&BookProgress>, json: bool) {
    let root = book.root();
    let books = Books::new(vec![book.clone()]);
    let moves = mancala_solver::book::known_move_values(&books, &root, book.rules());
    let continuations = mancala_solver::book::known_continuations(&books, &root, book.rules());
    let (held, within) = book.coverage();
    if json {
        println!(
            "{}",
            json!({
                "book": path,
                "root": root.to_string(),
                "rules": book.rules().name(),
                "turns": book.turns(),
                "positions": book.len(),
                "within_turns": within,
                "held_within_turns": held,
                "complete": held == within,
                "value": book.value(&root),
                "moves": moves.iter().map(|&(pit, v)| json!({"pit": pit, "value": v})).collect::<Vec<_>>(),
                "continuations": continuations
                    .iter()
                    .map(|(after, pit, v)| json!({"after": after, "pit": pit, "value": v}))
                    .collect::<Vec<_>>(),
                "progress": progress,
            })
        );
        return;
    }
    println!(
        "book {} ({} rules, {} turn{}): {} positions",
        path.display(),
        book.rules().name(),
        book.turns(),
        if book.turns() == 1 { "" } else { "s" },
        book.len()
    );
    let turns = if book.turns() == 1 {
        "its turn".to_string()
    } else {
        format!("its {} turns", book.turns())
    };
    if held == within {
        println!("within {turns}: all {within} positions");
    } else {
        println!("within {turns}: {held} of {within} positions (the others not proven yet)");
    }
    match book.value(&root) {
        Some(v) => println!("start {root}: {v:+}"),
        None => println!("start {root}: not in the book"),
    }
    if moves.iter().any(|m| m.1.is_some()) {
        let missing =
            if moves.iter().any(|m| m.1.is_none()) || continuations.iter().any(|m| m.2.is_none()) {
                " (?: not in the book)"
            } else {
                ""
            };
        println!("moves {}{missing}", shown_values(&moves));
        for group in continuations.chunk_by(|a, b| a.0 == b.0) {
            let after: Vec<String> = group[0].0.iter().map(usize::to_string).collect();
            let pairs: Vec<(usize, Option<i32>)> = group.iter().map(|m| (m.1, m.2)).collect();
            println!(
                "moves after {} (the extra turn) {}",
                after.join(" then "),
                shown_values(&pairs)
            );
        }
    }
    if let Some(p) = progress {
        println!(
            "{} of {} positions within its turns exact ({} of {} of the last turn)",
            p.exact, p.positions, p.frontier_exact, p.frontier
        );
    }
}
