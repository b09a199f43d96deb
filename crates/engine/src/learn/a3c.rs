//! A3C training by self-play: several workers, each with its own copy of
//! the network, play games against themselves, compute the gradients of
//! their loss and apply them to the shared global network, then copy the
//! global weights back.
//!
//! One worker's cycle:
//!
//! 1. copy the global parameters into its local model (under the lock);
//! 2. play one game of Kalah against itself, sampling every move from the
//!    local policy (illegal moves masked out before the softmax);
//! 3. compute the n-step returns, the A3C loss of the game's moves and its
//!    gradient by back-propagation ([`super::model::loss_and_gradient`]);
//! 4. take the lock and apply the gradient to the global parameters with
//!    the shared Adam optimiser ([`super::model::Adam`], its moment
//!    estimates shared by all workers).
//!
//! Every `eval_every` episodes the worker that completes that episode hands
//! a copy of the global weights to the coordinating thread, which plays
//! them greedily by policy against `random` and `greedy` (both sides) while
//! training goes on, and reports an [`EvalPoint`].
//!
//! With one worker a seed names one run exactly; with several, the order in
//! which their updates reach the global network depends on the scheduler.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::Rng;

pub use super::eval::{evaluate, Score};
use super::model::{self, Adam, Episode, LossParams, LossParts, ILLEGAL_LOGIT};
use super::net::{Layout, Weights};
use super::{PITS, SEEDS};
use crate::error::{Error, Result};
use crate::kalah::position::Position;
use crate::kalah::rules::KalahRules;
use crate::play::arena::mix;
use crate::progress::{Event, Observer};
use crate::rng::SeededRng;
use crate::side::Side;

/// When training stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// After this many self-play episodes (games) in all.
    Episodes(u64),
    /// After this much wall-clock time (the episodes under way finish).
    Time(Duration),
}

/// Everything a training run needs.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// The Kalah rule set of the self-play games (the default rules for
    /// the shipped weights; the Kalah agents study plays
    /// `capture-needs-opposite`).
    pub rules: KalahRules,
    /// Worker threads, each with its own copy of the network.
    pub workers: usize,
    /// Seed of the initial weights, of each worker's moves and of the
    /// evaluation games.
    pub seed: u64,
    /// When to stop.
    pub stop: Stop,
    /// Adam's learning rate.
    pub learning_rate: f64,
    /// Discount per move.
    pub gamma: f64,
    /// Moves before a return bootstraps on the value (n-step returns).
    pub n_step: usize,
    /// Weight of the entropy bonus.
    pub beta: f64,
    /// Hidden layer sizes (ignored when resuming: the file's are used).
    pub hidden: [usize; 2],
    /// Unary inputs per pit ([`super::net`]; ignored when resuming).
    pub unary: usize,
    /// Self-play games a worker plays with the same weights before it
    /// applies the gradient of their loss (one update per batch).
    pub batch: usize,
    /// Random plies at the start of every self-play game (a number drawn
    /// uniformly from 0 to this), not trained on: varied positions.
    pub random_opening: usize,
    /// Evaluate every this many episodes.
    pub eval_every: u64,
    /// Games against each opponent per evaluation (half on each side).
    pub eval_games: usize,
    /// Weights to continue training from (their episode count goes on).
    pub resume: Option<Weights>,
    /// Where progress goes.
    pub progress: Observer,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            rules: super::RULES,
            workers: 2,
            seed: 1,
            stop: Stop::Episodes(10_000),
            learning_rate: 3e-4,
            gamma: 1.0,
            n_step: 10,
            beta: 0.03,
            hidden: [128, 128],
            unary: 12,
            random_opening: 8,
            batch: 8,
            eval_every: 50_000,
            eval_games: 100,
            resume: None,
            progress: Observer::silent(),
        }
    }
}

/// Most worker threads a run may start.
pub const MAX_WORKERS: usize = 64;

impl TrainOptions {
    /// Refuse options that cannot train: an [`Error::Unsupported`] naming
    /// the option and its range.
    pub fn check(&self) -> Result<()> {
        let bad = |what: String| Err(Error::Unsupported(what));
        if !(1..=MAX_WORKERS).contains(&self.workers) {
            return bad(format!(
                "{} workers: give 1 to {MAX_WORKERS} worker threads",
                self.workers
            ));
        }
        match self.stop {
            Stop::Episodes(0) => return bad("0 games: train for at least one game".into()),
            Stop::Time(t) if t.is_zero() || t > Duration::from_secs(7 * 86_400) => {
                return bad("training time: give a time above 0 and at most a week".into())
            }
            _ => {}
        }
        if !(self.learning_rate.is_finite()
            && self.learning_rate > 0.0
            && self.learning_rate <= 1.0)
        {
            return bad(format!(
                "learning rate {}: give a number above 0 and at most 1 (e.g. 0.0003)",
                self.learning_rate
            ));
        }
        if !(self.gamma.is_finite() && self.gamma > 0.0 && self.gamma <= 1.0) {
            return bad(format!(
                "discount (gamma) {}: give a number above 0 and at most 1",
                self.gamma
            ));
        }
        if !(1..=1000).contains(&self.n_step) {
            return bad(format!("n-step {}: give 1 to 1000 moves", self.n_step));
        }
        if !(self.beta.is_finite() && (0.0..=10.0).contains(&self.beta)) {
            return bad(format!(
                "entropy weight (beta) {}: give a number from 0 to 10",
                self.beta
            ));
        }
        if !(1..=10_000).contains(&self.batch) {
            return bad(format!(
                "batch of {} games: give 1 to 10000 games",
                self.batch
            ));
        }
        if self.random_opening > 100 {
            return bad(format!(
                "random opening of {} plies: give 0 to 100 plies",
                self.random_opening
            ));
        }
        if self.eval_every == 0 {
            return bad("evaluation every 0 games: evaluate every 1 game or more".into());
        }
        if !(2..=100_000).contains(&self.eval_games) {
            return bad(format!(
                "{} evaluation games: give 2 to 100000 games",
                self.eval_games
            ));
        }
        match &self.resume {
            Some(w) => w.check_game(self.rules, PITS, 2 * PITS * SEEDS)?,
            None => {
                Layout::new(self.rules, PITS, SEEDS, self.hidden, self.unary)?;
            }
        }
        Ok(())
    }

    fn loss_params(&self) -> LossParams {
        LossParams {
            gamma: self.gamma as f32,
            n_step: self.n_step,
            beta: self.beta as f32,
        }
    }
}

/// One point of the training curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalPoint {
    /// Episodes that trained the evaluated weights (resumed ones included).
    pub episodes: u64,
    /// Seconds since this run started.
    pub seconds: f64,
    /// The network against `random`.
    pub vs_random: Score,
    /// The network against `greedy` (10 random opening moves a side, as in
    /// `mancala match` between two deterministic agents).
    pub vs_greedy: Score,
    /// Mean loss parts over the updates since the previous point.
    pub losses: LossParts,
}

/// What a training run produced.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// The final weights.
    pub weights: Weights,
    /// Episodes played in this run.
    pub episodes: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// Every evaluation, the last one on the final weights.
    pub curve: Vec<EvalPoint>,
}

/// The global network and its optimiser, shared by the workers.
struct Global {
    weights: Weights,
    optimizer: Adam,
    /// Episodes applied in this run.
    episodes: u64,
    /// Loss parts summed since the last snapshot, and their count.
    window: (LossParts, u64),
}

/// A copy of the global weights handed to the evaluator.
struct Snapshot {
    weights: Weights,
    seconds: f64,
    losses: LossParts,
}

struct Shared<'a> {
    opts: &'a TrainOptions,
    global: Mutex<Global>,
    /// Episodes started (reserved) in this run.
    started: AtomicU64,
    stop: AtomicBool,
    start: Instant,
    /// Episodes trained before this run.
    base: u64,
}

impl Shared<'_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Global> {
        self.global.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reserve the next episode, or `false` when training is over.
    fn next_episode(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        match self.opts.stop {
            Stop::Episodes(n) => self.started.fetch_add(1, Ordering::Relaxed) < n,
            Stop::Time(t) => self.start.elapsed() < t,
        }
    }
}

/// Train a network by A3C self-play for Kalah(6,4) under `opts.rules`.
/// `on_eval` is called on the coordinating thread with every evaluation and
/// the weights evaluated (e.g. to append to a curve file and save a
/// checkpoint); an error from it stops the training and is returned.
pub fn train(
    opts: &TrainOptions,
    on_eval: &mut dyn FnMut(&EvalPoint, &Weights) -> Result<()>,
) -> Result<TrainReport> {
    opts.check()?;
    let initial = match &opts.resume {
        Some(w) => w.clone(),
        None => {
            let layout = Layout::new(opts.rules, PITS, SEEDS, opts.hidden, opts.unary)?;
            Weights::random(layout, &mut crate::rng::seeded(mix(opts.seed)))
        }
    };
    let optimizer = Adam::new(opts.learning_rate, initial.params.len());
    let shared = Shared {
        opts,
        global: Mutex::new(Global {
            weights: Weights {
                episodes: 0,
                ..initial.clone()
            },
            optimizer,
            episodes: 0,
            window: (LossParts::default(), 0),
        }),
        started: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        start: Instant::now(),
        base: initial.episodes,
    };
    let progress = &opts.progress;
    let (stage, total) = match opts.stop {
        Stop::Episodes(n) => ("a3c self-play games", Some(n)),
        Stop::Time(t) => ("a3c self-play seconds", Some(t.as_secs().max(1))),
    };
    progress.event(&Event::Start { stage, total });
    let mut curve = Vec::new();
    let (tx, rx) = mpsc::channel::<Snapshot>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..opts.workers)
            .map(|i| {
                let tx = tx.clone();
                let shared = &shared;
                let initial = &initial;
                scope.spawn(move || {
                    let r = worker(shared, initial, i, &tx);
                    if r.is_err() {
                        shared.stop.store(true, Ordering::Relaxed);
                    }
                    r
                })
            })
            .collect();
        drop(tx);
        loop {
            match rx.recv_timeout(Duration::from_millis(250)) {
                Ok(snap) if first_error.is_none() => {
                    let r = evaluate_snapshot(opts, &snap).and_then(|point| {
                        report_phase(progress, &point);
                        curve.push(point);
                        on_eval(&point, &snap.weights)
                    });
                    if let Err(e) = r {
                        shared.stop.store(true, Ordering::Relaxed);
                        first_error = Some(e);
                    }
                }
                Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            progress.advance(match opts.stop {
                Stop::Episodes(_) => shared.lock().episodes,
                Stop::Time(_) => shared.start.elapsed().as_secs(),
            });
        }
        for h in handles {
            match h.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    first_error.get_or_insert(e);
                }
                Err(_) => {
                    first_error
                        .get_or_insert(Error::Internal("an A3C worker thread panicked".into()));
                }
            }
        }
    });
    progress.event(&Event::Finish);
    if let Some(e) = first_error {
        return Err(e);
    }
    let (weights, episodes, losses) = {
        let mut g = shared.lock();
        let losses = take_window(&mut g.window);
        (
            Weights {
                episodes: shared.base + g.episodes,
                ..g.weights.clone()
            },
            g.episodes,
            losses,
        )
    };
    if curve.last().map(|p| p.episodes) != Some(weights.episodes) {
        let snap = Snapshot {
            weights: weights.clone(),
            seconds: shared.start.elapsed().as_secs_f64(),
            losses,
        };
        let point = evaluate_snapshot(opts, &snap)?;
        curve.push(point);
        on_eval(&point, &weights)?;
    }
    Ok(TrainReport {
        weights,
        episodes,
        seconds: shared.start.elapsed().as_secs_f64(),
        curve,
    })
}

fn report_phase(progress: &Observer, p: &EvalPoint) {
    let what = format!(
        "episode {}: {:.0}% v random, {:.0}% v greedy",
        p.episodes,
        p.vs_random.win_percent(),
        p.vs_greedy.win_percent()
    );
    progress.event(&Event::Phase { what: &what });
}

fn take_window(w: &mut (LossParts, u64)) -> LossParts {
    let n = w.1.max(1) as f64;
    let mean = LossParts {
        value: w.0.value / n,
        policy: w.0.policy / n,
        entropy: w.0.entropy / n,
    };
    *w = (LossParts::default(), 0);
    mean
}

/// One worker: play, differentiate, apply, until training is over.
fn worker(
    shared: &Shared<'_>,
    initial: &Weights,
    index: usize,
    tx: &mpsc::Sender<Snapshot>,
) -> Result<()> {
    let opts = shared.opts;
    let mut weights = initial.clone();
    let mut rng = crate::rng::seeded(mix(opts.seed ^ mix(index as u64 + 1)));
    let loss_params = opts.loss_params();
    let mut batch = Vec::with_capacity(opts.batch);
    loop {
        weights
            .params
            .copy_from_slice(&shared.lock().weights.params);
        batch.clear();
        while batch.len() < opts.batch && shared.next_episode() {
            batch.push(self_play(&weights, opts.random_opening, &mut rng));
        }
        if batch.is_empty() {
            return Ok(());
        }
        let (_, parts, grad) = model::loss_and_gradient(&weights, &batch, &loss_params);
        let mut g = shared.lock();
        let Global {
            weights: global,
            optimizer,
            ..
        } = &mut *g;
        optimizer.step(&mut global.params, &grad);
        let before = g.episodes;
        g.episodes += batch.len() as u64;
        g.window.0.value += parts.value;
        g.window.0.policy += parts.policy;
        g.window.0.entropy += parts.entropy;
        g.window.1 += 1;
        if g.episodes / opts.eval_every != before / opts.eval_every {
            let snap = Snapshot {
                weights: Weights {
                    episodes: shared.base + g.episodes,
                    ..g.weights.clone()
                },
                seconds: shared.start.elapsed().as_secs_f64(),
                losses: take_window(&mut g.window),
            };
            // The evaluator is gone only when training stops on an error.
            let _ = tx.send(snap);
        }
    }
}

/// One game of the network against itself: first a number of uniformly
/// random plies drawn from `0..=random_opening` (not recorded), then every
/// move sampled from its policy over the legal moves.
pub fn self_play(weights: &Weights, random_opening: usize, rng: &mut SeededRng) -> Episode {
    let l = weights.layout;
    let mut pos = Position::start(l.pits, l.seeds).expect("a checked layout");
    let mut ep = Episode::default();
    for _ in 0..rng.gen_range(0..=random_opening) {
        let moves: Vec<usize> = pos.legal_moves(l.rules).collect();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[rng.gen_range(0..moves.len())], l.rules)
            .expect("a legal move");
    }
    while !pos.is_game_over(l.rules) {
        let x = weights.encode(&pos);
        let (logits, _) = weights.forward(&x);
        let mut legal = [false; crate::sow::MAX_PITS];
        for pit in pos.legal_moves(l.rules) {
            legal[pit] = true;
        }
        let probs = super::net::masked_softmax(&logits[..l.pits], &legal[..l.pits]);
        let mut draw: f32 = rng.gen();
        let mut pit = None;
        for (i, &p) in probs[..l.pits].iter().enumerate() {
            if p > 0.0 {
                pit = Some(i);
                draw -= p;
                if draw < 0.0 {
                    break;
                }
            }
        }
        let pit = pit.expect("a legal move in a game not over");
        ep.x.extend_from_slice(&x);
        ep.mask.extend(
            probs[..l.pits]
                .iter()
                .map(|&p| if p > 0.0 { 0.0 } else { ILLEGAL_LOGIT }),
        );
        ep.actions.push(pit as u32);
        ep.south.push(pos.to_move() == Side::South);
        pos.play(pit, l.rules).expect("a legal move");
    }
    let [south, north] = pos.stores();
    ep.south_result = match south.cmp(&north) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
    };
    ep
}

fn evaluate_snapshot(opts: &TrainOptions, snap: &Snapshot) -> Result<EvalPoint> {
    let weights = Arc::new(snap.weights.clone());
    let (vs_random, vs_greedy) = evaluate(&weights, opts.eval_games, opts.seed)?;
    Ok(EvalPoint {
        episodes: snap.weights.episodes,
        seconds: snap.seconds,
        vs_random,
        vs_greedy,
        losses: snap.losses,
    })
}
