//! Monte-Carlo tree search with UCT, as in the published studies: random
//! expansion, play-outs random, epsilon-greedy or heavy, the most-visited
//! root move played.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::Rng;

use super::greedy::greedy_move;
use super::{moves, side_index, Agent, Budget, Choice, Playout};
use crate::position::{Position, Side};
use crate::rules::KalahRules;

/// The agent `mcts:BUDGET`.
#[derive(Debug)]
pub struct MctsAgent {
    rules: KalahRules,
    budget: Budget,
    uct: f64,
    playout: Playout,
    rng: SmallRng,
    name: String,
}

#[derive(Debug)]
struct Node {
    pos: Position,
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
        rules: KalahRules,
        budget: Budget,
        uct: f64,
        playout: Playout,
        rng: SmallRng,
        name: String,
    ) -> MctsAgent {
        MctsAgent {
            rules,
            budget,
            uct,
            playout,
            rng,
            name,
        }
    }

    fn node(&self, pos: Position, just_moved: Side, pit: usize) -> Node {
        let (list, n) = moves(&pos, self.rules);
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

    /// Play the game out from `pos` with the play-out policy; the final
    /// stores `[south, north]`.
    fn play_out(&mut self, mut pos: Position) -> [u8; 2] {
        while !pos.is_game_over(self.rules) {
            let (list, n) = moves(&pos, self.rules);
            let pit = match self.playout {
                Playout::Random => list[self.rng.gen_range(0..n)],
                Playout::EpsilonGreedy(eps) => {
                    if self.rng.gen::<f64>() < eps {
                        list[self.rng.gen_range(0..n)]
                    } else {
                        greedy_move(&pos, self.rules).0
                    }
                }
                Playout::Heavy => {
                    let mut weights = [0u32; crate::rules::MAX_PITS];
                    let mut total = 0;
                    for (w, &pit) in weights.iter_mut().zip(&list[..n]) {
                        let mut child = pos;
                        let mv = child.play(pit, self.rules).expect("legal move");
                        *w = 1 + mv.captured as u32;
                        total += *w;
                    }
                    let mut r = self.rng.gen_range(0..total);
                    let mut chosen = list[n - 1];
                    for (i, &w) in weights[..n].iter().enumerate() {
                        if r < w {
                            chosen = list[i];
                            break;
                        }
                        r -= w;
                    }
                    chosen
                }
            };
            pos.play(pit, self.rules).expect("legal move");
        }
        pos.stores()
    }

    /// Run the search from `pos`; the root's children as (pit, visits, mean
    /// reward for the mover).
    pub fn search(&mut self, pos: &Position) -> Vec<(usize, f64, f64)> {
        let start = Instant::now();
        let me = pos.to_move();
        let mut tree = vec![self.node(*pos, me.other(), usize::MAX)];
        let mut iterations = 0u64;
        let mut path = Vec::new();
        loop {
            let done = match self.budget {
                Budget::Iterations(n) => iterations >= n,
                Budget::Time(t) => iterations > 0 && start.elapsed() >= t,
            };
            if done {
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
                    if score > best.0 {
                        best = (score, c);
                    }
                }
                at = best.1;
                path.push(at);
            }
            // Expansion: one random untried move.
            if !tree[at].untried.is_empty() {
                let i = self.rng.gen_range(0..tree[at].untried.len());
                let pit = tree[at].untried.swap_remove(i);
                let mut child = tree[at].pos;
                let mover = child.to_move();
                child.play(pit, self.rules).expect("legal move");
                let node = self.node(child, mover, pit);
                tree.push(node);
                let id = tree.len() - 1;
                tree[at].children.push(id);
                at = id;
                path.push(at);
            }
            // Simulation.
            let stores = self.play_out(tree[at].pos);
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

    fn choose(&mut self, pos: &Position) -> Choice {
        let children = self.search(pos);
        // Most visited; ties to the leftmost pit.
        let mut sorted = children;
        sorted.sort_by_key(|c| c.0);
        let best = sorted
            .iter()
            .fold(None::<(usize, f64, f64)>, |acc, &c| match acc {
                Some(a) if a.1 >= c.1 => Some(a),
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
