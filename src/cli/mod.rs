//! The command-line interface: parses arguments, calls the library, prints
//! results to stdout (`--json` for machines) and progress to stderr. One
//! file per command; the games come from the library's registry
//! ([`mancala_solver::family`]), and commands that serve every game are written
//! once, generic over [`mancala_solver::game::Game`].

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use mancala_solver::error::{Error, Result};
use mancala_solver::family::Rules;
use mancala_solver::with_rules;

mod arena;
mod assignment;
mod book;
mod build;
mod games_out;
mod grade;
mod graph;
mod play;
mod progress;
mod prove;
mod query;
mod render;
mod serve;
mod solve;
mod solve_tables;
mod svg;
mod tasks;
mod train;
mod train_plot;
mod tune;
mod verify;

#[derive(Parser)]
#[command(
    name = "mancala",
    version,
    about = about(),
    long_about = format!("{}.\n\n\
Positions are written from the side to move, counter-clockwise from its first \
pit: the mover's pits, the mover's store, the opponent's pits, the opponent's \
store. The start of Kalah(6,4) is \"4 4 4 4 4 4 0 4 4 4 4 4 4 0\"; an Awari board \
is its 2m pits, with the captured totals in brackets in the places of the stores \
when there are any (\"0 1 3 [20] 2 0 0 [22]\").\n\n\
Exit codes: 0 success, 1 bad data (missing or corrupt tables, I/O), 2 bad usage.", about()),
    after_help = games_help()
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The one-line description, naming every game of the registry
/// ([`Rules::ALL`]) with how many rule sets it has.
fn about() -> String {
    let games: Vec<String> = Rules::game_names()
        .into_iter()
        .map(|name| {
            let title = name
                .split('-')
                .map(|w| w[..1].to_ascii_uppercase() + &w[1..])
                .collect::<Vec<_>>()
                .join(" ");
            match Rules::rule_names(name).len() {
                0 | 1 => title,
                n => format!("{title} ({n} rule sets)"),
            }
        })
        .collect();
    let (last, rest) = games.split_last().expect("the registry has games");
    format!(
        "Rules engine, endgame tables, solver and agents for the mancala family: {} and {last}",
        rest.join(", ")
    )
}

/// Every game the tool plays, for the top-level help, from the registry
/// ([`Rules::ALL`]): a new game appears here by itself.
fn games_help() -> String {
    let mut out = String::from("Games (as --game in match, tournament, play --vs):\n");
    for name in Rules::game_names() {
        let Ok(rules) = Rules::from_name(name, None) else {
            continue;
        };
        let pits = with_rules!(rules, g => mancala_solver::game::Game::pits_range(g));
        let names = Rules::rule_names(name);
        let spec = if names.is_empty() {
            format!("{name}:M:N")
        } else {
            format!("{name}:M:N[:RULES]")
        };
        out.push_str(&format!(
            "  {spec:<20} M = {}..{} pits per side, N seeds per pit",
            pits.start(),
            pits.end()
        ));
        if !names.is_empty() {
            out.push_str(&format!("; RULES: {}", names.join(", ")));
        }
        out.push('\n');
    }
    out.push_str(
        "\nShell completions: mancala completions bash|zsh|fish; manual page: mancala man",
    );
    out
}

/// The table directory: one argument, shared by every command that reads
/// or builds endgame tables.
#[derive(Args, Clone, Debug)]
pub struct TablesArg {
    /// Directory of the endgame tables (built there on first use where the
    /// command builds them).
    #[arg(long, default_value = "db")]
    pub db: PathBuf,
}

/// A game as every command names it: the engine's [`GameName`] (its name,
/// optionally followed by the board and the rule set: `kalah:6:4`,
/// `kalah:6:4:capture-needs-opposite`, `awari:6:4`, `kalah:6` (pits only),
/// `kalah:capture-needs-opposite`), one grammar and one message with the
/// library's `GameSpec`.
pub use mancala_solver::GameName;

/// What the command line adds to a [`GameName`]: the options that may
/// give its parts apart (`--rules`, `--pits`, ...), which must agree.
pub trait GameNameFlags {
    /// The rule set: the one the name gives, or `--rules` (`flag`); both
    /// given must agree.
    fn rules(&self, flag: &str) -> Result<Rules>;

    /// A count the name and an option both may give (`what`: the option,
    /// for the message); they must agree.
    fn with(given: Option<usize>, flag: Option<usize>, what: &str) -> Result<Option<usize>>;
}

impl GameNameFlags for GameName {
    fn rules(&self, flag: &str) -> Result<Rules> {
        match &self.rules {
            Some(r) if flag != "default" && flag != r => Err(Error::Conflict(format!(
                "the game names the rules {r} and --rules {flag}: give one"
            ))),
            Some(r) => Rules::from_name(&self.name, Some(r)),
            None => Rules::from_name(&self.name, Some(flag)),
        }
    }

    fn with(given: Option<usize>, flag: Option<usize>, what: &str) -> Result<Option<usize>> {
        match (given, flag) {
            (Some(a), Some(b)) if a != b => Err(Error::Conflict(format!(
                "the game says {a} and {what} {b}: give one"
            ))),
            (a, b) => Ok(a.or(b)),
        }
    }
}

/// The board as `solve` and `query` take it after the game's name: `M N`
/// (the start of the game with M pits a side and N seeds a pit) or a
/// position from the side to move, quoted as one argument or written as
/// separate words. The one parser of both commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardWords {
    /// `M N`: the start of the game.
    Start {
        /// Pits per side.
        pits: usize,
        /// Seeds per pit.
        seeds: usize,
    },
    /// A position's text.
    Position(String),
}

impl BoardWords {
    /// The `words` after `game`'s name in `command` (for the messages).
    pub fn parse(command: &str, game: &str, words: &[String]) -> Result<BoardWords> {
        let forms = format!(
            "`{command} {game} M N` (the start with M pits a side and N seeds a pit) or \
             `{command} {game} \"<position>\"` (from the side to move)"
        );
        let count = |t: &str| t.trim().parse::<usize>().ok();
        match words {
            [] => Err(Error::Unsupported(format!("give the board: {forms}"))),
            [one] => match count(one) {
                Some(m) => Err(Error::Unsupported(format!(
                    "`{command} {game} {m}` gives the pits per side but not the seeds per pit: \
                     write `{command} {game} {m} N`, e.g. `{command} {game} {m} 4`, or \
                     `{command} {game} \"<position>\"` (from the side to move)"
                ))),
                None => Ok(BoardWords::Position(one.clone())),
            },
            [m, n] => {
                let num = |t: &str, what: &str| {
                    count(t).ok_or_else(|| {
                        Error::Unsupported(format!(
                            "{what} \"{}\" is not a whole number: write {forms}",
                            mancala_solver::error::clip(t)
                        ))
                    })
                };
                Ok(BoardWords::Start {
                    pits: num(m, "pits per side")?,
                    seeds: num(n, "seeds per pit")?,
                })
            }
            // A position written as words (no position has two numbers).
            _ => Ok(BoardWords::Position(words.join(" "))),
        }
    }

    /// The position it names in `game`.
    pub fn position<G: mancala_solver::game::Game>(&self, game: G) -> Result<G::Position> {
        match self {
            BoardWords::Start { pits, seeds } => game.start(*pits, *seeds),
            BoardWords::Position(text) => game.parse(text),
        }
    }
}

/// The game and the table directory, shared by the table commands.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// The game: kalah, awari, oware, awale, vai-lung-thlan or ohvalhu, or
    /// a full name such as kalah:6:4:capture-needs-opposite (its pits
    /// stand for --pits, its rules for --rules).
    #[arg(value_parser = GameName::parse)]
    pub game: GameName,
    #[command(flatten)]
    pub tables: TablesArg,
    /// Kalah rule set: default, capture-needs-opposite or end-when-mover-empty
    /// (the other games have one rule set each).
    #[arg(long, default_value = "default")]
    pub rules: String,
}

impl GameArgs {
    /// The rule set named by the game and `--rules`.
    pub fn rules(&self) -> Result<Rules> {
        self.game.rules(&self.rules)
    }

    /// Pits per side, from the game's name or `--pits`.
    pub fn pits(&self, flag: Option<usize>) -> Result<usize> {
        GameName::with(self.game.pits, flag, "--pits")?.ok_or_else(|| {
            Error::Unsupported(format!(
                "give the pits per side: --pits M, or {}:M",
                self.game.name
            ))
        })
    }
}

#[derive(Subcommand)]
enum Command {
    /// Build the endgame tables for 1..=K seeds.
    Build(build::BuildArgs),
    /// The value of a position and of each of its moves, from the tables.
    Query(query::QueryArgs),
    /// Apply a line of moves and print the position reached (or play an agent).
    Play(play::PlayArgs),
    /// Play a match between two agents and report honest statistics.
    Match(arena::MatchArgs),
    /// Play every pair of agents and print the cross table.
    Tournament(arena::TournamentArgs),
    /// Re-derive table entries from their children and report mismatches.
    Verify(verify::VerifyArgs),
    /// Solve a game or a position exactly: value, best move, principal variation.
    Solve(solve::SolveArgs),
    /// Prove a Kalah value as tasks recorded in a ledger that outlives any
    /// machine; status, audit, and tasks for a scheduler.
    Prove(prove::ProveArgs),
    /// Opening books: prove the exact value of every position of a Kalah
    /// start's first turns, compile them, show what a book holds.
    Book(book::BookArgs),
    Graph(graph::GraphArgs),
    /// Grade an agent against perfect play: share of perfect moves, value lost per move, by phase.
    Grade(grade::GradeArgs),
    /// Tune an agent's weights with the genetic algorithm of the Kalah agents study.
    Tune(tune::TuneArgs),
    /// Serve the HTTP oracle (JSON API) and the analysis board in the browser.
    Serve(serve::ServeArgs),
    /// The course assignment's program: read its input.txt, write
    /// next_state.txt and traverse_log.txt (greedy, minimax, alpha-beta,
    /// competition on a 2 x N Kalah board).
    Assignment(assignment::AssignmentArgs),
    /// Train the A3C agent by self-play, or plot a training curve.
    Train(train::TrainArgs),
    /// Print a shell completion script, e.g. `mancala completions bash >
    /// ~/.local/share/bash-completion/completions/mancala`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), e.g. `mancala man > mancala.1`.
    Man,
}

/// A stop flag for long work (a solve with a checkpoint, a proof's task):
/// the first SIGINT or SIGTERM raises it, so the work ends cleanly and
/// saves what it did; a second ends the process at once (exit code 130).
/// `path` is what an error installing the handlers names.
fn stop_on_signals(
    path: &std::path::Path,
) -> Result<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let install = || -> std::io::Result<()> {
            signal_hook::flag::register_conditional_shutdown(sig, 130, stop.clone())?;
            signal_hook::flag::register(sig, stop.clone())?;
            Ok(())
        };
        install().map_err(|e| Error::io(path, e))?;
    }
    Ok(stop)
}

/// Let a closed standard output end the process quietly, as it does other
/// Unix tools (`mancala solve ... | head`), instead of a panic on the
/// failed print: Rust ignores SIGPIPE by default. Not for the server,
/// whose closed connections must stay errors.
fn restore_sigpipe() {
    #[cfg(target_os = "linux")]
    // SAFETY: resetting a signal's disposition to the default before any
    // thread is started has no memory effects.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Let a write past the file-size limit (`ulimit -f`) fail as an error
/// instead of killing the process with SIGXFSZ: the atomic writers then
/// remove their temporary file and the error says what happened (killed,
/// a run left `.NAME.tmp-PID` behind and said nothing).
fn ignore_sigxfsz() {
    #[cfg(target_os = "linux")]
    // SAFETY: ignoring a signal before any thread is started has no memory
    // effects.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Run the command line; errors are printed as one line on stderr.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve(_)) {
        restore_sigpipe();
    }
    ignore_sigxfsz();
    let result = match cli.command {
        Command::Build(args) => build::run(args),
        Command::Query(args) => query::run(args),
        Command::Play(args) => play::run(args),
        Command::Match(args) => arena::run_match(args),
        Command::Tournament(args) => arena::run_tournament(args),
        Command::Verify(args) => verify::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Prove(args) => prove::run(args),
        Command::Book(args) => book::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Assignment(args) => assignment::run(args),
        Command::Train(args) => train::run(args),
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "mancala",
                &mut std::io::stdout(),
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => clap_mangen::Man::new(Cli::command())
            .render(&mut std::io::stdout())
            .map(|()| ExitCode::SUCCESS)
            .map_err(|e| mancala_solver::error::Error::io("<stdout>", e)),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // No panic when standard error is a closed pipe (the server
            // ignores SIGPIPE).
            let _ = writeln!(std::io::stderr(), "error: {}", render::error_message(&e));
            ExitCode::from(render::exit_code(&e))
        }
    }
}
