//! Proving a book: the exact value of every position of a book ledger's
//! last turn, each recorded as ledger lines; the positions before it
//! follow from their moves by the ledger's own rule, with no search.

use crate::clock::Instant;
use std::path::Path;

use serde::Serialize;

use crate::error::Result;
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::search::prove::{self, Entry, Ledger, ProveOptions};
use crate::tablebase::TableSet;

/// Where a book's proof stands.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BookProgress {
    /// Positions of the book (within its turns of the start).
    pub positions: usize,
    /// Those the ledger proves exactly.
    pub exact: usize,
    /// Positions of the last turn (the ones searched).
    pub frontier: usize,
    /// Those of the last turn proven exactly.
    pub frontier_exact: usize,
    /// Lines recorded by this run.
    pub lines: usize,
    /// Seconds of this run.
    pub seconds: f64,
}

impl Ledger {
    /// Where the book's proof stands.
    pub fn book_progress(&self) -> BookProgress {
        let (mut positions, mut exact, mut frontier, mut frontier_exact) = (0, 0, 0, 0);
        for (pos, t) in self.book_turns_of() {
            let (lo, hi) = self.bounds(&pos.to_string());
            positions += 1;
            exact += usize::from(lo == hi);
            if t == self.header.book_turns {
                frontier += 1;
                frontier_exact += usize::from(lo == hi);
            }
        }
        BookProgress {
            positions,
            exact,
            frontier,
            frontier_exact,
            ..BookProgress::default()
        }
    }
}

/// Lines waiting to be recorded: a book's tasks are many and short, so
/// they are recorded (and the file synced) in batches, at most every
/// `BATCH_SECONDS` or `BATCH_LINES` lines; a stopped run records its batch
/// first, a killed one loses at most that.
struct Batch<'a> {
    path: &'a Path,
    lines: Vec<Entry>,
    since: Instant,
    recorded: usize,
}

const BATCH_SECONDS: f64 = 5.0;
const BATCH_LINES: usize = 64;

impl Batch<'_> {
    fn push(&mut self, ledger: &mut Ledger, e: Entry) -> Result<()> {
        self.lines.push(e);
        if self.lines.len() >= BATCH_LINES || self.since.elapsed().as_secs_f64() >= BATCH_SECONDS {
            self.flush(ledger)?;
        }
        Ok(())
    }

    fn flush(&mut self, ledger: &mut Ledger) -> Result<()> {
        if !self.lines.is_empty() {
            self.recorded += ledger.record(self.path, std::mem::take(&mut self.lines))?;
        }
        self.since = Instant::now();
        Ok(())
    }
}

/// Prove the book of the book ledger at `path`: every position of its last
/// turn not yet exact is solved (an exact solve within the task budget,
/// recorded as one proof line; past the budget, its value proven question
/// by question as [`prove::prove`] does, with splits), in a fixed order,
/// recording as it goes. `on_progress` sees where it stands after each
/// position. Stopped by the stop flag of `opts.search`: the lines of the
/// finished positions are recorded first ([`crate::Error::Stopped`]).
pub fn build_book(
    ledger: &mut Ledger,
    path: &Path,
    tables: Option<&TableSet<KalahRules>>,
    opts: &ProveOptions,
    on_progress: &mut dyn FnMut(&BookProgress),
) -> Result<BookProgress> {
    let start = Instant::now();
    let last = ledger.header.book_turns;
    let mut frontier: Vec<Position> = ledger
        .book_turns_of()
        .into_iter()
        .filter(|&(p, t)| t == last && !p.is_game_over(ledger.rules()))
        .map(|(p, _)| p)
        .collect();
    frontier.sort_by_key(|p| p.cells().to_vec());
    let mut batch = Batch {
        path,
        lines: Vec::new(),
        since: Instant::now(),
        recorded: 0,
    };
    let report = |l: &Ledger, b: &Batch| BookProgress {
        lines: b.recorded + b.lines.len(),
        seconds: start.elapsed().as_secs_f64(),
        ..l.book_progress()
    };
    for pos in frontier {
        let key = pos.to_string();
        let (lo, hi) = ledger.bounds(&key);
        if lo == hi || pending_exact(&batch, &key) {
            continue;
        }
        let result = prove::run_exact(&pos, tables, opts).and_then(|entry| match entry {
            Some(e) => batch.push(ledger, e),
            None => {
                // Past the budget: the value question by question, with
                // the lines so far recorded first.
                batch.flush(ledger)?;
                prove::prove_value_of(ledger, path, &key, 0, tables, opts, &mut |_, _| {})
                    .map(|_| ())
            }
        });
        if let Err(e) = result {
            batch.flush(ledger)?;
            return Err(e);
        }
        on_progress(&report(ledger, &batch));
    }
    batch.flush(ledger)?;
    let done = report(ledger, &batch);
    on_progress(&done);
    Ok(done)
}

/// Whether a line waiting in `batch` proves `key` exactly.
fn pending_exact(batch: &Batch, key: &str) -> bool {
    batch.lines.iter().any(|e| match e {
        Entry::Proof(p) => p.lower == p.upper && p.question.position == key,
        _ => false,
    })
}
