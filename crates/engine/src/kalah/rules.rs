//! The Kalah capture and end rules with their named variants, on top of the
//! family's sowing core ([`crate::sow`]). [`super::packed`] plays the same
//! moves on a packed board for the solver's inner loop, and is tested
//! against these rules.
//!
//! Positions are always seen from the side to move (see
//! [`super::position`]), so the rules only ever speak of "the mover" and
//! "the opponent".

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::moves::Step;
use crate::sow::{sow, MAX_PITS};

/// The Kalah rule sets: the default rules under which every published
/// Kalah(m, n) value was computed, and the two named variants.
///
/// Tables carry their rule set in their header and refuse to be read under
/// another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum KalahRules {
    /// Default rules: empty-pit captures take the opposite pit even when it is
    /// empty; the game ends after any move that leaves either row empty.
    #[default]
    Default,
    /// A capture happens only when the opposite pit holds seeds.
    CaptureNeedsOpposite,
    /// The game ends only when the player to move has no seed; the seeds left
    /// go to the other player.
    EndWhenMoverEmpty,
}

impl KalahRules {
    /// Every rule set, in the order of their numeric ids.
    pub const ALL: [KalahRules; 3] = [
        KalahRules::Default,
        KalahRules::CaptureNeedsOpposite,
        KalahRules::EndWhenMoverEmpty,
    ];

    /// Whether a last seed sown into an empty own pit captures, the
    /// opposite pit holding `across` seeds.
    #[inline(always)]
    pub fn captures(self, across: u8) -> bool {
        across > 0 || self != KalahRules::CaptureNeedsOpposite
    }

    /// Whether the game ends after a move that leaves the rows as told
    /// (`extra_turn`: the last seed fell into the mover's store).
    #[inline(always)]
    pub fn ends(self, extra_turn: bool, mover_empty: bool, opponent_empty: bool) -> bool {
        match self {
            KalahRules::Default | KalahRules::CaptureNeedsOpposite => mover_empty || opponent_empty,
            // The game ends when the player to move next has no seed.
            KalahRules::EndWhenMoverEmpty => {
                if extra_turn {
                    mover_empty
                } else {
                    opponent_empty
                }
            }
        }
    }

    /// The name used on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            KalahRules::Default => "default",
            KalahRules::CaptureNeedsOpposite => "capture-needs-opposite",
            KalahRules::EndWhenMoverEmpty => "end-when-mover-empty",
        }
    }

    /// The id stored in table headers.
    pub fn id(self) -> u8 {
        match self {
            KalahRules::Default => 0,
            KalahRules::CaptureNeedsOpposite => 1,
            KalahRules::EndWhenMoverEmpty => 2,
        }
    }

    /// The rule set with header id `id`, if any.
    pub fn from_id(id: u8) -> Option<KalahRules> {
        KalahRules::ALL.into_iter().find(|r| r.id() == id)
    }

    /// Whether a position whose opponent row is empty (and mover row is not)
    /// is still in play. Only under [`KalahRules::EndWhenMoverEmpty`].
    pub fn plays_on_with_empty_opponent_row(self) -> bool {
        self == KalahRules::EndWhenMoverEmpty
    }
}

impl fmt::Display for KalahRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for KalahRules {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        KalahRules::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| Error::UnknownRules(s.to_string()))
    }
}

/// Where the last seed of a Kalah sowing fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// In the mover's own pit `i` (from the mover's left).
    Own(usize),
    /// In the mover's store: an extra turn unless the game ends.
    Store,
    /// In one of the opponent's pits.
    Opponent,
}

/// The first half of a Kalah move: what sowing pit `pit` does, which depends
/// on the mover's row only. [`KalahSowing::finish`] applies it to an
/// opponent row (captures and the end of the game). A table builder sows
/// once per mover row and finishes against every opponent row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KalahSowing<const M: usize> {
    /// The mover's row after sowing, before any capture.
    pub own: [u8; M],
    /// Seeds sown into the mover's store.
    pub to_store: u8,
    /// Seeds sown into each of the opponent's pits (from the opponent's left).
    pub to_opponent: [u8; M],
    /// Where the last seed fell.
    pub last: Landing,
}

/// A whole Kalah move: both rows after it (not yet swept when the game
/// ends) and what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KalahFinish<const M: usize> {
    /// The mover's row.
    pub own: [u8; M],
    /// The opponent's row.
    pub opponent: [u8; M],
    /// Seeds put into the mover's store (sown and captured).
    pub gained: u8,
    /// Seeds captured, the capturing seed included.
    pub captured: u8,
    /// The mover moves again.
    pub extra_turn: bool,
    /// The move ended the game.
    pub game_over: bool,
}

impl<const M: usize> KalahSowing<M> {
    /// Sow pit `pit` of the mover's row `row` (the pit must hold seeds).
    #[inline(always)]
    pub fn new(row: &[u8; M], pit: usize) -> KalahSowing<M> {
        // The ring: the mover's pits, the mover's store, the opponent's pits
        // (empty here: what lands there is counted, whatever was there).
        let mut ring = [0u8; 2 * MAX_PITS + 1];
        ring[..M].copy_from_slice(row);
        let last = sow(&mut ring[..2 * M + 1], pit, false);
        KalahSowing {
            own: ring[..M].try_into().unwrap(),
            to_store: ring[M],
            to_opponent: ring[M + 1..2 * M + 1].try_into().unwrap(),
            last: match last {
                i if i < M => Landing::Own(i),
                i if i == M => Landing::Store,
                _ => Landing::Opponent,
            },
        }
    }

    /// Whether the last seed fell into an own pit that was empty: a capture
    /// (of the opposite pit at `M - 1 - i` of the opponent's row) unless the
    /// rules require the opposite pit to hold seeds and it does not.
    #[inline(always)]
    pub fn capture_pit(&self) -> Option<usize> {
        match self.last {
            Landing::Own(i) if self.own[i] == 1 => Some(i),
            _ => None,
        }
    }

    /// Finish the move against the opponent's row `opponent`: captures, and
    /// whether the game ends (rows are not swept).
    #[inline(always)]
    pub fn finish(&self, opponent: &[u8; M], rules: KalahRules) -> KalahFinish<M> {
        let mut own = self.own;
        let mut opp = [0u8; M];
        for i in 0..M {
            opp[i] = opponent[i] + self.to_opponent[i];
        }
        let mut captured = 0;
        if let Some(i) = self.capture_pit() {
            let across = opp[M - 1 - i];
            if rules.captures(across) {
                captured = across + 1;
                own[i] = 0;
                opp[M - 1 - i] = 0;
            }
        }
        let mover_empty = own.iter().all(|&c| c == 0);
        let opponent_empty = opp.iter().all(|&c| c == 0);
        let extra_turn = self.last == Landing::Store;
        let game_over = rules.ends(extra_turn, mover_empty, opponent_empty);
        KalahFinish {
            own,
            opponent: opp,
            gained: self.to_store + captured,
            captured,
            extra_turn: extra_turn && !game_over,
            game_over,
        }
    }
}

/// Play pit `pit` (0-based from the mover's left) on the Kalah cells of one
/// side-to-move view: `cells[0..m]` the mover's pits, `cells[m]` the mover's
/// store, `cells[m+1..2m+1]` the opponent's pits, `cells[2m+1]` the
/// opponent's store. The caller checks that the pit is legal (non-empty).
///
/// The cells are left in the mover's view; when the game ends, each player's
/// remaining seeds are swept into their own store. The caller swaps the view
/// when the turn passes. Built from [`KalahSowing`], like the table builder.
///
/// # Panics
/// When `m` is not in `1..=MAX_PITS` (a [`crate::kalah::position::Position`] never
/// has such a width).
#[inline]
pub fn kalah_move(cells: &mut [u8], m: usize, pit: usize, rules: KalahRules) -> Step {
    debug_assert_eq!(cells.len(), 2 * m + 2);
    match m {
        1 => kalah_move_fixed::<1>(cells, pit, rules),
        2 => kalah_move_fixed::<2>(cells, pit, rules),
        3 => kalah_move_fixed::<3>(cells, pit, rules),
        4 => kalah_move_fixed::<4>(cells, pit, rules),
        5 => kalah_move_fixed::<5>(cells, pit, rules),
        6 => kalah_move_fixed::<6>(cells, pit, rules),
        7 => kalah_move_fixed::<7>(cells, pit, rules),
        8 => kalah_move_fixed::<8>(cells, pit, rules),
        9 => kalah_move_fixed::<9>(cells, pit, rules),
        10 => kalah_move_fixed::<10>(cells, pit, rules),
        _ => panic!("{m} pits per side: the engine plays 1 to {MAX_PITS}"),
    }
}

fn kalah_move_fixed<const M: usize>(cells: &mut [u8], pit: usize, rules: KalahRules) -> Step {
    let own: [u8; M] = cells[..M].try_into().unwrap();
    let opp: [u8; M] = cells[M + 1..2 * M + 1].try_into().unwrap();
    let f = KalahSowing::new(&own, pit).finish(&opp, rules);
    cells[..M].copy_from_slice(&f.own);
    cells[M] += f.gained;
    cells[M + 1..2 * M + 1].copy_from_slice(&f.opponent);
    if f.game_over {
        sweep(cells, M);
    }
    Step {
        captured: f.captured.into(),
        extra_turn: f.extra_turn,
        game_over: f.game_over,
    }
}

/// Move every seed left in a row into its owner's store (end of game).
#[inline(always)]
pub fn sweep(cells: &mut [u8], m: usize) {
    let mover: u8 = cells[..m].iter().sum();
    let opponent: u8 = cells[m + 1..2 * m + 1].iter().sum();
    cells[..m].fill(0);
    cells[m + 1..2 * m + 1].fill(0);
    cells[m] += mover;
    cells[2 * m + 1] += opponent;
}

/// Turn the cells of one side's view into the other side's view: the
/// `2m + 2` cells are the two sides' halves, swapped (a swap of two equal
/// halves, cheaper than the general rotation it equals).
#[inline]
pub fn swap_sides(cells: &mut [u8], m: usize) {
    debug_assert_eq!(cells.len(), 2 * m + 2);
    let (mine, theirs) = cells.split_at_mut(m + 1);
    mine.swap_with_slice(theirs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kalah_extra_turn_and_capture() {
        // Kalah(3,1): pits 1 1 1 | 0 | 1 1 1 | 0. Pit 2 has one seed: store.
        let mut c = [1, 1, 1, 0, 1, 1, 1, 0];
        let mv = kalah_move(&mut c, 3, 2, KalahRules::Default);
        assert!(mv.extra_turn && !mv.game_over);
        assert_eq!(c, [1, 1, 0, 1, 1, 1, 1, 0]);
        // Pit 1 now sows into the empty pit 2: capture it with the opposite pit
        // (cell 2m - 2 = 4, one seed).
        let mv = kalah_move(&mut c, 3, 1, KalahRules::Default);
        assert_eq!(mv.captured, 2);
        assert_eq!(c, [1, 0, 0, 3, 0, 1, 1, 0]);
        assert!(!mv.extra_turn && !mv.game_over);
    }

    #[test]
    fn capture_of_empty_opposite_depends_on_rules() {
        // m = 3: cells are 3 pits, store, 3 pits, store.
        let base = [1, 0, 2, 0, 0, 1, 0, 0];
        // Pit 0 sows into empty pit 1; opposite of pit 1 is cell 2m-1 = 5 (one seed).
        let mut c = base;
        let mv = kalah_move(&mut c, 3, 0, KalahRules::Default);
        assert_eq!(mv.captured, 2);
        // Now opposite empty: make cell 5 empty and the opponent hold seeds elsewhere.
        let base = [1, 0, 2, 0, 0, 0, 1, 0];
        let mut c = base;
        let mv = kalah_move(&mut c, 3, 0, KalahRules::Default);
        assert_eq!(mv.captured, 1, "default rules capture the lone seed");
        assert_eq!(c, [0, 0, 2, 1, 0, 0, 1, 0]);
        let mut c = base;
        let mv = kalah_move(&mut c, 3, 0, KalahRules::CaptureNeedsOpposite);
        assert_eq!(mv.captured, 0);
        assert_eq!(c, [0, 1, 2, 0, 0, 0, 1, 0]);
    }

    #[test]
    fn game_ends_when_a_row_empties() {
        // Mover's last seed goes to the store: the mover's row is empty.
        let mut c = [0, 0, 1, 0, 2, 0, 1, 0];
        let mv = kalah_move(&mut c, 3, 2, KalahRules::Default);
        assert!(mv.game_over && !mv.extra_turn);
        assert_eq!(c, [0, 0, 0, 1, 0, 0, 0, 3]);
        // Under end-when-mover-empty the mover would move again with no seed:
        // the game also ends.
        let mut c = [0, 0, 1, 0, 2, 0, 1, 0];
        let mv = kalah_move(&mut c, 3, 2, KalahRules::EndWhenMoverEmpty);
        assert!(mv.game_over);
        // But emptying only the opponent's row ends nothing there.
        let mut c = [0, 1, 0, 0, 0, 0, 1, 0];
        let mv = kalah_move(&mut c, 3, 1, KalahRules::EndWhenMoverEmpty);
        // Pit 1 sows into empty pit 2, captures opposite cell 4... which is empty;
        // the lone seed is captured; the opponent still has cell 6.
        assert!(!mv.game_over);
        let mut c = [2, 0, 0, 0, 0, 0, 1, 0];
        let mv = kalah_move(&mut c, 3, 0, KalahRules::EndWhenMoverEmpty);
        // Sows into pits 1 and 2: pit 2 was empty, opposite (cell 4) empty:
        // capture 1. The opponent still has a seed: play on.
        assert!(!mv.game_over);
        assert_eq!(c, [0, 1, 0, 1, 0, 0, 1, 0]);
    }
}
