//! # mancala
//!
//! Rules engine, endgame tables, solver and agents for the mancala family:
//! Kalah(m, n) under three rule sets, Awari, Oware (and its variant),
//! Awale, Vai Lung Thlan and Ohvalhu ([`Rules::ALL`]). Exact values you
//! can trust, for researchers, players and teachers.
//!
//! Every rule set implements one trait, [`Game`], and the registry
//! [`Rules`] names them all; the tables of any game are a [`TableSet`]
//! (opened by memory map, built on demand); [`solve`] solves Kalah
//! positions above the tables; the [`oracle::Oracle`] answers any game by
//! name (books, then tables, then search), as the command line, the HTTP
//! server and the Python package do; [`play`] has the agents
//! ([`play::agents::Agent`]) and the match runner. Most programs start
//! from [`prelude`]. `ARCHITECTURE.md` has the map, and the book of the
//! repository (`docs/`) the rest.
//!
//! Value a Kalah position from its tables (built on first use), then solve
//! it with the search:
//!
//! ```
//! use mancala_solver::{solve, BuildSettings, Game, KalahRules, OnDemand, SolveOptions, TableGame, TableSet};
//!
//! let dir = std::env::temp_dir().join("mancala-doc-kalah");
//! let rules = KalahRules::Default;
//! // Three pits per side, 7 seeds in play, stores 0 and 0, South to move.
//! let pos = rules.parse("1 0 2 0 3 1 0 0").unwrap();
//! let k = KalahRules::table_seeds(&pos);
//! let tables = TableSet::open_or_build(
//!     &dir, rules, 3, k, &OnDemand::UpTo(1_000_000), &BuildSettings::default(),
//! ).unwrap();
//! let value = tables.value(&pos).unwrap();
//! for mv in tables.move_values(&pos).unwrap() {
//!     assert!(mv.value <= value); // no move is worth more than the position
//! }
//! let solution = solve(&pos, Some(&tables), &SolveOptions::default()).unwrap();
//! assert_eq!(solution.value, value);
//! assert!(solution.exact);
//! ```
//!
//! The same for an Awari board, whose tables solve cycles (endless play is
//! worth 0):
//!
//! ```
//! use mancala_solver::{AwariGame, BuildSettings, Game, OnDemand, TableSet};
//!
//! let dir = std::env::temp_dir().join("mancala-doc-awari");
//! let game = AwariGame::Awari;
//! let pos = game.start(3, 2).unwrap(); // Awari with 3 pits, 2 seeds each
//! let tables = TableSet::open_or_build(
//!     &dir, game, 3, 12, &OnDemand::UpTo(10_000_000), &BuildSettings::default(),
//! ).unwrap();
//! let value = tables.value(&pos).unwrap();
//! let best = tables.move_values(&pos).unwrap().iter().map(|m| m.value).max();
//! assert_eq!(best, Some(value));
//! let line = tables.principal_variation(&pos).unwrap();
//! let mut end = pos;
//! game.play_line(&mut end, &line.moves).unwrap(); // the line replays
//! ```
//!
//! Modules:
//!
//! - [`game`]: the family trait ([`Game`]); [`family`]: the registry of
//!   rule sets by name ([`Rules`], the [`with_rules!`] dispatch);
//! - [`kalah`], [`awari`] (Awari, Oware, Awale), [`ohvalhu`],
//!   [`vai_lung_thlan`]: each game's positions, rules, table builder,
//!   verification and plain reference solver;
//! - [`tables`]: the table files of every game (the dense index, the file
//!   format, reader and writer, tables in memory, the build driver);
//!   [`tablebase`]: the game-level layer on top ([`TableSet`],
//!   [`TableGame`], the shared sets, the generic builder and verifier);
//! - [`search`]: the Kalah solver (MTD(f), transposition table, futility,
//!   ETC, table probes, two threads, checkpoints), Awari's search above
//!   the tables, and proofs split into tasks with a ledger
//!   ([`search::prove`]);
//! - [`book`]: the opening books, compiled from proof ledgers;
//! - [`oracle`]: any game's positions, values and agents' moves by name;
//! - [`play`]: positions of any game behind one type ([`GameSpec`]), the
//!   agents, matches, tournaments and grades with statistics, the tuner;
//! - [`learn`]: the A3C agent's network and its self-play training;
//! - [`assignment`]: the course assignment's program and its files;
//! - [`side`], [`sow`], [`moves`], [`notation`], [`progress`], [`error`],
//!   [`rng`], [`threads`], [`atomic`], [`files`]: what every game and front
//!   end shares (sides, sowing, the move record, the notation, progress
//!   callbacks, typed errors, the seeded generator, thread counts, atomic
//!   writes, bounded reads).

#![warn(missing_docs)]

pub mod assignment;
pub mod atomic;
pub mod awari;
pub mod book;
pub mod clock;
pub mod error;
pub mod family;
pub mod files;
pub mod game;
pub mod game_name;
pub mod kalah;
pub mod learn;
pub mod moves;
pub mod notation;
pub mod ohvalhu;
pub mod oracle;
pub mod play;
pub mod progress;
pub mod rng;
pub mod search;
pub mod side;
pub mod sow;
pub mod tablebase;
pub mod tables;
pub mod threads;
pub mod vai_lung_thlan;

pub use awari::{AwariGame, AwariPosition};
pub use error::{Error, Result};
pub use family::Rules;
pub use game::{Game, PlayError, Step};
pub use game_name::GameName;
pub use kalah::{KalahRules, Position};
pub use play::state::GameSpec;
pub use progress::{Event, Observer};
pub use search::{solve, Solution, SolveOptions};
pub use side::Side;
pub use tablebase::{BuildSettings, OnDemand, TableGame, TableSet};
pub use tablebase::{Line, MoveValue};

/// The types most programs start from, in one `use`:
///
/// ```
/// use mancala_solver::prelude::*;
///
/// let rules = KalahRules::Default;
/// let start = Position::start(4, 3)?;
/// let solution = solve(&start, None, &SolveOptions { rules, ..SolveOptions::default() })?;
/// assert!(solution.exact);
/// // The books compiled in answer openings without a search.
/// let _ = Books::embedded().value(rules, &start);
/// # Ok::<(), Error>(())
/// ```
pub mod prelude {
    pub use crate::awari::{AwariGame, AwariPosition};
    pub use crate::book::{Book, Books};
    pub use crate::error::{Error, Result};
    pub use crate::family::Rules;
    pub use crate::game::{Game, PlayError, Step};
    pub use crate::kalah::{KalahRules, Position};
    pub use crate::oracle::{Oracle, OracleConfig};
    pub use crate::play::state::GameSpec;
    pub use crate::progress::{Event, Observer};
    pub use crate::search::prove::Ledger;
    pub use crate::search::{solve, Solution, SolveOptions};
    pub use crate::side::Side;
    pub use crate::tablebase::{BuildSettings, OnDemand, TableGame, TableSet};
}

/// The crate README's Rust example runs as a doc test, so that it stays
/// true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;
