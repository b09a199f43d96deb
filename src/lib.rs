//! # mancala
//!
//! Rules engine, endgame tables, solver and agents for the mancala family
//! (Kalah, Awari, Oware).
//!
//! - [`rules`]: one sowing core, the Kalah capture and end rules, and the
//!   Awari and Oware rules ([`rules::awari`]);
//! - [`position`]: Kalah positions, notation, parsing, display, move lines;
//! - [`awari_position`]: Awari and Oware positions, notation, move lines;
//! - [`index`]: dense rank/unrank of positions with k seeds in play;
//! - [`table`]: the table file format and its memory-mapped reader;
//! - [`tablebase`]: the tables of one game and board width, position look-ups
//!   ([`tablebase::awari`] for Awari and Oware boards, with best moves that
//!   force progress where boards repeat);
//! - [`build`]: the parallel table builders (Kalah; [`build::awari`]:
//!   retrograde analysis with cycles for Awari and Oware);
//! - [`verify`]: re-deriving table entries from their children
//!   ([`verify::awari`] also checks that no value rests on a cycle);
//! - [`search`]: the solver (MTD(f), transposition table, futility, ETC,
//!   table probes, two threads);
//! - [`graph`]: full game graphs of small Kalah instances, valued from the tables;
//! - [`game`]: Kalah, Awari and Oware positions behind one enum, for the
//!   agents and the match runner;
//! - [`agents`]: agents from random play to the table-backed perfect agent;
//! - [`arena`]: matches and tournaments between agents, with statistics;
//! - [`reference`](mod@reference): an independent plain minimax used to check the tables.
//!
//! ```
//! use mancala::{position::Position, rules::KalahRules};
//!
//! let mut p = Position::start(6, 4).unwrap();
//! p.play_line("25-", KalahRules::Default).unwrap();
//! assert_eq!(p.stores(), [2, 0]);
//! ```

#![warn(missing_docs)]

pub mod agents;
pub mod arena;
pub mod awari_position;
pub mod build;
pub mod error;
pub mod game;
pub mod graph;
pub mod index;
pub mod position;
pub mod reference;
pub mod rules;
pub mod search;
pub mod table;
pub mod tablebase;
pub mod verify;

pub use error::{Error, Result};
