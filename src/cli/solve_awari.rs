//! `mancala solve awari|oware M N` (or a position) with more seeds than
//! the tables hold or may build on first use: the exact search
//! (`search::awari`), probing the tables on disk.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mancala_solver::awari::position::AwariPosition;
use mancala_solver::awari::rules::AwariGame;
use mancala_solver::error::Result;
use mancala_solver::search::awari::solve_awari;
use mancala_solver::search::cyclic::CyclicOptions;
use mancala_solver::tablebase::{PvEnd, TableGame, TableSet};
use mancala_solver::tables::driver::BuildLimits;

/// Whether `pos` is beyond the tables on disk and beyond what can be built
/// at all for it (the builder's index limit).
pub fn beyond_tables(game: AwariGame, pos: &AwariPosition, db: &Path) -> Result<bool> {
    let tables = TableSet::open_available(db, game, pos.pits_per_side())?;
    let k = pos.seeds_on_board();
    let unlimited = BuildLimits {
        memory_budget: u64::MAX,
        group_bytes: None,
    };
    Ok(tables.max_seeds() < k
        && game
            .build_memory(pos.pits_per_side(), k, &unlimited)
            .is_err())
}

/// How `mancala solve` asked the search to run.
pub struct SearchArgs<'a> {
    /// The table directory.
    pub db: &'a Path,
    /// Probe tables up to this many seeds (`None`: all on disk).
    pub max_table_seeds: Option<usize>,
    /// Probe no table.
    pub no_tables: bool,
    /// Transposition table in MiB.
    pub tt_mb: usize,
    /// Seconds allowed (`None`: to the end).
    pub time: Option<f64>,
    /// Print JSON.
    pub json: bool,
}

/// Solve `pos` by the exact search over the tables on disk and print it.
pub fn search(game: AwariGame, pos: &AwariPosition, args: &SearchArgs<'_>) -> Result<ExitCode> {
    let tables = TableSet::open_available(args.db, game, pos.pits_per_side())?;
    let max = if args.no_tables {
        Some(0)
    } else {
        args.max_table_seeds
    };
    let options = CyclicOptions {
        tt_mb: args.tt_mb,
        deadline: args
            .time
            .map(|t| Instant::now() + Duration::from_secs_f64(t)),
        ..CyclicOptions::default()
    };
    let sol = solve_awari(game, pos, Some(&tables), max, true, &options)?;
    if args.json {
        let out = serde_json::json!({
            "game": game.name(),
            "rules": game.rules_name(),
            "position": pos.to_string(),
            "source": "search",
            "solution": sol,
        });
        println!("{}", serde_json::to_string_pretty(&out).expect("json"));
        return Ok(ExitCode::SUCCESS);
    }
    println!("position: {pos}");
    print!("{}", pos.board_diagram());
    println!(
        "{} seeds on the board, above the tables: exact search, tables probed up to {} seeds",
        pos.seeds_on_board(),
        sol.table_seeds
    );
    match sol.value {
        Some(v) => println!(
            "value: {v:+} (final captured difference for the side to move, perfect play; endless play counts 0)"
        ),
        None => println!(
            "not finished within --time: proven bounds {:+}..={:+} (final captured difference for the side to move)",
            sol.lower, sol.upper
        ),
    }
    for m in &sol.moves {
        if m.lower == m.upper {
            println!("  pit {}: {:+}", m.pit, m.lower);
        } else {
            println!("  pit {}: {:+}..={:+}", m.pit, m.lower, m.upper);
        }
    }
    if !sol.pv.is_empty() {
        println!(
            "principal variation: {} ({})",
            sol.pv,
            match sol.pv_end {
                Some(PvEnd::Repetition) =>
                    "a position repeats: endless play, the seeds left split evenly",
                _ => "the game ends",
            }
        );
    }
    println!(
        "searched {} nodes in {:.2} s ({} table probes, {} repetitions)",
        sol.stats.nodes, sol.seconds, sol.stats.probes, sol.stats.repetitions
    );
    Ok(ExitCode::SUCCESS)
}
