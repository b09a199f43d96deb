//! The Kalah solver: MTD(f) over a zero-window alpha-beta search with a
//! transposition table, futility pruning, enhanced transposition cut-offs and
//! endgame-table probes, on one or more threads.
//!
//! # Values
//!
//! Inside the search every value is an *active value*: the final difference,
//! mover minus opponent, of the seeds still in the pits, from the view of the
//! side to move. The stores only add a constant, so the transposition table is
//! keyed on the pit contents alone. A move that puts `d` more seeds into the
//! mover's store than into the opponent's (sown, captured, or swept at the end
//! of the game) gives the value `d + v(child)` when the mover moves again
//! (extra turn, same view, no negation) and `d - v(child)` when the turn
//! passes. With `s` seeds in play the active value lies in `[-s, s]` and has
//! the parity of `s`: this is the futility bound.
//!
//! [`solve`] returns the full value (stores included) like the rest of the
//! library.
//!
//! # Depth
//!
//! Depth counts **plies**: every single sowing is one ply, including the
//! moves of an extra-turn chain. Iterative deepening searches depths
//! `step, 2 step, ...` up to the jump depth with a heuristic evaluation at the
//! horizon (the stores only: the seeds in play split evenly, the odd one to
//! the opponent so that the value keeps the parity of the seeds in play),
//! then jumps to unlimited depth, the only search whose value is exact. Each
//! iteration's value is the next one's first guess. By default
//! ([`SolveOptions::id_step`] 10, [`SolveOptions::id_jump`] 20) two shallow
//! iterations (10 and 20 plies) provide the first guess of the exact
//! search: with the banked move order they cost less than the MTD(f) passes
//! they save on full-size games (Kalah(6,4) with 20-seed tables: 7.8 M
//! nodes instead of 19.5 M; Kalah(5,5): 9.9 M instead of 15.4 M), while the
//! published schedule (step 3, jump 30) costs more than it saves
//! (`benches/solve.sh enhancements`). With `id_step` 0 the first guess is
//! [`SolveOptions::guess`] or 0. Iterative deepening is also what gives a
//! move under a time budget.
//!
//! # Time budget
//!
//! [`SolveOptions::deadline`] (a [`crate::clock::Instant`]),
//! [`SolveOptions::node_limit`] (a budget of work) and [`SolveOptions::stop`]
//! (an `Arc<AtomicBool>` another thread may set) stop the search; they are
//! checked every 1024 nodes, and honoured once the first iterative-deepening
//! iteration is complete (at once without iterative deepening), so a
//! stopped solve always has a move backed by a search when
//! [`SolveOptions::id_step`] is set. A stopped solve returns
//! [`Solution::exact`] false with the bounds the full-depth MTD(f) passes
//! proved ([`Solution::lower`], [`Solution::upper`]; `-s..=s` around the
//! stores when none), the best move so far and, as `value`, an estimate (see
//! [`Solution::best_move`] and [`Solution::value`]). A solve that finishes
//! before the deadline is exact, and its principal variation is extracted
//! whatever the clock says. [`SolveOptions::shared_tt`] lets successive
//! solves (an agent's moves) share one transposition table.
//!
//! # Enhancements
//!
//! Every enhancement can be switched off in [`SolveOptions`] and is counted in
//! [`SearchStats`]:
//! - transposition table ([`tt`]): bounds and best move per position; the
//!   positions within [`SolveOptions::near_seeds`] seeds of the tables use
//!   a small table per thread that stays in the cache
//!   ([`SolveOptions::near_tt_kb`]);
//! - futility pruning: a node whose window lies outside `[-s, s]` is cut;
//! - enhanced transposition cut-off (ETC): before searching any child, the
//!   bounds every child already has (from the game end, the tables, the
//!   near transposition table and its futility range) are combined; a child
//!   bound at or above the window cuts at once, and when every child's upper
//!   bound is below the window the node fails low without a search. The
//!   children's entries in the main transposition table are read only with
//!   [`SolveOptions::etc_main_tt`]: that table does not fit in the cache,
//!   and waiting for every child's entry before the first child is searched
//!   costs more time than its cut-offs save (`benches/solve.sh
//!   enhancements`); without it a child's entry is read when the child is
//!   searched, and a bound there cuts at once;
//! - table probes: a position whose seeds in play are within the loaded
//!   endgame tables is looked up (one read when the tables were decoded
//!   into memory, [`crate::tablebase::TableSet::load_into_memory`]).
//!
//! # Checkpoints
//!
//! [`SolveOptions::checkpoint`] hands a [`Checkpoint`] of what the search
//! has proven (bounds, iterative-deepening state, opening-move bounds, the
//! most valuable transposition entries) to a sink every
//! [`Checkpointing::every`], from a helper thread that copies the lock-less
//! transposition table while the search goes on, and once more when the
//! solve stops or finishes; [`SolveOptions::resume`] goes on from one, after
//! checking it is for the same position, rules and tables. See
//! [`checkpoint`] and docs/SOLVER.md.
//!
//! # Threads
//!
//! With more than one thread the search splits near the root in the
//! young-brothers-wait fashion: at a split node the first (best-ordered) child
//! is searched alone, then the remaining children are searched in parallel
//! (rayon), all threads sharing the lock-free transposition table; when one of
//! them cuts off, the others are told to stop.

pub mod awari;
pub mod checkpoint;
mod checkpoint_file;
pub mod cross_check;
pub mod cyclic;
mod driver;
mod hooks;
mod node;
mod options;
mod parallel;
mod profile;
pub mod prove;
mod resume;
pub mod run;
mod shared;
pub mod tt;

pub use checkpoint::{Checkpoint, CheckpointReason, Checkpointing};
pub use checkpoint_file::{FORMAT_VERSION as CHECKPOINT_VERSION, MAGIC as CHECKPOINT_MAGIC};
pub use driver::solve;
pub use options::{MoveOrder, SearchStats, Solution, SolveOptions};
pub use profile::{LevelProfile, PassProfile, SearchProfile};
pub use tt::TransTable;
