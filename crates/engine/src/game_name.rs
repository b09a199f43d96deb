//! [`GameName`]: the one reader of a game's name, `NAME[:M[:N]][:RULES]`,
//! with what it leaves out left open. [`crate::GameSpec`] reads its text
//! with it (and asks for the board); the command line reads its games'
//! names with it (the board may come apart, or not at all).

use crate::error::{Error, Result};
use crate::family::Rules;

/// A game as named, the board and the rule set when given:
/// `kalah`, `kalah:6`, `kalah:6:4`, `kalah:6:4:capture-needs-opposite`,
/// `kalah:capture-needs-opposite`, `awari:6:4`; the registry's own form of
/// a rule set (`oware:grand-slam-captures-nothing:4:2`, the rule set before
/// the board) is read too.
///
/// ```
/// use mancala_solver::GameName;
///
/// let g = GameName::parse("Kalah:6:capture-needs-opposite")?;
/// assert_eq!((g.name.as_str(), g.pits, g.seeds), ("kalah", Some(6), None));
/// assert_eq!(g.rules.as_deref(), Some("capture-needs-opposite"));
/// let e = GameName::parse("kalah:x:4").unwrap_err();
/// assert!(e.to_string().contains("pits per side \"x\" is not a whole number"));
/// # Ok::<(), mancala_solver::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameName {
    /// The game's name, in lower case (one of [`Rules::game_names`]).
    pub name: String,
    /// Pits per side, when given.
    pub pits: Option<usize>,
    /// Seeds per pit, when given.
    pub seeds: Option<usize>,
    /// The rule set, when given (a name [`Rules::from_name`] takes for the
    /// game).
    pub rules: Option<String>,
}

impl GameName {
    /// Read `NAME[:M[:N]][:RULES]` (or `NAME:RULES:M:N`). A bad name is an
    /// [`Error::BadGame`] that says what is wrong and how to write it.
    pub fn parse(text: &str) -> Result<GameName> {
        let bad = |reason: String| Error::BadGame {
            text: text.to_string(),
            reason,
            forms: Rules::spec_forms(),
        };
        let mut parts: Vec<&str> = text.trim().split(':').collect();
        let name = parts[0].trim().to_ascii_lowercase();
        if !Rules::game_names().contains(&name.as_str()) {
            let reason = if name.is_empty() {
                "no game named".to_string()
            } else {
                format!("unknown game \"{}\"", crate::error::clip(&name))
            };
            return Err(bad(reason));
        }
        // A rule set's own name before the board (`NAME:RULES:M:N`, as the
        // registry prints it): read as `NAME:M:N:RULES`.
        if parts.len() == 4 {
            let second = parts[1].to_ascii_lowercase();
            if Rules::rule_names(&name).contains(&second.as_str()) {
                let rules = parts.remove(1);
                parts.push(rules);
            }
        }
        let mut g = GameName {
            name,
            pits: None,
            seeds: None,
            rules: None,
        };
        let last = parts.len() - 1;
        for (i, part) in parts.iter().enumerate().skip(1) {
            let slot = if g.pits.is_none() {
                "pits per side"
            } else {
                "seeds per pit"
            };
            match part.parse::<usize>() {
                Ok(n) if g.pits.is_none() => g.pits = Some(n),
                Ok(n) if g.seeds.is_none() => g.seeds = Some(n),
                // A number that is not a count (-3, 2.5) is not a rule set.
                Err(_) if i == last && !part.is_empty() && !looks_numeric(part) => {
                    g.rules = Some(part.to_string())
                }
                Err(_) if g.seeds.is_none() => {
                    return Err(bad(format!(
                        "{slot} \"{}\" is not a whole number",
                        crate::error::clip(part)
                    )))
                }
                _ => {
                    return Err(bad(format!(
                        "too many parts for {}: \"{}\" after the seeds per pit",
                        g.name,
                        crate::error::clip(part)
                    )))
                }
            }
        }
        if let Some(r) = &g.rules {
            Rules::from_name(&g.name, Some(r)).map_err(|e| bad(e.to_string()))?;
        }
        Ok(g)
    }

    /// The rule set it names (the game's default when it names none).
    pub fn rule_set(&self) -> Result<Rules> {
        Rules::from_name(&self.name, self.rules.as_deref())
    }
}

/// Whether `part` of a game's name was meant as a number (`-3`, `2.5`,
/// `+4`), not a rule set's name.
fn looks_numeric(part: &str) -> bool {
    part.trim_start_matches(['-', '+'])
        .starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_and_without_their_parts() {
        let g = GameName::parse("kalah").unwrap();
        assert_eq!((g.pits, g.seeds, g.rules), (None, None, None));
        let g = GameName::parse("kalah:6").unwrap();
        assert_eq!((g.pits, g.seeds), (Some(6), None));
        let g = GameName::parse(" awari:4:3 ").unwrap();
        assert_eq!(
            (g.name.as_str(), g.pits, g.seeds),
            ("awari", Some(4), Some(3))
        );
        let g = GameName::parse("kalah:capture-needs-opposite").unwrap();
        assert_eq!(g.rules.as_deref(), Some("capture-needs-opposite"));
        assert_eq!(g.pits, None);
        let g = GameName::parse("oware:grand-slam-captures-nothing:4:2").unwrap();
        assert_eq!((g.pits, g.seeds), (Some(4), Some(2)));
        assert_eq!(g.rules.as_deref(), Some("grand-slam-captures-nothing"));
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        for (text, words) in [
            ("chess:8:8", "unknown game \"chess\""),
            ("", "no game named"),
            ("kalah:x:4", "pits per side \"x\" is not a whole number"),
            (
                "kalah:6:y:default",
                "seeds per pit \"y\" is not a whole number",
            ),
            ("kalah:-3", "pits per side \"-3\" is not a whole number"),
            ("kalah:6:4:5", "too many parts for kalah"),
            ("kalah:6:4:nonesuch", "unknown rules \"nonesuch\""),
            ("awari:6:4:capture-needs-opposite", "capture-needs-opposite"),
        ] {
            let e = GameName::parse(text).unwrap_err();
            assert!(matches!(e, Error::BadGame { .. }), "{text}: {e}");
            assert!(e.is_usage());
            let m = e.to_string();
            assert!(m.contains(words), "{text}: {m}");
            assert!(m.contains("whole numbers"), "{text}: {m}");
        }
    }
}
