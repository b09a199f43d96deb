//! Awari and Oware: positions and notation, the rules (captures, grand
//! slam, feeding), the retrograde table builder that solves cycles, table
//! look-ups with forcing best moves, verification (Bellman equation and
//! forcing check) and the plain reference solver.

pub mod build;
pub mod game;
pub mod oracle;
pub mod perfect;
pub mod position;
pub mod reference;
pub mod rules;
pub mod state;
pub mod tables;
pub mod verify;

pub use position::AwariPosition;
pub use rules::AwariGame;
pub use state::AwariState;
