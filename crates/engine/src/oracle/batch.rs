//! Batch look-ups: the values of many positions from the tables at once,
//! read from counts instead of text (the Python package's numpy arrays,
//! training loops).

use rayon::prelude::*;

use super::{analysis, parse_game, wide, Oracle};
use crate::error::{Error, Result};
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
        values
            .par_chunks_mut(CHUNK * per_row)
            .zip(counts.par_chunks(CHUNK * width))
            .enumerate()
            .try_for_each(|(chunk, (out, rows))| {
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
            })
    }
}

/// The most seeds a table indexes among the positions of `counts`.
fn most_seeds<G: TableGame>(g: G, counts: &[u8], width: usize) -> Result<usize> {
    counts
        .par_chunks(CHUNK * width)
        .enumerate()
        .try_fold(
            || 0,
            |most, (chunk, rows)| {
                rows.chunks_exact(width)
                    .enumerate()
                    .try_fold(most, |most, (i, row)| {
                        let pos = g
                            .position_from_counts(row)
                            .map_err(|e| in_row(chunk * CHUNK + i, row, e))?;
                        Ok(most.max(G::table_seeds(&pos)))
                    })
            },
        )
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
