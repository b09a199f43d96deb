//! One node of the search: its children (generated from the packed board,
//! bounded from the game end, the tables and the transposition tables),
//! the enhanced transposition cut-off, and the zero-window alpha-beta.

use std::sync::atomic::Ordering;

use crate::kalah::packed;

use super::options::{MoveOrder, SearchStats};
use super::shared::{Cancel, Shared};
use super::tt::{Entry, Key, TransTable, FULL_DEPTH, NO_MOVE};

/// One child of a node, with the bounds already known on the parent's value
/// through it.
#[derive(Clone, Copy)]
pub(super) struct Child {
    /// The child's pits as a [`packed::word`], seen from its side to move.
    pub(super) pits: u128,
    /// The child's index in its endgame table when its seeds in play are
    /// within the tables, else its transposition bucket; [`NO_SLOT`]: not
    /// computed.
    pub(super) slot: u64,
    /// Bounds on the parent's value through this child.
    pub(super) lo: i32,
    pub(super) hi: i32,
    /// Seeds the move banked for the mover minus the opponent's
    /// ([`Child::delta`]).
    pub(super) banked: i16,
    /// Seeds in play in the child ([`Child::seeds`]).
    pub(super) in_play: i16,
    /// The child's transposition entry, when ETC probed it (`probed`): the
    /// child's own search starts from it instead of probing again.
    pub(super) entry: Option<Entry>,
    pub(super) probed: bool,
    pub(super) pit: u8,
    pub(super) extra: bool,
    pub(super) over: bool,
}

impl Child {
    /// Seeds the move banked for the mover minus the opponent's: sown into
    /// the store, captured, and swept in when the game ends.
    #[inline(always)]
    pub(super) fn delta(&self) -> i32 {
        self.banked as i32
    }

    /// Seeds in play in the child.
    #[inline(always)]
    pub(super) fn seeds(&self) -> i32 {
        self.in_play as i32
    }

    /// Whether futility alone decides the child against a window
    /// `gamma`: its value seen from the parent lies in
    /// `delta - seeds ..= delta + seeds` (whichever side moves next), and
    /// that range is entirely below `gamma` (`below`) or at or above it.
    /// Children valued exactly (game over, in the tables) are not
    /// futility's.
    #[inline(always)]
    pub(super) fn futile(&self, gamma: i32, below: bool, tmax: i32) -> bool {
        !self.over
            && self.seeds() > tmax
            && if below {
                self.delta() + self.seeds() < gamma
            } else {
                self.delta() - self.seeds() >= gamma
            }
    }

    /// What is known of the child's transposition entry: the entry and
    /// bucket ETC found if it probed, else the bucket computed when the
    /// child was generated (a child above the tables), else nothing.
    #[inline]
    pub(super) fn probed(&self) -> Option<Probed> {
        if self.probed || self.slot != NO_SLOT {
            Some(Probed {
                entry: self.entry,
                bucket: self.slot as usize,
                done: self.probed,
            })
        } else {
            None
        }
    }
}

/// A position's transposition bucket and, when `done`, the entry a probe
/// found there.
#[derive(Clone, Copy)]
pub(super) struct Probed {
    pub(super) entry: Option<Entry>,
    pub(super) bucket: usize,
    /// The bucket was probed (`entry` is what it held).
    pub(super) done: bool,
}

/// "No bucket computed" in [`Searcher::store`].
pub(super) const NO_BUCKET: usize = usize::MAX;

/// Bit 7 of every byte.
pub(super) const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
/// Bit 0 of every byte.
pub(super) const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// "Not computed" in [`Child::slot`].
pub(super) const NO_SLOT: u64 = u64::MAX;

pub(super) const EMPTY_CHILD: Child = Child {
    pits: 0,
    slot: NO_SLOT,
    lo: 0,
    hi: 0,
    banked: 0,
    in_play: 0,
    entry: None,
    probed: false,
    pit: 0,
    extra: false,
    over: false,
};

pub(super) struct Searcher<'s, const M: usize> {
    pub(super) sh: &'s Shared<'s>,
    pub(super) cancel: Option<&'s Cancel<'s>>,
    pub(super) stats: SearchStats,
    pub(super) aborted: bool,
    pub(super) flushed: u64,
    /// Whether the deadline and stop flag apply (not while extracting the
    /// principal variation of a finished solve).
    pub(super) stoppable: bool,
    /// Best move of the root found by the last pass (`NO_MOVE` if none).
    pub(super) root_move: u8,
    /// This thread's near transposition table, if any.
    pub(super) near: Option<&'s TransTable>,
    /// Positions with at most this many seeds in play use `near`
    /// (`i32::MIN` without one).
    pub(super) near_max: i32,
    /// The shared transposition table, if any.
    pub(super) main: Option<&'s TransTable>,
    /// Positions with more seeds in play than this are not looked up in
    /// the transposition table by the enhanced transposition cut-off
    /// (`i32::MAX` with [`SolveOptions::etc_main_tt`], else `near_max`).
    pub(super) etc_tt_max: i32,
}

/// The search order of a move that sowed `sown` seeds (lower first; ties
/// keep the right-to-left order of generation), after the transposition
/// move: the extra turns first; then,
/// with [`MoveOrder::Banked`], the other moves by the seeds they bank for the
/// mover (sown into the store, captured, or swept at the end, minus what the
/// opponent sweeps), most first, which also puts first the moves that take
/// the game closest to the endgame tables; among those, fewest seeds sown
/// into the opponent's pits first, then the smallest pit. With
/// [`MoveOrder::Published`]: captures, then the rest. Measured with
/// `benches/solve.sh ordering` (random positions), banking halves the tree
/// of the published order and the two tie-breaks take another quarter.
#[inline]
pub(super) fn order_rank(mv: &packed::PackedMove, sown: u8, order: MoveOrder) -> u32 {
    if mv.extra_turn {
        1
    } else if order == MoveOrder::Published {
        if mv.captured > 0 {
            2
        } else {
            3
        }
    } else {
        let banked = (1024 - mv.delta).clamp(0, 2047) as u32;
        2 + (banked << 16 | (mv.given as u32) << 8 | sown as u32)
    }
}

#[inline]
pub(super) fn dec(depth: u8) -> u8 {
    if depth == FULL_DEPTH {
        FULL_DEPTH
    } else {
        depth - 1
    }
}

#[inline]
pub(super) fn share_ceil(v: i32, s: i32) -> u8 {
    ((v + s + 1).div_euclid(2)).clamp(0, s) as u8
}

#[inline]
pub(super) fn share_floor(v: i32, s: i32) -> u8 {
    ((v + s).div_euclid(2)).clamp(0, s) as u8
}

impl<'s, const M: usize> Searcher<'s, M> {
    pub(super) fn new(sh: &'s Shared<'s>, cancel: Option<&'s Cancel<'s>>) -> Searcher<'s, M> {
        let near = sh
            .near
            .get(rayon::current_thread_index().unwrap_or(0))
            .or(sh.near.first());
        let near_max = if near.is_some() {
            sh.near_max
        } else {
            i32::MIN
        };
        Searcher {
            sh,
            cancel,
            stats: SearchStats::default(),
            aborted: false,
            flushed: 0,
            stoppable: true,
            root_move: NO_MOVE,
            near,
            near_max,
            main: sh.tt.as_deref(),
            etc_tt_max: if sh.opts.etc_main_tt {
                i32::MAX
            } else {
                near_max
            },
        }
    }

    /// The transposition table of the positions with `s` seeds in play.
    #[inline(always)]
    pub(super) fn tt(&self, s: i32) -> Option<&'s TransTable> {
        if s <= self.near_max {
            self.near
        } else {
            self.main
        }
    }

    pub(super) fn flush(&mut self) {
        self.sh
            .nodes
            .fetch_add(self.stats.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.stats.nodes;
    }

    /// Whether this search must stop: a sibling split cut off, or the
    /// deadline or the stop flag (once honoured).
    #[inline]
    pub(super) fn cancelled(&self) -> bool {
        (self.stoppable && self.sh.stop_requested()) || self.cancel.is_some_and(|c| c.is_set())
    }

    /// Index of a position in play (a [`packed::word`]) in its table, if
    /// loaded.
    #[inline]
    pub(super) fn table_index(&self, pits: u128, s: i32) -> Option<u64> {
        if s > self.sh.tmax {
            return None;
        }
        let b = packed::unword(pits);
        self.sh
            .tb?
            .table(s as usize)?
            .indexer()
            .rank_rows::<M>(b[..M].try_into().unwrap(), b[M..2 * M].try_into().unwrap())
    }

    /// The loaded table of `s` seeds in play (`s` within the loaded tables).
    #[inline]
    pub(super) fn table(&self, s: i32) -> &'s crate::tables::Table {
        self.sh
            .tb
            .and_then(|tb| tb.table(s as usize))
            .expect("a loaded table")
    }

    /// Exact active value of a position in play from the tables, if loaded.
    #[inline]
    pub(super) fn probe_table(&self, pits: u128, s: i32) -> Option<i32> {
        self.table_index(pits, s).map(|ix| self.table(s).value(ix))
    }

    /// The children of the position in play `pits` (a [`packed::word`])
    /// with `s` seeds in play, in `out` in the order of generation (right
    /// to left), and the order to search them in `order` (the transposition
    /// move first, then by [`order_rank`]). With `prefetch`, each child's
    /// transposition bucket, or its table index and the table's data,
    /// starts loading as soon as the child is made, so the cache misses of
    /// the enhanced transposition cut-off overlap with generating and
    /// ordering the others.
    #[inline]
    pub(super) fn children(
        &self,
        pits: u128,
        s: i32,
        tt_move: u8,
        out: &mut [Child; 6],
        order: &mut [u8; 6],
        prefetch: bool,
    ) -> usize {
        let sh = self.sh;
        let ring = packed::pack_word::<M>(pits);
        let mut n = 0;
        let mut key = [0u32; 6];
        // The mover's non-empty pits, one bit each (bit 7 of each byte).
        let own = pits as u64 & packed::row_mask::<M>();
        let mut nonempty =
            ((own | ((own | HIGH_BITS) - LOW_BITS)) & HIGH_BITS) & packed::row_mask::<M>();
        while nonempty != 0 {
            let bit = 63 - nonempty.leading_zeros();
            nonempty &= !(1u64 << bit);
            let pit = (bit / 8) as usize;
            let sown = (own >> (8 * pit)) as u8;
            let mv = packed::packed_move::<M>(ring, s, pit, sh.rules);
            let (lo, hi) = if mv.game_over {
                (mv.delta, mv.delta)
            } else {
                (i32::MIN / 4, i32::MAX / 4)
            };
            let mut slot = NO_SLOT;
            if prefetch && !mv.game_over {
                if mv.seeds > sh.tmax {
                    if let Some(tt) = self.tt(mv.seeds) {
                        let bucket = tt.bucket(Key::from_word(mv.next));
                        tt.prefetch_at(bucket);
                        slot = bucket as u64;
                    }
                } else if let Some(ix) = self.table_index(mv.next, mv.seeds) {
                    self.table(mv.seeds).prefetch_start(ix);
                    slot = ix;
                }
            }
            out[n] = Child {
                pits: mv.next,
                slot,
                lo,
                hi,
                banked: mv.delta as i16,
                in_play: mv.seeds as i16,
                entry: None,
                probed: false,
                pit: pit as u8,
                extra: mv.extra_turn,
                over: mv.game_over,
            };
            let rank = if pit as u8 == tt_move {
                0
            } else {
                order_rank(&mv, sown, sh.opts.order)
            };
            key[n] = rank << 3 | n as u32;
            n += 1;
        }
        // Insertion sort of the ranks; the child's place in the low bits
        // keeps it stable (right to left within a rank).
        for i in 1..n {
            let k = key[i];
            let mut j = i;
            while j > 0 && key[j - 1] > k {
                key[j] = key[j - 1];
                j -= 1;
            }
            key[j] = k;
        }
        for i in 0..n {
            order[i] = (key[i] & 7) as u8;
        }
        n
    }

    /// Bounds on the parent's value through child `c`, from the tables, the
    /// transposition table (the near one only, unless
    /// [`SolveOptions::etc_main_tt`]) and futility.
    #[inline]
    pub(super) fn child_bounds(&mut self, c: &mut Child, depth: u8) {
        if c.over {
            return;
        }
        let o = &self.sh.opts;
        let d = c.delta();
        let to_parent = |lo: i32, hi: i32| {
            if c.extra {
                (d + lo, d + hi)
            } else {
                (d - hi, d - lo)
            }
        };
        if c.seeds() <= self.sh.tmax {
            let table_value = if c.slot != NO_SLOT {
                Some(self.table(c.seeds()).value(c.slot))
            } else {
                self.probe_table(c.pits, c.seeds())
            };
            if let Some(v) = table_value {
                self.stats.table_hits += 1;
                (c.lo, c.hi) = to_parent(v, v);
                return;
            }
        }
        let (mut lo, mut hi) = if o.use_futility {
            (-c.seeds(), c.seeds())
        } else {
            (i32::MIN / 4, i32::MAX / 4)
        };
        if c.seeds() > self.etc_tt_max {
            // Read when the child is searched (SolveOptions::etc_main_tt).
        } else if let Some(tt) = self.tt(c.seeds()) {
            let key = Key::from_word(c.pits);
            let bucket = if c.slot == NO_SLOT {
                tt.bucket(key)
            } else {
                c.slot as usize
            };
            let entry = tt.probe_at(bucket, key);
            c.slot = bucket as u64;
            c.entry = entry;
            c.probed = true;
            if let Some(e) = entry {
                self.stats.tt_hits += 1;
                if e.depth >= dec(depth) {
                    lo = lo.max(e.lower(c.seeds()));
                    hi = hi.min(e.upper(c.seeds()));
                }
            }
        }
        (c.lo, c.hi) = to_parent(lo, hi);
    }

    #[inline]
    pub(super) fn child_value(&mut self, c: &Child, depth: u8, ply: u32, gamma: i32) -> i32 {
        let d = c.delta();
        if c.extra {
            d + self.search(
                c.pits,
                c.seeds(),
                dec(depth),
                ply + 1,
                gamma - d,
                c.probed(),
            )
        } else {
            d - self.search(
                c.pits,
                c.seeds(),
                dec(depth),
                ply + 1,
                d - gamma + 1,
                c.probed(),
            )
        }
    }

    /// Store the result `best` of a search with window `gamma` of the
    /// position `pits` (a [`packed::word`]; in `bucket` of its table,
    /// [`NO_BUCKET`]: not computed).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        pits: u128,
        bucket: usize,
        s: i32,
        depth: u8,
        gamma: i32,
        best: i32,
        mv: u8,
        work: u64,
    ) {
        if let Some(tt) = self.tt(s) {
            let (lo_share, hi_share) = if best >= gamma {
                (share_ceil(best, s), s as u8)
            } else {
                (0, share_floor(best, s))
            };
            let key = Key::from_word(pits);
            let bucket = if bucket == NO_BUCKET {
                tt.bucket(key)
            } else {
                bucket
            };
            tt.store_at(
                bucket,
                key,
                Entry {
                    lo_share,
                    hi_share,
                    depth,
                    best: mv,
                    work: (64 - work.leading_zeros()) as u8,
                },
            );
        }
    }

    /// Zero-window, fail-soft alpha-beta: a value `>= gamma` is a lower bound,
    /// a value `< gamma` an upper bound on the active value of the position
    /// in play `pits` (a [`packed::word`], mover's row then opponent's) with
    /// `s` seeds in play. `probed` is the position's transposition entry and
    /// bucket when the caller has just probed it, or only its bucket
    /// ([`Probed::done`] false; `None`: nothing known).
    pub(super) fn search(
        &mut self,
        pits: u128,
        s: i32,
        depth: u8,
        ply: u32,
        gamma: i32,
        probed: Option<Probed>,
    ) -> i32 {
        self.stats.nodes += 1;
        self.profile_node(s);
        if self.stats.nodes & 0x3ff == 0 {
            self.flush();
            if self.cancelled() {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        let sh = self.sh;
        let o = &sh.opts;
        if o.use_futility {
            if gamma > s {
                self.stats.futility_cutoffs += 1;
                return s;
            }
            if gamma <= -s {
                self.stats.futility_cutoffs += 1;
                return -s;
            }
        }
        if let Some(v) = self.probe_table(pits, s) {
            self.stats.table_hits += 1;
            return v;
        }
        if depth == 0 {
            // The horizon evaluation: the stores only, i.e. the seeds in
            // play split evenly (the odd one to the opponent, for parity).
            return -(s & 1);
        }
        let mut tt_move = NO_MOVE;
        let mut bucket = NO_BUCKET;
        if let Some(tt) = self.tt(s) {
            let probed = match probed {
                Some(p) if p.done => p,
                hint => {
                    let key = Key::from_word(pits);
                    let bucket = hint.map_or_else(|| tt.bucket(key), |p| p.bucket);
                    debug_assert_eq!(bucket, tt.bucket(key));
                    let entry = tt.probe_at(bucket, key);
                    self.stats.tt_hits += entry.is_some() as u64;
                    Probed {
                        entry,
                        bucket,
                        done: true,
                    }
                }
            };
            bucket = probed.bucket;
            if let Some(e) = probed.entry {
                tt_move = e.best;
                if e.depth >= depth {
                    let lo = e.lower(s);
                    if lo >= gamma {
                        self.stats.tt_cutoffs += 1;
                        return lo;
                    }
                    let hi = e.upper(s);
                    if hi < gamma {
                        self.stats.tt_cutoffs += 1;
                        return hi;
                    }
                }
            }
        }
        let nodes_before = self.stats.nodes;
        let mut kids = [EMPTY_CHILD; 6];
        let mut order = [0u8; 6];
        let n = self.children(pits, s, tt_move, &mut kids, &mut order, o.use_etc);
        if o.use_etc {
            // The children's transposition buckets and table data were
            // prefetched as they were generated; a table read from its file
            // needs a second dependent load, the code.
            if sh.mapped {
                for c in kids[..n].iter() {
                    if c.seeds() <= sh.tmax && c.slot != NO_SLOT && !c.over {
                        self.table(c.seeds()).prefetch_code(c.slot);
                    }
                }
            }
            let mut max_hi = i32::MIN;
            let mut max_hi_move = NO_MOVE;
            for &k in order[..n].iter() {
                let c = &mut kids[k as usize];
                self.child_bounds(c, depth);
                if ply == 0 && depth == FULL_DEPTH {
                    sh.record_root(c.pit, c.lo, c.hi);
                }
                if c.lo >= gamma {
                    if o.use_futility && c.futile(gamma, false, sh.tmax) {
                        self.stats.futility_cutoffs += 1;
                    } else {
                        self.stats.etc_cutoffs += 1;
                    }
                    let (lo, pit) = (c.lo, c.pit);
                    if ply == 0 {
                        self.root_move = pit;
                    }
                    self.store(pits, bucket, s, depth, gamma, lo, pit, 1);
                    return lo;
                }
                if c.hi > max_hi {
                    max_hi = c.hi;
                    max_hi_move = c.pit;
                }
            }
            if max_hi < gamma {
                self.stats.etc_cutoffs += 1;
                if ply == 0 {
                    self.root_move = max_hi_move;
                }
                self.store(pits, bucket, s, depth, gamma, max_hi, max_hi_move, 1);
                return max_hi;
            }
        }
        let mut best = i32::MIN;
        let mut best_move = NO_MOVE;
        let (loop_mark, mut tally) = (self.profile_mark(), self.profile_tally());
        let split = sh.threads > 1
            && ply < o.split_plies
            && depth > 8
            && s > sh.tmax + 4
            && sh.tt.is_some();
        let mut i = 0;
        while i < n {
            let c = &kids[order[i] as usize];
            i += 1;
            let v = if c.hi < gamma || c.lo == c.hi {
                if o.use_futility && c.hi < gamma && c.futile(gamma, true, sh.tmax) {
                    // A child search futility saved.
                    self.stats.futility_cutoffs += 1;
                }
                if c.hi >= gamma {
                    // Only with ETC off: a child valued without a search cuts.
                    let m = self.profile_mark();
                    self.profile_child(s, loop_mark, m, true, &mut tally);
                }
                c.hi
            } else {
                let child_mark = self.profile_mark();
                let v = self.child_value(c, depth, ply, gamma);
                if self.aborted {
                    return 0;
                }
                self.profile_child(s, loop_mark, child_mark, v >= gamma, &mut tally);
                if ply == 0 && depth == FULL_DEPTH {
                    sh.record_root_result(c.pit, v, gamma);
                }
                v
            };
            if v > best {
                best = v;
                best_move = c.pit;
            }
            if best >= gamma {
                break;
            }
            if split && i < n {
                // Young brothers wait: the first child is done; the rest in parallel.
                let rest: Vec<Child> = order[i..n].iter().map(|&k| kids[k as usize]).collect();
                i = n;
                let (v, mv) = self.parallel(&rest, depth, ply, gamma);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = mv;
                }
            }
        }
        if best < gamma {
            self.profile_fail_low(s);
        }
        if ply == 0 {
            self.root_move = best_move;
        }
        self.store(
            pits,
            bucket,
            s,
            depth,
            gamma,
            best,
            best_move,
            self.stats.nodes - nodes_before,
        );
        best
    }
}
