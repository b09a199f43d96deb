//! Writing table files atomically (format in [`super::format`]).

use std::fs::{self, File};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use rayon::prelude::*;

use super::format::*;
use super::spec::TableSpec;
use crate::error::{Error, Result};

/// Statistics of a written table.
#[derive(Clone, Copy, Debug)]
pub struct WriteInfo {
    /// Bytes on disk.
    pub bytes: u64,
}

/// Write the table for `spec` into `dir` from the shares `j` of every
/// position (each at most [`crate::family::Rules::max_share`]), atomically: a
/// temporary file in the same directory, synced, then renamed over the
/// final name.
pub fn write_table(dir: &Path, spec: TableSpec, shares: &[u8]) -> Result<WriteInfo> {
    let mut w = TableWriter::create(dir, spec)?;
    w.push(shares)?;
    w.finish()
}

/// Encodes shares, chunk by chunk, into the body of a table file (codes,
/// padding, chunk directory: see [`super::format`]), streaming it to `out`
/// with its CRC-32. Chunks are cut every [`CHUNK`] shares, or early by
/// [`Encoder::end_chunk`]. Memory: the directory (8 bytes a chunk) and one
/// chunk.
pub(crate) struct Encoder<W: Write> {
    out: W,
    crc: crc32fast::Hasher,
    max_share: usize,
    directory: Vec<u64>,
    total_bits: u64,
    /// Code bits not yet written (fewer than 8 after each group).
    acc: u64,
    acc_bits: u32,
    chunk: Vec<u8>,
    buf: Vec<u8>,
    shares: u64,
}

impl<W: Write> Encoder<W> {
    /// An encoder of shares up to `max_share`, writing to `out`.
    pub(crate) fn new(out: W, max_share: usize) -> Encoder<W> {
        assert!(max_share < MAX_RADIX, "shares up to {max_share} do not fit");
        Encoder {
            out,
            crc: crc32fast::Hasher::new(),
            max_share,
            directory: Vec::new(),
            total_bits: 0,
            acc: 0,
            acc_bits: 0,
            chunk: Vec::with_capacity(CHUNK),
            buf: Vec::with_capacity(1 << 16),
            shares: 0,
        }
    }

    /// Add shares to the stream. Long runs of whole chunks are encoded by
    /// every thread of the current pool, a window at a time, and spliced in
    /// order: the same bytes as chunk by chunk.
    pub(crate) fn push(&mut self, mut shares: &[u8]) -> std::io::Result<()> {
        while !shares.is_empty() {
            if self.chunk.is_empty() && shares.len() >= 2 * PIECE {
                let take = (shares.len() / PIECE * PIECE).min(WINDOW);
                let max_share = self.max_share;
                let pieces: Vec<Piece> = shares[..take]
                    .par_chunks(PIECE)
                    .map(|p| Piece::encode(p, max_share))
                    .collect();
                for piece in &pieces {
                    self.splice(piece)?;
                }
                shares = &shares[take..];
                continue;
            }
            let take = (CHUNK - self.chunk.len()).min(shares.len());
            self.chunk.extend_from_slice(&shares[..take]);
            shares = &shares[take..];
            if self.chunk.len() == CHUNK {
                self.end_chunk()?;
            }
        }
        Ok(())
    }

    /// Encode the shares pushed since the last chunk as one chunk (a short
    /// one unless [`CHUNK`] of them are waiting).
    pub(crate) fn end_chunk(&mut self) -> std::io::Result<()> {
        if self.chunk.is_empty() {
            return Ok(());
        }
        let mut bits = Bits {
            acc: self.acc,
            held: self.acc_bits,
            total: self.total_bits,
            out: std::mem::take(&mut self.buf),
        };
        let entry = encode_chunk(&self.chunk, self.max_share, &mut bits);
        self.directory.push(self.total_bits << 16 | entry);
        (self.acc, self.acc_bits, self.total_bits, self.buf) =
            (bits.acc, bits.held, bits.total, bits.out);
        self.shares += self.chunk.len() as u64;
        self.chunk.clear();
        if self.buf.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(())
    }

    /// Append a piece encoded on its own (its bits start at bit 0) at the
    /// current bit position.
    fn splice(&mut self, piece: &Piece) -> std::io::Result<()> {
        for &(at, entry) in &piece.directory {
            self.directory.push((self.total_bits + at) << 16 | entry);
        }
        let whole = (piece.bits / 8) as usize;
        for &b in &piece.bytes[..whole] {
            self.acc |= (b as u64) << self.acc_bits;
            self.buf.push(self.acc as u8);
            self.acc >>= 8;
        }
        let rest = (piece.bits % 8) as u32;
        if rest > 0 {
            self.acc |= ((piece.bytes[whole] as u64) & ((1 << rest) - 1)) << self.acc_bits;
            self.acc_bits += rest;
            if self.acc_bits >= 8 {
                self.buf.push(self.acc as u8);
                self.acc >>= 8;
                self.acc_bits -= 8;
            }
        }
        self.total_bits += piece.bits;
        self.shares += piece.shares;
        if self.buf.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.crc.update(&self.buf);
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// End the stream: the last codes, the padding and the directory. The
    /// sink, the number of shares, the bytes of codes (padding included)
    /// and the CRC-32 of the body.
    pub(crate) fn finish(mut self) -> std::io::Result<(W, u64, u64, u32)> {
        self.end_chunk()?;
        if self.acc_bits > 0 {
            self.buf.push(self.acc as u8);
        }
        let code_bytes = (self.total_bits.div_ceil(8) + CODE_PADDING).div_ceil(8) * 8;
        let written = self.total_bits.div_ceil(8);
        self.buf
            .resize(self.buf.len() + (code_bytes - written) as usize, 0);
        self.directory.push(self.total_bits << 16);
        for i in 0..self.directory.len() {
            let d = self.directory[i];
            self.buf.extend_from_slice(&d.to_le_bytes());
            if self.buf.len() >= 1 << 16 {
                self.flush()?;
            }
        }
        self.flush()?;
        Ok((self.out, self.shares, code_bytes, self.crc.finalize()))
    }
}

/// Shares per piece encoded by one thread (whole chunks).
const PIECE: usize = 128 * CHUNK;
/// Shares encoded in parallel before their pieces are spliced and written.
const WINDOW: usize = 64 * PIECE;

/// A bit stream being written: fewer than 8 bits wait in `acc` between
/// groups.
struct Bits {
    acc: u64,
    held: u32,
    /// Bits written since the stream began.
    total: u64,
    out: Vec<u8>,
}

/// Encode one chunk of shares into `bits`: its directory entry's radix
/// and lowest share (`radix << 8 | lo`).
fn encode_chunk(chunk: &[u8], max_share: usize, bits: &mut Bits) -> u64 {
    let lo = *chunk.iter().min().unwrap() as usize;
    let hi = *chunk.iter().max().unwrap() as usize;
    assert!(hi <= max_share, "share {hi} above {max_share}");
    let radix = hi - lo + 1;
    let packing = &RADIX[radix];
    for group in chunk.chunks(packing.digits as usize) {
        let x = group
            .iter()
            .rev()
            .fold(0u64, |x, &j| x * radix as u64 + (j as usize - lo) as u64);
        bits.acc |= x << bits.held;
        bits.held += packing.bits;
        bits.total += packing.bits as u64;
        while bits.held >= 8 {
            bits.out.push(bits.acc as u8);
            bits.acc >>= 8;
            bits.held -= 8;
        }
    }
    (radix as u64) << 8 | lo as u64
}

/// Whole chunks encoded on their own, from bit 0.
struct Piece {
    /// The codes (the last byte partly filled).
    bytes: Vec<u8>,
    bits: u64,
    /// Per chunk: its first bit in the piece and its entry.
    directory: Vec<(u64, u64)>,
    shares: u64,
}

impl Piece {
    fn encode(shares: &[u8], max_share: usize) -> Piece {
        let mut bits = Bits {
            acc: 0,
            held: 0,
            total: 0,
            out: Vec::with_capacity(shares.len() / 2 + 8),
        };
        let mut directory = Vec::with_capacity(shares.len().div_ceil(CHUNK));
        for chunk in shares.chunks(CHUNK) {
            let at = bits.total;
            directory.push((at, encode_chunk(chunk, max_share, &mut bits)));
        }
        if bits.held > 0 {
            bits.out.push(bits.acc as u8);
        }
        Piece {
            bytes: bits.out,
            bits: bits.total,
            directory,
            shares: shares.len() as u64,
        }
    }
}

/// Write `body` (the encoder's output) under `header` to `path`
/// atomically: the temporary file `tmp` in the same directory, synced, then
/// renamed. `fill` streams the body and returns the header to write first.
pub(crate) fn write_atomically(
    path: &Path,
    tmp: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> Result<[u8; HEADER_LEN]>,
) -> Result<()> {
    let result = (|| {
        let mut f =
            BufWriter::with_capacity(1 << 20, File::create(tmp).map_err(|e| Error::io(tmp, e))?);
        f.write_all(&[0u8; HEADER_LEN])
            .map_err(|e| Error::io(tmp, e))?;
        let header = fill(&mut f)?;
        let mut f = f.into_inner().map_err(|e| Error::io(tmp, e.into_error()))?;
        let io = (|| {
            f.seek(SeekFrom::Start(0))?;
            f.write_all(&header)?;
            f.sync_all()?;
            fs::rename(tmp, path)
        })();
        io.map_err(|e| Error::io(path, e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(tmp);
    }
    result
}

/// A table file being written: shares are pushed in index order and
/// encoded as they come, so that a table can be assembled from parts
/// without holding its shares.
pub struct TableWriter {
    spec: TableSpec,
    path: std::path::PathBuf,
    tmp: std::path::PathBuf,
    encoder: Encoder<BufWriter<File>>,
    count: u64,
}

impl TableWriter {
    /// Start writing the table for `spec` into `dir` (a temporary file,
    /// renamed by [`TableWriter::finish`]).
    pub fn create(dir: &Path, spec: TableSpec) -> Result<TableWriter> {
        let count = spec.indexer()?.count();
        crate::files::create_dir(dir)?;
        let path = spec.path(dir);
        // Unique to this process and this write (the lock of the table, taken
        // by the build driver, keeps other processes off the table).
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let tmp = dir.join(format!(
            "{}{}-{}",
            super::lock::temporary_prefix(spec),
            std::process::id(),
            WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let mut f =
            BufWriter::with_capacity(1 << 20, File::create(&tmp).map_err(|e| Error::io(&tmp, e))?);
        let started = f.write_all(&[0u8; HEADER_LEN]);
        let encoder = Encoder::new(f, spec.game.max_share(spec.seeds));
        let w = TableWriter {
            spec,
            path,
            tmp,
            encoder,
            count,
        };
        started.map_err(|e| w.fail(e))?;
        Ok(w)
    }

    fn fail(&self, e: std::io::Error) -> Error {
        let _ = fs::remove_file(&self.tmp);
        Error::io(&self.path, e)
    }

    /// Add the shares of the next positions, in index order.
    pub fn push(&mut self, shares: &[u8]) -> Result<()> {
        self.encoder.push(shares).map_err(|e| self.fail(e))
    }

    /// Write the directory and the header, sync, and rename the file to its
    /// final name. All the table's positions must have been pushed.
    pub fn finish(self) -> Result<WriteInfo> {
        let TableWriter {
            spec,
            path,
            tmp,
            encoder,
            count,
        } = self;
        let fail = |e: std::io::Error| {
            let _ = fs::remove_file(&tmp);
            Error::io(&path, e)
        };
        let (out, shares, code_bytes, crc) = encoder.finish().map_err(fail)?;
        assert_eq!(shares, count, "one share per position");
        let (directory_offset, file_len) = layout_of(count, code_bytes);
        let mut header = [0u8; HEADER_LEN];
        header[..8].copy_from_slice(&MAGIC);
        header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        header[12] = spec.game.game_id();
        header[13] = spec.game.rules_id();
        header[14] = spec.pits as u8;
        header[15] = spec.seeds as u8;
        header[16] = spec.game.layout().id();
        header[17] = ENCODING_RADIX;
        header[19] = CHUNK_BITS as u8;
        header[24..32].copy_from_slice(&count.to_le_bytes());
        header[32..40].copy_from_slice(&code_bytes.to_le_bytes());
        header[40..48].copy_from_slice(&directory_offset.to_le_bytes());
        header[56..60].copy_from_slice(&crc.to_le_bytes());
        let hcrc = crc32fast::hash(&header[..60]);
        header[60..64].copy_from_slice(&hcrc.to_le_bytes());
        let result = (|| {
            let mut f = out.into_inner().map_err(|e| e.into_error())?;
            f.seek(SeekFrom::Start(0))?;
            f.write_all(&header)?;
            f.sync_all()?;
            fs::rename(&tmp, &path)
        })();
        result.map_err(fail)?;
        Ok(WriteInfo { bytes: file_len })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::awari::rules::AwariGame;
    use crate::family::Rules;
    use crate::kalah::rules::KalahRules;
    use crate::tables::index::MAX_INDEX_SEEDS;
    use crate::tables::Table;

    fn spec(k: usize) -> TableSpec {
        TableSpec {
            game: Rules::Kalah(KalahRules::Default),
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
    fn parallel_encoding_writes_the_same_bytes_as_chunk_by_chunk() {
        // Long enough for several windows of pieces and a serial tail.
        let n = 2 * WINDOW + 3 * PIECE + 1000;
        let shares: Vec<u8> = (0..n)
            .map(|i| {
                let c = i >> CHUNK_BITS;
                let span = (c % 21) + 1;
                ((c * 7) % (21 - span + 1) + (i * 7919) % span) as u8
            })
            .collect();
        let encode = |cuts: &[usize]| {
            let mut e = Encoder::new(Vec::new(), 20);
            let mut from = 0;
            for &to in cuts.iter().chain([&n]) {
                e.push(&shares[from..to]).unwrap();
                from = to;
            }
            e.finish().unwrap()
        };
        // In pieces too short for the parallel path: chunk by chunk.
        let serial = encode(&(777..n).step_by(777).collect::<Vec<_>>());
        for cuts in [vec![], vec![100], vec![CHUNK + 3, 3 * PIECE + 5]] {
            let parallel = encode(&cuts);
            assert_eq!(parallel.1, serial.1);
            assert_eq!(parallel.2, serial.2);
            assert_eq!(parallel.3, serial.3, "cuts {cuts:?}");
            assert!(parallel.0 == serial.0, "cuts {cuts:?}");
        }
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
                game: Rules::Awari(AwariGame::Oware),
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
            game: Rules::Kalah(KalahRules::CaptureNeedsOpposite),
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
