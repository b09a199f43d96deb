//! The exact search ([`super::cyclic`]) for Awari, Oware and their rule sets
//! with tables: boards, their moves and ends from [`crate::awari::rules`],
//! table probes from [`TableSet<AwariGame>`], and a whole solve of a
//! position (value or proven bounds, every move's value, a principal
//! variation that replays to the value).

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::awari::game::banked;
use crate::awari::position::{format_awari_line, AwariPosition};
use crate::awari::rules::{awari_turn, AwariGame, AwariTurn};
use crate::awari::verify::board_at;
use crate::error::{Error, Result};
use crate::notation::join_counts;
use crate::progress::{Event, Observer};
use crate::tablebase::{PvEnd, TableSet};

use super::cross_check::{CrossCheck, CrossCheckReport, Tally};
use super::cyclic::{solve_board, Child, Children, CyclicGame, CyclicOptions, CyclicStats, Wanted};

/// Stack of a search thread: the search recurses once a ply, and lines
/// without captures can be long.
const STACK_BYTES: usize = 512 << 20;

/// Awari boards for the exact search: one rule set, one width, the tables
/// probed up to `probe_max` seeds.
#[derive(Clone, Copy)]
pub struct AwariBoards<'a> {
    game: AwariGame,
    pits: usize,
    tables: Option<&'a TableSet<AwariGame>>,
    probe_max: usize,
}

impl<'a> AwariBoards<'a> {
    /// Boards of `pits` pits under `game`, probing `tables` (when given) up
    /// to `max_table_seeds` seeds (all loaded ones when `None`).
    pub fn new(
        game: AwariGame,
        pits: usize,
        tables: Option<&'a TableSet<AwariGame>>,
        max_table_seeds: Option<usize>,
    ) -> Result<AwariBoards<'a>> {
        crate::awari::game::check_awari_pits(pits)?;
        if !game.has_tables() {
            return Err(Error::Unsupported(format!(
                "{game} has no exact search: its rules end the game at a capture goal \
                 or a move cap that a board alone does not show"
            )));
        }
        if let Some(tb) = tables {
            tb.check(game, pits)?;
        }
        let loaded = tables.map_or(0, |t| t.max_seeds());
        Ok(AwariBoards {
            game,
            pits,
            tables,
            probe_max: max_table_seeds.map_or(loaded, |k| k.min(loaded)),
        })
    }

    /// Largest seed count probed in the tables (0: none).
    pub fn probe_max(&self) -> usize {
        self.probe_max
    }
}

impl CyclicGame for AwariBoards<'_> {
    type Board = [u8; 12];

    #[inline]
    fn key(&self, board: &[u8; 12]) -> u128 {
        let mut b = [0u8; 16];
        b[..12].copy_from_slice(board);
        u128::from_le_bytes(b)
    }

    #[inline]
    fn seeds(&self, board: &[u8; 12]) -> i32 {
        board.iter().map(|&c| c as i32).sum()
    }

    #[inline]
    fn expand(&self, board: &[u8; 12], out: &mut Children<[u8; 12]>) -> Option<i32> {
        match awari_turn(board, self.pits, self.game) {
            AwariTurn::Over {
                mover_gain,
                opponent_gain,
            } => Some(mover_gain as i32 - opponent_gain as i32),
            AwariTurn::Play(moves) => {
                for mv in moves.as_slice() {
                    out.push(Child {
                        pit: mv.pit,
                        gain: mv.captured as i32 + mv.end_gain as i32,
                        board: (!mv.game_over).then_some(mv.board),
                    });
                }
                None
            }
        }
    }

    #[inline]
    fn probe(&self, board: &[u8; 12]) -> Option<i32> {
        let tb = self.tables?;
        if self.probe_max == 0 || self.seeds(board) as usize > self.probe_max {
            return None;
        }
        tb.board_value(board)
    }
}

/// Bounds on one opening move's value (full values: captured seeds
/// included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MoveBounds {
    /// The pit, from the mover's left (0-based).
    pub pit: usize,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound (equal to `lower` when exact).
    pub upper: i32,
}

/// A solve of an Awari or Oware position by the exact search.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AwariSolution {
    /// The final captured difference for the side to move under perfect
    /// play (captured seeds included), when proven.
    pub value: Option<i32>,
    /// Proven lower bound (captured seeds included).
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// Every legal move's bounds, when asked for.
    pub moves: Vec<MoveBounds>,
    /// The move to play when the value is proven and a line was asked
    /// for: the principal variation's first, which makes progress (never a
    /// move of the best value that lets the opponent go round for ever);
    /// `None` otherwise.
    pub best_move: Option<usize>,
    /// A principal variation in the game's notation (pits 1-based), when
    /// the value is proven; it replays to the value (cut after the plies
    /// asked for).
    pub pv: String,
    /// How the principal variation ends (`None`: cut, after the plies
    /// asked for or where the time ran out).
    pub pv_end: Option<PvEnd>,
    /// Search counters.
    pub stats: CyclicStats,
    /// Largest seed count probed in the tables (0: none).
    pub table_seeds: usize,
    /// Seconds spent.
    pub seconds: f64,
    /// Checkpoints written.
    pub checkpoints: u32,
    /// Why the last checkpoint was not written, if it was not.
    pub checkpoint_error: Option<String>,
}

/// What a checkpoint of the solve of `pos` under `game`, probing the
/// tables to `probe_max` seeds, is for.
pub fn checkpoint_identity(game: AwariGame, pos: &AwariPosition, probe_max: usize) -> String {
    let m = pos.pits_per_side();
    format!(
        "{game} on {m} pits, tables to {probe_max} seeds, board {}",
        join_counts(&pos.cells()[..2 * m])
    )
}

/// Solve `pos` under `game` by the exact search, probing `tables` up to
/// `max_table_seeds` (all loaded ones when `None`); every move's value and
/// a principal variation as `wanted` asks. Checkpoints
/// (`options.checkpoint`, its identity set here) and a resumed one
/// (`options.resume`, refused with [`Error::WrongCheckpoint`] when made for
/// another board, rule set or tables, and with [`Error::BadCheckpoint`] when
/// its bounds lie outside the board's range) as [`CyclicOptions`] says. The search runs on a thread of its own with a large
/// stack. A search stopped by `options.deadline` or `options.stop` returns
/// the bounds it proved (`value` `None`).
pub fn solve_awari(
    game: AwariGame,
    pos: &AwariPosition,
    tables: Option<&TableSet<AwariGame>>,
    max_table_seeds: Option<usize>,
    wanted: Wanted,
    options: &CyclicOptions,
) -> Result<AwariSolution> {
    let boards = AwariBoards::new(game, pos.pits_per_side(), tables, max_table_seeds)?;
    let identity = checkpoint_identity(game, pos, boards.probe_max);
    if let Some(ck) = &options.resume {
        ck.check(&identity)?;
        ck.check_range(pos.seeds_on_board() as i32)?;
    }
    let mut options = options.clone();
    if let Some(to) = &mut options.checkpoint {
        to.identity = identity;
    }
    let options = &options;
    let start = Instant::now();
    let before = banked(pos);
    let mut p = *pos;
    if p.finish(game) {
        let v = banked(&p);
        return Ok(AwariSolution {
            value: Some(v),
            lower: v,
            upper: v,
            moves: Vec::new(),
            best_move: None,
            pv: String::new(),
            pv_end: Some(PvEnd::GameOver),
            stats: CyclicStats::default(),
            table_seeds: boards.probe_max,
            seconds: 0.0,
            checkpoints: 0,
            checkpoint_error: None,
        });
    }
    let board = pos.cells();
    let sol = on_big_stack(|| solve_board(boards, &board, wanted, options))?;
    let value = sol.proven.exact().map(|v| v + before);
    let mut pv = format_awari_line(&sol.pv);
    let mut pv_end = sol.pv_end;
    if value.is_some() {
        if let (Some(tb), Some(_)) = (tables, sol.pv_table_board) {
            // The line entered the tables: their line goes on from there.
            let mut q = *pos;
            for &pit in &sol.pv {
                q.play(pit, game).map_err(|e| {
                    Error::Internal(format!("the searched line does not replay: {e}"))
                })?;
            }
            if let Some(line) = tb.principal_variation(&q) {
                if !line.moves.is_empty() {
                    pv = if pv.is_empty() {
                        line.moves
                    } else {
                        format!("{pv}-{}", line.moves)
                    };
                }
                pv_end = Some(line.end);
            }
        }
    }
    Ok(AwariSolution {
        value,
        lower: sol.proven.lower + before,
        upper: sol.proven.upper + before,
        moves: sol
            .moves
            .iter()
            .map(|&(pit, b)| MoveBounds {
                pit,
                lower: b.lower + before,
                upper: b.upper + before,
            })
            .collect(),
        best_move: value.and(sol.pv.first().copied()),
        pv: if value.is_some() { pv } else { String::new() },
        pv_end: if value.is_some() { pv_end } else { None },
        stats: sol.stats,
        table_seeds: boards.probe_max,
        seconds: start.elapsed().as_secs_f64(),
        checkpoints: sol.checkpoints,
        checkpoint_error: sol.checkpoint_error,
    })
}

/// Run `f` on a thread with a [`STACK_BYTES`] stack.
/// The browser build (wasm32) has no threads: `f` runs on the caller's
/// stack, whose size the module sets when it is linked.
fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T> {
    if cfg!(target_arch = "wasm32") {
        return Ok(f());
    }
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("exact-search".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
            .map_err(|e| Error::Internal(format!("cannot start the search thread: {e}")))?
            .join()
            .map_err(|_| Error::Internal("the search thread failed".into()))
    })
}

/// Cross-check table `check.seeds` of an Awari or Oware table set against
/// the exact search, which probes the tables only up to
/// `check.probe_seeds`: sampled entries are solved from scratch, on every
/// core, and must agree with the stored values. A solve longer than
/// `check.limit` is skipped and counted.
pub fn cross_check_awari(
    set: &TableSet<AwariGame>,
    check: &CrossCheck,
    threads: usize,
    progress: &Observer,
) -> Result<CrossCheckReport> {
    let k = check.seeds;
    check.validate()?;
    let table = set.table(k).ok_or_else(|| Error::MissingTable {
        path: set.spec(k).path(set.dir()),
        table: set.spec(k).label(),
    })?;
    let boards = AwariBoards::new(set.game(), set.pits(), Some(set), Some(check.probe_seeds))?;
    let n = table.len();
    let draws = check.draws(n);
    let tally = Tally::start(check, draws.len(), progress);
    let next = AtomicU64::new(0);
    let stop = Arc::new(AtomicBool::new(false));
    let m = set.pits();
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed) as usize;
        if i >= draws.len() || progress.should_stop() {
            return;
        }
        let index = draws[i];
        let board = board_at(set, k, index);
        let options = CyclicOptions {
            tt_mb: check.tt_mb,
            deadline: Some(Instant::now() + check.limit),
            stop: Some(progress.stop_flag().unwrap_or_else(|| stop.clone())),
            ..CyclicOptions::default()
        };
        let sol = solve_board(boards, &board, Wanted::VALUE, &options);
        tally.record(
            index,
            table.value(index),
            sol.proven.exact(),
            sol.stats.nodes,
            || join_counts(&board[..2 * m]),
        );
    };
    std::thread::scope(|s| -> Result<()> {
        let mut handles = Vec::new();
        for t in 0..threads.max(1) {
            let h = std::thread::Builder::new()
                .name(format!("cross-check-{t}"))
                .stack_size(STACK_BYTES)
                .spawn_scoped(s, work)
                .map_err(|e| Error::Internal(format!("cannot start a search thread: {e}")))?;
            handles.push(h);
        }
        for h in handles {
            h.join()
                .map_err(|_| Error::Internal("a search thread failed".into()))?;
        }
        Ok(())
    })?;
    progress.event(&Event::Finish);
    if progress.should_stop() {
        return Err(Error::Stopped(format!("the cross-check of table {k}")));
    }
    Ok(tally.report(
        crate::game::Game::name(set.game()),
        set.game().rules_name().unwrap_or("default"),
        m,
        check,
        n,
    ))
}

/// The default time a cross-check allows one solve.
pub const DEFAULT_CHECK_LIMIT: Duration = Duration::from_secs(10);
