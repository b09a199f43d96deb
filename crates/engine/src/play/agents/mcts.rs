//! Monte-Carlo tree search with UCT, as in the published studies: random
//! expansion (or epsilon-greedy, `mcts:BUDGET:expand=E`, the Kalah agents
//! study's "in terms of the expansion step ... the epsilon-greedy
//! strategy"), play-outs random, epsilon-greedy or heavy, the most-visited
//! root move played.
//!
//! In Awari and Oware, where positions can repeat, a play-out that has not
//! ended after [`PLAYOUT_MAX_PLIES`] plies is scored on the seeds captured
//! so far (the seeds left on the board split evenly, as at a match's ply
//! cap).

use crate::clock::Instant;
use crate::side::side_index;
use crate::side::Side;

use crate::rng::SeededRng;
use rand::Rng;

use super::greedy::greedy_move;
use super::{Agent, Budget, Choice, Playout, Stop};
use crate::play::state::State;

/// Longest play-out, in plies; Kalah play-outs always end well before.
pub const PLAYOUT_MAX_PLIES: usize = 500;

/// A child drawn with weight 1 + the seeds its move captures (heavy
/// play-outs); `children` must not be empty.
pub fn heavy_pick(children: &crate::play::state::Children, rng: &mut SeededRng) -> usize {
    let n = children.len();
    let mut weights = [0u32; crate::sow::MAX_PITS];
    let mut total = 0;
    for (i, w) in weights[..n].iter_mut().enumerate() {
        *w = 1 + children.get(i).step.captured as u32;
        total += *w;
    }
    let mut r = rng.gen_range(0..total);
    for (i, &w) in weights[..n].iter().enumerate() {
        if r < w {
            return i;
        }
        r -= w;
    }
    n - 1
}

/// The agent `mcts:BUDGET`.
#[derive(Debug)]
pub struct MctsAgent {
    budget: Budget,
    uct: f64,
    playout: Playout,
    rng: SeededRng,
    name: String,
    greedy: fn(&State) -> (usize, i32),
    ties: Ties,
    stop: Stop,
    expand: Option<f64>,
}

/// Which of equal children an MCTS agent takes, in the tree policy (equal
/// UCT scores) and at the root (equally visited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ties {
    /// The first expanded in the tree, the leftmost pit at the root
    /// (`mcts:BUDGET`).
    #[default]
    FirstLeftmost,
    /// The last expanded, in the tree and at the root (expansion is in
    /// random order): the UCT code that the five-game study's listing of
    /// its MCTS follows keeps the last of a list sorted by score or by
    /// visits.
    LastExpanded,
}

#[derive(Debug)]
struct Node {
    pos: State,
    /// The side that played the move leading here (rewards are theirs).
    just_moved: Side,
    children: Vec<usize>,
    /// Pit played from the parent.
    pit: usize,
    untried: Vec<usize>,
    visits: f64,
    reward: f64,
}

impl MctsAgent {
    /// An MCTS agent with `budget` per move, exploration constant `uct`,
    /// play-outs by `playout`, random draws from `rng`.
    pub fn new(
        budget: Budget,
        uct: f64,
        playout: Playout,
        rng: SeededRng,
        name: String,
    ) -> MctsAgent {
        MctsAgent {
            budget,
            uct,
            playout,
            rng,
            name,
            greedy: greedy_move,
            ties: Ties::FirstLeftmost,
            stop: Stop::never(),
            expand: None,
        }
    }

    /// The same agent expanding epsilon-greedily: at each expansion, with
    /// probability `eps` a random untried move, else the greedy move of
    /// the node's position when it is untried (a random untried one when
    /// it is not). `None` (the default) expands a random untried move.
    pub fn with_expand(mut self, eps: Option<f64>) -> MctsAgent {
        self.expand = eps;
        self
    }

    /// The same agent, ending its search early once `stop` is raised
    /// (polled once an iteration).
    pub fn with_stop(mut self, stop: Stop) -> MctsAgent {
        self.stop = stop;
        self
    }

    /// The same agent taking equal children as `ties` says.
    pub fn with_ties(mut self, ties: Ties) -> MctsAgent {
        self.ties = ties;
        self
    }

    /// The same agent with `greedy` choosing the greedy play-outs' moves
    /// (the project's [`greedy_move`] unless set).
    pub fn with_greedy(mut self, greedy: fn(&State) -> (usize, i32)) -> MctsAgent {
        self.greedy = greedy;
        self
    }

    fn node(&self, pos: State, just_moved: Side, pit: usize) -> Node {
        let (list, n) = pos.moves();
        Node {
            pos,
            just_moved,
            children: Vec::new(),
            pit,
            untried: list[..n].to_vec(),
            visits: 0.0,
            reward: 0.0,
        }
    }

    /// Play the game out from `pos` with the play-out policy (at most
    /// [`PLAYOUT_MAX_PLIES`] plies); the final scores `[south, north]`.
    fn play_out(&mut self, mut pos: State) -> [u16; 2] {
        let mut plies = 0;
        while !pos.is_over() && plies < PLAYOUT_MAX_PLIES {
            plies += 1;
            // One call of the rules per ply: the child is taken from the list.
            let children = pos.children();
            let n = children.len();
            let k = match self.playout {
                Playout::Random => self.rng.gen_range(0..n),
                Playout::EpsilonGreedy(eps) => {
                    if self.rng.gen::<f64>() < eps {
                        self.rng.gen_range(0..n)
                    } else {
                        let pit = (self.greedy)(&pos).0;
                        (0..n)
                            .find(|&i| children.pit(i) == pit)
                            .expect("greedy plays a legal move")
                    }
                }
                Playout::Heavy => heavy_pick(&children, &mut self.rng),
            };
            pos = children.get(k).state;
        }
        pos.scores()
    }

    /// The index in `node.untried` of the move to expand.
    fn expansion(&mut self, node: &Node) -> usize {
        let n = node.untried.len();
        match self.expand {
            Some(eps) if self.rng.gen::<f64>() >= eps => {
                let pit = (self.greedy)(&node.pos).0;
                match node.untried.iter().position(|&p| p == pit) {
                    Some(i) => i,
                    None => self.rng.gen_range(0..n),
                }
            }
            _ => self.rng.gen_range(0..n),
        }
    }

    /// Run the search from `pos`; the root's children as (pit, visits, mean
    /// reward for the mover): none when the stop flag was raised before the
    /// first iteration.
    pub fn search(&mut self, pos: &State) -> Vec<(usize, f64, f64)> {
        let start = Instant::now();
        let me = pos.to_move();
        let mut tree = vec![self.node(pos.clone(), me.other(), usize::MAX)];
        let mut iterations = 0u64;
        let mut path = Vec::new();
        let last_of_equals = self.ties == Ties::LastExpanded;
        loop {
            // A deadline lets one iteration run, so that the move is a
            // considered one; a raised flag stops at once.
            let stopped = self.stop.is_flag_raised() || (iterations > 0 && self.stop.is_raised());
            if self.budget.spent(iterations, start) || stopped {
                break;
            }
            iterations += 1;
            // Selection.
            path.clear();
            let mut at = 0;
            path.push(at);
            while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
                let ln_n = tree[at].visits.ln();
                let mut best = (f64::NEG_INFINITY, 0);
                for &c in &tree[at].children {
                    let node = &tree[c];
                    let score = node.reward / node.visits + self.uct * (ln_n / node.visits).sqrt();
                    if score > best.0 || (score == best.0 && last_of_equals) {
                        best = (score, c);
                    }
                }
                at = best.1;
                path.push(at);
            }
            // Expansion: one random untried move (or epsilon-greedy).
            if !tree[at].untried.is_empty() {
                let i = self.expansion(&tree[at]);
                let pit = tree[at].untried.swap_remove(i);
                let mut child = tree[at].pos.clone();
                let mover = child.to_move();
                child.play(pit).expect("legal move");
                let node = self.node(child, mover, pit);
                tree.push(node);
                let id = tree.len() - 1;
                tree[at].children.push(id);
                at = id;
                path.push(at);
            }
            // Simulation.
            let stores = self.play_out(tree[at].pos.clone());
            // Back-propagation.
            for &id in &path {
                let node = &mut tree[id];
                let mine = stores[side_index(node.just_moved)];
                let theirs = stores[1 - side_index(node.just_moved)];
                node.visits += 1.0;
                node.reward += match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
        }
        tree[0]
            .children
            .iter()
            .map(|&c| {
                let n = &tree[c];
                (n.pit, n.visits, n.reward / n.visits)
            })
            .collect()
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, pos: &State) -> Choice {
        let children = self.search(pos);
        if children.is_empty() {
            // Stopped before any iteration: any legal move.
            return Choice::bare(pos.moves().0[0]);
        }
        // Most visited; ties to the leftmost pit, or to the last expanded.
        let mut sorted = children;
        let last = self.ties == Ties::LastExpanded;
        if !last {
            sorted.sort_by_key(|c| c.0);
        }
        let best = sorted
            .iter()
            .fold(None::<(usize, f64, f64)>, |acc, &c| match acc {
                Some(a) if a.1 > c.1 || (a.1 == c.1 && !last) => Some(a),
                _ => Some(c),
            })
            .expect("at least one iteration expands a root move");
        Choice {
            pit: best.0,
            value: Some(best.2),
            value_kind: "estimated score (win 1, draw 1/2) of the move",
        }
    }
}
