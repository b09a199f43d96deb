//! Tournaments: every pair of agents plays a match; the cross table, the
//! "stronger" relation between every pair (stronger, weaker, or not
//! separated at this sample size), and an order of the agents only when
//! the relation is one (every pair separated, no cycle).

use serde::Serialize;

use crate::error::{Error, Result};
use crate::play::agents::AgentSpec;
use crate::play::arena::{mix, run_match_each, MatchOptions, SIGNIFICANCE};
use crate::play::report::{GameRecord, MatchReport, RepetitionScore, TimeReport, TimeStats};
use crate::play::state::GameSpec;
use crate::play::stats::binomial_p_value;
use crate::progress::Observer;
use crate::tablebase::SharedTables;

/// Everything a tournament needs.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    /// The game.
    pub game: GameSpec,
    /// The agents (at least two).
    pub agents: Vec<AgentSpec>,
    /// Games per pairing.
    pub games: usize,
    /// The tournament seed (each pairing gets its own match seed from it).
    pub seed: u64,
    /// As in [`MatchOptions::random_opening`].
    pub random_opening: Option<usize>,
    /// Worker threads.
    pub threads: Option<usize>,
    /// Where progress goes (silent by default).
    pub progress: Observer,
    /// Endgame tables for the perfect agent.
    pub tables: Option<SharedTables>,
    /// As in [`MatchOptions::max_plies`].
    pub max_plies: usize,
    /// As in [`MatchOptions::repetition`].
    pub repetition: RepetitionScore,
}

/// The outcome of a tournament.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentReport {
    /// The game.
    pub game: String,
    /// The agents, in the order given.
    pub agents: Vec<String>,
    /// Games per pairing.
    pub games: usize,
    /// `score[i][j]`: agent i's score fraction against agent j (`None` on
    /// the diagonal).
    pub score: Vec<Vec<Option<f64>>>,
    /// `p_value[i][j]`: p-value of "i is stronger than j".
    pub p_value: Vec<Vec<Option<f64>>>,
    /// `stronger[i][j]`: i is significantly stronger than j.
    pub stronger: Vec<Vec<bool>>,
    /// `relation[i][j]`: how agent i stands against agent j.
    pub relation: Vec<Vec<Relation>>,
    /// The pairs `[i, j]` (i < j) the matches did not separate.
    pub undecided: Vec<[usize; 2]>,
    /// The agents (indices, strongest first) when the relation is a strict
    /// order: every pair separated and no cycle. `None` otherwise: a linear
    /// order would claim results the matches did not show.
    pub order: Option<Vec<usize>>,
    /// A cycle of the "stronger" relation when it has one (each stronger
    /// than the next, the last stronger than the first).
    pub cycle: Option<Vec<usize>>,
    /// Per-move times of each agent over all its games.
    pub times: Vec<TimeReport>,
    /// Every pairing's match report.
    pub matches: Vec<MatchReport>,
}

/// How one agent stands against another in a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// Significantly stronger (one-sided binomial test).
    Stronger,
    /// Significantly weaker.
    Weaker,
    /// Not separated by the games played.
    Undecided,
    /// The agent itself (the diagonal).
    Itself,
}

impl Relation {
    /// One character for a matrix: `>`, `<`, `~`, or `.` on the diagonal.
    pub fn symbol(self) -> char {
        match self {
            Relation::Stronger => '>',
            Relation::Weaker => '<',
            Relation::Undecided => '~',
            Relation::Itself => '.',
        }
    }
}

/// The relation matrix of a "stronger" matrix.
pub fn relation(stronger: &[Vec<bool>]) -> Vec<Vec<Relation>> {
    let n = stronger.len();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match (i == j, stronger[i][j], stronger[j][i]) {
                    (true, _, _) => Relation::Itself,
                    (_, true, _) => Relation::Stronger,
                    (_, _, true) => Relation::Weaker,
                    _ => Relation::Undecided,
                })
                .collect()
        })
        .collect()
}

/// Play every pairing of a tournament.
pub fn run_tournament(opts: &TournamentOptions) -> Result<TournamentReport> {
    run_tournament_each(opts, &mut |_| Ok(()))
}

/// [`run_tournament`], handing every game's record to `on_game` as its
/// match plays it (pairing by pairing, in game order; see
/// [`crate::play::arena::run_match_each`]): nothing of a game is kept.
pub fn run_tournament_each(
    opts: &TournamentOptions,
    on_game: &mut dyn FnMut(GameRecord) -> Result<()>,
) -> Result<TournamentReport> {
    let n = opts.agents.len();
    if n < 2 {
        return Err(Error::Unsupported(
            "a tournament needs at least two agents".into(),
        ));
    }
    let start = opts.game.start();
    for agent in &opts.agents {
        agent.check_start(&start)?;
    }
    let mut score = vec![vec![None; n]; n];
    let mut p = vec![vec![None; n]; n];
    let mut times = vec![TimeStats::default(); n];
    let mut matches = Vec::new();
    let mut pair = 0u64;
    for i in 0..n {
        for j in i + 1..n {
            let m = MatchOptions {
                game: opts.game,
                a: opts.agents[i].clone(),
                b: opts.agents[j].clone(),
                games: opts.games,
                seed: mix(opts.seed ^ mix(pair)),
                random_opening: opts.random_opening,
                threads: opts.threads,
                progress: opts.progress.clone(),
                tables: opts.tables.clone(),
                max_plies: opts.max_plies,
                repetition: opts.repetition,
            };
            pair += 1;
            let (mut a_time, mut b_time) = (times[i], times[j]);
            let report = run_match_each(&m, &mut |r| {
                a_time.merge(&r.a_time);
                b_time.merge(&r.b_time);
                on_game(r)
            })?;
            (times[i], times[j]) = (a_time, b_time);
            let b_points = report.b_wins as f64 + report.draws as f64 / 2.0;
            score[i][j] = Some(report.a_score);
            score[j][i] = Some(1.0 - report.a_score);
            p[i][j] = Some(report.p_value);
            p[j][i] = Some(binomial_p_value(report.games, b_points));
            matches.push(report);
        }
    }
    let stronger: Vec<Vec<bool>> = p
        .iter()
        .map(|row| {
            row.iter()
                .map(|v| v.is_some_and(|v| v < SIGNIFICANCE))
                .collect()
        })
        .collect();
    let relation = relation(&stronger);
    let undecided: Vec<[usize; 2]> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| [i, j]))
        .filter(|&[i, j]| relation[i][j] == Relation::Undecided)
        .collect();
    let (order, cycle) = match order_or_cycle(&stronger) {
        Ok(o) if undecided.is_empty() => (Some(o), None),
        Ok(_) => (None, None),
        Err(c) => (None, Some(c)),
    };
    Ok(TournamentReport {
        game: opts.game.to_string(),
        agents: opts.agents.iter().map(|a| a.to_string()).collect(),
        games: opts.games,
        score,
        p_value: p,
        stronger,
        relation,
        undecided,
        order,
        cycle,
        times: times.into_iter().map(TimeReport::from).collect(),
        matches,
    })
}

/// An order of the agents, strongest first, in which every agent comes
/// before each agent it is stronger than (`stronger[i][j]`); or, when the
/// relation has a cycle, one cycle `c` with `c[0]` stronger than `c[1]`, ...,
/// and the last stronger than `c[0]`. Among agents the relation does not
/// separate, the given order is kept.
pub fn order_or_cycle(stronger: &[Vec<bool>]) -> std::result::Result<Vec<usize>, Vec<usize>> {
    let n = stronger.len();
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<usize> = Vec::new();
    fn visit(
        v: usize,
        g: &[Vec<bool>],
        state: &mut [u8],
        post: &mut Vec<usize>,
        stack: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        state[v] = 1;
        stack.push(v);
        for w in 0..g.len() {
            if !g[v][w] {
                continue;
            }
            match state[w] {
                1 => {
                    let at = stack.iter().position(|&x| x == w).expect("on stack");
                    return Some(stack[at..].to_vec());
                }
                0 => {
                    if let Some(c) = visit(w, g, state, post, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state[v] = 2;
        post.push(v);
        None
    }
    // Visit in reverse so that the reversed post-order keeps the given order
    // among unrelated agents.
    for v in (0..n).rev() {
        if state[v] == 0 {
            if let Some(c) = visit(v, stronger, &mut state, &mut post, &mut stack) {
                return Err(c);
            }
        }
    }
    post.reverse();
    Ok(post)
}
