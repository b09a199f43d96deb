//! The oracle's agents: an agent's move by its spec, within the oracle's
//! limits, and the check of a spec before any move.

use super::*;
use crate::kalah::state::KalahState;
use crate::play::agents::perfect::ONLY_MOVE;
use crate::play::agents::Choice;

impl Oracle {
    /// The move `agent` (a spec such as `alphabeta:6`, `mcts:2000`,
    /// `perfect:500ms`) chooses in `position` (the start when `None`),
    /// seeded with `seed`. The agent's thinking ends early once `stop` is
    /// raised (by another thread: its client has gone), and the answer is
    /// then [`Error::Stopped`]; or at `stop`'s deadline ([`Stop::until`]),
    /// and the answer is then its best move so far, marked
    /// [`AgentMove::cut_short`].
    pub fn agent_move(
        &self,
        game: &str,
        position: Option<&str>,
        agent: &str,
        seed: u64,
        stop: &Stop,
    ) -> Result<AgentMove> {
        let spec = parse_game(game)?;
        let agent = self.served_agent(agent)?;
        if let Some(rules) = wide(&spec) {
            return wide_agent_move(rules, &spec, position, &agent, seed, stop);
        }
        with_rules!(spec.rules, g => self.agent_move_in(g, &spec, position, &agent, seed, stop))
    }

    /// Whether `agent` can play `game` here, before any move: the spec
    /// parses, is within this oracle's limits, suits the game and is built
    /// at its start as for a move (with the tables it needs, none built).
    /// The spec as the oracle writes it.
    pub fn check_agent_spec(&self, game: &str, agent: &str) -> Result<String> {
        let spec = parse_game(game)?;
        let agent = self.served_agent(agent)?;
        let stop = Stop::raisable();
        if let Some(rules) = wide(&spec) {
            let state = State::from(KalahState::wide(wide_position(&spec, None)?, rules));
            agent.check_start(&state)?;
            agent.build_with_stop(spec.rules, None, 1, stop)?;
        } else {
            with_rules!(spec.rules, g => {
                let pos = g.start(spec.pits, spec.seeds)?;
                agent.check_start(&g.state(pos))?;
                let tables = if agent.uses_tables() {
                    self.agent_tables(g, spec.pits)?
                } else {
                    None
                };
                agent.build_with_stop(spec.rules, tables, 1, stop)?;
            });
        }
        Ok(agent.to_string())
    }

    /// `agent` parsed, within this oracle's limits. Parsing `weights=FILE`
    /// reads the file: a served oracle reads no file a request names, so
    /// such a spec is refused unparsed.
    fn served_agent(&self, agent: &str) -> Result<AgentSpec> {
        if agent.contains("weights=") {
            return Err(Error::Unsupported(format!(
                "agent {}: this oracle reads no weights file; use heuristic10:D, :run=N or :w=W1,...,W10",
                crate::error::clip(agent)
            )));
        }
        let agent: AgentSpec = agent.parse()?;
        self.check_agent(&agent)?;
        Ok(agent)
    }

    fn agent_move_in<G: Playable + TableGame>(
        &self,
        g: G,
        spec: &GameSpec,
        position: Option<&str>,
        agent: &AgentSpec,
        seed: u64,
        stop: &Stop,
    ) -> Result<AgentMove> {
        let mut pos = position_of(g, spec, position)?;
        if g.settle(&mut pos) {
            return Err(Error::Unsupported(format!(
                "the game is over in position \"{pos}\": there is no move to choose"
            )));
        }
        let state = g.state(pos);
        let tables = if agent.uses_tables() {
            self.agent_tables(g, spec.pits)?
        } else {
            None
        };
        let (choice, cut_short) = choose(agent, spec, tables, seed, stop, &state)?;
        let mut after = pos;
        g.play(&mut after, choice.pit)
            .map_err(|reason| Error::IllegalMove {
                agent: agent.to_string(),
                pit: choice.pit,
                reason,
                position: pos.to_string(),
                side: pos.to_move(),
            })?;
        g.settle(&mut after);
        Ok(AgentMove {
            agent: agent.to_string(),
            pit: choice.pit,
            value: choice.value,
            value_kind: choice.value_kind,
            cut_short,
            exact: proven(agent, &choice, cut_short),
            after: report(g, spec, &after, 1),
        })
    }

    /// The tables for the agents: the set the look-ups use, opened once;
    /// `None` when it holds no table.
    pub(super) fn agent_tables<G: TableGame>(
        &self,
        g: G,
        pits: usize,
    ) -> Result<Option<SharedTables>> {
        let set = self.tables(g, pits)?;
        Ok((set.max_seeds() > 0).then(|| SharedTables::new(set)))
    }

    /// Refuse agents whose budget is above the oracle's limits. The match
    /// names every kind of agent, so that a new one must say its bound here.
    fn check_agent(&self, agent: &AgentSpec) -> Result<()> {
        let limit = self.config.agent_time;
        let time = |t: Duration| {
            if t > limit {
                Err(Error::Unsupported(format!(
                    "agent {agent}: {} a move is above this oracle's limit of {}",
                    crate::play::agents::format_duration(t),
                    crate::play::agents::format_duration(limit)
                )))
            } else {
                Ok(())
            }
        };
        let depth = |d: u32, max: u32, why: &str| {
            if d > max {
                Err(Error::Unsupported(format!(
                    "agent {agent}: depth {d} is above this oracle's limit of {max}{why}"
                )))
            } else {
                Ok(())
            }
        };
        let budget = |b: Budget| match b {
            Budget::Time(t) => time(t),
            Budget::Iterations(n) if n > MAX_AGENT_ITERATIONS => Err(Error::Unsupported(format!(
                "agent {agent}: {n} iterations a move is above this oracle's limit of \
                 {MAX_AGENT_ITERATIONS}"
            ))),
            Budget::Iterations(_) => Ok(()),
        };
        match *agent {
            // One look at each move: nothing to bound.
            AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::Max(_)
            | AgentSpec::RovarisGreedy(_)
            | AgentSpec::EpsGreedy(_) => Ok(()),
            // One pass through the shipped network.
            AgentSpec::A3c(None) => Ok(()),
            // A served oracle reads no file a request names.
            AgentSpec::A3c(Some(_)) => Err(Error::Unsupported(format!(
                "agent {agent}: this oracle plays only the shipped a3c weights (spec a3c)"
            ))),
            AgentSpec::Minimax(d) => depth(d, MAX_AGENT_DEPTH - 4, " (minimax does not prune)"),
            AgentSpec::AlphaBeta(d)
            | AgentSpec::AlphaBetaRandomTies(d)
            | AgentSpec::Heuristic(d)
            | AgentSpec::Heuristic10 { depth: d, .. }
            | AgentSpec::RovarisHeuristic {
                depth: d,
                h6: rovaris::H6::Store,
            } => depth(d, MAX_AGENT_DEPTH, ""),
            AgentSpec::RovarisHeuristic { depth: d, .. } => depth(
                d,
                MAX_AGENT_DEPTH - 1,
                " (its H6 looks one ply past the horizon)",
            ),
            AgentSpec::Mcts { budget: b, .. }
            | AgentSpec::StudyMcts { budget: b, .. }
            | AgentSpec::RovarisUct { budget: b, .. } => budget(b),
            AgentSpec::Perfect(t) => time(t),
        }
    }
}

/// The choice of `agent` (built with `tables`, seeded with `seed`) in
/// `state` of `spec`, once it can play there, and whether `stop`'s
/// deadline came before the agent had done; [`Error::Stopped`] when
/// `stop`'s flag cut its thinking short (its move is then not its choice).
fn choose(
    agent: &AgentSpec,
    spec: &GameSpec,
    tables: Option<SharedTables>,
    seed: u64,
    stop: &Stop,
    state: &State,
) -> Result<(crate::play::agents::Choice, bool)> {
    agent.check_start(state)?;
    let choice = agent
        .build_with_stop(spec.rules, tables, seed, stop.clone())?
        .choose(state);
    if stop.is_flag_raised() {
        return Err(Error::Stopped(format!("agent {agent}'s move")));
    }
    let cut_short = stop
        .deadline()
        .is_some_and(|d| crate::clock::Instant::now() >= d);
    Ok((choice, cut_short))
}

/// The move of `agent` in a position of the wide game `spec`: agents that
/// need tables or a solve are refused, saying so
/// ([`AgentSpec::check_start`]).
fn wide_agent_move(
    rules: KalahRules,
    spec: &GameSpec,
    position: Option<&str>,
    agent: &AgentSpec,
    seed: u64,
    stop: &Stop,
) -> Result<AgentMove> {
    let pos = wide_position(spec, position)?;
    if pos.is_game_over(rules) {
        return Err(Error::Unsupported(format!(
            "the game is over in position \"{pos}\": there is no move to choose"
        )));
    }
    let state = State::from(KalahState::wide(pos, rules));
    let (choice, cut_short) = choose(agent, spec, None, seed, stop, &state)?;
    let mut after = pos;
    after
        .play(choice.pit, rules)
        .map_err(|reason| Error::IllegalMove {
            agent: agent.to_string(),
            pit: choice.pit,
            reason,
            position: pos.to_string(),
            side: pos.to_move(),
        })?;
    Ok(AgentMove {
        agent: agent.to_string(),
        pit: choice.pit,
        value: choice.value,
        value_kind: choice.value_kind,
        cut_short,
        exact: false,
        after: wide_report(rules, spec, &after, 1),
    })
}

/// Whether `choice`, `agent`'s move, is proven best ([`AgentMove::exact`]):
/// the perfect agent says so in its value's kind ("exact ...", or "the only
/// legal move"), and a move cut short by a deadline never is.
fn proven(agent: &AgentSpec, choice: &Choice, cut_short: bool) -> bool {
    matches!(agent, AgentSpec::Perfect(_))
        && !cut_short
        && (choice.value_kind.starts_with("exact ") || choice.value_kind == ONLY_MOVE)
}
