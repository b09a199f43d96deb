//! Property tests of the indexer: rank and unrank are inverse bijections onto
//! 0..count, for every board width up to 6 and seed count up to 30 (sampled),
//! and exhaustively for small seed counts.

use mancala_solver::tables::index::{count_both_non_empty, Indexer, Layout};
use proptest::prelude::*;

fn layouts() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::BothRowsNonEmpty),
        Just(Layout::MoverRowNonEmpty)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// unrank then rank gives the index back, and the rows are a valid
    /// position of the layout.
    #[test]
    fn unrank_then_rank(m in 1usize..=6, k in 1usize..=30, layout in layouts(), frac in 0.0f64..1.0) {
        let ix = Indexer::new(m, k, layout).unwrap();
        prop_assume!(ix.count() > 0);
        let index = ((ix.count() as f64 * frac) as u64).min(ix.count() - 1);
        let (mut a, mut b) = (vec![0u8; m], vec![0u8; m]);
        let sum = ix.unrank(index, &mut a, &mut b);
        let sa: usize = a.iter().map(|&x| x as usize).sum();
        let sb: usize = b.iter().map(|&x| x as usize).sum();
        prop_assert_eq!(sa, sum);
        prop_assert_eq!(sa + sb, k);
        prop_assert!(sa > 0);
        if layout == Layout::BothRowsNonEmpty { prop_assert!(sb > 0); }
        prop_assert_eq!(ix.rank(&a, &b), Some(index));
        prop_assert_eq!(rank_rows(&ix, &a, &b), Some(index));
    }

    /// The solver's fixed-size ranking agrees with `rank`, including on
    /// rows whose sum the layout does not hold.
    #[test]
    fn rank_rows_agrees_with_rank(m in 1usize..=6, cells in proptest::collection::vec(0u8..=5, 12), layout in layouts()) {
        let (a, b) = (&cells[..m], &cells[6..6 + m]);
        let k: usize = a.iter().chain(b).map(|&x| x as usize).sum();
        prop_assume!(k > 0);
        let ix = Indexer::new(m, k, layout).unwrap();
        prop_assert_eq!(rank_rows(&ix, a, b), ix.rank(a, b));
    }

    /// rank of a random valid position is in range and unranks back to it.
    #[test]
    fn rank_then_unrank(m in 1usize..=6, cuts in proptest::collection::vec(0u8..=30, 12)) {
        let a: Vec<u8> = cuts[..m].iter().map(|&x| x % 6).collect();
        let b: Vec<u8> = cuts[6..6 + m].iter().map(|&x| x % 6).collect();
        let sa: usize = a.iter().map(|&x| x as usize).sum();
        let sb: usize = b.iter().map(|&x| x as usize).sum();
        prop_assume!(sa > 0 && sb > 0);
        let ix = Indexer::new(m, sa + sb, Layout::BothRowsNonEmpty).unwrap();
        let r = ix.rank(&a, &b).unwrap();
        prop_assert!(r < ix.count());
        let (mut a2, mut b2) = (vec![0u8; m], vec![0u8; m]);
        ix.unrank(r, &mut a2, &mut b2);
        prop_assert_eq!(a2, a);
        prop_assert_eq!(b2, b);
    }
}

/// [`Indexer::rank_rows`] for rows of a length known only at run time.
fn rank_rows(ix: &Indexer, a: &[u8], b: &[u8]) -> Option<u64> {
    fn go<const M: usize>(ix: &Indexer, a: &[u8], b: &[u8]) -> Option<u64> {
        ix.rank_rows::<M>(a.try_into().unwrap(), b.try_into().unwrap())
    }
    match a.len() {
        1 => go::<1>(ix, a, b),
        2 => go::<2>(ix, a, b),
        3 => go::<3>(ix, a, b),
        4 => go::<4>(ix, a, b),
        5 => go::<5>(ix, a, b),
        _ => go::<6>(ix, a, b),
    }
}

/// Every index of every small table: dense (each index hit exactly once by
/// the positions enumerated directly) and inverse.
#[test]
fn exhaustive_density_for_small_tables() {
    for m in 1..=6usize {
        for k in 1..=(if m <= 3 { 12 } else { 7 }) {
            for layout in [Layout::BothRowsNonEmpty, Layout::MoverRowNonEmpty] {
                let ix = Indexer::new(m, k, layout).unwrap();
                let mut hit = vec![false; ix.count() as usize];
                // Enumerate all compositions of k into 2m cells directly.
                let mut cells = vec![0u8; 2 * m];
                let mut n = 0u64;
                compositions(&mut cells, 0, k, &mut |c| {
                    let (a, b) = c.split_at(m);
                    let sa: usize = a.iter().map(|&x| x as usize).sum();
                    let sb = k - sa;
                    let inside = sa > 0 && (sb > 0 || layout == Layout::MoverRowNonEmpty);
                    match ix.rank(a, b) {
                        Some(r) => {
                            assert!(inside);
                            assert!(!hit[r as usize], "m={m} k={k} index {r} hit twice");
                            hit[r as usize] = true;
                            n += 1;
                        }
                        None => assert!(!inside),
                    }
                });
                assert_eq!(n, ix.count());
                assert!(hit.iter().all(|&h| h));
                if layout == Layout::BothRowsNonEmpty {
                    assert_eq!(ix.count(), count_both_non_empty(m, k));
                }
            }
        }
    }
}

fn compositions(cells: &mut [u8], at: usize, left: usize, f: &mut impl FnMut(&[u8])) {
    if at == cells.len() - 1 {
        cells[at] = left as u8;
        f(cells);
        return;
    }
    for x in 0..=left {
        cells[at] = x as u8;
        compositions(cells, at + 1, left - x, f);
    }
}

/// The Awari count: boards on which the player who just moved has an empty
/// pit, checked by enumeration on small boards, then summed over the seed
/// counts of the 48-seed game against the published 889,063,398,406.
#[test]
fn awari_boards_after_a_move_match_the_published_count() {
    use mancala_solver::awari::reference::awari_boards;
    use mancala_solver::tables::index::count_after_move;
    for m in 2..=6 {
        for k in 0..=(14 - 2 * m) {
            // Boards from the side to move: the player who just moved owns
            // cells m..2m.
            let n = awari_boards(m, k)
                .iter()
                .filter(|b| b[m..2 * m].contains(&0))
                .count() as u64;
            assert_eq!(count_after_move(m, k), n, "m={m} k={k}");
        }
    }
    let total: u64 = (0..=46)
        .chain([48])
        .map(|k| count_after_move(6, k))
        .sum::<u64>()
        + 1;
    assert_eq!(total, 889_063_398_406);
}

/// The Awari and Oware tables' layout (every board whose mover row is
/// non-empty) is dense and round-trips, and holds every board reached by
/// a move that does not end the game.
#[test]
fn awari_layout_is_dense() {
    use mancala_solver::tables::index::{binomial, Indexer, Layout};
    for m in 2..=6 {
        for k in 1..=(16 - 2 * m) {
            let ix = Indexer::new(m, k, Layout::MoverRowNonEmpty).unwrap();
            assert_eq!(
                ix.count(),
                binomial(k + 2 * m - 1, 2 * m - 1) - binomial(k + m - 1, m - 1)
            );
            let (mut a, mut b) = (vec![0u8; m], vec![0u8; m]);
            for i in 0..ix.count() {
                ix.unrank(i, &mut a, &mut b);
                assert_eq!(ix.rank(&a, &b), Some(i));
            }
        }
    }
}
