//! Snapshots of a table that other threads write: each interleaving that
//! made a checkpoint unreadable or could copy a torn entry, played
//! deterministically (issue 43, fault 9).

use std::cell::Cell;
use std::sync::atomic::Ordering;

use super::*;

fn entry(lo_share: u8, hi_share: u8, depth: u8, work: u8) -> Entry {
    Entry {
        lo_share,
        hi_share,
        depth,
        best: NO_MOVE,
        work,
    }
}

/// Write `key` and `entry` into slot pair `pair` as a store does (key word,
/// then data word), whatever the pair held.
fn put(tt: &TransTable, pair: usize, key: Key, e: Entry) {
    let b = (key.hi as u64) << 32 | e.pack() as u64;
    tt.slots()[2 * pair].store(key.lo ^ b, Ordering::Relaxed);
    tt.slots()[2 * pair + 1].store(b, Ordering::Relaxed);
}

/// The slot pair of `key` in its bucket, if it is there.
fn pair_of(tt: &TransTable, key: Key) -> Option<usize> {
    let first = tt.bucket(key) / 2;
    (first..first + WAYS).find(|&p| {
        let s = tt.slots();
        let b = s[2 * p + 1].load(Ordering::Relaxed);
        b != 0 && (b >> 32) as u32 == key.hi && s[2 * p].load(Ordering::Relaxed) ^ b == key.lo
    })
}

fn keys_of(entries: &[(Key, Entry)]) -> Vec<Key> {
    entries.iter().map(|x| x.0).collect()
}

#[test]
fn a_key_the_table_holds_twice_is_copied_once_merged() {
    // Two threads store a new key X into one bucket: the first finds no X
    // and chooses slot pair 0; before it writes, the second stores another
    // key into pair 0, then X, which it puts into pair 2 (pair 0 is taken);
    // then the first writes X into pair 0. The bucket holds X twice: the
    // way a solve on two threads of a loaded machine (a search thread
    // descheduled between choosing its slot and writing it) can leave the
    // table, and its stopped checkpoint (docs/cli.md's `--time 0.2` solve)
    // then copied X twice.
    let tt = TransTable::new(1);
    let x = Key::new(&[3, 1, 4, 1, 5, 0, 2, 6]);
    let base = tt.bucket(x) / 2;
    put(&tt, base, x, entry(2, 20, 12, 9));
    put(&tt, base + 2, x, entry(5, 24, 12, 7));
    let y = Key::new(&[1, 1]);
    tt.store(y, entry(0, 2, FULL_DEPTH, 3));
    let all = tt.snapshot(usize::MAX, |_, _| true);
    let mut want = vec![y, x];
    want.sort();
    assert_eq!(keys_of(&all), want, "each key once, sorted");
    // Same depth: both bounds hold, so their intersection does.
    let got = all.iter().find(|e| e.0 == x).unwrap().1;
    assert_eq!(
        (got.lo_share, got.hi_share, got.depth, got.work),
        (5, 20, 12, 9)
    );
    // A deeper copy wins whole.
    put(&tt, base + 2, x, entry(1, 30, FULL_DEPTH, 2));
    let all = tt.snapshot(usize::MAX, |_, _| true);
    assert_eq!(all.len(), 2);
    assert_eq!(
        all.iter().find(|e| e.0 == x).unwrap().1,
        entry(1, 30, FULL_DEPTH, 2)
    );
}

#[test]
fn a_key_that_moves_while_its_bucket_is_copied_is_copied_once() {
    // The periodic snapshot runs at a low priority and can be descheduled
    // in the middle of a bucket: it has read X in an early slot, the
    // search evicts X and stores it again in a later slot, the snapshot
    // goes on and meets X again. Played here by the filter, which runs
    // right after each read: every time it sees X it moves X to the other
    // end of its bucket.
    let tt = TransTable::new(1);
    let x = Key::new(&[2, 7, 1, 8, 2, 8]);
    let base = tt.bucket(x) / 2;
    put(&tt, base, x, entry(4, 9, FULL_DEPTH, 11));
    let moves = Cell::new(0);
    let all = tt.snapshot(usize::MAX, |k, e| {
        if k == x {
            let from = pair_of(&tt, x).unwrap();
            let to = if from == base { base + WAYS - 1 } else { base };
            tt.slots()[2 * from + 1].store(0, Ordering::Relaxed);
            tt.slots()[2 * from].store(0, Ordering::Relaxed);
            put(&tt, to, x, e);
            moves.set(moves.get() + 1);
        }
        true
    });
    assert!(moves.get() >= 4, "X met twice in each pass");
    assert_eq!(all, vec![(x, entry(4, 9, FULL_DEPTH, 11))]);
}

#[test]
fn a_pair_torn_by_a_store_between_the_loads_is_not_copied() {
    // The snapshot reads a pair's data word, then its key word. A store
    // into that pair between the two loads leaves it with the old data and
    // the new key word: a torn pair, whose key (the new key word XOR the
    // old data word) is a position that was never stored. Keys are chosen
    // so that the torn key hashes to the bucket, as one torn pair in the
    // number of buckets does: the bucket check alone would copy it.
    let tt = TransTable::try_with_kib(1).unwrap();
    let old = Key::new(&[1, 2, 3, 4, 0, 0, 0, 1]);
    let (eo, en) = (entry(3, 8, FULL_DEPTH, 5), entry(6, 20, 14, 9));
    let base = tt.bucket(old) / 2;
    let torn = |new: Key| Key {
        lo: new.lo ^ (en.pack() ^ eo.pack()) as u64,
        hi: new.hi,
    };
    let new = (1u32..)
        .map(|i| Key::new(&[(i % 200) as u8 + 1, (i / 200) as u8, 1, 2, 3, 4, 5, 6]))
        .find(|&k| {
            k != old && tt.bucket(k) == tt.bucket(old) && tt.bucket(torn(k)) == tt.bucket(old)
        })
        .unwrap();
    put(&tt, base, old, eo);
    // The store comes in the copying pass (the second read of the pair).
    let reads = Cell::new(0);
    let got = tt.snapshot_with(usize::MAX, |_, _| true, &|t: &TransTable, i| {
        if i == base {
            reads.set(reads.get() + 1);
            if reads.get() == 2 {
                put(t, base, new, en);
            }
        }
    });
    assert_eq!(reads.get(), 2);
    assert!(
        !keys_of(&got).contains(&torn(new)),
        "a torn pair was copied: {got:?}"
    );
    assert!(got.is_empty(), "{got:?}");
    // Read again, the pair holds the new entry whole.
    assert_eq!(tt.snapshot(usize::MAX, |_, _| true), vec![(new, en)]);
}

#[test]
fn merging_keeps_the_deeper_entry_or_both_bounds_whatever_the_order() {
    let cases = [
        (entry(2, 10, 8, 3), entry(4, 12, 8, 6), entry(4, 10, 8, 6)),
        (
            entry(2, 10, 8, 3),
            entry(0, 30, FULL_DEPTH, 1),
            entry(0, 30, FULL_DEPTH, 1),
        ),
        // Disjoint bounds at one depth (a depth-limited pass's instability):
        // the entry of more work.
        (entry(2, 4, 8, 3), entry(6, 9, 8, 7), entry(6, 9, 8, 7)),
    ];
    for (a, b, want) in cases {
        assert_eq!(a.merge(b), want, "{a:?} {b:?}");
        assert_eq!(b.merge(a), want, "{b:?} {a:?}");
    }
    let with_move = Entry {
        best: 2,
        ..entry(2, 10, 8, 3)
    };
    assert_eq!(with_move.merge(entry(4, 12, 8, 6)).best, 2);
    assert_eq!(entry(4, 12, 8, 6).merge(with_move).best, 2);
}

#[test]
fn keys_sort_by_their_pits_first_pit_first() {
    let mut keys = [
        Key::new(&[0, 0, 0, 0, 0, 0, 0, 0, 1]),
        Key::new(&[1]),
        Key::new(&[0, 2]),
        Key::new(&[0, 1, 9]),
    ];
    keys.sort();
    let pits: Vec<[u8; 12]> = keys.iter().map(|k| k.pits()).collect();
    let mut want = pits.clone();
    want.sort();
    assert_eq!(pits, want);
    assert_eq!(keys[0], Key::new(&[0, 0, 0, 0, 0, 0, 0, 0, 1]));
}
