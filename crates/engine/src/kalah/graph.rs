//! Full game graphs of small Kalah instances: every position reachable from
//! the start, with its exact value, its layer and its number of moves.
//!
//! # The counting convention
//!
//! A node of the graph is a full board state: the seeds of every pit, both
//! stores and the side to move. Every single move (one sowing) is an edge, so
//! the positions inside an extra-turn chain (the mover moves again) are nodes
//! like any other. Two rules decide where the graph stops:
//!
//! - a position where one store holds more than half of the seeds is
//!   *decided* (its winner is known): it is a leaf, counted and valued but
//!   its moves not followed ([`GraphOptions::decided_leaves`]);
//! - a move that ends the game leads to a terminal node counted **as the
//!   move left the board** ([`Terminals::AsPlayed`]): the seeds still in a
//!   row are *not* swept into the stores, and the side "to move" is the one
//!   the turn passes to (the mover again when the last seed fell into its
//!   own store).
//!
//! This is the convention of the published graphs: it reproduces every
//! published size but those of Kalah(2,5) and (3,6), and every published
//! W/L/D share but those of Kalah(2,1), (2,5) and (3,6);
//! `docs/kalah-graphs.md` gives the evidence and what is wrong with those
//! lines. The other conventions ([`Terminals::Swept`],
//! [`Terminals::Omitted`], decided positions expanded) are kept so that the
//! comparison can be re-run.
//!
//! # Layers
//!
//! A position where South has `p` seeds in its store and North `q` belongs to
//! the layer (subgraph) `g(p, q)`. No move takes a seed out of a store, so
//! every move stays in its layer or goes to one with a larger `p + q`; the
//! layers are reported ordered by `p + q`, then `p`.
//!
//! # Values
//!
//! Values come from the endgame tables: a position of Kalah(m, n) has at most
//! `2mn` seeds in play, so the m-pit tables up to `2mn` seeds cover the whole
//! graph ([`seeds_needed`]). "Win for South" means South ends the game with
//! more seeds in its store than North under perfect play from that node.
//!
//! ```no_run
//! use mancala_solver::kalah::graph::{graph, GraphOptions};
//! use mancala_solver::kalah::rules::KalahRules;
//! use mancala_solver::tablebase::TableSet;
//!
//! let tb = TableSet::open(std::path::Path::new("db"), KalahRules::Default, 2, 8).unwrap();
//! let report = graph(&GraphOptions::new(2, 2), &tb).unwrap();
//! assert!(report.positions > 0 && report.win <= report.positions);
//! ```

use crate::clock::Instant;
use crate::progress::{Event, Observer};
use crate::side::Side;
use crate::sow::MAX_PITS;
use crate::tables::MAX_TABLE_PITS;
use std::collections::BTreeMap;
use std::str::FromStr;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, MemoryUse, Result};
pub use crate::kalah::graph_store::configurations;
use crate::kalah::graph_store::{self, AtomicBits};
use crate::kalah::position::Position;
use crate::kalah::rules::{self, KalahRules};
use crate::kalah::tables::spec;
use crate::tablebase::TableSet;

/// How the positions that end the game are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terminals {
    /// As the last move left the board: remaining seeds not swept into the
    /// stores, the side to move being the one the turn passes to. The
    /// default: the convention of the published figures.
    #[default]
    AsPlayed,
    /// After the remaining seeds are swept into their owners' stores, the
    /// side to move being the player who made the last move.
    Swept,
    /// Not counted at all (only positions where a move is possible).
    Omitted,
}

impl Terminals {
    /// Every convention.
    pub const ALL: [Terminals; 3] = [Terminals::AsPlayed, Terminals::Swept, Terminals::Omitted];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Terminals::AsPlayed => "as-played",
            Terminals::Swept => "swept",
            Terminals::Omitted => "omitted",
        }
    }
}

impl std::fmt::Display for Terminals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Terminals {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        Terminals::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                format!("unknown terminal convention \"{s}\": use as-played, swept or omitted")
            })
    }
}

/// What graph to enumerate.
#[derive(Clone, Debug)]
pub struct GraphOptions {
    /// Pits per side (1..=6).
    pub pits: usize,
    /// Seeds per pit at the start (at least 1).
    pub seeds: usize,
    /// How terminal positions are counted.
    pub terminals: Terminals,
    /// Whether a position where one store holds more than half of the seeds
    /// (the winner is known) is a leaf: counted and valued, but its moves
    /// not followed. True by default: the published graphs stop there.
    pub decided_leaves: bool,
    /// Where progress goes (silent by default).
    pub progress: Observer,
    /// Most bytes the enumeration's store may take ([`memory_needed`]):
    /// [`graph`] refuses with [`Error::Memory`] before any work when the
    /// store needs more. 80% of the machine's memory by default.
    pub memory_budget: u64,
    /// Stop with [`Error::Memory`] once more positions than this are found
    /// (`None`, the default: no limit). The store does not grow with the
    /// positions found (see [`memory_needed`]); this only caps the work.
    pub max_positions: Option<u64>,
}

impl GraphOptions {
    /// Kalah(`pits`, `seeds`) with the default convention and no progress bar.
    pub fn new(pits: usize, seeds: usize) -> GraphOptions {
        GraphOptions {
            pits,
            seeds,
            terminals: Terminals::default(),
            decided_leaves: true,
            progress: Observer::silent(),
            memory_budget: crate::tables::driver::default_memory_budget(),
            max_positions: None,
        }
    }
}

/// The positions of one layer `g(p, q)` and their values for South.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layer {
    /// Seeds in South's store.
    pub p: u32,
    /// Seeds in North's store.
    pub q: u32,
    /// Positions in the layer.
    pub positions: u64,
    /// Positions won for South under perfect play.
    pub win: u64,
    /// Positions lost for South.
    pub loss: u64,
    /// Positions drawn.
    pub draw: u64,
}

/// Everything the enumeration found.
#[derive(Clone, Debug, Serialize)]
pub struct GraphReport {
    /// Pits per side.
    pub pits: usize,
    /// Seeds per pit at the start.
    pub seeds: usize,
    /// The rules.
    pub rules: String,
    /// How terminal positions were counted.
    pub terminals: Terminals,
    /// Positions (nodes) in the graph.
    pub positions: u64,
    /// Of which terminal (the game is over).
    pub terminal_positions: u64,
    /// Of which leaves because decided (a store holds more than half of the
    /// seeds) while the game goes on; 0 unless [`GraphOptions::decided_leaves`].
    pub decided_positions: u64,
    /// Whether decided positions were leaves.
    pub decided_leaves: bool,
    /// Edges (single moves) out of the positions.
    pub moves: u64,
    /// All configurations: see [`configurations`].
    pub configurations: u64,
    /// `positions / configurations`.
    pub share_of_configurations: f64,
    /// Mean number of legal moves over the positions whose moves were
    /// followed (neither terminal nor decided leaves).
    pub branching_mean: f64,
    /// Population standard deviation of the same.
    pub branching_sd: f64,
    /// Positions won for South under perfect play.
    pub win: u64,
    /// Positions lost for South.
    pub loss: u64,
    /// Positions drawn.
    pub draw: u64,
    /// Final store difference for South from the start with perfect play.
    pub start_value: i32,
    /// Longest game in single moves (depth of the graph).
    pub depth: usize,
    /// The layers `g(p, q)`, ordered by `p + q`, then `p`.
    pub layers: Vec<Layer>,
    /// Wall-clock seconds of the enumeration.
    pub seconds: f64,
}

impl GraphReport {
    /// Percentages of positions won, lost and drawn for South.
    pub fn shares(&self) -> [f64; 3] {
        let t = self.positions.max(1) as f64;
        [
            100.0 * self.win as f64 / t,
            100.0 * self.loss as f64 / t,
            100.0 * self.draw as f64 / t,
        ]
    }
}

/// Seeds in play the tables must cover for Kalah(m, n): `2mn`.
pub fn seeds_needed(pits: usize, seeds: usize) -> usize {
    2 * pits * seeds
}

/// Check that Kalah(pits, seeds) can be enumerated with tables, before any
/// work: 1..=6 pits, at least one seed, at most the indexer's seed count.
pub fn check_instance(pits: usize, seeds: usize) -> Result<()> {
    if pits == 0 || pits > MAX_TABLE_PITS {
        return Err(Error::OutOfRange(format!(
            "Kalah({pits},{seeds}): game graphs are enumerated for 1 to {MAX_TABLE_PITS} pits per side"
        )));
    }
    if seeds == 0 {
        return Err(Error::OutOfRange(format!(
            "Kalah({pits},0) has no seeds: give at least 1 seed per pit"
        )));
    }
    let k = seeds_needed(pits, seeds);
    if k > crate::tables::index::MAX_INDEX_SEEDS {
        return Err(Error::OutOfRange(format!(
            "Kalah({pits},{seeds}) has {k} seeds; the tables go up to {} seeds in play: use fewer seeds per pit",
            crate::tables::index::MAX_INDEX_SEEDS
        )));
    }
    Ok(())
}

/// The board a game-ending move leaves before the remaining seeds are swept,
/// and whether its last seed fell into the mover's store. Mirrors
/// [`rules::kalah_move`] up to the sweep; [`successors`] checks that sweeping
/// it gives what the rules engine gives.
fn unswept(
    cells: &[u8],
    m: usize,
    pit: usize,
    rules: KalahRules,
) -> ([u8; 2 * MAX_PITS + 2], bool) {
    let mut c = [0u8; 2 * MAX_PITS + 2];
    c[..2 * m + 2].copy_from_slice(cells);
    let last = crate::sow::sow(&mut c[..2 * m + 1], pit, false);
    if last < m && c[last] == 1 {
        let opposite = 2 * m - last;
        if c[opposite] > 0 || rules != KalahRules::CaptureNeedsOpposite {
            c[m] += c[opposite] + 1;
            c[last] = 0;
            c[opposite] = 0;
        }
    }
    (c, last == m)
}

/// The positions one move away from `pos` under `terminals`, pushed onto
/// `out`. Returns the number of legal moves (0 for a terminal position).
pub fn successors(
    pos: &Position,
    rules: KalahRules,
    terminals: Terminals,
    out: &mut Vec<Position>,
) -> usize {
    let m = pos.pits_per_side();
    let mut moves = 0;
    for pit in pos.legal_moves(rules) {
        moves += 1;
        let mut child = *pos;
        let mv = child.play(pit, rules).expect("legal move");
        if !mv.game_over {
            out.push(child);
            continue;
        }
        match terminals {
            Terminals::Omitted => {}
            Terminals::Swept => out.push(child),
            Terminals::AsPlayed => {
                let (mut c, extra) = unswept(pos.cells(), m, pit, rules);
                let mut check = c;
                rules::sweep(&mut check[..2 * m + 2], m);
                assert_eq!(
                    &check[..2 * m + 2],
                    child.cells(),
                    "unswept end of game disagrees with the rules engine"
                );
                let mut side = pos.to_move();
                if !extra {
                    rules::swap_sides(&mut c[..2 * m + 2], m);
                    side = side.other();
                }
                out.push(Position::from_cells(&c[..2 * m + 2], side).expect("valid cells"));
            }
        }
    }
    moves
}

/// Whether one store holds more than `half` seeds (half of all the seeds):
/// the winner is known whatever happens next.
pub fn is_decided(pos: &Position, half: usize) -> bool {
    pos.stores().iter().any(|&s| s as usize > half)
}

/// Per-thread sums.
#[derive(Default)]
struct Acc {
    positions: u64,
    terminal: u64,
    decided: u64,
    moves: u64,
    moves_sq: u64,
    layers: BTreeMap<(u32, u32), [u64; 3]>,
    missing: Option<Position>,
}

impl Acc {
    fn merge(mut self, other: Acc) -> Acc {
        self.positions += other.positions;
        self.terminal += other.terminal;
        self.decided += other.decided;
        self.moves += other.moves;
        self.moves_sq += other.moves_sq;
        for (k, v) in other.layers {
            let e = self.layers.entry(k).or_default();
            for (a, b) in e.iter_mut().zip(v) {
                *a += b;
            }
        }
        self.missing = self.missing.or(other.missing);
        self
    }
}

/// Bitsets the enumeration keeps over the configurations: the visited set,
/// the frontier being expanded and the next one.
pub const BITSETS: u64 = 3;

/// Bytes of memory the enumeration of Kalah(`pits`, `seeds`) needs for its
/// store: [`BITSETS`] bitsets of one bit per configuration (the frontiers
/// are bitsets too, so this is the whole store whatever the graph's shape;
/// the tables are read through memory maps and not counted). `None` when it
/// does not fit in 64 bits.
pub fn memory_needed(pits: usize, seeds: usize) -> Option<u64> {
    let bits = configurations(pits, seeds)?;
    graph_store::AtomicBits::bytes_for(bits).checked_mul(BITSETS)
}

/// Check, before any work, that the store of Kalah(`pits`, `seeds`) fits
/// in `budget` bytes: [`Error::Memory`] saying how much it needs otherwise.
pub fn check_memory(pits: usize, seeds: usize, budget: u64) -> Result<()> {
    match memory_needed(pits, seeds) {
        Some(need) if need <= budget => Ok(()),
        need => Err(Error::Memory {
            message: format!(
                "the game graph of Kalah({pits},{seeds}) needs {} of memory ({BITSETS} bits for each of its {} \
                 configurations), over the budget of {}",
                need.map_or("more than 2^64 bytes".to_string(), size),
                configurations(pits, seeds).map_or("more than 2^64".to_string(), |c| c.to_string()),
                size(budget)
            ),
            kind: MemoryUse::GameGraph,
        }),
    }
}

/// A byte count in KiB, MiB or GiB (rounded up).
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 10 << 30 => format!("{} GiB", b.div_ceil(1 << 30)),
        b if b >= 10 << 20 => format!("{} MiB", b.div_ceil(1 << 20)),
        b => format!("{} KiB", b.div_ceil(1 << 10)),
    }
}

/// What one round of the enumeration found: the sums over the positions it
/// expanded, how many new positions it discovered and the range of their
/// ranks.
struct Round {
    acc: Acc,
    new: u64,
    lo: u64,
    hi: u64,
}

impl Round {
    fn empty() -> Round {
        Round {
            acc: Acc::default(),
            new: 0,
            lo: u64::MAX,
            hi: 0,
        }
    }

    fn merge(self, other: Round) -> Round {
        Round {
            acc: self.acc.merge(other.acc),
            new: self.new + other.new,
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }
}

/// Count `pos` (a position of the frontier) into `acc` and push the
/// positions its moves lead to onto `out` (none for a leaf).
fn expand(
    pos: &Position,
    opts: &GraphOptions,
    tb: &TableSet<KalahRules>,
    acc: &mut Acc,
    out: &mut Vec<Position>,
) {
    let rules = tb.game();
    let half = opts.pits * opts.seeds;
    acc.positions += 1;
    let moves = if opts.decided_leaves && is_decided(pos, half) && !pos.is_game_over(rules) {
        acc.decided += 1;
        0
    } else {
        successors(pos, rules, opts.terminals, out) as u64
    };
    if moves == 0 {
        acc.terminal += u64::from(pos.is_game_over(rules));
    } else {
        acc.moves += moves;
        acc.moves_sq += moves * moves;
    }
    match tb.value(pos) {
        Some(v) => {
            let south = if pos.to_move() == Side::South { v } else { -v };
            let [p, q] = pos.stores();
            let e = acc.layers.entry((p as u32, q as u32)).or_default();
            e[if south > 0 {
                0
            } else if south < 0 {
                1
            } else {
                2
            }] += 1;
        }
        None => acc.missing = Some(*pos),
    }
}

/// Words of a frontier bitset scanned as one piece of parallel work.
const WORDS_PER_TASK: usize = 256;

/// Enumerate the game graph of Kalah(`opts.pits`, `opts.seeds`) under the
/// rules of `tb`, valuing every position from `tb`.
///
/// The enumeration runs breadth-first, one single move per round. Every
/// configuration has a dense rank ([`graph_store::ConfigIndex`]); the
/// visited set, the frontier being expanded and the next frontier are
/// bitsets of one bit per configuration ([`memory_needed`], checked against
/// [`GraphOptions::memory_budget`] before any work). Each round scans the
/// frontier's words in parallel (rayon) and sets the bits of new positions
/// with atomic `fetch_or`. `tb` must hold the `opts.pits`-pit tables up to
/// [`seeds_needed`] seeds.
pub fn graph(opts: &GraphOptions, tb: &TableSet<KalahRules>) -> Result<GraphReport> {
    let (m, n) = (opts.pits, opts.seeds);
    check_instance(m, n)?;
    let rules = tb.game();
    let need = seeds_needed(m, n);
    if tb.pits() != m || tb.max_seeds() < need {
        return Err(Error::MissingTable {
            path: spec(rules, m, need).path(tb.dir()),
            table: spec(rules, m, need).label(),
        });
    }
    check_memory(m, n, opts.memory_budget)?;
    let started = Instant::now();
    let index = graph_store::ConfigIndex::new(m, n)?;
    let start = Position::start(m, n)?;
    let start_value = tb.value(&start).expect("tables cover the start");
    let progress = &opts.progress;
    let visited = AtomicBits::new(index.count())?;
    let mut frontier = AtomicBits::new(index.count())?;
    let mut next = AtomicBits::new(index.count())?;
    progress.event(&Event::Start {
        stage: "Kalah graph",
        total: None,
    });
    let first = index.rank(&start);
    visited.insert(first);
    frontier.insert(first);
    // The frontier's bits lie in the words lo..=hi (none when empty).
    let mut range = Some((first / 64, first / 64));
    let mut total = Acc::default();
    let mut depth = 0;
    while let Some((lo, hi)) = range {
        let words = &mut frontier.words_mut()[lo as usize..=hi as usize];
        let round = words
            .par_chunks_mut(WORDS_PER_TASK)
            .enumerate()
            .fold(
                || (Round::empty(), Vec::new()),
                |(mut round, mut buf), (chunk, ws)| {
                    let first_word = lo as usize + chunk * WORDS_PER_TASK;
                    for (i, w) in ws.iter_mut().enumerate() {
                        let bits = std::mem::take(w.get_mut());
                        for r in graph_store::word_elements(first_word + i, bits) {
                            let pos = index.unrank(r);
                            buf.clear();
                            expand(&pos, opts, tb, &mut round.acc, &mut buf);
                            for child in &buf {
                                let c = index.rank(child);
                                if visited.insert(c) {
                                    next.insert(c);
                                    round.new += 1;
                                    round.lo = round.lo.min(c);
                                    round.hi = round.hi.max(c);
                                }
                            }
                        }
                    }
                    (round, buf)
                },
            )
            .map(|(round, _)| round)
            .reduce(Round::empty, Round::merge);
        total = total.merge(round.acc);
        if let Some(pos) = total.missing {
            return Err(Error::MissingTable {
                path: spec(rules, m, pos.active_seeds()).path(tb.dir()),
                table: spec(rules, m, pos.active_seeds()).label(),
            });
        }
        if round.new > 0 {
            depth += 1;
        }
        let found = total.positions + round.new;
        if let Some(max) = opts.max_positions.filter(|&max| found > max) {
            progress.event(&Event::Finish);
            return Err(Error::Memory {
                message: format!(
                    "the game graph of Kalah({m},{n}) has at least {found} positions, over the limit of {max}"
                ),
                kind: MemoryUse::GraphPositions,
            });
        }
        std::mem::swap(&mut frontier, &mut next);
        range = (round.new > 0).then_some((round.lo / 64, round.hi / 64));
        progress.advance(total.positions);
        progress.event(&Event::Phase {
            what: &format!("depth {depth}, frontier {}", round.new),
        });
    }
    progress.event(&Event::Finish);
    let mut layers: Vec<Layer> = total
        .layers
        .iter()
        .map(|(&(p, q), v)| Layer {
            p,
            q,
            positions: v.iter().sum(),
            win: v[0],
            loss: v[1],
            draw: v[2],
        })
        .collect();
    layers.sort_by_key(|l| (l.p + l.q, l.p));
    let inner = (total.positions - total.terminal - total.decided).max(1) as f64;
    let mean = total.moves as f64 / inner;
    let var = (total.moves_sq as f64 / inner - mean * mean).max(0.0);
    let configurations = configurations(m, n).unwrap_or(u64::MAX);
    Ok(GraphReport {
        pits: m,
        seeds: n,
        rules: rules.name().to_string(),
        terminals: opts.terminals,
        positions: total.positions,
        terminal_positions: total.terminal,
        decided_positions: total.decided,
        decided_leaves: opts.decided_leaves,
        moves: total.moves,
        configurations,
        share_of_configurations: total.positions as f64 / configurations as f64,
        branching_mean: mean,
        branching_sd: var.sqrt(),
        win: layers.iter().map(|l| l.win).sum(),
        loss: layers.iter().map(|l| l.loss).sum(),
        draw: layers.iter().map(|l| l.draw).sum(),
        start_value,
        depth,
        layers,
        seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_counts_boards_and_side() {
        // Kalah(1,1): 2 seeds in 4 cells: C(5,3) = 10 boards, 20 with the side.
        assert_eq!(configurations(1, 1), Some(20));
        // Kalah(4,3): 24 seeds in 10 cells: C(33,9).
        assert_eq!(configurations(4, 3), Some(2 * 38_567_100));
    }

    #[test]
    fn unswept_end_keeps_the_rows() {
        // Kalah(2,1) mover view: 0 1 | 0 | 1 0 | 0. Pit 1 sows into the
        // store: the mover's row is empty, the game is over; the opponent's
        // seed stays in its pit until swept, and the mover would move again.
        let pos = Position::from_cells(&[0, 1, 0, 1, 0, 0], Side::South).unwrap();
        let mut out = Vec::new();
        assert_eq!(
            successors(&pos, KalahRules::Default, Terminals::AsPlayed, &mut out),
            1
        );
        assert_eq!(out[0].cells(), &[0, 0, 1, 1, 0, 0]);
        assert_eq!(out[0].to_move(), Side::South);
        out.clear();
        successors(&pos, KalahRules::Default, Terminals::Swept, &mut out);
        assert_eq!(out[0].cells(), &[0, 0, 1, 0, 0, 1]);
        out.clear();
        successors(&pos, KalahRules::Default, Terminals::Omitted, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn unswept_end_passes_the_turn() {
        // 1 0 | 0 | 0 1 | 0: pit 0 sows into empty pit 1 and captures the
        // opposite seed: the opponent's row is empty; the turn would pass.
        let pos = Position::from_cells(&[1, 0, 0, 1, 0, 0], Side::South).unwrap();
        let mut out = Vec::new();
        successors(&pos, KalahRules::Default, Terminals::AsPlayed, &mut out);
        assert_eq!(out[0].to_move(), Side::North);
        assert_eq!(out[0].cells(), &[0, 0, 0, 0, 0, 2]);
        assert!(out[0].is_game_over(KalahRules::Default));
    }
}
