//! What the builder knows of one mover row before it meets an opponent
//! row: its sowings ([`MoverMoves`]), each move compiled against the
//! opponent rows of one sum ([`RowPlan`]: where the child is as a function
//! of the opponent row's rank), and the same-table moves of every row
//! ([`StayMoves`]).

use crate::kalah::rules::{KalahRules, KalahSowing, Landing};
use crate::tables::index::rank_and_sum;
use crate::tables::Table;

/// The moves of one mover row, sown once and finished against every
/// opponent row: with the rank and seed count of the mover's row after each
/// move, with and without a capture.
#[derive(Clone, Copy)]
pub(super) struct MoverMoves<const M: usize> {
    pub(super) moves: [MoverMove<M>; M],
    pub(super) len: usize,
}

/// One move of a [`MoverMoves`].
#[derive(Clone, Copy)]
pub(super) struct MoverMove<const M: usize> {
    pub(super) sowing: KalahSowing<M>,
    /// Rank and seed sum of the mover's row after the move (no capture).
    pub(super) rank: u64,
    pub(super) sum: usize,
    /// Rank of the mover's row after the move with a capture.
    pub(super) rank_captured: u64,
    /// Seeds sown into the opponent's row.
    pub(super) to_opponent: usize,
}

impl<const M: usize> MoverMoves<M> {
    /// Sow every non-empty pit of `row`.
    pub(super) fn new(row: &[u8; M]) -> MoverMoves<M> {
        let mut moves = [MoverMove {
            sowing: KalahSowing {
                own: [0; M],
                to_store: 0,
                to_opponent: [0; M],
                last: Landing::Store,
            },
            rank: 0,
            sum: 0,
            rank_captured: 0,
            to_opponent: 0,
        }; M];
        let mut len = 0;
        for pit in (0..M).filter(|&p| row[p] > 0) {
            let sowing = KalahSowing::new(row, pit);
            let (rank, sum) = rank_and_sum(&sowing.own);
            let rank_captured = match sowing.capture_pit() {
                Some(i) => {
                    let mut own = sowing.own;
                    own[i] = 0;
                    rank_and_sum(&own).0
                }
                None => rank,
            };
            let to_opponent = sowing.to_opponent.iter().map(|&x| x as usize).sum();
            moves[len] = MoverMove {
                sowing,
                rank,
                sum,
                rank_captured,
                to_opponent,
            };
            len += 1;
        }
        MoverMoves { moves, len }
    }
}

/// How the child of one move is found from the opponent row's rank `y`.
#[derive(Clone, Copy, Default)]
pub(super) enum Found<'a> {
    /// The game ends: the value is `base`.
    #[default]
    Terminal,
    /// An extra turn, the opponent row unchanged: entry `start + y` of
    /// `table`.
    Extra { table: &'a Table, start: u64 },
    /// The turn passes after sowing one seed into each of the opponent's
    /// first `r` pits: entry `start + rank(opponent row + those seeds) *
    /// stride` of `table`.
    Pass {
        table: &'a Table,
        start: u64,
        stride: u64,
        r: usize,
    },
    /// The last seed falls into the mover's empty pit (no lap): it
    /// captures the opponent's pit `pit` (unless the rules refuse a capture
    /// of an empty pit: the child is then in the table being built). The
    /// mover's row is then of rank `rank` and sum `sum`.
    Capture { pit: usize, rank: u64, sum: usize },
    /// Depends on more of the opponent row (several laps, an empty
    /// opponent row): move `0` of the row's moves, finished in full.
    General(usize),
}

/// One compiled move: how its child is found, and the store difference
/// the move makes (for a terminal move, its whole value).
#[derive(Clone, Copy, Default)]
pub(super) struct Compiled<'a> {
    pub(super) found: Found<'a>,
    pub(super) base: i32,
}

/// The moves of one mover row (`a` seeds) compiled against the opponent
/// rows of `b` seeds in table `k`: every move whose outcome does not depend
/// on the opponent row beyond its rank is resolved once here.
pub(super) struct RowPlan<'a, const M: usize> {
    pub(super) moves: MoverMoves<M>,
    /// The moves into smaller tables or to the end.
    pub(super) compiled: [Compiled<'a>; M],
    pub(super) len: usize,
    /// Some move keeps every seed in play whatever the opponent row: the
    /// position's value is partial after pass 1.
    pub(super) stays: bool,
}

impl<'a, const M: usize> RowPlan<'a, M> {
    /// Compile the moves of `row` against opponent rows of `b` seeds in the
    /// table of `k` seeds, the smaller tables being `tables`.
    pub(super) fn new(
        row: &[u8; M],
        b: usize,
        k: usize,
        rules: KalahRules,
        tables: &[Option<&'a Table>],
    ) -> RowPlan<'a, M> {
        let moves = MoverMoves::new(row);
        let mut plan = RowPlan {
            moves,
            compiled: [Compiled::default(); M],
            len: 0,
            stays: false,
        };
        let table = |seeds: usize| tables[seeds].expect("smaller tables are built first");
        for (i, mv) in moves.moves[..moves.len].iter().enumerate() {
            let s = &mv.sowing;
            let base = s.to_store as i32;
            let own_sum = mv.sum;
            let general = Compiled {
                found: Found::General(i),
                base: 0,
            };
            let c = match s.last {
                _ if b == 0 => general,
                Landing::Own(_) if s.to_store > 0 => general,
                Landing::Own(i) if s.capture_pit().is_some() => Compiled {
                    found: Found::Capture {
                        pit: M - 1 - i,
                        rank: mv.rank_captured,
                        sum: own_sum - 1,
                    },
                    base: 0,
                },
                Landing::Own(_) => {
                    // Every seed stays in play, the opponent row is not empty.
                    plan.stays = true;
                    continue;
                }
                Landing::Store if mv.to_opponent != 0 => general,
                Landing::Store => {
                    if rules.ends(true, own_sum == 0, false) {
                        Compiled {
                            found: Found::Terminal,
                            base: base + own_sum as i32 - b as i32,
                        }
                    } else {
                        let t = table(k - s.to_store as usize);
                        Compiled {
                            found: Found::Extra {
                                table: t,
                                start: t.indexer().offset_rank(own_sum, mv.rank, 0),
                            },
                            base,
                        }
                    }
                }
                Landing::Opponent => {
                    let r = mv.to_opponent;
                    let prefix = r <= M
                        && s.to_opponent
                            .iter()
                            .enumerate()
                            .all(|(j, &x)| x == (j < r) as u8);
                    if !prefix {
                        general
                    } else if rules.ends(false, own_sum == 0, false) {
                        Compiled {
                            found: Found::Terminal,
                            base: base + own_sum as i32 - (b + r) as i32,
                        }
                    } else {
                        let t = table(k - s.to_store as usize);
                        Compiled {
                            found: Found::Pass {
                                table: t,
                                start: t.indexer().offset_rank(b + r, 0, mv.rank),
                                stride: crate::tables::index::rows(M, own_sum),
                                r,
                            },
                            base,
                        }
                    }
                }
            };
            plan.compiled[plan.len] = c;
            plan.len += 1;
        }
        plan
    }
}

/// What the builder needs of one opponent row: its pits, the rank of the
/// row with one more seed in each of its first `r` pits (`grown[r]`, for
/// every `r` in `0..=M`), and with pit `j` emptied (`emptied[j]`).
#[derive(Clone, Copy)]
pub(super) struct OpponentRow<const M: usize> {
    pub(super) pits: [u8; M],
    pub(super) grown: [u64; 7],
    pub(super) emptied: [u64; 6],
}

impl<const M: usize> OpponentRow<M> {
    /// The ranks of `row`.
    pub(super) fn new(row: &[u8; M]) -> OpponentRow<M> {
        let mut grown = [0u64; 7];
        let mut g = *row;
        grown[0] = rank_and_sum(&g).0;
        for r in 1..=M {
            g[r - 1] += 1;
            grown[r] = rank_and_sum(&g).0;
        }
        let mut emptied = [0u64; 6];
        for (j, e) in emptied.iter_mut().enumerate().take(M) {
            let mut z = *row;
            z[j] = 0;
            *e = rank_and_sum(&z).0;
        }
        OpponentRow {
            pits: *row,
            grown,
            emptied,
        }
    }
}

/// The same-table moves of every row of one seed sum: for row `x`,
/// `moves[first[x]..first[x + 1]]`, each the rank of the row after the
/// move and the opponent's pit that must be empty for it to stay in the
/// table (`NO_PIT`: none).
pub(super) struct StayMoves {
    pub(super) first: Vec<u32>,
    pub(super) moves: Vec<(u32, u8)>,
}

/// No condition on the opponent row.
pub(super) const NO_PIT: u8 = 0xff;

impl StayMoves {
    /// The same-table moves of the rows `rows` (flattened, `M` pits each).
    pub(super) fn new<const M: usize>(rows: &[u8], rules: KalahRules) -> StayMoves {
        let mut first = Vec::with_capacity(rows.len() / M + 1);
        let mut moves = Vec::new();
        for row in rows.chunks_exact(M) {
            first.push(moves.len() as u32);
            let mm = MoverMoves::<M>::new(row.try_into().unwrap());
            for mv in &mm.moves[..mm.len] {
                if let (Landing::Own(i), 0) = (mv.sowing.last, mv.sowing.to_store) {
                    match mv.sowing.capture_pit() {
                        None => moves.push((mv.rank as u32, NO_PIT)),
                        // Under capture-needs-opposite the capture is
                        // refused when the opposite pit is empty.
                        Some(_) if rules == KalahRules::CaptureNeedsOpposite => {
                            moves.push((mv.rank as u32, (M - 1 - i) as u8))
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        first.push(moves.len() as u32);
        StayMoves { first, moves }
    }

    /// The same-table moves of row `x`.
    #[inline]
    pub(super) fn of(&self, x: u64) -> &[(u32, u8)] {
        &self.moves[self.first[x as usize] as usize..self.first[x as usize + 1] as usize]
    }
}
