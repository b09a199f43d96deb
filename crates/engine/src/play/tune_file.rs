//! The file of a saved tuning run ([`TuneState`]): one line of JSON,
//!
//! ```text
//! {"format":"mancala tune state","version":2,"crc32":"89abcdef","bytes":1234,"state":{...}}
//! ```
//!
//! where `state` is the run's state as JSON, `bytes` its length in bytes
//! and `crc32` the CRC-32 of those bytes, in hexadecimal. The file is read
//! header first, never more than the header declares, and refused unless
//! the checksum holds and [`TuneState::validate`] finds its fields
//! consistent; it is written atomically.

use std::io::Read;
use std::path::Path;

use super::tune::TuneState;
use crate::error::{Error, Result};

/// What every saved run starts with, before its checksum.
const PREFIX: &str = r#"{"format":"mancala tune state","version":2,"crc32":""#;

/// Largest state read, in bytes (100,000 generations' reports take about
/// 25 MB).
pub const MAX_STATE_BYTES: u64 = 1 << 26;

/// Longest header: the prefix, the checksum, the length's field and its
/// digits.
const HEADER_MAX: u64 = PREFIX.len() as u64 + 8 + 64;

/// The file's text for `state`.
pub fn encode(state: &TuneState) -> String {
    let body = serde_json::to_string(state).expect("a state is JSON");
    format!(
        "{PREFIX}{:08x}\",\"bytes\":{},\"state\":{body}}}\n",
        crc32fast::hash(body.as_bytes()),
        body.len()
    )
}

/// The state of a file's text, or why it cannot be used.
pub fn decode(bytes: &[u8]) -> std::result::Result<TuneState, String> {
    let (crc, len, at) = header(bytes)?;
    let body = bytes
        .get(at..at + len)
        .ok_or_else(|| format!("truncated: its header says {} bytes", at + len + 2))?;
    match &bytes[at + len..] {
        b"}\n" | b"}" => {}
        rest if rest.len() < 2 => {
            return Err(format!("truncated: its header says {} bytes", at + len + 2))
        }
        _ => return Err("the state's length is not what its header says (damaged)".into()),
    }
    if crc32fast::hash(body) != crc {
        return Err("checksum mismatch (damaged or edited)".into());
    }
    let state: TuneState =
        serde_json::from_slice(body).map_err(|e| format!("not a tuning run's state ({e})"))?;
    state.validate()?;
    Ok(state)
}

/// The checksum and length the header of `bytes` declares, and where the
/// state starts.
fn header(bytes: &[u8]) -> std::result::Result<(u32, usize, usize), String> {
    let Some(rest) = bytes.strip_prefix(PREFIX.as_bytes()) else {
        if bytes.starts_with(br#"{"settings":"#) {
            return Err("saved by an earlier version, without a checksum".into());
        }
        return Err("not a saved tuning run (its first bytes are not a tuning run's)".into());
    };
    let bad = || "its header is damaged".to_string();
    let hex = rest.get(..8).ok_or_else(bad)?;
    let crc = std::str::from_utf8(hex)
        .ok()
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .ok_or_else(bad)?;
    let rest = rest[8..].strip_prefix(br#"","bytes":"#).ok_or_else(bad)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let len: u64 = std::str::from_utf8(&rest[..digits])
        .ok()
        .and_then(|d| d.parse().ok())
        .ok_or_else(bad)?;
    if len > MAX_STATE_BYTES {
        return Err(format!(
            "its header declares {len} bytes of state, more than a run can hold"
        ));
    }
    let rest = rest[digits..]
        .strip_prefix(br#","state":"#)
        .ok_or_else(bad)?;
    Ok((crc, len as usize, bytes.len() - rest.len()))
}

impl TuneState {
    /// Read a saved run: a regular file only, its header from its first
    /// bytes, then no more than the header declares; refused
    /// ([`Error::BadTuneState`]) unless its checksum holds and its fields
    /// are consistent.
    pub fn load(path: &Path) -> Result<TuneState> {
        let bad = |reason: String| Error::BadTuneState {
            path: Some(path.to_path_buf()),
            reason,
        };
        let file = crate::files::open_regular(path)?;
        let mut r = file.take(HEADER_MAX);
        let mut bytes = Vec::new();
        r.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
        let (_, len, at) = match header(&bytes) {
            Ok(h) => h,
            // A header longer than the prefix read: damaged.
            Err(reason) => return Err(bad(reason)),
        };
        // The state and the closing brace and newline, and a byte more to
        // notice extra bytes.
        let want = (at + len + 3) as u64;
        let read = bytes.len() as u64;
        r.into_inner()
            .take(want.saturating_sub(read))
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io(path, e))?;
        decode(&bytes).map_err(bad)
    }

    /// Write the run to `path` atomically, with its checksum.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::atomic::write(path, encode(self).as_bytes(), "tune.state.json")
    }
}

#[cfg(test)]
mod tests {
    use super::super::tune::{start, TuneOptions};
    use super::*;
    use crate::progress::Observer;

    fn opts() -> TuneOptions {
        TuneOptions {
            game: "kalah:4:3".parse().unwrap(),
            population: 4,
            generations: 3,
            games: 2,
            depth: 1,
            mutation: 0.1,
            sigma: 0.1,
            random_opening: 1,
            seed: 3,
            readings: Default::default(),
            threads: Some(1),
            progress: Observer::default(),
        }
    }

    /// A state after two generations.
    fn two_done() -> TuneState {
        let o = opts();
        let mut saved = Vec::new();
        let _ = super::super::tune::run(&o, start(&o), |s| {
            saved.push(s.clone());
            Ok(())
        });
        saved[1].clone()
    }

    #[test]
    fn a_saved_run_reads_back_and_damage_is_refused() {
        let s = two_done();
        let text = encode(&s);
        assert_eq!(decode(text.as_bytes()).unwrap(), s);
        // Every single changed digit is caught.
        for (i, c) in text.char_indices().filter(|(_, c)| c.is_ascii_digit()) {
            let mut t = text.clone().into_bytes();
            t[i] = if c == '7' { b'8' } else { b'7' };
            assert!(decode(&t).is_err(), "digit {i} changed: accepted");
        }
        // Truncated, or with bytes after it.
        assert!(decode(&text.as_bytes()[..text.len() - 5]).is_err());
        assert!(decode(format!("{text}x").as_bytes()).is_err());
        // The file before checksums.
        let old = serde_json::to_string(&s).unwrap();
        let e = decode(old.as_bytes()).unwrap_err();
        assert!(e.contains("earlier version"), "{e}");
    }

    /// A state with `change` applied, saved with a checksum that holds.
    fn resealed(change: impl Fn(&mut TuneState)) -> String {
        let mut s = two_done();
        change(&mut s);
        let e = decode(encode(&s).as_bytes()).unwrap_err();
        assert!(!e.contains("checksum"), "{e}");
        e
    }

    #[test]
    fn inconsistent_fields_are_refused_even_with_a_sound_checksum() {
        let e = resealed(|s| s.done = 31);
        assert!(e.contains("31 generations done of the 3"), "{e}");
        let e = resealed(|s| s.done = 1_000_000_000_000);
        assert!(e.contains("generations done of the 3"), "{e}");
        let e = resealed(|s| s.done = 1);
        assert!(e.contains("1 generations done but 2 reported"), "{e}");
        let e = resealed(|s| s.population[0][3] = 1e308);
        assert!(e.contains("outside 0 to 1"), "{e}");
        let e = resealed(|s| s.population[2][0] = -5.0);
        assert!(e.contains("candidate 3"), "{e}");
        let e = resealed(|s| s.history[1].best[0] = 2.0);
        assert!(e.contains("generation 2"), "{e}");
        let e = resealed(|s| s.history[0].generation = 7);
        assert!(e.contains("generation 1"), "{e}");
        let e = resealed(|s| s.history[0].mean_fitness = s.history[0].best_fitness + 0.1);
        assert!(e.contains("generation 1"), "{e}");
        let e = resealed(|s| s.population.truncate(3));
        assert!(e.contains("3 candidates where its settings say 4"), "{e}");
        let e = resealed(|s| s.settings = s.settings.replace("population=4", "population=1"));
        assert!(e.contains("out of range"), "{e}");
        let e = resealed(|s| s.settings = s.settings.replace("depth=1", "depth=x"));
        assert!(e.contains("depth=x"), "{e}");
    }

    #[test]
    fn a_file_is_read_no_further_than_its_header_declares() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.state.json");
        let s = two_done();
        s.save(&path).unwrap();
        assert_eq!(TuneState::load(&path).unwrap(), s);
        // A header that declares more than any run: refused from the
        // header, on a file of a few bytes.
        std::fs::write(&path, format!("{PREFIX}00000000\",\"bytes\":99999999999,")).unwrap();
        let e = TuneState::load(&path).unwrap_err().to_string();
        assert!(e.contains("more than a run can hold"), "{e}");
        // A sparse file of 16 GiB behind a sound header is read no
        // further than the header's length.
        let mut text = encode(&s).into_bytes();
        text.pop();
        std::fs::write(&path, &text).unwrap();
        let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(1 << 34).unwrap();
        let t0 = crate::clock::Instant::now();
        let e = TuneState::load(&path).unwrap_err().to_string();
        assert!(e.contains("length is not what its header says"), "{e}");
        assert!(t0.elapsed().as_secs() < 5);
    }
}
