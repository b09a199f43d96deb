//! The genetic algorithm that tunes the weights of `heuristic10:D` (the
//! Kalah agents study, section 5.4): `mancala tune heuristic10`.
//!
//! A candidate is ten weights in [0, 1] (real-number representation; 1 is
//! the largest weight, as in the study's table 3). Its fitness is the share
//! of points it scores against the whole population, itself included: it
//! plays [`TuneOptions::games`] games against every member, half of them
//! first (a win 1, a draw 1/2). Games against itself always score half the
//! points and are not played. Every game between two candidates opens with
//! [`TuneOptions::random_opening`] random single moves of each side, so
//! that the games of one pairing differ (the agents are deterministic).
//!
//! A generation keeps its best candidate (elitism) and breeds the others:
//! two parents, each the fitter of [`TOURNAMENT`] candidates drawn at
//! random (selection by fitness), uniform crossover, then each weight
//! mutated with probability [`TuneOptions::mutation`] by a Gaussian step
//! of [`TuneOptions::sigma`] (the study's "Gaussian mutator", rate 0.1),
//! clipped to [0, 1]. The first population spreads around the study's
//! "temporary weights": each heuristic's share of its table-2 round robin
//! ([`INITIAL_WEIGHTS`]), plus a Gaussian step of 0.2.
//!
//! Every random draw derives from the seed and the generation number, and
//! the population is saved after each generation ([`TuneState`]), so a
//! stopped run resumes and ends where an unbroken one would.
//!
//! The candidates read H9 and H10 as [`TuneOptions::readings`] says
//! (Algorithm 4 as written by default; [`hunter::Readings`]), so that the
//! readings the study's text leaves open can be tuned under.

use rand::Rng;
use rand_distr_free::gaussian;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::agents::hunter::{self, Weights};
use super::agents::search::{Eval, MinimaxAgent};
use super::arena::{game_seed, mix, play_agents};
use super::state::GameSpec;
use crate::error::{Error, Result};
use crate::family::Rules;
use crate::progress::{Event, Observer};
use crate::side::Side;

/// Candidates drawn for each parent; the fitter one is the parent.
pub const TOURNAMENT: usize = 3;

/// The first population's centre: each heuristic's share of its matches in
/// the study's table 2 (H1 56%, ..., H10 11%), the stronger heuristics
/// weighted higher.
pub const INITIAL_WEIGHTS: Weights = [0.56, 0.44, 0.0, 1.0, 0.33, 0.78, 0.89, 0.67, 0.22, 0.11];

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// The game the candidates play.
    pub game: GameSpec,
    /// Candidates per generation (the study: 50).
    pub population: usize,
    /// Generations (the study: 250).
    pub generations: usize,
    /// Games of a candidate against each other candidate, half of them
    /// first (the study: 10). Even.
    pub games: usize,
    /// Search depth of the candidates.
    pub depth: u32,
    /// Chance that a weight mutates (the study: 0.1).
    pub mutation: f64,
    /// Standard deviation of a mutation.
    pub sigma: f64,
    /// Random single moves of each side opening every game.
    pub random_opening: usize,
    /// The seed.
    pub seed: u64,
    /// How the candidates read H9 and H10.
    pub readings: hunter::Readings,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Where progress goes.
    pub progress: Observer,
}

impl TuneOptions {
    /// Refuse options out of range, with what to give instead
    /// ([`Error::BadSetting`], naming the setting by its field's name).
    pub fn check(&self) -> Result<()> {
        let bad = |setting: &'static str, value: String, expected: &str| {
            Err(Error::BadSetting {
                setting,
                value,
                expected: expected.to_string(),
            })
        };
        if !(2..=1000).contains(&self.population) {
            return bad(
                "population",
                self.population.to_string(),
                "give 2 to 1000 candidates",
            );
        }
        if !(1..=100_000).contains(&self.generations) {
            return bad(
                "generations",
                self.generations.to_string(),
                "give 1 to 100000",
            );
        }
        if self.games == 0 || self.games % 2 == 1 || self.games > 1000 {
            return bad(
                "games",
                self.games.to_string(),
                "give an even number from 2 to 1000 (half of them played first)",
            );
        }
        if !(1..=super::agents::MAX_DEPTH).contains(&self.depth) {
            return bad(
                "depth",
                self.depth.to_string(),
                &format!("give 1 to {}", super::agents::MAX_DEPTH),
            );
        }
        if !(0.0..=1.0).contains(&self.mutation) {
            return bad(
                "mutation",
                self.mutation.to_string(),
                "a probability, 0 to 1",
            );
        }
        if !(self.sigma > 0.0 && self.sigma <= 1.0) {
            return bad(
                "sigma",
                self.sigma.to_string(),
                "give a step above 0, at most 1",
            );
        }
        if self.random_opening > MAX_OPENING {
            return bad(
                "random_opening",
                self.random_opening.to_string(),
                &format!("give 0 to {MAX_OPENING} random moves"),
            );
        }
        // Kalah on any board: heuristic10 plays the two-byte cells of a
        // board of more than 255 seeds (kalah:6:22) as it plays byte cells.
        if !matches!(self.game.rules, Rules::Kalah(_)) {
            return bad(
                "game",
                self.game.to_string(),
                "heuristic10 is tuned on Kalah (the study's game): give kalah:M:N[:RULES]",
            );
        }
        Ok(())
    }
}

/// Most random single moves of each side opening a game of the tuner.
pub const MAX_OPENING: usize = 1000;

/// A run saved after each generation: enough to resume it. Its file
/// ([`super::tune_file`]) has a checksum; [`TuneState::validate`] checks
/// its fields against each other and their ranges.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneState {
    /// The options that must match to resume: game, population,
    /// generations, games, depth, mutation, sigma, opening, seed, and the
    /// readings of H9 and H10 when they are not Algorithm 4's.
    pub settings: String,
    /// Generations done.
    pub done: usize,
    /// The population to evaluate next.
    pub population: Vec<Weights>,
    /// What each finished generation gave.
    pub history: Vec<GenerationReport>,
}

/// One generation's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerationReport {
    /// Generation number, from 1.
    pub generation: usize,
    /// Best fitness (share of points, 0-1).
    pub best_fitness: f64,
    /// Mean fitness.
    pub mean_fitness: f64,
    /// The best candidate's weights.
    pub best: Weights,
}

fn settings(o: &TuneOptions) -> String {
    let mut s = format!(
        "game={} population={} generations={} games={} depth={} mutation={} sigma={} opening={} seed={}",
        o.game, o.population, o.generations, o.games, o.depth, o.mutation, o.sigma, o.random_opening, o.seed
    );
    if o.readings.h9 == hunter::H9::Prose {
        s.push_str(" h9=prose");
    }
    if o.readings.h10 == hunter::H10::Minus {
        s.push_str(" h10=minus");
    }
    s
}

/// A fresh run: the first population, nothing done.
pub fn start(opts: &TuneOptions) -> TuneState {
    let mut rng = crate::rng::seeded(mix(opts.seed ^ 0x7475_6e65));
    let population = (0..opts.population)
        .map(|_| {
            let mut w = INITIAL_WEIGHTS;
            for x in &mut w {
                *x = (*x + 0.2 * gaussian(&mut rng)).clamp(0.0, 1.0);
            }
            w
        })
        .collect();
    TuneState {
        settings: settings(opts),
        done: 0,
        population,
        history: Vec::new(),
    }
}

/// The options a run's settings (as [`TuneState::settings`] writes them)
/// stand for, if they are in this program's form and in range.
fn options_of(text: &str) -> std::result::Result<TuneOptions, String> {
    let fields: Vec<(&str, &str)> = text
        .split(' ')
        .map(|f| f.split_once('=').unwrap_or((f, "")))
        .collect();
    let get = |key: &str| -> std::result::Result<&str, String> {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
            .ok_or_else(|| format!("its settings lack {key}"))
    };
    fn number<T: std::str::FromStr>(key: &str, v: &str) -> std::result::Result<T, String> {
        v.parse()
            .map_err(|_| format!("its setting {key}={v} is not a number"))
    }
    let o = TuneOptions {
        game: get("game")?
            .parse()
            .map_err(|e| format!("its setting game: {e}"))?,
        population: number("population", get("population")?)?,
        generations: number("generations", get("generations")?)?,
        games: number("games", get("games")?)?,
        depth: number("depth", get("depth")?)?,
        mutation: number("mutation", get("mutation")?)?,
        sigma: number("sigma", get("sigma")?)?,
        random_opening: number("opening", get("opening")?)?,
        seed: number("seed", get("seed")?)?,
        readings: hunter::Readings {
            h9: match get("h9") {
                Ok("prose") => hunter::H9::Prose,
                Ok(other) => return Err(format!("its setting h9={other} is not prose")),
                Err(_) => hunter::H9::Formula,
            },
            h10: match get("h10") {
                Ok("minus") => hunter::H10::Minus,
                Ok(other) => return Err(format!("its setting h10={other} is not minus")),
                Err(_) => hunter::H10::Plus,
            },
        },
        threads: None,
        progress: Observer::default(),
    };
    o.check()
        .map_err(|e| format!("its settings are out of range ({e})"))?;
    if settings(&o) != text {
        return Err("its settings are not as this program writes them".into());
    }
    Ok(o)
}

impl TuneState {
    /// Check that the state is one a run could have saved: settings in
    /// range, generations done within the run's, one report a generation
    /// done, numbered in order, as many candidates as the settings say,
    /// every weight and fitness in [0, 1], the mean fitness at most the
    /// best. Else what is wrong.
    pub fn validate(&self) -> std::result::Result<(), String> {
        let o = options_of(&self.settings)?;
        if self.done > o.generations {
            return Err(format!(
                "{} generations done of the {} it was to run",
                self.done, o.generations
            ));
        }
        if self.history.len() != self.done {
            return Err(format!(
                "{} generations done but {} reported",
                self.done,
                self.history.len()
            ));
        }
        if self.population.len() != o.population {
            return Err(format!(
                "it holds {} candidates where its settings say {}",
                self.population.len(),
                o.population
            ));
        }
        let weights_ok = |w: &Weights| w.iter().all(|x| (0.0..=1.0).contains(x));
        if let Some(i) = self.population.iter().position(|w| !weights_ok(w)) {
            return Err(format!("candidate {} has a weight outside 0 to 1", i + 1));
        }
        for (i, g) in self.history.iter().enumerate() {
            let share = |x: f64| (0.0..=1.0).contains(&x);
            if g.generation != i + 1
                || !weights_ok(&g.best)
                || !share(g.best_fitness)
                || !share(g.mean_fitness)
                || g.mean_fitness > g.best_fitness + 1e-9
            {
                return Err(format!(
                    "the report of generation {} is inconsistent (its number, a weight or a \
                     fitness out of range, or a mean above the best)",
                    i + 1
                ));
            }
        }
        Ok(())
    }
}

/// Check that `state` is sound ([`TuneState::validate`]: else
/// [`Error::BadTuneState`]) and was saved by a run with these options
/// (else [`Error::WrongTuneState`], naming the settings that differ).
pub fn check_resume(state: &TuneState, opts: &TuneOptions) -> Result<()> {
    state
        .validate()
        .map_err(|reason| Error::BadTuneState { path: None, reason })?;
    let asked = settings(opts);
    if state.settings != asked {
        let pairs = |t: &str| -> Vec<(String, String)> {
            t.split(' ')
                .filter_map(|f| f.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        // A reading left at Algorithm 4's is not written: name it so.
        let (saved, wanted) = (pairs(&state.settings), pairs(&asked));
        let value = |list: &[(String, String)], key: &str| {
            list.iter()
                .find(|(k, _)| k == key)
                .map_or_else(|| "Algorithm 4's".to_string(), |(_, v)| v.clone())
        };
        let mut keys: Vec<String> = saved.iter().map(|(k, _)| k.clone()).collect();
        keys.extend(
            wanted
                .iter()
                .map(|(k, _)| k.clone())
                .filter(|k| !saved.iter().any(|(s, _)| s == k)),
        );
        let differences = keys
            .into_iter()
            .map(|k| {
                let (s, a) = (value(&saved, &k), value(&wanted, &k));
                (k, s, a)
            })
            .filter(|(_, s, a)| s != a)
            .collect();
        return Err(Error::WrongTuneState { differences });
    }
    Ok(())
}

/// The points (out of `games`) candidate `a` scores against `b`.
fn pair_points(opts: &TuneOptions, a: &Weights, b: &Weights, pair_seed: u64) -> Result<f64> {
    let mut points = 0.0;
    for g in 0..opts.games {
        let gs = game_seed(pair_seed, g as u64);
        let mut x = MinimaxAgent::with_eval(
            opts.depth,
            true,
            Eval::Heuristic10(*a, opts.readings),
            "a".into(),
        );
        let mut y = MinimaxAgent::with_eval(
            opts.depth,
            true,
            Eval::Heuristic10(*b, opts.readings),
            "b".into(),
        );
        let side = if g % 2 == 0 { Side::South } else { Side::North };
        let mut rng = crate::rng::seeded(mix(gs));
        let played = play_agents(
            opts.game.start(),
            &mut x,
            &mut y,
            side,
            opts.random_opening,
            500,
            &mut rng,
        )?;
        let d = played.end.difference(side);
        points += match d.cmp(&0) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
    }
    Ok(points)
}

/// The fitness of every candidate of `population` (generation `gen`).
pub fn fitness(opts: &TuneOptions, population: &[Weights], gen: usize) -> Result<Vec<f64>> {
    let n = population.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let pool = crate::threads::pool(opts.threads)?;
    let done = std::sync::atomic::AtomicU64::new(0);
    let gen_seed = mix(opts.seed ^ mix(gen as u64 + 1));
    let results: Vec<Result<f64>> = pool.install(|| {
        pairs
            .par_iter()
            .enumerate()
            .map(|(k, &(i, j))| {
                let p = pair_points(
                    opts,
                    &population[i],
                    &population[j],
                    mix(gen_seed ^ k as u64),
                );
                let d = done.fetch_add(opts.games as u64, std::sync::atomic::Ordering::Relaxed);
                opts.progress.event(&Event::Advance {
                    done: d + opts.games as u64,
                });
                p
            })
            .collect()
    });
    // Against itself a candidate always scores half.
    let mut points = vec![opts.games as f64 / 2.0; n];
    for (&(i, j), r) in pairs.iter().zip(results) {
        let p = r?;
        points[i] += p;
        points[j] += opts.games as f64 - p;
    }
    let available = (n * opts.games) as f64;
    Ok(points.into_iter().map(|p| p / available).collect())
}

/// The next population from `population` and its `fitness`.
pub fn breed(
    opts: &TuneOptions,
    population: &[Weights],
    fitness: &[f64],
    gen: usize,
) -> Vec<Weights> {
    let mut rng = crate::rng::seeded(mix(opts.seed ^ mix(gen as u64 + 0x0062_7265_6564)));
    let n = population.len();
    let best = (0..n)
        .max_by(|&a, &b| fitness[a].total_cmp(&fitness[b]).then(b.cmp(&a)))
        .expect("a population");
    let mut next = vec![population[best]];
    let pick = |rng: &mut crate::rng::SeededRng| {
        (0..TOURNAMENT)
            .map(|_| rng.gen_range(0..n))
            .max_by(|&a, &b| fitness[a].total_cmp(&fitness[b]))
            .expect("a draw")
    };
    while next.len() < n {
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        let mut child = [0.0; 10];
        for (k, w) in child.iter_mut().enumerate() {
            *w = if rng.gen_bool(0.5) {
                population[a][k]
            } else {
                population[b][k]
            };
            if rng.gen_bool(opts.mutation) {
                *w = (*w + opts.sigma * gaussian(&mut rng)).clamp(0.0, 1.0);
            }
        }
        next.push(child);
    }
    next
}

/// Run generations from `state` until all are done, calling `saved` with
/// the state after each one (to write it to disk).
pub fn run(
    opts: &TuneOptions,
    mut state: TuneState,
    mut saved: impl FnMut(&TuneState) -> Result<()>,
) -> Result<TuneState> {
    opts.check()?;
    check_resume(&state, opts)?;
    let n = opts.population;
    let games = (n * (n - 1) / 2 * opts.games) as u64;
    while state.done < opts.generations {
        let gen = state.done + 1;
        let stage = format!("generation {gen}/{}", opts.generations);
        opts.progress.event(&Event::Start {
            stage: &stage,
            total: Some(games),
        });
        let fit = fitness(opts, &state.population, gen)?;
        opts.progress.event(&Event::Finish);
        let best = (0..n)
            .max_by(|&a, &b| fit[a].total_cmp(&fit[b]).then(b.cmp(&a)))
            .expect("a population");
        state.history.push(GenerationReport {
            generation: gen,
            best_fitness: fit[best],
            mean_fitness: fit.iter().sum::<f64>() / n as f64,
            best: state.population[best],
        });
        if gen < opts.generations {
            state.population = breed(opts, &state.population, &fit, gen);
        }
        state.done = gen;
        saved(&state)?;
    }
    Ok(state)
}

/// A standard normal draw (Box-Muller), without another dependency.
mod rand_distr_free {
    use rand::Rng;

    /// One draw of N(0, 1).
    pub fn gaussian(rng: &mut impl Rng) -> f64 {
        let u1: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
        let u2: f64 = rng.gen();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> TuneOptions {
        TuneOptions {
            game: "kalah:4:3".parse().unwrap(),
            population: 6,
            generations: 3,
            games: 2,
            depth: 1,
            mutation: 0.1,
            sigma: 0.1,
            random_opening: 1,
            seed: 3,
            readings: hunter::Readings::default(),
            threads: Some(2),
            progress: Observer::default(),
        }
    }

    #[test]
    fn a_resumed_run_ends_where_an_unbroken_one_does() {
        let o = opts();
        let whole = run(&o, start(&o), |_| Ok(())).unwrap();
        assert_eq!(whole.history.len(), 3);
        let mut saved = Vec::new();
        let mut short = o.clone();
        short.generations = 3;
        let _ = run(&short, start(&short), |s| {
            saved.push(s.clone());
            Ok(())
        });
        let resumed = run(&o, saved[0].clone(), |_| Ok(())).unwrap();
        assert_eq!(resumed, whole);
        for g in &whole.history {
            assert!(g.best.iter().all(|w| (0.0..=1.0).contains(w)));
            assert!(g.best_fitness >= g.mean_fitness);
        }
    }

    #[test]
    fn fitness_shares_the_points_out() {
        let o = opts();
        let s = start(&o);
        let f = fitness(&o, &s.population, 1).unwrap();
        // Every game hands out one point: the mean share is one half.
        let mean = f.iter().sum::<f64>() / f.len() as f64;
        assert!((mean - 0.5).abs() < 1e-12, "{mean}");
    }

    #[test]
    fn options_out_of_range_are_refused() {
        let o = opts();
        for bad in [
            TuneOptions {
                population: 1,
                ..o.clone()
            },
            TuneOptions {
                games: 3,
                ..o.clone()
            },
            TuneOptions {
                mutation: 1.5,
                ..o.clone()
            },
            TuneOptions {
                sigma: 0.0,
                ..o.clone()
            },
            TuneOptions {
                depth: 0,
                ..o.clone()
            },
            TuneOptions {
                game: "awari:6:4".parse().unwrap(),
                ..o.clone()
            },
        ] {
            assert!(bad.check().unwrap_err().is_usage());
        }
    }
}
