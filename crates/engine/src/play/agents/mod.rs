//! Agents that play Kalah, Awari and Oware: from random play to the
//! table-backed perfect agent.
//!
//! Every agent is named on the command line by a short spec (see
//! [`AgentSpec`]) and built from it with a seed, so that everything it does
//! is reproducible from that seed (agents with a *time* budget depend on the
//! machine's speed as well). An agent is asked for one pit at a time by
//! [`Agent::choose`]; it only ever sees the position, never the other agent.
//!
//! | spec | agent |
//! |---|---|
//! | `random` | a uniformly random legal move |
//! | `greedy` | best store difference after the move, following an extra turn ([`greedy`]) |
//! | `minimax:D`, `alphabeta:D` | depth-D search on own store minus the opponent's ([`search`]) |
//! | `heuristic:D` | alpha-beta on the six published heuristics, near-best random root choice ([`search`]) |
//! | `max[:ties=last\|first\|random][:extra=follow\|stop]` | the Kalah agents study's max agent: most seeds in its own store after the turn, last of equal moves ([`max`]) |
//! | `heuristic10:D[:run=N\|:weights=FILE\|:w=W1,...,W10][:h9=prose][:h10=minus][:ties=random]` | alpha-beta on the Kalah agents study's ten heuristics, table 3's weights or tuned ones ([`hunter`]) |
//! | `mcts:BUDGET[:c=C][:playout=P][:eps=E][:expand=X]` | Monte-Carlo tree search with UCT ([`mcts`]) |
//! | `eps-greedy:E`, `awale-mcts:BUDGET[:keep]`, `awale-uct:BUDGET[:c=C][:keep]`, `awale-heavy:BUDGET[:c=C][:keep]` | the Awale MCTS study's agents; `:keep` keeps the tree between moves ([`awale_study`]) |
//! | `rovaris-greedy[:ties=left\|right]`, `rovaris-heuristic:D[:h6=ply\|reply\|store]`, `rovaris-uct:BUDGET[:playout=random\|greedy\|eps-greedy][:eps=E]` | the five-game study's agents as the study defines them ([`rovaris`]) |
//! | `a3c`, `a3c:FILE` | an A3C policy-value network trained by self-play, argmax of its policy, Kalah(6,4) only ([`a3c`], [`crate::learn`]) |
//! | `perfect[:TIME]` | the tables within their range, the game's own search with table probes above them ([`perfect`]: MTD(f) in Kalah, alpha-beta in Awari and Oware) |
//!
//! Choices the published descriptions leave open, written down here: the
//! deterministic agents break ties towards the leftmost pit; a search depth
//! counts single moves, extra-turn moves included; the heuristic's H5 is 1
//! when the move that led to the evaluated node was the agent's own move
//! from its rightmost pit; MCTS play-outs score a win 1, a draw 1/2 (in
//! Awari and Oware a play-out stops after [`mcts::PLAYOUT_MAX_PLIES`] plies
//! and is scored on the seeds captured by then).
//!
//! Every agent but `perfect` is written once for all three games against
//! [`State`] (legal moves, children, play, game over, scores). In Awari and
//! Oware a player's "store" is the seeds it has captured: greedy maximises
//! the captured difference after the move, minimax and alpha-beta evaluate
//! own captured minus the opponent's, the heuristic's H4 and H6 are the
//! captured totals and H5 is the rightmost-pit flag as in Kalah. There are
//! no extra turns in Awari, so every depth is one move of alternating sides.
//! `perfect` is one agent for every game ([`perfect::PerfectAgent`]): it
//! plays from the game's tables within their range and searches above them
//! with the game's own search (the MTD(f) solver in Kalah, an
//! iterative-deepening alpha-beta in Awari and Oware), both probing the
//! tables.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::clock::Instant;
use std::time::Duration;

use crate::play::state::State;

pub mod a3c;
pub mod awale_study;
pub mod eval;
pub mod greedy;
pub mod hunter;
pub mod max;
pub mod mcts;
pub mod perfect;
pub mod random;
pub mod rovaris;
pub mod search;

/// What an agent decided: the pit to play and, when the agent has one, its
/// own estimate of the position.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The pit to play, from the mover's left.
    pub pit: usize,
    /// The agent's value of the chosen move, in the unit named by
    /// [`Choice::value_kind`]; `None` for agents without one.
    pub value: Option<f64>,
    /// What [`Choice::value`] means, e.g. "exact final store difference".
    pub value_kind: &'static str,
}

impl Choice {
    /// A choice without a value.
    pub fn bare(pit: usize) -> Choice {
        Choice {
            pit,
            value: None,
            value_kind: "",
        }
    }
}

/// A player. Agents keep their own random generator (seeded when built) and
/// any state they like; they are asked for a move only in positions where
/// the game is not over, and must answer with a legal pit.
///
/// Build agents from their specs and play a game of Kalah(4,3), then
/// write an agent of one's own:
///
/// ```
/// use mancala_solver::play::agents::{Agent, AgentSpec, Choice};
/// use mancala_solver::play::state::State;
/// use mancala_solver::{GameSpec, Side};
///
/// let game: GameSpec = "kalah:4:3".parse()?;
/// let (south, north): (AgentSpec, AgentSpec) = ("alphabeta:4".parse()?, "random".parse()?);
/// // Seeded: the same seeds play the same game.
/// let mut agents = [south.build(game.rules, None, 1)?, north.build(game.rules, None, 2)?];
/// let mut state = game.start();
/// while !state.is_over() {
///     let who = if state.to_move() == Side::South { 0 } else { 1 };
///     let choice = agents[who].choose(&state);
///     state.play(choice.pit).expect("agents play legal moves");
/// }
/// let [south_score, north_score] = state.scores();
/// assert_eq!(south_score + north_score, 24);
///
/// /// Plays its leftmost legal pit.
/// struct Leftmost;
/// impl Agent for Leftmost {
///     fn name(&self) -> String {
///         "leftmost".into()
///     }
///     fn choose(&mut self, state: &State) -> Choice {
///         let (pits, _count) = state.moves();
///         Choice::bare(pits[0])
///     }
/// }
/// assert_eq!(Leftmost.choose(&game.start()).pit, 0);
/// # Ok::<(), mancala_solver::Error>(())
/// ```
pub trait Agent: Send {
    /// The spec the agent was built from, for messages.
    fn name(&self) -> String;
    /// Pick a move in `state` (seen from the side to move, which is this
    /// agent's side; a state of the game the agent was built for).
    fn choose(&mut self, state: &State) -> Choice;
}

/// A request, from another thread, that an agent thinking about a move
/// stop soon, and a deadline by which it must: its searches poll both
/// every few nodes or iterations (a relaxed load of a flag nobody writes
/// while it thinks, and a look at the clock when there is a deadline).
/// A stopped agent still answers with a legal move: the best it has found
/// so far (the searches to a fixed depth deepen one ply at a time when
/// they have a deadline, and answer with the last depth they completed;
/// MCTS answers from the iterations it ran). Whoever raised the flag
/// should discard that move; a move cut short by the deadline is the
/// agent's best within its time. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    flag: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
}

impl Stop {
    /// A flag that is never raised and no deadline (the default): agents
    /// think their whole budget.
    pub fn never() -> Stop {
        Stop::default()
    }

    /// A flag that [`Stop::raise`] raises, for this value and its clones.
    pub fn raisable() -> Stop {
        Stop::from_flag(Some(Arc::new(AtomicBool::new(false))))
    }

    /// The same flag with a deadline: the agent stops thinking at
    /// `deadline` (or at the one already set, if earlier) and plays its
    /// best move so far.
    pub fn until(mut self, deadline: Instant) -> Stop {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Ask every holder of the flag to stop (nothing for [`Stop::never`]).
    pub fn raise(&self) {
        if let Some(flag) = &self.flag {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether thinking should end now: the flag is raised or the deadline
    /// has passed.
    #[inline]
    pub fn is_raised(&self) -> bool {
        self.is_flag_raised() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the flag itself is raised (the deadline aside).
    #[inline]
    pub fn is_flag_raised(&self) -> bool {
        match &self.flag {
            Some(flag) => flag.load(Ordering::Relaxed),
            None => false,
        }
    }

    /// Whether anything can stop the agent: a flag or a deadline.
    pub fn can_stop(&self) -> bool {
        self.flag.is_some() || self.deadline.is_some()
    }

    /// A stop on `flag` (never raised when `None`), without a deadline:
    /// the caller's flag, as [`crate::progress::Observer::stop_flag`]
    /// gives it.
    pub fn from_flag(flag: Option<Arc<AtomicBool>>) -> Stop {
        Stop {
            flag,
            deadline: None,
        }
    }

    /// The flag itself, for the solver ([`crate::search::SolveOptions::stop`];
    /// the deadline is the solver's own option).
    pub fn flag(&self) -> Option<Arc<AtomicBool>> {
        self.flag.clone()
    }
}

/// How long an agent may think about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A number of iterations (play-outs for MCTS).
    Iterations(u64),
    /// Wall-clock time per move.
    Time(Duration),
}

impl Budget {
    /// Whether a search that started at `start` and has run `iterations`
    /// is done (a timed search always runs one iteration).
    #[inline]
    pub fn spent(&self, iterations: u64, start: crate::clock::Instant) -> bool {
        match *self {
            Budget::Iterations(n) => iterations >= n,
            Budget::Time(t) => iterations > 0 && start.elapsed() >= t,
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Time(d) => write!(f, "{}", format_duration(*d)),
        }
    }
}

/// The play-out policy of MCTS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playout {
    /// Uniformly random moves.
    Random,
    /// A random move with probability epsilon, else the greedy move.
    EpsilonGreedy(f64),
    /// Moves drawn with weight 1 + seeds captured.
    Heavy,
}

/// Default epsilon of the epsilon-greedy play-out.
pub const DEFAULT_EPSILON: f64 = 0.1;

/// Default UCT exploration constant, sqrt(2)/2 as in the published studies.
pub const DEFAULT_UCT: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// Default thinking time of the perfect agent above the tables.
pub const DEFAULT_PERFECT_TIME: Duration = Duration::from_secs(1);

mod spec;
pub use spec::{
    agent_form, agent_line, agent_names, agents_list, format_duration, parse_duration, AgentForm,
    AgentSpec, AGENTS, MAX_DEPTH,
};
