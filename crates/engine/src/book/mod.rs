//! Opening books: the exact values of the positions near a Kalah start,
//! compiled from a proof ledger ([`crate::search::prove`]) so that every
//! entry is backed by ledger lines anyone can audit and prove again.
//!
//! A book holds every position of a ledger whose value the ledger proves
//! exactly (a book ledger, [`Header::book_turns`](crate::search::prove::Header),
//! proves every position within its turns of the start), and answers a
//! look-up by binary search: microseconds, no table, no search. The books
//! this project proves are committed under `books/` and compiled into the
//! library ([`Books::embedded`]), so every front end (the command line, the
//! server, the Python package, the browser) reads them with no file to
//! find; a book file of one's own is read with [`Book::from_bytes`].
//!
//! # The book file
//!
//! Little-endian binary, version [`BOOK_FORMAT`]:
//!
//! ```text
//! magic "MNCLBOOK"  format u32  pits u8  turns u8  rules-name length u8, bytes
//! root: 2m+2 cells  entry count u32
//! entries, sorted by their cells: 2m+2 cells (from the side to move), value i8
//! CRC-32 of everything before it, u32
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::search::prove::Ledger;

mod build;

pub use build::{build_book, BookProgress};

/// The book format this code writes and reads.
pub const BOOK_FORMAT: u32 = 1;
const MAGIC: &[u8; 8] = b"MNCLBOOK";

/// An opening book: exact values of positions of one Kalah rule set and
/// board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    rules: KalahRules,
    pits: usize,
    turns: u32,
    root: Position,
    /// Entries of `2m + 3` bytes: the cells, then the value (i8), sorted.
    entries: Vec<u8>,
}

/// Where an answer came from, for front ends that say so.
pub const SOURCE: &str = "book";

impl Book {
    /// The rule set.
    pub fn rules(&self) -> KalahRules {
        self.rules
    }

    /// Pits per side.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// The start the book is about.
    pub fn root(&self) -> Position {
        self.root
    }

    /// Turns from the start the book's ledger set out to prove.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len() / self.stride()
    }

    /// The book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn stride(&self) -> usize {
        2 * self.pits + 3
    }

    /// Every position of `ledger` whose value it proves exactly (finished
    /// games aside, which need no book).
    pub fn from_ledger(ledger: &Ledger) -> Book {
        let rules = ledger.rules();
        let root = ledger.root();
        let pits = root.pits_per_side();
        let mut rows: Vec<(Vec<u8>, i8)> = ledger
            .exact_positions()
            .into_iter()
            .filter(|(p, _)| !p.is_game_over(rules))
            .map(|(p, v)| (p.cells().to_vec(), v as i8))
            .collect();
        rows.sort();
        rows.dedup();
        let mut entries = Vec::with_capacity(rows.len() * (2 * pits + 3));
        for (cells, v) in rows {
            entries.extend_from_slice(&cells);
            entries.push(v as u8);
        }
        Book {
            rules,
            pits,
            turns: ledger.header.book_turns,
            root,
            entries,
        }
    }

    /// The book as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&BOOK_FORMAT.to_le_bytes());
        out.push(self.pits as u8);
        out.push(self.turns as u8);
        let name = self.rules.name().as_bytes();
        out.push(name.len() as u8);
        out.extend_from_slice(name);
        out.extend_from_slice(self.root.cells());
        out.extend_from_slice(&(self.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.entries);
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Read a book file (`what` names it in errors), checking its
    /// checksum, its version and that its entries are sorted positions of
    /// its board.
    pub fn from_bytes(bytes: &[u8], what: &str) -> Result<Book> {
        let bad = |reason: &str| Error::BadBook {
            what: what.to_string(),
            reason: reason.to_string(),
        };
        if bytes.len() < MAGIC.len() + 4 || &bytes[..8] != MAGIC {
            return Err(bad("not an opening book (no MNCLBOOK magic)"));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
            return Err(bad("checksum mismatch: the file is damaged"));
        }
        let mut r = Reader { bytes: body, at: 8 };
        let format = u32::from_le_bytes(
            r.take(4)
                .ok_or_else(|| bad("cut short"))?
                .try_into()
                .expect("4"),
        );
        if format != BOOK_FORMAT {
            return Err(bad(&format!(
                "format {format} (this program reads format {BOOK_FORMAT})"
            )));
        }
        let head = r.take(3).ok_or_else(|| bad("cut short"))?;
        let (pits, turns, name_len) = (head[0] as usize, u32::from(head[1]), head[2] as usize);
        let name = r.take(name_len).ok_or_else(|| bad("cut short"))?;
        let name = std::str::from_utf8(name).map_err(|_| bad("unreadable rule set"))?;
        let rules = KalahRules::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| bad(&format!("unknown rule set \"{name}\"")))?;
        if !(1..=crate::sow::MAX_PITS).contains(&pits) {
            return Err(bad(&format!("{pits} pits per side")));
        }
        let cells = r.take(2 * pits + 2).ok_or_else(|| bad("cut short"))?;
        let root = Position::from_cells(cells, crate::side::Side::South)
            .map_err(|e| bad(&format!("its start: {e}")))?;
        let count = r.take(4).ok_or_else(|| bad("cut short"))?;
        let count = u32::from_le_bytes(count.try_into().expect("4")) as usize;
        let stride = 2 * pits + 3;
        let entries = r.rest();
        if entries.len() != count * stride {
            return Err(bad("its entries are not as many as it says"));
        }
        let seeds: u32 = cells.iter().map(|&c| u32::from(c)).sum();
        let mut prev: Option<&[u8]> = None;
        for e in entries.chunks_exact(stride) {
            let (key, v) = e.split_at(stride - 1);
            let sum: u32 = key.iter().map(|&c| u32::from(c)).sum();
            let v = i32::from(v[0] as i8);
            if sum != seeds || v.unsigned_abs() > seeds {
                return Err(bad("an entry is not a position of its game"));
            }
            if prev.is_some_and(|p| p >= key) {
                return Err(bad("its entries are not sorted"));
            }
            prev = Some(key);
        }
        Ok(Book {
            rules,
            pits,
            turns,
            root,
            entries: entries.to_vec(),
        })
    }

    /// The exact value of `pos` (its mover's final store difference) if
    /// the book holds it.
    pub fn value(&self, pos: &Position) -> Option<i32> {
        if pos.pits_per_side() != self.pits {
            return None;
        }
        let key = pos.cells();
        let stride = self.stride();
        let n = self.len();
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let e = &self.entries[mid * stride..(mid + 1) * stride];
            match e[..stride - 1].cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(i32::from(e[stride - 1] as i8)),
            }
        }
        None
    }

    /// How much of its turns the book holds: `(held, within)`, the
    /// positions within its turns of the start (finished games aside, which
    /// need no book) and how many of them it holds. A complete book holds
    /// them all; one still being proven fewer (it may hold positions
    /// beyond its turns too, which this does not count).
    pub fn coverage(&self) -> (usize, usize) {
        let (mut held, mut within) = (0, 0);
        for key in crate::search::prove::book_positions(&self.root, self.rules, self.turns).keys() {
            let Ok(pos) = Position::parse(key) else {
                continue;
            };
            if pos.is_game_over(self.rules) {
                continue;
            }
            within += 1;
            held += usize::from(self.value(&pos).is_some());
        }
        (held, within)
    }

    /// Every position of the book with its value.
    pub fn entries(&self) -> impl Iterator<Item = (Position, i32)> + '_ {
        self.entries.chunks_exact(self.stride()).map(|e| {
            let (key, v) = e.split_at(e.len() - 1);
            let pos =
                Position::from_cells(key, crate::side::Side::South).expect("checked when read");
            (pos, i32::from(v[0] as i8))
        })
    }
}

fn embedded_books() -> &'static (Books, Vec<Error>) {
    static BOOKS: OnceLock<(Books, Vec<Error>)> = OnceLock::new();
    BOOKS.get_or_init(|| {
        let (mut ok, mut faults) = (Vec::new(), Vec::new());
        for (name, bytes) in embedded::BOOKS {
            match Book::from_bytes(bytes, name) {
                Ok(b) => ok.push(b),
                Err(e) => faults.push(e),
            }
        }
        (Books::new(ok), faults)
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let out = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        Some(out)
    }

    fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }
}

/// The value of every move of `pos` from books (each move's position in a
/// book, or the game over with it), for its mover; `None` if one is
/// missing.
pub fn move_values(books: &Books, pos: &Position, rules: KalahRules) -> Option<Vec<(usize, i32)>> {
    known_move_values(books, pos, rules)
        .into_iter()
        .map(|(pit, v)| v.map(|v| (pit, v)))
        .collect()
}

/// Every legal move of `pos` with its value for the mover where the books
/// hold it (its position in a book, or the game over with it), `None`
/// where they do not; empty when the game is over. A book still being
/// proven (Kalah(6,6) under `capture-needs-opposite`) holds some moves of
/// a position and not others.
pub fn known_move_values(
    books: &Books,
    pos: &Position,
    rules: KalahRules,
) -> Vec<(usize, Option<i32>)> {
    if pos.is_game_over(rules) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for pit in pos.legal_moves(rules).collect::<Vec<_>>() {
        let mut c = *pos;
        if c.play(pit, rules).is_err() {
            continue;
        }
        let v = if c.is_game_over(rules) {
            Some(c.final_difference())
        } else {
            books.value(rules, &c)
        };
        let sign = if c.to_move() != pos.to_move() { -1 } else { 1 };
        out.push((pit, v.map(|v| sign * v)));
    }
    out
}

/// The moves after each extra turn of `pos`'s turn (the same player to
/// move again, the game not over), breadth first: each with the moves of
/// the turn before it, its pit and its value for the mover where the books
/// hold it. The opening moves themselves are [`known_move_values`].
pub fn known_continuations(
    books: &Books,
    pos: &Position,
    rules: KalahRules,
) -> Vec<(Vec<usize>, usize, Option<i32>)> {
    let mut out = Vec::new();
    for (p, after) in pos.turn(rules).into_iter().skip(1) {
        for (pit, v) in known_move_values(books, &p, rules) {
            out.push((after.clone(), pit, v));
        }
    }
    out
}

/// The leftmost move the books prove best at `pos`, with the position's
/// value: the books hold the position and a move of that value. Every
/// other move may still be unknown.
pub fn best_move(books: &Books, pos: &Position, rules: KalahRules) -> Option<(usize, i32)> {
    let value = books.value(rules, pos)?;
    known_move_values(books, pos, rules)
        .into_iter()
        .find(|m| m.1 == Some(value))
        .map(|m| (m.0, value))
}

/// A set of books, looked up by rule set and board.
#[derive(Clone, Debug, Default)]
pub struct Books {
    books: Vec<Book>,
    by_board: HashMap<(KalahRules, usize), Vec<usize>>,
}

mod embedded;

impl Books {
    /// A set of these books.
    pub fn new(books: Vec<Book>) -> Books {
        let mut by_board: HashMap<(KalahRules, usize), Vec<usize>> = HashMap::new();
        for (i, b) in books.iter().enumerate() {
            by_board.entry((b.rules, b.pits)).or_default().push(i);
        }
        Books { books, by_board }
    }

    /// The books proven by this project and compiled into the library
    /// (`books/*.book` of the source tree), each checked when first read;
    /// one that fails its check is left out ([`Books::embedded_faults`]
    /// says why; the tests read every one).
    pub fn embedded() -> &'static Books {
        &embedded_books().0
    }

    /// Why an embedded book was left out (none in a sound build).
    pub fn embedded_faults() -> &'static [Error] {
        &embedded_books().1
    }

    /// The books.
    pub fn books(&self) -> &[Book] {
        &self.books
    }

    /// The exact value of `pos` under `rules` from any book that holds it.
    pub fn value(&self, rules: KalahRules, pos: &Position) -> Option<i32> {
        self.by_board
            .get(&(rules, pos.pits_per_side()))?
            .iter()
            .find_map(|&i| self.books[i].value(pos))
    }
}
