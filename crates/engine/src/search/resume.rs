//! Checkpoints inside a solve: the helper thread that saves one
//! periodically while the search runs, the last one when it stops or
//! finishes, and the start of a resumed solve from one.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::progress::Event;

use super::checkpoint::{
    plausible, Checkpoint, CheckpointReason, Finished, Identity, RootMove, SearchState,
};
use super::node::{Searcher, EMPTY_CHILD};
use super::options::{SearchStats, Solution};
use super::shared::{DriveState, Shared};
use super::tt::{unique_keys, Entry, Key, FULL_DEPTH, NO_MOVE};

/// What every checkpoint of one solve shares.
pub(super) struct Context {
    pub(super) identity: Identity,
    /// Seeds in play at the root.
    pub(super) s: i32,
    /// The root's pits, mover's first.
    pub(super) root: [u8; 12],
    /// Nodes and seconds of the runs before this one (resumed solves).
    pub(super) prior_nodes: u64,
    pub(super) prior_seconds: f64,
    pub(super) start: Instant,
}

/// The driver's state of a resumed solve, in active values.
pub(super) fn drive_state(st: &SearchState, s: i32, sd: i32) -> DriveState {
    let mut d = DriveState::new(s, (st.guess - sd).clamp(-s, s));
    d.depth = st.depth;
    d.best = st.best_move.map_or(NO_MOVE, |b| b as u8);
    d.exact_started = st.exact_started;
    d.lower = (st.lower - sd).clamp(-s, s);
    d.upper = (st.upper - sd).clamp(-s, s);
    for r in &st.root_moves {
        d.root[r.pit] = (r.lower - sd, r.upper - sd);
    }
    d
}

/// The solve's state now, as a checkpoint saves it (values with the stores).
fn search_state(sh: &Shared<'_>, cx: &Context) -> SearchState {
    let d = *sh.state.lock().unwrap_or_else(|e| e.into_inner());
    let (s, sd) = (cx.s, sh.store_diff);
    let m = cx.identity.pits;
    let root_moves = (0..m)
        .filter(|&p| cx.root[p] > 0)
        .map(|p| RootMove {
            pit: p,
            lower: d.root[p].0.max(-s) + sd,
            upper: d.root[p].1.min(s) + sd,
        })
        .collect();
    SearchState {
        depth: d.depth,
        guess: d.guess + sd,
        best_move: (d.best != NO_MOVE).then_some(d.best as usize),
        exact_started: d.exact_started,
        lower: d.lower + sd,
        upper: d.upper + sd,
        root_moves,
        nodes: cx.prior_nodes + sh.nodes.load(Ordering::Relaxed),
        seconds: cx.prior_seconds + cx.start.elapsed().as_secs_f64(),
        finished: None,
    }
}

/// A checkpoint of the solve as it stands: its state and the most
/// valuable entries of the main transposition table, copied while the
/// search goes on ([`super::TransTable::snapshot`]). A resumed solve keeps
/// the entries it started from ([`keep_resumed`]).
pub(super) fn snapshot(sh: &Shared<'_>, cx: &Context, max_entries: usize) -> Checkpoint {
    let state = search_state(sh, cx);
    let (m, s) = (cx.identity.pits, cx.s);
    let mut entries = sh.tt.as_ref().map_or_else(Vec::new, |tt| {
        tt.snapshot(max_entries, |k, e| plausible(k, e, m, s))
    });
    if let Some(had) = &sh.opts.resume {
        entries = keep_resumed(entries, &had.entries, max_entries);
    }
    Checkpoint {
        identity: cx.identity.clone(),
        state,
        entries,
    }
}

/// The entries of `fresh` (a snapshot: sorted by key, each key once) and
/// those a resumed solve started from, `had`: a key of both gets the two
/// merged ([`Entry::merge`]: the deeper, or both bounds), and a key of
/// `had` alone is kept, so that a checkpoint of a resumed solve holds
/// everything the one it resumed held, even what the table could not keep
/// (a smaller table, a crowded bucket) or has since replaced. At most
/// `max`: beyond, the most valuable ([`Entry::rank`]). Sorted by key.
pub(super) fn keep_resumed(
    fresh: Vec<(Key, Entry)>,
    had: &[(Key, Entry)],
    max: usize,
) -> Vec<(Key, Entry)> {
    // A checkpoint read from a file is sorted, each key once; a caller's
    // own list may not be.
    let sorted;
    let had = if had.windows(2).all(|w| w[0].0 < w[1].0) {
        had
    } else {
        let mut v = had.to_vec();
        unique_keys(&mut v);
        sorted = v;
        &sorted
    };
    let mut out = Vec::with_capacity(fresh.len() + had.len());
    let mut old = had.iter().copied().peekable();
    for (k, e) in fresh {
        while let Some(x) = old.next_if(|x| x.0 < k) {
            out.push(x);
        }
        match old.next_if(|x| x.0 == k) {
            Some((_, o)) => out.push((k, e.merge(o))),
            None => out.push((k, e)),
        }
    }
    out.extend(old);
    if out.len() > max {
        out.select_nth_unstable_by_key(max, |x| std::cmp::Reverse(x.1.rank()));
        out.truncate(max);
        out.sort_unstable_by_key(|x| x.0);
    }
    out
}

/// The checkpoint of a finished solve: its result, no entries.
pub(super) fn finished(sh: &Shared<'_>, cx: &Context, value: i32, pv: &[Vec<usize>]) -> Checkpoint {
    let mut state = search_state(sh, cx);
    state.lower = value;
    state.upper = value;
    state.guess = value;
    state.best_move = pv.first().and_then(|t| t.first()).copied();
    state.exact_started = true;
    state.finished = Some(Finished {
        value,
        pv_turns: pv.to_vec(),
    });
    Checkpoint {
        identity: cx.identity.clone(),
        state,
        entries: Vec::new(),
    }
}

/// The checkpoint of a position whose game is over, of value `value`.
pub(super) fn over(identity: &Identity, value: i32) -> Checkpoint {
    Checkpoint {
        identity: identity.clone(),
        state: SearchState {
            depth: 0,
            guess: value,
            best_move: None,
            exact_started: true,
            lower: value,
            upper: value,
            root_moves: Vec::new(),
            nodes: 0,
            seconds: 0.0,
            finished: Some(Finished {
                value,
                pv_turns: Vec::new(),
            }),
        },
        entries: Vec::new(),
    }
}

/// Hand `c` to the solve's checkpoint sink and report how it went.
pub(super) fn save(
    sh: &Shared<'_>,
    c: &Checkpoint,
    reason: CheckpointReason,
    snapshot_seconds: f64,
) {
    let Some(plan) = &sh.opts.checkpoint else {
        return;
    };
    let t = Instant::now();
    match (plan.save)(c, reason) {
        Ok(bytes) => sh.opts.progress.event(&Event::CheckpointSaved {
            reason: reason.name(),
            entries: c.entries.len() as u64,
            bytes,
            snapshot_seconds,
            write_seconds: t.elapsed().as_secs_f64(),
        }),
        Err(error) => sh
            .opts
            .progress
            .event(&Event::CheckpointFailed { error: &error }),
    }
}

/// The helper thread: a checkpoint every [`super::checkpoint::Checkpointing::every`]
/// until `done`.
pub(super) fn periodic(sh: &Shared<'_>, cx: &Context, done: &AtomicBool) {
    let Some(plan) = &sh.opts.checkpoint else {
        return;
    };
    lower_priority();
    let mut last = Instant::now();
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50).min(plan.every));
        if last.elapsed() < plan.every || done.load(Ordering::Relaxed) {
            continue;
        }
        let t = Instant::now();
        let c = snapshot(sh, cx, plan.max_entries);
        save(
            sh,
            &c,
            CheckpointReason::Periodic,
            t.elapsed().as_secs_f64(),
        );
        last = Instant::now();
    }
}

/// How many steps of niceness (Linux) the helper thread takes below the
/// process (capped at 19, the lowest priority). A checkpoint costs the
/// same CPU at any priority; the priority only decides how long it waits
/// for a CPU. At 19 a solve using every core left its helper about 5% of
/// a core: a checkpoint of 16 M entries of a 4 GiB table came 120-137 s
/// after it was due instead of 6-9 s (docs/solver-notes.md, "Checkpoint
/// priority"). Ten steps below (nice 10 for a process at 0) it came 40-64
/// s late, and the search, and other work, keep most of the core.
#[cfg(target_os = "linux")]
const CHECKPOINT_NICE_STEPS: libc::c_int = 10;

/// Lower the calling thread's scheduling priority by
/// `CHECKPOINT_NICE_STEPS` (never raise it: a process already run at a
/// low priority keeps its helper below it), so that a periodic checkpoint
/// takes a modest share of a busy core. Elsewhere than on Linux, and if
/// refused, nothing changes.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    if let Some(current) = thread_nice() {
        let target = current.saturating_add(CHECKPOINT_NICE_STEPS).min(19);
        if target > current {
            let _ = set_thread_nice(target);
        }
    }
}

/// The calling thread's niceness, if it can be read. Linux schedules
/// threads as tasks: `getpriority` and `setpriority` on the thread id read
/// and change this thread alone.
#[cfg(target_os = "linux")]
fn thread_nice() -> Option<libc::c_int> {
    // SAFETY: `gettid` and `getpriority` have no memory effects but on
    // `errno`, which is this thread's own.
    unsafe {
        // -1 is a valid niceness: only errno tells a failure apart.
        *libc::__errno_location() = 0;
        let n = libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t);
        (n != -1 || *libc::__errno_location() == 0).then_some(n)
    }
}

/// Set the calling thread's niceness; false if refused (raising the
/// priority needs rights, lowering it does not).
#[cfg(target_os = "linux")]
fn set_thread_nice(n: libc::c_int) -> bool {
    // SAFETY: `gettid` and `setpriority` have no memory effects; a refusal
    // is only a return value.
    unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, n) == 0 }
}

/// The solution a finished checkpoint holds (nothing searched).
pub(super) fn finished_solution(
    f: &Finished,
    state: &SearchState,
    threads: usize,
    tmax: usize,
) -> Solution {
    Solution {
        value: f.value,
        exact: true,
        lower: f.value,
        upper: f.value,
        depth: state.depth,
        best_move: f.pv_turns.first().and_then(|t| t.first()).copied(),
        pv: crate::kalah::position::format_line(&f.pv_turns),
        pv_turns: f.pv_turns.clone(),
        stats: SearchStats::default(),
        solve_seconds: 0.0,
        pv_seconds: 0.0,
        threads,
        table_seeds: tmax,
    }
}

impl<const M: usize> Searcher<'_, M> {
    /// A resumed solve: store the bounds proven on the opening moves as
    /// full-depth transposition entries of the positions they lead to, so
    /// that the exact search starts from them even when the checkpoint
    /// kept none of those entries.
    pub(super) fn seed_root(&self, root: u128, s: i32) {
        let Some(d) = self.sh.resume else {
            return;
        };
        let mut kids = [EMPTY_CHILD; 6];
        let mut order = [0u8; 6];
        let n = self.children(root, s, NO_MOVE, &mut kids, &mut order, false);
        for c in &kids[..n] {
            let (lo, hi) = d.root[c.pit as usize];
            let cs = c.seeds();
            if c.over || cs <= self.sh.tmax || (lo <= -s && hi >= s) {
                continue;
            }
            let delta = c.delta();
            let (clo, chi) = if c.extra {
                (lo - delta, hi - delta)
            } else {
                (delta - hi, delta - lo)
            };
            let (clo, chi) = (clo.max(-cs), chi.min(cs));
            if clo > chi {
                continue;
            }
            if let Some(tt) = self.tt(cs) {
                tt.store(
                    super::tt::Key::from_word(c.pits),
                    Entry {
                        lo_share: super::node::share_ceil(clo, cs),
                        hi_share: super::node::share_floor(chi, cs),
                        depth: FULL_DEPTH,
                        best: NO_MOVE,
                        work: 31,
                    },
                );
            }
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::{lower_priority, set_thread_nice, thread_nice};

    #[test]
    fn the_helper_goes_ten_steps_below_its_thread_and_never_above_19() {
        // Each case on a fresh thread, so that the test's own thread keeps
        // its priority.
        let from = |start: Option<libc::c_int>| {
            std::thread::spawn(move || {
                if let Some(n) = start {
                    assert!(set_thread_nice(n), "setpriority({n})");
                }
                let before = thread_nice().unwrap();
                lower_priority();
                (before, thread_nice().unwrap())
            })
            .join()
            .unwrap()
        };
        let (before, after) = from(None);
        assert_eq!(after, (before + 10).min(19));
        assert_eq!(from(Some(12)), (12, 19));
        assert_eq!(from(Some(19)), (19, 19));
        let (before, after) = from(Some(5.max(before)));
        assert_eq!(after, (before + 10).min(19));
    }
}

#[cfg(test)]
mod keeping {
    use super::keep_resumed;
    use crate::search::tt::{Entry, Key, FULL_DEPTH, NO_MOVE};

    fn e(lo_share: u8, hi_share: u8, depth: u8, work: u8) -> Entry {
        Entry {
            lo_share,
            hi_share,
            depth,
            best: NO_MOVE,
            work,
        }
    }

    #[test]
    fn a_resumed_solves_entries_are_kept_merged_and_capped_by_value() {
        let k = |x: u8| Key::new(&[x, 1]);
        let fresh = vec![
            (k(2), e(1, 5, 8, 3)),
            (k(4), e(0, 3, FULL_DEPTH, 9)),
            (k(6), e(2, 4, 12, 1)),
        ];
        // Unsorted, one key twice: as a library caller may give them.
        let had = vec![
            (k(7), e(0, 6, 3, 2)),
            (k(2), e(0, 5, FULL_DEPTH, 4)),
            (k(1), e(0, 2, 10, 7)),
            (k(6), e(3, 7, 12, 6)),
            (k(7), e(1, 8, 3, 2)),
        ];
        let all = keep_resumed(fresh.clone(), &had, usize::MAX);
        let want = vec![
            (k(1), e(0, 2, 10, 7)),
            // The deeper entry of the two.
            (k(2), e(0, 5, FULL_DEPTH, 4)),
            (k(4), e(0, 3, FULL_DEPTH, 9)),
            // One depth: both bounds.
            (k(6), e(3, 4, 12, 6)),
            (k(7), e(1, 6, 3, 2)),
        ];
        assert_eq!(all, want);
        // Nothing resumed: the snapshot as it is.
        assert_eq!(keep_resumed(fresh.clone(), &[], usize::MAX), fresh);
        // At most 3: the most valuable, sorted by key.
        let top = keep_resumed(fresh, &had, 3);
        assert_eq!(top, vec![want[1], want[2], want[3]]);
    }
}
