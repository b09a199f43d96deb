//! The registry: every rule set of the family, by name, for the front
//! ends. Generic code is written over [`crate::game::Game`] (and
//! [`crate::tablebase::TableGame`] for the tables); [`Rules`] names a rule
//! set at run time and [`with_rules!`](crate::with_rules) calls generic
//! code with the concrete rule set. What a rule set is called, its default
//! board, its table ids and layout are asked of its `Game` impl: this file
//! only lists the rule sets ([`Rules::ALL`]) and dispatches.
//!
//! Adding a rule set of an existing game type is one line of
//! [`Rules::ALL`]; a new game type adds a variant of [`Rules`], its arm in
//! `with_rules!`, its line in `for_each_game!` and its line in `ALL`.

use std::fmt;

use crate::awari::rules::AwariGame;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::kalah::rules::KalahRules;
use crate::tables::index::Layout;
use crate::vai_lung_thlan::{VaiLungThlan, VltReading};

/// A game of the family and its rule set, whatever the board size: the
/// registry of every rule set the library serves. Tables carry it in their
/// header ([`crate::tables::TableSpec`]).
///
/// Pick a rule set by name, and reach its concrete game type with
/// [`with_rules!`](crate::with_rules) (one arm for every game):
///
/// ```
/// use mancala_solver::{with_rules, Game, KalahRules, Rules};
///
/// let rules = Rules::from_name("kalah", Some("capture-needs-opposite"))?;
/// assert_eq!(rules, Rules::Kalah(KalahRules::CaptureNeedsOpposite));
/// assert_eq!(rules.to_string(), "kalah:capture-needs-opposite");
/// assert_eq!(Rules::from_name("awari", None)?.default_size(), (6, 4));
/// assert!(Rules::from_name("chess", None).is_err()); // the message names the games
///
/// // Every rule set the library serves, each game's default first.
/// assert!(Rules::ALL.contains(&rules));
/// for &r in Rules::ALL {
///     let (pits, seeds) = r.default_size();
///     let moves = with_rules!(r, g => {
///         let start = g.start(pits, seeds)?;
///         g.legal_moves(&start).len()
///     });
///     assert!(moves > 0, "{r}: the start has a move");
/// }
/// # Ok::<(), mancala_solver::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Kalah under the given rules.
    Kalah(KalahRules),
    /// Awari, Oware or Awale (boards without stores, values from the seeds
    /// on the board, endless play counting 0).
    Awari(AwariGame),
    /// Ohvalhu's first round (Kalah's board, relay sowing; no cycles).
    Ohvalhu,
    /// Vai Lung Thlan (captures of single seeds on both sides; cycles),
    /// the default reading of its rules.
    VaiLungThlan,
    /// Vai Lung Thlan under another reading of its rules (no tables).
    VaiLungThlanReading(VltReading),
}

/// Call generic code with the concrete rule set of a [`Rules`]:
/// `with_rules!(rules, g => run(g, ...))` runs `run::<KalahRules>` for
/// Kalah, `run::<AwariGame>` for Awari and Oware, and so on.
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
            $crate::family::Rules::VaiLungThlanReading(r) => {
                let $g = $crate::vai_lung_thlan::VaiLungThlan::read_as(r);
                $body
            }
        }
    };
}

/// The game types, each once: `for_each_game!(m)` calls the macro `m`
/// (in scope where `for_each_game!` is called) with every game type as
/// `Variant => type`, for code generated over all of them, as
/// [`crate::play::state::State`], whose variants and delegation come from
/// this list. A game type with a board besides its position type names
/// it after it, `[Variant => board type]` (Kalah's two-byte cells): the
/// board's state for the agents (its `PlayBoard::State`, in the game's
/// folder) is a variant of its own, so that the byte board's state reads
/// one tag. A new game type adds its line here and its arm in
/// [`with_rules!`](crate::with_rules).
#[macro_export]
macro_rules! for_each_game {
    ($m:ident) => {
        $m! {
            Kalah => $crate::kalah::rules::KalahRules [
                KalahWide => $crate::kalah::wide::WidePosition,
            ],
            Awari => $crate::awari::rules::AwariGame,
            Ohvalhu => $crate::ohvalhu::Ohvalhu,
            VaiLungThlan => $crate::vai_lung_thlan::VaiLungThlan,
        }
    };
}

impl Rules {
    /// Every rule set the library serves, each game's default rule set
    /// first. Names, help texts, menus and the contract tests are made
    /// from this list.
    pub const ALL: &'static [Rules] = &[
        Rules::Kalah(KalahRules::Default),
        Rules::Kalah(KalahRules::CaptureNeedsOpposite),
        Rules::Kalah(KalahRules::EndWhenMoverEmpty),
        Rules::Awari(AwariGame::Awari),
        Rules::Awari(AwariGame::Oware),
        Rules::Awari(AwariGame::Awale),
        Rules::Awari(AwariGame::OwareGrandSlamCapturesNothing),
        Rules::Awari(AwariGame::AwariGrandSlamCapturesNothing),
        Rules::VaiLungThlan,
        Rules::VaiLungThlanReading(VltReading::SkipOrigin),
        Rules::VaiLungThlanReading(VltReading::ChainOwnRow),
        Rules::VaiLungThlanReading(VltReading::PlayToEnd),
        Rules::Ohvalhu,
    ];

    /// The game names, each once, in the order of [`Rules::ALL`] (`kalah`,
    /// `awari`, `oware`, ...).
    pub fn game_names() -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for r in Rules::ALL {
            if !out.contains(&r.game_name()) {
                out.push(r.game_name());
            }
        }
        out
    }

    /// The rule sets of the game named `game` (one for most games).
    pub fn of_game(game: &str) -> Vec<Rules> {
        Rules::ALL
            .iter()
            .copied()
            .filter(|r| r.game_name() == game)
            .collect()
    }

    /// The names of the rule sets of the game named `game` when it has
    /// several (`default` for the one without a name); empty when it has
    /// one.
    pub fn rule_names(game: &str) -> Vec<&'static str> {
        let sets = Rules::of_game(game);
        if sets.len() < 2 {
            return Vec::new();
        }
        sets.iter()
            .map(|r| r.rules_name().unwrap_or("default"))
            .collect()
    }

    /// How the games are named with their board, for messages and help:
    /// `kalah:M:N[:RULES] (RULES: default, ...), awari:M:N, ...`.
    pub fn spec_forms() -> String {
        Rules::game_names()
            .into_iter()
            .map(|g| match Rules::rule_names(g).as_slice() {
                [] => format!("{g}:M:N"),
                names => format!("{g}:M:N[:RULES] (RULES: {})", names.join(", ")),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub(crate) fn game_id(self) -> u8 {
        with_rules!(self, g => Game::table_ids(g).0)
    }

    pub(crate) fn rules_id(self) -> u8 {
        with_rules!(self, g => Game::table_ids(g).1)
    }

    /// The index layout the game's tables use ([`Game::table_layout`]).
    pub fn layout(self) -> Layout {
        with_rules!(self, g => Game::table_layout(g))
    }

    /// Short name used in file names and messages (`kalah-default`,
    /// `awari`).
    pub fn name(self) -> String {
        match self.rules_name() {
            Some(r) => format!("{}-{r}", self.game_name()),
            None => self.game_name().to_string(),
        }
    }

    /// The largest share stored for `k` seeds: `k` when values have the
    /// seeds' parity (Kalah, Ohvalhu), `2k` otherwise.
    pub fn max_share(self, k: usize) -> usize {
        k * 2 / self.value_scale() as usize
    }

    /// How many value units one share step is worth: `value = scale * j - k`
    /// ([`Game::value_scale`]).
    pub(crate) fn value_scale(self) -> i32 {
        with_rules!(self, g => Game::value_scale(g))
    }

    /// The share stored for `value` with `k` seeds (the value must be one
    /// the game can have: `-k..=k`, and of k's parity for Kalah).
    pub fn share_of_value(self, value: i32, k: usize) -> u8 {
        let j = (value + k as i32) / self.value_scale();
        debug_assert!((0..=self.max_share(k) as i32).contains(&j));
        j as u8
    }

    /// What a table header's ids name, for messages.
    pub(crate) fn describe(game: u8, rules: u8) -> String {
        if let Some(r) = Rules::ALL
            .iter()
            .find(|r| (r.game_id(), r.rules_id()) == (game, rules))
        {
            return match r.rules_name() {
                Some(name) => format!("{} under {name} rules", r.game_name()),
                None => r.game_name().to_string(),
            };
        }
        match Rules::ALL.iter().find(|r| r.game_id() == game) {
            Some(r) => format!("{} under unknown rules id {rules}", r.game_name()),
            None => format!("unknown game id {game}"),
        }
    }

    /// The rule set named `game` (`kalah`, `awari`, `oware`, ...) with the
    /// rule set `rules` where the game has several (Kalah: `default`,
    /// `capture-needs-opposite`, `end-when-mover-empty`; Vai Lung Thlan:
    /// `default`, `skip-origin`, `chain-own-row`, `play-to-end`; `None` is
    /// the default).
    pub fn from_name(game: &str, rules: Option<&str>) -> Result<Rules> {
        let game_l = game.trim().to_ascii_lowercase();
        let sets = Rules::of_game(&game_l);
        let Some(&first) = sets.first() else {
            return Err(Error::UnknownGame {
                name: game.to_string(),
                games: Rules::game_names().join(", "),
            });
        };
        let Some(asked) = rules else {
            return Ok(first);
        };
        if let Some(&r) = sets
            .iter()
            .find(|r| r.rules_name().unwrap_or("default") == asked)
        {
            return Ok(r);
        }
        if first.rules_name().is_some() {
            // The game has several rule sets: name them.
            Err(Error::UnknownRules(asked.to_string()))
        } else if sets.len() > 1 {
            Err(Error::UnknownReading {
                rules: asked.to_string(),
                game: first.to_string(),
                names: Rules::rule_names(&game_l).join(", "),
            })
        } else {
            Err(Error::RulesNotFor {
                rules: asked.to_string(),
                game: first.to_string(),
            })
        }
    }

    /// The game's name (`kalah`, `awari`, `oware`), as [`Game::name`].
    pub fn game_name(self) -> &'static str {
        with_rules!(self, g => Game::name(g))
    }

    /// The rule set's name when the game has several (`default`, ...), as
    /// [`Game::rules_name`].
    pub fn rules_name(self) -> Option<&'static str> {
        with_rules!(self, g => Game::rules_name(g))
    }

    /// The board a bare game name means ([`Game::default_size`]).
    pub fn default_size(self) -> (usize, usize) {
        with_rules!(self, g => Game::default_size(g))
    }

    /// Whether positions can repeat, so that a match needs a ply cap
    /// ([`Game::can_repeat`]).
    pub fn can_repeat(self) -> bool {
        with_rules!(self, g => Game::can_repeat(g))
    }

    /// Whether a match ends a game when a position comes back
    /// ([`Game::ends_on_repetition`]).
    pub fn ends_on_repetition(self) -> bool {
        with_rules!(self, g => Game::ends_on_repetition(g))
    }

    /// Whether a game stopped at the match's ply cap is a draw whatever the
    /// scores ([`Game::cap_is_draw`]).
    pub fn cap_is_draw(self) -> bool {
        with_rules!(self, g => Game::cap_is_draw(g))
    }

    /// Whether an exact search values positions above the tables
    /// ([`Game::has_exact_search`]).
    pub fn has_exact_search(self) -> bool {
        with_rules!(self, g => Game::has_exact_search(g))
    }
}

impl fmt::Display for Rules {
    /// The game with its rule set when not the default
    /// (`kalah:capture-needs-opposite`), else the game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rules_name() {
            Some(r) if r != "default" => write!(f, "{}:{r}", self.game_name()),
            _ => f.write_str(self.game_name()),
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

impl From<crate::ohvalhu::Ohvalhu> for Rules {
    fn from(_: crate::ohvalhu::Ohvalhu) -> Rules {
        Rules::Ohvalhu
    }
}

/// The registry's name of a Vai Lung Thlan reading.
impl From<VaiLungThlan> for Rules {
    fn from(g: VaiLungThlan) -> Rules {
        match g.reading {
            Some(r) => Rules::VaiLungThlanReading(r),
            None => Rules::VaiLungThlan,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_is_named_once_and_parses_back() {
        let mut seen = std::collections::HashSet::new();
        for &r in Rules::ALL {
            assert!(seen.insert(r.to_string()), "{r} twice");
            assert_eq!(Rules::from_name(r.game_name(), r.rules_name()).unwrap(), r);
            assert!(seen.insert(r.name()) || r.name() == r.to_string());
            assert_eq!(
                Rules::describe(r.game_id(), r.rules_id()).split(' ').next(),
                Some(r.game_name())
            );
        }
        let ids: std::collections::HashSet<_> = Rules::ALL
            .iter()
            .map(|r| (r.game_id(), r.rules_id()))
            .collect();
        assert_eq!(ids.len(), Rules::ALL.len(), "table ids are unique");
        assert!(Rules::from_name("chess", None).unwrap_err().is_usage());
        assert!(Rules::from_name("awari", Some("x")).is_err());
        assert!(Rules::from_name("kalah", Some("x")).is_err());
    }
}
