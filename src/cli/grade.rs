//! `mancala grade AGENT`: an agent's moves against perfect play.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::{progress, render};
use mancala_solver::error::{Error, Result, TableLabel};
use mancala_solver::kalah::position::MAX_SEEDS;
use mancala_solver::play::agents::AgentSpec;
use mancala_solver::play::arena::GameSpec;
use mancala_solver::play::grade::{self, Estimate, GradeOptions, GradeReport, DEFAULT_OPPONENTS};
use mancala_solver::play::state::State;
use mancala_solver::tablebase::SharedTables;
use mancala_solver::tablebase::TableGame;
use mancala_solver::tables::index::MAX_INDEX_SEEDS;
use mancala_solver::with_rules;

/// `mancala grade AGENT`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "The agent plays games against itself and against random, greedy and \
alphabeta:4 (sides and opponents taking turns, the first two moves of each side random when both \
players are deterministic); positions where it chose a move are drawn from those games, and each \
choice is valued exactly: from the tables in --db within their range, by the exact search above them \
(Kalah, Awari, Oware) with --search-ms per position. A position the solver cannot finish in time is skipped and \
counted.\n\nExamples:\n  mancala grade greedy --positions 1000\n  \
mancala grade heuristic10:4 --game kalah:6:4 --json\n  \
mancala grade alphabeta:4 --plot loss.svg"
)]
pub struct GradeArgs {
    /// The agent to grade (any agent of `mancala match`).
    pub agent: String,
    /// The game: kalah:M:N[:RULES], awari:M:N, oware:M:N, ...
    #[arg(long, default_value = "kalah:6:4")]
    pub game: String,
    /// Positions to grade.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Seed of the games and of the draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The solver's time per position above the tables, in milliseconds.
    #[arg(long, default_value_t = 500)]
    pub search_ms: u64,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Worker threads (0 or omitted: all cores).
    #[arg(long, value_parser = render::parse_threads)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub tables: super::TablesArg,
    /// Draw the mean loss and the share of perfect moves by phase as SVG.
    #[arg(long, value_parser = render::parse_output_file)]
    pub plot: Option<PathBuf>,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Run `mancala grade`.
pub fn run(args: GradeArgs) -> Result<ExitCode> {
    let game: GameSpec = args.game.parse()?;
    let spec: AgentSpec = args.agent.parse()?;
    if args.positions == 0 || args.positions > 1_000_000 {
        return Err(Error::Unsupported(format!(
            "--positions {}: give 1 to 1000000",
            args.positions
        )));
    }
    if args.search_ms == 0 {
        return Err(Error::Unsupported(
            "--search-ms 0: give at least 1 (milliseconds of search a position)".to_string(),
        ));
    }
    if args.tt_mb == 0 || args.tt_mb > 16 << 10 {
        return Err(Error::Unsupported(format!(
            "--tt-mb {}: give 1 to 16384 (MiB of transposition table)",
            args.tt_mb
        )));
    }
    let start = game.start();
    spec.check_start(&start)?;
    check_gradable(&game, &start, &args.agent)?;
    let tables = SharedTables::open_available(game.rules(), &args.tables.db, game.pits)?;
    // Kalah, Awari and Oware: an exact search above the tables.
    let searched = game.rules().has_exact_search();
    let label = TableLabel {
        game: game.rules().game_name(),
        rules: game.rules().rules_name().filter(|&r| r != "default"),
        pits: game.pits,
        seeds: 20.min(2 * game.pits * game.seeds),
    };
    if tables.is_none() && !searched {
        return Err(Error::Unsupported(format!(
            "no {} tables for {} pits in {}: grading this game needs them (build them with \
             `{}`; the positions with at most that many seeds on the board are graded)",
            game.rules(),
            game.pits,
            args.tables.db.display(),
            render::build_command(&label, &args.tables.db)
        )));
    }
    if let Some(t) = &tables {
        eprintln!(
            "values from the tables up to {} seeds in {}{}",
            t.max_seeds(),
            t.dir().display(),
            if searched {
                ", the exact search above"
            } else {
                ""
            }
        );
    } else {
        eprintln!(
            "note: no tables in {}: every value comes from the solver (build them with `{}`)",
            args.tables.db.display(),
            render::build_command(&label, &args.tables.db)
        );
    }
    // Without a search above the tables, only the positions they cover.
    let max_seeds = grade::seeds_limit(game.rules(), tables.as_ref());
    if let Some(k) = max_seeds {
        eprintln!("grading the positions with at most {k} seeds on the board (no solver above the tables)");
    }
    let opponents = DEFAULT_OPPONENTS
        .iter()
        .map(|o| o.parse())
        .collect::<Result<Vec<AgentSpec>>>()?;
    let opts = GradeOptions {
        game,
        positions: args.positions,
        seed: args.seed,
        opponents,
        search_time: Duration::from_millis(args.search_ms),
        tt_mb: args.tt_mb,
        threads: args.threads,
        tables,
        max_seeds,
        progress: progress::observer(false),
    };
    let report = grade::grade(&spec, &opts)?;
    if let Some(path) = &args.plot {
        write_atomic(path, &plot_svg(&report))?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report).expect("json"));
    } else {
        print_report(&report);
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuse, before any game is played, a game whose moves no table and no
/// solver can value: saying why, and what to do instead.
fn check_gradable(game: &GameSpec, start: &State, agent: &str) -> Result<()> {
    let rules = game.rules();
    let name = rules.game_name();
    let table_pits = with_rules!(rules, g => g.table_pits_range());
    let instead = format!(
        "or compare the agent with others on this board instead: \
         `mancala match {agent} greedy --game {game}`"
    );
    if table_pits.is_empty() {
        return Err(Error::Unsupported(format!(
            "{game} cannot be graded: grading values every move exactly, and {name} has no \
             endgame tables and no solver; grade the agent on a game with tables (kalah, \
             awari, oware), {instead}"
        )));
    }
    let (low, high) = (*table_pits.start(), *table_pits.end());
    if !table_pits.contains(&game.pits) {
        let solver = if rules.has_exact_search() {
            " and the solver"
        } else {
            ""
        };
        return Err(Error::OutOfRange(format!(
            "{game} is beyond any table: grading values every move exactly, and the {name} \
             tables{solver} handle {low} to {high} pits per side, not {}; grade on a board of \
             {low} to {high} pits (e.g. --game {name}:{high}:{}), {instead}",
            game.pits,
            game.seeds.min(4)
        )));
    }
    if start.is_wide() {
        return Err(Error::OutOfRange(format!(
            "{game} is beyond any table: its {} seeds are more than a table ({MAX_INDEX_SEEDS} \
             seeds at most) or the solver ({MAX_SEEDS} seeds at most) holds, so no move on it \
             can be valued exactly; grade on a board of at most {MAX_SEEDS} seeds (e.g. \
             --game {name}:{}:4), {instead}",
            2 * game.pits * game.seeds,
            game.pits
        )));
    }
    Ok(())
}

fn write_atomic(path: &std::path::Path, text: &str) -> Result<()> {
    mancala_solver::atomic::write(path, text.as_bytes(), "plot.svg")
}

fn pct(e: &Option<Estimate>) -> String {
    match e {
        Some(e) => format!(
            "{:.1}% ({:.1}..{:.1})",
            100.0 * e.value,
            100.0 * e.low,
            100.0 * e.high
        ),
        None => "-".to_string(),
    }
}

fn mean(e: &Option<Estimate>) -> String {
    match e {
        Some(e) => format!("{:.3} ({:.3}..{:.3})", e.value, e.low, e.high),
        None => "-".to_string(),
    }
}

fn print_report(r: &GradeReport) {
    println!(
        "{}: {} graded against perfect play, {} positions from {} games (v itself, {}), seed {}",
        r.game,
        r.agent,
        r.positions,
        r.games,
        r.opponents.join(", "),
        r.seed
    );
    println!(
        "valued: {} from the tables, {} by the solver ({} ms each); skipped (solver out of time): {}",
        r.from_tables, r.from_search, r.search_ms, r.skipped
    );
    if let Some(k) = r.max_seeds {
        println!("positions with at most {k} seeds on the board (the tables' range)");
    }
    println!("perfect moves: {}", pct(&r.optimal_share));
    println!("mean loss per move: {} seeds", mean(&r.mean_loss));
    let losses: Vec<String> = r
        .losses
        .iter()
        .map(|l| format!("{}: {}", l.loss, l.moves))
        .collect();
    println!("moves by loss: {}", losses.join(", "));
    println!("by phase (seeds on the board):");
    println!(
        "  {:>7}  {:>9}  {:>7}  {:>24}  {:>24}",
        "seeds", "positions", "skipped", "perfect moves (95% CI)", "mean loss (95% CI)"
    );
    for p in &r.by_phase {
        println!(
            "  {:>7}  {:>9}  {:>7}  {:>24}  {:>24}",
            format!("{}-{}", p.seeds_low, p.seeds_high),
            p.positions,
            p.skipped,
            pct(&p.optimal_share),
            mean(&p.mean_loss)
        );
    }
    println!("wall time {:.2} s", r.seconds);
}

/// The mean loss by phase as bars with their 95% intervals, and the share
/// of perfect moves as a line, in SVG.
pub fn plot_svg(r: &GradeReport) -> String {
    let (left, top, w, h) = (70.0, 50.0, 480.0, 260.0);
    let n = r.by_phase.len().max(1);
    let max_loss = r
        .by_phase
        .iter()
        .filter_map(|p| p.mean_loss.map(|m| m.high))
        .fold(0.5_f64, f64::max)
        .ceil();
    let step = w / n as f64;
    let y_loss = |v: f64| top + h - h * v / max_loss;
    let y_share = |v: f64| top + h - h * v;
    let mut s = String::new();
    let title = format!(
        "{} in {}: mean loss per move by phase ({} positions)",
        r.agent, r.game, r.positions
    );
    let _ = writeln!(
        s,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="640" height="380" viewBox="0 0 640 380" font-family="sans-serif" font-size="12">
<title>{t}</title><text x="{left}" y="25" font-size="14">{t}</text>
<line x1="{left}" y1="{top}" x2="{left}" y2="{b}" stroke="black"/><line x1="{left}" y1="{b}" x2="{r}" y2="{b}" stroke="black"/>
<line x1="{r}" y1="{top}" x2="{r}" y2="{b}" stroke="#1565c0"/>"##,
        t = xml(&title),
        b = top + h,
        r = left + w,
    );
    for t in 0..=4 {
        let v = max_loss * t as f64 / 4.0;
        let y = y_loss(v);
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{:.1}" text-anchor="end">{v:.2}</text><text x="{}" y="{:.1}" fill="#1565c0">{}%</text>"##,
            left - 6.0,
            y + 4.0,
            left + w + 6.0,
            y + 4.0,
            25 * t
        );
    }
    let mut line = Vec::new();
    for (i, p) in r.by_phase.iter().enumerate() {
        let x = left + step * i as f64;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}-{}</text>"#,
            x + step / 2.0,
            top + h + 16.0,
            p.seeds_low,
            p.seeds_high
        );
        if let Some(m) = p.mean_loss {
            let _ = writeln!(
                s,
                r##"<g class="phase" data-seeds="{}-{}" data-positions="{}"><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#ef6c00"/><line x1="{cx:.1}" y1="{:.1}" x2="{cx:.1}" y2="{:.1}" stroke="black"/></g>"##,
                p.seeds_low,
                p.seeds_high,
                p.positions,
                x + step * 0.2,
                y_loss(m.value),
                step * 0.6,
                top + h - y_loss(m.value),
                y_loss(m.low),
                y_loss(m.high),
                cx = x + step / 2.0
            );
        }
        if let Some(o) = p.optimal_share {
            line.push(format!("{:.1},{:.1}", x + step / 2.0, y_share(o.value)));
        }
    }
    let _ = writeln!(
        s,
        r##"<polyline class="optimal-share" points="{}" fill="none" stroke="#1565c0" stroke-width="2"/>"##,
        line.join(" ")
    );
    let _ = writeln!(
        s,
        r##"<text x="{left}" y="{}" text-anchor="start">seeds on the board (phase)</text>
<text transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle" fill="#ef6c00">mean loss per move (seeds), 95% CI</text>
<text transform="translate(630,{:.1}) rotate(-90)" text-anchor="middle" fill="#1565c0">perfect moves (%)</text>
</svg>"##,
        top + h + 40.0,
        top + h / 2.0,
        top + h / 2.0
    );
    s
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
