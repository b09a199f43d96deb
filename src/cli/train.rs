//! `mancala train a3c`: train the A3C agent by self-play; `mancala train
//! plot`: draw a training curve as SVG.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::{progress, render, train_plot};
use mancala_solver::error::{Error, Result};
use mancala_solver::learn::a3c::{self, EvalPoint, Stop, TrainOptions};
use mancala_solver::learn::net::Weights;

/// `mancala train ...`.
#[derive(Args)]
pub struct TrainArgs {
    #[command(subcommand)]
    what: TrainCommand,
}

#[derive(Subcommand)]
enum TrainCommand {
    /// Train the A3C agent for Kalah(6,4) by self-play (docs/a3c.md).
    A3c(Box<A3cArgs>),
    /// Draw a training curve (the CSV of `train a3c --curve`) as SVG.
    Plot(PlotArgs),
}

/// Arguments of `mancala train a3c`.
#[derive(Args)]
#[command(
    long_about = "Train the A3C (asynchronous advantage actor-critic) agent for Kalah(6,4) under --rules \
(default: the default rules) by self-play: --workers threads each play games against themselves with their \
own copy of the network, sampling moves from its policy, and apply the gradients of their loss \
to the shared network (Adam). Every --eval-every games the network plays greedily by policy \
against random and greedy (--eval-games each, both sides); the figures go to the progress line, \
to --curve as CSV, and the weights to --out (a checkpoint, written atomically). With one worker \
a seed names one run exactly. The agent plays the result as a3c:FILE.",
    after_help = "Examples:\n  mancala train a3c --games 2000 --out a3c.bin\n  \
mancala train a3c --minutes 20 --workers 2 --seed 1 --out crates/engine/weights/a3c-kalah-6-4.bin \
--curve docs/a3c-training.csv --plot docs/a3c-training.svg   # long: the study's 20 minutes\n  \
mancala match a3c:a3c.bin random --games 200"
)]
pub struct A3cArgs {
    /// The Kalah rule set of the self-play games: default, capture-needs-opposite (the
    /// Kalah agents study's) or end-when-mover-empty.
    #[arg(long, default_value = "default")]
    rules: String,
    /// Train for this many self-play games in all.
    #[arg(long, required_unless_present = "minutes", conflicts_with = "minutes")]
    games: Option<u64>,
    /// Train for this many minutes (wall clock).
    #[arg(long, allow_negative_numbers = true)]
    minutes: Option<f64>,
    /// Worker threads, each with its own copy of the network.
    #[arg(long, default_value_t = TrainOptions::default().workers)]
    workers: usize,
    /// Seed of the initial weights, the workers' moves and the evaluation games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where the weights go (written at every evaluation and at the end).
    #[arg(long, value_parser = render::parse_output_file)]
    out: PathBuf,
    /// Continue training these weights (their games count on; Adam starts afresh).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Adam's learning rate.
    #[arg(long, default_value_t = TrainOptions::default().learning_rate, allow_negative_numbers = true)]
    lr: f64,
    /// Discount per move.
    #[arg(long, default_value_t = TrainOptions::default().gamma, allow_negative_numbers = true)]
    gamma: f64,
    /// Moves before a return bootstraps on the value (n-step returns).
    #[arg(long, default_value_t = TrainOptions::default().n_step)]
    n_step: usize,
    /// Weight of the entropy bonus.
    #[arg(long, default_value_t = TrainOptions::default().beta, allow_negative_numbers = true)]
    beta: f64,
    /// Hidden layer sizes, e.g. 128,128 (a resumed network keeps its own).
    #[arg(long, default_value = "128,128", value_parser = parse_hidden)]
    hidden: [usize; 2],
    /// Self-play games per update of the shared network (per worker).
    #[arg(long, default_value_t = TrainOptions::default().batch)]
    batch: usize,
    /// Random plies at the start of each self-play game (0 to this many), not trained on.
    #[arg(long, default_value_t = TrainOptions::default().random_opening)]
    random_opening: usize,
    /// Unary inputs per pit (count >= 1 .. count >= K; 0 for the scaled counts alone).
    #[arg(long, default_value_t = TrainOptions::default().unary)]
    unary: usize,
    /// Evaluate every this many games.
    #[arg(long, default_value_t = TrainOptions::default().eval_every)]
    eval_every: u64,
    /// Games against random and against greedy at each evaluation.
    #[arg(long, default_value_t = TrainOptions::default().eval_games)]
    eval_games: usize,
    /// Write the curve here as CSV (appended to when resuming).
    #[arg(long, value_name = "FILE.csv", value_parser = render::parse_output_file)]
    curve: Option<PathBuf>,
    /// Draw the curve as SVG here at the end (needs --curve).
    #[arg(long, value_name = "FILE.svg", requires = "curve", value_parser = render::parse_output_file)]
    plot: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Arguments of `mancala train plot`.
#[derive(Args)]
pub struct PlotArgs {
    /// The curve, as written by `train a3c --curve`.
    curve: PathBuf,
    /// The SVG file to write.
    #[arg(long, value_parser = render::parse_output_file)]
    out: PathBuf,
}

fn parse_hidden(s: &str) -> std::result::Result<[usize; 2], String> {
    let sizes: Vec<usize> = s
        .split(',')
        .map(|x| x.trim().parse::<usize>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| format!("'{s}' is not two layer sizes like 128,128"))?;
    match sizes[..] {
        [a, b] if (1..=4096).contains(&a) && (1..=4096).contains(&b) => Ok([a, b]),
        _ => Err(format!(
            "'{s}': give two layer sizes from 1 to 4096, like 128,128"
        )),
    }
}

fn curve_row(p: &EvalPoint) -> String {
    let pct = |n: u32, s: &a3c::Score| 100.0 * f64::from(n) / f64::from(s.games().max(1));
    format!(
        "{},{:.1},{:.1},{:.1},{:.1},{:.1},{:.5},{:.5},{:.5}",
        p.episodes,
        p.seconds,
        p.vs_random.win_percent(),
        pct(p.vs_random.draws, &p.vs_random),
        p.vs_greedy.win_percent(),
        pct(p.vs_greedy.draws, &p.vs_greedy),
        p.losses.value,
        p.losses.policy,
        p.losses.entropy
    )
}

/// Run `mancala train`.
pub fn run(args: TrainArgs) -> Result<ExitCode> {
    match args.what {
        TrainCommand::A3c(a) => run_a3c(*a),
        TrainCommand::Plot(p) => {
            let rows = train_plot::read_curve(&p.curve)?;
            write_svg(&p.out, &train_plot::curve_svg(&rows))?;
            println!("wrote {} ({} points)", p.out.display(), rows.len());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Write an SVG file atomically: on any failure (a full disk) the file
/// that was there stays as it was and no temporary file is left.
fn write_svg(path: &Path, svg: &str) -> Result<()> {
    mancala_solver::atomic::write(path, svg.as_bytes(), "plot.svg")
}

fn run_a3c(args: A3cArgs) -> Result<ExitCode> {
    let stop = match (args.games, args.minutes) {
        (Some(n), _) => Stop::Episodes(n),
        (None, Some(m)) if m.is_finite() && m > 0.0 && m <= 7.0 * 24.0 * 60.0 => {
            Stop::Time(Duration::from_secs_f64(m * 60.0))
        }
        (None, m) => {
            return Err(Error::Unsupported(format!(
                "--minutes {}: give a time above 0 and at most a week (10080 minutes)",
                m.unwrap_or(0.0)
            )))
        }
    };
    let resume = args.resume.as_deref().map(Weights::load).transpose()?;
    let opts = TrainOptions {
        rules: args.rules.parse()?,
        workers: args.workers,
        seed: args.seed,
        stop,
        learning_rate: args.lr,
        gamma: args.gamma,
        n_step: args.n_step,
        beta: args.beta,
        hidden: args.hidden,
        unary: args.unary,
        random_opening: args.random_opening,
        batch: args.batch,
        eval_every: args.eval_every,
        eval_games: args.eval_games,
        resume,
        progress: progress::observer(args.quiet),
    };
    opts.check()?;
    let mut curve = match &args.curve {
        Some(path) => Some(open_curve(path, opts.resume.is_some())?),
        None => None,
    };
    let out = args.out.clone();
    let mut on_eval = |p: &EvalPoint, w: &Weights| -> Result<()> {
        if let Some(curve) = &mut curve {
            curve.push(&curve_row(p))?;
        }
        w.save(&out)
    };
    let report = a3c::train(&opts, &mut on_eval)?;
    report.weights.save(&args.out)?;
    if let (Some(svg), Some(csv)) = (&args.plot, &args.curve) {
        write_svg(svg, &train_plot::curve_svg(&train_plot::read_curve(csv)?))?;
    }
    let last = report.curve.last().expect("a final evaluation");
    println!(
        "trained {} games in {:.0} s ({} workers, {:.0} games/s); the network has {} games in all",
        report.episodes,
        report.seconds,
        opts.workers,
        report.episodes as f64 / report.seconds.max(1e-9),
        report.weights.episodes
    );
    println!(
        "greedy by policy: {:.1}% wins v random, {:.1}% wins v greedy ({} games each)",
        last.vs_random.win_percent(),
        last.vs_greedy.win_percent(),
        last.vs_random.games()
    );
    println!("weights written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// The curve file: its text, written whole and atomically at the start and
/// after each evaluation, so that a failed write (a full disk) leaves the
/// last complete curve, never a truncated one.
struct Curve {
    path: PathBuf,
    text: String,
}

impl Curve {
    /// Add a row and write the file.
    fn push(&mut self, row: &str) -> Result<()> {
        self.text.push_str(row);
        self.text.push('\n');
        self.write()
    }

    fn write(&self) -> Result<()> {
        mancala_solver::atomic::write(&self.path, self.text.as_bytes(), "curve.csv")
    }
}

/// The curve file, continued when resuming a run whose curve it is (a
/// regular file whose first line is the header), else started afresh with
/// its header; when resuming, a file that is not a curve is refused.
fn open_curve(path: &Path, resuming: bool) -> Result<Curve> {
    let previous = if resuming {
        match mancala_solver::files::read_limited(
            path,
            train_plot::MAX_CURVE_BYTES,
            "a training curve",
        ) {
            Ok(bytes) => Some(bytes),
            Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        }
    } else {
        None
    };
    let fresh = format!("{}\n", train_plot::CURVE_HEADER);
    let text = match previous.map(String::from_utf8) {
        None => fresh,
        Some(Ok(text)) if text.trim().is_empty() => fresh,
        Some(Ok(mut text))
            if text.lines().next().map(str::trim) == Some(train_plot::CURVE_HEADER) =>
        {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
        // Another file under the curve's name: --resume continues a
        // curve, and never replaces what is not one.
        Some(_) => {
            return Err(Error::BadInputFile {
                path: path.to_path_buf(),
                line: 1,
                reason: format!(
                    "not a training curve (the first line is not \"{}\"), so --resume \
                     does not continue it: give the run's own --curve file, or a new path",
                    train_plot::CURVE_HEADER
                ),
            })
        }
    };
    let curve = Curve {
        path: path.to_path_buf(),
        text,
    };
    curve.write()?;
    Ok(curve)
}
