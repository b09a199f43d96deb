//! `mancala tune heuristic10`: the genetic algorithm of the Kalah agents
//! study, writing a weights file `heuristic10:D:weights=FILE` loads.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{progress, render};
use mancala_solver::error::Result;
use mancala_solver::play::agents::hunter;
use mancala_solver::play::tune::{self, TuneOptions, TuneState};

/// What `mancala tune` tunes.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Tunable {
    /// The weights W1..W10 of `heuristic10:D`.
    Heuristic10,
}

/// `--h9`: how the candidates read H9.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum H9Arg {
    /// Algorithm 4's formula.
    Formula,
    /// The prose's reading.
    Prose,
}

/// `--h10`: H10's sign.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum H10Arg {
    /// Algorithm 4's sign.
    Plus,
    /// The text's negative value.
    Minus,
}

/// `mancala tune heuristic10`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "Each candidate plays --games games (half of them first) against every \
other candidate; its fitness is its share of the points (a win 1, a draw 1/2). The best candidate \
of the last generation is written to --out; the run is saved after every generation to \
OUT.state.json, and --resume continues it.\n\nExamples:\n  \
mancala tune heuristic10 --population 20 --generations 10 --out weights.txt\n  \
mancala match heuristic10:4:weights=weights.txt heuristic10:4 --games 200\n  \
# the study's settings (about 25 min on two cores):\n  \
mancala tune heuristic10 --population 50 --generations 250 --games 10 --depth 4 --out study.txt   # long"
)]
pub struct TuneArgs {
    /// What to tune.
    #[arg(value_enum)]
    pub what: Tunable,
    /// The game the candidates play.
    #[arg(long, default_value = "kalah:6:4")]
    pub game: String,
    /// Candidates per generation.
    #[arg(long, default_value_t = 20)]
    pub population: usize,
    /// Generations.
    #[arg(long, default_value_t = 10)]
    pub generations: usize,
    /// Games of each candidate against each other one (even; half played first).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Search depth of the candidates.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Chance that a weight mutates.
    #[arg(long, default_value_t = 0.1)]
    pub mutation: f64,
    /// Standard deviation of a mutation's Gaussian step.
    #[arg(long, default_value_t = 0.1)]
    pub sigma: f64,
    /// Random single moves of each side opening every game.
    #[arg(long, default_value_t = 2)]
    pub random_opening: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the candidates read H9: Algorithm 4's formula, -(1.5 store(opponent)) - store(player),
    /// or the prose's "how close the player is to winning", store(player) - 1.5 store(opponent).
    #[arg(long, value_enum, default_value_t = H9Arg::Formula)]
    pub h9: H9Arg,
    /// H10's sign: Algorithm 4's (plus) or the text's "negative value associated with this
    /// heuristic" (minus).
    #[arg(long, value_enum, default_value_t = H10Arg::Plus)]
    pub h10: H10Arg,
    /// Worker threads (0 or omitted: all cores).
    #[arg(long, value_parser = render::parse_threads)]
    pub threads: Option<usize>,
    /// The weights file to write.
    #[arg(long, default_value = "heuristic10-weights.txt", value_parser = render::parse_output_file)]
    pub out: PathBuf,
    /// Continue the run saved in OUT.state.json.
    #[arg(long)]
    pub resume: bool,
    /// Print the generations and the result as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

fn state_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".state.json");
    PathBuf::from(name)
}

fn write_atomic(path: &Path, text: &str) -> Result<()> {
    mancala_solver::atomic::write(path, text.as_bytes(), "weights")
}

/// Run `mancala tune`.
pub fn run(args: TuneArgs) -> Result<ExitCode> {
    let Tunable::Heuristic10 = args.what;
    let opts = TuneOptions {
        game: args.game.parse()?,
        population: args.population,
        generations: args.generations,
        games: args.games,
        depth: args.depth,
        mutation: args.mutation,
        sigma: args.sigma,
        random_opening: args.random_opening,
        seed: args.seed,
        readings: hunter::Readings {
            h9: match args.h9 {
                H9Arg::Formula => hunter::H9::Formula,
                H9Arg::Prose => hunter::H9::Prose,
            },
            h10: match args.h10 {
                H10Arg::Plus => hunter::H10::Plus,
                H10Arg::Minus => hunter::H10::Minus,
            },
        },
        threads: args.threads,
        progress: progress::observer(false),
    };
    opts.check()?;
    let state_file = state_path(&args.out);
    let state = if args.resume {
        let state = TuneState::load(&state_file)?;
        tune::check_resume(&state, &opts)?;
        eprintln!(
            "resuming after generation {} of {}",
            state.done, opts.generations
        );
        state
    } else {
        tune::start(&opts)
    };
    let state = tune::run(&opts, state, |s| s.save(&state_file))?;
    let last = state.history.last().expect("at least one generation");
    let comment = format!(
        "heuristic10 weights W1..W10 tuned by `mancala tune heuristic10`\n{}\nfitness of the best candidate in the last generation: {:.4}",
        state.settings, last.best_fitness
    );
    write_atomic(&args.out, &hunter::format_weights(&last.best, &comment))?;
    if args.json {
        let out = serde_json::json!({
            "settings": state.settings,
            "generations": state.history,
            "weights": last.best,
            "fitness": last.best_fitness,
            "out": args.out,
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
    } else {
        println!("generation  best fitness  mean fitness  best weights W1..W10");
        for g in &state.history {
            let w: Vec<String> = g.best.iter().map(|w| format!("{w:.3}")).collect();
            println!(
                "{:>10}  {:>12.4}  {:>12.4}  {}",
                g.generation,
                g.best_fitness,
                g.mean_fitness,
                w.join(" ")
            );
        }
        let mut readings = String::new();
        if opts.readings.h9 == hunter::H9::Prose {
            readings.push_str(":h9=prose");
        }
        if opts.readings.h10 == hunter::H10::Minus {
            readings.push_str(":h10=minus");
        }
        println!(
            "wrote {}: play it as heuristic10:{}:weights={}{readings}",
            args.out.display(),
            opts.depth,
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
