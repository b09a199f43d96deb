"""The five-game study's time tables measured on this machine: 5.4 (the
time greedy takes for a game), 5.33 and 5.37 (the time basic minimax and
alpha-beta take for a game at depths 4 and 8, and the share alpha-beta
saves). Stdlib only:

    python3 benches/study-000/times.py [MANCALA] [--games N] [--games-8 N] [--tables "5.4 5.33 5.37"]

Each table's match is played as study-000/run.py plays its results table
(greedy v greedy of 5.3, BMM4 v ABMM4 of 5.31, BMM8 v ABMM8 of 5.36: the
first 10 moves of each side random, Awari and Oware ended by repetition
with each side taking its own seeds), BMM as plain `minimax:D`, one thread
(the study's program is sequential), seed 1; --games per match (default
200, the study's), --games-8 for depth 8 (default 40: plain minimax to
depth 8 takes up to 3 s a game here, 15 minutes for 200 games of each game). A game's time is the agent's
thinking time summed over its moves (the random opening excluded). The
seconds are this machine's, the study's are its own (C#, a Dual Xeon), so
only their ratio is shown; the share saved is compared: it agrees when
the published one lies in the measured 95% interval (the ratio
estimator's, over the games).
"""

import json
import math
import os
import subprocess
import sys
import tempfile

GAMES = [("Awari", "awari:6:4"), ("Oware", "oware:6:4"), ("Vai Lung Thlan", "vai-lung-thlan:6:5"),
         ("Ohvalhu", "ohvalhu:8:8"), ("Kalah", "kalah:6:4")]
# Published seconds a game.
TABLE_5_4 = {"Awari": 0.0048, "Oware": 0.0024, "Vai Lung Thlan": 0.0599, "Ohvalhu": 0.0033, "Kalah": 0.001}
# Published (BMM time, ABMM time, time saved %).
TABLE_5_33 = {"Awari": (0.1084, 0.0509, 53.049), "Oware": (0.08, 0.0374, 53.2558),
              "Vai Lung Thlan": (0.2082, 0.101, 51.479), "Ohvalhu": (0.1387, 0.0456, 67.14),
              "Kalah": (0.0252, 0.02, 20.834)}
TABLE_5_37 = {"Awari": (78.35, 3.63, 95.367), "Oware": (25.74, 1.75, 93.2),
              "Vai Lung Thlan": (160.85, 9.2, 94.28), "Ohvalhu": (119.81, 3.54, 97.044),
              "Kalah": (9.51, 1.14, 88.013)}


def play(mancala: str, a: str, b: str, game: str, games: int) -> list:
    """Per game: (a's seconds, b's seconds)."""
    out = os.path.join(tempfile.mkdtemp(), "games.jsonl")
    cmd = [mancala, "match", a, b, "--game", game, "--games", str(games), "--seed", "1",
           "--random-opening", "10", "--threads", "1", "--games-out", out, "--json"]
    if game.startswith(("awari", "oware")):
        cmd += ["--repetition", "own-side"]
    subprocess.run(cmd, check=True, capture_output=True)
    rows = []
    for line in open(out):
        g = json.loads(line)
        rows.append((g["a_time"]["total_seconds"], g["b_time"]["total_seconds"]))
    return rows


def saved(rows: list) -> tuple:
    """The share of the first agent's time the second saves, with its 95%
    interval: 1 - sum(b) / sum(a), the ratio estimator's standard error."""
    x = [a for a, _ in rows]
    y = [b for _, b in rows]
    g = len(rows)
    r = sum(y) / sum(x)
    se = math.sqrt(sum((yi - r * xi) ** 2 for xi, yi in zip(x, y)) / (g * (g - 1))) / (sum(x) / g) if g > 1 else 0
    return 1 - r, 1 - r - 1.96 * se, 1 - r + 1.96 * se


def main() -> None:
    args = sys.argv[1:]
    opt = lambda name, default: args[args.index(name) + 1] if name in args else default
    games = int(opt("--games", 200))
    games8 = int(opt("--games-8", 40))
    tables = opt("--tables", "5.4 5.33 5.37").split()
    values = {opt(n, None) for n in ("--games", "--games-8", "--tables")}
    rest = [a for a in args if not a.startswith("--") and a not in values]
    mancala = rest[0] if rest else "target/release/mancala"
    if "5.4" in tables:
        print(f"### Table 5.4: the time greedy takes for a game ({games} games of greedy v greedy)")
        print()
        print("| game | published (s) | measured (s) | published / measured |")
        print("|---|---:|---:|---:|")
        for name, game in GAMES:
            rows = play(mancala, "rovaris-greedy", "rovaris-greedy", game, games)
            mean = sum(a + b for a, b in rows) / (2 * len(rows))
            print(f"| {name} | {TABLE_5_4[name]} | {mean:.3g} | {TABLE_5_4[name] / mean:,.0f} |", flush=True)
        print()
    agree = compared = 0
    for table, depth, n, published in (("5.33", 4, games, TABLE_5_33), ("5.37", 8, games8, TABLE_5_37)):
        if table not in tables:
            continue
        print(f"### Table {table}: time saved by alpha-beta, BMM{depth} v ABMM{depth} ({n} games, one thread)")
        print()
        print("| game | BMM published / measured (s) | ABMM published / measured (s) | time saved published | "
              "measured [95%] | verdict |")
        print("|---|---|---|---:|---|---|")
        for name, game in GAMES:
            rows = play(mancala, f"minimax:{depth}", f"alphabeta:{depth}", game, n)
            bmm = sum(a for a, _ in rows) / len(rows)
            ab = sum(b for _, b in rows) / len(rows)
            s, lo, hi = saved(rows)
            pub_bmm, pub_ab, pub_saved = published[name]
            ok = 100 * lo <= pub_saved <= 100 * hi
            agree += ok
            compared += 1
            print(f"| {name} | {pub_bmm} / {bmm:.3g} | {pub_ab} / {ab:.3g} | {pub_saved:.1f}% | "
                  f"{100 * s:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | {'agrees' if ok else 'differs'} |", flush=True)
        print()
    if compared:
        print(f"time saved: {agree} of {compared} published shares agree (inside the measured 95% interval)")


if __name__ == "__main__":
    main()
