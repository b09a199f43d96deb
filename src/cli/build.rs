//! `mancala build GAME --pits M --max-seeds K`: the tables of any game.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;

use mancala_solver::error::{Error, Result};
use mancala_solver::tablebase::build::{
    assemble, build, build_group, check_build, plan_tasks, BuildOptions, TableTasks,
};
use mancala_solver::tablebase::TableGame;
use mancala_solver::tables::driver::{default_memory_budget, BuildReport};
use mancala_solver::tables::index::MAX_INDEX_SEEDS;
use mancala_solver::tables::partial::join_sums;
use mancala_solver::with_rules;

use super::{progress, render, GameArgs};

/// Arguments of `mancala build`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "Examples:\n  mancala build kalah --pits 6 --max-seeds 20\n  \
mancala build kalah --pits 4 --max-seeds 16 --rules capture-needs-opposite --db other-db\n  \
mancala build awari --pits 6 --max-seeds 16\n  \
mancala build oware --pits 4 --max-seeds 16\n\n\
Kalah tables hold the positions with k seeds in play; Awari and Oware tables the boards \
with k seeds on the board (retrograde analysis with cycles, endless play worth 0)."
)]
pub struct BuildArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Pits per side (Kalah 1..=6, Awari and Oware 2..=6; or give them in
    /// the game's name, kalah:6).
    #[arg(long = "pits", value_name = "PITS")]
    pub pits_flag: Option<usize>,
    /// The pits per side resolved from the name or --pits.
    #[arg(skip)]
    pub pits: usize,
    /// Build the tables for 1 up to this many seeds.
    #[arg(long)]
    pub max_seeds: usize,
    /// Worker threads (0 or omitted: all cores; at most 4 per core).
    #[arg(long, value_parser = render::parse_threads)]
    pub threads: Option<usize>,
    /// Memory budget, e.g. 8G (default: 80% of RAM).
    #[arg(long, value_parser = render::parse_memory)]
    pub memory: Option<u64>,
    /// Most memory for the shares of one group of a table (Kalah), e.g.
    /// 2G: a larger table is built in groups of blocks, each saved to a
    /// partial file, then assembled (default: as the memory budget allows).
    #[arg(long, value_parser = render::parse_memory)]
    pub group_size: Option<u64>,
    /// Print the build split into tasks and build nothing: for each table
    /// 1..=K, whether it is on disk and its groups of mover sums (with
    /// --group-size and --memory). `dist/dask_build.py` runs the tasks.
    #[arg(long, conflicts_with_all = ["group", "assemble"])]
    pub plan: bool,
    /// Build only this group of mover sums of table K (--max-seeds), e.g.
    /// 3+9, into its partial file (a task of --plan; the smaller tables
    /// must be on disk).
    #[arg(long, value_name = "SUMS", value_parser = parse_sums, conflicts_with = "assemble")]
    pub group: Option<Sums>,
    /// Assemble table K (--max-seeds) from the partial files of its groups
    /// (the last task of a table split by --plan).
    #[arg(long)]
    pub assemble: bool,
    /// Print a JSON report on stdout.
    #[arg(long)]
    pub json: bool,
}

/// The mover sums of one group of a table, as `--group` gives them.
#[derive(Clone, Debug)]
pub struct Sums(pub Vec<usize>);

/// `3+9` (or `3,9`): mover sums, increasing.
fn parse_sums(text: &str) -> std::result::Result<Sums, String> {
    text.split(['+', ','])
        .map(|a| {
            a.trim()
                .parse::<usize>()
                .map_err(|_| format!("\"{a}\" is not a seed count: give mover sums as 3+9"))
        })
        .collect::<std::result::Result<_, _>>()
        .map(Sums)
}

/// Run `mancala build`.
pub fn run(mut args: BuildArgs) -> Result<ExitCode> {
    args.pits = args.game.pits(args.pits_flag)?;
    with_rules!(args.game.rules()?, g => run_game(g, &args))
}

fn run_game<G: TableGame>(game: G, args: &BuildArgs) -> Result<ExitCode> {
    if args.max_seeds == 0 || args.max_seeds > MAX_INDEX_SEEDS {
        return Err(Error::OutOfRange(format!(
            "--max-seeds {}: tables are built for 1 to {MAX_INDEX_SEEDS} seeds",
            args.max_seeds
        )));
    }
    let opts = BuildOptions {
        dir: args.game.tables.db.clone(),
        game,
        pits: args.pits,
        max_seeds: args.max_seeds,
        threads: args.threads,
        memory_budget: args.memory.unwrap_or_else(default_memory_budget),
        group_bytes: args.group_size,
        progress: progress::observer(false),
    };
    if args.plan {
        print_plan(&plan_tasks(&opts)?, args.json);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(Sums(sums)) = &args.group {
        let r = build_group(&opts, sums)?;
        if args.json {
            println!("{}", serde_json::to_string(&r).expect("json"));
        } else {
            println!(
                "table k={}: group {} {} in {:.2} s",
                r.seeds,
                join_sums(&r.sums),
                if r.built { "built" } else { "found on disk" },
                r.seconds
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.assemble {
        let r = assemble(&opts)?;
        if args.json {
            println!("{}", serde_json::to_string(&r).expect("json"));
        } else {
            println!(
                "table k={}: {} positions, {} in {}{}",
                r.seeds,
                r.positions,
                render::human_bytes(r.bytes),
                opts.dir.display(),
                if r.found {
                    ", found on disk".to_string()
                } else {
                    format!(", assembled in {:.2} s", r.seconds)
                }
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    check_build(&opts)?;
    let report = build(&opts)?;
    let title = match game.rules_name() {
        Some(r) => format!(
            "tables for 1..={} seeds, {} pits, {r} rules",
            args.max_seeds, args.pits
        ),
        None => format!(
            "{game} tables for 1..={} seeds, {} pits",
            args.max_seeds, args.pits
        ),
    };
    print_report(&report, &title, G::ENTRY, &opts.dir, args.json);
    Ok(ExitCode::SUCCESS)
}

/// Print the tasks of a split build: JSON, or a line per table.
fn print_plan(tables: &[TableTasks], json: bool) {
    if json {
        let v = serde_json::json!({ "tables": tables });
        println!("{}", serde_json::to_string(&v).expect("json"));
        return;
    }
    for t in tables {
        let what = if t.found {
            "on disk".to_string()
        } else if t.groups.len() <= 1 {
            "one task (in one piece)".to_string()
        } else {
            format!(
                "{} group tasks ({}), then --assemble",
                t.groups.len(),
                t.groups
                    .iter()
                    .map(|g| join_sums(g))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        };
        println!("k={:>2}: {what}", t.seeds);
    }
}

/// Print what a build did: the JSON report, or two lines (the tables in
/// all, and what was built now, with its rate) headed by `title`; `unit`
/// names a table entry ("positions", "boards").
fn print_report(report: &BuildReport, title: &str, unit: &str, dir: &Path, json: bool) {
    if json {
        println!("{}", serde_json::to_string_pretty(report).expect("json"));
        return;
    }
    let built: Vec<_> = report.tables.iter().filter(|t| !t.found).collect();
    let entries: u64 = report.tables.iter().map(|t| t.positions).sum();
    let bytes: u64 = report.tables.iter().map(|t| t.bytes).sum();
    let secs = built.iter().fold(0.0, |s, t| s + t.seconds);
    let built_entries: u64 = built.iter().map(|t| t.positions).sum();
    println!(
        "{title}: {entries} {unit}, {} on disk in {}",
        render::human_bytes(bytes),
        dir.display()
    );
    if built.is_empty() {
        println!(
            "all {} tables found on disk, nothing to build",
            report.tables.len()
        );
        return;
    }
    println!(
        "built {} tables ({built_entries} {unit}) in {secs:.2} s ({:.2} M {unit}/s), {} found on disk",
        built.len(),
        built_entries as f64 / secs.max(1e-9) / 1e6,
        report.tables.len() - built.len()
    );
}
