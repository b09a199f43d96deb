//! The search's profile hooks ([`super::profile`]): inline methods of the
//! searcher that count into its [`SearchProfile`] in builds with the cargo
//! feature `search-profile`, and compile to nothing otherwise.

use super::node::Searcher;
use super::profile::{Mark, SearchProfile, Tally};

/// The search's hooks: each does nothing without the feature, or when this
/// solve collects no profile.
#[cfg_attr(not(feature = "search-profile"), allow(unused_variables))]
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
            return p.mark(self.stats.nodes);
        }
        Mark::default()
    }

    /// A fresh tally for a node's child loop.
    #[inline(always)]
    pub(super) fn profile_tally(&self) -> Tally {
        Tally::default()
    }

    /// A node with `s` seeds in play is entered.
    #[inline(always)]
    pub(super) fn profile_node(&mut self, s: i32) {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref_mut() {
            p.enter(s);
        }
    }

    /// A child of the node (`s` seeds in play, counters at `node` when its
    /// child loop began) was searched from `child` (or, with `cut`, was
    /// valued without a search at `child`, which only happens with the
    /// enhanced transposition cut-off off); `cut`: it cut the node off.
    #[inline(always)]
    pub(super) fn profile_child(
        &mut self,
        s: i32,
        node: Mark,
        child: Mark,
        cut: bool,
        tally: &mut Tally,
    ) {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref_mut() {
            p.child(s, node, child, cut, tally, self.stats.nodes);
        }
    }

    /// The node (`s` seeds in play) reached its child loop and failed low.
    #[inline(always)]
    pub(super) fn profile_fail_low(&mut self, s: i32) {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref_mut() {
            p.fail_low(s);
        }
    }

    /// An MTD(f) pass at `depth` with window `window` returned `value`,
    /// begun at `start`.
    #[inline(always)]
    pub(super) fn profile_pass(&mut self, depth: u8, window: i32, value: i32, start: Mark) {
        #[cfg(feature = "search-profile")]
        if let Some(p) = self.stats.profile.as_deref_mut() {
            p.pass(depth, window, value, start, self.stats.nodes);
        }
    }
}
