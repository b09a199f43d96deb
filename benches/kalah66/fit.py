#!/usr/bin/env python3
"""Fit the Kalah(6,6) cost model from benches/kalah66.rs's CSV.

For each table size K, over the solves that finished, fit
    ln(seconds) = a + b * s    and    ln(nodes) = a' + b' * s
(s: seeds in play) by least squares, and extrapolate to the start of
Kalah(6,6) (s = 72). The error bars are the 5th and 95th percentiles of
the extrapolation over 2,000 bootstrap resamples of the positions (solves
of one position at every table size are resampled together), which
covers both the scatter of the positions and the uncertainty of the
slope. Solves stopped at the time limit are not in the fit; they are
counted, and since each of them took longer than the limit, leaving them
out makes the fit, and the estimate, too low: the estimate is a lower
estimate when any were stopped.

Times: the fit of ln(seconds) uses only the solves of at least 1 s (below
that, fixed costs such as clearing the transposition table dominate); a
second estimate divides the extrapolated nodes by the nodes per second of
those solves.

Usage: benches/kalah66/fit.py FILE.csv [FILE.csv ...] [--at S [S ...]]
(default --at 72; several S print one table each, e.g. 48 and 60 to
compare with the starts of Kalah(6,4) and Kalah(6,5)). Pure Python (no
numpy). Prints a Markdown report on stdout.
"""

import csv
import math
import random
import sys
from collections import defaultdict

START = 72


def fit(points):
    """Least squares y = a + b x; returns (a, b) or None."""
    n = len(points)
    if n < 3:
        return None
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    return my - b * mx, b


def pos_key(r):
    """One position: its target, sample number, seeds and stores (the
    same position at every table size)."""
    return (r["target"], r["plies"], r["sample"], r["seeds_in_play"], r["stores"])


def human(seconds):
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} s"


def main():
    args = sys.argv[1:]
    ats = [START]
    if "--at" in args:
        i = args.index("--at")
        ats = [float(a) for a in args[i + 1:]]
        args = args[:i]
    rows = [r for path in args for r in csv.DictReader(open(path))]
    for target in ats:
        report(rows, args, target)


def report(rows, paths, target):
    by_k = defaultdict(list)
    for r in rows:
        by_k[int(r["tables"])].append(r)
    rng = random.Random(1)
    print(f"Solves: {len(rows)} ({sum(r['exact'] == '1' for r in rows)} finished) "
          f"from {', '.join(f'`{p}`' for p in paths)}; extrapolated to {target:g} seeds in play.\n")
    print("| tables | solves | finished | seeds in play | slope of ln(nodes) | nodes (5%-95%) "
          "| nodes/s (solves of 1 s or more) | time = nodes / rate | slope of ln(time) (solves of 1 s or more) "
          "| time (5%-95%) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in sorted(by_k, reverse=True):
        rs = by_k[k]
        done = [r for r in rs if r["exact"] == "1"]
        # positions: (target, sample) identifies one position
        keys = sorted({pos_key(r) for r in done})
        by_pos = defaultdict(list)
        for r in done:
            by_pos[pos_key(r)].append(r)

        def points(rows_, col):
            return [(float(r["seeds_in_play"]), math.log(max(float(r[col]), 1e-3)))
                    for r in rows_]

        slow = [r for r in done if float(r["seconds"]) >= 1.0]
        ft = fit(points(slow, "seconds"))
        fn = fit(points(done, "nodes"))
        if not ft or not fn:
            print(f"| {k} | {len(rs)} | {len(done)} | too few finished solves to fit | | | | | | |")
            continue
        boots_t, boots_n = [], []
        for _ in range(2000):
            sample = [r for key in (rng.choice(keys) for _ in keys) for r in by_pos[key]]
            bt = fit(points([r for r in sample if float(r["seconds"]) >= 1.0], "seconds"))
            bn = fit(points(sample, "nodes"))
            if bt and bn:
                boots_t.append(bt[0] + bt[1] * target)
                boots_n.append(bn[0] + bn[1] * target)
        boots_t.sort()
        boots_n.sort()

        def pct(v, q):
            return math.exp(v[int(q * (len(v) - 1))])

        t0 = math.exp(ft[0] + ft[1] * target)
        n0 = math.exp(fn[0] + fn[1] * target)
        s_lo = min(int(r["seeds_in_play"]) for r in done)
        s_hi = max(int(r["seeds_in_play"]) for r in done)
        rate = sum(float(r["nodes"]) for r in slow) / max(sum(float(r["seconds"]) for r in slow), 1e-9)
        print(f"| {k} | {len(rs)} | {len(done)} | {s_lo}-{s_hi} "
              f"| {fn[1]:.3f} (x{math.exp(fn[1]):.2f} a seed) "
              f"| {n0:.3g} ({pct(boots_n, 0.05):.3g} - {pct(boots_n, 0.95):.3g}) "
              f"| {rate:.3g} | {human(n0 / rate)} ({human(pct(boots_n, 0.05) / rate)} - {human(pct(boots_n, 0.95) / rate)}) "
              f"| {ft[1]:.3f} | {human(t0)} ({human(pct(boots_t, 0.05))} - {human(pct(boots_t, 0.95))}) |")
    print()
    stopped = [r for r in rows if r["exact"] != "1"]
    if stopped and target == START:
        print(f"Stopped at the time limit (left out of the fit, so the estimates above are "
              f"low): {len(stopped)} solves:")
        for r in stopped:
            print(f"- {r['seeds_in_play']} seeds in play (stores {r['stores']}), tables {r['tables']}: "
                  f"proven [{r['lower']}, {r['upper']}] after {float(r['seconds']):.0f} s, "
                  f"{int(r['nodes']):,} nodes")


if __name__ == "__main__":
    main()
