"""Solving Kalah's Tables 2 and 3 (state-space sizes, game-graph sizes and
their share of the state space) recomputed (docs/kalah-graphs.md, "Tables
2 and 3"), and Table 8 (the 6-pit endgame tables' position counts and
sizes at 4 bits a position). Stdlib only:

    python3 benches/kalah2000/tables23.py

The state space of Kalah(m, n) counts every way of putting its 2mn seeds
into 2m pits and 2 stores, times the two sides to move:
2 * C(2mn + 2m + 1, 2m + 1). The measured graph sizes are `mancala graph
kalah M N`'s (the table "Sizes" of docs/kalah-graphs.md).

The text's estimate of Kalah(6,4)'s graph ("a conservative estimate ...
would be about 1.3 x 10^12", after "say 94% or more" of the configuration
space is unreachable) is recomputed as a share of Table 2's Kalah(6,4):
10% of it gives 1.3 x 10^12, Table 3's largest share (6%) 7.9 x 10^11; the
shares of the largest graphs measured here (docs/kalah-graphs.md, "Past
the published graphs") are printed beside it.
"""

from math import comb

# Table 2 as published (m, n): configurations.
TABLE2 = {
    (1, 1): 20, (1, 2): 70, (1, 3): 168, (1, 4): 330, (1, 5): 572, (1, 6): 910,
    (2, 1): 252, (2, 2): 2574, (2, 3): 12376, (2, 4): 40698, (2, 5): 106206, (2, 6): 237510,
    (3, 1): 3432, (3, 2): 100776, (3, 3): 961400, (3, 4): 5259150, (3, 5): 20590944, (3, 6): 64448228,
    (4, 1): 48620, (4, 2): 4085950, (4, 3): 77134200, (4, 4): 700687130, (4, 5): 4.11e9, (4, 6): 1.80e10,
    (5, 1): 705432, (5, 2): 169344630, (5, 3): 6.31e9, (5, 4): 9.52e10, (5, 5): 8.36e11, (5, 6): 5.12e12,
    (6, 1): 10400600, (6, 2): 7.12e10, (6, 3): 5.25e11, (6, 4): 1.31e13, (6, 5): 1.73e14, (6, 6): 1.48e15,
}
# Table 3 as published: graph size and share of the state space (%), and
# this project's measured size.
TABLE3 = {
    (1, 1): (2, 10, 2), (1, 2): (2, 2.9, 2), (1, 3): (2, 1.2, 2), (1, 4): (3, 0.9, 3),
    (1, 5): (4, 0.7, 4), (1, 6): (6, 0.7, 6),
    (2, 1): (8, 3.1, 8), (2, 2): (24, 0.9, 24), (2, 3): (138, 1.1, 138), (2, 4): (168, 0.4, 168),
    (2, 5): (58, 0.1, 48), (2, 6): (2482, 1.1, 2482),
    (3, 1): (73, 2.1, 73), (3, 2): (2941, 2.9, 2941), (3, 3): (24936, 2.6, 24936),
    (3, 4): (190579, 3.6, 190579), (3, 5): (755748, 3.7, 755748), (3, 6): (1255339, 2.0, 1522350),
    (4, 1): (880, 1.8, 880), (4, 2): (226774, 5.6, 226774), (4, 3): (4604996, 6.0, 4604996),
    (5, 1): (11465, 1.6, 11465), (6, 1): (178708, 1.7, 178708),
}


# The largest graphs measured here (docs/kalah-graphs.md, "Past the
# published graphs"): (m, n) -> positions.
LARGER = {(4, 6): 1240385222, (5, 3): 567954219, (6, 2): 688077380}

# Table 8 as published: seeds -> (positions, size in MB).
TABLE8 = {
    17: (51694042, 24.6), 18: (86224034, 41.1), 19: (140766326, 67.1), 20: (225332381, 107),
    21: (354225301, 169), 22: (547600561, 261), 23: (833501761, 397), 24: (1250490151, 596),
    25: (1851010435, 883), 26: (2705662765, 1290), 27: (3908582301, 1863), 28: (5584163673, 2663),
    29: (7895408601, 3764), 30: (11054221305, 5271),
}


def table_positions(m: int, n: int) -> int:
    return comb(n + 2 * m, 2 * m) - 2 * comb(n + m, m) + 1


def configurations(m: int, n: int) -> int:
    return 2 * comb(2 * m * n + 2 * m + 1, 2 * m + 1)


def main() -> None:
    print("Table 2: state-space size, published against 2 * C(2mn + 2m + 1, 2m + 1)")
    print("| Kalah | published | computed | verdict |")
    print("|---|---:|---:|---|")
    for (m, n), pub in TABLE2.items():
        c = configurations(m, n)
        exact = isinstance(pub, int)
        ok = pub == c if exact else abs(pub - c) / c < 0.006
        shown = f"{pub:,}" if exact else f"{pub:.2e}"
        print(f"| ({m},{n}) | {shown} | {c:,} | {'agrees' if ok else 'differs'} |")
    print()
    print("Table 3: game-graph size and its share of the state space")
    print("| Kalah | published size | published % | published size / computed space (%) | measured size | measured % | verdict |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for (m, n), (size, pct, ours) in TABLE3.items():
        c = configurations(m, n)
        theirs = 100 * size / c
        mine = 100 * ours / c
        # Published shares are given to 2 significant figures (1 decimal
        # above 1%).
        ok = abs(mine - pct) <= max(0.05, 0.051 * pct)
        print(f"| ({m},{n}) | {size:,} | {pct} | {theirs:.2f} | {ours:,} | {mine:.2f} | {'agrees' if ok else 'differs'} |")

    print()
    print("Table 8: 6-pit endgame tables, positions of up to n seeds and size at 4 bits a position")
    print("| seeds | published positions | computed | published MB | computed MiB | verdict |")
    print("|---:|---:|---:|---:|---:|---|")
    for k, (positions, mb) in TABLE8.items():
        c = table_positions(6, k)
        mib = c / 2 / 2**20
        unit = 0.1 if mb < 100 else 1
        ok = c == positions and abs(mib - mb) < unit
        print(f"| {k} | {positions:,} | {c:,} | {mb:g} | {mib:.1f} | {'agrees' if ok else 'differs'} |")

    print()
    print("The text's estimate of Kalah(6,4)'s graph: 'conservatively' about 1.3 x 10^12 positions")
    c = configurations(6, 4)
    for share, why in ((0.10, "10% of the state space (94% or more unreachable, rounded to 90%)"),
                       (0.06, "6%, Table 3's largest share (Kalah(4,3))")):
        est = share * c
        print(f"- {why}: {est:.3g} positions" + (" (agrees: about 1.3 x 10^12)" if round(est / 1e11) == 13 else ""))
    shares = ", ".join(f"Kalah({m},{n}) {100 * k / configurations(m, n):.2f}%" for (m, n), k in LARGER.items())
    print(f"- the shares of the largest graphs measured here: {shares}")


if __name__ == "__main__":
    main()
