//! Ohvalhu for the agents and the oracle: its state on Kalah's board
//! ([`PlayGame`]), the perfect agent's search over the rules
//! ([`PerfectPlay`], [`crate::play::agents::perfect::generic`]), and no search above the tables for the
//! oracle ([`SearchAbove`]: it answers inside its tables).

use crate::clock::Instant;

use crate::kalah::position::Position;
use crate::kalah::state::BoardState;
use crate::ohvalhu::Ohvalhu;
use crate::oracle::SearchAbove;
use crate::play::agents::perfect::generic::{search, Engine};
use crate::play::agents::perfect::PerfectPlay;
use crate::play::agents::{Choice, Stop};
use crate::play::state::PlayGame;
use crate::tablebase::TableSet;

impl PlayGame for Ohvalhu {
    type State = BoardState<Ohvalhu>;

    fn state_of(self, pos: Position) -> BoardState<Ohvalhu> {
        BoardState::new(pos, self)
    }

    fn position_of(state: &BoardState<Ohvalhu>) -> Option<Position> {
        Some(*state.position())
    }
}

impl PerfectPlay for Ohvalhu {
    type Engine = Engine<Ohvalhu>;

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

impl SearchAbove for Ohvalhu {}
