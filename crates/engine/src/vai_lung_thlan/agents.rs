//! Vai Lung Thlan for the agents and the oracle: its state on Kalah's
//! board, never with an empty mover row unless the game is over
//! ([`PlayGame`]), the perfect agent's search over the rules
//! ([`PerfectPlay`], [`crate::play::agents::perfect::generic`]), and no search above the tables for the
//! oracle ([`SearchAbove`]: it answers inside its tables).

use crate::clock::Instant;

use crate::kalah::position::Position;
use crate::kalah::state::BoardState;
use crate::oracle::SearchAbove;
use crate::play::agents::perfect::generic::{search, Engine};
use crate::play::agents::perfect::PerfectPlay;
use crate::play::agents::{Choice, Stop};
use crate::play::state::PlayGame;
use crate::tablebase::TableSet;
use crate::vai_lung_thlan::VaiLungThlan;

impl PlayGame for VaiLungThlan {
    type State = BoardState<VaiLungThlan>;

    fn state_of(self, mut pos: Position) -> BoardState<VaiLungThlan> {
        self.normalize(&mut pos);
        BoardState::new(pos, self)
    }

    fn position_of(state: &BoardState<VaiLungThlan>) -> Option<Position> {
        Some(*state.position())
    }
}

impl PerfectPlay for VaiLungThlan {
    type Engine = Engine<VaiLungThlan>;

    fn search_choice(
        self,
        engine: &mut Self::Engine,
        tables: Option<&TableSet<Self>>,
        pos: &Position,
        deadline: Instant,
        stop: &Stop,
    ) -> Choice {
        search(self, engine, tables, pos, deadline, stop)
    }
}

impl SearchAbove for VaiLungThlan {}
