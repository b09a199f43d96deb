//! Checkpoints taken while the transposition table is being written, as the
//! periodic checkpoint thread takes them during a solve: every file written
//! must read back (issue 43, fault 9: once in four runs on a loaded
//! machine, the checkpoint of `solve kalah 4 6 --time 0.2` was refused with
//! "the keys are not increasing": the snapshot held a key twice, most
//! likely because two search threads had stored it into two slots of its
//! bucket at once, and the writer wrote both).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::checkpoint::{plausible, Identity, SearchState};
use mancala_solver::search::tt::{Entry, Key, FULL_DEPTH, NO_MOVE};
use mancala_solver::search::{Checkpoint, TransTable};

/// A small generator of test data (splitmix64).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` distinct keys of Kalah(4,6) positions (8 pits, 1 to 48 seeds).
fn keys(n: usize, mix: &mut Mix) -> Vec<Key> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while out.len() < n {
        let mut pits = [0u8; 8];
        let mut left = 1 + mix.below(48) as u8;
        for p in pits.iter_mut() {
            let x = (mix.below(left as u64 + 1) as u8).min(12);
            *p = x;
            left -= x;
        }
        if pits.iter().any(|&p| p > 0) && seen.insert(pits) {
            out.push(Key::new(&pits));
        }
    }
    out
}

/// An entry with consistent bounds for `key`: a depth among a few (so that
/// stores of one key both merge and replace), any bounds within its seeds.
fn entry(key: Key, mix: &mut Mix) -> Entry {
    let s = key.pits().iter().map(|&p| p as u64).sum::<u64>();
    let a = mix.below(s + 1) as u8;
    let b = mix.below(s + 1) as u8;
    Entry {
        lo_share: a.min(b),
        hi_share: a.max(b),
        depth: [4, 9, 14, FULL_DEPTH][mix.below(4) as usize],
        best: if mix.below(3) == 0 {
            NO_MOVE
        } else {
            mix.below(4) as u8
        },
        work: mix.below(32) as u8,
    }
}

/// A checkpoint of Kalah(4,6) stopped early, holding `entries`.
fn checkpoint(entries: Vec<(Key, Entry)>) -> Checkpoint {
    let start = Position::start(4, 6).unwrap();
    Checkpoint {
        identity: Identity::of(&start, KalahRules::Default, None, 0),
        state: SearchState {
            depth: 6,
            guess: 2,
            best_move: Some(3),
            exact_started: false,
            lower: -48,
            upper: 48,
            root_moves: Vec::new(),
            nodes: 123_456,
            seconds: 0.2,
            finished: None,
        },
        entries,
    }
}

/// Several threads store entries of a few thousand keys into a table of
/// four thousand entries as fast as they can (so that keys are evicted,
/// stored again in another slot of their bucket, and now and then stored
/// by two threads at once) while this thread takes snapshots, some of
/// every entry and some of the most valuable, as a checkpoint does, and
/// writes each one to a file: every file reads back, equal to the
/// snapshot, and no snapshot holds a key twice.
///
/// The checkpoint thread runs at a lowered priority, so on a loaded
/// machine it is often descheduled in the middle of its copy while the
/// search goes on; the test plays that by pausing the copy now and then
/// (in the filter it runs on every entry).
///
/// Before the fix each of four runs had a snapshot with a key twice
/// within its first 60 snapshots, and its file was refused ("the keys are
/// not increasing at entry N").
#[test]
fn snapshots_of_a_table_being_written_always_make_readable_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stress.ckpt");
    let tt = TransTable::try_with_kib(64).unwrap();
    assert!(tt.capacity() <= 4096);
    let pool = keys(6000, &mut Mix(43));
    let total = Position::start(4, 6).unwrap().active_seeds() as i32;
    let stop = AtomicBool::new(false);
    let stores = AtomicUsize::new(0);
    let (mut taken, mut nonempty) = (0usize, 0usize);
    std::thread::scope(|scope| {
        for w in 0..3u64 {
            let (tt, pool, stop, stores) = (&tt, &pool, &stop, &stores);
            scope.spawn(move || {
                let mut mix = Mix(1000 + w);
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    let k = pool[mix.below(pool.len() as u64) as usize];
                    tt.store(k, entry(k, &mut mix));
                    n += 1;
                }
                stores.fetch_add(n, Ordering::Relaxed);
            });
        }
        let t0 = Instant::now();
        let mut mix = Mix(7);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            while taken < 300 && t0.elapsed() < Duration::from_secs(30) {
                let max = if taken % 3 == 2 { 1000 } else { usize::MAX };
                let pause = mix.below(200) as usize;
                let seen = std::cell::Cell::new(0usize);
                let entries = tt.snapshot(max, |k, e| {
                    seen.set(seen.get() + 1);
                    if seen.get() % 256 == pause {
                        std::thread::sleep(Duration::from_micros(50));
                    }
                    plausible(k, e, 4, total)
                });
                taken += 1;
                assert!(entries.len() <= max);
                nonempty += !entries.is_empty() as usize;
                let mut seen = HashSet::new();
                let twice = entries.iter().filter(|x| !seen.insert(x.0)).count();
                let c = checkpoint(entries);
                let bytes = c.write(&path).unwrap();
                let back = Checkpoint::read(&path).unwrap_or_else(|e| {
                    panic!(
                        "snapshot {taken} ({} entries, {twice} keys twice, {bytes} bytes) \
                         is unreadable: {e}",
                        c.entries.len()
                    )
                });
                assert_eq!(twice, 0, "snapshot {taken} holds {twice} keys twice");
                assert!(back == c, "snapshot {taken} reads back as written");
            }
        }));
        stop.store(true, Ordering::Relaxed);
        if let Err(e) = result {
            std::panic::resume_unwind(e);
        }
    });
    let stores = stores.load(Ordering::Relaxed);
    eprintln!("{taken} snapshots while {stores} entries were stored");
    assert!(nonempty > taken / 2, "the snapshots saw the table filled");
    assert!(
        stores > 100 * taken,
        "the writers wrote while snapshots were taken"
    );
}
