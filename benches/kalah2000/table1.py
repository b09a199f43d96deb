"""Solving Kalah's Table 1: average game length d, average branching factor
w and w^d, from 100 games per instance between two players that use plain
alpha-beta to 7 plies and order equivalent moves randomly
(`alphabeta:7:ties=random`), for Kalah(2..6, 1..6) (docs/SOLVER.md,
"Table 1"). Needs the binary and the Python package (`pip install .`):

    python3 benches/kalah2000/table1.py [MANCALA] [--games 100] [--rules R] [--quick]

d is counted two ways, single moves (sowings) and turns (an extra-turn
chain is one turn), and w over the positions where a move was chosen.
--quick plays 10 games of Kalah(2..4, 1..3) only.
"""

import json
import os
import subprocess
import sys
import tempfile

import mancala_solver as ms

# Published: (m, n) -> (d, w, w^d).
PUBLISHED = {
    (2, 1): (3.00, 1.40, 2.74e0), (2, 2): (8.00, 1.34, 1.04e1), (2, 3): (6.00, 1.50, 1.14e1),
    (2, 4): (12.00, 1.47, 1.02e2), (2, 5): (6.00, 1.72, 2.59e1), (2, 6): (13.00, 1.64, 6.21e2),
    (3, 1): (6.42, 1.48, 1.24e1), (3, 2): (9.00, 1.72, 1.32e2), (3, 3): (13.35, 2.04, 1.36e4),
    (3, 4): (13.58, 2.21, 4.75e4), (3, 5): (14.00, 2.25, 8.52e4), (3, 6): (15.05, 2.39, 4.95e5),
    (4, 1): (7.00, 1.72, 4.45e1), (4, 2): (10.00, 2.21, 2.78e3), (4, 3): (18.25, 2.67, 6.08e7),
    (4, 4): (23.05, 2.95, 6.75e10), (4, 5): (22.28, 3.11, 9.52e10), (4, 6): (26.72, 3.13, 1.74e13),
    (5, 1): (10.04, 2.06, 1.42e3), (5, 2): (15.00, 2.67, 2.50e6), (5, 3): (23.34, 3.18, 5.33e11),
    (5, 4): (30.04, 3.51, 2.40e16), (5, 5): (35.25, 3.81, 3.00e20), (5, 6): (37.73, 3.94, 2.94e22),
    (6, 1): (11.49, 2.78, 1.26e5), (6, 2): (16.76, 3.43, 9.37e8), (6, 3): (26.62, 3.65, 9.29e14),
    (6, 4): (30.75, 4.08, 6.00e18), (6, 5): (37.66, 4.51, 4.33e24), (6, 6): (49.25, 4.75, 2.12e33),
}


def main() -> None:
    args = sys.argv[1:]
    quick = "--quick" in args
    games = 10 if quick else 100
    if "--games" in args:
        games = int(args[args.index("--games") + 1])
    rules = args[args.index("--rules") + 1] if "--rules" in args else "default"
    suffix = "" if rules == "default" else f":{rules}"
    mancala = next((a for a in args if not a.startswith("--") and not a.isdigit() and a != rules), "target/release/mancala")
    oracle = ms.Oracle(db=tempfile.mkdtemp(), build_limit=0)
    agent = "alphabeta:7:ties=random"
    print("| Kalah | d published | d (moves) | d (turns) | w published | w | w^d published | w^d (moves) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (m, n), (pd, pw, pwd) in PUBLISHED.items():
        if quick and (m > 4 or n > 3):
            continue
        out = os.path.join(tempfile.mkdtemp(), "games.jsonl")
        subprocess.run(
            [mancala, "match", agent, agent, "--game", f"kalah:{m}:{n}{suffix}", "--games", str(games),
             "--seed", "1", "--games-out", out, "--json"],
            check=True, capture_output=True,
        )
        plies = turns = 0
        branching = []
        for line in open(out):
            g = json.loads(line)
            pos = None
            for turn in g["moves"].split("-"):
                turns += 1
                for pit in turn:
                    r = oracle.play(f"kalah:{m}:{n}{suffix}", pos)
                    branching.append(len(r["legal_moves"]))
                    pos = oracle.play(f"kalah:{m}:{n}{suffix}", r["position"], pit)["position"]
                    plies += 1
        d_moves, d_turns = plies / games, turns / games
        w = sum(branching) / len(branching)
        print(f"| ({m},{n}) | {pd:.2f} | {d_moves:.2f} | {d_turns:.2f} | {pw:.2f} | {w:.2f} | {pwd:.2e} | {w ** d_moves:.2e} |",
              flush=True)


if __name__ == "__main__":
    main()
