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
}

/// The counting itself, on plain numbers (`nodes`: the search's node count
/// at the time), so that it can be checked on a hand-made tree.
#[cfg(feature = "search-profile")]
impl SearchProfile {
    fn level(&mut self, s: i32) -> &mut LevelProfile {
        let i = (s.max(0) as usize).min(self.by_seeds.len() - 1);
        &mut self.by_seeds[i]
    }

    pub(super) fn mark(&self, nodes: u64) -> Mark {
        Mark {
            cut_first: self.cut_first,
            nodes,
        }
    }

    pub(super) fn enter(&mut self, s: i32) {
        self.cut_first += 1;
        self.level(s).nodes += 1;
    }

    /// A child of a node with `s` seeds in play, begun at `child`, is done
    /// (`nodes` now); the node's child loop began at `node`.
    pub(super) fn child(
        &mut self,
        s: i32,
        node: Mark,
        child: Mark,
        cut: bool,
        tally: &mut Tally,
        nodes: u64,
    ) {
        tally.searched += 1;
        if cut {
            // Had this child come first, the node would have cost its own
            // visit and this child's subtree only.
            self.cut_first = node.cut_first + (self.cut_first - child.cut_first);
            let before = tally.before_cut;
            let level = self.level(s);
            level.searched_cuts += 1;
            if tally.searched > 1 {
                level.late_cuts += 1;
                level.nodes_before_late_cuts += before;
            }
        } else {
            tally.before_cut += nodes - child.nodes;
        }
    }

    pub(super) fn fail_low(&mut self, s: i32) {
        self.level(s).fail_lows += 1;
    }

    pub(super) fn pass(&mut self, depth: u8, window: i32, value: i32, start: Mark, nodes: u64) {
        self.passes.push(PassProfile {
            depth: (depth != super::tt::FULL_DEPTH).then_some(depth),
            window,
            value,
            nodes: nodes - start.nodes,
            nodes_if_cut_first: self.cut_first - start.cut_first,
        });
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

#[cfg(all(test, feature = "search-profile"))]
mod tests {
    use super::*;

    /// A hand-made search: the profile and the node count it would see.
    struct Tree {
        p: SearchProfile,
        nodes: u64,
    }

    /// A node of a hand-made search: its seeds, the counters before it was
    /// entered and when its child loop began, and its loop's tally.
    struct Node {
        s: i32,
        start: Mark,
        at_loop: Mark,
        tally: Tally,
    }

    impl Tree {
        fn new(root_seeds: i32) -> Tree {
            Tree {
                p: SearchProfile::new(root_seeds),
                nodes: 0,
            }
        }

        /// Enter a node with `s` seeds in play.
        fn open(&mut self, s: i32) -> Node {
            let start = self.p.mark(self.nodes);
            self.nodes += 1;
            self.p.enter(s);
            Node {
                s,
                start,
                at_loop: self.p.mark(self.nodes),
                tally: Tally::default(),
            }
        }

        /// `child` is done; `cut`: it cut `parent` off.
        fn close(&mut self, child: Node, parent: &mut Node, cut: bool) {
            let nodes = self.nodes;
            self.p.child(
                parent.s,
                parent.at_loop,
                child.start,
                cut,
                &mut parent.tally,
                nodes,
            );
        }

        /// A leaf child of `parent`, with `s` seeds in play.
        fn leaf(&mut self, s: i32, parent: &mut Node, cut: bool) {
            let leaf = self.open(s);
            self.close(leaf, parent, cut);
        }
    }

    /// A hand-made pass: root R (10 seeds) searches A (no cut; A is a leaf),
    /// then B (9 seeds), which searches C (a leaf, no cut), then D (a node
    /// searching the leaf E, which does not cut: D fails low), and D cuts
    /// B; then B does not cut R, and R searches F (a leaf), which cuts R.
    /// Nodes: R A B C D E F = 7. Had every cutting child come first: R
    /// searches F only, so R and F: 2. B's late cut spent 1 node (C) before
    /// D, R's spent 5 (A, and B's 4) before F.
    #[test]
    fn a_hand_made_tree() {
        let mut t = Tree::new(10);
        let mut r = t.open(10);
        t.leaf(9, &mut r, false); // A
        let mut b = t.open(9);
        t.leaf(8, &mut b, false); // C
        let mut d = t.open(8);
        t.leaf(7, &mut d, false); // E
        t.p.fail_low(8);
        t.close(d, &mut b, true);
        t.close(b, &mut r, false);
        t.leaf(9, &mut r, true); // F
        let nodes = t.nodes;
        t.p.pass(FULL, 3, 5, r.start, nodes);
        let p = t.p;

        let x = &p.passes[0];
        assert_eq!((x.depth, x.window, x.value), (None, 3, 5));
        assert_eq!(x.nodes, 7);
        // R and F; B's saving (C) is inside what R's drops.
        assert_eq!(x.nodes_if_cut_first, 2);
        let l = |s: usize| &p.by_seeds[s];
        assert_eq!(
            (0..=10).map(|s| l(s).nodes).collect::<Vec<_>>(),
            [0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 1]
        );
        let cuts = |s: usize| {
            (
                l(s).searched_cuts,
                l(s).late_cuts,
                l(s).nodes_before_late_cuts,
            )
        };
        assert_eq!(cuts(10), (1, 1, 5));
        assert_eq!(cuts(9), (1, 1, 1));
        assert_eq!((l(8).searched_cuts, l(8).fail_lows), (0, 1));
    }

    /// A late cut on the line the estimate keeps is saved.
    #[test]
    fn a_late_cut_inside_the_kept_line() {
        // R searches B, which searches C (no cut), then D (a leaf) cuts B,
        // and B cuts R. Nodes R B C D = 4; if cut first: R B D = 3.
        let mut t = Tree::new(10);
        let mut r = t.open(10);
        let mut b = t.open(9);
        t.leaf(8, &mut b, false); // C
        t.leaf(8, &mut b, true); // D
        t.close(b, &mut r, true);
        let nodes = t.nodes;
        t.p.pass(12, 1, 1, r.start, nodes);
        let p = t.p;
        let x = &p.passes[0];
        assert_eq!((x.depth, x.nodes, x.nodes_if_cut_first), (Some(12), 4, 3));
        assert_eq!(
            (p.by_seeds[10].searched_cuts, p.by_seeds[10].late_cuts),
            (1, 0)
        );
        assert_eq!(p.by_seeds[9].nodes_before_late_cuts, 1);
    }

    const FULL: u8 = super::super::tt::FULL_DEPTH;
}
