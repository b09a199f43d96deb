//! Partial table files: the finished shares of one group of a table's
//! blocks (by the mover row's seed sum), written while a large table is
//! built group by group, and assembled into the table file when every group
//! is done.
//!
//! A partial file is named `.NAME.part-MASK` beside the table `NAME`, `MASK`
//! the group's mover sums as a bit set in hexadecimal (bit `a - 1` for sum
//! `a`). It is written atomically (a temporary file, synced, renamed) and
//! has the table file's encoding (see [`super::format`]): a 64-byte header,
//! the codes, the chunk directory. Each block starts a new chunk, so a block
//! can be read from its first chunk on.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MANCPART` |
//! | 8 | 4 | format version (1) |
//! | 12 | 1 | game |
//! | 13 | 1 | rules id |
//! | 14 | 1 | pits per side m |
//! | 15 | 1 | seeds in play k |
//! | 16 | 1 | index layout id |
//! | 17 | 1 | encoding (3) |
//! | 18 | 1 | reserved (0) |
//! | 19 | 1 | log2 of the chunk size (9) |
//! | 20 | 4 | reserved (0) |
//! | 24 | 8 | positions |
//! | 32 | 8 | bytes of codes |
//! | 40 | 8 | the group's mover sums (bit `a - 1` for sum `a`) |
//! | 48 | 8 | reserved (0) |
//! | 56 | 4 | CRC-32 of everything after the header |
//! | 60 | 4 | CRC-32 of bytes 0..60 |

use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::format::*;
use super::lock::temporary_prefix;
use super::spec::TableSpec;
use super::writer::{write_atomically, Encoder};
use crate::error::{Error, Result};

/// First bytes of every partial file.
const PART_MAGIC: [u8; 8] = *b"MANCPART";
/// Partial format version.
const PART_VERSION: u32 = 1;

/// The mover sums of a group as a bit set (bit `a - 1` for sum `a`).
pub fn sums_mask(sums: &[usize]) -> u64 {
    sums.iter().fold(0, |m, &a| m | 1 << (a - 1))
}

/// The first characters of the names of `spec`'s partial files.
pub fn partial_prefix(spec: TableSpec) -> String {
    format!(".{}.part-", spec.file_name())
}

/// Path of the partial file of the group `sums` of the table `spec`.
pub fn partial_path(dir: &Path, spec: TableSpec, sums: &[usize]) -> PathBuf {
    dir.join(format!("{}{:016x}", partial_prefix(spec), sums_mask(sums)))
}

/// Mover sums joined for messages: `1+11`.
pub fn join_sums(sums: &[usize]) -> String {
    sums.iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join("+")
}

/// The groups (mover sums, increasing) whose partial files of `spec`'s
/// table are in `dir`, by their names (opening checks them).
pub fn partial_groups(dir: &Path, spec: TableSpec) -> Vec<Vec<usize>> {
    let prefix = partial_prefix(spec);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let hex = name.strip_prefix(&prefix)?;
            let mask = u64::from_str_radix(hex, 16)
                .ok()
                .filter(|_| hex.len() == 16)?;
            Some((1..=64).filter(|a| mask >> (a - 1) & 1 == 1).collect())
        })
        .collect()
}

/// Positions of the block of mover sum `a` of `spec`'s table.
fn block_len(spec: TableSpec, a: usize) -> Result<u64> {
    let ix = spec.indexer()?;
    Ok(ix.block_offset(a + 1) - ix.block_offset(a))
}

/// Write the partial file of the group `sums` (in increasing order) of the
/// table `spec` from its shares (the blocks' shares concatenated in that
/// order), atomically.
pub fn write_partial(dir: &Path, spec: TableSpec, sums: &[usize], shares: &[u8]) -> Result<()> {
    let path = partial_path(dir, spec, sums);
    // Process ids repeat across machines that share the directory: the
    // clock's nanoseconds too.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(
        "{}part-{}-{nanos:09}-{:016x}",
        temporary_prefix(spec),
        std::process::id(),
        sums_mask(sums)
    ));
    let mut lens = Vec::with_capacity(sums.len());
    for &a in sums {
        lens.push(block_len(spec, a)? as usize);
    }
    assert_eq!(
        lens.iter().sum::<usize>(),
        shares.len(),
        "one share per position"
    );
    write_atomically(&path, &tmp, |f| {
        let mut enc = Encoder::new(f, spec.game.max_share(spec.seeds));
        let mut at = 0;
        let io = |e| Error::io(&tmp, e);
        for len in lens {
            enc.push(&shares[at..at + len]).map_err(io)?;
            enc.end_chunk().map_err(io)?;
            at += len;
        }
        let (_, count, code_bytes, crc) = enc.finish().map_err(io)?;
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(&PART_MAGIC);
        h[8..12].copy_from_slice(&PART_VERSION.to_le_bytes());
        h[12] = spec.game.game_id();
        h[13] = spec.game.rules_id();
        h[14] = spec.pits as u8;
        h[15] = spec.seeds as u8;
        h[16] = spec.game.layout().id();
        h[17] = ENCODING_RADIX;
        h[19] = CHUNK_BITS as u8;
        h[24..32].copy_from_slice(&count.to_le_bytes());
        h[32..40].copy_from_slice(&code_bytes.to_le_bytes());
        h[40..48].copy_from_slice(&sums_mask(sums).to_le_bytes());
        h[56..60].copy_from_slice(&crc.to_le_bytes());
        let hcrc = crc32fast::hash(&h[..60]);
        h[60..64].copy_from_slice(&hcrc.to_le_bytes());
        Ok(h)
    })
}

/// An opened and checked partial file.
pub struct Partial {
    map: Mmap,
    directory_offset: usize,
    /// `(sum, first chunk, positions)` of each block.
    blocks: Vec<(usize, usize, u64)>,
}

impl Partial {
    /// Open and check the partial file of the group `sums` of the table
    /// `spec`: header, identity, checksums and chunk directory.
    /// [`Error::MissingTable`] when there is none; [`Error::BadTable`] when
    /// it is damaged or is not that group's.
    pub fn open(dir: &Path, spec: TableSpec, sums: &[usize]) -> Result<Partial> {
        let path = partial_path(dir, spec, sums);
        let bad = |reason: String| Error::BadTable {
            path: path.clone(),
            reason: format!("partial table file: {reason}"),
            table: spec.label(),
        };
        let file = match crate::files::open_regular(&path) {
            Ok(f) => f,
            Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::MissingTable {
                    path: path.clone(),
                    table: spec.label(),
                })
            }
            Err(Error::NotAFile { kind, .. }) => {
                return Err(bad(format!("it is {kind}, not a partial table file")))
            }
            Err(e) => return Err(e),
        };
        // SAFETY: read-only map of a file that is only ever replaced by
        // rename, under the table's build lock, which this process holds.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(&path, e))?;
        if map.len() < HEADER_LEN {
            return Err(bad("shorter than its header (truncated)".into()));
        }
        let h = &map[..HEADER_LEN];
        if h[..8] != PART_MAGIC
            || crc32fast::hash(&h[..60]) != u32::from_le_bytes(h[60..64].try_into().unwrap())
        {
            return Err(bad("wrong magic bytes or header checksum".into()));
        }
        let read = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().unwrap());
        let mut blocks = Vec::new();
        let (mut chunks, mut count) = (0usize, 0u64);
        for &a in sums {
            let n = block_len(spec, a)?;
            blocks.push((a, chunks, n));
            chunks += n.div_ceil(CHUNK as u64) as usize;
            count += n;
        }
        let identity = [
            spec.game.game_id(),
            spec.game.rules_id(),
            spec.pits as u8,
            spec.seeds as u8,
            spec.game.layout().id(),
            ENCODING_RADIX,
        ];
        if u32::from_le_bytes(h[8..12].try_into().unwrap()) != PART_VERSION
            || h[12..18] != identity
            || h[19] as u32 != CHUNK_BITS
            || read(24) != count
            || read(40) != sums_mask(sums)
        {
            return Err(bad("it belongs to another table or group".into()));
        }
        let code_bytes = read(32);
        let directory_offset = HEADER_LEN as u64 + code_bytes;
        if code_bytes % 8 != 0
            || code_bytes < CODE_PADDING
            || map.len() as u64 != directory_offset + 8 * (chunks as u64 + 1)
        {
            return Err(bad("its size does not match its header (truncated?)".into()));
        }
        if crc32fast::hash(&map[HEADER_LEN..]) != u32::from_le_bytes(h[56..60].try_into().unwrap())
        {
            return Err(bad("data checksum mismatch (corrupted)".into()));
        }
        let part = Partial {
            map,
            directory_offset: directory_offset as usize,
            blocks,
        };
        // The directory must describe the codes, as in a table file.
        let max_share = spec.game.max_share(spec.seeds);
        let mut next = 0u64;
        for &(_, first, n) in &part.blocks {
            for c in 0..n.div_ceil(CHUNK as u64) as usize {
                let (start, radix, base) = part.directory(first + c);
                if start != next || radix == 0 || radix > MAX_RADIX || base + radix - 1 > max_share
                {
                    return Err(bad(format!("inconsistent chunk directory at chunk {c}")));
                }
                next += group_bits((n - (c * CHUNK) as u64).min(CHUNK as u64), radix);
            }
        }
        if part.directory(chunks).0 != next || next > (code_bytes - CODE_PADDING) * 8 {
            return Err(bad("inconsistent chunk directory at its end".into()));
        }
        Ok(part)
    }

    fn directory(&self, c: usize) -> (u64, usize, usize) {
        let at = self.directory_offset + 8 * c;
        let e = u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap());
        (e >> 16, (e >> 8) as u8 as usize, e as u8 as usize)
    }

    /// Hand the shares of the block of mover sum `a` to `out`, a chunk at a
    /// time, in index order.
    pub fn block_shares(&self, a: usize, mut out: impl FnMut(&[u8]) -> Result<()>) -> Result<()> {
        let &(_, first, n) = self
            .blocks
            .iter()
            .find(|b| b.0 == a)
            .expect("the block is in the group");
        let mut buf = [0u8; CHUNK];
        for c in 0..n.div_ceil(CHUNK as u64) as usize {
            let len = (n - (c * CHUNK) as u64).min(CHUNK as u64) as usize;
            let (start, radix, base) = self.directory(first + c);
            let packing = &RADIX[radix];
            for (g, group) in buf[..len].chunks_mut(packing.digits as usize).enumerate() {
                let bit = start + g as u64 * packing.bits as u64;
                let at = HEADER_LEN + (bit / 8) as usize;
                let word = u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap());
                let x = (word >> (bit % 8)) & ((1u64 << packing.bits) - 1);
                for (d, share) in group.iter_mut().enumerate() {
                    *share = (base + packing.digit(x, d, radix) as usize) as u8;
                }
            }
            out(&buf[..len])?;
        }
        Ok(())
    }
}
