"""Solving Kalah's Table 6 (the first seven layers of Kalah(4,3)'s game
graph, Win/Loss/Draw counts for South in each subgraph g(p, q)) against
`mancala graph kalah 4 3` (docs/kalah-graphs.md, "Table 6"). Stdlib only:

    python3 benches/kalah2000/table6.py [MANCALA] [--db DIR]

MANCALA is the binary (default target/release/mancala); the 4-pit tables
up to 24 seeds are built into DIR (default db) on first use, a few seconds.
Exits 1 if any of the 84 published numbers differs.

Then the text's claim that the "anomalies" (subgraphs whose majority value
contradicts the capture difference: p > q and more losses than wins for
South, or p < q and more wins) "happen mostly in the layers l(6) to
l(10)": the positions in such subgraphs, layer by layer, over every layer.
"""

import subprocess
import sys

# Table 6 as published: layer r = p + q, then (p, win, loss, draw) for p = 0..r.
PUBLISHED = [
    [(2, 1, 0)],
    [(1, 6, 0), (5, 6, 1)],
    [(1, 15, 0), (36, 41, 9), (11, 8, 1)],
    [(0, 20, 0), (153, 163, 30), (181, 168, 43), (6, 5, 3)],
    [(0, 17, 0), (412, 376, 77), (1514, 1280, 293), (293, 382, 72), (4, 7, 0)],
    [(0, 8, 0), (689, 609, 108), (6183, 3796, 1057), (3661, 5299, 1026), (351, 413, 63), (0, 4, 0)],
    [(0, 3, 0), (821, 708, 125), (13446, 8056, 2116), (22204, 22149, 4908), (6500, 10341, 1730), (274, 292, 39), (0, 1, 0)],
]


def main() -> None:
    args = [a for a in sys.argv[1:]]
    db = "db"
    if "--db" in args:
        i = args.index("--db")
        db = args[i + 1]
        del args[i : i + 2]
    mancala = args[0] if args else "target/release/mancala"
    out = subprocess.run([mancala, "graph", "kalah", "4", "3", "--db", db], capture_output=True, text=True, check=True).stdout
    measured = {}
    sizes = {}
    in_layers = False
    for line in out.splitlines():
        if line.startswith("layers g(p, q)"):
            in_layers = True
            continue
        parts = line.split()
        if in_layers and len(parts) == 6 and parts[0].isdigit():
            p, q, n, w, l, d = map(int, parts)
            measured[(p, q)] = (w, l, d)
            sizes[(p, q)] = n
    differ = 0
    print("| layer | captured by South | published W/L/D | measured W/L/D | |")
    print("|---|---:|---|---|---|")
    for r, row in enumerate(PUBLISHED):
        for p, pub in enumerate(row):
            got = measured.get((p, r - p))
            ok = got == pub
            differ += 0 if ok else 1
            cell = "/".join(map(str, got)) if got else "missing"
            print(f"| l({r}) | {p} | {'/'.join(map(str, pub))} | {cell} | {'agrees' if ok else 'DIFFERS'} |")
    cells = sum(len(row) for row in PUBLISHED)
    print(f"{cells - differ} of {cells} subgraphs agree ({3 * (cells - differ)} of {3 * cells} numbers)")
    print()
    anomalous = {}
    for (p, q), (w, l, _) in measured.items():
        if (p > q and l > w) or (p < q and w > l):
            anomalous[p + q] = anomalous.get(p + q, 0) + sizes[(p, q)]
    total = sum(anomalous.values())
    print("| layer | positions in anomalous subgraphs | share of all such positions |")
    print("|---|---:|---:|")
    for r in sorted(anomalous):
        print(f"| l({r}) | {anomalous[r]:,} | {100 * anomalous[r] / total:.1f}% |")
    inside = sum(n for r, n in anomalous.items() if 6 <= r <= 10)
    print(f"anomalies in l(6) to l(10): {100 * inside / total:.1f}% of the {total:,} positions in anomalous subgraphs")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
