"""Solving Kalah's Tables 3 and 5 against `mancala graph kalah M N`: the
size of each published game graph, its share of the state space, the
Win/Loss/Draw shares of its nodes for South and the game value
(docs/kalah-graphs.md). Stdlib only:

    python3 benches/kalah2000/tables35.py [MANCALA] [--db DIR] [--quick]

MANCALA is the binary (default target/release/mancala); the m-pit tables
up to 2mn seeds are built into DIR (default db) on first use, a few seconds
in all. --quick leaves out the five largest graphs (Kalah(3,5), (3,6),
(4,2), (4,3), (6,1)). A size agrees when it is equal, a share when it is
within the published figure's two significant figures (as in
tables23.py: 0.05 points, or 5.1% of the figure above 1%; the study
truncates some, Kalah(2,1)'s 3.17% is printed 3.1%), a W/L/D
share when it is either rounding of the exact counts that
tests/graph.rs accepts (to the nearest percent, or by largest remainders
so that the three add up to 100), a value when its sign is the published
W, L or D. Exits 0 whatever differs (the differences are known:
docs/kalah-graphs.md, "Figures not reproduced").
"""

import json
import math
import subprocess
import sys

# (m, n): (size, share %, as printed, "W/L/D" value letter, W %, L %, D %), Tables 3 and 5.
PUBLISHED = {
    (1, 1): (2, "10", "D", 0, 0, 100), (1, 2): (2, "2.9", "L", 0, 100, 0),
    (1, 3): (2, "1.2", "W", 100, 0, 0), (1, 4): (3, "0.9", "L", 0, 100, 0),
    (1, 5): (4, "0.7", "W", 100, 0, 0), (1, 6): (6, "0.7", "D", 0, 0, 100),
    (2, 1): (8, "3.1", "W", 38, 38, 24), (2, 2): (24, "0.9", "L", 33, 46, 21),
    (2, 3): (138, "1.1", "L", 42, 32, 26), (2, 4): (168, "0.4", "L", 16, 61, 23),
    (2, 5): (58, "0.1", "W", 76, 7, 17), (2, 6): (2482, "1.1", "W", 45, 36, 18),
    (3, 1): (73, "2.1", "D", 23, 37, 40), (3, 2): (2941, "2.9", "W", 38, 44, 18),
    (3, 3): (24936, "2.6", "W", 46, 40, 14), (3, 4): (190579, "3.6", "W", 46, 42, 12),
    (3, 5): (755748, "3.7", "W", 46, 43, 11), (3, 6): (1255339, "2.0", "L", 35, 45, 10),
    (4, 1): (880, "1.8", "W", 37, 35, 28), (4, 2): (226774, "5.6", "W", 44, 44, 12),
    (4, 3): (4604996, "6.0", "W", 44, 46, 10), (5, 1): (11465, "1.6", "D", 34, 45, 21),
    (6, 1): (178708, "1.7", "W", 38, 44, 18),
}
LARGE = {(3, 5), (3, 6), (4, 2), (4, 3), (6, 1)}


def roundings(counts):
    """The nearest-percent and the largest-remainder roundings of counts."""
    total = sum(counts)
    exact = [100 * c / total for c in counts]
    nearest = [math.floor(x + 0.5) for x in exact]
    floors = [math.floor(x) for x in exact]
    order = sorted(range(3), key=lambda i: exact[i] - floors[i], reverse=True)
    largest = floors[:]
    for i in order[: 100 - sum(floors)]:
        largest[i] += 1
    return nearest, largest


def main() -> None:
    args = sys.argv[1:]
    quick = "--quick" in args
    db = "db"
    if "--db" in args:
        db = args[args.index("--db") + 1]
    rest = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--db")]
    mancala = rest[0] if rest else "target/release/mancala"
    print("| Kalah | size published | measured | share published | measured | value published | measured "
          "| W/L/D % published | measured (exact) | verdict |")
    print("|---|---:|---:|---:|---:|---|---|---|---|---|")
    numbers = agree = 0
    for (m, n), (size, share, letter, w, l, d) in PUBLISHED.items():
        if quick and (m, n) in LARGE:
            continue
        out = subprocess.run([mancala, "graph", "kalah", str(m), str(n), "--db", db, "--json", "--quiet"],
                             capture_output=True, text=True, check=True).stdout
        r = json.loads(out)
        decimals = len(share.split(".")[1]) if "." in share else 0
        measured_share = 100 * r["share_of_configurations"]
        value = r["start_value"]
        measured_letter = "W" if value > 0 else ("L" if value < 0 else "D")
        counts = (r["win"], r["loss"], r["draw"])
        nearest, largest = roundings(counts)
        exact = [100 * c / sum(counts) for c in counts]
        checks = {
            "size": r["positions"] == size,
            "share": abs(measured_share - float(share)) <= max(0.05, 0.051 * float(share)),
            "value": measured_letter == letter,
        }
        for name, pub, i in (("W", w, 0), ("L", l, 1), ("D", d, 2)):
            checks[name] = pub in (nearest[i], largest[i])
        numbers += len(checks)
        agree += sum(checks.values())
        bad = [k for k, ok in checks.items() if not ok]
        verdict = "agrees" if not bad else "differs: " + ", ".join(bad)
        print(f"| ({m},{n}) | {size:,} | {r['positions']:,} | {share}% | {measured_share:.{max(decimals, 2)}f}% "
              f"| {letter} | {measured_letter} ({value:+d}) | {w}/{l}/{d} | "
              + "/".join(f"{x:.1f}" for x in exact) + f" | {verdict} |", flush=True)
    print()
    print(f"{numbers} published numbers of Tables 3 and 5 compared: {agree} agree, {numbers - agree} differ")


if __name__ == "__main__":
    main()
