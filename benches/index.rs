//! Rank and unrank throughput, and the warm table look-up (rank plus read).
//!
//! Run with `cargo bench --bench index`. The look-up benchmark builds the
//! 6-pit tables up to 16 seeds into a temporary directory first (a few
//! seconds).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
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

fn index(c: &mut Criterion) {
    let ix = Indexer::new(6, 24, Layout::BothRowsNonEmpty).unwrap();
    let rows = sample_rows(&ix, 1);
    let mut g = c.benchmark_group("index m=6 k=24");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("rank", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (a, o, s) in &rows {
                acc = acc.wrapping_add(ix.rank_with_sum(black_box(a), black_box(o), *s));
            }
            acc
        })
    });
    let indices: Vec<u64> = rows
        .iter()
        .map(|(a, o, s)| ix.rank_with_sum(a, o, *s))
        .collect();
    g.bench_function("unrank", |b| {
        b.iter(|| {
            let (mut a, mut o) = ([0u8; 6], [0u8; 6]);
            let mut acc = 0usize;
            for &i in &indices {
                acc += ix.unrank(black_box(i), &mut a, &mut o);
            }
            acc
        })
    });
    g.finish();
}

fn lookup(c: &mut Criterion) {
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
    let mut g = c.benchmark_group("lookup m=6 k=16");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("rank+read (warm, random positions)", |b| {
        b.iter(|| {
            let mut acc = 0i32;
            for (a, o, s) in &rows {
                acc += tb.rows_value(black_box(a), black_box(o), *s, k).unwrap();
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, index, lookup);
criterion_main!(benches);
