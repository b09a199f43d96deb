//! Table files for every game: the dense position index, the file format,
//! its reader and writer, tables decoded into memory, and the build driver
//! every builder runs under. The game-level layer on top (the table set of
//! a rule set, generic build and verify) is [`crate::game`].

pub mod driver;
pub mod format;
pub mod index;
pub mod lock;
mod memory;
pub mod partial;
pub mod reader;
pub mod spec;
pub mod writer;

pub use format::prefetch;
pub use reader::Table;
pub use spec::TableSpec;
pub use writer::{write_table, TableWriter, WriteInfo};

/// Largest number of pits per side for tables and the solver.
pub const MAX_TABLE_PITS: usize = 6;
