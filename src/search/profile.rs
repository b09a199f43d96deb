//! Where a solve's nodes go, and how many better move ordering could save:
//! the search profile, collected only in builds with the cargo feature
//! `search-profile` and only by a single-threaded solve (a split search's
//! subtrees run on other searchers, whose counts cannot be ordered into one
//! tree). Without the feature every hook below is an empty inline function
//! and [`SearchStats::profile`](super::SearchStats::profile) stays `None`.
//!
//! The figure that matters for move ordering is
//! [`PassProfile::nodes_if_cut_first`]: the nodes the pass would have
//! visited had every node that was cut off by a searched child searched
//! that child first, with the same subtrees (the children searched before it
//! dropped, recursively). It is an estimate, not a bound: a child searched
//! earlier can fill the transposition table for a sibling, and another
//! cutting child might have a smaller subtree.
//!
//! ```text
//! cargo run --release --features search-profile -- solve kalah 6 4 \
//!     --max-table-seeds 20 --threads 1 --json
//! ```

use serde::Serialize;

use super::node::Searcher;

/// A single-threaded solve's profile (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchProfile {
    /// Every zero-window MTD(f) pass at the root, in order.
    pub passes: Vec<PassProfile>,
    /// The nodes by seeds in play: entry `s` counts the nodes with `s`
    /// seeds in play (every node of the solve, the principal variation's
    /// extraction included).
    pub by_seeds: Vec<LevelProfile>,
    /// Running count behind [`PassProfile::nodes_if_cut_first`].
    #[serde(skip)]
    cut_first: u64,
}

/// One MTD(f) pass at the root.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PassProfile {
    /// Its depth in plies; `None`: the full-depth (exact) search.
    pub depth: Option<u8>,
    /// The window: the pass tests "active value at least `window`" (values
    /// relative to the seeds in play, stores excluded).
    pub window: i32,
    /// What it returned: a lower bound if at least `window`, else an upper
    /// bound (active value).
    pub value: i32,
    /// Nodes it visited.
    pub nodes: u64,
    /// Nodes it would have visited had every cutting child been searched
    /// first, with the same subtrees.
    pub nodes_if_cut_first: u64,
}

/// The nodes with one number of seeds in play.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LevelProfile {
    /// Seeds in play.
    pub seeds: u32,
    /// Nodes visited (calls of the zero-window search).
    pub nodes: u64,
    /// Nodes cut off by a child they searched (not by the transposition
    /// table, futility or the enhanced transposition cut-off).
    pub searched_cuts: u64,
    /// Of those, the nodes whose cutting child was not the first they
    /// searched.
    pub late_cuts: u64,
    /// Nodes spent in the children that late cuts searched before the
    /// cutting one (nested late cuts are counted at every level).
    pub nodes_before_late_cuts: u64,
    /// Nodes that reached their child loop (not cut off before it) and
    /// failed low: every child refuted.
    pub fail_lows: u64,
}

impl SearchProfile {
    /// An empty profile for a solve whose root has `s` seeds in play.
    pub(super) fn new(s: i32) -> SearchProfile {
        SearchProfile {
            passes: Vec::new(),
            by_seeds: (0..=s.max(0) as u32)
                .map(|seeds| LevelProfile {
                    seeds,
                    ..LevelProfile::default()
                })
                .collect(),
            cut_first: 0,
        }
    }

    #[cfg(feature = "search-profile")]
    fn level(&mut self, s: i32) -> &mut LevelProfile {
        let i = (s.max(0) as usize).min(self.by_seeds.len() - 1);
        &mut self.by_seeds[i]
    }
}

/// Where the counters stood at some point of the search (empty without
/// the feature).
#[derive(Clone, Copy, Default)]
pub(super) struct Mark {
    #[cfg(feature = "search-profile")]
    cut_first: u64,
    #[cfg(feature = "search-profile")]
    nodes: u64,
}

/// What one node's child loop has seen so far (empty without the feature).
#[derive(Default)]
pub(super) struct Tally {
    #[cfg(feature = "search-profile")]
    searched: u32,
    #[cfg(feature = "search-profile")]
    before_cut: u64,
}

impl<const M: usize> Searcher<'_, M> {
    /// Whether this build collects profiles (the `search-profile` feature).
    pub(super) const PROFILING: bool = cfg!(feature = "search-profile");

    /// Start collecting a profile (single-threaded solves, with the feature).
    pub(super) fn start_profile(&mut self, s: i32) {
        if Self::PROFILING && self.sh.threads == 1 {
            self.stats.profile = Some(Box::new(SearchProfile::new(s)));
        }
    }

    /// The counters now.
    #[inline(always)]
    pub(super) fn profile_mark(&self) -> Mark {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref() {
            return Mark {
                cut_first: p.cut_first,
                nodes: self.stats.nodes,
            };
        }
        Mark::default()
    }

    /// A node with `s` seeds in play is entered.
    #[inline(always)]
    pub(super) fn profile_node(&mut self, _s: i32) {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref_mut() {
            p.cut_first += 1;
            p.level(_s).nodes += 1;
        }
    }

    /// A child of the node (`s` seeds in play, counters at `_node` when its
    /// child loop began) was searched from `_child`; `_cut`: it cut the
    /// node off.
    #[inline(always)]
    pub(super) fn profile_child(
        &mut self,
        _s: i32,
        _node: Mark,
        _child: Mark,
        _cut: bool,
        _tally: &mut Tally,
    ) {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref_mut() {
            _tally.searched += 1;
            if _cut {
                // Had this child come first, the node would have cost its
                // subtree only.
                p.cut_first = _node.cut_first + (p.cut_first - _child.cut_first);
                let before = _tally.before_cut;
                let level = p.level(_s);
                level.searched_cuts += 1;
                if _tally.searched > 1 {
                    level.late_cuts += 1;
                    level.nodes_before_late_cuts += before;
                }
            } else {
                _tally.before_cut += self.stats.nodes - _child.nodes;
            }
        }
    }

    /// The node (`s` seeds in play) reached its child loop and failed low.
    #[inline(always)]
    pub(super) fn profile_fail_low(&mut self, _s: i32) {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref_mut() {
            p.level(_s).fail_lows += 1;
        }
    }

    /// An MTD(f) pass at `_depth` with window `_window` returned `_value`,
    /// begun at `_start`.
    #[inline(always)]
    pub(super) fn profile_pass(&mut self, _depth: u8, _window: i32, _value: i32, _start: Mark) {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref_mut() {
            p.passes.push(PassProfile {
                depth: (_depth != super::tt::FULL_DEPTH).then_some(_depth),
                window: _window,
                value: _value,
                nodes: self.stats.nodes - _start.nodes,
                nodes_if_cut_first: p.cut_first - _start.cut_first,
            });
        }
    }
}
