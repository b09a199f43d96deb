//! A whole solve of one board by the exact search: its value (or the
//! bounds proven), each move's value, and a principal variation.

use crate::clock::Instant;

use crate::tablebase::PvEnd;

use super::{Children, CyclicGame, CyclicOptions, CyclicStats, CyclicTable, Proven, Searcher};

/// The result of an exact search of one board.
#[derive(Clone, Debug)]
pub struct CyclicSolution<B> {
    /// The value (seeds still to win, mover minus opponent), or the bounds
    /// proven when the search was stopped.
    pub proven: Proven,
    /// Each move's bounds, `(pit, bounds)`, when asked for.
    pub moves: Vec<(usize, Proven)>,
    /// A principal variation when the value is exact: the boards' moves,
    /// in order, replaying to the value, and how it ends (a game end, a
    /// repetition, or the tables' own line from the board reached).
    pub pv: Vec<usize>,
    /// How the principal variation ends (`None`: cut, after the plies
    /// asked for or where the time ran out, or at a board of the tables).
    pub pv_end: Option<PvEnd>,
    /// The board where the principal variation entered the tables (its
    /// line goes on there), if it did.
    pub pv_table_board: Option<B>,
    /// Counters.
    pub stats: CyclicStats,
    /// Checkpoints written ([`CyclicOptions::checkpoint`]).
    pub checkpoints: u32,
    /// Why the last checkpoint was not written, if it was not.
    pub checkpoint_error: Option<String>,
}

/// What a solve finds besides the board's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wanted {
    /// Each move's value (or bounds).
    pub moves: bool,
    /// The most plies of a principal variation, once the value is exact
    /// (0: none; `usize::MAX`: to its end). A line of a few plies is
    /// searched within the deadline; a whole line within the deadline or,
    /// when the value took all the time, a tenth of the time allowed after
    /// the value (each ply of the line is a search with the line so far on
    /// the path, which can cost far more than the value). A line stopped
    /// by either, or by the stop flag, is returned as far as it got, its
    /// end `None`.
    pub line: usize,
}

impl Wanted {
    /// The value only (a cross-check).
    pub const VALUE: Wanted = Wanted {
        moves: false,
        line: 0,
    };
    /// The value and a best move (the principal variation's first ply: a
    /// player's move).
    pub const MOVE: Wanted = Wanted {
        moves: false,
        line: 1,
    };
    /// The value and a principal variation.
    pub const LINE: Wanted = Wanted {
        moves: false,
        line: usize::MAX,
    };
    /// The value, every move's and a principal variation.
    pub const ALL: Wanted = Wanted {
        moves: true,
        line: usize::MAX,
    };
}

/// Solve `board` exactly: its value, and what `wanted` asks for. A stopped
/// search returns the bounds proven.
pub fn solve_board<G: CyclicGame>(
    game: G,
    board: &G::Board,
    wanted: Wanted,
    options: &CyclicOptions,
) -> CyclicSolution<G::Board> {
    let with_moves = wanted.moves;
    let mut tt = CyclicTable::new(options.tt_mb);
    if let Some(ck) = &options.resume {
        tt.load(&ck.entries);
    }
    let mut searcher = Searcher::new(game, &mut tt, options);
    let s = game.seeds(board);
    let mut out = CyclicSolution {
        proven: Proven {
            lower: -s,
            upper: s,
        },
        moves: Vec::new(),
        pv: Vec::new(),
        pv_end: None,
        pv_table_board: None,
        stats: CyclicStats::default(),
        checkpoints: 0,
        checkpoint_error: None,
    };
    let (guess, known) = match &options.resume {
        Some(ck) => {
            if let Some(saving) = &mut searcher.saving {
                saving.prior_nodes = ck.head.nodes;
            }
            let h = &ck.head;
            (
                h.guess,
                Proven {
                    lower: h.lower,
                    upper: h.upper,
                },
            )
        }
        None => (options.guess, out.proven),
    };
    // With every move to value and a deadline, the board itself gets half
    // the time and the moves share what is left.
    let start = Instant::now();
    if let (true, Some(d)) = (with_moves, options.deadline) {
        searcher.deadline = Some(start + d.saturating_duration_since(start) / 2);
    }
    searcher.set_path(&[]);
    searcher.report = Some(start);
    let root = searcher.mtdf_within(board, guess, known);
    searcher.report = None;
    out.proven = match root {
        Ok(v) => Proven { lower: v, upper: v },
        Err(p) => p,
    };
    // The root's last word, stopped or finished.
    let next = searcher.root_guess;
    searcher.save_checkpoint(out.proven, next, true);
    (out.checkpoints, out.checkpoint_error) = searcher.checkpoint_outcome();
    if with_moves {
        let mut moves = Children::new();
        if game.expand(board, &mut moves).is_none() {
            let list = moves.as_slice();
            for (i, c) in list.iter().enumerate() {
                if let Some(d) = options.deadline {
                    let left = d.saturating_duration_since(Instant::now());
                    searcher.deadline = Some(Instant::now() + left / (list.len() - i) as u32);
                    searcher.stopped = false;
                }
                let p = match &c.board {
                    None => Proven {
                        lower: c.gain,
                        upper: c.gain,
                    },
                    Some(b) => {
                        searcher.set_path(std::slice::from_ref(board));
                        let guess = c.gain - out.proven.lower;
                        match searcher.mtdf(b, guess) {
                            Ok(v) => Proven {
                                lower: c.gain - v,
                                upper: c.gain - v,
                            },
                            Err(p) => Proven {
                                lower: c.gain - p.upper,
                                upper: c.gain - p.lower,
                            },
                        }
                    }
                };
                out.moves.push((c.pit as usize, p));
            }
            // The board is worth its best move.
            let lower = out.moves.iter().map(|(_, p)| p.lower).max();
            let upper = out.moves.iter().map(|(_, p)| p.upper).max();
            if let (Some(lo), Some(hi)) = (lower, upper) {
                let root = out.proven;
                out.proven = Proven {
                    lower: root.lower.max(lo),
                    upper: root.upper.min(hi),
                };
                // The moves narrowed the bounds of a stopped root: the
                // checkpoint keeps what the solve reports.
                if out.proven != root {
                    let guess = next.max(out.proven.lower).min(out.proven.upper);
                    searcher.save_checkpoint(out.proven, guess, true);
                    (out.checkpoints, out.checkpoint_error) = searcher.checkpoint_outcome();
                }
            }
        }
    }
    let (Some(value), true) = (out.proven.exact(), wanted.line > 0) else {
        out.stats = searcher.stats;
        return out;
    };
    // The line keeps the deadline (a ply, searched with the line so far on
    // the path, may cost more than the root's value: with no limit a line
    // was seen to run for minutes past `--time`); a whole line gets at
    // least a tenth of the time allowed.
    searcher.deadline = match options.deadline {
        Some(d) if wanted.line == usize::MAX => {
            let tenth = d.saturating_duration_since(start) / 10;
            Some(d.max(Instant::now() + tenth))
        }
        d => d,
    };
    searcher.stopped = false;
    let (pv, end, at) = principal_variation(&mut searcher, board, value, wanted.line);
    out.pv = pv;
    out.pv_end = end;
    out.pv_table_board = at;
    out.stats = searcher.stats;
    out
}

type PvResult<B> = (Vec<usize>, Option<PvEnd>, Option<B>);

/// The line from `board` (worth `value` with an empty path) that keeps
/// every board's value under its path: at each board the first move whose
/// value, searched with the line so far as the path, is the board's. The
/// line stops at a game end, a repetition (worth 0) or a board the tables
/// cover (`PvEnd` `None`, the board returned: the tables' line goes on),
/// or after `max_plies`, or where the search was stopped (`PvEnd` and
/// board `None`: the line is cut there).
fn principal_variation<G: CyclicGame>(
    searcher: &mut Searcher<'_, G>,
    board: &G::Board,
    value: i32,
    max_plies: usize,
) -> PvResult<G::Board> {
    let game = searcher.game;
    let mut line: Vec<G::Board> = vec![*board];
    let mut pits = Vec::new();
    let mut want = value;
    loop {
        if pits.len() >= max_plies {
            return (pits, None, None);
        }
        let here = *line.last().expect("the line starts with the root");
        if game.probe(&here).is_some() && !pits.is_empty() {
            return (pits, None, Some(here));
        }
        let mut moves = Children::new();
        if game.expand(&here, &mut moves).is_some() {
            return (pits, Some(PvEnd::GameOver), None);
        }
        let mut next = None;
        for c in moves.as_slice() {
            let v = match &c.board {
                None => c.gain,
                Some(b) => {
                    searcher.set_path(&line);
                    match searcher.mtdf(b, c.gain - want) {
                        Ok(v) => c.gain - v,
                        // Stopped: the line is cut here.
                        Err(_) => return (pits, None, None),
                    }
                }
            };
            if v == want {
                next = Some(*c);
                break;
            }
        }
        // The value is the best of the moves' values under the same path
        // (none matching would be a fault: the line is cut there).
        let Some(c) = next else {
            return (pits, None, None);
        };
        pits.push(c.pit as usize);
        let Some(b) = c.board else {
            return (pits, Some(PvEnd::GameOver), None);
        };
        want = c.gain - want;
        // A board met again with the same side to move ends the line.
        let key = game.key(&b);
        let n = line.len();
        if (0..n)
            .rev()
            .skip(1)
            .step_by(2)
            .any(|i| game.key(&line[i]) == key)
        {
            return (pits, Some(PvEnd::Repetition), None);
        }
        line.push(b);
    }
}
