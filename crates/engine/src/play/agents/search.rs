//! Fixed-depth game-tree search: plain minimax, alpha-beta, and the
//! heuristic alpha-beta of the published studies.
//!
//! Values are always from the searching agent's point of view: a node is a
//! max node when the agent is to move there, so an extra turn gives two
//! consecutive max (or min) levels. Depth counts single moves (plies),
//! extra-turn moves included. The same code plays Kalah, Awari and Oware
//! through [`State`]; in Awari and Oware a player's "store" is the seeds it
//! has captured.

use crate::rng::SeededRng;
use crate::side::Side;
use rand::Rng;

use super::eval::{heuristic_eval, store_eval, Flags, H5, H7};
use super::{Agent, Choice, Stop};
use crate::play::state::{Child, State};

/// The evaluation at the search horizon, with the path flags it reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// [`store_eval`], of `minimax:D` and `alphabeta:D`.
    Store,
    /// [`heuristic_eval`] with H5 set when the move that led to the node
    /// was the agent's own move from its rightmost pit (`heuristic:D`).
    Heuristic,
    /// The five-game study's Algorithm 8 (`rovaris-heuristic:D`): H5 set
    /// when the agent's most recent move on the path was from its rightmost
    /// pit; H6 read as [`super::rovaris::H6`] says.
    Rovaris(super::rovaris::H6),
    /// The Kalah agents study's ten terms with these weights, H9 and H10
    /// read as the readings say (`heuristic10:D`, [`super::hunter`]).
    Heuristic10(super::hunter::Weights, super::hunter::Readings),
}

impl Eval {
    /// The value of `state` for the agent `me`, with the path flags
    /// `flags`.
    #[inline]
    pub fn value(self, state: &State, me: Side, flags: Flags) -> f64 {
        match self {
            Eval::Store => store_eval(state, me),
            Eval::Heuristic => heuristic_eval(state, me, flags & H5 != 0),
            Eval::Rovaris(h6) => super::rovaris::eval(state, me, flags & H5 != 0, h6),
            Eval::Heuristic10(w, r) => super::hunter::eval_read(state, me, flags, &w, r),
        }
    }

    /// The path flags of `child`, reached from `state` (whose flags are
    /// `flags`).
    #[inline]
    pub fn child_flags(self, state: &State, me: Side, child: &Child, flags: Flags) -> Flags {
        let mine = state.to_move() == me;
        let own_rightmost = child.pit + 1 == state.pits_per_side();
        match self {
            Eval::Store => 0,
            Eval::Heuristic => Flags::from(mine && own_rightmost) * H5,
            Eval::Rovaris(_) if mine => Flags::from(own_rightmost) * H5,
            Eval::Rovaris(_) => flags,
            Eval::Heuristic10(..) => {
                (Flags::from(mine && own_rightmost) * H5)
                    | (Flags::from(mine && child.step.extra_turn) * H7)
            }
        }
    }
}

/// Subtrees at least this many plies deep poll the stop flag on entry, so
/// that between two polls lie at most a few hundred nodes, and the leaves,
/// most of the nodes, pay nothing. A stopped subtree is worth 0.
const POLL_DEPTH: u32 = 3;

/// How a search learns that it should stop: a searcher that nobody can
/// stop is compiled without the polls ([`NoStop`]), so that `match` and
/// the other commands search exactly as fast as before the flag.
trait Poll: Copy {
    /// Whether the search should end now.
    fn raised(self) -> bool;
}

/// A search nobody stops.
#[derive(Clone, Copy)]
struct NoStop;

impl Poll for NoStop {
    #[inline(always)]
    fn raised(self) -> bool {
        false
    }
}

impl Poll for &Stop {
    #[inline]
    fn raised(self) -> bool {
        self.is_raised()
    }
}

/// Run `search` with the polls `stop` needs: none for [`Stop::never`].
macro_rules! with_poll {
    ($stop:expr, $poll:ident => $search:expr) => {
        if $stop.can_stop() {
            let $poll = &$stop;
            $search
        } else {
            let $poll = NoStop;
            $search
        }
    };
}

/// `search(depth)`; when `stop` has a deadline, `search` to depth 1, 2,
/// ... up to `depth`, and the result of the deepest search that the stop
/// did not cut: a considered move however soon the deadline comes (the
/// searches to [`POLL_DEPTH`] plies never poll, so they always complete).
/// Without a deadline the search is the one search to `depth`, and with
/// one the result is the same when the deadline does not come first.
fn deepening<T>(stop: &Stop, depth: u32, mut search: impl FnMut(u32) -> T) -> T {
    if stop.deadline().is_none() {
        return search(depth);
    }
    let mut done = None;
    for d in 1..=depth {
        if done.is_some() && stop.is_raised() {
            break;
        }
        let out = search(d);
        if d > POLL_DEPTH && stop.is_raised() {
            break;
        }
        done = Some(out);
    }
    done.expect("the search to depth 1 always completes")
}

/// Plain minimax value of `state` to `depth` plies for agent `me`.
pub fn minimax(state: &State, depth: u32, me: Side, eval: Eval, flags: Flags) -> f64 {
    minimax_until(state, depth, me, eval, flags, NoStop)
}

/// [`minimax`], ending early (with a meaningless value) once `stop` is
/// raised.
fn minimax_until<P: Poll>(
    state: &State,
    depth: u32,
    me: Side,
    eval: Eval,
    flags: Flags,
    stop: P,
) -> f64 {
    if depth == 0 || state.is_over() {
        return eval.value(state, me, flags);
    }
    if depth >= POLL_DEPTH && stop.raised() {
        return 0.0;
    }
    let maximizing = state.to_move() == me;
    let mut best = if maximizing {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    let children = state.children();
    for i in 0..children.len() {
        let c = children.get(i);
        let v = minimax_until(
            &c.state,
            depth - 1,
            me,
            eval,
            eval.child_flags(state, me, &c, flags),
            stop,
        );
        if maximizing {
            best = best.max(v);
        } else {
            best = best.min(v);
        }
    }
    best
}

/// Alpha-beta value of `state` to `depth` plies for agent `me`, within the
/// window (`alpha`, `beta`): exact inside it, a bound outside.
pub fn alphabeta(
    state: &State,
    depth: u32,
    alpha: f64,
    beta: f64,
    me: Side,
    eval: Eval,
    flags: Flags,
) -> f64 {
    alphabeta_until(state, depth, alpha, beta, me, eval, flags, NoStop)
}

/// [`alphabeta`], ending early (with a meaningless value) once `stop` is
/// raised.
#[allow(clippy::too_many_arguments)]
fn alphabeta_until<P: Poll>(
    state: &State,
    depth: u32,
    mut alpha: f64,
    mut beta: f64,
    me: Side,
    eval: Eval,
    flags: Flags,
    stop: P,
) -> f64 {
    if depth == 0 || state.is_over() {
        return eval.value(state, me, flags);
    }
    if depth >= POLL_DEPTH && stop.raised() {
        return 0.0;
    }
    let maximizing = state.to_move() == me;
    let children = state.children();
    if maximizing {
        let mut best = f64::NEG_INFINITY;
        for i in 0..children.len() {
            let c = children.get(i);
            let v = alphabeta_until(
                &c.state,
                depth - 1,
                alpha,
                beta,
                me,
                eval,
                eval.child_flags(state, me, &c, flags),
                stop,
            );
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    } else {
        let mut best = f64::INFINITY;
        for i in 0..children.len() {
            let c = children.get(i);
            let v = alphabeta_until(
                &c.state,
                depth - 1,
                alpha,
                beta,
                me,
                eval,
                eval.child_flags(state, me, &c, flags),
                stop,
            );
            best = best.min(v);
            beta = beta.min(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The value of every root move of `state` at `depth` with the full window
/// (each move exactly), for the side to move.
pub fn root_values(state: &State, depth: u32, eval: Eval) -> Vec<(usize, f64)> {
    root_values_until(state, depth, eval, NoStop)
}

/// [`root_values`], ending early (with meaningless values) once `stop` is
/// raised.
fn root_values_until<P: Poll>(state: &State, depth: u32, eval: Eval, stop: P) -> Vec<(usize, f64)> {
    let me = state.to_move();
    state
        .children()
        .iter()
        .map(|c| {
            let v = alphabeta_until(
                &c.state,
                depth - 1,
                f64::NEG_INFINITY,
                f64::INFINITY,
                me,
                eval,
                eval.child_flags(state, me, &c, 0),
                stop,
            );
            (c.pit, v)
        })
        .collect()
}

/// The agents `minimax:D` and `alphabeta:D` (depth-D search on own store
/// minus the opponent's) and `heuristic10:D` (alpha-beta on the ten-term
/// heuristic, [`Eval::Heuristic10`]). All are deterministic and play the
/// leftmost of the best moves; minimax and alpha-beta play the same move,
/// alpha-beta only faster.
#[derive(Debug)]
pub struct MinimaxAgent {
    depth: u32,
    pruning: bool,
    eval: Eval,
    name: String,
    stop: Stop,
}

impl MinimaxAgent {
    /// Search to `depth` plies on the store difference, with alpha-beta
    /// pruning when `pruning`.
    pub fn new(depth: u32, pruning: bool, name: String) -> MinimaxAgent {
        MinimaxAgent::with_eval(depth, pruning, Eval::Store, name)
    }

    /// Search to `depth` plies on `eval`.
    pub fn with_eval(depth: u32, pruning: bool, eval: Eval, name: String) -> MinimaxAgent {
        MinimaxAgent {
            depth: depth.max(1),
            pruning,
            eval,
            name,
            stop: Stop::never(),
        }
    }

    /// The same agent, ending its search early once `stop` is raised.
    pub fn with_stop(mut self, stop: Stop) -> MinimaxAgent {
        self.stop = stop;
        self
    }

    /// The chosen move and its value in `state` (see [`Stop`] for a
    /// search cut short).
    pub fn best(&self, state: &State) -> (usize, f64) {
        deepening(
            &self.stop,
            self.depth,
            |depth| with_poll!(self.stop, poll => self.best_polling(state, depth, poll)),
        )
    }

    fn best_polling<P: Poll>(&self, state: &State, depth: u32, stop: P) -> (usize, f64) {
        let me = state.to_move();
        let children = state.children();
        assert!(!children.is_empty(), "asked for a move in a finished game");
        let mut best = (children.pit(0), f64::NEG_INFINITY);
        for i in 0..children.len() {
            let c = children.get(i);
            let flags = self.eval.child_flags(state, me, &c, 0);
            let v = if self.pruning {
                // Moves that cannot beat the best so far only need a bound.
                alphabeta_until(
                    &c.state,
                    depth - 1,
                    best.1,
                    f64::INFINITY,
                    me,
                    self.eval,
                    flags,
                    stop,
                )
            } else {
                minimax_until(&c.state, depth - 1, me, self.eval, flags, stop)
            };
            if v > best.1 {
                best = (c.pit, v);
            }
        }
        best
    }
}

impl Agent for MinimaxAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &State) -> Choice {
        let (pit, v) = self.best(state);
        Choice {
            pit,
            value: Some(v),
            value_kind: match self.eval {
                Eval::Heuristic10(..) => "ten-term heuristic at the search horizon",
                _ => "store difference at the search horizon",
            },
        }
    }
}

/// The agent `alphabeta:D:ties=random`: every root move valued by
/// alpha-beta to depth D on the store difference, and a random move played
/// among those of the best value (`alphabeta:D` plays the leftmost); on
/// another evaluation ([`RandomTiesAgent::with_eval`]),
/// `heuristic10:D:ties=random`.
#[derive(Debug)]
pub struct RandomTiesAgent {
    depth: u32,
    eval: Eval,
    rng: SeededRng,
    name: String,
    stop: Stop,
}

impl RandomTiesAgent {
    /// Search to `depth` plies, drawing among equal best moves from `rng`.
    pub fn new(depth: u32, rng: SeededRng, name: String) -> RandomTiesAgent {
        RandomTiesAgent {
            depth: depth.max(1),
            eval: Eval::Store,
            rng,
            name,
            stop: Stop::never(),
        }
    }

    /// The same agent, ending its search early once `stop` is raised.
    pub fn with_stop(mut self, stop: Stop) -> RandomTiesAgent {
        self.stop = stop;
        self
    }

    /// The same agent valuing the horizon by `eval`.
    pub fn with_eval(mut self, eval: Eval) -> RandomTiesAgent {
        self.eval = eval;
        self
    }
}

impl Agent for RandomTiesAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &State) -> Choice {
        let values = deepening(
            &self.stop,
            self.depth,
            |depth| with_poll!(self.stop, poll => root_values_until(state, depth, self.eval, poll)),
        );
        let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<(usize, f64)> = values.into_iter().filter(|v| v.1 == best).collect();
        let (pit, v) = ties[self.rng.gen_range(0..ties.len())];
        Choice {
            pit,
            value: Some(v),
            value_kind: match self.eval {
                Eval::Heuristic10(..) => "ten-term heuristic at the search horizon",
                _ => "store difference at the search horizon",
            },
        }
    }
}

/// The agents `heuristic:D` and `rovaris-heuristic:D`: alpha-beta to depth
/// D on a weighted heuristic ([`Eval::Heuristic`] or [`Eval::Rovaris`]),
/// every root move valued exactly; at the root it plays a random move among
/// those whose value is at least 0.99 of the best (1.01 when the best is
/// negative).
#[derive(Debug)]
pub struct HeuristicAgent {
    depth: u32,
    eval: Eval,
    rng: SeededRng,
    name: String,
    stop: Stop,
}

impl HeuristicAgent {
    /// Search to `depth` plies on `eval`, drawing near-best choices from
    /// `rng`.
    pub fn new(depth: u32, eval: Eval, rng: SeededRng, name: String) -> HeuristicAgent {
        HeuristicAgent {
            depth: depth.max(1),
            eval,
            rng,
            name,
            stop: Stop::never(),
        }
    }

    /// The same agent, ending its search early once `stop` is raised.
    pub fn with_stop(mut self, stop: Stop) -> HeuristicAgent {
        self.stop = stop;
        self
    }
}

/// The moves whose value is near the best: at least 0.99 of it, or at least
/// 1.01 of it when it is negative.
pub fn near_best(values: &[(usize, f64)]) -> Vec<(usize, f64)> {
    let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
    let threshold = if best >= 0.0 {
        0.99 * best
    } else {
        1.01 * best
    };
    values
        .iter()
        .copied()
        .filter(|v| v.1 >= threshold)
        .collect()
}

impl Agent for HeuristicAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &State) -> Choice {
        let values = deepening(
            &self.stop,
            self.depth,
            |depth| with_poll!(self.stop, poll => root_values_until(state, depth, self.eval, poll)),
        );
        let near = near_best(&values);
        let (pit, v) = near[self.rng.gen_range(0..near.len())];
        Choice {
            pit,
            value: Some(v),
            value_kind: "weighted heuristic at the search horizon",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::position::Position;
    use crate::kalah::rules::KalahRules;
    use crate::play::state::Playable;

    #[test]
    fn near_best_keeps_moves_within_one_percent() {
        let v = [(0, 10.0), (1, 9.95), (2, 9.0), (3, 10.0)];
        let pits: Vec<usize> = near_best(&v).iter().map(|m| m.0).collect();
        assert_eq!(pits, vec![0, 1, 3]);
        let v = [(0, -10.0), (1, -10.05), (2, -10.2)];
        let pits: Vec<usize> = near_best(&v).iter().map(|m| m.0).collect();
        assert_eq!(pits, vec![0, 1]);
        let v = [(0, 0.0), (1, -0.01)];
        assert_eq!(near_best(&v).len(), 1);
    }

    #[test]
    fn random_ties_play_a_best_move_of_alphabeta_and_vary_among_them() {
        use crate::rng::seeded;
        // The first start with tied best moves at depth 3 to 5.
        let (start, depth, best, ties) = [(3, 1), (3, 2), (4, 1), (4, 3), (5, 1), (6, 1), (6, 2)]
            .into_iter()
            .flat_map(|(m, n)| (3..=5).map(move |d| (m, n, d)))
            .find_map(|(m, n, d)| {
                let start = KalahRules::Default.state(Position::start(m, n).unwrap());
                let (_, best) = MinimaxAgent::new(d, true, "ab".into()).best(&start);
                let values = root_values_until(&start, d, Eval::Store, NoStop);
                let ties: Vec<usize> = values.iter().filter(|v| v.1 == best).map(|v| v.0).collect();
                (ties.len() >= 2).then_some((start, d, best, ties))
            })
            .expect("a start with tied best moves");
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut a = RandomTiesAgent::new(depth, seeded(seed), "t".into());
            let c = a.choose(&start);
            assert_eq!(c.value, Some(best));
            assert!(ties.contains(&c.pit), "{} not among {ties:?}", c.pit);
            seen.insert(c.pit);
        }
        assert_eq!(
            seen.len(),
            ties.len(),
            "every tied move is drawn in 40 tries"
        );
    }

    #[test]
    fn heuristic_terms() {
        // South to move, pits 2 0 3, store 5; North pits 1 1 0, store 4.
        let p = Position::from_cells(&[2, 0, 3, 5, 1, 1, 0, 4], Side::South).unwrap();
        let p = KalahRules::Default.state(p);
        // South: H1 2, H2 5, H3 2, H4 5, H6 4.
        let south = 0.198649 * 2.0 + 0.190084 * 5.0 + 0.370793 * 2.0 + 5.0 - 0.565937 * 4.0;
        assert!((heuristic_eval(&p, Side::South, false) - south).abs() < 1e-12);
        assert!((heuristic_eval(&p, Side::South, true) - south - 0.418841).abs() < 1e-12);
        assert!((south - 4.825556).abs() < 1e-9);
        // North: H1 1, H2 2, H3 2, H4 4, H6 5.
        let north = heuristic_eval(&p, Side::North, false);
        assert!((north - 2.490718).abs() < 1e-9, "{north}");
    }
}
