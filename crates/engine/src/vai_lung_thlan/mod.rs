//! Vai Lung Thlan (`docs/RULES.md`, section "Vai Lung Thlan"): sowing over
//! every pit of both rows, captures of single seeds on either side.
//!
//! # Rules, as implemented
//!
//! - A move sows a non-empty pit of the mover counter-clockwise over the
//!   `2m` pits (the stores only hold captures); the origin pit is not
//!   skipped.
//! - When the last seed lands in a pit that was empty (on either side), the
//!   mover captures it, then, going back clockwise (across rows where the
//!   path crosses), every pit holding exactly one seed, up to the first
//!   that does not; the chain never comes back to the pit it started from.
//! - A player to move with no seed passes: the other moves again. A move
//!   that empties the opponent's row (the board not empty) therefore gives
//!   the mover another move, and lines write it as an extra turn (the moves
//!   together, no dash).
//! - The game ends when the board is empty or when a player has captured
//!   more than half of all the seeds; seeds left count for nobody. Endless
//!   play splits the seeds left evenly (in matches: a position repeating,
//!   or the ply cap).
//!
//! # Positions and values
//!
//! Positions are [`Position`]s (the Kalah board), the stores holding the
//! seeds each player has captured: the start of `vai-lung-thlan:6:5` is
//! `5 5 5 5 5 5 0 5 5 5 5 5 5 0`. A position whose mover has no seed but
//! whose board is not empty is turned to the other side when read (the
//! mover passes).
//!
//! The tables and `solve` drop the early end: a board's value is the
//! capture difference (mover minus opponent) of the seeds on the board when
//! play goes on until the board is empty, endless play adding 0. A player
//! past half keeps the majority whatever follows, so this never changes
//! who wins, only the margin. `play`, matches and agents use the early end.
//!
//! # Other readings
//!
//! The rules above are one reading of a description that leaves three
//! points open; the others are rule sets of their own ([`VltReading`],
//! `vai-lung-thlan:6:5:skip-origin` and so on), played by `play`, matches
//! and the agents. They have no tables (the tables and `solve` refuse
//! them, the perfect agent searches without them): only the default
//! reading's values are computed.

use std::fmt;

use crate::kalah::position::Position;
use crate::moves::PlayError;
use crate::sow::{sow, MAX_PITS};

pub mod agents;
pub mod build;
pub mod game;
pub mod tables;

/// Vai Lung Thlan: the rule-set type of the family core
/// ([`crate::game::Game`]): the default reading of the rules, or another
/// one ([`VltReading`]). The constant [`VaiLungThlan`](const@VaiLungThlan)
/// is the default reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct VaiLungThlan {
    /// `None` for the default reading (the rules above).
    pub reading: Option<VltReading>,
}

/// The default reading of Vai Lung Thlan's rules (the module's rules).
#[allow(non_upper_case_globals)]
pub const VaiLungThlan: VaiLungThlan = VaiLungThlan { reading: None };

/// A reading of Vai Lung Thlan's rules other than the default, where the
/// description leaves a point open (`docs/RULES.md`). Each changes one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VltReading {
    /// `skip-origin`: a lap of sowing skips the pit it started from.
    SkipOrigin,
    /// `chain-own-row`: the capture chain stays in the row where the last
    /// seed fell; it does not cross into the other row.
    ChainOwnRow,
    /// `play-to-end`: no early end past half of the seeds; the game ends
    /// when the board is empty (or in endless play).
    PlayToEnd,
}

impl VltReading {
    /// Every other reading, in the registry's order.
    pub const ALL: [VltReading; 3] = [
        VltReading::SkipOrigin,
        VltReading::ChainOwnRow,
        VltReading::PlayToEnd,
    ];

    /// The name after the board (`vai-lung-thlan:6:5:skip-origin`).
    pub fn name(self) -> &'static str {
        match self {
            VltReading::SkipOrigin => "skip-origin",
            VltReading::ChainOwnRow => "chain-own-row",
            VltReading::PlayToEnd => "play-to-end",
        }
    }

    /// The rules id in table headers (the default reading's is 0).
    pub fn id(self) -> u8 {
        match self {
            VltReading::SkipOrigin => 1,
            VltReading::ChainOwnRow => 2,
            VltReading::PlayToEnd => 3,
        }
    }
}

impl VaiLungThlan {
    /// The game id in table headers.
    pub const ID: u8 = 6;
    /// The name on the command line and in file names.
    pub const NAME: &'static str = "vai-lung-thlan";

    /// The game under `reading`.
    pub fn read_as(reading: VltReading) -> VaiLungThlan {
        VaiLungThlan {
            reading: Some(reading),
        }
    }

    /// Sow `pit` of `ring` (as [`sow_and_capture`]) under this reading.
    #[inline]
    pub fn sow_and_capture(self, ring: &mut [u8], pit: usize) -> u8 {
        match self.reading {
            Some(VltReading::SkipOrigin) => {
                let last = sow(ring, pit, true);
                capture_from(ring, last, false)
            }
            Some(VltReading::ChainOwnRow) => {
                let last = sow(ring, pit, false);
                capture_from(ring, last, true)
            }
            _ => sow_and_capture(ring, pit),
        }
    }

    /// Whether the game is over under this reading (as [`is_over`]).
    pub fn ends(self, pos: &Position) -> bool {
        match self.reading {
            Some(VltReading::PlayToEnd) => pos.active_seeds() == 0,
            _ => is_over(pos),
        }
    }

    /// Turn a position whose mover has no seed to the other side (as
    /// [`normalize`]) under this reading.
    pub fn normalize(self, pos: &mut Position) {
        if !self.ends(pos) && pos.mover_pits().iter().all(|&c| c == 0) {
            pos.turn_over();
        }
    }

    /// Play `pit` of `pos` (as [`play`]) under this reading.
    pub fn play_move(
        self,
        pos: &mut Position,
        pit: usize,
    ) -> Result<crate::moves::Step, PlayError> {
        let early_end = self.reading != Some(VltReading::PlayToEnd);
        apply(self, pos, pit, early_end)
    }
}

impl fmt::Display for VaiLungThlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reading {
            Some(r) => write!(f, "{}:{}", VaiLungThlan::NAME, r.name()),
            None => f.write_str(VaiLungThlan::NAME),
        }
    }
}

/// Sow pit `pit` of the mover on a board `ring` of `2m` pits seen from the
/// mover (its pits from its left, then the opponent's from the opponent's
/// left) and make the capture; the seeds captured (0 when the last seed
/// lands in an occupied pit).
#[inline]
pub fn sow_and_capture(ring: &mut [u8], pit: usize) -> u8 {
    let last = sow(ring, pit, false);
    capture_from(ring, last, false)
}

/// The capture of a sowing whose last seed fell in `last`: it, then the
/// single seeds going back clockwise, across the rows unless `own_row`.
#[inline]
fn capture_from(ring: &mut [u8], last: usize, own_row: bool) -> u8 {
    let len = ring.len();
    if ring[last] != 1 {
        return 0;
    }
    let row_start = if last < len / 2 { 0 } else { len / 2 };
    let mut captured = 1;
    ring[last] = 0;
    let mut at = last;
    for _ in 1..len {
        if own_row && at == row_start {
            break;
        }
        at = if at == 0 { len - 1 } else { at - 1 };
        if ring[at] != 1 {
            break;
        }
        ring[at] = 0;
        captured += 1;
    }
    captured
}

/// The board of a position as a ring from the mover's view, and its length.
#[inline]
pub fn ring_of(pos: &Position) -> ([u8; 2 * MAX_PITS], usize) {
    let m = pos.pits_per_side();
    let mut ring = [0u8; 2 * MAX_PITS];
    ring[..m].copy_from_slice(pos.mover_pits());
    ring[m..2 * m].copy_from_slice(pos.opponent_pits());
    (ring, 2 * m)
}

/// Whether the game is over by the rules: the board is empty or a player
/// has captured more than half of all the seeds.
pub fn is_over(pos: &Position) -> bool {
    let total: usize = pos.cells().iter().map(|&c| c as usize).sum();
    pos.active_seeds() == 0
        || 2 * pos.mover_store() as usize > total
        || 2 * pos.opponent_store() as usize > total
}

/// Turn a position whose mover has no seed (the board not empty) to the
/// other side: the mover passes.
pub fn normalize(pos: &mut Position) {
    if !is_over(pos) && pos.mover_pits().iter().all(|&c| c == 0) {
        pos.turn_over();
    }
}

/// Play `pit` of `pos`: the turn passes unless the opponent is left with
/// no seed (it passes: an extra turn) or the game ends.
pub fn play(pos: &mut Position, pit: usize) -> Result<crate::moves::Step, PlayError> {
    apply(VaiLungThlan, pos, pit, true)
}

/// Play `pit` of `pos` as the tables do, without the early end: the game
/// ends only when the board is empty.
pub fn play_on(pos: &mut Position, pit: usize) -> Result<crate::moves::Step, PlayError> {
    apply(VaiLungThlan, pos, pit, false)
}

fn apply(
    game: VaiLungThlan,
    pos: &mut Position,
    pit: usize,
    early_end: bool,
) -> Result<crate::moves::Step, PlayError> {
    let over = |p: &Position| {
        if early_end {
            is_over(p)
        } else {
            p.active_seeds() == 0
        }
    };
    if over(pos) {
        return Err(PlayError::GameOver);
    }
    pos.check_pit(pit)?;
    let m = pos.pits_per_side();
    let (mut ring, len) = ring_of(pos);
    let captured = game.sow_and_capture(&mut ring[..len], pit);
    let cells = pos.cells_mut();
    cells[..m].copy_from_slice(&ring[..m]);
    cells[m + 1..2 * m + 1].copy_from_slice(&ring[m..2 * m]);
    cells[m] += captured;
    let game_over = over(pos);
    let extra_turn = !game_over && pos.opponent_pits().iter().all(|&c| c == 0);
    if !game_over && !extra_turn {
        pos.turn_over();
    }
    Ok(crate::moves::Step {
        captured: captured.into(),
        extra_turn,
        game_over,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_chain_back_over_single_seeds_across_rows() {
        // 3 pits a side: pit 0 (3 seeds) sows into the mover's pits 1 and 2
        // and the opponent's (empty) pit 0: that seed is captured, then the
        // single seeds of the mover's pits 2 and 1, up to the emptied origin.
        let mut ring = [3, 0, 0, 0, 2, 5];
        assert_eq!(sow_and_capture(&mut ring, 0), 3);
        assert_eq!(ring, [0, 0, 0, 0, 2, 5]);
        // The last seed in an occupied pit captures nothing.
        let mut ring = [0, 0, 1, 2, 0, 0];
        assert_eq!(sow_and_capture(&mut ring, 2), 0);
        assert_eq!(ring, [0, 0, 0, 3, 0, 0]);
        // The chain stops before the pit it started from: every pit holds
        // one seed after a full lap.
        let mut ring = [4, 0, 0, 0];
        assert_eq!(sow_and_capture(&mut ring, 0), 4);
        assert_eq!(ring, [0, 0, 0, 0]);
    }

    #[test]
    fn a_player_without_seeds_passes() {
        // North has no seed; South's move keeps it so: South moves again.
        let mut pos = Position::parse("1 0 2 0 0 0 0 0").unwrap();
        let step = play(&mut pos, 0).unwrap();
        assert_eq!(step.captured, 1);
        assert!(step.extra_turn && !step.game_over);
        assert_eq!(pos.to_string(), "0 0 2 1 0 0 0 0");
        // A mover without seeds passes when the position is read.
        let mut p = Position::parse("0 0 0 0 1 0 0 0").unwrap();
        normalize(&mut p);
        assert_eq!(p.to_move(), crate::side::Side::North);
        assert_eq!(p.to_string(), "1 0 0 0 0 0 0 0");
    }

    #[test]
    fn the_game_ends_past_half() {
        let mut pos = Position::parse("1 0 0 3 1 1 0 0").unwrap();
        assert!(!is_over(&pos));
        // 6 seeds; capturing makes 4 > 3.
        let step = play(&mut pos, 0).unwrap();
        assert_eq!(step.captured, 1);
        assert!(step.game_over && is_over(&pos));
    }
}
