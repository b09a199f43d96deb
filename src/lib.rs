//! # mancala
//!
//! Rules engine, endgame tables, solver and agents for the mancala family
//! (Kalah, Awari, Oware).
//!
//! - [`side`], [`sow`]: the two players, and the sowing core every game shares;
//! - [`kalah`]: Kalah(m, n) positions, rules, table builder, look-ups,
//!   verification, game graphs and a plain reference minimax;
//! - [`awari`]: the same for Awari and Oware (retrograde tables with cycles);
//! - [`tables`]: the dense position index, the table file format, its
//!   reader and writer, and the build driver;
//! - [`search`]: the Kalah solver (MTD(f), transposition table, futility,
//!   ETC, table probes, two threads);
//! - [`play`]: positions of any game behind one type, the agents, and
//!   matches and tournaments with statistics.
//!
//! ```
//! use mancala::kalah::{KalahRules, Position};
//!
//! let mut p = Position::start(6, 4).unwrap();
//! p.play_line("25-", KalahRules::Default).unwrap();
//! assert_eq!(p.stores(), [2, 0]);
//! ```

#![warn(missing_docs)]

pub mod awari;
pub mod error;
pub mod family;
pub mod game;
pub mod kalah;
pub mod notation;
pub mod play;
pub mod progress;
pub mod search;
pub mod side;
pub mod sow;
pub mod tables;

pub use error::{Error, Result};
