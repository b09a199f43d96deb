//! The endgame tables an agent reads ([`Tables`]): one rule set's tables
//! at one board width, for the perfect agent.

use std::fmt;
use std::sync::Arc;

use crate::awari::rules::AwariGame;
use crate::error::{Error, Result};
use crate::kalah::rules::KalahRules;
use crate::ohvalhu::Ohvalhu;
use crate::play::state::Rules;
use crate::tablebase::TableGame;
use crate::tablebase::TableSet;
use crate::vai_lung_thlan::VaiLungThlan;

/// Endgame tables an agent can read: the perfect agent plays from them
/// within their range.
#[derive(Clone, Debug)]
pub enum Tables {
    /// Kalah tables (one rule set, one board width).
    Kalah(Arc<TableSet<KalahRules>>),
    /// Awari or Oware tables (one game, one board width).
    Awari(Arc<TableSet<AwariGame>>),
    /// Ohvalhu tables (one board width).
    Ohvalhu(Arc<TableSet<Ohvalhu>>),
    /// Vai Lung Thlan tables (one board width).
    VaiLungThlan(Arc<TableSet<VaiLungThlan>>),
}

impl Tables {
    /// The tables of `rules` for `pits` pits per side that `dir` holds, for
    /// the perfect agent; `None` when there are none (or the board width
    /// has no tables).
    pub fn open_available(
        rules: Rules,
        dir: &std::path::Path,
        pits: usize,
    ) -> Result<Option<Tables>> {
        fn open<G: TableGame>(
            g: G,
            dir: &std::path::Path,
            pits: usize,
        ) -> Result<Option<Arc<TableSet<G>>>> {
            if !g.table_pits_range().contains(&pits) {
                return Ok(None);
            }
            let set = TableSet::open_available(dir, g, pits)?;
            Ok((set.max_seeds() > 0).then(|| Arc::new(set)))
        }
        Ok(match rules {
            Rules::Kalah(r) => open(r, dir, pits)?.map(Tables::Kalah),
            Rules::Awari(g) => open(g, dir, pits)?.map(Tables::Awari),
            Rules::Ohvalhu => open(Ohvalhu, dir, pits)?.map(Tables::Ohvalhu),
            Rules::VaiLungThlan => open(VaiLungThlan, dir, pits)?.map(Tables::VaiLungThlan),
        })
    }

    /// The error for these tables given to an agent of `game`.
    pub(super) fn wrong_for(&self, game: impl fmt::Display) -> Error {
        let (dir, found) = match self {
            Tables::Kalah(t) => (t.dir(), format!("kalah under {} rules", t.game())),
            Tables::Awari(t) => (t.dir(), t.game().to_string()),
            Tables::Ohvalhu(t) => (t.dir(), t.game().to_string()),
            Tables::VaiLungThlan(t) => (t.dir(), t.game().to_string()),
        };
        Error::WrongTables {
            dir: dir.to_path_buf(),
            asked: game.to_string(),
            found,
        }
    }

    /// The largest number of seeds (Kalah: in play; Awari: on the board)
    /// the tables cover.
    pub fn max_seeds(&self) -> usize {
        match self {
            Tables::Kalah(t) => t.max_seeds(),
            Tables::Awari(t) => t.max_seeds(),
            Tables::Ohvalhu(t) => t.max_seeds(),
            Tables::VaiLungThlan(t) => t.max_seeds(),
        }
    }

    /// The table directory.
    pub fn dir(&self) -> &std::path::Path {
        match self {
            Tables::Kalah(t) => t.dir(),
            Tables::Awari(t) => t.dir(),
            Tables::Ohvalhu(t) => t.dir(),
            Tables::VaiLungThlan(t) => t.dir(),
        }
    }
}
