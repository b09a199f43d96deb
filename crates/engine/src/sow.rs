//! The sowing core shared by every game of the family.

/// Largest number of pits per side the engine plays on.
pub const MAX_PITS: usize = 10;

/// A pit's content: one byte for the games the tables hold, two for
/// boards of up to 1000 seeds a pit (the course assignment's Kalah).
pub trait Cell: Copy + Eq + Ord + Default + std::ops::AddAssign + std::fmt::Debug {
    /// The cell's content as a count.
    fn count(self) -> usize;
    /// A count as a cell (the caller keeps it in range).
    fn of(count: usize) -> Self;
}

impl Cell for u8 {
    #[inline(always)]
    fn count(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn of(count: usize) -> u8 {
        count as u8
    }
}

impl Cell for u16 {
    #[inline(always)]
    fn count(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn of(count: usize) -> u16 {
        count as u16
    }
}

/// Sow the seeds of `ring[origin]` counter-clockwise around `ring`.
///
/// `ring` lists every cell that receives seeds, in sowing order, starting
/// anywhere; the sowing wraps around its end. With `skip_origin` the origin
/// cell is passed over every time the sowing comes round to it (Awari);
/// without it the origin receives seeds like any other cell (Kalah).
///
/// Returns the index in `ring` of the cell that received the last seed.
/// The origin must hold at least one seed. Allocation-free: full laps are
/// added in one pass, so the cost does not grow with the number of seeds.
#[inline(always)]
pub fn sow<C: Cell>(ring: &mut [C], origin: usize, skip_origin: bool) -> usize {
    let len = ring.len();
    let seeds = ring[origin].count();
    debug_assert!(seeds > 0, "sowing from an empty cell");
    ring[origin] = C::default();
    let targets = if skip_origin { len - 1 } else { len };
    let laps = seeds / targets;
    let rem = seeds % targets;
    if laps > 0 {
        for cell in ring.iter_mut() {
            *cell += C::of(laps);
        }
        if skip_origin {
            ring[origin] = C::default();
        }
    }
    let mut cell = origin;
    for _ in 0..rem {
        cell += 1;
        if cell == len {
            cell = 0;
        }
        if skip_origin && cell == origin {
            cell += 1;
            if cell == len {
                cell = 0;
            }
        }
        ring[cell] += C::of(1);
    }
    if rem == 0 {
        // The last seed of the last full lap.
        if skip_origin {
            if origin == 0 {
                len - 1
            } else {
                origin - 1
            }
        } else {
            origin
        }
    } else {
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sow_without_skip_wraps_and_fills_origin() {
        // 2 pits + store + 2 pits: a ring of 5.
        let mut ring = [6u8, 0, 0, 0, 0];
        let last = sow(&mut ring, 0, false);
        assert_eq!(ring, [1, 2, 1, 1, 1]);
        assert_eq!(last, 1);
        let mut ring = [5u16, 0, 0, 0, 0];
        let last = sow(&mut ring, 0, false);
        assert_eq!(ring, [1, 1, 1, 1, 1]);
        assert_eq!(last, 0, "the fifth seed lands in the origin");
    }

    #[test]
    fn sow_with_skip_passes_over_origin() {
        let mut ring = [0u8, 0, 12, 0, 0, 0];
        let last = sow(&mut ring, 2, true);
        // 12 seeds over 5 other cells: 2 laps (10) then 2 more.
        assert_eq!(ring, [2, 2, 0, 3, 3, 2]);
        assert_eq!(last, 4);
        let mut ring = [0u16, 0, 10, 0, 0, 0];
        let last = sow(&mut ring, 2, true);
        assert_eq!(ring, [2, 2, 0, 2, 2, 2]);
        assert_eq!(
            last, 1,
            "the last seed of a full lap falls just before the origin"
        );
    }
}
