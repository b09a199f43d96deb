"""Compare the engine with OpenSpiel's `mancala` and `oware` on random games:
every position, legal move set, end and result (docs/python.md,
"Differences found"). Prints one line a game and size, with the seed.

    pip install . open_spiel
    python examples/python/compare_openspiel.py [--db db] [--scale 1.0]
"""

import argparse
import time

import pyspiel

import mancala_solver as ms
from mancala_solver.openspiel_compare import compare_random_games

RUNS = [
    ("mancala", {}, 1000, 11),
    ("oware", {}, 500, 12),
    ("oware", {"num_houses_per_player": 3, "num_seeds_per_house": 3}, 500, 13),
    ("oware", {"num_houses_per_player": 4, "num_seeds_per_house": 4}, 300, 14),
    ("oware", {"num_houses_per_player": 5, "num_seeds_per_house": 2}, 300, 15),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default="db")
    ap.add_argument("--scale", type=float, default=1.0, help="games as a share of the documented run")
    args = ap.parse_args()
    oracle = ms.Oracle(db=args.db)
    failed = False
    for name, params, games, seed in RUNS:
        g = pyspiel.load_game(name, params)
        t = time.time()
        c = compare_random_games(g, oracle, games=max(1, int(games * args.scale)), seed=seed)
        print(
            f"{name} {params}: {c.game}, seed {seed}: {c.games} games, {c.positions} positions, "
            f"disagreements {len(c.disagreements)}, ended at a majority {c.ended_by_majority}, "
            f"at a repetition {c.ended_by_repetition} (result differs under the engine's rule "
            f"{c.repetition_results_differ}), {time.time() - t:.1f} s",
            flush=True,
        )
        for d in c.disagreements[:5]:
            print("   ", d)
        failed |= not c.agree
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
