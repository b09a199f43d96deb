//! What the writer makes of entries a reader would refuse (issue 43,
//! fault 9): a key given twice is written once, an entry that is not a
//! position of the board is left out, so that the file reads back; and
//! the reader stays strict.

use super::*;
use crate::search::tt::{FULL_DEPTH, NO_MOVE};

/// A stopped checkpoint of Kalah(4,3) (24 seeds) holding `entries`.
fn kalah43(entries: Vec<(Key, Entry)>) -> Checkpoint {
    Checkpoint {
        identity: Identity {
            position: Position::start(4, 3).unwrap().to_string(),
            rules: KalahRules::Default,
            pits: 4,
            table_seeds: 0,
            table_fingerprint: 0,
        },
        state: SearchState {
            depth: 10,
            guess: 2,
            best_move: Some(1),
            exact_started: false,
            lower: -24,
            upper: 24,
            root_moves: Vec::new(),
            nodes: 1000,
            seconds: 0.5,
            finished: None,
        },
        entries,
    }
}

fn entry(lo_share: u8, hi_share: u8, depth: u8, work: u8) -> Entry {
    Entry {
        lo_share,
        hi_share,
        depth,
        best: NO_MOVE,
        work,
    }
}

/// The payload of a checkpoint file, decompressed.
fn payload(file: &[u8]) -> Vec<u8> {
    let pos_len = u16::from_le_bytes([file[20], file[21]]) as usize;
    let at = 22 + pos_len;
    let raw = u64::from_le_bytes(file[at..at + 8].try_into().unwrap()) as usize;
    zstd::bulk::decompress(&file[at + 24..], raw).unwrap()
}

/// The differences between consecutive keys of a file of [`kalah43`]
/// (no opening moves, not finished), read from its payload.
fn key_steps(file: &[u8]) -> Vec<u128> {
    let p = payload(file);
    // The state (34 bytes), no opening moves, not finished, then the count.
    let count = u64::from_le_bytes(p[36..44].try_into().unwrap());
    let mut at = 44;
    (0..count)
        .map(|_| {
            let (mut d, mut bits) = (0u128, 0);
            loop {
                let b = p[at];
                at += 1;
                d |= ((b & 0x7f) as u128) << bits;
                bits += 7;
                if b & 0x80 == 0 {
                    break d;
                }
            }
        })
        .collect()
}

/// A checkpoint's entries can hold a key twice (a snapshot of a table
/// that holds it twice, taken before snapshots merged such keys, or any
/// list a library caller makes): the file holds it once, its entries
/// merged, its keys strictly increasing, and it reads back. Before, the
/// key was written twice (a difference of 0) and the file was refused:
/// "the keys are not increasing at entry N".
#[test]
fn a_key_given_twice_is_written_once_and_the_file_reads_back() {
    let k = Key::new;
    let (a, b, c) = (
        k(&[3, 3, 3, 3, 3, 3, 3, 3]),
        k(&[0, 0, 1, 2]),
        k(&[4, 0, 0, 0, 0, 0, 0, 1]),
    );
    let entries = vec![
        (c, entry(1, 4, 6, 2)),
        (a, entry(2, 20, 10, 9)),
        (b, entry(0, 3, FULL_DEPTH, 1)),
        (a, entry(6, 22, 10, 4)),
        (c, entry(0, 5, FULL_DEPTH, 3)),
        (a, entry(6, 22, 10, 4)),
    ];
    let bytes = encode(&kalah43(entries)).unwrap();
    let steps = key_steps(&bytes);
    assert_eq!(steps.len(), 3, "each key once: {steps:?}");
    assert!(
        steps.iter().all(|&d| d > 0),
        "keys strictly increase: {steps:?}"
    );
    let back = decode(&bytes).unwrap();
    // Same depth: both bounds hold, so their intersection does; a deeper
    // entry wins whole.
    let want = vec![
        (b, entry(0, 3, FULL_DEPTH, 1)),
        (a, entry(6, 20, 10, 9)),
        (c, entry(0, 5, FULL_DEPTH, 3)),
    ];
    assert_eq!(back.entries, want, "read back sorted by key");
    assert!(back == kalah43(want));
}

/// Entries that are no position of the board, or whose bounds a reader
/// refuses, are not written (before, the file was refused: "entry N is
/// not a position of this board with consistent bounds").
#[test]
fn entries_a_reader_would_refuse_are_not_written() {
    let good = (Key::new(&[1, 0, 2, 0, 0, 1]), entry(0, 4, FULL_DEPTH, 3));
    let entries = vec![
        // A pit beyond the board's 8.
        (Key::new(&[1, 0, 0, 0, 0, 0, 0, 0, 2]), entry(0, 3, 9, 1)),
        good,
        // More seeds than the game has.
        (Key::new(&[20, 0, 0, 0, 0, 0, 0, 5]), entry(0, 25, 9, 1)),
        // Bounds beyond the seeds in play, and crossed.
        (Key::new(&[2, 1]), entry(0, 4, 9, 1)),
        (Key::new(&[2, 2]), entry(3, 2, 9, 1)),
        // A best move off the board.
        (
            Key::new(&[1, 1, 1]),
            Entry {
                best: 5,
                ..entry(0, 3, 9, 1)
            },
        ),
    ];
    let bytes = encode(&kalah43(entries)).unwrap();
    assert_eq!(decode(&bytes).unwrap().entries, vec![good]);
}

/// The reader stays strict: a file that repeats a key (a difference of 0)
/// is refused, whoever wrote it.
#[test]
fn a_file_that_repeats_a_key_is_refused() {
    let (a, b) = (Key::new(&[0, 1, 0, 2]), Key::new(&[5, 0, 0, 0, 0, 0, 0, 3]));
    let mut p = payload(&encode(&kalah43(Vec::new())).unwrap());
    p.truncate(36);
    // As the writer before the fix wrote a table holding `a` twice.
    let shift = 8 * (16 - 8);
    let (na, nb) = (key_number(a) >> shift, key_number(b) >> shift);
    let es = [entry(1, 3, 7, 2), entry(2, 3, 7, 5), entry(0, 2, 4, 1)];
    p.extend_from_slice(&3u64.to_le_bytes());
    for mut d in [na, 0, nb - na] {
        while d >= 0x80 {
            p.push(d as u8 | 0x80);
            d >>= 7;
        }
        p.push(d as u8);
    }
    for plane in 0..4 {
        p.extend(es.iter().map(|e| (e.pack() >> (8 * plane)) as u8));
    }
    let bytes = frame(&kalah43(Vec::new()).identity, &p).unwrap();
    assert_eq!(
        decode(&bytes).err().as_deref(),
        Some("the keys are not increasing at entry 1")
    );
    // The same entries, each key once, read.
    let mut once = p[..44].to_vec();
    once[36..44].copy_from_slice(&2u64.to_le_bytes());
    for mut d in [na, nb - na] {
        while d >= 0x80 {
            once.push(d as u8 | 0x80);
            d >>= 7;
        }
        once.push(d as u8);
    }
    for plane in 0..4 {
        once.extend(
            [es[1], es[2]]
                .iter()
                .map(|e| (e.pack() >> (8 * plane)) as u8),
        );
    }
    let bytes = frame(&kalah43(Vec::new()).identity, &once).unwrap();
    assert_eq!(
        decode(&bytes).unwrap().entries,
        vec![(a, es[1]), (b, es[2])]
    );
}
