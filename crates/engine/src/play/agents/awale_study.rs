//! The agents of the Awale MCTS study, as its text and code define them
//! (`docs/study-001.md`): they play any game of the family.
//!
//! - `eps-greedy:E` ([`EpsGreedyAgent`]): with probability E a uniformly
//!   random move, else the move with the best immediate reward: a move that
//!   wins the game first, one that loses it last, then the most seeds
//!   captured, ties at random.
//! - `awale-mcts:BUDGET` ([`StudyMcts`] with a random tree policy): from the
//!   root, a random unvisited move while there is one, else a uniformly
//!   random child; one node added per iteration; a uniformly random
//!   play-out; the move played maximises (wins - losses) / play-outs.
//! - `awale-uct:BUDGET[:c=C]`: the same with the study's UCT tree policy,
//!   a child scored (w + d/2) / (n + 1) + C sqrt(ln N / (n + 1)) (w, d:
//!   the play-outs won by the player who moved into it and drawn; n its
//!   play-outs, N its parent's), ties at random; C = sqrt(2)/2 by default.
//! - `awale-heavy:BUDGET[:c=C]`: UCT with heavy play-outs, each move drawn
//!   with weight 1 + the seeds it captures.
//!
//! A play-out that has not ended after [`PLAYOUT_MAX_PLIES`] plies is a
//! draw in Awale (the study's cap) and is scored on the captures so far in
//! the other games.
//!
//! The three MCTS agents take a last option, `:keep`
//! (`awale-mcts:1000:keep`): the agent keeps its tree between its moves, as
//! the study's program does. Asked for a move, it looks in the tree of its
//! previous move for the position it is given, below the child it played
//! and through the opponent's replies (nodes where the opponent is to move;
//! a position matches when it is equal, side to move included), and goes
//! on from that subtree with its statistics; the budget counts the new
//! iterations only. When the position is not there (a move of its own it
//! did not choose, another game) it starts afresh. Without `:keep` every
//! move starts afresh.

use crate::clock::Instant;

use rand::Rng;

use super::mcts::{heavy_pick, PLAYOUT_MAX_PLIES};
use super::{Agent, Budget, Choice, Stop};
use crate::play::state::State;
use crate::rng::SeededRng;
use crate::side::{side_index, Side};

/// The study's UCT constant, sqrt(2)/2.
pub const STUDY_UCT: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// The agent `eps-greedy:E`.
#[derive(Debug)]
pub struct EpsGreedyAgent {
    eps: f64,
    rng: SeededRng,
}

impl EpsGreedyAgent {
    /// Random moves with probability `eps`, greedy ones otherwise.
    pub fn new(eps: f64, rng: SeededRng) -> EpsGreedyAgent {
        EpsGreedyAgent { eps, rng }
    }
}

/// The winner of a finished (or capped) game: `Some(side)` or `None` for a
/// draw.
fn winner(pos: &State, capped: bool) -> Option<Side> {
    if capped && pos.rules().cap_is_draw() {
        return None;
    }
    match pos.difference(Side::South).signum() {
        1 => Some(Side::South),
        -1 => Some(Side::North),
        _ => None,
    }
}

impl Agent for EpsGreedyAgent {
    fn name(&self) -> String {
        format!("eps-greedy:{}", self.eps)
    }

    fn choose(&mut self, pos: &State) -> Choice {
        let children = pos.children();
        let n = children.len();
        let me = pos.to_move();
        let k = if self.rng.gen::<f64>() < self.eps {
            self.rng.gen_range(0..n)
        } else {
            // (win, captures, random) as in the study's sort.
            let mut best = (i32::MIN, 0u32, 0.0f64, 0usize);
            for i in 0..n {
                let c = children.get(i);
                let win = if c.state.is_over() {
                    match winner(&c.state, false) {
                        Some(s) if s == me => 1,
                        Some(_) => -1,
                        None => 0,
                    }
                } else {
                    0
                };
                let key = (win, c.step.captured as u32, self.rng.gen::<f64>(), i);
                if (key.0, key.1, key.2) > (best.0, best.1, best.2) {
                    best = key;
                }
            }
            best.3
        };
        Choice {
            pit: children.pit(k),
            value: None,
            value_kind: "",
        }
    }
}

/// The tree policy of [`StudyMcts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TreePolicy {
    /// Uniformly random children (the study's plain MCTS).
    Random,
    /// The study's UCT score with this constant.
    Uct(f64),
}

#[derive(Debug)]
struct Node {
    pos: State,
    just_moved: Side,
    pit: usize,
    children: Vec<usize>,
    untried: Vec<usize>,
    playouts: u32,
    wins: [u32; 2],
}

/// The study's MCTS, UCT and heavy-play-out UCT.
#[derive(Debug)]
pub struct StudyMcts {
    budget: Budget,
    tree: TreePolicy,
    heavy: bool,
    rng: SeededRng,
    name: String,
    stop: Stop,
    /// Whether the tree is kept between moves.
    keep: bool,
    /// The last search's tree (root at 0) and the pit then played, when
    /// the tree is kept.
    kept: Option<(Vec<Node>, Option<usize>)>,
    /// The play-outs the last search's root started with.
    reused: u32,
}

impl StudyMcts {
    /// An agent searching `budget` per move.
    pub fn new(
        budget: Budget,
        tree: TreePolicy,
        heavy: bool,
        rng: SeededRng,
        name: String,
    ) -> StudyMcts {
        StudyMcts {
            budget,
            tree,
            heavy,
            rng,
            name,
            stop: Stop::never(),
            keep: false,
            kept: None,
            reused: 0,
        }
    }

    /// The same agent, keeping its tree between moves when `keep` (see the
    /// module's notes).
    pub fn keeping_tree(mut self, keep: bool) -> StudyMcts {
        self.keep = keep;
        self
    }

    /// The play-outs below the root that the last search started with: 0
    /// when it started afresh, else those of the subtree it kept.
    pub fn reused_playouts(&self) -> u32 {
        self.reused
    }

    /// The tree to search `pos` from: the subtree of the kept tree whose
    /// root is `pos`, reached from the child played through nodes where the
    /// other side is to move; `None` when there is none.
    fn take_kept(&mut self, pos: &State) -> Option<Vec<Node>> {
        let (tree, played) = self.kept.take()?;
        let played = played?;
        let child = *tree[0]
            .children
            .iter()
            .find(|&&id| tree[id].pit == played)?;
        let me = pos.to_move();
        let mut queue = std::collections::VecDeque::from([child]);
        while let Some(id) = queue.pop_front() {
            let node = &tree[id];
            if node.pos == *pos {
                return Some(subtree(tree, id));
            }
            if node.pos.to_move() != me && !node.pos.is_over() {
                queue.extend(node.children.iter().copied());
            }
        }
        None
    }

    /// The same agent, ending its search early once `stop` is raised
    /// (polled once an iteration).
    pub fn with_stop(mut self, stop: Stop) -> StudyMcts {
        self.stop = stop;
        self
    }

    fn node(pos: State, just_moved: Side, pit: usize) -> Node {
        let (list, n) = pos.moves();
        Node {
            pos,
            just_moved,
            pit,
            children: Vec::new(),
            untried: list[..n].to_vec(),
            playouts: 0,
            wins: [0; 2],
        }
    }

    fn play_out(&mut self, mut pos: State) -> Option<Side> {
        let mut plies = 0;
        while !pos.is_over() {
            if plies == PLAYOUT_MAX_PLIES {
                return winner(&pos, true);
            }
            plies += 1;
            let children = pos.children();
            let n = children.len();
            let k = if self.heavy {
                heavy_pick(&children, &mut self.rng)
            } else {
                self.rng.gen_range(0..n)
            };
            pos = children.get(k).state;
        }
        winner(&pos, false)
    }

    fn select(&mut self, tree: &[Node], at: usize) -> usize {
        let node = &tree[at];
        match self.tree {
            TreePolicy::Random => node.children[self.rng.gen_range(0..node.children.len())],
            TreePolicy::Uct(c) => {
                let ln_n = (node.playouts as f64).ln();
                let mut best = (f64::NEG_INFINITY, 0.0, 0);
                for &id in &node.children {
                    let ch = &tree[id];
                    let draws = ch.playouts - ch.wins[0] - ch.wins[1];
                    let w = ch.wins[side_index(ch.just_moved)] as f64 + 0.5 * draws as f64;
                    let n1 = ch.playouts as f64 + 1.0;
                    let score = w / n1 + c * (ln_n / n1).sqrt();
                    let tie = self.rng.gen::<f64>();
                    if (score, tie) > (best.0, best.1) {
                        best = (score, tie, id);
                    }
                }
                best.2
            }
        }
    }

    /// The root's children after the search: (pit, play-outs, wins -
    /// losses per play-out for the mover).
    pub fn search(&mut self, pos: &State) -> Vec<(usize, u32, f64)> {
        let start = Instant::now();
        let me = pos.to_move();
        let mut tree = match self.take_kept(pos) {
            Some(tree) => tree,
            None => vec![StudyMcts::node(pos.clone(), me.other(), usize::MAX)],
        };
        self.reused = tree[0].playouts;
        let mut path = Vec::new();
        let mut iterations = 0u64;
        loop {
            // A deadline lets one iteration run, so that the move is a
            // considered one; a raised flag stops at once.
            let stopped = self.stop.is_flag_raised() || (iterations > 0 && self.stop.is_raised());
            if self.budget.spent(iterations, start) || stopped {
                break;
            }
            iterations += 1;
            path.clear();
            let mut at = 0;
            path.push(at);
            loop {
                if tree[at].pos.is_over() {
                    break;
                }
                if !tree[at].untried.is_empty() {
                    let i = self.rng.gen_range(0..tree[at].untried.len());
                    let pit = tree[at].untried.swap_remove(i);
                    let mut child = tree[at].pos.clone();
                    let mover = child.to_move();
                    child.play(pit).expect("legal move");
                    tree.push(StudyMcts::node(child, mover, pit));
                    let id = tree.len() - 1;
                    tree[at].children.push(id);
                    path.push(id);
                    at = id;
                    break;
                }
                at = self.select(&tree, at);
                path.push(at);
            }
            let won = self.play_out(tree[at].pos.clone());
            for &id in &path {
                let node = &mut tree[id];
                node.playouts += 1;
                if let Some(side) = won {
                    node.wins[side_index(side)] += 1;
                }
            }
        }
        let mut out: Vec<(usize, u32, f64)> = tree[0]
            .children
            .iter()
            .map(|&id| {
                let n = &tree[id];
                let mine = n.wins[side_index(me)] as f64;
                let theirs = n.wins[1 - side_index(me)] as f64;
                (
                    n.pit,
                    n.playouts,
                    (mine - theirs) / n.playouts.max(1) as f64,
                )
            })
            .collect();
        out.sort_by_key(|c| c.0);
        if self.keep {
            self.kept = Some((tree, None));
        }
        out
    }
}

/// The subtree of `tree` under `root`, as a tree of its own (root at 0,
/// children in the same order).
fn subtree(tree: Vec<Node>, root: usize) -> Vec<Node> {
    let mut order = vec![root];
    let mut i = 0;
    while i < order.len() {
        order.extend(tree[order[i]].children.iter().copied());
        i += 1;
    }
    let mut new_id = vec![usize::MAX; tree.len()];
    for (k, &id) in order.iter().enumerate() {
        new_id[id] = k;
    }
    let mut slots: Vec<Option<Node>> = tree.into_iter().map(Some).collect();
    order
        .iter()
        .map(|&id| {
            let mut node = slots[id].take().expect("a tree node is reached once");
            for c in &mut node.children {
                *c = new_id[*c];
            }
            node
        })
        .collect()
}

impl Agent for StudyMcts {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, pos: &State) -> Choice {
        let children = self.search(pos);
        // The study's final selection: the best mean, the leftmost of equals.
        let Some(best) = children
            .iter()
            .fold(None::<(usize, u32, f64)>, |acc, &c| match acc {
                Some(a) if a.2 >= c.2 => Some(a),
                _ => Some(c),
            })
        else {
            // Stopped before any iteration: any legal move.
            return Choice::bare(pos.moves().0[0]);
        };
        if let Some((_, played)) = &mut self.kept {
            *played = Some(best.0);
        }
        Choice {
            pit: best.0,
            value: Some(best.2),
            value_kind: "mean result of the move's play-outs (win 1, draw 0, loss -1)",
        }
    }
}
