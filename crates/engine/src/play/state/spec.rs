//! [`GameSpec`]: a game and its start, as the command line, the oracle and
//! the match runner name it (`kalah:6:4`, `awari:6:4`, ...).

use std::fmt;

use super::State;
use crate::error::{Error, Result};
use crate::family::Rules;

/// A game and its start position, as named on the command line:
/// `NAME:M:N` (M pits per side, N seeds per pit) with `:RULES` for a rule
/// set other than the default (`kalah:6:4`, `kalah:6:4:capture-needs-opposite`,
/// `awari:6:4`, `oware:5:3`).
///
/// ```
/// use mancala_solver::{GameSpec, KalahRules, Rules, Side};
///
/// let game: GameSpec = "kalah:6:4:capture-needs-opposite".parse()?;
/// assert_eq!(game.rules, Rules::Kalah(KalahRules::CaptureNeedsOpposite));
/// assert_eq!((game.pits, game.seeds), (6, 4));
/// assert_eq!(game.to_string(), "kalah:6:4:capture-needs-opposite");
///
/// // The start position, of any game behind one type.
/// let mut state = game.start();
/// assert_eq!((state.to_move(), state.seeds_on_board()), (Side::South, 48));
/// state.play(2).unwrap(); // the last seed lands in the store: South again
/// assert_eq!(state.to_move(), Side::South);
///
/// let awari: GameSpec = "awari:6:4".parse()?;
/// assert!(awari.can_repeat());
/// assert!("kalah:6".parse::<GameSpec>().is_err()); // the message says how to write it
/// # Ok::<(), mancala_solver::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The rule set.
    pub rules: Rules,
    /// Pits per side.
    pub pits: usize,
    /// Seeds per pit at the start.
    pub seeds: usize,
}

impl GameSpec {
    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Pits per side.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// Whether positions can repeat (Awari and Oware), so that a match needs
    /// the repetition rule and a ply cap. Kalah games cannot repeat.
    pub fn can_repeat(&self) -> bool {
        self.rules.can_repeat()
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.rules.game_name(), self.pits, self.seeds)?;
        match self.rules.rules_name() {
            Some(name) if name != "default" => write!(f, ":{name}"),
            _ => Ok(()),
        }
    }
}

impl std::str::FromStr for GameSpec {
    type Err = Error;

    /// Read through [`crate::GameName`] (one grammar and one message for
    /// every front end), then ask for the board: `NAME` and `NAME:RULES`
    /// are the game's default board.
    fn from_str(text: &str) -> Result<GameSpec> {
        let bad = |reason: String| Error::BadGame {
            text: text.to_string(),
            reason,
            forms: Rules::spec_forms(),
        };
        let name = crate::game_name::GameName::parse(text)?;
        let rules = name.rule_set().map_err(|e| bad(e.to_string()))?;
        let (pits, seeds) = match (name.pits, name.seeds) {
            (Some(m), Some(n)) => (m, n),
            (None, None) => rules.default_size(),
            _ => return Err(bad("give the pits per side and seeds per pit".into())),
        };
        if seeds == 0 {
            return Err(bad("at least one seed per pit".into()));
        }
        State::start(rules, pits, seeds).map_err(|e| bad(e.to_string()))?;
        Ok(GameSpec { rules, pits, seeds })
    }
}

impl GameSpec {
    /// The start position.
    pub fn start(&self) -> State {
        State::start(self.rules, self.pits, self.seeds).expect("checked when parsed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::awari::rules::AwariGame;
    use crate::kalah::rules::KalahRules;

    #[test]
    fn a_rule_set_named_as_the_registry_prints_it() {
        let g: GameSpec = "oware:grand-slam-captures-nothing:4:2".parse().unwrap();
        assert_eq!(
            g.rules,
            Rules::Awari(AwariGame::OwareGrandSlamCapturesNothing)
        );
        assert_eq!((g.pits, g.seeds), (4, 2));
        let g: GameSpec = "kalah:capture-needs-opposite".parse().unwrap();
        assert_eq!(g.rules, Rules::Kalah(KalahRules::CaptureNeedsOpposite));
        assert_eq!((g.pits, g.seeds), (6, 4));
        let same: GameSpec = "kalah:6:4:capture-needs-opposite".parse().unwrap();
        assert_eq!(same.rules, g.rules);
    }

    #[test]
    fn game_specs() {
        let g: GameSpec = "kalah:6:4".parse().unwrap();
        assert_eq!(g.to_string(), "kalah:6:4");
        assert_eq!(g.start().seeds_on_board(), 48);
        assert_eq!("kalah".parse::<GameSpec>().unwrap(), g);
        for (text, size) in [("vai-lung-thlan", "6:5"), ("ohvalhu", "8:8")] {
            let g: GameSpec = text.parse().unwrap();
            assert_eq!(g.to_string(), format!("{text}:{size}"));
            assert_eq!(g.to_string().parse::<GameSpec>().unwrap(), g);
        }
        let g: GameSpec = "kalah:4:3:capture-needs-opposite".parse().unwrap();
        assert_eq!(g.rules(), Rules::Kalah(KalahRules::CaptureNeedsOpposite));
        assert_eq!(g.to_string().parse::<GameSpec>().unwrap(), g);
        for (text, game) in [
            ("awari:6:4", AwariGame::Awari),
            ("Oware:3:2", AwariGame::Oware),
        ] {
            let g: GameSpec = text.parse().unwrap();
            assert_eq!(g.rules(), Rules::Awari(game));
            assert_eq!(g.to_string(), text.to_ascii_lowercase());
            assert!(g.can_repeat());
        }
        for bad in [
            "",
            "kalah:6",
            "kalah:x:4",
            "kalah:0:4",
            "kalah:6:0",
            "awari:6",
            "awari:1:4",
            "awari:7:4",
            "awari:6:4:capture-needs-opposite",
            "oware:6:22",
            "kalah:6:4:foo",
            "kalah:11:4",
            "chess:8:8",
        ] {
            let e = bad.parse::<GameSpec>().unwrap_err();
            assert!(e.is_usage(), "{bad}");
        }
    }
}
