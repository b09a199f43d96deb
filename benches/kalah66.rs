//! The cost model of solving Kalah(6,6): random positions a few plies from
//! the start (random plies until at most a target number of seeds is in
//! play), each solved on one thread with the tables probed up to
//! several sizes, under a time limit. Prints one CSV row per solve on
//! stdout (progress on stderr); `benches/kalah66/fit.py` fits the node
//! counts and times against the seeds in play and extrapolates to the start
//! (72 seeds in play). See docs/kalah-6-6.md.
//!
//! Run with `benches/kalah66.sh` (it writes `target/kalah66/solves.csv` and
//! the fit), or directly:
//! `DB=db IN_PLAY="50 54" COUNT=3 TABLES="32 28" LIMIT=60 cargo bench --bench kalah66`.
//! Settings (environment): `DB` (table directory, default `db`; the 6-pit
//! tables up to the largest of `TABLES` must be there), `IN_PLAY` (the
//! targets: seeds in play, default "48 51 54 57 60"), `COUNT` (positions per
//! ply count, default 4), `TABLES` (largest table probed, default
//! "32 28 24"), `LIMIT` (seconds per solve, default 120; a solve stopped
//! there is reported with `exact` 0 and its proven bounds), `TT_MB`
//! (transposition table, default 1024), `TABLE_MB` (tables decoded into
//! memory, largest first, default 8192), `SEED` (default 1).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mancala_solver::kalah::position::Position;
use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::search::{solve, SolveOptions};
use mancala_solver::tablebase::TableSet;
use rand::Rng;

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn list(name: &str, default: &str) -> Vec<usize> {
    env_or(name, default)
        .split_whitespace()
        .map(|x| {
            x.parse()
                .unwrap_or_else(|_| panic!("{name}: {x} is not a count"))
        })
        .collect()
}

fn number(name: &str, default: &str) -> f64 {
    let x = env_or(name, default);
    x.parse()
        .unwrap_or_else(|_| panic!("{name}: {x} is not a number"))
}

/// `count` positions of Kalah(6,6) reached by random plies from the start,
/// each the first of its game with at most `in_play` seeds in play (game
/// not over), with the number of plies played.
fn positions(in_play: usize, count: usize, seed: u64) -> Vec<(usize, Position)> {
    let rules = KalahRules::Default;
    let mut rng = mancala_solver::rng::seeded(seed ^ (in_play as u64) << 32);
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = Position::start(6, 6).expect("a valid start");
        let mut plies = 0;
        while p.active_seeds() > in_play && !p.is_game_over(rules) {
            let moves: Vec<usize> = p.legal_moves(rules).collect();
            p.play(moves[rng.gen_range(0..moves.len())], rules)
                .expect("a legal move");
            plies += 1;
        }
        if !p.is_game_over(rules) {
            out.push((plies, p));
        }
    }
    out
}

fn main() {
    // `cargo bench` passes "--bench"; the settings come from the environment.
    let db = PathBuf::from(env_or("DB", "db"));
    let targets = list("IN_PLAY", "48 51 54 57 60");
    let count = number("COUNT", "4") as usize;
    let tables = list("TABLES", "32 28 24");
    let limit = Duration::from_secs_f64(number("LIMIT", "120"));
    let tt_mb = number("TT_MB", "1024") as usize;
    let table_mb = number("TABLE_MB", "8192") as u64;
    let seed = number("SEED", "1") as u64;
    let kmax = tables.iter().copied().max().unwrap_or(0);
    let mut tb = match TableSet::open(&db, KalahRules::Default, 6, kmax) {
        Ok(tb) => tb,
        Err(e) => {
            eprintln!(
                "{e}\nthe Kalah(6,6) cost model needs the 6-pit tables up to {kmax} seeds in {}: \
                 run `mancala build kalah --pits 6 --max-seeds {kmax} --db {}`",
                db.display(),
                db.display()
            );
            std::process::exit(1);
        }
    };
    let t = Instant::now();
    let loaded = tb
        .load_into_memory(kmax, table_mb << 20)
        .expect("tables decoded");
    eprintln!(
        "tables up to {kmax} seeds open; {:.0} MiB decoded into memory in {:.1} s",
        loaded as f64 / (1 << 20) as f64,
        t.elapsed().as_secs_f64()
    );
    println!(
        "target,plies,sample,seeds_in_play,stores,tables,exact,value,lower,upper,nodes,seconds"
    );
    for &target in &targets {
        for (i, (p, pos)) in positions(target, count, seed).iter().enumerate() {
            for &k in &tables {
                let options = SolveOptions {
                    tt_mb,
                    max_table_seeds: Some(k),
                    threads: 1,
                    deadline: Some(Instant::now() + limit),
                    ..SolveOptions::default()
                };
                let sol = solve(pos, Some(&tb), &options).expect("a solve");
                let [s, n] = pos.stores();
                println!(
                    "{target},{p},{i},{},{}-{},{k},{},{},{},{},{},{:.3}",
                    pos.active_seeds(),
                    s,
                    n,
                    u8::from(sol.exact),
                    sol.value,
                    sol.lower,
                    sol.upper,
                    sol.stats.nodes,
                    sol.solve_seconds
                );
                eprintln!(
                    "plies {p} #{i} ({} in play) tables {k}: {} in {:.1} s, {} nodes",
                    pos.active_seeds(),
                    if sol.exact {
                        format!("value {}", sol.value)
                    } else {
                        format!("stopped in [{}, {}]", sol.lower, sol.upper)
                    },
                    sol.solve_seconds,
                    sol.stats.nodes
                );
            }
        }
    }
}
