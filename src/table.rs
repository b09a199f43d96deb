//! Table files: format, atomic writing, and the memory-mapped reader.
//!
//! One file holds the exact value of every position of one (game, rules,
//! pits per side, seeds in play). Values are stored as a small unsigned
//! *share* `j` per position, in 4 bits per position. Kalah stores the mover's
//! final share of the seeds in play (`value = 2j - k`: a Kalah value always
//! has the parity of k, so k + 1 values are possible, not 2k + 1); Awari and
//! Oware store `j = value + k` (`0..=2k`: their values have any parity).
//! Positions are grouped in chunks of 4096 consecutive indices, and each chunk
//! has its own window: code `c < 15` means `j = base + c`, code 15 is an
//! escape whose exact `j` is in the chunk's part of a sorted escape list.
//! Consecutive indices share the mover's row, so their values are close and
//! per-chunk windows leave very few escapes (about 0.1% of the positions
//! with 20 seeds on 6 pits). No value is ever stored as a bound.
//!
//! Layout (little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MANCALA\x1a` |
//! | 8 | 4 | format version |
//! | 12 | 1 | game (1 Kalah, 2 Awari, 3 Oware) |
//! | 13 | 1 | rules id (Kalah rule set; 0 for Awari and Oware) |
//! | 14 | 1 | pits per side m |
//! | 15 | 1 | seeds in play k |
//! | 16 | 1 | index layout id |
//! | 17 | 1 | encoding (1: 4-bit codes, 2: 5-bit codes; per-chunk windows, escapes) |
//! | 18 | 1 | reserved (0) |
//! | 19 | 1 | log2 of the chunk size (12) |
//! | 20 | 4 | reserved (0) |
//! | 24 | 8 | positions |
//! | 32 | 8 | escapes |
//! | 40 | 8 | chunk-directory offset |
//! | 48 | 8 | escape-list offset |
//! | 56 | 4 | CRC-32 of everything after the header |
//! | 60 | 4 | CRC-32 of bytes 0..60 |
//!
//! After the header: the codes, padded to 8 bytes; the chunk directory, one
//! `u64` per chunk plus one (`first_escape << 8 | base`, the last entry
//! holding the escape count); the escapes, one `u32` each
//! (`offset_in_chunk << 8 | j`), sorted.
//!
//! Kalah tables use 4-bit codes (encoding 1: position i in byte i/2, low
//! nibble for even i; windows of 15 shares, code 15 escapes). Awari and Oware
//! values spread over `2k + 1` shares and a window of 15 leaves about 6% of
//! the boards with 24 seeds escaped (5.9 bits per board in all), so their
//! tables use 5-bit codes (encoding 2: position i at bit 5i, little-endian;
//! windows of 31 shares, code 31 escapes), one byte of padding after the last
//! code so that every code can be read as a 16-bit word.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::error::{Error, Result};
use crate::index::{Indexer, Layout};
use crate::rules::awari::AwariGame;
use crate::rules::KalahRules;

/// First bytes of every table file.
pub const MAGIC: [u8; 8] = *b"MANCALA\x1a";
/// Current table format version.
pub const FORMAT_VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 64;
/// Encoding id: 4-bit codes with per-chunk windows and an escape list.
pub const ENCODING_NIBBLE_ESCAPE: u8 = 1;
/// Encoding id: 5-bit codes with per-chunk windows and an escape list.
pub const ENCODING_FIVE_BIT_ESCAPE: u8 = 2;
/// log2 of the number of positions sharing one window.
const CHUNK_BITS: u32 = 12;
const CHUNK: usize = 1 << CHUNK_BITS;

/// Which game and rules a table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableGame {
    /// Kalah under the given rules.
    Kalah(KalahRules),
    /// Awari or Oware (boards without stores, values from the seeds on the
    /// board, endless play counting 0).
    Awari(AwariGame),
}

impl TableGame {
    fn game_id(self) -> u8 {
        match self {
            TableGame::Kalah(_) => 1,
            TableGame::Awari(g) => g.id(),
        }
    }

    fn rules_id(self) -> u8 {
        match self {
            TableGame::Kalah(r) => r.id(),
            TableGame::Awari(_) => 0,
        }
    }

    /// The index layout the game's tables use. Awari and Oware tables hold
    /// every board whose mover row is non-empty (a board with an empty
    /// mover row ends the game: the opponent takes every seed).
    pub fn layout(self) -> Layout {
        match self {
            TableGame::Kalah(r) if r.plays_on_with_empty_opponent_row() => Layout::MoverRowNonEmpty,
            TableGame::Kalah(_) => Layout::BothRowsNonEmpty,
            TableGame::Awari(_) => Layout::MoverRowNonEmpty,
        }
    }

    /// Short name used in file names and messages.
    pub fn name(self) -> String {
        match self {
            TableGame::Kalah(r) => format!("kalah-{}", r.name()),
            TableGame::Awari(g) => g.name().to_string(),
        }
    }

    /// The largest share stored for `k` seeds: `k` for Kalah, `2k` for
    /// Awari and Oware.
    pub fn max_share(self, k: usize) -> usize {
        match self {
            TableGame::Kalah(_) => k,
            TableGame::Awari(_) => 2 * k,
        }
    }

    /// The code width of the game's tables: 4 bits for Kalah, 5 for Awari
    /// and Oware.
    pub fn code_bits(self) -> u32 {
        match self {
            TableGame::Kalah(_) => 4,
            TableGame::Awari(_) => 5,
        }
    }

    fn encoding_id(self) -> u8 {
        match self.code_bits() {
            4 => ENCODING_NIBBLE_ESCAPE,
            _ => ENCODING_FIVE_BIT_ESCAPE,
        }
    }

    /// How many value units one share step is worth: `value = scale * j - k`.
    fn value_scale(self) -> i32 {
        match self {
            TableGame::Kalah(_) => 2,
            TableGame::Awari(_) => 1,
        }
    }

    /// The share stored for `value` with `k` seeds (the value must be one
    /// the game can have: `-k..=k`, and of k's parity for Kalah).
    pub fn share_of_value(self, value: i32, k: usize) -> u8 {
        let j = (value + k as i32) / self.value_scale();
        debug_assert!((0..=self.max_share(k) as i32).contains(&j));
        j as u8
    }

    fn describe(game: u8, rules: u8) -> String {
        if let Some(g) = AwariGame::from_id(game) {
            return g.name().to_string();
        }
        match (game, KalahRules::from_id(rules)) {
            (1, Some(r)) => format!("kalah under {r} rules"),
            (1, None) => format!("kalah under unknown rules id {rules}"),
            _ => format!("unknown game id {game}"),
        }
    }
}

/// Identifies one table: game and rules, pits per side, seeds in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableSpec {
    /// Game and rules.
    pub game: TableGame,
    /// Pits per side.
    pub pits: usize,
    /// Seeds in play.
    pub seeds: usize,
}

impl TableSpec {
    /// File name inside the table directory, e.g. `kalah-default-m6-k20.tbl`.
    pub fn file_name(&self) -> String {
        format!("{}-m{}-k{}.tbl", self.game.name(), self.pits, self.seeds)
    }

    /// Full path inside `dir`.
    pub fn path(&self, dir: &Path) -> PathBuf {
        dir.join(self.file_name())
    }

    /// The command that builds this table (and the smaller ones).
    pub fn build_command(&self, dir: &Path) -> String {
        let mut cmd = match self.game {
            TableGame::Kalah(rules) => {
                let mut cmd = format!(
                    "mancala build kalah --pits {} --max-seeds {}",
                    self.pits, self.seeds
                );
                if rules != KalahRules::Default {
                    cmd.push_str(&format!(" --rules {rules}"));
                }
                cmd
            }
            TableGame::Awari(g) => format!(
                "mancala build {g} --pits {} --max-seeds {}",
                self.pits, self.seeds
            ),
        };
        if dir != Path::new("db") {
            cmd.push_str(&format!(" --db {}", dir.display()));
        }
        cmd
    }

    /// The indexer of this table.
    pub fn indexer(&self) -> Result<Indexer> {
        Indexer::new(self.pits, self.seeds, self.game.layout())
    }
}

/// A table file opened through a memory map. Lookups never copy the file.
#[derive(Debug)]
pub struct Table {
    spec: TableSpec,
    /// `value = scale * share - k`.
    scale: i32,
    /// Bits per code (4 or 5); the all-ones code escapes.
    code_bits: u32,
    indexer: Indexer,
    map: Mmap,
    escapes: usize,
    directory_offset: usize,
    escape_offset: usize,
}

impl Table {
    /// Open and check the table for `spec` in `dir`: header, sizes, rules
    /// and checksums. Any mismatch is an error that says how to fix it.
    pub fn open(dir: &Path, spec: TableSpec) -> Result<Table> {
        let path = spec.path(dir);
        let bad = |reason: String| Error::BadTable {
            path: path.clone(),
            reason,
            command: spec.build_command(dir),
        };
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::MissingTable {
                    path: path.clone(),
                    command: spec.build_command(dir),
                })
            }
            Err(e) => return Err(Error::io(&path, e)),
        };
        // SAFETY: the map is read-only and the file is only ever replaced by
        // rename, never written in place, so its contents cannot change under
        // the map while this process holds it.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(&path, e))?;
        if map.len() < HEADER_LEN {
            return Err(bad(format!(
                "{} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)",
                map.len()
            )));
        }
        let h = &map[..HEADER_LEN];
        if h[..8] != MAGIC {
            return Err(bad("not a mancala table file (wrong magic bytes)".into()));
        }
        let version = u32::from_le_bytes(h[8..12].try_into().unwrap());
        if crc32fast::hash(&h[..60]) != u32::from_le_bytes(h[60..64].try_into().unwrap()) {
            return Err(bad("header checksum mismatch (corrupted)".into()));
        }
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}, this program reads version {FORMAT_VERSION}"
            )));
        }
        let (game, rules, m, k) = (h[12], h[13], h[14] as usize, h[15] as usize);
        if game != spec.game.game_id() || rules != spec.game.rules_id() {
            return Err(bad(format!(
                "built for {}, wanted {}",
                TableGame::describe(game, rules),
                TableGame::describe(spec.game.game_id(), spec.game.rules_id())
            )));
        }
        if m != spec.pits || k != spec.seeds {
            return Err(bad(format!(
                "holds {m} pits and {k} seeds, wanted {} pits and {} seeds",
                spec.pits, spec.seeds
            )));
        }
        let indexer = spec.indexer()?;
        if h[16] != indexer.layout().id() || h[17] != spec.game.encoding_id() {
            return Err(bad(format!(
                "unknown layout {} or encoding {}",
                h[16], h[17]
            )));
        }
        if h[19] as u32 != CHUNK_BITS {
            return Err(bad(format!("unknown chunk size 2^{}", h[19])));
        }
        let read = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().unwrap());
        let (count, escapes, directory_offset, escape_offset) =
            (read(24), read(32), read(40), read(48));
        if count != indexer.count() {
            return Err(bad(format!(
                "{count} positions, the indexer has {}",
                indexer.count()
            )));
        }
        let (want_directory, want_escapes, want_len) =
            layout_of(count, escapes, spec.game.code_bits());
        if directory_offset != want_directory || escape_offset != want_escapes {
            return Err(bad("inconsistent offsets in the header".into()));
        }
        if map.len() as u64 != want_len {
            return Err(bad(format!(
                "{} bytes, expected {want_len} (truncated or padded)",
                map.len()
            )));
        }
        let crc = u32::from_le_bytes(h[56..60].try_into().unwrap());
        if crc32fast::hash(&map[HEADER_LEN..]) != crc {
            return Err(bad("data checksum mismatch (corrupted)".into()));
        }
        let table = Table {
            spec,
            scale: spec.game.value_scale(),
            code_bits: spec.game.code_bits(),
            indexer,
            escapes: escapes as usize,
            directory_offset: directory_offset as usize,
            escape_offset: escape_offset as usize,
            map,
        };
        // The directory must be consistent, or a look-up could fail.
        let chunks = count.div_ceil(CHUNK as u64) as usize;
        let mut previous = 0;
        for c in 0..=chunks {
            let (first, base) = table.directory(c);
            if first < previous || first > escapes || (c == chunks && first != escapes) {
                return Err(bad("inconsistent chunk directory".into()));
            }
            if base as usize > spec.game.max_share(spec.seeds) {
                return Err(bad("window base above the largest share".into()));
            }
            previous = first;
        }
        Ok(table)
    }

    /// What the table is for.
    pub fn spec(&self) -> TableSpec {
        self.spec
    }

    /// The table's indexer.
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.indexer.count()
    }

    /// Whether the table holds no position (k < 2).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of escaped entries.
    pub fn escape_count(&self) -> usize {
        self.escapes
    }

    /// Size of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.map.len() as u64
    }

    /// The share `j` stored at `index` (Kalah: the mover's final share of
    /// the seeds in play; Awari and Oware: value + k).
    #[inline]
    pub fn share(&self, index: u64) -> u8 {
        let (code, escape) = if self.code_bits == 4 {
            let byte = self.map[HEADER_LEN + (index / 2) as usize];
            ((byte >> ((index & 1) * 4)) & 0x0f, 0x0f)
        } else {
            let bit = index * 5;
            let at = HEADER_LEN + (bit / 8) as usize;
            let word = u16::from_le_bytes([self.map[at], self.map[at + 1]]);
            ((word >> (bit & 7)) as u8 & 0x1f, 0x1f)
        };
        let chunk = (index >> CHUNK_BITS) as usize;
        if code != escape {
            self.map[self.directory_offset + 8 * chunk] + code
        } else {
            self.escaped(index)
        }
    }

    /// Directory entry of chunk `c`: index of its first escape, and its base.
    #[inline]
    fn directory(&self, c: usize) -> (u64, u8) {
        let at = self.directory_offset + 8 * c;
        let e = u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap());
        (e >> 8, e as u8)
    }

    /// Ask the processor to start loading the entry at `index` (a hint; it
    /// never faults). Used to overlap the cache misses of several look-ups.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        prefetch(
            self.map[HEADER_LEN..]
                .as_ptr()
                .wrapping_add((index * self.code_bits as u64 / 8) as usize),
        );
    }

    /// The value (final difference of the seeds in play, mover minus
    /// opponent) at `index`.
    #[inline]
    pub fn value(&self, index: u64) -> i32 {
        self.scale * self.share(index) as i32 - self.spec.seeds as i32
    }

    #[cold]
    fn escaped(&self, index: u64) -> u8 {
        let chunk = (index >> CHUNK_BITS) as usize;
        let offset = (index as u32) & (CHUNK as u32 - 1);
        let entry = |i: u64| {
            let at = self.escape_offset + 4 * i as usize;
            u32::from_le_bytes(self.map[at..at + 4].try_into().unwrap())
        };
        let (mut lo, _) = self.directory(chunk);
        let (mut hi, _) = self.directory(chunk + 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let e = entry(mid);
            match (e >> 8).cmp(&offset) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return e as u8,
            }
        }
        // The writer lists every code it escapes, and the checksum ties the
        // list to the codes: a file that opened cannot get here.
        unreachable!("escape code without an escape entry at {index}")
    }
}

/// Prefetch the cache line holding `ptr` (no-op off x86-64).
#[inline(always)]
pub fn prefetch(ptr: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint and never dereferences the pointer in a
    // way that can fault, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}

/// Bytes of the codes of `count` positions at `bits` bits each, padded to
/// 8 bytes (5-bit codes: at least one byte after the last code, so that
/// every code can be read as a 16-bit word).
fn codes_len(count: u64, bits: u32) -> u64 {
    let bytes = if bits == 4 {
        count.div_ceil(2)
    } else {
        (count * bits as u64).div_ceil(8) + 1
    };
    bytes.div_ceil(8) * 8
}

/// Offsets of the chunk directory and the escape list, and the file length,
/// for `count` positions and `escapes` escapes at `bits` bits per code.
fn layout_of(count: u64, escapes: u64, bits: u32) -> (u64, u64, u64) {
    let codes = codes_len(count, bits);
    let directory = HEADER_LEN as u64 + codes;
    let chunks = count.div_ceil(CHUNK as u64);
    let escape_list = directory + 8 * (chunks + 1);
    (directory, escape_list, escape_list + 4 * escapes)
}

/// Pick the base that leaves the fewest shares outside `base..base+window`.
fn choose_base(shares: &[u8], k: usize, window: usize) -> u8 {
    let mut hist = [0u32; 256];
    for &j in shares {
        hist[j as usize] += 1;
    }
    let mut best = (0u32, 0usize);
    let mut inside: u32 = hist[..window.min(k + 1)].iter().sum();
    for base in 0..=k.saturating_sub(window - 1) {
        if base > 0 {
            inside -= hist[base - 1];
            if base + window - 1 <= k {
                inside += hist[base + window - 1];
            }
        }
        if inside > best.0 {
            best = (inside, base);
        }
    }
    best.1 as u8
}

/// Statistics of a written table.
#[derive(Clone, Copy, Debug)]
pub struct WriteInfo {
    /// Bytes on disk.
    pub bytes: u64,
    /// Escaped entries.
    pub escapes: u64,
}

/// Write the table for `spec` into `dir` from the shares `j` of every
/// position (at most [`TableGame::max_share`]), atomically: a temporary file in the same directory, synced,
/// then renamed over the final name.
pub fn write_table(dir: &Path, spec: TableSpec, shares: &[u8]) -> Result<WriteInfo> {
    let indexer = spec.indexer()?;
    assert_eq!(
        shares.len() as u64,
        indexer.count(),
        "one share per position"
    );
    let k = spec.game.max_share(spec.seeds);
    let bits = spec.game.code_bits();
    let escape = ((1u32 << bits) - 1) as u8;
    let count = shares.len() as u64;
    let mut codes = vec![0u8; codes_len(count, bits) as usize];
    let mut directory: Vec<u64> = Vec::with_capacity(shares.len() / CHUNK + 2);
    let mut escapes: Vec<u32> = Vec::new();
    // A chunk's codes fill whole bytes (4096 codes of 4 or 5 bits); the last
    // chunk's slice also holds the padding.
    for (c, (chunk, out)) in shares
        .chunks(CHUNK)
        .zip(codes.chunks_mut(CHUNK * bits as usize / 8))
        .enumerate()
    {
        let base = choose_base(chunk, k, escape as usize);
        directory.push((escapes.len() as u64) << 8 | base as u64);
        for (i, &j) in chunk.iter().enumerate() {
            debug_assert!(j as usize <= k, "share {j} above {k} in chunk {c}");
            let code = if j >= base && j - base < escape {
                j - base
            } else {
                escapes.push((i as u32) << 8 | j as u32);
                escape
            };
            let bit = i * bits as usize;
            let word = (code as u16) << (bit & 7);
            out[bit / 8] |= word as u8;
            if word > 0xff {
                out[bit / 8 + 1] |= (word >> 8) as u8;
            }
        }
    }
    directory.push((escapes.len() as u64) << 8);
    let (directory_offset, escape_offset, file_len) = layout_of(count, escapes.len() as u64, bits);
    let mut body = codes;
    body.reserve((file_len as usize).saturating_sub(HEADER_LEN + body.len()));
    for d in &directory {
        body.extend_from_slice(&d.to_le_bytes());
    }
    for e in &escapes {
        body.extend_from_slice(&e.to_le_bytes());
    }
    debug_assert_eq!((HEADER_LEN + body.len()) as u64, file_len);
    let mut header = [0u8; HEADER_LEN];
    header[..8].copy_from_slice(&MAGIC);
    header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    header[12] = spec.game.game_id();
    header[13] = spec.game.rules_id();
    header[14] = spec.pits as u8;
    header[15] = spec.seeds as u8;
    header[16] = indexer.layout().id();
    header[17] = spec.game.encoding_id();
    header[19] = CHUNK_BITS as u8;
    header[24..32].copy_from_slice(&count.to_le_bytes());
    header[32..40].copy_from_slice(&(escapes.len() as u64).to_le_bytes());
    header[40..48].copy_from_slice(&directory_offset.to_le_bytes());
    header[48..56].copy_from_slice(&escape_offset.to_le_bytes());
    header[56..60].copy_from_slice(&crc32fast::hash(&body).to_le_bytes());
    let hcrc = crc32fast::hash(&header[..60]);
    header[60..64].copy_from_slice(&hcrc.to_le_bytes());

    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let path = spec.path(dir);
    let tmp = dir.join(format!(".{}.tmp-{}", spec.file_name(), std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(&header)?;
        f.write_all(&body)?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(Error::io(&path, e));
    }
    Ok(WriteInfo {
        bytes: file_len,
        escapes: escapes.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(k: usize) -> TableSpec {
        TableSpec {
            game: TableGame::Kalah(KalahRules::Default),
            pits: 3,
            seeds: k,
        }
    }

    #[test]
    fn write_then_read_back_with_escapes() {
        let dir = tempfile::tempdir().unwrap();
        let s = spec(20);
        let n = s.indexer().unwrap().count() as usize;
        let shares: Vec<u8> = (0..n).map(|i| ((i * 7919) % 21) as u8).collect();
        let info = write_table(dir.path(), s, &shares).unwrap();
        assert!(info.escapes > 0);
        let t = Table::open(dir.path(), s).unwrap();
        for (i, &j) in shares.iter().enumerate() {
            assert_eq!(t.share(i as u64), j);
        }
        assert_eq!(t.file_len(), info.bytes);
    }

    #[test]
    fn five_bit_codes_round_trip_with_escapes() {
        let dir = tempfile::tempdir().unwrap();
        for k in [1, 7, 20, 40] {
            let s = TableSpec {
                game: TableGame::Awari(AwariGame::Oware),
                pits: 3,
                seeds: k,
            };
            let n = s.indexer().unwrap().count() as usize;
            // Wide spread (escapes) in odd chunks, narrow in even ones.
            let shares: Vec<u8> = (0..n)
                .map(|i| {
                    let wide = (i >> CHUNK_BITS) % 2 == 1;
                    let span = if wide { 2 * k + 1 } else { (2 * k + 1).min(31) };
                    ((i * 7919) % span) as u8
                })
                .collect();
            let info = write_table(dir.path(), s, &shares).unwrap();
            let t = Table::open(dir.path(), s).unwrap();
            for (i, &j) in shares.iter().enumerate() {
                assert_eq!(t.share(i as u64), j, "k={k} i={i}");
                assert_eq!(t.value(i as u64), j as i32 - k as i32);
            }
            assert_eq!(t.file_len(), info.bytes);
            assert_eq!(info.escapes > 0, k == 20 || k == 40, "k={k}");
        }
    }

    #[test]
    fn refuses_other_rules_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let s = spec(6);
        let n = s.indexer().unwrap().count() as usize;
        write_table(dir.path(), s, &vec![3u8; n]).unwrap();
        // Read under other rules: rename the file to the other rules' name.
        let other = TableSpec {
            game: TableGame::Kalah(KalahRules::CaptureNeedsOpposite),
            ..s
        };
        fs::copy(s.path(dir.path()), other.path(dir.path())).unwrap();
        let err = Table::open(dir.path(), other).unwrap_err().to_string();
        assert!(err.contains("built for kalah under default rules"), "{err}");
        // Flip one data byte.
        let path = s.path(dir.path());
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN + 3] ^= 0x10;
        fs::write(&path, &bytes).unwrap();
        let err = Table::open(dir.path(), s).unwrap_err().to_string();
        assert!(err.contains("checksum"), "{err}");
        // Truncate.
        fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        let err = Table::open(dir.path(), s).unwrap_err().to_string();
        assert!(err.contains("truncated"), "{err}");
        // Missing.
        fs::remove_file(&path).unwrap();
        assert!(matches!(
            Table::open(dir.path(), s),
            Err(Error::MissingTable { .. })
        ));
    }
}
