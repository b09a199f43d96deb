//! Ohvalhu, first round (also called Dakon): Kalah's board with relay
//! sowing (`docs/RULES.md`, section "Ohvalhu").
//!
//! # Rules, as implemented
//!
//! - A move sows a non-empty pit of the mover counter-clockwise into the
//!   following pits and the mover's own store, never the opponent's store;
//!   the origin pit is not skipped.
//! - Relay: when the last seed lands in a pit (either row) that held seeds
//!   before it arrived, all the seeds of that pit are lifted and the sowing
//!   goes on from the next pit. The move goes on until the last seed lands
//!   in the mover's store or in a pit that was empty.
//! - Last seed in the mover's store: the mover moves again.
//! - Last seed in an empty pit of the mover's row: when the opposite pit
//!   holds seeds, they and the capturing seed go to the mover's store;
//!   otherwise the seed stays. Last seed in an empty opponent pit: nothing.
//!   The turn passes.
//! - A player to move with no seed in its row ends the round: every seed
//!   left on the board goes to the other player's store. More seeds in the
//!   store wins.
//!
//! # No sowing is endless
//!
//! The rules make a sowing that comes back to an earlier state illegal. No
//! sowing can: the sowing path is a ring of the `2m` pits and the mover's
//! store, every step goes one place forward, and each time the path passes
//! the store one seed leaves play for good. So within every `2m + 1` steps
//! either the move ends or the seeds in play (in pits and in hand) drop by
//! one; a sowing of a board of `s` seeds ends within `(s + 1)(2m + 1)`
//! steps. [`ohvalhu_move`] checks this bound in debug builds, and the tests
//! sow every move of every board the tables enumerate.
//!
//! # Positions and values
//!
//! Positions are [`Position`]s (the Kalah board: pits and two stores, seen
//! from the side to move), with Kalah's notation, and moves of one turn are
//! written together (`25-3`). As in Kalah, captured seeds never return and
//! no position repeats (a move that keeps every seed in play stays in the
//! mover's row and moves seeds towards the store), so a position's value is
//! the store difference plus the value of the seeds in play, and tables are
//! built level by level ([`build`]).

use std::fmt;

use crate::kalah::position::Position;

pub mod agents;
pub mod build;
pub mod game;
pub mod tables;

/// Ohvalhu's first round: the rule-set type of the family core
/// ([`crate::game::Game`]). It has one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Ohvalhu;

impl Ohvalhu {
    /// The game id in table headers.
    pub const ID: u8 = 5;
    /// The name on the command line and in file names.
    pub const NAME: &'static str = "ohvalhu";
}

impl fmt::Display for Ohvalhu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Ohvalhu::NAME)
    }
}

/// What one Ohvalhu move did, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OhvalhuMove {
    /// Seeds put into the mover's store by the move (sown and captured, not
    /// the seeds taken when the round ends).
    pub gained: u8,
    /// Seeds captured, the capturing seed included.
    pub captured: u8,
    /// The mover moves again.
    pub extra_turn: bool,
    /// The round is over (the player to move next has no seed).
    pub game_over: bool,
    /// Single sowing steps the move took (relays included).
    pub steps: u32,
}

/// Play pit `pit` (legal: non-empty) on Kalah-ordered cells of one side's
/// view (`cells[0..m]` the mover's pits, `cells[m]` its store,
/// `cells[m+1..2m+1]` the opponent's pits, `cells[2m+1]` its store). The
/// cells stay in the mover's view; when the round ends the seeds left are
/// put in the store of the player who can still move.
pub fn ohvalhu_move(cells: &mut [u8], m: usize, pit: usize) -> OhvalhuMove {
    debug_assert!(cells[pit] > 0 && pit < m);
    let ring = 2 * m + 1;
    #[cfg(debug_assertions)]
    let seeds: u32 = cells[..ring].iter().map(|&c| c as u32).sum();
    let store_before = cells[m];
    let mut hand = cells[pit];
    cells[pit] = 0;
    let mut at = pit;
    let mut steps = 0u32;
    let (mut captured, mut extra_turn) = (0u8, false);
    loop {
        while hand > 0 {
            at += 1;
            if at == ring {
                at = 0;
            }
            cells[at] += 1;
            hand -= 1;
            steps += 1;
        }
        #[cfg(debug_assertions)]
        debug_assert!(steps <= (seeds + 1) * ring as u32, "an endless sowing");
        if at == m {
            extra_turn = true;
            break;
        }
        if cells[at] > 1 {
            hand = cells[at];
            cells[at] = 0;
            continue;
        }
        if at < m {
            let opposite = 2 * m - at;
            if cells[opposite] > 0 {
                captured = cells[opposite] + 1;
                cells[opposite] = 0;
                cells[at] = 0;
            }
        }
        break;
    }
    cells[m] += captured;
    let gained = cells[m] - store_before;
    let mover_empty = cells[..m].iter().all(|&c| c == 0);
    let opponent_empty = cells[m + 1..ring].iter().all(|&c| c == 0);
    let game_over = if extra_turn {
        mover_empty
    } else {
        opponent_empty
    };
    if game_over {
        // The player to move next cannot: the other takes every seed left.
        let left: u8 = cells[..m].iter().chain(&cells[m + 1..ring]).sum();
        cells[..m].fill(0);
        cells[m + 1..ring].fill(0);
        if extra_turn {
            cells[2 * m + 1] += left;
        } else {
            cells[m] += left;
        }
    }
    OhvalhuMove {
        gained,
        captured,
        extra_turn: extra_turn && !game_over,
        game_over,
        steps,
    }
}

/// Whether the round is over: the player to move has no seed in its row.
pub fn is_over(pos: &Position) -> bool {
    pos.mover_pits().iter().all(|&c| c == 0)
}

/// Settle a position whose mover has no seed: the opponent takes every
/// seed left. Whether the round is over.
pub fn settle(pos: &mut Position) -> bool {
    if !is_over(pos) {
        return false;
    }
    let m = pos.pits_per_side();
    let cells = pos.cells_mut();
    let left: u8 = cells[m + 1..2 * m + 1].iter().sum();
    cells[m + 1..2 * m + 1].fill(0);
    cells[2 * m + 1] += left;
    true
}

/// The store difference (mover minus opponent) when the round is over.
pub fn final_difference(pos: &Position) -> i32 {
    let mut p = *pos;
    settle(&mut p);
    p.mover_store() as i32 - p.opponent_store() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(cells: &[u8], pit: usize) -> (Vec<u8>, OhvalhuMove) {
        let mut c = cells.to_vec();
        let m = c.len() / 2 - 1;
        let mv = ohvalhu_move(&mut c, m, pit);
        (c, mv)
    }

    #[test]
    fn relay_sowing_lifts_occupied_pits() {
        // 3 pits: pit 0 (2 seeds) sows into pits 1 and 2; pit 2 held 1, so
        // its 2 seeds are lifted: store, then the opponent's first pit
        // (empty): the turn passes.
        let (c, mv) = play(&[2, 0, 1, 0, 0, 3, 1, 0], 0);
        assert_eq!(c, vec![0, 1, 0, 1, 1, 3, 1, 0]);
        assert_eq!(
            (mv.gained, mv.captured, mv.extra_turn, mv.game_over),
            (1, 0, false, false)
        );
        // Last seed in the store: extra turn.
        let (c, mv) = play(&[1, 0, 1, 0, 1, 1, 1, 0], 2);
        assert_eq!(c, vec![1, 0, 0, 1, 1, 1, 1, 0]);
        assert!(mv.extra_turn && !mv.game_over);
        // With the mover's row then empty, the round ends: the opponent
        // takes its seeds.
        let (c, mv) = play(&[0, 0, 1, 0, 1, 1, 1, 0], 2);
        assert_eq!(c, vec![0, 0, 0, 1, 0, 0, 0, 3]);
        assert!(mv.game_over && !mv.extra_turn);
    }

    #[test]
    fn captures_need_an_occupied_opposite_pit() {
        // Pit 0 (1 seed) lands in empty pit 1; opposite (opponent's pit 1 of
        // 3, cells[2m - 1]) holds 4: captured with the seed.
        let (c, mv) = play(&[1, 0, 0, 0, 2, 4, 1, 0], 0);
        assert_eq!(mv.captured, 5);
        assert_eq!(c, vec![0, 0, 0, 5, 2, 0, 1, 0]);
        // Opposite empty: the seed stays, nothing captured.
        let (c, mv) = play(&[1, 0, 3, 0, 2, 0, 1, 0], 0);
        assert_eq!(mv.captured, 0);
        assert_eq!(c, vec![0, 1, 3, 0, 2, 0, 1, 0]);
    }

    #[test]
    fn round_ends_when_the_next_mover_has_no_seed() {
        // The opponent's only seed is taken: the turn would pass to a player
        // with no seed, so the mover takes what is left.
        let (c, mv) = play(&[1, 0, 2, 0, 0, 1, 0, 0], 0);
        assert!(mv.game_over);
        assert_eq!(mv.captured, 2);
        assert_eq!(c, vec![0, 0, 0, 4, 0, 0, 0, 0]);
    }
}
