//! The one seeded random generator of the crate: every agent, match,
//! opening and sample draws from [`SeededRng`], so that a seed names the
//! same games on every platform and every version of the dependencies.
//!
//! It is ChaCha with 8 rounds (`rand_chacha`), whose output stream is
//! specified and stable; `rand`'s `SmallRng` is documented as neither
//! portable nor stable across versions, so it is not used.

use rand::SeedableRng;

/// The seeded generator: ChaCha8, a stable stream on every platform.
pub type SeededRng = rand_chacha::ChaCha8Rng;

/// A generator seeded with `seed` (the same `seed` gives the same stream
/// everywhere).
pub fn seeded(seed: u64) -> SeededRng {
    SeededRng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn the_stream_of_a_seed_is_pinned() {
        // If this changes, every published "--seed" result changes with it.
        let mut r = seeded(1);
        let first: Vec<u32> = (0..4).map(|_| r.gen()).collect();
        let mut again = seeded(1);
        let second: Vec<u32> = (0..4).map(|_| again.gen()).collect();
        assert_eq!(first, second);
        assert_eq!(first, PINNED);
    }

    const PINNED: [u32; 4] = [2359561649, 1728662762, 4228812395, 345245400];
}
