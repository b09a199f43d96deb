//! Check an Awari or Oware table: re-derive every entry from its children,
//! and check that it is the right fixpoint.
//!
//! Boards can repeat, so a table whose every entry is the best over its moves
//! (the Bellman equation) can still be wrong: values can rest on a cycle,
//! e.g. two boards each claiming a win through the other. The check is in
//! two parts, neither sharing code with the builder but the rules:
//!
//! 1. **Bellman**: every checked entry equals the best of its moves, each
//!    move valued from the tables (smaller ones for captures, the same table
//!    for quiet moves).
//! 2. **Forcing** (whole tables only): every non-zero value is backed by a
//!    finite forcing strategy. A board worth `v > 0` is *proved* when an exit
//!    (a capture, a game end) is worth `v`, or a quiet move leads to a proved
//!    board worth `-v`; a board worth `v < 0` when every quiet move leads to
//!    a proved board (its exits are worth `<= v` by part 1). Boards worth 0
//!    need no proof. The proved set is grown by plain repeated sweeps over
//!    the table until nothing changes (the least fixpoint); a non-zero value
//!    left unproved rests on a cycle the side that claims it cannot force.
//!
//! Together the two parts pin the table to the true values: the proofs give
//! each side a strategy that reaches at least its claimed value, and the
//! Bellman equation a strategy for the other side that holds it there
//! (endless play is worth 0, and any board it could loop through worth less
//! than 0 for a side is a proved loss for that side).

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::awari::rules::{awari_turn, AwariGame, AwariTurn};
use crate::notation::join_counts;
use crate::progress::{Event, Observer};
use crate::tablebase::TableSet;

/// The board of table `k` at `index`.
pub(crate) fn board_at(tb: &TableSet<AwariGame>, k: usize, index: u64) -> [u8; 12] {
    let m = tb.pits();
    let table = tb.table(k).expect("table loaded");
    let mut c = [0u8; 12];
    let (mover, rest) = c.split_at_mut(m);
    table.indexer().unrank(index, mover, &mut rest[..m]);
    c
}

/// Table `k`'s entry `index`: the board in notation, the stored value and
/// the best of its moves valued from the tables (the Bellman equation).
pub(crate) fn check_entry(tb: &TableSet<AwariGame>, k: usize, index: u64) -> (String, i32, i32) {
    let m = tb.pits();
    let cells = board_at(tb, k, index);
    let stored = tb.table(k).expect("table loaded").value(index);
    let derived = match awari_turn(&cells, m, tb.game()) {
        AwariTurn::Over {
            mover_gain,
            opponent_gain,
        } => mover_gain as i32 - opponent_gain as i32,
        AwariTurn::Play(_) => tb
            .board_move_values(&cells)
            .expect("children within the tables")
            .iter()
            .map(|mv| mv.value)
            .max()
            .expect("a board that is not over has a move"),
    };
    (join_counts(&cells[..2 * m]), stored, derived)
}

/// Grow the proved set of table `k` by sweeps; the indices of the non-zero
/// values left unproved, and the number of sweeps.
pub(crate) fn forcing_check(
    tb: &TableSet<AwariGame>,
    k: usize,
    progress: &Observer,
) -> (Vec<u64>, u32) {
    let m = tb.pits();
    let game = tb.game();
    let table = tb.table(k).expect("table loaded");
    let n = table.len();
    let proved: Vec<AtomicBool> = (0..n)
        .map(|i| AtomicBool::new(table.value(i) == 0))
        .collect();
    let index_of = |cells: &[u8; 12]| {
        let a: usize = cells[..m].iter().map(|&x| x as usize).sum();
        table
            .indexer()
            .rank_with_sum(&cells[..m], &cells[m..2 * m], a)
    };
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        progress.event(&Event::Phase {
            what: &format!("forcing, sweep {sweeps}"),
        });
        let changed = (0..n)
            .into_par_iter()
            .filter(|&i| {
                if proved[i as usize].load(Ordering::Relaxed) {
                    return false;
                }
                let v = table.value(i);
                let cells = board_at(tb, k, i);
                let ok = match awari_turn(&cells, m, game) {
                    AwariTurn::Over { .. } => true,
                    AwariTurn::Play(moves) => {
                        let mut exit_reaches = false;
                        let mut quiet_ok = v < 0;
                        for mv in moves.as_slice() {
                            if mv.game_over || mv.captured > 0 {
                                let child = if mv.game_over {
                                    0
                                } else {
                                    tb.board_value(&mv.board).expect("smaller tables loaded")
                                };
                                exit_reaches |= mv.value(child) >= v;
                                continue;
                            }
                            let c = index_of(&mv.board);
                            let c_proved = proved[c as usize].load(Ordering::Relaxed);
                            if v > 0 {
                                quiet_ok |= c_proved && table.value(c) == -v;
                            } else {
                                quiet_ok &= c_proved;
                            }
                        }
                        if v > 0 {
                            exit_reaches || quiet_ok
                        } else {
                            quiet_ok
                        }
                    }
                };
                if ok {
                    proved[i as usize].store(true, Ordering::Relaxed);
                }
                ok
            })
            .count();
        if changed == 0 {
            break;
        }
    }
    let unproved = (0..n)
        .filter(|&i| !proved[i as usize].load(Ordering::Relaxed))
        .collect();
    (unproved, sweeps)
}
