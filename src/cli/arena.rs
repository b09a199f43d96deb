//! `mancala match`, `mancala tournament` and `mancala play --vs`: agents
//! against each other and against a person.

use super::games_out::GamesOut;
use super::{progress, render};
use mancala_solver::side::side_index;
use mancala_solver::side::Side;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use mancala_solver::error::{Error, Result};
use mancala_solver::play::agents::AgentSpec;
use mancala_solver::play::arena::{self, GameSpec, MatchOptions, DEFAULT_MAX_PLIES};
use mancala_solver::play::report::{MatchReport, RepetitionScore, TimeReport};
use mancala_solver::play::state::State;
use mancala_solver::play::tournament::{self, TournamentOptions};
use mancala_solver::tablebase::SharedTables;
use mancala_solver::with_rules;

/// The agents, one a line, for the help of the commands that take them
/// (from the library's registry, [`mancala_solver::play::agents::AGENTS`]).
pub fn agents_help() -> String {
    format!(
        "Agents (`perfect` reads the game's tables from --db; `a3c:FILE` takes weights from \
         `mancala train a3c`, docs/a3c.md):\n{}",
        mancala_solver::play::agents::agents_list()
    )
}

/// Options shared by `match` and `tournament`.
#[derive(Args, Clone, Debug)]
pub struct ArenaArgs {
    /// The game: kalah:M:N (M pits per side, N seeds per pit, optionally :RULES),
    /// awari:M:N, oware:M:N or awale:M:N.
    #[arg(long, default_value = "kalah:6:4")]
    pub game: String,
    /// Awari and Oware: a game ends after this many single moves (and when a position
    /// repeats); the seeds left are split evenly. Awale: a game stopped here is a draw
    /// (the study's 500-move cap). Kalah games always end by the rules.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: usize,
    /// Games whose positions can repeat: what the seeds left on the board score when a
    /// position repeats. split: shared evenly (the tables' convention); own-side: each
    /// player takes the seeds on their side (the five-game study's Awari).
    #[arg(long, default_value = "split", value_parser = parse_repetition)]
    pub repetition: RepetitionScore,
    /// Games per pairing (the agents alternate sides).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Seed of the match; every game's randomness derives from it and the game number.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random single moves of each side at the start of every game (default: 10 when
    /// both agents are deterministic, as in the published studies, else 0).
    #[arg(long)]
    pub random_opening: Option<usize>,
    /// Worker threads (0 or omitted: all cores; at most 4 per core).
    #[arg(long, value_parser = render::parse_threads)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub tables: super::TablesArg,
    /// Print the figures as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `mancala match A B`.
#[derive(Args, Clone, Debug)]
#[command(after_help = format!("{}\n\nExamples:\n  mancala match greedy random --games 200\n  \
mancala match alphabeta:8 greedy --game kalah:6:4 --games 200 --json\n  \
mancala match perfect:500ms mcts:2000 --games 20 --games-out games.jsonl   # long: minutes\n  \
mancala match greedy random --game awari:6:4 --games 200 --max-plies 300", agents_help()))]
pub struct MatchArgs {
    /// Agent A.
    pub a: String,
    /// Agent B.
    pub b: String,
    #[command(flatten)]
    pub arena: ArenaArgs,
    /// Write one JSON record per game (one per line) to this file: moves in the
    /// published notation, result, times, and the `mancala play` command that replays it
    /// (zstd-compressed when the name ends in .zst; read it with `zstd -dc FILE`).
    #[arg(long, value_parser = render::parse_output_file)]
    pub games_out: Option<PathBuf>,
}

/// `mancala tournament AGENT...`.
#[derive(Args, Clone, Debug)]
#[command(after_help = format!("{}\n\nExamples:\n  mancala tournament random greedy alphabeta:4 mcts:500 --games 50\n  \
mancala tournament random greedy heuristic:4 --game oware:6:4 --games 50", agents_help()))]
pub struct TournamentArgs {
    /// The agents (two or more).
    #[arg(required = true, num_args = 2..)]
    pub agents: Vec<String>,
    #[command(flatten)]
    pub arena: ArenaArgs,
    /// Write one JSON record per game of every pairing (one per line) to
    /// this file, as `match --games-out` does (zstd-compressed when the
    /// name ends in .zst).
    #[arg(long, value_parser = render::parse_output_file)]
    pub games_out: Option<PathBuf>,
}

/// A side of the board, for the person playing.
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum YourSide {
    /// The first player.
    #[default]
    South,
    /// The second player.
    North,
}

/// The flags of `mancala play` that start a game against an agent.
#[derive(Args, Clone, Debug, Default)]
pub struct VsArgs {
    /// Play against this agent in the terminal (e.g. perfect, greedy,
    /// mcts:2s; the agents are listed below).
    #[arg(long)]
    pub vs: Option<String>,
    /// Your side when playing against an agent.
    #[arg(long, value_enum, default_value = "south", requires = "vs")]
    pub you: YourSide,
    /// Seed of the agent's random choices.
    #[arg(long, default_value_t = 1, requires = "vs")]
    pub vs_seed: u64,
    /// Directory of the endgame tables for the perfect agent (`--db`, as
    /// in every other command).
    #[arg(long, visible_alias = "db", default_value = "db", requires = "vs")]
    pub vs_db: PathBuf,
}

/// The tables the perfect agent reads in games from `start`, when one of
/// `agents` is perfect; a note on stderr when it will search alone. Agents
/// that cannot play from `start` are refused first.
fn load_tables(agents: &[AgentSpec], db: &Path, start: &State) -> Result<Option<SharedTables>> {
    for agent in agents {
        agent.check_start(start)?;
    }
    let (pits, rules) = (start.pits_per_side(), start.rules());
    if !agents.iter().any(|a| a.uses_tables()) {
        return Ok(None);
    }
    let tables = SharedTables::open_available(rules, db, pits)?;
    if tables.is_none() {
        let has_tables = with_rules!(rules, g => mancala_solver::tablebase::TableGame::table_pits_range(g).contains(&pits));
        if has_tables {
            let label = mancala_solver::tables::TableSpec {
                game: rules,
                pits,
                seeds: 16,
            }
            .label();
            eprintln!(
                "note: no {pits}-pit {rules} tables in {}: the perfect agent plays by search alone \
                 (build tables with `{}`)",
                db.display(),
                render::build_command(&label, db)
            );
        }
    }
    Ok(tables)
}

fn parse_repetition(text: &str) -> std::result::Result<RepetitionScore, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

fn check_counts(args: &ArenaArgs) -> Result<()> {
    if args.games == 0 {
        return Err(Error::Unsupported("--games must be at least 1".into()));
    }
    if args.max_plies == 0 {
        return Err(Error::Unsupported("--max-plies must be at least 1".into()));
    }
    Ok(())
}

fn ms(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.2} µs", s * 1e6)
    }
}

fn time_line(name: &str, t: &TimeReport) -> String {
    format!(
        "  {name}: mean {} max {} over {} moves",
        ms(t.mean_seconds),
        ms(t.max_seconds),
        t.moves
    )
}

fn print_match(r: &MatchReport) {
    println!(
        "{}: A = {} v B = {}, {} games, seed {}, random opening {} moves per side",
        r.game, r.a, r.b, r.games, r.seed, r.random_opening
    );
    if let Some(mode) = r.perfect_mode {
        println!("perfect agent: {mode}");
    }
    if let Some(cap) = r.max_plies {
        println!(
            "games ended by a repeated position: {}, at the {cap}-ply cap: {} (seeds left split evenly)",
            r.ended_by_repetition, r.ended_by_ply_cap
        );
    }
    if r.ended_in_opening > 0 {
        println!(
            "warning: {} of {} games were over before either agent chose a move (the random \
             opening of {} moves a side played them out): lower --random-opening",
            r.ended_in_opening, r.games, r.random_opening
        );
    }
    for (side, s) in [("South", &r.a_as_south), ("North", &r.a_as_north)] {
        println!(
            "A as {side}: {} wins, {} draws, {} losses",
            s.wins, s.draws, s.losses
        );
    }
    println!(
        "total: A {} wins, {} draws, B {} wins; average final score difference (A - B) {:+.2}",
        r.a_wins, r.draws, r.b_wins, r.average_difference
    );
    println!(
        "A's score {:.3} (95% CI {:.3}..{:.3}); p-value of \"A is stronger than B\" {:.3e}: {}",
        r.a_score,
        r.a_score_ci95[0],
        r.a_score_ci95[1],
        r.p_value,
        if r.a_stronger {
            "A is stronger (p < 0.05)"
        } else {
            "not significant"
        }
    );
    println!("time per move:");
    println!("{}", time_line(&format!("A {}", r.a), &r.a_time));
    println!("{}", time_line(&format!("B {}", r.b), &r.b_time));
    println!("wall time {:.2} s", r.seconds);
}

/// Run `mancala match`.
pub fn run_match(args: MatchArgs) -> Result<ExitCode> {
    check_counts(&args.arena)?;
    let game: GameSpec = args.arena.game.parse()?;
    let a: AgentSpec = args.a.parse()?;
    let b: AgentSpec = args.b.parse()?;
    let tables = load_tables(
        &[a.clone(), b.clone()],
        &args.arena.tables.db,
        &game.start(),
    )?;
    let opts = MatchOptions {
        game,
        a,
        b,
        games: args.arena.games,
        seed: args.arena.seed,
        random_opening: args.arena.random_opening,
        threads: args.arena.threads,
        progress: progress::observer(false),
        tables,
        max_plies: args.arena.max_plies,
        repetition: args.arena.repetition,
    };
    // Open the games file before playing, so a bad path fails at once;
    // the records go to it as the games finish.
    let mut out = args
        .games_out
        .as_deref()
        .map(GamesOut::create)
        .transpose()?;
    let report = arena::run_match_each(&opts, &mut |r| match &mut out {
        Some(out) => out.write(&opts.game, &r),
        None => Ok(()),
    })?;
    if let Some(out) = out {
        out.finish()?;
    }
    if args.arena.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("json"));
    } else {
        print_match(&report);
    }
    Ok(ExitCode::SUCCESS)
}

/// Run `mancala tournament`.
pub fn run_tournament(args: TournamentArgs) -> Result<ExitCode> {
    check_counts(&args.arena)?;
    let game: GameSpec = args.arena.game.parse()?;
    let agents = args
        .agents
        .iter()
        .map(|a| a.parse())
        .collect::<Result<Vec<AgentSpec>>>()?;
    let tables = load_tables(&agents, &args.arena.tables.db, &game.start())?;
    let opts = TournamentOptions {
        game,
        agents,
        games: args.arena.games,
        seed: args.arena.seed,
        random_opening: args.arena.random_opening,
        threads: args.arena.threads,
        progress: progress::observer(false),
        tables,
        max_plies: args.arena.max_plies,
        repetition: args.arena.repetition,
    };
    let mut out = args
        .games_out
        .as_deref()
        .map(GamesOut::create)
        .transpose()?;
    let r = tournament::run_tournament_each(&opts, &mut |r| match &mut out {
        Some(out) => out.write(&opts.game, &r),
        None => Ok(()),
    })?;
    if let Some(out) = out {
        out.finish()?;
    }
    if args.arena.json {
        println!("{}", serde_json::to_string_pretty(&r).expect("json"));
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: {} agents, {} games per pairing, seed {}",
        r.game,
        r.agents.len(),
        r.games,
        args.arena.seed
    );
    if let Some(mode) = r.matches.iter().find_map(|m| m.perfect_mode) {
        println!("perfect agent: {mode}");
    }
    let in_opening: u64 = r.matches.iter().map(|m| m.ended_in_opening).sum();
    if in_opening > 0 {
        let played: u64 = r.matches.iter().map(|m| m.games).sum();
        println!(
            "warning: {in_opening} of {played} games were over before either agent chose a move \
             (the random opening played them out): lower --random-opening"
        );
    }
    println!("score of the row agent against the column agent (win 1, draw 1/2); * marks a row significantly stronger (one-sided binomial, p < 0.05)");
    let n = r.agents.len();
    print!("{:<4}", "");
    for j in 0..n {
        print!("{:>9}", format!("[{j}]"));
    }
    println!();
    for i in 0..n {
        print!("{:<4}", format!("[{i}]"));
        for j in 0..n {
            match r.score[i][j] {
                None => print!("{:>9}", "-"),
                Some(s) => print!(
                    "{:>9}",
                    format!("{:.3}{}", s, if r.stronger[i][j] { "*" } else { " " })
                ),
            }
        }
        println!("  {}", r.agents[i]);
    }
    println!(
        "relation of the row agent to the column agent: > stronger, < weaker, \
         ~ not separated by {} games",
        r.games
    );
    print!("{:<4}", "");
    for j in 0..n {
        print!("{:>4}", format!("[{j}]"));
    }
    println!();
    for i in 0..n {
        print!("{:<4}", format!("[{i}]"));
        for j in 0..n {
            print!("{:>4}", r.relation[i][j].symbol());
        }
        println!("  {}", r.agents[i]);
    }
    if let Some(order) = &r.order {
        let names: Vec<String> = order.iter().map(|&i| r.agents[i].clone()).collect();
        println!(
            "order (every pair separated, strongest first): {}",
            names.join(" > ")
        );
    } else if let Some(cycle) = &r.cycle {
        let mut names: Vec<String> = cycle.iter().map(|&i| r.agents[i].clone()).collect();
        names.push(r.agents[cycle[0]].clone());
        println!(
            "no order: the \"stronger\" relation has a cycle: {}",
            names.join(" > ")
        );
    } else {
        let pairs: Vec<String> = r
            .undecided
            .iter()
            .map(|&[i, j]| {
                format!(
                    "{} ~ {} ({:.3})",
                    r.agents[i],
                    r.agents[j],
                    r.score[i][j].unwrap_or(0.5)
                )
            })
            .collect();
        println!(
            "no order: not separated at this sample size: {}",
            pairs.join(", ")
        );
    }
    println!("time per move:");
    for (i, t) in r.times.iter().enumerate() {
        println!("{}", time_line(&r.agents[i], t));
    }
    Ok(ExitCode::SUCCESS)
}

/// The board from the person's side: their row at the bottom, the stores
/// (Awari and Oware: the seeds captured) at the ends.
fn draw(state: &State, you: Side) -> String {
    let scores = state.scores();
    let my_store = scores[side_index(you)];
    let their_store = scores[1 - side_index(you)];
    let (mine, theirs) = if state.to_move() == you {
        (state.mover_pits(), state.opponent_pits())
    } else {
        (state.opponent_pits(), state.mover_pits())
    };
    // Columns widen for counts of more than three digits (wide Kalah).
    let w = mine
        .iter()
        .chain(theirs.iter())
        .chain(scores)
        .map(|c| c.to_string().len())
        .max()
        .unwrap_or(0)
        .max(3);
    let row = |cells: &mut dyn Iterator<Item = String>| cells.collect::<Vec<_>>().join(" ");
    let m = mine.len();
    let mut out = String::new();
    // Each player numbers its pits 0..m-1 from its own left, so the
    // agent's numbers run right to left on this screen: both rows get
    // theirs, and the agent's moves can be found on the board.
    out.push_str(&format!(
        "       {}  (agent's pit numbers)\n",
        row(&mut (0..m).rev().map(|i| format!("{i:>w$}")))
    ));
    out.push_str(&format!(
        "       {}  (agent, {})\n",
        row(&mut theirs.iter().rev().map(|c| format!("{c:>w$}"))),
        you.other()
    ));
    out.push_str(&format!(
        "  {their_store:>w$} {:gap$} {my_store:<w$}\n",
        "",
        gap = (w + 1) * m - 1
    ));
    out.push_str(&format!(
        "       {}  (you, {you})\n",
        row(&mut mine.iter().map(|c| format!("{c:>w$}")))
    ));
    out.push_str(&format!(
        "       {}  (your pit numbers)\n",
        row(&mut (0..m).map(|i| format!("{i:>w$}")))
    ));
    out
}

/// Run `mancala play GAME ... --vs AGENT`: a person against an agent in the
/// terminal, reading pits from standard input. In games where positions
/// repeat, a position that comes back with the same side to move ends the
/// game, the seeds left split evenly; `q` quits.
pub fn play_vs(mut state: State, vs: &VsArgs) -> Result<ExitCode> {
    let spec: AgentSpec = vs.vs.as_deref().unwrap_or_default().parse()?;
    let rules = state.rules();
    let tables = load_tables(std::slice::from_ref(&spec), &vs.vs_db, &state)?;
    if let Some(t) = &tables {
        println!(
            "{spec} reads the {rules} tables up to {} seeds from {}",
            t.max_seeds(),
            vs.vs_db.display()
        );
    }
    let mut agent = spec.build(rules, tables, vs.vs_seed)?;
    let you = match vs.you {
        YourSide::South => Side::South,
        YourSide::North => Side::North,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut stdout = std::io::stdout();
    play_loop(&mut state, you, agent.as_mut(), &mut input, &mut stdout).map_err(|e| match e {
        LoopError::Game(e) => e,
        LoopError::Io(e) => Error::io("<terminal>", e),
    })
}

enum LoopError {
    Game(Error),
    Io(std::io::Error),
}

impl From<std::io::Error> for LoopError {
    fn from(e: std::io::Error) -> LoopError {
        LoopError::Io(e)
    }
}

fn play_loop(
    pos: &mut State,
    you: Side,
    agent: &mut dyn mancala_solver::play::agents::Agent,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> std::result::Result<ExitCode, LoopError> {
    let m = pos.pits_per_side();
    writeln!(
        out,
        "you play {you}; type a pit number 0..{} (0 is your leftmost pit), or q to quit",
        m - 1
    )?;
    // Positions reached, for the repetition rule of Awari and Oware (the
    // same board with the same side to move; then the captured totals are
    // the same too).
    let awari = pos.rules().ends_on_repetition();
    let mut seen = std::collections::HashSet::from([pos.clone()]);
    let mut repeated = false;
    loop {
        write!(out, "\n{}", draw(pos, you))?;
        if repeated {
            writeln!(
                out,
                "the position repeats (same board, same side to move): the seeds left are split evenly"
            )?;
        }
        if pos.is_over() || repeated {
            let s = pos.scores();
            let (mine, theirs) = if you == Side::South {
                (s[0], s[1])
            } else {
                (s[1], s[0])
            };
            let verdict = match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => "you win",
                std::cmp::Ordering::Less => "you lose",
                std::cmp::Ordering::Equal => "draw",
            };
            writeln!(out, "game over: {verdict}, {mine} to {theirs}")?;
            return Ok(ExitCode::SUCCESS);
        }
        if pos.to_move() == you {
            write!(out, "your move: ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out, "\nend of input: game abandoned")?;
                return Ok(ExitCode::SUCCESS);
            }
            let text = line.trim();
            if text.eq_ignore_ascii_case("q") || text.eq_ignore_ascii_case("quit") {
                writeln!(out, "game abandoned")?;
                return Ok(ExitCode::SUCCESS);
            }
            let pit: usize = match text.parse() {
                Ok(p) => p,
                Err(_) => {
                    writeln!(
                        out,
                        "\"{text}\" is not a pit number: type one of 0..{} (or q to quit)",
                        m - 1
                    )?;
                    continue;
                }
            };
            match pos.play(pit) {
                Ok(mv) => {
                    repeated = awari && !seen.insert(pos.clone());
                    if mv.extra_turn {
                        writeln!(out, "you play {pit}: extra turn")?;
                    } else {
                        writeln!(out, "you play {pit}")?;
                    }
                }
                Err(reason) => writeln!(out, "refused: {reason}; try again")?,
            }
        } else {
            let choice = agent.choose(pos);
            let before = pos.clone();
            let mv = pos.play(choice.pit).map_err(|reason| {
                LoopError::Game(Error::IllegalMove {
                    agent: agent.name(),
                    position: before.to_string(),
                    side: before.to_move(),
                    pit: choice.pit,
                    reason,
                })
            })?;
            repeated = awari && !seen.insert(pos.clone());
            let value = match choice.value {
                Some(v) if v.fract() == 0.0 => {
                    format!(" (value {v:+} for the agent: {})", choice.value_kind)
                }
                Some(v) => format!(" (value {v:.3} for the agent: {})", choice.value_kind),
                None if !choice.value_kind.is_empty() => format!(" ({})", choice.value_kind),
                None => String::new(),
            };
            writeln!(
                out,
                "{} plays {}{}{}",
                agent.name(),
                choice.pit,
                if mv.extra_turn { ", extra turn" } else { "" },
                value
            )?;
        }
    }
}
