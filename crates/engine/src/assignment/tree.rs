//! Greedy, minimax and alpha-beta to a cut-off depth, logging every node as
//! the assignment's `traverse_log.txt` does.
//!
//! The tree: a node is a move, named after its pit (`B2`, `A3`), or the
//! root. Its depth is the root's 0 plus one for each change of player: a
//! move that earns an extra turn keeps the depth, so the next move of the
//! same player has the same depth. A node is a leaf when the game is over
//! after it, or when it is at the cut-off depth and passes the turn; a
//! node at the cut-off depth that earns an extra turn has children. A leaf's
//! value is the searching player's mancala minus the opponent's.
//! Children are expanded in positional order (B2, B3, ... for player 1;
//! A2, A3, ... for player 2), and of equal values the first is kept.
//!
//! A node is logged when the search reaches it (a leaf with its value, any
//! other node with its start value, `-Infinity` for a max node, `Infinity`
//! for a min node) and again each time a child returns its value. Alpha-beta
//! logs alpha and beta as they are after the update (or, at a cut-off,
//! before it), and returns as soon as the value reaches beta (max) or alpha
//! (min).

use std::io::Write;

use super::input::{board_text, pit_name, Input, RULES};
use crate::error::{Error, Result};
use crate::kalah::wide::WidePosition;

/// How the printed sample log is read where the text is silent; see
/// `docs/ASSIGNMENT.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reading {
    /// The reading that reproduces the document's sample log: the root is
    /// the decision of AIMA's figure 5.3 (logged only when a child returns,
    /// with the best value so far), and a node reached by a move of the
    /// searching player is a min node, one reached by an opponent's move a
    /// max node, extra turn or not.
    #[default]
    Sample,
    /// The textbook reading: the root is logged when the search starts, and
    /// a node belongs to the player who moves next (a move that earns an
    /// extra turn leads to a node of the same player).
    Textbook,
}

impl std::str::FromStr for Reading {
    type Err = Error;
    fn from_str(s: &str) -> Result<Reading> {
        match s {
            "sample" => Ok(Reading::Sample),
            "textbook" => Ok(Reading::Textbook),
            _ => Err(Error::Unsupported(format!(
                "unknown reading \"{}\": sample or textbook",
                crate::error::clip(s)
            ))),
        }
    }
}

/// What the program decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The board after the chosen turn (every move of it, the extra turns
    /// included), or after the end of the game it caused.
    pub next: WidePosition,
    /// The pits played, by name (`B2`, `B4`).
    pub moves: Vec<String>,
    /// The root's value (for the competition, the search's estimate).
    pub value: i32,
}

impl Decision {
    /// The text of `next_state.txt`.
    pub fn next_state(&self) -> String {
        board_text(&self.next)
    }
}

/// Larger than any evaluation: printed as `Infinity`.
const INF: i32 = 1 << 24;

fn show(v: i32) -> String {
    if v >= INF {
        "Infinity".to_string()
    } else if v <= -INF {
        "-Infinity".to_string()
    } else {
        v.to_string()
    }
}

struct Search<'a> {
    me: crate::side::Side,
    n: usize,
    cutoff: u32,
    alpha_beta: bool,
    reading: Reading,
    log: &'a mut dyn Write,
    failed: Option<std::io::Error>,
}

/// What a node's search returns: its value, and the board at the end of
/// the turn it starts (its chosen child's, through extra turns).
struct Outcome {
    value: i32,
    end: WidePosition,
    moves: Vec<String>,
}

impl Search<'_> {
    fn line(&mut self, name: &str, depth: u32, value: i32, alpha: i32, beta: i32) {
        if self.failed.is_some() {
            return;
        }
        let r = if self.alpha_beta {
            writeln!(
                self.log,
                "{name},{depth},{},{},{}",
                show(value),
                show(alpha),
                show(beta)
            )
        } else {
            writeln!(self.log, "{name},{depth},{}", show(value))
        };
        if let Err(e) = r {
            self.failed = Some(e);
        }
    }

    fn evaluate(&self, pos: &WidePosition) -> i32 {
        let [mover, opponent] = pos.stores();
        let d = mover as i32 - opponent as i32;
        if pos.to_move() == self.me {
            d
        } else {
            -d
        }
    }

    /// Search the node `name` at `depth`, whose position is `pos` (the
    /// player to move next is `pos.to_move()`); `extra` when the move into
    /// it earned an extra turn.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        name: &str,
        pos: &WidePosition,
        depth: u32,
        extra: bool,
        maximise: bool,
        mut alpha: i32,
        mut beta: i32,
    ) -> Outcome {
        let root = depth == 0;
        if self.failed.is_some() || is_leaf(pos, depth, extra, self.cutoff) {
            let value = self.evaluate(pos);
            self.line(name, depth, value, alpha, beta);
            return Outcome {
                value,
                end: *pos,
                moves: Vec::new(),
            };
        }
        let mut value = if maximise { -INF } else { INF };
        if !root || self.reading == Reading::Textbook {
            self.line(name, depth, value, alpha, beta);
        }
        let mover = pos.to_move();
        let child_depth = if extra { depth } else { depth + 1 };
        let pits: Vec<usize> = match mover {
            crate::side::Side::South => (0..self.n).collect(),
            crate::side::Side::North => (0..self.n).rev().collect(),
        };
        let mut best: Option<Outcome> = None;
        for pit in pits {
            if pos.mover_pits()[pit] == 0 {
                continue;
            }
            let mut child = *pos;
            let mv = child.play(pit, RULES).expect("a non-empty pit is legal");
            let child_name = pit_name(mover, pit, self.n);
            let child_max = match self.reading {
                Reading::Sample => mover != self.me,
                Reading::Textbook => child.to_move() == self.me,
            };
            let out = self.node(
                &child_name,
                &child,
                child_depth,
                mv.extra_turn,
                child_max,
                alpha,
                beta,
            );
            if self.failed.is_some() {
                // The log cannot be written (a full disk): stop at once.
                return out;
            }
            let better = if maximise {
                out.value > value
            } else {
                out.value < value
            };
            if better {
                value = out.value;
                let mut moves = vec![child_name];
                let end = if mv.extra_turn {
                    moves.extend(out.moves);
                    out.end
                } else {
                    child
                };
                best = Some(Outcome { value, end, moves });
            }
            if self.alpha_beta {
                if maximise {
                    if value >= beta {
                        self.line(name, depth, value, alpha, beta);
                        break;
                    }
                    alpha = alpha.max(value);
                } else {
                    if value <= alpha {
                        self.line(name, depth, value, alpha, beta);
                        break;
                    }
                    beta = beta.min(value);
                }
            }
            self.line(name, depth, value, alpha, beta);
        }
        let mut out = best.expect("a node that is not over has a move");
        out.value = value;
        out
    }
}

/// Search `input`'s position to `cutoff`, with alpha-beta pruning or not,
/// writing the traverse log (header first) to `log`.
pub fn search(
    input: &Input,
    cutoff: u32,
    alpha_beta: bool,
    reading: Reading,
    log: &mut dyn Write,
) -> Result<Decision> {
    let header = if alpha_beta {
        "Node,Depth,Value,Alpha,Beta"
    } else {
        "Node,Depth,Value"
    };
    let mut s = Search {
        me: input.position.to_move(),
        n: input.position.pits_per_side(),
        cutoff,
        alpha_beta,
        reading,
        log,
        failed: None,
    };
    if let Err(e) = writeln!(s.log, "{header}") {
        s.failed = Some(e);
    }
    let out = s.node("root", &input.position, 0, false, true, -INF, INF);
    if let Some(e) = s.failed {
        if let Some(limit) = e.get_ref().and_then(|x| x.downcast_ref::<LogLimit>()) {
            return Err(Error::LogTooLarge {
                bytes: limit.max,
                max: limit.max,
                estimated: false,
            });
        }
        return Err(Error::io("traverse_log.txt", e));
    }
    Ok(Decision {
        next: out.end,
        moves: out.moves,
        value: out.value,
    })
}

/// Whether the node at `depth` whose position is `pos` is a leaf of a
/// search to `cutoff`: the game is over, or the node is at the cut-off depth
/// and the move into it passed the turn (`!extra`). The root never is,
/// unless the game is over.
fn is_leaf(pos: &WidePosition, depth: u32, extra: bool, cutoff: u32) -> bool {
    pos.is_game_over(RULES) || (depth > 0 && !extra && depth >= cutoff)
}

/// Random descents of [`estimate_log_bytes`].
const PROBES: usize = 4096;

/// An estimate of the size in bytes of the traverse log that `input`'s
/// task writes under `reading`, made before the search (0 for tasks 1 and
/// 4, which write none). It is Knuth's estimate of the size of a tree from
/// random descents (seeded: the same input gives the same estimate), over
/// the minimax tree: alpha-beta's log is at most as many lines, and
/// usually far fewer. Within a factor of two or so of the minimax log's
/// true size; a few milliseconds whatever the tree.
pub fn estimate_log_bytes(input: &Input, reading: Reading) -> u64 {
    let alpha_beta = match input.task {
        super::Task::Minimax => false,
        super::Task::AlphaBeta => true,
        super::Task::Greedy | super::Task::Competition => return 0,
    };
    // Bytes of a line after the node's name and depth: a value (a start
    // value `-Infinity` or `Infinity`, or a small number), then alpha and
    // beta for alpha-beta; the commas and the newline.
    let tail = |start: bool| -> f64 {
        let value = if start { 9.0 } else { 2.0 };
        2.0 + value + if alpha_beta { 2.0 * 6.0 } else { 0.0 } + 1.0
    };
    let header = if alpha_beta { 28.0 } else { 17.0 };
    let n = input.position.pits_per_side();
    let mut rng = crate::rng::seeded(0x006c_6f67_7369_7a65);
    let mut total = 0.0f64;
    for _ in 0..PROBES {
        let (mut pos, mut depth, mut extra) = (input.position, 0u32, false);
        let mut name_len = 4.0; // "root"
        let mut weight = 1.0f64;
        let mut sum = 0.0f64;
        loop {
            let prefix = name_len + (depth.max(1).ilog10() + 1) as f64;
            if is_leaf(&pos, depth, extra, input.cutoff) {
                sum += weight * (prefix + tail(false));
                break;
            }
            let moves: Vec<usize> = (0..n).filter(|&p| pos.mover_pits()[p] != 0).collect();
            let c = moves.len() as f64;
            let logs_start = depth > 0 || reading == Reading::Textbook;
            let lines_start = if logs_start { prefix + tail(true) } else { 0.0 };
            sum += weight * (lines_start + c * (prefix + tail(false)));
            let pit = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())];
            let mover = pos.to_move();
            let mv = pos.play(pit, RULES).expect("a non-empty pit is legal");
            name_len = pit_name(mover, pit, n).len() as f64;
            if !extra {
                depth += 1;
            }
            extra = mv.extra_turn;
            weight *= c;
        }
        total += sum;
    }
    (header + total / PROBES as f64).min(u64::MAX as f64) as u64
}

/// The error a [`LimitedLog`] returns once its limit is reached.
#[derive(Debug)]
struct LogLimit {
    max: u64,
}

impl std::fmt::Display for LogLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the traverse log reached its limit of {} bytes",
            self.max
        )
    }
}

impl std::error::Error for LogLimit {}

/// A traverse log's writer that refuses to grow past a limit: a write
/// that would take it beyond `max` bytes fails (nothing of it is written),
/// and the search that writes it stops with [`Error::LogTooLarge`].
pub struct LimitedLog<W> {
    inner: W,
    written: u64,
    max: u64,
}

impl<W: Write> LimitedLog<W> {
    /// A writer of at most `max` bytes into `inner`.
    pub fn new(inner: W, max: u64) -> LimitedLog<W> {
        LimitedLog {
            inner,
            written: 0,
            max,
        }
    }

    /// The bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }
}

impl<W: Write> Write for LimitedLog<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written.saturating_add(buf.len() as u64) > self.max {
            return Err(std::io::Error::other(LogLimit { max: self.max }));
        }
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignment::{decide, Task};

    fn input(task: u32, depth: u32, south: &str, north: &str) -> Input {
        Input::parse(&format!("{task}\n1\n{depth}\n{north}\n{south}\n0\n0\n")).unwrap()
    }

    /// A log that fails after `ok` bytes (as a full disk does).
    struct Failing {
        ok: usize,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if buf.len() > self.ok {
                return Err(std::io::Error::from_raw_os_error(28)); // ENOSPC
            }
            self.ok -= buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_log_that_cannot_be_written_stops_the_search_at_once() {
        // Minimax to depth 12 on ten pits: about 10^12 nodes if it went on.
        let i = input(2, 12, "4 4 4 4 4 4 4 4 4 4", "4 4 4 4 4 4 4 4 4 4");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut log = Failing { ok: 1000 };
            let r = decide(&i, Reading::Sample, &mut log, std::time::Duration::ZERO);
            let _ = tx.send(r.map(|_| ()));
        });
        let r = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the search stops when the log fails");
        let e = r.unwrap_err().to_string();
        assert!(e.contains("No space left on device"), "{e}");
    }

    #[test]
    fn a_log_past_its_limit_stops_the_search() {
        let i = input(3, 8, "4 4 4 4 4 4", "4 4 4 4 4 4");
        let mut log = LimitedLog::new(Vec::new(), 5000);
        let e = decide(&i, Reading::Sample, &mut log, std::time::Duration::ZERO).unwrap_err();
        assert!(
            matches!(
                e,
                Error::LogTooLarge {
                    max: 5000,
                    estimated: false,
                    ..
                }
            ),
            "{e}"
        );
        assert!(log.written() <= 5000);
    }

    #[test]
    fn the_estimate_is_near_the_log() {
        let mut rng = crate::rng::seeded(43);
        for round in 0..60 {
            let n = 3 + round % 4;
            let row = |rng: &mut crate::rng::SeededRng, n: usize| {
                (0..n)
                    .map(|_| rand::Rng::gen_range(rng, 0..6u32).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let (south, north) = (format!("3 {}", row(&mut rng, n - 1)), row(&mut rng, n));
            let depth = 1 + round as u32 % 5;
            for (task, reading) in [
                (2, Reading::Sample),
                (2, Reading::Textbook),
                (3, Reading::Sample),
            ] {
                let i = input(task, depth, &south, &north);
                let mut log = Vec::new();
                decide(&i, reading, &mut log, std::time::Duration::ZERO).unwrap();
                let real = log.len() as f64;
                let estimate = estimate_log_bytes(&i, reading) as f64;
                let ratio = estimate / real;
                if i.task == Task::Minimax {
                    assert!(
                        (0.6..=1.6).contains(&ratio),
                        "{south} / {north} depth {depth}: estimate {estimate}, log {real}"
                    );
                } else {
                    // Alpha-beta prunes: the minimax tree's size bounds it.
                    assert!(
                        ratio >= 0.8,
                        "{south} / {north} depth {depth}: estimate {estimate}, log {real}"
                    );
                }
            }
        }
        let none = input(1, 5, "4 4 4", "4 4 4");
        assert_eq!(estimate_log_bytes(&none, Reading::Sample), 0);
    }
}
