//! [`SharedTables`]: the tables of any rule set at one board width behind
//! one type, opened once and shared by the perfect agent, `grade`, the
//! oracle and a binding. The typed set ([`TableSet<G>`]) is asked for
//! with [`SharedTables::get`], which refuses the tables of another rule set
//! or width with [`Error::WrongTables`].

use std::any::Any;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{TableGame, TableSet};
use crate::error::{Error, Result};
use crate::family::Rules;
use crate::with_rules;

/// See the module documentation.
#[derive(Clone)]
pub struct SharedTables {
    rules: Rules,
    pits: usize,
    max_seeds: usize,
    dir: PathBuf,
    /// An `Arc<TableSet<G>>` for the `G` of `rules`.
    set: Arc<dyn Any + Send + Sync>,
}

impl fmt::Debug for SharedTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SharedTables({}, {} pits, 1..={} seeds, {})",
            self.rules,
            self.pits,
            self.max_seeds,
            self.dir.display()
        )
    }
}

impl SharedTables {
    /// Share an open set.
    pub fn new<G: TableGame>(set: Arc<TableSet<G>>) -> SharedTables {
        SharedTables {
            rules: set.game().table_game(),
            pits: set.pits(),
            max_seeds: set.max_seeds(),
            dir: set.dir().to_path_buf(),
            set,
        }
    }

    /// The tables of `rules` for `pits` pits per side that `dir` holds
    /// (every one from 1 seed up that is there); `None` when there are none,
    /// or when the game has no tables of that width.
    pub fn open_available(rules: Rules, dir: &Path, pits: usize) -> Result<Option<SharedTables>> {
        fn open<G: TableGame>(g: G, dir: &Path, pits: usize) -> Result<Option<SharedTables>> {
            if !g.table_pits_range().contains(&pits) {
                return Ok(None);
            }
            let set = TableSet::open_available(dir, g, pits)?;
            Ok((set.max_seeds() > 0).then(|| SharedTables::new(Arc::new(set))))
        }
        with_rules!(rules, g => open(g, dir, pits))
    }

    /// The set for the rule set `game` at `pits` pits per side; tables of
    /// another rule set or width are refused ([`Error::WrongTables`]).
    pub fn get<G: TableGame>(&self, game: G, pits: usize) -> Result<Arc<TableSet<G>>> {
        match self.set.clone().downcast::<TableSet<G>>() {
            Ok(set) => {
                set.check(game, pits)?;
                Ok(set)
            }
            Err(_) => Err(self.wrong_for(format!("{game}, {pits} pits per side"))),
        }
    }

    /// The set, when these are tables of the game type `G` (of any of its
    /// rule sets or widths: the caller checks them, as the solver does).
    pub fn typed<G: TableGame>(&self) -> Option<Arc<TableSet<G>>> {
        self.set.clone().downcast::<TableSet<G>>().ok()
    }

    /// The error for these tables given to a user of `asked`.
    pub fn wrong_for(&self, asked: impl fmt::Display) -> Error {
        Error::WrongTables {
            dir: self.dir.clone(),
            asked: asked.to_string(),
            found: match self.rules.rules_name() {
                Some(r) => format!("{} under {r} rules", self.rules.game_name()),
                None => self.rules.to_string(),
            },
        }
    }

    /// The rule set the tables were built under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Pits per side.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// The largest number of seeds (in play, or on the board) the tables
    /// cover.
    pub fn max_seeds(&self) -> usize {
        self.max_seeds
    }

    /// The table directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}
