"""The batch look-ups from Python: Oracle.table_values (then
Oracle.table_move_values) on 2,000,000
positions of Kalah(4,3)'s tables (each pit 0 to 3 seeds, stores 0 to 20),
the median of seven runs, beside the Rust rate of `cargo bench --bench
batch` (docs/python.md). Run from the repository's root after `pip install
.`: `python benches/batch.py`."""

import time

import numpy as np

import mancala_solver as ms

ROWS = 2_000_000
rng = np.random.default_rng(1)
counts = rng.integers(0, 4, size=(ROWS, 10), dtype=np.uint8)
counts[:, 4] = rng.integers(0, 21, size=ROWS)
counts[:, 9] = rng.integers(0, 21, size=ROWS)
oracle = ms.Oracle(db="target/bench-db", build_limit=100_000_000)
values = oracle.table_values("kalah:4:3", counts)


def median_of_seven(work):
    rates = []
    for _ in range(7):
        t = time.perf_counter()
        out = work()
        rates.append(ROWS / (time.perf_counter() - t))
    return sorted(rates), out


rates, values = median_of_seven(lambda: oracle.table_values("kalah:4:3", counts))
missing = int((values == ms.MISSING).sum())
print(
    f"Oracle.table_values kalah:4:3, {ROWS} positions ({missing} not covered): "
    f"median {rates[3] / 1e6:.1f} M positions/s (min {rates[0] / 1e6:.1f}, max {rates[6] / 1e6:.1f})"
)
rates, _ = median_of_seven(lambda: oracle.table_move_values("kalah:4:3", counts))
print(
    f"Oracle.table_move_values kalah:4:3, {ROWS} positions x 4 moves: "
    f"median {rates[3] / 1e6:.1f} M positions/s (min {rates[0] / 1e6:.1f}, max {rates[6] / 1e6:.1f})"
)
