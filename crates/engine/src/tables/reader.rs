//! The reader of table files (format in [`super::format`]): through a
//! memory map, or from bytes already in memory (a file fetched by the
//! browser, which has no files to map), checked alike.

use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::format::*;
use super::memory;
use super::spec::TableSpec;
use crate::error::{Error, Result};
use crate::family::Rules;
use crate::tables::index::Indexer;

/// A table file's bytes: natively a memory map (of the file, or of
/// anonymous memory holding bytes given, so that look-ups read one type
/// either way); in the browser build, which has no memory maps, a boxed
/// slice.
#[cfg(not(target_arch = "wasm32"))]
type Bytes = Mmap;
#[cfg(target_arch = "wasm32")]
type Bytes = Box<[u8]>;

/// `bytes` as [`Bytes`].
#[cfg(not(target_arch = "wasm32"))]
fn hold(bytes: &[u8]) -> std::io::Result<Bytes> {
    let mut map = memmap2::MmapMut::map_anon(bytes.len())?;
    map.copy_from_slice(bytes);
    map.make_read_only()
}

/// `bytes` as [`Bytes`].
#[cfg(target_arch = "wasm32")]
fn hold(bytes: &[u8]) -> std::io::Result<Bytes> {
    Ok(bytes.into())
}

/// The error for a file of `len` bytes, shorter than a header.
fn too_short(path: PathBuf, spec: TableSpec, len: usize) -> Error {
    Error::BadTable {
        path,
        reason: format!("{len} bytes, shorter than the {HEADER_LEN}-byte header (truncated?)"),
        table: spec.label(),
    }
}

/// A table file opened through a memory map (or given as bytes,
/// [`Table::from_bytes`]). Look-ups read the file's bytes, or, after
/// [`Table::load_into_memory`], a copy decoded at a fixed width.
#[derive(Debug)]
pub struct Table {
    pub(super) spec: TableSpec,
    /// `value = scale * share - k`.
    scale: i32,
    indexer: Indexer,
    map: Bytes,
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
            table: spec.label(),
        };
        // Only a regular file is opened, without blocking: a named pipe
        // in its place would block the open until a writer came.
        let file = match crate::files::open_regular(&path) {
            Ok(f) => f,
            // A platform without files (the browser build) has no tables.
            Err(Error::Io { source, .. })
                if matches!(
                    source.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::Unsupported
                ) =>
            {
                return Err(Error::MissingTable {
                    path: path.clone(),
                    table: spec.label(),
                })
            }
            Err(Error::NotAFile { kind, .. }) => {
                return Err(bad(format!("it is {kind}, not a table file")))
            }
            Err(e) => return Err(e),
        };
        // SAFETY: the map is read-only and the file is only ever replaced by
        // rename, never written in place, so its contents cannot change under
        // the map while this process holds it.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(&path, e))?;
        // The browser build opens no file (it has none); were one opened,
        // its bytes would be copied.
        #[cfg(target_arch = "wasm32")]
        let map = hold(&map).map_err(|e| Error::io(&path, e))?;
        Table::check(path, spec, map)
    }

    /// The table for `spec` from the bytes of its file (`name`: where they
    /// came from, for messages), checked as [`Table::open`] checks a file:
    /// header, sizes, rules, checksums and the chunk directory. For a
    /// platform without files, or a file read some other way.
    pub fn from_bytes(name: impl Into<PathBuf>, spec: TableSpec, bytes: &[u8]) -> Result<Table> {
        let path = name.into();
        if bytes.len() < HEADER_LEN {
            return Err(too_short(path, spec, bytes.len()));
        }
        let held = hold(bytes).map_err(|e| Error::io(&path, e))?;
        Table::check(path, spec, held)
    }

    /// [`Table::open`]'s checks of a file's bytes.
    fn check(path: PathBuf, spec: TableSpec, map: Bytes) -> Result<Table> {
        let bad = |reason: String| Error::BadTable {
            path: path.clone(),
            reason,
            table: spec.label(),
        };
        if map.len() < HEADER_LEN {
            return Err(too_short(path.clone(), spec, map.len()));
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
                Rules::describe(game, rules),
                Rules::describe(spec.game.game_id(), spec.game.rules_id())
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
        if code_bytes % 8 != 0 || !(CODE_PADDING..=1 << 48).contains(&code_bytes) {
            return Err(bad("inconsistent code size in the header".into()));
        }
        let (want_directory, want_len) = layout_of(count, code_bytes);
        if directory_offset != want_directory {
            return Err(bad("inconsistent offsets in the header".into()));
        }
        if map.len() as u64 != want_len {
            return Err(bad(format!(
                "the file has {} bytes where its header says {want_len}: {}",
                map.len(),
                if (map.len() as u64) < want_len {
                    "it is truncated (an interrupted copy or download?)"
                } else {
                    "it has extra bytes at its end"
                }
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

    /// The CRC-32 of the table's data, from its header (checked when the
    /// table was opened): identical for two builds of the same table.
    pub fn data_checksum(&self) -> u32 {
        u32::from_le_bytes(self.map[56..60].try_into().unwrap())
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
            let max_share = self.spec.game.max_share(self.spec.seeds);
            let resident =
                memory::Resident::decode(self.spec.seeds, max_share, self.len(), |c, out| {
                    self.chunk_shares(c, out)
                })?;
            self.resident = Some(resident);
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
    pub(super) fn chunk_shares(&self, c: usize, out: &mut [u8; CHUNK]) -> usize {
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
