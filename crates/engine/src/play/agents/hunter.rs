//! The Kalah agents study's ten-term heuristic minimax (Hunter, 2021,
//! section 5.4), agent `heuristic10:D`, and its weights (the study's max
//! agent is [`super::max`]).
//!
//! The value of a node for the agent is V = W1 H1 + ... + W10 H10, with
//! the terms as the study's Algorithm 4 computes them at the node:
//!
//! | term | value |
//! |---|---|
//! | H1 | seeds in the agent's leftmost pit |
//! | H2 | seeds in all the agent's pits |
//! | H3 | the agent's non-empty pits |
//! | H4 | the agent's store |
//! | H5 | 1 when the move that led to the node was the agent's, from its rightmost pit |
//! | H6 | minus the opponent's store |
//! | H7 | 1 when the move that led to the node was the agent's and earned it another move |
//! | H8 | the agent's store minus the opponent's |
//! | H9 | minus 1.5 times the opponent's store, minus the agent's store, when the opponent has at least 5 (else 0) |
//! | H10 | 1.5 times the agent's store minus the opponent's, when the agent has at least 5 (else 0) |
//!
//! Readings of the study's text, written down here:
//!
//! - H6 and H10 carry their sign in the term, as Algorithm 4 writes them
//!   ("H6 = - store(opponent)"), so every weight of table 3 is positive.
//! - H7, "maximize repeat turns", is Algorithm 4's "doMove is not
//!   terminal" flag read as the prose defines it: the last seed of the
//!   agent's move fell in its store.
//! - H9 is Algorithm 4's formula, `-(store(opponent) * 1.5) -
//!   store(player)`, although the prose ("how close the player is to
//!   winning", at 1.5 times the opponent's store) suggests
//!   `store(player) - 1.5 store(opponent)`: the formula penalises the
//!   agent's own store, and the study's own results bear it out (H9 alone
//!   is among the weakest heuristics of its table 2, and no run of table 3
//!   gives W9 more than 0.4). `docs/study-004.md` compares both readings.
//! - Depth counts single moves, extra-turn moves included, as in every
//!   search agent of the project; the agent
//!   ([`super::search::MinimaxAgent`] on [`super::search::Eval::Heuristic10`])
//!   plays the leftmost of the best root moves, so it is deterministic (matches between deterministic
//!   agents open with random moves).
//!
//! The default weights are run 19 of the study's table 3 (the highest
//! fitness, 68.7); `run=N` takes another run, `weights=FILE` a file written
//! by `mancala tune heuristic10` (or by hand: ten numbers), `w=a,b,...`
//! ten weights inline (`w=0,0,0,1,0,0,0,0,0,0` is H4 alone, as in the
//! study's table 2).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::side::{side_index, Side};

use super::eval::{Flags, H5, H7};
use crate::play::state::State;

/// Ten weights W1..W10.
pub type Weights = [f64; 10];

/// The study's table 3: the weights of the 20 genetic-algorithm runs, each
/// with its fitness (%).
pub const TABLE_3: [(Weights, f64); 20] = [
    (
        [
            0.322, 0.124, 0.442, 1.0, 0.665, 0.657, 0.776, 0.585, 0.127, 0.263,
        ],
        57.3,
    ),
    (
        [
            0.136, 0.195, 0.671, 1.0, 0.561, 0.548, 0.848, 0.676, 0.278, 0.371,
        ],
        58.4,
    ),
    (
        [
            0.356, 0.303, 0.366, 1.0, 0.413, 0.669, 0.943, 0.639, 0.153, 0.159,
        ],
        59.5,
    ),
    (
        [
            0.046, 0.286, 0.438, 1.0, 0.659, 0.656, 0.741, 1.0, 0.116, 0.112,
        ],
        59.7,
    ),
    (
        [
            0.301, 0.163, 0.526, 1.0, 0.428, 0.887, 0.984, 0.829, 0.392, 0.399,
        ],
        63.9,
    ),
    (
        [
            0.274, 0.0, 0.418, 1.0, 0.462, 1.0, 0.855, 0.452, 0.391, 0.366,
        ],
        60.3,
    ),
    (
        [
            0.354, 0.197, 0.325, 1.0, 0.491, 0.621, 1.0, 0.754, 0.272, 0.257,
        ],
        61.4,
    ),
    (
        [
            0.245, 0.285, 0.398, 1.0, 0.673, 0.584, 0.969, 0.167, 0.319, 0.378,
        ],
        61.2,
    ),
    (
        [
            0.379, 0.376, 0.714, 1.0, 0.632, 0.797, 0.991, 0.0, 0.219, 0.159,
        ],
        60.7,
    ),
    (
        [
            0.225, 0.283, 0.576, 1.0, 0.644, 0.778, 0.936, 0.987, 0.229, 0.214,
        ],
        64.9,
    ),
    (
        [
            0.148, 0.212, 0.777, 1.0, 0.637, 0.629, 0.814, 0.654, 0.128, 0.384,
        ],
        62.1,
    ),
    (
        [
            0.142, 0.081, 0.474, 1.0, 0.653, 0.512, 0.715, 0.594, 0.246, 0.247,
        ],
        59.9,
    ),
    (
        [
            0.121, 0.324, 0.434, 1.0, 0.466, 0.514, 0.824, 0.632, 0.314, 0.125,
        ],
        58.3,
    ),
    (
        [
            0.021, 0.241, 0.339, 1.0, 0.599, 0.642, 0.825, 0.586, 0.261, 0.382,
        ],
        60.5,
    ),
    (
        [
            0.136, 0.078, 0.317, 1.0, 0.437, 0.579, 0.768, 0.993, 0.194, 0.375,
        ],
        60.9,
    ),
    (
        [
            0.123, 0.124, 0.314, 1.0, 0.413, 0.532, 1.0, 0.914, 0.122, 0.339,
        ],
        64.3,
    ),
    (
        [
            0.212, 0.388, 0.393, 1.0, 0.664, 0.527, 0.957, 0.467, 0.365, 0.326,
        ],
        65.2,
    ),
    (
        [
            0.336, 0.132, 0.682, 1.0, 0.696, 0.667, 0.748, 0.229, 0.111, 0.229,
        ],
        68.6,
    ),
    (
        [
            0.225, 0.122, 0.654, 1.0, 0.484, 0.694, 0.918, 0.667, 0.194, 0.297,
        ],
        68.7,
    ),
    (
        [
            0.234, 0.266, 0.465, 1.0, 0.415, 0.527, 0.962, 0.332, 0.349, 0.329,
        ],
        66.2,
    ),
];

/// The run of table 3 whose weights `heuristic10:D` uses by default (the
/// highest fitness).
pub const DEFAULT_RUN: usize = 19;

/// How two of the ten terms are read, where the study's text and its
/// Algorithm 4 part (`heuristic10:D:h9=...:h10=...`; the default is
/// Algorithm 4 as written).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Readings {
    /// H9: Algorithm 4's formula or the prose's.
    pub h9: H9,
    /// H10: the sign of Algorithm 4's formula, or the text's "negative
    /// value associated with this heuristic".
    pub h10: H10,
}

/// The two readings of H9, when the opponent has at least 5 seeds stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum H9 {
    /// `-(store(opponent) * 1.5) - store(player)`, as Algorithm 4 writes it
    /// (`h9=formula`).
    #[default]
    Formula,
    /// "How close the player is to winning", at 1.5 times the opponent's
    /// store: `store(player) - 1.5 store(opponent)` (`h9=prose`).
    Prose,
}

/// The two readings of H10's sign.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum H10 {
    /// `1.5 store(player) - store(opponent)`, as Algorithm 4 writes it
    /// (`h10=plus`).
    #[default]
    Plus,
    /// The same term negated, the text's "negative value associated with
    /// this heuristic" (`h10=minus`).
    Minus,
}

/// The ten terms H1..H10 of `state` for the agent `me`, with the path
/// flags `flags` ([`H5`], [`H7`]), read as Algorithm 4 writes them.
pub fn terms(state: &State, me: Side, flags: Flags) -> [f64; 10] {
    terms_read(state, me, flags, Readings::default())
}

/// [`terms`] under the readings `r`.
pub fn terms_read(state: &State, me: Side, flags: Flags, r: Readings) -> [f64; 10] {
    let mine = if state.to_move() == me {
        state.mover_pits()
    } else {
        state.opponent_pits()
    };
    let scores = state.scores();
    let my = scores[side_index(me)] as f64;
    let opp = scores[1 - side_index(me)] as f64;
    let flag = |bit: Flags| if flags & bit != 0 { 1.0 } else { 0.0 };
    let h9 = match (opp >= 5.0, r.h9) {
        (false, _) => 0.0,
        (true, H9::Formula) => -1.5 * opp - my,
        (true, H9::Prose) => my - 1.5 * opp,
    };
    let h10 = if my >= 5.0 { 1.5 * my - opp } else { 0.0 };
    [
        mine.get(0) as f64,
        mine.sum() as f64,
        mine.non_empty() as f64,
        my,
        flag(H5),
        -opp,
        flag(H7),
        my - opp,
        h9,
        if r.h10 == H10::Minus { -h10 } else { h10 },
    ]
}

/// V = sum of W_i H_i for the agent `me`.
#[inline]
pub fn eval(state: &State, me: Side, flags: Flags, weights: &Weights) -> f64 {
    eval_read(state, me, flags, weights, Readings::default())
}

/// [`eval`] under the readings `r`.
#[inline]
pub fn eval_read(state: &State, me: Side, flags: Flags, weights: &Weights, r: Readings) -> f64 {
    terms_read(state, me, flags, r)
        .iter()
        .zip(weights)
        .map(|(h, w)| h * w)
        .sum()
}

/// Where an agent's weights come from, as its spec names them.
#[derive(Clone, Debug, PartialEq)]
pub enum WeightSource {
    /// A run of table 3 (1-20).
    Run(usize),
    /// A weights file.
    File(PathBuf),
    /// Ten weights given inline.
    Inline,
}

/// Largest weights file read: ten numbers and their comments.
pub const MAX_WEIGHTS_FILE: u64 = 1 << 20;

/// Read a weights file: ten finite numbers separated by white space or
/// commas; `#` starts a comment.
pub fn read_weights(path: &Path) -> Result<Weights> {
    let bytes = crate::files::read_limited(path, MAX_WEIGHTS_FILE, "a weights file")?;
    let text = String::from_utf8(bytes).map_err(|_| Error::BadInputFile {
        path: path.to_path_buf(),
        line: 1,
        reason: "the file is not text (UTF-8); a weights file holds ten numbers, W1..W10".into(),
    })?;
    let text = crate::files::strip_bom(&text);
    parse_weights(text).map_err(|(line, reason)| Error::BadInputFile {
        path: path.to_path_buf(),
        line,
        reason: if text.trim().is_empty() {
            "the file is empty: a weights file holds ten numbers, W1..W10".to_string()
        } else {
            format!("{reason} (a weights file holds ten numbers, W1..W10)")
        },
    })
}

/// Parse ten weights from text; on error the line (from 1, 0 for the
/// whole text) and what is wrong.
pub fn parse_weights(text: &str) -> std::result::Result<Weights, (usize, String)> {
    let mut out = Vec::with_capacity(10);
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        for word in line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
        {
            let w = word
                .parse::<f64>()
                .ok()
                .filter(|w| w.is_finite())
                .ok_or_else(|| (n + 1, format!("\"{}\" is not a number", clip(word))))?;
            if out.len() == 10 {
                return Err((n + 1, "more than ten weights".to_string()));
            }
            out.push(w);
        }
    }
    if out.len() != 10 {
        let reason = match out.len() {
            0 => "no weights".to_string(),
            n => format!("{n} weights, not ten"),
        };
        return Err((0, reason));
    }
    let mut w = [0.0; 10];
    w.copy_from_slice(&out);
    Ok(w)
}

fn clip(word: &str) -> String {
    word.chars().take(20).collect()
}

/// Write weights in the file format [`read_weights`] reads, with a
/// comment line first.
pub fn format_weights(weights: &Weights, comment: &str) -> String {
    let mut out = String::new();
    for line in comment.lines() {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    let words: Vec<String> = weights.iter().map(|w| format!("{w:.6}")).collect();
    out.push_str(&words.join(" "));
    out.push('\n');
    out
}

/// Which of equally valued best root moves `heuristic10:D` plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ties {
    /// The leftmost (deterministic; the default).
    #[default]
    Leftmost,
    /// A random one (`ties=random`), as the first Kalah study's players
    /// "order equivalent moves randomly".
    Random,
}

/// What a `heuristic10:D` spec sets besides its depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Heuristic10Options {
    /// W1..W10.
    pub weights: Weights,
    /// Where the weights came from.
    pub source: WeightSource,
    /// How H9 and H10 are read.
    pub readings: Readings,
    /// Which of equal best moves is played.
    pub ties: Ties,
}

/// The agent's spec options after `heuristic10:D`, in any order: at most
/// one of `run=N`, `weights=FILE` or `w=a,b,...` (ten numbers; run 19 when
/// none), and `h9=formula|prose`, `h10=plus|minus`, `ties=left|random`.
/// Reads the file.
pub fn parse_options(options: &[&str]) -> std::result::Result<Heuristic10Options, String> {
    let mut out = Heuristic10Options {
        weights: TABLE_3[DEFAULT_RUN - 1].0,
        source: WeightSource::Run(DEFAULT_RUN),
        readings: Readings::default(),
        ties: Ties::default(),
    };
    let mut seen: Vec<&str> = Vec::new();
    for one in options {
        let (key, value) = one.split_once('=').ok_or_else(|| {
            format!(
                "\"{one}\" is not run=N, weights=FILE, w=W1,...,W10, h9=..., h10=... or ties=..."
            )
        })?;
        let slot = if matches!(key, "run" | "weights" | "w") {
            "weights"
        } else {
            key
        };
        if seen.contains(&slot) {
            return Err(match slot {
                "weights" => {
                    "heuristic10 takes one of run=N, weights=FILE or w=W1,...,W10".to_string()
                }
                _ => format!("heuristic10 takes {key}= once"),
            });
        }
        seen.push(slot);
        match (key, value) {
            ("run", _) => {
                let run = value
                    .parse::<usize>()
                    .ok()
                    .filter(|r| (1..=TABLE_3.len()).contains(r))
                    .ok_or_else(|| format!("run \"{value}\" is not a run of table 3 (1-20)"))?;
                out.weights = TABLE_3[run - 1].0;
                out.source = WeightSource::Run(run);
            }
            ("weights", _) => {
                let path = PathBuf::from(value);
                out.weights = read_weights(&path).map_err(|e| e.to_string())?;
                out.source = WeightSource::File(path);
            }
            ("w", _) => {
                out.weights = parse_weights(value).map_err(|(_, reason)| {
                    format!("w=\"{value}\": {reason}; give ten numbers, e.g. w=0,0,0,1,0,0,0,0,0,0")
                })?;
                out.source = WeightSource::Inline;
            }
            ("h9", "formula") => out.readings.h9 = H9::Formula,
            ("h9", "prose") => out.readings.h9 = H9::Prose,
            ("h10", "plus") => out.readings.h10 = H10::Plus,
            ("h10", "minus") => out.readings.h10 = H10::Minus,
            ("ties", "left") => out.ties = Ties::Leftmost,
            ("ties", "random") => out.ties = Ties::Random,
            ("h9" | "h10" | "ties", _) => {
                let choices = match key {
                    "h9" => "formula or prose",
                    "h10" => "plus or minus",
                    _ => "left or random",
                };
                return Err(format!("{key}=\"{value}\": use {key}={choices}"));
            }
            _ => {
                return Err(format!(
                    "unknown option \"{key}\": use run=N, weights=FILE or w=W1,...,W10, \
                     h9=formula|prose, h10=plus|minus, ties=left|random"
                ))
            }
        }
    }
    Ok(out)
}

/// Write the spec of `heuristic10:depth` with its options (those at their
/// default left out).
pub fn write_spec(f: &mut fmt::Formatter<'_>, depth: u32, o: &Heuristic10Options) -> fmt::Result {
    write!(f, "heuristic10:{depth}")?;
    match &o.source {
        WeightSource::Run(r) if *r == DEFAULT_RUN => {}
        WeightSource::Run(r) => write!(f, ":run={r}")?,
        WeightSource::File(p) => write!(f, ":weights={}", p.display())?,
        WeightSource::Inline => {
            let words: Vec<String> = o.weights.iter().map(|w| w.to_string()).collect();
            write!(f, ":w={}", words.join(","))?
        }
    }
    if o.readings.h9 == H9::Prose {
        f.write_str(":h9=prose")?;
    }
    if o.readings.h10 == H10::Minus {
        f.write_str(":h10=minus")?;
    }
    if o.ties == Ties::Random {
        f.write_str(":ties=random")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::position::Position;
    use crate::kalah::rules::KalahRules;
    use crate::play::state::Playable;

    #[test]
    fn terms_of_a_position() {
        // South to move: pits 2 0 3, store 5; North pits 1 1 0, store 6.
        let p = Position::from_cells(&[2, 0, 3, 5, 1, 1, 0, 6], Side::South).unwrap();
        let s = KalahRules::Default.state(p);
        let t = terms(&s, Side::South, H5 | H7);
        assert_eq!(t, [2.0, 5.0, 2.0, 5.0, 1.0, -6.0, 1.0, -1.0, -14.0, 1.5]);
        let t = terms(&s, Side::North, 0);
        assert_eq!(t, [1.0, 2.0, 2.0, 6.0, 0.0, -5.0, 0.0, 1.0, -13.5, 4.0]);
        let w = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0];
        assert_eq!(eval(&s, Side::North, 0, &w), 9.0);
    }

    #[test]
    fn weights_files() {
        let w = parse_weights("# tuned\n0.1 0.2, 0.3\n0.4 0.5 0.6 0.7 0.8 0.9 1\n").unwrap();
        assert_eq!(w[9], 1.0);
        assert_eq!(parse_weights(&format_weights(&w, "a\nb")).unwrap(), w);
        assert_eq!(parse_weights("1 2 3").unwrap_err().0, 0);
        assert_eq!(parse_weights("1 2 3\n4 x").unwrap_err().0, 2);
        assert!(parse_weights("1 2 3 4 5 6 7 8 9 10 11").is_err());
        assert!(parse_weights("1 2 3 4 5 6 7 8 9 NaN").is_err());
    }

    #[test]
    fn table_3_rows_have_h4_at_one() {
        assert!(TABLE_3.iter().all(|(w, _)| w[3] == 1.0));
        assert_eq!(TABLE_3[DEFAULT_RUN - 1].1, 68.7);
    }
}
