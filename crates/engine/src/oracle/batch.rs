//! Batch look-ups: the values of many positions from the tables (and the
//! opening books) at once, read from counts instead of text (the Python
//! package's numpy arrays, training loops), and one position's value
//! alone by a short search (the leaves of a Monte Carlo tree search).

use crate::clock::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::{analysis, no_values, parse_game, wide, Oracle, SearchBudget};
use crate::book::Books;
use crate::error::{Error, Result};
use crate::family::Rules;
use crate::game::{Board, Game};
use crate::kalah::position::Position;
use crate::play::agents::Stop;
use crate::search::awari::solve_awari;
use crate::search::cyclic::{CyclicOptions, Wanted};
use crate::search::{solve, SolveOptions};
use crate::side::Side;
use crate::tablebase::{TableGame, TableSet};
use crate::with_rules;

/// Positions a parallel task looks up.
const CHUNK: usize = 4096;

impl Oracle {
    /// The values of many positions of `game`, from its tables. `counts`
    /// holds the positions one after the other, each as `2m + 2` counts in
    /// the notation's order (the mover's `m` pits and store, then the
    /// opponent's). `values[i]` receives position `i`'s value for the side
    /// to move, as [`analysis::Analysis::value`] gives it, or `missing` when
    /// the tables do not cover it (the tables the batch needs are built
    /// first when they are within the oracle's build limit, as for
    /// [`Oracle::query`]). Runs on every core; a bad position is an error
    /// naming its row.
    pub fn table_values(
        &self,
        game: &str,
        counts: &[u8],
        values: &mut [i32],
        missing: i32,
    ) -> Result<()> {
        self.batch(game, counts, values, 1, missing)
    }

    /// Every move's value for many positions of `game`, from its tables:
    /// `counts` as for [`Oracle::table_values`], and `values` holds `m`
    /// values a position (`m` the pits a side), `values[i * m + p]` the
    /// value of playing pit `p` in position `i` as
    /// [`analysis::MoveAnalysis::value`] gives it (for the side to move
    /// before the move), or `missing` when pit `p` is not a legal move or the
    /// tables do not cover the position.
    pub fn table_move_values(
        &self,
        game: &str,
        counts: &[u8],
        values: &mut [i32],
        missing: i32,
    ) -> Result<()> {
        let pits = parse_game(game)?.pits;
        self.batch(game, counts, values, pits, missing)
    }

    /// The values of many positions of `game` from the opening books
    /// compiled into the library ([`Books::embedded`]: Kalah openings) and
    /// the tables: [`Oracle::table_values`], then each position it leaves
    /// `missing` looked up in the books.
    pub fn exact_values(
        &self,
        game: &str,
        counts: &[u8],
        values: &mut [i32],
        missing: i32,
    ) -> Result<()> {
        self.exact_values_from(Books::embedded(), game, counts, values, missing)
    }

    /// [`Oracle::exact_values`] with `books` in place of the embedded ones.
    pub fn exact_values_from(
        &self,
        books: &Books,
        game: &str,
        counts: &[u8],
        values: &mut [i32],
        missing: i32,
    ) -> Result<()> {
        self.table_values(game, counts, values, missing)?;
        let spec = parse_game(game)?;
        let Rules::Kalah(rules) = spec.rules else {
            return Ok(());
        };
        let width = 2 * spec.pits + 2;
        let has_book = books
            .books()
            .iter()
            .any(|b| b.rules() == rules && b.pits() == spec.pits);
        if wide(&spec).is_some() || !has_book {
            return Ok(());
        }
        let look_up = |(v, row): (&mut i32, &[u8])| {
            // Rows are checked by the table look-up above.
            if *v == missing {
                if let Some(b) = Position::from_cells(row, Side::South)
                    .ok()
                    .and_then(|p| books.value(rules, &p))
                {
                    *v = b;
                }
            }
        };
        if values.len() <= CHUNK {
            values
                .iter_mut()
                .zip(counts.chunks(width))
                .for_each(look_up);
        } else {
            values
                .par_iter_mut()
                .zip(counts.par_chunks(width))
                .for_each(look_up);
        }
        Ok(())
    }

    /// What is proven of the value of one position of `game` (its `2m + 2`
    /// counts, as a row of [`Oracle::table_values`]), in the same
    /// convention: exact from the books or the tables on disk (no build),
    /// else from the exact search above them (Kalah's solver; Awari's and
    /// Oware's search with repetitions) on one thread within `budget`, the
    /// position's value alone (not its moves', as [`Oracle::query`] gives
    /// them: a fraction of its cost), with the proven bounds when it does
    /// not finish. A `budget` of no time searches nothing and gives the
    /// bounds every game of the position has. The search ends at once
    /// when `stop` is raised ([`Error::Stopped`]).
    pub fn value_bounds(
        &self,
        game: &str,
        counts: &[u8],
        budget: &SearchBudget,
        stop: &Stop,
    ) -> Result<ValueBounds> {
        let spec = parse_game(game)?;
        if wide(&spec).is_some() {
            return Err(no_values(&spec, None));
        }
        let width = 2 * spec.pits + 2;
        if counts.len() != width {
            return Err(Error::Unsupported(format!(
                "{} counts for a position of {spec}: it takes {width}",
                counts.len(),
            )));
        }
        let mut value = [i32::MIN];
        self.exact_values(game, counts, &mut value, i32::MIN)?;
        let value = (value[0] != i32::MIN).then_some(value[0]);
        let known = with_rules!(spec.rules, g => {
            let pos = g
                .position_from_counts(counts)
                .map_err(|e| in_row(0, counts, e))?;
            let table_max = self.tables(g, spec.pits)?.max_seeds();
            known(g, &pos, value, table_max, budget.time.is_zero())
        });
        if let Some(known) = known {
            return Ok(known);
        }
        let deadline = Instant::now() + budget.time;
        let searched = match spec.rules {
            Rules::Kalah(rules) => {
                let pos = rules.position_from_counts(counts)?;
                let set = self.tables(rules, spec.pits)?;
                let sol = solve(
                    &pos,
                    (set.max_seeds() > 0).then_some(&*set),
                    &SolveOptions {
                        rules,
                        threads: 1,
                        tt_mb: budget.tt_mb.max(1),
                        deadline: Some(deadline),
                        stop: stop.flag(),
                        ..SolveOptions::default()
                    },
                )?;
                (sol.lower, sol.upper)
            }
            Rules::Awari(game) if game.has_tables() => {
                let pos = game.position_from_counts(counts)?;
                let set = self.tables(game, spec.pits)?;
                let options = CyclicOptions {
                    tt_mb: budget.tt_mb.max(1),
                    deadline: Some(deadline),
                    stop: stop.flag(),
                    ..CyclicOptions::default()
                };
                let tables = (set.max_seeds() > 0).then_some(&*set);
                let sol = solve_awari(game, &pos, tables, None, Wanted::VALUE, &options)?;
                let b = banked(&pos);
                (sol.lower - b, sol.upper - b)
            }
            _ => {
                return Err(Error::OutOfRange(format!(
                    "{spec}: this position is above the tables in {}, and {} has no search \
                     above the tables",
                    self.config.dir.display(),
                    spec.rules.game_name()
                )))
            }
        };
        if stop.is_raised() {
            return Err(Error::Stopped("the search of this position".into()));
        }
        Ok(ValueBounds {
            lower: searched.0,
            upper: searched.1,
            source: ValueSource::Search,
        })
    }

    /// [`Oracle::table_values`] (`per_row` 1) or
    /// [`Oracle::table_move_values`] (`per_row` the pits a side).
    fn batch(
        &self,
        game: &str,
        counts: &[u8],
        values: &mut [i32],
        per_row: usize,
        missing: i32,
    ) -> Result<()> {
        let spec = parse_game(game)?;
        let width = 2 * spec.pits + 2;
        if !values.len().is_multiple_of(per_row) {
            return Err(Error::Unsupported(format!(
                "{} values for positions of {spec}: each position takes {per_row}",
                values.len(),
            )));
        }
        let rows = values.len() / per_row;
        if counts.len() != rows * width {
            return Err(Error::Unsupported(format!(
                "{} counts for {rows} positions of {spec}: each position takes {width}",
                counts.len(),
            )));
        }
        if wide(&spec).is_some() {
            // Boards wider than any table: nothing is covered.
            values.fill(missing);
            return Ok(());
        }
        // Other widths without tables cover nothing either (below).
        with_rules!(spec.rules, g => {
            if !g.table_pits_range().contains(&spec.pits) {
                values.fill(missing);
                return Ok(());
            }
            // The tables the batch needs, built on demand within the
            // oracle's limit as for a query; else the ones there are.
            let need = most_seeds(g, counts, width)?;
            let set = match self.tables_for(g, spec.pits, need)? {
                Some(set) => set,
                None => self.tables(g, spec.pits)?,
            };
            let rows = Rows { counts, width, per_row, missing, max: set.max_seeds() };
            rows.look_up(&set, g, values)
        })
    }
}

/// Where [`Oracle::value_bounds`] found what it proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueSource {
    /// The game is over: the final score difference.
    GameOver,
    /// An opening book: exact.
    Book,
    /// The endgame tables: exact.
    Tables,
    /// The exact search: exact when it finished, else proven bounds.
    Search,
    /// Nothing was asked beyond the books and tables: the bounds of any
    /// game from the position.
    None,
}

impl ValueSource {
    /// Its name, as it is serialised (`game_over`, `book`, `tables`,
    /// `search`, `none`).
    pub fn name(self) -> &'static str {
        match self {
            ValueSource::GameOver => "game_over",
            ValueSource::Book => "book",
            ValueSource::Tables => "tables",
            ValueSource::Search => "search",
            ValueSource::None => "none",
        }
    }
}

/// What is proven of one position's value ([`Oracle::value_bounds`]), in
/// the convention of [`analysis::Analysis::value`] for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ValueBounds {
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// Where they come from.
    pub source: ValueSource,
}

impl ValueBounds {
    /// The exact value, when the bounds meet.
    pub fn value(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// What [`Oracle::value_bounds`] knows of `pos` without a search: its
/// `value` from the books or tables (tables up to `table_max` seeds), or,
/// with `no_search`, the bounds of any game from it; `None` when a search
/// is wanted.
fn known<G: TableGame>(
    g: G,
    pos: &G::Position,
    value: Option<i32>,
    table_max: usize,
    no_search: bool,
) -> Option<ValueBounds> {
    let seeds = G::table_seeds(pos);
    if let Some(v) = value {
        let source = if g.is_over(pos) {
            ValueSource::GameOver
        } else if seeds <= table_max {
            ValueSource::Tables
        } else {
            ValueSource::Book
        };
        return Some(ValueBounds {
            lower: v,
            upper: v,
            source,
        });
    }
    // Every seed in play won or lost, on top of what is banked.
    let (k, b) = (seeds as i32, banked(pos));
    no_search.then(|| ValueBounds {
        lower: analysis::shown::<G>(pos, b - k),
        upper: analysis::shown::<G>(pos, b + k),
        source: ValueSource::None,
    })
}

/// What the side to move has banked over the opponent (stores or seeds
/// captured).
fn banked<P: Board>(pos: &P) -> i32 {
    let [south, north] = pos.scores().map(i32::from);
    match pos.to_move() {
        Side::South => south - north,
        Side::North => north - south,
    }
}

/// A batch's positions and the shape of its answer.
struct Rows<'a> {
    counts: &'a [u8],
    width: usize,
    per_row: usize,
    missing: i32,
    /// The most seeds the tables hold.
    max: usize,
}

impl Rows<'_> {
    /// Each position's value (`per_row` 1) or every move's value from `set`.
    fn look_up<G: TableGame>(&self, set: &TableSet<G>, g: G, values: &mut [i32]) -> Result<()> {
        if self.per_row == 1 {
            self.fill(values, g, |pos, out| {
                if let Some(f) = set.value(pos) {
                    out[0] = analysis::shown::<G>(pos, f);
                }
            })
        } else {
            self.fill(values, g, |pos, out| {
                for mv in set.move_values(pos).into_iter().flatten() {
                    out[mv.pit] = analysis::shown::<G>(pos, mv.value);
                }
            })
        }
    }

    /// Each position's `per_row` values, `missing` until `look_up` writes
    /// them, on every core; `look_up` runs only for positions the tables
    /// (up to `max` seeds) cover.
    fn fill<G: TableGame>(
        &self,
        values: &mut [i32],
        g: G,
        look_up: impl Fn(&G::Position, &mut [i32]) + Sync,
    ) -> Result<()> {
        let Rows {
            counts,
            width,
            per_row,
            missing,
            max,
        } = *self;
        values.fill(missing);
        let one_chunk = |(chunk, (out, rows)): (usize, (&mut [i32], &[u8]))| -> Result<()> {
            for (i, (v, row)) in out
                .chunks_exact_mut(per_row)
                .zip(rows.chunks_exact(width))
                .enumerate()
            {
                let pos = g
                    .position_from_counts(row)
                    .map_err(|e| in_row(chunk * CHUNK + i, row, e))?;
                if g.is_over(&pos) || G::table_seeds(&pos) <= max {
                    look_up(&pos, v);
                }
            }
            Ok(())
        };
        // One chunk (a leaf of a tree search, a few positions) on this
        // thread: no hand-over to the pool, whose threads a busy machine
        // may be slow to wake.
        if values.len() <= CHUNK * per_row {
            return one_chunk((0, (values, counts)));
        }
        values
            .par_chunks_mut(CHUNK * per_row)
            .zip(counts.par_chunks(CHUNK * width))
            .enumerate()
            .try_for_each(one_chunk)
    }
}

/// The most seeds a table indexes among the positions of `counts`.
fn most_seeds<G: TableGame>(g: G, counts: &[u8], width: usize) -> Result<usize> {
    let fold = |most: usize, (chunk, rows): (usize, &[u8])| -> Result<usize> {
        rows.chunks_exact(width)
            .enumerate()
            .try_fold(most, |most, (i, row)| {
                let pos = g
                    .position_from_counts(row)
                    .map_err(|e| in_row(chunk * CHUNK + i, row, e))?;
                Ok(most.max(G::table_seeds(&pos)))
            })
    };
    if counts.len() <= CHUNK * width {
        return fold(0, (0, counts));
    }
    counts
        .par_chunks(CHUNK * width)
        .enumerate()
        .try_fold(|| 0, fold)
        .try_reduce(|| 0, |a, b| Ok(a.max(b)))
}

/// `e`, about the position `counts` in row `row` of a batch.
fn in_row(row: usize, counts: &[u8], e: Error) -> Error {
    let reason = match e {
        Error::BadPosition { reason, .. } => reason,
        other => other.to_string(),
    };
    Error::BadPosition {
        text: crate::notation::join_counts(counts),
        reason: format!("row {row} of the batch: {reason}"),
    }
}
