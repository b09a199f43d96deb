//! The command-line interface: parses arguments, calls the library, prints
//! results to stdout (`--json` for machines) and progress to stderr. One
//! file per command; the games come from the library's registry
//! ([`mancala_solver::family`]), and commands that serve every game are written
//! once, generic over [`mancala_solver::game::Game`].

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use mancala_solver::error::Result;
use mancala_solver::family::Rules;
use mancala_solver::with_rules;

mod arena;
mod assignment;
mod build;
mod games_out;
mod grade;
mod graph;
mod play;
mod progress;
mod query;
mod render;
mod serve;
mod solve;
mod svg;
mod train;
mod train_plot;
mod tune;
mod verify;

#[derive(Parser)]
#[command(
    name = "mancala",
    version,
    about = "Rules engine, endgame tables, solver and agents for the mancala family: Kalah, Awari, Oware",
    long_about = "Rules engine, endgame tables, solver and agents for the mancala family: \
Kalah(m, n) under three rule sets, Awari and Oware.\n\n\
Positions are written from the side to move, counter-clockwise from its first \
pit: the mover's pits, the mover's store, the opponent's pits, the opponent's \
store. The start of Kalah(6,4) is \"4 4 4 4 4 4 0 4 4 4 4 4 4 0\"; an Awari board \
is its 2m pits, with the captured totals in brackets in the places of the stores \
when there are any (\"0 1 3 [20] 2 0 0 [22]\").\n\n\
Exit codes: 0 success, 1 bad data (missing or corrupt tables, I/O), 2 bad usage.",
    after_help = games_help()
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
        let spec = if rules.rules_name().is_some() {
            format!("{name}:M:N[:RULES]")
        } else {
            format!("{name}:M:N")
        };
        out.push_str(&format!(
            "  {spec:<20} M = {}..{} pits per side, N seeds per pit",
            pits.start(),
            pits.end()
        ));
        if rules.rules_name().is_some() {
            let names: Vec<&str> = mancala_solver::kalah::KalahRules::ALL
                .iter()
                .map(|r| r.name())
                .collect();
            out.push_str(&format!("; RULES: {}", names.join(", ")));
        }
        out.push('\n');
    }
    out.push_str(
        "\nShell completions: mancala completions bash|zsh|fish; manual page: mancala man",
    );
    out
}

/// The game and the table directory, shared by the table commands.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// The game: kalah, awari or oware.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(Rules::game_names()))]
    pub game: String,
    /// Directory of the tables.
    #[arg(long, default_value = "db")]
    pub db: PathBuf,
    /// Kalah rule set: default, capture-needs-opposite or end-when-mover-empty
    /// (Awari and Oware have one rule set each).
    #[arg(long, default_value = "default")]
    pub rules: String,
}

impl GameArgs {
    /// The rule set named by the game and `--rules`.
    pub fn rules(&self) -> Result<Rules> {
        Rules::from_name(&self.game, Some(&self.rules))
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

/// Run the command line; errors are printed as one line on stderr.
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

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve(_)) {
        restore_sigpipe();
    }
    let result = match cli.command {
        Command::Build(args) => build::run(args),
        Command::Query(args) => query::run(args),
        Command::Play(args) => play::run(args),
        Command::Match(args) => arena::run_match(args),
        Command::Tournament(args) => arena::run_tournament(args),
        Command::Verify(args) => verify::run(args),
        Command::Solve(args) => solve::run(args),
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
            if e.is_usage() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
