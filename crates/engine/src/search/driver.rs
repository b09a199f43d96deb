//! The solve driver: argument checks, the shared state of the threads,
//! iterative deepening around MTD(f), progress, and the principal
//! variation.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::kalah::packed;
use crate::kalah::position::{format_line, Position};
use crate::kalah::rules::KalahRules;
use crate::progress::Event;
use crate::tablebase::TableSet;
use crate::tables::MAX_TABLE_PITS;

use super::checkpoint::{CheckpointReason, Identity};
use super::node::{Searcher, EMPTY_CHILD};
use super::options::{SearchStats, Solution, SolveOptions};
use super::resume;
use super::shared::{DriveState, Shared};
use super::tt::{Key, TransTable, FULL_DEPTH, NO_MOVE};

/// Solve `position` exactly.
///
/// `tables` are probed when they are for the same board width and rules
/// (see [`SolveOptions::use_tables`] and [`SolveOptions::max_table_seeds`]).
/// Boards of 1 to 6 pits per side are supported.
///
/// ```
/// use mancala_solver::kalah::position::Position;
/// use mancala_solver::search::{solve, SolveOptions};
///
/// // Kalah(4,3): a first-player win by 8.
/// let start = Position::start(4, 3).unwrap();
/// let sol = solve(&start, None, &SolveOptions::default()).unwrap();
/// assert_eq!(sol.value, 8);
/// assert_eq!(sol.verdict(), Some("win"));
/// // The principal variation, replayed, ends with that difference.
/// let mut end = start;
/// end.play_line(&sol.pv, Default::default()).unwrap();
/// let [south, north] = end.stores();
/// assert_eq!(south as i32 - north as i32, 8);
/// ```
pub fn solve(
    position: &Position,
    tables: Option<&TableSet<KalahRules>>,
    options: &SolveOptions,
) -> Result<Solution> {
    let m = position.pits_per_side();
    if m > MAX_TABLE_PITS {
        return Err(Error::OutOfRange(format!(
            "{m} pits per side: the solver handles 1 to {MAX_TABLE_PITS} pits per side"
        )));
    }
    let store_diff = position.mover_store() as i32 - position.opponent_store() as i32;
    let s = position.active_seeds() as i32;
    let threads = crate::threads::resolve(Some(options.threads))?;
    if let Some(tb) = tables {
        tb.check(options.rules, m)?;
    }
    let tb = tables.filter(|tb| options.use_tables && tb.max_seeds() > 0);
    let tmax = tb.map_or(0, |tb| {
        options
            .max_table_seeds
            .map_or(tb.max_seeds(), |k| k.min(tb.max_seeds()))
    });
    let tb = if tmax > 0 { tb } else { None };
    let resume = options.resume.as_deref();
    let identity = (resume.is_some() || options.checkpoint.is_some())
        .then(|| Identity::of(position, options.rules, tb, tmax));
    if let (Some(ck), Some(id)) = (resume, &identity) {
        ck.identity.check(id)?;
        if let Some(f) = &ck.state.finished {
            return Ok(resume::finished_solution(f, &ck.state, threads, tmax));
        }
    }
    let resumed = resume.map(|ck| resume::drive_state(&ck.state, s, store_diff));
    let first_guess = options.guess.map_or(0, |g| g - store_diff).clamp(-s, s);
    let (lo0, hi0) = resumed
        .filter(|r| r.exact_started)
        .map_or((-s, s), |r| (r.lower, r.upper));
    let sh = Shared {
        rules: options.rules,
        opts: options.clone(),
        tt: if options.use_tt {
            Some(match &options.shared_tt {
                Some(tt) => tt.clone(),
                None => Arc::new(TransTable::try_with_kib(
                    options.tt_mb.max(1).saturating_mul(1 << 10),
                )?),
            })
        } else {
            None
        },
        near: if options.use_tt && options.near_tt_kb > 0 {
            (0..threads)
                .map(|_| TransTable::try_with_kib(options.near_tt_kb))
                .collect::<Result<Vec<_>>>()?
        } else {
            Vec::new()
        },
        near_max: tmax as i32 + options.near_seeds.min(1000) as i32,
        tb,
        tmax: tmax as i32,
        mapped: tb
            .is_some_and(|tb| (1..=tmax).any(|k| tb.table(k).is_some_and(|t| !t.in_memory()))),
        threads,
        nodes: AtomicU64::new(0),
        bound_lo: AtomicI32::new(lo0 + store_diff),
        bound_hi: AtomicI32::new(hi0 + store_diff),
        depth: AtomicU32::new(0),
        store_diff,
        stop_ready: AtomicBool::new(options.id_step == 0),
        stopped: AtomicBool::new(false),
        state: Mutex::new(resumed.unwrap_or_else(|| DriveState::new(s, first_guess))),
        resume: resumed,
        started: Instant::now(),
    };
    if let (Some(ck), Some(tt)) = (resume, &sh.tt) {
        tt.restore(&ck.entries);
    }

    if position.is_game_over(options.rules) {
        let v = position.final_difference();
        if let (Some(id), Some(_)) = (&identity, &options.checkpoint) {
            let c = resume::over(id, v);
            resume::save(&sh, &c, CheckpointReason::Finished, 0.0);
        }
        return Ok(Solution {
            value: v,
            exact: true,
            lower: v,
            upper: v,
            depth: 0,
            best_move: None,
            pv_turns: Vec::new(),
            pv: String::new(),
            stats: SearchStats::default(),
            solve_seconds: 0.0,
            pv_seconds: 0.0,
            threads,
            table_seeds: tmax,
        });
    }
    let mut root = [0u8; 12];
    root[..m].copy_from_slice(position.mover_pits());
    root[m..2 * m].copy_from_slice(position.opponent_pits());

    let done = AtomicBool::new(false);
    let start = Instant::now();
    let context = identity.map(|identity| resume::Context {
        identity,
        s,
        root,
        prior_nodes: resume.map_or(0, |ck| ck.state.nodes),
        prior_seconds: resume.map_or(0.0, |ck| ck.state.seconds),
        start,
    });
    let run = std::thread::scope(|scope| -> Result<Run> {
        // The browser build has no threads: its search reports each pass
        // itself ([`Searcher::drive`]).
        if options.progress.is_active() && !cfg!(target_arch = "wasm32") {
            let sh = &sh;
            let done = &done;
            scope.spawn(move || progress(sh, done, start));
        }
        if let (Some(cx), Some(_)) = (&context, &options.checkpoint) {
            let sh = &sh;
            let done = &done;
            scope.spawn(move || resume::periodic(sh, cx, done));
        }
        let go = || match m {
            1 => run::<1>(&sh, &root, s, start),
            2 => run::<2>(&sh, &root, s, start),
            3 => run::<3>(&sh, &root, s, start),
            4 => run::<4>(&sh, &root, s, start),
            5 => run::<5>(&sh, &root, s, start),
            _ => run::<6>(&sh, &root, s, start),
        };
        let out = if threads > 1 {
            crate::threads::pool(Some(threads)).map(|pool| pool.install(go))
        } else {
            // One thread never splits: no pool needed.
            Ok(go())
        };
        done.store(true, Ordering::Relaxed);
        out
    })?;
    let mut stats = run.stats;
    stats.nodes = stats.nodes.max(sh.nodes.load(Ordering::Relaxed));
    let best_move = run.pv_turns.first().and_then(|t| t.first()).copied();
    let o = &run.outcome;
    if let (Some(cx), Some(plan)) = (&context, &options.checkpoint) {
        let t = Instant::now();
        let (c, reason) = match o.exact {
            Some(v) => (
                resume::finished(&sh, cx, v + store_diff, &run.pv_turns),
                CheckpointReason::Finished,
            ),
            None => (
                resume::snapshot(&sh, cx, plan.max_entries),
                CheckpointReason::Stopped,
            ),
        };
        resume::save(&sh, &c, reason, t.elapsed().as_secs_f64());
    }
    let (value, lower, upper) = match o.exact {
        Some(v) => (v, v, v),
        None => (o.estimate, o.lower, o.upper),
    };
    Ok(Solution {
        value: value + store_diff,
        exact: o.exact.is_some(),
        lower: lower + store_diff,
        upper: upper + store_diff,
        depth: o.depth,
        best_move,
        pv: format_line(&run.pv_turns),
        pv_turns: run.pv_turns,
        stats,
        solve_seconds: run.solve_seconds,
        pv_seconds: run.pv_seconds,
        threads,
        table_seeds: tmax,
    })
}

/// What [`run`] returns.
pub(super) struct Run {
    pub(super) outcome: Outcome,
    pub(super) stats: SearchStats,
    pub(super) solve_seconds: f64,
    pub(super) pv_turns: Vec<Vec<usize>>,
    pub(super) pv_seconds: f64,
}

/// Solve from `root` on boards of `M` pits, then extract the principal
/// variation (or, when stopped, the best move so far).
pub(super) fn run<const M: usize>(sh: &Shared<'_>, root: &[u8; 12], s: i32, start: Instant) -> Run {
    let mut searcher = Searcher::<M>::new(sh, None);
    searcher.start_profile(s);
    let root = packed::word(root);
    searcher.seed_root(root, s);
    let outcome = searcher.drive(root, s);
    let solve_seconds = start.elapsed().as_secs_f64();
    let pv_start = Instant::now();
    searcher.aborted = false;
    // The principal variation is extracted to the end, whatever the clock.
    searcher.stoppable = false;
    let pv_turns = match outcome.exact {
        Some(v) => searcher.principal_variation(root, s, v),
        None => {
            let best = if outcome.best != NO_MOVE {
                outcome.best
            } else {
                searcher.first_move(root, s)
            };
            vec![vec![best as usize]]
        }
    };
    searcher.flush();
    Run {
        outcome,
        stats: searcher.stats,
        solve_seconds,
        pv_turns,
        pv_seconds: pv_start.elapsed().as_secs_f64(),
    }
}

/// What the driver found: the exact active value, or (when stopped) the
/// proven bounds and the best move so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outcome {
    pub(super) exact: Option<i32>,
    pub(super) lower: i32,
    pub(super) upper: i32,
    /// Best move so far (`NO_MOVE`: none known).
    pub(super) best: u8,
    pub(super) estimate: i32,
    pub(super) depth: u32,
}

/// The result of one MTD(f) run at one depth.
pub(super) struct Mtd {
    pub(super) lower: i32,
    pub(super) upper: i32,
    /// The value when it converged.
    pub(super) value: Option<i32>,
    /// The root move that proved `lower` (`NO_MOVE` if none did).
    pub(super) lower_move: u8,
    /// The root move of the last completed pass.
    pub(super) last_move: u8,
}

/// Report where the search stands about once a second until `done`.
pub(super) fn progress(sh: &Shared<'_>, done: &AtomicBool, start: Instant) {
    let mut last_nodes = 0u64;
    let mut last_time = start;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        let now = Instant::now();
        if now.duration_since(last_time) < Duration::from_secs(1) {
            continue;
        }
        let nodes = sh.nodes.load(Ordering::Relaxed);
        let rate = (nodes - last_nodes) as f64 / now.duration_since(last_time).as_secs_f64();
        last_nodes = nodes;
        last_time = now;
        let depth = sh.depth.load(Ordering::Relaxed);
        sh.opts.progress.event(&Event::Search {
            seconds: now.duration_since(start).as_secs_f64(),
            depth: (depth != FULL_DEPTH as u32).then_some(depth),
            lower: sh.bound_lo.load(Ordering::Relaxed),
            upper: sh.bound_hi.load(Ordering::Relaxed),
            nodes,
            rate,
        });
    }
}

impl<const M: usize> Searcher<'_, M> {
    /// Iterative deepening around MTD(f): the exact active value, or what
    /// was found when the search was stopped.
    pub(super) fn drive(&mut self, root: u128, s: i32) -> Outcome {
        let sh = self.sh;
        let o = &sh.opts;
        // A fresh solve starts from nothing; a resumed one from its
        // checkpoint (see `Shared::resume`).
        let start = *sh.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut guess = start.guess;
        let mut out = Outcome {
            exact: None,
            lower: -s,
            upper: s,
            best: start.best,
            estimate: guess,
            depth: start.depth,
        };
        let exact_from = start.exact_started.then_some((start.lower, start.upper));
        if o.id_step > 0 && exact_from.is_none() {
            let mut d = start.depth + o.id_step;
            while d <= o.id_jump.min(FULL_DEPTH as u32 - 1) {
                let r = self.mtdf(root, s, d as u8, guess, None, None);
                let Some(v) = r.value else {
                    return out;
                };
                guess = v;
                out.estimate = v;
                out.depth = d;
                out.best = if r.lower_move != NO_MOVE {
                    r.lower_move
                } else {
                    r.last_move
                };
                {
                    let mut st = sh.state.lock().unwrap_or_else(|e| e.into_inner());
                    st.depth = d;
                    st.guess = v;
                    st.best = out.best;
                }
                // From now on the deadline and the stop flag are honoured.
                sh.stop_ready.store(true, Ordering::Relaxed);
                if self.stoppable && sh.stop_requested() {
                    return out;
                }
                d += o.id_step;
            }
        }
        sh.stop_ready.store(true, Ordering::Relaxed);
        // (A resumed solve goes on into the exact search: it has a move.)
        if o.id_step > 0 && sh.resume.is_none() && self.stoppable && sh.stop_requested() {
            return out;
        }
        sh.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .exact_started = true;
        // A proof task asks one question: is the value at least `t`?
        let settle = o.at_least.map(|t| t - sh.store_diff);
        let guess = settle.map_or(guess, |t| t.clamp(-s, s));
        let r = self.mtdf(root, s, FULL_DEPTH, guess, exact_from, settle);
        if let Some(v) = r.value {
            out.exact = Some(v);
            return out;
        }
        out.lower = r.lower.max(-s);
        out.upper = r.upper.min(s);
        if r.lower_move != NO_MOVE {
            out.best = r.lower_move;
        }
        out.estimate = out.estimate.clamp(out.lower, out.upper);
        out
    }

    /// MTD(f) at `depth` from the first guess `guess`, within `bounds`
    /// already proven (a resumed exact search), else from nothing; when
    /// `settle` is given, only until the bounds say whether the value is
    /// at least `settle` (then [`Mtd::value`] stays `None`).
    pub(super) fn mtdf(
        &mut self,
        root: u128,
        s: i32,
        depth: u8,
        guess: i32,
        bounds: Option<(i32, i32)>,
        settle: Option<i32>,
    ) -> Mtd {
        self.stats.iterations += 1;
        self.sh.depth.store(depth as u32, Ordering::Relaxed);
        let (lower, upper) = bounds.unwrap_or((-s - 1, s + 1));
        let mut r = Mtd {
            lower,
            upper,
            value: None,
            lower_move: NO_MOVE,
            last_move: NO_MOVE,
        };
        if r.lower >= r.upper {
            r.value = Some(r.lower);
            return r;
        }
        let settled = |r: &Mtd| settle.is_some_and(|t| r.lower >= t || r.upper < t);
        let mut g = guess;
        while r.lower < r.upper {
            if settled(&r) {
                return r;
            }
            let beta = if g <= r.lower {
                r.lower + 1
            } else {
                g.min(r.upper)
            };
            self.stats.mtdf_passes += 1;
            self.root_move = NO_MOVE;
            let mark = self.profile_mark();
            g = self.search(root, s, depth, 0, beta, None);
            if self.aborted {
                return r;
            }
            self.profile_pass(depth, beta, g, mark);
            r.last_move = self.root_move;
            if g < beta {
                r.upper = g;
            } else {
                r.lower = g;
                r.lower_move = self.root_move;
            }
            if depth == FULL_DEPTH {
                let sd = self.sh.store_diff;
                self.sh
                    .bound_lo
                    .store(r.lower.max(-s) + sd, Ordering::Relaxed);
                self.sh
                    .bound_hi
                    .store(r.upper.min(s) + sd, Ordering::Relaxed);
                let mut st = self.sh.state.lock().unwrap_or_else(|e| e.into_inner());
                st.lower = r.lower.max(-s);
                st.upper = r.upper.min(s);
                st.guess = g.clamp(-s, s);
                if r.lower_move != NO_MOVE {
                    st.best = r.lower_move;
                }
                drop(st);
                // The browser build has no progress thread: each pass of
                // the exact search reports the bounds it proved.
                if cfg!(target_arch = "wasm32") && self.sh.opts.progress.is_active() {
                    let nodes = self.sh.nodes.load(Ordering::Relaxed);
                    let seconds = self.sh.started.elapsed().as_secs_f64();
                    self.sh.opts.progress.event(&Event::Search {
                        seconds,
                        depth: None,
                        lower: r.lower.max(-s) + sd,
                        upper: r.upper.min(s) + sd,
                        nodes,
                        rate: nodes as f64 / seconds.max(1e-9),
                    });
                }
            }
        }
        r.value = Some(g);
        r
    }

    /// The first move of `root` in the search order (transposition move
    /// first).
    pub(super) fn first_move(&self, root: u128, s: i32) -> u8 {
        let tt_move = self
            .tt(s)
            .and_then(|tt| tt.probe(Key::from_word(root)))
            .map_or(NO_MOVE, |e| e.best);
        let mut kids = [EMPTY_CHILD; 6];
        let mut order = [0u8; 6];
        let n = self.children(root, s, tt_move, &mut kids, &mut order, false);
        debug_assert!(n > 0);
        kids[order[0] as usize].pit
    }

    /// The principal variation from a position in play of active value `v`,
    /// turn by turn, to the end of the game.
    pub(super) fn principal_variation(&mut self, root: u128, s: i32, v: i32) -> Vec<Vec<usize>> {
        let mut turns: Vec<Vec<usize>> = vec![Vec::new()];
        let (mut pits, mut s, mut v) = (root, s, v);
        loop {
            let tt_move = self
                .tt(s)
                .and_then(|tt| tt.probe(Key::from_word(pits)))
                .map_or(NO_MOVE, |e| e.best);
            let mut kids = [EMPTY_CHILD; 6];
            let mut order = [0u8; 6];
            let n = self.children(pits, s, tt_move, &mut kids, &mut order, false);
            let mut chosen = None;
            for c in order[..n].iter().map(|&k| &kids[k as usize]) {
                let d = c.delta();
                let reaches = if c.over {
                    d == v
                } else if let Some(cv) = self.probe_table(c.pits, c.seeds()) {
                    (if c.extra { d + cv } else { d - cv }) == v
                } else if c.extra {
                    self.search(c.pits, c.seeds(), FULL_DEPTH, 1, v - d, None) >= v - d
                } else {
                    self.search(c.pits, c.seeds(), FULL_DEPTH, 1, d - v + 1, None) < d - v + 1
                };
                if reaches {
                    chosen = Some(*c);
                    break;
                }
            }
            let c = chosen.expect("some move reaches the value of the position");
            turns.last_mut().unwrap().push(c.pit as usize);
            if c.over {
                break;
            }
            if c.extra {
                v -= c.delta();
            } else {
                v = c.delta() - v;
                turns.push(Vec::new());
            }
            pits = c.pits;
            s = c.seeds();
        }
        turns
    }
}
