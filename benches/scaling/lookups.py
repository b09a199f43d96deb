#!/usr/bin/env python3
"""Where the children of a Kalah table's positions land (docs/SCALING.md).

Samples positions uniformly from the 6-pit table of k seeds in play (both
rows non-empty, default rules), plays every legal move and classifies each
child: the game ends (no look-up), same table (k seeds: the move kept every
seed in play), or a smaller table (k - j seeds). It also reports how far the
child's mover-row sum is from the parent's, which decides how a table can be
partitioned. A plain re-implementation of the rules in docs/RULES.md, kept
independent of the Rust code.

Usage: python3 benches/scaling/lookups.py [--samples N] [--seeds "20 26 32 40"]
"""
import argparse
import random
from collections import Counter

M = 6


def sample(k, rng):
    """A uniform position with k seeds in 12 pits, both rows non-empty."""
    while True:
        bars = sorted(rng.sample(range(k + 11), 11))
        cells, prev = [], -1
        for b in bars + [k + 11]:
            cells.append(b - prev - 1)
            prev = b
        if sum(cells[:M]) and sum(cells[M:]):
            return cells


def play(cells, pit):
    """Sow pit of the mover (cells[0:M] mover, cells[M:] opponent).
    Returns (gained by mover's store, game over, extra turn, child cells
    from the child's mover's view)."""
    ring = cells[:M] + [0] + cells[M:]  # mover's store at index M
    n = ring[pit]
    ring[pit] = 0
    i = pit
    while n:
        i = (i + 1) % (2 * M + 1)
        ring[i] += 1
        n -= 1
    store = ring[M]
    if i < M and ring[i] == 1:  # own pit, empty before the last seed
        opp = 2 * M - i  # index of the opposite pit in ring
        store += 1 + ring[opp]
        ring[i] = 0
        ring[opp] = 0
    mine, theirs = ring[:M], ring[M + 1:]
    over = sum(mine) == 0 or sum(theirs) == 0
    extra = i == M
    child = mine + theirs if extra else theirs + mine
    return store, over, extra, child


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=20000)
    ap.add_argument("--seeds", default="20 26 32 40")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print("| k | moves a position | game ends | same table | k-1 | k-2 | k-3..k-5 | fewer | "
          "extra turn | child's mover row sum - parent's opponent row sum (turn passes): median, 90th pct, max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in map(int, args.seeds.split()):
        moves = 0
        where = Counter()
        shift = []
        extra_turns = 0
        for _ in range(args.samples):
            c = sample(k, rng)
            for pit in range(M):
                if not c[pit]:
                    continue
                moves += 1
                gained, over, extra, child = play(c, pit)
                if over:
                    where["over"] += 1
                    continue
                j = gained
                if extra:
                    extra_turns += 1
                else:
                    # The block (k - j, a') a look-up lands in, against
                    # the parent's block (k, a): a' = b + seeds sown over
                    # (the same table: a' = b exactly).
                    shift.append(sum(child[:M]) - sum(c[M:]))
                if j == 0:
                    where["same"] += 1
                elif j <= 2:
                    where[f"-{j}"] += 1
                elif j <= 5:
                    where["-3..5"] += 1
                else:
                    where["fewer"] += 1
        pct = lambda x: f"{100 * x / moves:.1f}%"
        shift.sort()
        q = lambda f: shift[int(f * (len(shift) - 1))]
        print(f"| {k} | {moves / args.samples:.2f} | {pct(where['over'])} | {pct(where['same'])} | "
              f"{pct(where['-1'])} | {pct(where['-2'])} | {pct(where['-3..5'])} | {pct(where['fewer'])} | "
              f"{pct(extra_turns)} | {q(0.5)}, {q(0.9)}, {max(shift)} |")


if __name__ == "__main__":
    main()
