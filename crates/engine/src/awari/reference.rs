//! An independent, deliberately plain solver of Awari and Oware boards, used
//! to check the retrograde tables. It shares nothing with the table builder
//! but the rules ([`awari_turn`]).
//!
//! # Method
//!
//! 1. Every board reachable from the given one is enumerated (a `HashMap`
//!    from board to node), with each node's moves from [`awari_turn`].
//! 2. The nodes are grouped in layers by the number of seeds on the board.
//!    A move either keeps every seed on the board (no capture: the child is
//!    in the same layer), or captures (the child is in a smaller layer), or
//!    ends the game (a forced grand slam). A board whose turn is
//!    [`AwariTurn::Over`] is terminal. Layers are solved from few seeds up,
//!    so when a layer is solved every move leaving it has a known value, an
//!    *exit*: `captured + end_gain - value(child)` (no child when the game
//!    ends), or `mover_gain - opponent_gain` for a terminal board.
//! 3. Inside a layer no seed changes hands, so a line of play inside it is
//!    worth what the exit that ends it is worth (to the player who takes the
//!    exit; its negation to the other), or 0 if it never ends (endless play
//!    splits the seeds evenly). For a threshold `t > 0`, two sets are
//!    computed together by naive repeated sweeps over the layer until
//!    nothing changes (a least fixpoint, starting from empty sets):
//!    - `win[v]`: the mover at `v` can force a value `>= t`: some exit of `v`
//!      is worth `>= t`, or some move leads to a node `c` with `lose[c]`;
//!    - `lose[v]`: the opponent can force the mover's value `<= -t`: every
//!      exit of `v` is worth `<= -t` and every move inside the layer leads to
//!      a node `c` with `win[c]` (and `v` has at least one move or exit).
//!
//!    This is the attractor of a reachability game in which one player (the
//!    mover at `v` for `win`, the opponent for `lose`) must *reach* an exit
//!    worth at least `t` to them in finitely many moves; a node enters the
//!    sets only through a finite forcing strategy, which is what the least
//!    fixpoint of the sweeps computes. Never reaching an exit is worth 0,
//!    less than `t`, so staying in the layer for ever never counts as a win
//!    for the forcing player: that is why the fixpoint is the least one and
//!    why it is correct with cycles. Reachability games on finite graphs are
//!    determined, so the value of `v` is `>= t` exactly when `win[v]`, and
//!    `<= -t` exactly when `lose[v]`.
//! 4. The value of every node is 0 or plus or minus the value of some exit
//!    of its layer (the one that ends the optimal line), so it suffices to
//!    try the thresholds `t` in the set of `|exit|` values of the layer: the
//!    value is the largest `t` with `win`, else minus the largest `t` with
//!    `lose`, else 0.
//!
//! Values follow the convention of [`crate::awari::rules`]: seeds the mover
//! will still capture or take minus those the opponent will, perfect play,
//! endless play adding 0.
//!
//! `tests/awari_reference.rs` checks it on boards solved by hand, the Bellman
//! equation on every board it solves, and against plain minimax over lines of
//! play with a repetition rule (a second method sharing nothing with this
//! one) on every small board.
//!
//! The cost is (thresholds) x (sweeps) x (moves in the layer): fine for the
//! small games of the tests (up to a few hundred thousand boards), not meant
//! for more.

use std::collections::HashMap;

use crate::awari::rules::{awari_turn, AwariGame, AwariTurn};

/// A move of a node: its value is known once the smaller layers are solved,
/// or it stays in the layer.
#[derive(Clone, Copy, Debug)]
enum Edge {
    /// The game ends: worth this much to the mover.
    End(i32),
    /// A capture of `gain` seeds into the smaller layer's node `child`.
    Capture(i32, u32),
    /// A move without capture to `child`, in the same layer.
    Quiet(u32),
}

/// Every board reachable from a start board, solved exactly.
#[derive(Debug)]
pub struct AwariReference {
    m: usize,
    game: AwariGame,
    boards: Vec<[u8; 12]>,
    index: HashMap<[u8; 12], u32>,
    values: Vec<i32>,
}

impl AwariReference {
    /// Enumerate and solve every board reachable from `cells` (`len >= 2m`,
    /// at most 255 seeds) with `m` pits per side under `game`.
    ///
    /// # Panics
    /// When `m` is not in `2..=6` (see [`awari_turn`]).
    pub fn solve(cells: &[u8], m: usize, game: AwariGame) -> AwariReference {
        let mut root = [0u8; 12];
        root[..2 * m].copy_from_slice(&cells[..2 * m]);
        AwariReference::solve_many([root], m, game)
    }

    /// Enumerate and solve every board reachable from any of `roots` (in
    /// the `[u8; 12]` form, e.g. from [`awari_boards`]); the first root is
    /// the start board of [`AwariReference::root_value`].
    ///
    /// # Panics
    /// When `m` is not in `2..=6` or there is no root.
    pub fn solve_many(
        roots: impl IntoIterator<Item = [u8; 12]>,
        m: usize,
        game: AwariGame,
    ) -> AwariReference {
        // 1. Enumerate, with each node's moves.
        let mut boards: Vec<[u8; 12]> = Vec::new();
        let mut index = HashMap::new();
        for root in roots {
            index.entry(root).or_insert_with(|| {
                boards.push(root);
                (boards.len() - 1) as u32
            });
        }
        assert!(!boards.is_empty(), "no board to solve");
        let mut edges: Vec<Vec<Edge>> = Vec::new();
        let mut next = 0;
        while next < boards.len() {
            let board = boards[next];
            next += 1;
            let mut out = Vec::new();
            match awari_turn(&board, m, game) {
                AwariTurn::Over {
                    mover_gain,
                    opponent_gain,
                } => out.push(Edge::End(mover_gain as i32 - opponent_gain as i32)),
                AwariTurn::Play(moves) => {
                    for mv in moves.as_slice() {
                        if mv.game_over {
                            out.push(Edge::End(mv.captured as i32 + mv.end_gain as i32));
                            continue;
                        }
                        let child = *index.entry(mv.board).or_insert_with(|| {
                            boards.push(mv.board);
                            (boards.len() - 1) as u32
                        });
                        out.push(if mv.captured > 0 {
                            Edge::Capture(mv.captured as i32, child)
                        } else {
                            Edge::Quiet(child)
                        });
                    }
                }
            }
            edges.push(out);
        }

        // 2. Layers by seeds on the board.
        let seeds = |b: &[u8; 12]| b.iter().map(|&c| c as usize).sum::<usize>();
        let most = boards.iter().map(seeds).max().unwrap_or(0);
        let mut layers: Vec<Vec<u32>> = vec![Vec::new(); most + 1];
        for (i, b) in boards.iter().enumerate() {
            layers[seeds(b)].push(i as u32);
        }

        // Each node's place in its layer.
        let mut local = vec![0u32; boards.len()];
        for layer in &layers {
            for (i, &v) in layer.iter().enumerate() {
                local[v as usize] = i as u32;
            }
        }
        for (v, moves) in edges.iter().enumerate() {
            for e in moves {
                if let Edge::Quiet(c) = *e {
                    assert_eq!(
                        seeds(&boards[c as usize]),
                        seeds(&boards[v]),
                        "quiet moves keep the seeds"
                    );
                }
            }
        }

        // 3. Solve the layers from few seeds up.
        let mut values = vec![i32::MIN; boards.len()];
        for layer in &layers {
            solve_layer(layer, &edges, &local, &mut values);
        }
        AwariReference {
            m,
            game,
            boards,
            index,
            values,
        }
    }

    /// Pits per side.
    pub fn pits_per_side(&self) -> usize {
        self.m
    }

    /// The game.
    pub fn game(&self) -> AwariGame {
        self.game
    }

    /// The number of boards reachable from the start board (itself included).
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    /// Whether no board was solved (never: the start board is always there).
    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }

    /// The value of the start board.
    pub fn root_value(&self) -> i32 {
        self.values[0]
    }

    /// The value of a reachable board (`2m` cells or the `[u8; 12]` form),
    /// `None` if it is not reachable from the start board.
    pub fn value(&self, cells: &[u8]) -> Option<i32> {
        let mut b = [0u8; 12];
        b[..2 * self.m].copy_from_slice(&cells[..2 * self.m]);
        self.index.get(&b).map(|&i| self.values[i as usize])
    }

    /// Every reachable board with its value.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8; 12], i32)> + '_ {
        self.boards.iter().zip(self.values.iter().copied())
    }
}

/// Every board of `m` pits per side (`2m` cells) holding exactly `k` seeds,
/// in the `[u8; 12]` form: `C(k + 2m - 1, 2m - 1)` of them.
pub fn awari_boards(m: usize, k: usize) -> Vec<[u8; 12]> {
    fn fill(b: &mut [u8; 12], i: usize, n: usize, left: usize, out: &mut Vec<[u8; 12]>) {
        if i + 1 == n {
            b[i] = left as u8;
            out.push(*b);
            return;
        }
        for c in 0..=left {
            b[i] = c as u8;
            fill(b, i + 1, n, left - c, out);
        }
    }
    let mut out = Vec::new();
    fill(&mut [0u8; 12], 0, 2 * m, k, &mut out);
    out
}

/// The exact value of `cells` (`m` pits per side, `game`), by
/// [`AwariReference::solve`].
pub fn awari_value(cells: &[u8], m: usize, game: AwariGame) -> i32 {
    AwariReference::solve(cells, m, game).root_value()
}

/// A move of a node seen inside its layer.
#[derive(Clone, Copy, Debug)]
enum Local {
    /// Leaves the layer (or ends the game): worth this much to the mover.
    Exit(i32),
    /// Stays in the layer, to the node at this place in the layer.
    Quiet(u32),
}

/// Solve one layer; every node of smaller layers already has its value.
fn solve_layer(layer: &[u32], edges: &[Vec<Edge>], local: &[u32], values: &mut [i32]) {
    // The layer's moves with their exit values, flattened: node i's moves
    // are moves[starts[i]..starts[i + 1]].
    let mut starts = Vec::with_capacity(layer.len() + 1);
    let mut moves = Vec::new();
    for &v in layer {
        starts.push(moves.len());
        for e in &edges[v as usize] {
            moves.push(match *e {
                Edge::End(x) => Local::Exit(x),
                Edge::Capture(gain, child) => {
                    let cv = values[child as usize];
                    assert!(cv != i32::MIN, "a child in a smaller layer is solved");
                    Local::Exit(gain - cv)
                }
                Edge::Quiet(child) => Local::Quiet(local[child as usize]),
            });
        }
    }
    starts.push(moves.len());
    // The thresholds worth trying: the absolute exit values.
    let mut thresholds: Vec<i32> = moves
        .iter()
        .filter_map(|e| match *e {
            Local::Exit(x) if x != 0 => Some(x.abs()),
            _ => None,
        })
        .collect();
    thresholds.sort_unstable();
    thresholds.dedup();
    let mut value = vec![0i32; layer.len()];
    // Thresholds from low to high: a node's value is the largest t it wins
    // (or minus the largest t it loses).
    for &t in &thresholds {
        let mut win = vec![false; layer.len()];
        let mut lose = vec![false; layer.len()];
        loop {
            let mut changed = false;
            for i in 0..layer.len() {
                let node = &moves[starts[i]..starts[i + 1]];
                if !win[i] {
                    let w = node.iter().any(|e| match *e {
                        Local::Quiet(c) => lose[c as usize],
                        Local::Exit(x) => x >= t,
                    });
                    if w {
                        win[i] = true;
                        changed = true;
                    }
                }
                if !lose[i] {
                    let l = !node.is_empty()
                        && node.iter().all(|e| match *e {
                            Local::Quiet(c) => win[c as usize],
                            Local::Exit(x) => x <= -t,
                        });
                    if l {
                        lose[i] = true;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for i in 0..layer.len() {
            assert!(!(win[i] && lose[i]), "a node both wins and loses {t}");
            if win[i] {
                value[i] = t;
            } else if lose[i] && value[i] <= 0 {
                value[i] = -t;
            }
        }
    }
    for (i, &v) in layer.iter().enumerate() {
        values[v as usize] = value[i];
    }
}
