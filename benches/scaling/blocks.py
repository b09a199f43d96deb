#!/usr/bin/env python3
"""Sizes of the 6-pit Kalah tables past the ones built here, and of their
blocks by mover-row sum (docs/SCALING.md).

A position of table k (k seeds in play, both rows non-empty) has a mover
row of sum a and an opponent row of sum k - a; the block (k, a) holds
C(a+5,5) * C(k-a+5,5) positions. A move that keeps every seed in play sends
block (k, a) to block (k, k - a), so the pair {a, k - a} is closed inside a
table: the unit of a partitioned or distributed build. Its look-ups into the
table of k - 1 seeds land in the blocks a' = b - 1 .. b + 12 (the turn
passes; b = k - a) and a - 1 (extra turn), by benches/scaling/lookups.py.

Usage: python3 benches/scaling/blocks.py [--from 30] [--to 40] [--bits 4.24]
"""
import argparse
from math import comb


def rows(s):
    return comb(s + 5, 5)


def block(k, a):
    return rows(a) * rows(k - a) if 1 <= a <= k - 1 else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="lo", type=int, default=30)
    ap.add_argument("--to", dest="hi", type=int, default=40)
    ap.add_argument("--bits", type=float, default=4.24,
                    help="bits per position on disk (4.24 measured at 30 seeds)")
    args = ap.parse_args()
    gib = 2 ** 30
    total = sum(sum(block(k, a) for a in range(k + 1)) for k in range(1, args.lo))
    print("| k | positions | on disk | tables 1..k on disk | largest block pair | "
          "its look-up window in table k-1 | blocks |")
    print("|---|---|---|---|---|---|---|")
    for k in range(args.lo, args.hi + 1):
        n = sum(block(k, a) for a in range(k + 1))
        total += n
        best = max(range(1, k // 2 + 1), key=lambda a: block(k, a) + (block(k, k - a) if 2 * a != k else 0))
        pair = block(k, best) + (block(k, k - best) if 2 * best != k else 0)
        window = set()
        for a in {best, k - best}:
            b = k - a
            window.update(range(max(1, b - 1), min(k - 2, b + 12) + 1))
            window.add(a - 1)
        win = sum(block(k - 1, x) for x in window if 1 <= x <= k - 2)
        print(f"| {k} | {n:,} | {n * args.bits / 8 / gib:.1f} GiB | {total * args.bits / 8 / gib:.1f} GiB | "
              f"{pair:,} ({pair / gib:.1f} GiB at 1 byte) | {win * args.bits / 8 / gib:.1f} GiB "
              f"({100 * win / sum(block(k - 1, x) for x in range(k)):.0f}% of table {k - 1}) | {k - 1} |")


if __name__ == "__main__":
    main()
