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
        let spec = parse_game(game)?;
        let width = 2 * spec.pits + 2;
        if counts.len() != values.len() * width {
            return Err(Error::Unsupported(format!(
                "{} counts for {} positions of {spec}: each position takes {width}",
                counts.len(),
                values.len()
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
            values_in(&set, g, counts, width, values, missing)
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

fn values_in<G: TableGame>(
    set: &TableSet<G>,
    g: G,
    counts: &[u8],
    width: usize,
    values: &mut [i32],
    missing: i32,
) -> Result<()> {
    let max = set.max_seeds();
    values
        .par_chunks_mut(CHUNK)
        .zip(counts.par_chunks(CHUNK * width))
        .enumerate()
        .try_for_each(|(chunk, (out, rows))| {
            for (i, (v, row)) in out.iter_mut().zip(rows.chunks_exact(width)).enumerate() {
                let pos = g
                    .position_from_counts(row)
                    .map_err(|e| in_row(chunk * CHUNK + i, row, e))?;
                let covered = g.is_over(&pos) || G::table_seeds(&pos) <= max;
                *v = covered
                    .then(|| set.value(&pos))
                    .flatten()
                    .map_or(missing, |f| analysis::shown::<G>(&pos, f));
            }
            Ok(())
        })
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
