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

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::awari::rules::{awari_turn, AwariGame, AwariTurn};
use crate::awari::tables::AwariTablebase;
use crate::error::Result;
use crate::progress::{Event, Observer};
use crate::tables::verify::Mismatch;

/// Result of checking one Awari or Oware table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AwariVerifyReport {
    /// The game.
    pub game: String,
    /// Pits per side.
    pub pits: usize,
    /// Seeds on the board.
    pub seeds: usize,
    /// Boards in the table.
    pub positions: u64,
    /// Entries whose Bellman equation was checked.
    pub checked: u64,
    /// Entries that differ from the best of their moves.
    pub mismatches: u64,
    /// Non-zero values not backed by a forcing strategy (resting on a
    /// cycle); `None` when only a sample was checked (the forcing check
    /// needs the whole table).
    pub unforced: Option<u64>,
    /// Sweeps the forcing check took.
    pub sweeps: u32,
    /// The first problems found (at most 20).
    pub examples: Vec<Mismatch>,
}

impl AwariVerifyReport {
    /// Whether the table passed every check that was run.
    pub fn is_sound(&self) -> bool {
        self.mismatches == 0 && self.unforced.unwrap_or(0) == 0
    }
}

/// The board of table `k` at `index`.
fn board_at(tb: &AwariTablebase, k: usize, index: u64) -> [u8; 12] {
    let m = tb.pits();
    let table = tb.table(k).expect("table loaded");
    let mut c = [0u8; 12];
    let (mover, rest) = c.split_at_mut(m);
    table.indexer().unrank(index, mover, &mut rest[..m]);
    c
}

fn notation(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Open the tables 1..=k of `dir` and check table k: the Bellman equation on
/// every entry (or on `sample` random ones drawn with `seed`), and, on whole
/// tables, the forcing check.
pub fn verify_awari(
    dir: &Path,
    game: AwariGame,
    pits: usize,
    k: usize,
    sample: Option<u64>,
    seed: u64,
    progress: &Observer,
) -> Result<AwariVerifyReport> {
    crate::tables::verify::check_seeds(k)?;
    let tb = AwariTablebase::open(dir, game, pits, k)?;
    let table = tb.table(k).expect("table loaded");
    let n = table.len();
    let m = pits;
    let draws: Option<Vec<u64>> = match sample {
        Some(s) if s < n => {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed ^ k as u64);
            Some((0..s).map(|_| rng.gen_range(0..n)).collect())
        }
        _ => None,
    };
    let total = draws.as_ref().map_or(n, |d| d.len() as u64);
    progress.event(&Event::Start {
        stage: &format!("verify k={k}"),
        total: Some(total),
    });
    progress.event(&Event::Phase { what: "bellman" });
    let done = AtomicU64::new(0);
    let bad = AtomicU64::new(0);
    let examples = Mutex::new(Vec::new());
    let note = |index: u64, cells: &[u8; 12], stored: i32, derived: i32| {
        let mut ex = examples.lock().unwrap();
        if ex.len() < 20 {
            ex.push(Mismatch {
                index,
                position: notation(&cells[..2 * m]),
                stored,
                derived,
            });
        }
    };
    (0..total).into_par_iter().for_each(|i| {
        let index = draws.as_ref().map_or(i, |d| d[i as usize]);
        let cells = board_at(&tb, k, index);
        let stored = table.value(index);
        let derived = match awari_turn(&cells, m, game) {
            AwariTurn::Over {
                mover_gain,
                opponent_gain,
            } => mover_gain as i32 - opponent_gain as i32,
            AwariTurn::Play(_) => tb
                .move_values(&cells)
                .expect("children within the tables")
                .iter()
                .map(|mv| mv.value)
                .max()
                .expect("a board that is not over has a move"),
        };
        if stored != derived {
            bad.fetch_add(1, Ordering::Relaxed);
            note(index, &cells, stored, derived);
        }
        if i % 65536 == 0 {
            progress.advance(
                done.fetch_add(65536.min(total - i), Ordering::Relaxed) + 65536.min(total - i),
            );
        }
    });
    let mismatches = bad.into_inner();
    let (unforced, sweeps) = if draws.is_none() && mismatches == 0 {
        progress.event(&Event::Phase { what: "forcing" });
        let (unproved, sweeps) = forcing_check(&tb, k, progress);
        for &index in unproved.iter().take(20) {
            let cells = board_at(&tb, k, index);
            let v = table.value(index);
            note(index, &cells, v, 0);
        }
        (Some(unproved.len() as u64), sweeps)
    } else {
        (None, 0)
    };
    progress.event(&Event::Finish);
    let mut examples = examples.into_inner().unwrap();
    examples.sort_by_key(|m| m.index);
    Ok(AwariVerifyReport {
        game: game.to_string(),
        pits,
        seeds: k,
        positions: n,
        checked: total,
        mismatches,
        unforced,
        sweeps,
        examples,
    })
}

/// Grow the proved set of table `k` by sweeps; the indices of the non-zero
/// values left unproved, and the number of sweeps.
fn forcing_check(tb: &AwariTablebase, k: usize, progress: &Observer) -> (Vec<u64>, u32) {
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
                                    tb.value(&mv.board).expect("smaller tables loaded")
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
