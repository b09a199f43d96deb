//! Endgame tables for every game of the family: the dense position index,
//! the file format, its reader and writer, tables decoded into memory, and
//! the build driver that every builder runs under.

pub mod build;
pub mod driver;
pub mod format;
pub mod index;
mod memory;
pub mod reader;
pub mod set;
pub mod spec;
pub mod verify;
pub mod writer;

pub use reader::{prefetch, Table};
pub use set::{BuildSettings, OnDemand, TableSet, DEFAULT_ON_DEMAND};
pub use spec::TableSpec;
pub use writer::{write_table, WriteInfo};

/// Largest number of pits per side for tables and the solver.
pub const MAX_TABLE_PITS: usize = 6;
