//! Kalah(m, n) under its three rule sets: positions and notation, the
//! rules, the packed move generator of the solver, the level-by-level table
//! builder (the Kalah game graph has no cycle) and its partitioned builds
//! for tables larger than the memory budget, table look-ups, table
//! verification, full game graphs and the plain reference minimax.

pub mod build;
pub mod game;
pub mod graph;
pub mod graph_store;
pub mod oracle;
pub mod packed;
pub mod partition;
pub mod perfect;
pub mod position;
pub mod reference;
pub mod rules;
pub mod state;
pub mod tables;
pub mod verify;
pub mod wide;

pub use position::Position;
pub use rules::KalahRules;
