//! Proofs split into tasks, and the ledger of the finished ones.
//!
//! A proof answers one null-window *question*: is the value of a position
//! (final store difference for its mover, stores included) at least `t`?
//! A question the solver settles within a task's time budget is a
//! *proof*; a larger one is *split*: the question becomes one question a
//! move, asked of the child (`t` itself after an extra turn, the negated
//! `1 - t` when the turn passes), and the position's answer follows from
//! its children's:
//!
//! ```text
//! value(P) >= t  <=>  some move m:  value(P after m) >= t        (extra turn)
//!                                   not value(P after m) >= 1 - t (turn passes)
//! ```
//!
//! The **ledger** records every finished task, one line each: proofs (the
//! position, `t`, the answer, the proven bounds, the tables, nodes,
//! seconds, program) and splits (the position, `t`, the children's order
//! and the estimates behind it). What the root is worth follows from the
//! ledger alone ([`Ledger::bounds`]); a killed task loses only itself, and
//! any machine goes on from the ledger. Splits are the tree's shape:
//! every machine expands the same nodes, so the lines of several machines
//! merge.
//!
//! # What a ledger proves
//!
//! One rule, which `dist/ledger_audit.py` applies too (written apart, in
//! plain Python), derives the bounds of every position the ledger
//! *reaches*: the root and the positions of its own turn (those its extra
//! moves reach, the same player to move), the positions with a split line,
//! and (in a book ledger, [`Header::book_turns`]) every position within
//! that many turns of the root are *expanded*; the children of an expanded position are
//! reached. The bounds of a reached position P with s seeds in all:
//!
//! 1. a finished game: its final difference;
//! 2. else `[-s, s]`, narrowed to every proof line's `[lower, upper]` of P;
//! 3. if P is expanded, narrowed to `[max lower, max upper]` over its moves
//!    (a child's bounds negated where the turn passes);
//! 4. brought to the parity of s (every final difference has it).
//!
//! A ledger is refused, naming its lines, when a line cannot be right
//! (bounds outside `[-s, s]`, an answer its bounds contradict, a split
//! whose moves are not the position's), when the bounds of a position come
//! out empty (its lines contradict each other or its moves' lines), or
//! when a line is about a position the ledger does not reach. Nothing is
//! ever dropped to make a ledger agree with itself.
//!
//! Which tasks come next ([`Ledger::pending`]): at a split whose side is
//! expected to find a good move (an estimate at least `t`), only the first
//! child not yet refuted, in the order of the estimates; at a split expected
//! to fail, every child still open, each of which must be refuted.
//!
//! # The ledger file
//!
//! JSON lines. Each line is `{"crc":"XXXXXXXX","entry":{...}}`, the CRC-32
//! (hexadecimal) of the exact text of the entry's object; the first line's
//! entry is the header (`"kind":"header"`: format version, rule set, pits,
//! the root position). A line that fails its checksum is refused with its
//! number ([`Error::BadLedger`]). The checksum catches damage (a bit
//! flipped on a disk, a line cut short, a slip of an editor), not
//! forgery: anyone can write a line and its checksum. What a false line
//! cannot hide is a contradiction with the others (refused, above); a
//! false line consistent with the rest is found only by proving it again
//! (`mancala prove --check`, or `dist/ledger_audit.py --reprove`).
//!
//! Writers never lose each other's lines: a line is recorded
//! ([`Ledger::record`]) under an exclusive lock on the ledger's lock file
//! (`.NAME.lock` beside it), by reading the file again, adding the new
//! lines to what is there (lines of other processes included), checking
//! the whole, and replacing the file atomically. Several provers, a
//! `--record` and the Dask driver may share one ledger.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;

/// The ledger format this code writes (and reads) for a proof ledger.
pub const LEDGER_FORMAT: u32 = 1;
/// The format of a book ledger (a header with [`Header::book_turns`]);
/// programs that know only format 1 refuse it rather than misread it.
pub const BOOK_LEDGER_FORMAT: u32 = 2;
/// The largest ledger file read (a ledger of a million lines is about
/// 300 MB; anything larger is not a ledger).
pub const MAX_LEDGER_BYTES: u64 = 1 << 30;

/// Is the value of `position` (its mover's view, stores included) at least
/// `at_least`?
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Question {
    /// The position in notation, from the side to move.
    pub position: String,
    /// The threshold.
    pub at_least: i32,
}

/// The first line of a ledger: what it proves things about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`LEDGER_FORMAT`].
    pub format: u32,
    /// The Kalah rule set ([`KalahRules::name`]).
    pub rules: String,
    /// Pits per side.
    pub pits: usize,
    /// The root position, in notation from the side to move.
    pub root: String,
    /// A book ledger: every position within this many turns of the root
    /// (a turn: one player's moves, extra moves included) is part of the
    /// proof, its value derived from its moves' values. 0 (and absent from
    /// the line): a proof about the root only.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub book_turns: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A question settled by the solver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Proof {
    /// The question.
    #[serde(flatten)]
    pub question: Question,
    /// Its answer.
    pub answer: bool,
    /// The proven lower bound on the value.
    pub lower: i32,
    /// The proven upper bound on the value.
    pub upper: i32,
    /// The largest table probed (seeds in play; 0: none).
    pub table_seeds: usize,
    /// Search nodes.
    pub nodes: u64,
    /// Seconds of search.
    pub seconds: f64,
    /// Threads.
    pub threads: usize,
    /// The program that proved it (name and version).
    pub program: String,
}

/// A question too large for one task, split into one question a move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Split {
    /// The question.
    #[serde(flatten)]
    pub question: Question,
    /// Whether the estimates say the answer is yes (then the children are
    /// tried one at a time in `order`, else all at once).
    pub expect: bool,
    /// The moves, best estimate first.
    pub order: Vec<usize>,
    /// The estimates of the moves' values in `order` (mover's view).
    pub estimates: Vec<i32>,
    /// Nodes the task spent before it was split.
    pub nodes: u64,
    /// Seconds the task spent before it was split.
    pub seconds: f64,
    /// The program that split it.
    pub program: String,
}

/// One line of a ledger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Entry {
    /// The first line.
    Header(Header),
    /// A settled question.
    Proof(Proof),
    /// A split question.
    Split(Split),
}

impl Entry {
    /// The question of a proof or split.
    pub fn question(&self) -> Option<&Question> {
        match self {
            Entry::Header(_) => None,
            Entry::Proof(p) => Some(&p.question),
            Entry::Split(s) => Some(&s.question),
        }
    }

    /// The entry as one ledger line (no newline).
    pub fn to_line(&self) -> String {
        let body = serde_json::to_string(self).expect("ledger entries serialise");
        format!(
            "{{\"crc\":\"{:08x}\",\"entry\":{body}}}",
            crc32fast::hash(body.as_bytes())
        )
    }

    /// Read one ledger line, checking its checksum.
    pub fn from_line(line: &str) -> std::result::Result<Entry, String> {
        const PREFIX: &str = "{\"crc\":\"";
        let line = line.trim_end();
        let rest = line
            .strip_prefix(PREFIX)
            .ok_or("not a ledger line (it should start with {\"crc\":\")")?;
        let (crc, rest) = rest.split_at_checked(8).ok_or("the line is cut short")?;
        let body = rest
            .strip_prefix("\",\"entry\":")
            .and_then(|b| b.strip_suffix('}'))
            .ok_or("not a ledger line (it should be {\"crc\":\"...\",\"entry\":{...}})")?;
        let want = u32::from_str_radix(crc, 16).map_err(|_| format!("bad checksum \"{crc}\""))?;
        if crc32fast::hash(body.as_bytes()) != want {
            return Err("checksum mismatch: the line was edited or damaged".into());
        }
        serde_json::from_str(body).map_err(|e| format!("unreadable entry: {e}"))
    }
}

/// The program's name and version, as ledger lines record it.
pub fn program() -> String {
    format!("mancala-solver {}", env!("CARGO_PKG_VERSION"))
}

/// A child question of a split: its question, and whether its answer is
/// negated (the turn passed) to give the parent's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child {
    /// The move (pit from the mover's left).
    pub pit: usize,
    /// The child's question.
    pub question: Question,
    /// The parent's answer through this move is `!answer` when true.
    pub negated: bool,
    /// The game ended with the move: its final difference for the
    /// parent's mover.
    pub over: Option<i32>,
}

/// The children of a question, in pit order.
pub fn children(q: &Question, rules: KalahRules) -> Result<Vec<Child>> {
    let pos = Position::parse(&q.position)?;
    let mut out = Vec::new();
    for pit in pos.legal_moves(rules).collect::<Vec<_>>() {
        let mut c = pos;
        if c.play(pit, rules).is_err() {
            continue; // (never: the move is legal)
        }
        let negated = c.to_move() != pos.to_move();
        let over = c.is_game_over(rules).then(|| {
            let v = c.final_difference();
            if negated {
                -v
            } else {
                v
            }
        });
        let at_least = if negated { 1 - q.at_least } else { q.at_least };
        out.push(Child {
            pit,
            question: Question {
                position: Position::parse(&c.to_string())?.to_string(),
                at_least,
            },
            negated,
            over,
        });
    }
    Ok(out)
}

/// A position's text in the one form the engine writes (so that lines
/// writing the same position apart, `1 2` and `1  2`, are one position).
fn canonical(text: &str) -> std::result::Result<String, String> {
    Position::parse(text)
        .map(|p| p.to_string())
        .map_err(|e| e.to_string())
}

/// Why a ledger cannot be right: the lines at fault (indices into
/// [`Ledger::entries`]) and what is wrong.
#[derive(Clone, Debug)]
pub(crate) struct Fault {
    /// The lines, in file order.
    pub lines: Vec<usize>,
    /// What is wrong.
    pub reason: String,
}

impl Fault {
    /// The error of this fault in the ledger file `path`, its lines
    /// numbered in the file by `line_of` (entry index to line number): the
    /// first line at fault as the line, every one named in the reason.
    pub(crate) fn error(self, path: &Path, line_of: impl Fn(usize) -> usize) -> Error {
        let numbers: Vec<usize> = self.lines.iter().map(|&i| line_of(i)).collect();
        let reason = match numbers.len() {
            0 | 1 => self.reason,
            _ => format!(
                "{} (lines {})",
                self.reason,
                numbers
                    .iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        Error::BadLedger {
            path: path.to_path_buf(),
            line: numbers.first().copied().unwrap_or(0),
            reason,
        }
    }
}

/// The file line of entry `i` of a ledger written by [`Ledger::save`]
/// (the header is line 1).
pub(crate) fn written_line(i: usize) -> usize {
    i + 2
}

/// The ledger: its header and lines, indexed, and the bounds they prove.
#[derive(Clone, Debug)]
pub struct Ledger {
    /// The first line.
    pub header: Header,
    /// Every other line, in file order.
    pub entries: Vec<Entry>,
    rules: KalahRules,
    root: Position,
    /// The root's canonical text.
    root_key: String,
    /// The seeds of every position of the game.
    seeds: i32,
    /// Each entry's JSON, to tell a line already there from a new one.
    texts: HashSet<String>,
    /// Proof lines by position (the position's canonical text).
    proofs: HashMap<String, Vec<usize>>,
    /// The first split line of each question (canonical position).
    splits: HashMap<Question, usize>,
    /// Split lines by position.
    split_lines: HashMap<String, Vec<usize>>,
    /// The book's positions (within [`Header::book_turns`] turns of the
    /// root) with the fewest turns that reach each.
    book: HashMap<String, u32>,
    /// The positions of the root's own turn ([`derive::root_turn`]).
    root_turn: HashSet<String>,
    /// The bounds of every reached position ([`Ledger::check`]).
    derived: HashMap<String, (i32, i32)>,
}

impl Ledger {
    /// An empty ledger for the proofs about `root` under `rules`.
    pub fn new(root: &Position, rules: KalahRules) -> Ledger {
        Ledger::with_book(root, rules, 0)
    }

    /// An empty book ledger: the values of every position within
    /// `book_turns` turns of `root` (0: an ordinary ledger).
    pub fn with_book(root: &Position, rules: KalahRules, book_turns: u32) -> Ledger {
        let header = Header {
            format: if book_turns > 0 {
                BOOK_LEDGER_FORMAT
            } else {
                LEDGER_FORMAT
            },
            rules: rules.name().to_string(),
            pits: root.pits_per_side(),
            root: root.to_string(),
            book_turns,
        };
        let mut l = Ledger {
            seeds: root.cells().iter().map(|&c| i32::from(c)).sum(),
            book: derive::book_positions(root, rules, book_turns),
            root_turn: derive::root_turn(root, rules),
            header,
            entries: Vec::new(),
            rules,
            root: *root,
            root_key: root.to_string(),
            texts: HashSet::new(),
            proofs: HashMap::new(),
            splits: HashMap::new(),
            split_lines: HashMap::new(),
            derived: HashMap::new(),
        };
        l.check().expect("an empty ledger is sound");
        l
    }

    /// Read a ledger file, checking every line and the whole (the module's
    /// rule, "What a ledger proves").
    pub fn read(path: &Path) -> Result<Ledger> {
        let bytes = crate::files::read_limited(path, MAX_LEDGER_BYTES, "a proof ledger")?;
        let bad = |line: usize, reason: String| Error::BadLedger {
            path: path.to_path_buf(),
            line,
            reason,
        };
        let text = String::from_utf8(bytes).map_err(|_| bad(0, "not UTF-8 text".into()))?;
        let text = crate::files::strip_bom(&text);
        let mut ledger: Option<Ledger> = None;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let entry = Entry::from_line(line).map_err(|r| bad(i + 1, r))?;
            match (&mut ledger, entry) {
                (None, Entry::Header(h)) => {
                    ledger = Some(Ledger::from_header(&h).map_err(|r| bad(i + 1, r))?);
                }
                (None, _) => return Err(bad(i + 1, "the first line is not the header".into())),
                (Some(_), Entry::Header(_)) => {
                    return Err(bad(
                        i + 1,
                        "a second header: a ledger has one, on its first line".into(),
                    ));
                }
                (Some(l), entry) => {
                    l.insert(entry).map_err(|r| bad(i + 1, r))?;
                }
            }
        }
        let mut ledger = ledger.ok_or_else(|| bad(0, "empty: no header line".into()))?;
        // Blank lines aside, entry k is on the k-th non-blank line after
        // the header; name the lines by the file's own numbering.
        ledger.check().map_err(|f| {
            let numbers = non_blank_line_numbers(text);
            f.error(path, |k| numbers[k + 1])
        })?;
        Ok(ledger)
    }

    /// The ledger a header describes, empty; else why the header is wrong.
    fn from_header(h: &Header) -> std::result::Result<Ledger, String> {
        let want = if h.book_turns > 0 {
            BOOK_LEDGER_FORMAT
        } else {
            LEDGER_FORMAT
        };
        if h.format != want {
            return Err(match h.format {
                LEDGER_FORMAT | BOOK_LEDGER_FORMAT => format!(
                    "format {} with book_turns {}: format {LEDGER_FORMAT} is a ledger without \
                     book turns, format {BOOK_LEDGER_FORMAT} one with them",
                    h.format, h.book_turns
                ),
                f => format!(
                    "format {f} (this program reads formats {LEDGER_FORMAT} and \
                     {BOOK_LEDGER_FORMAT}): made by a newer program?"
                ),
            });
        }
        let rules = KalahRules::ALL
            .into_iter()
            .find(|r| r.name() == h.rules)
            .ok_or_else(|| format!("unknown rule set \"{}\"", h.rules))?;
        let root = Position::parse(&h.root).map_err(|e| e.to_string())?;
        if root.pits_per_side() != h.pits {
            return Err("the root does not have the header's pits".into());
        }
        if h.book_turns > MAX_BOOK_TURNS {
            return Err(format!(
                "a book of {} turns (at most {MAX_BOOK_TURNS})",
                h.book_turns
            ));
        }
        Ok(Ledger::with_book(&root, rules, h.book_turns))
    }

    /// The ledger at `path`, or a new one for `root` if there is no file;
    /// a file made for another root or rule set is [`Error::WrongLedger`].
    pub fn open_or_new(path: &Path, root: &Position, rules: KalahRules) -> Result<Ledger> {
        Ledger::open_or_new_book(path, root, rules, 0)
    }

    /// [`Ledger::open_or_new`] for a book ledger of `book_turns` turns.
    pub fn open_or_new_book(
        path: &Path,
        root: &Position,
        rules: KalahRules,
        book_turns: u32,
    ) -> Result<Ledger> {
        let want = Ledger::with_book(root, rules, book_turns);
        if std::fs::symlink_metadata(path).is_err() {
            return Ok(want);
        }
        let l = Ledger::read(path)?;
        l.same_proof_as(&want, path)?;
        Ok(l)
    }

    /// [`Error::WrongLedger`] unless `self` and `other` prove things about
    /// the same root under the same rules.
    pub(crate) fn same_proof_as(&self, other: &Ledger, path: &Path) -> Result<()> {
        if self.header == other.header {
            return Ok(());
        }
        let about = |h: &Header| {
            let book = match h.book_turns {
                0 => String::new(),
                t => format!(" (a book of {t} turns)"),
            };
            format!("{} under the {} rules{book}", h.root, h.rules)
        };
        Err(Error::WrongLedger {
            path: path.to_path_buf(),
            saved: about(&self.header),
            asked: about(&other.header),
        })
    }

    /// The rule set.
    pub fn rules(&self) -> KalahRules {
        self.rules
    }

    /// The root position.
    pub fn root(&self) -> Position {
        self.root
    }

    /// The position of a question, checked to belong to this ledger: the
    /// root's pits per side and its seeds (Kalah never adds or removes
    /// one), else why not.
    pub fn position_of(&self, q: &Question) -> std::result::Result<Position, String> {
        let pos = Position::parse(&q.position).map_err(|e| e.to_string())?;
        if pos.pits_per_side() != self.header.pits {
            return Err(format!(
                "position \"{}\" has {} pits per side, the ledger {}",
                q.position,
                pos.pits_per_side(),
                self.header.pits
            ));
        }
        let seeds: i32 = pos.cells().iter().map(|&c| i32::from(c)).sum();
        if seeds != self.seeds {
            return Err(format!(
                "position \"{}\" holds {seeds} seeds, the ledger's root {}: it is not a position of this game",
                q.position, self.seeds
            ));
        }
        Ok(pos)
    }

    /// Add a line and check the whole ledger with it (the module's rule);
    /// a line already there is skipped. Returns whether it was new; a line
    /// that cannot be right, or that contradicts the others, is refused
    /// and the ledger left as it was.
    pub fn add(&mut self, entry: Entry) -> std::result::Result<bool, String> {
        let before = self.clone();
        if !self.insert(entry)? {
            return Ok(false);
        }
        if let Err(f) = self.check() {
            *self = before;
            return Err(f.reason);
        }
        Ok(true)
    }

    /// Index a line checked on its own (a position of this board, proof
    /// bounds within the game's and answering the question, a split over
    /// the position's moves); `Ok(false)` if the same line is there.
    /// [`Ledger::check`] must follow.
    fn insert(&mut self, entry: Entry) -> std::result::Result<bool, String> {
        let q = entry.question().ok_or("a second header")?.clone();
        let pos = self.position_of(&q)?;
        let key = canonical(&q.position)?;
        let seconds = match &entry {
            Entry::Proof(p) => p.seconds,
            Entry::Split(s) => s.seconds,
            Entry::Header(_) => 0.0,
        };
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(format!("{seconds} seconds of search: not a duration"));
        }
        let s = self.seeds;
        match &entry {
            Entry::Proof(p) => {
                if p.lower > p.upper || p.lower < -s || p.upper > s {
                    return Err(format!(
                        "the bounds [{}, {}] are not bounds of a value of this game \
                         (from -{s} to {s}, lower first)",
                        p.lower, p.upper
                    ));
                }
                if (p.answer && p.lower < q.at_least) || (!p.answer && p.upper >= q.at_least) {
                    return Err(format!(
                        "the bounds [{}, {}] do not answer \"at least {}\" with {}",
                        p.lower, p.upper, q.at_least, p.answer
                    ));
                }
            }
            Entry::Split(sp) => {
                let legal: HashSet<usize> = pos.legal_moves(self.rules).collect();
                let order: HashSet<usize> = sp.order.iter().copied().collect();
                if legal != order
                    || sp.order.len() != legal.len()
                    || sp.estimates.len() != sp.order.len()
                {
                    return Err("the split's order is not the position's legal moves".into());
                }
            }
            Entry::Header(_) => unreachable!("refused above"),
        }
        let text = serde_json::to_string(&entry).expect("ledger entries serialise");
        if !self.texts.insert(text) {
            return Ok(false);
        }
        let i = self.entries.len();
        match &entry {
            Entry::Proof(_) => self.proofs.entry(key).or_default().push(i),
            Entry::Split(_) => {
                self.splits
                    .entry(Question {
                        position: key.clone(),
                        at_least: q.at_least,
                    })
                    .or_insert(i);
                self.split_lines.entry(key).or_default().push(i);
            }
            Entry::Header(_) => {}
        }
        self.entries.push(entry);
        Ok(true)
    }

    /// Totals over the proofs: lines, nodes, seconds (CPU seconds are
    /// seconds times threads), and splits.
    pub fn totals(&self) -> Totals {
        let mut t = Totals::default();
        for e in &self.entries {
            match e {
                Entry::Proof(p) => {
                    t.proofs += 1;
                    t.nodes += p.nodes;
                    t.seconds += p.seconds;
                    t.cpu_seconds += p.seconds * p.threads as f64;
                }
                Entry::Split(s) => {
                    t.splits += 1;
                    t.nodes += s.nodes;
                    t.seconds += s.seconds;
                }
                Entry::Header(_) => {}
            }
        }
        t
    }
}

/// The most turns a book ledger may span (the positions within them are
/// enumerated in memory).
pub const MAX_BOOK_TURNS: u32 = 6;

/// The numbers (from 1) of the non-blank lines of `text`.
fn non_blank_line_numbers(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i + 1)
        .collect()
}

/// What a ledger holds, summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    /// Proof lines.
    pub proofs: usize,
    /// Split lines.
    pub splits: usize,
    /// Nodes over all lines (the splits' unfinished attempts included).
    pub nodes: u64,
    /// Wall-clock seconds of search over all lines.
    pub seconds: f64,
    /// CPU seconds of the proofs (seconds times threads).
    pub cpu_seconds: f64,
}

mod derive;
mod file;
mod moves;
mod outline;
mod tasks;

pub(crate) use derive::book_positions;
pub use moves::MoveValue;
pub use outline::{NodeState, OutlineNode};
pub use tasks::{
    prove, prove_moves, prove_value, prove_value_of, run_exact, run_ledger_task, run_task,
    split_task, ProveOptions,
};
