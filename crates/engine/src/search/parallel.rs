//! Young-brothers-wait splitting near the root: after the first child,
//! the remaining children of a split node are searched in parallel with
//! rayon, and a cut-off in one stops the others.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::node::{Child, Searcher};
use super::options::SearchStats;
use super::shared::Cancel;
use super::tt::{FULL_DEPTH, NO_MOVE};

impl<const M: usize> Searcher<'_, M> {
    /// Search `rest` in parallel; returns the best value and its move, or
    /// sets `aborted` when an ancestor split was cancelled.
    pub(super) fn parallel(
        &mut self,
        rest: &[Child],
        depth: u8,
        ply: u32,
        gamma: i32,
    ) -> (i32, u8) {
        let flag = AtomicBool::new(false);
        let cancel = Cancel {
            flag: &flag,
            parent: self.cancel,
        };
        let sh = self.sh;
        let stoppable = self.stoppable;
        let cancel_ref = &cancel;
        let flag_ref = &flag;
        let results: Vec<(i32, u8, SearchStats, bool)> = rest
            .par_iter()
            .map(|c| {
                if c.hi < gamma || c.lo == c.hi {
                    return (c.hi, c.pit, SearchStats::default(), false);
                }
                let mut sub = Searcher::<M>::new(sh, Some(cancel_ref));
                sub.stoppable = stoppable;
                sub.stats.parallel_tasks = 1;
                let v = if cancel_ref.is_set() {
                    sub.aborted = true;
                    0
                } else {
                    sub.child_value(c, depth, ply, gamma)
                };
                if !sub.aborted && v >= gamma {
                    flag_ref.store(true, Ordering::Relaxed);
                }
                sub.flush();
                (v, c.pit, sub.stats, sub.aborted)
            })
            .collect();
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        let mut any_aborted = false;
        for (v, mv, st, aborted) in &results {
            // Sub-searchers flushed their own nodes to the shared counter.
            self.flushed += st.nodes;
            self.stats.add(st);
            if *aborted {
                any_aborted = true;
                continue;
            }
            if ply == 0 && depth == FULL_DEPTH {
                self.sh.record_root_result(*mv, *v, gamma);
            }
            if *v > best {
                best = *v;
                best_move = *mv;
            }
        }
        if self.cancelled() || (any_aborted && best < gamma) {
            self.aborted = true;
        }
        (best, best_move)
    }
}
