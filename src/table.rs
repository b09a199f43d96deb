//! Table files: format, atomic writing, and the memory-mapped reader.
//!
//! One file holds the exact value of every position of one (game, rules,
//! pits per side, seeds in play). Values are stored as a small unsigned
//! *share* `j` per position. Kalah stores the mover's final share of the
//! seeds in play (`value = 2j - k`: a Kalah value always has the parity of
//! k, so k + 1 values are possible, not 2k + 1); Awari and Oware store
//! `j = value + k` (`0..=2k`: their values have any parity).
//!
//! **Encoding (mixed radix per chunk).** Positions are grouped in chunks of
//! 512 consecutive indices. Consecutive indices share the mover's row, so
//! their values are close: a chunk whose shares lie in `base..base + r`
//! stores each share as a digit `j - base` in radix `r`, `g` digits packed
//! into one group of `b <= 31` bits (`r^g <= 2^b`; `g` and `b` fixed per
//! radix, chosen to pack a whole chunk in the fewest bits: radix 11 packs 7
//! digits in 25 bits, 3.57 bits each, radix 16 one digit in 4 bits, radix 1
//! takes no bits at all). Digit `d` of a group `x` is `(x / r^d) % r`,
//! computed with multiplications by precomputed reciprocals (exact for
//! every `x < 2^31`). Every value is exact (no escapes, no bounds), and a
//! look-up is one directory read and one code read, straight from the map.
//! The 6-pit Kalah tables up to 20 seeds take 3.80 bits per position in all,
//! 102.2 MiB (at 4 bits they would take 107.45 MiB; the first version of
//! this format, 4-bit codes with an escape list, took 108.4 MiB).
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
//! | 17 | 1 | encoding (3: mixed radix per chunk) |
//! | 18 | 1 | reserved (0) |
//! | 19 | 1 | log2 of the chunk size (9) |
//! | 20 | 4 | reserved (0) |
//! | 24 | 8 | positions |
//! | 32 | 8 | bytes of codes |
//! | 40 | 8 | chunk-directory offset |
//! | 48 | 8 | reserved (0) |
//! | 56 | 4 | CRC-32 of everything after the header |
//! | 60 | 4 | CRC-32 of bytes 0..60 |
//!
//! After the header: the codes (the chunks' groups, one bit stream,
//! little-endian bit order, then at least 8 bytes of zero padding so that
//! every group can be read as one unaligned 64-bit word, padded to 8
//! bytes); the chunk directory, one `u64` per chunk plus one
//! (`first_bit << 16 | radix << 8 | base`, the last entry holding the total
//! number of code bits).
//!
//! Format version 1 (4- and 5-bit codes with escape lists) is no longer
//! read: opening such a file says so and names the command that rebuilds
//! it, and `mancala build` replaces it.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

mod memory;

use crate::error::{Error, Result};
use crate::index::{Indexer, Layout, MAX_INDEX_SEEDS};
use crate::rules::awari::AwariGame;
use crate::rules::KalahRules;

/// First bytes of every table file.
pub const MAGIC: [u8; 8] = *b"MANCALA\x1a";
/// Current table format version.
pub const FORMAT_VERSION: u32 = 2;
/// Header size in bytes.
pub const HEADER_LEN: usize = 64;
/// Encoding id: mixed-radix digits per chunk.
pub const ENCODING_RADIX: u8 = 3;
/// log2 of the number of positions in one chunk.
const CHUNK_BITS: u32 = 9;
const CHUNK: usize = 1 << CHUNK_BITS;
/// Zero bytes after the last code: every group is read as 8 bytes.
const CODE_PADDING: u64 = 8;
/// The largest radix (number of distinct shares in one chunk): Awari and
/// Oware shares go up to `2k` for k up to [`MAX_INDEX_SEEDS`].
pub const MAX_RADIX: usize = 2 * MAX_INDEX_SEEDS + 1;

/// Bits of one group at most: small enough that every division of a group
/// is one 64-bit multiplication and a shift (see [`Radix`]).
const GROUP_BITS: u32 = 31;
/// Digits of one group at most (radix 2 would allow 31; it packs 1 digit
/// per bit anyway).
const MAX_DIGITS: usize = 20;

/// How chunks in one radix `r` are packed and unpacked.
#[derive(Clone, Copy)]
struct Radix {
    /// Digits per group `g`.
    digits: u32,
    /// Bits per group `b` (`r^g <= 2^b`, `b <= 31`).
    bits: u32,
    /// `floor(p / g) = (p * digits_mul) >> 16` for every offset `p` in a
    /// chunk.
    digits_mul: u32,
    /// `floor(x / r^d) = (x * div_mul[d]) >> div_shift[d]` for every group
    /// `x < 2^31` and `d <= g`.
    div_mul: [u64; MAX_DIGITS + 1],
    div_shift: [u8; MAX_DIGITS + 1],
}

impl Radix {
    /// The layout for radix `r`: of the groups of at most 31 bits, the one
    /// that packs a full chunk in the fewest bits (whole groups).
    const fn new(r: usize) -> Radix {
        let mut best = (1u32, 0u32, u64::MAX);
        if r >= 2 {
            let mut g = 1u32;
            let mut p: u64 = 1;
            while g as usize <= MAX_DIGITS {
                p *= r as u64;
                if p > 1u64 << GROUP_BITS {
                    break;
                }
                let bits = 64 - (p - 1).leading_zeros();
                let cost = (CHUNK as u64).div_ceil(g as u64) * bits as u64;
                if cost < best.2 {
                    best = (g, bits, cost);
                }
                g += 1;
            }
        }
        let (digits, bits, _) = best;
        let mut div_mul = [0u64; MAX_DIGITS + 1];
        let mut div_shift = [0u8; MAX_DIGITS + 1];
        let mut d = 0;
        let mut power: u64 = 1;
        while d <= digits as usize {
            // s = 31 + ceil(log2 D), m = ceil(2^s / D): exact for x < 2^31
            // (x * (m D - 2^s) < 2^31 D <= 2^s), and x * m < 2^63.
            let log = 64 - (power - 1).leading_zeros();
            let shift = GROUP_BITS + log;
            div_mul[d] = ((1u128 << shift).div_ceil(power as u128)) as u64;
            div_shift[d] = shift as u8;
            if d < digits as usize {
                power *= r as u64;
            }
            d += 1;
        }
        Radix {
            digits,
            bits,
            digits_mul: (1 << 16) / digits + 1,
            div_mul,
            div_shift,
        }
    }

    /// Digit `d` of group `x`: `(x / r^d) % r`.
    #[inline(always)]
    fn digit(&self, x: u64, d: usize, r: usize) -> u64 {
        let q = (x * self.div_mul[d]) >> self.div_shift[d];
        let q1 = (x * self.div_mul[d + 1]) >> self.div_shift[d + 1];
        q - q1 * r as u64
    }

    /// Group and digit of offset `p` in a chunk.
    #[inline(always)]
    fn locate(&self, p: u32) -> (u32, usize) {
        let group = (p * self.digits_mul) >> 16;
        (group, (p - group * self.digits) as usize)
    }
}

/// `RADIX[r]`: the packing of radix `r` (`r = 0` unused).
static RADIX: [Radix; MAX_RADIX + 1] = {
    let mut t = [Radix::new(1); MAX_RADIX + 1];
    let mut r = 2;
    while r <= MAX_RADIX {
        t[r] = Radix::new(r);
        r += 1;
    }
    t
};

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

/// A table file opened through a memory map. Look-ups read the map, or,
/// after [`Table::load_into_memory`], a copy decoded at a fixed width.
#[derive(Debug)]
pub struct Table {
    spec: TableSpec,
    /// `value = scale * share - k`.
    scale: i32,
    indexer: Indexer,
    map: Mmap,
    directory_offset: usize,
    resident: Option<memory::Resident>,
}

impl Table {
    /// Open and check the table for `spec` in `dir`: header, sizes, rules,
    /// checksums and the chunk directory. Any mismatch is an error that says
    /// how to fix it.
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
        if h[16] != indexer.layout().id() || h[17] != ENCODING_RADIX {
            return Err(bad(format!(
                "unknown layout {} or encoding {}",
                h[16], h[17]
            )));
        }
        if h[19] as u32 != CHUNK_BITS {
            return Err(bad(format!("unknown chunk size 2^{}", h[19])));
        }
        let read = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().unwrap());
        let (count, code_bytes, directory_offset) = (read(24), read(32), read(40));
        if count != indexer.count() {
            return Err(bad(format!(
                "{count} positions, the indexer has {}",
                indexer.count()
            )));
        }
        if code_bytes % 8 != 0 || code_bytes < CODE_PADDING || code_bytes > map.len() as u64 {
            return Err(bad("inconsistent code size in the header".into()));
        }
        let (want_directory, want_len) = layout_of(count, code_bytes);
        if directory_offset != want_directory {
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
            indexer,
            directory_offset: directory_offset as usize,
            map,
            resident: None,
        };
        // The directory must be consistent, or a look-up could read outside
        // the codes or decode a share the game cannot have.
        let chunks = count.div_ceil(CHUNK as u64) as usize;
        let max_share = spec.game.max_share(spec.seeds);
        let mut next = 0u64;
        for c in 0..chunks {
            let (start, radix, base) = table.directory(c);
            if start != next {
                return Err(bad(format!("inconsistent chunk directory at chunk {c}")));
            }
            if radix == 0 || radix > MAX_RADIX || base + radix - 1 > max_share {
                return Err(bad(format!(
                    "chunk {c}: shares {base}..{} outside 0..={max_share}",
                    base + radix
                )));
            }
            let len = (count - (c * CHUNK) as u64).min(CHUNK as u64);
            next = start + group_bits(len, radix);
        }
        let (end, _, _) = table.directory(chunks);
        if end != next || end > (code_bytes - CODE_PADDING) * 8 {
            return Err(bad("inconsistent chunk directory at its end".into()));
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

    /// Size of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Decode the whole table into memory at a fixed width (the fewest bits
    /// that hold its largest share: 5 per position for 16 to 31 Kalah
    /// seeds), so that every later look-up is one read instead of two
    /// dependent ones (directory, then code). Takes [`Table::memory_bytes`]
    /// of memory; a no-op if already done. Uses the rayon thread pool.
    pub fn load_into_memory(&mut self) -> Result<()> {
        if self.resident.is_none() {
            self.resident = Some(memory::Resident::decode(self)?);
        }
        Ok(())
    }

    /// Whether look-ups read a decoded copy in memory
    /// ([`Table::load_into_memory`]) rather than the map.
    pub fn in_memory(&self) -> bool {
        self.resident.is_some()
    }

    /// Bytes the decoded copy of [`Table::load_into_memory`] takes (or
    /// would take).
    pub fn memory_bytes(&self) -> u64 {
        match &self.resident {
            Some(r) => r.len() as u64,
            None => memory::bytes(
                self.len(),
                memory::width(self.spec.game.max_share(self.spec.seeds)),
            ),
        }
    }

    /// The share `j` stored at `index` (Kalah: the mover's final share of
    /// the seeds in play; Awari and Oware: value + k).
    #[inline]
    pub fn share(&self, index: u64) -> u8 {
        if let Some(r) = &self.resident {
            return r.share(index);
        }
        self.mapped_share(index)
    }

    /// The share at `index`, read from the map.
    #[inline]
    fn mapped_share(&self, index: u64) -> u8 {
        let c = self.code(index);
        let x = self.group(c.bit, RADIX[c.radix].bits);
        (c.base + RADIX[c.radix].digit(x, c.digit, c.radix) as usize) as u8
    }

    /// The group of `bits` bits that starts at bit `bit` of the codes.
    #[inline(always)]
    fn group(&self, bit: u64, bits: u32) -> u64 {
        let at = HEADER_LEN + (bit / 8) as usize;
        let word = u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap());
        (word >> (bit % 8)) & ((1u64 << bits) - 1)
    }

    /// Decode the shares of chunk `c` from the map into `out`; returns how
    /// many positions the chunk holds (`CHUNK`, less for the last one).
    fn chunk_shares(&self, c: usize, out: &mut [u8; CHUNK]) -> usize {
        let first = (c * CHUNK) as u64;
        let n = (self.len() - first).min(CHUNK as u64) as usize;
        let (start, radix, base) = self.directory(c);
        let packing = &RADIX[radix];
        for (g, group) in out[..n].chunks_mut(packing.digits as usize).enumerate() {
            let x = self.group(start + g as u64 * packing.bits as u64, packing.bits);
            for (d, share) in group.iter_mut().enumerate() {
                *share = (base + packing.digit(x, d, radix) as usize) as u8;
            }
        }
        n
    }

    /// Where the share at `index` is: its group's first bit in the codes,
    /// its digit in the group, and its chunk's radix and base.
    #[inline(always)]
    fn code(&self, index: u64) -> Code {
        let (start, radix, base) = self.directory((index >> CHUNK_BITS) as usize);
        let packing = &RADIX[radix];
        let (group, digit) = packing.locate((index as u32) & (CHUNK as u32 - 1));
        Code {
            bit: start + group as u64 * packing.bits as u64,
            digit,
            radix,
            base,
        }
    }

    /// Directory entry of chunk `c`: first code bit, radix and base.
    #[inline]
    fn directory(&self, c: usize) -> (u64, usize, usize) {
        let at = self.directory_offset + 8 * c;
        let e = u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap());
        (e >> 16, (e >> 8) as u8 as usize, e as u8 as usize)
    }

    /// Ask the processor to start loading what a look-up of `index` reads
    /// first (a hint; it never faults): the chunk's directory entry, or, for
    /// a table in memory, the share itself. The first stage of a two-stage
    /// prefetch, [`Table::prefetch_code`] being the second (call both).
    #[inline]
    pub fn prefetch_start(&self, index: u64) {
        if let Some(r) = &self.resident {
            return r.prefetch(index);
        }
        let c = (index >> CHUNK_BITS) as usize;
        prefetch(
            self.map
                .as_ptr()
                .wrapping_add(self.directory_offset + 8 * c),
        );
    }

    /// The second stage of a two-stage prefetch: reads the chunk's
    /// directory entry (which [`Table::prefetch_start`] should have
    /// started loading) and starts loading the code. Nothing to do for a
    /// table in memory.
    #[inline]
    pub fn prefetch_code(&self, index: u64) {
        if self.resident.is_some() {
            return;
        }
        let bit = self.code(index).bit;
        prefetch(
            self.map[HEADER_LEN..]
                .as_ptr()
                .wrapping_add((bit / 8) as usize),
        );
    }

    /// The value (final difference of the seeds in play, mover minus
    /// opponent) at `index`.
    #[inline]
    pub fn value(&self, index: u64) -> i32 {
        self.scale * self.share(index) as i32 - self.spec.seeds as i32
    }
}

/// The place of one share in a table's codes (see [`Table::share`]).
struct Code {
    bit: u64,
    digit: usize,
    radix: usize,
    base: usize,
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

/// Bits taken by `len` shares in radix `radix`: whole groups.
fn group_bits(len: u64, radix: usize) -> u64 {
    let packing = &RADIX[radix];
    len.div_ceil(packing.digits as u64) * packing.bits as u64
}

/// Offset of the chunk directory and the file length, for `count`
/// positions and `code_bytes` bytes of codes (padding included).
fn layout_of(count: u64, code_bytes: u64) -> (u64, u64) {
    let directory = HEADER_LEN as u64 + code_bytes;
    let chunks = count.div_ceil(CHUNK as u64);
    (directory, directory + 8 * (chunks + 1))
}

/// Statistics of a written table.
#[derive(Clone, Copy, Debug)]
pub struct WriteInfo {
    /// Bytes on disk.
    pub bytes: u64,
}

/// Write the table for `spec` into `dir` from the shares `j` of every
/// position (each at most [`TableGame::max_share`]), atomically: a
/// temporary file in the same directory, synced, then renamed over the
/// final name.
pub fn write_table(dir: &Path, spec: TableSpec, shares: &[u8]) -> Result<WriteInfo> {
    let indexer = spec.indexer()?;
    assert_eq!(
        shares.len() as u64,
        indexer.count(),
        "one share per position"
    );
    let max_share = spec.game.max_share(spec.seeds);
    assert!(max_share < MAX_RADIX, "shares up to {max_share} do not fit");
    let count = shares.len() as u64;
    // First pass: each chunk's base and radix, and where its codes start.
    let mut directory: Vec<u64> = Vec::with_capacity(shares.len() / CHUNK + 2);
    let mut total_bits = 0u64;
    for chunk in shares.chunks(CHUNK) {
        let lo = *chunk.iter().min().unwrap() as usize;
        let hi = *chunk.iter().max().unwrap() as usize;
        assert!(hi <= max_share, "share {hi} above {max_share}");
        let radix = hi - lo + 1;
        directory.push(total_bits << 16 | (radix as u64) << 8 | lo as u64);
        total_bits += group_bits(chunk.len() as u64, radix);
    }
    directory.push(total_bits << 16);
    let code_bytes = (total_bits.div_ceil(8) + CODE_PADDING).div_ceil(8) * 8;
    let (directory_offset, file_len) = layout_of(count, code_bytes);
    // Second pass: the digits, `digits` per group, digit d worth radix^d.
    let mut body = vec![0u8; (file_len - HEADER_LEN as u64) as usize];
    for (chunk, &entry) in shares.chunks(CHUNK).zip(&directory) {
        let (mut bit, radix, base) = (entry >> 16, (entry >> 8) as u8 as usize, entry as u8);
        let packing = &RADIX[radix];
        for group in chunk.chunks(packing.digits as usize) {
            let x = group
                .iter()
                .rev()
                .fold(0u64, |x, &j| x * radix as u64 + (j - base) as u64);
            let at = (bit / 8) as usize;
            let mut w = u64::from_le_bytes(body[at..at + 8].try_into().unwrap());
            w |= x << (bit % 8);
            body[at..at + 8].copy_from_slice(&w.to_le_bytes());
            bit += packing.bits as u64;
        }
    }
    let dir_at = (directory_offset - HEADER_LEN as u64) as usize;
    for (i, d) in directory.iter().enumerate() {
        body[dir_at + 8 * i..dir_at + 8 * i + 8].copy_from_slice(&d.to_le_bytes());
    }
    let mut header = [0u8; HEADER_LEN];
    header[..8].copy_from_slice(&MAGIC);
    header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    header[12] = spec.game.game_id();
    header[13] = spec.game.rules_id();
    header[14] = spec.pits as u8;
    header[15] = spec.seeds as u8;
    header[16] = indexer.layout().id();
    header[17] = ENCODING_RADIX;
    header[19] = CHUNK_BITS as u8;
    header[24..32].copy_from_slice(&count.to_le_bytes());
    header[32..40].copy_from_slice(&code_bytes.to_le_bytes());
    header[40..48].copy_from_slice(&directory_offset.to_le_bytes());
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
    Ok(WriteInfo { bytes: file_len })
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
    fn radix_packing_is_exact_for_every_radix_digit_and_group() {
        for (r, p) in RADIX.iter().enumerate().skip(1) {
            assert!(p.bits <= GROUP_BITS && (p.digits as usize) <= MAX_DIGITS);
            if r >= 2 {
                assert!((r as u128).pow(p.digits) <= 1u128 << p.bits, "radix {r}");
            }
            for off in 0..CHUNK as u32 {
                assert_eq!(p.locate(off), (off / p.digits, (off % p.digits) as usize));
            }
            // Every digit of the largest groups and of pseudo-random ones.
            let top = if r == 1 { 1 } else { (r as u64).pow(p.digits) };
            let mut x = 12345u64;
            for n in 0..2000u64 {
                let g = if n < 1000 {
                    top - 1 - n.min(top - 1)
                } else {
                    x % top
                };
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407)
                    >> 1;
                for d in 0..p.digits as usize {
                    let want = g / (r as u64).pow(d as u32) % r as u64;
                    assert_eq!(p.digit(g, d, r), want, "radix {r} group {g} digit {d}");
                }
            }
        }
        // The packing is at least as tight as 4 bits for 16 values, and
        // tighter below.
        assert_eq!((RADIX[16].digits, RADIX[16].bits), (1, 4));
        assert!(group_bits(CHUNK as u64, 11) * 100 <= 351 * CHUNK as u64);
    }

    #[test]
    fn write_then_read_back_every_radix() {
        let dir = tempfile::tempdir().unwrap();
        let s = spec(20);
        let n = s.indexer().unwrap().count() as usize;
        // Chunk c spans (c % 22) values (all 21 shares when c % 22 == 21),
        // from a base that moves, with one odd chunk of a single value.
        let shares: Vec<u8> = (0..n)
            .map(|i| {
                let c = i >> CHUNK_BITS;
                let span = (c % 21) + 1;
                let base = (c * 7) % (21 - span + 1);
                (base + (i * 7919) % span) as u8
            })
            .collect();
        let info = write_table(dir.path(), s, &shares).unwrap();
        let mut t = Table::open(dir.path(), s).unwrap();
        for (i, &j) in shares.iter().enumerate() {
            assert_eq!(t.share(i as u64), j, "i={i}");
            assert_eq!(t.value(i as u64), 2 * j as i32 - 20);
        }
        assert_eq!(t.file_len(), info.bytes);
        // The copy decoded into memory (5 bits per position) reads the same.
        assert!(!t.in_memory());
        let want = t.memory_bytes();
        t.load_into_memory().unwrap();
        assert!(t.in_memory());
        assert_eq!(t.memory_bytes(), want);
        assert_eq!(
            want,
            (n as u64).div_ceil(CHUNK as u64) * CHUNK as u64 * 5 / 8 + 8
        );
        for (i, &j) in shares.iter().enumerate() {
            assert_eq!(t.share(i as u64), j, "in memory, i={i}");
        }
    }

    #[test]
    fn awari_shares_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        for (pits, k) in [(3, 1), (3, 7), (3, 20), (3, 31), (2, MAX_INDEX_SEEDS)] {
            let s = TableSpec {
                game: TableGame::Awari(AwariGame::Oware),
                pits,
                seeds: k,
            };
            let n = s.indexer().unwrap().count() as usize;
            // The widest spread (2k + 1 shares) in odd chunks, narrow in
            // even ones.
            let shares: Vec<u8> = (0..n)
                .map(|i| {
                    let wide = (i >> CHUNK_BITS) % 2 == 1;
                    let span = if wide { 2 * k + 1 } else { (2 * k + 1).min(5) };
                    ((i * 7919) % span) as u8
                })
                .collect();
            let info = write_table(dir.path(), s, &shares).unwrap();
            let mut t = Table::open(dir.path(), s).unwrap();
            for (i, &j) in shares.iter().enumerate() {
                assert_eq!(t.share(i as u64), j, "k={k} i={i}");
                assert_eq!(t.value(i as u64), j as i32 - k as i32);
            }
            assert_eq!(t.file_len(), info.bytes);
            // In memory at the width of the largest share 2k (up to 8 bits).
            t.load_into_memory().unwrap();
            for (i, &j) in shares.iter().enumerate() {
                assert_eq!(t.share(i as u64), j, "in memory, k={k} i={i}");
            }
        }
    }

    #[test]
    fn refuses_an_inconsistent_directory() {
        let dir = tempfile::tempdir().unwrap();
        let s = spec(12);
        let n = s.indexer().unwrap().count() as usize;
        let shares: Vec<u8> = (0..n).map(|i| (i % 5) as u8).collect();
        write_table(dir.path(), s, &shares).unwrap();
        let path = s.path(dir.path());
        let good = fs::read(&path).unwrap();
        let directory = u64::from_le_bytes(good[40..48].try_into().unwrap()) as usize;
        // A radix that takes the shares above k, a radix of 0, a wrong
        // start: each with the checksum recomputed, as a buggy writer
        // would leave it.
        for (byte, value, want) in [
            (directory + 1, 20u8, "outside"),
            (directory + 1, 0, "outside"),
            (directory + 8 + 2, 0xff, "inconsistent chunk directory"),
        ] {
            let mut bytes = good.clone();
            bytes[byte] = value;
            let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
            bytes[56..60].copy_from_slice(&crc.to_le_bytes());
            let hcrc = crc32fast::hash(&bytes[..60]);
            bytes[60..64].copy_from_slice(&hcrc.to_le_bytes());
            fs::write(&path, &bytes).unwrap();
            let err = Table::open(dir.path(), s).unwrap_err().to_string();
            assert!(err.contains(want), "{err}");
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
