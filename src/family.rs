//! The registry: every rule set of the family, by name, for the front
//! ends. Generic code is written over [`crate::game::Game`]; [`Rules`] names a rule set
//! at run time and [`with_rules!`](crate::with_rules) calls generic code
//! with the concrete rule set. Adding a game is implementing [`crate::game::Game`] for
//! its rule-set type and adding one variant here (with its arm in
//! `with_rules!`, its name in [`Rules::from_name`] and its ids).

use std::fmt;

use crate::awari::rules::AwariGame;
use crate::error::{Error, Result};
use crate::kalah::rules::KalahRules;
use crate::ohvalhu::Ohvalhu;
use crate::tables::index::Layout;
use crate::vai_lung_thlan::VaiLungThlan;

/// A game of the family and its rule set, whatever the board size: the
/// registry of every rule set the library serves. Tables carry it in their
/// header ([`crate::tables::TableSpec`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Kalah under the given rules.
    Kalah(KalahRules),
    /// Awari or Oware (boards without stores, values from the seeds on the
    /// board, endless play counting 0).
    Awari(AwariGame),
    /// Ohvalhu's first round (Kalah's board, relay sowing; no cycles).
    Ohvalhu,
    /// Vai Lung Thlan (captures of single seeds on both sides; cycles).
    VaiLungThlan,
}

impl Rules {
    pub(crate) fn game_id(self) -> u8 {
        match self {
            Rules::Kalah(_) => 1,
            Rules::Awari(g) => g.id(),
            Rules::Ohvalhu => Ohvalhu::ID,
            Rules::VaiLungThlan => VaiLungThlan::ID,
        }
    }

    pub(crate) fn rules_id(self) -> u8 {
        match self {
            Rules::Kalah(r) => r.id(),
            _ => 0,
        }
    }

    /// The index layout the game's tables use. Awari and Oware tables hold
    /// every board whose mover row is non-empty (a board with an empty
    /// mover row ends the game: the opponent takes every seed), and so do
    /// Ohvalhu's (the same end) and Vai Lung Thlan's (the mover passes: the
    /// other side's board, the sign turned).
    pub fn layout(self) -> Layout {
        match self {
            Rules::Kalah(r) if r.plays_on_with_empty_opponent_row() => Layout::MoverRowNonEmpty,
            Rules::Kalah(_) => Layout::BothRowsNonEmpty,
            Rules::Awari(_) | Rules::Ohvalhu | Rules::VaiLungThlan => Layout::MoverRowNonEmpty,
        }
    }

    /// Short name used in file names and messages.
    pub fn name(self) -> String {
        match self {
            Rules::Kalah(r) => format!("kalah-{}", r.name()),
            Rules::Awari(g) => g.name().to_string(),
            Rules::Ohvalhu => Ohvalhu::NAME.to_string(),
            Rules::VaiLungThlan => VaiLungThlan::NAME.to_string(),
        }
    }

    /// The largest share stored for `k` seeds: `k` for Kalah and Ohvalhu
    /// (the value has k's parity), `2k` for the Awari family and Vai Lung
    /// Thlan.
    pub fn max_share(self, k: usize) -> usize {
        k * 2 / self.value_scale() as usize
    }

    /// How many value units one share step is worth: `value = scale * j - k`.
    pub(crate) fn value_scale(self) -> i32 {
        match self {
            Rules::Kalah(_) | Rules::Ohvalhu => 2,
            Rules::Awari(_) | Rules::VaiLungThlan => 1,
        }
    }

    /// The share stored for `value` with `k` seeds (the value must be one
    /// the game can have: `-k..=k`, and of k's parity for Kalah).
    pub fn share_of_value(self, value: i32, k: usize) -> u8 {
        let j = (value + k as i32) / self.value_scale();
        debug_assert!((0..=self.max_share(k) as i32).contains(&j));
        j as u8
    }

    pub(crate) fn describe(game: u8, rules: u8) -> String {
        if let Some(g) = AwariGame::from_id(game) {
            return g.name().to_string();
        }
        match game {
            Ohvalhu::ID => return Ohvalhu::NAME.to_string(),
            VaiLungThlan::ID => return VaiLungThlan::NAME.to_string(),
            _ => {}
        }
        match (game, KalahRules::from_id(rules)) {
            (1, Some(r)) => format!("kalah under {r} rules"),
            (1, None) => format!("kalah under unknown rules id {rules}"),
            _ => format!("unknown game id {game}"),
        }
    }
}

/// Call generic code with the concrete rule set of a [`Rules`]:
/// `with_rules!(rules, g => run(g, ...))` runs `run::<KalahRules>` for
/// Kalah, `run::<AwariGame>` for Awari and Oware.
#[macro_export]
macro_rules! with_rules {
    ($rules:expr, $g:ident => $body:expr) => {
        match $rules {
            $crate::family::Rules::Kalah($g) => $body,
            $crate::family::Rules::Awari($g) => $body,
            $crate::family::Rules::Ohvalhu => {
                let $g = $crate::ohvalhu::Ohvalhu;
                $body
            }
            $crate::family::Rules::VaiLungThlan => {
                let $g = $crate::vai_lung_thlan::VaiLungThlan;
                $body
            }
        }
    };
}

/// The game names the registry knows, for messages and help.
pub const GAME_NAMES: [&str; 6] = [
    "kalah",
    "awari",
    "oware",
    "awale",
    "vai-lung-thlan",
    "ohvalhu",
];

impl Rules {
    /// The rule set named `game` (`kalah`, `awari`, `oware`) with the rule
    /// set `rules` where the game has several (Kalah: `default`,
    /// `capture-needs-opposite`, `end-when-mover-empty`; `None` is the
    /// default).
    pub fn from_name(game: &str, rules: Option<&str>) -> Result<Rules> {
        let game_l = game.trim().to_ascii_lowercase();
        match game_l.as_str() {
            "kalah" => Ok(Rules::Kalah(match rules {
                Some(r) => r.parse()?,
                None => KalahRules::Default,
            })),
            Ohvalhu::NAME | VaiLungThlan::NAME => {
                let g = if game_l == Ohvalhu::NAME {
                    Rules::Ohvalhu
                } else {
                    Rules::VaiLungThlan
                };
                match rules {
                    None | Some("default") => Ok(g),
                    Some(r) => Err(Error::RulesNotFor {
                        rules: r.to_string(),
                        game: g.to_string(),
                    }),
                }
            }
            other => match AwariGame::from_name(other) {
                Some(g) => match rules {
                    None | Some("default") => Ok(Rules::Awari(g)),
                    Some(r) => Err(Error::RulesNotFor {
                        rules: r.to_string(),
                        game: g.to_string(),
                    }),
                },
                None => Err(Error::Unsupported(format!(
                    "unknown game \"{game}\": the games are {}",
                    GAME_NAMES.join(", ")
                ))),
            },
        }
    }

    /// The game's name (`kalah`, `awari`, `oware`), as
    /// [`crate::game::Game::name`].
    pub fn game_name(self) -> &'static str {
        match self {
            Rules::Kalah(_) => "kalah",
            Rules::Awari(g) => g.name(),
            Rules::Ohvalhu => Ohvalhu::NAME,
            Rules::VaiLungThlan => VaiLungThlan::NAME,
        }
    }

    /// The rule set's name when the game has several (`default`, ...), as
    /// [`crate::game::Game::rules_name`].
    pub fn rules_name(self) -> Option<&'static str> {
        match self {
            Rules::Kalah(r) => Some(r.name()),
            _ => None,
        }
    }

    /// The board a bare game name means (`kalah`: Kalah(6,4);
    /// `vai-lung-thlan`: 6 pits of 5 seeds; `ohvalhu`: 8 pits of 8).
    pub fn default_size(self) -> (usize, usize) {
        match self {
            Rules::VaiLungThlan => (6, 5),
            Rules::Ohvalhu => (8, 8),
            _ => (6, 4),
        }
    }

    /// Whether positions can repeat, so that a match needs a ply cap (the
    /// Awari family, Vai Lung Thlan).
    pub fn can_repeat(self) -> bool {
        matches!(self, Rules::Awari(_) | Rules::VaiLungThlan)
    }

    /// Whether a match ends a game when a position comes back (Awari,
    /// Oware, Vai Lung Thlan; Awale has only its move cap).
    pub fn ends_on_repetition(self) -> bool {
        match self {
            Rules::Awari(g) => g.ends_on_repetition(),
            Rules::VaiLungThlan => true,
            _ => false,
        }
    }

    /// Whether a game stopped at the match's ply cap is a draw whatever the
    /// scores (Awale, as the study scores it); otherwise the seeds left are
    /// split evenly and the scores decide.
    pub fn cap_is_draw(self) -> bool {
        matches!(self, Rules::Awari(AwariGame::Awale))
    }
}

impl fmt::Display for Rules {
    /// `kalah` with its rule set when not the default (`kalah:capture-needs-opposite`), else the game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rules::Kalah(KalahRules::Default) => f.write_str("kalah"),
            Rules::Kalah(r) => write!(f, "kalah:{r}"),
            Rules::Awari(g) => write!(f, "{g}"),
            Rules::Ohvalhu => f.write_str(Ohvalhu::NAME),
            Rules::VaiLungThlan => f.write_str(VaiLungThlan::NAME),
        }
    }
}

impl From<KalahRules> for Rules {
    fn from(r: KalahRules) -> Rules {
        Rules::Kalah(r)
    }
}

impl From<AwariGame> for Rules {
    fn from(g: AwariGame) -> Rules {
        Rules::Awari(g)
    }
}
