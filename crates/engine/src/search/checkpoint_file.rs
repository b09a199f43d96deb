//! The checkpoint file format.
//!
//! All numbers little-endian. The header:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MNCLCKPT` |
//! | 8 | 4 | format version ([`FORMAT_VERSION`]) |
//! | 12 | 1 | rule-set id ([`KalahRules::id`]) |
//! | 13 | 1 | pits per side |
//! | 14 | 2 | largest table seed count probed (0: none) |
//! | 16 | 4 | table fingerprint ([`super::checkpoint::Identity::table_fingerprint`]) |
//! | 20 | 2 | length `L` of the position text |
//! | 22 | `L` | the position, in notation from the side to move (UTF-8) |
//! | 22+L | 8 | payload length before compression |
//! | 30+L | 8 | payload length in the file (compressed) |
//! | 38+L | 4 | CRC-32 of the compressed payload |
//! | 42+L | 4 | CRC-32 of the header's bytes before this field |
//!
//! Then the payload, one zstd frame (with zstd's own content checksum):
//! the search state (deepest iteration `u32`, guess `i32`, best move `u8`
//! (255: none), exact search started `u8`, lower and upper bounds `i32`,
//! nodes `u64`, seconds `f64`), the opening moves (count `u8`, then pit
//! `u8`, lower `i32`, upper `i32` each), the finished result (`u8` flag;
//! if set the value `i32`, the number of turns `u32`, each turn its length
//! `u8` and its pits), and the transposition entries: their count `u64`,
//! then their keys in increasing order, each key the number whose
//! big-endian bytes are its `2m` pits, written as its difference from the
//! previous key (from 0 for the first) in groups of 7 bits, low group
//! first, the high bit set on every group but the last; then the entries'
//! packed bounds ([`Entry::pack`], `u32`) in the same order, as four byte
//! planes (every entry's low byte, then every second byte, ...). Sorted
//! keys are close: a Kalah(4,8) entry takes 1.7 bytes of key before
//! compression, and the byte planes compress a quarter better than whole
//! words.
//!
//! The keys strictly increase, and a reader refuses a file where they do
//! not. The writer makes sure of it whatever entries it is given: a key
//! given twice is written once, its entries merged ([`Entry::merge`]),
//! and an entry a reader would refuse (not a position of the board, or
//! inconsistent bounds, see [`plausible`]) is left out; so a checkpoint
//! written is always read back.

use std::path::Path;

use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;

use super::checkpoint::{plausible, Checkpoint, Finished, Identity, RootMove, SearchState};
use super::tt::{Entry, Key};

/// The first bytes of every checkpoint file.
pub const MAGIC: [u8; 8] = *b"MNCLCKPT";

/// The version of the format this program writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// zstd level of the payload. On a stopped Kalah(4,8) solve's 1.9 M
/// entries (11 MB once delta-coded) level 1 took 0.06 s for 5.9 MB, level
/// 3 0.18 s for 5.5 MB: the faster one, since a checkpoint is taken while
/// the search runs.
#[cfg(feature = "zstd")]
const ZSTD_LEVEL: i32 = 1;

/// The pits of `key` as a number, the first pit its most significant byte
/// (so that sorting the numbers sorts the keys by their pits).
fn key_number(key: Key) -> u128 {
    let mut b = [0u8; 16];
    b[..12].copy_from_slice(&key.pits());
    u128::from_be_bytes(b)
}

/// Largest payload accepted before decompression is attempted.
const MAX_PAYLOAD: u64 = 1 << 36;

impl Checkpoint {
    /// Write the checkpoint to `path` atomically (a temporary file in the
    /// same directory, synced, then renamed over `path`); returns the
    /// bytes written.
    pub fn write(&self, path: &Path) -> Result<u64> {
        let bytes = encode(self).map_err(|e| Error::io(path, e))?;
        crate::atomic::write(path, &bytes, "checkpoint")?;
        Ok(bytes.len() as u64)
    }

    /// Read and check a checkpoint file: magic, version, header checksum,
    /// length, payload checksum, decompression and every field must be
    /// sound, else [`Error::BadCheckpoint`] says what is wrong. Nothing of
    /// a refused file is used.
    /// Only a regular file is read (a named pipe or a device is refused
    /// at once), header first, and never more than its header declares.
    pub fn read(path: &Path) -> Result<Checkpoint> {
        let bad = |reason: String| Error::BadCheckpoint {
            path: path.to_path_buf(),
            reason,
        };
        let mut file = crate::files::open_regular(path)?;
        let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
        let bytes = match read_declared(&mut file, len) {
            Ok(bytes) => bytes,
            Err(Declared::Io(e)) => return Err(Error::io(path, e)),
            Err(Declared::Refused(reason)) => return Err(bad(reason)),
        };
        decode(&bytes).map_err(bad)
    }
}

/// Why [`read_declared`] stopped.
#[derive(Debug)]
pub(super) enum Declared {
    /// The file could not be read.
    Io(std::io::Error),
    /// Its header declares what cannot be.
    Refused(String),
}

/// The bytes of a checkpoint file of `len` bytes from `r`, read header
/// first: the fixed part, then the position the header announces, then,
/// once the header's checksum holds, the payload it declares and one byte
/// more (to notice extra bytes). Whatever `r` is, nothing beyond that is
/// read; a file that is not a checkpoint stops after its first bytes, and
/// [`decode`] says what is wrong with what was read.
pub(super) fn read_declared(
    r: &mut impl std::io::Read,
    len: u64,
) -> std::result::Result<Vec<u8>, Declared> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let more = |r: &mut dyn Read, bytes: &mut Vec<u8>, n: u64| {
        let before = bytes.len() as u64;
        r.take(n)
            .read_to_end(bytes)
            .map_err(Declared::Io)
            .map(|_| bytes.len() as u64 - before == n)
    };
    // Magic, version, identity and the position's length.
    if !more(r, &mut bytes, 22)? || bytes[..8] != MAGIC {
        return Ok(bytes);
    }
    let pos_len = u16::from_le_bytes([bytes[20], bytes[21]]) as u64;
    // The position, both payload lengths and both checksums.
    if !more(r, &mut bytes, pos_len + 24)? {
        return Ok(bytes);
    }
    let header_end = bytes.len() - 4;
    let hcrc = u32::from_le_bytes(bytes[header_end..].try_into().unwrap());
    if crc32fast::hash(&bytes[..header_end]) != hcrc {
        return Ok(bytes);
    }
    let z_len = u64::from_le_bytes(bytes[header_end - 12..header_end - 4].try_into().unwrap());
    let declared = (bytes.len() as u64).saturating_add(z_len);
    if z_len > MAX_PAYLOAD {
        return Err(Declared::Refused(format!(
            "its header declares a payload of {z_len} bytes, beyond this program"
        )));
    }
    if declared > len {
        return Err(Declared::Refused(format!(
            "truncated: the file has {len} bytes where its header says {declared} \
             (an interrupted write or copy?)"
        )));
    }
    if len > declared {
        return Err(Declared::Refused(format!(
            "{} extra bytes after the payload",
            len - declared
        )));
    }
    more(r, &mut bytes, z_len + 1)?;
    Ok(bytes)
}

/// The file bytes of `c`: its entries sorted by key, each key once, those
/// a reader would refuse left out.
pub(super) fn encode(c: &Checkpoint) -> std::io::Result<Vec<u8>> {
    let id = &c.identity;
    let st = &c.state;
    let m = id.pits;
    let s = Position::parse(&id.position)
        .ok()
        .filter(|p| p.pits_per_side() == m)
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "the checkpoint's position \"{}\" is not a position of {m} pits per side",
                    id.position
                ),
            )
        })?
        .active_seeds() as i32;
    let mut p = Vec::with_capacity(64 + c.entries.len() * (2 * m + 4));
    p.extend_from_slice(&st.depth.to_le_bytes());
    p.extend_from_slice(&st.guess.to_le_bytes());
    p.push(st.best_move.map_or(u8::MAX, |b| b as u8));
    p.push(st.exact_started as u8);
    p.extend_from_slice(&st.lower.to_le_bytes());
    p.extend_from_slice(&st.upper.to_le_bytes());
    p.extend_from_slice(&st.nodes.to_le_bytes());
    p.extend_from_slice(&st.seconds.to_le_bytes());
    p.push(st.root_moves.len() as u8);
    for r in &st.root_moves {
        p.push(r.pit as u8);
        p.extend_from_slice(&r.lower.to_le_bytes());
        p.extend_from_slice(&r.upper.to_le_bytes());
    }
    match &st.finished {
        None => p.push(0),
        Some(f) => {
            p.push(1);
            p.extend_from_slice(&f.value.to_le_bytes());
            p.extend_from_slice(&(f.pv_turns.len() as u32).to_le_bytes());
            for t in &f.pv_turns {
                p.push(t.len() as u8);
                p.extend(t.iter().map(|&x| x as u8));
            }
        }
    }
    // The entries sorted by key, each key a number (its 2m pits, big-endian),
    // written as the difference from the previous one in 7-bit groups; then
    // the packed bounds, one byte plane after another. A snapshot of the
    // table comes sorted, each key once, every entry plausible; any other
    // list is made so here: the reader requires it.
    let shift = 8 * (16 - 2 * m);
    let mut sorted: Vec<(u128, Entry)> = c
        .entries
        .iter()
        .filter(|&&(k, e)| plausible(k, e, m, s))
        .map(|&(k, e)| (key_number(k) >> shift, e))
        .collect();
    sorted.sort_unstable_by_key(|x| x.0);
    sorted.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = kept.1.merge(later.1);
        }
        same
    });
    p.extend_from_slice(&(sorted.len() as u64).to_le_bytes());
    let mut prev = 0u128;
    for &(k, _) in &sorted {
        let mut d = k - prev;
        prev = k;
        while d >= 0x80 {
            p.push(d as u8 | 0x80);
            d >>= 7;
        }
        p.push(d as u8);
    }
    for plane in 0..4 {
        p.extend(sorted.iter().map(|&(_, e)| (e.pack() >> (8 * plane)) as u8));
    }
    frame(id, &p)
}

/// The file bytes of a checkpoint of `id` whose payload (before
/// compression) is `p`: the header, then the compressed payload.
fn frame(id: &Identity, p: &[u8]) -> std::io::Result<Vec<u8>> {
    let z = compress(p)?;

    let pos = id.position.as_bytes();
    let mut h = Vec::with_capacity(46 + pos.len() + z.len());
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.push(id.rules.id());
    h.push(id.pits as u8);
    h.extend_from_slice(&(id.table_seeds as u16).to_le_bytes());
    h.extend_from_slice(&id.table_fingerprint.to_le_bytes());
    h.extend_from_slice(&(pos.len() as u16).to_le_bytes());
    h.extend_from_slice(pos);
    h.extend_from_slice(&(p.len() as u64).to_le_bytes());
    h.extend_from_slice(&(z.len() as u64).to_le_bytes());
    h.extend_from_slice(&crc32fast::hash(&z).to_le_bytes());
    let hcrc = crc32fast::hash(&h);
    h.extend_from_slice(&hcrc.to_le_bytes());
    h.extend_from_slice(&z);
    Ok(h)
}

/// A cursor over bytes that reports running past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> std::result::Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!(
                "truncated: {} bytes, the {} needs more",
                self.bytes.len(),
                self.what
            ));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> std::result::Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> std::result::Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> std::result::Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn i32(&mut self) -> std::result::Result<i32, String> {
        Ok(i32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> std::result::Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
}

/// The checkpoint in `bytes`, or why it cannot be used.
pub(super) fn decode(bytes: &[u8]) -> std::result::Result<Checkpoint, String> {
    if bytes.len() < 8 || bytes[..8] != MAGIC {
        return Err("not a checkpoint file (wrong magic bytes)".into());
    }
    let mut r = Reader {
        bytes,
        at: 8,
        what: "header",
    };
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(format!(
            "format version {version}, this program reads version {FORMAT_VERSION}"
        ));
    }
    let rules_id = r.u8()?;
    let m = r.u8()? as usize;
    let table_seeds = r.u16()? as usize;
    let table_fingerprint = r.u32()?;
    let pos_len = r.u16()? as usize;
    let pos_bytes = r.take(pos_len)?;
    let raw_len = r.u64()?;
    let z_len = r.u64()?;
    let z_crc = r.u32()?;
    let header_end = r.at;
    let hcrc = r.u32()?;
    if crc32fast::hash(&bytes[..header_end]) != hcrc {
        return Err("header checksum mismatch (corrupted)".into());
    }
    if !(1..=6).contains(&m) {
        return Err(format!("{m} pits per side: the solver handles 1 to 6"));
    }
    let rules = KalahRules::from_id(rules_id).ok_or(format!("unknown rule-set id {rules_id}"))?;
    let text = std::str::from_utf8(pos_bytes).map_err(|_| "the position is not text")?;
    let position = Position::parse(text).map_err(|e| format!("bad position: {e}"))?;
    if position.pits_per_side() != m {
        return Err(format!(
            "the header says {m} pits, its position has {}",
            position.pits_per_side()
        ));
    }
    let body = &bytes[r.at..];
    if (body.len() as u64) < z_len {
        return Err(format!(
            "truncated: the file has {} bytes where its header says {} (an interrupted write or copy?)",
            bytes.len(),
            r.at as u64 + z_len
        ));
    }
    if body.len() as u64 > z_len {
        return Err(format!(
            "{} extra bytes after the payload",
            body.len() as u64 - z_len
        ));
    }
    if crc32fast::hash(body) != z_crc {
        return Err("payload checksum mismatch (corrupted)".into());
    }
    if raw_len > MAX_PAYLOAD {
        return Err(format!(
            "a payload of {raw_len} bytes is beyond this program"
        ));
    }
    let payload = decompress(body, raw_len as usize)
        .map_err(|e| format!("the payload does not decompress (zstd: {e})"))?;
    if payload.len() as u64 != raw_len {
        return Err(format!(
            "the payload decompresses to {} bytes where the header says {raw_len}",
            payload.len()
        ));
    }
    let identity = Identity {
        position: text.to_string(),
        rules,
        pits: m,
        table_seeds,
        table_fingerprint,
    };
    let s = position.active_seeds() as i32;
    let sd = position.mover_store() as i32 - position.opponent_store() as i32;
    let (state, entries) = decode_payload(&payload, m, s, sd)?;
    Ok(Checkpoint {
        identity,
        state,
        entries,
    })
}

/// The state and entries of a payload for a root of `s` seeds in play on
/// `m` pits with store difference `sd`.
fn decode_payload(
    payload: &[u8],
    m: usize,
    s: i32,
    sd: i32,
) -> std::result::Result<(SearchState, Vec<(Key, Entry)>), String> {
    let mut r = Reader {
        bytes: payload,
        at: 0,
        what: "payload",
    };
    let in_range = |v: i32| (sd - s..=sd + s).contains(&v);
    let bad = |what: &str| Err(format!("the payload holds {what}"));
    let depth = r.u32()?;
    let guess = r.i32()?;
    let best = r.u8()?;
    let exact_started = r.u8()? != 0;
    let lower = r.i32()?;
    let upper = r.i32()?;
    let nodes = r.u64()?;
    let seconds = f64::from_le_bytes(r.take(8)?.try_into().unwrap());
    if !(in_range(lower) && in_range(upper) && lower <= upper && in_range(guess)) {
        return bad("bounds outside the position's range");
    }
    if best != u8::MAX && best as usize >= m {
        return bad("a best move off the board");
    }
    let mut root_moves = Vec::new();
    for _ in 0..r.u8()? {
        let (pit, lo, hi) = (r.u8()? as usize, r.i32()?, r.i32()?);
        if pit >= m || !(in_range(lo) && in_range(hi) && lo <= hi) {
            return bad("an opening move off the board or out of range");
        }
        root_moves.push(RootMove {
            pit,
            lower: lo,
            upper: hi,
        });
    }
    let finished = match r.u8()? {
        0 => None,
        _ => {
            let value = r.i32()?;
            if !in_range(value) {
                return bad("a value outside the position's range");
            }
            let n = r.u32()? as usize;
            let mut pv_turns = Vec::with_capacity(n.min(1024));
            for _ in 0..n {
                let len = r.u8()? as usize;
                let turn: Vec<usize> = r.take(len)?.iter().map(|&x| x as usize).collect();
                if turn.iter().any(|&p| p >= m) {
                    return bad("a principal variation off the board");
                }
                pv_turns.push(turn);
            }
            Some(Finished { value, pv_turns })
        }
    };
    let count = r.u64()?;
    // Every entry takes at least one byte of key and four of bounds.
    if count > (payload.len() - r.at) as u64 / 5 {
        return Err(format!(
            "truncated: the payload promises {count} entries and holds fewer"
        ));
    }
    let shift = 8 * (16 - 2 * m) as u32;
    let mut keys = Vec::with_capacity(count as usize);
    let mut prev = 0u128;
    for i in 0..count {
        let mut d = 0u128;
        let mut bits = 0u32;
        loop {
            let b = r.u8()?;
            if bits >= 16 * m as u32 {
                return Err(format!("the key of entry {i} is too long"));
            }
            d |= ((b & 0x7f) as u128) << bits;
            bits += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        let k = prev
            .checked_add(d)
            .filter(|&k| (i == 0 || d > 0) && k >> (16 * m) == 0);
        let Some(k) = k else {
            return Err(format!("the keys are not increasing at entry {i}"));
        };
        prev = k;
        keys.push(k);
    }
    let planes = r.take(4 * count as usize)?;
    if r.at != payload.len() {
        return bad("extra bytes after its entries");
    }
    let n = count as usize;
    let mut entries = Vec::with_capacity(n);
    for (i, &k) in keys.iter().enumerate() {
        let key = Key::new(&(k << shift).to_be_bytes()[..12]);
        let d = (0..4).fold(0u32, |d, plane| {
            d | (planes[plane * n + i] as u32) << (8 * plane)
        });
        let entry = Entry::unpack(d);
        if !plausible(key, entry, m, s) {
            return Err(format!(
                "entry {i} is not a position of this board with consistent bounds"
            ));
        }
        entries.push((key, entry));
    }
    let state = SearchState {
        depth,
        guess,
        best_move: (best != u8::MAX).then_some(best as usize),
        exact_started,
        lower,
        upper,
        root_moves,
        nodes,
        seconds,
        finished,
    };
    Ok((state, entries))
}

/// The payload compressed: one zstd frame with its content checksum.
#[cfg(feature = "zstd")]
fn compress(p: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut enc = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
    enc.include_checksum(true)?;
    enc.compress(p)
}

#[cfg(feature = "zstd")]
fn decompress(z: &[u8], len: usize) -> std::io::Result<Vec<u8>> {
    zstd::bulk::decompress(z, len)
}

/// Without the `zstd` feature (a build for the browser) checkpoints are
/// neither written nor read.
#[cfg(not(feature = "zstd"))]
fn compress(_: &[u8]) -> std::io::Result<Vec<u8>> {
    Err(std::io::Error::other(NO_ZSTD))
}

#[cfg(not(feature = "zstd"))]
fn decompress(_: &[u8], _: usize) -> std::io::Result<Vec<u8>> {
    Err(std::io::Error::other(NO_ZSTD))
}

#[cfg(not(feature = "zstd"))]
const NO_ZSTD: &str = "this build of the engine has no zstd (its `zstd` feature is off), so it \
                       cannot write or read solver checkpoints";

#[cfg(all(test, feature = "zstd"))]
mod repeats;

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes without end: `prefix`, then zeros forever (a `/dev/zero`).
    struct Endless {
        prefix: Vec<u8>,
        at: usize,
        served: u64,
    }

    impl std::io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(1 << 16);
            for b in &mut buf[..n] {
                *b = self.prefix.get(self.at).copied().unwrap_or(0);
                self.at += 1;
            }
            self.served += n as u64;
            Ok(n)
        }
    }

    fn endless(prefix: Vec<u8>) -> Endless {
        Endless {
            prefix,
            at: 0,
            served: 0,
        }
    }

    #[test]
    fn an_endless_file_is_read_no_further_than_its_header_declares() {
        // Not a checkpoint: the first bytes are enough.
        let mut zeros = endless(Vec::new());
        let bytes = read_declared(&mut zeros, u64::MAX).unwrap();
        assert_eq!(bytes.len(), 22);
        assert!(decode(&bytes).unwrap_err().contains("not a checkpoint"));
        // A sound header declaring a payload of 1000 bytes, then zeros for
        // ever: the header, the payload and one byte are read.
        let position = "0 1 0 1 0 0";
        let mut h = MAGIC.to_vec();
        h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        h.extend_from_slice(&[0, 2, 0, 0, 0, 0, 0, 0]);
        h.extend_from_slice(&(position.len() as u16).to_le_bytes());
        h.extend_from_slice(position.as_bytes());
        h.extend_from_slice(&4000u64.to_le_bytes());
        h.extend_from_slice(&1000u64.to_le_bytes());
        h.extend_from_slice(&0u32.to_le_bytes());
        let crc = crc32fast::hash(&h);
        h.extend_from_slice(&crc.to_le_bytes());
        let header = h.len();
        let mut r = endless(h.clone());
        let bytes = read_declared(&mut r, header as u64 + 1000).unwrap();
        assert_eq!(bytes.len(), header + 1001);
        assert!(r.served < 1 << 17, "read {} bytes", r.served);
        assert!(decode(&bytes).unwrap_err().contains("extra bytes"));
        // A file longer than its header declares: refused from its size.
        match read_declared(&mut endless(h.clone()), 1 << 40) {
            Err(Declared::Refused(reason)) => assert!(reason.contains("extra bytes"), "{reason}"),
            other => panic!("{other:?}"),
        }
        // The same header on a file shorter than it declares: refused
        // before the payload is read.
        match read_declared(&mut endless(h.clone()), 500) {
            Err(Declared::Refused(reason)) => assert!(reason.contains("truncated"), "{reason}"),
            other => panic!("{other:?}"),
        }
        // A payload beyond this program: refused, whatever the file's size.
        let mut huge = h[..header - 16].to_vec();
        huge.extend_from_slice(&(MAX_PAYLOAD + 1).to_le_bytes());
        huge.extend_from_slice(&0u32.to_le_bytes());
        let crc = crc32fast::hash(&huge);
        huge.extend_from_slice(&crc.to_le_bytes());
        match read_declared(&mut endless(huge), u64::MAX) {
            Err(Declared::Refused(reason)) => assert!(reason.contains("beyond"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }
}
