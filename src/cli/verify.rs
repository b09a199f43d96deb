//! `mancala verify GAME --pits M --seeds K`: re-derive a table's entries
//! from their children (and, for games with cycles, check that no value
//! rests on a cycle).

use std::process::ExitCode;

use clap::Args;

use mancala_solver::error::{Error, Result};
use mancala_solver::play::agents::perfect::PerfectPlay;
use mancala_solver::search::cross_check::CrossCheck;
use mancala_solver::tablebase::verify::{check_seeds, verify, Mismatch};
use mancala_solver::tablebase::TableGame;
use mancala_solver::tablebase::TableSet;
use mancala_solver::with_rules;

use super::{progress, GameArgs};

/// Arguments of `mancala verify`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "Examples:\n  mancala verify kalah --pits 6 --seeds 12\n  \
mancala verify kalah --pits 6 --seeds 20 --sample 1000000\n  \
mancala verify awari --pits 6 --seeds 8\n  \
mancala verify kalah --pits 6 --seeds 24 --sample 200 --by-search 20   # long: the 24-seed table first\n\n\
Awari and Oware: a whole table is also checked to be the right fixpoint (every non-zero \
value backed by a finite forcing strategy, none resting on a cycle).\n\n\
Kalah, Awari and Oware, --by-search K: instead of the one-step check, each sampled entry \
(--sample, default 100) is solved by the search (Awari and Oware: the exact search with \
repetitions, on every core) probing only the tables up to K seeds (K below --seeds), and the two \
values must agree; a solve over --limit seconds is skipped and counted."
)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Pits per side (or give them in the game's name, kalah:6).
    #[arg(long = "pits", value_name = "PITS")]
    pub pits_flag: Option<usize>,
    /// The pits per side resolved from the name or --pits.
    #[arg(skip)]
    pub pits: usize,
    /// The table to check (its seeds).
    #[arg(long)]
    pub seeds: usize,
    /// Check this many random entries instead of all (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// Seed of the random sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Kalah, Awari and Oware: solve the sampled entries with the search, probing the tables
    /// only up to this many seeds, and compare (a cross-check against the
    /// smaller tables' values).
    #[arg(long, value_name = "K")]
    pub by_search: Option<usize>,
    /// With --by-search: seconds allowed per solve (longer ones are skipped).
    #[arg(long, default_value_t = 10.0, value_parser = parse_limit)]
    pub limit: f64,
    /// With --by-search: transposition table of each solve, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub tt_mb: u64,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

fn parse_limit(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("{s}: give a positive number of seconds")),
    }
}

/// Run `mancala verify`.
pub fn run(mut args: VerifyArgs) -> Result<ExitCode> {
    args.pits = args.game.pits(args.pits_flag)?;
    if let Some(probe) = args.by_search {
        return with_rules!(args.game.rules()?, g => run_by_search(g, probe, &args));
    }
    with_rules!(args.game.rules()?, g => run_game(g, &args))
}

fn run_game<G: TableGame>(game: G, args: &VerifyArgs) -> Result<ExitCode> {
    let set = open(game, args)?;
    let report = verify(
        &set,
        args.seeds,
        args.sample,
        args.seed,
        &progress::observer(false),
    )?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("json"));
    } else {
        let rules = game
            .rules_name()
            .map_or(String::new(), |r| format!(" ({r} rules)"));
        let forcing = match (G::BUILDER, report.unforced) {
            (mancala_solver::tablebase::Builder::Levels, _) => String::new(),
            (_, Some(u)) => format!(
                "; {u} values resting on a cycle (forcing check, {} sweeps)",
                report.sweeps
            ),
            (_, None) => {
                "; forcing check not run (it needs the whole table, no mismatch, and a game that has one: Awari and Oware)".into()
            }
        };
        println!(
            "{} table {} pits, {} seeds{rules}: checked {} of {} entries, {} mismatches{forcing}",
            game.name(),
            args.pits,
            args.seeds,
            report.checked,
            report.positions,
            report.mismatches
        );
        print_examples(&report.examples, "derived");
    }
    Ok(exit_code(report.is_sound()))
}

/// `--by-search K`: sampled entries of the table solved by the game's exact
/// search probing only the tables up to K seeds.
fn run_by_search<G: PerfectPlay>(game: G, probe: usize, args: &VerifyArgs) -> Result<ExitCode> {
    let Some(cross_check) = game.exact_cross_check() else {
        return Err(Error::Unsupported(format!(
            "--by-search: only Kalah, Awari and Oware have a search to cross-check {} tables \
             against; drop --by-search",
            args.game.game.name
        )));
    };
    let set = open(game, args)?;
    let check = CrossCheck {
        seeds: args.seeds,
        probe_seeds: probe,
        sample: args.sample.unwrap_or(100),
        seed: args.seed,
        limit: std::time::Duration::from_secs_f64(args.limit),
        tt_mb: args.tt_mb as usize,
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let report = cross_check(&set, &check, threads, &progress::observer(false))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("json"));
    } else {
        let rules = game
            .rules_name()
            .map_or(String::new(), |r| format!(" ({r} rules)"));
        println!(
            "{} table {} pits, {} seeds{rules} against the exact search with tables up to {}: \
             {} of {} sampled entries solved within {} s and compared, {} skipped, {} mismatches \
             ({} nodes)",
            game.name(),
            args.pits,
            args.seeds,
            probe,
            report.checked,
            report.sampled,
            args.limit,
            report.skipped,
            report.mismatches,
            report.nodes
        );
        print_examples(&report.examples, "solved");
    }
    Ok(exit_code(report.is_sound()))
}

/// The table set holding table `--seeds` of `game`, after the checks that
/// give the clearest message (directory, pits, seeds).
fn open<G: TableGame>(game: G, args: &VerifyArgs) -> Result<TableSet<G>> {
    TableSet::empty(&args.game.tables.db, game, args.pits)?;
    check_seeds(args.seeds)
        .map_err(|e| Error::OutOfRange(format!("--seeds {}: {e}", args.seeds)))?;
    TableSet::open(&args.game.tables.db, game, args.pits, args.seeds)
}

/// One line per mismatch; `what` names the value it was compared with.
fn print_examples(examples: &[Mismatch], what: &str) {
    for m in examples {
        println!(
            "  index {}: {}  stored {} {what} {}",
            m.index, m.position, m.stored, m.derived
        );
    }
}

/// Success for a sound table, 1 for bad data.
fn exit_code(sound: bool) -> ExitCode {
    if sound {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
