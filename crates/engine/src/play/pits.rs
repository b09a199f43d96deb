//! One side's pits in a game state of either cell width ([`Pits`]).

/// One side's pits, from that side's left, in a state of either cell
/// width: read them by index, iterate, or ask for the figures an
/// evaluation needs ([`Pits::sum`], [`Pits::non_empty`]) in one pass.
#[derive(Clone, Copy, Debug)]
pub enum Pits<'a> {
    /// Byte cells (Kalah up to 255 seeds, Awari, Oware, Awale).
    Narrow(&'a [u8]),
    /// Two-byte cells ([`crate::play::state::State::KalahWide`]).
    Wide(&'a [u16]),
}

impl Pits<'_> {
    /// The number of pits.
    #[inline(always)]
    pub fn len(&self) -> usize {
        match self {
            Pits::Narrow(p) => p.len(),
            Pits::Wide(p) => p.len(),
        }
    }

    /// Whether there are no pits (never, for a state).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The seeds in pit `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> u16 {
        match self {
            Pits::Narrow(p) => p[i].into(),
            Pits::Wide(p) => p[i],
        }
    }

    /// Every pit's seeds, from the side's left.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = u16> + ExactSizeIterator + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The seeds in all the pits.
    #[inline(always)]
    pub fn sum(&self) -> u32 {
        match self {
            Pits::Narrow(p) => p.iter().map(|&c| u32::from(c)).sum(),
            Pits::Wide(p) => p.iter().map(|&c| u32::from(c)).sum(),
        }
    }

    /// The pits holding a seed or more.
    #[inline(always)]
    pub fn non_empty(&self) -> u32 {
        match self {
            Pits::Narrow(p) => p.iter().filter(|&&c| c > 0).count() as u32,
            Pits::Wide(p) => p.iter().filter(|&&c| c > 0).count() as u32,
        }
    }
}
