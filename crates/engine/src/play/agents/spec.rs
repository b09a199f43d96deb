//! Agent specs: how agents are named on the command line, parsed, printed
//! and built.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::*;
use crate::error::{Error, Result};
use crate::play::state::Rules;
use crate::tablebase::SharedTables;

/// An agent as named on the command line. Parse with [`str::parse`]; the
/// [`fmt::Display`] form parses back to the same spec. New agents come
/// with new variants, so a `match` outside the crate ends with a wildcard.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AgentSpec {
    /// `random`.
    Random,
    /// `greedy`.
    Greedy,
    /// `max[:ties=last|first|random][:extra=follow|stop]`: the Kalah
    /// agents study's max agent ([`max::MaxAgent`]).
    Max(max::MaxOptions),
    /// `minimax:D`: plain minimax to depth D.
    Minimax(u32),
    /// `alphabeta:D`: alpha-beta to depth D (same moves as minimax).
    AlphaBeta(u32),
    /// `alphabeta:D:ties=random`: alpha-beta to depth D playing a random
    /// move among the equally valued best ones, as the first Kalah study's
    /// players that "order equivalent moves randomly"
    /// ([`search::RandomTiesAgent`]).
    AlphaBetaRandomTies(u32),
    /// `heuristic:D`: alpha-beta on the published weighted heuristics.
    Heuristic(u32),
    /// `heuristic10:D[:run=N|:weights=FILE|:w=W1,...,W10][:h9=..][:h10=..][:ties=..]`:
    /// alpha-beta on the Kalah agents study's ten heuristics ([`hunter`]).
    Heuristic10 {
        /// Search depth in plies.
        depth: u32,
        /// Its weights, their source, the readings of H9 and H10, its ties.
        options: hunter::Heuristic10Options,
    },
    /// `mcts:BUDGET[:c=C][:playout=random|eps-greedy|heavy][:eps=E][:expand=X]`.
    Mcts {
        /// Iterations or time per move.
        budget: Budget,
        /// UCT exploration constant.
        uct: f64,
        /// Play-out policy.
        playout: Playout,
        /// Epsilon-greedy expansion with this epsilon (`expand=X`); `None`
        /// expands a random untried move.
        expand: Option<f64>,
    },
    /// `rovaris-greedy[:ties=left|right]`: the five-game study's greedy
    /// ([`rovaris`]).
    RovarisGreedy(rovaris::Ties),
    /// `rovaris-heuristic:D[:h6=ply|reply|store]`: the five-game study's
    /// heuristic minimax ([`rovaris`]).
    RovarisHeuristic {
        /// Search depth in plies.
        depth: u32,
        /// How H6 is read.
        h6: rovaris::H6,
    },
    /// `rovaris-uct:BUDGET[:playout=random|greedy|eps-greedy][:eps=E]`:
    /// the five-game study's UCT ([`rovaris`]).
    RovarisUct {
        /// Iterations or time per move.
        budget: Budget,
        /// Play-out policy (greedy moves by the study's greedy).
        playout: Playout,
    },
    /// `perfect[:TIME]`: tables, then alpha-beta under TIME per move.
    Perfect(Duration),
    /// `eps-greedy:E`: the Awale study's epsilon-greedy agent (random with
    /// probability E).
    EpsGreedy(f64),
    /// `awale-mcts:BUDGET[:keep]`, `awale-uct:BUDGET[:c=C][:keep]`,
    /// `awale-heavy:BUDGET[:c=C][:keep]`: the Awale study's MCTS agents.
    StudyMcts {
        /// Iterations or time per move.
        budget: Budget,
        /// Random or UCT tree policy.
        tree: awale_study::TreePolicy,
        /// Heavy play-outs (weights 1 + captures).
        heavy: bool,
        /// The tree kept between moves (`:keep`).
        keep: bool,
    },
    /// `a3c[:FILE]`: the A3C network, shipped weights or FILE's ([`a3c`]).
    A3c(Option<std::path::PathBuf>),
}

/// Largest search depth accepted in a spec.
pub const MAX_DEPTH: u32 = 64;

impl AgentSpec {
    /// Whether the agent always plays the same move in the same position
    /// (time budgets aside). Matches between two deterministic agents start
    /// with random moves so that the games differ.
    pub fn is_deterministic(&self) -> bool {
        matches!(
            self,
            AgentSpec::Greedy
                | AgentSpec::RovarisGreedy(_)
                | AgentSpec::Minimax(_)
                | AgentSpec::AlphaBeta(_)
                | AgentSpec::Perfect(_)
                | AgentSpec::A3c(_)
        ) || matches!(self, AgentSpec::Max(o) if o.is_deterministic())
            || matches!(self, AgentSpec::Heuristic10 { options, .. } if options.ties == hunter::Ties::Leftmost)
    }

    /// Whether the agent reads endgame tables.
    pub fn uses_tables(&self) -> bool {
        matches!(self, AgentSpec::Perfect(_))
    }

    /// Whether the agent can play from `start`: the perfect agent needs a
    /// board its tables and exact search hold (at most
    /// [`crate::kalah::position::MAX_SEEDS`] seeds), every other agent plays
    /// any board, wide Kalah included.
    pub fn check_start(&self, start: &State) -> Result<()> {
        if let AgentSpec::A3c(file) = self {
            return a3c::check_state(&*a3c::weights_of(file.as_deref())?, start);
        }
        if self.uses_tables() && start.is_wide() {
            return Err(Error::Unsupported(format!(
                "{self} cannot play this {}-seed board: the perfect agent's tables and exact search \
                 hold at most {} seeds; use alphabeta:D, heuristic:D or mcts:BUDGET here",
                start.seeds_on_board() + start.scores().iter().map(|&s| s as usize).sum::<usize>(),
                crate::kalah::position::MAX_SEEDS
            )));
        }
        Ok(())
    }

    /// Build the agent for a game under `rules`, seeded with `seed`. The
    /// `tables` are used by the perfect agent and ignored by the others;
    /// tables of another game or rule set are refused
    /// ([`Error::WrongTables`]), tables for another board width are never
    /// used on this one.
    pub fn build(
        &self,
        rules: Rules,
        tables: Option<SharedTables>,
        seed: u64,
    ) -> Result<Box<dyn Agent>> {
        self.build_with_stop(rules, tables, seed, Stop::never())
    }

    /// [`AgentSpec::build`], the agent ending its thinking early once
    /// `stop` is raised (see [`Stop`]: the move it then plays is legal but
    /// not considered). The agents that search poll it; the others answer
    /// at once anyway.
    pub fn build_with_stop(
        &self,
        rules: Rules,
        tables: Option<SharedTables>,
        seed: u64,
        stop: Stop,
    ) -> Result<Box<dyn Agent>> {
        let name = self.to_string();
        let rng = crate::rng::seeded(seed);
        Ok(match *self {
            AgentSpec::Random => Box::new(random::RandomAgent::new(rng)),
            AgentSpec::Greedy => Box::new(greedy::GreedyAgent::new()),
            AgentSpec::Max(o) => Box::new(max::MaxAgent::new(o, rng)),
            AgentSpec::Minimax(d) => {
                Box::new(search::MinimaxAgent::new(d, false, name).with_stop(stop))
            }
            AgentSpec::AlphaBeta(d) => {
                Box::new(search::MinimaxAgent::new(d, true, name).with_stop(stop))
            }
            AgentSpec::AlphaBetaRandomTies(d) => {
                Box::new(search::RandomTiesAgent::new(d, rng, name).with_stop(stop))
            }
            AgentSpec::Heuristic(d) => Box::new(
                search::HeuristicAgent::new(d, search::Eval::Heuristic, rng, name).with_stop(stop),
            ),
            AgentSpec::Heuristic10 { depth, ref options } => {
                let eval = search::Eval::Heuristic10(options.weights, options.readings);
                match options.ties {
                    hunter::Ties::Leftmost => Box::new(
                        search::MinimaxAgent::with_eval(depth, true, eval, name).with_stop(stop),
                    ),
                    hunter::Ties::Random => Box::new(
                        search::RandomTiesAgent::new(depth, rng, name)
                            .with_eval(eval)
                            .with_stop(stop),
                    ),
                }
            }
            AgentSpec::RovarisGreedy(ties) => Box::new(rovaris::GreedyAgent { ties }),
            AgentSpec::RovarisHeuristic { depth, h6 } => {
                let eval = search::Eval::Rovaris(h6);
                Box::new(search::HeuristicAgent::new(depth, eval, rng, name).with_stop(stop))
            }
            AgentSpec::RovarisUct { budget, playout } => {
                Box::new(rovaris::uct(budget, playout, rng, name).with_stop(stop))
            }
            AgentSpec::Mcts {
                budget,
                uct,
                playout,
                expand,
            } => Box::new(
                mcts::MctsAgent::new(budget, uct, playout, rng, name)
                    .with_expand(expand)
                    .with_stop(stop),
            ),
            AgentSpec::EpsGreedy(eps) => Box::new(awale_study::EpsGreedyAgent::new(eps, rng)),
            AgentSpec::StudyMcts {
                budget,
                tree,
                heavy,
                keep,
            } => Box::new(
                awale_study::StudyMcts::new(budget, tree, heavy, rng, name)
                    .with_stop(stop)
                    .keeping_tree(keep),
            ),
            AgentSpec::A3c(ref file) => {
                let weights = a3c::weights_of(file.as_deref())?;
                if let Rules::Kalah(r) = rules {
                    let l = weights.layout;
                    weights.check_game(r, l.pits, 2 * l.pits * l.seeds)?;
                } else {
                    return Err(Error::Unsupported(format!(
                        "the a3c agent's network was trained for {} only",
                        weights.layout.game_name()
                    )));
                }
                Box::new(a3c::A3cAgent::new(weights, name))
            }
            AgentSpec::Perfect(time) => perfect::build(rules, tables, time, name, stop)?,
        })
    }

    /// How the perfect agent plays in a game given whether tables for it
    /// are loaded, for reports: `None` for the other agents.
    pub fn perfect_mode(&self, tables_loaded: bool) -> Option<&'static str> {
        match self {
            AgentSpec::Perfect(_) if tables_loaded => Some("tables, then search"),
            AgentSpec::Perfect(_) => Some("search only"),
            _ => None,
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::Max(o) => write!(f, "{o}"),
            AgentSpec::Minimax(d) => write!(f, "minimax:{d}"),
            AgentSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            AgentSpec::AlphaBetaRandomTies(d) => write!(f, "alphabeta:{d}:ties=random"),
            AgentSpec::Heuristic(d) => write!(f, "heuristic:{d}"),
            AgentSpec::Heuristic10 { depth, options } => hunter::write_spec(f, *depth, options),
            AgentSpec::RovarisGreedy(rovaris::Ties::Left) => f.write_str("rovaris-greedy"),
            AgentSpec::RovarisGreedy(rovaris::Ties::Right) => {
                f.write_str("rovaris-greedy:ties=right")
            }
            AgentSpec::RovarisHeuristic { depth, h6 } => {
                write!(f, "rovaris-heuristic:{depth}")?;
                match h6 {
                    rovaris::H6::Ply => Ok(()),
                    rovaris::H6::Reply => f.write_str(":h6=reply"),
                    rovaris::H6::Store => f.write_str(":h6=store"),
                }
            }
            AgentSpec::RovarisUct { budget, playout } => {
                write!(f, "rovaris-uct:{budget}")?;
                write_playout(f, playout)
            }
            AgentSpec::Mcts {
                budget,
                uct,
                playout,
                expand,
            } => {
                write!(f, "mcts:{budget}")?;
                if *uct != DEFAULT_UCT {
                    write!(f, ":c={uct}")?;
                }
                write_playout(f, playout)?;
                match expand {
                    Some(e) => write!(f, ":expand={e}"),
                    None => Ok(()),
                }
            }
            AgentSpec::Perfect(t) => write!(f, "perfect:{}", format_duration(*t)),
            AgentSpec::A3c(None) => f.write_str("a3c"),
            AgentSpec::A3c(Some(file)) => write!(f, "a3c:{}", file.display()),
            AgentSpec::EpsGreedy(e) => write!(f, "eps-greedy:{e}"),
            AgentSpec::StudyMcts {
                budget,
                tree,
                heavy,
                keep,
            } => {
                match (tree, heavy) {
                    (awale_study::TreePolicy::Random, _) => write!(f, "awale-mcts:{budget}")?,
                    (awale_study::TreePolicy::Uct(c), heavy) => {
                        let name = if *heavy { "awale-heavy" } else { "awale-uct" };
                        write!(f, "{name}:{budget}")?;
                        if *c != awale_study::STUDY_UCT {
                            write!(f, ":c={c}")?;
                        }
                    }
                }
                if *keep {
                    f.write_str(":keep")?;
                }
                Ok(())
            }
        }
    }
}

fn write_playout(f: &mut fmt::Formatter<'_>, playout: &Playout) -> fmt::Result {
    match playout {
        Playout::Random => Ok(()),
        Playout::Heavy => f.write_str(":playout=heavy"),
        Playout::EpsilonGreedy(e) if *e == 0.0 => f.write_str(":playout=greedy"),
        Playout::EpsilonGreedy(e) => write!(f, ":playout=eps-greedy:eps={e}"),
    }
}

/// A spec refused: why, then the form of the agent it names, or every
/// agent's name when it names none.
fn bad_spec(text: &str, reason: impl fmt::Display) -> Error {
    let name = text.trim().split(':').next().unwrap_or("");
    let forms = match agent_form(name) {
        Some(a) => format!("{}: {}", a.form, a.about),
        None => format!("agents: {}", agent_names()),
    };
    Error::Unsupported(format!(
        "bad agent \"{}\": {reason}; {forms}",
        crate::error::clip(text)
    ))
}

fn parse_depth(text: &str, arg: Option<&str>) -> Result<u32> {
    let arg = arg.ok_or_else(|| bad_spec(text, "give a depth, e.g. alphabeta:8"))?;
    let d: u32 = arg
        .parse()
        .map_err(|_| bad_spec(text, format!("depth \"{arg}\" is not a whole number")))?;
    if d == 0 || d > MAX_DEPTH {
        return Err(bad_spec(
            text,
            format!("depth {d} is outside 1..={MAX_DEPTH}"),
        ));
    }
    Ok(d)
}

/// Read a duration like `2s`, `500ms`, `1.5s` or `1m`.
pub fn parse_duration(text: &str) -> std::result::Result<Duration, String> {
    let (number, unit) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        return Err(format!(
            "\"{text}\" has no unit: write a time like 500ms, 2s or 1m"
        ));
    };
    let v: f64 = number
        .parse()
        .map_err(|_| format!("\"{text}\" is not a time like 500ms, 2s or 1m"))?;
    if !v.is_finite() || v <= 0.0 || v * unit > 86_400.0 {
        return Err(format!(
            "\"{text}\": a time must be positive and at most a day"
        ));
    }
    Ok(Duration::from_secs_f64(v * unit))
}

/// Write a duration the way [`parse_duration`] reads it.
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms.fract() == 0.0 && ms % 1000.0 != 0.0 {
        format!("{ms}ms")
    } else if ms.fract() == 0.0 {
        format!("{}s", ms / 1000.0)
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

impl FromStr for AgentSpec {
    type Err = Error;

    fn from_str(text: &str) -> Result<AgentSpec> {
        let mut parts = text.trim().split(':');
        let head = parts.next().unwrap_or("").to_ascii_lowercase();
        let rest: Vec<&str> = parts.collect();
        let no_args = |spec: AgentSpec| {
            if rest.is_empty() {
                Ok(spec)
            } else {
                Err(bad_spec(text, format!("{head} takes no argument")))
            }
        };
        let one_arg = || -> Result<Option<&str>> {
            match rest.len() {
                0 => Ok(None),
                1 => Ok(Some(rest[0])),
                _ => Err(bad_spec(text, format!("{head} takes one argument"))),
            }
        };
        match head.as_str() {
            "random" => no_args(AgentSpec::Random),
            "greedy" => no_args(AgentSpec::Greedy),
            "max" => max::MaxOptions::parse(&rest)
                .map(AgentSpec::Max)
                .map_err(|e| bad_spec(text, e)),
            "minimax" => Ok(AgentSpec::Minimax(parse_depth(text, one_arg()?)?)),
            "alphabeta" | "alpha-beta" => match rest.as_slice() {
                [depth, "ties=random"] => Ok(AgentSpec::AlphaBetaRandomTies(parse_depth(
                    text,
                    Some(depth),
                )?)),
                [_, other] => Err(bad_spec(
                    text,
                    format!("alphabeta takes ties=random after its depth, not \"{other}\""),
                )),
                _ => Ok(AgentSpec::AlphaBeta(parse_depth(text, one_arg()?)?)),
            },
            "heuristic" => Ok(AgentSpec::Heuristic(parse_depth(text, one_arg()?)?)),
            "heuristic10" => {
                let Some((&depth, options)) = rest.split_first() else {
                    return Err(bad_spec(text, "give a depth, e.g. heuristic10:4"));
                };
                let depth = parse_depth(text, Some(depth))?;
                let options = hunter::parse_options(options).map_err(|e| bad_spec(text, e))?;
                Ok(AgentSpec::Heuristic10 { depth, options })
            }
            "perfect" => match one_arg()? {
                None => Ok(AgentSpec::Perfect(DEFAULT_PERFECT_TIME)),
                Some(t) => parse_duration(t)
                    .map(AgentSpec::Perfect)
                    .map_err(|e| bad_spec(text, e)),
            },
            "mcts" => {
                let (budget, uct, playout, expand) = parse_mcts(text, "mcts", &rest)?;
                Ok(AgentSpec::Mcts {
                    budget,
                    uct,
                    playout,
                    expand,
                })
            }
            "rovaris-greedy" => match one_arg()? {
                None | Some("ties=left") => Ok(AgentSpec::RovarisGreedy(rovaris::Ties::Left)),
                Some("ties=right") => Ok(AgentSpec::RovarisGreedy(rovaris::Ties::Right)),
                Some(other) => Err(bad_spec(
                    text,
                    format!("rovaris-greedy takes ties=left or ties=right, not \"{other}\""),
                )),
            },
            "rovaris-heuristic" => {
                let Some((&depth, options)) = rest.split_first() else {
                    return Err(bad_spec(text, "give a depth, e.g. rovaris-heuristic:4"));
                };
                let depth = parse_depth(text, Some(depth))?;
                let h6 = match options {
                    [] | ["h6=ply"] => rovaris::H6::Ply,
                    ["h6=reply"] => rovaris::H6::Reply,
                    ["h6=store"] => rovaris::H6::Store,
                    _ => {
                        return Err(bad_spec(
                            text,
                            "rovaris-heuristic takes one option, h6=ply, h6=reply or h6=store",
                        ))
                    }
                };
                Ok(AgentSpec::RovarisHeuristic { depth, h6 })
            }
            "rovaris-uct" => {
                let (budget, _, playout, _) = parse_mcts(text, "rovaris-uct", &rest)?;
                if playout == Playout::Heavy {
                    return Err(bad_spec(
                        text,
                        "rovaris-uct plays out random, greedy or eps-greedy",
                    ));
                }
                Ok(AgentSpec::RovarisUct { budget, playout })
            }
            "eps-greedy" => {
                let e = one_arg()?
                    .ok_or_else(|| bad_spec(text, "give epsilon, e.g. eps-greedy:0.05"))?;
                e.parse::<f64>()
                    .ok()
                    .filter(|e| (0.0..=1.0).contains(e))
                    .map(AgentSpec::EpsGreedy)
                    .ok_or_else(|| {
                        bad_spec(text, format!("epsilon \"{e}\" is not a number from 0 to 1"))
                    })
            }
            "awale-mcts" | "awale-uct" | "awale-heavy" => {
                let Some((&budget_text, options)) = rest.split_first() else {
                    return Err(bad_spec(text, format!("give a budget, e.g. {head}:1000")));
                };
                let budget = parse_budget(text, budget_text)?;
                let mut c = awale_study::STUDY_UCT;
                let mut keep = false;
                for opt in options {
                    if *opt == "keep" && !keep {
                        keep = true;
                        continue;
                    }
                    match opt.split_once('=') {
                        Some(("c", v)) if head != "awale-mcts" => {
                            c = v
                                .parse()
                                .ok()
                                .filter(|c: &f64| c.is_finite() && *c >= 0.0)
                                .ok_or_else(|| {
                                    bad_spec(text, format!("c={v}: give a non-negative number"))
                                })?
                        }
                        _ => {
                            return Err(bad_spec(text, format!("{head} takes no option \"{opt}\"")))
                        }
                    }
                }
                Ok(AgentSpec::StudyMcts {
                    budget,
                    tree: if head == "awale-mcts" {
                        awale_study::TreePolicy::Random
                    } else {
                        awale_study::TreePolicy::Uct(c)
                    },
                    heavy: head == "awale-heavy",
                    keep,
                })
            }
            "a3c" if rest.is_empty() => Ok(AgentSpec::A3c(None)),
            // The file name is all after "a3c:", colons included.
            "a3c" => match rest.join(":") {
                file if file.is_empty() => Err(bad_spec(text, "a3c:FILE needs a file name")),
                file => Ok(AgentSpec::A3c(Some(file.into()))),
            },
            "" => Err(bad_spec(text, "empty agent name")),
            other => Err(Error::UnknownAgent {
                spec: text.to_string(),
                name: other.to_string(),
                agents: agent_names(),
            }),
        }
    }
}

mod parse;
use parse::{parse_budget, parse_mcts};

mod forms;
pub use forms::{agent_form, agent_line, agent_names, agents_list, AgentForm, AGENTS};

#[cfg(test)]
mod tests;
