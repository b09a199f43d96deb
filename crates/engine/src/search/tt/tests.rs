use super::*;

#[test]
fn a_key_from_a_word_is_the_key_of_its_pits() {
    for m in 1..=6 {
        let mut pits = [0u8; 12];
        for (i, p) in pits[..2 * m].iter_mut().enumerate() {
            *p = (7 * i as u8 + 3) % 40;
        }
        assert_eq!(
            Key::from_word(crate::kalah::packed::word(&pits)),
            Key::new(&pits[..2 * m])
        );
    }
}

#[test]
fn store_probe_merge_and_collisions() {
    let tt = TransTable::new(1);
    let a = Key::new(&[1, 2, 3, 0, 0, 4, 5, 6, 7, 8, 9, 10]);
    let b = Key::new(&[1, 2, 3, 0, 0, 4, 5, 6, 7, 8, 9, 11]);
    assert!(tt.probe(a).is_none());
    let e = Entry {
        lo_share: 3,
        hi_share: 40,
        depth: FULL_DEPTH,
        best: 2,
        work: 5,
    };
    tt.store(a, e);
    assert_eq!(tt.probe(a), Some(e));
    assert!(tt.probe(b).is_none(), "keys differing in the last pit");
    tt.store(
        a,
        Entry {
            lo_share: 0,
            hi_share: 30,
            best: NO_MOVE,
            ..e
        },
    );
    let got = tt.probe(a).unwrap();
    assert_eq!((got.lo_share, got.hi_share, got.best), (3, 30, 2));
    assert_eq!(got.lower(56), -50);
    assert_eq!(got.upper(56), 4);
}

#[test]
fn a_snapshot_keeps_the_most_valuable_entries_and_restores_them() {
    let tt = TransTable::new(4);
    let mut stored = Vec::new();
    for i in 0..3000u32 {
        let key = Key::new(&[(i % 200) as u8 + 1, (i / 200) as u8 + 1, 3, 4]);
        let e = Entry {
            lo_share: 1,
            hi_share: 5,
            depth: if i % 3 == 0 {
                FULL_DEPTH
            } else {
                (i % 40) as u8
            },
            best: (i % 4) as u8,
            work: (i % 29) as u8,
        };
        tt.store(key, e);
        stored.push((key, e));
    }
    let all = tt.snapshot(usize::MAX, |_, _| true);
    assert_eq!(all.len(), tt.used());
    assert!(all.len() > 2900, "few collisions in a 4 MiB table");
    for &(k, e) in &all {
        assert_eq!(tt.probe(k), Some(e));
    }
    let top = tt.snapshot(500, |_, _| true);
    assert_eq!(top.len(), 500);
    let kept: std::collections::HashSet<Key> = top.iter().map(|x| x.0).collect();
    let lowest_kept = top.iter().map(|x| x.1.rank()).min().unwrap();
    let highest_left = all
        .iter()
        .filter(|x| !kept.contains(&x.0))
        .map(|x| x.1.rank())
        .max()
        .unwrap();
    assert!(lowest_kept >= highest_left);
    assert!(top.iter().all(|x| x.1.depth == FULL_DEPTH));
    // Only accepted entries are taken.
    let odd = tt.snapshot(usize::MAX, |k, _| k.pits()[0] % 2 == 1);
    assert!(odd.iter().all(|x| x.0.pits()[0] % 2 == 1));
    assert!(!odd.is_empty() && odd.len() < all.len());

    let fresh = TransTable::new(4);
    fresh.restore(&all);
    let mut again = fresh.snapshot(usize::MAX, |_, _| true);
    let mut want = all.clone();
    again.sort_by_key(|x| x.0.pits());
    want.sort_by_key(|x| x.0.pits());
    assert_eq!(again, want);
}

#[test]
fn a_full_bucket_replaces_the_shallowest_entry() {
    let tt = TransTable::new(1);
    // Find five keys of one bucket.
    let first = Key::new(&[1, 1]);
    let bucket = tt.bucket(first);
    let mut keys = vec![first];
    let mut x = 0x1_0000u32; // above the key of [1, 1]
    while keys.len() < 5 {
        let k = Key::new(&x.to_le_bytes());
        if tt.bucket(k) == bucket {
            keys.push(k);
        }
        x += 1;
    }
    for (i, &k) in keys[..4].iter().enumerate() {
        let depth = if i == 2 { 3 } else { FULL_DEPTH };
        tt.store(
            k,
            Entry {
                lo_share: 0,
                hi_share: 1,
                depth,
                best: 0,
                work: 1,
            },
        );
    }
    tt.store(
        keys[4],
        Entry {
            lo_share: 0,
            hi_share: 1,
            depth: FULL_DEPTH,
            best: 0,
            work: 0,
        },
    );
    assert!(tt.probe(keys[2]).is_none());
    for i in [0, 1, 3, 4] {
        assert!(tt.probe(keys[i]).is_some());
    }
}
