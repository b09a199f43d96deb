//! The Kalah agents study's ten-term heuristic minimax (Hunter, 2021,
//! section 5.4), agent `heuristic10:D`, and its weights.
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
use super::{Agent, Choice};
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

/// The ten terms H1..H10 of `state` for the agent `me`, with the path
/// flags `flags` ([`H5`], [`H7`]).
pub fn terms(state: &State, me: Side, flags: Flags) -> [f64; 10] {
    let mine = if state.to_move() == me {
        state.mover_pits()
    } else {
        state.opponent_pits()
    };
    let scores = state.scores();
    let my = scores[side_index(me)] as f64;
    let opp = scores[1 - side_index(me)] as f64;
    let flag = |bit: Flags| if flags & bit != 0 { 1.0 } else { 0.0 };
    [
        mine.get(0) as f64,
        mine.sum() as f64,
        mine.non_empty() as f64,
        my,
        flag(H5),
        -opp,
        flag(H7),
        my - opp,
        if opp >= 5.0 { -1.5 * opp - my } else { 0.0 },
        if my >= 5.0 { 1.5 * my - opp } else { 0.0 },
    ]
}

/// V = sum of W_i H_i for the agent `me`.
#[inline]
pub fn eval(state: &State, me: Side, flags: Flags, weights: &Weights) -> f64 {
    terms(state, me, flags)
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

/// The agent's spec options after `heuristic10:D`: none, `run=N`,
/// `weights=FILE` or `w=a,b,...` (ten numbers). Reads the file.
pub fn parse_options(options: &[&str]) -> std::result::Result<(Weights, WeightSource), String> {
    match options {
        [] => Ok((TABLE_3[DEFAULT_RUN - 1].0, WeightSource::Run(DEFAULT_RUN))),
        [one] => {
            let (key, value) = one
                .split_once('=')
                .ok_or_else(|| format!("\"{one}\" is not run=N, weights=FILE or w=W1,...,W10"))?;
            match key {
                "run" => {
                    let run = value
                        .parse::<usize>()
                        .ok()
                        .filter(|r| (1..=TABLE_3.len()).contains(r))
                        .ok_or_else(|| format!("run \"{value}\" is not a run of table 3 (1-20)"))?;
                    Ok((TABLE_3[run - 1].0, WeightSource::Run(run)))
                }
                "weights" => {
                    let path = PathBuf::from(value);
                    let w = read_weights(&path).map_err(|e| e.to_string())?;
                    Ok((w, WeightSource::File(path)))
                }
                "w" => {
                    let w = parse_weights(value).map_err(|(_, reason)| {
                        format!(
                            "w=\"{value}\": {reason}; give ten numbers, e.g. w=0,0,0,1,0,0,0,0,0,0"
                        )
                    })?;
                    Ok((w, WeightSource::Inline))
                }
                _ => Err(format!(
                    "unknown option \"{key}\": use run=N, weights=FILE or w=W1,...,W10"
                )),
            }
        }
        _ => Err("heuristic10 takes one option: run=N, weights=FILE or w=W1,...,W10".to_string()),
    }
}

/// Write the spec of `heuristic10:depth` with its weights.
pub fn write_spec(
    f: &mut fmt::Formatter<'_>,
    depth: u32,
    weights: &Weights,
    source: &WeightSource,
) -> fmt::Result {
    write!(f, "heuristic10:{depth}")?;
    match source {
        WeightSource::Run(r) if *r == DEFAULT_RUN => Ok(()),
        WeightSource::Run(r) => write!(f, ":run={r}"),
        WeightSource::File(p) => write!(f, ":weights={}", p.display()),
        WeightSource::Inline => {
            let words: Vec<String> = weights.iter().map(|w| w.to_string()).collect();
            write!(f, ":w={}", words.join(","))
        }
    }
}

/// The study's max agent (Algorithm 2, spec `max`): the move that leaves
/// the most seeds in the agent's *own* store at the end of its turn (an
/// extra turn is followed with its best continuation, within
/// [`super::greedy::TURN_BUDGET`] positions), the opponent's store ignored
/// (`greedy` maximises the difference). Of equal moves it keeps the last
/// one scanned from the mover's left, as Algorithm 2's `>=` does.
#[derive(Debug, Default)]
pub struct MaxAgent;

/// The max agent's move in `state` and the store it reaches.
pub fn max_move(state: &State) -> (usize, u16) {
    let mut budget = super::greedy::TURN_BUDGET;
    max_turn(state, &mut budget)
}

fn max_turn(state: &State, budget: &mut u32) -> (usize, u16) {
    let me = side_index(state.to_move());
    let children = state.children();
    *budget = budget.saturating_sub(children.len() as u32);
    let mut best = (children.pit(0), 0);
    for i in 0..children.len() {
        let child = children.get(i);
        let value = if child.step.extra_turn && !child.step.game_over && *budget > 0 {
            max_turn(&child.state, budget).1
        } else {
            child.state.scores()[me]
        };
        if value >= best.1 {
            best = (child.pit, value);
        }
    }
    best
}

impl Agent for MaxAgent {
    fn name(&self) -> String {
        "max".to_string()
    }

    fn choose(&mut self, state: &State) -> Choice {
        let (pit, value) = max_move(state);
        Choice {
            pit,
            value: Some(value as f64),
            value_kind: "own store at the end of the turn",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::position::Position;
    use crate::kalah::rules::KalahRules;

    #[test]
    fn terms_of_a_position() {
        // South to move: pits 2 0 3, store 5; North pits 1 1 0, store 6.
        let p = Position::from_cells(&[2, 0, 3, 5, 1, 1, 0, 6], Side::South).unwrap();
        let s = State::Kalah(p, KalahRules::Default);
        let t = terms(&s, Side::South, H5 | H7);
        assert_eq!(t, [2.0, 5.0, 2.0, 5.0, 1.0, -6.0, 1.0, -1.0, -14.0, 1.5]);
        let t = terms(&s, Side::North, 0);
        assert_eq!(t, [1.0, 2.0, 2.0, 6.0, 0.0, -5.0, 0.0, 1.0, -13.5, 4.0]);
        let w = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0];
        assert_eq!(eval(&s, Side::North, 0, &w), 9.0);
    }

    #[test]
    fn max_agent_takes_its_own_store_and_the_last_tie() {
        // South: pits 0 0 1 2 (store 0); North 0 0 0 9 (store 0). Pit 2
        // sows into pit 3 (no seed stored); pit 3 sows 2: store +1 and North.
        let p = Position::from_cells(&[0, 0, 1, 2, 0, 0, 0, 0, 9, 0], Side::South).unwrap();
        let s = State::Kalah(p, KalahRules::Default);
        assert_eq!(max_move(&s).0, 3);
        // Every move equal (no capture without an opposite seed): the last
        // one scanned.
        let p = Position::from_cells(&[1, 1, 0, 0, 5, 0, 0, 0, 1, 0], Side::South).unwrap();
        let s = State::Kalah(p, KalahRules::CaptureNeedsOpposite);
        assert_eq!(max_move(&s), (1, 5));
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
