//! A Kalah move on a packed board: the solver's fast path, tested against
//! [`KalahSowing`](crate::kalah::rules::KalahSowing).
//!
//! Both rows of a position in play, seen from the mover, are packed into a
//! `u128` *ring* of one byte per cell in sowing order: the mover's pits
//! `0..M`, the mover's store at `M` (empty: the stores are kept apart), and
//! the opponent's pits at `M + 1..2M + 1`. Sowing `n` seeds from pit `p`
//! adds `n / (2M + 1)` to every cell (the full laps) and one to each of the
//! next `n % (2M + 1)` cells after `p`: two additions of byte masks, the
//! second one precomputed per pit and remainder. No byte can carry into the
//! next one because a position never holds more than 255 seeds
//! ([`crate::kalah::position::MAX_SEEDS`]).

use super::KalahRules;

/// The ring of a board of `M` pits per side.
struct Ring<const M: usize>;

impl<const M: usize> Ring<M> {
    /// Cells that receive seeds: both rows and the mover's store.
    const LEN: usize = 2 * M + 1;
    /// One seed in every cell.
    const LAP: u128 = lap_mask(2 * M + 1);
    /// `MASKS[p][r]`: one seed in each of the `r` cells after pit `p`.
    const MASKS: [[u128; 13]; 6] = remainder_masks(M);
    /// The mover's row.
    const OWN: u128 = (1u128 << (8 * M)) - 1;
}

const fn lap_mask(len: usize) -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < len {
        mask |= 1 << (8 * i);
        i += 1;
    }
    mask
}

const fn remainder_masks(m: usize) -> [[u128; 13]; 6] {
    let len = 2 * m + 1;
    let mut masks = [[0u128; 13]; 6];
    let mut p = 0;
    while p < m {
        let mut r = 1;
        while r < len {
            let cell = (p + r) % len;
            masks[p][r] = masks[p][r - 1] | 1 << (8 * cell);
            r += 1;
        }
        p += 1;
    }
    masks
}

/// Sum of the bytes of `x` (the sum must be below 256).
#[inline(always)]
fn byte_sum(x: u64) -> u32 {
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// The pits of a position in play as one word: byte `i` is pit `i` of
/// `pits[..2M]` (the mover's row, then the opponent's), the other bytes zero.
#[inline(always)]
pub fn word(pits: &[u8; 12]) -> u128 {
    u128::from_le_bytes({
        let mut b = [0u8; 16];
        b[..12].copy_from_slice(pits);
        b
    })
}

/// The pits of a word made by [`word`].
#[inline(always)]
pub fn unword(word: u128) -> [u8; 12] {
    word.to_le_bytes()[..12].try_into().unwrap()
}

/// The mover's row in the low bytes of a [`word`] of `M` pits per side.
#[inline(always)]
pub const fn row_mask<const M: usize>() -> u64 {
    Ring::<M>::OWN as u64
}

/// Pack the rows of a position in play (`pits[..M]` the mover's,
/// `pits[M..2M]` the opponent's) into a ring.
#[inline(always)]
pub fn pack<const M: usize>(pits: &[u8; 12]) -> u128 {
    pack_word::<M>(word(pits))
}

/// [`pack`] from a [`word`].
#[inline(always)]
pub fn pack_word<const M: usize>(all: u128) -> u128 {
    let own = all & Ring::<M>::OWN;
    let opponent = (all >> (8 * M)) & Ring::<M>::OWN;
    own | opponent << (8 * (M + 1))
}

/// A whole Kalah move played on a ring (see [`packed_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedMove {
    /// The position after the move as a [`word`], seen from the side to
    /// move next: its row in bytes `0..M`, the other row in bytes `M..2M`
    /// (all zero when the game is over).
    pub next: u128,
    /// Seeds the mover gained minus seeds the opponent gained: sown into
    /// the store, captured, and swept in when the game ends.
    pub delta: i32,
    /// Seeds still in play after the move.
    pub seeds: i32,
    /// Seeds captured, the capturing seed included.
    pub captured: u8,
    /// Seeds sown into the opponent's pits.
    pub given: u8,
    /// The mover moves again (and the game is not over).
    pub extra_turn: bool,
    /// The move ended the game.
    pub game_over: bool,
}

/// Play pit `pit` (which must hold seeds) of the ring `ring` (see
/// [`pack`]) with `s` seeds in play, under `rules`. Same result as
/// [`KalahSowing::new`](crate::kalah::rules::KalahSowing::new) followed by
/// [`KalahSowing::finish`](crate::kalah::rules::KalahSowing::finish), without loops.
#[inline(always)]
pub fn packed_move<const M: usize>(
    ring: u128,
    s: i32,
    pit: usize,
    rules: KalahRules,
) -> PackedMove {
    let len = Ring::<M>::LEN;
    debug_assert!(pit < M);
    // The mover's row is in the low 64 bits: shift that half only.
    let n = (ring as u64 >> (8 * pit)) as u8 as usize;
    debug_assert!(n > 0, "sowing from an empty pit");
    let (laps, rest) = (n / len, n % len);
    let mut r = ring & !((0xffu64 << (8 * pit)) as u128);
    r += laps as u128 * Ring::<M>::LAP + Ring::<M>::MASKS[pit][rest];
    let last = (pit + rest) % len;
    let to_store = (r >> (8 * M)) as u8 as u32;
    let given = (laps * M) as u32 + byte_sum((Ring::<M>::MASKS[pit][rest] >> (8 * (M + 1))) as u64);
    let mut captured = 0u32;
    if last < M && (r as u64 >> (8 * last)) as u8 == 1 {
        let across = 2 * M - last;
        let seeds = (r >> (8 * across)) as u8 as u32;
        if rules.captures(seeds as u8) {
            captured = seeds + 1;
            r &= !((0xffu64 << (8 * last)) as u128 | 0xffu128 << (8 * across));
        }
    }
    let own = (r & Ring::<M>::OWN) as u64;
    let opponent = ((r >> (8 * (M + 1))) & Ring::<M>::OWN) as u64;
    let extra = last == M;
    let game_over = rules.ends(extra, own == 0, opponent == 0);
    let gained = to_store + captured;
    let (delta, next) = if game_over {
        let swept = byte_sum(own) as i32 - byte_sum(opponent) as i32;
        (gained as i32 + swept, 0u128)
    } else if extra {
        (gained as i32, own as u128 | (opponent as u128) << (8 * M))
    } else {
        (gained as i32, opponent as u128 | (own as u128) << (8 * M))
    };
    let seeds = if game_over { 0 } else { s - gained as i32 };
    PackedMove {
        next,
        delta,
        seeds,
        captured: captured as u8,
        given: given as u8,
        extra_turn: extra && !game_over,
        game_over,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::rules::KalahSowing;
    use proptest::prelude::*;

    /// The same move through [`KalahSowing`], the rules' own sowing.
    fn reference<const M: usize>(pits: &[u8; 12], pit: usize, rules: KalahRules) -> PackedMove {
        let own: [u8; M] = pits[..M].try_into().unwrap();
        let opp: [u8; M] = pits[M..2 * M].try_into().unwrap();
        let s: i32 = pits[..2 * M].iter().map(|&x| x as i32).sum();
        let sowing = KalahSowing::new(&own, pit);
        let f = sowing.finish(&opp, rules);
        let mut next = [0u8; 12];
        let (gained, lost) = if f.game_over {
            (
                f.gained as i32 + f.own.iter().map(|&x| x as i32).sum::<i32>(),
                f.opponent.iter().map(|&x| x as i32).sum::<i32>(),
            )
        } else {
            let (first, second) = if f.extra_turn {
                (&f.own, &f.opponent)
            } else {
                (&f.opponent, &f.own)
            };
            next[..M].copy_from_slice(first);
            next[M..2 * M].copy_from_slice(second);
            (f.gained as i32, 0)
        };
        PackedMove {
            next: word(&next),
            delta: gained - lost,
            seeds: s - gained - lost,
            captured: f.captured,
            given: sowing.to_opponent.iter().sum(),
            extra_turn: f.extra_turn,
            game_over: f.game_over,
        }
    }

    fn agree<const M: usize>(pits: &[u8; 12]) {
        let s: i32 = pits[..2 * M].iter().map(|&x| x as i32).sum();
        for rules in KalahRules::ALL {
            for pit in 0..M {
                if pits[pit] == 0 {
                    continue;
                }
                let got = packed_move::<M>(pack::<M>(pits), s, pit, rules);
                assert_eq!(
                    got,
                    reference::<M>(pits, pit, rules),
                    "{pits:?} pit {pit} {rules:?}"
                );
            }
        }
    }

    #[test]
    fn agrees_on_every_small_board() {
        // Every board of 2 and 3 pits per side with up to 4 seeds a pit.
        for code in 0..5u32.pow(6) {
            let mut pits = [0u8; 12];
            let mut c = code;
            for p in pits.iter_mut().take(6) {
                *p = (c % 5) as u8;
                c /= 5;
            }
            agree::<3>(&pits);
            let mut two = [0u8; 12];
            two[..4].copy_from_slice(&pits[..4]);
            agree::<2>(&two);
        }
    }

    proptest! {
        #[test]
        fn agrees_on_random_boards(
            pits in proptest::collection::vec(0u8..21, 12),
            m in 1usize..=6,
        ) {
            let mut board = [0u8; 12];
            board[..2 * m].copy_from_slice(&pits[..2 * m]);
            match m {
                1 => agree::<1>(&board),
                2 => agree::<2>(&board),
                3 => agree::<3>(&board),
                4 => agree::<4>(&board),
                5 => agree::<5>(&board),
                _ => agree::<6>(&board),
            }
        }
    }
}
