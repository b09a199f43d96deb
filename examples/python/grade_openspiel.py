"""Grade OpenSpiel's MCTS bot against perfect play, as `mancala grade` does.

For each simulation budget, OpenSpiel's `MCTSBot` (random roll-outs) plays
games against itself and against a uniform random player, changing sides
game by game; every move it chooses is a decision, graded by the engine's
exact values: perfect when it keeps the position's value, else its loss
(the best move's value minus the chosen one's, in seeds of final margin).
The table gives the share of perfect moves (Wilson 95% interval) and the
mean loss per move (bootstrap 95% interval), for the whole game and by
phase (thirds of the seeds still on the board). Decisions the engine
cannot value exactly (above the tables, or a Kalah search that does not
finish in `--solve-ms`) are skipped and counted.

    pip install . open_spiel
    python examples/python/grade_openspiel.py                       # oware, 3 houses of 4 seeds
    python examples/python/grade_openspiel.py --game mancala --budgets 100,400 --db db

Kalah(6,4) (OpenSpiel's `mancala`) is valued by the engine's search above
its tables: give it tables (`--db`, `--build-limit`) and time.
"""

from __future__ import annotations

import argparse
import math
import random
from typing import Dict, List, Tuple

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import mancala_solver as ms
from mancala_solver import openspiel as bridge


def load(name: str):
    if name == "mancala":
        return pyspiel.load_game("mancala")
    parts = name.split(":")
    if parts[0] != "oware" or len(parts) != 3:
        raise SystemExit(f"unknown game {name!r}: use mancala or oware:HOUSES:SEEDS")
    return pyspiel.load_game("oware", {"num_houses_per_player": int(parts[1]), "num_seeds_per_house": int(parts[2])})


def wilson(k: int, n: int) -> Tuple[float, float]:
    if n == 0:
        return (math.nan, math.nan)
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def bootstrap_mean(xs: List[int], rng: np.random.RandomState) -> Tuple[float, float]:
    if not xs:
        return (math.nan, math.nan)
    a = np.array(xs, dtype=float)
    means = a[rng.randint(0, len(a), size=(1000, len(a)))].mean(axis=1)
    return (float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5)))


def grade(game, exact: bridge.ExactOracle, budget: int, games: int, seed: int) -> Dict[str, List[int]]:
    """Losses of the MCTS bot's decisions by phase, and the skipped count."""
    rng = random.Random(seed)
    total = None
    losses: Dict[str, List[int]] = {"opening": [], "middle": [], "ending": [], "skipped": []}
    for g in range(games):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed + g))
        bot = mcts.MCTSBot(game, 2.0, budget, evaluator, random_state=np.random.RandomState(seed + g))
        opponent = "self" if g % 2 == 0 else "random"
        side = (g // 2) % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            graded = opponent == "self" or state.current_player() == side
            action = bot.step(state) if graded else rng.choice(state.legal_actions())
            if graded:
                b = bridge.board(state)
                seeds = sum(b.pits) + sum(b.opponent_pits)
                total = total or sum(b.counts())
                try:
                    values = exact.action_values(state)
                except ms.TablesError:
                    values = {}
                if values.get(action) is None or any(v is None for v in values.values()):
                    losses["skipped"].append(1)
                else:
                    phase = "opening" if seeds > 2 * total / 3 else "middle" if seeds > total / 3 else "ending"
                    losses[phase].append(max(values.values()) - values[action])
            state.apply_action(action)
    return losses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="oware:3:4", help="mancala or oware:HOUSES:SEEDS (default oware:3:4)")
    ap.add_argument("--budgets", default="25,100,400", help="MCTS simulations a move, comma-separated")
    ap.add_argument("--games", type=int, default=20, help="games a budget (half against itself, half against random)")
    ap.add_argument("--db", default="db", help="the engine's tables (built on first use when small)")
    ap.add_argument("--build-limit", type=int, default=20_000_000, help="largest table set built on demand (positions)")
    ap.add_argument("--solve-ms", type=int, default=2000, help="Kalah search budget a position")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    game = load(args.game)
    exact = bridge.ExactOracle(ms.Oracle(db=args.db, solve_ms=args.solve_ms, build_limit=args.build_limit))
    boot = np.random.RandomState(args.seed)
    print(f"OpenSpiel {args.game} (the engine's {bridge.engine_game(game)}), MCTS with random roll-outs, "
          f"{args.games} games a budget, seed {args.seed}")
    print()
    print("| MCTS simulations | phase | decisions (skipped) | perfect moves % (95% CI) | mean loss per move (95% CI) |")
    print("|---|---|---|---|---|")
    for budget in [int(b) for b in args.budgets.split(",")]:
        losses = grade(game, exact, budget, args.games, args.seed)
        skipped = len(losses["skipped"])
        rows = [("all", losses["opening"] + losses["middle"] + losses["ending"])]
        rows += [(p, losses[p]) for p in ("opening", "middle", "ending")]
        for phase, xs in rows:
            n, k = len(xs), sum(1 for x in xs if x == 0)
            lo, hi = wilson(k, n)
            mlo, mhi = bootstrap_mean(xs, boot)
            share = f"{100 * k / n:.1f} ({100 * lo:.1f}-{100 * hi:.1f})" if n else "-"
            mean = f"{sum(xs) / n:.2f} ({mlo:.2f}-{mhi:.2f})" if n else "-"
            count = f"{n} ({skipped})" if phase == "all" else f"{n}"
            print(f"| {budget if phase == 'all' else ''} | {phase} | {count} | {share} | {mean} |")


if __name__ == "__main__":
    main()
