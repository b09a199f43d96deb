//! Playing games: a position of any game behind one type ([`state`]), the
//! agents, and the match and tournament runner ([`arena`], its report
//! [`report`]).

pub mod agents;
pub mod arena;
pub mod grade;
pub mod pits;
pub mod report;
pub mod state;
pub mod stats;
pub mod tournament;
pub mod tune;
pub mod tune_file;
