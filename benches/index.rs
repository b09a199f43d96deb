//! Rank and unrank throughput, and the warm table look-up (rank plus read).
//!
//! Run with `cargo bench --bench index`. The look-up benchmark builds the
//! 6-pit tables up to 16 seeds into a temporary directory first (a few
//! seconds). Each line: the median over 31 samples (each at least 20 ms of
//! repetitions) of the time per position, with the fastest and slowest
//! sample, and the rate. (A plain timer, not criterion: criterion was a
//! fifth of the dependencies every `cargo test` compiled, for this file.)

use std::hint::black_box;
use std::time::{Duration, Instant};

use mancala_solver::kalah::rules::KalahRules;
use mancala_solver::tablebase::build::{build, BuildOptions};
use mancala_solver::tablebase::TableSet;
use mancala_solver::tables::index::{Indexer, Layout};
use rand::Rng;

const N: usize = 4096;

fn sample_rows(ix: &Indexer, seed: u64) -> Vec<([u8; 6], [u8; 6], usize)> {
    let mut rng = mancala_solver::rng::seeded(seed);
    (0..N)
        .map(|_| {
            let (mut a, mut b) = ([0u8; 6], [0u8; 6]);
            let s = ix.unrank(rng.gen_range(0..ix.count()), &mut a, &mut b);
            (a, b, s)
        })
        .collect()
}

/// Time `f` (one pass over `N` positions) and print a line named `name`.
fn bench<T>(name: &str, mut f: impl FnMut() -> T) {
    const SAMPLES: usize = 31;
    const MIN_SAMPLE: Duration = Duration::from_millis(20);
    let mut reps = 1u32;
    loop {
        let t = Instant::now();
        for _ in 0..reps {
            black_box(f());
        }
        if t.elapsed() >= MIN_SAMPLE {
            break;
        }
        reps *= 2;
    }
    let mut ns: Vec<f64> = (0..SAMPLES)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                black_box(f());
            }
            t.elapsed().as_nanos() as f64 / (reps as f64 * N as f64)
        })
        .collect();
    ns.sort_by(f64::total_cmp);
    let median = ns[SAMPLES / 2];
    println!(
        "{name:<48} {median:8.2} ns/position (min {:.2}, max {:.2})  {:8.2} M positions/s",
        ns[0],
        ns[SAMPLES - 1],
        1e3 / median
    );
}

fn index() {
    let ix = Indexer::new(6, 24, Layout::BothRowsNonEmpty).unwrap();
    let rows = sample_rows(&ix, 1);
    bench("index m=6 k=24: rank", || {
        let mut acc = 0u64;
        for (a, o, s) in &rows {
            acc = acc.wrapping_add(ix.rank_with_sum(black_box(a), black_box(o), *s));
        }
        acc
    });
    let indices: Vec<u64> = rows
        .iter()
        .map(|(a, o, s)| ix.rank_with_sum(a, o, *s))
        .collect();
    bench("index m=6 k=24: unrank", || {
        let (mut a, mut o) = ([0u8; 6], [0u8; 6]);
        let mut acc = 0usize;
        for &i in &indices {
            acc += ix.unrank(black_box(i), &mut a, &mut o);
        }
        acc
    });
}

fn lookup() {
    let dir = tempfile::tempdir().unwrap();
    let k = 16;
    build(&BuildOptions {
        dir: dir.path().to_path_buf(),
        game: KalahRules::Default,
        pits: 6,
        max_seeds: k,
        threads: None,
        memory_budget: 1 << 34,
        group_bytes: None,
        progress: Default::default(),
    })
    .unwrap();
    let tb = TableSet::open(dir.path(), KalahRules::Default, 6, k).unwrap();
    let ix = tb.table(k).unwrap().indexer().clone();
    let rows = sample_rows(&ix, 2);
    bench("lookup m=6 k=16: rank+read (warm, random)", || {
        let mut acc = 0i32;
        for (a, o, s) in &rows {
            acc += tb.rows_value(black_box(a), black_box(o), *s, k).unwrap();
        }
        acc
    });
}

fn main() {
    // `cargo test --benches` runs bench targets with `--bench` absent:
    // nothing to time then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    index();
    lookup();
}
