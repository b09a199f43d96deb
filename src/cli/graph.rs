//! `mancala graph kalah M N`: the full game graph of a small Kalah instance.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::progress;
use mancala_solver::error::{Error, Result};
use mancala_solver::kalah::graph::{self, GraphOptions, GraphReport, Terminals};
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::tablebase::{BuildSettings, OnDemand, TableSet, DEFAULT_ON_DEMAND};
use mancala_solver::tables::driver::default_memory_budget;

/// The games with a graph command.
#[derive(Clone, Copy, ValueEnum)]
pub enum GraphGame {
    /// Kalah(m, n) with stores.
    Kalah,
}

/// Arguments of `mancala graph`.
#[derive(Args)]
#[command(
    about = "Enumerate the full game graph of a small Kalah instance and value every position",
    long_about = "Enumerate every position reachable from the start of Kalah(M, N), value each one \
exactly from the endgame tables (the M-pit tables up to 2MN seeds, built into --db on first use), \
and print the number of positions, their share of all configurations, the branching factor, \
the Win/Loss/Draw shares for South and a table by layer g(p, q) (South has p seeds in its \
store, North q), layers ordered by p + q.\n\n\
Counting convention (the one that reproduces the published sizes; docs/kalah-graphs.md \
gives the evidence and the two published lines it does not reproduce): a node is a full \
board state, stores and side to move included. Every single move is an edge, so the \
positions inside an extra-turn chain are nodes. A position where one store holds more \
than half of the seeds (the winner is known) is a leaf: counted and valued, its moves \
not followed (--expand-decided follows them). A move that ends the game leads to a \
terminal node counted as the move left it: the seeds left in a row are not swept into \
the stores, and the side to move is the one the turn passes to (the mover again after a \
last seed in its store); --terminals swept|omitted counts terminal positions the other \
ways.\n\n\
Share of configurations: positions / (2 x C(2MN + 2M + 1, 2M + 1)), the number of ways to \
put the 2MN seeds into the 2M pits and 2 stores, times the two sides to move.\n\n\
W/L/D for South: the result of the game for South (more seeds in its store at the end, \
fewer, or equal) with perfect play from that position.\n\n\
Memory: the visited set and the frontiers are bitsets of one bit per configuration (3 bits \
per configuration in all); the command refuses before any work, tables included, when that \
is over --memory.",
    after_help = "Examples:\n  mancala graph kalah 3 2\n  mancala graph kalah 4 3 --json\n  \
mancala graph kalah 2 6 --csv > layers.csv\n  mancala graph kalah 3 3 --plot kalah33.svg"
)]
pub struct GraphArgs {
    /// The game.
    game: GraphGame,
    /// Pits per side (1..=6).
    pits: usize,
    /// Seeds per pit at the start.
    seeds: usize,
    #[command(flatten)]
    tables: super::TablesArg,
    /// Rule set: default, capture-needs-opposite or end-when-mover-empty.
    #[arg(long, default_value = "default")]
    rules: KalahRules,
    /// How positions that end the game are counted: as-played, swept or omitted.
    #[arg(long, default_value = "as-played")]
    terminals: Terminals,
    /// Follow the moves of decided positions too (a store holding more than
    /// half of the seeds), to the end of every game.
    #[arg(long)]
    expand_decided: bool,
    /// Do not build missing tables; fail instead.
    #[arg(long)]
    no_build: bool,
    /// Print the report as JSON on stdout.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the per-layer table as CSV on stdout.
    #[arg(long)]
    csv: bool,
    /// Also draw the W/L/D shares per layer into this SVG file.
    #[arg(long, value_name = "FILE.svg", value_parser = super::render::parse_output_file)]
    plot: Option<PathBuf>,
    /// Memory budget for the visited set and the frontiers (3 bits per
    /// configuration, checked before any work), e.g. 8G (default: 80% of RAM).
    #[arg(long, value_parser = super::render::parse_memory)]
    memory: Option<u64>,
    /// Stop with an error once the graph grows past this many positions
    /// (default: no limit; memory is checked up front against --memory).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_positions: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Open the tables for `k` seeds, building them when missing and small.
fn tables(args: &GraphArgs, k: usize) -> Result<TableSet<KalahRules>> {
    let m = args.pits;
    let policy = if args.no_build {
        OnDemand::Never
    } else {
        DEFAULT_ON_DEMAND
    };
    let settings = BuildSettings {
        progress: progress::observer(args.quiet),
        ..BuildSettings::default()
    };
    TableSet::open_or_build(&args.tables.db, args.rules, m, k, &policy, &settings).map_err(|err| {
        match err {
            Error::BuildTooLarge { .. } => Error::Unsupported(format!(
                "Kalah({m},{}) needs them: {}",
                args.seeds,
                super::render::error_message(&err)
            )),
            err => err,
        }
    })
}

/// Run `mancala graph`.
pub fn run(args: GraphArgs) -> Result<ExitCode> {
    let GraphGame::Kalah = args.game;
    graph::check_instance(args.pits, args.seeds)?;
    let memory_budget = args.memory.unwrap_or_else(default_memory_budget);
    graph::check_memory(args.pits, args.seeds, memory_budget)?;
    let tb = tables(&args, graph::seeds_needed(args.pits, args.seeds))?;
    let report = graph::graph(
        &GraphOptions {
            pits: args.pits,
            seeds: args.seeds,
            terminals: args.terminals,
            decided_leaves: !args.expand_decided,
            progress: progress::observer(args.quiet),
            memory_budget,
            max_positions: args.max_positions,
        },
        &tb,
    )?;
    if let Some(path) = &args.plot {
        // Atomically: a failed write (a full disk) leaves the old file.
        mancala_solver::atomic::write(path, super::svg::plot_svg(&report).as_bytes(), "plot.svg")?;
        eprintln!("plot written to {}", path.display());
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("json"));
    } else if args.csv {
        print!("{}", layers_csv(&report));
    } else {
        print_text(&report);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(r: &GraphReport) {
    let [w, l, d] = r.shares();
    println!(
        "Kalah({},{}) game graph ({} rules, terminal positions {}, decided positions {}):",
        r.pits,
        r.seeds,
        r.rules,
        r.terminals,
        if r.decided_leaves {
            "are leaves"
        } else {
            "expanded"
        }
    );
    println!(
        "positions: {} ({} terminal, {} decided leaves), {} moves, depth {}",
        r.positions, r.terminal_positions, r.decided_positions, r.moves, r.depth
    );
    println!(
        "share of all configurations: {:.3e} ({} of {})",
        r.share_of_configurations, r.positions, r.configurations
    );
    println!(
        "branching factor: {:.3} +- {:.3} (mean and standard deviation over the positions expanded)",
        r.branching_mean, r.branching_sd
    );
    println!(
        "for South: win {w:.1}% ({}), loss {l:.1}% ({}), draw {d:.1}% ({})",
        r.win, r.loss, r.draw
    );
    println!("value of the start for South: {:+}", r.start_value);
    println!("layers g(p, q) by p + q:");
    println!(
        "{:>4} {:>4} {:>10} {:>10} {:>10} {:>10}",
        "p", "q", "positions", "win", "loss", "draw"
    );
    for layer in &r.layers {
        println!(
            "{:>4} {:>4} {:>10} {:>10} {:>10} {:>10}",
            layer.p, layer.q, layer.positions, layer.win, layer.loss, layer.draw
        );
    }
    println!("({:.2} s)", r.seconds);
}

/// The per-layer table as CSV: a header line, then one line per layer.
fn layers_csv(report: &GraphReport) -> String {
    let mut out = String::from("p,q,positions,win,loss,draw\n");
    for l in &report.layers {
        out.push_str(&format!(
            "{},{},{},{},{},{}\n",
            l.p, l.q, l.positions, l.win, l.loss, l.draw
        ));
    }
    out
}
