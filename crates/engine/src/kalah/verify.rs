//! Re-deriving a Kalah table entry from its children (for
//! [`crate::tablebase::verify`]): the position is unranked, every legal move
//! is played with [`Position::play`], and the children's values come from
//! the tables (smaller ones, or the same table for moves that keep every
//! seed in play). A sound table is the unique fixpoint of this check
//! because the Kalah game graph has no cycle.

use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::side::Side;
use crate::tablebase::TableSet;

/// The position of table `k` at `index`, stores empty, South to move.
pub fn position_at(tb: &TableSet<KalahRules>, k: usize, index: u64) -> Position {
    let m = tb.pits();
    let table = tb.table(k).expect("table loaded");
    let mut cells = vec![0u8; 2 * m + 2];
    let (mover, rest) = cells.split_at_mut(m);
    table.indexer().unrank(index, mover, &mut rest[1..m + 1]);
    Position::from_cells(&cells, Side::South).expect("valid position")
}

/// Value of the seeds in play of `pos` recomputed from its children's
/// table values.
pub fn derive(tb: &TableSet<KalahRules>, pos: &Position) -> Option<i32> {
    let moves = tb.move_values(pos)?;
    moves.iter().map(|mv| mv.value).max()
}
