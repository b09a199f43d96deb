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
//! and the estimates behind it). The answer at the root follows from the
//! ledger alone ([`Ledger::answer`]); a killed task loses only itself, and
//! any machine goes on from the ledger. Splits are the tree's shape:
//! every machine expands the same nodes, so the lines of several machines
//! merge.
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
//! number ([`Error::BadLedger`]). The file is rewritten whole, atomically,
//! at each new line.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;

/// The ledger format this code writes and reads.
pub const LEDGER_FORMAT: u32 = 1;
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

/// The ledger: its header and lines, indexed.
#[derive(Clone, Debug)]
pub struct Ledger {
    /// The first line.
    pub header: Header,
    /// Every other line, in order.
    pub entries: Vec<Entry>,
    rules: KalahRules,
    proofs: HashMap<String, Vec<usize>>,
    splits: HashMap<Question, usize>,
}

impl Ledger {
    /// An empty ledger for the proofs about `root` under `rules`.
    pub fn new(root: &Position, rules: KalahRules) -> Ledger {
        Ledger {
            header: Header {
                format: LEDGER_FORMAT,
                rules: rules.name().to_string(),
                pits: root.pits_per_side(),
                root: root.to_string(),
            },
            entries: Vec::new(),
            rules,
            proofs: HashMap::new(),
            splits: HashMap::new(),
        }
    }

    /// Read a ledger file, checking every line.
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
                    if h.format != LEDGER_FORMAT {
                        return Err(bad(
                            i + 1,
                            format!(
                                "format {} (this program reads format {LEDGER_FORMAT})",
                                h.format
                            ),
                        ));
                    }
                    let rules = KalahRules::ALL
                        .into_iter()
                        .find(|r| r.name() == h.rules)
                        .ok_or_else(|| bad(i + 1, format!("unknown rule set \"{}\"", h.rules)))?;
                    let root = Position::parse(&h.root).map_err(|e| bad(i + 1, e.to_string()))?;
                    if root.pits_per_side() != h.pits {
                        return Err(bad(
                            i + 1,
                            "the root does not have the header's pits".into(),
                        ));
                    }
                    ledger = Some(Ledger::new(&root, rules));
                }
                (None, _) => return Err(bad(i + 1, "the first line is not the header".into())),
                (Some(_), Entry::Header(_)) => {
                    return Err(bad(i + 1, "a second header".into()));
                }
                (Some(l), entry) => {
                    l.add(entry).map_err(|r| bad(i + 1, r))?;
                }
            }
        }
        ledger.ok_or_else(|| bad(0, "empty: no header line".into()))
    }

    /// The ledger at `path`, or a new one for `root` if there is no file;
    /// a file made for another root or rule set is [`Error::WrongLedger`].
    pub fn open_or_new(path: &Path, root: &Position, rules: KalahRules) -> Result<Ledger> {
        if !path.exists() {
            return Ok(Ledger::new(root, rules));
        }
        let l = Ledger::read(path)?;
        let want = Ledger::new(root, rules).header;
        if l.header != want {
            return Err(Error::WrongLedger {
                path: path.to_path_buf(),
                saved: format!("{} under the {} rules", l.header.root, l.header.rules),
                asked: format!("{} under the {} rules", want.root, want.rules),
            });
        }
        Ok(l)
    }

    /// The rule set.
    pub fn rules(&self) -> KalahRules {
        self.rules
    }

    /// The root position.
    pub fn root(&self) -> Position {
        Position::parse(&self.header.root).expect("checked when read")
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
        let seeds = |p: &Position| p.cells().iter().map(|&c| c as usize).sum::<usize>();
        let root = self.root();
        if seeds(&pos) != seeds(&root) {
            return Err(format!(
                "position \"{}\" holds {} seeds, the ledger's root {}: it is not a position of this game",
                q.position,
                seeds(&pos),
                seeds(&root)
            ));
        }
        Ok(pos)
    }

    /// Add an entry (checked: a position of this board, a proof whose
    /// bounds answer its question). A line already there is skipped;
    /// returns whether it was new.
    pub fn add(&mut self, entry: Entry) -> std::result::Result<bool, String> {
        let q = entry.question().ok_or("a second header")?.clone();
        let pos = self.position_of(&q)?;
        let seconds = match &entry {
            Entry::Proof(p) => p.seconds,
            Entry::Split(s) => s.seconds,
            Entry::Header(_) => 0.0,
        };
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(format!("{seconds} seconds of search: not a duration"));
        }
        match &entry {
            Entry::Proof(p) => {
                if p.lower > p.upper
                    || (p.answer && p.lower < q.at_least)
                    || (!p.answer && p.upper >= q.at_least)
                {
                    return Err(format!(
                        "the bounds [{}, {}] do not answer \"at least {}\" with {}",
                        p.lower, p.upper, q.at_least, p.answer
                    ));
                }
                let same = |e: &Entry| matches!(e, Entry::Proof(o) if o.question == q);
                if self
                    .proofs
                    .get(&q.position)
                    .is_some_and(|v| v.iter().any(|&i| same(&self.entries[i])))
                {
                    return Ok(false);
                }
                self.proofs
                    .entry(q.position.clone())
                    .or_default()
                    .push(self.entries.len());
            }
            Entry::Split(s) => {
                if self.splits.contains_key(&q) {
                    return Ok(false);
                }
                let legal: HashSet<usize> = pos.legal_moves(self.rules).collect();
                let order: HashSet<usize> = s.order.iter().copied().collect();
                if legal != order
                    || s.order.len() != legal.len()
                    || s.estimates.len() != s.order.len()
                {
                    return Err("the split's order is not the position's legal moves".into());
                }
                self.splits.insert(q, self.entries.len());
            }
            Entry::Header(_) => unreachable!("refused above"),
        }
        self.entries.push(entry);
        Ok(true)
    }

    /// Write the whole ledger to `path`, atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut text = Entry::Header(self.header.clone()).to_line();
        text.push('\n');
        for e in &self.entries {
            text.push_str(&e.to_line());
            text.push('\n');
        }
        crate::atomic::write(path, text.as_bytes(), "ledger.jsonl")
    }

    /// What the proofs alone say of `q` (a game already over answers
    /// itself).
    fn known(&self, q: &Question) -> Option<bool> {
        let pos = Position::parse(&q.position).ok()?;
        if pos.is_game_over(self.rules) {
            return Some(pos.final_difference() >= q.at_least);
        }
        let ids = self.proofs.get(&q.position)?;
        ids.iter().find_map(|&i| match &self.entries[i] {
            Entry::Proof(p) if p.lower >= q.at_least => Some(true),
            Entry::Proof(p) if p.upper < q.at_least => Some(false),
            _ => None,
        })
    }

    /// The answer to `q` that follows from the ledger, if any.
    pub fn answer(&self, q: &Question) -> Option<bool> {
        self.answer_memo(q, &mut HashMap::new())
    }

    fn answer_memo(
        &self,
        q: &Question,
        memo: &mut HashMap<Question, Option<bool>>,
    ) -> Option<bool> {
        if let Some(a) = memo.get(q) {
            return *a;
        }
        let a = self.known(q).or_else(|| {
            let Entry::Split(_) = &self.entries[*self.splits.get(q)?] else {
                return None;
            };
            let mut open = false;
            for c in children(q, self.rules).ok()? {
                let a = match c.over {
                    Some(v) => Some(v >= q.at_least),
                    None => self.answer_memo(&c.question, memo).map(|a| a != c.negated),
                };
                match a {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => open = true,
                }
            }
            (!open).then_some(false)
        });
        memo.insert(q.clone(), a);
        a
    }

    /// The questions to prove next for `q` (none when it is answered), in
    /// the order to prove them.
    pub fn pending(&self, q: &Question) -> Vec<Question> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut memo = HashMap::new();
        self.pending_into(q, &mut out, &mut seen, &mut memo);
        out
    }

    fn pending_into(
        &self,
        q: &Question,
        out: &mut Vec<Question>,
        seen: &mut HashSet<Question>,
        memo: &mut HashMap<Question, Option<bool>>,
    ) {
        if !seen.insert(q.clone()) || self.answer_memo(q, memo).is_some() {
            return;
        }
        let Some(&i) = self.splits.get(q) else {
            out.push(q.clone());
            return;
        };
        let Entry::Split(s) = &self.entries[i] else {
            return;
        };
        let Ok(children) = children(q, self.rules) else {
            return;
        };
        for pit in &s.order {
            let Some(c) = children.iter().find(|c| c.pit == *pit) else {
                continue;
            };
            if c.over.is_some() || self.answer_memo(&c.question, memo).is_some() {
                continue;
            }
            self.pending_into(&c.question, out, seen, memo);
            if s.expect {
                // One good move is enough: the next only when this fails.
                return;
            }
        }
    }

    /// The root's value bounds that follow from the ledger
    /// ([`Ledger::bounds`] of the root).
    pub fn root_bounds(&self) -> (i32, i32) {
        self.bounds(&self.header.root)
    }

    /// The value bounds of `position` (in notation, from its side to move)
    /// that follow from the ledger: its proofs' bounds, narrowed by the
    /// largest `t` proven "at least t" and the smallest proven "not at
    /// least t", less one, over the questions asked of it (both brought to the parity every final
    /// difference of the position has: that of its seeds). A finished
    /// game's bounds are its final difference.
    pub fn bounds(&self, position: &str) -> (i32, i32) {
        let Ok(pos) = Position::parse(position) else {
            return (i32::MIN, i32::MAX);
        };
        if pos.is_game_over(self.rules) {
            let v = pos.final_difference();
            return (v, v);
        }
        let total: i32 = pos.cells().iter().map(|&c| i32::from(c)).sum();
        let (mut lo, mut hi) = (-total, total);
        // The proofs' own bounds (a proof of "at least t" may prove more).
        for &i in self.proofs.get(position).into_iter().flatten() {
            if let Entry::Proof(p) = &self.entries[i] {
                lo = lo.max(p.lower);
                hi = hi.min(p.upper);
            }
        }
        let mut memo = HashMap::new();
        let asked: HashSet<i32> = self
            .entries
            .iter()
            .filter_map(Entry::question)
            .filter(|q| q.position == position)
            .map(|q| q.at_least)
            .collect();
        for t in asked {
            let q = Question {
                position: position.to_string(),
                at_least: t,
            };
            match self.answer_memo(&q, &mut memo) {
                Some(true) => lo = lo.max(t),
                Some(false) => hi = hi.min(t - 1),
                None => {}
            }
        }
        let parity = |v: i32| (v - total).rem_euclid(2);
        (lo + parity(lo), hi - parity(hi))
    }

    /// The next question towards the exact value of `position`, starting
    /// from `guess` (`None` once the ledger proves the value): "at least
    /// t" with `t` the guess brought within the open bounds (`lo + 2 ..=
    /// hi`, the values' parity).
    pub fn next_value_question(&self, position: &str, guess: i32) -> Option<Question> {
        let (lo, hi) = self.bounds(position);
        if lo >= hi {
            return None;
        }
        let t = guess.clamp(lo + 2, hi);
        let t = t - (t - lo).rem_euclid(2);
        Some(Question {
            position: position.to_string(),
            at_least: t.max(lo + 2),
        })
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

mod moves;
mod outline;
mod tasks;

pub use moves::MoveValue;
pub use outline::{NodeState, OutlineNode};
pub use tasks::{prove, prove_moves, prove_value, run_task, ProveOptions};
